// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_index - read the printk index of ELF files.  See kmsg_index.h.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "kmsg_hash.h"
#include "kmsg_index.h"
#include "kmsg_srcdoc.h"

#ifndef R_X86_64_64
#define R_X86_64_64 1
#endif
#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

struct rel {
	uint64_t off;
	uint64_t sym;
	uint64_t type;
	int64_t addend;
	size_t symtab;		/* section index of the symbol table */
};

struct sec {
	GElf_Shdr sh;
	const char *name;
	const unsigned char *data;
	size_t size;
	bool loaded, ok;
	Elf_Data *edata;
	struct rel *rels;
	size_t nrels;
	bool rels_loaded;
};

struct obj {
	const char *path;
	Elf *elf;
	GElf_Ehdr eh;
	size_t nsec;
	struct sec *secs;
	uint64_t fsize;
	char *err;		/* the first error */
	size_t entry;		/* entry being read, for messages */
};

/*
 * Record the first error, "PATH: corrupt printk index: problem"; only with
 * a literal format.
 */
#define corrupt(o, fmt, ...)						\
	kmsg_first_err(&(o)->err, "%s: corrupt printk index: " fmt,	\
		       (o)->path, ##__VA_ARGS__)

static const char *sec_name(const struct obj *o, size_t idx)
{
	const char *name = idx < o->nsec ? o->secs[idx].name : NULL;

	return name ? name : "?";
}

/* The data of section idx, checked against the file; false if unusable. */
static bool sec_load(struct obj *o, size_t idx)
{
	struct sec *s;
	Elf_Scn *scn;
	Elf_Data *d;

	if (idx >= o->nsec) {
		corrupt(o, "section index %zu out of range", idx);
		return false;
	}
	s = &o->secs[idx];
	if (s->loaded)
		return s->ok;
	s->loaded = true;
	if (s->sh.sh_type == SHT_NOBITS) {
		corrupt(o, "section %s has no data", sec_name(o, idx));
		return false;
	}
	if (s->sh.sh_offset > o->fsize || s->sh.sh_size > o->fsize - s->sh.sh_offset) {
		corrupt(o, "section %s (offset %#llx, size %#llx) beyond the end of the file",
			sec_name(o, idx), (unsigned long long)s->sh.sh_offset,
			(unsigned long long)s->sh.sh_size);
		return false;
	}
	scn = elf_getscn(o->elf, idx);
	d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!s->sh.sh_size) {
		s->data = NULL;
		s->size = 0;
		s->edata = d;
		s->ok = true;
		return true;
	}
	if (!d || !d->d_buf || d->d_size != s->sh.sh_size) {
		corrupt(o, "section %s: %s", sec_name(o, idx),
			d ? "data size mismatch" : elf_errmsg(-1));
		return false;
	}
	s->edata = d;
	s->data = d->d_buf;
	s->size = d->d_size;
	s->ok = true;
	return true;
}

