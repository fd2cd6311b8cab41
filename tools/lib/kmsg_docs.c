// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the docs database
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "kmsg_docs.h"
#include "kmsg_id.h"

/* The progress handler runs every this many SQLite instructions */
#define PROGRESS_STEP		1000
/* The longest string or blob read from the database */
#define KMSG_DOCS_VALUE_MAX	(16 << 20)

struct kmsg_docs {
	sqlite3 *db;
	sqlite3_stmt *doc, *params, *msg, *tr;
	/* NULL in a database without aliases (schema 1) */
	sqlite3_stmt *curated, *autos;
	sqlite3_stmt *where;	/* prepared at its first use */
	char *tr_buf;
	char *path;
	char err[512];
	/* SQLite instructions of the current call, and its budget */
	unsigned long long work, work_max;
	int step;		/* of the progress handler */
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

/*
 * The objects the queries read, what each must be: a table, or the FTS5
 * table of the search.  A view (or a virtual table of another module) in
 * a crafted file could run any query, an endless recursive one too.
 */
static const struct {
	const char *name;
	bool optional;		/* aliases: schema 1 has none */
	bool fts5;
} objects[] = {
	{ "docs", false, false },
	{ "parameters", false, false },
	{ "messages", false, false },
	{ "translations", false, false },
	{ "build", true, false },
	{ "aliases", true, false },
	{ "reports", true, false },
	{ "report_frames", true, false },
	{ "search", false, true },
};

/* The last error, as "PATH: " and the reason */
static void __attribute__((format(printf, 2, 3)))
set_err(struct kmsg_docs *d, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(d->err, sizeof(d->err), "%s: ", d->path);
	if (n < 0 || (size_t)n >= sizeof(d->err))
		return;
	va_start(ap, fmt);
	vsnprintf(d->err + n, sizeof(d->err) - n, fmt, ap);
	va_end(ap);
}

/* SQLite's reason for the failure of the last call */
static void sql_err(struct kmsg_docs *d, const char *what)
{
	if (sqlite3_errcode(d->db) == SQLITE_INTERRUPT)
		set_err(d, "%s: the query took too long (over %llu SQLite instructions): a corrupt or crafted database", what,
			d->work_max);
	else
		set_err(d, "%s: %s", what, sqlite3_errmsg(d->db));
}

/* An id from the database, quoted for a message: no control bytes */
static const char *quoted(char *buf, size_t size, const unsigned char *s)
{
	size_t n = 0;

	if (!s)
		return "NULL";
	buf[n++] = '"';
	for (; *s && n + 6 < size; s++) {
		if (*s < 0x20 || *s >= 0x7f || *s == '"' || *s == '\\')
			n += snprintf(buf + n, size - n, "\\x%02x", *s);
		else
			buf[n++] = *s;
	}
	if (*s && n + 4 < size)
		n += snprintf(buf + n, size - n, "...");
	snprintf(buf + n, size - n, "\"");
	return buf;
}

/* Stop a query that has done more than its share (kmsg_docs_open()) */
static int progress(void *ctx)
{
	struct kmsg_docs *d = ctx;

	d->work += d->step;
	return d->work > d->work_max;
}

/* Each call has its own budget; a call inside a callback, too */
static unsigned long long work_begin(struct kmsg_docs *d)
{
	unsigned long long saved = d->work;

	d->work = 0;
	return saved;
}

static void work_end(struct kmsg_docs *d, unsigned long long saved)
{
	d->work = saved;
}

/* Are the objects the queries read tables? 0, or -1 with d->err set */
static int check_objects(struct kmsg_docs *d)
{
	sqlite3_stmt *st;
	size_t i;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(d->db, "SELECT type, sql FROM sqlite_master "
			       "WHERE name = ?1 COLLATE NOCASE", -1, &st,
			       NULL) != SQLITE_OK) {
		sql_err(d, "not a kmsg docs database");
		return -1;
	}
	for (i = 0; !ret && i < sizeof(objects) / sizeof(objects[0]); i++) {
		const unsigned char *type, *sql;
		bool virt;

		sqlite3_bind_text(st, 1, objects[i].name, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE) {
			if (!objects[i].optional) {
				set_err(d, "not a kmsg docs database: it has no table %s (docs-db/SCHEMA.md)",
					objects[i].name);
				ret = -1;
			}
		} else if (rc != SQLITE_ROW) {
			sql_err(d, "not a kmsg docs database");
			ret = -1;
		} else {
			type = sqlite3_column_text(st, 0);
			sql = sqlite3_column_text(st, 1);
			virt = sql && !sqlite3_strnicmp((const char *)sql,
							"CREATE VIRTUAL", 14);
			if (!type || strcmp((const char *)type, "table") ||
			    virt != objects[i].fts5 ||
			    (virt && sqlite3_strlike("%USING fts5(%",
						     (const char *)sql, 0))) {
				set_err(d, "not a kmsg docs database: %s is a %s%s, not %s (docs-db/SCHEMA.md)",
					objects[i].name,
					type ? (const char *)type : "NULL",
					virt ? " (virtual)" : "",
					objects[i].fts5 ? "an FTS5 table" : "a table");
				ret = -1;
			}
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return ret;
}

/* Why @path cannot be a database, before SQLite says it more vaguely */
static int check_path(const char *path, char *err, size_t errlen)
{
	struct stat stb;

	if (stat(path, &stb)) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 errno == ENOENT ? ": no kmsg docs database there; "
			 "'make docs-db' builds one (build/docs-db/kmsg.db), "
			 "give it with --db FILE or KMSG_DB" : "");
		return -1;
	}
	if (S_ISDIR(stb.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a kmsg docs database (give the file, kmsg.db)",
			 path);
		return -1;
	}
	if (!S_ISREG(stb.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file, not a kmsg docs database",
			 path);
		return -1;
	}
	return 0;
}

