// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg dmesg: the kernel log, from /dev/kmsg or dmesg text, annotated
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmsg_dmesg.h"
#include "kmsg_docs.h"
#include "kmsg_json.h"
#include "kmsg.h"

/* "comp.N: " in @text, at its start or after ": " (device messages) */
static bool find_id(const char *text, char *id, size_t size)
{
	const char *p = text, *q;

	for (;;) {
		q = p;
		while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		       (*q >= '0' && *q <= '9') || *q == '_' || *q == '-')
			q++;
		if (q > p && *q == '.' && q[1] >= '0' && q[1] <= '9') {
			const char *d = q + 1;

			while (*d >= '0' && *d <= '9')
				d++;
			if (d[0] == ':' && d[1] == ' ' && (size_t)(d - p) < size) {
				snprintf(id, size, "%.*s", (int)(d - p), p);
				return true;
			}
		}
		p = strstr(p, ": ");
		if (!p)
			return false;
		p += 2;
	}
}

/*
 * One line of /dev/kmsg ("pri,seq,ts,flags;text") or of dmesg output, of
 * @len bytes: shown with control characters and NULs escaped
 */
static void dmesg_line(struct options *o, struct kmsg_docs *docs,
		       const char *line, size_t len)
{
	struct state st = { .opt = o, .docs = docs };
	struct kmsg_strbuf text = { 0 };
	struct kmsg_dmesg_line l;
	const char *shown;
	size_t shown_len;
	char id[96];

	if (len && line[len - 1] == '\n')
		len--;
	kmsg_dmesg_parse(line, len, &l);
	if (l.dict)
		return;
	/* a record's text after its time and level; other lines whole */
	shown = l.record ? l.text : line;
	shown_len = l.record ? l.text_len : len;
	if (l.record)
		printf("[%5llu.%06llu] %-6s ", l.ts / 1000000, l.ts % 1000000,
		       kmsg_level_name(l.pri & 7));
	if (kmsg_dmesg_escape(&text, shown, shown_len)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	printf("%s\n", text.buf ? text.buf : "");
	/* the id is looked for in the message, after dmesg's "[ts] " */
	if (o->explain && shown != l.text) {
		kmsg_strbuf_free(&text);
		if (kmsg_dmesg_escape(&text, l.text, l.text_len))
			text.len = 0;
	}
	if (o->explain && text.buf && find_id(text.buf, id, sizeof(id)))
		print_explain(&st, id);
	kmsg_strbuf_free(&text);
}

static int cmd_dmesg(struct options *o, const char *file)
{
	struct kmsg_docs *docs = NULL;
	bool kmsg = !file;
	char err[1024], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	if (o->explain) {
		docs = docs_open(o, err, sizeof(err));
		if (!docs) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return 1;
		}
	}
	if (kmsg) {
		/* every record once, without waiting for new ones */
		int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
		char rec[8192];
		ssize_t n;

		if (fd < 0) {
			fprintf(stderr, "%s: /dev/kmsg: %s\n", prog, strerror(errno));
			kmsg_docs_close(docs);
			return 1;
		}
		while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 ||
		       (n < 0 && errno == EPIPE)) {
			if (n <= 0)
				continue;
			dmesg_line(o, docs, rec, n);
		}
		close(fd);
	} else {
		f = strcmp(file, "-") ? fopen(file, "r") : stdin;
		if (!f) {
			fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
			kmsg_docs_close(docs);
			return 1;
		}
		while ((len = getline(&line, &cap, f)) > 0)
			dmesg_line(o, docs, line, len);
		if (f != stdin)
			fclose(f);
		free(line);
	}
	kmsg_docs_close(docs);
	return 0;
}

int dmesg_main(int argc, char **argv)
{
	struct options o = { 0 };

	if (parse_command(argc, argv, &o, false, usage_docs, 0, 1))
		return 1;
	return cmd_dmesg(&o, optind < argc ? argv[optind] : NULL);
}
