// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for tools/lib/kmsg_render: records built with the test
 * encoder bin_encode() (a port of vbin_printf()) must render exactly as
 * the kernel's vsnprintf() prints.  Expected texts come from
 * lib/test_printf.c and the kmsgtest module.  Output is TAP.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bin_encode.h"
#include "kmsg_render.h"

#define ERR_PTR(e)	((void *)(intptr_t)(e))
#define REC_SIZE	1024
#define FUZZ_FMTS_MAX	256

static int tests_run, tests_failed;
static const char *fuzz_fmts[FUZZ_FMTS_MAX];
static int nr_fuzz_fmts;

static int stub_lookup(void *ctx, unsigned long long addr, const char **name,
		       unsigned long long *offset, unsigned long long *size,
		       const char **module)
{
	(void)ctx;
	if (addr != 0xffffffffc0001230ULL)
		return -ENOENT;
	*name = "kmsgtest_target";
	*offset = 0;
	*size = 5;
	*module = "kmsgtest";
	return 0;
}

static int builtin_lookup(void *ctx, unsigned long long addr, const char **name,
			  unsigned long long *offset, unsigned long long *size,
			  const char **module)
{
	(void)ctx;
	*name = "do_one_initcall";
	*offset = addr & 0xff;
	*size = 0x1a0;
	*module = NULL;
	return 0;
}

static const struct kmsg_render_opts opts64 = { .long_size = 8 };
static const struct kmsg_render_opts opts64e = {
	.long_size = 8, .symbolic_errname = true,
};
static const struct kmsg_render_opts opts64s = {
	.long_size = 8, .symbolic_errname = true,
	.lookup_symbol = stub_lookup,
};
static const struct kmsg_render_opts opts64b = {
	.long_size = 8, .lookup_symbol = builtin_lookup,
};
static const struct kmsg_render_opts opts32 = {
	.long_size = 4, .symbolic_errname = true,
};
/* the event's KMSG_EVENT_PTRVAL and KMSG_EVENT_PK_ERROR */
static const struct kmsg_render_opts opts64str = {
	.long_size = 8, .symbolic_errname = true, .ptrval = true,
	.pk_error = true,
};
static const struct kmsg_render_opts opts32str = {
	.long_size = 4, .ptrval = true, .pk_error = true,
};

/* Print s for a TAP line or diagnostic: escaped, no newlines, no '#'. */
static void put_escaped(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '#' || c == '\\')
			printf("\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			putchar(c);
		else
			printf("\\x%02x", c);
	}
}

static void report(int ok, int line, const char *what, const char *fmt)
{
	tests_run++;
	if (!ok)
		tests_failed++;
	printf("%s %d - line %d: %s \"", ok ? "ok" : "not ok", tests_run,
	       line, what);
	put_escaped(fmt, strlen(fmt));
	printf("\"\n");
}

static void diag_text(const char *label, const char *s, size_t n)
{
	printf("# %s '", label);
	put_escaped(s, n);
	printf("' (%zu bytes)\n", n);
}

static void remember_fmt(const char *fmt)
{
	int i;

	for (i = 0; i < nr_fuzz_fmts; i++)
		if (fuzz_fmts[i] == fmt)
			return;
	if (nr_fuzz_fmts < FUZZ_FMTS_MAX)
		fuzz_fmts[nr_fuzz_fmts++] = fmt;
}

/*
 * Decode rec with fmt, render rfmt (the same or a translation), compare
 * with expect.  problems/markers: what decode/render must return.
 */
static int run_case(const struct kmsg_render_opts *o, const char *fmt,
		    const char *rfmt, const void *rec, size_t len,
		    const char *expect, size_t elen, int problems, int markers)
{
	static struct kmsg_args args;
	static struct kmsg_fmt_cache *cache;
	struct kmsg_render_opts co = *o;
	struct kmsg_strbuf sb = { 0 };
	int p, m, ok, pass;

	remember_fmt(fmt);
	/* each case twice: parsed, then from a cache kept across cases */
	if (!cache)
		cache = kmsg_fmt_cache_new();
	co.fmt_cache = cache;
	for (pass = 0, ok = 1; pass < 2 && ok; pass++) {
		const struct kmsg_render_opts *po = pass ? &co : o;

		sb.len = 0;
		p = kmsg_args_decode(fmt, strlen(fmt), rec, len, po, &args);
		m = kmsg_render(&sb, rfmt, strlen(rfmt), &args, po);
		ok = p == problems && m == markers && sb.buf &&
		     sb.len == elen && !memcmp(sb.buf, expect, elen) &&
		     sb.buf[sb.len] == '\0';
		if (!ok) {
			printf("# %s: decode returned %d (want %d), render %d (want %d)\n",
			       pass ? "cached" : "parsed", p, problems, m,
			       markers);
			diag_text("got ", sb.buf ? sb.buf : "", sb.len);
			diag_text("want", expect, elen);
		}
	}
	kmsg_strbuf_free(&sb);
	return ok;
}

