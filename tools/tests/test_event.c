// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of kmsg:kmsg record decoding: the kernel's event formats
 * (data/kmsg.format, version 1, as a 6.12 kernel with the series prints
 * it; data/kmsg-v2.format, version 2, every printk() message;
 * data/kmsg-v3.format, version 3, wrapped messages apart;
 * data/kmsg-v4.format, layout 4, the event of vprintk_store() without a
 * version field, device messages in the device layer's wrapper;
 * data/kmsg-v5.format, layout 5, layout 4 with the wrapper's arguments
 * and format in args and fmt, after the message's) parse
 * without warnings, good records decode and render, and corrupt ones give
 * an error, never a crash or an out-of-bounds read (run under ASan).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "bin_encode.h"
#include "kmsg_event.h"
#include "kmsg_id.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"
#include "kmsg_text.h"
#include "tap.h"

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}

/* Parse the format with stderr captured: libtraceevent warns there */
static struct tep_handle *load_format(const char *path, char *warn, size_t size)
{
	struct tep_handle *tep = tep_alloc();
	size_t len = 0;
	char *fmt = read_file(path, &len);
	FILE *tmp = tmpfile();
	int saved = dup(2), n;

	if (!tep || !fmt || !tmp)
		return NULL;
	tep_set_long_size(tep, 8);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	n = tep_parse_event(tep, fmt, len, "kmsg");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = n ? -1 : (int)fread(warn, 1, size - 1, tmp);
	warn[n > 0 ? n : 0] = '\0';
	fclose(tmp);
	free(fmt);
	if (n < 0) {
		tep_free(tep);
		return NULL;
	}
	return tep;
}

struct rec_spec {
	int version;
	unsigned int level, number;
	const void *args;
	size_t args_len;
	const char *component, *fmt, *driver, *device;
	/* version 2 */
	const char *modname;
	unsigned long long seq;
	unsigned int flags;
	/* version 3 */
	const char *wrap_fmt;
	const void *wrap_args;
	size_t wrap_args_len;
};

/* Where an event format puts the fields */
struct layout {
	/* version, number and seq: 0 if none (no ip either without version) */
	int version, level, flags, number, seq;
	int args;		/* __data_loc of args, then of the strings */
	int nstr;		/* string fields: 4 (v1), 5 (v2, v3), 2 (v4) */
	int data;		/* where the dynamic data starts */
	int strs;		/* __data_loc of the first string */
	int wrap_args, wrap_fmt;	/* version 3: __data_loc; else 0 */
	int wrap_at;		/* layout 5: where the wrapper's words start */
	bool chain;		/* layout 6: the wrapper's words around the message's */
};

/* data/kmsg.format: component, fmt, driver, device */
static const struct layout layout_v1 = { 16, 17, 18, 20, 0, 24, 4, 44, 28, 0, 0, 0, false };
/* data/kmsg-v2.format: component, modname, fmt, driver, device */
static const struct layout layout_v2 = { 28, 29, 30, 24, 16, 32, 5, 56, 36, 0, 0, 0, false };
/* data/kmsg-v3.format: version 2's, wrap_args after args, wrap_fmt last */
static const struct layout layout_v3 = {
	28, 29, 30, 24, 16, 32, 5, 64, 40, 36, 60, 0, false
};
/* data/kmsg-v4.format: seq, level, flags; args, wrap_args, modname, fmt, wrap_fmt */
static const struct layout layout_v4 = { 0, 16, 17, 0, 8, 20, 2, 40, 28, 24, 36, 0, false };
/* data/kmsg-v5.format: seq, level, flags, wrap_at; args, modname, fmt */
static const struct layout layout_v5 = { 0, 16, 17, 0, 8, 20, 2, 32, 24, 0, 0, 18, false };
/* data/kmsg-v6.format: seq, level, flags; args, modname, fmt */
static const struct layout layout_v6 = {
	0, 16, 17, 0, 8, 20, 2, 32, 24, 0, 0, 0, true
};

static void put_loc(unsigned char *d, int at, size_t off, size_t len)
{
	uint32_t loc = (uint32_t)(len << 16 | off);

	memcpy(d + at, &loc, 4);
}

/*
 * Layout 6 at @d, a message of one 4-byte argument @a in a wrapper
 * "%s<%pV>%d": args "ab", @a, @b from 32 on, no module name, then the
 * formats @fmt (@n bytes, NULs included). Returns the record's size.
 */
static size_t put_wrapped(unsigned char *d, uint32_t a, uint32_t b,
			  const char *fmt, size_t n)
{
	size_t off = 44;

	memcpy(d + 32, "ab\0", 4);
	memcpy(d + 36, &a, 4);
	memcpy(d + 40, &b, 4);
	put_loc(d, 20, 32, 12);
	put_loc(d, 24, off, 1);
	d[off++] = '\0';
	put_loc(d, 28, off, n);
	memcpy(d + off, fmt, n);
	return off + n;
}

/*
 * Layout 6, a wrapped message: the wrapper's arguments (given with an
 * empty string for its %pV, as layouts 3 to 5 record them) up to its
 * %pV, then from a word on the message's, then from a word on the rest;
 * fmt the message's format, then the wrapper's. Arguments of a wrapper
 * that do not decode up to its %pV are put as they are (a cut record).
 */
static size_t build_chain(unsigned char *d, const struct layout *l,
			  const struct rec_spec *s, size_t off,
			  const char *modname)
{
	static struct kmsg_args a;
	const unsigned char *w = s->wrap_args;
	size_t start, stop, p = s->wrap_args_len, n;

	off = l->data;
	if (kmsg_pv_find(s->wrap_fmt, strlen(s->wrap_fmt), &start, &stop) &&
	    !kmsg_args_decode(s->wrap_fmt, start, w, s->wrap_args_len, NULL,
			      &a) && a.used < s->wrap_args_len)
		p = a.used;
	memcpy(d + off, w, p);
	off += p;
	if (p < s->wrap_args_len) {
		off = (off + 3) & ~(size_t)3;
		memcpy(d + off, s->args, s->args_len);
		off = (off + s->args_len + 3) & ~(size_t)3;
		/* the %pV's empty string is not recorded */
		memcpy(d + off, w + p + 1, s->wrap_args_len - p - 1);
		off += s->wrap_args_len - p - 1;
	}
	put_loc(d, l->args, l->data, off - l->data);
	n = strlen(modname) + 1;
	put_loc(d, l->strs, off, n);
	memcpy(d + off, modname, n);
	off += n;
	n = strlen(s->fmt) + 1 + strlen(s->wrap_fmt) + 1;
	put_loc(d, l->strs + 4, off, n);
	memcpy(d + off, s->fmt, strlen(s->fmt) + 1);
	memcpy(d + off + strlen(s->fmt) + 1, s->wrap_fmt,
	       strlen(s->wrap_fmt) + 1);
	return off + n;
}

