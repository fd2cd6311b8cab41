/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_srcdoc - the documentation of kernel messages, as kmsg-doc sees it,
 * and the parser of its in-source form (docs-db/FORMAT.md, "In-source
 * form"): a comment that starts with slash-star alone on its line and
 * whose first line is "message", with "@N:" parameter lines, "Description:" and
 * "User Response:" sections, directly followed by
 *
 *	KMSG_DOC(kmsgtest, 2, "device %x not online");
 *
 * Besides the parser this header holds what the other kmsg-doc modules
 * share: the documentation record (struct kmsg_doc, also filled by the
 * catalog parser), the list of diagnostics ("FILE:LINE: error: TEXT"),
 * message identifiers, C string escapes and allocation helpers that end
 * the program with a message when memory runs out.
 *
 * Source files are untrusted: any bytes, NULs included, give diagnostics,
 * never a crash.  Only comments and KMSG_DOC(...) are looked at; the rest
 * of the C code is skipped (string and character literals, preprocessor
 * lines and // comments are recognised so that nothing inside them is
 * taken for a doc comment or a KMSG_DOC).
 */
#ifndef KMSG_SRCDOC_H
#define KMSG_SRCDOC_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "kmsg_strbuf.h"
#include "kmsg_xalloc.h"

/*
 * The keys seen so far, each with the line it was first seen at: the
 * duplicate checks of untrusted input in O(log n) each (a balanced tree),
 * not a scan of everything before.  A zero-initialised one is empty.
 */
struct kmsg_seen {
	void *root;
};

/* 0 if @key is new (it is added with @line, not 0), else its first line */
unsigned int kmsg_seen_add(struct kmsg_seen *s, const char *key,
			   unsigned int line);
/* The same for a number */
unsigned int kmsg_seen_add_nr(struct kmsg_seen *s, unsigned int nr,
			      unsigned int line);
void kmsg_seen_free(struct kmsg_seen *s);
/*
 * Key comparisons kmsg_seen_add() made so far, in every set: tests check
 * with it that n keys take O(n log n) of them.
 */
extern unsigned long long kmsg_seen_compares;

/* Diagnostics: "FILE:LINE: error: TEXT" / "FILE:LINE: warning: TEXT" */
struct kmsg_diag {
	char *file;
	unsigned int line;
	bool error;
	char *text;
	size_t seq;		/* order of addition, the last sort key */
};

struct kmsg_diags {
	struct kmsg_diag *v;
	size_t n, cap;
};

/* Only ever call this with a literal format of our own. */
void kmsg_diag_add(struct kmsg_diags *d, const char *file, unsigned int line,
		   bool error, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* By file (strcmp), then line, then order of addition. */
void kmsg_diags_sort(struct kmsg_diags *d);
size_t kmsg_diags_errors(const struct kmsg_diags *d);
void kmsg_diags_print(const struct kmsg_diags *d, FILE *f);
void kmsg_diags_free(struct kmsg_diags *d);

/*
 * Message identifiers: "component.number".  The number is decimal, without
 * leading zeros (as the kernel macros require), at most UINT_MAX.
 */
bool kmsg_parse_number(const char *s, size_t n, unsigned int *nr);
/* A component: one or more of [A-Za-z0-9_-] */
bool kmsg_valid_component(const char *s, size_t n);
/* Split "comp.N" of n bytes; *comp is malloc()ed.  false if malformed. */
bool kmsg_parse_id(const char *s, size_t n, char **comp, unsigned int *nr);
/* Identifiers sort by component (strcmp), then number. */
int kmsg_id_cmp(const char *comp_a, unsigned int nr_a,
		const char *comp_b, unsigned int nr_b);

/* kmsg_escape(): kmsg_xalloc.h */

/*
 * Text helpers: trim trailing blanks (spaces, tabs, CR) of [s, s + *n);
 * collapse whitespace for comparisons (runs of blanks and single newlines
 * become one space, "\n\n" paragraph breaks stay, ends trimmed).
 */
size_t kmsg_rtrim(const char *s, size_t n);
char *kmsg_normalize_text(const char *s);

/* The documentation of one message, from the source or a catalog */
enum kmsg_doc_source {
	KMSG_DOC_SOURCE,
	KMSG_DOC_CATALOG,
};

struct kmsg_param {
	unsigned int pos;	/* @N */
	char *text;
	unsigned int line;
};

struct kmsg_trans {
	char *locale;
	char *format;		/* unescaped */
	unsigned int line;
};

/*
 * An automatic id a catalog entry documents (docs-db/FORMAT.md, "Messages
 * without an identifier of their own"): "MODNAME.hXXXXXXXX"
 */
struct kmsg_alias {
	char *auto_id;		/* "oom_kill.h1a2b3c4d" */
	char *modname;		/* "oom_kill" */
	char *format;		/* the format hashed; NULL if given as an id */
	unsigned int line;
};

struct kmsg_doc {
	enum kmsg_doc_source source;
	char *component;
	unsigned int number;
	char *id;		/* "component.number" */
	char *file;		/* where it is documented */
	unsigned int line;	/* of KMSG_DOC(...) or of the catalog's "id:" */
	/*
	 * A catalog entry that had errors: it documents nothing, its id only
	 * keeps the message from being reported as undocumented too.
	 */
	bool broken;
	/*
	 * Documents the message (in-source docs always; catalog entries with
	 * a description), as opposed to a catalog entry with only id,
	 * translations and see-also.
	 */
	bool described;
	char *format;		/* unescaped; NULL if the entry has none */
	unsigned int format_line;
	char *severity;		/* catalog only, else NULL */
	unsigned int severity_line;
	char *description;	/* never NULL, "" when not given */
	char *user_response;	/* never NULL */
	char *see_also;		/* never NULL, space-separated */
	struct kmsg_param *params;	/* sorted by pos, no duplicates */
	size_t nparams, capparams;
	struct kmsg_trans *trans;	/* sorted by locale, no duplicates */
	size_t ntrans, captrans;
	/*
	 * Catalog only: the KBUILD_MODNAME of the file printing the message
	 * (NULL if not given), and the automatic ids the entry documents:
	 * [0] is the one of modname and format, the auto-id lines follow in
	 * their order.  None unless modname is given.
	 */
	char *modname;
	unsigned int modname_line;
	struct kmsg_alias *aliases;
	size_t naliases, capaliases;
	/*
	 * Catalog only: the entry is a class of kernel reports (report-title:
	 * its name, the start of a report's title; report-of: the class it
	 * is a kind of), the functions no report of the class blames
	 * (report-skip) or no report at all (report-skip-any), the prefixes
	 * a frame's name loses (report-strip): regular expressions,
	 * space-separated; NULL if not given
	 */
	char *report_title;
	unsigned int report_title_line;
	char *report_of;
	char *report_at;	/* report-at: the parent's header it names */
	/*
	 * report-frame: 0 "none", titles without a frame; 2 "stack", the
	 * header's function is not the frame; else 1 (report_frame_set
	 * false): the header's, else the stack's
	 */
	int report_frame;
	bool report_frame_set;
	char *report_skip, *report_skip_any, *report_strip;
	/* report-after, -anchor, -name, -frame-line: the class's own */
	char *report_after, *report_anchor, *report_name, *report_frame_line;
	/* report-corrupt-frame: of every class; report-follows: yes */
	char *report_corrupt;
	char *report_continues;	/* report-continues: class ids */
	char *report_ignore;	/* report-ignore: headers that are none */
	bool report_follows;
	bool report_nostack;	/* report-stack: none, none expected */
};

struct kmsg_docs {
	struct kmsg_doc **v;
	size_t n, cap;
};

struct kmsg_doc *kmsg_doc_new(enum kmsg_doc_source source, const char *file);
/* Sets component, number and id. */
void kmsg_doc_set_id(struct kmsg_doc *doc, const char *comp, unsigned int nr);
void kmsg_srcdoc_doc_free(struct kmsg_doc *doc);
void kmsg_docs_add(struct kmsg_docs *docs, struct kmsg_doc *doc);
void kmsg_docs_free(struct kmsg_docs *docs);
/* Sort params by position, translations by locale. */
void kmsg_doc_sort(struct kmsg_doc *doc);

/*
 * Parse the in-source docs of one file: text of len bytes (need not be
 * NUL-terminated), file is the name used in diagnostics and in the docs.
 * Every doc found goes to docs (also those with errors in their comment,
 * which are reported); problems go to diags.
 */
void kmsg_srcdoc_parse(const char *file, const char *text, size_t len,
		       struct kmsg_docs *docs, struct kmsg_diags *diags);

#endif /* KMSG_SRCDOC_H */