static int rel_cmp(const void *a, const void *b)
{
	const struct rel *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* All RELA relocations applying to section idx, sorted by offset */
static bool rels_load(struct obj *o, size_t idx)
{
	struct sec *t = &o->secs[idx];
	size_t i, k;

	if (t->rels_loaded)
		return true;
	t->rels_loaded = true;
	for (i = 0; i < o->nsec; i++) {
		struct sec *r = &o->secs[i];
		size_t n;

		if (r->sh.sh_type != SHT_RELA || r->sh.sh_info != idx)
			continue;
		if (r->sh.sh_entsize != sizeof(Elf64_Rela) ||
		    r->sh.sh_size % sizeof(Elf64_Rela)) {
			corrupt(o, "relocation section %s: bad entry size", sec_name(o, i));
			return false;
		}
		if (r->sh.sh_link >= o->nsec ||
		    o->secs[r->sh.sh_link].sh.sh_type != SHT_SYMTAB) {
			corrupt(o, "relocation section %s: no symbol table", sec_name(o, i));
			return false;
		}
		if (!sec_load(o, i))
			return false;
		n = r->sh.sh_size / sizeof(Elf64_Rela);
		t->rels = kmsg_xrealloc(t->rels, t->nrels + n, sizeof(*t->rels));
		for (k = 0; k < n; k++) {
			GElf_Rela rela;
			struct rel *x = &t->rels[t->nrels];

			if (!gelf_getrela(r->edata, (int)k, &rela)) {
				corrupt(o, "relocation section %s: %s", sec_name(o, i),
					elf_errmsg(-1));
				return false;
			}
			x->off = rela.r_offset;
			x->sym = GELF_R_SYM(rela.r_info);
			x->type = GELF_R_TYPE(rela.r_info);
			x->addend = rela.r_addend;
			x->symtab = r->sh.sh_link;
			t->nrels++;
		}
	}
	if (t->nrels > 1)
		qsort(t->rels, t->nrels, sizeof(*t->rels), rel_cmp);
	return true;
}

/*
 * Where the pointer at offset off of section idx points: *tidx, *toff.
 * what names the pointer in messages.
 */
static bool resolve(struct obj *o, size_t idx, uint64_t off, size_t *tidx,
		    uint64_t *toff, const char *what)
{
	if (o->eh.e_type == ET_REL) {
		struct rel key = { .off = off }, *r;
		struct sec *st;
		GElf_Sym sym;
		uint64_t v;

		if (!rels_load(o, idx))
			return false;
		r = !o->secs[idx].nrels ? NULL :
			bsearch(&key, o->secs[idx].rels, o->secs[idx].nrels,
				sizeof(key), rel_cmp);
		if (!r) {
			corrupt(o, "entry %zu: %s at %s+%#llx has no relocation",
				o->entry, what, sec_name(o, idx), (unsigned long long)off);
			return false;
		}
		if (r->type != R_X86_64_64) {
			corrupt(o, "entry %zu: %s at %s+%#llx: relocation type %llu is not R_X86_64_64",
				o->entry, what, sec_name(o, idx), (unsigned long long)off,
				(unsigned long long)r->type);
			return false;
		}
		if (!sec_load(o, r->symtab))
			return false;
		st = &o->secs[r->symtab];
		if (r->sym > INT32_MAX || !st->edata ||
		    !gelf_getsym(st->edata, (int)r->sym, &sym)) {
			corrupt(o, "entry %zu: %s: bad symbol index %llu", o->entry, what,
				(unsigned long long)r->sym);
			return false;
		}
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
		    sym.st_shndx >= o->nsec) {
			corrupt(o, "entry %zu: %s: symbol %llu is not defined in a section",
				o->entry, what, (unsigned long long)r->sym);
			return false;
		}
		v = sym.st_value + (uint64_t)r->addend;
		*tidx = sym.st_shndx;
		*toff = v;
		if (!sec_load(o, *tidx))
			return false;
		if (v >= o->secs[*tidx].size) {
			corrupt(o, "entry %zu: %s points to %s+%#llx, beyond its size %#zx",
				o->entry, what, sec_name(o, *tidx), (unsigned long long)v,
				o->secs[*tidx].size);
			return false;
		}
		return true;
	} else {
		const struct sec *s = &o->secs[idx];
		uint64_t v = 0;
		size_t i;
		int b;

		if (!sec_load(o, idx))
			return false;
		if (off > s->size || s->size - off < 8) {
			corrupt(o, "entry %zu: %s at %s+%#llx beyond the section", o->entry,
				what, sec_name(o, idx), (unsigned long long)off);
			return false;
		}
		for (b = 7; b >= 0; b--)
			v = v << 8 | s->data[off + (uint64_t)b];
		for (i = 1; i < o->nsec; i++) {
			const GElf_Shdr *sh = &o->secs[i].sh;

			if (sh->sh_type == SHT_NOBITS || !(sh->sh_flags & SHF_ALLOC) ||
			    v < sh->sh_addr || v - sh->sh_addr >= sh->sh_size)
				continue;
			*tidx = i;
			*toff = v - sh->sh_addr;
			return sec_load(o, i);
		}
		corrupt(o, "entry %zu: %s %#llx is outside every section", o->entry,
			what, (unsigned long long)v);
		return false;
	}
}