/* A record laid out as the kernel's event format @l says */
static size_t build_as(unsigned char *d, int id, const struct layout *l,
		       const struct rec_spec *s)
{
	const char *v1[4] = { s->component, s->fmt, s->driver, s->device };
	const char *v2[5] = { s->component, s->modname ? s->modname : "",
			      s->fmt, s->driver, s->device };
	const char *v4[2] = { s->modname ? s->modname : "", s->fmt };
	const char **strs = l->nstr == 5 ? v2 : l->nstr == 2 ? v4 : v1;
	uint64_t ip = 0xffffffffc0001230ULL, seq = s->seq;
	uint32_t number = s->number;
	uint16_t type = id;
	int32_t pid = 77;
	size_t off = l->data, n;
	int i;

	memset(d, 0, 4096);
	memcpy(d, &type, 2);
	memcpy(d + 4, &pid, 4);
	if (l->version) {
		memcpy(d + 8, &ip, 8);
		d[l->version] = s->version;
	}
	if (l->seq)
		memcpy(d + l->seq, &seq, 8);
	d[l->level] = s->level;
	d[l->flags] = s->flags;
	if (l->number)
		memcpy(d + l->number, &number, 4);
	put_loc(d, l->args, off, s->args_len);
	memcpy(d + off, s->args, s->args_len);
	off += s->args_len;
	if (l->chain && (s->flags & KMSG_EVENT_WRAPPED) && s->wrap_fmt)
		return build_chain(d, l, s, off, strs[0]);
	if (l->wrap_at || l->chain) {
		/* the wrapper's words after the message's, its format after its */
		uint16_t at = s->args_len / 4;
		const char *w = s->wrap_fmt ? s->wrap_fmt : "";

		if (l->wrap_at)
			memcpy(d + l->wrap_at, &at, 2);
		if (s->wrap_args_len && l->wrap_at)
			memcpy(d + off, s->wrap_args, s->wrap_args_len);
		off += l->wrap_at ? s->wrap_args_len : 0;
		put_loc(d, l->args, l->data, off - l->data);
		n = strlen(strs[0]) + 1;
		put_loc(d, l->strs, off, n);
		memcpy(d + off, strs[0], n);
		off += n;
		/* layout 6: the message's format alone */
		n = strlen(s->fmt) + 1 + (l->chain ? 0 : strlen(w) + 1);
		put_loc(d, l->strs + 4, off, n);
		memcpy(d + off, s->fmt, strlen(s->fmt) + 1);
		if (!l->chain)
			memcpy(d + off + strlen(s->fmt) + 1, w, strlen(w) + 1);
		return off + n;
	}
	for (i = 0; i < l->nstr; i++) {
		n = strlen(strs[i]) + 1;
		put_loc(d, l->strs + 4 * i, off, n);
		memcpy(d + off, strs[i], n);
		off += n;
	}
	if (l->wrap_args) {
		put_loc(d, l->wrap_args, off, s->wrap_args_len);
		if (s->wrap_args_len)
			memcpy(d + off, s->wrap_args, s->wrap_args_len);
		off += s->wrap_args_len;
		n = strlen(s->wrap_fmt ? s->wrap_fmt : "") + 1;
		put_loc(d, l->wrap_fmt, off, n);
		memcpy(d + off, s->wrap_fmt ? s->wrap_fmt : "", n);
		off += n;
	}
	return off;
}

static size_t build(unsigned char *d, int id, const struct rec_spec *s)
{
	return build_as(d, id, &layout_v1, s);
}

static int decode(struct kmsg_event *ev, unsigned char *d, size_t size,
		  struct kmsg_msg *m, char *err)
{
	struct tep_record rec = {
		.ts = 1234567890123ULL, .size = size, .data = d, .cpu = 1,
	};

	if (!kmsg_event_match(ev, &rec))
		return -2;
	return kmsg_event_decode(ev, &rec, m, err, 256);
}

/* The text with @id shown (kmsg_msg_text_id()), and translated to @fmt */
static void text_id_of(const struct kmsg_msg *m, const char *id,
		       const char *fmt, char *out, size_t size)
{
	struct kmsg_render_opts opts = { .long_size = 8, .symbolic_errname = true };
	struct kmsg_strbuf text = { 0 };
	struct kmsg_args args;

	if (kmsg_msg_text_id(&text, m, id, fmt, &opts, &args) < 0)
		snprintf(out, size, "(error)");
	else
		snprintf(out, size, "%s", text.buf ? text.buf : "");
	kmsg_strbuf_free(&text);
}

static void text_of(const struct kmsg_msg *m, char *out, size_t size)
{
	text_id_of(m, NULL, NULL, out, size);
}

static void test_good(struct kmsg_event *ev, int id)
{
	unsigned char d[4096], args[64];
	struct rec_spec s = { 1, 3, 2, args, 0, "kmsgtest",
			      "device %x not online", "", "", NULL, 0, 0, NULL, NULL, 0 };
	struct kmsg_ids ids;
	struct kmsg_msg m;
	char err[256] = "", text[256];

	s.args_len = bin_encode(args, sizeof(args), "device %x not online",
				0x4711);
	ok(decode(ev, d, build(d, id, &s), &m, err) == 0, "good record decodes %s", err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "kmsgtest.2: device 4711 not online"),
	   "good record renders: %s", text);
	ok(m.level == 3 && m.number == 2 && m.cpu == 1 && m.pid == 77 &&
	   m.ts == 1234567890123ULL, "fields: level, number, cpu, pid, ts");

	ok(m.seq == KMSG_SEQ_UNKNOWN && !m.modname.len,
	   "version 1 record: seq unknown, no modname");

	s.driver = "platform";
	s.device = "kmsgtest";
	s.number = 20;
	decode(ev, d, build(d, id, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "platform kmsgtest: kmsgtest.20: device 4711 not online"),
	   "device record renders with its prefix: %s", text);

	/* the id as every message shows it: the one already there */
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), "kmsgtest.20") && !kmsg_ids_auto(&ids) &&
	   !strcmp(kmsg_ids_label(&ids), "kmsgtest.20"),
	   "version 1: curated id kmsgtest.20, no automatic id");
	text_id_of(&m, kmsg_ids_label(&ids), NULL, text, sizeof(text));
	ok(!strcmp(text, "platform kmsgtest: kmsgtest.20: device 4711 not online"),
	   "version 1 with its id shown: the id once: %s", text);
	text_id_of(&m, kmsg_ids_label(&ids), "Gerät %x ist nicht online", text,
		   sizeof(text));
	ok(!strcmp(text, "platform kmsgtest: kmsgtest.20: Gerät 4711 ist nicht online"),
	   "version 1 translated: %s", text);
}

static void test_bad(struct kmsg_event *ev, int id)
{
	unsigned char d[4096], args[64];
	struct rec_spec s = { 1, 3, 2, args, 0, "kmsgtest", "n %d", "", "",
			      NULL, 0, 0, NULL, NULL, 0 };
	struct kmsg_msg m;
	char err[256];
	size_t size;
	uint32_t loc;

	s.args_len = bin_encode(args, sizeof(args), "n %d", 5);
	size = build(d, id, &s);

	s.version = 4;
	build(d, id, &s);
	err[0] = '\0';
	ok(decode(ev, d, size, &m, err) == -1 && strstr(err, "unknown version"),
	   "unknown event version refused: %s", err);
	s.version = 0;
	build(d, id, &s);
	err[0] = '\0';
	ok(decode(ev, d, size, &m, err) == -1 && strstr(err, "unknown version"),
	   "event version 0 refused: %s", err);
	s.version = 2;
	build(d, id, &s);
	err[0] = '\0';
	ok(decode(ev, d, size, &m, err) == -1 && strstr(err, "no seq field"),
	   "version 2 record of a version 1 format refused: %s", err);
	s.version = 1;

	size = build(d, id, &s);
	loc = 0xffff0000u | 44;		/* length far past the record */
	memcpy(d + 24, &loc, 4);
	ok(decode(ev, d, size, &m, err) == -1, "args __data_loc past the end: %s", err);

	size = build(d, id, &s);
	loc = 8u << 16 | 0xfff0;	/* offset past the record */
	memcpy(d + 28, &loc, 4);
	ok(decode(ev, d, size, &m, err) == -1, "component __data_loc past the end: %s", err);

	size = build(d, id, &s);
	d[44 + s.args_len + 8] = 'X';	/* component's NUL */
	ok(decode(ev, d, size, &m, err) == -1, "component without NUL: %s", err);

	size = build(d, id, &s);
	ok(decode(ev, d, 20, &m, err) == -1, "record cut inside its fields: %s", err);
	ok(decode(ev, d, 1, &m, err) == -2, "record of 1 byte: not a kmsg record");

	/* args shorter than the format needs: a marker, no read past them */
	size = build(d, id, &s);
	loc = 0u << 16 | 44;
	memcpy(d + 24, &loc, 4);
	if (!decode(ev, d, size, &m, err)) {
		char text[256];

		text_of(&m, text, sizeof(text));
		ok(strstr(text, "<?missing?>") != NULL,
		   "empty args for \"n %%d\": %s", text);
	} else {
		ok(0, "empty args record should decode: %s", err);
	}
}

