/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_db - write the docs database of docs-db/SCHEMA.md (SQLite, schema
 * "6").  The caller hands over the rows in the order they are to be
 * inserted; nothing here depends on time, so equal inputs give equal
 * databases.  The database is built in a temporary file next to the
 * output, without journal or syncs (one transaction; the secondary
 * indexes are built after the rows), then synced once and renamed over
 * the output only when complete: a crash leaves the old file or the new
 * one, never a part.
 */
#ifndef KMSG_DB_H
#define KMSG_DB_H

#include <stddef.h>

#include "kmsg_index.h"
#include "kmsg_srcdoc.h"

/* One row of docs (and of search): the doc, and its see_also */
struct kmsg_db_doc {
	const struct kmsg_doc *doc;	/* params are written from it too */
	const char *see_also;
};

struct kmsg_db_trans {
	const char *id;
	const struct kmsg_trans *trans;
	const char *file;
};

/* One row of aliases: an automatic id documented by identifier id */
struct kmsg_db_alias {
	const char *id;
	const struct kmsg_alias *alias;
	unsigned int position;		/* in the entry, from 0 */
	const char *file;
};

/* A loadable module: its name and those it depends on ("a,b", "" none) */
struct kmsg_db_module {
	const char *name;
	const char *depends;
};

struct kmsg_db_input {
	const char *release;		/* "" if not given */
	const char *build_id;		/* "" if none */
	/* the kernel's "Linux version ..." line, "" if not given */
	const char *banner;
	/* what it was built from: "guest build", a package; "" if not given */
	const char *source;
	/* every call site: id is the curated id, else the automatic id */
	const struct kmsg_msg *const *msgs;
	size_t nmsgs;
	const struct kmsg_db_doc *docs;
	size_t ndocs;
	const struct kmsg_db_trans *trans;
	size_t ntrans;
	const struct kmsg_db_alias *aliases;	/* auto ids unique */
	size_t naliases;
	/* the modules of a kernel read from its package; names unique */
	const struct kmsg_db_module *modules;
	size_t nmodules;
};

/*
 * Write the database to path.  Returns 0, or -1 with *err set to a
 * malloc()ed message; then path is untouched and no temporary file is
 * left behind.
 */
int kmsg_db_write(const char *path, const struct kmsg_db_input *in, char **err);

#endif /* KMSG_DB_H */
