// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc - check the documentation of kernel messages against the kmsg
 * index of a build, and build the docs database from them.
 *
 *   kmsg-doc check   [--srctree DIR] [--catalog DIR] [--template=source|catalog]
 *                    [--coverage] [--templates DIR] [--log FILE] OBJECT...
 *   kmsg-doc build-db --out FILE [--srctree DIR] [--catalog DIR] [--release STR] OBJECT...
 *   kmsg-doc diff [--json] [--srctree DIR] [--catalog DIR] OLD NEW
 *   kmsg-doc auto-id MODNAME FORMAT
 *   kmsg-doc journal-catalog --db FILE DIR
 *
 * OBJECT is vmlinux, a module or object file, or a directory searched for
 * *.ko.  The documentation comes from the source files the index names
 * (in-source form, relative to --srctree) and from the *.kmsg catalogs in
 * --catalog; docs-db/FORMAT.md and docs-db/SCHEMA.md describe both and the
 * database.  auto-id prints the automatic id of a message printed without
 * an identifier of its own: MODNAME is the KBUILD_MODNAME of the file, FORMAT
 * the format as a catalog's format field has it, taken as it is (no
 * escapes; in the shell $'...' writes a tab as \t).
 *
 * check --coverage prints, after the diagnostics, the messages (distinct
 * ids: curated, else automatic) of every call site per component and in
 * total, documented and not.  --templates DIR (implies --coverage)
 * writes DIR/<component>.kmsg, catalog entries to fill in for each
 * undocumented message, numbered after the component's highest; an
 * existing file is not overwritten.  --log FILE (dmesg text) counts how
 * often each message occurs in it, approximately (the longest text before
 * the first conversion that starts the line wins), lists the
 * undocumented ones seen, most frequent first, and orders the templates
 * so.  Only an undocumented kmsg_*() message is a diagnostic.
 *
 * Build (from tools/):
 *
 *   gcc -Wall -Wextra -Werror -O2 -Ilib $(pkg-config --cflags libelf sqlite3) \
 *	kmsg-doc.c kmsg-doc-diff.c lib/kmsg_catalog.c lib/kmsg_index.c \
 *	lib/kmsg_srcdoc.c lib/kmsg_db.c lib/kmsg_strbuf.c lib/kmsg_jcatalog.c \
 *	lib/kmsg_docs.c lib/kmsg_journal.c lib/kmsg_id.c lib/kmsg_diff.c \
 *	-o kmsg-doc \
 *	$(pkg-config --libs libelf sqlite3)
 *
 * Exit status: 0 without errors (warnings are fine), 1 if there were
 * errors, 2 for a usage error.
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

#define NONE SIZE_MAX
/* Source and catalog files larger than this are refused */
#define TEXT_FILE_MAX (64u << 20)

enum template_kind { TEMPLATE_SOURCE, TEMPLATE_CATALOG };

struct options {
	bool build_db;
	const char *srctree;
	const char *catalog;
	enum template_kind tmpl;
	const char *out;
	const char *release;
	bool coverage;		/* check: counts per component */
	const char *templates;	/* check: write templates to this directory */
	const char *log;	/* check: order the undocumented by this log */
};

/* Everything known about one identifier */
struct ident {
	const char *component;
	unsigned int number;
	const char *id;
	size_t *msgs;		/* indices into ctx.sorted, in order */
	size_t nmsgs, capmsgs;
	struct kmsg_doc *src;	/* the in-source doc */
	struct kmsg_doc *cat;	/* the catalog entry (not broken) */
	bool broken;		/* a catalog entry with errors */
	bool missing;		/* "Missing description" reported */
};

/* An automatic id documented by a catalog entry */
struct alias_ref {
	const struct kmsg_alias *alias;
	const struct kmsg_doc *doc;
	size_t seq;		/* catalog order */
};

struct ctx {
	struct options opt;
	struct kmsg_msgs msgs;
	struct kmsg_msgs sites;		/* plain sites, automatic ids only */
	const struct kmsg_msg **sorted;	/* sorted, exact duplicates removed */
	size_t nsorted;
	struct kmsg_docs srcdocs, catdocs;
	struct kmsg_diags diags;
	struct ident *ids;
	size_t nids;
	struct alias_ref *aliases;	/* of the catalog entries, by auto id */
	size_t naliases;
	char *build_id;
	bool failed;		/* errors outside the diagnostics */
};

static void usage(FILE *f)
{
	fputs("usage: kmsg-doc check [--srctree DIR] [--catalog DIR] [--template=source|catalog]\n"
	      "                      [--coverage] [--templates DIR] [--log FILE] OBJECT...\n"
	      "       kmsg-doc build-db --out FILE [--srctree DIR] [--catalog DIR] [--release STR] OBJECT...\n"
	      "       kmsg-doc diff [--json] [--srctree DIR] [--catalog DIR] OLD NEW\n"
	      "       kmsg-doc auto-id MODNAME FORMAT\n"
	      "       kmsg-doc journal-catalog [--db FILE] DIR\n",
	      f);
}

