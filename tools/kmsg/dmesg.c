// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg dmesg: the kernel log, from /dev/kmsg or log text, each message
 * identified by the format that printed it
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "kmsg_dmesg.h"
#include "kmsg_docs.h"
#include "kmsg_follow.h"
#include "kmsg_hash.h"
#include "kmsg_json.h"
#include "kmsg_match.h"
#include "kmsg_modrel.h"
#include "kmsg_snap.h"
#include "kmsg.h"

/* A call site of the database, by pattern number */
struct site {
	char *file, *function, *format;
	/* interned (intern()): shared by the sites of an object */
	const char *object;	/* "vmlinux" or the module; "" if not known */
	const char *prefix;	/* the device prefix, NULL if none */
	int line, level;
	char *curated;		/* the identifier documenting it, if any */
	signed char documented;	/* -1: not looked up yet */
	bool looked_up;
	bool cont, newline;
	bool dyndbg;		/* pr_debug(), dev_dbg(), ...: prints if enabled */
	/*
	 * a site beginning a line that KERN_CONT sites continue: those of
	 * its group, conts[cont_at .. cont_at + ncont) of struct dm
	 */
	int cont_at, ncont;
};

/* An input line of the message being read */
struct in_line {
	unsigned long lineno;
	char *raw;		/* the line as read, without newline */
	size_t raw_len;
	struct kmsg_dmesg_line l;	/* parsed from raw */
	bool stamped;		/* header copied: stamp */
	char stamp[64];
};

struct stats {
	unsigned long lines, identified, ambiguous, weak, unidentified;
	unsigned long documented;
};

/* A "Linux version" line of the log: a boot begins */
struct version {
	unsigned long lineno;	/* 0: before the first line (/dev/kmsg) */
	char *release;
	char *banner;		/* the line's text, "" if not known */
};

struct dm {
	struct options *o;
	const char *input;	/* the log, as messages name it */
	struct version *vers;	/* every boot of the log, in order */
	size_t nvers, vcap, next;
	unsigned long before;	/* stamped lines before the first version */
	bool forced;		/* --db FILE or KMSG_DB: that one whatever */
	char *want;		/* the release the lines are of; NULL: none */
	char *release;		/* of the database in use; NULL: none */
	bool stats;
	/* kmsg compare: each message to this instead of the output */
	void (*sink)(void *ctx, const struct dmesg_msg *msg);
	void *sink_ctx;
	struct kmsg_docs *docs;
	struct kmsg_match *m;	/* NULL: no database, lines shown only */
	/*
	 * the snapshot the matcher and the sites were restored from (their
	 * strings are its), NULL if they were built from the database
	 */
	struct kmsg_snap *snap;
	struct site *sites;
	size_t nsites, cap;
	/* the strings many sites share: objects, prefixes (intern()) */
	char **interned;
	size_t ninterned, intern_cap;
	/* the KERN_CONT sites of each chain's group, by pattern number */
	int *conts;
	size_t nconts;
	/* which modules may print a driver's device lines; NULL: no table */
	struct kmsg_modrel *modrel;
	/* the curated ids of the sites, sorted: the "comp.N" a line may print */
	char **curated;
	size_t ncurated, curated_cap;
	struct state st;	/* for print_explain() */
	/* the message being read: its lines and text */
	struct in_line *lines;
	size_t nlines, lcap;
	struct kmsg_strbuf text;
	struct kmsg_strbuf out, scratch;
	unsigned long lineno;
	bool lines_seen, last_record;
	/* lines of the message joined on their timestamp: newlines of a format */
	bool joined;
	struct stats s;
	int err;
	/*
	 * ids looked up in the docs lately, each in the slot of its hash:
	 * a log repeats the "comp.N: " that it prints, a query each time
	 * would cost more than matching the line
	 */
	struct doc_seen {
		char id[KMSG_ID_MAX];
		bool set, yes;
	} *seen;
};

#define DOC_SEEN	256

static void oom(void)
{
	fprintf(stderr, "%s: out of memory\n", prog);
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		oom();
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		oom();
	return p;
}

/*
 * @s, kept once: the object and prefix of 10^5 sites are a few thousand
 * strings (open addressing, at most half full)
 */
static const char *intern(struct dm *d, const char *s)
{
	size_t i;

	if (2 * (d->ninterned + 1) > d->intern_cap) {
		size_t ncap = d->intern_cap ? d->intern_cap * 2 : 8192;
		char **v = calloc(ncap, sizeof(*v));

		if (!v)
			oom();
		for (i = 0; i < d->intern_cap; i++) {
			const char *o = d->interned[i];
			size_t k;

			if (!o)
				continue;
			k = kmsg_fmt_hash(o, strlen(o)) % ncap;
			while (v[k])
				k = (k + 1) % ncap;
			v[k] = d->interned[i];
		}
		free(d->interned);
		d->interned = v;
		d->intern_cap = ncap;
	}
	for (i = kmsg_fmt_hash(s, strlen(s)) % d->intern_cap; d->interned[i];
	     i = (i + 1) % d->intern_cap)
		if (!strcmp(d->interned[i], s))
			return d->interned[i];
	d->ninterned++;
	return d->interned[i] = xstrdup(s);
}

