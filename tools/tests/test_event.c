// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of kmsg:kmsg record decoding: the kernel's event format
 * (data/kmsg.format, as a 6.12 kernel with the series prints it) parses
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
};

static void put_loc(unsigned char *d, int at, size_t off, size_t len)
{
	uint32_t loc = (uint32_t)(len << 16 | off);

	memcpy(d + at, &loc, 4);
}

/* A record laid out as the kernel's event format says */
static size_t build(unsigned char *d, int id, const struct rec_spec *s)
{
	const char *strs[4] = { s->component, s->fmt, s->driver, s->device };
	uint64_t ip = 0xffffffffc0001230ULL;
	uint32_t number = s->number;
	uint16_t type = id;
	int32_t pid = 77;
	size_t off = 44, i, n;

	memset(d, 0, 4096);
	memcpy(d, &type, 2);
	memcpy(d + 4, &pid, 4);
	memcpy(d + 8, &ip, 8);
	d[16] = s->version;
	d[17] = s->level;
	memcpy(d + 20, &number, 4);
	put_loc(d, 24, off, s->args_len);
	memcpy(d + off, s->args, s->args_len);
	off += s->args_len;
	for (i = 0; i < 4; i++) {
		n = strlen(strs[i]) + 1;
		put_loc(d, 28 + 4 * i, off, n);
		memcpy(d + off, strs[i], n);
		off += n;
	}
	return off;
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

static void text_of(const struct kmsg_msg *m, char *out, size_t size)
{
	struct kmsg_render_opts opts = { .long_size = 8, .symbolic_errname = true };
	struct kmsg_strbuf text = { 0 };
	struct kmsg_args args;

	kmsg_msg_text(&text, m, NULL, &opts, &args);
	snprintf(out, size, "%s", text.buf ? text.buf : "");
	kmsg_strbuf_free(&text);
}

static void test_good(struct kmsg_event *ev, int id)
{
	unsigned char d[4096], args[64];
	struct rec_spec s = { 1, 3, 2, args, 0, "kmsgtest",
			      "device %x not online", "", "" };
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

	s.driver = "platform";
	s.device = "kmsgtest";
	s.number = 20;
	decode(ev, d, build(d, id, &s), &m, err);
	text_of(&m, text, sizeof(text));
	ok(!strcmp(text, "platform kmsgtest: kmsgtest.20: device 4711 not online"),
	   "device record renders with its prefix: %s", text);
}

static void test_bad(struct kmsg_event *ev, int id)
{
	unsigned char d[4096], args[64];
	struct rec_spec s = { 1, 3, 2, args, 0, "kmsgtest", "n %d", "", "" };
	struct kmsg_msg m;
	char err[256];
	size_t size;
	uint32_t loc;

	s.args_len = bin_encode(args, sizeof(args), "n %d", 5);
	size = build(d, id, &s);

	s.version = 2;
	build(d, id, &s);
	err[0] = '\0';
	ok(decode(ev, d, size, &m, err) == -1 && strstr(err, "unknown version"),
	   "unknown event version refused: %s", err);
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

/* Random corruption of a good record: decode and render, never crash */
static void test_fuzz(struct kmsg_event *ev, int id)
{
	unsigned char d[4096], args[256], *copy;
	struct rec_spec s = { 1, 6, 9, args, 0, "kmsgtest",
			      "pointers %p %px %ps %pS %s %*d %.*s %lld %hhd",
			      "platform", "kmsgtest" };
	struct kmsg_msg m;
	char err[256], text[2048];
	size_t size;
	int i, j, decoded = 0;

	s.args_len = bin_encode(args, sizeof(args), s.fmt, (void *)1,
				(void *)2, (void *)3, (void *)4, "str", 5, 6,
				3, "abcdef", -7LL, 8);
	size = build(d, id, &s);
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
			decoded++;
		}
		free(copy);
	}
	ok(1, "20000 corrupted or cut records: no crash (%d decoded)", decoded);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "data/kmsg.format";
	struct tep_handle *tep;
	struct kmsg_event ev;
	char warn[4096], err[256];
	int id;

	printf("TAP version 13\n");
	tep = load_format(path, warn, sizeof(warn));
	if (!ok(tep != NULL, "tep_parse_event() parses %s", path))
		return tap_done();
	ok(!warn[0], "libtraceevent: no warnings parsing the format%s%s",
	   warn[0] ? ": " : "", warn);
	if (!ok(!kmsg_event_init(&ev, tep, err, sizeof(err)),
		"kmsg_event_init: %s", err[0] ? err : "fields found")) {
		tep_free(tep);
		return tap_done();
	}
	id = ev.event->id;
	test_good(&ev, id);
	test_bad(&ev, id);
	test_fuzz(&ev, id);
	tep_free(tep);
	return tap_done();
}