/*
 * Random corruption of a good record: decode, identify and render, never
 * crash
 */
static void test_fuzz(struct kmsg_event *ev, int id, const struct layout *l)
{
	unsigned char d[4096], args[256], *copy;
	unsigned char wargs[64];
	struct rec_spec s = { l->nstr == 5 ? 2 : 1, 6, 9, args, 0, "kmsgtest",
			      "pointers %p %px %ps %pS %s %*d %.*s %lld %hhd",
			      "platform", "kmsgtest", "kmsgtest", 12345,
			      l->nstr == 5 ? KMSG_EVENT_DEVICE : 0,
			      "%s[%d] %pV", wargs, 0 };
	struct kmsg_ids ids;
	struct kmsg_msg m;
	char err[256], text[2048];
	size_t size;
	int i, j, decoded = 0;

	s.args_len = bin_encode(args, sizeof(args), s.fmt, (void *)1,
				(void *)2, (void *)3, (void *)4, "str", 5, 6,
				3, "abcdef", -7LL, 8);
	if (l->wrap_args) {
		s.version = 3;
		s.flags |= KMSG_EVENT_WRAPPED;
		s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
					     "pfx", 3, "");
	}
	if (!l->version) {
		/* layout 4: the device wrapper, its driver and device taken */
		s.version = 4;
		s.wrap_fmt = "%s %s: %pV";
		s.flags = KMSG_EVENT_DEVICE | KMSG_EVENT_WRAPPED;
		s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
					     "platform", "kmsgtest", "");
	}
	size = build_as(d, id, l, &s);
	srand(1);
	for (i = 0; i < 20000; i++) {
		size_t n = 1 + rand() % size;

		/* a heap copy of exactly n bytes: ASan sees any overread */
		copy = malloc(n);
		memcpy(copy, d, n);
		/* corrupt anything past the common header */
		for (j = 0; j < 1 + rand() % 8; j++)
			copy[n > 8 ? 8 + rand() % (n - 8) : rand() % n] = rand();
		if (decode(ev, copy, n, &m, err) == 0) {
			text_of(&m, text, sizeof(text));
			if (!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)))
				text_id_of(&m, kmsg_ids_label(&ids), NULL, text,
					   sizeof(text));
			decoded++;
		}
		free(copy);
	}
	ok(decoded > 0, "version %d: 20000 corrupted or cut records: no crash (%d decoded)",
	   s.version, decoded);
}

