/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_index - read the printk index (.printk_index) of vmlinux, a module
 * or an object file: one struct pi_entry per call site, as
 * include/linux/printk.h defines it with the kmsg series (x86_64, little
 * endian, packed):
 *
 *	+0 fmt, +8 func, +16 file			(pointers)
 *	+24 line					(u32)
 *	+28 level, +36 subsys_fmt_prefix, +44 modname,
 *	+52 component					(pointers, may be NULL)
 *	+60 number					(u32)
 *
 * ".printk_index" holds 8-byte pointers to the entries.  In a relocatable
 * file (ET_REL: .o, .ko) every pointer is an R_X86_64_64 relocation of a
 * SHT_RELA section (a NULL pointer has none); in ET_EXEC/ET_DYN (vmlinux)
 * it is a virtual address.  An entry with a component is a message with a
 * curated identifier (a kmsg_*() macro); every entry is a site with an
 * automatic identifier, "<modname>.h<hash of its format>".
 *
 * The file is untrusted: each pointer, string and size is checked, and a
 * problem gives "FILE: corrupt printk index: ..." instead of entries.
 */
#ifndef KMSG_INDEX_H
#define KMSG_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#define KMSG_INDEX_ENTRY_SIZE	64
#define PI_FMT		0
#define PI_FUNC		8
#define PI_FILE		16
#define PI_LINE		24
#define PI_LEVEL	28
#define PI_PREFIX	36
#define PI_MODNAME	44
#define PI_COMPONENT	52
#define PI_NUMBER	60

struct kmsg_msg {
	char *id;		/* "component.number", NULL for a plain site */
	char *auto_id;		/* "<modname>.h<hash>" */
	char *modname;		/* KBUILD_MODNAME, "" if unknown */
	char *component;	/* "" for a plain site */
	unsigned int number;
	/*
	 * 0..7; 4 (the default) if the site gives none: also for a device
	 * site whose level is chosen at run time (dev_printk(level, ...)),
	 * which kmsg dmesg therefore takes as any level
	 */
	unsigned int level;
	/*
	 * as compiled, without level header, one trailing "\n" and the
	 * "component.number: " a kmsg_*() macro prints
	 */
	char *format;
	char *file;
	unsigned int line;
	char *func;
	char *object;		/* "vmlinux" or the module's name */
	bool device;		/* has a pre_fmt: dev_*(), kmsg_dev_*() */
	char *prefix;		/* the pre_fmt ("%s %s: "), NULL if none */
	bool cont;		/* the format starts with KERN_CONT */
	bool newline;		/* the format ended with "\n" (removed) */
	char *path;		/* the ELF file it was read from */
	/*
	 * kmsg_sites.c, for a kernel without a printk index: the address
	 * of the instruction loading the format (vmlinux; 0 if not known),
	 * or in a module the offset of the call in its section "section"
	 * (NULL if not known: a dynamic debug descriptor's site, which has
	 * its file and line), and the kind of call, a static string
	 * ("printk", "dev", "netdev", "dyndbg", "warn", ...).  0 and NULL
	 * for a site of the index.
	 */
	unsigned long long addr;
	char *section;
	const char *kind;
	/*
	 * kmsg-doc: a copy of a plain site under the identifier of the
	 * catalog entry documenting its automatic id, which is the entry's
	 * alias_pos-th (0: the one of its modname and format).  Only its
	 * id and component are its own: the other strings are the site's,
	 * which must outlive it, and kmsg_msgs_free() leaves them alone.
	 */
	bool adopted;
	unsigned int alias_pos;
};

struct kmsg_msgs {
	struct kmsg_msg *v;
	size_t n, cap;
};

/* the strings of one message (kmsg_msgs_free() frees them all) */
void kmsg_msg_free(struct kmsg_msg *m);
void kmsg_msgs_free(struct kmsg_msgs *m);

/*
 * Skip the level headers at *fmt: KERN_SOH and a level (*level) or a flag
 * (KERN_CONT: *cont).  True if there was one.
 */
bool kmsg_skip_level(const char **fmt, int *level, bool *cont);

/*
 * Read the index of the ELF file path, appending to out.  *build_id is set
 * to the hex NT_GNU_BUILD_ID of an ET_EXEC/ET_DYN file (malloc()ed, NULL
 * if none or not wanted: build_id may be NULL).  Returns 0, or -1 with
 * *err set to a malloc()ed "PATH: ..." message; then nothing was added.
 */
int kmsg_index_read(const char *path, struct kmsg_msgs *out, char **build_id,
		    char **err);

/* Same, with every site of the index, not only curated messages */
int kmsg_index_read_sites(const char *path, struct kmsg_msgs *out,
			  char **build_id, char **err);

/*
 * The ELF files an OBJECT argument names: path itself if it is not a
 * directory, else every regular *.ko below it (symbolic links are not
 * followed), sorted.  Appends malloc()ed paths to *files.  Returns 0, or
 * -1 with *err set (the files found so far are kept).
 */
int kmsg_index_files(const char *path, char ***files, size_t *n, size_t *cap,
		     char **err);

#endif /* KMSG_INDEX_H */