/* The NUL-terminated string the pointer at (idx, off) points to */
static const char *read_string(struct obj *o, size_t idx, uint64_t off,
			       const char *what)
{
	size_t t;
	uint64_t toff;
	const struct sec *s;

	if (!resolve(o, idx, off, &t, &toff, what))
		return NULL;
	s = &o->secs[t];
	if (!memchr(s->data + toff, '\0', s->size - toff)) {
		corrupt(o, "entry %zu: %s: string at %s+%#llx without NUL", o->entry,
			what, sec_name(o, t), (unsigned long long)toff);
		return NULL;
	}
	return (const char *)s->data + toff;
}

/*
 * Is the pointer at (idx, off) NULL? In a relocatable file a pointer
 * without a relocation is; in vmlinux one of value 0 is.
 */
static bool is_null(struct obj *o, size_t idx, uint64_t off, bool *null)
{
	const struct sec *s = &o->secs[idx];

	if (o->eh.e_type == ET_REL) {
		struct rel key = { .off = off };

		if (!rels_load(o, idx))
			return false;
		*null = !s->nrels || !bsearch(&key, s->rels, s->nrels,
					      sizeof(key), rel_cmp);
		return true;
	}
	if (off > s->size || s->size - off < 8) {
		corrupt(o, "entry %zu at %s+%#llx beyond the section", o->entry,
			sec_name(o, idx), (unsigned long long)off);
		return false;
	}
	*null = !memcmp(s->data + off, "\0\0\0\0\0\0\0\0", 8);
	return true;
}

