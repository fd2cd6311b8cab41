// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the journal entries (lib/kmsg_journal.c): SHA-256 and
 * MESSAGE_ID against vectors computed with Python's hashlib, the fields
 * of a message, the lost-messages entry, field names, and the export
 * format with its binary form.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_id.h"
#include "kmsg_journal.h"
#include "kmsg_strbuf.h"
#include "tap.h"

static int sha_is(const char *in, size_t len, const char *want)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char sum[32];
	char got[65];
	int i;

	kmsg_journal_sha256(in, len, sum);
	for (i = 0; i < 32; i++) {
		got[2 * i] = hex[sum[i] >> 4];
		got[2 * i + 1] = hex[sum[i] & 15];
	}
	got[64] = '\0';
	if (strcmp(got, want))
		printf("# got %s\n# want %s\n", got, want);
	return !strcmp(got, want);
}

static void test_sha256(void)
{
	char a[1000];

	memset(a, 'a', sizeof(a));
	ok(sha_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
	   "SHA-256 of \"\"");
	ok(sha_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
	   "SHA-256 of \"abc\"");
	ok(sha_is(a, sizeof(a), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
	   "SHA-256 of 1000 'a' (several blocks)");
}

static void test_message_id(void)
{
	static const char * const v[][2] = {
		{ "kmsgtest.2", "263bb079e396ce5042deba14c9a99999" },
		{ "oom.9", "160f6938ff777c1660ff49b4e5f77df6" },
		{ "oom_kill.h3196cc8e", "3144f38db523db826fc4ab0a47dc7637" },
	};
	char id[KMSG_JOURNAL_ID_LEN];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		kmsg_journal_message_id(v[i][0], id);
		ok(!strcmp(id, v[i][1]), "MESSAGE_ID of %s: %s", v[i][0], id);
	}
	kmsg_journal_key_id(KMSG_JOURNAL_LOST_KEY, id);
	ok(!strcmp(id, "cfed00d0233d34ed1dfdaf6060505742"),
	   "MESSAGE_ID of lost messages: %s", id);
}

/* the fields of @e as "NAME=value\n" lines */
static void fields(const struct kmsg_journal_entry *e, struct kmsg_strbuf *out)
{
	int i;

	out->len = 0;
	for (i = 0; i < e->n; i++) {
		kmsg_strbuf_putn(out, e->buf.buf + e->off[i], e->len[i]);
		kmsg_strbuf_putc(out, '\n');
	}
}

static void test_msg(void)
{
	struct kmsg_msg m = {
		.ts = 24513468000ULL, .cpu = 1, .pid = 484, .level = 3,
		.number = 20, .version = 2, .seq = 6926,
		.component = { "kmsgtest", 8 },
		.modname = { "kmsgtest", 8 },
		.fmt = { "kmsgtest.20: dev %x: %s %c", 26 },
		.driver = { "platform", 8 },
		.device = { "kmsgtest", 8 },
	};
	struct kmsg_journal_code code = {
		"tools/testing/selftests/kmsg/test_modules/kmsgtest.c", 81,
		"kmsgtest_fire"
	};
	struct kmsg_args args = { .n = 3 };
	struct kmsg_journal_entry e = { 0 };
	struct kmsg_strbuf out = { 0 };
	struct kmsg_ids ids;
	char err[256];
	const char *text = "platform kmsgtest: kmsgtest.20: dev 4711: a\nb \x01";
	const char *want =
		"MESSAGE=platform kmsgtest: kmsgtest.20: dev 4711: a\nb \x01\n"
		"PRIORITY=3\nSYSLOG_FACILITY=0\nSYSLOG_IDENTIFIER=kmsg\n"
		"MESSAGE_ID=%s\nKMSG_ID=kmsgtest.20\nKMSG_AUTO_ID=%s\n"
		"KMSG_COMPONENT=kmsgtest\nKMSG_NUMBER=20\nKMSG_MODNAME=kmsgtest\n"
		"KMSG_FORMAT=kmsgtest.20: dev %%x: %%s %%c\nKMSG_SEQ=6926\n"
		"KMSG_ARG_1=18193\nKMSG_ARG_2=a\nb\nKMSG_ARG_3=\x01\n"
		"KMSG_ARG_TYPES=uint,string,char\n"
		"KMSG_TIMESTAMP=24.513468\nKMSG_CPU=1\nKMSG_PID=484\nKMSG_COMM=sh\n"
		"KMSG_DEVICE=kmsgtest\nKMSG_DRIVER=platform\n"
		"CODE_FILE=tools/testing/selftests/kmsg/test_modules/kmsgtest.c\n"
		"CODE_LINE=81\n"
		"CODE_FUNC=kmsgtest_fire\n";
	char expect[2048], mid[KMSG_JOURNAL_ID_LEN];
	int ret;

	args.v[0].type = KMSG_ARG_UNSIGNED;
	args.v[0].u = 0x4711;
	args.v[1].type = KMSG_ARG_STRING;
	args.v[1].str = "a\nb";
	args.v[1].str_len = 3;
	args.v[2].type = KMSG_ARG_CHAR;
	args.v[2].s = 1;
	ret = kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	kmsg_journal_message_id("kmsgtest.20", mid);
	snprintf(expect, sizeof(expect), want, mid, ids.automatic);
	ret = ret || kmsg_journal_msg(&e, &m, &ids, "sh", text, strlen(text),
				      &args, &code);
	fields(&e, &out);
	ok(!ret && out.buf && !strcmp(out.buf, expect),
	   "the fields of a device message with a curated id");
	if (out.buf && strcmp(out.buf, expect))
		printf("# got:\n%s", out.buf);

	/* export: the binary form for values with control characters */
	out.len = 0;
	ret = kmsg_journal_export(&out, &e, 1700000000000000ULL, 24513468ULL,
				  "0123456789abcdef0123456789abcdef");
	ok(!ret && out.len > 100 &&
	   !memcmp(out.buf, "__REALTIME_TIMESTAMP=1700000000000000\n"
		   "__MONOTONIC_TIMESTAMP=24513468\n"
		   "_BOOT_ID=0123456789abcdef0123456789abcdef\nMESSAGE\n", 119) &&
	   !memcmp(out.buf + 119, "\x2f\0\0\0\0\0\0\0", 8) &&
	   !memcmp(out.buf + 127, text, 47) && out.buf[174] == '\n' &&
	   !memcmp(out.buf + 175, "PRIORITY=3\n", 11),
	   "export: address fields, MESSAGE in the binary form (le64 length)");
	ok(out.len > 2 && out.buf[out.len - 1] == '\n' &&
	   out.buf[out.len - 2] == '\n' &&
	   memmem(out.buf, out.len, "KMSG_ARG_2\n\x03\0\0\0\0\0\0\0a\nb\n", 20) &&
	   memmem(out.buf, out.len, "KMSG_ARG_3\n\x01\0\0\0\0\0\0\0\x01\n", 19) &&
	   memmem(out.buf, out.len, "\nKMSG_ARG_1=18193\n", 18),
	   "export: text fields as NAME=value, binary ones with their length, an empty line at the end");

	/* a cut format: no id known, no MESSAGE_ID */
	m.version = 2;
	m.component.len = 0;
	m.flags = KMSG_EVENT_TRUNCATED;
	m.fmt.len = KMSG_EVENT_FMT_MAX;
	{
		static char longfmt[KMSG_EVENT_FMT_MAX];

		memset(longfmt, 'x', sizeof(longfmt));
		m.fmt.s = longfmt;
		args.n = 0;
		ret = kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) ||
		      kmsg_journal_msg(&e, &m, &ids, NULL, "x", 1, &args, NULL);
		fields(&e, &out);
		ok(!ret && !strstr(out.buf, "MESSAGE_ID=") &&
		   !strstr(out.buf, "KMSG_ID=") &&
		   strstr(out.buf, "KMSG_TRUNCATED=1\n") &&
		   !strstr(out.buf, "KMSG_COMM="),
		   "a message whose id is not known: no MESSAGE_ID, KMSG_ID; KMSG_TRUNCATED=1");
	}
	kmsg_journal_free(&e);
	kmsg_strbuf_free(&out);
}

