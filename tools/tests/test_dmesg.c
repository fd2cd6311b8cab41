// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of kernel log lines as kmsg dmesg reads them: /dev/kmsg
 * records only when well formed, their dictionaries not text, dmesg's
 * "[ts] " prefix, and text shown with control characters and NULs
 * escaped, never raw to a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_dmesg.h"
#include "kmsg_match.h"
#include "tap.h"

#define S(lit) lit, sizeof(lit) - 1

static void text_is(const struct kmsg_dmesg_line *l, const char *want,
		    const char *what)
{
	ok(l->text_len == strlen(want) && !memcmp(l->text, want, l->text_len),
	   "%s: text '%.*s'", what, (int)l->text_len, l->text);
}

static void escaped(const char *s, size_t len, const char *want,
		    const char *what)
{
	struct kmsg_strbuf out = { 0 };

	ok(!kmsg_dmesg_escape(&out, s, len) && out.buf &&
	   !strcmp(out.buf, want), "%s: %s", what, out.buf ? out.buf : "");
	kmsg_strbuf_free(&out);
}

/*
 * A read() of /dev/kmsg: a device message's record and its dictionary.
 * The text is the message alone, so that it identifies as its one site,
 * its last %s not swallowing " SUBSYSTEM=..." lines.
 */
static void dictionary(void)
{
	static const char rec[] =
		"6,805,2345678,-;e1000e 0000:00:03.0: link is up at 1000 Mbps, "
		"flow control rx\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:03.0\n";
	struct kmsg_match *m = kmsg_match_new();
	static const char dev_fmt[] = "link is up at %d Mbps, flow control %s";
	static const char fmt[] = "%s: link is up at %d Mbps, flow control %s";
	struct kmsg_match_result r;
	struct kmsg_dmesg_line l;
	struct kmsg_args args;

	/* the record's final newline goes, as kmsg dmesg reads it */
	kmsg_dmesg_parse(rec, sizeof(rec) - 2, &l);
	ok(l.record && l.seq == 805 && l.level == 6,
	   "a /dev/kmsg read() with a dictionary: a record");
	text_is(&l, "e1000e 0000:00:03.0: link is up at 1000 Mbps, flow control rx",
		"a record's dictionary is not its text");
	if (!m || kmsg_match_add(m, "e1000e.h00000001", "%s %s: ", dev_fmt,
				 strlen(dev_fmt)) != 0 ||
	    kmsg_match_add(m, "other.h00000002", NULL, fmt, strlen(fmt)) != 1 ||
	    kmsg_match_build(m))
		abort();
	kmsg_match_set_level(m, 0, 6);
	kmsg_match_set_level(m, 1, 6);
	ok(!kmsg_match_line(m, l.text, l.text_len, l.level, 0, &r) &&
	   r.n == 1 && !r.weak && !r.partial && r.pat[0] == 0 &&
	   !kmsg_match_args(m, 0, l.text, l.text_len, false, &args, NULL,
			    NULL) &&
	   args.n == 2 && args.v[1].str_len == 2,
	   "the device line identifies as its one site, its %%s \"rx\"");
	kmsg_match_free(m);
}

