// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc check --coverage, --templates DIR, --log FILE
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_catalog.h"
#include "kmsg_db.h"
#include "kmsg_diff.h"
#include "kmsg_index.h"
#include "kmsg_jcatalog.h"
#include "kmsg_srcdoc.h"
#include "kmsg_strbuf.h"
#include "kmsg_xalloc.h"
#include "kmsg-doc.h"

/* ---- coverage: check --coverage, --templates DIR, --log FILE ---- */

/* One message of the build: a distinct id, with its first site */
struct covmsg {
	const char *id;		/* curated, else automatic */
	const struct kmsg_msg *m;	/* its first call site */
	const char *literal;	/* the format up to its first conversion */
	size_t litlen;
	size_t comp_len;	/* of the component in id */
	unsigned long seen;	/* lines of the log */
	bool documented;
};

static int covmsg_id_cmp(const void *a, const void *b)
{
	const struct covmsg *x = a, *y = b;
	int r = strncmp(x->id, y->id, x->comp_len < y->comp_len ?
			x->comp_len : y->comp_len);

	if (r || x->comp_len != y->comp_len)
		return r ? r : x->comp_len < y->comp_len ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* by component, then most often seen, then where they are printed */
static int covmsg_cmp(const void *a, const void *b)
{
	const struct covmsg *x = a, *y = b;
	int r = strncmp(x->id, y->id, x->comp_len < y->comp_len ?
			x->comp_len : y->comp_len);

	if (r || x->comp_len != y->comp_len)
		return r ? r : x->comp_len < y->comp_len ? -1 : 1;
	if (x->seen != y->seen)
		return x->seen > y->seen ? -1 : 1;
	return msg_cmp(&x->m, &y->m);
}

static int alias_key_cmp(const void *key, const void *elt)
{
	return strcmp(key, ((const struct alias_ref *)elt)->alias->auto_id);
}

static bool covmsg_documented(struct ctx *c, const struct kmsg_msg *m)
{
	const struct ident *id;

	if (!m->id)
		return bsearch(m->auto_id, c->aliases, c->naliases,
			       sizeof(*c->aliases), alias_key_cmp) != NULL;
	id = find_ident(c, m->component, m->number);
	return id && (id->src || (id->cat && id->cat->described) || id->broken);
}

/*
 * The messages of the build, one per id, sorted by id; every call site
 * counts, the plain ones too.
 */
static struct covmsg *cov_messages(struct ctx *c, size_t *n)
{
	size_t nrows, i, k = 0;
	const struct kmsg_msg **rows = site_rows(c, &nrows);
	struct covmsg *v = kmsg_xcalloc(nrows + 1, sizeof(*v));

	for (i = 0; i < nrows; i++) {
		const struct kmsg_msg *m = rows[i];

		v[i].id = m->id ? m->id : m->auto_id;
		v[i].m = m;
		v[i].comp_len = m->id ? strlen(m->component) :
			(size_t)(strrchr(m->auto_id, '.') - m->auto_id);
		v[i].literal = m->format;
		v[i].litlen = strcspn(m->format, "%");
	}
	if (nrows > 1)
		qsort(v, nrows, sizeof(*v), covmsg_id_cmp);
	for (i = 0; i < nrows; i++) {
		if (k && !strcmp(v[k - 1].id, v[i].id)) {
			if (msg_cmp(&v[i].m, &v[k - 1].m) < 0)
				v[k - 1].m = v[i].m;
			continue;
		}
		v[k] = v[i];
		v[k].documented = covmsg_documented(c, v[k].m);
		k++;
	}
	free(rows);
	*n = k;
	return v;
}

/* The text of a log line: without "<6>", "[    1.234567] ", "comp.N: " */
static const char *log_text(const char *s)
{
	const char *p;

	if (*s == '<' && (p = strchr(s, '>')) && p - s <= 4)
		s = p + 1;
	if (*s == '[' && (p = strchr(s, ']'))) {
		s = p + 1;
		while (*s == ' ')
			s++;
	}
	return s;
}

/* literal of x against the first lim bytes of t: <0, 0 (equal), >0 */
static int lit_cmp(const struct covmsg *x, const char *t, size_t lim)
{
	size_t n = x->litlen < lim ? x->litlen : lim;
	int r = memcmp(x->literal, t, n);

	if (r)
		return r;
	return x->litlen < lim ? -1 : x->litlen > lim;
}

static int lit_sort(const void *a, const void *b)
{
	const struct covmsg *x = *(const struct covmsg *const *)a;
	const struct covmsg *y = *(const struct covmsg *const *)b;
	int r = lit_cmp(x, y->literal, y->litlen);

	return r ? r : strcmp(x->id, y->id);
}

/*
 * The message of @v (sorted by literal) with the longest literal that
 * starts @t: the last literal not above @t is it if it is a prefix of @t,
 * else the answer is a prefix of their common part: search again with
 * that, shorter each time.
 */
static struct covmsg *longest_literal(struct covmsg **v, size_t n, const char *t)
{
	size_t lim = strlen(t);

	while (lim >= 4) {
		size_t lo = 0, hi = n, cp = 0;
		struct covmsg *x;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (lit_cmp(v[mid], t, lim) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			return NULL;
		x = v[lo - 1];
		if (x->litlen <= lim && !memcmp(x->literal, t, x->litlen)) {
			/* the first of equal literals: the lowest id */
			while (lo > 1 && v[lo - 2]->litlen == x->litlen &&
			       !memcmp(v[lo - 2]->literal, t, x->litlen))
				x = v[--lo - 1];
			return x;
		}
		while (cp < lim && cp < x->litlen && x->literal[cp] == t[cp])
			cp++;
		lim = cp;
	}
	return NULL;
}

/*
 * --log: how often each message occurs in the log.  Approximate: a line
 * is the message whose format's text before its first conversion (at
 * least 4 bytes of it) starts the line, or, for a device message, the
 * line after its first ": "; the longest such text wins, the lowest id
 * of equal ones.  kmsg dmesg identifies lines properly.
 */
static int cov_count_log(struct ctx *c, struct covmsg *v, size_t n)
{
	struct covmsg **plain = kmsg_xcalloc(n + 1, sizeof(*plain));
	struct covmsg **dev = kmsg_xcalloc(n + 1, sizeof(*dev));
	size_t len, i, np = 0, nd = 0;
	char *text, *line, *next;

	text = read_text(c->opt.log, &len);
	if (!text || memchr(text, '\0', len)) {
		fprintf(stderr, "kmsg-doc: %s: %s\n", c->opt.log,
			text ? "a NUL byte: not a text log" : strerror(errno));
		free(text);
		free(plain);
		free(dev);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (v[i].litlen < 4)
			continue;
		if (v[i].m->prefix)
			dev[nd++] = &v[i];
		else
			plain[np++] = &v[i];
	}
	if (np > 1)
		qsort(plain, np, sizeof(*plain), lit_sort);
	if (nd > 1)
		qsort(dev, nd, sizeof(*dev), lit_sort);
	for (line = text; line < text + len; line = next) {
		const char *t, *after;
		struct covmsg *best, *d = NULL;

		next = strchr(line, '\n');
		next = next ? next + 1 : text + len;
		if (next[-1] == '\n')
			next[-1] = '\0';
		t = log_text(line);
		best = longest_literal(plain, np, t);
		after = strstr(t, ": ");
		if (after)
			d = longest_literal(dev, nd, after + 2);
		if (d && (!best || d->litlen > best->litlen))
			best = d;
		if (best)
			best->seen++;
	}
	free(text);
	free(plain);
	free(dev);
	return 0;
}

static int seen_cmp(const void *a, const void *b)
{
	const struct covmsg *x = *(const struct covmsg *const *)a;
	const struct covmsg *y = *(const struct covmsg *const *)b;

	if (x->seen != y->seen)
		return x->seen > y->seen ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A format as a catalog's format field: quoted if blanks would be lost */
static void put_format(FILE *f, const char *fmt)
{
	struct kmsg_strbuf sb = { 0 };

	kmsg_catalog_field(&sb, "format", fmt);
	fputs(sb.buf, f);
	kmsg_strbuf_free(&sb);
}

/* The highest number an identifier of component comp has */
static unsigned int max_number(struct ctx *c, const char *comp, size_t n)
{
	unsigned int max = 0;
	size_t i;

	for (i = 0; i < c->nids; i++)
		if (strlen(c->ids[i].component) == n &&
		    !strncmp(c->ids[i].component, comp, n) &&
		    c->ids[i].number > max)
			max = c->ids[i].number;
	return max;
}

static void write_template(FILE *f, const struct covmsg *cm, unsigned int nr)
{
	const struct kmsg_msg *m = cm->m;
	size_t k, nv = kmsg_fmt_values(m->format);

	if (cm->seen)
		fprintf(f, "# seen %lu times in the log\n", cm->seen);
	fprintf(f, "# printed by %s:%u (%s)%s\n", m->file, m->line, m->func,
		m->cont ? ", continues a line (KERN_CONT)" : "");
	if (m->id) {
		fprintf(f, "id: %s\n", m->id);
	} else {
		fprintf(f, "id: %.*s.%u\n", (int)cm->comp_len, cm->id, nr);
		fprintf(f, "modname: %.*s\n", (int)cm->comp_len, cm->id);
	}
	fprintf(f, "severity: %s\n", kmsg_level_name(m->level));
	put_format(f, m->format);
	for (k = 0; k < nv; k++)
		fprintf(f, "parameter: @%zu\n", k);
	fputs("description:\nuser-response:\n\n", f);
}

/* --templates DIR: DIR/<component>.kmsg for each component's undocumented */
static int cov_templates(struct ctx *c, const struct covmsg *v, size_t n)
{
	size_t i = 0, k;
	int ret = 0;

	if (mkdir(c->opt.templates, 0777) && errno != EEXIST) {
		fprintf(stderr, "kmsg-doc: %s: %s\n", c->opt.templates,
			strerror(errno));
		return -1;
	}
	while (i < n) {
		size_t cl = v[i].comp_len;
		unsigned int nr = max_number(c, v[i].id, cl);
		char *path = NULL;
		FILE *f = NULL;
		int fd;

		for (k = i; k < n && v[k].comp_len == cl &&
		     !strncmp(v[k].id, v[i].id, cl); k++) {
			if (v[k].documented)
				continue;
			if (!f) {
				path = kmsg_xprintf("%s/%.*s.kmsg", c->opt.templates,
						    (int)cl, v[i].id);
				fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
					  0666);
				f = fd < 0 ? NULL : fdopen(fd, "w");
				if (!f) {
					fprintf(stderr, "kmsg-doc: %s: %s\n", path,
						strerror(errno));
					if (fd >= 0)
						close(fd);
					ret = -1;
					break;
				}
				fprintf(f, "# %.*s: templates for the undocumented messages of the build\n\n",
					(int)cl, v[i].id);
			}
			write_template(f, &v[k], v[k].m->id ? 0 : ++nr);
		}
		if (f && (ferror(f) | fclose(f))) {
			fprintf(stderr, "kmsg-doc: %s: write error\n", path);
			ret = -1;
		}
		free(path);
		while (k < n && v[k].comp_len == cl && !strncmp(v[k].id, v[i].id, cl))
			k++;
		i = k;
	}
	return ret;
}

/* --coverage: documented and undocumented messages per component */
int coverage(struct ctx *c)
{
	size_t n, i, k, tot = 0, doc = 0;
	struct covmsg *v = cov_messages(c, &n);
	int ret = 0;

	if (c->opt.log && cov_count_log(c, v, n))
		ret = -1;
	if (n > 1)
		qsort(v, n, sizeof(*v), covmsg_cmp);
	printf("# Coverage: messages (distinct ids) per component\n");
	printf("%-24s %9s %11s %13s\n", "component", "messages", "documented",
	       "undocumented");
	for (i = 0; i < n; i = k) {
		size_t cl = v[i].comp_len, m = 0, d = 0;

		for (k = i; k < n && v[k].comp_len == cl &&
		     !strncmp(v[k].id, v[i].id, cl); k++) {
			m++;
			d += v[k].documented;
		}
		printf("%-24.*s %9zu %11zu %13zu\n", (int)cl, v[i].id, m, d, m - d);
		tot += m;
		doc += d;
	}
	printf("%-24s %9zu %11zu %13zu\n", "total", tot, doc, tot - doc);
	if (c->opt.log) {
		struct covmsg **u = kmsg_xcalloc(n + 1, sizeof(*u));
		size_t nu = 0;

		for (i = 0; i < n; i++)
			if (!v[i].documented && v[i].seen)
				u[nu++] = &v[i];
		if (nu > 1)
			qsort(u, nu, sizeof(*u), seen_cmp);
		printf("# Undocumented messages in %s, most frequent first (approximate):\n",
		       c->opt.log);
		for (i = 0; i < nu; i++) {
			char *e = kmsg_escaped(u[i]->m->format);

			printf("%7lu %s \"%s\"\n", u[i]->seen, u[i]->id, e);
			free(e);
		}
		free(u);
	}
	if (c->opt.templates && cov_templates(c, v, n))
		ret = -1;
	free(v);
	return ret;
}