static int add_site(void *ctx, const struct kmsg_doc_site *ds)
{
	struct dm *d = ctx;
	struct site *s;
	int pat, level;

	pat = kmsg_match_add(d->m, ds->id, ds->prefix, ds->format,
			     strlen(ds->format));
	if (pat < 0)
		return pat;
	/*
	 * The printk index records no level for dev_printk(level, ...) with
	 * a level chosen at run time and for dev_warn() alike (build-db
	 * stores 4, printk()'s default, for both): a device site of level 4
	 * may print any level
	 */
	level = ds->level == 4 && ds->prefix ? -1 : ds->level;
	kmsg_match_set_level(d->m, pat, level);
	if ((size_t)pat >= d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 1024;
		struct site *v = realloc(d->sites, ncap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		d->sites = v;
		d->cap = ncap;
	}
	s = &d->sites[pat];
	memset(s, 0, sizeof(*s));
	s->file = xstrdup(ds->file);
	s->function = xstrdup(ds->function);
	s->format = xstrdup(ds->format);
	s->object = intern(d, ds->object);
	s->prefix = ds->prefix ? intern(d, ds->prefix) : NULL;
	s->line = ds->line;
	s->level = level;
	s->documented = -1;
	s->cont = ds->cont;
	s->newline = ds->newline;
	s->dyndbg = !strncmp(ds->kind, "dyndbg", 6);
	d->nsites = pat + 1;
	if (kmsg_id_is_curated(ds->id)) {
		if (d->ncurated == d->curated_cap) {
			size_t ncap = d->curated_cap ? d->curated_cap * 2 : 64;
			char **v = realloc(d->curated, ncap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			d->curated = v;
			d->curated_cap = ncap;
		}
		d->curated[d->ncurated++] = xstrdup(ds->id);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_module(void *ctx, const char *name, const char *depends)
{
	struct dm *d = ctx;

	if (!d->modrel && !(d->modrel = kmsg_modrel_new()))
		return -ENOMEM;
	return kmsg_modrel_add(d->modrel, name, depends);
}

/*
 * The group of site @i for its chains: its object, and its file where
 * known (a line's fragments are printed by one file's code: e820's by
 * e820__print_table() and e820_print_type()), else its function, without
 * the compiler's suffixes (".cold", ".isra.0")
 */
static int cmp_group(const struct dm *d, int a, int b)
{
	const struct site *x = &d->sites[a], *y = &d->sites[b];
	const char *kx = x->file[0] ? x->file : x->function;
	const char *ky = y->file[0] ? y->file : y->function;
	size_t lx = x->file[0] ? strlen(kx) : strcspn(kx, ".");
	size_t ly = y->file[0] ? strlen(ky) : strcspn(ky, ".");
	int r = strcmp(x->object, y->object);

	if (r)
		return r;
	if (!!x->file[0] != !!y->file[0])
		return x->file[0] ? 1 : -1;
	r = memcmp(kx, ky, lx < ly ? lx : ly);
	if (r)
		return r;
	return lx < ly ? -1 : lx > ly;
}

static const struct dm *sort_dm;

static int cmp_group_q(const void *a, const void *b)
{
	int r = cmp_group(sort_dm, *(const int *)a, *(const int *)b);

	return r ? r : *(const int *)a - *(const int *)b;
}

static char *concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = malloc(la + lb + 1);

	if (!p)
		oom();
	memcpy(p, a, la);
	memcpy(p + la, b, lb + 1);
	return p;
}

/* At most so many heads and fragments of a group become whole patterns */
#define CHAIN_HEADS	8
#define CHAIN_CONTS	32

/*
 * The chains: a site that ends without a newline, followed by KERN_CONT
 * sites of its group, prints one line of them all.  Each head gets the
 * group's fragments (identify() follows a line through them) and, for
 * each fragment, a pattern of head and fragment under the head's id: a
 * line of both is the head's message ("Console: switching " and "to %s
 * %s %dx%d" against con_init()'s "Console: %s %s %dx%d").  0 or -ENOMEM.
 */
static int add_chains(struct dm *d)
{
	size_t n = d->nsites, i, j, k, nidx = 0, nconts;
	int *idx = malloc((n + 1) * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	sort_dm = d;
	/* the fragments, by group; then the heads of their groups only */
	for (i = 0; i < n; i++)
		if (d->sites[i].format[0] && d->sites[i].cont)
			idx[nidx++] = (int)i;
	qsort(idx, nidx, sizeof(*idx), cmp_group_q);
	nconts = nidx;
	for (i = 0; i < n && nconts; i++) {
		const struct site *s = &d->sites[i];
		size_t lo = 0, hi = nconts;

		if (!s->format[0] || s->cont || s->newline)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int r = cmp_group(d, (int)i, idx[mid]);

			if (!r) {
				idx[nidx++] = (int)i;
				break;
			}
			if (r < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
	}
	qsort(idx, nidx, sizeof(*idx), cmp_group_q);
	for (i = 0; i < nidx; i = j) {
		size_t heads = 0, conts = 0, at = d->nconts;

		for (j = i; j < nidx && !cmp_group(d, idx[i], idx[j]); j++)
			d->sites[idx[j]].cont ? conts++ : heads++;
		if (!heads || !conts)
			continue;
		d->conts = realloc(d->conts, (d->nconts + conts) * sizeof(*d->conts));
		if (!d->conts)
			oom();
		for (k = i; k < j; k++)
			if (d->sites[idx[k]].cont)
				d->conts[d->nconts++] = idx[k];
		for (k = i; k < j; k++) {
			struct site *h = &d->sites[idx[k]];

			if (h->cont)
				continue;
			h->cont_at = (int)at;
			h->ncont = (int)conts;
		}
		if (heads > CHAIN_HEADS || conts > CHAIN_CONTS)
			continue;
		for (k = i; k < j; k++) {
			int hp = idx[k];
			size_t c;

			if (d->sites[hp].cont)
				continue;
			for (c = at; c < d->nconts; c++) {
				/*
				 * add_site() may move d->sites, not the
				 * strings of a site
				 */
				const struct site *h = &d->sites[hp];
				const struct site *f = &d->sites[d->conts[c]];
				char *fmt = concat(h->format, f->format);
				struct kmsg_doc_site ds = {
					.id = kmsg_match_id(d->m, hp),
					.level = h->level, .format = fmt,
					.prefix = h->prefix, .file = h->file,
					.line = h->line, .function = h->function,
					.newline = true,
					.kind = h->dyndbg ? "dyndbg" : "",
					.object = h->object,
				};
				int ret = add_site(d, &ds);

				/* a line may go on after head and fragment */
				if (!ret) {
					d->sites[d->nsites - 1].cont_at = (int)at;
					d->sites[d->nsites - 1].ncont = (int)conts;
				}
				free(fmt);
				if (ret) {
					free(idx);
					return ret;
				}
			}
		}
	}
	free(idx);
	return 0;
}

/*
 * Snapshots (kmsg_snap.h): the sites and the matcher built over them,
 * kept for the database file in the user's cache directory, so that the
 * next run maps them (tens of milliseconds) instead of reading every
 * site from SQLite and building the matcher again (half a second for a
 * distribution kernel's database)
 */
enum {
	SNAP_SITES = 0x444d5301,
	SNAP_SITE_STR,
	SNAP_CONTS,
	SNAP_CURATED,
};

#define SNAP_NONE	UINT32_MAX
/* a database of fewer sites loads in a few milliseconds: none for it */
#define SNAP_MIN_SITES	20000

/* a site's strings, offsets in the snapshot's pool (prefix: SNAP_NONE) */
struct site_str {
	uint32_t file, function, format, object, prefix;
};

/*
 * What a snapshot is made of: the layouts of its arrays, and this very
 * build of kmsg (a rebuilt matcher may build another index)
 */
static uint64_t snap_sig(void)
{
	uint64_t sig = kmsg_match_snap_sig() ^ (uint64_t)sizeof(struct site) << 40;
	struct stat st;

	/* no /proc: which build this is is not known, no snapshots */
	if (stat("/proc/self/exe", &st))
		return 0;
	sig ^= ((uint64_t)st.st_ino * 0x9e3779b97f4a7c15ull) ^
	       ((uint64_t)st.st_mtim.tv_sec << 20) ^
	       (uint64_t)st.st_mtim.tv_nsec ^ ((uint64_t)st.st_size << 8);
	return sig ? sig : 1;
}

/*
 * Save the sites and the matcher read from the database as it was at
 * @id, unless it changed since (a database installed over it)
 */
static void save_snap(struct dm *d, const struct kmsg_snap_id *id)
{
	const char *db = kmsg_docs_path(d->docs);
	uint64_t sig = snap_sig();
	struct kmsg_snap_id now;
	struct kmsg_snap_writer *w;
	struct site_str *ss;
	struct site *sites;
	uint32_t *cur;
	char path[PATH_MAX];
	size_t i;

	if (d->nsites < SNAP_MIN_SITES || !sig || !kmsg_snap_id(db, &now) ||
	    memcmp(&now, id, sizeof(now)) || !kmsg_snap_path(db, path, sizeof(path)))
		return;
	w = kmsg_snap_writer_new();
	sites = xcalloc(d->nsites + 1, sizeof(*sites));
	ss = xcalloc(d->nsites + 1, sizeof(*ss));
	cur = xcalloc(d->ncurated + 1, sizeof(*cur));
	for (i = 0; i < d->nsites; i++) {
		const struct site *s = &d->sites[i];

		sites[i] = *s;
		sites[i].file = sites[i].function = sites[i].format = NULL;
		sites[i].object = sites[i].prefix = NULL;
		sites[i].curated = NULL;
		sites[i].documented = -1;
		sites[i].looked_up = false;
		ss[i].file = kmsg_snap_str(w, s->file);
		ss[i].function = kmsg_snap_str(w, s->function);
		ss[i].format = kmsg_snap_str(w, s->format);
		ss[i].object = kmsg_snap_str(w, s->object);
		ss[i].prefix = s->prefix ? kmsg_snap_str(w, s->prefix) : SNAP_NONE;
	}
	for (i = 0; i < d->ncurated; i++)
		cur[i] = kmsg_snap_str(w, d->curated[i]);
	if (!kmsg_match_snap_save(d->m, w)) {
		kmsg_snap_add(w, SNAP_SITES, sites, d->nsites, sizeof(*sites));
		kmsg_snap_add(w, SNAP_SITE_STR, ss, d->nsites, sizeof(*ss));
		kmsg_snap_add(w, SNAP_CONTS, d->conts, d->nconts, sizeof(*d->conts));
		kmsg_snap_add(w, SNAP_CURATED, cur, d->ncurated, sizeof(*cur));
		kmsg_snap_write(w, path, db, id, sig);
	}
	free(sites);
	free(ss);
	free(cur);
	kmsg_snap_writer_free(w);
}

/* Is the bool at @b, read from a file, 0 or 1? */
static bool snap_bool(const bool *b)
{
	return *(const unsigned char *)b <= 1;
}

/* The sites and the matcher from the snapshot of database @id: true if so */
static bool load_snap(struct dm *d, const struct kmsg_snap_id *id)
{
	const char *db = kmsg_docs_path(d->docs);
	const struct site_str *ss;
	const struct site *sites;
	const uint32_t *cur;
	const int *conts;
	char path[PATH_MAX];
	size_t n, nss, nc, ncur, i;
	struct kmsg_snap *s;
	struct kmsg_match *m;

	uint64_t sig = snap_sig();

	if (!sig || !kmsg_snap_path(db, path, sizeof(path)) ||
	    !(s = kmsg_snap_open(path, id, sig)))
		return false;
	m = kmsg_match_snap_load(s);
	sites = kmsg_snap_get(s, SNAP_SITES, sizeof(*sites), &n);
	ss = kmsg_snap_get(s, SNAP_SITE_STR, sizeof(*ss), &nss);
	conts = kmsg_snap_get(s, SNAP_CONTS, sizeof(*conts), &nc);
	cur = kmsg_snap_get(s, SNAP_CURATED, sizeof(*cur), &ncur);
	if (!m || !sites || !ss || !conts || !cur || nss != n ||
	    n != kmsg_match_count(m) || n > INT_MAX || nc > INT_MAX)
		goto bad;
	d->sites = xcalloc(n + 1, sizeof(*d->sites));
	d->nsites = d->cap = n;
	for (i = 0; i < n; i++) {
		struct site *t = &d->sites[i];

		if (!snap_bool(&sites[i].cont) || !snap_bool(&sites[i].newline) ||
		    !snap_bool(&sites[i].dyndbg))
			goto bad;
		memcpy(t, &sites[i], sizeof(*t));
		t->looked_up = false;
		t->documented = -1;
		t->file = (char *)kmsg_snap_string(s, ss[i].file);
		t->function = (char *)kmsg_snap_string(s, ss[i].function);
		t->format = (char *)kmsg_snap_string(s, ss[i].format);
		t->object = kmsg_snap_string(s, ss[i].object);
		t->prefix = ss[i].prefix == SNAP_NONE ? NULL :
			    kmsg_snap_string(s, ss[i].prefix);
		t->curated = NULL;
		if (!t->file || !t->function || !t->format || !t->object ||
		    (ss[i].prefix != SNAP_NONE && !t->prefix) ||
		    t->level < -1 || t->level > 7 ||
		    (t->ncont && !t->format[0]) ||
		    t->cont_at < 0 || t->ncont < 0 || (size_t)t->cont_at > nc ||
		    (size_t)t->ncont > nc - (size_t)t->cont_at)
			goto bad;
	}
	d->conts = xcalloc(nc + 1, sizeof(*d->conts));
	for (i = 0; i < nc; i++) {
		/* a chain's fragments have text (add_chains()) */
		if (conts[i] < 0 || (size_t)conts[i] >= n ||
		    !d->sites[conts[i]].format[0])
			goto bad;
		d->conts[i] = conts[i];
	}
	d->nconts = nc;
	d->curated = xcalloc(ncur + 1, sizeof(*d->curated));
	d->curated_cap = ncur + 1;
	for (i = 0; i < ncur; i++) {
		d->curated[i] = (char *)kmsg_snap_string(s, cur[i]);
		if (!d->curated[i])
			goto bad;
		d->ncurated = i + 1;
		if (i && strcmp(d->curated[i - 1], d->curated[i]) > 0)
			goto bad;
	}
	d->m = m;
	d->snap = s;
	return true;
bad:
	kmsg_match_free(m);
	free(d->sites);
	d->sites = NULL;
	d->nsites = d->cap = 0;
	free(d->conts);
	d->conts = NULL;
	d->nconts = 0;
	free(d->curated);
	d->curated = NULL;
	d->ncurated = d->curated_cap = 0;
	kmsg_snap_close(s);
	return false;
}

/* The matcher over every site of the database: 0 or -1 with a message */
static int load_sites(struct dm *d)
{
	struct kmsg_snap_id id;
	bool have_id = kmsg_snap_id(kmsg_docs_path(d->docs), &id);
	int ret;

	if (have_id && load_snap(d, &id)) {
		ret = kmsg_docs_modules(d->docs, add_module, d);
		if (ret == -ENOMEM)
			oom();
		if (ret) {
			fprintf(stderr, "%s: %s\n", prog, kmsg_docs_errmsg(d->docs));
			return -1;
		}
		return 0;
	}
	d->m = kmsg_match_new();
	if (!d->m)
		oom();
	ret = kmsg_docs_sites(d->docs, add_site, d);
	if (!ret)
		ret = add_chains(d);
	if (!ret)
		ret = kmsg_docs_modules(d->docs, add_module, d);
	if (ret == -ENOMEM || (!ret && kmsg_match_build(d->m)))
		oom();
	if (d->ncurated)
		qsort(d->curated, d->ncurated, sizeof(*d->curated), cmp_str);
	if (ret) {
		fprintf(stderr, "%s: %s\n", prog, kmsg_docs_errmsg(d->docs));
		return -1;
	}
	if (have_id)
		save_snap(d, &id);
	return 0;
}

/* The curated identifier of site @pat's automatic id, and its docs */
static struct site *site_of(struct dm *d, int pat)
{
	struct site *s = &d->sites[pat];
	const char *id = kmsg_match_id(d->m, pat);
	char curated[KMSG_ID_MAX];
	struct kmsg_doc doc;

	if (s->looked_up)
		return s;
	s->looked_up = true;
	if (kmsg_id_is_auto(id) &&
	    !kmsg_docs_curated_for_auto(d->docs, id, curated, sizeof(curated)))
		s->curated = xstrdup(curated);
	if (!kmsg_docs_get(d->docs, s->curated ? s->curated : id, &doc)) {
		s->documented = 1;
		kmsg_doc_free(&doc);
	} else {
		s->documented = 0;
	}
	return s;
}

/* The identifier a site goes by: the curated one where there is one */
static const char *id_of(struct dm *d, int pat)
{
	struct site *s = site_of(d, pat);

	return s->curated ? s->curated : kmsg_match_id(d->m, pat);
}

/* Is @id documented in the database? */
static bool in_docs(struct dm *d, const char *id)
{
	size_t len = strlen(id), i;
	struct doc_seen *c = NULL;
	struct kmsg_doc doc;
	uint32_t h = 0x811c9dc5;
	int rc;

	if (!d->docs)
		return false;
	if (len < KMSG_ID_MAX) {
		if (!d->seen)
			d->seen = calloc(DOC_SEEN, sizeof(*d->seen));
		if (!d->seen)
			oom();
		for (i = 0; i < len; i++)
			h = (h ^ (unsigned char)id[i]) * 0x01000193;
		c = &d->seen[h % DOC_SEEN];
		if (c->set && !strcmp(c->id, id))
			return c->yes;
	}
	rc = kmsg_docs_get(d->docs, id, &doc);
	if (!rc)
		kmsg_doc_free(&doc);
	/* found or not (1), not an error: that may pass */
	if (c && rc >= 0) {
		memcpy(c->id, id, len + 1);
		c->set = true;
		c->yes = !rc;
	}
	return !rc;
}

/* Is @id an identifier of the database: a site's, or a documented one? */
static bool known_id(struct dm *d, const char *id)
{
	const char *key = id;

	if (d->ncurated && bsearch(&key, d->curated, d->ncurated,
				   sizeof(*d->curated), cmp_str))
		return true;
	return in_docs(d, id);
}

/*
 * "comp.N: " in @text, at its start or after ": " (device messages), that
 * is an identifier of the database: "ata1.00: " or "eth0.100: " print a
 * device's name, not an id
 */
static bool find_id(struct dm *d, const char *text, size_t len, char *id,
		    size_t size)
{
	const char *p = text, *q, *end = text + len;

	for (;;) {
		q = p;
		while (q < end && ((*q >= 'a' && *q <= 'z') ||
				   (*q >= 'A' && *q <= 'Z') ||
				   (*q >= '0' && *q <= '9') || *q == '_' ||
				   *q == '-'))
			q++;
		if (q > p && q + 1 < end && *q == '.' && q[1] >= '0' &&
		    q[1] <= '9') {
			const char *e = q + 1;

			while (e < end && *e >= '0' && *e <= '9')
				e++;
			if (e + 1 < end && e[0] == ':' && e[1] == ' ' &&
			    (size_t)(e - p) < size) {
				snprintf(id, size, "%.*s", (int)(e - p), p);
				if (known_id(d, id))
					return true;
			}
		}
		p = memmem(p, end - p, ": ", 2);
		if (!p) {
			id[0] = '\0';
			return false;
		}
		p += 2;
	}
}

/*
 * What a message was identified as: one site (exact), sites that tie
 * (ambiguous), sites with too little literal text of their own to tell
 * (weak: candidates, not an identification), none (unidentified), or the
 * "comp.N: " the text prints (printed)
 */
struct ident {
	struct kmsg_match_result r;
	int n;			/* different identifiers */
	bool weak;
	const char *ids[KMSG_MATCH_CAND_MAX];
	int pats[KMSG_MATCH_CAND_MAX];
	char printed[KMSG_ID_MAX];	/* found in the text only */
};

/* Identified: one site or the id printed, never a weak match */
static bool exact(const struct ident *id)
{
	return id->n == 1 && !id->weak;
}

static const char *match_kind(const struct ident *id)
{
	if (id->printed[0])
		return "printed";
	if (!id->n)
		return "unidentified";
	if (id->weak)
		return "weak";
	return id->n > 1 ? "ambiguous" : "exact";
}

/*
 * Budget of kmsg_match_end() calls to follow one line's fragments, and
 * fragments at most: "pcpu-alloc: [0] 000 001 ..." has one per CPU
 */
#define FOLLOW_STEPS	2048
#define FOLLOW_DEPTH	512

/* Has @fmt a conversion that prints any text: "%s", "%*s", "%pV"? */
static bool prints_any(const char *fmt)
{
	for (; *fmt; fmt++) {
		if (*fmt != '%')
			continue;
		fmt++;
		while (*fmt && strchr("-+ #0123456789.*hlLzjt", *fmt))
			fmt++;
		if (*fmt == 's' || *fmt == 'p')
			return true;
		if (!*fmt)
			break;
	}
	return false;
}

/*
 * Does @t (@n bytes) read as fragments of @head's group, one after the
 * other, the last to its end?  The space a fragment (or the head) ends
 * in was dropped from its pattern, as a log may trim it: @space skips it.
 */
static bool follow_conts(struct dm *d, const struct site *head, const char *t,
			 size_t n, bool space, int depth, int *steps)
{
	const char *q;
	bool sp;
	int i;

	while (space && n && *t == ' ') {
		t++;
		n--;
	}
	if (!n)
		return depth > 0;
	if (depth >= FOLLOW_DEPTH)
		return false;
	for (i = 0; i < head->ncont; i++) {
		int c = d->conts[head->cont_at + i];
		const char *f = d->sites[c].format;
		long e;

		if (--*steps < 0)
			return false;
		/* a fragment of no text of its own ("%s") fits any rest */
		if (!kmsg_match_evidence(d->m, c) && prints_any(f))
			continue;
		sp = f[strlen(f) - 1] == ' ';
		e = kmsg_match_end(d->m, c, t, n);
		/*
		 * one ending in a space it lost, after a conversion ("%0*d "),
		 * matches no beginning: the text up to the next space
		 */
		if (e < 0 && sp && (q = memchr(t, ' ', n)) &&
		    kmsg_match_end(d->m, c, t, q - t) == q - t)
			e = q - t;
		if (e == (long)n ||
		    (e > 0 && follow_conts(d, head, t + e, n - e, sp, depth + 1,
					   steps)))
			return true;
	}
	return false;
}

/* A line of user space in the kernel log: "name[pid]: " first */
static bool user_space_shaped(const char *t, size_t n)
{
	size_t i = 0, j;

	while (i < n && t[i] != '[' && t[i] != ' ' && t[i] != ':')
		i++;
	if (!i || i >= n || t[i] != '[')
		return false;
	for (j = i + 1; j < n && t[j] >= '0' && t[j] <= '9'; j++)
		;
	return j > i + 1 && j + 2 < n && t[j] == ']' && t[j + 1] == ':' &&
	       t[j + 2] == ' ';
}

/* Does the format print "[pid]: " with a conversion: "%s[%d]: " */
static bool prints_pid(const char *fmt)
{
	const char *p = strstr(fmt, "[%");

	return p && p[2] && strchr("diu", p[2]) && p[3] == ']' && p[4] == ':';
}

/*
 * What the matcher cannot know of a line, applied to its result:
 *
 *  - a device line's driver rules out a site of a module that is neither
 *    that driver nor related to it by dependencies (kmsg_modrel.h);
 *  - a match of a line's beginning only is the message only when the
 *    rest reads as fragments that continue it (pr_cont()), else weak;
 *  - a format whose first conversion swallowed a tag ("%s initialized"
 *    of "Bluetooth: HCI socket layer initialized") is weak: the line is
 *    another subsystem's; so is a module's format whose first conversion
 *    swallowed words ("%s version %s loaded", mpt3sas's own name, of
 *    "v4l2loopback driver version 0.12.7 loaded", a module of no
 *    database);
 *  - a dynamic debug site identifies a line only where the log tells
 *    its level: debug output is off unless someone enabled it;
 *  - a line of log text shaped as user space's ("systemd[1]: ...") is
 *    user space's, unless the format prints that "[pid]: " itself.
 */
static void refine(struct dm *d, const char *text, size_t len, int level,
		   struct ident *id)
{
	static struct kmsg_args args;
	const struct site *s;
	struct kmsg_span drv;
	int i, k = 0, stored = 0, steps = FOLLOW_STEPS;

	if (d->modrel && !id->r.wrapped) {
		/* ids[] lists some of the id->n that tied: the others count */
		while (stored < KMSG_MATCH_CAND_MAX && id->ids[stored])
			stored++;
		for (i = 0; i < stored; i++) {
			int pat = id->pats[i];

			if (!kmsg_match_args(d->m, pat, text, len, id->r.partial,
					     &args, &drv, NULL) &&
			    drv.len &&
			    !kmsg_modrel_allows(d->modrel, drv.s, drv.len,
						d->sites[pat].object))
				continue;
			id->ids[k] = id->ids[i];
			id->pats[k++] = pat;
		}
		for (i = k; i < stored; i++)
			id->ids[i] = NULL;
		/* none left of those listed: none to name, whatever else tied */
		id->n = k ? k + (id->n - stored) : 0;
	}
	if (!id->n || id->weak || id->n > 1 || id->r.wrapped)
		return;
	if (id->r.partial) {
		const struct site *h = &d->sites[id->pats[0]];
		long e = h->ncont ? kmsg_match_end(d->m, id->pats[0], text, len) : -1;

		if (e <= 0 || !follow_conts(d, h, text + e, len - e,
					    h->format[strlen(h->format) - 1] == ' ',
					    0, &steps))
			id->weak = true;
		return;
	}
	/*
	 * a dynamic debug site prints only where someone enabled it: a line
	 * of unknown level that it fits may be any other message
	 */
	if (level < 0 && d->sites[id->pats[0]].dyndbg) {
		id->weak = true;
		return;
	}
	if (level < 0 && user_space_shaped(text, len) &&
	    !prints_pid(d->sites[id->pats[0]].format)) {
		id->n = 0;
		return;
	}
	s = &d->sites[id->pats[0]];
	if (s->format[0] == '%' && s->format[1] != '%' &&
	    !kmsg_match_args(d->m, id->pats[0], text, len, false, &args, NULL,
			     NULL) &&
	    args.n && (args.v[0].type == KMSG_ARG_STRING ||
		       args.v[0].type == KMSG_ARG_RENDERED) &&
	    (memmem(args.v[0].str, args.v[0].str_len, ": ", 2) ||
	     (!s->prefix && d->modrel && strcmp(s->object, "vmlinux") &&
	      memchr(args.v[0].str, ' ', args.v[0].str_len))))
		id->weak = true;
}

static void identify(struct dm *d, const char *text, size_t len, int level,
		     struct ident *id)
{
	int i, j;

	memset(id, 0, sizeof(*id));
	if (d->m) {
		if (kmsg_match_line(d->m, text, len, level,
				    d->joined ? KMSG_MATCH_NL_LITERAL : 0,
				    &id->r))
			oom();
		id->weak = id->r.weak;
		/* tied sites documented under one identifier are one */
		for (i = 0; i < id->r.n; i++) {
			const char *x = id_of(d, id->r.pat[i]);

			for (j = 0; j < id->n && strcmp(id->ids[j], x); j++)
				;
			if (j == id->n) {
				id->ids[id->n] = x;
				id->pats[id->n++] = id->r.pat[i];
			}
		}
		if (id->r.total > id->r.n)
			id->n += id->r.total - id->r.n;
		if (id->n)
			refine(d, text, len, level, id);
	}
	if ((!id->n || id->weak) &&
	    find_id(d, text, len, id->printed, sizeof(id->printed))) {
		id->n = 1;
		id->weak = false;
	}
}

static bool documented(struct dm *d, const struct ident *id)
{
	if (!exact(id))
		return false;
	if (!id->printed[0])
		return site_of(d, id->pats[0])->documented == 1;
	return in_docs(d, id->printed);
}

static void put_json_str(struct kmsg_strbuf *o, const char *s, size_t len)
{
	if (kmsg_json_str(o, s ? s : "", s ? len : 0))
		oom();
}

static void put(struct kmsg_strbuf *o, const char *s)
{
	if (kmsg_strbuf_puts(o, s))
		oom();
}

static void put_source(struct dm *d, struct kmsg_strbuf *o, int pat)
{
	const struct site *s = &d->sites[pat];

	put(o, "{\"file\":");
	put_json_str(o, s->file, strlen(s->file));
	if (kmsg_strbuf_printf(o, ",\"line\":%d,\"function\":", s->line) < 0)
		oom();
	put_json_str(o, s->function, strlen(s->function));
	put(o, "}");
}

/* One JSON object for input line @il of a message identified as @id */
static void json_line(struct dm *d, const struct in_line *il,
		      const struct in_line *first, const char *text,
		      size_t text_len, const struct ident *id)
{
	struct kmsg_strbuf *o = &d->out;
	/* a message's lines have one level; each line says its own */
	int level = il->l.level;
	int i, pat = exact(id) && !id->printed[0] ? id->pats[0] : -1;

	o->len = 0;
	if (pat >= 0 && level < 0)
		level = d->sites[pat].level;
	if (kmsg_strbuf_printf(o, "{\"line\":%lu,", il->lineno) < 0)
		oom();
	if (il->l.record &&
	    kmsg_strbuf_printf(o, "\"seq\":%llu,\"timestamp\":%llu.%06llu,",
			       il->l.seq, il->l.ts / 1000000,
			       il->l.ts % 1000000) < 0)
		oom();
	if (il != first &&
	    kmsg_strbuf_printf(o, "\"continues\":%lu,", first->lineno) < 0)
		oom();
	put(o, "\"text\":");
	put_json_str(o, text, text_len);
	if (level >= 0 &&
	    kmsg_strbuf_printf(o, ",\"level\":%d,\"level_name\":\"%s\"", level,
			       kmsg_level_name(level)) < 0)
		oom();
	if (kmsg_strbuf_printf(o, ",\"match\":\"%s\"", match_kind(id)) < 0)
		oom();
	/* the kernel release of the database that identified it */
	if (d->release && d->release[0]) {
		put(o, ",\"database\":");
		put_json_str(o, d->release, strlen(d->release));
	}
	if (exact(id)) {
		const char *x = id->printed[0] ? id->printed : id->ids[0];

		put(o, ",\"id\":");
		put_json_str(o, x, strlen(x));
	}
	if (pat >= 0) {
		const char *a = kmsg_match_id(d->m, pat);

		if (kmsg_id_is_auto(a)) {
			put(o, ",\"auto_id\":");
			put_json_str(o, a, strlen(a));
		}
		put(o, ",\"format\":");
		put_json_str(o, d->sites[pat].format, strlen(d->sites[pat].format));
		put(o, ",\"source\":");
		put_source(d, o, pat);
		if (id->r.partial)
			put(o, ",\"partial\":true");
		if (kmsg_strbuf_printf(o, ",\"documented\":%s",
				       documented(d, id) ? "true" : "false") < 0)
			oom();
	}
	if (id->n > 1 && !id->weak &&
	    kmsg_strbuf_printf(o, ",\"ambiguous\":%d", id->n) < 0)
		oom();
	if ((id->n > 1 || id->weak) && !id->printed[0]) {
		put(o, ",\"candidates\":[");
		for (i = 0; i < id->r.n && i < id->n; i++) {
			const char *x = id->ids[i];

			if (!x)
				break;
			put(o, i ? ",{\"id\":" : "{\"id\":");
			put_json_str(o, x, strlen(x));
			put(o, ",\"source\":");
			put_source(d, o, id->pats[i]);
			put(o, "}");
		}
		put(o, "]");
	}
	/* the arguments of the whole message, with its first line */
	if (pat >= 0 && il == first) {
		const char *msg = d->text.buf ? d->text.buf : "";
		struct kmsg_span drv, dev;
		struct kmsg_args args;

		size_t off = id->r.wrapped ? id->r.inner_off : 0;
		size_t len = id->r.wrapped ? id->r.inner_len : d->text.len;

		if (id->r.wrapped) {
			const char *w = kmsg_match_id(d->m, id->r.wrapper);

			put(o, ",\"wrapper\":");
			put_json_str(o, w, strlen(w));
		}
		if (!kmsg_match_args(d->m, pat, msg + off, len,
				     id->r.partial && !id->r.wrapped, &args,
				     &drv, &dev)) {
			put(o, ",\"args\":");
			if (kmsg_json_args(o, &args))
				oom();
			if (dev.s) {
				put(o, ",\"device\":");
				put_json_str(o, dev.s, dev.len);
				put(o, ",\"driver\":");
				put_json_str(o, drv.s, drv.len);
			}
		}
	}
	put(o, "}");
	printf("%s\n", o->buf);
}

/* "-- ID = AUTO_ID at FILE:LINE FUNCTION()" after a message's lines */
static void text_ident(struct dm *d, const struct ident *id)
{
	const struct site *s;
	const char *a;
	int i;

	if (id->printed[0]) {
		printf("-- %s\n", id->printed);
		return;
	}
	if (!id->n) {
		printf("-- unidentified\n");
		return;
	}
	/*
	 * candidates, not an identification: as "match" and "candidates"
	 * of --json
	 */
	if (id->weak || id->n > 1) {
		printf("-- %s (%d):", id->weak ? "weak" : "ambiguous", id->n);
		for (i = 0; i < id->n && i < KMSG_MATCH_CAND_MAX && id->ids[i];
		     i++)
			printf(" %s", id->ids[i]);
		printf("\n");
		return;
	}
	s = &d->sites[id->pats[0]];
	a = kmsg_match_id(d->m, id->pats[0]);
	printf("-- %s", id->ids[0]);
	if (strcmp(a, id->ids[0]))
		printf(" = %s", a);
	/* a stock kernel's module sites know their function, not their line */
	if (s->file[0])
		printf(" at %s:%d", s->file, s->line);
	else if (s->function[0])
		printf(" in");
	if (s->function[0])
		printf(" %s()", s->function);
	printf("%s\n", id->r.partial ? ", continued" : "");
}

static void count(struct dm *d, const struct ident *id, size_t lines)
{
	d->s.lines += lines;
	if (!id->n)
		d->s.unidentified += lines;
	else if (id->weak)
		d->s.weak += lines;
	else if (id->n > 1)
		d->s.ambiguous += lines;
	else
		d->s.identified += lines;
	if (documented(d, id))
		d->s.documented += lines;
}

/* Lines of source shown, the call site's last, and bytes of each */
#define SOURCE_BEFORE	5
#define SOURCE_WIDTH	160

/*
 * The lines of @file (relative to @tree, the kernel's source) before and
 * at @line, the call site: what led to an undocumented message.  The
 * database is untrusted: an absolute path or one with ".." is not read,
 * and what the file holds reaches the terminal as printable text only.
 */
static void print_source(const char *tree, const char *file, int line)
{
	char ring[SOURCE_BEFORE + 1][SOURCE_WIDTH + 1], path[PATH_MAX];
	int n = 0, i, c, len = 0;
	FILE *f;

	if (!tree || !*file || *file == '/' || strstr(file, "..") ||
	    line <= 0 || line > 10000000 ||
	    snprintf(path, sizeof(path), "%s/%s", tree, file) >= (int)sizeof(path))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (n < line && (c = getc(f)) != EOF) {
		char *r = ring[n % (SOURCE_BEFORE + 1)];

		if (c == '\n') {
			r[len] = 0;
			n++;
			len = 0;
			continue;
		}
		if (len < SOURCE_WIDTH)
			r[len++] = c == '\t' ? ' ' : (c < ' ' || c >= 0x7f) ? '?' : c;
	}
	fclose(f);
	if (n < line)
		return;
	printf("-- source: %s:%d\n", file, line);
	for (i = line > SOURCE_BEFORE ? line - SOURCE_BEFORE : 0; i < line; i++)
		printf("-- %c%6d  %s\n", i + 1 == line ? '>' : ' ', i + 1,
		       ring[i % (SOURCE_BEFORE + 1)]);
}

/*
 * The identification after a message's first line, with -x its docs; for
 * one not documented, its call site's source where the tree is known
 * (--srctree, KMSG_SRCTREE)
 */
static void text_trailer(struct dm *d, const struct ident *id)
{
	const char *tree = d->o->srctree ? d->o->srctree : getenv("KMSG_SRCTREE");

	if (d->m)
		text_ident(d, id);
	if (!d->o->explain || !exact(id))
		return;
	print_explain(&d->st, id->printed[0] ? id->printed : id->ids[0]);
	if (!id->printed[0] && tree && *tree && !documented(d, id))
		print_source(tree, d->sites[id->pats[0]].file,
			     d->sites[id->pats[0]].line);
}

/*
 * The message of the lines read so far: identified and shown, its
 * identification under its first line (which an analyzer reading the
 * text takes it for), each further line marked as such
 */
static void flush(struct dm *d)
{
	struct in_line *first = d->lines;
	bool trailer = !d->stats && !d->o->json && (d->m || d->o->explain);
	struct ident id;
	size_t i;

	if (!d->nlines)
		return;
	/* a program's record (user facility, say): no kernel site printed it */
	if (first->l.facility > 0)
		memset(&id, 0, sizeof(id));
	else
		identify(d, d->text.buf ? d->text.buf : "", d->text.len,
			 first->l.level, &id);
	count(d, &id, d->nlines);
	if (d->sink) {
		struct dmesg_msg msg = {
			.id = exact(&id) ? (id.printed[0] ? id.printed : id.ids[0]) : NULL,
			.text = d->text.buf ? d->text.buf : "",
			.len = d->text.len,
			.level = first->l.level,
			.kernel = first->l.facility <= 0,
		};

		if (msg.level < 0 && exact(&id) && !id.printed[0])
			msg.level = d->sites[id.pats[0]].level;
		d->sink(d->sink_ctx, &msg);
	}
	for (i = 0; i < d->nlines && !d->stats && !d->sink; i++) {
		struct in_line *il = &d->lines[i];
		const char *t = il->l.text;
		size_t tl = il->l.text_len;

		d->scratch.len = 0;
		if (il->l.record) {
			/* a record's text is shown as it reads, unescaped */
			if (kmsg_dmesg_unescape(&d->scratch, t, tl))
				oom();
			t = d->scratch.buf ? d->scratch.buf : "";
			tl = d->scratch.len;
		}
		if (d->o->json) {
			json_line(d, il, first, t, tl, &id);
			continue;
		}
		d->out.len = 0;
		if (il->l.record)
			printf("[%5llu.%06llu] %-6s ", il->l.ts / 1000000,
			       il->l.ts % 1000000,
			       kmsg_level_name(il->l.pri & 7));
		if (kmsg_dmesg_escape(&d->out, il->l.record ? t : il->raw,
				      il->l.record ? tl : il->raw_len))
			oom();
		printf("%s\n", d->out.buf ? d->out.buf : "");
		if (trailer && i == 0)
			text_trailer(d, &id);
		else if (trailer && d->m)
			printf("-- (continues the message above)\n");
	}
	for (i = 0; i < d->nlines; i++)
		free(d->lines[i].raw);
	d->nlines = 0;
	d->text.len = 0;
	d->joined = false;
}

static void append_text(struct dm *d, const struct kmsg_dmesg_line *l,
			bool newline)
{
	if (newline && kmsg_strbuf_putc(&d->text, '\n'))
		oom();
	if (l->record ? kmsg_dmesg_unescape(&d->text, l->text, l->text_len) :
			kmsg_strbuf_putn(&d->text, l->text, l->text_len))
		oom();
}

static struct in_line *add_line(struct dm *d, const char *line, size_t len)
{
	struct in_line *il;

	if (d->nlines == d->lcap) {
		size_t ncap = d->lcap ? d->lcap * 2 : 8;
		struct in_line *v = realloc(d->lines, ncap * sizeof(*v));

		if (!v)
			oom();
		d->lines = v;
		d->lcap = ncap;
	}
	il = &d->lines[d->nlines++];
	memset(il, 0, sizeof(*il));
	il->lineno = d->lineno;
	il->raw = malloc(len + 1);
	if (!il->raw)
		oom();
	memcpy(il->raw, line, len);
	il->raw[len] = '\0';
	il->raw_len = len;
	kmsg_dmesg_parse(il->raw, len, &il->l);
	if (il->l.stamp && il->l.stamp_len < sizeof(il->stamp)) {
		memcpy(il->stamp, il->l.stamp, il->l.stamp_len);
		il->stamped = true;
	}
	return il;
}

/*
 * Does the line continue the message before it: a format's own newline
 * between them (kmsg_match_joins())?
 */
static bool joins(struct dm *d, const struct kmsg_dmesg_line *l)
{
	int level = l->level, yes;
	size_t i;

	if (!d->m || !d->nlines || l->facility > 0)
		return false;
	/* the lines of one record have its level (and facility) */
	for (i = 0; i < d->nlines; i++) {
		const struct kmsg_dmesg_line *o = &d->lines[i].l;

		if (o->facility > 0 ||
		    (o->level >= 0 && level >= 0 && o->level != level))
			return false;
		if (o->level >= 0)
			level = o->level;
	}
	yes = kmsg_match_joins(d->m, d->text.buf ? d->text.buf : "",
			       d->text.len, l->text, l->text_len, level);
	if (yes < 0)
		oom();
	if (yes)
		d->joined = true;
	return yes;
}

/*
 * One line of /dev/kmsg ("pri,seq,ts,flags;text") or of log text, of
 * @len bytes. A message goes on over indented lines with no timestamp
 * after one with a timestamp (dmesg, journalctl), and over lines with the
 * same timestamp that match only together (the kernel prints each line of
 * a message with its timestamp).
 */
static void dmesg_line(struct dm *d, const char *line, size_t len)
{
	struct kmsg_dmesg_line l;
	const struct in_line *prev = d->nlines ? &d->lines[0] : NULL;
	size_t prev_head = prev ? prev->l.text - prev->raw : 0;
	struct in_line *il;
	bool cont = false;

	d->lineno++;
	if (len && line[len - 1] == '\n')
		len--;
	/* a serial console's CRLF */
	if (len && line[len - 1] == '\r')
		len--;
	kmsg_dmesg_parse(line, len, &l);
	/* a record's dictionary; after text, an indented line */
	if (l.dict && (d->last_record || !d->lines_seen))
		return;
	d->lines_seen = true;
	d->last_record = l.record;
	if (prev && !prev->l.record && !l.record) {
		/* dmesg and journalctl indent a message's further lines */
		if (l.dict && prev->stamped)
			cont = true;
		else if (l.stamp && prev->stamped &&
			 l.stamp_len == strlen(prev->stamp) &&
			 !memcmp(l.stamp, prev->stamp, l.stamp_len))
			cont = joins(d, &l);
	}
	if (!cont)
		flush(d);
	il = add_line(d, line, len);
	if (cont && l.dict) {
		/* the indentation is the width of the first line's header */
		size_t skip = prev_head, i = 0;

		while (i < skip && i < il->l.text_len && il->l.text[i] == ' ')
			i++;
		il->l.text += i;
		il->l.text_len -= i;
	}
	append_text(d, &il->l, cont);
}

static void print_stats(struct dm *d)
{
	const struct stats *s = &d->s;

	if (d->o->json)
		printf("{\"lines\":%lu,\"identified\":%lu,\"ambiguous\":%lu,\"weak\":%lu,\"unidentified\":%lu,\"documented\":%lu}\n",
		       s->lines, s->identified, s->ambiguous, s->weak,
		       s->unidentified, s->documented);
	else
		printf("lines         %lu\nidentified    %lu\nambiguous     %lu\nweak          %lu\nunidentified  %lu\ndocumented    %lu\n",
		       s->lines, s->identified, s->ambiguous, s->weak,
		       s->unidentified, s->documented);
}


static void add_version(struct dm *d, unsigned long lineno, const char *rel,
			size_t rlen, const char *banner, size_t blen)
{
	struct version *v;

	while (blen && (banner[blen - 1] == ' ' || banner[blen - 1] == '\t'))
		blen--;
	if (d->nvers == d->vcap) {
		size_t ncap = d->vcap ? d->vcap * 2 : 4;

		v = realloc(d->vers, ncap * sizeof(*v));
		if (!v)
			oom();
		d->vers = v;
		d->vcap = ncap;
	}
	v = &d->vers[d->nvers++];
	v->lineno = lineno;
	v->release = strndup(rel, rlen);
	v->banner = strndup(banner, blen);
	if (!v->release || !v->banner)
		oom();
}

/* The database of the lines from here on: none */
static void unload_db(struct dm *d)
{
	size_t i;

	for (i = 0; i < d->nsites; i++) {
		if (!d->snap) {
			free(d->sites[i].file);
			free(d->sites[i].function);
			free(d->sites[i].format);
		}
		free(d->sites[i].curated);
	}
	free(d->sites);
	d->sites = NULL;
	d->nsites = d->cap = 0;
	for (i = 0; i < d->intern_cap; i++)
		free(d->interned[i]);
	free(d->interned);
	d->interned = NULL;
	d->ninterned = d->intern_cap = 0;
	free(d->conts);
	d->conts = NULL;
	d->nconts = 0;
	kmsg_modrel_free(d->modrel);
	d->modrel = NULL;
	for (i = 0; i < d->ncurated && !d->snap; i++)
		free(d->curated[i]);
	free(d->curated);
	d->curated = NULL;
	d->ncurated = d->curated_cap = 0;
	kmsg_match_free(d->m);
	d->m = NULL;
	kmsg_snap_close(d->snap);
	d->snap = NULL;
	kmsg_docs_close(d->docs);
	d->docs = NULL;
	d->st.docs = NULL;
	free(d->release);
	d->release = NULL;
	/* what the docs of another database said */
	free(d->seen);
	d->seen = NULL;
}

/* @d->docs opened: its release, and the matcher over its sites. 0 or -1 */
static int load_db(struct dm *d, struct kmsg_docs_info *info)
{
	if (kmsg_docs_info(d->docs, info)) {
		fprintf(stderr, "%s: %s\n", prog, kmsg_docs_errmsg(d->docs));
		kmsg_docs_close(d->docs);
		d->docs = NULL;
		return -1;
	}
	if (load_sites(d)) {
		kmsg_docs_info_free(info);
		unload_db(d);
		return -1;
	}
	d->release = xstrdup(info->release);
	d->st.docs = d->docs;
	return 0;
}

/* Another build of the same release: its messages may differ */
static void banner_check(const char *log_banner,
			 const struct kmsg_docs_info *info, const char *path)
{
	if (!log_banner[0] || !info->banner[0] ||
	    !strcmp(log_banner, info->banner))
		return;
	fprintf(stderr, "%s: warning: the log's kernel is another build of %s than the database's (%s): ids of messages that differ between them may be wrong\n"
		"%s:   log:      %s\n%s:   database: %s\n",
		prog, info->release, path, prog, log_banner, prog, info->banner);
}

static void open_err(const char *err)
{
	fprintf(stderr, "%s: warning: %s\n", prog, err);
}

/* "6.1.0-18-amd64, 6.12.118+deb12-amd64 (in DIR), R (kmsg.db)": stderr */
static void print_installed(const char *dir, const struct installed *v,
			    size_t n, const char *fb_release)
{
	size_t i;

	fprintf(stderr, "%s: installed: ", prog);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", v[i].release);
	fprintf(stderr, "%s(in %s)", n ? " " : "none ", dir);
	if (fb_release)
		fprintf(stderr, ", %s (kmsg.db)", fb_release[0] ? fb_release :
			"a kernel of no release");
	fprintf(stderr, "; 'kmsg db list' lists them\n");
}

/* The release of kmsg.db, if there is one: malloc()ed, or NULL */
static char *fallback_release(char *path, size_t size)
{
	char err[1024];
	struct kmsg_docs *docs;
	struct kmsg_docs_info info;
	char *r = NULL;

	if (!db_fallback(path, size))
		return NULL;
	docs = kmsg_docs_open(path, err, sizeof(err));
	if (!docs)
		return NULL;
	if (!kmsg_docs_info(docs, &info)) {
		r = xstrdup(info.release);
		kmsg_docs_info_free(&info);
	}
	kmsg_docs_close(docs);
	return r;
}

/*
 * The lines from here on are of kernel release @rel (@banner: its
 * "Linux version" line, "" if not known; @line: where the log says so):
 * the database installed for it, else kmsg.db if it is for it, else none
 * and a warning saying what to do
 */
static void pick(struct dm *d, const char *rel, const char *banner,
		 unsigned long line)
{
	char dir[PATH_MAX], path[PATH_MAX + 80], fb[PATH_MAX + 80], err[1024];
	struct kmsg_docs_info info;
	struct installed *v = NULL;
	char *fbr = NULL;
	size_t n = 0;

	if (d->want && !strcmp(d->want, rel))
		return;
	unload_db(d);
	free(d->want);
	d->want = xstrdup(rel);
	if (!kmsg_release_ok(rel)) {
		fprintf(stderr, "%s: warning: %s: line %lu: the kernel release \"%s\" cannot name a database: its messages are not identified\n",
			prog, d->input, line, rel);
		return;
	}
	db_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s.db", dir, rel);
	if (access(path, F_OK)) {
		fbr = fallback_release(fb, sizeof(fb));
		if (fbr && !strcmp(fbr, rel))
			snprintf(path, sizeof(path), "%s", fb);
		else
			path[0] = '\0';
	}
	if (path[0]) {
		d->docs = kmsg_docs_open(path, err, sizeof(err));
		if (!d->docs) {
			open_err(err);
		} else if (!load_db(d, &info)) {
			if (strcmp(info.release, rel)) {
				fprintf(stderr, "%s: warning: %s is a database for %s, not %s: not used; install it again with 'kmsg db install FILE'\n",
					prog, path, info.release[0] ?
					info.release : "no release", rel);
				unload_db(d);
			} else {
				fprintf(stderr, "%s: using database for %s (%s)\n",
					prog, rel, path);
				banner_check(banner, &info, path);
			}
			kmsg_docs_info_free(&info);
		}
		if (d->docs)
			goto out;
	}
	fprintf(stderr, "%s: warning: no database for %s, the kernel of %s%s",
		prog, rel, d->input, line ? "" : "\n");
	if (line)
		fprintf(stderr, " (line %lu)\n", line);
	if (!fbr)
		fbr = fallback_release(fb, sizeof(fb));
	db_installed(dir, &v, &n);
	print_installed(dir, v, n, fbr);
	fprintf(stderr, "%s: its messages are not identified: build a database from that kernel's packages, for Debian with 'make distro-db DISTRO_KERNEL=linux-image-%s-unsigned' in kmsg's source tree, else with 'kmsg-doc build-db --out %s.db --dbg VMLINUX --kbuild-map MAP PACKAGE' (kmsg-doc(1)), and install it with 'kmsg db install %s.db'; --db FILE forces another (ids may be wrong)\n",
		prog, rel, rel, rel);
	installed_free(v, n);
out:
	free(fbr);
}

/* A log without a "Linux version" line: only the one database installed */
static int pick_unversioned(struct dm *d)
{
	char dir[PATH_MAX], fb[PATH_MAX + 80], err[1024];
	struct kmsg_docs_info info;
	struct installed *v = NULL;
	char *fbr = fallback_release(fb, sizeof(fb));
	const char *path = NULL;
	size_t n = 0;
	int ret = 0;

	db_dir(dir, sizeof(dir));
	db_installed(dir, &v, &n);
	if (n + !!fbr == 1)
		path = n ? v[0].path : fb;
	if (path) {
		d->docs = kmsg_docs_open(path, err, sizeof(err));
		if (!d->docs) {
			open_err(err);
		} else if (!load_db(d, &info)) {
			fprintf(stderr, "%s: using database for %s (%s): the only one; %s has no 'Linux version' line to tell its kernel\n",
				prog, info.release[0] ? info.release :
				"a kernel of no release", path, d->input);
			kmsg_docs_info_free(&info);
		}
	} else if (n || fbr) {
		fprintf(stderr, "%s: warning: %s has no 'Linux version' line to tell its kernel, and %zu databases are installed: its messages are not identified\n",
			prog, d->input, n + !!fbr);
		print_installed(dir, v, n, fbr);
		fprintf(stderr, "%s: choose the log's kernel with --release RELEASE, or a database with --db FILE\n",
			prog);
	} else {
		ret = 1;
	}
	installed_free(v, n);
	free(fbr);
	return ret;
}

/*
 * The database of the log's first lines (after its lines are scanned for
 * "Linux version", before they are read). 0, or -1 to stop: the database
 * given does not open, or there is none at all and -x, --json or --stats
 * need one
 */
static int begin(struct dm *d)
{
	bool need = d->o->explain || d->o->json || d->stats;
	struct kmsg_docs_info info;
	char err[1024];
	size_t i, k;

	if (d->forced) {
		d->docs = docs_open(d->o, err, sizeof(err));
		if (!d->docs) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return -1;
		}
		if (load_db(d, &info))
			return -1;
		/* a database named for a release: does it fit the log's? */
		for (i = 0; i < d->nvers && info.release[0]; i++) {
			const struct version *x = &d->vers[i];

			for (k = 0; k < i && strcmp(d->vers[k].release, x->release); k++)
				;
			if (k < i)
				continue;
			if (strcmp(x->release, info.release))
				fprintf(stderr, "%s: warning: %s%s%.0lu is of kernel %s, the database given (%s) is for %s: ids may be wrong\n",
					prog, d->input, x->lineno ? ": line " : "",
					x->lineno, x->release,
					d->o->db ? d->o->db : getenv("KMSG_DB"),
					info.release);
			else
				banner_check(x->banner, &info,
					     d->o->db ? d->o->db : getenv("KMSG_DB"));
		}
		kmsg_docs_info_free(&info);
		return 0;
	}
	if (d->o->release) {
		pick(d, d->o->release, "", 0);
		for (i = 0; i < d->nvers; i++)
			if (strcmp(d->vers[i].release, d->o->release))
				fprintf(stderr, "%s: warning: %s%s%.0lu is of kernel %s, not %s (--release): ids may be wrong\n",
					prog, d->input, d->vers[i].lineno ?
					": line " : "", d->vers[i].lineno,
					d->vers[i].release, d->o->release);
		d->next = d->nvers;
		return 0;
	}
	if (!d->nvers) {
		if (!pick_unversioned(d))
			return 0;
		/* no database at all: plain dmesg output as before */
		docs_open(d->o, err, sizeof(err));
		if (need) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return -1;
		}
		fprintf(stderr, "%s: %s; messages are not identified\n", prog,
			err);
	}
	if (d->before && d->nvers)
		fprintf(stderr, "%s: warning: %s: the %lu lines before its first 'Linux version' line (line %lu) are of an earlier boot, of a kernel it does not name: not identified (--release RELEASE identifies them)\n",
			prog, d->input, d->before, d->vers[0].lineno);
	return 0;
}

/* Before line @lineno: a boot of another kernel begins? */
static void next_line(struct dm *d, unsigned long lineno)
{
	while (d->next < d->nvers && d->vers[d->next].lineno <= lineno) {
		const struct version *x = &d->vers[d->next++];

		if (d->forced)
			continue;
		flush(d);
		pick(d, x->release, x->banner, x->lineno);
	}
}

/* Every "Linux version" line of @f, from where it is, and back there */
static int prescan(struct dm *d, FILE *f)
{
	struct kmsg_dmesg_line l;
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0, rl;
	off_t start = ftello(f);
	ssize_t len;

	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[len - 1] == '\n')
			len--;
		if (len && line[len - 1] == '\r')
			len--;
		kmsg_dmesg_parse(line, len, &l);
		if (l.dict)
			continue;
		rl = kmsg_dmesg_version(l.text, l.text_len);
		if (rl)
			add_version(d, lineno, l.text + 14, rl, l.text,
				    l.text_len);
		else if (!d->nvers && (l.stamp || l.record))
			d->before++;
	}
	free(line);
	if (ferror(f) || fseeko(f, start, SEEK_SET)) {
		fprintf(stderr, "%s: %s: %s\n", prog, d->input, strerror(errno));
		return -1;
	}
	return 0;
}

/* A log that cannot be read twice (a pipe): a temporary copy that can */
static FILE *seekable(struct dm *d, FILE *f)
{
	struct stat stb;
	char buf[65536];
	FILE *t;
	size_t n;

	if (!fstat(fileno(f), &stb) && S_ISREG(stb.st_mode) && ftello(f) >= 0)
		return f;
	t = tmpfile();
	if (!t) {
		fprintf(stderr, "%s: a temporary copy of %s: %s\n", prog,
			d->input, strerror(errno));
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, t) != n) {
			fprintf(stderr, "%s: a temporary copy of %s: %s\n",
				prog, d->input, strerror(errno));
			fclose(t);
			return NULL;
		}
	if (ferror(f) || fflush(t) || fseeko(t, 0, SEEK_SET)) {
		fprintf(stderr, "%s: %s: %s\n", prog, d->input, strerror(errno));
		fclose(t);
		return NULL;
	}
	return t;
}

