// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_sites - the printk call sites of a kernel without a printk index,
 * read from its code.  See kmsg_sites.h.
 *
 * The ELF image is parsed here, not with libelf: it is in memory, and
 * every offset of it is checked before it is read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elf.h>

#include "kmsg_hash.h"
#include "kmsg_flow.h"
#include "kmsg_sites.h"
#include "kmsg_xalloc.h"

#define R_PC32		2	/* R_X86_64_PC32 */
#define R_PLT32		4	/* R_X86_64_PLT32 */
#define R_32S		11	/* R_X86_64_32S */
#define R_64		1	/* R_X86_64_64 */

/*
 * How far before a call its format's load is looked for, in bytes of
 * code: the measured loads of the guest kernel are all nearer (the
 * farthest of its printk index's sites: see the commit message).
 */
#define ARG_WINDOW	512
/* The largest System.map read (Debian's: 6 MB) */
#define SYSMAP_MAX	(256u << 20)

/* the argument registers, in their order */
enum { REG_DI, REG_SI, REG_DX, REG_CX, REG_R8, REG_R9, NREGS };
/* a family's level: 0..7, or one of these */
#define LVL_FMT		-1	/* in the format, else 4 */
#define LVL_ARG		-2	/* a KERN_<LEVEL> string in %rdi */
#define LVL_RUN		-3	/* an int chosen at run time: 4 */

#define DEV_PREFIX	"%s %s: "
/* __netdev_printk(), __ibdev_printk(): the device's parent, then itself */
#define NETDEV_PREFIX	"%s %s %s%s: "
#define IBDEV_PREFIX	"%s %s %s: "

struct family {
	const char *name;
	unsigned char kind;	/* enum kmsg_site_kind */
	unsigned char reg;	/* the format's register */
	signed char level;
	const char *prefix;	/* printed before the format */
};

/* The functions of the printk family of Linux 6.12 */
static const struct family families[] = {
	{ "_printk", KMSG_SITE_PRINTK, REG_DI, LVL_FMT, NULL },
	{ "_printk_deferred", KMSG_SITE_PRINTK, REG_DI, LVL_FMT, NULL },
	{ "__warn_printk", KMSG_SITE_WARN, REG_DI, LVL_FMT, NULL },
	{ "_dev_emerg", KMSG_SITE_DEV, REG_SI, 0, DEV_PREFIX },
	{ "_dev_alert", KMSG_SITE_DEV, REG_SI, 1, DEV_PREFIX },
	{ "_dev_crit", KMSG_SITE_DEV, REG_SI, 2, DEV_PREFIX },
	{ "_dev_err", KMSG_SITE_DEV, REG_SI, 3, DEV_PREFIX },
	{ "_dev_warn", KMSG_SITE_DEV, REG_SI, 4, DEV_PREFIX },
	{ "_dev_notice", KMSG_SITE_DEV, REG_SI, 5, DEV_PREFIX },
	{ "_dev_info", KMSG_SITE_DEV, REG_SI, 6, DEV_PREFIX },
	{ "_dev_printk", KMSG_SITE_DEV, REG_DX, LVL_ARG, DEV_PREFIX },
	{ "dev_printk_emit", KMSG_SITE_DEV, REG_DX, LVL_RUN, DEV_PREFIX },
	/* they print "error %pe: %pV" (-EPROBE_DEFER: at debug level) */
	{ "dev_err_probe", KMSG_SITE_DEV_ERR_PROBE, REG_DX, 3,
	  DEV_PREFIX "error %pe: " },
	{ "dev_warn_probe", KMSG_SITE_DEV_ERR_PROBE, REG_DX, 4,
	  DEV_PREFIX "error %pe: " },
	{ "netdev_emerg", KMSG_SITE_NETDEV, REG_SI, 0, NETDEV_PREFIX },
	{ "netdev_alert", KMSG_SITE_NETDEV, REG_SI, 1, NETDEV_PREFIX },
	{ "netdev_crit", KMSG_SITE_NETDEV, REG_SI, 2, NETDEV_PREFIX },
	{ "netdev_err", KMSG_SITE_NETDEV, REG_SI, 3, NETDEV_PREFIX },
	{ "netdev_warn", KMSG_SITE_NETDEV, REG_SI, 4, NETDEV_PREFIX },
	{ "netdev_notice", KMSG_SITE_NETDEV, REG_SI, 5, NETDEV_PREFIX },
	{ "netdev_info", KMSG_SITE_NETDEV, REG_SI, 6, NETDEV_PREFIX },
	{ "netdev_printk", KMSG_SITE_NETDEV, REG_DX, LVL_ARG, NETDEV_PREFIX },
	{ "ibdev_emerg", KMSG_SITE_IBDEV, REG_SI, 0, IBDEV_PREFIX },
	{ "ibdev_alert", KMSG_SITE_IBDEV, REG_SI, 1, IBDEV_PREFIX },
	{ "ibdev_crit", KMSG_SITE_IBDEV, REG_SI, 2, IBDEV_PREFIX },
	{ "ibdev_err", KMSG_SITE_IBDEV, REG_SI, 3, IBDEV_PREFIX },
	{ "ibdev_warn", KMSG_SITE_IBDEV, REG_SI, 4, IBDEV_PREFIX },
	{ "ibdev_notice", KMSG_SITE_IBDEV, REG_SI, 5, IBDEV_PREFIX },
	{ "ibdev_info", KMSG_SITE_IBDEV, REG_SI, 6, IBDEV_PREFIX },
	{ "ibdev_printk", KMSG_SITE_IBDEV, REG_DX, LVL_ARG, IBDEV_PREFIX },
	/* dynamic debug: the descriptor in %rdi, its format is exact */
	{ "__dynamic_pr_debug", KMSG_SITE_DYNDBG, REG_DI, 7, NULL },
	{ "__dynamic_dev_dbg", KMSG_SITE_DYNDBG_DEV, REG_DI, 7, DEV_PREFIX },
	{ "__dynamic_netdev_dbg", KMSG_SITE_DYNDBG_NETDEV, REG_DI, 7,
	  NETDEV_PREFIX },
	{ "__dynamic_ibdev_dbg", KMSG_SITE_DYNDBG_IBDEV, REG_DI, 7,
	  IBDEV_PREFIX },
};
#define NFAM	(sizeof(families) / sizeof(families[0]))

static const char *const kind_names[KMSG_SITE_KINDS] = {
	[KMSG_SITE_PRINTK] = "printk",
	[KMSG_SITE_WARN] = "warn",
	[KMSG_SITE_DEV] = "dev",
	[KMSG_SITE_DEV_ERR_PROBE] = "dev_err_probe",
	[KMSG_SITE_NETDEV] = "netdev",
	[KMSG_SITE_IBDEV] = "ibdev",
	[KMSG_SITE_WRAP] = "wrap",
	[KMSG_SITE_DYNDBG] = "dyndbg",
	[KMSG_SITE_DYNDBG_DEV] = "dyndbg_dev",
	[KMSG_SITE_DYNDBG_NETDEV] = "dyndbg_netdev",
	[KMSG_SITE_DYNDBG_IBDEV] = "dyndbg_ibdev",
};

const char *kmsg_site_kind_name(unsigned int kind)
{
	return kind < KMSG_SITE_KINDS ? kind_names[kind] : NULL;
}

static bool is_dyndbg(const struct family *f)
{
	return f->kind >= KMSG_SITE_DYNDBG;
}

static int family_of(const char *name)
{
	size_t i;

	for (i = 0; i < NFAM; i++)
		if (!strcmp(families[i].name, name))
			return (int)i;
	return -1;
}

struct sec {
	Elf64_Shdr sh;
	const char *name;
	size_t rela;		/* its (first) RELA section, 0 if none */
};

/* More sections than this is no kernel object: 2^18, amdgpu.ko has 10^4 */
#define SECTIONS_MAX	(1u << 18)

/* a symbol of the symbol table, by index (ET_REL) */
struct sym {
	uint64_t value, size;
	const char *name;
	uint32_t shndx;
	unsigned char type, bind;
	int fam;		/* index in families[], -1 */
	int wrap;		/* index in so.use->v, -1 */
};

/* a function: of a section (ET_REL), or by address (vmlinux) */
struct func {
	uint64_t start, end;
	uint32_t shndx;
	bool local;		/* a module's static function */
	const char *name;
};

struct rel {
	uint64_t off;
	uint32_t sym, type;
	int64_t addend;
};

/* a struct _ddebug */
struct ddebug {
	const char *modname, *function, *filename, *format;
	unsigned int line;
	int kind;		/* of the call passing it, -1 if none */
	uint64_t addr;		/* of that load */
};

struct so {
	const char *path;
	const unsigned char *img;
	size_t size;
	Elf64_Ehdr eh;
	struct sec *secs;
	size_t nsec;
	struct sym *syms;
	size_t nsyms;
	struct func *funcs;
	size_t nfuncs;
	/* vmlinux: the family's functions by address */
	struct func *fams;
	size_t nfams;
	char *map;		/* the System.map read; names point in it */
	/* dynamic debug descriptors */
	struct ddebug *dd;
	size_t ndd;
	size_t dd_sec;		/* their section */
	uint64_t dd_off, dd_stride;	/* offset of the first in it */
	char *object, *modname;
	/* a module: the section whose calls are read (sites' "section") */
	const char *text_name;
	/* the wrappers found (first pass), those whose calls are read */
	struct kmsg_wrappers *found;
	const struct kmsg_wrappers *use;
	/* vmlinux: the used wrappers by address; shndx is the index */
	struct func *wraps;
	size_t nwraps;
	struct kmsg_msgs tmp;
	struct kmsg_sites_stats st;
	/* the control flow of section flow_sec, built at its first call */
	struct kmsg_flow *flow;
	size_t flow_sec;
	bool flow_failed;
	char *err;
};