/* Version 2: every printk() message, its automatic id, seq and modname */
static void test_v2(struct kmsg_event *ev, int id)
{
	static const char oom[] = "Out of memory and no killable processes...";
	unsigned char d[4096], args[64];
	struct rec_spec s = { 2, 4, 0, args, 0, "", oom, "", "", "oom_kill", 42, 0,
			      NULL, NULL, 0 };
	struct kmsg_ids ids;
	struct kmsg_msg m;
	char err[256] = "", text[2048], want[256];
	size_t size;
	uint32_t loc;

	ok(ev->seq && ev->modname, "version 2 format: seq and modname found");

	/* a plain printk(): no prefix, an automatic id */
	ok(decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err) == 0,
	   "plain message decodes %s", err);
	ok(m.version == 2 && m.seq == 42 && m.level == 4 && !m.number &&
	   m.modname.len == 8 && !memcmp(m.modname.s, "oom_kill", 8) &&
	   m.fmt.len == strlen(oom), "fields: version, seq, level, modname, fmt");
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, oom), "plain message: its text, no prefix: %s", text);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !ids.curated[0] && kmsg_ids_auto(&ids) &&
	   !strcmp(kmsg_ids_auto(&ids), "oom_kill.h923b9134") &&
	   kmsg_ids_id(&ids) == kmsg_ids_auto(&ids),
	   "plain message: id is the automatic id %s", ids.automatic);
	text_id_of(&m, kmsg_ids_label(&ids), NULL, text, sizeof(text));
	ok(!strcmp(text, "oom_kill.h923b9134: Out of memory and no killable processes..."),
	   "plain message with its id shown: %s", text);
	text_id_of(&m, kmsg_ids_label(&ids), "Kein Speicher (%d)", text,
		   sizeof(text));
	ok(!strcmp(text, "oom_kill.h923b9134: Kein Speicher (<?missing?>)"),
	   "plain message translated, after its id: %s", text);

	/* printk() drops a newline that ends the text, from an argument too */
	{
		static const char inner[8] = "inner\n";
		static const char acpi[12] = "\0016ACPI: x";
		struct rec_spec w = { 2, 4, 0, inner, sizeof(inner), "",
				      "wrapped: %s", "", "", "mod", 7, 0,
				      NULL, NULL, 0 };

		decode(ev, d, build_as(d, id, &layout_v2, &w), &m, err);
		text_of(&m, text, sizeof(text));
		ok(!strcmp(text, "wrapped: inner"),
		   "a newline at the end of an argument is dropped: %s", text);

		/* ACPI: printk(KERN_CONT "%s", "\0016ACPI: ...") */
		w.fmt = "%s";
		w.args = acpi;
		w.args_len = sizeof(acpi);
		decode(ev, d, build_as(d, id, &layout_v2, &w), &m, err);
		text_of(&m, text, sizeof(text));
		ok(!strcmp(text, "ACPI: x"),
		   "a level header at the start of the text is dropped: %s", text);
	}

	/* no modname: vmlinux */
	s.modname = "";
	decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !strcmp(ids.automatic, "vmlinux.h923b9134"),
	   "no modname: %s", ids.automatic);

	/* unknown seq */
	s.seq = KMSG_SEQ_UNKNOWN;
	decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
	ok(m.seq == KMSG_SEQ_UNKNOWN, "seq U64_MAX: unknown");

	/* arguments cut: the format is whole */
	s.modname = "oom_kill";
	s.flags = KMSG_EVENT_TRUNCATED;
	decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   kmsg_ids_auto(&ids) && !strcmp(kmsg_ids_id(&ids), "oom_kill.h923b9134"),
	   "truncated, short format: automatic id %s", ids.automatic);

	/* the format cut to the kernel's limit: no automatic id, none guessed */
	{
		static char cut[KMSG_EVENT_FMT_MAX + 1];

		memset(cut, 'f', KMSG_EVENT_FMT_MAX);
		s.fmt = cut;
		decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
		ok(m.fmt.len == KMSG_EVENT_FMT_MAX &&
		   !kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
		   !kmsg_ids_auto(&ids) && !kmsg_ids_id(&ids) &&
		   !strcmp(kmsg_ids_label(&ids), "oom_kill.h????????"),
		   "truncated, format of %d bytes: no automatic id, shown as %s",
		   KMSG_EVENT_FMT_MAX, kmsg_ids_label(&ids));
		s.flags = 0;
		decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
		ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
		   kmsg_ids_auto(&ids),
		   "not truncated, format of %d bytes: automatic id %s",
		   KMSG_EVENT_FMT_MAX, ids.automatic);
		s.fmt = oom;
	}

	/* a kmsg_*() site: its "component.number: " is in the format */
	s.component = "kmsgtest";
	s.modname = "kmsgtest";
	s.number = 2;
	s.level = 3;
	s.fmt = "kmsgtest.2: device %x not online";
	s.args_len = bin_encode(args, sizeof(args), "device %x not online",
				0x4711);
	ok(decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err) == 0,
	   "curated message decodes %s", err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "kmsgtest.2: device 4711 not online"),
	   "curated message: the prefix once: %s", text);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), "kmsgtest.2") && ids.number == 2 &&
	   kmsg_ids_auto(&ids) && !strcmp(kmsg_ids_auto(&ids), "kmsgtest.hb6122c20"),
	   "curated message: id kmsgtest.2, automatic id %s", ids.automatic);
	text_id_of(&m, kmsg_ids_label(&ids), NULL, text, sizeof(text));
	ok(!strcmp(text, "kmsgtest.2: device 4711 not online"),
	   "curated message with its id shown: the id once: %s", text);
	text_id_of(&m, NULL, "デバイス %x はオンラインではありません", text,
		   sizeof(text));
	ok(!strcmp(text, "kmsgtest.2: デバイス 4711 はオンラインではありません"),
	   "curated message translated: %s", text);

	/* device messages */
	s.driver = "platform";
	s.device = "kmsgtest";
	s.flags = KMSG_EVENT_DEVICE;
	s.number = 20;
	s.fmt = "kmsgtest.20: device %x not online";
	decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "platform kmsgtest: kmsgtest.20: device 4711 not online"),
	   "curated device message: %s", text);
	s.component = "";
	s.number = 0;
	s.fmt = "device %x not online";
	decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "platform kmsgtest: device 4711 not online"),
	   "device message: %s", text);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	text_id_of(&m, kmsg_ids_label(&ids), NULL, text, sizeof(text));
	ok(!strcmp(text, "platform kmsgtest: kmsgtest.hf2c08070: device 4711 not online"),
	   "device message with its id shown: %s", text);
	s.driver = "";
	decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, " kmsgtest: device 4711 not online"),
	   "device message, no driver: \"%s\"", text);
	/*
	 * dev_printk() of a NULL device: no device message, the printk()
	 * it makes in drivers/base/core.c, the level in an argument
	 */
	s.flags = 0;
	s.driver = s.device = "";
	s.modname = "core";
	s.fmt = "%s(NULL device *): %pV";
	s.args_len = bin_encode(args, sizeof(args), s.fmt, "\0013",
				"device 4711 not online");
	decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "(NULL device *): device 4711 not online"),
	   "dev_printk() of a NULL device: %s", text);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	text_id_of(&m, kmsg_ids_label(&ids), NULL, text, sizeof(text));
	snprintf(want, sizeof(want), "%s: (NULL device *): device 4711 not online",
		 ids.automatic);
	ok(!strncmp(ids.automatic, "core.h", 6) && !strcmp(text, want),
	   "NULL device with its id shown: %s", text);
	/* driver and device of a message not flagged a device message */
	s.modname = "kmsgtest";
	s.fmt = "device %x not online";
	s.args_len = bin_encode(args, sizeof(args), s.fmt, 0x4711);
	s.driver = "platform";
	s.device = "kmsgtest";
	decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "device 4711 not online"),
	   "driver and device without KMSG_EVENT_DEVICE: not printed: %s",
	   text);

	/* printk()'s cut: of the kernel's text, not of the id shown */
	{
		static char big[1501];

		memset(big, 'y', 1500);
		s.driver = s.device = "";
		s.fmt = "%s";
		/* vbin_printf() stores a %s string in place, with its NUL */
		s.args = big;
		s.args_len = 1500;
		memcpy(big, "long ", 5);
		big[1499] = '\0';
		decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
		text_of(&m, text, sizeof(text));
		ok(strlen(text) == KMSG_TEXT_MAX_PLAIN && !strncmp(text, "long ", 5),
		   "long message cut at %d bytes: %zu", KMSG_TEXT_MAX_PLAIN,
		   strlen(text));
		kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
		text_id_of(&m, kmsg_ids_label(&ids), NULL, text, sizeof(text));
		ok(strlen(text) == KMSG_TEXT_MAX_PLAIN + strlen(ids.automatic) + 2 &&
		   !strncmp(text, ids.automatic, strlen(ids.automatic)),
		   "with its id shown: the id and %d bytes: %zu",
		   KMSG_TEXT_MAX_PLAIN, strlen(text));
		s.driver = "platform";
		s.device = "kmsgtest";
		s.flags = KMSG_EVENT_DEVICE;
		decode(ev, d, build_as(d, id, &layout_v2, &s), &m, err);
		text_of(&m, text, sizeof(text));
		ok(strlen(text) == KMSG_TEXT_MAX &&
		   !strncmp(text, "platform kmsgtest: long ", 24),
		   "long device message cut at %d bytes: %zu", KMSG_TEXT_MAX,
		   strlen(text));
		s.driver = s.device = "";
		s.flags = 0;
		s.args = args;
	}

	/* corrupt version 2 records */
	s.fmt = "n %d";
	s.modname = "kmsgtest";
	s.args_len = bin_encode(args, sizeof(args), "n %d", 5);
	size = build_as(d, id, &layout_v2, &s);
	d[56 + s.args_len + 1 + 8] = 'X';	/* modname's NUL */
	err[0] = '\0';
	ok(decode(ev, d, size, &m, err) == -1 && strstr(err, "modname"),
	   "unterminated modname: %s", err);
	size = build_as(d, id, &layout_v2, &s);
	loc = 8u << 16 | 0xfff0;
	memcpy(d + 40, &loc, 4);
	err[0] = '\0';
	ok(decode(ev, d, size, &m, err) == -1 && strstr(err, "modname"),
	   "modname __data_loc past the end: %s", err);
	size = build_as(d, id, &layout_v2, &s);
	ok(decode(ev, d, 20, &m, err) == -1,
	   "record of 20 bytes, cut inside seq: %s", err);
	s.version = 3;
	size = build_as(d, id, &layout_v2, &s);
	err[0] = '\0';
	ok(decode(ev, d, size, &m, err) == -1 && strstr(err, "no wrap_fmt field"),
	   "version 3 record of a version 2 format refused: %s", err);
	s.version = 4;
	size = build_as(d, id, &layout_v2, &s);
	err[0] = '\0';
	ok(decode(ev, d, size, &m, err) == -1 && strstr(err, "unknown version"),
	   "version 4 refused: %s", err);
	s.version = 2;

	/* a modname too long for an id: an error, not a cut id */
	{
		static char longname[200];

		memset(longname, 'm', sizeof(longname) - 1);
		s.modname = longname;
		size = build_as(d, id, &layout_v2, &s);
		err[0] = '\0';
		ok(decode(ev, d, size, &m, err) == 0 &&
		   kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) == -1 &&
		   strstr(err, "too long"), "modname of 199 bytes: %s", err);
	}
}