/* Encode the varargs with bin_encode(), then check the rendered text. */
static void check(int line, const struct kmsg_render_opts *o, int words,
		  const char *expect, size_t elen, const char *fmt, ...)
{
	unsigned char rec[REC_SIZE];
	va_list ap;
	int n, ok;

	memset(rec, 0xa5, sizeof(rec));
	va_start(ap, fmt);
	n = bin_vencode(o->long_size, rec, sizeof(rec), fmt, ap);
	va_end(ap);
	ok = n >= 0 && n <= (int)sizeof(rec);
	if (ok && words >= 0 && n != 4 * words) {
		printf("# record took %d words, expected %d\n", n / 4, words);
		ok = 0;
	}
	ok = ok && run_case(o, fmt, fmt, rec, (size_t)n, expect, elen, 0, 0);
	report(ok, line, "render", fmt);
}

#define TO(o, expect, fmt, ...) \
	check(__LINE__, o, -1, expect, sizeof(expect) - 1, fmt, ##__VA_ARGS__)
#define T(expect, fmt, ...) TO(&opts64, expect, fmt, ##__VA_ARGS__)
#define TW(words, expect, fmt, ...) \
	check(__LINE__, &opts64, words, expect, sizeof(expect) - 1, fmt, \
	      ##__VA_ARGS__)

/* lib/test_printf.c: test_basic() */
static void test_basic(void)
{
	T("", "");
	T("100%", "100%%");
	T("xxx%yyy", "xxx%cyyy", '%');
	T("xxx\0yyy", "xxx%cyyy", '\0');
}

/* lib/test_printf.c: test_number() */
static void test_number(void)
{
	T("0x1234abcd  ", "%#-12x", 0x1234abcd);
	T("  0x1234abcd", "%#12x", 0x1234abcd);
	T("0|001| 12|+123| 1234|-123|-1234", "%d|%03d|%3d|%+d|% d|%+d|% d",
	  0, 1, 12, 123, 1234, -123, -1234);
	T("0|1|1|128|255", "%hhu|%hhu|%hhu|%hhu|%hhu", 0, 1, 257, 128, -1);
	T("0|1|1|-128|-1", "%hhd|%hhd|%hhd|%hhd|%hhd", 0, 1, 257, 128, -1);
	T("2015122420151225", "%ho%ho%#ho", 1037, 5282, -11627);
	T("00|0|0|0|0", "%.2d|%.1d|%.0d|%.*d|%1.0d", 0, 0, 0, 0, 0, 0);
}

/* lib/test_printf.c: test_string() */
static void test_string(void)
{
	T("", "%s%.0s", "", "123");
	T("ABCD|abc|123", "%s|%.3s|%.*s", "ABCD", "abcdef", 3, "123456");
	T("1  |  2|3  |  4|5  ", "%-3s|%3s|%-*s|%*s|%*s",
	  "1", "2", 3, "3", 3, "4", -3, "5");
	T("1234      ", "%-10.4s", "123456");
	T("      1234", "%10.4s", "123456");
	T("    ", "%4.*s", -5, "123456");
	T("123456", "%.s", "123456");
	T("a||", "%.s|%.0s|%.*s", "a", "b", 0, "c");
	T("a  |   |   ", "%-3.s|%-3.0s|%-3.*s", "a", "b", 0, "c");
}

/*
 * Pointers printk() printed as strings: before the hash key is ready, a
 * hashed pointer (stored as 1) as ptr_to_id() prints it, its width forced;
 * NULL and error pointers raw. kptr_restrict 1 in an interrupt: every %pK
 * as restricted_pointer() prints it, its width kept.
 */
static void test_pointer_strings(void)
{
	TO(&opts64str, "(____ptrval____)|0000000000000000|ffffffffffffffea",
	   "%p|%p|%p", (void *)1, NULL, ERR_PTR(-22));
	TO(&opts64str, "(____ptrval____)|(____ptrval____)|       (____ptrv",
	   "%20p|%-4p|%.9p", (void *)1, (void *)1, (void *)1);
	TO(&opts64str, "(____ptrval____)|-EINVAL|0000000000000001",
	   "%pe|%pe|%px", (void *)1, ERR_PTR(-22), (void *)1);
	TO(&opts64str, "        pK-error|pK-error  |pK-error|            pK-e",
	   "%pK|%-10pK|%4pK|%.4pK", NULL, (void *)1, NULL, NULL);
	TO(&opts64str, "0000000000000002", "%p", (void *)2);
	TO(&opts32str, "(ptrval)|pK-error", "%p|%pK", (void *)1, NULL);
	/* without the flags, the values as they are */
	T("0000000000000001|0000000000000000", "%p|%pK", (void *)1, NULL);
}

/* lib/test_printf.c: test_pointer(), as booted with no_hash_pointers */
static void test_pointer(void)
{
	void *ptr = (void *)0xffff0123456789abUL;

	T("ffff0123456789ab", "%p", ptr);
	T("0000000000000000", "%p", NULL);
	T("0000000000000000", "%px", NULL);
	T("(null)", "%pE", "(null)");
	T("fffffffffffffff5", "%p", ERR_PTR(-11));
	T("fffffffffffffff5", "%px", ERR_PTR(-11));
	T("(efault)", "%pE", "(efault)");
	T("00000000000000ab", "%p", (void *)0xab);
	T("00000000000000ab", "%px", (void *)0xab);
	T("00000000000000ab", "%pK", (void *)0xab);
	T("c0 ff ee|c0:ff:ee|c0-ff-ee|c0ffee", "%3ph|%3phC|%3phD|%3phN",
	  "c0 ff ee", "c0:ff:ee", "c0-ff-ee", "c0ffee");
	T("c0 ff ee|c0:ff:ee|c0-ff-ee|c0ffee", "%*ph|%*phC|%*phD|%*phN",
	  3, "c0 ff ee", 3, "c0:ff:ee", 3, "c0-ff-ee", 3, "c0ffee");
	T("2d:48:d6:fc:7a:05", "%pM", "2d:48:d6:fc:7a:05");
	T("127.000.000.001|127.0.0.1", "%pi4|%pI4",
	  "127.000.000.001", "127.0.0.1");
	T("00010203-0405-0607-0809-0a0b0c0d0e0f", "%pUb",
	  "00010203-0405-0607-0809-0a0b0c0d0e0f");
	/* errptr() */
	T("-1234", "%pe", ERR_PTR(-1234));
	TO(&opts64e, "-1234", "%pe", ERR_PTR(-1234));
	T("ffff0123456789ab", "%pe", ptr);
	TO(&opts64e, "(-ENOTSOCK)", "(%pe)", ERR_PTR(-ENOTSOCK));
	TO(&opts64e, "(-EAGAIN)", "(%pe)", ERR_PTR(-EAGAIN));
	TO(&opts64e, "(-EAGAIN)", "(%pe)", ERR_PTR(-EWOULDBLOCK));
	TO(&opts64e, "[-EIO    ]", "[%-8pe]", ERR_PTR(-EIO));
	TO(&opts64e, "[    -EIO]", "[%8pe]", ERR_PTR(-EIO));
	TO(&opts64e, "-EPROBE_DEFER", "%pe", ERR_PTR(-517));
	T("-19", "%pe", ERR_PTR(-ENODEV));
	T("[  -5]", "[%4pe]", ERR_PTR(-EIO));
}

/* lib/test_printf.c: test_binary_printf(), with the record sizes */
static void test_binary(void)
{
	static const struct {
		char s[4];
		char rest[8];
	} buf = { { 'a', 'b', 'c', 'd' }, "efghijk" };

	TW(2, "1 -2 x", "%d %hd %c", 1, -2, 'x');
	TW(2, "[hello]", "[%s]", "hello");
	TW(2, "[abcd]", "[%.4s]", buf.s);
	TW(3, "[abcd]", "[%.*s]", 4, buf.s);
	TW(3, "[  ab]", "[%*.*s]", 4, 2, buf.s);
	TW(2, "[]", "[%.*s]", -1, buf.s);
	TW(1, "[(nu]", "[%.3s]", (char *)NULL);
}

/* The kmsgtest module's messages. */
static void test_kmsgtest(void)
{
	void *p = (void *)0xffff8880deadbeefUL;
	void *f = (void *)0xffffffffc0001230UL;

	T("device 4711 has status 1", "device %x has status %i", 0x4711, 1);
	T("signed -42 unsigned 4000000000 octal 755 hex BEEF",
	  "signed %d unsigned %u octal %o hex %X", -42, 4000000000U, 0755,
	  0xbeef);
	T("long deadbeef ullong 18446744073709551615 llong -9223372036854775808",
	  "long %lx ullong %llu llong %lld", 0xdeadbeefUL, ULLONG_MAX,
	  LLONG_MIN);
	T("size 4096 ssize -1 short 4464 char 255",
	  "size %zu ssize %zd short %hd char %hhu", (size_t)4096,
	  (ssize_t)-1, 70000, 511);
	T("char 'K' string 'kmsg' null '(null)' percent 100%",
	  "char '%c' string '%s' null '%s' percent 100%%", 'K', "kmsg",
	  (char *)NULL);
	T("width [      42] [42      ] [00000abc] [+5] [ 5] [0xff] [010] [0x0]",
	  "width [%8d] [%-8d] [%08x] [%+d] [% d] [%#x] [%#o] [%#x]",
	  42, 42, 0xabc, 5, 5, 0xff, 8, 0);
	T("star [    42] [42    ] [abc] [    xy] [005] [    p]",
	  "star [%*d] [%-*d] [%.*s] [%*.*s] [%.3d] [%5.1s]",
	  6, 42, 6, 42, 3, "abcdef", 6, 2, "xyz", 5, "pq");
	TO(&opts64s, "pointers ffff8880deadbeef ffff8880deadbeef "
	   "kmsgtest_target [kmsgtest] kmsgtest_target+0x0/0x5 [kmsgtest]",
	   "pointers %p %px %ps %pS", p, p, f, f);
	TO(&opts64s, "errors -ENODEV -EINVAL", "errors %pe %pe",
	   ERR_PTR(-ENODEV), ERR_PTR(-EINVAL));
}

/* More corners of number(), pointer_string(), symbol_string(), 32-bit. */
static void test_corners(void)
{
	void *f = (void *)0xffffffffc0001230UL;

	T("18446744073709551615|-1|ffffffffffffffff", "%Lu|%Ld|%llx",
	  ULLONG_MAX, -1LL, -1LL);
	T("-9223372036854775808|9223372036854775807", "%ld|%ld",
	  LONG_MIN, LONG_MAX);
	T("ffffffff|-1|4294967295|37777777777", "%x|%d|%u|%o", -1, -1, -1, -1);
	T("-1|-1|65535|ffff", "%td|%hd|%hu|%hx", (ptrdiff_t)-1, -1, -1, -1);
	T("+0|-0007| +07|0X1F|0x001f", "%+d|%05d|%+4.2d|%#X|%#06x",
	  0, -7, 7, 31, 31);
	T("0| 0|0x0|0| 0|0  ", "%#o|%#2o|%#x|%.0x|%2u|%-3u", 0, 0, 0, 0, 0, 0);
	T("[x] [   x] [x   ] [ x]", "[%c] [%4c] [%-4c] [%*c]",
	  'x', 'x', 'x', 2, 'x');
	T("[  abc] [abc  ] [ab]", "[%*s] [%-*s] [%.2s]", 5, "abc", -5, "abc",
	  "abc");
	T("0xffff0123456789ab|0x000000000000ab|      ab|ab      ",
	  "%#px|%#px|%8px|%-8px", (void *)0xffff0123456789abUL,
	  (void *)0xab, (void *)0xab, (void *)0xab);
	T("0xffffffffc0001230|0xffffffffc0001230", "%pS|%ps", f, f);
	TO(&opts64s, "0x1000", "%pS", (void *)0x1000);
	TO(&opts64s, "[kmsgtest_target [kmsgtest]      ] [kmsg]",
	   "[%-32ps] [%.4ps]", f, f);
	TO(&opts64b, "do_one_initcall+0x30/0x1a0|do_one_initcall",
	   "%pS|%ps", (void *)0xffffffff81000030UL,
	   (void *)0xffffffff81000030UL);
	TO(&opts64b, "do_one_initcall+0x30/0x1a0", "%pSR",
	   (void *)0xffffffff81000030UL);
	T("-5 foo", "%pe%s", ERR_PTR(-EIO), " foo");
	T("[ 0xab] [0xab ]", "[%5pS] [%-5ps]", (void *)0xab, (void *)0xab);
	/* %p followed by text, and %pSomething eating letters */
	T("00000000000000ab.", "%p.", (void *)0xab);
	T("0x0 end", "%pSxyz end", NULL);
	/* the '*' of a "%%" is read all the same, as format_decode() reads it */
	T("%|42 [%]|7", "%*%|%d [%.*%]|%d", 3, 42, 2, 7);
	/* a qualifier on %c %s %p is ignored */
	T("a b", "%lc %hs", 'a', "b");
	/* 32-bit kernel */
	TO(&opts32, "-1 4294967295 ffffffff -1 4294967295 -1",
	   "%ld %lu %lx %zd %zu %td", -1L, -1L, -1L, (ssize_t)-1,
	   (size_t)-1, (ptrdiff_t)-1);
	TO(&opts32, "ffffffffffffffff", "%tx", (ptrdiff_t)-1);
	TO(&opts32, "c0001234 c0001234 0000abcd -EIO fffff000 -4096",
	   "%p %px %pK %pe %pe %lld", (void *)0xc0001234UL,
	   (void *)0xc0001234UL, (void *)0xabcdUL, ERR_PTR(-EIO),
	   ERR_PTR(-4096), -4096LL);
	TO(&opts32, "0xc0001230 (null) [abc]", "%pS %s [%s]",
	   (void *)0xc0001230UL, (char *)NULL, "abc");
	TO(&opts32, "1 2 3 4", "%hhd %hd %lld %d", 1, 2, 3LL, 4);
}

static void check_raw(int line, const char *what,
		      const struct kmsg_render_opts *o, const char *fmt,
		      const char *rfmt, const void *rec, size_t len,
		      const char *expect, int problems, int markers)
{
	int ok = run_case(o, fmt, rfmt, rec, len, expect, strlen(expect),
			  problems, markers);

	report(ok, line, what, rfmt);
}

#define BAD(what, fmt, rec, len, expect, problems, markers) \
	check_raw(__LINE__, what, &opts64, fmt, fmt, rec, len, expect, \
		  problems, markers)

static void test_bad_input(void)
{
	static const unsigned char one[6] = { 1, 0, 0, 0, 2, 0 };
	static const char nonul[3] = { 'a', 'b', 'c' };
	unsigned char rec[REC_SIZE], garbage[37];
	struct kmsg_args args;
	struct kmsg_strbuf sb = { 0 };
	char fmt65[65 * 2 + 1];
	int n, i, ok;

	BAD("truncated record", "a=%d b=%d", one, sizeof(one),
	    "a=1 b=<?missing?>", 1, 1);
	BAD("empty record", "a=%d b=%s c=%c", NULL, 0,
	    "a=<?missing?> b=<?missing?> c=<?missing?>", 3, 3);
	BAD("no NUL", "s=%s t=%s", nonul, sizeof(nonul),
	    "s=<?unterminated?> t=<?missing?>", 2, 2);
	BAD("%n", "before %d %n after %d", one, 4, "before 1 <?%n?>", 1, 1);
	BAD("unknown %y", "x %y %d", one, 4, "x <?%y?>", 1, 1);
	BAD("trailing %", "x %-", NULL, 0, "x <?%-?>", 1, 1);
	BAD("invalid byte", "x %\x01", NULL, 0, "x <?%\\x01?>", 1, 1);
	BAD("huge width", "[%1000000000d]", one, 4, "[<?width?>]", 0, 1);
	BAD("huge precision", "[%.5000s]", "ab", 3, "[<?width?>]", 0, 1);
	n = bin_encode(rec, sizeof(rec), "[%.*s] %d", 1000000000, "abc", 7);
	BAD("precision from record", "[%.*s] %d", rec, (size_t)n,
	    "[<?width?>] 7", 0, 1);
	n = bin_encode_ls(8, rec, sizeof(rec), "[%*d]", INT_MIN, 7);
	BAD("width INT_MIN", "[%*d]", rec, (size_t)n, "[<?width?>]", 0, 1);
	BAD("empty format", "", one, sizeof(one), "", 0, 0);
	for (i = 0; i < (int)sizeof(garbage); i++)
		garbage[i] = (unsigned char)(i * 37 + 11);
	BAD("literal text, garbage record", "just text, 100%% sure", garbage,
	    sizeof(garbage), "just text, 100% sure", 0, 0);

	n = bin_encode(rec, sizeof(rec), "%d %s", 7, "x");
	check_raw(__LINE__, "positional", &opts64, "%d %s", "%2$s=%1$d",
		  rec, (size_t)n, "x=7", 0, 0);
	check_raw(__LINE__, "positional out of range", &opts64, "%d %s",
		  "%3$d|%0$d|%99999999999$d|%1$d", rec, (size_t)n,
		  "<?position?>|<?position?>|<?position?>|7", 0, 3);
	check_raw(__LINE__, "positional mixed", &opts64, "%d %s",
		  "%1$d %s", rec, (size_t)n, "7 <?position?>", 0, 1);
	check_raw(__LINE__, "sequential then positional", &opts64, "%d %s",
		  "%d %2$s", rec, (size_t)n, "7 <?position?>", 0, 1);
	check_raw(__LINE__, "positional type", &opts64, "%d %s",
		  "%1$s %2$d %2$*s", rec, (size_t)n,
		  "<?type?> <?type?> <?type?>", 0, 3);
	check_raw(__LINE__, "positional reuse", &opts64, "%d %s",
		  "%1$d%1$x%1$05d", rec, (size_t)n, "7700007", 0, 0);
	n = bin_encode(rec, sizeof(rec), "%*d|%-*.*s|%hhu", 5, 42, 6, 2, "abc",
		       300);
	check_raw(__LINE__, "positional star", &opts64, "%*d|%-*.*s|%hhu",
		  "%2$-*.*s|%1$*d|%3$hhd|%3$x", rec, (size_t)n,
		  "ab    |   42|44|2c", 0, 0);
	check_raw(__LINE__, "more conversions than args", &opts64, "%d",
		  "%d %d", rec, 4, "5 <?missing?>", 0, 1);

	/* more than KMSG_ARGS_MAX values */
	for (i = 0; i < 65; i++)
		memcpy(fmt65 + 2 * i, "%c", 2);
	fmt65[130] = '\0';
	memset(rec, 'a', 64);
	rec[64] = 'b';
	ok = kmsg_args_decode(fmt65, strlen(fmt65), rec, 65, &opts64,
			      &args) == 1 && args.n == 64 && args.dropped == 1 &&
	     args.used == 65 &&
	     kmsg_render(&sb, fmt65, strlen(fmt65), &args, &opts64) == 1 &&
	     sb.len == 64 + strlen(KMSG_MARK_TOOMANY) &&
	     !strcmp(sb.buf + 64, KMSG_MARK_TOOMANY);
	report(ok, __LINE__, "KMSG_ARGS_MAX", "65 x %c");
	kmsg_strbuf_free(&sb);

	/* NULL format / record / args */
	ok = kmsg_args_decode(NULL, 5, NULL, 100, NULL, &args) == 0 &&
	     args.n == 0 && args.used == 0 &&
	     kmsg_render(&sb, "a%db", 4, NULL, NULL) == 1 &&
	     !strcmp(sb.buf, "a<?missing?>b");
	report(ok, __LINE__, "NULL arguments", "a%db");
	kmsg_strbuf_free(&sb);

	/* the format ends at fmt_len or its first NUL */
	ok = kmsg_args_decode("%d%d", 2, one, 4, NULL, &args) == 0 &&
	     args.n == 1 && args.used == 4 &&
	     kmsg_render(&sb, "%d\0%d", 5, &args, NULL) == 0 &&
	     !strcmp(sb.buf, "1");
	report(ok, __LINE__, "format length", "%d");
	kmsg_strbuf_free(&sb);

	/* decode details: offsets, sizes, alignment of 8-byte values */
	n = bin_encode(rec, sizeof(rec), "%c%lld%hd%s%p", 'z', -2LL, -3,
		       "str", (void *)0x1234);
	ok = n == 28 &&
	     kmsg_args_decode("%c%lld%hd%s%p", 13, rec, (size_t)n, NULL,
			      &args) == 0 &&
	     args.n == 5 && args.used == 28 &&
	     args.v[0].type == KMSG_ARG_CHAR && args.v[0].s == 'z' &&
	     args.v[1].offset == 4 && args.v[1].size == 8 &&
	     args.v[1].s == -2 && args.v[1].qualifier == 'L' &&
	     args.v[2].offset == 12 && args.v[2].s == -3 &&
	     args.v[3].type == KMSG_ARG_STRING && args.v[3].str_len == 3 &&
	     args.v[3].offset == 14 && args.v[4].offset == 20 &&
	     args.v[4].type == KMSG_ARG_POINTER && args.v[4].u == 0x1234;
	report(ok, __LINE__, "decode layout", "%c%lld%hd%s%p");

	ok = !strcmp(kmsg_errname(1), "EPERM") &&
	     !strcmp(kmsg_errname(-512), "-ERESTARTSYS") &&
	     !strcmp(kmsg_errname(-524), "-ENOTSUPP") &&
	     !strcmp(kmsg_errname(EDEADLOCK), "EDEADLK") &&
	     !strcmp(kmsg_errname(133), "EHWPOISON") &&
	     !kmsg_errname(0) && !kmsg_errname(41) && !kmsg_errname(520) &&
	     !kmsg_errname(531) && !kmsg_errname(INT_MIN) &&
	     !kmsg_errname(INT_MAX);
	report(ok, __LINE__, "errname", "kmsg_errname()");
}

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned int rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng >> 11);
}