/* /dev/kmsg: the running kernel's release and banner (/proc/version) */
static void running_kernel(struct dm *d)
{
	struct utsname u;
	char banner[1024] = "";
	FILE *f;

	if (uname(&u))
		return;
	f = fopen("/proc/version", "r");
	if (f) {
		if (!fgets(banner, sizeof(banner), f))
			banner[0] = '\0';
		fclose(f);
	}
	banner[strcspn(banner, "\n")] = '\0';
	add_version(d, 0, u.release, strlen(u.release), banner, strlen(banner));
}

static int read_input(struct dm *d, const char *file)
{
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f, *in;
	int ret = 0;

	if (!file) {
		/* every record once, without waiting for new ones */
		int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
		char rec[8192];
		ssize_t n;

		if (fd < 0) {
			fprintf(stderr, "%s: /dev/kmsg: %s\n", prog, strerror(errno));
			return 1;
		}
		d->input = "/dev/kmsg";
		running_kernel(d);
		if (begin(d)) {
			close(fd);
			return 1;
		}
		while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 ||
		       (n < 0 && errno == EPIPE)) {
			if (n <= 0)
				continue;
			next_line(d, ++lineno);
			dmesg_line(d, rec, n);
		}
		close(fd);
		return 0;
	}
	in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	d->input = strcmp(file, "-") ? file : "standard input";
	if (!in) {
		fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
		return 1;
	}
	f = seekable(d, in);
	if (!f || prescan(d, f)) {
		ret = 1;
		goto out;
	}
	if (begin(d)) {
		ret = 1;
		goto out;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		next_line(d, ++lineno);
		dmesg_line(d, line, len);
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
		d->err = 1;
	}