static void error_msg(struct ctx *c, const char *msg)
{
	fprintf(stderr, "%s\n", msg);
	c->failed = true;
}

/* Read a whole file; NULL with errno set on failure. */
static char *read_text(const char *path, size_t *len)
{
	struct stat stb;
	char *buf;
	size_t n = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &stb)) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	if (!S_ISREG(stb.st_mode) || (uint64_t)stb.st_size > TEXT_FILE_MAX) {
		close(fd);
		errno = S_ISREG(stb.st_mode) ? EFBIG : EINVAL;
		return NULL;
	}
	buf = kmsg_xmalloc((size_t)stb.st_size + 1);
	while (n < (size_t)stb.st_size) {
		ssize_t r = read(fd, buf + n, (size_t)stb.st_size - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* ---- loading ---- */

/*
 * An object given (vmlinux, a module, a directory of modules) that holds
 * no kernel object, or none with a printk index, is an error: an empty
 * result would read as "no messages".
 */
static void check_object(struct ctx *c, const char *object, size_t files,
			 bool single, size_t sites, bool failed)
{
	char *msg;

	if (failed || sites)
		return;
	if (!files)
		msg = kmsg_xprintf("%s: no kernel object in it (vmlinux, *.ko; compressed modules are not read)",
				   object);
	else if (single)
		msg = kmsg_xprintf("%s: no printk index: no .printk_index section (a kernel built without CONFIG_PRINTK_INDEX, as distributions build theirs)",
				   object);
	else
		msg = kmsg_xprintf("%s: no printk index: none of its %zu kernel objects has a .printk_index section (a kernel built without CONFIG_PRINTK_INDEX, as distributions build theirs)",
				   object, files);
	error_msg(c, msg);
	free(msg);
}

static void load_objects(struct ctx *c, char **objects, int nobjects)
{
	char **files = NULL, *err;
	size_t nfiles = 0, cap = 0, i = 0, sites;
	int k;
	bool failed;

	for (k = 0; k < nobjects; k++) {
		size_t first = nfiles;
		bool single;

		failed = false;
		if (kmsg_index_files(objects[k], &files, &nfiles, &cap, &err)) {
			error_msg(c, err);
			free(err);
			failed = true;
		}
		single = nfiles - first == 1 && !strcmp(files[first], objects[k]);
		sites = c->sites.n;
		for (i = first; i < nfiles; i++) {
			char *bid = NULL;

			if (kmsg_index_read_sites(files[i], &c->sites,
						  c->build_id ? NULL : &bid, &err)) {
				error_msg(c, err);
				free(err);
				failed = true;
			} else if (bid) {
				c->build_id = bid;
			}
			free(files[i]);
		}
		check_object(c, objects[k], nfiles - first, single,
			     c->sites.n - sites, failed);
	}
	free(files);
	/* the messages with a curated identifier; the others stay sites */
	for (i = 0; i < c->sites.n; i++) {
		if (!c->sites.v[i].id)
			continue;
		KMSG_GROW(c->msgs.v, c->msgs.cap, c->msgs.n);
		c->msgs.v[c->msgs.n++] = c->sites.v[i];
		memset(&c->sites.v[i], 0, sizeof(c->sites.v[i]));
	}
}

/* sites by automatic id, then by their order */
static const struct kmsg_msgs *site_order;

static int site_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int r = strcmp(site_order->v[x].auto_id, site_order->v[y].auto_id);

	if (r)
		return r;
	return x < y ? -1 : x > y;
}

/* The first of @v (@n sites by automatic id) with @auto_id, or @n */
static size_t site_first(const struct kmsg_msgs *sites, const size_t *v,
			 size_t n, const char *auto_id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(sites->v[v[mid]].auto_id, auto_id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A site whose automatic id a catalog entry lists is that entry's message:
 * it gets the curated identifier, so that the checker compares format and
 * level with it and the database knows where it is printed.  The sites
 * are sorted by automatic id once: each alias is a binary search, not a
 * scan of every site.
 */
static void adopt_alias_sites(struct ctx *c)
{
	size_t *v = kmsg_xcalloc(c->sites.n + 1, sizeof(*v));
	size_t i, k, j, n = 0;

	for (j = 0; j < c->sites.n; j++)
		if (c->sites.v[j].auto_id)
			v[n++] = j;
	site_order = &c->sites;
	if (n > 1)
		qsort(v, n, sizeof(*v), site_cmp);
	for (i = 0; i < c->catdocs.n; i++) {
		const struct kmsg_doc *d = c->catdocs.v[i];

		for (k = 0; k < d->naliases; k++) {
			for (j = site_first(&c->sites, v, n, d->aliases[k].auto_id);
			     j < n && !strcmp(c->sites.v[v[j]].auto_id,
					      d->aliases[k].auto_id); j++) {
				const struct kmsg_msg *s = &c->sites.v[v[j]];
				struct kmsg_msg *m;

				KMSG_GROW(c->msgs.v, c->msgs.cap, c->msgs.n);
				m = &c->msgs.v[c->msgs.n++];
				*m = *s;
				m->id = kmsg_xstrdup(d->id);
				m->component = kmsg_xstrdup(d->component);
				m->number = d->number;
				/* the other strings stay the site's */
				m->adopted = true;
				m->alias_pos = (unsigned int)k;
			}
		}
	}
	free(v);
}

static int cmp_opt(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;
	return strcmp(a, b);
}

/* messages (and plain sites) by object, file, line, then everything else */
static int msg_cmp(const void *a, const void *b)
{
	const struct kmsg_msg *x = *(const struct kmsg_msg *const *)a;
	const struct kmsg_msg *y = *(const struct kmsg_msg *const *)b;
	int r = strcmp(x->object, y->object);

	if (!r)
		r = strcmp(x->file, y->file);
	if (r)
		return r;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	r = kmsg_id_cmp(x->component, x->number, y->component, y->number);
	if (!r)
		r = cmp_opt(x->auto_id, y->auto_id);
	if (!r)
		r = strcmp(x->format, y->format);
	if (!r)
		r = strcmp(x->func, y->func);
	if (!r)
		r = cmp_opt(x->prefix, y->prefix);
	if (r)
		return r;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	if (x->cont != y->cont)
		return (int)x->cont - (int)y->cont;
	return (int)x->device - (int)y->device;
}

static void sort_msgs(struct ctx *c)
{
	size_t i, n = 0;

	c->sorted = kmsg_xcalloc(c->msgs.n + 1, sizeof(*c->sorted));
	for (i = 0; i < c->msgs.n; i++)
		c->sorted[i] = &c->msgs.v[i];
	if (c->msgs.n > 1)
		qsort(c->sorted, c->msgs.n, sizeof(*c->sorted), msg_cmp);
	/* the same module given twice (build tree and installed copy) */
	for (i = 0; i < c->msgs.n; i++)
		if (!n || msg_cmp(&c->sorted[n - 1], &c->sorted[i]))
			c->sorted[n++] = c->sorted[i];
	c->nsorted = n;
}

/* A source path from the index, relative and inside the tree? */
static bool safe_source_path(const char *p)
{
	const char *s = p;

	if (!*p || *p == '/')
		return false;
	while (*s) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.')
			return false;
		s += n;
		while (*s == '/')
			s++;
	}
	return true;
}

static int cstr_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void load_sources(struct ctx *c)
{
	const char **files = kmsg_xcalloc(c->nsorted + 1, sizeof(*files));
	size_t i, n = 0;

	for (i = 0; i < c->nsorted; i++)
		files[i] = c->sorted[i]->file;
	if (c->nsorted > 1)
		qsort(files, c->nsorted, sizeof(*files), cstr_cmp);
	for (i = 0; i < c->nsorted; i++) {
		char *path, *text;
		size_t len;

		if (n && !strcmp(files[n - 1], files[i]))
			continue;
		files[n++] = files[i];
		if (!safe_source_path(files[i])) {
			char *e = kmsg_xprintf("kmsg-doc: warning: %s: source path not inside the source tree, not read",
					       files[i]);

			fprintf(stderr, "%s\n", e);
			free(e);
			continue;
		}
		path = kmsg_xprintf("%s/%s", c->opt.srctree, files[i]);
		text = read_text(path, &len);
		if (!text) {
			fprintf(stderr, "kmsg-doc: warning: %s: %s\n", path,
				strerror(errno));
		} else {
			kmsg_srcdoc_parse(files[i], text, len, &c->srcdocs,
					  &c->diags);
			free(text);
		}
		free(path);
	}
	free(files);
}

static void load_catalogs(struct ctx *c)
{
	const char *dir = c->opt.catalog;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;

	if (!dir)
		return;
	d = opendir(dir);
	if (!d) {
		char *e = kmsg_xprintf("kmsg-doc: %s: %s", dir, strerror(errno));

		error_msg(c, e);
		free(e);
		return;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 5 && !strcmp(de->d_name + len - 5, ".kmsg") &&
		    de->d_name[0] != '.') {
			KMSG_GROW(names, cap, n);
			names[n++] = kmsg_xstrdup(de->d_name);
		}
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cstr_cmp);
	for (i = 0; i < n; i++) {
		size_t dl = strlen(dir), len;
		char *path = kmsg_xprintf("%s%s%s", dir,
					  dl && dir[dl - 1] == '/' ? "" : "/",
					  names[i]);
		char *comp = kmsg_xstrndup(names[i], strlen(names[i]) - 5);
		char *text = NULL;
		bool valid = kmsg_valid_component(comp, strlen(comp));

		if (valid)
			text = read_text(path, &len);
		if (!valid) {
			kmsg_diag_add(&c->diags, path, 1, true,
				      "the file name is not <component>.kmsg");
		} else if (!text) {
			char *e = kmsg_xprintf("kmsg-doc: %s: %s", path,
					       strerror(errno));

			error_msg(c, e);
			free(e);
		} else {
			kmsg_catalog_parse(path, comp, text, len, &c->catdocs,
					   &c->diags);
			free(text);
		}
		free(comp);
		free(path);
		free(names[i]);
	}
	free(names);
}

/* ---- identifiers ---- */

static int ident_cmp(const void *a, const void *b)
{
	const struct ident *x = a, *y = b;

	return kmsg_id_cmp(x->component, x->number, y->component, y->number);
}

static struct ident *find_ident(struct ctx *c, const char *comp, unsigned int nr)
{
	struct ident key = { .component = comp, .number = nr };

	return bsearch(&key, c->ids, c->nids, sizeof(key), ident_cmp);
}

static void add_ident(struct ident *v, size_t *n, const char *comp,
		      unsigned int nr, const char *id)
{
	v[*n].component = comp;
	v[*n].number = nr;
	v[*n].id = id;
	(*n)++;
}

static void build_idents(struct ctx *c)
{
	size_t total = c->nsorted + c->srcdocs.n + c->catdocs.n, n = 0, i;

	c->ids = kmsg_xcalloc(total + 1, sizeof(*c->ids));
	for (i = 0; i < c->nsorted; i++)
		add_ident(c->ids, &n, c->sorted[i]->component,
			  c->sorted[i]->number, c->sorted[i]->id);
	for (i = 0; i < c->srcdocs.n; i++)
		add_ident(c->ids, &n, c->srcdocs.v[i]->component,
			  c->srcdocs.v[i]->number, c->srcdocs.v[i]->id);
	for (i = 0; i < c->catdocs.n; i++)
		add_ident(c->ids, &n, c->catdocs.v[i]->component,
			  c->catdocs.v[i]->number, c->catdocs.v[i]->id);
	if (n > 1)
		qsort(c->ids, n, sizeof(*c->ids), ident_cmp);
	c->nids = 0;
	for (i = 0; i < n; i++)
		if (!c->nids || ident_cmp(&c->ids[c->nids - 1], &c->ids[i]))
			c->ids[c->nids++] = c->ids[i];
}

/* ---- checks ---- */

static char *escaped(const char *s)
{
	struct kmsg_strbuf sb = { 0 };

	kmsg_escape(&sb, s);
	return kmsg_sb_take(&sb);
}

static void attach(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->nsorted; i++) {
		const struct kmsg_msg *m = c->sorted[i];
		struct ident *id = find_ident(c, m->component, m->number);

		/*
		 * Sites adopted through the automatic id of another wording
		 * print another format, rightly.
		 */
		if (id->nmsgs && !m->adopted) {
			const struct kmsg_msg *first = c->sorted[id->msgs[0]];

			if (!first->adopted && strcmp(first->format, m->format)) {
				char *a = escaped(first->format), *b = escaped(m->format);

				kmsg_diag_add(&c->diags, m->file, m->line, true,
					      "%s used with two different formats: \"%s\" and \"%s\"",
					      m->id, a, b);
				free(a);
				free(b);
			}
		}
		KMSG_GROW(id->msgs, id->capmsgs, id->nmsgs);
		id->msgs[id->nmsgs++] = i;
	}
	for (i = 0; i < c->srcdocs.n; i++) {
		struct kmsg_doc *doc = c->srcdocs.v[i];
		struct ident *id = find_ident(c, doc->component, doc->number);

		if (id->src) {
			kmsg_diag_add(&c->diags, doc->file, doc->line, true,
				      "%s documented twice, first at %s:%u", doc->id,
				      id->src->file, id->src->line);
			continue;
		}
		id->src = doc;
	}
	for (i = 0; i < c->catdocs.n; i++) {
		struct kmsg_doc *doc = c->catdocs.v[i];
		struct ident *id = find_ident(c, doc->component, doc->number);

		if (doc->broken) {
			id->broken = true;
			continue;
		}
		if (id->cat) {
			kmsg_diag_add(&c->diags, doc->file, doc->line, true,
				      "%s documented twice, first at %s:%u", doc->id,
				      id->cat->file, id->cat->line);
			continue;
		}
		id->cat = doc;
	}
}

