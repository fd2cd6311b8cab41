// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_diff - argument types, similarity and pairing of formats for
 * kmsg-doc diff.  See kmsg_diff.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_catalog.h"
#include "kmsg_diff.h"
#include "kmsg_hash.h"

char *kmsg_diff_argtypes(const char *fmt)
{
	struct kmsg_strbuf sb = { 0 };
	struct kmsg_fmt f;
	size_t i;

	kmsg_fmt_scan(fmt, false, &f);
	for (i = 0; i < f.n; i++) {
		const struct kmsg_conv *cv = &f.v[i];
		char c = cv->conv == 'i' ? 'd' : cv->conv;

		if (c == '%')
			continue;
		if (cv->width_star)
			kmsg_sb_puts(&sb, sb.len ? " *" : "*");
		if (cv->prec_star)
			kmsg_sb_puts(&sb, sb.len ? " *" : "*");
		kmsg_sb_puts(&sb, sb.len ? " %" : "%");
		if (cv->qual == 'H')
			kmsg_sb_puts(&sb, "hh");
		else if (cv->qual == 'L')
			kmsg_sb_puts(&sb, "ll");
		else if (cv->qual)
			kmsg_sb_putc(&sb, cv->qual);
		kmsg_sb_putc(&sb, c);
		/* %p's extension: the rest of the conversion's text */
		if (c == 'p') {
			const char *p = memchr(fmt + cv->off, 'p', cv->len);

			if (p)
				kmsg_sb_putn(&sb, p + 1,
					     cv->len - (size_t)(p + 1 - (fmt + cv->off)));
		}
	}
	if (f.invalid)
		kmsg_sb_puts(&sb, sb.len ? " ?" : "?");
	kmsg_fmt_free(&f);
	return kmsg_sb_take(&sb);
}

char *kmsg_diff_levels(unsigned int mask)
{
	struct kmsg_strbuf sb = { 0 };
	unsigned int l;

	for (l = 0; l < 8; l++)
		if (mask & (1u << l)) {
			if (sb.len)
				kmsg_sb_putc(&sb, ',');
			kmsg_sb_puts(&sb, kmsg_level_name(l));
		}
	return kmsg_sb_take(&sb);
}

/* The words of a format, as hashes, sorted */
struct words {
	uint32_t *v;
	size_t n;
};

static bool word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void words_of(const char *fmt, struct words *w)
{
	size_t i = 0, k = 0, cap = 0, len = strlen(fmt);
	struct kmsg_fmt f;

	w->v = NULL;
	w->n = 0;
	kmsg_fmt_scan(fmt, false, &f);
	while (i < len) {
		uint32_t h = KMSG_FNV1A_BASIS;

		/* conversions are no words; each starts with '%' */
		if (k < f.n && i == f.v[k].off) {
			i += f.v[k++].len;
			continue;
		}
		if (!word_char((unsigned char)fmt[i])) {
			i++;
			continue;
		}
		while (i < len && word_char((unsigned char)fmt[i])) {
			unsigned char c = (unsigned char)fmt[i++];

			if (c >= 'A' && c <= 'Z')
				c = (unsigned char)(c - 'A' + 'a');
			h ^= c;
			h *= KMSG_FNV1A_PRIME;
		}
		KMSG_GROW(w->v, cap, w->n);
		w->v[w->n++] = h;
	}
	kmsg_fmt_free(&f);
	if (w->n > 1)
		qsort(w->v, w->n, sizeof(*w->v), u32_cmp);
}

/* Dice's coefficient of two sorted multisets, permille */
static unsigned int dice(const struct words *a, const struct words *b)
{
	size_t i = 0, k = 0, shared = 0;

	if (!a->n || !b->n)
		return 0;
	while (i < a->n && k < b->n) {
		if (a->v[i] < b->v[k]) {
			i++;
		} else if (a->v[i] > b->v[k]) {
			k++;
		} else {
			shared++;
			i++;
			k++;
		}
	}
	return (unsigned int)((2000 * (unsigned long long)shared) /
			      (a->n + b->n));
}