out:
	if (f && f != in)
		fclose(f);
	if (in != stdin)
		fclose(in);
	free(line);
	return ret;
}

/* ---- --follow ---------------------------------------------------------- */

/*
 * kmsg dmesg --follow: each record of /dev/kmsg as it comes, identified,
 * written by kmsg live's writers (emit_msg()) as a message with an origin
 * (struct kmsg_msg_origin): what only a trace has (CPU, task) left out,
 * how the text matched said. Records missed (overruns, gaps in seq) are
 * reported as messages of their own; the state file makes a restart go
 * on after the last record written.
 */

/* the test double's in-band EPIPE: a datagram of these bytes alone */
#define FOLLOW_EPIPE		"EPIPE"
/*
 * how old the state file may get while records keep coming (never idle):
 * what a kill -9 writes twice on restart is what was written in this time
 */
#define FOLLOW_SYNC_NS		(500 * 1000000ULL)
/* /dev/kmsg's records are at most 8 KiB (CONSOLE_EXT_LOG_MAX) */
#define FOLLOW_REC_MAX		16384

static volatile sig_atomic_t follow_stop;

static void follow_signal(int sig)
{
	(void)sig;
	follow_stop = 1;
}

struct follow {
	struct dm *d;
	struct state st;		/* kmsg live's writers */
	struct kmsg_follow f;
	const char *dev;		/* what is read, as messages name it */
	bool sock;			/* the test double: a SEQPACKET socket */
	int fd;
	const char *state_path;		/* NULL: none */
	char *state_alloc;
	char boot_id[KMSG_BOOT_ID_LEN];	/* "" when not known */
	bool have_last;			/* a record written since the start */
	unsigned long long last;	/* its seq */
	unsigned long since_state;	/* records written since the state file */
	unsigned long long synced;	/* when it was written (monotonic ns) */
	unsigned long bad, skipped, written;
	struct kmsg_strbuf subsys, kdev, body;
};

