// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc: a build's messages and their documentation, read and paired
 * (what check, build-db and diff share)
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
#include <gelf.h>
#include <libelf.h>

#include "kmsg-doc.h"

void error_msg(struct ctx *c, const char *msg)
{
	fprintf(stderr, "%s\n", msg);
	c->failed = true;
}

/* Read a whole file; NULL with errno set on failure. */
char *read_text(const char *path, size_t *len)
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
static void check_object(struct ctx *c, const char *object, size_t sites,
			 bool failed)
{
	char *msg;

	if (failed || sites)
		return;
	msg = kmsg_xprintf("%s: its printk index lists no call site", object);
	error_msg(c, msg);
	free(msg);
}

/* Is path an ELF file with a .printk_index section? */
static bool elf_has_index(const char *path)
{
	size_t i, n, shstrndx;
	bool found = false;
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && !elf_getshdrnum(elf, &n) &&
	    !elf_getshdrstrndx(elf, &shstrndx)) {
		for (i = 1; i < n && !found; i++) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(elf_getscn(elf, i), &sh))
				break;
			name = elf_strptr(elf, shstrndx, sh.sh_name);
			found = name && !strcmp(name, ".printk_index");
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

/*
 * A build with a printk index (the kmsg series' CONFIG_PRINTK_INDEX), read
 * by lib/kmsg_index.c, or else a kernel as a distribution ships it
 * (stock.c): an ELF file or a directory of them with a .printk_index is
 * the first.
 */
static bool index_input(const char *path)
{
	char **files = NULL, *err = NULL;
	size_t n = 0, cap = 0, i;
	bool found = false;

	if (kmsg_index_files(path, &files, &n, &cap, &err))
		free(err);
	for (i = 0; i < n; i++) {
		found = found || elf_has_index(files[i]);
		free(files[i]);
	}
	free(files);
	return found;
}

static void load_objects(struct ctx *c, char **objects, int nobjects)
{
	char **files = NULL, *err;
	size_t nfiles = 0, cap = 0, i = 0, sites;
	int k;
	bool failed;

	for (k = 0; k < nobjects; k++) {
		size_t first = nfiles;

		if (!index_input(objects[k])) {
			stock_read(c, objects[k]);
			continue;
		}
		failed = false;
		if (kmsg_index_files(objects[k], &files, &nfiles, &cap, &err)) {
			error_msg(c, err);
			free(err);
			failed = true;
		}
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
			if (!c->banner && !strcmp(basename(files[i]), "vmlinux"))
				c->banner = file_banner(files[i], c->opt.release);
			free(files[i]);
		}
		check_object(c, objects[k], c->sites.n - sites, failed);
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
int msg_cmp(const void *a, const void *b)
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

struct ident *find_ident(struct ctx *c, const char *comp, unsigned int nr)
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

/* What check and build-db do before their output */
void run_build(struct ctx *c, char **objects, int nobjects)
{
	load_objects(c, objects, nobjects);
	load_catalogs(c);
	adopt_alias_sites(c);
	sort_msgs(c);
	load_sources(c);
	build_idents(c);
	run_checks(c);
}


void ctx_free(struct ctx *c)
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
	for (i = 0; i < c->nmodules; i++) {
		free((char *)c->modules[i].name);
		free((char *)c->modules[i].depends);
	}
	free(c->modules);
	free(c->build_id);
	free(c->release);
	free(c->banner);
}


