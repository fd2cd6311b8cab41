// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the catalog and in-source doc parsers' duplicate checks
 * (lib/kmsg_catalog.c, lib/kmsg_srcdoc.c): each duplicate is found with
 * the line of its first occurrence, and the checks take O(n log n), not
 * a scan of everything before (100000 translations in one entry took 34
 * seconds).  The bound is checked by counting key comparisons (a scan
 * makes n^2/2 of them, a balanced tree at most 2 log2(n) per key); the
 * seconds are only reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmsg_catalog.h"
#include "kmsg_srcdoc.h"
#include "tap.h"

#define MANY	100000
/* comparisons one key may take: 2 log2(MANY) of a red-black tree, and some */
#define PER_KEY	40ULL

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void parse(const char *text, struct kmsg_docs *docs,
		  struct kmsg_diags *diags)
{
	memset(docs, 0, sizeof(*docs));
	memset(diags, 0, sizeof(*diags));
	kmsg_catalog_parse("big.kmsg", "big", text, strlen(text), docs, diags);
	kmsg_diags_sort(diags);
}

static const char head[] =
	"id: big.1\nseverity: err\nformat: x %d\ndescription:\n d\n";

/* @n lines of @fmt (with the line's number), after @pre */
static char *lines(const char *pre, const char *fmt, int n, const char *post)
{
	struct kmsg_strbuf sb = { 0 };
	int i;

	kmsg_sb_puts(&sb, pre);
	for (i = 0; i < n; i++)
		kmsg_sb_printf(&sb, fmt, i, i);
	kmsg_sb_puts(&sb, post);
	return kmsg_sb_take(&sb);
}

/* MANY of a kind, one duplicate at the end: found, and fast */
static void many(const char *what, const char *pre, const char *fmt,
		 const char *dup, const char *want)
{
	struct kmsg_diags diags;
	struct kmsg_docs docs;
	char *text = lines(pre, fmt, MANY, dup);
	unsigned long long c = kmsg_seen_compares;
	double t = now();

	parse(text, &docs, &diags);
	t = now() - t;
	c = kmsg_seen_compares - c;
	ok(c <= PER_KEY * MANY, "%d %s in one catalog: %llu key comparisons (at most %llu), %.2f s",
	   MANY, what, c, PER_KEY * MANY, t);
	ok(diags.n == 1 && strstr(diags.v[0].text, want),
	   "%s: the duplicate reported: %s", what,
	   diags.n ? diags.v[0].text : "(nothing)");
	kmsg_docs_free(&docs);
	kmsg_diags_free(&diags);
	free(text);
}

static void test_many(void)
{
	many("translations", head, "translation.l%06d: y %%d %d\n",
	     "translation.l000007: z %d\n", "field \"translation.l000007\" given twice");
	many("parameters", "id: big.1\nseverity: err\nformat: x %d\n",
	     "parameter: @%d text %d\n", "parameter: @5 again\n",
	     "parameter @5 given twice");
	many("automatic ids", "id: big.1\nseverity: err\nmodname: m\nformat: x\n",
	     "auto-id: m%d.h%08x\n", "auto-id: m3.h00000003\n",
	     "auto-id m3.h00000003 given twice, first at line 8");
	many("entries", "", "id: big.%d\ntranslation.ja: x%d\n\n",
	     "id: big.12\ntranslation.ja: x\n", "duplicate id big.12, first at line 37");
}

/* The first occurrence's line, as before */
static void test_lines(void)
{
	static const char text[] =
		"id: big.1\n"			/* 1 */
		"severity: err\n"
		"modname: mod\n"		/* 3 */
		"format: x\n"
		"auto-id: mod \"x\"\n"		/* 5: the one of modname and format */
		"description:\n"
		" d\n"
		"\n"
		"id: big.2\n"			/* 9 */
		"translation.de: y\n"		/* 10 */
		"translation.de: z\n"
		"\n"
		"id: big.3\n"			/* 13 */
		"translation.de: y\n"		/* again: another entry */
		"\n"
		"id: big.2\n";			/* 16 */
	struct kmsg_diags diags;
	struct kmsg_docs docs;

	parse(text, &docs, &diags);
	ok(diags.n == 3, "three duplicates (%zu)", diags.n);
	ok(diags.n > 0 && diags.v[0].line == 5 &&
	   !strcmp(diags.v[0].text, "auto-id mod.hfd0c5087 is the one of modname and format (line 4)"),
	   "the automatic id of modname and format given again: %u: %s",
	   diags.n > 0 ? diags.v[0].line : 0, diags.n > 0 ? diags.v[0].text : "");
	ok(diags.n > 1 && diags.v[1].line == 11 &&
	   !strcmp(diags.v[1].text, "field \"translation.de\" given twice"),
	   "a locale given twice in an entry, not in the next one");
	ok(diags.n > 2 && diags.v[2].line == 16 &&
	   !strcmp(diags.v[2].text, "duplicate id big.2, first at line 9"),
	   "an id given twice, with the line of the first");
	kmsg_docs_free(&docs);
	kmsg_diags_free(&diags);
}

/* In-source docs: "@N:" lines, each checked against those before */
static void test_srcdoc(void)
{
	struct kmsg_diags diags = { 0 };
	struct kmsg_docs docs = { 0 };
	char *text = lines("/*\n * message\n", " * @%d: text %d\n", MANY,
			   " * @17: again\n *\n * Description:\n * d\n */\n"
			   "KMSG_DOC(big, 1, \"x\");\n");
	unsigned long long c = kmsg_seen_compares;
	double t = now();

	kmsg_srcdoc_parse("big.c", text, strlen(text), &docs, &diags);
	t = now() - t;
	c = kmsg_seen_compares - c;
	ok(c <= PER_KEY * MANY, "%d parameters in one doc comment: %llu key comparisons (at most %llu), %.2f s",
	   MANY, c, PER_KEY * MANY, t);
	ok(diags.n == 1 && !strcmp(diags.v[0].text, "parameter @17 documented twice"),
	   "in-source: the duplicate parameter reported: %s",
	   diags.n ? diags.v[0].text : "(nothing)");
	kmsg_docs_free(&docs);
	kmsg_diags_free(&diags);
	free(text);
}

int main(void)
{
	printf("TAP version 13\n");
	test_many();
	test_lines();
	test_srcdoc();
	return tap_done();
}