/* The boot id of the running kernel (or --boot-id-file): 0 or -1 */
static int follow_boot_id(struct follow *fw)
{
	const char *path = fw->d->o->boot_id_file ?:
			   "/proc/sys/kernel/random/boot_id";
	char buf[128];
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		close(fd);
	}
	if (n < 0 || kmsg_boot_id_parse(buf, n, fw->boot_id)) {
		fw->boot_id[0] = '\0';
		fprintf(stderr, "%s: %s: %s\n", prog, path,
			n < 0 ? strerror(errno) : "not a boot id");
		return -1;
	}
	return 0;
}

/* The state file: the same boot resumes after its seq. 0 or -1 */
static int follow_state_load(struct follow *fw)
{
	const struct options *o = fw->d->o;
	const char *dir = getenv("STATE_DIRECTORY");
	struct kmsg_follow_state s;
	char err[256];
	int ret;

	if (o->state) {
		fw->state_path = o->state;
	} else if (dir && *dir) {
		/* a service's StateDirectory= (the first if several) */
		if (asprintf(&fw->state_alloc, "%.*s/dmesg-follow.state",
			     (int)strcspn(dir, ":"), dir) < 0)
			oom();
		fw->state_path = fw->state_alloc;
	}
	if (!fw->state_path)
		return 0;
	if (!fw->boot_id[0]) {
		fprintf(stderr, "%s: %s: no boot id to tell a restart from a new boot\n",
			prog, fw->state_path);
		return -1;
	}
	ret = kmsg_follow_state_read(fw->state_path, &s, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "%s: %s: %s (remove it to start over)\n", prog,
			fw->state_path, err);
		return -1;
	}
	if (ret)
		return 0;
	if (strcmp(s.boot_id, fw->boot_id)) {
		fprintf(stderr, "%s: %s: of another boot: from the first record\n",
			prog, fw->state_path);
		return 0;
	}
	kmsg_follow_resume(&fw->f, s.seq);
	fw->have_last = true;
	fw->last = s.seq;
	fprintf(stderr, "%s: %s: resuming after seq %llu\n", prog,
		fw->state_path, s.seq);
	return 0;
}

