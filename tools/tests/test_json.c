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

/* Length of a valid UTF-8 sequence at s, else 0: the slow way */
static size_t ref_utf8(const unsigned char *s, size_t len)
{
	unsigned long cp;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > len)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* The escaping, one byte at a time with snprintf: what it must give */
static size_t ref_json(char *d, const unsigned char *s, size_t len)
{
	size_t i = 0, o = 0, n;

	d[o++] = '"';
	while (i < len) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			d[o++] = '\\';
			d[o++] = c;
			i++;
		} else if (c == '\n' || c == '\t') {
			d[o++] = '\\';
			d[o++] = c == '\n' ? 'n' : 't';
			i++;
		} else if (c >= 0x20 && c < 0x7f) {
			d[o++] = c;
			i++;
		} else if (c >= 0x80 && (n = ref_utf8(s + i, len - i))) {
			memcpy(d + o, s + i, n);
			o += n;
			i += n;
		} else {
			o += snprintf(d + o, 7, "\\u%04x", c);
			i++;
		}
	}
	d[o++] = '"';
	d[o] = '\0';
	return o;
}

/*
 * Runs of bytes that need no escaping mixed with bytes that do (controls,
 * quotes, UTF-8 valid, cut and invalid) at every position, appended after
 * every prefix length from 0 to 300 bytes, so that the string crosses
 * each growth of the buffer (64, 128, 256, ... bytes) at every offset:
 * the same bytes as the reference, the prefix kept, NUL-terminated.
 */
static void test_runs(void)
{
	static const char * const pieces[] = {
		"abc", "\"", "\\", "\n", "\t", "\x01", "\x1f", "\x7f", "\xc3\xa9",
		"\xe2\x80\xa8", "\xf0\x9f\x98\x80", "\xc3", "\xe2\x80", "\xff",
		"\x80", "\xed\xa0\x80", " ", "~", "0123456789abcdef0123456789",
	};
	unsigned char in[512];
	char want[512 * 6 + 3], prefix[301];
	struct kmsg_strbuf out = { 0 };
	unsigned int seed = 1;
	int t, pre, bad = 0, cases = 0;
	size_t len, wlen, p;

	memset(prefix, 'p', sizeof(prefix));
	for (t = 0; t < 200; t++) {
		/* a random sequence of pieces, up to about 200 bytes */
		len = 0;
		while (len < (size_t)(t % 50) * 4) {
			seed = seed * 1103515245 + 12345;
			p = (seed >> 16) % (sizeof(pieces) / sizeof(pieces[0]));
			memcpy(in + len, pieces[p], strlen(pieces[p]));
			len += strlen(pieces[p]);
		}
		wlen = ref_json(want, in, len);
		for (pre = 0; pre <= 300; pre += t % 7 + 1) {
			kmsg_strbuf_free(&out);
			if (pre && kmsg_strbuf_putn(&out, prefix, pre)) {
				bad++;
				continue;
			}
			cases++;
			if (kmsg_json_str(&out, (const char *)in, len) ||
			    out.len != pre + wlen ||
			    memcmp(out.buf, prefix, pre) ||
			    memcmp(out.buf + pre, want, wlen) ||
			    out.buf[out.len] != '\0') {
				if (!bad)
					printf("# case %d, prefix %d: got %s, want %s\n",
					       t, pre, out.buf ? out.buf + pre : "(null)",
					       want);
				bad++;
			}
		}
	}
	kmsg_strbuf_free(&out);
	ok(!bad && cases > 1000,
	   "runs of plain and escaped bytes, at every buffer boundary (%d cases)",
	   cases);

	/* the worst case: every byte 6 bytes long, the buffer exactly full */
	memset(in, 1, 300);
	for (len = 0, bad = 0; len <= 300; len++) {
		wlen = ref_json(want, in, len);
		kmsg_strbuf_free(&out);
		if (kmsg_json_str(&out, (const char *)in, len) ||
		    out.len != wlen || strcmp(out.buf, want))
			bad++;
	}
	kmsg_strbuf_free(&out);
	ok(!bad, "strings of control characters only, 0 to 300 bytes");
}