static int prepare(struct kmsg_docs *d, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(d->db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	sql_err(d, "not a kmsg docs database");
	return -1;
}

struct kmsg_docs *kmsg_docs_open(const char *path, char *err, size_t errlen)
{
	struct kmsg_docs *d;
	unsigned long long saved;
	int rc;

	if (check_path(path, err, errlen))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(d);
		return NULL;
	}
	d->work_max = KMSG_DOCS_WORK_MAX;
	d->step = PROGRESS_STEP;
	rc = sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READONLY, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot open it as a database: %s", path,
			 d->db ? sqlite3_errmsg(d->db) : sqlite3_errstr(rc));
		kmsg_docs_close(d);
		return NULL;
	}
	/* the schema's SQL is the file's: no functions with side effects */
	sqlite3_db_config(d->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(d->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_limit(d->db, SQLITE_LIMIT_LENGTH, KMSG_DOCS_VALUE_MAX);
	sqlite3_progress_handler(d->db, d->step, progress, d);
	saved = work_begin(d);
	if (check_objects(d) ||
	    prepare(d, sql_doc, &d->doc) || prepare(d, sql_params, &d->params)) {
		snprintf(err, errlen, "%s", d->err);
		kmsg_docs_close(d);
		return NULL;
	}
	/* schema 1 has no aliases table */
	if (sqlite3_prepare_v2(d->db, sql_curated, -1, &d->curated, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->db, sql_autos, -1, &d->autos, NULL) != SQLITE_OK) {
		sqlite3_finalize(d->curated);
		d->curated = NULL;
	}
	if (prepare(d, d->curated ? sql_msg_aliases : sql_msg, &d->msg) ||
	    prepare(d, d->curated ? sql_tr_aliases : sql_tr, &d->tr)) {
		snprintf(err, errlen, "%s", d->err);
		kmsg_docs_close(d);
		return NULL;
	}
	work_end(d, saved);
	d->err[0] = '\0';
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
	sqlite3_finalize(d->where);
	sqlite3_close(d->db);
	free(d->tr_buf);
	free(d->path);
	free(d);
}

const char *kmsg_docs_errmsg(const struct kmsg_docs *d)
{
	return d->err;
}

const char *kmsg_docs_path(const struct kmsg_docs *d)
{
	return d->path;
}

void kmsg_docs_set_work_max(struct kmsg_docs *d, unsigned long long work)
{
	d->work_max = work ? work : KMSG_DOCS_WORK_MAX;
	d->step = d->work_max < PROGRESS_STEP ? 1 : PROGRESS_STEP;
	sqlite3_progress_handler(d->db, d->step, progress, d);
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
		if (!doc->params[pos])
			break;
	}
	if (rc == SQLITE_ROW)
		set_err(d, "%s: out of memory", doc->id);
	else if (rc != SQLITE_DONE)
		sql_err(d, "table parameters");
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

static int get_site(struct kmsg_docs *d, struct kmsg_doc *doc)
{
	int rc;

	sqlite3_bind_text(d->msg, 1, doc->id, -1, SQLITE_STATIC);
	rc = sqlite3_step(d->msg);
	if (rc == SQLITE_ROW) {
		doc->level = sqlite3_column_int(d->msg, 0);
		if (doc->level < 0 || doc->level > 7)
			doc->level = -1;
		doc->code_file = col(d->msg, 1);
		doc->code_line = sqlite3_column_int(d->msg, 2);
		doc->function = col(d->msg, 3);
		if (!doc->code_file || !doc->function) {
			set_err(d, "%s: out of memory", doc->id);
			rc = SQLITE_NOMEM;
		}
	} else if (rc != SQLITE_DONE) {
		sql_err(d, "table messages");
	}
	sqlite3_reset(d->msg);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -EIO;
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
	const unsigned char *t;
	char q[64];
	int rc;

	sqlite3_bind_text(d->doc, 1, id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(d->doc);
	if (rc != SQLITE_ROW) {
		if (rc != SQLITE_DONE)
			sql_err(d, "table docs");
		sqlite3_reset(d->doc);
		return rc == SQLITE_DONE ? 1 : -EIO;
	}
	t = sqlite3_column_text(d->doc, 0);
	if (!t || !kmsg_id_is_curated((const char *)t)) {
		set_err(d, "table docs: malformed id %s (not component.number)",
			quoted(q, sizeof(q), t));
		sqlite3_reset(d->doc);
		return -EIO;
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
	if (!doc->id || !doc->format || !doc->description ||
	    !doc->user_response || !doc->see_also || !doc->source || !doc->file) {
		set_err(d, "%s: out of memory", id);
		return -ENOMEM;
	}
	return 0;
}

int kmsg_docs_get(struct kmsg_docs *d, const char *id, struct kmsg_doc *doc)
{
	unsigned long long saved = work_begin(d);
	struct alias_ctx ac = { .doc = doc };
	char curated[KMSG_ID_MAX];
	int rc;

	memset(doc, 0, sizeof(*doc));
	rc = get_doc(d, id, doc);
	if (rc == 1) {
		rc = kmsg_docs_curated_for_auto(d, id, curated, sizeof(curated));
		if (!rc)
			rc = get_doc(d, curated, doc);
		else if (rc < 0)
			rc = -EIO;
	}
	if (!rc)
		rc = get_site(d, doc);
	if (!rc && kmsg_docs_auto_for_curated(d, doc->id, add_alias, &ac) < 0)
		rc = -EIO;
	if (!rc && ac.err) {
		rc = ac.err;
		set_err(d, "%s: out of memory", id);
	}
	if (!rc)
		rc = get_params(d, doc);
	/* an error leaves nothing to free */
	if (rc)
		kmsg_doc_free(doc);
	work_end(d, saved);
	return rc;
}

int kmsg_docs_curated_for_auto(struct kmsg_docs *d, const char *auto_id,
			       char *out, size_t outlen)
{
	unsigned long long saved;
	const unsigned char *t;
	char q[64];
	int rc, ret = 1;

	if (!d->curated)
		return 1;
	saved = work_begin(d);
	sqlite3_bind_text(d->curated, 1, auto_id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(d->curated);
	if (rc == SQLITE_ROW) {
		t = sqlite3_column_text(d->curated, 0);
		ret = t && kmsg_id_is_curated((const char *)t) &&
			(size_t)snprintf(out, outlen, "%s", t) < outlen ? 0 : -1;
		if (ret)
			set_err(d, "table aliases: %s: malformed id %s (not component.number)",
				auto_id, quoted(q, sizeof(q), t));
	} else if (rc != SQLITE_DONE) {
		sql_err(d, "table aliases");
		ret = -1;
	}
	sqlite3_reset(d->curated);
	work_end(d, saved);
	return ret;
}

int kmsg_docs_auto_for_curated(struct kmsg_docs *d, const char *id,
			       int (*cb)(void *ctx, const char *auto_id,
					 const char *modname,
					 const char *format),
			       void *ctx)
{
	unsigned long long saved;
	char q[64];
	int rc, n = 0;

	if (!d->autos)
		return 0;
	saved = work_begin(d);
	sqlite3_bind_text(d->autos, 1, id, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(d->autos)) == SQLITE_ROW) {
		const unsigned char *a = sqlite3_column_text(d->autos, 0);
		const unsigned char *m = sqlite3_column_text(d->autos, 1);
		const unsigned char *f = sqlite3_column_text(d->autos, 2);

		if (!a || !m)
			continue;
		if (!kmsg_id_is_auto((const char *)a)) {
			set_err(d, "table aliases: %s: malformed automatic id %s",
				id, quoted(q, sizeof(q), a));
			rc = SQLITE_CORRUPT;
			break;
		}
		n++;
		if (cb(ctx, (const char *)a, (const char *)m, (const char *)f))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE && rc != SQLITE_CORRUPT)
		sql_err(d, "table aliases");
	sqlite3_reset(d->autos);
	work_end(d, saved);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? n : -1;
}

static const char *lookup_tr(struct kmsg_docs *d, const char *id,
			     const char *locale, size_t len)
{
	const unsigned char *t;
	int rc;

	sqlite3_bind_text(d->tr, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(d->tr, 2, locale, len, SQLITE_TRANSIENT);
	free(d->tr_buf);
	d->tr_buf = NULL;
	rc = sqlite3_step(d->tr);
	if (rc == SQLITE_ROW) {
		t = sqlite3_column_text(d->tr, 0);
		d->tr_buf = t ? strdup((const char *)t) : NULL;
	} else if (rc != SQLITE_DONE) {
		sql_err(d, "table translations");
	}
	sqlite3_reset(d->tr);
	return d->tr_buf;
}

const char *kmsg_docs_translation(struct kmsg_docs *d, const char *id,
				  const char *locale)
{
	size_t len = strcspn(locale, ".@");
	unsigned long long saved;
	const char *t;

	if (!len || !strncmp(locale, "C", len) || !strncmp(locale, "POSIX", len))
		return NULL;
	saved = work_begin(d);
	t = lookup_tr(d, id, locale, len);
	if (!t && memchr(locale, '_', len))
		t = lookup_tr(d, id, locale, strcspn(locale, "_"));
	work_end(d, saved);
	return t;
}

/*
 * Each row of @sql with ?1 bound to @arg: @row returns nonzero to stop.
 * The number of rows, -EIO if @table cannot be read, -EINVAL on an error
 * while stepping (@what: a malformed full-text query, a corrupt file).
 */
static int each_row(struct kmsg_docs *d, const char *sql, const char *arg,
		    const char *table, const char *what,
		    int (*row)(sqlite3_stmt *st, void *ctx), void *ctx)
{
	unsigned long long saved;
	sqlite3_stmt *st;
	int rc, n = 0;

	saved = work_begin(d);
	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sql_err(d, table);
		work_end(d, saved);
		return -EIO;
	}
	sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n++;
		if (row(st, ctx))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		sql_err(d, what);
	sqlite3_finalize(st);
	work_end(d, saved);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? n : -EINVAL;
}

struct row_cb {
	int (*tr)(void *ctx, const char *locale, const char *format);
	int (*search)(void *ctx, const char *id, const char *format,
		      const char *description);
	void *ctx;
};

static int translation_row(sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	const unsigned char *l = sqlite3_column_text(st, 0);
	const unsigned char *f = sqlite3_column_text(st, 1);

	if (!l || !f)
		return 0;
	return c->tr(c->ctx, (const char *)l, (const char *)f);
}

int kmsg_docs_translations(struct kmsg_docs *d, const char *id,
			   int (*cb)(void *ctx, const char *locale,
				     const char *format),
			   void *ctx)
{
	struct row_cb c = { .tr = cb, .ctx = ctx };

	return each_row(d, "SELECT locale, format FROM translations "
			"WHERE id = ?1 ORDER BY locale", id,
			"table translations", "table translations",
			translation_row, &c);
}

static int search_row(sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;

	return c->search(c->ctx, (const char *)sqlite3_column_text(st, 0),
			 (const char *)sqlite3_column_text(st, 1),
			 (const char *)sqlite3_column_text(st, 2));
}

int kmsg_docs_search(struct kmsg_docs *d, const char *query,
		     int (*cb)(void *ctx, const char *id, const char *format,
			       const char *description),
		     void *ctx)
{
	struct row_cb c = { .search = cb, .ctx = ctx };

	return each_row(d, "SELECT id, format, description FROM search "
			"WHERE search MATCH ?1 ORDER BY rank, id", query,
			"table search", "search", search_row, &c);
}

int kmsg_docs_each(struct kmsg_docs *d, int (*cb)(void *ctx, const char *id),
		   void *ctx)
{
	unsigned long long saved = work_begin(d);
	char last[KMSG_ID_MAX] = "", q[64];
	const unsigned char *id;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(d->db, "SELECT id FROM docs ORDER BY id", -1,
			       &st, NULL) != SQLITE_OK) {
		sql_err(d, "table docs");
		work_end(d, saved);
		return -EIO;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_text(st, 0);
		if (!id || !kmsg_id_is_curated((const char *)id)) {
			set_err(d, "table docs: malformed id %s (not component.number)",
				quoted(q, sizeof(q), id));
			ret = -EIO;
			break;
		}
		/*
		 * Once a query in @cb finds the file corrupt, SQLite may
		 * start this one over: stop rather than go round forever.
		 */
		if (last[0] && strcmp(last, (const char *)id) >= 0) {
			set_err(d, "table docs: id %s after %s: the ids are out of order, the file is corrupt",
				id, last);
			ret = -EIO;
			break;
		}
		snprintf(last, sizeof(last), "%s", id);
		ret = cb(ctx, (const char *)id);
		if (ret)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sql_err(d, "table docs");
		ret = -EIO;
	}
	sqlite3_finalize(st);
	work_end(d, saved);
	return ret < 0 ? ret : 0;
}

int kmsg_docs_sites(struct kmsg_docs *d,
		    int (*cb)(void *ctx, const struct kmsg_doc_site *site),
		    void *ctx)
{
	/* the newest schema first; an older one lacks the last columns */
	static const char * const sql[] = {
		"SELECT id, level, format, file, line, function, prefix, cont, "
		"kind, object, newline FROM messages",
		"SELECT id, level, format, file, line, function, prefix, cont, "
		"kind, object, 1 FROM messages",
		"SELECT id, level, format, file, line, function, prefix, cont, "
		"NULL, object, 1 FROM messages",
		"SELECT id, level, format, file, line, function, "
		"CASE device WHEN 1 THEN '%s %s: ' END, 0, NULL, object, 1 "
		"FROM messages",
	};
	unsigned long long saved = work_begin(d), max = d->work_max;
	struct kmsg_doc_site site;
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_ERROR, ret = 0;
	size_t i;

	for (i = 0; i < sizeof(sql) / sizeof(sql[0]) && rc != SQLITE_OK; i++)
		rc = sqlite3_prepare_v2(d->db, sql[i], -1, &st, NULL);
	if (rc != SQLITE_OK) {
		sql_err(d, "table messages");
		work_end(d, saved);
		return -EIO;
	}
	/* a whole kernel's sites: more than one lookup's work */
	d->work_max = max * 20;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		site.id = (const char *)sqlite3_column_text(st, 0);
		site.level = sqlite3_column_int(st, 1);
		if (site.level < 0 || site.level > 7)
			site.level = -1;
		site.format = (const char *)sqlite3_column_text(st, 2);
		site.file = (const char *)sqlite3_column_text(st, 3);
		site.line = sqlite3_column_int(st, 4);
		site.function = (const char *)sqlite3_column_text(st, 5);
		site.prefix = (const char *)sqlite3_column_text(st, 6);
		site.cont = sqlite3_column_int(st, 7) == 1;
		site.kind = (const char *)sqlite3_column_text(st, 8);
		site.object = (const char *)sqlite3_column_text(st, 9);
		site.newline = sqlite3_column_int(st, 10) != 0;
		if (!site.id || !site.format) {
			set_err(d, "table messages: a row without id or format");
			ret = -EIO;
			break;
		}
		if (!site.file)
			site.file = "";
		if (!site.function)
			site.function = "";
		if (!site.kind)
			site.kind = "";
		if (!site.object)
			site.object = "";
		if (site.prefix && !site.prefix[0])
			site.prefix = NULL;
		ret = cb(ctx, &site);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE) {
		sql_err(d, "table messages");
		ret = -EIO;
	}
	sqlite3_finalize(st);
	d->work_max = max;
	work_end(d, saved);
	return ret < 0 ? ret : 0;
}

/*
 * Each row of query @sql to @cb: @ncol text columns, of which the first
 * @nreq never NULL (the others "" for NULL). No table (an older schema):
 * no rows.
 */
static int table_rows(struct kmsg_docs *d, const char *sql, const char *what,
		      int ncol, int nreq,
		      int (*cb)(void *ctx, const char **col), void *ctx)
{
	unsigned long long saved = work_begin(d), max = d->work_max;
	const char *col[9];
	sqlite3_stmt *st = NULL;
	int rc, i, ret = 0;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
		work_end(d, saved);
		return 0;
	}
	d->work_max = max * 20;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < ncol; i++) {
			col[i] = (const char *)sqlite3_column_text(st, i);
			if (!col[i] && i < nreq)
				break;
			if (!col[i])
				col[i] = "";
		}
		if (i < ncol) {
			set_err(d, "table %s: a row with a NULL column", what);
			ret = -EIO;
			break;
		}
		ret = cb(ctx, col);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE) {
		sql_err(d, what);
		ret = -EIO;
	}
	sqlite3_finalize(st);
	d->work_max = max;
	work_end(d, saved);
	return ret < 0 ? ret : 0;
}

