// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_db - write the docs database.  See kmsg_db.h and docs-db/SCHEMA.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "kmsg_db.h"

/*
 * docs-db/SCHEMA.md, verbatim, but for its secondary indexes (below):
 * they are created after the rows are in, which builds each in one sorted
 * pass instead of one B-tree insertion per row.
 */
static const char schema_sql[] =
	"CREATE TABLE build (\n"
	"\tkey TEXT PRIMARY KEY,\t-- 'release', 'banner', 'source', 'build_id', 'schema'\n"
	"\tvalue TEXT NOT NULL\n"
	");\n"
	"-- one row per call site of the build: every entry of the printk index\n"
	"CREATE TABLE messages (\n"
	"\tid TEXT NOT NULL,\t\t-- 'kmsgtest.2', else the automatic id\n"
	"\tcomponent TEXT NOT NULL,\t-- of the id: 'kmsgtest', or the modname\n"
	"\tnumber INTEGER NOT NULL,\t-- 0 for an automatic id\n"
	"\tlevel INTEGER NOT NULL,\t\t-- 0..7; 4 if the site gives none\n"
	"\tformat TEXT NOT NULL,\t\t-- as compiled, trailing newline removed\n"
	"\tfile TEXT NOT NULL,\n"
	"\tline INTEGER NOT NULL,\n"
	"\tfunction TEXT NOT NULL,\n"
	"\tobject TEXT NOT NULL,\t\t-- 'vmlinux' or the module's name\n"
	"\tdevice INTEGER NOT NULL,\t-- 1 if prefix is not NULL\n"
	"\tprefix TEXT,\t\t\t-- printed before: '%s %s: ' of dev_*()\n"
	"\tcont INTEGER NOT NULL,\t\t-- 1 for KERN_CONT: continues a line\n"
	"\tkind TEXT,\t\t\t-- the call, read from code: 'printk', 'dev', ...\n"
	"\tnewline INTEGER NOT NULL\t-- 1 if the format ended with a newline\n"
	");\n"
	"-- one row per loadable module of a kernel read from its package\n"
	"CREATE TABLE modules (\n"
	"\tname TEXT PRIMARY KEY,\t\t-- its KBUILD_MODNAME\n"
	"\tdepends TEXT NOT NULL\t\t-- the modules it needs: 'a,b', '' if none\n"
	");\n"
	"-- one row per documented message\n"
	"CREATE TABLE docs (\n"
	"\tid TEXT PRIMARY KEY,\n"
	"\tsource TEXT NOT NULL,\t\t-- 'source' or 'catalog'\n"
	"\tfile TEXT NOT NULL,\t\t-- where it is documented\n"
	"\tline INTEGER NOT NULL,\n"
	"\tformat TEXT NOT NULL,\t\t-- the documented format\n"
	"\tseverity TEXT,\t\t\t-- catalog only: 'err', ...\n"
	"\tdescription TEXT NOT NULL,\n"
	"\tuser_response TEXT NOT NULL,\n"
	"\tsee_also TEXT NOT NULL\t\t-- space-separated ids\n"
	");\n"
	"CREATE TABLE parameters (\n"
	"\tid TEXT NOT NULL,\n"
	"\tposition INTEGER NOT NULL,\t-- conversion, from 0 (@0)\n"
	"\ttext TEXT NOT NULL,\n"
	"\tPRIMARY KEY (id, position)\n"
	");\n"
	"CREATE TABLE translations (\n"
	"\tid TEXT NOT NULL,\n"
	"\tlocale TEXT NOT NULL,\t\t-- 'ja', 'de_CH'\n"
	"\tformat TEXT NOT NULL,\n"
	"\tfile TEXT NOT NULL,\n"
	"\tline INTEGER NOT NULL,\n"
	"\tPRIMARY KEY (id, locale)\n"
	");\n"
	"-- one row per automatic id a catalog entry documents (modname, auto-id)\n"
	"CREATE TABLE aliases (\n"
	"\tid TEXT NOT NULL,\t\t-- the identifier documenting it: 'oom.9'\n"
	"\tauto_id TEXT PRIMARY KEY,\t-- 'oom_kill.h0123abcd'\n"
	"\tmodname TEXT NOT NULL,\t\t-- 'oom_kill'\n"
	"\tformat TEXT,\t\t\t-- the format hashed; NULL if given as an id\n"
	"\tposition INTEGER NOT NULL,\t-- 0: modname and format of the entry\n"
	"\tfile TEXT NOT NULL,\n"
	"\tline INTEGER NOT NULL\n"
	");\n"
	"-- one row per class of kernel reports: a catalog entry with report-title\n"
	"CREATE TABLE reports (\n"
	"\tid TEXT PRIMARY KEY,\t\t-- the class: 'report.1'\n"
	"\ttitle TEXT NOT NULL,\t\t-- its name, a title's start: 'WARNING'\n"
	"\tparent TEXT,\t\t\t-- the class it is a kind of (report-of)\n"
	"\tat TEXT,\t\t\t-- and the parent's header it names (report-at)\n"
	"\tnostack INTEGER NOT NULL,\t-- 1: no stack trace expected (report-stack)\n"
	"\tfollows INTEGER NOT NULL,\t-- 1: alone, the report it follows is lost\n"
	"\tframe INTEGER NOT NULL,\t\t-- 1; 0 none, 2 not the header's (report-frame)\n"
	"\tfile TEXT NOT NULL,\n"
	"\tline INTEGER NOT NULL\n"
	");\n"
	"-- how a report's guilty frame is chosen: regular expressions over\n"
	"-- function names (report-skip, report-skip-any, report-strip)\n"
	"CREATE TABLE report_frames (\n"
	"\tkind TEXT NOT NULL,\t\t-- skip strip after anchor name line corrupt continues ignore\n"
	"\tclass TEXT NOT NULL,\t\t-- '' for every class, or 'report.5'\n"
	"\tpattern TEXT NOT NULL,\t\t-- POSIX extended: 'kasan', '^SyS_'; a name's 'RE=NAME'\n"
	"\tid TEXT NOT NULL,\t\t-- the entry listing it first\n"
	"\tPRIMARY KEY (kind, class, pattern)\n"
	");\n"
	"-- full text over formats, descriptions and user responses\n"
	"CREATE VIRTUAL TABLE search USING fts5(id, format, description, user_response);\n";