static unsigned long long follow_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/* The output out, then the state file that accounts for it. 0 or -1 */
static int follow_sync(struct follow *fw)
{
	struct kmsg_follow_state s;
	int ret;

	fw->synced = follow_now();
	if (fflush(stdout) || journal_flush(&fw->st)) {
		fprintf(stderr, "%s: writing the output: %s\n", prog,
			strerror(errno));
		return -1;
	}
	if (!fw->state_path || !fw->have_last || !fw->since_state)
		return 0;
	memcpy(s.boot_id, fw->boot_id, sizeof(s.boot_id));
	s.seq = fw->last;
	ret = kmsg_follow_state_write(fw->state_path, &s);
	if (ret) {
		fprintf(stderr, "%s: %s: %s\n", prog, fw->state_path,
			strerror(-ret));
		return -1;
	}
	fw->since_state = 0;
	return 0;
}

static int follow_open(struct follow *fw)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat sb;

	fw->dev = fw->d->o->kmsg_device ?: "/dev/kmsg";
	if (!stat(fw->dev, &sb) && S_ISSOCK(sb.st_mode)) {
		/* the test double: one record a datagram (kmsg(1)) */
		if (strlen(fw->dev) >= sizeof(sa.sun_path)) {
			fprintf(stderr, "%s: %s: path too long for a socket\n",
				prog, fw->dev);
			return -1;
		}
		strcpy(sa.sun_path, fw->dev);
		fw->sock = true;
		fw->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (fw->fd >= 0 &&
		    (connect(fw->fd, (struct sockaddr *)&sa, sizeof(sa)) ||
		     fcntl(fw->fd, F_SETFL, O_NONBLOCK))) {
			close(fw->fd);
			fw->fd = -1;
		}
	} else {
		fw->fd = open(fw->dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	}
	if (fw->fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, fw->dev, strerror(errno));
		return -1;
	}
	return 0;
}