struct modules_cb {
	int (*cb)(void *ctx, const char *name, const char *depends);
	void *ctx;
};

static int module_row(void *ctx, const char **col)
{
	struct modules_cb *m = ctx;

	return m->cb(m->ctx, col[0], col[1]);
}

/* a database before schema 5 has no modules: nothing to refuse by */
int kmsg_docs_modules(struct kmsg_docs *d,
		      int (*cb)(void *ctx, const char *name, const char *depends),
		      void *ctx)
{
	struct modules_cb m = { cb, ctx };

	return table_rows(d, "SELECT name, depends FROM modules", "modules",
			   2, 1, module_row, &m);
}

/* a database before schema 6 has no reports: none */
int kmsg_docs_report_formats(struct kmsg_docs *d,
			     int (*cb)(void *ctx, const char **col), void *ctx)
{
	return table_rows(d, "SELECT r.id, r.title, a.format, r.parent, r.at, r.frame, "
			  "r.follows, r.nostack, a.auto_id "
			  "FROM reports r LEFT JOIN aliases a ON a.id = r.id AND "
			  "a.format IS NOT NULL ORDER BY r.id, a.position",
			  "reports", 9, 2, cb, ctx);
}

int kmsg_docs_report_frames(struct kmsg_docs *d,
			    int (*cb)(void *ctx, const char **col), void *ctx)
{
	return table_rows(d, "SELECT kind, class, pattern FROM report_frames "
			  "ORDER BY kind, class, pattern", "report_frames", 3, 3,
			  cb, ctx);
}

