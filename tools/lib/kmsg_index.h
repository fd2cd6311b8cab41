/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_index - read the kmsg index (.kmsg_index) of vmlinux, a module or
 * an object file: one struct kmsg_index_entry per call site, as
 * include/linux/kmsg.h defines it (x86_64, little endian):
 *
 *	+0 component, +8 fmt, +16 func, +24 file	(pointers)
 *	+32 line, +36 number				(u32)
 *	+40 level, +41 device (u8), +42 component_len (u16), +44 fmt_len (u32)
 *
 * ".kmsg_index" holds 8-byte pointers to the entries.  In a relocatable
 * file (ET_REL: .o, .ko) every pointer is an R_X86_64_64 relocation of a
 * SHT_RELA section; in ET_EXEC/ET_DYN (vmlinux) it is a virtual address.
 *
 * The file is untrusted: each pointer, string and size is checked, and a
 * problem gives "FILE: corrupt kmsg index: ..." instead of entries.
 */
#ifndef KMSG_INDEX_H
#define KMSG_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#define KMSG_INDEX_ENTRY_SIZE	48

struct kmsg_msg {
	char *id;		/* "component.number" */
	char *component;
	unsigned int number;
	unsigned int level;	/* 0..7 */
	char *format;		/* as compiled, one trailing "\n" removed */
	char *file;
	unsigned int line;
	char *func;
	char *object;		/* "vmlinux" or the module's name */
	bool device;
	char *path;		/* the ELF file it was read from */
};

struct kmsg_msgs {
	struct kmsg_msg *v;
	size_t n, cap;
};

void kmsg_msgs_free(struct kmsg_msgs *m);

/*
 * Read the index of the ELF file path, appending to out.  *build_id is set
 * to the hex NT_GNU_BUILD_ID of an ET_EXEC/ET_DYN file (malloc()ed, NULL
 * if none or not wanted: build_id may be NULL).  Returns 0, or -1 with
 * *err set to a malloc()ed "PATH: ..." message; then nothing was added.
 */
int kmsg_index_read(const char *path, struct kmsg_msgs *out, char **build_id,
		    char **err);

/*
 * The ELF files an OBJECT argument names: path itself if it is not a
 * directory, else every regular *.ko below it (symbolic links are not
 * followed), sorted.  Appends malloc()ed paths to *files.  Returns 0, or
 * -1 with *err set (the files found so far are kept).
 */
int kmsg_index_files(const char *path, char ***files, size_t *n, size_t *cap,
		     char **err);

#endif /* KMSG_INDEX_H */
