/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_catalog - the message catalogs of docs-db/catalog/<component>.kmsg
 * (docs-db/FORMAT.md) and the printf format scanner kmsg-doc checks
 * formats, parameters and translations with.
 *
 * Catalogs are untrusted text: every problem is a diagnostic
 * "FILE:LINE: error: ...", after which the parser goes on with the next
 * entry.  An entry with an error documents nothing (its doc is marked
 * broken, so that its message is not reported as undocumented as well).
 */
#ifndef KMSG_CATALOG_H
#define KMSG_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "kmsg_srcdoc.h"

/*
 * One conversion of a format: flags "-+ #0", width digits or '*',
 * precision '.' digits or '*', qualifiers hh h l ll z t, then one of
 * d i u x X o c s p (p followed by its alphanumeric extension letters),
 * or "%%".  In a translation, "%N$" may follow the '%'.
 */
struct kmsg_conv {
	size_t off, len;	/* the conversion's text in the format */
	unsigned int pos;	/* N of "%N$", 0 if not positional */
	bool width_star, prec_star;
	char qual;		/* 0, 'h', 'H' (hh), 'l', 'L' (ll), 'z', 't' */
	char conv;		/* 'd' ... 'p', '%' for "%%" */
};

struct kmsg_fmt {
	struct kmsg_conv *v;	/* every conversion, "%%" included */
	size_t n, cap;
	size_t values;		/* conversions that take a value (not "%%") */
	bool invalid;		/* scanning stopped at an invalid conversion */
	size_t bad_off;		/* ... which starts here */
};

/* Scan fmt; positional: accept "%N$" (translations). */
void kmsg_fmt_scan(const char *fmt, bool positional, struct kmsg_fmt *out);
void kmsg_fmt_free(struct kmsg_fmt *f);
/* Conversions of fmt that take a value (the @N a doc can have) */
size_t kmsg_fmt_values(const char *fmt);

/*
 * Check the translation tr against the original format orig (the rules of
 * FORMAT.md).  Returns true if fine, else false with the reason appended
 * to why.
 */
bool kmsg_trans_check(const char *orig, const char *tr, struct kmsg_strbuf *why);

/* Level names of the catalog's severity: "emerg" ... "debug"; NULL if > 7 */
const char *kmsg_level_name(unsigned int level);
/* Level of a severity name, or -1 */
int kmsg_level_of(const char *name);

/*
 * Automatic ids (docs-db/FORMAT.md, "Automatic ids"): a message printed
 * without an identifier of its own is known by "MODNAME.hXXXXXXXX":
 * MODNAME is the KBUILD_MODNAME of the file that prints it, XXXXXXXX the
 * 32-bit FNV-1a hash of its format in 8 lowercase hex digits.
 */
/* A KBUILD_MODNAME: one or more of [A-Za-z0-9_] */
bool kmsg_valid_modname(const char *s, size_t n);
/* s (n bytes) is "MODNAME.h" and 8 lowercase hex digits */
bool kmsg_valid_auto_id(const char *s, size_t n);
/*
 * The automatic id of fmt printed by modname, malloc()ed.  fmt is as a
 * catalog's format field has it: as the call site passes it to printk(),
 * pr_fmt() prefix included, without the KERN_<LEVEL> header and without
 * the one trailing newline.  It is hashed as it is.
 */
char *kmsg_catalog_auto_id(const char *modname, const char *fmt);

/*
 * Parse the catalog text (len bytes) of file path, whose component is
 * comp (the file name without ".kmsg").  Entries go to docs (with sorted
 * params and translations), problems to diags.
 */
void kmsg_catalog_parse(const char *path, const char *comp, const char *text,
			size_t len, struct kmsg_docs *docs,
			struct kmsg_diags *diags);

#endif /* KMSG_CATALOG_H */