/* puti and putx, which the JSON numbers use instead of printf */
static void test_numbers(void)
{
	struct kmsg_strbuf out = { 0 };
	int bad = 0;

	bad |= kmsg_strbuf_puti(&out, 0) || kmsg_strbuf_putc(&out, ' ');
	bad |= kmsg_strbuf_puti(&out, -1) || kmsg_strbuf_putc(&out, ' ');
	bad |= kmsg_strbuf_puti(&out, -9223372036854775807LL - 1) ||
	       kmsg_strbuf_putc(&out, ' ');
	bad |= kmsg_strbuf_puti(&out, 9223372036854775807LL) ||
	       kmsg_strbuf_putc(&out, ' ');
	bad |= kmsg_strbuf_putx(&out, 0) || kmsg_strbuf_putc(&out, ' ');
	bad |= kmsg_strbuf_putx(&out, 0xdeadbeefULL) || kmsg_strbuf_putc(&out, ' ');
	bad |= kmsg_strbuf_putx(&out, ~0ULL) || kmsg_strbuf_putc(&out, ' ');
	bad |= kmsg_strbuf_putu(&out, 42, 6, '0') || kmsg_strbuf_putc(&out, ' ');
	bad |= kmsg_strbuf_printf(&out, "%s-%d", "xy", 7);
	ok(!bad && !strcmp(out.buf, "0 -1 -9223372036854775808 9223372036854775807 0 deadbeef ffffffffffffffff 000042 xy-7"),
	   "decimal and hexadecimal numbers by hand, and printf, appended");
	kmsg_strbuf_free(&out);
}

/* putu against printf: each power of ten and its neighbours, padded */
static void test_putu(void)
{
	unsigned long long p = 1, v[3];
	struct kmsg_strbuf out = { 0 };
	char want[64];
	int i, k, bad = 0, n = 0;

	for (i = 0; i < 20; i++, p *= 10) {
		v[0] = p - 1;
		v[1] = p;
		v[2] = p + 7;
		for (k = 0; k < 3; k++, n++) {
			out.len = 0;
			snprintf(want, sizeof(want), "%0*llu", i % 8, v[k]);
			if (kmsg_strbuf_putu(&out, v[k], i % 8, '0') ||
			    strcmp(out.buf, want))
				bad++;
		}
	}
	/* around the 32-bit fast path's edge, and the largest */
	v[0] = (1ULL << 32) - 1;
	v[1] = 1ULL << 32;
	v[2] = (1ULL << 32) + 1;
	for (k = 0; k < 3; k++, n++) {
		out.len = 0;
		snprintf(want, sizeof(want), "%llu", v[k]);
		bad += kmsg_strbuf_putu(&out, v[k], 0, ' ') || strcmp(out.buf, want);
	}
	out.len = 0;
	snprintf(want, sizeof(want), "%llu", ~0ULL);
	bad += kmsg_strbuf_putu(&out, ~0ULL, 0, ' ') || strcmp(out.buf, want);
	kmsg_strbuf_free(&out);
	ok(!bad, "putu gives printf's digits for %d values, 0 to 2^64 - 1", n + 1);
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
	   !kmsg_json_msg(&out, NULL, &m, &ids, "sh", text, strlen(text),
			  &args) &&
	   out.buf && !strcmp(out.buf, want), "message object: %s",
	   out.buf ? out.buf : "");
	kmsg_strbuf_free(&out);
}

/*
 * The cache of json_v2(), kept from message to message: each differs from
 * the one before in one field of its site only
 */
static struct kmsg_json_cache v2_cache;

/*
 * Does the object of version 2 message @m (no arguments) read @want,
 * made with and without a cache?
 */
