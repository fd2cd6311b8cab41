// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc: a kernel as a distribution ships it, without a printk index:
 * a linux-image .deb, a vmlinuz, a module tree, single modules (.ko,
 * .ko.xz, .ko.zst, .ko.gz) or a vmlinux.
 *
 * lib/kmsg_unpack.c streams each kernel image and module of the input,
 * decompressed; lib/kmsg_sites.c finds the printk-family call sites of
 * each from its code (relocations in a module, the instructions in
 * vmlinux).  A module's sites have its KBUILD_MODNAME from .modinfo.  A
 * built-in site's module is that of the compile unit the call is in:
 * DWARF of the -dbg vmlinux (--dbg) gives the unit, kbuild's own view of
 * the distribution's configuration (--kbuild-map, from
 * tools/kbuild-modnames.sh) its KBUILD_MODNAME.  A built-in site whose
 * module is not known so is left out and counted: an id with a guessed
 * module would be a wrong id.  The modules of the -dbg package (or any
 * tree of the same modules with their DWARF: --dbg-modules) give the
 * file, line and function of the modules' sites, each module checked by
 * its build id to be the one read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg-doc.h"
#include "kmsg_dwarf.h"
#include "kmsg_modmap.h"
#include "kmsg_sites.h"
#include "kmsg_unpack.h"
#include "kmsg_xalloc.h"

/* a module read, by name: its GNU build id (hex; NULL if none) */
struct modid {
	char *name, *build_id;
};

struct stock {
	struct ctx *c;
	const char *input;
	size_t modules, images, members;
	struct modid *ids;
	size_t nids, ids_cap;
	/* the wrappers (first pass), those whose calls are read (second) */
	struct kmsg_wrappers wrappers;
	bool second;
	bool tty;
	bool failed;
};

static void progress(struct stock *s, bool last)
{
	if (!s->tty)
		return;
	fprintf(stderr, "\r  READ    %s: %zu modules%s", s->input, s->modules,
		last ? "\n" : "");
}

/* the banner, "Linux version RELEASE ...", of a vmlinux image */
char *vmlinux_banner(const unsigned char *p, size_t n, const char *release)
{
	static const char key[] = "Linux version ";
	const unsigned char *q = p, *end = p + n;
	size_t rl = release ? strlen(release) : 0;

	while ((q = memmem(q, end - q, key, sizeof(key) - 1))) {
		const unsigned char *e = memchr(q, 0, end - q);
		const char *r = (const char *)q + sizeof(key) - 1;

		if (!e)
			break;
		const unsigned char *h = memmem(q, e - q, ") #", 3);

		/*
		 * linux_banner is whole, UTS_VERSION "#N ..." after the
		 * compiler; linux_proc_banner has "%s", and a vmlinux may
		 * hold an early copy without the build number ("# SMP")
		 */
		if (!memchr(q, '%', e - q) && e - q < 512 && h && h + 3 < e &&
		    h[3] >= '0' && h[3] <= '9' &&
		    (!rl || (!strncmp(r, release, rl) && r[rl] == ' '))) {
			size_t len = e - q;

			while (len && (q[len - 1] == '\n'))
				len--;
			return kmsg_xstrndup((const char *)q, len);
		}
		q = e;
	}
	return NULL;
}

/* The GNU build id of an ELF image, in hex; NULL if it has none */
static char *elf_build_id(const unsigned char *p, size_t n)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	char *hex = NULL;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)p, n);
	if (!elf)
		return NULL;
	while (!hex && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *d;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		while (!hex && (off = gelf_getnote(d, off, &nh, &name_off,
						  &desc_off)) > 0) {
			const unsigned char *b;
			size_t k;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + name_off, "GNU", 4) ||
			    !nh.n_descsz || nh.n_descsz > 64)
				continue;
			b = (const unsigned char *)d->d_buf + desc_off;
			hex = kmsg_xmalloc(2 * nh.n_descsz + 1);
			for (k = 0; k < nh.n_descsz; k++)
				sprintf(hex + 2 * k, "%02x", b[k]);
		}
	}
	elf_end(elf);
	return hex;
}