unsigned int kmsg_diff_similarity(const char *a, const char *b)
{
	struct words x, y;
	unsigned int s;

	words_of(a, &x);
	words_of(b, &y);
	s = dice(&x, &y);
	free(x.v);
	free(y.v);
	return s;
}

/* ---- pairing ---- */

struct side {
	const struct kmsg_diff_item *items;
	struct words *words;
	size_t *order;		/* indices by component */
	size_t n;
};

static const struct kmsg_diff_item *sort_items;

static int comp_cmp(const struct kmsg_diff_item *x,
		    const struct kmsg_diff_item *y)
{
	size_t n = x->comp_len < y->comp_len ? x->comp_len : y->comp_len;
	int r = memcmp(x->component, y->component, n);

	if (r)
		return r;
	return x->comp_len < y->comp_len ? -1 : x->comp_len > y->comp_len;
}

static int order_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int r = comp_cmp(&sort_items[x], &sort_items[y]);

	return r ? r : x < y ? -1 : x > y;
}

static void side_init(struct side *s, const struct kmsg_diff_item *items,
		      size_t n)
{
	size_t i;

	s->items = items;
	s->n = n;
	s->words = kmsg_xcalloc(n + 1, sizeof(*s->words));
	s->order = kmsg_xcalloc(n + 1, sizeof(*s->order));
	for (i = 0; i < n; i++) {
		words_of(items[i].format, &s->words[i]);
		s->order[i] = i;
	}
	sort_items = items;
	if (n > 1)
		qsort(s->order, n, sizeof(*s->order), order_cmp);
}

static void side_free(struct side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->words[i].v);
	free(s->words);
	free(s->order);
}

struct pairs {
	struct kmsg_diff_pair *v;
	size_t n, cap;
};

static void add_pair(struct pairs *p, size_t o, size_t n, unsigned int score)
{
	KMSG_GROW(p->v, p->cap, p->n);
	p->v[p->n].old = o;
	p->v[p->n].new = n;
	p->v[p->n].score = score;
	p->n++;
}

/* a word of an added message: its hash and the message */
struct posting {
	uint32_t h;
	size_t idx;
};

