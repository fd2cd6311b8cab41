// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF index reader (lib/kmsg_index.c): the input is written to a
 * file and read as an object, its curated messages and all its sites.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "kmsg_index.h"

static char path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/fuzz.ko", fuzz_tmpdir());
	return 0;
}

static void read_index(bool sites)
{
	struct kmsg_msgs msgs = { 0 };
	char *bid = NULL, *err = NULL;
	int ret;

	ret = sites ? kmsg_index_read_sites(path, &msgs, &bid, &err) :
		kmsg_index_read(path, &msgs, &bid, &err);
	/* an error says which file, and adds nothing */
	if (ret && (!err || msgs.n))
		__builtin_trap();
	free(err);
	free(bid);
	kmsg_msgs_free(&msgs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(path, data, size);
	read_index(false);
	read_index(true);
	return 0;
}