int main(void)
{
	struct kmsg_dmesg_line l;

	printf("TAP version 13\n");
	kmsg_dmesg_parse(S("6,412,3456789,-;clocksource: Switched"), &l);
	ok(l.record && l.pri == 6 && l.seq == 412 && l.ts == 3456789,
	   "a /dev/kmsg record: pri, seq, ts");
	text_is(&l, "clocksource: Switched", "a /dev/kmsg record");
	kmsg_dmesg_parse(S("4,7,8,c,caller=T1;a;b"), &l);
	ok(l.record && l.pri == 4, "a record with more fields before ';'");
	text_is(&l, "a;b", "the first ';' ends the prefix");
	kmsg_dmesg_parse(S("12,30,3000000,-;qux bar from userspace"), &l);
	ok(l.record && l.level == 4 && l.facility == 1,
	   "a record of facility user: a program's, not the kernel's");
	kmsg_dmesg_parse(S("<14>[    2.0] qux"), &l);
	ok(l.level == 6 && l.facility == 1, "dmesg -r: <14> of facility user");

	kmsg_dmesg_parse(S("-1,-1,-1,;x"), &l);
	ok(!l.record, "'-1,-1,-1,;x' is not a record");
	text_is(&l, "-1,-1,-1,;x", "not a record: the whole line");
	kmsg_dmesg_parse(S("4294967296,1,1,-;x"), &l);
	ok(!l.record, "a priority beyond 32 bits is not a record");
	kmsg_dmesg_parse(S("1,99999999999999999999,1,-;x"), &l);
	ok(!l.record, "a sequence number beyond 64 bits is not a record");
	kmsg_dmesg_parse(S("6,1,2;x"), &l);
	ok(!l.record, "two numbers and ';' is not a record");
	kmsg_dmesg_parse(S("6,1,2,-\0;x"), &l);
	ok(!l.record, "a NUL before ';' is not a record");
	kmsg_dmesg_parse(S("6,1,2,"), &l);
	ok(!l.record, "no ';' is not a record");

	kmsg_dmesg_parse(S("[    1.234567] smp: Brought up"), &l);
	ok(!l.record && !l.dict, "dmesg output: not a record");
	text_is(&l, "smp: Brought up", "dmesg output: after '[ts] '");
	kmsg_dmesg_parse(S("[unterminated"), &l);
	text_is(&l, "[unterminated", "'[' without ']': the whole line");
	kmsg_dmesg_parse(S("[drm] Initialized"), &l);
	text_is(&l, "[drm] Initialized", "a bracket that is not a time: text");
	kmsg_dmesg_parse(S("[Mon Jan  1 10:00:00 2024] smp: Brought up"), &l);
	text_is(&l, "smp: Brought up", "dmesg -T");
	kmsg_dmesg_parse(S("<6>[    1.234567] smp: Brought up"), &l);
	ok(l.level == 6 && !l.facility, "dmesg -r: the level, the kernel's");
	text_is(&l, "smp: Brought up", "dmesg -r");
	kmsg_dmesg_parse(S("Jan 01 10:00:00 host kernel: smp: Brought up"), &l);
	ok(l.stamp && l.stamp_len == 16, "journalctl -k: the time is the stamp");
	text_is(&l, "smp: Brought up", "journalctl -k (short)");
	kmsg_dmesg_parse(S("Jan 01 10:00:00.123456 host kernel: x"), &l);
	text_is(&l, "x", "journalctl -o short-precise");
	kmsg_dmesg_parse(S("2024-01-01T10:00:00+0000 host kernel: x"), &l);
	text_is(&l, "x", "journalctl -o short-iso");
	kmsg_dmesg_parse(S("[    1.234567] host kernel: x"), &l);
	text_is(&l, "x", "journalctl -o short-monotonic");
	kmsg_dmesg_parse(S("Jan  1 10:00:00 host kernel: [    1.2] x"), &l);
	text_is(&l, "x", "a syslog file");
	kmsg_dmesg_parse(S("smp: Brought up"), &l);
	ok(!l.stamp && l.level == -1 && l.facility == -1,
	   "text alone (journalctl -o cat)");
	{
		struct kmsg_strbuf u = { 0 };

		ok(!kmsg_dmesg_unescape(&u, S("a\\x0ab\\x5c\\xzz")) &&
		   !strcmp(u.buf, "a\nb\\\\xzz"),
		   "a record's \\xNN escapes undone");
		kmsg_strbuf_free(&u);
	}
	kmsg_dmesg_parse(S(" SUBSYSTEM=platform"), &l);
	ok(l.dict, "a dictionary line");
	kmsg_dmesg_parse("", 0, &l);
	ok(!l.record && !l.text_len, "an empty line");

	dictionary();
	escaped(S("plain \xc3\xa9t\xc3\xa9 text"), "plain \xc3\xa9t\xc3\xa9 text",
		"UTF-8 and text unchanged");
	escaped(S("red \x1b[31mALERT\x07"), "red \\x1b[31mALERT\\x07",
		"escape sequences shown, not sent to the terminal");
	escaped(S("before\0after\x7f"), "before\\x00after\\x7f",
		"a NUL and the rest of the line kept, DEL escaped");
	escaped(S("tab\there"), "tab\\x09here", "a tab escaped, as /dev/kmsg does");

	/* the banner of a boot: its release, and nothing else */
	ok(kmsg_dmesg_version(S("Linux version 6.12.118+deb12-amd64 (debian-kernel@lists.debian.org) (gcc) #1 SMP")) == 20,
	   "the banner: release of 20 bytes");
	ok(kmsg_dmesg_version(S("Linux version 6.18.0 (root@x) #2")) == 6,
	   "a banner of another build");
	ok(!kmsg_dmesg_version(S("Linux version 6.12.0")),
	   "no \" (\" after the release: not a banner");
	ok(!kmsg_dmesg_version(S("Linux version  (x)")), "an empty release");
	ok(!kmsg_dmesg_version(S("Linux version 6.12\x01 (x)")),
	   "a control character in the release");
	ok(!kmsg_dmesg_version(S("linux version 6.12 (x)")) &&
	   !kmsg_dmesg_version(S("foo: Linux version 6.12 (x)")),
	   "only the text's start, exactly");
	ok(kmsg_dmesg_version(S("Linux version 0123456789012345678901234567890123456789012345678901234567890123 (x)")) == 64 &&
	   !kmsg_dmesg_version(S("Linux version 01234567890123456789012345678901234567890123456789012345678901234 (x)")),
	   "a release of 64 bytes, not 65");
	return tap_done();
}
