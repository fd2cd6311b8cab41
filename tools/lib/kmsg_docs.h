/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the docs database (docs-db/SCHEMA.md): the documentation and
 * translations of messages by identifier, and full-text search.
 *
 * A message printed without an identifier of its own has an automatic id,
 * "MODNAME.hXXXXXXXX" (docs-db/FORMAT.md).  A catalog entry can document
 * such messages under an identifier of its own ("oom.9"): the aliases
 * table maps each automatic id to that identifier.
 */
#ifndef KMSG_DOCS_H
#define KMSG_DOCS_H

#include <stdbool.h>
#include <stddef.h>

struct kmsg_docs;

/* An automatic id that a documented identifier stands for */
struct kmsg_doc_alias {
	char *auto_id;		/* "oom_kill.h0123abcd" */
	char *modname;		/* "oom_kill" */
	char *format;		/* the format hashed; NULL if not known */
};

struct kmsg_doc {
	char *id;
	char *format;		/* documented format */
	char *description;
	char *user_response;
	char *see_also;
	char *source;		/* "source" or "catalog" */
	char *file;
	int line;
	int level;		/* of the build's messages, else the documented
				 * severity, -1 if neither */
	char *code_file;	/* first call site, NULL if none */
	int code_line;
	char *function;
	char **params;		/* params[i] documents @i; NULL if none */
	int nparams;
	/*
	 * The automatic ids @id documents, in the catalog's order: [0] is
	 * the one of @format, the others are other wordings.  None for a
	 * message with an identifier of its own.
	 */
	struct kmsg_doc_alias *aliases;
	int naliases;
};

/* Where an installed database is: $(PREFIX)/share/kmsg, set at build time */
#ifndef KMSG_DATADIR
#define KMSG_DATADIR "/usr/local/share/kmsg"
#endif
#define KMSG_DOCS_FILE "kmsg.db"

/*
 * Open the database read-only; NULL with a message in @err on failure:
 * the path, what is wrong with it and, for a missing file, how to get a
 * database.  The file is untrusted: the objects the queries read must be
 * tables (not views), the schema's SQL runs untrusted
 * (SQLITE_DBCONFIG_TRUSTED_SCHEMA off), and every call below is bounded
 * (KMSG_DOCS_WORK_MAX): a corrupt or crafted file gives an error, never a
 * hang.
 */
struct kmsg_docs *kmsg_docs_open(const char *path, char *err, size_t errlen);
void kmsg_docs_close(struct kmsg_docs *docs);

/*
 * The work one call may do, in SQLite virtual machine instructions: about
 * a second.  A lookup in a database of a whole kernel takes a few
 * thousand.
 */
#define KMSG_DOCS_WORK_MAX	(100ULL * 1000 * 1000)

/*
 * Why the last call that failed failed: "PATH: REASON" (an SQLite error,
 * the query took too long, a malformed id in the database...); "" if
 * none failed.  Valid until the next call.
 */
const char *kmsg_docs_errmsg(const struct kmsg_docs *docs);
/* The path it was opened with */
const char *kmsg_docs_path(const struct kmsg_docs *docs);

/* Tests: bound each call to @work instructions instead (0: the default) */
void kmsg_docs_set_work_max(struct kmsg_docs *docs, unsigned long long work);

/*
 * 0 and @doc filled (free with kmsg_doc_free), 1 if not documented, <0
 * (kmsg_docs_errmsg() says why; @doc is then empty, with nothing to
 * free).  @id may be an automatic id documented under an identifier: @doc
 * is then that identifier's documentation (doc->id is "oom.9", not @id).
 * doc->id and the automatic ids of doc->aliases are well-formed ids
 * (kmsg_id_is_curated(), kmsg_id_is_auto()): a row with another id is an
 * error.
 */
int kmsg_docs_get(struct kmsg_docs *docs, const char *id, struct kmsg_doc *doc);
void kmsg_doc_free(struct kmsg_doc *doc);

/*
 * The identifier documenting the automatic id @auto_id
 * ("oom_kill.h0123abcd"), as a string in @out of @outlen bytes: 0 if
 * found, 1 if none, -1 on an error (also: @out too small).
 */
int kmsg_docs_curated_for_auto(struct kmsg_docs *docs, const char *auto_id,
			       char *out, size_t outlen);

/*
 * The automatic ids identifier @id documents, in the catalog's order
 * (first the one of its documented format); @format is NULL when only the
 * automatic id is known.  @cb returns nonzero to stop.  Returns the
 * number of calls of @cb (0: none, @id has an identifier of its own or is
 * not documented), -1 on an error.
 */
int kmsg_docs_auto_for_curated(struct kmsg_docs *docs, const char *id,
			       int (*cb)(void *ctx, const char *auto_id,
					 const char *modname,
					 const char *format),
			       void *ctx);

/*
 * The translated format of @id for @locale, falling back from "xx_YY" to
 * "xx" (an encoding or modifier, ".UTF-8" or "@euro", is ignored). NULL:
 * no translation. The string stays valid until the next call. The
 * automatic id of a documented format has the translations of the
 * identifier documenting it (those of other wordings would not fit).
 */
const char *kmsg_docs_translation(struct kmsg_docs *docs, const char *id,
				  const char *locale);

/*
 * Every translation of @id (as the catalog gave it: the id of the docs
 * row, not an automatic id), by locale: @cb gets the locale ("ja",
 * "de_CH") and the translated format, unchecked, and returns nonzero to
 * stop. The number of calls of @cb, or <0 (kmsg_docs_errmsg() says why).
 */
int kmsg_docs_translations(struct kmsg_docs *docs, const char *id,
			   int (*cb)(void *ctx, const char *locale,
				     const char *format),
			   void *ctx);

