// SPDX-License-Identifier: GPL-2.0
/*
 * unpack_list - what kmsg_unpack() hands out of an input, for
 * tools/tests/unpack.sh and for measuring it.
 *
 *   unpack_list [--count] [--kinds LIST] [--progress] [--max BYTES] PATH
 *
 * One line per blob: "KIND NAME SIZE SHA256", and "version VERSION" after
 * a bzImage's; with --count only a last line "BLOBS blobs BYTES bytes".
 * LIST: comma-separated kinds (vmlinux,module,System.map,config).
 * --progress: "done/total in_pos/in_size" lines on stderr, one per 1000
 * members. The error on stderr and exit status 1 on an error.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_unpack.h"

struct state {
	int count;
	unsigned long blobs;
	unsigned long long bytes;
	int stop_after;		/* stop with 42 after that many blobs */
};

static int list(const struct kmsg_blob *b, void *arg)
{
	struct state *s = arg;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;

	s->blobs++;
	s->bytes += b->size;
	if (!s->count) {
		if (!EVP_Digest(b->data, b->size, md, &mdlen, EVP_sha256(), NULL)) {
			fprintf(stderr, "unpack_list: sha256 failed\n");
			exit(2);
		}
		printf("%s %s %zu ", kmsg_blob_kind_name(b->kind), b->name, b->size);
		for (i = 0; i < mdlen; i++)
			printf("%02x", md[i]);
		printf(" %s\n", b->compression);
		if (b->version)
			printf("version %s\n", b->version);
	}
	if (s->stop_after && s->blobs == (unsigned long)s->stop_after)
		return 42;
	return 0;
}

static void progress(const struct kmsg_unpack_progress *p, void *arg)
{
	(void)arg;
	if (p->done % 1000 == 0)
		fprintf(stderr, "progress %lu/%lu %llu/%llu %lu blobs\n", p->done,
			p->total, (unsigned long long)p->in_pos,
			(unsigned long long)p->in_size, p->blobs);
}

int main(int argc, char **argv)
{
	struct kmsg_unpack_opts o = { 0 };
	struct state s = { 0 };
	char *err = NULL, *tok;
	int i, r, k;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--count")) {
			s.count = 1;
		} else if (!strcmp(argv[i], "--progress")) {
			o.progress = progress;
		} else if (!strcmp(argv[i], "--max") && i + 1 < argc - 1) {
			o.max_size = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--stop-after") && i + 1 < argc - 1) {
			s.stop_after = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--kinds") && i + 1 < argc - 1) {
			for (tok = strtok(argv[++i], ","); tok; tok = strtok(NULL, ",")) {
				for (k = 0; k < KMSG_BLOB_KINDS; k++)
					if (!strcmp(tok, kmsg_blob_kind_name(k)))
						break;
				if (k == KMSG_BLOB_KINDS) {
					fprintf(stderr, "unpack_list: no kind %s\n", tok);
					return 2;
				}
				o.kinds |= 1U << k;
			}
		} else {
			break;
		}
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: unpack_list [--count] [--kinds LIST] [--progress] [--max BYTES] [--stop-after N] PATH\n");
		return 2;
	}
	r = kmsg_unpack_ex(argv[i], &o, list, &s, &err);
	if (s.count || r > 0)
		printf("%lu blobs %llu bytes\n", s.blobs, s.bytes);
	if (r > 0) {
		printf("stopped: %d\n", r);
		return 0;
	}
	if (r) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return 1;
	}
	return 0;
}
