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
 * module would be a wrong id.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

struct stock {
	struct ctx *c;
	const char *input;
	size_t modules, images, members;
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

/* A module's name and dependencies, once per name (the first copy's) */
static void add_module(struct ctx *c, const struct kmsg_blob *b)
{
	char *name, *depends;
	size_t i;

	if (kmsg_sites_module(b->name, b->data, b->size, &name, &depends))
		return;		/* kmsg_sites_read() says what is wrong */
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
		add_module(c, b);
		if (kmsg_sites_scan(b->name, b->data, b->size, NULL, &c->sites,
				    NULL, &s->wrappers, NULL, &err)) {
			/* a member's name is the package's: no terminal controls */
			for (char *q = err; *q; q++)
				if ((unsigned char)*q < ' ' || *q == 0x7f)
					*q = '?';
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
			if (w.file && (!m->file || !m->file[0])) {
				size_t dl = w.comp_dir ? strlen(w.comp_dir) : 0;
				const char *f = w.file;

				/* relative to the tree it was built in */
				if (dl && !strncmp(f, w.comp_dir, dl) && f[dl] == '/')
					f += dl + 1;
				free(m->file);
				m->file = kmsg_xstrdup(f);
				m->line = w.line > 0 ? (unsigned int)w.line : 0;
			}
			if (w.func) {
				free(m->func);
				m->func = kmsg_xstrdup(w.func);
			}
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
	if (!ret && !s.failed && c->sites.n == before) {
		char *msg = kmsg_xprintf("%s: no printk call site in its kernel images and modules, and no printk index",
					 input);

		error_msg(c, msg);
		free(msg);
		ret = -1;
	}
	return ret;
}
