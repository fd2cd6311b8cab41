/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_sites - the printk call sites of a kernel built without a printk
 * index (CONFIG_PRINTK_INDEX off, as distributions ship it), read from
 * its code: x86_64 only.
 *
 * A site is a call to a function of the printk family (the table in
 * kmsg_sites.c: _printk, _printk_deferred, __warn_printk, _dev_<level>,
 * _dev_printk, dev_printk_emit, dev_err_probe, dev_warn_probe,
 * netdev_<level>, netdev_printk, ibdev_<level>, ibdev_printk), and its
 * formats the constant strings loaded into the format's argument
 * register on the paths that reach the call (kmsg_flow.h: the code
 * decoded from each function's start, followed backwards through jumps
 * and register copies); where a call is not at an instruction of that
 * decoding, the nearest loads before it (below).  Dynamic debug sites
 * (pr_debug, dev_dbg, ... with CONFIG_DYNAMIC_DEBUG) are read from their
 * struct _ddebug descriptors, which are exact; the call that passes a
 * descriptor tells which kind it is (pr_debug, dev_dbg, netdev_dbg,
 * ibdev_dbg).
 *
 *  - a module or object file (ET_REL): its relocations tell the calls and
 *    the string loads (R_X86_64_PLT32/PC32 to the function; R_X86_64_32S
 *    of "mov $str,%reg", R_X86_64_PC32 of "lea str(%rip),%reg");
 *    modname and object are the module's name (.modinfo "name=").
 *  - vmlinux (ET_EXEC): direct calls and tail calls (e8/e9 rel32) to a
 *    family function, its address from the ELF symbol table or, for a
 *    stripped vmlinux, from a System.map; the loads' immediates and
 *    displacements give the strings.  Without the flow: before each
 *    call, within the calling
 *    function and after the previous call, the nearest "mov $imm32,%reg"
 *    (48 c7 c7/c6/c2) or "lea disp32(%rip),%reg" (48 8d 3d/35/15) whose
 *    address is a string of a non-executable section.  modname is ""
 *    (the object file a site comes from is not known: a later lookup of
 *    addr in the DWARF resolves it), so auto_id is NULL, except for
 *    dynamic debug sites, whose descriptor names their KBUILD_MODNAME.
 *
 * Strings referenced without a known call are not listed: without the
 * callee, neither the level nor the prefix printed before the format is
 * known, and a wrong identifier is worse than none.
 *
 * Each site is a struct kmsg_msg filled as kmsg_index.c fills one of the
 * printk index: format without its level header and one trailing "\n",
 * level 0..7 (4 if none: also for a level chosen at run time), device
 * and prefix for the sites printing a device prefix ("%s %s: " as the
 * printk index records dev_*()), cont, func ("" if not known), file and
 * line ("" and 0 except for dynamic debug), object, modname, auto_id
 * (NULL while modname is ""), addr (of the instruction loading the
 * format; of the call for a dynamic debug site; 0 if not known, as in a
 * module) and kind (a static string: "printk", "warn", "dev",
 * "dev_err_probe", "netdev", "ibdev", "dyndbg", "dyndbg_dev",
 * "dyndbg_netdev", "dyndbg_ibdev").
 *
 * The image is untrusted: every offset, size, pointer and string is
 * checked, a damaged one gives "PATH: ..." and no sites.
 */
#ifndef KMSG_SITES_H
#define KMSG_SITES_H

#include <stdbool.h>
#include <stddef.h>

#include "kmsg_index.h"

/* The kinds of sites, for counting them */
enum kmsg_site_kind {
	KMSG_SITE_PRINTK,
	KMSG_SITE_WARN,
	KMSG_SITE_DEV,
	KMSG_SITE_DEV_ERR_PROBE,
	KMSG_SITE_NETDEV,
	KMSG_SITE_IBDEV,
	KMSG_SITE_WRAP,
	KMSG_SITE_DYNDBG,
	KMSG_SITE_DYNDBG_DEV,
	KMSG_SITE_DYNDBG_NETDEV,
	KMSG_SITE_DYNDBG_IBDEV,
	KMSG_SITE_KINDS
};