/* Parse the format at @path and find kmsg:kmsg: NULL if that failed */
/* Version 3: a message passed in a %pV, recorded as itself */
static void test_v3(struct kmsg_event *ev, int id)
{
	unsigned char d[4096], args[64], wargs[64];
	struct rec_spec s = { 3, 7, 0, args, 0, "", "bad block %u\n", "", "",
			      "xfs", 9, KMSG_EVENT_WRAPPED, "XFS (%s): %pV",
			      wargs, 0 };
	struct kmsg_render_opts opts = { .long_size = 8 };
	struct kmsg_strbuf text = { 0 };
	struct kmsg_args a;
	struct kmsg_ids ids;
	struct kmsg_msg m;
	char err[256] = "", buf[256], want[32];
	int r;

	ok(ev->wrap_fmt && ev->wrap_args && ev->version && !ev->layout,
	   "version 3 format: wrap_fmt and wrap_args found, a version field");
	s.args_len = bin_encode(args, sizeof(args), "bad block %u\n", 42);
	s.wrap_args_len = bin_encode(wargs, sizeof(wargs), "XFS (%s): %pV",
				     "sda1", "");
	ok(decode(ev, d, build_as(d, id, &layout_v3, &s), &m, err) == 0,
	   "wrapped message decodes %s", err);
	ok(m.wrap_fmt.len == 13 && m.wrap_args_len == s.wrap_args_len,
	   "fields: wrap_fmt, wrap_args");
	r = kmsg_msg_text(&text, &m, NULL, &opts, &a);
	ok(!r && text.buf && !strcmp(text.buf, "XFS (sda1): bad block 42"),
	   "the message's text fills the wrapper's %%pV: %s",
	   text.buf ? text.buf : "");
	ok(a.n == 1 && a.v[0].type == KMSG_ARG_UNSIGNED && a.v[0].u == 42,
	   "the arguments are the message's");
	kmsg_strbuf_free(&text);
	/* the id: the message's format, without its trailing newline */
	kmsg_auto_id(want, sizeof(want), "xfs", 3, "bad block %u", 12);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), want),
	   "the id is the message's, %s: %s", want, kmsg_ids_id(&ids));
	text_id_of(&m, NULL, "Block %u defekt", buf, sizeof(buf));
	ok(!strcmp(buf, "XFS (sda1): Block 42 defekt"),
	   "a translation replaces the message, not the wrapper: %s", buf);

	/* text after the %pV, and a second %pV rendered as a string */
	s.fmt = "x=%d";
	s.args_len = bin_encode(args, sizeof(args), "x=%d", -1);
	s.wrap_fmt = "[%pV] %pV!";
	s.wrap_args_len = bin_encode(wargs, sizeof(wargs), "[%pV] %pV!", "",
				     "second");
	decode(ev, d, build_as(d, id, &layout_v3, &s), &m, err);
	text_of(&m, buf, sizeof(buf));
	ok(!strcmp(buf, "[x=-1] second!"), "only the first %%pV is the message: %s",
	   buf);

	/* not wrapped: wrap fields ignored */
	s.flags = 0;
	decode(ev, d, build_as(d, id, &layout_v3, &s), &m, err);
	text_of(&m, buf, sizeof(buf));
	ok(!strcmp(buf, "x=-1") && !m.wrap_fmt.len,
	   "a message not wrapped: its own text: %s", buf);

	/* printk() drops one newline: the format's (flagged), else the text's */
	s.fmt = "%s";
	s.args_len = bin_encode(args, sizeof(args), "%s", "arg\n");
	decode(ev, d, build_as(d, id, &layout_v3, &s), &m, err);
	text_of(&m, buf, sizeof(buf));
	ok(!strcmp(buf, "arg"), "no newline flag: the argument's newline dropped: \"%s\"",
	   buf);
	s.flags = KMSG_EVENT_NEWLINE;
	decode(ev, d, build_as(d, id, &layout_v3, &s), &m, err);
	text_of(&m, buf, sizeof(buf));
	ok(!strcmp(buf, "arg\n"), "newline flag: the argument's newline kept (%zu bytes)",
	   strlen(buf));
	s.fmt = "blank line follows\n";
	s.args_len = 0;
	decode(ev, d, build_as(d, id, &layout_v3, &s), &m, err);
	text_of(&m, buf, sizeof(buf));
	ok(!strcmp(buf, "blank line follows\n"),
	   "newline flag: the format's second newline kept (%zu bytes)", strlen(buf));

	/* pointers printk() printed as strings, flagged */
	s.fmt = "key %p %p %pK";
	s.args_len = bin_encode(args, sizeof(args), "key %p %p %pK", (void *)1,
				NULL, NULL);
	s.flags = KMSG_EVENT_PTRVAL | KMSG_EVENT_PK_ERROR;
	decode(ev, d, build_as(d, id, &layout_v3, &s), &m, err);
	text_of(&m, buf, sizeof(buf));
	ok(!strcmp(buf, "key (____ptrval____) 0000000000000000         pK-error"),
	   "ptrval and pK-error flags: the strings printk() printed: %s", buf);
	s.flags = 0;
	decode(ev, d, build_as(d, id, &layout_v3, &s), &m, err);
	text_of(&m, buf, sizeof(buf));
	ok(!strcmp(buf, "key 0000000000000001 0000000000000000 0000000000000000"),
	   "without them, the values: %s", buf);

	/* a wrapped flag in a version 2 record is corrupt */
	s.version = 2;
	s.flags = KMSG_EVENT_WRAPPED;
	ok(decode(ev, d, build_as(d, id, &layout_v3, &s), &m, err) == -1,
	   "a wrapped version 2 record refused: %s", err);
	/* a wrapper whose arguments lie outside the record */
	s.version = 3;
	put_loc(d, layout_v3.wrap_args, 4000, 64);
	ok(decode(ev, d, build_as(d, id, &layout_v3, &s) - 0, &m, err) == 0,
	   "rebuilt record decodes");
	{
		size_t n = build_as(d, id, &layout_v3, &s);

		put_loc(d, layout_v3.wrap_args, n - 2, 64);
		ok(decode(ev, d, n, &m, err) == -1,
		   "wrap_args past the end refused: %s", err);
	}
}

/*
 * Layout 4: no version field, the event of every printk() record; device
 * messages in the device layer's wrapper, their driver and device taken
 * from its arguments
 */