static void test_lost_and_names(void)
{
	struct kmsg_journal_entry e = { 0 };
	struct kmsg_strbuf out = { 0 };

	ok(!kmsg_journal_lost(&e, 2, 17), "lost entry built");
	fields(&e, &out);
	ok(out.buf && !strcmp(out.buf,
	   "MESSAGE=Missed 17 kernel messages on CPU 2\nPRIORITY=4\n"
	   "SYSLOG_FACILITY=0\nSYSLOG_IDENTIFIER=kmsg\n"
	   "MESSAGE_ID=cfed00d0233d34ed1dfdaf6060505742\nKMSG_CPU=2\n"
	   "KMSG_LOST=17\n"), "lost: as journald's \"Missed N kernel messages\", KMSG_LOST");
	ok(kmsg_journal_add(&e, "lower", "x", 1) == -22 &&
	   kmsg_journal_add(&e, "1ABC", "x", 1) == -22 &&
	   kmsg_journal_add(&e, "", "x", 1) == -22 &&
	   kmsg_journal_add(&e, "A=B", "x", 1) == -22 &&
	   kmsg_journal_add(&e, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
			    "x", 1) == -22 &&
	   !kmsg_journal_add(&e, "_A9", "x", 1),
	   "field names: A-Z, 0-9, _, not a digit first, at most 64 bytes");
	kmsg_journal_free(&e);
	kmsg_strbuf_free(&out);
}

/* What journalctl -x would substitute or read as a header or a comment */
static void test_catalog_text(void)
{
	struct kmsg_strbuf out = { 0 };
	const char *text = "See @MESSAGE@ and @_PID@, not a@b.c or @x@ or @@.\n"
			   "-- 0123456789abcdef0123456789abcdef\n"
			   "# not a comment\n; nor this\nend\ttab";

	if (kmsg_journal_catalog_text(&out, text, false) ||
	    kmsg_strbuf_putc(&out, 0))
		abort();
	ok(!strcmp(out.buf, "See \xef\xbc\xa0MESSAGE@ and \xef\xbc\xa0_PID@, "
		   "not a@b.c or @x@ or @@.\n"
		   " -- 0123456789abcdef0123456789abcdef\n"
		   " # not a comment\n ; nor this\nend tab"),
	   "catalog text: no @FIELD@ for journalctl -x, no entry header, no comment line");
	out.len = 0;
	if (kmsg_journal_catalog_text(&out, "-- a\nb @PRIORITY@", true) ||
	    kmsg_strbuf_putc(&out, 0))
		abort();
	ok(!strcmp(out.buf, "-- a b \xef\xbc\xa0PRIORITY@"),
	   "catalog line: newlines as spaces, @FIELD@ escaped");
	kmsg_strbuf_free(&out);
}

int main(void)
{
	printf("TAP version 13\n");
	test_sha256();
	test_message_id();
	test_msg();
	test_lost_and_names();
	test_catalog_text();
	return tap_done();
}
