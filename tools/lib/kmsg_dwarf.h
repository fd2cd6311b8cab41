/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where an address of a vmlinux (or any linked ELF file) with DWARF comes
 * from: its compile unit, source line and function, with libdw. The file
 * is opened once; a lookup finds the compile unit by .debug_aranges
 * (dwarf_addrdie), then the line (dwarf_getsrc_die) and the scopes of the
 * address (dwarf_getscopes) in that unit only.
 *
 * A relocatable object (a module with its debug information, as a -dbg
 * package ships it) is read from memory with kmsg_dwarf_open_rel():
 * libdwfl lays its sections out and applies the relocations of its line
 * tables, the only part of its DWARF read (relocating .debug_info too
 * takes many times longer); kmsg_dwarf_section_addr() gives the address of an
 * offset in one of its sections, kmsg_dwarf_where() its file and line.
 */
#ifndef KMSG_DWARF_H
#define KMSG_DWARF_H

#include <stddef.h>
#include <stdint.h>

struct kmsg_dwarf;

struct kmsg_dwarf_where {
	/*
	 * The compile unit: DW_AT_name as the compiler was given it
	 * (absolute for a kernel built with O=, e.g.
	 * "/usr/src/linux/fs/ext4/super.c") and DW_AT_comp_dir (NULL if none)
	 */
	const char *cu_name;
	const char *comp_dir;
	/*
	 * The line table's row for the address: the file the instruction's
	 * code was written in (a header for inlined code) and its line; NULL
	 * and 0 if the unit has no row for it.
	 */
	const char *file;
	int line;
	/*
	 * func: the innermost function whose code the instruction is, an
	 * inlined one's own name (where the printk is written: with "file"
	 * its place in the source); outer: the function of the symbol table
	 * the instruction is in, the outermost DW_TAG_subprogram (that of
	 * the kernel's %pS): the unit's DW_TAG_subprogram whose ranges have
	 * the address. Both NULL if none (code outside any function); equal
	 * when nothing is inlined there.
	 */
	const char *func;
	const char *outer;
};

/*
 * Open path: the handle, or NULL with a message "PATH: problem" in err
 * (errlen bytes): cannot open, not ELF, no DWARF.
 */
struct kmsg_dwarf *kmsg_dwarf_open(const char *path, char *err, size_t errlen);
void kmsg_dwarf_close(struct kmsg_dwarf *d);

/*
 * Open the relocatable object (ET_REL) image of size bytes, named name in
 * messages; the image is copied. The handle, or NULL with "NAME: problem"
 * in err: not ELF, no DWARF.
 */
struct kmsg_dwarf *kmsg_dwarf_open_rel(const char *name, const void *image,
				       size_t size, char *err, size_t errlen);

/*
 * The address, for kmsg_dwarf_where(), of offset in the allocated section
 * named section of an object of kmsg_dwarf_open_rel(): 0 and *addr, 1 if
 * it has no such section or offset (or was not opened so).
 */
int kmsg_dwarf_section_addr(struct kmsg_dwarf *d, const char *section,
			    uint64_t offset, uint64_t *addr);

/*
 * Look addr up: 0 and *w filled (strings owned by the handle, valid until
 * kmsg_dwarf_close()), 1 if no compile unit covers addr.  For an object
 * of kmsg_dwarf_open_rel(), only file (relative to the directory it was
 * compiled in) and line are filled, 1 if no line table covers addr.
 */
int kmsg_dwarf_where(struct kmsg_dwarf *d, uint64_t addr,
		     struct kmsg_dwarf_where *w);

/*
 * The object kbuild compiles a unit to, relative to the source tree:
 * cu_name without srctree ("/usr/src/linux" or "/usr/src/linux/", may be
 * NULL when the name is already relative) and with its .c or .S made .o
 * ("fs/ext4/super.o"). Into buf of size bytes; NULL if the name is not
 * under srctree, has no such suffix or does not fit.
 */
const char *kmsg_dwarf_object(const char *cu_name, const char *srctree,
			      char *buf, size_t size);

#endif
