// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the JSON output: escaping of arbitrary bytes, and the
 * fields of a message object, of version 1 and 2 records.
 */
#include <stdio.h>
#include <string.h>

#include "kmsg_id.h"
#include "kmsg_json.h"
#include "kmsg_strbuf.h"
#include "tap.h"

static int json_is(const char *in, size_t len, const char *want)
{
	struct kmsg_strbuf out = { 0 };
	int ret;

	ret = !kmsg_json_str(&out, in, len) && out.buf && !strcmp(out.buf, want);
	if (!ret)
		printf("# got %s, want %s\n", out.buf ? out.buf : "(null)", want);
	kmsg_strbuf_free(&out);
	return ret;
}

/* Every byte value alone: valid JSON, and only printable ASCII emitted */
static void test_all_bytes(void)
{
	struct kmsg_strbuf out = { 0 };
	int b, bad = 0;
	size_t i;
	char c;

	for (b = 0; b < 256; b++) {
		c = (char)b;
		out.len = 0;
		if (kmsg_json_str(&out, &c, 1)) {
			bad++;
			continue;
		}
		for (i = 0; i < out.len; i++)
			if ((unsigned char)out.buf[i] < 0x20 ||
			    (unsigned char)out.buf[i] >= 0x7f)
				bad++;
		if (out.buf[0] != '"' || out.buf[out.len - 1] != '"')
			bad++;
	}
	kmsg_strbuf_free(&out);
	ok(!bad, "each of the 256 byte values gives a quoted ASCII JSON string");
}

static void test_msg(void)
{
	static const unsigned char argbuf[4] = { 0x11, 0x47, 0, 0 };
	struct kmsg_msg m = {
		.ts = 1263463000ULL, .cpu = 1, .pid = 46, .level = 3,
		.number = 20, .version = 1,
		.component = { "kmsgtest", 8 },
		.fmt = { "device %x: \"q\"", 14 },
		.driver = { "platform", 8 },
		.device = { "kmsgtest", 8 },
		.args = argbuf, .args_len = 4,
	};
	struct kmsg_args args = { .n = 1 };
	struct kmsg_strbuf out = { 0 };
	struct kmsg_ids ids;
	char err[256];
	const char *text = "platform kmsgtest: kmsgtest.20: device 4711: \"q\"";
	const char *want =
		"{\"timestamp\":1.263463,\"cpu\":1,\"pid\":46,\"comm\":\"sh\","
		"\"level\":3,\"level_name\":\"err\",\"component\":\"kmsgtest\","
		"\"number\":20,\"id\":\"kmsgtest.20\","
		"\"format\":\"device %x: \\\"q\\\"\","
		"\"args\":[{\"type\":\"uint\",\"value\":18193}],"
		"\"text\":\"platform kmsgtest: kmsgtest.20: device 4711: \\\"q\\\"\","
		"\"device\":\"kmsgtest\",\"driver\":\"platform\",\"truncated\":false}";

	args.v[0].type = KMSG_ARG_UNSIGNED;
	args.v[0].conv = 'x';
	args.v[0].u = 0x4711;
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !kmsg_json_msg(&out, &m, &ids, "sh", text, strlen(text), &args) &&
	   out.buf && !strcmp(out.buf, want), "message object: %s",
	   out.buf ? out.buf : "");
	kmsg_strbuf_free(&out);
}

/* Does the object of version 2 message @m (no arguments) read @want? */
static int json_v2(struct kmsg_msg *m, const char *text, const char *want)
{
	struct kmsg_args args = { .n = 0 };
	struct kmsg_strbuf out = { 0 };
	struct kmsg_ids ids;
	char err[256];
	int ret;

	m->version = 2;
	m->ts = 6002238000ULL;
	m->cpu = 0;
	m->pid = 141;
	ret = !kmsg_msg_ids(m, NULL, NULL, &ids, err, sizeof(err)) &&
	      !kmsg_json_msg(&out, m, &ids, "tail", text, strlen(text), &args) &&
	      out.buf && !strcmp(out.buf, want);
	if (!ret)
		printf("# got  %s\n# want %s\n", out.buf ? out.buf : err, want);
	kmsg_strbuf_free(&out);
	return ret;
}