static void check_params(struct ctx *c, const struct kmsg_doc *doc,
			 const char *code)
{
	const char *fmt = doc->format ? doc->format : code;
	size_t m, count = doc->nparams, span;

	if (!count || !fmt)
		return;
	m = kmsg_fmt_values(fmt);
	span = (size_t)doc->params[count - 1].pos + 1;	/* sorted by pos */
	if (count != m || span != m)
		kmsg_diag_add(&c->diags, doc->file, doc->line, true,
			      "%s: %zu parameters documented, the format has %zu conversions",
			      doc->id, count != m ? count : span, m);
}

/* code is the end of fmt, after a (possibly empty) prefix */
static bool format_tail(const char *fmt, const char *code)
{
	size_t n = strlen(fmt), k = strlen(code);

	return k && k <= n && !strcmp(fmt + n - k, code);
}

static void check_format(struct ctx *c, const struct kmsg_doc *doc,
			 const char *code)
{
	char *a, *b;

	if (!doc->format || !strcmp(doc->format, code))
		return;
	/*
	 * A catalog entry with a modname documents the format as printk()
	 * gets it, pr_fmt() prefix included.  A kmsg_*() call of the same
	 * message prints its identifier instead of that prefix.
	 */
	if (doc->modname && format_tail(doc->format, code))
		return;
	a = escaped(doc->format);
	b = escaped(code);
	kmsg_diag_add(&c->diags, doc->file, doc->format_line, true,
		      "documented format of %s differs from the code: \"%s\" vs \"%s\"",
		      doc->id, a, b);
	free(a);
	free(b);
}