/*
 * A module's name and dependencies, once per name (the first copy's);
 * for --dbg-modules, the build id of each copy
 */
static void add_module(struct stock *s, const struct kmsg_blob *b)
{
	struct ctx *c = s->c;
	char *name, *depends;
	size_t i;

	if (kmsg_sites_module(b->name, b->data, b->size, &name, &depends))
		return;		/* kmsg_sites_read() says what is wrong */
	if (c->opt.dbg_modules) {
		KMSG_GROW(s->ids, s->ids_cap, s->nids);
		s->ids[s->nids].name = kmsg_xstrdup(name);
		s->ids[s->nids++].build_id = elf_build_id(b->data, b->size);
	}
	for (i = 0; i < c->nmodules; i++)
		if (!strcmp(c->modules[i].name, name))
			break;
	if (i < c->nmodules) {
		free(name);
		free(depends);
		return;
	}
	KMSG_GROW(c->modules, c->modules_cap, c->nmodules);
	c->modules[c->nmodules].name = name;
	c->modules[c->nmodules++].depends = depends;
}

/* A member's name is the package's: no terminal controls in a message */
static void printable(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < ' ' || *msg == 0x7f)
			*msg = '?';
}

static int blob_cb(const struct kmsg_blob *b, void *arg)
{
	struct stock *s = arg;
	struct ctx *c = s->c;
	char *err = NULL;

	s->members++;
	if (s->second) {
		/* a damaged module was reported by the first pass */
		if (b->kind == KMSG_BLOB_MODULE &&
		    kmsg_sites_scan(b->name, b->data, b->size, NULL, &c->sites,
				    NULL, NULL, &s->wrappers, &err))
			free(err);
		return 0;
	}
	switch (b->kind) {
	case KMSG_BLOB_MODULE:
		add_module(s, b);
		if (kmsg_sites_scan(b->name, b->data, b->size, NULL, &c->sites,
				    NULL, &s->wrappers, NULL, &err)) {
			printable(err);
			error_msg(c, err);
			free(err);
			s->failed = true;
		}
		s->modules++;
		if (!(s->modules % 64))
			progress(s, false);
		break;
	case KMSG_BLOB_VMLINUX:
		if (b->version && !c->release)
			c->release = kmsg_xstrndup(b->version, strcspn(b->version, " "));
		if (!c->banner)
			c->banner = vmlinux_banner(b->data, b->size, c->release);
		s->images++;
		break;
	default:
		break;
	}
	return 0;
}

/* A site's file, line and function from the DWARF of its call */
static void set_where(struct kmsg_msg *m, const struct kmsg_dwarf_where *w)
{
	if (w->file && (!m->file || !m->file[0])) {
		size_t dl = w->comp_dir ? strlen(w->comp_dir) : 0;
		const char *f = w->file;

		/* relative to the tree it was built in */
		if (dl && !strncmp(f, w->comp_dir, dl) && f[dl] == '/')
			f += dl + 1;
		free(m->file);
		m->file = kmsg_xstrdup(f);
		m->line = w->line > 0 ? (unsigned int)w->line : 0;
	}
	if (w->func) {
		free(m->func);
		m->func = kmsg_xstrdup(w->func);
	}
}

/*
 * The built-in sites: their module from the unit of the call.  Returns
 * how many were left out for want of it.
 */