static void test_v4(struct kmsg_event *ev, int id, const struct layout *l)
{
	static const char oom[] = "Out of memory and no killable processes...";
	static const char link[] = "NIC Link is Up %d Mbps %s Duplex\n";
	static const char link_text[] =
		"e1000e 0000:00:19.0: NIC Link is Up 1000 Mbps Full Duplex";
	unsigned char d[4096], args[64], wargs[64];
	struct rec_spec s = { 0, 4, 0, args, 0, "", oom, "", "", "oom_kill",
			      42, 0, NULL, NULL, 0 };
	struct kmsg_ids ids;
	struct kmsg_msg m;
	char err[256] = "", text[2048], want[256], auto_id[64];
	size_t size;

	int v = l->chain ? 6 : l->wrap_at ? 5 : 4;

	ok(ev->layout == (unsigned int)v && !ev->version && !ev->ip && !ev->number &&
	   !ev->component && !ev->driver && !ev->device && ev->seq &&
	   ev->modname && (v >= 5 ? (v == 5) == !!ev->wrap_at &&
			   !ev->wrap_fmt && !ev->wrap_args :
			   ev->wrap_fmt && ev->wrap_args),
	   "layout %d format: told by its fields, no version field", v);

	/* a plain printk() */
	ok(decode(ev, d, build_as(d, id, l, &s), &m, err) == 0,
	   "plain message decodes %s", err);
	ok(m.version == (unsigned int)v && m.seq == 42 && m.level == 4 &&
	   !m.number &&
	   !m.ip && m.pid == 77 && !m.component.len && m.component.s &&
	   !m.driver.len && !m.device.len && m.modname.len == 8 &&
	   !memcmp(m.modname.s, "oom_kill", 8) && m.fmt.len == strlen(oom) &&
	   !m.wrap_fmt.len,
	   "fields: layout %d, seq, level, modname, fmt; number 0, ip 0, no component",
	   v);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, oom), "plain message: its text: %s", text);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !ids.curated[0] && !strcmp(kmsg_ids_id(&ids), "oom_kill.h923b9134"),
	   "plain message: the automatic id %s", ids.automatic);
	text_id_of(&m, kmsg_ids_label(&ids), NULL, text, sizeof(text));
	ok(!strcmp(text, "oom_kill.h923b9134: Out of memory and no killable processes..."),
	   "plain message with its id shown: %s", text);

	/* a pr_cont() fragment of record 7 */
	s.fmt = "cont %u";
	s.seq = 7;
	s.flags = KMSG_EVENT_CONT;
	s.args_len = bin_encode(args, sizeof(args), s.fmt, 5);
	ok(decode(ev, d, build_as(d, id, l, &s), &m, err) == 0 &&
	   m.seq == 7 && m.flags == KMSG_EVENT_CONT,
	   "CONT fragment decodes: seq and flag %s", err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "cont 5"), "CONT fragment: its text: %s", text);

	/* dev_printk(): "%s %s: %pV", the driver and the device from it */
	s.modname = "e1000e";
	s.seq = 1200;
	s.level = 6;
	s.fmt = link;
	s.flags = KMSG_EVENT_DEVICE | KMSG_EVENT_WRAPPED;
	s.args_len = bin_encode(args, sizeof(args), link, 1000, "Full");
	s.wrap_fmt = "%s %s: %pV";
	s.wrap_args = wargs;
	s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
				     "e1000e", "0000:00:19.0", "");
	size = build_as(d, id, l, &s);
	ok(decode(ev, d, size, &m, err) == 0, "dev_printk() message decodes %s",
	   err);
	ok(m.driver.len == 6 && !memcmp(m.driver.s, "e1000e", 6) &&
	   m.device.len == 12 && !memcmp(m.device.s, "0000:00:19.0", 12),
	   "driver and device taken from the wrapper: \"%.*s\" \"%.*s\"",
	   (int)m.driver.len, m.driver.s, (int)m.device.len, m.device.s);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, link_text), "device message: its text, the prefix once: %s",
	   text);
	kmsg_auto_id(auto_id, sizeof(auto_id), "e1000e", 6, link,
		     strlen(link) - 1);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), auto_id),
	   "device message: the id of the caller's format, %s", auto_id);
	text_id_of(&m, kmsg_ids_label(&ids), NULL, text, sizeof(text));
	snprintf(want, sizeof(want),
		 "e1000e 0000:00:19.0: %s: NIC Link is Up 1000 Mbps Full Duplex",
		 auto_id);
	ok(!strcmp(text, want), "device message with its id shown: after the device: %s",
	   text);
	text_id_of(&m, kmsg_ids_label(&ids), "Verbindung mit %d Mbit/s, %s",
		   text, sizeof(text));
	snprintf(want, sizeof(want),
		 "e1000e 0000:00:19.0: %s: Verbindung mit 1000 Mbit/s, Full",
		 auto_id);
	ok(!strcmp(text, want), "device message translated: %s", text);

	/* netdev_printk(): "%s %s %s%s: %pV" */
	s.fmt = "Reset adapter unexpectedly\n";
	s.args_len = 0;
	s.wrap_fmt = "%s %s %s%s: %pV";
	s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
				     "e1000e", "0000:00:19.0", "eth0", "", "");
	ok(decode(ev, d, build_as(d, id, l, &s), &m, err) == 0 &&
	   m.driver.len == 6 && !memcmp(m.driver.s, "e1000e", 6) &&
	   m.device.len == 12 && !memcmp(m.device.s, "0000:00:19.0", 12),
	   "netdev message: driver and device taken from the wrapper %s", err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "e1000e 0000:00:19.0 eth0: Reset adapter unexpectedly"),
	   "netdev message: its text: %s", text);

	/* no device info: driver and device not taken */
	s.wrap_fmt = "%s %s: %pV";
	s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
				     "e1000e", "0000:00:19.0", "");
	s.flags = KMSG_EVENT_WRAPPED;
	decode(ev, d, build_as(d, id, l, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!m.driver.len && !m.device.len &&
	   !strcmp(text, "e1000e 0000:00:19.0: Reset adapter unexpectedly"),
	   "not flagged a device message: no driver and device, the wrapper's text: %s",
	   text);
	/* another wrapper of a device message: not the device layer's */
	s.flags = KMSG_EVENT_DEVICE | KMSG_EVENT_WRAPPED;
	s.wrap_fmt = "%s[%s] %pV";
	s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
				     "e1000e", "0000:00:19.0", "");
	decode(ev, d, build_as(d, id, l, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!m.driver.len && !m.device.len &&
	   !strcmp(text, "e1000e[0000:00:19.0] Reset adapter unexpectedly"),
	   "a wrapper not \"%%s %%s: \": no driver and device, no prefix: %s",
	   text);
	/* the wrapper's arguments cut inside the device's name */
	s.wrap_fmt = "%s %s: %pV";
	s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
				     "e1000e", "0000:00:19.0", "");
	s.wrap_args_len = 10;
	ok(decode(ev, d, build_as(d, id, l, &s), &m, err) == 0 &&
	   !m.driver.len && !m.device.len,
	   "wrapper arguments cut: decodes, no driver and device %s", err);
	text_of(&m, text, sizeof(text));
	ok(strstr(text, KMSG_MARK_UNTERMINATED) != NULL,
	   "wrapper arguments cut: a marker in the text: %s", text);
	s.wrap_args_len = 0;
	ok(decode(ev, d, build_as(d, id, l, &s), &m, err) == 0 &&
	   !m.driver.len && !m.device.len,
	   "no wrapper arguments: decodes, no driver and device %s", err);
	/* a NULL device: printk("%s(NULL device *): %pV"), the level in it */
	s.flags = KMSG_EVENT_WRAPPED;
	s.wrap_fmt = "%s(NULL device *): %pV";
	s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt, "\0013",
				     "");
	decode(ev, d, build_as(d, id, l, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!m.driver.len && !strcmp(text, "(NULL device *): Reset adapter unexpectedly"),
	   "dev_printk() of a NULL device: %s", text);

	/* printk()'s cut of a device message: 1023 bytes, the wrapper's */
	{
		static char big[1501];

		memset(big, 'y', 1500);
		big[1499] = '\0';
		s.flags = KMSG_EVENT_DEVICE | KMSG_EVENT_WRAPPED;
		s.fmt = "%s\n";
		s.args = big;
		s.args_len = 1500;
		s.wrap_fmt = "%s %s: %pV";
		s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
					     "platform", "kmsgtest", "");
		decode(ev, d, build_as(d, id, l, &s), &m, err);
		text_of(&m, text, sizeof(text));
		ok(strlen(text) == KMSG_TEXT_MAX &&
		   !strncmp(text, "platform kmsgtest: yyy", 22),
		   "long device message cut at %d bytes: %zu", KMSG_TEXT_MAX,
		   strlen(text));
		s.args = args;
	}

	/* corrupt records: an error, never a read outside them */
	s.fmt = "n %d";
	s.args_len = bin_encode(args, sizeof(args), s.fmt, 5);
	s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
				     "platform", "kmsgtest", "");
	size = build_as(d, id, l, &s);
	ok(decode(ev, d, size, &m, err) == 0, "the record to corrupt decodes %s",
	   err);
	{
		static const struct {
			int at;
			const char *what;
		} locs4[] = {
			{ 20, "args" }, { 24, "wrap_args" }, { 28, "modname" },
			{ 32, "fmt" }, { 36, "wrap_fmt" },
		}, locs5[] = {
			{ 20, "args" }, { 24, "modname" }, { 28, "fmt" },
		};
		const typeof(locs4[0]) *locs = v >= 5 ? locs5 : locs4;
		size_t nlocs = v >= 5 ? 3 : 5, first_str = v >= 5 ? 1 : 2;
		uint32_t loc, good;
		size_t i;

		for (i = 0; i < nlocs; i++) {
			memcpy(&good, d + locs[i].at, 4);
			/* the length past the end, then the offset */
			loc = (good & 0xffff) | (uint32_t)(size + 1) << 16;
			memcpy(d + locs[i].at, &loc, 4);
			err[0] = '\0';
			ok(decode(ev, d, size, &m, err) == -1,
			   "%s __data_loc past the end: %s", locs[i].what, err);
			put_loc(d, locs[i].at, 0xfff0, 8);
			err[0] = '\0';
			ok(decode(ev, d, size, &m, err) == -1,
			   "%s __data_loc offset past the end: %s",
			   locs[i].what, err);
			memcpy(d + locs[i].at, &good, 4);
		}
		/* strings without their NUL */
		for (i = first_str; i < nlocs; i++) {
			memcpy(&good, d + locs[i].at, 4);
			d[(good & 0xffff) + (good >> 16) - 1] = 'X';
			err[0] = '\0';
			ok(decode(ev, d, size, &m, err) == -1 &&
			   strstr(err, "unterminated"),
			   "%s without its NUL: %s", locs[i].what, err);
			d[(good & 0xffff) + (good >> 16) - 1] = '\0';
		}
		/* an empty string field: no NUL at all */
		memcpy(&good, d + l->strs + 4, 4);
		put_loc(d, l->strs + 4, 40, 0);
		ok(decode(ev, d, size, &m, err) == -1, "empty fmt field: %s", err);
		memcpy(d + l->strs + 4, &good, 4);
		if (v == 5) {
			uint16_t at, past = 200;

			memcpy(&at, d + 18, 2);
			memcpy(d + 18, &past, 2);
			err[0] = '\0';
			ok(decode(ev, d, size, &m, err) == -1 &&
			   strstr(err, "wrap_at"),
			   "wrap_at past the arguments: %s", err);
			memcpy(d + 18, &at, 2);
		}
	}
	if (v == 5) {
		/* a message's format alone: no wrapper's after it */
		s.flags = 0;
		s.wrap_fmt = NULL;
		s.wrap_args_len = 0;
		size = build_as(d, id, l, &s);
		/* "n %d" and its NUL, without the wrapper's empty string */
		put_loc(d, 28, size - 6, 5);
		ok(decode(ev, d, size, &m, err) == 0 && !m.wrap_fmt.len &&
		   m.fmt.len == 4 && !memcmp(m.fmt.s, "n %d", 4),
		   "fmt without the wrapper's after it: decodes %s", err);
		s.flags = KMSG_EVENT_DEVICE | KMSG_EVENT_WRAPPED;
		s.wrap_fmt = "%s %s: %pV";
		s.wrap_args_len = bin_encode(wargs, sizeof(wargs), s.wrap_fmt,
					     "platform", "kmsgtest", "");
	}
	size = build_as(d, id, l, &s);
	ok(decode(ev, d, 18, &m, err) == -1,
	   "record of 18 bytes, cut before its __data_loc fields: %s", err);
	ok(decode(ev, d, 12, &m, err) == -1,
	   "record of 12 bytes, cut inside seq: %s", err);
	ok(decode(ev, d, v >= 5 ? 31 : 39, &m, err) == -1,
	   "record of %d bytes, cut inside the last __data_loc: %s",
	   v >= 5 ? 31 : 39, err);
	ok(decode(ev, d, size - 1, &m, err) == -1,
	   "record cut by its last byte: %s", err);
}