/* " KEY=value" lines after a record's text: SUBSYSTEM= and DEVICE= */
static void follow_dict(struct follow *fw, const char *p, const char *end,
			bool *subsys, bool *kdev)
{
	*subsys = *kdev = false;
	fw->subsys.len = fw->kdev.len = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p) ?: end;

		if (nl - p > 11 && !memcmp(p, " SUBSYSTEM=", 11)) {
			fw->subsys.len = 0;
			if (kmsg_dmesg_unescape(&fw->subsys, p + 11, nl - p - 11))
				oom();
			*subsys = true;
		} else if (nl - p > 8 && !memcmp(p, " DEVICE=", 8)) {
			fw->kdev.len = 0;
			if (kmsg_dmesg_unescape(&fw->kdev, p + 8, nl - p - 8))
				oom();
			*kdev = true;
		}
		p = nl + 1;
	}
	if (kmsg_strbuf_putc(&fw->subsys, '\0') ||
	    kmsg_strbuf_putc(&fw->kdev, '\0'))
		oom();
}

/* A record that is none: said, not written (the next gap counts it) */
static void follow_bad(struct follow *fw, const char *rec, size_t len,
		       const char *why)
{
	struct kmsg_strbuf *b = &fw->d->scratch;

	fw->bad++;
	b->len = 0;
	if (kmsg_dmesg_escape(b, rec, len > 80 ? 80 : len))
		oom();
	fprintf(stderr, "%s: %s: %s, skipped: \"%s%s\"\n", prog, fw->dev, why,
		b->buf ? b->buf : "", len > 80 ? "..." : "");
}

