// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_modrel - which modules may print a device line of a driver
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_modrel.h"

struct mod {
	char *name;		/* '-' made '_' */
	char *depends;		/* as given, until kmsg_modrel_build() */
	int *deps, *rdeps;	/* module indexes */
	size_t ndeps, nrdeps, rcap;
	size_t order;		/* of kmsg_modrel_add() calls */
};

/* The set of modules related to one driver, as a bitmap */
struct related {
	int driver;
	uint64_t *bits;
};

#define RELATED_CACHE	32

struct kmsg_modrel {
	struct mod *v;
	size_t n, cap;
	bool built;
	struct related cache[RELATED_CACHE];
	size_t ncache, next;
	int *queue;
};

struct kmsg_modrel *kmsg_modrel_new(void)
{
	return calloc(1, sizeof(struct kmsg_modrel));
}

void kmsg_modrel_free(struct kmsg_modrel *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->v[i].name);
		free(r->v[i].depends);
		free(r->v[i].deps);
		free(r->v[i].rdeps);
	}
	for (i = 0; i < r->ncache; i++)
		free(r->cache[i].bits);
	free(r->v);
	free(r->queue);
	free(r);
}

size_t kmsg_modrel_count(const struct kmsg_modrel *r)
{
	return r->n;
}

static void normalize(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

int kmsg_modrel_add(struct kmsg_modrel *r, const char *name,
		    const char *depends)
{
	struct mod *m;

	if (r->n == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 256;
		struct mod *v = realloc(r->v, ncap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		r->v = v;
		r->cap = ncap;
	}
	m = &r->v[r->n];
	memset(m, 0, sizeof(*m));
	m->name = strdup(name);
	m->depends = strdup(depends ? depends : "");
	if (!m->name || !m->depends) {
		free(m->name);
		free(m->depends);
		return -ENOMEM;
	}
	normalize(m->name);
	m->order = r->n;
	r->n++;
	r->built = false;
	return 0;
}

static int cmp_mod(const void *a, const void *b)
{
	const struct mod *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	return r ? r : x->order < y->order ? -1 : 1;
}

/* The index of module @name (@len bytes, normalized), -1 if none */
static int find(const struct kmsg_modrel *r, const char *name, size_t len)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		size_t nl = strlen(r->v[mid].name);
		int c = memcmp(r->v[mid].name, name, nl < len ? nl : len);

		if (!c)
			c = (nl > len) - (nl < len);
		if (c < 0)
			lo = mid + 1;
		else if (c > 0)
			hi = mid;
		else
			return (int)mid;
	}
	return -1;
}

static int push(int **v, size_t *n, size_t *cap, int x)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;
		int *nv = realloc(*v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = x;
	return 0;
}

static int build(struct kmsg_modrel *r)
{
	size_t i, k;

	for (i = 0; i < r->ncache; i++)
		free(r->cache[i].bits);
	r->ncache = r->next = 0;
	for (i = 0; i < r->n; i++) {
		free(r->v[i].rdeps);
		r->v[i].rdeps = NULL;
		r->v[i].nrdeps = r->v[i].rcap = 0;
	}
	if (r->n > 1)
		qsort(r->v, r->n, sizeof(*r->v), cmp_mod);
	/* a name twice: the first copy's list */
	for (i = k = 0; i < r->n; i++) {
		if (k && !strcmp(r->v[k - 1].name, r->v[i].name)) {
			free(r->v[i].name);
			free(r->v[i].depends);
			free(r->v[i].deps);
			continue;
		}
		r->v[k] = r->v[i];
		r->v[k].order = k;
		k++;
	}
	r->n = k;
	for (i = 0; i < r->n; i++) {
		struct mod *m = &r->v[i];
		size_t dcap = 0;
		char *p = m->depends;

		free(m->deps);
		m->deps = NULL;
		m->ndeps = 0;
		while (*p) {
			size_t len = strcspn(p, ",");
			char save = p[len];
			int j;

			p[len] = 0;
			normalize(p);
			j = find(r, p, len);
			p[len] = save;
			if (j >= 0 && (size_t)j != i &&
			    (push(&m->deps, &m->ndeps, &dcap, j) ||
			     push(&r->v[j].rdeps, &r->v[j].nrdeps, &r->v[j].rcap,
				  (int)i)))
				return -ENOMEM;
			p += len + (save == ',');
		}
	}
	free(r->queue);
	r->queue = malloc((r->n + 1) * sizeof(*r->queue));
	if (!r->queue)
		return -ENOMEM;
	r->built = true;
	return 0;
}