static int json_v2(struct kmsg_msg *m, const char *text, const char *want)
{
	struct kmsg_args args = { .n = 0 };
	struct kmsg_strbuf out = { 0 }, cached = { 0 };
	struct kmsg_ids ids;
	char err[256];
	int ret;

	m->version = 2;
	m->ts = 6002238000ULL;
	m->cpu = 0;
	m->pid = 141;
	ret = !kmsg_msg_ids(m, NULL, NULL, &ids, err, sizeof(err)) &&
	      !kmsg_json_msg(&out, NULL, m, &ids, "tail", text, strlen(text),
			     &args) &&
	      out.buf && !strcmp(out.buf, want);
	if (!ret)
		printf("# got  %s\n# want %s\n", out.buf ? out.buf : err, want);
	if (ret && (kmsg_json_msg(&cached, &v2_cache, m, &ids, "tail", text,
				  strlen(text), &args) ||
		    !cached.buf || strcmp(cached.buf, want))) {
		printf("# cached %s\n# want   %s\n", cached.buf ? cached.buf : "",
		       want);
		ret = 0;
	}
	kmsg_strbuf_free(&out);
	kmsg_strbuf_free(&cached);
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

/* Set one input of a site's JSON in @m or @ids to another value */
static void change_site(int k, struct kmsg_msg *m, struct kmsg_ids *ids)
{
	switch (k) {
	case 0:
		m->modname = (struct kmsg_str){ "mod2", 4 };
		break;
	case 1:
		m->fmt = (struct kmsg_str){ "fmt %u", 6 };
		break;
	case 2:
		m->flags &= ~KMSG_EVENT_WRAPPED;
		break;
	case 3:
		m->wrap_fmt = (struct kmsg_str){ "x: %pV", 6 };
		break;
	case 4:
		snprintf(ids->automatic, sizeof(ids->automatic), "mod.h00000002");
		break;
	case 5:
		ids->auto_known = false;
		break;
	case 6:
		ids->auto_comp_len = 2;
		break;
	case 7:
		snprintf(ids->curated, sizeof(ids->curated), "mod.5");
		ids->curated_comp_len = 3;
		break;
	case 8:
		m->version = 1;
		break;
	}
}

#define SITE_CHANGES 9

/*
 * The JSON of a site cached: a message that differs from the last one in
 * any single input of those fields gets its own, not the cached one.
 */
static void test_site_cache(void)
{
	struct kmsg_msg base = {
		.version = 2, .level = 6, .seq = 7,
		.flags = KMSG_EVENT_WRAPPED,
		.component = { "", 0 },
		.modname = { "mod", 3 },
		.fmt = { "fmt %d", 6 },
		.wrap_fmt = { "w: %pV", 6 },
		.driver = { "", 0 }, .device = { "", 0 },
	};
	struct kmsg_ids base_ids = {
		.automatic = "mod.h00000001", .auto_comp_len = 3,
		.auto_known = true, .hash = 1, .number = 5,
	};
	struct kmsg_json_cache cache = { 0 };
	struct kmsg_strbuf want = { 0 }, got = { 0 };
	struct kmsg_args args = { .n = 0 };
	int k, pass, bad = 0;

	for (k = 0; k < SITE_CHANGES; k++) {
		struct kmsg_msg m = base;
		struct kmsg_ids ids = base_ids;

		change_site(k, &m, &ids);
		/* the base, the changed one, the base again */
		for (pass = 0; pass < 3; pass++) {
			struct kmsg_msg *pm = pass == 1 ? &m : &base;
			struct kmsg_ids *pi = pass == 1 ? &ids : &base_ids;

			want.len = got.len = 0;
			if (kmsg_json_msg(&want, NULL, pm, pi, "c", "t", 1, &args) ||
			    kmsg_json_msg(&got, &cache, pm, pi, "c", "t", 1,
					  &args) ||
			    strcmp(got.buf, want.buf)) {
				printf("# change %d, pass %d: got  %s\n# want %s\n",
				       k, pass, got.buf ? got.buf : "",
				       want.buf ? want.buf : "");
				bad++;
			}
		}
	}
	kmsg_json_cache_free(&cache);
	kmsg_strbuf_free(&want);
	kmsg_strbuf_free(&got);
	ok(!bad, "a site's JSON cached: each of %d single changes of its inputs seen",
	   SITE_CHANGES);
}

/* --otlp: severities of appendix B, arguments as AnyValues, no unknown time */
static void test_otlp(void)
{
	static const char * const want_sev[8] = {
		"\"severityNumber\":21,", "\"severityNumber\":19,",
		"\"severityNumber\":18,", "\"severityNumber\":17,",
		"\"severityNumber\":13,", "\"severityNumber\":10,",
		"\"severityNumber\":9,", "\"severityNumber\":5,",
	};
	struct kmsg_msg m = {
		.version = 2, .seq = 5,
		.component = { "", 0 },
		.modname = { "mod", 3 },
		.fmt = { "%d %llu %c %s %p", 16 },
		.driver = { "e1000e", 6 }, .device = { "0000:00:19.0", 12 },
	};
	struct kmsg_ids ids = {
		.automatic = "mod.h00000001", .auto_comp_len = 3,
		.auto_known = true, .hash = 1,
	};
	struct kmsg_otlp o = { .observed_ns = 1700000000000000000ULL };
	struct kmsg_args args = { .n = 5 };
	struct kmsg_strbuf out = { 0 };
	unsigned int level;
	int bad = 0;

	for (level = 0; level < 8; level++) {
		m.level = level;
		out.len = 0;
		if (kmsg_otlp_msg(&out, &o, &m, &ids, "sh", "t", 1, &args) ||
		    !strstr(out.buf, want_sev[level]))
			bad++;
	}
	ok(!bad, "OTLP: the 8 levels as SeverityNumber 21, 19, 18, 17, 13, 10, 9, 5");

	args.v[0] = (struct kmsg_arg){ .type = KMSG_ARG_SIGNED, .s = -5 };
	args.v[1] = (struct kmsg_arg){ .type = KMSG_ARG_UNSIGNED,
				       .u = 18446744073709551615ULL };
	args.v[2] = (struct kmsg_arg){ .type = KMSG_ARG_CHAR, .s = '"' };
	args.v[3] = (struct kmsg_arg){ .type = KMSG_ARG_STRING, .str = "a\nb",
				       .str_len = 3 };
	args.v[4] = (struct kmsg_arg){ .type = KMSG_ARG_POINTER,
				       .u = 0xffff8881deadbeefULL };
	out.len = 0;
	ok(!kmsg_otlp_msg(&out, &o, &m, &ids, "sh", "t", 1, &args) &&
	   strstr(out.buf, "{\"key\":\"kmsg.args\",\"value\":{\"arrayValue\":{\"values\":["
			   "{\"intValue\":\"-5\"},"
			   "{\"stringValue\":\"18446744073709551615\"},"
			   "{\"stringValue\":\"\\\"\"},"
			   "{\"stringValue\":\"a\\nb\"},"
			   "{\"stringValue\":\"0xffff8881deadbeef\"}]}}}") &&
	   strstr(out.buf, "{\"key\":\"kmsg.device\",\"value\":{\"stringValue\":\"0000:00:19.0\"}}") &&
	   strstr(out.buf, "\"observedTimeUnixNano\":\"1700000000000000000\"") &&
	   !strstr(out.buf, "\"timeUnixNano\"") && !strstr(out.buf, "host.name"),
	   "OTLP: int64 as strings, a uint above int64 as text, escaped strings, "
	   "device, no time or host unknown");

	o.have_boot_time = true;
	o.boot_ns = 1000000000ULL;
	o.host = "node1";
	m.ts = 2500;
	out.len = 0;
	ok(!kmsg_otlp_msg(&out, &o, &m, &ids, "sh", "t", 1, &args) &&
	   strstr(out.buf, "\"timeUnixNano\":\"1000002500\"") &&
	   strstr(out.buf, "{\"key\":\"host.name\",\"value\":{\"stringValue\":\"node1\"}}"),
	   "OTLP: timeUnixNano the boot time plus the timestamp, host.name");
	kmsg_strbuf_free(&out);
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
	test_runs();
	test_numbers();
	test_putu();
	test_msg();
	test_v2();
	kmsg_json_cache_free(&v2_cache);
	test_site_cache();
	test_otlp();
	return tap_done();
}