static void test_v2(void)
{
	static const char oom[] = "Out of memory and no killable processes...";
	static char cut[KMSG_EVENT_FMT_MAX + 1], want[2 * KMSG_EVENT_FMT_MAX + 512];
	struct kmsg_msg m = {
		.level = 4, .seq = 1234,
		.component = { "", 0 },
		.modname = { "oom_kill", 8 },
		.fmt = { oom, sizeof(oom) - 1 },
		.driver = { "", 0 }, .device = { "", 0 },
	};

	ok(json_v2(&m, oom,
		   "{\"timestamp\":6.002238,\"seq\":1234,\"cpu\":0,\"pid\":141,"
		   "\"comm\":\"tail\",\"level\":4,\"level_name\":\"warn\","
		   "\"component\":\"oom_kill\",\"modname\":\"oom_kill\","
		   "\"auto_id\":\"oom_kill.h923b9134\",\"id\":\"oom_kill.h923b9134\","
		   "\"format\":\"Out of memory and no killable processes...\","
		   "\"args\":[],\"text\":\"Out of memory and no killable processes...\","
		   "\"truncated\":false}"),
	   "version 2, plain: automatic id, seq, modname, no number");

	m.seq = KMSG_SEQ_UNKNOWN;
	m.modname.len = 0;
	ok(json_v2(&m, oom,
		   "{\"timestamp\":6.002238,\"cpu\":0,\"pid\":141,"
		   "\"comm\":\"tail\",\"level\":4,\"level_name\":\"warn\","
		   "\"component\":\"vmlinux\",\"modname\":\"\","
		   "\"auto_id\":\"vmlinux.h923b9134\",\"id\":\"vmlinux.h923b9134\","
		   "\"format\":\"Out of memory and no killable processes...\","
		   "\"args\":[],\"text\":\"Out of memory and no killable processes...\","
		   "\"truncated\":false}"),
	   "version 2, no seq, no modname: vmlinux");

	/* the arguments cut, not the format: its automatic id is known */
	m.modname.len = 8;
	m.flags = KMSG_EVENT_TRUNCATED;
	ok(json_v2(&m, oom,
		   "{\"timestamp\":6.002238,\"cpu\":0,\"pid\":141,"
		   "\"comm\":\"tail\",\"level\":4,\"level_name\":\"warn\","
		   "\"component\":\"oom_kill\",\"modname\":\"oom_kill\","
		   "\"auto_id\":\"oom_kill.h923b9134\",\"id\":\"oom_kill.h923b9134\","
		   "\"format\":\"Out of memory and no killable processes...\","
		   "\"args\":[],\"text\":\"Out of memory and no killable processes...\","
		   "\"truncated\":true}"),
	   "version 2, arguments cut: auto_id and id, truncated");

	/* the format cut to the kernel's limit */
	memset(cut, 'f', KMSG_EVENT_FMT_MAX);
	m.modname.len = 8;
	m.flags = KMSG_EVENT_TRUNCATED;
	m.fmt = (struct kmsg_str){ cut, KMSG_EVENT_FMT_MAX };
	snprintf(want, sizeof(want),
		 "{\"timestamp\":6.002238,\"cpu\":0,\"pid\":141,"
		 "\"comm\":\"tail\",\"level\":4,\"level_name\":\"warn\","
		 "\"component\":\"oom_kill\",\"modname\":\"oom_kill\","
		 "\"format\":\"%s\",\"args\":[],\"text\":\"%s\","
		 "\"truncated\":true}", cut, cut);
	ok(json_v2(&m, cut, want),
	   "version 2, format cut: no auto_id, no id, truncated");

	m.flags = 0;
	m.seq = 0;
	m.level = 3;
	m.component = (struct kmsg_str){ "kmsgtest", 8 };
	m.number = 20;
	m.modname = (struct kmsg_str){ "kmsgtest", 8 };
	m.fmt = (struct kmsg_str){ "kmsgtest.20: timed out", 22 };
	m.driver = (struct kmsg_str){ "platform", 8 };
	m.device = (struct kmsg_str){ "kmsgtest", 8 };
	ok(json_v2(&m, "platform kmsgtest: kmsgtest.20: timed out",
		   "{\"timestamp\":6.002238,\"seq\":0,\"cpu\":0,\"pid\":141,"
		   "\"comm\":\"tail\",\"level\":3,\"level_name\":\"err\","
		   "\"component\":\"kmsgtest\",\"number\":20,\"modname\":\"kmsgtest\","
		   "\"auto_id\":\"kmsgtest.h7e5884e6\",\"id\":\"kmsgtest.20\","
		   "\"format\":\"kmsgtest.20: timed out\",\"args\":[],"
		   "\"text\":\"platform kmsgtest: kmsgtest.20: timed out\","
		   "\"device\":\"kmsgtest\",\"driver\":\"platform\",\"truncated\":false}"),
	   "version 2, curated device message: curated id, number, automatic id");
}

int main(void)
{
	printf("TAP version 13\n");
	ok(json_is("plain", 5, "\"plain\""), "plain text");
	ok(json_is("a\"b\\c", 5, "\"a\\\"b\\\\c\""), "quote and backslash");
	ok(json_is("l1\nl2\tx\r", 8, "\"l1\\nl2\\tx\\u000d\""), "newline, tab, CR");
	ok(json_is("nul\0x", 5, "\"nul\\u0000x\""), "embedded NUL");
	ok(json_is("\x7f", 1, "\"\\u007f\""), "DEL");
	ok(json_is("caf\xc3\xa9 \xe6\x97\xa5\xf0\x9f\x98\x80", 13,
		   "\"caf\xc3\xa9 \xe6\x97\xa5\xf0\x9f\x98\x80\""),
	   "valid UTF-8 kept as is");
	ok(json_is("\xff\xfe", 2, "\"\\u00ff\\u00fe\""), "invalid bytes as code points");
	ok(json_is("\xc3", 1, "\"\\u00c3\""), "truncated UTF-8 sequence");
	ok(json_is("\xc0\xaf", 2, "\"\\u00c0\\u00af\""), "overlong UTF-8 refused");
	ok(json_is("\xed\xa0\x80", 3, "\"\\u00ed\\u00a0\\u0080\""), "UTF-16 surrogate refused");
	test_all_bytes();
	test_msg();
	test_v2();
	return tap_done();
}