const char *kmsg_docs_build(struct kmsg_docs *d, const char *key)
{
	unsigned long long saved = work_begin(d);
	const unsigned char *t;
	sqlite3_stmt *st;
	int rc;

	free(d->tr_buf);
	d->tr_buf = NULL;
	if (sqlite3_prepare_v2(d->db, "SELECT value FROM build WHERE key = ?1",
			       -1, &st, NULL) != SQLITE_OK) {
		sql_err(d, "table build");
		work_end(d, saved);
		return "";
	}
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		t = sqlite3_column_text(st, 0);
		d->tr_buf = t ? strdup((const char *)t) : NULL;
	} else if (rc != SQLITE_DONE) {
		sql_err(d, "table build");
	}
	sqlite3_finalize(st);
	work_end(d, saved);
	return d->tr_buf ? d->tr_buf : "";
}

int kmsg_docs_snapshot(struct kmsg_docs *d)
{
	char *msg = NULL;

	/* and the pages read stay in memory, up to 64 MiB */
	if (sqlite3_exec(d->db, "PRAGMA cache_size = -65536; BEGIN", NULL,
			 NULL, &msg) != SQLITE_OK) {
		set_err(d, "BEGIN: %s", msg ? msg : "error");
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

int kmsg_docs_where(struct kmsg_docs *d, const char *id, char *file,
		    size_t filelen, int *line)
{
	unsigned long long saved;
	const unsigned char *t;
	int rc, ret = 1;

	saved = work_begin(d);
	if (!d->where &&
	    sqlite3_prepare_v2(d->db, "SELECT file, line FROM docs WHERE id = ?1",
			       -1, &d->where, NULL) != SQLITE_OK) {
		sql_err(d, "table docs");
		work_end(d, saved);
		return -1;
	}
	sqlite3_bind_text(d->where, 1, id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(d->where);
	if (rc == SQLITE_ROW) {
		t = sqlite3_column_text(d->where, 0);
		*line = sqlite3_column_int(d->where, 1);
		ret = (size_t)snprintf(file, filelen, "%s", t ? (const char *)t : "") <
			filelen ? 0 : -1;
		if (ret)
			set_err(d, "table docs: %s: file name too long", id);
	} else if (rc != SQLITE_DONE) {
		sql_err(d, "table docs");
		ret = -1;
	}
	sqlite3_reset(d->where);
	work_end(d, saved);
	return ret;
}

int kmsg_docs_info(struct kmsg_docs *d, struct kmsg_docs_info *info)
{
	static const char * const keys[] = {
		"release", "banner", "source", "build_id", "schema",
	};
	char **fields[] = {
		&info->release, &info->banner, &info->source, &info->build_id,
		&info->schema,
	};
	unsigned long long saved;
	sqlite3_stmt *st;
	size_t i;
	int rc;

	memset(info, 0, sizeof(*info));
	d->err[0] = '\0';
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = kmsg_docs_build(d, keys[i]);

		if (d->err[0])
			goto fail;
		*fields[i] = strdup(v);
		if (!*fields[i]) {
			set_err(d, "out of memory");
			goto fail;
		}
	}
	saved = work_begin(d);
	if (sqlite3_prepare_v2(d->db, "SELECT count(*) FROM messages", -1, &st,
			       NULL) != SQLITE_OK) {
		sql_err(d, "table messages");
		work_end(d, saved);
		goto fail;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		info->sites = sqlite3_column_int64(st, 0);
	else
		sql_err(d, "table messages");
	sqlite3_finalize(st);
	work_end(d, saved);
	if (rc == SQLITE_ROW)
		return 0;
fail:
	kmsg_docs_info_free(info);
	return -EIO;
}

void kmsg_docs_info_free(struct kmsg_docs_info *info)
{
	free(info->release);
	free(info->banner);
	free(info->source);
	free(info->build_id);
	free(info->schema);
	memset(info, 0, sizeof(*info));
}

bool kmsg_release_ok(const char *r)
{
	size_t n = strlen(r), i;

	if (!n || n > 64 || r[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)r[i] <= ' ' || (unsigned char)r[i] >= 0x7f ||
		    r[i] == '/')
			return false;
	return true;
}