static int posting_cmp(const void *a, const void *b)
{
	const struct posting *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct cand {
	size_t idx, count;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The first posting of @h in @v (@n sorted), or @n */
static size_t posting_first(const struct posting *v, size_t n, uint32_t h)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].h < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* One component: old->order[o0..o1) against new->order[n0..n1) */
static void pair_component(const struct side *old, size_t o0, size_t o1,
			   const struct side *new, size_t n0, size_t n1,
			   unsigned int threshold, struct pairs *out)
{
	size_t nr = o1 - o0, na = n1 - n0, i, k, np = 0;
	struct posting *post;
	size_t *cidx;
	struct cand *cand;

	if (nr <= KMSG_DIFF_ALL_PAIRS / na) {
		for (i = o0; i < o1; i++) {
			for (k = n0; k < n1; k++) {
				size_t a = old->order[i], b = new->order[k];
				unsigned int s = dice(&old->words[a], &new->words[b]);

				if (s >= threshold)
					add_pair(out, a, b, s);
			}
		}
		return;
	}
	/* postings of the distinct words of each added message */
	for (k = n0; k < n1; k++)
		np += new->words[new->order[k]].n;
	post = kmsg_xcalloc(np + 1, sizeof(*post));
	np = 0;
	for (k = n0; k < n1; k++) {
		const struct words *w = &new->words[new->order[k]];

		for (i = 0; i < w->n; i++) {
			if (i && w->v[i] == w->v[i - 1])
				continue;
			post[np].h = w->v[i];
			post[np].idx = new->order[k];
			np++;
		}
	}
	if (np > 1)
		qsort(post, np, sizeof(*post), posting_cmp);
	cidx = kmsg_xcalloc(KMSG_DIFF_WORDS * KMSG_DIFF_POSTING + 1,
			    sizeof(*cidx));
	cand = kmsg_xcalloc(KMSG_DIFF_WORDS * KMSG_DIFF_POSTING + 1,
			    sizeof(*cand));
	for (i = o0; i < o1; i++) {
		size_t a = old->order[i], nw = 0, nc = 0, nk = 0, j, first, last;
		const struct words *w = &old->words[a];

		for (j = 0; j < w->n && nw < KMSG_DIFF_WORDS; j++) {
			if (j && w->v[j] == w->v[j - 1])
				continue;
			nw++;
			first = posting_first(post, np, w->v[j]);
			for (last = first; last < np && post[last].h == w->v[j] &&
			     last - first <= KMSG_DIFF_POSTING; last++)
				;
			if (last - first > KMSG_DIFF_POSTING)
				continue;
			for (; first < last; first++)
				cidx[nc++] = post[first].idx;
		}
		if (nc > 1)
			qsort(cidx, nc, sizeof(*cidx), size_cmp);
		for (j = 0; j < nc; j++) {
			if (nk && cand[nk - 1].idx == cidx[j]) {
				cand[nk - 1].count++;
				continue;
			}
			cand[nk].idx = cidx[j];
			cand[nk].count = 1;
			nk++;
		}
		if (nk > 1)
			qsort(cand, nk, sizeof(*cand), cand_cmp);
		for (j = 0; j < nk && j < KMSG_DIFF_CANDIDATES; j++) {
			unsigned int s = dice(w, &new->words[cand[j].idx]);

			if (s >= threshold)
				add_pair(out, a, cand[j].idx, s);
		}
	}
	free(cidx);
	free(cand);
	free(post);
}

static int pair_cmp(const void *a, const void *b)
{
	const struct kmsg_diff_pair *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	if (x->old != y->old)
		return x->old < y->old ? -1 : 1;
	return x->new < y->new ? -1 : x->new > y->new;
}

size_t kmsg_diff_pairs(const struct kmsg_diff_item *oldv, size_t nold,
		       const struct kmsg_diff_item *newv, size_t nnew,
		       unsigned int threshold, struct kmsg_diff_pair **pairs)
{
	struct side old, new;
	struct pairs all = { 0 };
	bool *oused, *nused;
	size_t i = 0, k = 0, n = 0;

	if (!threshold)
		threshold = 1;	/* no words in common is no pair */
	side_init(&old, oldv, nold);
	side_init(&new, newv, nnew);
	while (i < nold && k < nnew) {
		const struct kmsg_diff_item *x = &oldv[old.order[i]];
		const struct kmsg_diff_item *y = &newv[new.order[k]];
		int r = comp_cmp(x, y);
		size_t i1 = i, k1 = k;

		if (r < 0) {
			i++;
			continue;
		}
		if (r > 0) {
			k++;
			continue;
		}
		while (i1 < nold && !comp_cmp(&oldv[old.order[i1]], x))
			i1++;
		while (k1 < nnew && !comp_cmp(&newv[new.order[k1]], y))
			k1++;
		pair_component(&old, i, i1, &new, k, k1, threshold, &all);
		i = i1;
		k = k1;
	}
	if (all.n > 1)
		qsort(all.v, all.n, sizeof(*all.v), pair_cmp);
	oused = kmsg_xcalloc(nold + 1, sizeof(*oused));
	nused = kmsg_xcalloc(nnew + 1, sizeof(*nused));
	for (i = 0; i < all.n; i++) {
		const struct kmsg_diff_pair *p = &all.v[i];

		if (oused[p->old] || nused[p->new])
			continue;
		oused[p->old] = nused[p->new] = true;
		all.v[n++] = *p;
	}
	free(oused);
	free(nused);
	side_free(&old);
	side_free(&new);
	*pairs = all.v;
	return n;
}