/* "printk", "dev", ... of a kind; NULL out of range */
const char *kmsg_site_kind_name(unsigned int kind);

struct kmsg_sites_stats {
	/* calls (or dynamic debug descriptors) found, per kind */
	unsigned long calls[KMSG_SITE_KINDS];
	/* of them, with a format: each one a site appended */
	unsigned long formats[KMSG_SITE_KINDS];
	/* dynamic debug descriptors no call was found for ("dyndbg") */
	unsigned long dyndbg_unpaired;
};

/*
 * Append the sites of the ELF image (size bytes; path names it in
 * messages) to out.  system_map_path (may be NULL): a System.map giving
 * the addresses of functions of a vmlinux without a symbol table.
 * Returns 0, or -1 with *err set to a malloc()ed "PATH: ..." message;
 * then nothing was added.
 */
int kmsg_sites_read(const char *path, const void *image, size_t size,
		    const char *system_map_path, struct kmsg_msgs *out,
		    char **err);

/* Same, adding what was found to *stats (may be NULL) */
int kmsg_sites_read_stats(const char *path, const void *image, size_t size,
			  const char *system_map_path, struct kmsg_msgs *out,
			  struct kmsg_sites_stats *stats, char **err);

/*
 * A wrapper: a variadic function that prints its format argument through
 * a "%pV" of a site of the printk family that it contains, with text of
 * its own before it ("Bluetooth: %pV" of bt_info(), "%sEXT4-fs (%s):
 * %pV\n" of __ext4_msg(), "%pV" of a dev_info() in iwlwifi's
 * __iwl_info()).  Its format parameter's register comes from its
 * prologue: gcc stores the argument registers after the named
 * parameters in the register save area.
 */
struct kmsg_wrapper {
	char *name;		/* the function */
	char *object;		/* "vmlinux" or the module defining it */
	unsigned long long addr;	/* in vmlinux; 0 in a module */
	char *format;		/* its site's format, level header and all */
	char *prefix;		/* its site's family prefix ("%s %s: "), NULL */
	int level;		/* its family's level: 0..7, or < 0 */
	unsigned int reg;	/* its format: 0..5, %rdi %rsi %rdx %rcx %r8 %r9 */
	bool local;		/* a module's static function */
};

struct kmsg_wrappers {
	struct kmsg_wrapper *v;
	size_t n, cap;
};

/* Sort by name, as kmsg_sites_scan() needs the wrappers it uses */
void kmsg_wrappers_sort(struct kmsg_wrappers *w);
void kmsg_wrappers_free(struct kmsg_wrappers *w);

/*
 * kmsg_sites_read_stats() in two passes over all the images of a kernel:
 * the first (use NULL) appends the sites and, to *found (may be NULL),
 * the wrappers the image defines; the second (use: all the first pass
 * found, sorted) appends only the sites of the image's calls of those
 * wrappers, kind "wrap": the format passed to the wrapper, printed after
 * the prefix the wrapper prints before its %pV (after the family's
 * prefix), a first "%s" of it taken for the level ("%sEXT4-fs") when a
 * level is passed in a register before the format or the format has
 * one.  A module's call names the wrapper (an exported one of another
 * module or vmlinux, or one of its own); vmlinux calls its own.
 */
int kmsg_sites_scan(const char *path, const void *image, size_t size,
		    const char *system_map_path, struct kmsg_msgs *out,
		    struct kmsg_sites_stats *stats, struct kmsg_wrappers *found,
		    const struct kmsg_wrappers *use, char **err);

/*
 * A module's KBUILD_MODNAME (.modinfo "name=", else its file name) and
 * the modules it depends on (.modinfo "depends=": names separated by
 * ',', "" if none), both malloc()ed.  0, or -1 if the image is not a
 * readable ET_REL object (then both are NULL).
 */
int kmsg_sites_module(const char *path, const void *image, size_t size,
		      char **name, char **depends);

#endif /* KMSG_SITES_H */