/*
 * Layout 6, corrupt chains, each in a heap copy of the record's size so
 * that ASan sees a read past it: a chain whose arguments end before the
 * message's; a chain of 1000 wrappers (the kernel records 4 at most)
 */
static void test_chain_corrupt(struct kmsg_event *ev, int id)
{
	static const char short_fmt[] = "m\0%s%pV\0%s%pV";
	struct kmsg_strbuf w = { 0 };
	unsigned char *d = calloc(1, 8192), *copy;
	char err[256] = "", text[512];
	struct kmsg_msg m;
	size_t off = 32, n, i;
	int r;

	if (!d)
		return;
	d[0] = id;
	d[1] = id >> 8;
	d[17] = KMSG_EVENT_WRAPPED;
	put_loc(d, 24, off, 1);
	off++;
	put_loc(d, 28, off, sizeof(short_fmt));
	memcpy(d + off, short_fmt, sizeof(short_fmt));
	off += sizeof(short_fmt);
	put_loc(d, 20, off, 2);
	memcpy(d + off, "a", 2);
	off += 2;
	copy = malloc(off);
	memcpy(copy, d, off);
	ok(decode(ev, copy, off, &m, err) == 0 && !m.args_len,
	   "a chain whose arguments end before the message's decodes %s", err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "a" KMSG_MARK_MISSING "m"),
	   "and renders no byte past the record: %s", text);
	free(copy);

	/* "m", then "A%pV", "B%pV", ... 1000 wrappers */
	off = 33;
	n = 2 + 5 * 1000;
	put_loc(d, 28, off, n);
	memcpy(d + off, "m", 2);
	for (i = 0; i < 1000; i++) {
		memcpy(d + off + 2 + 5 * i, "A%pV", 5);
		d[off + 2 + 5 * i] += i % 26;
	}
	off += n;
	put_loc(d, 20, off, 0);
	copy = malloc(off);
	memcpy(copy, d, off);
	ok(decode(ev, copy, off, &m, err) == 0 && !m.args_len,
	   "a chain of 1000 wrappers decodes, the message without arguments %s",
	   err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "ABCDm"), "and renders, %d deep at most: %s",
	   KMSG_EVENT_WRAP_MAX, text);
	r = kmsg_msg_wrapper_fmt(&w, &m);
	ok(!r && w.len == 7 && !memcmp(w.buf, "ABCD%pV", 7),
	   "and splices %d of them into one: %s", KMSG_EVENT_WRAP_MAX,
	   w.buf ? w.buf : "");
	kmsg_strbuf_free(&w);
	free(copy);
	free(d);
}

/*
 * Layout 6: wrappers in wrappers, each format after the one before, the
 * arguments of each level in line at the %pV of the level before
 */