static void check_translations(struct ctx *c, const struct kmsg_doc *cat,
			       const char *ref)
{
	size_t i;

	if (!ref)
		return;
	for (i = 0; i < cat->ntrans; i++) {
		struct kmsg_strbuf why = { 0 };

		if (!kmsg_trans_check(ref, cat->trans[i].format, &why))
			kmsg_diag_add(&c->diags, cat->file, cat->trans[i].line, true,
				      "%s: translation.%s: %s", cat->id,
				      cat->trans[i].locale, why.buf ? why.buf : "");
		kmsg_strbuf_free(&why);
	}
}

static bool same_text(const char *a, const char *b)
{
	char *x = kmsg_normalize_text(a), *y = kmsg_normalize_text(b);
	bool same = !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

/*
 * The format the documentation of @id is checked against: that of its
 * kmsg_*() sites, or of the sites printing the documented format (the
 * entry's first automatic id).  NULL when the build prints only other
 * wordings of the message, each with an automatic id the entry lists.
 */
static const char *ref_format(struct ctx *c, const struct ident *id)
{
	size_t i;

	for (i = 0; i < id->nmsgs; i++) {
		const struct kmsg_msg *m = c->sorted[id->msgs[i]];

		if (!m->adopted || !m->alias_pos)
			return m->format;
	}
	return NULL;
}

static void check_ident(struct ctx *c, struct ident *id)
{
	struct kmsg_doc *src = id->src, *cat = id->cat, *eff;
	bool cat_desc = cat && cat->described;
	const char *code = NULL;
	size_t i;

	if (!id->nmsgs) {
		if (src)
			kmsg_diag_add(&c->diags, src->file, src->line, true,
				      "Description without message for: %s", src->id);
		/*
		 * An entry with a modname documents messages by their
		 * automatic ids; no call site prints its identifier.
		 */
		if (cat && !cat->modname)
			kmsg_diag_add(&c->diags, cat->file, cat->line, true,
				      "Description without message for: %s", cat->id);
		if (src)
			check_params(c, src, NULL);
		if (cat_desc)
			check_params(c, cat, NULL);
		if (cat)
			check_translations(c, cat, cat->format ? cat->format :
					   src ? src->format : NULL);
		if (!src && cat && cat->modname && !cat->user_response[0])
			kmsg_diag_add(&c->diags, cat->file, cat->line, false,
				      "%s: no user response documented", id->id);
		return;
	}

	code = ref_format(c, id);
	if (!src && !cat_desc && !id->broken) {
		const struct kmsg_msg *m = c->sorted[id->msgs[0]];

		/*
		 * An error for the checker; the database still takes the
		 * message, undocumented.
		 */
		kmsg_diag_add(&c->diags, m->file, m->line, !c->opt.build_db,
			      "Missing description for: %s", id->id);
		id->missing = true;
	}
	if (src) {
		if (code)
			check_format(c, src, code);
		check_params(c, src, code);
	}
	if (cat_desc) {
		if (code)
			check_format(c, cat, code);
		check_params(c, cat, code);
	}
	if (cat && cat->severity) {
		for (i = 0; i < id->nmsgs; i++) {
			const struct kmsg_msg *m = c->sorted[id->msgs[i]];
			const char *lvl = kmsg_level_name(m->level);

			if (lvl && strcmp(lvl, cat->severity)) {
				kmsg_diag_add(&c->diags, cat->file, cat->severity_line,
					      true,
					      "documented severity of %s is %s, the code prints at %s",
					      id->id, cat->severity, lvl);
				break;
			}
		}
	}
	if (src && cat_desc &&
	    (!same_text(src->description, cat->description) ||
	     !same_text(src->user_response, cat->user_response)))
		kmsg_diag_add(&c->diags, cat->file, cat->line, true,
			      "%s documented in both the source and the catalog, differently",
			      id->id);
	eff = src ? src : cat_desc ? cat : NULL;
	if (eff && !eff->user_response[0])
		kmsg_diag_add(&c->diags, eff->file, eff->line, false,
			      "%s: no user response documented", id->id);
	if (cat)
		check_translations(c, cat, cat->format ? cat->format : code);
}

static int alias_ref_cmp(const void *a, const void *b)
{
	const struct alias_ref *x = a, *y = b;
	int r = strcmp(x->alias->auto_id, y->alias->auto_id);

	if (r)
		return r;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* An automatic id is documented by one identifier only */
static void check_aliases(struct ctx *c)
{
	size_t i, k, n = 0;

	for (i = 0; i < c->nids; i++)
		if (c->ids[i].cat)
			n += c->ids[i].cat->naliases;
	c->aliases = kmsg_xcalloc(n + 1, sizeof(*c->aliases));
	for (i = 0; i < c->nids; i++) {
		const struct kmsg_doc *cat = c->ids[i].cat;

		for (k = 0; cat && k < cat->naliases; k++) {
			c->aliases[c->naliases].alias = &cat->aliases[k];
			c->aliases[c->naliases].doc = cat;
			c->aliases[c->naliases].seq = c->naliases;
			c->naliases++;
		}
	}
	if (c->naliases > 1)
		qsort(c->aliases, c->naliases, sizeof(*c->aliases), alias_ref_cmp);
	for (i = 1; i < c->naliases; i++) {
		const struct alias_ref *first = &c->aliases[i - 1];
		const struct alias_ref *r = &c->aliases[i];

		if (strcmp(first->alias->auto_id, r->alias->auto_id))
			continue;
		while (first > c->aliases &&
		       !strcmp(first[-1].alias->auto_id, r->alias->auto_id))
			first--;
		kmsg_diag_add(&c->diags, r->doc->file, r->alias->line, true,
			      "%s: automatic id %s is documented by %s too, at %s:%u",
			      r->doc->id, r->alias->auto_id, first->doc->id,
			      first->doc->file, first->alias->line);
	}
}

static void run_checks(struct ctx *c)
{
	size_t i;

	attach(c);
	for (i = 0; i < c->nids; i++)
		check_ident(c, &c->ids[i]);
	check_aliases(c);
	kmsg_diags_sort(&c->diags);
}

/* ---- templates ---- */

struct missing {
	const struct kmsg_msg *m;
};

static int missing_cmp(const void *a, const void *b)
{
	const struct kmsg_msg *x = ((const struct missing *)a)->m;
	const struct kmsg_msg *y = ((const struct missing *)b)->m;
	int r = strcmp(x->file, y->file);

	if (r)
		return r;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return kmsg_id_cmp(x->component, x->number, y->component, y->number);
}

static void print_template(const struct options *opt, const struct kmsg_msg *m)
{
	size_t k, n = kmsg_fmt_values(m->format);
	char *fmt = escaped(m->format);

	putchar('\n');
	if (opt->tmpl == TEMPLATE_SOURCE) {
		fputs("/*\n * message\n", stdout);
		for (k = 0; k < n; k++)
			printf(" * @%zu:\n", k);
		fputs(" *\n * Description:\n *\n * User Response:\n */\n", stdout);
		printf("KMSG_DOC(%s, %u, \"%s\");\n", m->component, m->number, fmt);
	} else {
		printf("id: %s\n", m->id);
		printf("severity: %s\n", kmsg_level_name(m->level));
		printf("format: %s\n", fmt);
		for (k = 0; k < n; k++)
			printf("parameter: @%zu\n", k);
		fputs("description:\nuser-response:\n", stdout);
	}
	free(fmt);
}

static void print_templates(struct ctx *c)
{
	struct missing *v = kmsg_xcalloc(c->nids + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < c->nids; i++)
		if (c->ids[i].missing)
			v[n++].m = c->sorted[c->ids[i].msgs[0]];
	if (n) {
		if (n > 1)
			qsort(v, n, sizeof(*v), missing_cmp);
		fputs("# Templates for undocumented messages:\n", stdout);
		for (i = 0; i < n; i++)
			print_template(&c->opt, v[i].m);
	}
	free(v);
}

/* ---- the database ---- */

/*
 * The rows of messages: every call site of the build once, the kmsg_*()
 * ones and the plain ones (which the checks know only through the
 * entries that adopted them).  Sorted; a module given twice counts once.
 */
static const struct kmsg_msg **site_rows(struct ctx *c, size_t *nrows)
{
	const struct kmsg_msg **v = kmsg_xcalloc(c->nsorted + c->sites.n + 1,
						  sizeof(*v));
	size_t i, n = 0, k = 0;

	for (i = 0; i < c->nsorted; i++)
		if (!c->sorted[i]->adopted)
			v[n++] = c->sorted[i];
	for (i = 0; i < c->sites.n; i++)
		if (c->sites.v[i].auto_id)
			v[n++] = &c->sites.v[i];
	if (n > 1)
		qsort(v, n, sizeof(*v), msg_cmp);
	for (i = 0; i < n; i++)
		if (!k || msg_cmp(&v[k - 1], &v[i]))
			v[k++] = v[i];
	*nrows = k;
	return v;
}

static int write_db(struct ctx *c)
{
	struct kmsg_db_input in = {
		.release = c->opt.release ? c->opt.release : "",
		.build_id = c->build_id ? c->build_id : "",
	};
	const struct kmsg_msg **rows = site_rows(c, &in.nmsgs);
	struct kmsg_db_doc *docs = kmsg_xcalloc(c->nids + 1, sizeof(*docs));
	struct kmsg_db_alias *aliases = kmsg_xcalloc(c->naliases + 1,
						     sizeof(*aliases));
	struct kmsg_db_trans *trans = NULL;
	size_t i, k, ntrans = 0, cap = 0;
	char *err;
	int ret;

	for (i = 0; i < c->nids; i++) {
		const struct ident *id = &c->ids[i];
		const struct kmsg_doc *eff = id->src ? id->src :
			id->cat && id->cat->described ? id->cat : NULL;

		if (eff) {
			docs[in.ndocs].doc = eff;
			docs[in.ndocs].see_also = eff->see_also[0] || !id->cat ?
				eff->see_also : id->cat->see_also;
			in.ndocs++;
		}
		if (!id->cat)
			continue;
		for (k = 0; k < id->cat->naliases; k++) {
			aliases[in.naliases].id = id->id;
			aliases[in.naliases].alias = &id->cat->aliases[k];
			aliases[in.naliases].position = (unsigned int)k;
			aliases[in.naliases].file = id->cat->file;
			in.naliases++;
		}
		for (k = 0; k < id->cat->ntrans; k++) {
			KMSG_GROW(trans, cap, ntrans);
			trans[ntrans].id = id->id;
			trans[ntrans].trans = &id->cat->trans[k];
			trans[ntrans].file = id->cat->file;
			ntrans++;
		}
	}
	in.msgs = rows;
	in.docs = docs;
	in.trans = trans;
	in.ntrans = ntrans;
	in.aliases = aliases;
	ret = kmsg_db_write(c->opt.out, &in, &err);
	if (ret) {
		fprintf(stderr, "kmsg-doc: %s: %s\n", c->opt.out, err);
		free(err);
	}
	free(rows);
	free(docs);
	free(aliases);
	free(trans);
	return ret;
}

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
static int coverage(struct ctx *c)
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
			char *e = escaped(u[i]->m->format);

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

/* ---- main ---- */

static int parse_args(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "srctree", required_argument, NULL, 's' },
		{ "catalog", required_argument, NULL, 'c' },
		{ "template", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "release", required_argument, NULL, 'r' },
		{ "coverage", no_argument, NULL, 'C' },
		{ "templates", required_argument, NULL, 'T' },
		{ "log", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	if (argc < 2) {
		usage(stderr);
		return -1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		exit(0);
	}
	if (!strcmp(argv[1], "build-db")) {
		opt->build_db = true;
	} else if (strcmp(argv[1], "check")) {
		fprintf(stderr, "kmsg-doc: unknown command \"%s\"\n", argv[1]);
		usage(stderr);
		return -1;
	}
	opt->srctree = ".";
	optind = 2;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			opt->srctree = optarg;
			break;
		case 'c':
			opt->catalog = optarg;
			break;
		case 't':
			if (opt->build_db)
				goto wrong;
			if (!strcmp(optarg, "source")) {
				opt->tmpl = TEMPLATE_SOURCE;
			} else if (!strcmp(optarg, "catalog")) {
				opt->tmpl = TEMPLATE_CATALOG;
			} else {
				fputs("kmsg-doc: --template is source or catalog\n", stderr);
				return -1;
			}
			break;
		case 'o':
			if (!opt->build_db)
				goto wrong;
			opt->out = optarg;
			break;
		case 'r':
			if (!opt->build_db)
				goto wrong;
			opt->release = optarg;
			break;
		case 'C':
		case 'T':
		case 'L':
			if (opt->build_db)
				goto wrong;
			opt->coverage = true;
			if (ch == 'T')
				opt->templates = optarg;
			else if (ch == 'L')
				opt->log = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (opt->build_db && !opt->out) {
		fputs("kmsg-doc: build-db needs --out FILE\n", stderr);
		return -1;
	}
	if (optind >= argc) {
		fputs("kmsg-doc: no OBJECT given\n", stderr);
		usage(stderr);
		return -1;
	}
	return 0;
wrong:
	fprintf(stderr, "kmsg-doc: %s is not an option of %s\n", argv[optind - 1],
		argv[1]);
	return -1;
}

static void ctx_free(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->nids; i++)
		free(c->ids[i].msgs);
	free(c->ids);
	free(c->aliases);
	free(c->sorted);
	kmsg_msgs_free(&c->msgs);
	kmsg_msgs_free(&c->sites);
	kmsg_docs_free(&c->srcdocs);
	kmsg_docs_free(&c->catdocs);
	kmsg_diags_free(&c->diags);
	free(c->build_id);
}

/* kmsg-doc auto-id MODNAME FORMAT */
static int cmd_auto_id(int argc, char **argv)
{
	char *id;

	if (argc != 4) {
		fputs("kmsg-doc: auto-id takes MODNAME and FORMAT\n", stderr);
		usage(stderr);
		return 2;
	}
	if (!kmsg_valid_modname(argv[2], strlen(argv[2]))) {
		fprintf(stderr, "kmsg-doc: \"%s\" is not a KBUILD_MODNAME (letters, digits and _)\n",
			argv[2]);
		return 2;
	}
	id = kmsg_catalog_auto_id(argv[2], argv[3]);
	printf("%s\n", id);
	free(id);
	if (fflush(stdout) || ferror(stdout)) {
		fputs("kmsg-doc: error writing the output\n", stderr);
		return 1;
	}
	return 0;
}

/* kmsg-doc journal-catalog [--db FILE] DIR: DIR/kmsg.catalog */
static int cmd_journal_catalog(int argc, char **argv)
{
	const char *db = getenv("KMSG_DB"), *dir = NULL;
	int i;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--db") && i + 1 < argc)
			db = argv[++i];
		else if (!strncmp(argv[i], "--db=", 5))
			db = argv[i] + 5;
		else if (!dir && argv[i][0] != '-')
			dir = argv[i];
		else
			dir = NULL, i = argc;
	}
	if (!dir || !db) {
		fputs("kmsg-doc: journal-catalog takes --db FILE (or KMSG_DB) and DIR\n",
		      stderr);
		usage(stderr);
		return 2;
	}
	return kmsg_journal_catalog(db, dir);
}