static const struct kmsg_render_opts *fuzz_opts(int i)
{
	static const struct kmsg_render_opts *all[] = {
		&opts64, &opts64s, &opts64b, &opts32,
	};

	return all[i % 4];
}

/* Decode and render random records (and formats); ASan does the checks. */
static int fuzz_one(const char *fmt, size_t fmt_len, int iter)
{
	static struct kmsg_args args;
	const struct kmsg_render_opts *o = fuzz_opts(iter);
	size_t len = rnd() % 96, k;
	unsigned char *rec = malloc(len ? len : 1);
	struct kmsg_strbuf sb = { 0 };
	int ok, m;

	if (!rec)
		return 0;
	for (k = 0; k < len; k++)
		rec[k] = (rnd() & 3) ? (unsigned char)rnd() :
				       (unsigned char)"\0\1\xff a%"[rnd() % 6];
	kmsg_args_decode(fmt, fmt_len, rec, len, o, &args);
	m = kmsg_render(&sb, fmt, fmt_len, &args, o);
	ok = m >= 0 && args.used <= len && sb.buf && sb.buf[sb.len] == '\0';
	kmsg_strbuf_free(&sb);
	free(rec);
	return ok;
}

static void test_fuzz(void)
{
	static const char alphabet[] = "%%%%-+ #0*.19$hlLztcspdiuxXonyeSsxKM4";
	char fmt[32];
	int i, j, ok = 1;

	for (i = 0; i < nr_fuzz_fmts; i++)
		for (j = 0; j < 300; j++)
			ok &= fuzz_one(fuzz_fmts[i], strlen(fuzz_fmts[i]), j);
	report(ok, __LINE__, "fuzz records", "all table formats");

	ok = 1;
	for (i = 0; i < 20000; i++) {
		size_t n = rnd() % sizeof(fmt), k;

		for (k = 0; k < n; k++)
			fmt[k] = (rnd() % 8) ? alphabet[rnd() %
						(sizeof(alphabet) - 1)] :
					       (char)rnd();
		ok &= fuzz_one(fmt, n, i);
	}
	report(ok, __LINE__, "fuzz formats", "random");
}

int main(void)
{
	printf("TAP version 13\n");
	test_basic();
	test_number();
	test_string();
	test_pointer();
	test_pointer_strings();
	test_binary();
	test_kmsgtest();
	test_corners();
	test_bad_input();
	test_fuzz();
	printf("1..%d\n", tests_run);
	printf("# %d tests, %d failed\n", tests_run, tests_failed);
	return tests_failed ? 1 : 0;
}