static size_t builtin_modnames(struct ctx *c, size_t first,
			       struct kmsg_dwarf *dw, const struct kmsg_modmap *map,
			       size_t *ambiguous)
{
	size_t i, out = first, left = 0;

	*ambiguous = 0;
	for (i = first; i < c->sites.n; i++) {
		struct kmsg_msg *m = &c->sites.v[i];
		struct kmsg_dwarf_where w;
		const char *modname = NULL;
		int r = KMSG_MODMAP_UNKNOWN;

		if (m->modname && m->modname[0]) {
			/* a dynamic debug descriptor names its module */
			c->sites.v[out++] = *m;
			continue;
		}
		if (dw && map && !kmsg_dwarf_where(dw, m->addr, &w)) {
			r = kmsg_modmap_unit(map, w.cu_name, &modname);
			set_where(m, &w);
		}
		if (r != KMSG_MODMAP_FOUND) {
			if (r == KMSG_MODMAP_AMBIGUOUS)
				(*ambiguous)++;
			left++;
			kmsg_msg_free(m);
			continue;
		}
		free(m->modname);
		m->modname = kmsg_xstrdup(modname);
		free(m->auto_id);
		m->auto_id = kmsg_catalog_auto_id(m->modname, m->format);
		c->sites.v[out++] = *m;
	}
	c->sites.n = out;
	return left;
}

/* mmap a whole file read-only: its size in *size, NULL with errno */
static void *map_file(const char *path, size_t *size)
{
	struct stat st;
	void *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*size = st.st_size;
	return p;
}

/* The banner of the vmlinux at path, NULL if none */
char *file_banner(const char *path, const char *release)
{
	size_t size;
	void *p = map_file(path, &size);
	char *b;

	if (!p)
		return NULL;
	b = vmlinux_banner(p, size, release);
	munmap(p, size);
	return b;
}

/*
 * The call sites of vmlinux, from the --dbg one: the same code as the
 * input's, with the symbol table that tells where the printk family is.
 */
static int scan_vmlinux(struct ctx *c, struct kmsg_wrappers *wr)
{
	char *err = NULL;
	size_t size;
	void *p;
	int ret;

	p = map_file(c->opt.dbg, &size);
	if (!p) {
		err = kmsg_xprintf("%s: %s", c->opt.dbg, strerror(errno));
		error_msg(c, err);
		free(err);
		return -1;
	}
	ret = kmsg_sites_scan(c->opt.dbg, p, size, NULL, &c->sites, NULL, wr,
			      NULL, &err);
	/* then the calls of the wrappers of vmlinux and of the modules */
	if (!ret) {
		kmsg_wrappers_sort(wr);
		ret = kmsg_sites_scan(c->opt.dbg, p, size, NULL, &c->sites, NULL,
				      NULL, wr, &err);
	}
	munmap(p, size);
	if (ret) {
		error_msg(c, err);
		free(err);
	}
	return ret;
}

/* The built-in sites of the --dbg vmlinux, with their modules */
static int read_builtin(struct ctx *c, const char *input,
			struct kmsg_wrappers *wr)
{
	struct kmsg_modmap map = { 0 };
	struct kmsg_dwarf *dw;
	size_t first = c->sites.n, left, amb;
	char e[512];

	if (c->banner) {
		char *b = file_banner(c->opt.dbg, NULL);

		if (!b || strcmp(b, c->banner)) {
			char *msg = kmsg_xprintf("%s: not the vmlinux of %s: its banner is %s%s%s, the kernel's \"%s\"",
						 c->opt.dbg, input, b ? "\"" : "",
						 b ? b : "missing", b ? "\"" : "",
						 c->banner);

			error_msg(c, msg);
			free(msg);
			free(b);
			return -1;
		}
		free(b);
	}
	if (!c->opt.kbuild_map) {
		error_msg(c, "kmsg-doc: --dbg needs --kbuild-map FILE, kbuild's view of the configuration (tools/kbuild-modnames.sh)");
		return -1;
	}
	if (kmsg_modmap_load(&map, c->opt.kbuild_map, e, sizeof(e))) {
		error_msg(c, e);
		return -1;
	}
	dw = kmsg_dwarf_open(c->opt.dbg, e, sizeof(e));
	if (!dw) {
		error_msg(c, e);
		kmsg_modmap_free(&map);
		return -1;
	}
	if (!scan_vmlinux(c, wr)) {
		left = builtin_modnames(c, first, dw, &map, &amb);
		if (left)
			fprintf(stderr, "kmsg-doc: %s: %zu of %zu built-in call sites left out: their compile unit's module is not known to kbuild (%zu) or not one (%zu)\n",
				input, left, c->sites.n - first + left, left - amb, amb);
	}
	kmsg_dwarf_close(dw);
	kmsg_modmap_free(&map);
	return 0;
}

