// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_dwarf - compile unit, line and function of an address, with libdw.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
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

void kmsg_dwarf_close(struct kmsg_dwarf *d)
{
	if (!d)
		return;
	dwarf_end(d->dw);
	close(d->fd);
	free(d);
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