static bool test_bit(const uint64_t *b, int i)
{
	return b[i / 64] >> (i % 64) & 1;
}

static void set_bit(uint64_t *b, int i)
{
	b[i / 64] |= (uint64_t)1 << (i % 64);
}

/*
 * Add to @bits what the modules of @seen (from @start) reach over deps
 * (@down false) or rdeps (@down true), marking them in @seen too
 */
static void reach(struct kmsg_modrel *r, uint64_t *seen, const int *start,
		  size_t nstart, bool down, uint64_t *bits)
{
	size_t head = 0, tail = 0, i;

	for (i = 0; i < nstart; i++) {
		set_bit(seen, start[i]);
		r->queue[tail++] = start[i];
	}
	while (head < tail) {
		const struct mod *m = &r->v[r->queue[head++]];
		const int *next = down ? m->rdeps : m->deps;
		size_t n = down ? m->nrdeps : m->ndeps;

		for (i = 0; i < n; i++) {
			if (test_bit(seen, next[i]))
				continue;
			set_bit(seen, next[i]);
			if (bits)
				set_bit(bits, next[i]);
			r->queue[tail++] = next[i];
		}
	}
}

/* The modules related to driver module @d: a bitmap, NULL if no memory */
static const uint64_t *related(struct kmsg_modrel *r, int d)
{
	size_t words = (r->n + 63) / 64, i, ndown = 0;
	struct related *c;
	uint64_t *bits, *seen;
	int *down;

	for (i = 0; i < r->ncache; i++)
		if (r->cache[i].driver == d)
			return r->cache[i].bits;
	bits = calloc(words, sizeof(*bits));
	seen = calloc(words, sizeof(*seen));
	down = malloc((r->n + 1) * sizeof(*down));
	if (!bits || !seen || !down) {
		free(bits);
		free(seen);
		free(down);
		return NULL;
	}
	set_bit(bits, d);
	/* its dependencies */
	reach(r, seen, &d, 1, false, bits);
	/* the modules depending on it */
	memset(seen, 0, words * sizeof(*seen));
	reach(r, seen, &d, 1, true, bits);
	for (i = 0; i < r->n; i++)
		if (test_bit(seen, (int)i))
			down[ndown++] = (int)i;
	/* and their dependencies */
	memset(seen, 0, words * sizeof(*seen));
	reach(r, seen, down, ndown, false, bits);
	free(seen);
	free(down);
	if (r->ncache < RELATED_CACHE) {
		c = &r->cache[r->ncache++];
	} else {
		c = &r->cache[r->next];
		r->next = (r->next + 1) % RELATED_CACHE;
		free(c->bits);
	}
	c->driver = d;
	c->bits = bits;
	return bits;
}

bool kmsg_modrel_allows(struct kmsg_modrel *r, const char *driver,
			size_t len, const char *object)
{
	char name[128];
	const uint64_t *bits;
	size_t i;
	int d, o;

	if (!r || !r->n || !len || len >= sizeof(name) || !object ||
	    memchr(driver, '\0', len))
		return true;
	if (!r->built && build(r))
		return true;
	memcpy(name, driver, len);
	name[len] = 0;
	for (i = 0; i < len; i++)
		if (name[i] == '-')
			name[i] = '_';
	d = find(r, name, len);
	o = find(r, object, strlen(object));
	if (d < 0 || o < 0 || d == o)
		return true;
	bits = related(r, d);
	return !bits || test_bit(bits, o);
}