/* Record the first error, "PATH: problem"; only with a literal format. */
#define bad(o, fmt, ...) \
	kmsg_first_err(&(o)->err, "%s: " fmt, (o)->path, ##__VA_ARGS__)

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static const char *sname(const struct so *o, size_t i)
{
	return i < o->nsec && o->secs[i].name ? o->secs[i].name : "?";
}

/* The bytes of section i, checked against the image; NULL if unusable */
static const unsigned char *sec_data(struct so *o, size_t i, size_t *n)
{
	const Elf64_Shdr *sh;

	*n = 0;
	if (i == 0 || i >= o->nsec) {
		bad(o, "section index %zu out of range", i);
		return NULL;
	}
	sh = &o->secs[i].sh;
	if (sh->sh_type == SHT_NOBITS)
		return NULL;
	if (sh->sh_offset > o->size || sh->sh_size > o->size - sh->sh_offset) {
		bad(o, "section %s (offset %#llx, size %#llx) beyond the end of the file",
		    sname(o, i), (unsigned long long)sh->sh_offset,
		    (unsigned long long)sh->sh_size);
		return NULL;
	}
	*n = sh->sh_size;
	return o->img + sh->sh_offset;
}

/* The string at offset off of section i, NULL if there is none */
static const char *sec_string(struct so *o, size_t i, uint64_t off)
{
	const unsigned char *d;
	size_t n;

	if (i == 0 || i >= o->nsec || o->secs[i].sh.sh_type == SHT_NOBITS)
		return NULL;
	d = sec_data(o, i, &n);
	if (!d || off >= n || !memchr(d + off, '\0', n - off))
		return NULL;
	return (const char *)d + off;
}

/*
 * Could s be a format?  Text: UTF-8 without control characters but tab
 * and newline, after KERN_SOH level headers.  Not a stray byte sequence
 * a pattern of the code happened to point to.
 */
static bool text_like(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p[0] == '\001' && p[1])
		p += 2;
	while (*p) {
		unsigned int k, len;

		if (*p < 0x20 && *p != '\n' && *p != '\t')
			return false;
		if (*p < 0x80) {
			p++;
			continue;
		}
		len = *p >= 0xf0 && *p < 0xf5 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;
		if (!len || *p >= 0xf5)
			return false;
		for (k = 1; k < len; k++)
			if ((p[k] & 0xc0) != 0x80)
				return false;
		p += len;
	}
	return true;
}

static bool read_headers(struct so *o)
{
	const unsigned char *p = o->img;
	uint64_t shoff;
	size_t i, shstrndx, n;
	const unsigned char *strs;

	if (o->size < 4 || memcmp(p, ELFMAG, SELFMAG)) {
		bad(o, "not an ELF file");
		return false;
	}
	if (o->size < sizeof(Elf64_Ehdr)) {
		bad(o, "truncated ELF header");
		return false;
	}
	memcpy(&o->eh, p, sizeof(o->eh));
	if (p[EI_CLASS] != ELFCLASS64 || p[EI_DATA] != ELFDATA2LSB ||
	    get_le(p + 18, 2) != EM_X86_64) {
		bad(o, "not an x86_64 (64-bit little-endian) ELF file");
		return false;
	}
	o->eh.e_type = (uint16_t)get_le(p + 16, 2);
	if (o->eh.e_type != ET_REL && o->eh.e_type != ET_EXEC &&
	    o->eh.e_type != ET_DYN) {
		bad(o, "ELF type %u is not a relocatable or executable file",
		    o->eh.e_type);
		return false;
	}
	shoff = get_le(p + 40, 8);
	o->nsec = get_le(p + 60, 2);
	shstrndx = get_le(p + 62, 2);
	if (!shoff) {
		bad(o, "no section headers");
		return false;
	}
	if (get_le(p + 58, 2) != sizeof(Elf64_Shdr) || shoff > o->size ||
	    o->size - shoff < sizeof(Elf64_Shdr)) {
		bad(o, "section headers beyond the end of the file");
		return false;
	}
	/* more than SHN_LORESERVE sections: the count in section 0 */
	if (!o->nsec)
		o->nsec = get_le(p + shoff + 32, 8);
	if (shstrndx == SHN_XINDEX)
		shstrndx = get_le(p + shoff + 40, 4);
	if (!o->nsec || o->nsec > (o->size - shoff) / sizeof(Elf64_Shdr)) {
		bad(o, "section headers beyond the end of the file");
		return false;
	}
	if (o->nsec > SECTIONS_MAX) {
		bad(o, "%zu sections, more than a kernel object has", o->nsec);
		return false;
	}
	o->secs = kmsg_xcalloc(o->nsec, sizeof(*o->secs));
	for (i = 0; i < o->nsec; i++)
		memcpy(&o->secs[i].sh, p + shoff + i * sizeof(Elf64_Shdr),
		       sizeof(Elf64_Shdr));
	if (shstrndx >= o->nsec || !(strs = sec_data(o, shstrndx, &n))) {
		bad(o, "no section name table");
		return false;
	}
	for (i = 1; i < o->nsec; i++) {
		uint64_t nm = o->secs[i].sh.sh_name, t = o->secs[i].sh.sh_info;

		if (nm < n && memchr(strs + nm, '\0', n - nm))
			o->secs[i].name = (const char *)strs + nm;
		if (o->secs[i].sh.sh_type == SHT_RELA && t < o->nsec &&
		    !o->secs[t].rela)
			o->secs[t].rela = i;
	}
	return true;
}

static size_t find_sec(const struct so *o, const char *name)
{
	size_t i;

	for (i = 1; i < o->nsec; i++)
		if (o->secs[i].name && !strcmp(o->secs[i].name, name))
			return i;
	return 0;
}

static int wrapper_of(const struct so *o, const char *name, bool defined);
static size_t sec_of_addr(const struct so *o, uint64_t a, uint64_t *off);
static const char *addr_string(struct so *o, uint64_t a);

/* The symbol table (the first SHT_SYMTAB), all of it; false on an error */
static bool read_symtab(struct so *o, size_t *symtab)
{
	const unsigned char *d, *strs;
	size_t i, n, ns, k;

	*symtab = 0;
	for (i = 1; i < o->nsec; i++)
		if (o->secs[i].sh.sh_type == SHT_SYMTAB)
			break;
	if (i == o->nsec)
		return true;
	*symtab = i;
	d = sec_data(o, i, &n);
	if (!d)
		return false;
	if (o->secs[i].sh.sh_entsize != sizeof(Elf64_Sym) || n % sizeof(Elf64_Sym)) {
		bad(o, "symbol table %s: bad entry size", sname(o, i));
		return false;
	}
	if (o->secs[i].sh.sh_link >= o->nsec ||
	    !(strs = sec_data(o, o->secs[i].sh.sh_link, &ns))) {
		bad(o, "symbol table %s: no string table", sname(o, i));
		return false;
	}
	o->nsyms = n / sizeof(Elf64_Sym);
	o->syms = kmsg_xcalloc(o->nsyms + 1, sizeof(*o->syms));
	for (k = 0; k < o->nsyms; k++) {
		const unsigned char *e = d + k * sizeof(Elf64_Sym);
		struct sym *s = &o->syms[k];
		uint64_t nm = get_le(e, 4);

		s->type = ELF64_ST_TYPE(e[4]);
		s->bind = ELF64_ST_BIND(e[4]);
		s->shndx = (uint32_t)get_le(e + 6, 2);
		s->value = get_le(e + 8, 8);
		s->size = get_le(e + 16, 8);
		s->name = nm < ns && memchr(strs + nm, '\0', ns - nm) ?
			(const char *)strs + nm : "";
		s->fam = s->name[0] && s->type != STT_SECTION ? family_of(s->name) : -1;
		s->wrap = -1;
		if (o->use && s->fam < 0 && s->name[0] &&
		    (s->type == STT_FUNC || s->shndx == SHN_UNDEF))
			s->wrap = wrapper_of(o, s->name, s->shndx != SHN_UNDEF);
	}
	return true;
}

static int func_cmp(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void add_func(struct func **v, size_t *n, size_t *cap, uint32_t shndx,
		     uint64_t start, uint64_t size, const char *name)
{
	KMSG_GROW(*v, *cap, *n);
	(*v)[*n].shndx = shndx;
	(*v)[*n].start = start;
	(*v)[*n].end = size ? start + size : 0;
	(*v)[*n].name = name;
	(*v)[*n].local = false;
	(*n)++;
}

/* Sort, and give each function without a size up to the next one */
static void sort_funcs(struct func *v, size_t n)
{
	size_t i;

	if (n > 1)
		qsort(v, n, sizeof(*v), func_cmp);
	for (i = 0; i < n; i++)
		if (!v[i].end || v[i].end < v[i].start)
			v[i].end = i + 1 < n && v[i + 1].shndx == v[i].shndx ?
				v[i + 1].start : UINT64_MAX;
}

/* The last function of section shndx starting at or before a, or NULL */
static const struct func *func_at(const struct func *v, size_t n,
				  uint32_t shndx, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].shndx < shndx ||
		    (v[mid].shndx == shndx && v[mid].start <= a))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || v[lo - 1].shndx != shndx)
		return NULL;
	return &v[lo - 1];
}

