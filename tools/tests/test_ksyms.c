// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the symbol tables of %ps and %pS (tools/lib/kmsg_ksyms):
 * read from kallsyms text, and from what libtraceevent read of it (as
 * kmsg report does with a trace.dat's), the messages render as the
 * kernel printed them, " [module]" included. Output is TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "bin_encode.h"
#include "kmsg_ksyms.h"
#include "kmsg_render.h"
#include "tap.h"

/*
 * As the guest's /proc/kallsyms lists them: vmlinux, then modules in
 * the order of their symbol tables, a tab before "[module]"
 */
#define KALLSYMS \
	"000000000001a000 A fixed_percpu_data\n" \
	"ffffffff81000000 T _stext\n" \
	"ffffffff81000000 T _text\n" \
	"ffffffff81000000 T startup_64\n" \
	"ffffffff81000100 T do_one_initcall\n" \
	"ffffffff810002a0 T _printk\n" \
	"ffffffff81600000 T _etext\n" \
	"ffffffffa0000000 t kmsgtest_target\t[kmsgtest]\n" \
	"ffffffffa0000005 t kmsgtest_block_write\t[kmsgtest]\n" \
	"ffffffffa00000e1 t kmsgtest_fire\t[kmsgtest]\n" \
	"ffffffffa00006d3 t cleanup_module\t[kmsgtest]\n" \
	"ffffffffa00006d3 t kmsgtest_exit\t[kmsgtest]\n" \
	"ffffffffa00006e5 t kmsgtest_last\t[kmsgtest]\n" \
	"ffffffffa0002040 t kmsg_paths_work\t[kmsg_paths]\n" \
	"ffffffffa0002000 t kmsg_paths_fn\t[kmsg_paths]\n" \
	"ffffffffa0002080 t kmsg_paths_exit\t[kmsg_paths]\n"

/* lines libtraceevent would refuse, kmsg skips */
static const char kallsyms[] = KALLSYMS "not a symbol line\n"
	"ffffffffa0003000 t\n"
	"daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
	"0xffffffffa0003000 t hex_prefix\n"
	"ffffffffa0003000  t two_spaces\n"
	"1ffffffffa0003000 t seventeen_digits\n"
	"ffffffffa0003000 t unclosed\t[kmsgtest\n"
	"ffffffffa0003000 t empty_module\t[]\n"
	"ffffffffa0003000 t space_module [kmsgtest]\n"
	"ffffffffa0003000 t";

/* kmsg_render() of fmt and its arguments over the table ks */
static int renders(struct kmsg_ksyms *ks, const char *want, const char *fmt,
		   ...)
{
	struct kmsg_render_opts o = {
		.long_size = 8, .lookup_symbol = kmsg_ksyms_lookup,
		.lookup_ctx = ks,
	};
	struct kmsg_strbuf out = { 0 };
	unsigned char rec[256];
	struct kmsg_args args;
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = bin_vencode(8, rec, sizeof(rec), fmt, ap);
	va_end(ap);
	ret = n > 0 && n <= (int)sizeof(rec) &&
	      !kmsg_args_decode(fmt, strlen(fmt), rec, n, &o, &args) &&
	      kmsg_render(&out, fmt, strlen(fmt), &args, &o) >= 0 &&
	      out.buf && !strcmp(out.buf, want);
	if (!ret)
		printf("# got \"%s\", want \"%s\"\n", out.buf ? out.buf : "",
		       want);
	kmsg_strbuf_free(&out);
	return ret;
}

#define P(a)	((void *)(a##UL))

/* What the kernel prints for these symbols, module by module */
static void test_symbols(struct kmsg_ksyms *ks, const char *from)
{
	ok(renders(ks, "kmsgtest_target [kmsgtest] kmsgtest_target+0x0/0x5 [kmsgtest]",
		   "%ps %pS", P(0xffffffffa0000000), P(0xffffffffa0000000)),
	   "%s: %%ps and %%pS of a module symbol end in \" [kmsgtest]\"", from);
	ok(renders(ks, "kmsgtest_block_write+0x10/0xdc [kmsgtest]", "%pS",
		   P(0xffffffffa0000015)),
	   "%s: %%pS inside a module function: offset, size, module", from);
	ok(renders(ks, "kmsg_paths_fn+0x3f/0x40 [kmsg_paths] kmsg_paths_work [kmsg_paths]",
		   "%pS %ps", P(0xffffffffa000203f), P(0xffffffffa0002040)),
	   "%s: each module its own name", from);
	ok(renders(ks, "do_one_initcall+0x30/0x1a0 _printk", "%pS %ps",
		   P(0xffffffff81000130), P(0xffffffff810002a0)),
	   "%s: vmlinux symbols have no suffix", from);
	/* the kernel renders %pB when it records the message */
	ok(renders(ks, "kmsgtest_fire+0x10/0x5f2 [kmsgtest]", "%pB",
		   "kmsgtest_fire+0x10/0x5f2 [kmsgtest]"),
	   "%s: %%pB as the kernel rendered it", from);
	/* sizes end at the module: the module's end is not known */
	ok(renders(ks, "0xffffffffa00006e8 0xffffffffa0002090", "%pS %pS",
		   P(0xffffffffa00006e8), P(0xffffffffa0002090)),
	   "%s: past a module's last symbol: the address", from);
	ok(renders(ks, "0xffffffff82000000 0x1a010 0xffff8880deadbeef",
		   "%pS %pS %pS", P(0xffffffff82000000), P(0x1a010),
		   P(0xffff8880deadbeef)),
	   "%s: outside the symbols, absolute ones skipped: the address", from);
}

/* kallsyms text read by kmsg itself: --kallsyms, and kmsg live */
static void test_kallsyms_text(void)
{
	char line[19 + 512 + 11];
	struct kmsg_ksyms ks;

	ok(!kmsg_ksyms_parse(&ks, kallsyms, strlen(kallsyms)) && ks.n == 15,
	   "kallsyms text: 15 symbols; absolute ones, other lines skipped");
	test_symbols(&ks, "kallsyms text");
	ok(renders(&ks, "_stext+0x0/0x100 cleanup_module [kmsgtest]",
		   "%pS %ps", P(0xffffffff81000000), P(0xffffffffa00006d3)),
	   "kallsyms text: of aliases, the first listed, as the kernel");
	kmsg_ksyms_free(&ks);

	/* KSYM_NAME_LEN is 512: a 511-byte name, with its module */
	memcpy(line, "ffffffffa0000000 t ", 19);
	memset(line + 19, 'n', 511);
	memcpy(line + 19 + 511, "\t[kmsgtest]", 11);
	ok(!kmsg_ksyms_parse(&ks, line, 19 + 511 + 11) && ks.n == 1 &&
	   strlen(ks.syms[0].name) == 511 && ks.syms[0].module &&
	   !strcmp(ks.syms[0].module, "kmsgtest"),
	   "kallsyms text: a name of 511 bytes, whole, and its module");
	kmsg_ksyms_free(&ks);
	line[19 + 511] = 'n';
	ok(!kmsg_ksyms_parse(&ks, line, 19 + 512) && ks.n == 0,
	   "kallsyms text: a name of 512 bytes, too long, skipped");
	kmsg_ksyms_free(&ks);

	ok(!kmsg_ksyms_parse(&ks, "ffffffffa0000000 t f\t[m]\r\n", 24) &&
	   ks.n == 1 && !strcmp(ks.syms[0].name, "f") &&
	   !strcmp(ks.syms[0].module, "m"),
	   "kallsyms text: a line ending in CR LF");
	kmsg_ksyms_free(&ks);
}

/* The trace.dat's kallsyms, as libtracecmd hands them to libtraceevent */
static void test_from_tep(void)
{
	struct tep_handle *tep = tep_alloc();
	FILE *saved = stdout;
	struct kmsg_ksyms ks;

	if (!tep || tep_parse_kallsyms(tep, KALLSYMS))
		exit(1);
	ok(!kmsg_ksyms_from_tep(&ks, tep) && ks.n == 15 && stdout == saved,
	   "libtraceevent's symbols: 15, stdout given back");
	test_symbols(&ks, "libtraceevent");
	kmsg_ksyms_free(&ks);
	tep_free(tep);

	/* a trace.dat without kallsyms: no symbols, addresses */
	tep = tep_alloc();
	if (!tep)
		exit(1);
	ok(!kmsg_ksyms_from_tep(&ks, tep) && ks.n == 0 &&
	   renders(&ks, "0xffffffffa0000000", "%pS", P(0xffffffffa0000000)),
	   "libtraceevent without kallsyms: addresses");
	kmsg_ksyms_free(&ks);
	tep_free(tep);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		exit(1);
}

/* --kallsyms FILE: what is wrong with a file */
static void test_load(void)
{
	char dir[] = "/tmp/test_ksyms.XXXXXX", path[64];
	struct kmsg_ksyms ks;

	if (!mkdtemp(dir))
		exit(1);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	ok(kmsg_ksyms_load(&ks, path) == -ENOENT &&
	   !strcmp(kmsg_ksyms_strerror(-ENOENT), "No such file or directory"),
	   "a file that is not there: ENOENT, its message");
	ok(kmsg_ksyms_load(&ks, dir) == -EISDIR, "a directory: EISDIR");
	write_file(path, "0000000000000000 T _stext\n"
		   "0000000000000000 t kmsgtest_target\t[kmsgtest]\n");
	ok(!kmsg_ksyms_load(&ks, path) && !ks.n &&
	   strstr(kmsg_ksyms_strerror(-ENODATA), "kptr_restrict"),
	   "addresses hidden: no symbols, and a message that says why");
	kmsg_ksyms_free(&ks);
	write_file(path, KALLSYMS);
	ok(!kmsg_ksyms_load(&ks, path) && ks.n == 15, "a kallsyms file: 15 symbols");
	kmsg_ksyms_free(&ks);
	unlink(path);
	rmdir(dir);
}

static unsigned long long fake_ns;

static unsigned long long fake_clock(void)
{
	return fake_ns;
}

/* %pS of a symbol of kf: "name+off/size [module]", or the address */
static const char *pS(struct kmsg_ksyms_file *kf, unsigned long long addr)
{
	static char buf[256];
	unsigned long long off, size;
	const char *name, *mod;

	if (kmsg_ksyms_file_lookup(kf, addr, &name, &off, &size, &mod))
		snprintf(buf, sizeof(buf), "0x%llx", addr);
	else
		snprintf(buf, sizeof(buf), "%s+0x%llx/0x%llx%s%s%s", name, off,
			 size, mod ? " [" : "", mod ? mod : "", mod ? "]" : "");
	return buf;
}

#define SEC	1000000000ULL

/*
 * kmsg live: /proc/kallsyms before and after a module was loaded. An
 * address not found reads the file again, at most once a second.
 */
static void test_file_reload(void)
{
	char dir[] = "/tmp/test_ksyms.XXXXXX", path[64], bad[64];
	struct kmsg_ksyms_file kf = { .reload_ns = SEC, .clock_ns = fake_clock };
	const unsigned long long mod = 0xffffffffa0000010ULL;
	const char *want = "kmsgtest_target+0x10/0x20 [kmsgtest]";

	if (!mkdtemp(dir))
		exit(1);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	snprintf(bad, sizeof(bad), "%s/nonexistent", dir);
	kf.path = bad;
	ok(kmsg_ksyms_file_load(&kf) == -ENOENT && !kf.ks.n,
	   "a file that is not there: ENOENT");
	kf.path = path;
	write_file(path, "0000000000000000 T _stext\n0000000000000000 T _text\n");
	ok(kmsg_ksyms_file_load(&kf) == -ENODATA && !kf.ks.n,
	   "kallsyms read with hidden addresses: ENODATA");
	write_file(path, "ffffffff81000000 T _stext\n"
		   "ffffffff81000100 T do_one_initcall\n"
		   "ffffffff81600000 T _etext\n");
	fake_ns = 100 * SEC;
	ok(!kmsg_ksyms_file_load(&kf) && kf.ks.n == 3 && kf.reads == 3,
	   "before the module: 3 symbols");
	/* the module is loaded */
	write_file(path, "ffffffff81000000 T _stext\n"
		   "ffffffff81000100 T do_one_initcall\n"
		   "ffffffff81600000 T _etext\n"
		   "ffffffffa0000000 t kmsgtest_target\t[kmsgtest]\n"
		   "ffffffffa0000020 t kmsgtest_fire\t[kmsgtest]\n");
	ok(!strcmp(pS(&kf, 0xffffffff81000130ULL), "do_one_initcall+0x30/0x5fff00") &&
	   kf.reads == 3, "a symbol found: the file is not read again");
	fake_ns += SEC - 1;
	ok(!strcmp(pS(&kf, mod), "0xffffffffa0000010") && kf.reads == 3,
	   "not found within a second of the last read: not read again");
	fake_ns += 1;
	ok(!strcmp(pS(&kf, mod), want) && kf.reads == 4,
	   "not found a second after: read again, the module's symbol found");
	ok(!strcmp(pS(&kf, mod), want) && kf.reads == 4,
	   "then found without reading");
	ok(!strcmp(pS(&kf, 0xffffffffa0000040ULL), "0xffffffffa0000040") &&
	   !strcmp(pS(&kf, 0xffffffffa0000040ULL), "0xffffffffa0000040") &&
	   kf.reads == 4, "a miss right after a read: not read again");
	/* the file cannot be read: the table stays */
	unlink(path);
	fake_ns += 5 * SEC;
	ok(!strcmp(pS(&kf, 0xffffffffa0000040ULL), "0xffffffffa0000040") &&
	   kf.reads == 5 && !strcmp(pS(&kf, mod), want),
	   "the file gone: read once more, the table kept");
	kmsg_ksyms_file_free(&kf);

	/* reload_ns 0 (--kallsyms FILE): never read again */
	write_file(path, "ffffffff81000000 T _stext\nffffffff81600000 T _etext\n");
	memset(&kf, 0, sizeof(kf));
	kf.path = path;
	kf.clock_ns = fake_clock;
	ok(!kmsg_ksyms_file_load(&kf) &&
	   !strcmp(pS(&kf, mod), "0xffffffffa0000010") &&
	   (fake_ns += 10 * SEC, !strcmp(pS(&kf, mod), "0xffffffffa0000010")) &&
	   kf.reads == 1, "reload_ns 0: a miss never reads the file again");
	kmsg_ksyms_file_free(&kf);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	printf("TAP version 13\n");
	test_kallsyms_text();
	test_from_tep();
	test_load();
	test_file_reload();
	return tap_done();
}
