// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the kallsyms reader (lib/kmsg_ksyms.c), under ASan and
 * UBSan: symbols and their modules, an empty file (no qsort() of NULL),
 * and the errno of a file that cannot be read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmsg_ksyms.h"
#include "tap.h"

static const char text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t helper\n"
	"0000000000000000 T hidden\n"
	"not a line\n"
	"ffffffffc0001000 t kmsgtest_fire\t[kmsgtest]\n"
	"ffffffffc0002000 t kmsgtest_end\t[kmsgtest]\n";

static void test_parse(void)
{
	unsigned long long off, size;
	const char *name, *mod;
	struct kmsg_ksyms ks;
	int ret;

	ret = kmsg_ksyms_parse(&ks, text, strlen(text));
	ok(!ret && ks.n == 4,
	   "parse: 4 symbols (%zu), the zero address and a bad line skipped",
	   ks.n);
	ok(!kmsg_ksyms_lookup(&ks, 0xffffffffc0001010ULL, &name, &off, &size,
			      &mod) && !strcmp(name, "kmsgtest_fire") &&
	   off == 0x10 && size == 0x1000 && mod && !strcmp(mod, "kmsgtest"),
	   "lookup: a module's symbol, its offset and size");
	ok(!kmsg_ksyms_lookup(&ks, 0xffffffff81000004ULL, &name, &off, &size,
			      &mod) && !strcmp(name, "_stext") && !mod,
	   "lookup: a vmlinux symbol has no module");
	ok(kmsg_ksyms_lookup(&ks, 0x1000, &name, &off, &size, &mod),
	   "lookup below the first symbol: none");
	kmsg_ksyms_free(&ks);
}

/* An empty file: no symbols, and no qsort(NULL, 0, ...) (UBSan) */
static void test_empty(const char *dir)
{
	unsigned long long off, size;
	const char *name, *mod;
	struct kmsg_ksyms ks;
	char path[4096];
	FILE *f;

	ok(!kmsg_ksyms_parse(&ks, "", 0) && ks.n == 0 && !ks.syms,
	   "parse of nothing: no symbols");
	ok(kmsg_ksyms_lookup(&ks, 0xffffffff81000000ULL, &name, &off, &size,
			     &mod), "lookup in no symbols: none");
	kmsg_ksyms_free(&ks);
	ok(!kmsg_ksyms_parse(&ks, "garbage\n\n", 9) && ks.n == 0,
	   "parse of lines that are no symbols: none");
	kmsg_ksyms_free(&ks);

	snprintf(path, sizeof(path), "%s/empty", dir);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	ok(f && !kmsg_ksyms_load(&ks, path) && ks.n == 0,
	   "load of an empty file: no symbols");
	kmsg_ksyms_free(&ks);
	unlink(path);
}

static void test_errors(const char *dir)
{
	struct kmsg_ksyms ks;
	int ret;

	ret = kmsg_ksyms_load(&ks, "/nonexistent/kallsyms");
	ok(ret == -ENOENT, "load of a missing file: -ENOENT (%d)", ret);
	ret = kmsg_ksyms_load(&ks, dir);
	ok(ret == -EISDIR && !ks.n,
	   "load of a directory: -EISDIR, not an empty table (%d)", ret);
}

int main(void)
{
	char dir[] = "/tmp/kmsg-ksyms-XXXXXX";

	printf("TAP version 13\n");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_parse();
	test_empty(dir);
	test_errors(dir);
	rmdir(dir);
	return tap_done();
}