/* One record read (@len bytes at @rec): 0, or -errno to stop */
static int follow_record(struct follow *fw, const char *rec, size_t len)
{
	struct dm *d = fw->d;
	struct state *st = &fw->st;
	struct kmsg_msg_origin g = { 0 };
	struct kmsg_missed mi = { 0 };
	struct kmsg_dmesg_line l;
	struct kmsg_args args;
	struct kmsg_span drv = { 0 }, dev = { 0 };
	struct kmsg_msg m = { 0 };
	const char *nl, *label = NULL;
	bool overrun = fw->f.overrun, has_subsys, has_kdev;
	struct ident id;
	long long gap;
	int pat = -1, ret;

	kmsg_dmesg_parse(rec, len, &l);
	if (!l.record || l.dict) {
		follow_bad(fw, rec, len, "not a /dev/kmsg record");
		return 0;
	}
	nl = memchr(rec, '\n', len);
	gap = kmsg_follow_seq(&fw->f, l.seq, &mi.first_seq);
	if (gap == KMSG_FOLLOW_SKIP) {
		fw->skipped++;
		return 0;
	}
	m.ts = l.ts * 1000;
	if (gap > 0) {
		mi.missed = gap;
		mi.overrun = overrun;
		ret = emit_missed(st, m.ts, &mi);
		if (ret)
			return ret;
	}
	if (!nl) {
		fprintf(stderr, "%s: %s: seq %llu: truncated: no newline at its end\n",
			prog, fw->dev, l.seq);
		m.flags |= KMSG_EVENT_TRUNCATED;
	}
	follow_dict(fw, nl ? nl + 1 : rec + len, rec + len, &has_subsys,
		    &has_kdev);
	d->text.len = 0;
	if (kmsg_dmesg_unescape(&d->text, l.text, l.text_len) ||
	    kmsg_strbuf_putc(&d->text, '\0'))
		oom();
	d->text.len--;
	d->joined = false;
	if (l.facility > 0)
		memset(&id, 0, sizeof(id));
	else
		identify(d, d->text.buf, d->text.len, l.level, &id);
	count(d, &id, 1);
	memset(&st->ids, 0, sizeof(st->ids));
	args.n = 0;
	if (exact(&id) && id.printed[0]) {
		kmsg_ids_set(&st->ids, id.printed, NULL);
	} else if (exact(&id)) {
		const char *a = kmsg_match_id(d->m, id.pats[0]);
		const struct site *si = site_of(d, id.pats[0]);
		size_t off = id.r.wrapped ? id.r.inner_off : 0;
		size_t tl = id.r.wrapped ? id.r.inner_len : d->text.len;

		pat = id.pats[0];
		kmsg_ids_set(&st->ids, si->curated ? si->curated :
			     kmsg_id_is_curated(a) ? a : NULL,
			     kmsg_id_is_auto(a) ? a : NULL);
		m.fmt.s = si->format;
		m.fmt.len = strlen(si->format);
		if (kmsg_id_is_auto(a) && strncmp(a, KMSG_ID_VMLINUX ".h", 9)) {
			m.modname.s = a;
			m.modname.len = strrchr(a, '.') - a;
		}
		if (id.r.wrapped) {
			const char *w = d->sites[id.r.wrapper].format;

			m.flags |= KMSG_EVENT_WRAPPED;
			m.wrap_fmt.s = w;
			m.wrap_fmt.len = strlen(w);
		}
		if (kmsg_match_args(d->m, pat, d->text.buf + off, tl,
				    id.r.partial && !id.r.wrapped, &args,
				    &drv, &dev))
			args.n = 0;
		g.file = si->file;
		g.line = si->line;
		g.function = si->function;
	}
	g.match = match_kind(&id);
	g.facility = l.facility > 0 ? l.facility : 0;
	g.subsystem = has_subsys ? fw->subsys.buf : NULL;
	g.kernel_device = has_kdev ? fw->kdev.buf : NULL;
	/* the device: DEVICE=+subsystem:name, else as the text prints it */
	if (has_kdev && fw->kdev.buf[0] == '+' && strchr(fw->kdev.buf, ':')) {
		m.device.s = strchr(fw->kdev.buf, ':') + 1;
		m.device.len = strlen(m.device.s);
	} else if (dev.s) {
		m.device.s = dev.s;
		m.device.len = dev.len;
	} else if (has_kdev) {
		m.device.s = fw->kdev.buf;
		m.device.len = strlen(fw->kdev.buf);
	}
	if (m.device.len && drv.s) {
		m.driver.s = drv.s;
		m.driver.len = drv.len;
	} else if (m.device.len) {
		m.driver.s = "";
	}
	m.version = 2;
	m.level = l.level >= 0 ? l.level : 6;
	m.seq = l.seq;
	m.cpu = m.pid = -1;
	m.origin = &g;
	if (!wanted(d->o, &m, &st->ids))
		goto written;
	/* text: "<id>: " as kmsg live shows it, after the device's prefix */
	st->text.len = 0;
	if (!d->o->json && !d->o->otlp && !st->journal) {
		size_t at = 0;

		label = kmsg_ids_id(&st->ids);
		if (label && dev.s && dev.s + dev.len + 2 <= d->text.buf + d->text.len &&
		    !memcmp(dev.s + dev.len, ": ", 2))
			at = dev.s + dev.len + 2 - d->text.buf;
		if (label && memmem(d->text.buf, d->text.len, label, strlen(label)))
			label = NULL;	/* printed already */
		fw->body.len = 0;
		if (kmsg_strbuf_putn(&fw->body, d->text.buf, at) ||
		    (label && (kmsg_strbuf_puts(&fw->body, label) ||
			       kmsg_strbuf_puts(&fw->body, ": "))) ||
		    kmsg_strbuf_putn(&fw->body, d->text.buf + at,
				     d->text.len - at) ||
		    kmsg_dmesg_escape(&st->text, fw->body.buf, fw->body.len))
			oom();
	} else if (kmsg_strbuf_putn(&st->text, d->text.buf, d->text.len)) {
		oom();
	}
	ret = emit_msg(st, &m, &args, NULL);
	if (ret)
		return ret;
written:
	fw->have_last = true;
	fw->last = l.seq;
	fw->written++;
	fw->since_state++;
	if (follow_now() - fw->synced >= FOLLOW_SYNC_NS && follow_sync(fw))
		return -EIO;
	return 0;
}

/*
 * SIGTERM or SIGINT pending: they are blocked but in ppoll(), which a
 * reader that never catches up with a storm does not reach
 */
static bool follow_signalled(void)
{
	sigset_t set;

	return !sigpending(&set) && (sigismember(&set, SIGTERM) == 1 ||
				     sigismember(&set, SIGINT) == 1);
}

/* Read until EOF (the test double), a signal or --count. 0 or 1 */
static int follow_loop(struct follow *fw)
{
	char *rec = malloc(FOLLOW_REC_MAX);
	struct pollfd pfd = { .fd = fw->fd, .events = POLLIN };
	sigset_t none;
	ssize_t n;
	int ret = 0;

	if (!rec)
		oom();
	sigemptyset(&none);
	while (!follow_stop && !fw->st.done && !follow_signalled()) {
		n = read(fw->fd, rec, FOLLOW_REC_MAX - 1);
		if (n > 0 && fw->sock && n == sizeof(FOLLOW_EPIPE) - 1 &&
		    !memcmp(rec, FOLLOW_EPIPE, n)) {
			n = -1;
			errno = EPIPE;
		}
		if (n > 0) {
			ret = follow_record(fw, rec, n);
			if (ret) {
				fprintf(stderr, "%s: %s\n", prog, strerror(-ret));
				ret = 1;
				break;
			}
			continue;
		}
		if (!n)
			break;		/* the test double closed */
		if (errno == EPIPE) {
			/* overtaken: the next record is the oldest left */
			kmsg_follow_overrun(&fw->f);
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			fprintf(stderr, "%s: %s: %s\n", prog, fw->dev,
				strerror(errno));
			ret = 1;
			break;
		}
		/* all read: out, and the state file, before waiting */
		if (follow_sync(fw)) {
			ret = 1;
			break;
		}
		/* SIGTERM and SIGINT are delivered only here */
		if (ppoll(&pfd, 1, NULL, &none) < 0 && errno != EINTR) {
			fprintf(stderr, "%s: %s: %s\n", prog, fw->dev,
				strerror(errno));
			ret = 1;
			break;
		}
	}
	free(rec);
	if (follow_sync(fw))
		ret = 1;
	return ret;
}

static int follow(struct dm *d)
{
	static char out_buf[KMSG_FOLLOW_LINE_BUF];
	struct options *o = d->o;
	struct sigaction sa = { .sa_handler = follow_signal };
	struct follow fw = { .d = d, .fd = -1 };
	struct state *st = &fw.st;
	sigset_t block;
	int ret = 1;

	if (o->stats) {
		fprintf(stderr, "%s: --follow and --stats exclude each other\n",
			prog);
		return 1;
	}
	/*
	 * Each line out in one write(), whole: killed (a kill -9, a crash),
	 * kmsg leaves no line cut short in a file a pipeline reads. The
	 * buffer holds the longest line (a record of 8 KiB, escaped); glibc
	 * takes the size of a buffer given, not of one it allocates.
	 */
	if (setvbuf(stdout, out_buf, _IOLBF, sizeof(out_buf))) {
		fprintf(stderr, "%s: standard output cannot be line-buffered\n",
			prog);
		return 1;
	}
	/* a state file needs the boot id; else it only dates --export */
	if (follow_boot_id(&fw) && (o->state || getenv("STATE_DIRECTORY")))
		return 1;
	fw.synced = follow_now();
	if (follow_state_load(&fw) || follow_open(&fw))
		goto out;
	d->input = fw.dev;
	running_kernel(d);
	if (begin(d))
		goto out;
	/* the database of the running kernel, as for a log's first line */
	next_line(d, 1);
	st->opt = o;
	st->docs = d->docs;
	st->use_color = o->color == COLOR_ALWAYS ||
		(o->color == COLOR_AUTO && isatty(STDOUT_FILENO));
	if (o->otlp)
		otlp_open(st, o, true);
	if (o->journal || o->export) {
		if (journal_open(st, o, NULL))
			goto out;
		if (fw.boot_id[0])
			journal_set_boot_id(st, fw.boot_id);
	}
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = follow_loop(&fw);
	if (fw.f.missed || fw.f.overruns || fw.bad)
		fprintf(stderr, "%s: %s: %llu records missed (%llu overruns), %lu not records\n",
			prog, fw.dev, fw.f.missed, fw.f.overruns, fw.bad);
out:
	journal_close(st);
	kmsg_json_cache_free(&st->json_cache);
	kmsg_strbuf_free(&st->line);
	kmsg_strbuf_free(&st->text);
	kmsg_strbuf_free(&fw.subsys);
	kmsg_strbuf_free(&fw.kdev);
	kmsg_strbuf_free(&fw.body);
	free(fw.state_alloc);
	if (fw.fd >= 0)
		close(fw.fd);
	return ret;
}

static int cmd_dmesg(struct dm *d, const char *file)
{
	struct options *o = d->o;
	const char *env = getenv("KMSG_DB");
	size_t i;
	int ret;

	d->forced = o->db || (!o->release && env && *env);
	d->st.opt = o;
	if (o->follow && file) {
		fprintf(stderr, "%s: --follow reads /dev/kmsg (or --kmsg-device PATH), not a file\n",
			prog);
		return 1;
	}
	if (o->follow)
		ret = follow(d);
	else
		ret = read_input(d, file);
	flush(d);
	if (d->stats && !ret)
		print_stats(d);
	unload_db(d);
	for (i = 0; i < d->nvers; i++) {
		free(d->vers[i].release);
		free(d->vers[i].banner);
	}
	free(d->vers);
	free(d->want);
	free(d->lines);
	kmsg_strbuf_free(&d->text);
	kmsg_strbuf_free(&d->out);
	kmsg_strbuf_free(&d->scratch);
	return ret ? ret : d->err;
}

int dmesg_main(int argc, char **argv)
{
	struct options o = { 0 };
	struct dm d = { .o = &o };

	if (parse_command(argc, argv, &o, false, usage_docs, 0, 1))
		return 1;
	d.stats = o.stats;
	return cmd_dmesg(&d, optind < argc ? argv[optind] : NULL);
}

int dmesg_each(struct options *o, const char *file,
	       void (*cb)(void *ctx, const struct dmesg_msg *msg), void *ctx)
{
	struct dm d = { .o = o, .sink = cb, .sink_ctx = ctx };

	return cmd_dmesg(&d, file);
}