/* A string pointer that may be NULL: *str is NULL then */
static bool read_opt_string(struct obj *o, size_t idx, uint64_t off,
			    const char *what, const char **str)
{
	bool null;

	*str = NULL;
	if (!is_null(o, idx, off, &null))
		return false;
	if (null)
		return true;
	*str = read_string(o, idx, off, what);
	return *str != NULL;
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

bool kmsg_skip_level(const char **fmt, int *level, bool *cont)
{
	bool any = false;

	while ((*fmt)[0] == '\001' && (*fmt)[1]) {
		if ((*fmt)[1] >= '0' && (*fmt)[1] <= '7')
			*level = (*fmt)[1] - '0';
		else if ((*fmt)[1] == 'c')
			*cont = true;
		*fmt += 2;
		any = true;
	}
	return any;
}

/*
 * One struct pi_entry of the printk index (include/linux/printk.h):
 * a message with a curated identifier when it has a component, else a
 * site known by its automatic identifier (only with @sites).
 */
static bool read_entry(struct obj *o, size_t idx, uint64_t off,
		       const char *object, struct kmsg_msgs *out, bool sites)
{
	static const char *const names[] = {
		"fmt", "func", "file", "level", "subsys_fmt_prefix", "modname",
		"component",
	};
	static const unsigned int offs[] = {
		PI_FMT, PI_FUNC, PI_FILE, PI_LEVEL, PI_PREFIX, PI_MODNAME,
		PI_COMPONENT,
	};
	const char *str[7], *fmt, *text;
	const unsigned char *e;
	struct kmsg_msg *m;
	uint64_t eoff;
	size_t es, flen, plen = 0;
	unsigned int number;
	int level = -1, k;
	bool cont = false, nl;

	if (!resolve(o, idx, off, &es, &eoff, "pointer"))
		return false;
	if (o->secs[es].size - eoff < KMSG_INDEX_ENTRY_SIZE) {
		corrupt(o, "entry %zu at %s+%#llx extends beyond the section",
			o->entry, sec_name(o, es), (unsigned long long)eoff);
		return false;
	}
	for (k = 0; k < 7; k++)
		if (!read_opt_string(o, es, eoff + offs[k], names[k], &str[k]))
			return false;
	fmt = str[0];
	if (!fmt || !str[1] || !str[2])
		return true;	/* not a constant format: not indexed */
	e = o->secs[es].data + eoff;
	number = get_u32(e + PI_NUMBER);
	if (!str[6] && !sites)
		return true;
	if (str[6] && (!str[6][0] || !number)) {
		corrupt(o, "entry %zu: curated identifier \"%s.%u\" is not component.number",
			o->entry, str[6], number);
		return false;
	}

	/* the level: in the format, or given apart (dev_printk()) */
	text = fmt;
	kmsg_skip_level(&text, &level, &cont);
	if (str[3]) {
		const char *lv = str[3];

		kmsg_skip_level(&lv, &level, &cont);
	}
	if (level < 0)
		level = 4;	/* printk()'s default, as the index shows it */
	flen = strlen(text);
	nl = flen && text[flen - 1] == '\n';
	flen -= nl;

	KMSG_GROW(out->v, out->cap, out->n);
	m = &out->v[out->n++];
	memset(m, 0, sizeof(*m));
	m->newline = nl;
	m->modname = kmsg_xstrdup(str[5] ? str[5] : "");
	m->auto_id = kmsg_xprintf("%s.h%08x", str[5] && str[5][0] ? str[5] :
				  (strcmp(object, "vmlinux") ? object : "vmlinux"),
				  (unsigned int)kmsg_fmt_hash(text, flen));
	if (str[6]) {
		char *prefix = kmsg_xprintf("%s.%u: ", str[6], number);

		/* the macros print the identifier; the docs leave it out */
		if (!strncmp(text, prefix, strlen(prefix)))
			plen = strlen(prefix);
		free(prefix);
		m->component = kmsg_xstrdup(str[6]);
		m->id = kmsg_xprintf("%s.%u", str[6], number);
	} else {
		m->component = kmsg_xstrdup("");
	}
	m->format = kmsg_xstrndup(text + plen, flen - plen);
	m->func = kmsg_xstrdup(str[1]);
	m->file = kmsg_xstrdup(str[2]);
	m->line = get_u32(e + PI_LINE);
	m->number = str[6] ? number : 0;
	m->level = (unsigned int)level;
	m->device = str[4] != NULL;
	m->prefix = str[4] ? kmsg_xstrdup(str[4]) : NULL;
	m->cont = cont;
	m->object = kmsg_xstrdup(object);
	m->path = kmsg_xstrdup(o->path);
	return true;
}

static char *module_name(struct obj *o)
{
	const char *base = strrchr(o->path, '/');
	size_t i, n;

	if (o->eh.e_type != ET_REL)
		return kmsg_xstrdup("vmlinux");
	for (i = 1; i < o->nsec; i++) {
		const struct sec *s = &o->secs[i];
		size_t p = 0;

		if (!o->secs[i].name || strcmp(o->secs[i].name, ".modinfo") ||
		    s->sh.sh_type == SHT_NOBITS)
			continue;
		if (!sec_load(o, i))
			return NULL;
		while (p < s->size) {
			const unsigned char *q = memchr(s->data + p, '\0', s->size - p);
			size_t len = q ? (size_t)(q - (s->data + p)) : s->size - p;

			if (q && len > 5 && !memcmp(s->data + p, "name=", 5))
				return kmsg_xstrndup((const char *)s->data + p + 5,
						     len - 5);
			p += len + 1;
		}
	}
	base = base ? base + 1 : o->path;
	n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".ko"))
		n -= 3;
	else if (n > 2 && !strcmp(base + n - 2, ".o"))
		n -= 2;
	return kmsg_xstrndup(base, n);
}

static char *build_id(struct obj *o)
{
	size_t i;

	if (o->eh.e_type == ET_REL)
		return NULL;
	for (i = 1; i < o->nsec; i++) {
		const struct sec *s = &o->secs[i];
		uint64_t off = 0;

		if (s->sh.sh_type != SHT_NOTE || !sec_load(o, i))
			continue;
		while (s->size - off >= 12) {
			const unsigned char *p = s->data + off;
			uint64_t namesz = get_u32(p), descsz = get_u32(p + 4);
			uint64_t desc = off + 12 + ((namesz + 3) & ~3ull);

			if (desc > s->size || descsz > s->size - desc)
				break;
			if (get_u32(p + 8) == NT_GNU_BUILD_ID && namesz == 4 &&
			    !memcmp(p + 12, "GNU", 4) && descsz) {
				struct kmsg_strbuf sb = { 0 };
				uint64_t k;

				for (k = 0; k < descsz; k++)
					kmsg_sb_printf(&sb, "%02x", s->data[desc + k]);
				return kmsg_sb_take(&sb);
			}
			off = desc + ((descsz + 3) & ~3ull);
			if (off > s->size)
				break;
		}
	}
	return NULL;
}