/* Append a site of kind with format fmt (the level string lvl may be NULL) */
static void add_site(struct so *o, unsigned int kind, const char *prefix,
		     int flevel, const char *fmt, const char *lvl,
		     const char *func, const char *file, unsigned int line,
		     const char *modname, uint64_t addr)
{
	const char *text = fmt;
	struct kmsg_msg *m;
	bool cont = false, nl;
	int level = -1;
	size_t flen;

	kmsg_skip_level(&text, &level, &cont);
	if (flevel >= 0)
		level = flevel;
	else if (flevel == LVL_ARG && lvl)
		kmsg_skip_level(&lvl, &level, &cont);
	if (level < 0)
		level = 4;
	flen = strlen(text);
	nl = flen && text[flen - 1] == '\n';
	flen -= nl;
	KMSG_GROW(o->tmp.v, o->tmp.cap, o->tmp.n);
	m = &o->tmp.v[o->tmp.n++];
	memset(m, 0, sizeof(*m));
	m->modname = kmsg_xstrdup(modname);
	m->auto_id = modname[0] ? kmsg_xprintf("%s.h%08x", modname,
					       (unsigned int)kmsg_fmt_hash(text, flen)) : NULL;
	m->component = kmsg_xstrdup("");
	m->format = kmsg_xstrndup(text, flen);
	m->func = kmsg_xstrdup(func ? func : "");
	m->file = kmsg_xstrdup(file ? file : "");
	m->line = line;
	m->level = (unsigned int)level;
	m->device = prefix != NULL;
	m->prefix = prefix ? kmsg_xstrdup(prefix) : NULL;
	m->cont = cont;
	m->newline = nl;
	m->object = kmsg_xstrdup(o->object);
	m->path = kmsg_xstrdup(o->path);
	m->addr = addr;
	if (o->text_name && !m->file[0])
		m->section = kmsg_xstrdup(o->text_name);
	m->kind = kind_names[kind];
}

/* ----------------------------------------------------------------- */
/* wrappers: functions printing their own format argument in a %pV  */

/*
 * The format parameter of the variadic function whose code is text
 * [start, end) (n bytes of text in all), from its prologue: gcc stores
 * the argument registers that follow the named parameters, up to %r9,
 * in the register save area, register i at the same base + 8 * i.  The
 * register before the first one stored is the last named parameter: a
 * printf-like function's format.  -1 if no such run of stores (to
 * %rsp or %rbp plus a displacement) is there.
 */
static int vararg_fmt_reg(const unsigned char *text, size_t n, uint64_t start,
			  uint64_t end)
{
	/* the REX byte and ModRM reg field of "mov %reg,disp(%base)" */
	static const unsigned char rex[NREGS] = { 0x48, 0x48, 0x48, 0x48, 0x4c, 0x4c };
	static const unsigned char field[NREGS] = { 7, 6, 2, 1, 0, 1 };
	int64_t disp[NREGS];
	int base[NREGS], r, first;
	uint64_t k, stop = start + 192;

	if (stop > end)
		stop = end;
	if (stop > n)
		stop = n;
	for (r = 0; r < NREGS; r++)
		base[r] = -1;
	for (k = start; k + 4 <= stop; k++) {
		const unsigned char *q = text + k;
		unsigned int mod = q[2] >> 6, rm = q[2] & 7;
		int64_t d;
		int b;

		if (q[1] != 0x89 || (q[0] != 0x48 && q[0] != 0x4c))
			continue;
		for (r = REG_SI; r < NREGS; r++)
			if (q[0] == rex[r] && ((q[2] >> 3) & 7) == field[r])
				break;
		if (r == NREGS || base[r] >= 0)
			continue;
		if (rm == 4 && q[3] == 0x24 && mod == 1 && k + 5 <= stop)
			b = 4, d = (int8_t)q[4];
		else if (rm == 4 && q[3] == 0x24 && mod == 2 && k + 8 <= stop)
			b = 4, d = (int32_t)get_le(q + 4, 4);
		else if (rm == 5 && mod == 1)
			b = 5, d = (int8_t)q[3];
		else if (rm == 5 && mod == 2 && k + 7 <= stop)
			b = 5, d = (int32_t)get_le(q + 3, 4);
		else
			continue;
		base[r] = b;
		disp[r] = d;
	}
	if (base[REG_R9] < 0)
		return -1;
	for (first = REG_R9; first > REG_SI; first--) {
		r = first - 1;
		if (base[r] != base[REG_R9] ||
		    disp[r] != disp[REG_R9] - 8 * (REG_R9 - r))
			break;
	}
	return first - 1;
}

/* The "%pV" a format prints once and ends with (but for "\n"), or NULL */
static const char *wrap_pv(const char *fmt)
{
	const char *p, *pv = NULL;

	for (p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		if (p[1] == 'p' && p[2] == 'V') {
			if (pv)
				return NULL;
			pv = p;
		}
	}
	if (!pv || (pv[3] && strcmp(pv + 3, "\n")))
		return NULL;
	return pv;
}

/*
 * The code of the section function fn is in, n bytes, its address base
 * (0 in a module); NULL if it has none
 */
static const unsigned char *func_text(struct so *o, const struct func *fn,
				      size_t *n, uint64_t *base)
{
	uint64_t off;
	size_t si = o->eh.e_type == ET_REL ? fn->shndx : sec_of_addr(o, fn->start, &off);

	*base = o->eh.e_type == ET_REL || !si ? 0 : o->secs[si].sh.sh_addr;
	return si && si < o->nsec ? sec_data(o, si, n) : NULL;
}

/*
 * The site of family f with format fmt, in function fn (text: its
 * section's n bytes, base its address or 0) prints a "%pV": if fn is a
 * variadic function, a wrapper whose calls the second pass reads.
 */
static void found_wrapper(struct so *o, const struct family *f, const char *fmt,
			  const struct func *fn, const unsigned char *text,
			  size_t n, uint64_t base, bool local)
{
	const char *cold = fn ? strstr(fn->name, ".cold") : NULL;
	struct kmsg_wrapper *w;
	int reg;

	/* the family's own functions are read as such */
	if (!o->found || !fn || !fn->name[0] || is_dyndbg(f) ||
	    !wrap_pv(fmt) || family_of(fn->name) >= 0)
		return;
	/* a function's code that gcc moved out of line: its prologue's */
	if (cold) {
		size_t i, len = (size_t)(cold - fn->name);

		for (i = 0; i < o->nfuncs; i++)
			if (!strncmp(o->funcs[i].name, fn->name, len) &&
			    !o->funcs[i].name[len])
				break;
		if (i == o->nfuncs)
			return;
		fn = &o->funcs[i];
		text = func_text(o, fn, &n, &base);
		if (!text)
			return;
	}
	if (fn->start < base || family_of(fn->name) >= 0)
		return;
	reg = vararg_fmt_reg(text, n, fn->start - base, fn->end - base);
	if (reg < 0)
		return;
	KMSG_GROW(o->found->v, o->found->cap, o->found->n);
	w = &o->found->v[o->found->n++];
	memset(w, 0, sizeof(*w));
	w->name = kmsg_xstrdup(fn->name);
	w->object = kmsg_xstrdup(o->object);
	local = o->eh.e_type == ET_REL && fn->local;
	w->addr = o->eh.e_type == ET_REL ? 0 : fn->start;
	w->format = kmsg_xstrdup(fmt);
	w->prefix = f->prefix ? kmsg_xstrdup(f->prefix) : NULL;
	w->level = f->level;
	w->reg = (unsigned int)reg;
	w->local = local;
}

/*
 * The wrappers that format their caller's message into a buffer before
 * printk() sees it, so that no "%pV" tells them: what they print around
 * it, as a wrapper's format, and the family prefix before that.
 */
static const struct buffer_wrapper {
	const char *name;
	const char *format;
	const char *prefix;
	signed char level;
} buffer_wrappers[] = {
	/* ACPICA's ACPI_INFO(): ACPI_MSG_INFO, the message, "\n" */
	{ "acpi_info", "\0016ACPI: %pV\n", NULL, LVL_FMT },
	/* sdev_printk() (no name), sd_printk() and sr_printk() ("[%s] ") */
	{ "sdev_prefix_printk", "%pV", DEV_PREFIX, LVL_ARG },
	{ "sdev_prefix_printk", "[%s] %pV", DEV_PREFIX, LVL_ARG },
};

/* The wrappers of buffer_wrappers[] the image defines */
static void find_buffer_wrappers(struct so *o)
{
	const unsigned char *text;
	uint64_t base;
	size_t i, k, n;

	for (i = 0; o->found && i < o->nfuncs; i++) {
		const struct func *fn = &o->funcs[i];

		for (k = 0; k < sizeof(buffer_wrappers) / sizeof(buffer_wrappers[0]); k++) {
			const struct buffer_wrapper *bw = &buffer_wrappers[k];
			struct family f = {
				.name = bw->name, .kind = KMSG_SITE_PRINTK,
				.level = bw->level, .prefix = bw->prefix,
			};

			if (strcmp(fn->name, bw->name) ||
			    !(text = func_text(o, fn, &n, &base)))
				continue;
			found_wrapper(o, &f, bw->format, fn, text, n, base,
				      fn->local);
		}
	}
}

/* Is s a level header alone, KERN_<LEVEL>: "\001" and one character */
static bool level_string(const char *s)
{
	return s && s[0] == '\001' && s[1] && !s[2];
}

/*
 * The site of a call to wrapper w passing format inner, and lvl (NULL
 * if none) in a register before it: printed as the wrapper's format
 * prints it, its prefix the text before the %pV (and the wrapper's own
 * family prefix).  A first "%s" of a wrapper's format is the level of
 * the message it prints ("%sEXT4-fs (%s): %pV\n"), which prints
 * nothing, when a level is passed or the inner format has one.
 */
static void wrap_site(struct so *o, const struct kmsg_wrapper *w,
		      const char *inner, const char *lvl, const char *func,
		      uint64_t addr)
{
	const char *wf = w->format, *pv;
	int wlevel = -1, flevel;
	bool cont = false;
	char *prefix;

	kmsg_skip_level(&wf, &wlevel, &cont);
	pv = wrap_pv(wf);
	if (!pv)
		return;
	if (pv - wf >= 2 && wf[0] == '%' && wf[1] == 's' &&
	    (lvl || inner[0] == '\001'))
		wf += 2;
	prefix = kmsg_xprintf("%s%.*s", w->prefix ? w->prefix : "",
			      (int)(pv - wf), wf);
	if (wlevel >= 0)
		flevel = wlevel;
	else if (w->level >= 0)
		flevel = w->level;
	else
		flevel = lvl ? LVL_ARG : LVL_FMT;
	add_site(o, KMSG_SITE_WRAP, prefix[0] ? prefix : NULL, flevel, inner,
		 lvl, func, NULL, 0, o->modname, addr);
	o->tmp.v[o->tmp.n - 1].device = w->prefix != NULL;
	free(prefix);
}

