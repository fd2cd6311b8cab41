/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_diff - what kmsg-doc diff compares formats with: the argument
 * types of a format (its conversions, as kmsg_fmt_scan() reads them) and
 * the similarity of two formats' literal text, and the pairing of the
 * messages one release removed with those the next one added.
 *
 * Similarity: the words of the text outside the conversions (runs of
 * letters, digits, '_' and bytes >= 0x80; ASCII letters lowercased), as a
 * multiset; two formats score 2 * shared / (words of one + words of the
 * other), in permille (Dice's coefficient).  Formats that differ only in
 * their conversions score 1000.  A format without words scores 0 with
 * anything.
 *
 * Pairing is bounded, so that 10^5 messages pair in well under a second:
 * only messages of the same component pair; a component with at most
 * KMSG_DIFF_ALL_PAIRS removed x added pairs compares every pair, a larger
 * one compares each removed message with at most KMSG_DIFF_CANDIDATES
 * added ones, those sharing the most of KMSG_DIFF_WORDS of its distinct
 * words (the lowest hashes) that are in at most KMSG_DIFF_POSTING added messages of the component
 * (a word most messages have says nothing).
 */
#ifndef KMSG_DIFF_H
#define KMSG_DIFF_H

#include <stddef.h>

#define KMSG_DIFF_ALL_PAIRS	65536
#define KMSG_DIFF_WORDS		64
#define KMSG_DIFF_POSTING	32
#define KMSG_DIFF_CANDIDATES	16
/* the default threshold of a pair: half the words shared */
#define KMSG_DIFF_THRESHOLD	500

/*
 * The argument types of fmt, malloc()ed: one token per argument the
 * format takes, separated by spaces: "*" for a '*' width or precision,
 * else '%', the length qualifier and the conversion ('i' counts as 'd';
 * %p with its extension: "%pI4").  "" if none.  A conversion
 * kmsg_fmt_scan() does not know ends the list with "?".
 */
char *kmsg_diff_argtypes(const char *fmt);

/* The similarity of the literal text of formats a and b: 0..1000 */
unsigned int kmsg_diff_similarity(const char *a, const char *b);

/* A message for the pairing: its component and format */
struct kmsg_diff_item {
	const char *component;
	size_t comp_len;
	const char *format;
};

struct kmsg_diff_pair {
	size_t old, new;	/* indices into the two arrays */
	unsigned int score;	/* permille */
};

/*
 * Pair old[] (removed) with new[] (added): each at most once, best
 * scores first (ties: lower old index, then lower new index), only
 * within a component and with a score of at least threshold.  Returns
 * the number of pairs, *pairs malloc()ed in that order.
 */
size_t kmsg_diff_pairs(const struct kmsg_diff_item *old, size_t nold,
		       const struct kmsg_diff_item *new, size_t nnew,
		       unsigned int threshold, struct kmsg_diff_pair **pairs);

/* The levels of mask (bit L: level L) as "err" or "warn,err", malloc()ed */
char *kmsg_diff_levels(unsigned int mask);

/*
 * kmsg-doc diff [--json] [--srctree DIR] [--catalog DIR] OLD NEW
 * (tools/kmsg-doc/diff.c; kmsg-doc(1)).  @build writes the docs database
 * of a build, the @n OBJECT arguments @objects, to @out, as build-db
 * does: 0, or -1 after printing why not.  Returns the exit status.
 */
int kmsg_doc_diff(int argc, char **argv,
		  int (*build)(char **objects, int n, const char *srctree,
			       const char *catalog, const char *out));

#endif /* KMSG_DIFF_H */
