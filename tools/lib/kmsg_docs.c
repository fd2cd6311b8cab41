// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the docs database
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kmsg_docs.h"

struct kmsg_docs {
	sqlite3 *db;
	sqlite3_stmt *doc, *params, *msg, *tr;
	char *tr_buf;
};

static const char sql_doc[] =
	"SELECT id, format, description, user_response, see_also, source, file, line "
	"FROM docs WHERE id = ?1";
static const char sql_params[] =
	"SELECT position, text FROM parameters WHERE id = ?1 ORDER BY position";
static const char sql_msg[] =
	"SELECT level, file, line, function FROM messages WHERE id = ?1 "
	"ORDER BY object, file, line LIMIT 1";
static const char sql_tr[] =
	"SELECT format FROM translations WHERE id = ?1 AND locale = ?2";

struct kmsg_docs *kmsg_docs_open(const char *path, char *err, size_t errlen)
{
	struct kmsg_docs *d = calloc(1, sizeof(*d));

	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, sql_doc, -1, &d->doc, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, sql_params, -1, &d->params, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, sql_msg, -1, &d->msg, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, sql_tr, -1, &d->tr, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: not a kmsg docs database: %s", path,
			 d->db ? sqlite3_errmsg(d->db) : "cannot open");
		kmsg_docs_close(d);
		return NULL;
	}
	return d;
}

void kmsg_docs_close(struct kmsg_docs *d)
{
	if (!d)
		return;
	sqlite3_finalize(d->doc);
	sqlite3_finalize(d->params);
	sqlite3_finalize(d->msg);
	sqlite3_finalize(d->tr);
	sqlite3_close(d->db);
	free(d->tr_buf);
	free(d);
}

static char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return strdup(t ? (const char *)t : "");
}

void kmsg_doc_free(struct kmsg_doc *doc)
{
	int i;

	free(doc->id);
	free(doc->format);
	free(doc->description);
	free(doc->user_response);
	free(doc->see_also);
	free(doc->source);
	free(doc->file);
	free(doc->code_file);
	free(doc->function);
	for (i = 0; i < doc->nparams; i++)
		free(doc->params[i]);
	free(doc->params);
	memset(doc, 0, sizeof(*doc));
}

static int get_params(struct kmsg_docs *d, struct kmsg_doc *doc)
{
	int pos, rc;
	char **p;

	sqlite3_bind_text(d->params, 1, doc->id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(d->params)) == SQLITE_ROW) {
		pos = sqlite3_column_int(d->params, 0);
		if (pos < 0 || pos > 255)
			continue;
		if (pos >= doc->nparams) {
			p = realloc(doc->params, (pos + 1) * sizeof(*p));
			if (!p)
				break;
			memset(p + doc->nparams, 0,
			       (pos + 1 - doc->nparams) * sizeof(*p));
			doc->params = p;
			doc->nparams = pos + 1;
		}
		free(doc->params[pos]);
		doc->params[pos] = col(d->params, 1);
	}
	sqlite3_reset(d->params);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static void get_site(struct kmsg_docs *d, struct kmsg_doc *doc)
{
	doc->level = -1;
	sqlite3_bind_text(d->msg, 1, doc->id, -1, SQLITE_STATIC);
	if (sqlite3_step(d->msg) == SQLITE_ROW) {
		doc->level = sqlite3_column_int(d->msg, 0);
		doc->code_file = col(d->msg, 1);
		doc->code_line = sqlite3_column_int(d->msg, 2);
		doc->function = col(d->msg, 3);
	}
	sqlite3_reset(d->msg);
}

int kmsg_docs_get(struct kmsg_docs *d, const char *id, struct kmsg_doc *doc)
{
	int rc;

	memset(doc, 0, sizeof(*doc));
	sqlite3_bind_text(d->doc, 1, id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(d->doc);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(d->doc);
		return rc == SQLITE_DONE ? 1 : -EIO;
	}
	doc->id = col(d->doc, 0);
	doc->format = col(d->doc, 1);
	doc->description = col(d->doc, 2);
	doc->user_response = col(d->doc, 3);
	doc->see_also = col(d->doc, 4);
	doc->source = col(d->doc, 5);
	doc->file = col(d->doc, 6);
	doc->line = sqlite3_column_int(d->doc, 7);
	sqlite3_reset(d->doc);
	get_site(d, doc);
	return get_params(d, doc);
}

static const char *lookup_tr(struct kmsg_docs *d, const char *id,
			     const char *locale, size_t len)
{
	const unsigned char *t;

	sqlite3_bind_text(d->tr, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(d->tr, 2, locale, len, SQLITE_TRANSIENT);
	free(d->tr_buf);
	d->tr_buf = NULL;
	if (sqlite3_step(d->tr) == SQLITE_ROW) {
		t = sqlite3_column_text(d->tr, 0);
		d->tr_buf = t ? strdup((const char *)t) : NULL;
	}
	sqlite3_reset(d->tr);
	return d->tr_buf;
}

const char *kmsg_docs_translation(struct kmsg_docs *d, const char *id,
				  const char *locale)
{
	size_t len = strcspn(locale, ".@");
	const char *t;

	if (!len || !strncmp(locale, "C", len) || !strncmp(locale, "POSIX", len))
		return NULL;
	t = lookup_tr(d, id, locale, len);
	if (!t && memchr(locale, '_', len))
		t = lookup_tr(d, id, locale, strcspn(locale, "_"));
	return t;
}

int kmsg_docs_search(struct kmsg_docs *d, const char *query,
		     int (*cb)(void *ctx, const char *id, const char *format,
			       const char *description),
		     void *ctx)
{
	static const char sql[] =
		"SELECT id, format, description FROM search WHERE search MATCH ?1 "
		"ORDER BY rank, id";
	sqlite3_stmt *st;
	int rc, n = 0;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, query, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n++;
		if (cb(ctx, (const char *)sqlite3_column_text(st, 0),
		       (const char *)sqlite3_column_text(st, 1),
		       (const char *)sqlite3_column_text(st, 2)))
			break;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? n : -EINVAL;
}

int kmsg_docs_each(struct kmsg_docs *d, int (*cb)(void *ctx, const char *id),
		   void *ctx)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(d->db, "SELECT id FROM docs ORDER BY id", -1,
			       &st, NULL) != SQLITE_OK)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(ctx, (const char *)sqlite3_column_text(st, 0)))
			break;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -EIO;
}

const char *kmsg_docs_build(struct kmsg_docs *d, const char *key)
{
	sqlite3_stmt *st;
	const unsigned char *t;

	free(d->tr_buf);
	d->tr_buf = NULL;
	if (sqlite3_prepare_v2(d->db, "SELECT value FROM build WHERE key = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return "";
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		t = sqlite3_column_text(st, 0);
		d->tr_buf = t ? strdup((const char *)t) : NULL;
	}
	sqlite3_finalize(st);
	return d->tr_buf ? d->tr_buf : "";
}
