// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_dwarf - compile unit, line and function of an address, with libdw.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmsg_dwarf.h"

struct kmsg_dwarf {
	int fd;
	Dwarf *dw;
	/*
	 * A relocatable object's: libdwfl lays its sections out and
	 * relocates its line tables, in image, a copy it owns; dw is its
	 * module's, bias the difference of DWARF addresses to libdwfl's;
	 * rows the line tables' rows, by address.
	 */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	char *image;
	struct row {
		uint64_t addr;
		const char *file;	/* relative to the unit's directory */
		int line;		/* -1: the end of a sequence */
		size_t seq;		/* its place in the tables */
	} *rows;
	size_t nrows;
	/* its allocated sections, where libdwfl placed them */
	struct sec {
		const char *name;
		uint64_t addr, size;
	} *secs;
	size_t nsecs;
};

struct kmsg_dwarf *kmsg_dwarf_open(const char *path, char *err, size_t errlen)
{
	struct kmsg_dwarf *d;
	Elf *elf;
	GElf_Ehdr eh;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		snprintf(err, errlen, "%s: not an ELF file", path);
		goto fail;
	}
	if (eh.e_type == ET_REL) {
		snprintf(err, errlen,
			 "%s: a relocatable object: its DWARF is read only once linked",
			 path);
		goto fail;
	}
	elf_end(elf);
	elf = NULL;
	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		goto fail;
	}
	d->fd = fd;
	d->dw = dwarf_begin(fd, DWARF_C_READ);
	if (!d->dw) {
		int e = dwarf_errno();

		snprintf(err, errlen, "%s: no DWARF debug information (%s)",
			 path, dwarf_errmsg(e));
		free(d);
		goto fail;
	}
	return d;
fail:
	if (elf)
		elf_end(elf);
	close(fd);
	return NULL;
}

/* no separate debug information: the object is read as it is */
static int no_elf(Dwfl_Module *mod, void **userdata, const char *name,
		  Dwarf_Addr base, char **file_name, Elf **elfp)
{
	(void)mod, (void)userdata, (void)name, (void)base;
	*file_name = NULL;
	*elfp = NULL;
	return -1;
}

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *name,
			Dwarf_Addr base, const char *file_name,
			const char *debuglink, GElf_Word crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)name, (void)base, (void)file_name;
	(void)debuglink, (void)crc;
	*debuginfo_file_name = NULL;
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = no_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/*
 * Only the line tables of a relocatable object are read: of its
 * relocation sections, leave those of other debug sections (.debug_info's
 * are most of the object) to be ignored, as sections of another type.
 * False if the image is no 64-bit ELF whose section headers fit in it.
 */
