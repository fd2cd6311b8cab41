/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the docs database (docs-db/SCHEMA.md): the documentation and
 * translations of messages by identifier, and full-text search.
 */
#ifndef KMSG_DOCS_H
#define KMSG_DOCS_H

#include <stddef.h>

struct kmsg_docs;

struct kmsg_doc {
	char *id;
	char *format;		/* documented format */
	char *description;
	char *user_response;
	char *see_also;
	char *source;		/* "source" or "catalog" */
	char *file;
	int line;
	int level;		/* from the build's messages, -1 if none */
	char *code_file;	/* first call site, NULL if none */
	int code_line;
	char *function;
	char **params;		/* params[i] documents @i; NULL if none */
	int nparams;
};

/* Default location of the database: $KMSG_DB, else this */
#define KMSG_DOCS_DEFAULT "/usr/share/kmsg/kmsg.db"

/* Open the database read-only; NULL with a message in @err on failure */
struct kmsg_docs *kmsg_docs_open(const char *path, char *err, size_t errlen);
void kmsg_docs_close(struct kmsg_docs *docs);

/* 0 and @doc filled (free with kmsg_doc_free), 1 if not documented, <0 */
int kmsg_docs_get(struct kmsg_docs *docs, const char *id, struct kmsg_doc *doc);
void kmsg_doc_free(struct kmsg_doc *doc);

/*
 * The translated format of @id for @locale, falling back from "xx_YY" to
 * "xx" (an encoding or modifier, ".UTF-8" or "@euro", is ignored). NULL:
 * no translation. The string stays valid until the next call.
 */
const char *kmsg_docs_translation(struct kmsg_docs *docs, const char *id,
				  const char *locale);

/* Ids matching the full-text @query, best first; @cb returns nonzero to stop */
int kmsg_docs_search(struct kmsg_docs *docs, const char *query,
		     int (*cb)(void *ctx, const char *id, const char *format,
			       const char *description),
		     void *ctx);

/* Every documented id, in order; @cb returns nonzero to stop */
int kmsg_docs_each(struct kmsg_docs *docs,
		   int (*cb)(void *ctx, const char *id), void *ctx);

/* A value of the build table ("release", "build_id"), "" if none */
const char *kmsg_docs_build(struct kmsg_docs *docs, const char *key);

#endif /* KMSG_DOCS_H */
