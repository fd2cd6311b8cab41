/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg-doc: what its subcommands share.  kmsg-doc.c parses the command
 * line and dispatches; load.c reads the objects, sources and catalogs
 * of a build and pairs messages with their documentation; check.c holds
 * the checks and the templates of "check"; coverage.c its --coverage;
 * build-db.c writes the database; diff.c, auto-id.c and
 * journal-catalog.c are the other subcommands.
 */
#ifndef KMSG_DOC_H
#define KMSG_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kmsg_catalog.h"
#include "kmsg_db.h"
#include "kmsg_index.h"
#include "kmsg_srcdoc.h"

#define NONE SIZE_MAX
/* Source and catalog files larger than this are refused */
#define TEXT_FILE_MAX (64u << 20)

enum template_kind { TEMPLATE_SOURCE, TEMPLATE_CATALOG };

struct options {
	bool build_db;
	const char *srctree;
	const char *catalog;
	enum template_kind tmpl;
	const char *out;
	const char *release;
	const char *banner;	/* build-db: the kernel's "Linux version" line */
	const char *source;	/* build-db: what it is built from */
	const char *dbg;	/* a vmlinux with DWARF: built-in modnames */
	const char *dbg_modules; /* the same modules with DWARF: file, line */
	const char *kbuild_map;	/* tools/kbuild-modnames.sh's map */
	bool coverage;		/* check: counts per component */
	const char *templates;	/* check: write templates to this directory */
	const char *log;	/* check: order the undocumented by this log */
};

/* Everything known about one identifier */
struct ident {
	const char *component;
	unsigned int number;
	const char *id;
	size_t *msgs;		/* indices into ctx.sorted, in order */
	size_t nmsgs, capmsgs;
	struct kmsg_doc *src;	/* the in-source doc */
	struct kmsg_doc *cat;	/* the catalog entry (not broken) */
	bool broken;		/* a catalog entry with errors */
	bool missing;		/* "Missing description" reported */
};

/* An automatic id documented by a catalog entry */
struct alias_ref {
	const struct kmsg_alias *alias;
	const struct kmsg_doc *doc;
	size_t seq;		/* catalog order */
};

struct ctx {
	struct options opt;
	struct kmsg_msgs msgs;
	struct kmsg_msgs sites;		/* plain sites, automatic ids only */
	const struct kmsg_msg **sorted;	/* sorted, exact duplicates removed */
	size_t nsorted;
	struct kmsg_docs srcdocs, catdocs;
	struct kmsg_diags diags;
	struct ident *ids;
	size_t nids;
	struct alias_ref *aliases;	/* of the catalog entries, by auto id */
	size_t naliases;
	char *build_id;
	char *release, *banner;	/* found in the input, if not given */
	/* the modules of a package read by stock.c, names unique */
	struct kmsg_db_module *modules;
	size_t nmodules, modules_cap;
	bool failed;		/* errors outside the diagnostics */
};

/* load.c */
void error_msg(struct ctx *c, const char *msg);
char *read_text(const char *path, size_t *len);
struct ident *find_ident(struct ctx *c, const char *comp, unsigned int nr);
int msg_cmp(const void *a, const void *b);
void run_build(struct ctx *c, char **objects, int nobjects);
void ctx_free(struct ctx *c);

/* stock.c */
int stock_read(struct ctx *c, const char *input);
char *vmlinux_banner(const unsigned char *p, size_t n, const char *release);
char *file_banner(const char *path, const char *release);

/* check.c */
void run_checks(struct ctx *c);
void print_templates(struct ctx *c);

/* coverage.c */
int coverage(struct ctx *c);

/* build-db.c */
int write_db(struct ctx *c);
const struct kmsg_msg **site_rows(struct ctx *c, size_t *nrows);

/* the subcommands that are not check and build-db */
int cmd_auto_id(int argc, char **argv);
int cmd_journal_catalog(int argc, char **argv);
int diff_build(char **objects, int nobjects, const char *srctree,
	       const char *catalog, const char *out);
void usage(FILE *f);

#endif /* KMSG_DOC_H */