void kmsg_msg_free(struct kmsg_msg *m)
{
	free(m->id);
	free(m->component);
	/* an adopted copy borrows the rest from its site */
	if (m->adopted)
		return;
	free(m->auto_id);
	free(m->modname);
	free(m->format);
	free(m->file);
	free(m->func);
	free(m->object);
	free(m->path);
	free(m->prefix);
	free(m->section);
}

void kmsg_msgs_free(struct kmsg_msgs *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		kmsg_msg_free(&m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
	m->cap = 0;
}

static bool read_index(struct obj *o, struct kmsg_msgs *tmp, char **bid,
		       bool sites)
{
	char *object;
	size_t i, k;

	object = module_name(o);
	if (!object)
		return false;
	for (i = 1; i < o->nsec && !o->err; i++) {
		const struct sec *s = &o->secs[i];

		if (!s->name || strcmp(s->name, ".printk_index"))
			continue;
		if (!sec_load(o, i))
			break;
		if (s->size % 8) {
			corrupt(o, "section .printk_index: size %zu is not a multiple of 8",
				s->size);
			break;
		}
		for (k = 0; k < s->size / 8; k++) {
			if (!read_entry(o, i, k * 8, object, tmp, sites))
				break;
			o->entry++;
		}
	}
	free(object);
	if (o->err)
		return false;
	if (bid)
		*bid = build_id(o);
	return true;
}

static int index_read(const char *path, struct kmsg_msgs *out, char **bid,
		      char **err, bool sites)
{
	struct obj o = { .path = path };
	struct kmsg_msgs tmp = { 0 };
	size_t i, shstrndx;
	unsigned char magic[SELFMAG];
	struct stat stb;
	int fd, ret = -1;

	*err = NULL;
	if (bid)
		*bid = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		*err = kmsg_xprintf("%s: libelf: %s", path, elf_errmsg(-1));
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = kmsg_xprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &stb) || !S_ISREG(stb.st_mode)) {
		*err = kmsg_xprintf("%s: not a regular file", path);
		close(fd);
		return -1;
	}
	o.fsize = (uint64_t)stb.st_size;
	if (pread(fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
	    memcmp(magic, ELFMAG, SELFMAG)) {
		unsigned char hdrs[4];

		/* x86's boot protocol: "HdrS" at 0x202 of a bzImage */
		if (pread(fd, hdrs, sizeof(hdrs), 0x202) == (ssize_t)sizeof(hdrs) &&
		    !memcmp(hdrs, "HdrS", 4))
			*err = kmsg_xprintf("%s: a compressed kernel image (bzImage, vmlinuz), not an ELF file: give the vmlinux it holds (the kernel's scripts/extract-vmlinux)",
					    path);
		else
			*err = kmsg_xprintf("%s: not an ELF file", path);
		goto out;
	}
	if (o.fsize < sizeof(Elf64_Ehdr)) {
		*err = kmsg_xprintf("%s: corrupt printk index: truncated ELF header",
				    path);
		goto out;
	}
	o.elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!o.elf || elf_kind(o.elf) != ELF_K_ELF) {
		*err = kmsg_xprintf("%s: corrupt printk index: ELF: %s", path,
				    elf_errmsg(-1));
		goto out;
	}
	if (gelf_getclass(o.elf) != ELFCLASS64 || !gelf_getehdr(o.elf, &o.eh) ||
	    o.eh.e_ident[EI_DATA] != ELFDATA2LSB || o.eh.e_machine != EM_X86_64) {
		*err = kmsg_xprintf("%s: not an x86_64 (64-bit little-endian) ELF file",
				    path);
		goto out;
	}
	if (o.eh.e_type != ET_REL && o.eh.e_type != ET_EXEC &&
	    o.eh.e_type != ET_DYN) {
		*err = kmsg_xprintf("%s: ELF type %u is not a relocatable or executable file",
				    path, o.eh.e_type);
		goto out;
	}
	if (elf_getshdrnum(o.elf, &o.nsec) || elf_getshdrstrndx(o.elf, &shstrndx)) {
		*err = kmsg_xprintf("%s: corrupt printk index: ELF: %s", path,
				    elf_errmsg(-1));
		goto out;
	}
	/* libelf quietly drops section headers outside the file */
	if (o.eh.e_shnum && o.nsec != o.eh.e_shnum)
		o.nsec = o.eh.e_shnum;
	if ((o.nsec || o.eh.e_shoff) &&
	    (o.eh.e_shentsize != sizeof(Elf64_Shdr) || o.eh.e_shoff > o.fsize ||
	     (o.nsec ? o.nsec : 1) > (o.fsize - o.eh.e_shoff) / sizeof(Elf64_Shdr))) {
		*err = kmsg_xprintf("%s: corrupt printk index: section headers beyond the end of the file",
				    path);
		goto out;
	}
	o.secs = kmsg_xcalloc(o.nsec + 1, sizeof(*o.secs));
	for (i = 1; i < o.nsec; i++) {
		Elf_Scn *scn = elf_getscn(o.elf, i);

		if (!scn || !gelf_getshdr(scn, &o.secs[i].sh)) {
			*err = kmsg_xprintf("%s: corrupt printk index: ELF: %s", path,
					    elf_errmsg(-1));
			goto out;
		}
		o.secs[i].name = elf_strptr(o.elf, shstrndx, o.secs[i].sh.sh_name);
	}
	if (!read_index(&o, &tmp, bid, sites)) {
		*err = o.err ? o.err : kmsg_xprintf("%s: corrupt printk index", path);
		o.err = NULL;
		goto out;
	}
	for (i = 0; i < tmp.n; i++) {
		KMSG_GROW(out->v, out->cap, out->n);
		out->v[out->n++] = tmp.v[i];
	}
	tmp.n = 0;
	ret = 0;
