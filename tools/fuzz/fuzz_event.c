// SPDX-License-Identifier: GPL-2.0
/*
 * The record decoder (lib/kmsg_event.c) and what kmsg does with a record
 * it decoded: the ids with an alias lookup, the text with and without the
 * id and a translation, the JSON object.
 *
 * Input: byte 0 chooses the event format: without its bit 7, even is
 * version 1 as the kernel prints it (tests/data/kmsg.format), odd version
 * 2 (kmsg-v2.format); with bit 7, even is version 3 (kmsg-v3.format), odd
 * layout 4, without a version field (kmsg-v4.format), or with bit 6 too,
 * layout 5 (kmsg-v5.format), and bit 5 too, layout 6 (kmsg-v6.format).
 * The rest is the
 * record; its first two bytes are set to the event's id so that it is
 * taken for a kmsg:kmsg record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "fuzz.h"
#include "kmsg_event.h"
#include "kmsg_id.h"
#include "kmsg_journal.h"
#include "kmsg_json.h"
#include "kmsg_text.h"

static struct kmsg_event ev[6];

static void load(struct kmsg_event *e, const char *file)
{
	char path[4096], err[256], *buf;
	struct tep_handle *tep = tep_alloc();
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", KMSG_FUZZ_DATA, file);
	f = fopen(path, "r");
	if (!tep || !f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0) {
		perror(path);
		abort();
	}
	rewind(f);
	buf = malloc(n);
	if (!buf || fread(buf, 1, n, f) != (size_t)n ||
	    tep_parse_event(tep, buf, n, "kmsg") ||
	    kmsg_event_init(e, tep, err, sizeof(err))) {
		fprintf(stderr, "%s: cannot load the event format\n", path);
		abort();
	}
	tep_set_long_size(tep, 8);
	free(buf);
	fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	load(&ev[0], "kmsg.format");
	load(&ev[1], "kmsg-v2.format");
	load(&ev[2], "kmsg-v3.format");
	load(&ev[3], "kmsg-v4.format");
	load(&ev[4], "kmsg-v5.format");
	load(&ev[5], "kmsg-v6.format");
	return 0;
}

/* oom_kill's automatic ids are oom.9; "kmsgtest" ones an error */
static int alias(void *ctx, const char *auto_id, char *curated, size_t size)
{
	(void)ctx;
	if (!strncmp(auto_id, "kmsgtest.", 9))
		return -1;
	if (strncmp(auto_id, "oom_kill.", 9))
		return 1;
	snprintf(curated, size, "oom.9");
	return 0;
}

/*
 * The caches kept from input to input (parsed formats, a site's JSON) give
 * the same text and JSON as none: a stale entry would show here.
 */
static void same_cached(const struct kmsg_msg *m, const struct kmsg_ids *ids,
			const struct kmsg_render_opts *opts,
			const struct kmsg_strbuf *text,
			const struct kmsg_strbuf *json)
{
	static struct kmsg_fmt_cache *fc;
	static struct kmsg_json_cache jc;
	struct kmsg_render_opts o = *opts;
	struct kmsg_strbuf t = { 0 }, j = { 0 };
	struct kmsg_args *args = malloc(sizeof(*args));

	if (!fc)
		fc = kmsg_fmt_cache_new();
	if (!fc || !args)
		abort();
	o.fmt_cache = fc;
	kmsg_msg_text(&t, m, NULL, &o, args);
	kmsg_json_msg(&j, &jc, m, ids, "comm", t.buf ? t.buf : "", t.len, args);
	if (t.len != text->len || (t.len && memcmp(t.buf, text->buf, t.len)) ||
	    j.len != json->len || (j.len && memcmp(j.buf, json->buf, j.len)))
		abort();
	kmsg_strbuf_free(&t);
	kmsg_strbuf_free(&j);
	free(args);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_render_opts opts = { .long_size = 8, .symbolic_errname = true };
	struct kmsg_otlp otlp = {
		.have_boot_time = true, .boot_ns = 1ULL << 62, .host = "h",
	};
	struct kmsg_strbuf text = { 0 }, json = { 0 };
	struct kmsg_journal_entry je = { 0 };
	struct kmsg_event *e;
	struct tep_record rec = { .ts = 1234567890123ULL, .cpu = 1 };
	struct kmsg_args args;
	struct kmsg_ids ids;
	struct kmsg_msg m;
	unsigned short id;
	unsigned char *copy;
	char err[256];

	if (size < 1)
		return 0;
	e = &ev[(data[0] & 0xe1) == 0xe1 ? 5 : (data[0] & 0xc1) == 0xc1 ? 4 :
		(data[0] & 1) | (data[0] >> 6 & 2)];
	size--;
	copy = malloc(size ? size : 1);
	if (!copy)
		abort();
	memcpy(copy, data + 1, size);
	if (size >= 2) {
		id = e->event->id;
		memcpy(copy, &id, 2);
	}
	rec.data = copy;
	rec.size = size;
	if (kmsg_event_match(e, &rec) &&
	    !kmsg_event_decode(e, &rec, &m, err, sizeof(err)) &&
	    !kmsg_msg_ids(&m, alias, NULL, &ids, err, sizeof(err))) {
		kmsg_msg_text_id(&text, &m, kmsg_ids_label(&ids), NULL, &opts,
				 &args);
		text.len = 0;
		kmsg_msg_text_id(&text, &m, NULL, "%2$s %1$d %3$.*4$s %%", &opts,
				 &args);
		text.len = 0;
		kmsg_msg_text(&text, &m, NULL, &opts, &args);
		kmsg_json_msg(&json, NULL, &m, &ids, "comm",
			      text.buf ? text.buf : "", text.len, &args);
		same_cached(&m, &ids, &opts, &text, &json);
		json.len = 0;
		kmsg_otlp_msg(&json, &otlp, &m, &ids, "comm",
			      text.buf ? text.buf : "", text.len, &args);
		/* the journal entry and its export form (--export) */
		if (!kmsg_journal_msg(&je, &m, &ids, "comm",
				      text.buf ? text.buf : "", text.len,
				      &args, NULL)) {
			json.len = 0;
			kmsg_journal_export(&json, &je, m.ts / 1000, 0, NULL);
		}
	}
	kmsg_journal_free(&je);
	kmsg_strbuf_free(&text);
	kmsg_strbuf_free(&json);
	free(copy);
	return 0;
}
