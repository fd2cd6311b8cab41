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
	/* NULL in a database without aliases (schema 1) */
	sqlite3_stmt *curated, *autos;
	char *tr_buf;
};

static const char sql_doc[] =
	"SELECT id, format, description, user_response, see_also, source, file, line, "
	"severity FROM docs WHERE id = ?1";
static const char sql_params[] =
	"SELECT position, text FROM parameters WHERE id = ?1 ORDER BY position";
static const char sql_msg[] =
	"SELECT level, file, line, function FROM messages WHERE id = ?1 "
	"ORDER BY object, file, line LIMIT 1";
/* the call sites of the identifier, else those of its automatic ids */
static const char sql_msg_aliases[] =
	"SELECT level, file, line, function FROM messages WHERE id = ?1 "
	"OR id IN (SELECT auto_id FROM aliases WHERE id = ?1) "
	"ORDER BY id <> ?1, object, file, line LIMIT 1";
static const char sql_curated[] =
	"SELECT id FROM aliases WHERE auto_id = ?1";
static const char sql_autos[] =
	"SELECT auto_id, modname, format FROM aliases WHERE id = ?1 "
	"ORDER BY position";
static const char sql_tr[] =
	"SELECT format FROM translations WHERE id = ?1 AND locale = ?2";
/*
 * An automatic id takes the translations of the identifier documenting
 * it if it is the one of the documented format: they were checked
 * against that format only.
 */
static const char sql_tr_aliases[] =
	"SELECT format FROM translations WHERE locale = ?2 AND id IN "
	"(?1, (SELECT id FROM aliases WHERE auto_id = ?1 AND position = 0)) "
	"ORDER BY id <> ?1 LIMIT 1";

struct kmsg_docs *kmsg_docs_open(const char *path, char *err, size_t errlen)
{
	struct kmsg_docs *d = calloc(1, sizeof(*d));

	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, sql_doc, -1, &d->doc, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, sql_params, -1, &d->params, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: not a kmsg docs database: %s", path,
			 d->db ? sqlite3_errmsg(d->db) : "cannot open");
		kmsg_docs_close(d);
		return NULL;
	}
	/* schema 1 has no aliases table */
	if (sqlite3_prepare_v2(d->db, sql_curated, -1, &d->curated, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, sql_autos, -1, &d->autos, NULL) != SQLITE_OK) {
		sqlite3_finalize(d->curated);
		d->curated = NULL;
	}
	if (sqlite3_prepare_v2(d->db, d->curated ? sql_msg_aliases : sql_msg, -1,
			       &d->msg, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, d->curated ? sql_tr_aliases : sql_tr, -1,
			       &d->tr, NULL) != SQLITE_OK) {
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
	sqlite3_finalize(d->curated);
	sqlite3_finalize(d->autos);
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
	for (i = 0; i < doc->naliases; i++) {
		free(doc->aliases[i].auto_id);
		free(doc->aliases[i].modname);
		free(doc->aliases[i].format);
	}
	free(doc->aliases);
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

static const char *const level_names[8] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

static int level_of(const unsigned char *name)
{
	int i;

	for (i = 0; name && i < 8; i++)
		if (!strcmp((const char *)name, level_names[i]))
			return i;
	return -1;
}

static void get_site(struct kmsg_docs *d, struct kmsg_doc *doc)
{
	sqlite3_bind_text(d->msg, 1, doc->id, -1, SQLITE_STATIC);
	if (sqlite3_step(d->msg) == SQLITE_ROW) {
		doc->level = sqlite3_column_int(d->msg, 0);
		doc->code_file = col(d->msg, 1);
		doc->code_line = sqlite3_column_int(d->msg, 2);
		doc->function = col(d->msg, 3);
	}
	sqlite3_reset(d->msg);
}

struct alias_ctx {
	struct kmsg_doc *doc;
	int err;
};

static int add_alias(void *ctx, const char *auto_id, const char *modname,
		     const char *format)
{
	struct alias_ctx *ac = ctx;
	struct kmsg_doc *doc = ac->doc;
	struct kmsg_doc_alias *a;

	a = realloc(doc->aliases, (doc->naliases + 1) * sizeof(*a));
	if (!a) {
		ac->err = -ENOMEM;
		return 1;
	}
	doc->aliases = a;
	a += doc->naliases;
	a->auto_id = strdup(auto_id);
	a->modname = strdup(modname);
	a->format = format ? strdup(format) : NULL;
	doc->naliases++;
	if (!a->auto_id || !a->modname || (format && !a->format)) {
		ac->err = -ENOMEM;
		return 1;
	}
	return 0;
}

/* The docs row of id into doc: 0, 1 if there is none, -EIO */
static int get_doc(struct kmsg_docs *d, const char *id, struct kmsg_doc *doc)
{
	int rc;

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
	doc->level = level_of(sqlite3_column_text(d->doc, 8));
	sqlite3_reset(d->doc);
	return 0;
}

int kmsg_docs_get(struct kmsg_docs *d, const char *id, struct kmsg_doc *doc)
{
	struct alias_ctx ac = { .doc = doc };
	char curated[256];
	int rc;

	memset(doc, 0, sizeof(*doc));
	rc = get_doc(d, id, doc);
	if (rc == 1 && !kmsg_docs_curated_for_auto(d, id, curated, sizeof(curated)))
		rc = get_doc(d, curated, doc);
	if (rc)
		return rc;
	get_site(d, doc);
	if (kmsg_docs_auto_for_curated(d, doc->id, add_alias, &ac) < 0)
		rc = -EIO;
	if (!rc)
		rc = ac.err;
	if (!rc)
		rc = get_params(d, doc);
	if (rc)
		kmsg_doc_free(doc);
	return rc;
}

int kmsg_docs_curated_for_auto(struct kmsg_docs *d, const char *auto_id,
			       char *out, size_t outlen)
{
	const unsigned char *t;
	int rc, ret = 1;

	if (!d->curated)
		return 1;
	sqlite3_bind_text(d->curated, 1, auto_id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(d->curated);
	if (rc == SQLITE_ROW) {
		t = sqlite3_column_text(d->curated, 0);
		ret = t && (size_t)snprintf(out, outlen, "%s", t) < outlen ? 0 : -1;
	} else if (rc != SQLITE_DONE) {
		ret = -1;
	}
	sqlite3_reset(d->curated);
	return ret;
}

int kmsg_docs_auto_for_curated(struct kmsg_docs *d, const char *id,
			       int (*cb)(void *ctx, const char *auto_id,
					 const char *modname,
					 const char *format),
			       void *ctx)
{
	int rc, n = 0;

	if (!d->autos)
		return 0;
	sqlite3_bind_text(d->autos, 1, id, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(d->autos)) == SQLITE_ROW) {
		const unsigned char *a = sqlite3_column_text(d->autos, 0);
		const unsigned char *m = sqlite3_column_text(d->autos, 1);
		const unsigned char *f = sqlite3_column_text(d->autos, 2);

		if (!a || !m)
			continue;
		n++;
		if (cb(ctx, (const char *)a, (const char *)m, (const char *)f))
			break;
	}
	sqlite3_reset(d->autos);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? n : -1;
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
