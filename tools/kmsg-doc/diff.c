// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc diff OLD NEW: what changed between the messages of two
 * releases, for CI and the documentation team (kmsg-doc(1), "diff").
 *
 * OLD and NEW are docs databases (kmsg-doc build-db, schema 3 to 6) or builds:
 * OBJECT arguments as build-db takes them, several separated by commas,
 * whose database is built in a temporary directory first.  Both are then
 * read with lib/kmsg_docs.c, which treats them as untrusted.
 *
 * Exit status: 0 nothing breaking, 1 a breaking change, 2 an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_diff.h"
#include "kmsg_docs.h"
#include "kmsg_id.h"
#include "kmsg_xalloc.h"

/* One message of a release: a distinct id, with its first call site */
struct dmsg {
	char *id;		/* curated or automatic */
	size_t comp_len;	/* the component: id up to its last '.' */
	bool curated;
	unsigned int levels;	/* bit L: a site prints at level L */
	char *format, *file, *function;
	int line;
	char *alias;		/* the identifier documenting an automatic id */
	bool documented;	/* in docs, itself or through alias */
	bool paired;
};

struct release {
	const char *arg;	/* as given */
	char *tmpdir;		/* a build's database is made here */
	struct kmsg_docs *docs;
	struct dmsg *v;
	size_t n, cap;
	char **doc_ids;		/* documented ids, sorted */
	size_t ndoc, capdoc;
	char *err;
};

enum kind { CH_REMOVED, CH_ADDED, CH_REWORDED, CH_LEVEL, CH_ARGTYPE };

static const char *const kind_names[] = {
	"removed", "added", "reworded", "level", "argtype",
};

struct change {
	enum kind kind;
	const struct dmsg *old, *new;	/* one is NULL for removed, added */
	unsigned int score;		/* reworded: permille */
	char *oldargs, *newargs;	/* argtype */
	char *why;			/* breaking, because */
	char *proposal;			/* reworded: catalog text */
};

struct diff {
	bool json;
	struct change *v;
	size_t n, cap;
	size_t counts[5], breaking;
	/* the next number proposed for a new entry of component comp */
	char *comp;
	unsigned long next;
};

/* ---- reading a release ---- */

static int dmsg_cmp(const void *a, const void *b)
{
	const struct dmsg *x = a, *y = b;
	int r = strcmp(x->id, y->id);

	if (!r)
		r = strcmp(x->file, y->file);
	if (!r && x->line != y->line)
		r = x->line < y->line ? -1 : 1;
	if (!r)
		r = strcmp(x->function, y->function);
	if (!r)
		r = strcmp(x->format, y->format);
	return r;
}

static int site_cb(void *ctx, const struct kmsg_doc_site *s)
{
	struct release *r = ctx;
	struct dmsg *m;
	bool curated = kmsg_id_is_curated(s->id);

	if (!curated && !kmsg_id_is_auto(s->id)) {
		char *e = kmsg_escaped(s->id);

		r->err = kmsg_xprintf("table messages: malformed id \"%s\"", e);
		free(e);
		return -EINVAL;
	}
	if (s->level < 0) {
		r->err = kmsg_xprintf("table messages: %s: level out of range",
				      s->id);
		return -EINVAL;
	}
	KMSG_GROW(r->v, r->cap, r->n);
	m = &r->v[r->n++];
	memset(m, 0, sizeof(*m));
	m->id = kmsg_xstrdup(s->id);
	m->comp_len = (size_t)(strrchr(m->id, '.') - m->id);
	m->curated = curated;
	m->levels = 1u << s->level;
	m->format = kmsg_xstrdup(s->format);
	m->file = kmsg_xstrdup(s->file);
	m->function = kmsg_xstrdup(s->function);
	m->line = s->line;
	return 0;
}