out:
	kmsg_msgs_free(&tmp);
	if (o.secs)
		for (i = 0; i < o.nsec; i++)
			free(o.secs[i].rels);
	free(o.secs);
	free(o.err);
	if (o.elf)
		elf_end(o.elf);
	close(fd);
	if (ret && bid) {
		free(*bid);
		*bid = NULL;
	}
	return ret;
}

int kmsg_index_read(const char *path, struct kmsg_msgs *out, char **bid,
		    char **err)
{
	return index_read(path, out, bid, err, false);
}

int kmsg_index_read_sites(const char *path, struct kmsg_msgs *out,
			  char **bid, char **err)
{
	return index_read(path, out, bid, err, true);
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_file(char ***files, size_t *n, size_t *cap, char *path)
{
	KMSG_GROW(*files, *cap, *n);
	(*files)[(*n)++] = path;
}

static void walk(const char *dir, int depth, char ***files, size_t *n,
		 size_t *cap, char **err)
{
	struct dirent *de;
	DIR *d;

	if (depth > 64) {
		if (!*err)
			*err = kmsg_xprintf("%s: directories nested too deeply", dir);
		return;
	}
	d = opendir(dir);
	if (!d) {
		if (!*err)
			*err = kmsg_xprintf("%s: %s", dir, strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), dl = strlen(dir);
		struct stat stb;
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = kmsg_xprintf("%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/",
				 de->d_name);
		if (lstat(p, &stb)) {
			free(p);
			continue;
		}
		if (S_ISDIR(stb.st_mode)) {
			walk(p, depth + 1, files, n, cap, err);
			free(p);
		} else if (S_ISREG(stb.st_mode) && len > 3 &&
			   !strcmp(de->d_name + len - 3, ".ko")) {
			add_file(files, n, cap, p);
		} else {
			free(p);
		}
	}
	closedir(d);
}

int kmsg_index_files(const char *path, char ***files, size_t *n, size_t *cap,
		     char **err)
{
	struct stat stb;
	size_t first = *n;

	*err = NULL;
	if (stat(path, &stb)) {
		*err = kmsg_xprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(stb.st_mode)) {
		add_file(files, n, cap, kmsg_xstrdup(path));
		return 0;
	}
	walk(path, 0, files, n, cap, err);
	if (*n - first > 1)
		qsort(*files + first, *n - first, sizeof(**files), path_cmp);
	return *err ? -1 : 0;
}
