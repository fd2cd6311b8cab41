// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_unpack (lib/kmsg_unpack.c): the input after its first byte is
 * written to a file whose name the first byte chooses (bits 0-2: x.ko,
 * x.ko.xz, x.ko.zst, x.ko.gz, vmlinuz-1, vmlinux-1, x.deb, an unknown
 * name; bit 3: in a directory, which is unpacked; bit 4: modules only)
 * and unpacked, each blob read whole. The cap of a member is 64 MiB here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "kmsg_unpack.h"

static const char *const names[] = {
	"x.ko", "x.ko.xz", "x.ko.zst", "x.ko.gz", "vmlinuz-1", "vmlinux-1",
	"x.deb", "x.bin",
};

static char dir[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/d", fuzz_tmpdir());
	if (mkdir(dir, 0700))
		abort();
	return 0;
}

static int blob(const struct kmsg_blob *b, void *arg)
{
	unsigned long *sum = arg;
	size_t i;

	/* every byte of it is there, and the strings end */
	for (i = 0; i < b->size; i++)
		*sum += b->data[i];
	*sum += strlen(b->name) + strlen(b->compression) +
		(b->version ? strlen(b->version) : 0);
	if ((unsigned int)b->kind >= KMSG_BLOB_KINDS)
		__builtin_trap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_unpack_opts o = { .max_size = 64 << 20 };
	char path[4096 + 64];
	unsigned long sum = 0;
	char *err = NULL;
	int ret, sel;

	if (!size)
		return 0;
	sel = data[0];
	snprintf(path, sizeof(path), "%s/%s", dir, names[sel & 7]);
	fuzz_write(path, data + 1, size - 1);
	if (sel & 16)
		o.kinds = 1U << KMSG_BLOB_MODULE;
	ret = kmsg_unpack_ex(sel & 8 ? dir : path, &o, blob, &sum, &err);
	/* an error is one line that names the input */
	if (ret && (!err || strncmp(err, sel & 8 ? dir : path, strlen(dir)) ||
		    strchr(err, '\n')))
		__builtin_trap();
	if (!ret && err)
		__builtin_trap();
	free(err);
	unlink(path);
	return 0;
}