static int wrapper_cmp(const void *a, const void *b)
{
	const struct kmsg_wrapper *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->object, y->object);
	if (!c)
		c = strcmp(x->format, y->format);
	if (!c)
		c = strcmp(x->prefix ? x->prefix : "", y->prefix ? y->prefix : "");
	if (!c)
		c = (x->reg > y->reg) - (x->reg < y->reg);
	if (!c)
		c = (x->level > y->level) - (x->level < y->level);
	return c;
}

static void wrapper_free(struct kmsg_wrapper *w);

void kmsg_wrappers_sort(struct kmsg_wrappers *w)
{
	size_t i, k = 0;

	if (w->n > 1)
		qsort(w->v, w->n, sizeof(*w->v), wrapper_cmp);
	/* one of each: a function may print the same %pV twice */
	for (i = 0; i < w->n; i++) {
		if (k && !wrapper_cmp(&w->v[k - 1], &w->v[i]) &&
		    w->v[k - 1].addr == w->v[i].addr)
			wrapper_free(&w->v[i]);
		else
			w->v[k++] = w->v[i];
	}
	w->n = k;
}

static void wrapper_free(struct kmsg_wrapper *w)
{
	free(w->name);
	free(w->object);
	free(w->format);
	free(w->prefix);
}

void kmsg_wrappers_free(struct kmsg_wrappers *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		wrapper_free(&w->v[i]);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* May a module's call of a symbol (defined in it or not) call w? */
static bool wrapper_fits(const struct so *o, const struct kmsg_wrapper *w,
			 bool defined)
{
	return defined == !strcmp(w->object, o->object) &&
	       (defined || !w->local);
}

/*
 * The first of the wrappers named name that a module's call of that
 * symbol (defined in the module, or not) may call, or -1.  A function
 * printing one of several formats ("%sfscrypt: %pV", "%sfscrypt (%s):
 * %pV") is a wrapper of each: its message has the same id in each.
 */
static int wrapper_of(const struct so *o, const char *name, bool defined)
{
	const struct kmsg_wrappers *u = o->use;
	size_t lo = 0, hi = u->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(u->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < u->n && !strcmp(u->v[i].name, name); i++)
		if (wrapper_fits(o, &u->v[i], defined))
			return (int)i;
	return -1;
}

static void add_dyndbg_sites(struct so *o)
{
	size_t i;

	for (i = 0; i < o->ndd; i++) {
		const struct ddebug *d = &o->dd[i];
		unsigned int kind = d->kind >= 0 ? (unsigned int)d->kind :
			KMSG_SITE_DYNDBG;
		size_t f;

		for (f = 0; f < NFAM; f++)
			if (families[f].kind == kind)
				break;
		o->st.calls[kind]++;
		o->st.formats[kind]++;
		if (d->kind < 0)
			o->st.dyndbg_unpaired++;
		/*
		 * a descriptor no call was found for: pr_debug() is a guess,
		 * so no device prefix (a dev_dbg() line then matches none)
		 */
		add_site(o, kind, f < NFAM ? families[f].prefix : NULL, 7,
			 d->format, NULL, d->function, d->filename, d->line,
			 d->modname[0] ? d->modname : o->modname, d->addr);
	}
}

/* ----------------------------------------------------------------- */
/* modules and object files: relocations                             */

static int rel_cmp(const void *a, const void *b)
{
	const struct rel *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * The RELA relocations of section target (of its first relocation
 * section only: one per section in an object file), sorted
 */
static bool read_rels(struct so *o, size_t target, size_t symtab,
		      struct rel **rels, size_t *nrels)
{
	size_t i, k, n, tn;
	const unsigned char *d;

	*rels = NULL;
	*nrels = 0;
	i = o->secs[target].rela;
	if (!i)
		return true;
	d = sec_data(o, i, &n);
	if (!d)
		return false;
	if (o->secs[i].sh.sh_entsize != sizeof(Elf64_Rela) || n % sizeof(Elf64_Rela)) {
		bad(o, "relocation section %s: bad entry size", sname(o, i));
		return false;
	}
	if (o->secs[i].sh.sh_link != symtab || !symtab) {
		bad(o, "relocation section %s: no symbol table", sname(o, i));
		return false;
	}
	tn = o->secs[target].sh.sh_size;
	*nrels = n / sizeof(Elf64_Rela);
	*rels = kmsg_xcalloc(*nrels + 1, sizeof(**rels));
	for (k = 0; k < *nrels; k++) {
		const unsigned char *e = d + k * sizeof(Elf64_Rela);
		struct rel *r = &(*rels)[k];
		uint64_t info = get_le(e + 8, 8);

		r->off = get_le(e, 8);
		r->sym = (uint32_t)(info >> 32);
		r->type = (uint32_t)info;
		r->addend = (int64_t)get_le(e + 16, 8);
		if (r->sym >= o->nsyms) {
			bad(o, "relocation section %s: entry %zu: bad symbol index %u",
			    sname(o, i), k, r->sym);
			goto fail;
		}
		if (r->off > tn || tn - r->off < (r->type == R_64 ? 8 : 4)) {
			bad(o, "relocation section %s: entry %zu: offset %#llx beyond section %s",
			    sname(o, i), k, (unsigned long long)r->off,
			    sname(o, target));
			goto fail;
		}
	}
	if (*nrels > 1)
		qsort(*rels, *nrels, sizeof(**rels), rel_cmp);
	return true;
fail:
	free(*rels);
	*rels = NULL;
	*nrels = 0;
	return false;
}

/* Where relocation r refers to: *sec, *off; false if not in a section */
static bool rel_target(const struct so *o, const struct rel *r, uint64_t bias,
		       size_t *sec, uint64_t *off)
{
	const struct sym *s = &o->syms[r->sym];

	if (s->shndx == SHN_UNDEF || s->shndx >= SHN_LORESERVE || s->shndx >= o->nsec)
		return false;
	*sec = s->shndx;
	*off = s->value + (uint64_t)r->addend + bias;
	return true;
}

/* The formats of one call: at most this many (the rest: sites again) */
#define MAX_FMTS	16

static bool seen(const char *const *v, size_t n, const char *s)
{
	while (n--)
		if (v[n] == s)
			return true;
	return false;
}

/* ----------------------------------------------------------------- */
/* control flow: the loads of an argument that reach a call          */

static const int flow_reg[NREGS] = { KMSG_RDI, KMSG_RSI, KMSG_RDX, KMSG_RCX,
				     KMSG_R8, KMSG_R9 };

/*
 * The control flow of section ti (n bytes at text, at address base),
 * decoded from its functions' starts at the first call read in it; NULL
 * if it cannot be (the calls are then read by their nearby loads alone)
 */
static struct kmsg_flow *flow_of(struct so *o, size_t ti,
				 const unsigned char *text, size_t n,
				 uint64_t base, const struct rel *rels, size_t nrels)
{
	uint32_t shndx = o->eh.e_type == ET_REL ? (uint32_t)ti : 0;
	uint64_t *starts, *fields;
	size_t i, ns = 0;

	if (o->flow_sec == ti && (o->flow || o->flow_failed))
		return o->flow;
	kmsg_flow_free(o->flow);
	o->flow = NULL;
	o->flow_sec = ti;
	starts = kmsg_xcalloc(o->nfuncs + 1, sizeof(*starts));
	for (i = 0; i < o->nfuncs; i++)
		if (o->funcs[i].shndx == shndx && o->funcs[i].start >= base &&
		    o->funcs[i].start - base < n &&
		    (!ns || starts[ns - 1] != o->funcs[i].start - base))
			starts[ns++] = o->funcs[i].start - base;
	/* the fields relocations fill in: their jumps' targets are unknown */
	fields = kmsg_xcalloc(nrels + 1, sizeof(*fields));
	for (i = 0; i < nrels; i++)
		fields[i] = rels[i].off;
	o->flow = kmsg_flow_new(text, n, base, starts, ns, fields, nrels);
	o->flow_failed = !o->flow;
	free(starts);
	free(fields);
	return o->flow;
}

/*
 * The strings loaded into register reg (REG_DI, ...) that reach the call
 * at offset call of section ti, from the control flow: their number
 * (nearest first, their loads' addresses in at[]), -1 if the flow cannot
 * tell (no flow, or no instruction starts at call)
 */
static int flow_strings(struct so *o, size_t ti, const unsigned char *text,
			size_t n, uint64_t base, const struct rel *rels,
			size_t nrels, uint64_t call, int reg,
			const char **strs, uint64_t *at, int max)
{
	struct kmsg_flow_load ld[MAX_FMTS];
	struct kmsg_flow *fl = flow_of(o, ti, text, n, base, rels, nrels);
	int i, nl, ns = 0;

	if (!fl)
		return -1;
	nl = kmsg_flow_loads(fl, call, flow_reg[reg], ld, max < MAX_FMTS ? max : MAX_FMTS);
	for (i = 0; i < nl; i++) {
		const char *str = NULL;

		if (o->eh.e_type != ET_REL) {
			str = addr_string(o, ld[i].value);
		} else {
			/* the relocation of the load's immediate or displacement */
			size_t lo = 0, hi = nrels, sec;
			uint64_t off;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (rels[mid].off < ld[i].field)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < nrels && rels[lo].off == ld[i].field &&
			    (rels[lo].type == R_32S || rels[lo].type == R_PC32) &&
			    rel_target(o, &rels[lo], rels[lo].type == R_PC32 ? 4 : 0,
				       &sec, &off))
				str = sec_string(o, sec, off);
			if (str && !text_like(str))
				str = NULL;
		}
		if (!str || seen(strs, (size_t)ns, str))
			continue;
		strs[ns] = str;
		at[ns++] = base + ld[i].at;
	}
	return nl < 0 ? -1 : ns;
}

/*
 * The formats of one call, the loads of its format's register from the
 * nearest: the nearest load's, and those of loads before it that a
 * branch leads past it.  call_fmt(): is the format loaded at offset at
 * (of the call at offset call of text, n bytes) one more?
 */
struct call_fmts {
	const char *v[MAX_FMTS];
	size_t n;
	uint64_t near;
	bool any;
};

static bool branches_to(const unsigned char *text, size_t size, uint64_t from,
			uint64_t to, uint64_t lo, uint64_t hi);

static bool call_fmt(struct call_fmts *c, const unsigned char *text, size_t n,
		     uint64_t at, uint64_t call, const char *fmt)
{
	if (!c->any) {
		c->any = true;
		c->near = at;
	} else if (!branches_to(text, n, at + 7, c->near, c->near + 7, call)) {
		return false;
	}
	if (seen(c->v, c->n, fmt))
		return false;
	if (c->n < MAX_FMTS)
		c->v[c->n++] = fmt;
	return true;
}

/*
 * The sites of the call at offset call of section ti to a function of
 * family f, inside function fn, from the control flow: false if the flow
 * cannot tell (then the nearby loads are read)
 */
static bool flow_site(struct so *o, size_t ti, const unsigned char *text,
		      size_t n, uint64_t base, const struct rel *rels,
		      size_t nrels, uint64_t call, const struct family *f,
		      const struct func *fn)
{
	const char *strs[MAX_FMTS], *lvl = NULL;
	bool rel = o->eh.e_type == ET_REL, in_fn = fn && base + call < fn->end;
	uint64_t at[MAX_FMTS];
	int i, ns, nf = 0;

	ns = flow_strings(o, ti, text, n, base, rels, nrels, call, f->reg,
			  strs, at, MAX_FMTS);
	if (ns < 0)
		return false;
	if (f->level == LVL_ARG) {
		const char *l[2];
		uint64_t la[2];

		/* two levels reach the call: neither is the level of all */
		int nl = flow_strings(o, ti, text, n, base, rels, nrels, call,
				      REG_DI, l, la, 2);

		if (nl == 1 || (nl == 2 && !strcmp(l[0], l[1])))
			lvl = l[0];
	}
	for (i = 0; i < ns; i++) {
		if (rel && !text_like(strs[i]))
			continue;
		add_site(o, f->kind, f->prefix, f->level, strs[i], lvl,
			 in_fn ? fn->name : NULL, NULL, 0, o->modname,
			 rel ? call : at[i]);
		if (in_fn)
			found_wrapper(o, f, strs[i], fn, text, n, base,
				      rel && fn->local);
		nf++;
	}
	if (nf)
		o->st.formats[f->kind]++;
	return true;
}

/* The same for a call of wrapper w: false if the flow cannot tell */
static bool flow_wrapped(struct so *o, size_t ti, const unsigned char *text,
			 size_t n, uint64_t base, const struct rel *rels,
			 size_t nrels, uint64_t call,
			 const struct kmsg_wrapper *w, const struct func *fn)
{
	const char *strs[MAX_FMTS], *lvl = NULL;
	bool rel = o->eh.e_type == ET_REL, in_fn = fn && base + call < fn->end;
	uint64_t at[MAX_FMTS];
	int i, ns, nf = 0;
	unsigned int reg;

	for (reg = REG_DI; reg < w->reg && !lvl; reg++) {
		int nl = 0;

		ns = flow_strings(o, ti, text, n, base, rels, nrels, call,
				  (int)reg, strs, at, MAX_FMTS);
		if (ns < 0)
			return false;
		for (i = 0; i < ns; i++)
			if (level_string(strs[i]) && (!lvl || strcmp(lvl, strs[i])) &&
			    !nl++)
				lvl = strs[i];
		/* two levels reach the call: neither is the level of all */
		if (nl > 1) {
			lvl = NULL;
			break;
		}
	}
	ns = flow_strings(o, ti, text, n, base, rels, nrels, call, (int)w->reg,
			  strs, at, MAX_FMTS);
	if (ns < 0)
		return false;
	for (i = 0; i < ns; i++) {
		if (level_string(strs[i]) || (rel && !text_like(strs[i])))
			continue;
		wrap_site(o, w, strs[i], lvl, in_fn ? fn->name : NULL,
			  rel ? call : at[i]);
		nf++;
	}
	if (nf)
		o->st.formats[KMSG_SITE_WRAP]++;
	return true;
}

/*
 * Is there a jump or conditional jump in text[from, to) (64 bytes at
 * most) to an offset in [lo, hi]?  That is how a load of a format before
 * another load reaches the call: past the other one.
 */
static bool branches_to(const unsigned char *text, size_t size, uint64_t from,
			uint64_t to, uint64_t lo, uint64_t hi)
{
	uint64_t j, t;

	if (to > from + 64)
		to = from + 64;
	for (j = from; j < to; j++) {
		const unsigned char *q = text + j;

		if ((q[0] == 0xeb || (q[0] >= 0x70 && q[0] <= 0x7f)) && j + 2 <= size)
			t = j + 2 + (uint64_t)(int64_t)(int8_t)q[1];
		else if (q[0] == 0xe9 && j + 5 <= size)
			t = j + 5 + (uint64_t)(int64_t)(int32_t)get_le(q + 1, 4);
		else if (q[0] == 0x0f && j + 6 <= size && q[1] >= 0x80 && q[1] <= 0x8f)
			t = j + 6 + (uint64_t)(int64_t)(int32_t)get_le(q + 2, 4);
		else
			continue;
		if (t >= lo && t <= hi)
			return true;
	}
	return false;
}

/* "mov $imm32,%reg": REX, c7, ModRM; "lea disp32(%rip),%reg": REX, 8d, ModRM */
static const unsigned char mov_rex[NREGS] = { 0x48, 0x48, 0x48, 0x48, 0x49, 0x49 };
static const unsigned char movs[NREGS] = { 0xc7, 0xc6, 0xc2, 0xc1, 0xc0, 0xc1 };
static const unsigned char lea_rex[NREGS] = { 0x48, 0x48, 0x48, 0x48, 0x4c, 0x4c };
static const unsigned char leas[NREGS] = { 0x3d, 0x35, 0x15, 0x0d, 0x05, 0x0d };

/* Is relocation r (of code text) a call or a tail call? */
static bool rel_is_call(const struct rel *r, const unsigned char *text)
{
	return (r->type == R_PLT32 || r->type == R_PC32) && r->off >= 1 &&
	       (text[r->off - 1] == 0xe8 || text[r->off - 1] == 0xe9);
}

/*
 * The relocations of the loads of register reg before the call at
 * rels[i], after the call before it: from the nearest, one per call with
 * *j, first i.  Its target (*sec, *off) and the offset of the instruction
 * (*at).  All of them, not only the nearest: the compiler may load one of
 * several formats in branches before one call, or merge the calls of
 * several branches into one (cross-jumping); a load is dead if no branch
 * leads from it to the call.
 */
static bool rel_arg(const struct so *o, const unsigned char *text,
		    const struct rel *rels, size_t i, size_t *j, int reg,
		    size_t *sec, uint64_t *off, uint64_t *at)
{
	uint64_t call = rels[i].off - 1;

	while ((*j)-- > 0) {
		const struct rel *r = &rels[*j];
		const unsigned char *p = text + r->off;

		if (r->off + ARG_WINDOW < call || rel_is_call(r, text)) {
			*j = 0;
			return false;
		}
		if (r->off < 3 || r->off + 4 > call)
			continue;
		if (r->type == R_32S && p[-3] == mov_rex[reg] && p[-2] == 0xc7 &&
		    p[-1] == movs[reg] && rel_target(o, r, 0, sec, off)) {
			*at = r->off - 3;
			return true;
		}
		if (r->type == R_PC32 && p[-3] == lea_rex[reg] && p[-2] == 0x8d &&
		    p[-1] == leas[reg] &&
		    rel_target(o, r, 4, sec, off)) {
			*at = r->off - 3;
			return true;
		}
	}
	*j = 0;
	return false;
}

/*
 * The descriptors of a struct _ddebug array of n bytes at d, if it is one
 * with entries of stride bytes: field() gives the string pointer at an
 * offset of the array, NULL if there is none.
 */
static bool dd_parse(struct so *o, const unsigned char *d, size_t n,
		     uint64_t stride, void *ctx,
		     const char *(*field)(struct so *o, void *ctx, uint64_t off))
{
	size_t k, cnt = n / stride;

	if (!n || n % stride)
		return false;
	o->dd = kmsg_xcalloc(cnt + 1, sizeof(*o->dd));
	for (k = 0; k < cnt; k++) {
		const char *f[4];
		int j;

		for (j = 0; j < 4; j++)
			if (!(f[j] = field(o, ctx, k * stride + 8 * (uint64_t)j)))
				break;
		if (j < 4 || o->err) {
			free(o->dd);
			o->dd = NULL;
			return false;
		}
		o->dd[k].modname = f[0];
		o->dd[k].function = f[1];
		o->dd[k].filename = f[2];
		o->dd[k].format = f[3];
		o->dd[k].line = (unsigned int)get_le(d + k * stride + 32, 4) & 0x3ffff;
		o->dd[k].kind = -1;
	}
	o->ndd = cnt;
	o->dd_stride = stride;
	return true;
}

/* the stride: 56 with CONFIG_JUMP_LABEL, else 40 */
static const uint64_t dd_strides[] = { 56, 40 };

struct rel_field {
	const struct rel *rels;
	size_t nrels, r;
};

/* A string pointer of __dyndbg: its R_X86_64_64 relocation (in order) */
static const char *rel_field(struct so *o, void *ctx, uint64_t want)
{
	struct rel_field *c = ctx;
	uint64_t toff;
	size_t ts;

	if (c->r && c->r <= c->nrels && c->rels[c->r - 1].off > want)
		c->r = 0;	/* another stride: from the start */
	while (c->r < c->nrels && c->rels[c->r].off < want)
		c->r++;
	if (c->r < c->nrels && c->rels[c->r].off == want && c->rels[c->r].type == R_64 &&
	    rel_target(o, &c->rels[c->r], 0, &ts, &toff))
		return sec_string(o, ts, toff);
	return NULL;
}

/* The struct _ddebug descriptors of a relocatable file */
static bool rel_dyndbg(struct so *o, size_t symtab)
{
	size_t sec = find_sec(o, "__dyndbg"), nrels, n, s;
	const unsigned char *d;
	struct rel *rels;

	if (!sec)
		return true;
	d = sec_data(o, sec, &n);
	if (!d)
		return !o->err;
	if (!read_rels(o, sec, symtab, &rels, &nrels))
		return false;
	for (s = 0; s < 2 && !o->ndd && !o->err; s++) {
		struct rel_field c = { rels, nrels, 0 };

		if (dd_parse(o, d, n, dd_strides[s], &c, rel_field))
			o->dd_sec = sec;
	}
	free(rels);
	if (o->err)
		return false;
	if (n && !o->ndd) {
		bad(o, "section __dyndbg: not an array of struct _ddebug with their relocations");
		return false;
	}
	return true;
}

/* The dynamic debug descriptor at (sec, off), or NULL */
static struct ddebug *dd_at(struct so *o, size_t sec, uint64_t off)
{
	uint64_t k;

	if (!o->ndd || sec != o->dd_sec || off < o->dd_off)
		return NULL;
	off -= o->dd_off;
	k = off / o->dd_stride;
	if (off % o->dd_stride || k >= o->ndd)
		return NULL;
	return &o->dd[k];
}

/*
 * The call at rels[i] of a module calls wrapper w: its sites.  The
 * level passed in a register before the format, if any.
 */
static void rel_wrapped(struct so *o, size_t ti, const unsigned char *text,
			size_t n, const struct rel *rels, size_t nrels, size_t i,
			const struct kmsg_wrapper *w, const struct func *fn)
{
	struct call_fmts cf = { .n = 0 };
	const char *lvl = NULL;
	uint64_t off, at;
	size_t sec, j;
	unsigned int reg;

	o->st.calls[KMSG_SITE_WRAP]++;
	if (flow_wrapped(o, ti, text, n, 0, rels, nrels, rels[i].off - 1, w, fn))
		return;
	for (reg = REG_DI; reg < w->reg && !lvl; reg++) {
		j = i;
		if (rel_arg(o, text, rels, i, &j, (int)reg, &sec, &off, &at) &&
		    level_string(sec_string(o, sec, off)))
			lvl = sec_string(o, sec, off);
	}
	j = i;
	while (rel_arg(o, text, rels, i, &j, (int)w->reg, &sec, &off, &at)) {
		const char *fmt = sec_string(o, sec, off);

		if (!fmt || !text_like(fmt) || level_string(fmt) ||
		    !call_fmt(&cf, text, n, at, rels[i].off - 1, fmt))
			continue;
		wrap_site(o, w, fmt, lvl,
			  fn && rels[i].off < fn->end ? fn->name : NULL,
			  rels[i].off - 1);
	}
	if (cf.n)
		o->st.formats[KMSG_SITE_WRAP]++;
}

static void rel_section(struct so *o, size_t ti, const struct rel *rels,
			size_t nrels)
{
	const unsigned char *text;
	size_t i, n;

	text = sec_data(o, ti, &n);
	if (!text)
		return;
	for (i = 0; i < nrels; i++) {
		const struct rel *r = &rels[i];
		struct call_fmts cf = { .n = 0 };
		const struct family *f;
		const struct func *fn;
		const char *lvl = NULL;
		uint64_t off, at;
		size_t sec, j;
		int fam = o->syms[r->sym].fam;

		if (o->use) {
			int w = o->syms[r->sym].wrap;

			const struct sym *sy = &o->syms[r->sym];
			const struct kmsg_wrappers *u = o->use;

			if (w < 0 || !rel_is_call(r, text))
				continue;
			fn = func_at(o->funcs, o->nfuncs, (uint32_t)ti, r->off);
			for (; (size_t)w < u->n && !strcmp(u->v[w].name, sy->name); w++)
				if (wrapper_fits(o, &u->v[w], sy->shndx != SHN_UNDEF))
					rel_wrapped(o, ti, text, n, rels, nrels, i,
						    &u->v[w], fn);
			continue;
		}
		if (fam < 0 || !rel_is_call(r, text))
			continue;
		f = &families[fam];
		if (is_dyndbg(f)) {
			struct ddebug *d;

			j = i;
			if (rel_arg(o, text, rels, i, &j, f->reg, &sec, &off, &at) &&
			    (d = dd_at(o, sec, off)) && d->kind < 0)
				d->kind = f->kind;
			continue;
		}
		o->st.calls[f->kind]++;
		fn = func_at(o->funcs, o->nfuncs, (uint32_t)ti, r->off);
		if (flow_site(o, ti, text, n, 0, rels, nrels, r->off - 1, f, fn))
			continue;
		if (f->level == LVL_ARG) {
			j = i;
			while (!lvl && rel_arg(o, text, rels, i, &j, REG_DI, &sec, &off, &at))
				lvl = sec_string(o, sec, off);
		}
		fn = func_at(o->funcs, o->nfuncs, (uint32_t)ti, r->off);
		j = i;
		while (rel_arg(o, text, rels, i, &j, f->reg, &sec, &off, &at)) {
			const char *fmt = sec_string(o, sec, off);

			if (!fmt || !text_like(fmt) ||
			    !call_fmt(&cf, text, n, at, r->off - 1, fmt))
				continue;
			add_site(o, f->kind, f->prefix, f->level, fmt, lvl,
				 fn && r->off < fn->end ? fn->name : NULL, NULL, 0,
				 o->modname, r->off - 1);
			if (fn && r->off < fn->end)
				found_wrapper(o, f, fmt, fn, text, n, 0, fn->local);
		}
		if (cf.n)
			o->st.formats[f->kind]++;
	}
}

/* The value of @key ("name", "depends") in a module's .modinfo, or NULL */
static char *modinfo(struct so *o, const char *key)
{
	size_t i = find_sec(o, ".modinfo"), n, p = 0, klen = strlen(key);
	const unsigned char *d;

	if (!i || !(d = sec_data(o, i, &n)))
		return NULL;
	while (p < n) {
		const unsigned char *q = memchr(d + p, '\0', n - p);
		size_t len = q ? (size_t)(q - (d + p)) : n - p;

		if (q && len > klen && !memcmp(d + p, key, klen) &&
		    d[p + klen] == '=')
			return kmsg_xstrndup((const char *)d + p + klen + 1,
					     len - klen - 1);
		p += len + 1;
	}
	return NULL;
}

static char *module_name(struct so *o)
{
	const char *base = strrchr(o->path, '/');
	char *name = modinfo(o, "name");
	size_t n, p;

	if (name && name[0])
		return name;
	free(name);
	/*
	 * No name= (kernels before 5.3): kbuild's KBUILD_MODNAME of a
	 * module, its file name without .ko (and a compression suffix),
	 * '-' made '_'
	 */
	base = base ? base + 1 : o->path;
	n = strcspn(base, ".");
	name = kmsg_xstrndup(base, n);
	for (p = 0; p < n; p++)
		if (name[p] == '-')
			name[p] = '_';
	return name;
}

int kmsg_sites_module(const char *path, const void *image, size_t size,
		      char **name, char **depends)
{
	struct so o = { .path = path, .img = image, .size = size };
	int ret = -1;

	*name = *depends = NULL;
	if (read_headers(&o) && !o.err && o.eh.e_type == ET_REL) {
		*name = module_name(&o);
		*depends = modinfo(&o, "depends");
		if (!*depends)
			*depends = kmsg_xstrdup("");
		ret = 0;
	}
	free(o.secs);
	free(o.err);
	return ret;
}

static bool read_rel(struct so *o)
{
	size_t symtab, i, cap = 0;

	o->object = module_name(o);
	o->modname = kmsg_xstrdup(o->object);
	if (o->err || !read_symtab(o, &symtab))
		return false;
	if (!symtab) {
		bad(o, "no symbol table");
		return false;
	}
	for (i = 0; i < o->nsyms; i++) {
		const struct sym *s = &o->syms[i];

		if (s->type == STT_FUNC && s->shndx && s->shndx < o->nsec) {
			add_func(&o->funcs, &o->nfuncs, &cap, s->shndx, s->value,
				 s->size, s->name);
			o->funcs[o->nfuncs - 1].local = s->bind == STB_LOCAL;
		}
	}
	sort_funcs(o->funcs, o->nfuncs);
	find_buffer_wrappers(o);
	if (!o->use && !rel_dyndbg(o, symtab))
		return false;
	/* first the dynamic debug calls, then the sites in file order */
	for (i = 1; i < o->nsec && !o->err; i++) {
		struct rel *rels;
		size_t nrels;

		if (!(o->secs[i].sh.sh_flags & SHF_EXECINSTR) ||
		    o->secs[i].sh.sh_type != SHT_PROGBITS)
			continue;
		if (!read_rels(o, i, symtab, &rels, &nrels))
			break;
		o->text_name = sname(o, i);
		rel_section(o, i, rels, nrels);
		o->text_name = NULL;
		free(rels);
	}
	if (o->err)
		return false;
	if (!o->use)
		add_dyndbg_sites(o);
	return true;
}

/* ----------------------------------------------------------------- */
/* vmlinux: code patterns, absolute addresses                        */

/* The section holding address a (allocated, with data), 0 if none */
static size_t sec_of_addr(const struct so *o, uint64_t a, uint64_t *off)
{
	size_t i;

	for (i = 1; i < o->nsec; i++) {
		const Elf64_Shdr *sh = &o->secs[i].sh;

		if (!(sh->sh_flags & SHF_ALLOC) || sh->sh_type == SHT_NOBITS ||
		    a < sh->sh_addr || a - sh->sh_addr >= sh->sh_size)
			continue;
		*off = a - sh->sh_addr;
		return i;
	}
	return 0;
}

/* The string at address a, in a section of data (not code) */
static const char *addr_raw_string(struct so *o, uint64_t a)
{
	uint64_t off;
	size_t i = sec_of_addr(o, a, &off);

	if (!i || (o->secs[i].sh.sh_flags & SHF_EXECINSTR))
		return NULL;
	return sec_string(o, i, off);
}

/* Same, only if it looks like text: for a string a pattern points to */
static const char *addr_string(struct so *o, uint64_t a)
{
	uint64_t off;
	size_t i = sec_of_addr(o, a, &off);
	const char *str;

	if (!i || (o->secs[i].sh.sh_flags & SHF_EXECINSTR))
		return NULL;
	str = sec_string(o, i, off);
	return str && text_like(str) ? str : NULL;
}

static int addr_cmp(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static const struct func *func_exact(const struct func *v, size_t n, uint64_t a)
{
	struct func key = { .start = a };

	return n ? bsearch(&key, v, n, sizeof(key), addr_cmp) : NULL;
}

/* Functions from the System.map (T, t, W, w), and __{start,stop}___dyndbg */
static bool read_sysmap(struct so *o, const char *path, size_t *cap,
			uint64_t *dd_start, uint64_t *dd_stop)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, lineno = 0, mcap;
	char *p, *end;

	if (!f) {
		o->err = kmsg_xprintf("%s: %s", path, strerror(errno));
		return false;
	}
	for (mcap = 1 << 16;; mcap *= 2) {
		o->map = kmsg_xrealloc(o->map, mcap + 1, 1);
		len += fread(o->map + len, 1, mcap - len, f);
		if (len < mcap || mcap > SYSMAP_MAX)
			break;
	}
	if (ferror(f) || len > SYSMAP_MAX) {
		o->err = kmsg_xprintf("%s: %s", path, ferror(f) ? "read error" :
				      "larger than 256 MiB");
		fclose(f);
		return false;
	}
	fclose(f);
	o->map[len] = '\0';
	for (p = o->map; p < o->map + len; p = end + 1) {
		char *nl = memchr(p, '\n', (size_t)(o->map + len - p)), *q, *name;
		unsigned long long a;
		char type;

		end = nl ? nl : o->map + len;
		*end = '\0';
		lineno++;
		errno = 0;
		a = strtoull(p, &q, 16);
		/* Debian's: "ffffffffffffffff B The real System.map is in ..." */
		if (q != p && q[0] == ' ' && strstr(q, " The real System.map is in")) {
			o->err = kmsg_xprintf("%s: a placeholder, not a System.map: the symbols are in the linux-image-*-dbg package",
					      path);
			return false;
		}
		if (q == p || errno || q[0] != ' ' || !q[1] || q[2] != ' ' || !q[3] ||
		    strchr(q + 3, ' ')) {
			o->err = kmsg_xprintf("%s:%zu: not a System.map line \"ADDRESS TYPE NAME\"",
					      path, lineno);
			return false;
		}
		type = q[1];
		name = q + 3;
		if (!strcmp(name, "__start___dyndbg"))
			*dd_start = a;
		else if (!strcmp(name, "__stop___dyndbg"))
			*dd_stop = a;
		if (type == 'T' || type == 't' || type == 'W' || type == 'w')
			add_func(&o->funcs, &o->nfuncs, cap, 0, a, 0, name);
	}
	return true;
}

/*
 * The loads of strings into register reg before the call at offset p of
 * text (of address base), in the calling function (from lo) and after any
 * call before it, from the nearest: one per call, with the cursor *k
 * (first p).  The string is *str, the load's address returned; 0 when
 * there are no more.  As rel_arg(), all of them.
 */
static uint64_t scan_arg(struct so *o, const unsigned char *text, uint64_t base,
			 uint64_t lo, uint64_t p, uint64_t *k, int reg,
			 const char **str)
{
	if (p > ARG_WINDOW && lo < p - ARG_WINDOW)
		lo = p - ARG_WINDOW;
	while (*k > lo) {
		const unsigned char *q = text + --(*k);

		/* a call or tail call of a function ends the search */
		if (*k + 5 <= p && (q[0] == 0xe8 || q[0] == 0xe9) &&
		    func_exact(o->funcs, o->nfuncs,
			       base + *k + 5 + (uint64_t)(int64_t)(int32_t)get_le(q + 1, 4)))
			break;
		if (*k + 7 > p)
			continue;
		if (q[0] == mov_rex[reg] && q[1] == 0xc7 && q[2] == movs[reg])
			*str = addr_string(o, (uint64_t)(int64_t)(int32_t)get_le(q + 3, 4));
		else if (q[0] == lea_rex[reg] && q[1] == 0x8d && q[2] == leas[reg])
			*str = addr_string(o, base + *k + 7 +
					   (uint64_t)(int64_t)(int32_t)get_le(q + 3, 4));
		else
			continue;
		if (*str)
			return base + *k;
	}
	*k = lo;
	return 0;
}

/* The descriptors between __start___dyndbg and __stop___dyndbg */
/* A string pointer of the descriptors of vmlinux (ctx: their bytes) */
static const char *addr_field(struct so *o, void *ctx, uint64_t off)
{
	return addr_raw_string(o, get_le((const unsigned char *)ctx + off, 8));
}

static bool exec_dyndbg(struct so *o, uint64_t start, uint64_t stop)
{
	const unsigned char *d;
	uint64_t off;
	size_t sec, n, s;

	if (!start || stop <= start)
		return true;
	sec = sec_of_addr(o, start, &off);
	if (!sec || !(d = sec_data(o, sec, &n)) || stop - start > n - off) {
		bad(o, "__start___dyndbg..__stop___dyndbg (%#llx..%#llx) outside every section",
		    (unsigned long long)start, (unsigned long long)stop);
		return false;
	}
	d += off;
	n = stop - start;
	for (s = 0; s < 2; s++) {
		if (dd_parse(o, d, n, dd_strides[s], (void *)d, addr_field)) {
			o->dd_sec = sec;
			o->dd_off = off;
			return true;
		}
	}
	bad(o, "__start___dyndbg..__stop___dyndbg: not an array of struct _ddebug");
	return false;
}

/* The register a load of text + k loads, -1 if it is none; its address */
static int load_at(const unsigned char *text, size_t n, uint64_t k,
		   uint64_t base, uint64_t *a)
{
	const unsigned char *q = text + k;
	int reg;

	if (k + 7 > n || q[0] != 0x48 || (q[1] != 0xc7 && q[1] != 0x8d))
		return -1;
	for (reg = REG_DI; reg <= REG_DX; reg++) {
		if (q[1] == 0xc7 && q[2] == movs[reg]) {
			*a = (uint64_t)(int64_t)(int32_t)get_le(q + 3, 4);
			return reg;
		}
		if (q[1] == 0x8d && q[2] == leas[reg]) {
			*a = base + k + 7 + (uint64_t)(int64_t)(int32_t)get_le(q + 3, 4);
			return reg;
		}
	}
	return -1;
}

/*
 * The length of a register-to-register test, cmp, xor or sub at text + j
 * (with or without a REX prefix), 0 if there is none: what may come
 * between a load and the conditional jump after it
 */
static unsigned int test_len(const unsigned char *text, size_t n, uint64_t j)
{
	static const unsigned char ops[] = { 0x84, 0x85, 0x38, 0x39, 0x30, 0x31,
					     0x28, 0x29 };
	unsigned int rex = j < n && (text[j] & 0xf0) == 0x40;

	if (j + rex + 2 > n || !memchr(ops, text[j + rex], sizeof(ops)) ||
	    text[j + rex + 1] < 0xc0)
		return 0;
	return rex + 2;
}

/*
 * The loads of a format followed by a jump back to the call printing it
 * (the compiler merged the calls of several branches into one before
 * them): a load of a string into a format register, a jump right after
 * it (or after a test of registers) to an earlier offset, from which a call of a function of
 * the family taking its format in that register follows within 48 bytes,
 * with no call and no load of that register between.  Not for the
 * functions whose level is an argument: it would be a guess.
 */
static void exec_back_jumps(struct so *o, const unsigned char *text, size_t n,
			    uint64_t base)
{
	uint64_t k, j, c, a, t;

	for (k = 0; k + 7 <= n; k++) {
		const char *fmt;
		int reg = load_at(text, n, k, base, &a);

		if (reg < 0 || !(fmt = addr_string(o, a)))
			continue;
		j = k + 7 + test_len(text, n, k + 7);
		t = UINT64_MAX;
		if (j + 2 <= n && branches_to(text, n, j, j + 1, 0, k)) {
			const unsigned char *q = text + j;

			if (q[0] == 0xe9)
				t = j + 5 + (uint64_t)(int64_t)(int32_t)get_le(q + 1, 4);
			else if (q[0] == 0x0f)
				t = j + 6 + (uint64_t)(int64_t)(int32_t)get_le(q + 2, 4);
			else
				t = j + 2 + (uint64_t)(int64_t)(int8_t)q[1];
		}
		if (t == UINT64_MAX)
			continue;
		for (c = t; c + 5 <= n && c < t + 48; c++) {
			const struct func *fe, *fn;
			const struct family *f;
			uint64_t x;

			if (load_at(text, n, c, base, &x) == reg)
				break;
			if (text[c] != 0xe8 && text[c] != 0xe9)
				continue;
			x = base + c + 5 + (uint64_t)(int64_t)(int32_t)get_le(text + c + 1, 4);
			fe = func_exact(o->fams, o->nfams, x);
			if (!fe) {
				if (func_exact(o->funcs, o->nfuncs, x))
					break;
				continue;
			}
			f = &families[fe->shndx];
			if (f->reg == reg && !is_dyndbg(f) && f->level != LVL_ARG) {
				fn = func_at(o->funcs, o->nfuncs, 0, base + c);
				add_site(o, f->kind, f->prefix, f->level, fmt, NULL,
					 fn && base + c < fn->end ? fn->name : NULL,
					 NULL, 0, "", base + k);
			}
			break;
		}
	}
}

/* The call at offset p of text (address base) calls wrapper w: its sites */
static void exec_wrapped(struct so *o, size_t ti, const unsigned char *text,
			 size_t n, uint64_t base, uint64_t p,
			 const struct kmsg_wrapper *w)
{
	const struct func *fn = func_at(o->funcs, o->nfuncs, 0, base + p);
	struct call_fmts cf = { .n = 0 };
	const char *lvl = NULL, *fmt = NULL;
	uint64_t lo = 0, k, at;
	unsigned int reg;

	if (fn && fn->start >= base)
		lo = fn->start - base;
	o->st.calls[KMSG_SITE_WRAP]++;
	if (flow_wrapped(o, ti, text, n, base, NULL, 0, p, w, fn))
		return;
	for (reg = REG_DI; reg < w->reg && !lvl; reg++) {
		const char *str = NULL;

		k = p;
		if (scan_arg(o, text, base, lo, p, &k, (int)reg, &str) &&
		    level_string(str))
			lvl = str;
	}
	k = p;
	while ((at = scan_arg(o, text, base, lo, p, &k, (int)w->reg, &fmt))) {
		if (level_string(fmt) || !call_fmt(&cf, text, n, at - base, p, fmt))
			continue;
		wrap_site(o, w, fmt, lvl,
			  fn && base + p < fn->end ? fn->name : NULL, at);
	}
	if (cf.n)
		o->st.formats[KMSG_SITE_WRAP]++;
}

static void exec_section(struct so *o, size_t ti)
{
	const Elf64_Shdr *sh = &o->secs[ti].sh;
	const unsigned char *text;
	uint64_t p, base = sh->sh_addr;
	size_t n;

	text = sec_data(o, ti, &n);
	if (!text || n < 5)
		return;
	for (p = 0; p + 5 <= n; p++) {
		struct call_fmts cf = { .n = 0 };
		const struct func *fe, *fn;
		const struct family *f;
		const char *fmt = NULL, *lvl = NULL;
		uint64_t target, lo = 0, at, k;

		if (text[p] != 0xe8 && text[p] != 0xe9)
			continue;
		target = base + p + 5 + (uint64_t)(int64_t)(int32_t)get_le(text + p + 1, 4);
		if (o->use) {
			const struct func *end = o->wraps + o->nwraps;

			fe = func_exact(o->wraps, o->nwraps, target);
			while (fe && fe > o->wraps && fe[-1].start == target)
				fe--;
			for (; fe && fe < end && fe->start == target; fe++)
				exec_wrapped(o, ti, text, n, base, p,
					     &o->use->v[fe->shndx]);
			continue;
		}
		fe = func_exact(o->fams, o->nfams, target);
		if (!fe)
			continue;
		f = &families[fe->shndx];
		fn = func_at(o->funcs, o->nfuncs, 0, base + p);
		if (fn && fn->start >= base)
			lo = fn->start - base;
		if (is_dyndbg(f)) {
			uint64_t dl = p > ARG_WINDOW ? p - ARG_WINDOW : 0;

			/* the descriptor's load: not a string, the nearest */
			k = p;
			if (lo > dl)
				dl = lo;
			while (k-- > dl) {
				const unsigned char *q = text + k;
				uint64_t a, doff;
				struct ddebug *d;

				if (k + 7 > p || q[0] != 0x48)
					continue;
				if (q[1] == 0xc7 && q[2] == movs[REG_DI])
					a = (uint64_t)(int64_t)(int32_t)get_le(q + 3, 4);
				else if (q[1] == 0x8d && q[2] == leas[REG_DI])
					a = base + k + 7 +
						(uint64_t)(int64_t)(int32_t)get_le(q + 3, 4);
				else
					continue;
				if (sec_of_addr(o, a, &doff) != o->dd_sec)
					continue;
				d = dd_at(o, o->dd_sec, doff);
				if (d && d->kind < 0) {
					d->kind = f->kind;
					d->addr = base + k;
				}
				break;
			}
			continue;
		}
		o->st.calls[f->kind]++;
		if (flow_site(o, ti, text, n, base, NULL, 0, p, f, fn))
			continue;
		if (f->level == LVL_ARG) {
			k = p;
			scan_arg(o, text, base, lo, p, &k, REG_DI, &lvl);
		}
		k = p;
		while ((at = scan_arg(o, text, base, lo, p, &k, f->reg, &fmt))) {
			if (!call_fmt(&cf, text, n, at - base, p, fmt))
				continue;
			add_site(o, f->kind, f->prefix, f->level, fmt, lvl,
				 fn && base + p < fn->end ? fn->name : NULL, NULL, 0,
				 "", at);
			if (fn && base + p < fn->end)
				found_wrapper(o, f, fmt, fn, text, n, base, false);
		}
		if (cf.n)
			o->st.formats[f->kind]++;
	}
	/* the flow has them, and more */
	if (!o->use && !(o->flow_sec == ti && o->flow))
		exec_back_jumps(o, text, n, base);
}

static bool read_exec(struct so *o, const char *sysmap)
{
	uint64_t dd_start = 0, dd_stop = 0;
	size_t symtab, i, cap = 0, fcap = 0, wcap = 0;

	o->object = kmsg_xstrdup("vmlinux");
	o->modname = kmsg_xstrdup("");
	if (!read_symtab(o, &symtab))
		return false;
	if (symtab) {
		for (i = 0; i < o->nsyms; i++) {
			const struct sym *s = &o->syms[i];

			if (!strcmp(s->name, "__start___dyndbg"))
				dd_start = s->value;
			else if (!strcmp(s->name, "__stop___dyndbg"))
				dd_stop = s->value;
			if (s->type == STT_FUNC && s->name[0])
				add_func(&o->funcs, &o->nfuncs, &cap, 0, s->value,
					 s->size, s->name);
		}
	} else if (sysmap) {
		if (!read_sysmap(o, sysmap, &cap, &dd_start, &dd_stop))
			return false;
	} else {
		bad(o, "no symbol table: give its System.map");
		return false;
	}
	sort_funcs(o->funcs, o->nfuncs);
	/* the family's functions; shndx holds the index in families[] */
	for (i = 0; i < o->nfuncs; i++) {
		int fam = family_of(o->funcs[i].name);

		if (fam >= 0)
			add_func(&o->fams, &o->nfams, &fcap, (uint32_t)fam,
				 o->funcs[i].start, 1, o->funcs[i].name);
	}
	if (o->nfams > 1)
		qsort(o->fams, o->nfams, sizeof(*o->fams), addr_cmp);
	if (!o->nfams) {
		bad(o, "no function of the printk family (_printk, ...) in its symbols");
		return false;
	}
	find_buffer_wrappers(o);
	/* the wrappers of vmlinux whose calls are read, by address */
	for (i = 0; o->use && i < o->use->n; i++)
		if (o->use->v[i].addr && !strcmp(o->use->v[i].object, "vmlinux"))
			add_func(&o->wraps, &o->nwraps, &wcap, (uint32_t)i,
				 o->use->v[i].addr, 1, o->use->v[i].name);
	if (o->nwraps > 1)
		qsort(o->wraps, o->nwraps, sizeof(*o->wraps), addr_cmp);
	if (!o->use && !exec_dyndbg(o, dd_start, dd_stop))
		return false;
	for (i = 1; i < o->nsec && !o->err; i++)
		if ((o->secs[i].sh.sh_flags & SHF_EXECINSTR) &&
		    (o->secs[i].sh.sh_flags & SHF_ALLOC) &&
		    o->secs[i].sh.sh_type == SHT_PROGBITS)
			exec_section(o, i);
	if (o->err)
		return false;
	if (!o->use)
		add_dyndbg_sites(o);
	return true;
}

int kmsg_sites_scan(const char *path, const void *image, size_t size,
		    const char *system_map_path, struct kmsg_msgs *out,
		    struct kmsg_sites_stats *stats, struct kmsg_wrappers *found,
		    const struct kmsg_wrappers *use, char **err)
{
	struct so o = { .path = path, .img = image, .size = size,
			.found = use ? NULL : found, .use = use };
	size_t i, nfound = found ? found->n : 0;
	bool done;

	*err = NULL;
	done = read_headers(&o) &&
		(o.eh.e_type == ET_REL ? read_rel(&o) : read_exec(&o, system_map_path));
	if (done && !o.err) {
		for (i = 0; i < o.tmp.n; i++) {
			KMSG_GROW(out->v, out->cap, out->n);
			out->v[out->n++] = o.tmp.v[i];
		}
		o.tmp.n = 0;
		if (stats) {
			for (i = 0; i < KMSG_SITE_KINDS; i++) {
				stats->calls[i] += o.st.calls[i];
				stats->formats[i] += o.st.formats[i];
			}
			stats->dyndbg_unpaired += o.st.dyndbg_unpaired;
		}
	} else {
		*err = o.err ? o.err : kmsg_xprintf("%s: unreadable", path);
		o.err = NULL;
		/* a damaged image gives no wrappers either */
		while (o.found && found->n > nfound)
			wrapper_free(&found->v[--found->n]);
	}
	kmsg_msgs_free(&o.tmp);
	kmsg_flow_free(o.flow);
	free(o.secs);
	free(o.syms);
	free(o.funcs);
	free(o.fams);
	free(o.wraps);
	free(o.map);
	free(o.dd);
	free(o.object);
	free(o.modname);
	free(o.err);
	return *err ? -1 : 0;
}

int kmsg_sites_read_stats(const char *path, const void *image, size_t size,
			  const char *system_map_path, struct kmsg_msgs *out,
			  struct kmsg_sites_stats *stats, char **err)
{
	return kmsg_sites_scan(path, image, size, system_map_path, out, stats,
			       NULL, NULL, err);
}

int kmsg_sites_read(const char *path, const void *image, size_t size,
		    const char *system_map_path, struct kmsg_msgs *out,
		    char **err)
{
	return kmsg_sites_read_stats(path, image, size, system_map_path, out,
				     NULL, err);
}