/*
 * Ids matching the full-text @query, best first; @cb returns nonzero to
 * stop.  The number of calls of @cb, or <0 (kmsg_docs_errmsg() says why:
 * also a query FTS5 does not take).
 */
int kmsg_docs_search(struct kmsg_docs *docs, const char *query,
		     int (*cb)(void *ctx, const char *id, const char *format,
			       const char *description),
		     void *ctx);

/*
 * Every documented id, in order; @cb returns nonzero to stop, a negative
 * value to stop with that error.  Returns 0, the error of @cb, or <0 for
 * an error of the database (kmsg_docs_errmsg(): also a malformed id, or
 * ids out of order, as when a corrupt file makes SQLite start over).
 */
int kmsg_docs_each(struct kmsg_docs *docs,
		   int (*cb)(void *ctx, const char *id), void *ctx);

/* A row of messages, one call site (docs-db/SCHEMA.md) */
struct kmsg_doc_site {
	const char *id;
	int level;		/* 0..7, -1 if out of range */
	const char *format;
	const char *prefix;	/* dev_printk()'s "%s %s: ", NULL if none */
	const char *file;
	int line;
	const char *function;
	bool cont;		/* KERN_CONT: continues the line before */
	/*
	 * the format ended with a newline (a site of a database before
	 * schema 5: always set)
	 */
	bool newline;
	const char *kind;	/* "printk", "dev", "dyndbg", ...; "" if not known */
	const char *object;	/* "vmlinux" or the module; "" if not known */
};

/*
 * Every call site of the build, in the order of the table; @cb returns
 * nonzero to stop (a negative value: with that error). The strings are
 * valid during the call. A database without the prefix column gives
 * "%s %s: " for its device sites (device = 1). Returns 0, the error of
 * @cb, or <0 for an error of the database (kmsg_docs_errmsg()).
 */
int kmsg_docs_sites(struct kmsg_docs *docs,
		    int (*cb)(void *ctx, const struct kmsg_doc_site *site),
		    void *ctx);

/*
 * Every loadable module of the build (schema 5's modules table, a stock
 * kernel's): @cb gets its name and dependencies ("a,b", "" if none) and
 * returns nonzero to stop.  0 (also for a database without the table),
 * the error of @cb, or <0 for an error of the database.
 */
int kmsg_docs_modules(struct kmsg_docs *docs,
		      int (*cb)(void *ctx, const char *name, const char *depends),
		      void *ctx);

/*
 * Read everything from here on in one transaction: one snapshot of the
 * file, locked once instead of once per query (a tool making 10^5
 * lookups spends most of its time locking otherwise), with up to 64 MiB
 * of the file's pages kept in memory.  0, or <0
 * (kmsg_docs_errmsg()).  kmsg_docs_close() ends it.
 */
int kmsg_docs_snapshot(struct kmsg_docs *docs);

/*
 * Where @id is documented: its file (in @file, @filelen bytes) and line.
 * 0, 1 if not documented, -1 on an error (also: @file too small).
 */
int kmsg_docs_where(struct kmsg_docs *docs, const char *id, char *file,
		    size_t filelen, int *line);

/*
 * The classes of kernel reports (SCHEMA.md, "Reports"): every wording of
 * every class's header, @cb getting col[0] the class ("report.1"),
 * col[1] its title ("WARNING"), col[2] the format ("" for a class
 * without one of its own), col[3] the class it is a kind of and col[4]
 * the regular expression over that class's header it names ("" if none),
 * col[5] "0" for a class whose titles name no frame, "2" for one whose
 * header's function is not its frame, col[6] "1" for a class that only
 * follows another report, col[7] "1" for one that has no stack trace,
 * col[8] the wording's automatic id, in the order of the class and the
 * wording.
 * kmsg_docs_report_frames(): how the guilty frame is chosen, col[0]
 * "skip" or "strip", col[1] the class ("" for all), col[2] the regular
 * expression. @cb returns nonzero to stop. 0 (none for a database before
 * schema 6), the error of @cb, or <0 for an error of the database.
 */
int kmsg_docs_report_formats(struct kmsg_docs *docs,
			     int (*cb)(void *ctx, const char **col), void *ctx);
int kmsg_docs_report_frames(struct kmsg_docs *docs,
			    int (*cb)(void *ctx, const char **col), void *ctx);

/* A value of the build table ("release", "build_id"), "" if none */
const char *kmsg_docs_build(struct kmsg_docs *docs, const char *key);

/*
 * What a database describes (its build table, docs-db/SCHEMA.md): each
 * string malloc()ed, "" where the database has none (a database of
 * schema 3 has no banner and no source).
 */
struct kmsg_docs_info {
	char *release;		/* "6.12.118+deb12-amd64" */
	char *banner;		/* "Linux version 6.12.118+deb12-amd64 (...) ..." */
	char *source;		/* what it was built from */
	char *build_id;
	char *schema;
	long long sites;	/* rows of messages: the call sites */
};

/*
 * Fill @info (kmsg_docs_info_free()). 0, or <0 (kmsg_docs_errmsg()):
 * also a release that cannot name a file (empty, over 64 bytes, with a
 * '/', a control character or a space, or starting with '.') is no
 * error here: kmsg_release_ok() tells.
 */
int kmsg_docs_info(struct kmsg_docs *docs, struct kmsg_docs_info *info);
void kmsg_docs_info_free(struct kmsg_docs_info *info);

/*
 * Can @release name a database installed as <release>.db: 1 to 64
 * printable bytes, no '/', no space, not starting with '.'
 * (the kernel's release, uname -r, is at most 64 bytes)
 */
bool kmsg_release_ok(const char *release);

#endif /* KMSG_DOCS_H */