static int doc_cb(void *ctx, const char *id)
{
	struct release *r = ctx;

	KMSG_GROW(r->doc_ids, r->capdoc, r->ndoc);
	r->doc_ids[r->ndoc++] = kmsg_xstrdup(id);
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool is_documented(const struct release *r, const char *id)
{
	return r->ndoc && bsearch(&id, r->doc_ids, r->ndoc, sizeof(*r->doc_ids),
		       str_cmp) != NULL;
}

static void dmsg_free(struct dmsg *m)
{
	free(m->id);
	free(m->format);
	free(m->file);
	free(m->function);
	free(m->alias);
}

/* Read the database at path (shown as r->arg): 0, or -1 with r->err */
static int read_db(struct release *r, const char *path)
{
	char err[1024], alias[KMSG_ID_MAX];
	const char *schema;
	size_t i, k = 0;

	r->docs = kmsg_docs_open(path, err, sizeof(err));
	if (!r->docs) {
		r->err = kmsg_xstrdup(err);
		return -1;
	}
	if (kmsg_docs_snapshot(r->docs)) {
		r->err = kmsg_xstrdup(kmsg_docs_errmsg(r->docs));
		return -1;
	}
	schema = kmsg_docs_build(r->docs, "schema");
	/* 4 adds banner and source to build, 5 newline and modules, 6 reports */
	if (strcmp(schema, "3") && strcmp(schema, "4") && strcmp(schema, "5") &&
	    strcmp(schema, "6")) {
		char *e = kmsg_escaped(schema);

		r->err = kmsg_xprintf("%s: a docs database of schema \"%s\", diff needs schema 3 to 6 (docs-db/SCHEMA.md): build it again with kmsg-doc build-db",
				      path, e);
		free(e);
		return -1;
	}
	if (kmsg_docs_sites(r->docs, site_cb, r) < 0 ||
	    kmsg_docs_each(r->docs, doc_cb, r) < 0) {
		char *why = r->err;

		r->err = why ? kmsg_xprintf("%s: %s", path, why) :
			       kmsg_xstrdup(kmsg_docs_errmsg(r->docs));
		free(why);
		return -1;
	}
	if (r->ndoc > 1)
		qsort(r->doc_ids, r->ndoc, sizeof(*r->doc_ids), str_cmp);
	if (r->n > 1)
		qsort(r->v, r->n, sizeof(*r->v), dmsg_cmp);
	/* one per id: the first site, with the levels of all */
	for (i = 0; i < r->n; i++) {
		if (k && !strcmp(r->v[k - 1].id, r->v[i].id)) {
			r->v[k - 1].levels |= r->v[i].levels;
			dmsg_free(&r->v[i]);
			continue;
		}
		r->v[k++] = r->v[i];
	}
	r->n = k;
	for (i = 0; i < r->n; i++) {
		struct dmsg *m = &r->v[i];
		int ret = 1;

		if (!m->curated)
			ret = kmsg_docs_curated_for_auto(r->docs, m->id, alias,
							 sizeof(alias));
		if (ret < 0) {
			r->err = kmsg_xstrdup(kmsg_docs_errmsg(r->docs));
			return -1;
		}
		if (!ret)
			m->alias = kmsg_xstrdup(alias);
		m->documented = m->alias || is_documented(r, m->id);
	}
	return 0;
}

/* Is path a SQLite database, by its header? */
static bool is_database(const char *path)
{
	char head[16];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool db;

	if (fd < 0)
		return false;
	db = read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	     !memcmp(head, "SQLite format 3", 16);
	close(fd);
	return db;
}

static int load_release(struct release *r, const char *srctree,
			const char *catalog,
			int (*build)(char **, int, const char *, const char *,
				     const char *))
{
	char **objs = NULL, *copy, *p, *tok, *db;
	size_t n = 0, cap = 0;
	struct stat stb;
	const char *tmp = getenv("TMPDIR");
	int ret;

	if (!strchr(r->arg, ',') && is_database(r->arg))
		return read_db(r, r->arg);
	if (!strchr(r->arg, ',') && stat(r->arg, &stb)) {
		r->err = kmsg_xprintf("%s: %s", r->arg, strerror(errno));
		return -1;
	}
	/* a build: its database first */
	r->tmpdir = kmsg_xprintf("%s/kmsg-diff.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(r->tmpdir)) {
		r->err = kmsg_xprintf("%s: %s", r->tmpdir, strerror(errno));
		free(r->tmpdir);
		r->tmpdir = NULL;
		return -1;
	}
	copy = kmsg_xstrdup(r->arg);
	for (tok = strtok_r(copy, ",", &p); tok; tok = strtok_r(NULL, ",", &p)) {
		KMSG_GROW(objs, cap, n);
		objs[n++] = tok;
	}
	db = kmsg_xprintf("%s/kmsg.db", r->tmpdir);
	ret = n ? build(objs, (int)n, srctree, catalog, db) : -1;
	if (ret)
		r->err = kmsg_xprintf("%s: %s", r->arg, n ?
				      "not a docs database, and no build whose database could be made of it (above)" :
				      "no OBJECT given");
	else
		ret = read_db(r, db);
	free(objs);
	free(copy);
	free(db);
	return ret;
}

static void release_free(struct release *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		dmsg_free(&r->v[i]);
	free(r->v);
	for (i = 0; i < r->ndoc; i++)
		free(r->doc_ids[i]);
	free(r->doc_ids);
	kmsg_docs_close(r->docs);
	if (r->tmpdir) {
		char *db = kmsg_xprintf("%s/kmsg.db", r->tmpdir);

		unlink(db);
		rmdir(r->tmpdir);
		free(db);
		free(r->tmpdir);
	}
	free(r->err);
}

/* ---- comparing ---- */

static struct change *add_change(struct diff *d, enum kind kind,
				 const struct dmsg *old, const struct dmsg *new)
{
	struct change *c;

	KMSG_GROW(d->v, d->cap, d->n);
	c = &d->v[d->n++];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->old = old;
	c->new = new;
	return c;
}

static void check_argtypes(struct diff *d, const struct dmsg *old,
			   const struct dmsg *new)
{
	char *a = kmsg_diff_argtypes(old->format);
	char *b = kmsg_diff_argtypes(new->format);
	struct change *c;

	if (!strcmp(a, b)) {
		free(a);
		free(b);
		return;
	}
	c = add_change(d, CH_ARGTYPE, old, new);
	c->oldargs = a;
	c->newargs = b;
	c->why = kmsg_xstrdup("the argument types changed");
}

/* The highest number of an identifier of component comp (n bytes) */
static unsigned long max_number(const struct release *r, const char *comp,
				size_t n)
{
	unsigned long max = 0;
	size_t lo = 0, hi = r->ndoc;
	char *key = kmsg_xprintf("%.*s.", (int)n, comp);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(r->doc_ids[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < r->ndoc && !strncmp(r->doc_ids[lo], key, n + 1); lo++) {
		const char *s = r->doc_ids[lo] + n + 1;
		char *end;
		unsigned long v;

		if (*s < '0' || *s > '9')
			continue;
		v = strtoul(s, &end, 10);
		if (!*end && v > max)
			max = v;
	}
	free(key);
	return max;
}

/*
 * The catalog text that keeps the curated id of a reworded message, and
 * whether the change breaks without it.
 */
static void propose(struct diff *d, struct change *c,
		    const struct release *oldr, const struct release *newr)
{
	const struct dmsg *o = c->old, *n = c->new;
	int mlen = (int)o->comp_len;
	struct kmsg_strbuf sb = { 0 };
	char *e;

	if (o->curated)
		return;		/* an identifier of its own: nothing lost */
	if (o->alias) {
		char file[4096];
		int line;

		if (n->alias && !strcmp(n->alias, o->alias))
			return;	/* the catalog has the new wording already */
		if (n->alias) {
			c->why = kmsg_xprintf("documented as %s, now as %s",
					      o->alias, n->alias);
			return;
		}
		c->why = kmsg_xprintf("%s is lost without the proposed auto-id",
				      o->alias);
		/* where to paste it: the entry in NEW's catalog, else OLD's */
		if (!kmsg_docs_where(newr->docs, o->alias, file, sizeof(file),
				     &line) ||
		    !kmsg_docs_where(oldr->docs, o->alias, file, sizeof(file),
				     &line)) {
			e = kmsg_escaped(file);
			kmsg_sb_printf(&sb, "# add to the entry %s (%s:%d):\n",
				       o->alias, e, line);
			free(e);
		} else {
			kmsg_sb_printf(&sb, "# add to the entry %s:\n", o->alias);
		}
		e = kmsg_escaped(n->format);
		kmsg_sb_printf(&sb, "auto-id: %.*s \"%s\"\n", mlen, n->id, e);
		free(e);
		c->proposal = kmsg_sb_take(&sb);
		return;
	}
	if (n->alias)
		return;	/* undocumented before, documented now */
	/* undocumented before: a new entry keeps both wordings */
	if (!d->comp || strlen(d->comp) != o->comp_len ||
	    strncmp(d->comp, o->id, o->comp_len)) {
		free(d->comp);
		d->comp = kmsg_xstrndup(o->id, o->comp_len);
		d->next = max_number(newr, o->id, o->comp_len) + 1;
	}
	e = kmsg_diff_levels(n->levels & -n->levels);
	kmsg_sb_printf(&sb, "# a new entry (%.*s.kmsg):\n", mlen, o->id);
	kmsg_sb_printf(&sb, "id: %.*s.%lu\n", mlen, o->id, d->next++);
	kmsg_sb_printf(&sb, "modname: %.*s\nseverity: %s\n", mlen, o->id, e);
	free(e);
	kmsg_catalog_field(&sb, "format", n->format);
	e = kmsg_escaped(o->format);
	kmsg_sb_printf(&sb, "auto-id: %.*s \"%s\"\n", mlen, o->id, e);
	free(e);
	kmsg_sb_puts(&sb, "description:\nuser-response:\n");
	c->proposal = kmsg_sb_take(&sb);
}

static void compare(struct diff *d, const struct release *oldr,
		    const struct release *newr, unsigned int threshold)
{
	struct dmsg **rem = kmsg_xcalloc(oldr->n + 1, sizeof(*rem));
	struct dmsg **add = kmsg_xcalloc(newr->n + 1, sizeof(*add));
	struct dmsg **rm, **am;
	struct kmsg_diff_item *ri, *ai;
	struct kmsg_diff_pair *pairs;
	size_t i = 0, k = 0, nr = 0, na = 0, nri = 0, nai = 0, np;

	while (i < oldr->n || k < newr->n) {
		struct dmsg *o = i < oldr->n ? &oldr->v[i] : NULL;
		struct dmsg *n = k < newr->n ? &newr->v[k] : NULL;
		int r = !o ? 1 : !n ? -1 : strcmp(o->id, n->id);

		if (r < 0) {
			rem[nr++] = o;
			i++;
			continue;
		}
		if (r > 0) {
			add[na++] = n;
			k++;
			continue;
		}
		i++;
		k++;
		if (o->levels != n->levels) {
			struct change *c = add_change(d, CH_LEVEL, o, n);

			if (o->documented || n->documented)
				c->why = kmsg_xstrdup("the level of a documented message changed");
		}
		/* an identifier of its own, reworded */
		if (strcmp(o->format, n->format)) {
			struct change *c = add_change(d, CH_REWORDED, o, n);

			c->score = kmsg_diff_similarity(o->format, n->format);
			check_argtypes(d, o, n);
		}
	}
	/* automatic ids only: a curated id is the same message or none */
	ri = kmsg_xcalloc(nr + 1, sizeof(*ri));
	ai = kmsg_xcalloc(na + 1, sizeof(*ai));
	rm = kmsg_xcalloc(nr + 1, sizeof(*rm));
	am = kmsg_xcalloc(na + 1, sizeof(*am));
	for (i = 0; i < nr; i++)
		if (!rem[i]->curated) {
			ri[nri] = (struct kmsg_diff_item){ rem[i]->id,
				rem[i]->comp_len, rem[i]->format };
			rm[nri++] = rem[i];
		}
	for (i = 0; i < na; i++)
		if (!add[i]->curated) {
			ai[nai] = (struct kmsg_diff_item){ add[i]->id,
				add[i]->comp_len, add[i]->format };
			am[nai++] = add[i];
		}
	np = kmsg_diff_pairs(ri, nri, ai, nai, threshold, &pairs);
	for (i = 0; i < np; i++) {
		struct dmsg *o = rm[pairs[i].old], *n = am[pairs[i].new];

		o->paired = n->paired = true;
		add_change(d, CH_REWORDED, o, n)->score = pairs[i].score;
		check_argtypes(d, o, n);
	}
	for (i = 0; i < nr; i++) {
		if (!rem[i]->paired) {
			struct change *c = add_change(d, CH_REMOVED, rem[i], NULL);

			if (rem[i]->alias)
				c->why = kmsg_xprintf("documented as %s",
						      rem[i]->alias);
			else if (rem[i]->documented)
				c->why = kmsg_xstrdup("documented");
		}
	}
	for (i = 0; i < na; i++)
		if (!add[i]->paired)
			add_change(d, CH_ADDED, NULL, add[i]);
	free(pairs);
	free(ri);
	free(ai);
	free(rm);
	free(am);
	free(rem);
	free(add);
}

static const char *change_id(const struct change *c)
{
	return c->old ? c->old->id : c->new->id;
}

static int change_cmp(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(change_id(x), change_id(y));
}

/* ---- output ---- */

static void json_field(struct kmsg_strbuf *sb, const char *name,
		       const char *value)
{
	kmsg_sb_printf(sb, ",\"%s\":", name);
	if (value)
		kmsg_json_str(sb, value, strlen(value));
	else
		kmsg_sb_puts(sb, "null");
}

static void json_msg(struct kmsg_strbuf *sb, const char *pfx,
		     const struct dmsg *m)
{
	char name[32], *lv = kmsg_diff_levels(m->levels);

	snprintf(name, sizeof(name), "%sid", pfx);
	json_field(sb, name, m->id);
	snprintf(name, sizeof(name), "%slevel", pfx);
	json_field(sb, name, lv);
	snprintf(name, sizeof(name), "%sformat", pfx);
	json_field(sb, name, m->format);
	snprintf(name, sizeof(name), "%sfile", pfx);
	json_field(sb, name, m->file);
	snprintf(name, sizeof(name), "%sline", pfx);
	kmsg_sb_printf(sb, ",\"%s\":%d", name, m->line);
	snprintf(name, sizeof(name), "%sfunction", pfx);
	json_field(sb, name, m->function);
	snprintf(name, sizeof(name), "%scurated_id", pfx);
	json_field(sb, name, m->alias);
	snprintf(name, sizeof(name), "%sdocumented", pfx);
	kmsg_sb_printf(sb, ",\"%s\":%s", name, m->documented ? "true" : "false");
	free(lv);
}

static void print_json(const struct change *c)
{
	struct kmsg_strbuf sb = { 0 };
	const struct dmsg *m = c->old ? c->old : c->new;

	kmsg_sb_printf(&sb, "{\"kind\":\"%s\"", kind_names[c->kind]);
	kmsg_sb_puts(&sb, ",\"component\":");
	kmsg_json_str(&sb, m->id, m->comp_len);
	if (c->kind == CH_REMOVED || c->kind == CH_ADDED) {
		json_msg(&sb, "", m);
	} else {
		json_msg(&sb, "old_", c->old);
		json_msg(&sb, "new_", c->new);
	}
	if (c->kind == CH_REWORDED) {
		kmsg_sb_printf(&sb, ",\"similarity\":%u.%03u", c->score / 1000,
			       c->score % 1000);
		json_field(&sb, "proposal", c->proposal);
	}
	if (c->kind == CH_ARGTYPE) {
		json_field(&sb, "old_args", c->oldargs);
		json_field(&sb, "new_args", c->newargs);
	}
	kmsg_sb_printf(&sb, ",\"breaking\":%s", c->why ? "true" : "false");
	json_field(&sb, "reason", c->why);
	kmsg_sb_puts(&sb, "}\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	kmsg_strbuf_free(&sb);
}

static void print_text(const struct change *c)
{
	const struct dmsg *m = c->old ? c->old : c->new;
	char *lo = kmsg_diff_levels(m->levels);
	char *fo = kmsg_escaped(m->format), *fn = NULL, *ln = NULL;

	switch (c->kind) {
	case CH_REMOVED:
	case CH_ADDED:
		printf("%-8s %s %s %s:%d \"%s\"", kind_names[c->kind], m->id, lo,
		       m->file, m->line, fo);
		break;
	case CH_REWORDED:
		fn = kmsg_escaped(c->new->format);
		printf("reworded %s -> %s %u%% \"%s\" -> \"%s\"", c->old->id,
		       c->new->id, c->score / 10, fo, fn);
		break;
	case CH_LEVEL:
		ln = kmsg_diff_levels(c->new->levels);
		printf("level    %s %s -> %s \"%s\"", m->id, lo, ln, fo);
		break;
	case CH_ARGTYPE:
		printf("argtype  %s -> %s \"%s\" -> \"%s\"", c->old->id,
		       c->new->id, c->oldargs, c->newargs);
		break;
	}
	if (c->why)
		printf(" BREAKING: %s", c->why);
	putchar('\n');
	if (c->proposal) {
		fputs(c->proposal, stdout);
		putchar('\n');
	}
	free(lo);
	free(ln);
	free(fo);
	free(fn);
}

static void usage_diff(FILE *f)
{
	fputs("usage: kmsg-doc diff [--json] [--srctree DIR] [--catalog DIR] OLD NEW\n"
	      "  OLD, NEW: a docs database (kmsg-doc build-db), or a build:\n"
	      "  OBJECT[,OBJECT...] as build-db takes them\n", f);
}

int kmsg_doc_diff(int argc, char **argv,
		  int (*build)(char **objects, int n, const char *srctree,
			       const char *catalog, const char *out))
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "srctree", required_argument, NULL, 's' },
		{ "catalog", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct release rel[2] = { { 0 }, { 0 } };
	struct diff d = { 0 };
	const char *srctree = ".", *catalog = NULL;
	int ch, ret = 0, i;
	size_t k;

	optind = 2;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			d.json = true;
			break;
		case 's':
			srctree = optarg;
			break;
		case 'c':
			catalog = optarg;
			break;
		case 'h':
			usage_diff(stdout);
			return 0;
		default:
			usage_diff(stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		fputs("kmsg-doc: diff takes OLD and NEW\n", stderr);
		usage_diff(stderr);
		return 2;
	}
	for (i = 0; i < 2; i++) {
		rel[i].arg = argv[optind + i];
		if (load_release(&rel[i], srctree, catalog, build)) {
			fprintf(stderr, "kmsg-doc: %s\n", rel[i].err);
			ret = 2;
			goto out;
		}
	}
	compare(&d, &rel[0], &rel[1], KMSG_DIFF_THRESHOLD);
	if (d.n > 1)
		qsort(d.v, d.n, sizeof(*d.v), change_cmp);
	/* in order: the numbers of new entries count up per component */
	for (k = 0; k < d.n; k++)
		if (d.v[k].kind == CH_REWORDED)
			propose(&d, &d.v[k], &rel[0], &rel[1]);
	for (k = 0; k < d.n; k++) {
		d.counts[d.v[k].kind]++;
		d.breaking += d.v[k].why != NULL;
		if (d.json)
			print_json(&d.v[k]);
		else
			print_text(&d.v[k]);
	}
	if (!d.json)
		printf("# %zu removed, %zu added, %zu reworded, %zu level changes, %zu argument type changes; %zu breaking\n",
		       d.counts[CH_REMOVED], d.counts[CH_ADDED],
		       d.counts[CH_REWORDED], d.counts[CH_LEVEL],
		       d.counts[CH_ARGTYPE], d.breaking);
	ret = d.breaking ? 1 : 0;
	if (fflush(stdout) || ferror(stdout)) {
		fputs("kmsg-doc: error writing the output\n", stderr);
		ret = 2;
	}
out:
	for (k = 0; k < d.n; k++) {
		free(d.v[k].oldargs);
		free(d.v[k].newargs);
		free(d.v[k].why);
		free(d.v[k].proposal);
	}
	free(d.v);
	free(d.comp);
	release_free(&rel[0]);
	release_free(&rel[1]);
	return ret;
}