static const char index_sql[] =
	"CREATE INDEX messages_id ON messages (id);\n"
	"CREATE INDEX messages_format ON messages (format);\n"
	"CREATE INDEX aliases_id ON aliases (id, position);\n";

struct db {
	sqlite3 *db;
	char **err;
};

static int db_fail(struct db *d, const char *what)
{
	if (!*d->err)
		*d->err = kmsg_xprintf("sqlite: %s: %s", what,
				       d->db ? sqlite3_errmsg(d->db) : "out of memory");
	return -1;
}

static int db_exec(struct db *d, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(d->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (!*d->err)
			*d->err = kmsg_xprintf("sqlite: %s", msg ? msg : "error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int db_prepare(struct db *d, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(d->db, sql, -1, st, NULL) != SQLITE_OK)
		return db_fail(d, "prepare");
	return 0;
}

static int bind_text(struct db *d, sqlite3_stmt *st, int i, const char *s)
{
	int r = s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC) :
		    sqlite3_bind_null(st, i);

	return r == SQLITE_OK ? 0 : db_fail(d, "bind");
}

static int bind_textn(struct db *d, sqlite3_stmt *st, int i, const char *s,
		      size_t n)
{
	if (n > INT_MAX ||
	    sqlite3_bind_text(st, i, s, (int)n, SQLITE_STATIC) != SQLITE_OK)
		return db_fail(d, "bind");
	return 0;
}

static int bind_int(struct db *d, sqlite3_stmt *st, int i, long long v)
{
	return sqlite3_bind_int64(st, i, v) == SQLITE_OK ? 0 : db_fail(d, "bind");
}

static int step(struct db *d, sqlite3_stmt *st)
{
	int r = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return r == SQLITE_DONE ? 0 : db_fail(d, "insert");
}

static int put_build(struct db *d, sqlite3_stmt *st, const char *key,
		     const char *value)
{
	if (bind_text(d, st, 1, key) || bind_text(d, st, 2, value))
		return -1;
	return step(d, st);
}

static int put_msgs(struct db *d, const struct kmsg_db_input *in)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int ret = -1;

	if (db_prepare(d, "INSERT INTO messages (id, component, number, level, format, file, line, function, object, device, prefix, cont, kind, newline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		       &st))
		return -1;
	for (i = 0; i < in->nmsgs; i++) {
		const struct kmsg_msg *m = in->msgs[i];
		const char *id = m->id ? m->id : m->auto_id;
		/* an automatic id's component: its modname, before ".h" */
		size_t clen = m->id ? strlen(m->component) :
			(size_t)(strrchr(id, '.') - id);

		if (bind_text(d, st, 1, id) ||
		    bind_textn(d, st, 2, m->id ? m->component : id, clen) ||
		    bind_int(d, st, 3, m->number) ||
		    bind_int(d, st, 4, m->level) ||
		    bind_text(d, st, 5, m->format) ||
		    bind_text(d, st, 6, m->file) ||
		    bind_int(d, st, 7, m->line) ||
		    bind_text(d, st, 8, m->func) ||
		    bind_text(d, st, 9, m->object) ||
		    bind_int(d, st, 10, m->device) ||
		    bind_text(d, st, 11, m->prefix) ||
		    bind_int(d, st, 12, m->cont) ||
		    bind_text(d, st, 13, m->kind) ||
		    bind_int(d, st, 14, m->newline) || step(d, st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int put_modules(struct db *d, const struct kmsg_db_input *in)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int ret = -1;

	if (db_prepare(d, "INSERT INTO modules (name, depends) VALUES (?, ?)", &st))
		return -1;
	for (i = 0; i < in->nmodules; i++)
		if (bind_text(d, st, 1, in->modules[i].name) ||
		    bind_text(d, st, 2, in->modules[i].depends) || step(d, st))
			goto out;
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int put_docs(struct db *d, const struct kmsg_db_input *in)
{
	sqlite3_stmt *sd = NULL, *sp = NULL, *ss = NULL;
	size_t i, k;
	int ret = -1;

	if (db_prepare(d, "INSERT INTO docs (id, source, file, line, format, severity, description, user_response, see_also) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		       &sd) ||
	    db_prepare(d, "INSERT INTO parameters (id, position, text) VALUES (?, ?, ?)",
		       &sp) ||
	    db_prepare(d, "INSERT INTO search (id, format, description, user_response) VALUES (?, ?, ?, ?)",
		       &ss))
		goto out;
	for (i = 0; i < in->ndocs; i++) {
		const struct kmsg_doc *doc = in->docs[i].doc;
		const char *fmt = doc->format ? doc->format : "";

		if (bind_text(d, sd, 1, doc->id) ||
		    bind_text(d, sd, 2, doc->source == KMSG_DOC_SOURCE ?
			      "source" : "catalog") ||
		    bind_text(d, sd, 3, doc->file) ||
		    bind_int(d, sd, 4, doc->line) ||
		    bind_text(d, sd, 5, fmt) ||
		    bind_text(d, sd, 6, doc->severity) ||
		    bind_text(d, sd, 7, doc->description) ||
		    bind_text(d, sd, 8, doc->user_response) ||
		    bind_text(d, sd, 9, in->docs[i].see_also ?
			      in->docs[i].see_also : "") ||
		    step(d, sd))
			goto out;
		for (k = 0; k < doc->nparams; k++) {
			if (bind_text(d, sp, 1, doc->id) ||
			    bind_int(d, sp, 2, doc->params[k].pos) ||
			    bind_text(d, sp, 3, doc->params[k].text) ||
			    step(d, sp))
				goto out;
		}
		if (bind_text(d, ss, 1, doc->id) || bind_text(d, ss, 2, fmt) ||
		    bind_text(d, ss, 3, doc->description) ||
		    bind_text(d, ss, 4, doc->user_response) || step(d, ss))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(sd);
	sqlite3_finalize(sp);
	sqlite3_finalize(ss);
	return ret;
}

static int put_trans(struct db *d, const struct kmsg_db_input *in)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int ret = -1;

	if (db_prepare(d, "INSERT INTO translations (id, locale, format, file, line) VALUES (?, ?, ?, ?, ?)",
		       &st))
		return -1;
	for (i = 0; i < in->ntrans; i++) {
		const struct kmsg_db_trans *t = &in->trans[i];

		if (bind_text(d, st, 1, t->id) ||
		    bind_text(d, st, 2, t->trans->locale) ||
		    bind_text(d, st, 3, t->trans->format) ||
		    bind_text(d, st, 4, t->file) ||
		    bind_int(d, st, 5, t->trans->line) || step(d, st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int put_aliases(struct db *d, const struct kmsg_db_input *in)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int ret = -1;

	if (db_prepare(d, "INSERT INTO aliases (id, auto_id, modname, format, position, file, line) VALUES (?, ?, ?, ?, ?, ?, ?)",
		       &st))
		return -1;
	for (i = 0; i < in->naliases; i++) {
		const struct kmsg_db_alias *a = &in->aliases[i];

		if (bind_text(d, st, 1, a->id) ||
		    bind_text(d, st, 2, a->alias->auto_id) ||
		    bind_text(d, st, 3, a->alias->modname) ||
		    bind_text(d, st, 4, a->alias->format) ||
		    bind_int(d, st, 5, a->position) ||
		    bind_text(d, st, 6, a->file) ||
		    bind_int(d, st, 7, a->alias->line) || step(d, st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* The patterns of list @p (space-separated) as rows of report_frames */
static int put_frames(struct db *d, sqlite3_stmt *sk, const char *kind,
		      const char *cls, const char *id, const char *p)
{
	while (p && *p) {
		size_t n = strcspn(p, " ");
		char *w = strndup(p, n);
		int bad;

		if (!w)
			return -1;
		bad = bind_text(d, sk, 1, kind) || bind_text(d, sk, 2, cls) ||
		      bind_text(d, sk, 3, w) || bind_text(d, sk, 4, id) ||
		      step(d, sk);
		free(w);
		if (bad)
			return -1;
		p += n;
		p += *p == ' ';
	}
	return 0;
}

static int put_reports(struct db *d, const struct kmsg_db_input *in)
{
	sqlite3_stmt *st = NULL, *sk = NULL;
	size_t i;
	int ret = -1;

	if (db_prepare(d, "INSERT INTO reports (id, title, parent, at, frame, follows, nostack, "
		       "file, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", &st) ||
	    db_prepare(d, "INSERT OR IGNORE INTO report_frames (kind, class, pattern, id) "
		       "VALUES (?, ?, ?, ?)", &sk))
		goto out;
	for (i = 0; i < in->ndocs; i++) {
		const struct kmsg_doc *doc = in->docs[i].doc;

		if (doc->report_title &&
		    (bind_text(d, st, 1, doc->id) ||
		     bind_text(d, st, 2, doc->report_title) ||
		     bind_text(d, st, 3, doc->report_of) ||
		     bind_text(d, st, 4, doc->report_at) ||
		     bind_int(d, st, 5, doc->report_frame_set ? doc->report_frame : 1) ||
		     bind_int(d, st, 6, doc->report_follows) ||
		     bind_int(d, st, 7, doc->report_nostack) ||
		     bind_text(d, st, 8, doc->file) ||
		     bind_int(d, st, 9, doc->report_title_line) || step(d, st)))
			goto out;
		if (put_frames(d, sk, "skip", doc->report_title ? doc->id : "",
			       doc->id, doc->report_skip) ||
		    put_frames(d, sk, "skip", "", doc->id, doc->report_skip_any) ||
		    put_frames(d, sk, "strip", "", doc->id, doc->report_strip) ||
		    put_frames(d, sk, "corrupt", "", doc->id, doc->report_corrupt) ||
		    (doc->report_title &&
		     (put_frames(d, sk, "after", doc->id, doc->id, doc->report_after) ||
		      put_frames(d, sk, "anchor", doc->id, doc->id, doc->report_anchor) ||
		      put_frames(d, sk, "name", doc->id, doc->id, doc->report_name) ||
		      put_frames(d, sk, "line", doc->id, doc->id,
				 doc->report_frame_line) ||
		      put_frames(d, sk, "continues", doc->id, doc->id,
				 doc->report_continues) ||
		      put_frames(d, sk, "ignore", doc->id, doc->id,
				 doc->report_ignore))))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(sk);
	return ret;
}

static int fill(struct db *d, const struct kmsg_db_input *in)
{
	sqlite3_stmt *st = NULL;
	int ret;

	/*
	 * A fresh temporary file nobody else opens: no journal and no
	 * syncing while it is written; kmsg_db_write() syncs it once,
	 * complete, before renaming it into place.  Pages of 16 KiB: fewer
	 * B-tree pages to split and write for a database of 10^5 messages.
	 */
	if (db_exec(d, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; PRAGMA page_size = 16384; PRAGMA cache_size = -262144;") ||
	    db_exec(d, schema_sql) || db_exec(d, "BEGIN"))
		return -1;
	if (db_prepare(d, "INSERT INTO build (key, value) VALUES (?, ?)", &st))
		return -1;
	ret = put_build(d, st, "banner", in->banner ? in->banner : "") ||
	      put_build(d, st, "build_id", in->build_id ? in->build_id : "") ||
	      put_build(d, st, "release", in->release ? in->release : "") ||
	      put_build(d, st, "schema", "6") ||
	      put_build(d, st, "source", in->source ? in->source : "");
	sqlite3_finalize(st);
	if (ret || put_msgs(d, in) || put_modules(d, in) || put_docs(d, in) ||
	    put_trans(d, in) || put_aliases(d, in) || put_reports(d, in) ||
	    db_exec(d, index_sql) ||
	    db_exec(d, "COMMIT"))
		return -1;
	return 0;
}

/*
 * fsync() the file path, or with dir the directory it is in (best
 * effort).  0, or -1 with *err set.
 */
static int sync_path(const char *path, bool dir, char **err)
{
	char *d = NULL;
	int fd, ret = 0;

	if (dir) {
		const char *slash = strrchr(path, '/');

		d = slash ? kmsg_xstrndup(path, (size_t)(slash - path) + 1) :
			    kmsg_xstrdup(".");
	}
	fd = open(d ? d : path, (dir ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC);
	/* the directory is best effort: some file systems cannot sync one */
	if ((fd < 0 || fsync(fd)) && !dir) {
		*err = kmsg_xprintf("%s: %s", path, strerror(errno));
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	free(d);
	return ret;
}

int kmsg_db_write(const char *path, const struct kmsg_db_input *in, char **err)
{
	struct db d = { .err = err };
	char *tmp;
	mode_t mask;
	int fd, ret;

	*err = NULL;
	tmp = kmsg_xprintf("%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		*err = kmsg_xprintf("%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask))
		*err = kmsg_xprintf("%s: %s", tmp, strerror(errno));
	close(fd);

	ret = *err ? -1 : 0;
	if (!ret && sqlite3_open_v2(tmp, &d.db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		ret = db_fail(&d, "open");
	if (!ret)
		ret = fill(&d, in);
	if (d.db) {
		int r = sqlite3_close(d.db);

		d.db = NULL;
		if (r != SQLITE_OK && !ret) {
			*err = kmsg_xprintf("sqlite: close: %s", sqlite3_errstr(r));
			ret = -1;
		}
	}
	if (!ret)
		ret = sync_path(tmp, false, err);
	if (!ret && rename(tmp, path)) {
		*err = kmsg_xprintf("%s: %s", path, strerror(errno));
		ret = -1;
	}
	/* the rename itself: the directory's entry */
	if (!ret)
		ret = sync_path(path, true, err);
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}