static bool only_line_relocations(char *image, size_t size)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, target, strs;
	size_t i;

	if (size < sizeof(eh))
		return false;
	memcpy(&eh, image, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(sh) || eh.e_shoff > size ||
	    eh.e_shnum > (size - eh.e_shoff) / sizeof(sh) ||
	    eh.e_shstrndx >= eh.e_shnum)
		return false;
	memcpy(&strs, image + eh.e_shoff + eh.e_shstrndx * sizeof(sh),
	       sizeof(sh));
	if (strs.sh_offset > size || strs.sh_size > size - strs.sh_offset)
		return false;
	for (i = 0; i < eh.e_shnum; i++) {
		char *at = image + eh.e_shoff + i * sizeof(sh);
		const char *tname;

		memcpy(&sh, at, sizeof(sh));
		if ((sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    sh.sh_info >= eh.e_shnum)
			continue;
		memcpy(&target, image + eh.e_shoff + sh.sh_info * sizeof(sh),
		       sizeof(sh));
		if (target.sh_flags & SHF_ALLOC)
			continue;
		tname = target.sh_name < strs.sh_size ?
			image + strs.sh_offset + target.sh_name : NULL;
		if (tname && memchr(tname, 0, strs.sh_size - target.sh_name) &&
		    !strcmp(tname, ".debug_line"))
			continue;
		sh.sh_type = SHT_PROGBITS;
		memcpy(at, &sh, sizeof(sh));
	}
	return true;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* an end of sequence before a row that starts at its address */
	if ((x->line >= 0) != (y->line >= 0))
		return (x->line >= 0) - (y->line >= 0);
	/* rows at one address in their order: the last one is the line */
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The allocated sections of the module, and the addresses libdwfl laid
 * them out at, as its relocated DWARF has them: from the ELF image of
 * dwarf_getelf(), not dwfl_module_getelf(), which would relocate the
 * sections' own contents too.
 */
static bool read_secs(struct kmsg_dwarf *d)
{
	Elf *elf = dwarf_getelf(d->dw);
	int i, n = dwfl_module_relocations(d->mod);

	if (!elf || n < 0)
		return false;
	d->secs = calloc(n ? n : 1, sizeof(*d->secs));
	if (!d->secs)
		return false;
	for (i = 0; i < n; i++) {
		GElf_Word shndx;
		GElf_Shdr sh;
		const char *name = dwfl_module_relocation_info(d->mod, i, &shndx);

		if (!name || !gelf_getshdr(elf_getscn(elf, shndx), &sh))
			continue;
		d->secs[d->nsecs].name = name;
		d->secs[d->nsecs].addr = sh.sh_addr + d->bias;
		d->secs[d->nsecs++].size = sh.sh_size;
	}
	return true;
}

/*
 * The rows of every line table of d->dw.  A DWARF 5 table names its
 * directory; an older one's unit is found by .debug_info, which is not
 * relocated: its file names are then as the table has them.
 */
static bool read_rows(struct kmsg_dwarf *d)
{
	Dwarf_Off off = 0, next;
	Dwarf_CU *cu = NULL;
	Dwarf_Files *files;
	Dwarf_Lines *lines;
	size_t cap = 0, nfiles, nlines;
	int r;

	while ((r = dwarf_next_lines(d->dw, off, &next, &cu, &files, &nfiles,
				     &lines, &nlines)) == 0) {
		const char *const *dirs;
		size_t ndirs, i, dl = 0;

		off = next;
		if (!dwarf_getsrcdirs(files, &dirs, &ndirs) && ndirs && dirs[0])
			dl = strlen(dirs[0]);
		for (i = 0; i < nlines; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			struct row *w;
			Dwarf_Addr a;
			bool end = false;
			int line = 0;
			const char *f = NULL;

			if (!l || dwarf_lineaddr(l, &a) ||
			    dwarf_lineendsequence(l, &end))
				continue;
			if (!end && (dwarf_lineno(l, &line) ||
				     !(f = dwarf_linesrc(l, NULL, NULL))))
				continue;
			/* relative to the tree it was built in */
			if (f && dl && !strncmp(f, dirs[0], dl) && f[dl] == '/')
				f += dl + 1;
			if (d->nrows == cap) {
				cap = cap ? 2 * cap : 1024;
				w = realloc(d->rows, cap * sizeof(*w));
				if (!w)
					return false;
				d->rows = w;
			}
			w = &d->rows[d->nrows];
			w->addr = a;
			w->file = f;
			w->line = end ? -1 : line;
			w->seq = d->nrows++;
		}
	}
	if (r < 0)
		return false;
	if (d->nrows)
		qsort(d->rows, d->nrows, sizeof(*d->rows), row_cmp);
	return true;
}

struct kmsg_dwarf *kmsg_dwarf_open_rel(const char *name, const void *image,
				       size_t size, char *err, size_t errlen)
{
	struct kmsg_dwarf *d = calloc(1, sizeof(*d));

	if (!d || !(d->image = malloc(size ? size : 1))) {
		snprintf(err, errlen, "%s: %s", name, strerror(ENOMEM));
		free(d);
		return NULL;
	}
	d->fd = -1;
	memcpy(d->image, image, size);
	if (!only_line_relocations(d->image, size)) {
		snprintf(err, errlen, "%s: not a 64-bit ELF object", name);
		kmsg_dwarf_close(d);
		return NULL;
	}
	d->dwfl = dwfl_begin(&offline_callbacks);
	if (!d->dwfl)
		goto fail;
	d->mod = dwfl_report_offline_memory(d->dwfl, name, name, d->image,
					    size);
	if (!d->mod || dwfl_report_end(d->dwfl, NULL, NULL))
		goto fail;
	d->dw = dwfl_module_getdwarf(d->mod, &d->bias);
	if (!d->dw) {
		snprintf(err, errlen, "%s: no DWARF debug information (%s)",
			 name, dwfl_errmsg(-1));
		kmsg_dwarf_close(d);
		return NULL;
	}
	if (!read_secs(d) || !read_rows(d)) {
		snprintf(err, errlen, "%s: its line tables cannot be read (%s)",
			 name, dwarf_errmsg(-1));
		kmsg_dwarf_close(d);
		return NULL;
	}
	return d;
fail:
	snprintf(err, errlen, "%s: %s", name, dwfl_errmsg(-1));
	kmsg_dwarf_close(d);
	return NULL;
}

int kmsg_dwarf_section_addr(struct kmsg_dwarf *d, const char *section,
			    uint64_t offset, uint64_t *addr)
{
	size_t i;

	for (i = 0; section && i < d->nsecs; i++) {
		if (strcmp(d->secs[i].name, section))
			continue;
		if (offset >= d->secs[i].size)
			return 1;
		*addr = d->secs[i].addr + offset;
		return 0;
	}
	return 1;
}

void kmsg_dwarf_close(struct kmsg_dwarf *d)
{
	if (!d)
		return;
	if (d->dwfl)
		dwfl_end(d->dwfl);	/* and the module's DWARF */
	else
		dwarf_end(d->dw);
	if (d->fd >= 0)
		close(d->fd);
	free(d->image);
	free(d->rows);
	free(d->secs);
	free(d);
}

/* A relocatable object's: the row of the line tables for addr */
static int where_rows(struct kmsg_dwarf *d, uint64_t addr,
		      struct kmsg_dwarf_where *w)
{
	size_t lo = 0, hi = d->nrows;

	while (lo < hi) {	/* the first row after addr */
		size_t mid = lo + (hi - lo) / 2;

		if (d->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || d->rows[lo - 1].line < 0 || !d->rows[lo - 1].file)
		return 1;
	w->file = d->rows[lo - 1].file;
	w->line = d->rows[lo - 1].line;
	return 0;
}

/* the DW_TAG_subprogram among the unit's children that has addr */
static const char *outer_function(Dwarf_Die *cu, uint64_t addr)
{
	Dwarf_Die die;

	if (dwarf_child(cu, &die))
		return NULL;
	do {
		if (dwarf_tag(&die) == DW_TAG_subprogram &&
		    dwarf_haspc(&die, addr) > 0)
			return dwarf_diename(&die);
	} while (dwarf_siblingof(&die, &die) == 0);
	return NULL;
}

int kmsg_dwarf_where(struct kmsg_dwarf *d, uint64_t addr,
		     struct kmsg_dwarf_where *w)
{
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Attribute attr;
	Dwarf_Line *line;
	int i, n;

	memset(w, 0, sizeof(*w));
	if (d->dwfl)
		return where_rows(d, addr, w);
	if (!dwarf_addrdie(d->dw, addr, &cu))
		return 1;
	w->cu_name = dwarf_diename(&cu);
	w->comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr));
	line = dwarf_getsrc_die(&cu, addr);
	if (line) {
		w->file = dwarf_linesrc(line, NULL, NULL);
		if (dwarf_lineno(line, &w->line))
			w->line = 0;
	}
	/* innermost first; the unit itself last */
	n = dwarf_getscopes(&cu, addr, &scopes);
	for (i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);
		const char *name;

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		/* follows DW_AT_abstract_origin and DW_AT_specification */
		name = dwarf_diename(&scopes[i]);
		if (!name)
			continue;
		w->func = name;
		break;
	}
	free(scopes);
	/*
	 * The concrete function: dwarf_getscopes() goes from an inlined
	 * instance to its abstract origin's scopes, not to its caller
	 */
	w->outer = outer_function(&cu, addr);
	if (!w->func)
		w->func = w->outer;
	return 0;
}

const char *kmsg_dwarf_object(const char *cu_name, const char *srctree,
			      char *buf, size_t size)
{
	const char *rel = cu_name, *dot;
	size_t len;

	if (!cu_name)
		return NULL;
	if (srctree && *srctree) {
		len = strlen(srctree);
		while (len > 1 && srctree[len - 1] == '/')
			len--;
		if (strncmp(cu_name, srctree, len) || cu_name[len] != '/')
			return NULL;
		rel = cu_name + len + 1;
	}
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	dot = strrchr(rel, '.');
	if (!dot || strchr(dot, '/') || (strcmp(dot, ".c") && strcmp(dot, ".S")))
		return NULL;
	len = dot - rel;
	if (len == 0 || len + 3 > size)
		return NULL;
	memcpy(buf, rel, len);
	memcpy(buf + len, ".o", 3);
	return buf;
}
