// SPDX-License-Identifier: GPL-2.0
/*
 * The matcher (lib/kmsg_match.c): arbitrary formats compiled into
 * patterns and arbitrary text matched against them, with the arguments
 * parsed back. Input: lines; the first line is the text (its "\n" escape
 * sequences left as they are), every other line "PREFIX\tFORMAT" or a
 * format alone, any bytes. The text and each format are heap copies of
 * their exact size, so that ASan sees any overread. The sites get levels
 * -1..7 in turn; the text is matched again at a level, with the newlines
 * of formats only, and as two lines that may join at its middle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_match.h"

static char *copy(const uint8_t *p, size_t n)
{
	char *s = malloc(n ? n : 1);

	if (!s)
		abort();
	memcpy(s, p, n);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size, *nl = memchr(data, '\n', size);
	struct kmsg_match *m = kmsg_match_new();
	struct kmsg_match_result r;
	struct kmsg_span drv, dev;
	struct kmsg_args args;
	size_t tlen = nl ? (size_t)(nl - data) : size;
	char *text = copy(data, tlen), id[32];
	const uint8_t *p = nl ? nl + 1 : end;
	int n = 0, i;

	if (!m)
		abort();
	while (p < end && n < 64) {
		const uint8_t *e = memchr(p, '\n', end - p), *tab;
		size_t len = e ? (size_t)(e - p) : (size_t)(end - p);
		char *prefix = NULL, *fmt;

		tab = memchr(p, '\t', len);
		if (tab) {
			prefix = copy(p, tab - p + 1);
			prefix[tab - p] = '\0';
			len -= tab - p + 1;
			p = tab + 1;
		}
		fmt = copy(p, len);
		snprintf(id, sizeof(id), n % 5 ? "f.h%08x" : "f.%d", n);
		if (kmsg_match_add(m, id, prefix, fmt, len) != n)
			abort();
		kmsg_match_set_level(m, n, n % 9 - 1);
		n++;
		free(prefix);
		free(fmt);
		p += len + 1;
	}
	if (kmsg_match_build(m) || kmsg_match_text(m, text, tlen, &r))
		abort();
	if (r.n < 0 || r.n > KMSG_MATCH_CAND_MAX || r.total < r.n)
		abort();
	for (i = 0; i < r.n; i++) {
		const char *t = r.wrapped ? text + r.inner_off : text;
		size_t len = r.wrapped ? r.inner_len : tlen;

		if (r.wrapped && r.inner_off + r.inner_len > tlen)
			abort();
		/*
		 * an ambiguous result may hold a match of the beginning
		 * that a whole one only generalizes (kmsg_match.h): its
		 * candidates parse one way or the other
		 */
		if (kmsg_match_args(m, r.pat[i], t, len, r.partial && !r.wrapped,
				    &args, &drv, &dev) &&
		    (r.n < 2 || r.wrapped ||
		     kmsg_match_args(m, r.pat[i], t, len, !r.partial, &args,
				     &drv, &dev)))
			abort();
		if (args.n > KMSG_ARGS_MAX)
			abort();
	}
	if (kmsg_match_text_naive(m, text, tlen, &r))
		abort();
	if (kmsg_match_line(m, text, tlen, tlen ? text[0] & 7 : -1,
			    KMSG_MATCH_NL_LITERAL, &r))
		abort();
	if (r.n < 0 || r.n > KMSG_MATCH_CAND_MAX || r.total < r.n)
		abort();
	if (kmsg_match_joins(m, text, tlen / 2, text + tlen / 2,
			     tlen - tlen / 2, 6) < 0)
		abort();
	kmsg_match_free(m);
	free(text);
	return 0;
}