/* What check and build-db do before their output */
static void run_build(struct ctx *c, char **objects, int nobjects)
{
	load_objects(c, objects, nobjects);
	load_catalogs(c);
	adopt_alias_sites(c);
	sort_msgs(c);
	load_sources(c);
	build_idents(c);
	run_checks(c);
}

/* kmsg-doc diff: the database of a build, as build-db writes it */
static int diff_build(char **objects, int nobjects, const char *srctree,
		      const char *catalog, const char *out)
{
	struct ctx c = { 0 };
	int ret = -1;

	c.opt.build_db = true;
	c.opt.srctree = srctree;
	c.opt.catalog = catalog;
	c.opt.out = out;
	run_build(&c, objects, nobjects);
	if (kmsg_diags_errors(&c.diags) || c.failed) {
		kmsg_diags_print(&c.diags, stderr);
		fputs("kmsg-doc: errors in the build or its documentation\n",
		      stderr);
	} else {
		ret = write_db(&c) ? -1 : 0;
	}
	ctx_free(&c);
	return ret;
}

int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	size_t errors;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "auto-id"))
		return cmd_auto_id(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "journal-catalog"))
		return cmd_journal_catalog(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return kmsg_doc_diff(argc, argv, diff_build);
	if (parse_args(argc, argv, &c.opt))
		return 2;

	run_build(&c, argv + optind, argc - optind);

	kmsg_diags_print(&c.diags, stdout);
	errors = kmsg_diags_errors(&c.diags);
	if (!c.opt.build_db) {
		print_templates(&c);
		if (c.opt.coverage && coverage(&c))
			c.failed = true;
		ret = errors || c.failed ? 1 : 0;
	} else if (errors || c.failed) {
		fprintf(stderr, "kmsg-doc: %s%s, no database written\n",
			errors ? "errors in the documentation" : "errors",
			errors && c.failed ? " and the objects" : "");
		ret = 1;
	} else {
		ret = write_db(&c) ? 1 : 0;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fputs("kmsg-doc: error writing the output\n", stderr);
		ret = 1;
	}
	ctx_free(&c);
	return ret;
}
