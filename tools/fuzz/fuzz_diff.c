// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc diff's comparison of formats (lib/kmsg_diff.c): argument
 * types, similarity and the bounded pairing, on formats from the input.
 *
 * Input: lines "C FORMAT": C is the component (one byte), FORMAT the
 * rest; lines before a line "--" are the removed messages, after it the
 * added ones.  Checks: every message in at most one pair, scores within
 * 0..1000 and at least the threshold, a format scored against itself is
 * 1000 or (without words) 0.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_diff.h"

#define MAX_ITEMS 512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_diff_item items[2][MAX_ITEMS];
	size_t n[2] = { 0, 0 }, np, i;
	char *copy = malloc(size + 1), *line, *next;
	struct kmsg_diff_pair *pairs;
	int side = 0;
	char *used;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (line = copy; line; line = next) {
		struct kmsg_diff_item *it;
		char *a, *b;
		unsigned int s;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strcmp(line, "--")) {
			side = 1;
			continue;
		}
		if (!*line || n[side] == MAX_ITEMS)
			continue;
		it = &items[side][n[side]++];
		it->component = line;
		it->comp_len = 1;
		it->format = line + 1;
		a = kmsg_diff_argtypes(it->format);
		b = kmsg_diff_argtypes(it->format);
		if (strcmp(a, b))
			abort();
		free(a);
		free(b);
		s = kmsg_diff_similarity(it->format, it->format);
		if (s != 1000 && s != 0)
			abort();
	}
	np = kmsg_diff_pairs(items[0], n[0], items[1], n[1],
			     KMSG_DIFF_THRESHOLD, &pairs);
	used = calloc(n[0] + n[1] + 1, 1);
	if (!used)
		abort();
	for (i = 0; i < np; i++) {
		const struct kmsg_diff_pair *p = &pairs[i];

		if (p->old >= n[0] || p->new >= n[1] || used[p->old] ||
		    used[n[0] + p->new] || p->score > 1000 ||
		    p->score < KMSG_DIFF_THRESHOLD ||
		    items[0][p->old].component[0] != items[1][p->new].component[0] ||
		    (i && p->score > pairs[i - 1].score))
			abort();
		used[p->old] = used[n[0] + p->new] = 1;
	}
	free(used);
	free(pairs);
	free(copy);
	return 0;
}