/* The pass over --dbg-modules: the module sites read, by object */
struct dbgpass {
	struct stock *s;
	struct bysite {
		const char *object;
		size_t i;
	} *by;
	size_t n;
	size_t modules, sites, unread, twice;
	char *unread_err;	/* why the first module was not read */
};

static int bysite_cmp(const void *a, const void *b)
{
	const struct bysite *x = a, *y = b;
	int r = strcmp(x->object, y->object);

	return r ? r : (x->i > y->i) - (x->i < y->i);
}

static void dbg_progress(const struct kmsg_unpack_progress *p, void *arg)
{
	struct dbgpass *d = arg;

	if (d->s->tty && p->in_size && !(p->done % 64))
		fprintf(stderr, "\r  DWARF   %s: %u%%, %zu modules", p->input,
			(unsigned int)(p->in_pos * 100 / p->in_size),
			d->modules);
}

static int dbg_cb(const struct kmsg_blob *b, void *arg)
{
	struct dbgpass *d = arg;
	struct ctx *c = d->s->c;
	struct kmsg_dwarf *dw;
	char *name, *depends, *bid, e[512];
	const char *want = NULL;
	size_t lo = 0, hi = d->n, k;
	bool same = false, other = false;
	int ret = 0;

	if (b->kind != KMSG_BLOB_MODULE ||
	    kmsg_sites_module(b->name, b->data, b->size, &name, &depends))
		return 0;
	free(depends);
	while (lo < hi) {	/* the first site of the module */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(d->by[mid].object, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == d->n || strcmp(d->by[lo].object, name)) {
		free(name);
		return 0;
	}
	bid = elf_build_id(b->data, b->size);
	for (k = 0; k < d->s->nids; k++) {
		const char *id = d->s->ids[k].build_id;

		if (strcmp(d->s->ids[k].name, name))
			continue;
		if (bid && id && !strcmp(id, bid)) {
			same = true;
		} else {
			other = true;
			want = id;
		}
	}
	if (same && other) {
		/* two builds of one module read: whose sites are whose? */
		d->twice++;
		goto out;
	}
	if (!same) {
		char *msg = kmsg_xprintf("%s: %s: not the module %s of %s: its build id is %s, that of the module read %s",
					 c->opt.dbg_modules, b->name, name,
					 d->s->input, bid ? bid : "missing",
					 want ? want : "missing");

		printable(msg);
		error_msg(c, msg);
		free(msg);
		ret = -1;
		goto out;
	}
	dw = kmsg_dwarf_open_rel(b->name, b->data, b->size, e, sizeof(e));
	if (!dw) {
		if (!d->unread++)
			d->unread_err = kmsg_xstrdup(e);
		goto out;
	}
	for (k = lo; k < d->n && !strcmp(d->by[k].object, name); k++) {
		struct kmsg_msg *m = &c->sites.v[d->by[k].i];
		struct kmsg_dwarf_where w;
		uint64_t a;

		if (!kmsg_dwarf_section_addr(dw, m->section, m->addr, &a) &&
		    !kmsg_dwarf_where(dw, a, &w)) {
			set_where(m, &w);
			d->sites++;
		}
	}
	kmsg_dwarf_close(dw);
	d->modules++;
out:
	free(bid);
	free(name);
	return ret;
}

/*
 * The file, line and function of the module sites read (from first on),
 * from the DWARF of the same modules in --dbg-modules.
 */
static int read_dbg_modules(struct stock *s, size_t first)
{
	struct ctx *c = s->c;
	struct dbgpass d = { .s = s };
	struct kmsg_unpack_opts o = {
		.kinds = 1u << KMSG_BLOB_MODULE,
		.max_size = 4ULL << 30,
		.progress = dbg_progress,
		.progress_arg = &d,
	};
	char *err = NULL;
	size_t i;
	int ret = 0;

	d.by = kmsg_xmalloc((c->sites.n - first + 1) * sizeof(*d.by));
	for (i = first; i < c->sites.n; i++)
		if (c->sites.v[i].section && !c->sites.v[i].file[0]) {
			d.by[d.n].object = c->sites.v[i].object;
			d.by[d.n++].i = i;
		}
	qsort(d.by, d.n, sizeof(*d.by), bysite_cmp);
	if (d.n && kmsg_unpack_ex(c->opt.dbg_modules, &o, dbg_cb, &d, &err)) {
		if (err)
			error_msg(c, err);
		free(err);
		ret = -1;
	}
	if (s->tty)
		fprintf(stderr, "\r  DWARF   %s: %zu modules, %zu of %zu sites with their file and line\n",
			c->opt.dbg_modules, d.modules, d.sites, d.n);
	if (!ret && d.sites < d.n) {
		char *msg = kmsg_xprintf("kmsg-doc: %s: %zu of %zu module sites without file and line: not at a line of the module's DWARF, or in a module it does not have or cannot read (%zu not read%s%s; %zu read twice, in two builds)",
					 c->opt.dbg_modules, d.n - d.sites, d.n,
					 d.unread, d.unread_err ? ", first: " : "",
					 d.unread_err ? d.unread_err : "",
					 d.twice);

		printable(msg);
		fprintf(stderr, "%s\n", msg);
		free(msg);
	}
	free(d.unread_err);
	free(d.by);
	return ret;
}

int stock_read(struct ctx *c, const char *input)
{
	struct stock s = { .c = c, .input = input, .tty = isatty(2) };
	size_t before = c->sites.n;
	char *err = NULL;
	int ret = 0;

	if (kmsg_unpack(input, blob_cb, &s, &err)) {
		error_msg(c, err);
		free(err);
		ret = -1;
	}
	progress(&s, true);
	if (s.images && !c->opt.dbg)
		fprintf(stderr, "kmsg-doc: %s: built-in messages left out: their modules need the DWARF of the -dbg vmlinux (--dbg) and kbuild's view of the configuration (--kbuild-map)\n",
			input);
	else if (s.images && read_builtin(c, input, &s.wrappers))
		ret = -1;
	/* the modules' calls of the wrappers: a second pass */
	kmsg_wrappers_sort(&s.wrappers);
	if (!ret && s.wrappers.n) {
		size_t from = c->sites.n;

		s.second = true;
		if (kmsg_unpack(input, blob_cb, &s, &err)) {
			error_msg(c, err);
			free(err);
			ret = -1;
		}
		if (s.tty)
			fprintf(stderr, "  READ    %s: %zu wrappers, %zu sites of their calls in modules\n",
				input, s.wrappers.n, c->sites.n - from);
	}
	kmsg_wrappers_free(&s.wrappers);
	if (!ret && c->opt.dbg_modules && read_dbg_modules(&s, before))
		ret = -1;
	for (size_t i = 0; i < s.nids; i++) {
		free(s.ids[i].name);
		free(s.ids[i].build_id);
	}
	free(s.ids);
	if (!ret && !s.failed && c->sites.n == before) {
		char *msg = kmsg_xprintf("%s: no printk call site in its kernel images and modules, and no printk index",
					 input);

		error_msg(c, msg);
		free(msg);
		ret = -1;
	}
	return ret;
}
