// SPDX-License-Identifier: GPL-2.0
/*
 * The printk call-site reader (lib/kmsg_sites.c): the input is the ELF
 * image, read as it is and, with a System.map of the fuzzer's own, with
 * its symbol tables ignored (as a stripped vmlinux).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_sites.h"

static char map[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char text[] =
		"ffffffff81000000 T _printk\n"
		"ffffffff81000100 T _dev_err\n"
		"ffffffff81000200 t __dynamic_pr_debug\n"
		"ffffffff81100000 D __start___dyndbg\n"
		"ffffffff81100038 D __stop___dyndbg\n";

	(void)argc;
	(void)argv;
	snprintf(map, sizeof(map), "%s/System.map", fuzz_tmpdir());
	fuzz_write(map, (const uint8_t *)text, sizeof(text) - 1);
	return 0;
}

static void read_sites(const uint8_t *data, size_t size, const char *sysmap)
{
	struct kmsg_sites_stats st = { 0 };
	struct kmsg_wrappers wr = { 0 };
	struct kmsg_msgs msgs = { 0 };
	char *err = NULL;
	int ret;

	ret = kmsg_sites_scan("fuzz.ko", data, size, sysmap, &msgs, &st, &wr,
			      NULL, &err);
	/* an error says which file, and adds nothing: no wrapper either */
	if (ret && (!err || msgs.n || wr.n ||
		    (strncmp(err, "fuzz.ko: ", 9) && strncmp(err, map, strlen(map)))))
		__builtin_trap();
	free(err);
	err = NULL;
	/* the calls of the wrappers it defines, a second pass */
	if (!ret && wr.n) {
		size_t n = msgs.n;

		kmsg_wrappers_sort(&wr);
		ret = kmsg_sites_scan("fuzz.ko", data, size, sysmap, &msgs, NULL,
				      NULL, &wr, &err);
		if (ret && (!err || msgs.n != n))
			__builtin_trap();
		free(err);
	}
	kmsg_wrappers_free(&wr);
	kmsg_msgs_free(&msgs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact copy: libFuzzer's buffer is checked at its very end */
	uint8_t *copy = malloc(size ? size : 1);

	memcpy(copy, data, size);
	read_sites(copy, size, NULL);
	read_sites(copy, size, map);
	free(copy);
	return 0;
}