static void test_chain(struct kmsg_event *ev, int id)
{
	static const char fmts[] =
		"probe %d\n\0%s %s: %pV\0error %pe: %pV\0";
	unsigned char d[4096];
	uint64_t err_ptr = (uint64_t)-19;
	uint32_t five = 5, seven = 7;
	struct kmsg_strbuf w = { 0 };
	struct kmsg_ids ids;
	struct kmsg_msg m;
	char err[256] = "", text[512], auto_id[64];
	size_t off = 32, n;
	int r;

	/* dev_err_probe(): "platform kmsgbench\0" then the %pe, then 5 */
	memset(d, 0, sizeof(d));
	d[0] = id;
	d[1] = id >> 8;
	d[16] = 3;
	d[17] = KMSG_EVENT_DEVICE | KMSG_EVENT_WRAPPED;
	memcpy(d + off, "platform\0kmsgbench", 19);
	off = (off + 19 + 3) & ~(size_t)3;
	memcpy(d + off, &err_ptr, 8);
	off += 8;
	memcpy(d + off, &five, 4);
	off += 4;
	put_loc(d, 20, 32, off - 32);
	put_loc(d, 24, off, 10);
	memcpy(d + off, "kmsgbench", 10);
	off += 10;
	n = sizeof(fmts) - 1;
	put_loc(d, 28, off, n);
	memcpy(d + off, fmts, n);
	off += n;
	ok(decode(ev, d, off, &m, err) == 0 && m.version == 6 &&
	   m.fmt.len == 9 && !memcmp(m.fmt.s, "probe %d\n", 9) &&
	   m.args_len == 4 && m.args == d + 60,
	   "wrappers in a wrapper: decodes, the message's arguments found %s",
	   err);
	ok(m.driver.len == 8 && !memcmp(m.driver.s, "platform", 8) &&
	   m.device.len == 9 && !memcmp(m.device.s, "kmsgbench", 9),
	   "wrappers in a wrapper: the outermost's driver and device");
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "platform kmsgbench: error -ENODEV: probe 5"),
	   "wrappers in a wrapper: the text: %s", text);
	r = kmsg_msg_wrapper_fmt(&w, &m);
	ok(!r && w.len == 21 && !memcmp(w.buf, "%s %s: error %pe: %pV", 21),
	   "wrappers in a wrapper: spliced into one: %.*s", (int)w.len,
	   w.buf);
	kmsg_strbuf_free(&w);
	kmsg_auto_id(auto_id, sizeof(auto_id), "kmsgbench", 9, "probe %d", 8);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), auto_id),
	   "wrappers in a wrapper: the id of the message, %s", auto_id);

	/* a wrapper's arguments after its %pV: from a word after the message's */
	d[17] = KMSG_EVENT_WRAPPED;
	off = put_wrapped(d, five, seven, "x=%d\0%s<%pV>%d",
			  sizeof("x=%d\0%s<%pV>%d"));
	ok(decode(ev, d, off, &m, err) == 0 && m.args_len == 4,
	   "a wrapper with arguments after its %%pV decodes %s", err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "ab<x=5>7"), "and renders: %s", text);
	/* cut: the wrapper's argument after the message's is not looked for */
	d[17] = KMSG_EVENT_WRAPPED | KMSG_EVENT_TRUNCATED;
	decode(ev, d, off, &m, err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "ab<x=5>" KMSG_MARK_MISSING),
	   "a record cut: no argument after the message's: %s", text);
	d[17] = KMSG_EVENT_WRAPPED;
	/* a wrapper without a %pV: the message has no arguments */
	d[off - 5] = 'X';
	ok(decode(ev, d, off, &m, err) == 0 && !m.args_len,
	   "a wrapper without a %%pV: no arguments for the message %s", err);
	text_of(&m, text, sizeof(text));
	ok(strstr(text, "x=") != NULL, "but its text: %s", text);
	/* nor with a '*' before its %pV, which the kernel renders */
	memcpy(d + off - 10, "%*pV>>>%d", 9);
	ok(decode(ev, d, off, &m, err) == 0 && !m.args_len &&
	   m.wrap_fmt.len == 9 && !memcmp(m.wrap_fmt.s, "%*pV>>>%d", 9),
	   "a wrapper with a '*' before its %%pV: no arguments for the message %s",
	   err);
	/* nor with a width, which it ignores */
	memcpy(d + off - 10, "%5pV>>>%d", 9);
	ok(decode(ev, d, off, &m, err) == 0 && !m.args_len,
	   "a wrapper with a width on its %%pV: no arguments for the message %s",
	   err);
	/* the '*' of a "%%" in the message: the wrapper's %d after it */
	d[17] = KMSG_EVENT_WRAPPED;
	off = put_wrapped(d, 9, seven, "x%*%\0%s<%pV>%d",
			  sizeof("x%*%\0%s<%pV>%d"));
	ok(decode(ev, d, off, &m, err) == 0 && m.args_len == 4,
	   "a message's '*' of a %%%% is an argument %s", err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "ab<x%>7"), "and the wrapper's next one follows it: %s",
	   text);
	test_chain_corrupt(ev, id);
}

/* A layout 4 or 5 format without one of its fields: refused */
static void test_fields(const char *path, int v, const char *const *names,
			size_t nnames)
{
	char err[256], field[64];
	struct kmsg_event ev;
	size_t len, i;
	char *fmt = read_file(path, &len), *line, *nl;

	if (!ok(fmt != NULL, "read %s", path))
		return;
	for (i = 0; i < nnames; i++) {
		struct tep_handle *tep = tep_alloc();
		char *copy = strdup(fmt);

		snprintf(field, sizeof(field), " %s;", names[i]);
		line = strstr(copy, field);
		nl = line ? strchr(line, '\n') : NULL;
		while (line && line > copy && line[-1] != '\n')
			line--;
		if (nl)
			memmove(line, nl + 1, strlen(nl + 1) + 1);
		/* and a print fmt that names no field */
		line = strstr(copy, "\nprint fmt:");
		if (line)
			strcpy(line, "\nprint fmt: \"x\"\n");
		err[0] = '\0';
		ok(tep && line && nl &&
		   !tep_parse_event(tep, copy, strlen(copy), "kmsg") &&
		   kmsg_event_init(&ev, tep, err, sizeof(err)) == -1 &&
		   strstr(err, names[i]),
		   "layout %d format without %s refused: %s", v, names[i], err);
		free(copy);
		tep_free(tep);
	}
	free(fmt);
}

static struct tep_handle *setup(const char *path, struct kmsg_event *ev)
{
	struct tep_handle *tep;
	char warn[4096], err[256] = "";

	tep = load_format(path, warn, sizeof(warn));
	if (!ok(tep != NULL, "tep_parse_event() parses %s", path))
		return NULL;
	ok(!warn[0], "libtraceevent: no warnings parsing the format%s%s",
	   warn[0] ? ": " : "", warn);
	if (!ok(!kmsg_event_init(ev, tep, err, sizeof(err)),
		"kmsg_event_init: %s", err[0] ? err : "fields found")) {
		tep_free(tep);
		return NULL;
	}
	return tep;
}

static const char *const names4[] = {
	"seq", "level", "flags", "args", "wrap_args", "modname", "fmt",
	"wrap_fmt",
};
/* without wrap_at, a layout 5 format is layout 6's */
static const char *const names5[] = {
	"seq", "level", "flags", "args", "modname", "fmt",
};

int main(int argc, char **argv)
{
	const char *v1 = argc > 1 ? argv[1] : "data/kmsg.format";
	const char *v2 = argc > 2 ? argv[2] : "data/kmsg-v2.format";
	const char *v3 = argc > 3 ? argv[3] : "data/kmsg-v3.format";
	const char *v4 = argc > 4 ? argv[4] : "data/kmsg-v4.format";
	const char *v5 = argc > 5 ? argv[5] : "data/kmsg-v5.format";
	const char *v6 = argc > 6 ? argv[6] : "data/kmsg-v6.format";
	struct tep_handle *tep;
	struct kmsg_event ev;

	printf("TAP version 13\n");
	tep = setup(v1, &ev);
	if (tep) {
		ok(!ev.seq && !ev.modname && !ev.layout,
		   "version 1 format: no seq, no modname, a version field");
		test_good(&ev, ev.event->id);
		test_bad(&ev, ev.event->id);
		test_fuzz(&ev, ev.event->id, &layout_v1);
		tep_free(tep);
	}
	tep = setup(v2, &ev);
	if (tep) {
		test_v2(&ev, ev.event->id);
		test_fuzz(&ev, ev.event->id, &layout_v2);
		tep_free(tep);
	}
	tep = setup(v3, &ev);
	if (tep) {
		test_v3(&ev, ev.event->id);
		test_fuzz(&ev, ev.event->id, &layout_v3);
		tep_free(tep);
	}
	tep = setup(v4, &ev);
	if (tep) {
		test_v4(&ev, ev.event->id, &layout_v4);
		test_fuzz(&ev, ev.event->id, &layout_v4);
		tep_free(tep);
	}
	test_fields(v4, 4, names4, sizeof(names4) / sizeof(names4[0]));
	tep = setup(v5, &ev);
	if (tep) {
		test_v4(&ev, ev.event->id, &layout_v5);
		test_fuzz(&ev, ev.event->id, &layout_v5);
		tep_free(tep);
	}
	test_fields(v5, 5, names5, sizeof(names5) / sizeof(names5[0]));
	tep = setup(v6, &ev);
	if (tep) {
		test_v4(&ev, ev.event->id, &layout_v6);
		test_chain(&ev, ev.event->id);
		test_fuzz(&ev, ev.event->id, &layout_v6);
		tep_free(tep);
	}
	test_fields(v6, 6, names5, sizeof(names5) / sizeof(names5[0]));
	return tap_done();
}
