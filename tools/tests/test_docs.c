// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the docs database reader (lib/kmsg_docs.c) and the manual
 * (manual.c) on bad databases, under ASan and UBSan: each gives an error
 * that names the file and says what is wrong, within seconds, and nothing
 * from the database becomes a path outside the manual's directory or
 * unescaped roff or HTML.  Each test runs under alarm(): a hang fails.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "kmsg_docs.h"
#include "kmsg_manual.h"
#include "tap.h"

static char dir[] = "/tmp/kmsg-docs-XXXXXX";

static const char schema[] =
	"CREATE TABLE build (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE messages (id TEXT NOT NULL, component TEXT NOT NULL,"
	" number INTEGER NOT NULL, level INTEGER NOT NULL, format TEXT NOT NULL,"
	" file TEXT NOT NULL, line INTEGER NOT NULL, function TEXT NOT NULL,"
	" object TEXT NOT NULL, device INTEGER NOT NULL);"
	"CREATE TABLE docs (id TEXT PRIMARY KEY, source TEXT NOT NULL,"
	" file TEXT NOT NULL, line INTEGER NOT NULL, format TEXT NOT NULL,"
	" severity TEXT, description TEXT NOT NULL, user_response TEXT NOT NULL,"
	" see_also TEXT NOT NULL);"
	"CREATE TABLE translations (id TEXT NOT NULL, locale TEXT NOT NULL,"
	" format TEXT NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL,"
	" PRIMARY KEY (id, locale));"
	"CREATE TABLE aliases (id TEXT NOT NULL, auto_id TEXT PRIMARY KEY,"
	" modname TEXT NOT NULL, format TEXT, position INTEGER NOT NULL,"
	" file TEXT NOT NULL, line INTEGER NOT NULL);"
	"CREATE VIRTUAL TABLE search USING fts5(id, format, description, user_response);";

static const char params_table[] =
	"CREATE TABLE parameters (id TEXT NOT NULL, position INTEGER NOT NULL,"
	" text TEXT NOT NULL, PRIMARY KEY (id, position));";

/*
 * A parameters table whose text fails to compute when read (n > 0): the
 * schema is rewritten after the rows are in, as a crafted file would be
 */
static const char bad_params[] =
	"CREATE TABLE parameters (id TEXT NOT NULL, position INTEGER NOT NULL,"
	" n INTEGER, text TEXT GENERATED ALWAYS AS"
	" (CASE WHEN n > 0 THEN 'y' ELSE 'x' END));";
static const char overflow[] =
	"PRAGMA writable_schema = ON;"
	"UPDATE sqlite_master SET sql = replace(sql, '''y''',"
	" 'abs(-9223372036854775807 - n)') WHERE name = 'parameters';";

static const char rows[] =
	"INSERT INTO build VALUES ('release', '6.12.0'), ('schema', '2');"
	"INSERT INTO docs VALUES ('fx.1', 'catalog', 'fx.kmsg', 1, 'device %x',"
	" 'err', 'The device is gone.', 'Plug it in.', '');"
	"INSERT INTO docs VALUES ('fx.2', 'catalog', 'fx.kmsg', 9, 'x', 'info',"
	" 'd', 'r', '');"
	"INSERT INTO search VALUES ('fx.1', 'device %x', 'The device is gone.', '');"
	"INSERT INTO aliases VALUES ('fx.1', 'fxdrv.h0badcafe', 'fxdrv', NULL, 0,"
	" 'fx.kmsg', 1);";

/* A database at DIR/@name from SQL (the schema parts and rows given) */
static char *make_db(const char *name, ...)
{
	static char path[4096];
	const char *sql;
	sqlite3 *db;
	va_list ap;
	char *err = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK) {
		printf("# %s: %s\n", path, sqlite3_errmsg(db));
		exit(1);
	}
	va_start(ap, name);
	while ((sql = va_arg(ap, const char *))) {
		if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
			printf("# %s: %s\n", sql, err);
			exit(1);
		}
	}
	va_end(ap);
	sqlite3_close(db);
	return path;
}

static bool has(const char *s, const char *part)
{
	return s && strstr(s, part);
}

/* open fails with a message naming @path and containing @want */
static void open_fails(const char *what, const char *path, const char *want)
{
	struct kmsg_docs *d;
	char err[512] = "";

	alarm(10);
	d = kmsg_docs_open(path, err, sizeof(err));
	alarm(0);
	ok(!d && !strncmp(err, path, strlen(path)) && has(err, want),
	   "%s: %s", what, err);
	kmsg_docs_close(d);
}

static void test_open_errors(void)
{
	char path[4096];
	FILE *f;

	open_fails("a missing file", "/nonexistent/kmsg.db",
		   "No such file or directory: no kmsg docs database there; 'make docs-db' builds one");
	open_fails("a directory", dir, "is a directory, not a kmsg docs database");
	snprintf(path, sizeof(path), "%s/text", dir);
	f = fopen(path, "w");
	fputs("not a database, but long enough to look like one, or not at all\n", f);
	fclose(f);
	open_fails("a text file", path, "not a kmsg docs database: file is not a database");
	open_fails("no table docs", make_db("empty.db", "CREATE TABLE x (a);", NULL),
		   "not a kmsg docs database: it has no table docs");
	/* a view with an endless recursive query: it must not be run */
	open_fails("a view named docs", make_db("view.db", params_table,
		   "CREATE TABLE build (key, value); CREATE TABLE messages (id, level, file, line, function, object);"
		   "CREATE TABLE translations (id, locale, format);"
		   "CREATE VIRTUAL TABLE search USING fts5(id, format, description, user_response);"
		   "CREATE VIEW docs AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)"
		   " SELECT 'x.' || i AS id, '' AS source, '' AS file, 0 AS line, '' AS format,"
		   " NULL AS severity, '' AS description, '' AS user_response, '' AS see_also FROM r;",
		   NULL), "docs is a view, not a table");
	open_fails("parameters as a view", make_db("pview.db", schema,
		   "CREATE VIEW parameters AS SELECT 1 AS id, 2 AS position, 3 AS text;", NULL),
		   "parameters is a view, not a table");
	open_fails("search not FTS5", make_db("search.db",
		   "CREATE TABLE docs (id); CREATE TABLE parameters (id, position, text);"
		   "CREATE TABLE messages (id); CREATE TABLE translations (id);"
		   "CREATE TABLE search (id);", NULL),
		   "search is a table, not an FTS5 table");
}

static struct kmsg_docs *open_ok(const char *path)
{
	struct kmsg_docs *d;
	char err[512] = "";

	d = kmsg_docs_open(path, err, sizeof(err));
	if (!d)
		printf("# %s\n", err);
	return d;
}

/* The path given, the last error, and nothing else */
static void test_reads(void)
{
	struct kmsg_docs *d = open_ok(make_db("good.db", schema, params_table, rows,
					      NULL));
	struct kmsg_doc doc;
	int ret;

	if (!ok(d != NULL, "a well-formed database opens"))
		return;
	ret = kmsg_docs_get(d, "fxdrv.h0badcafe", &doc);
	ok(!ret && !strcmp(doc.id, "fx.1") && doc.level == 3 && doc.naliases == 1,
	   "get of an automatic id: its identifier's documentation");
	if (!ret)
		kmsg_doc_free(&doc);
	ok(kmsg_docs_get(d, "fx.9", &doc) == 1, "get of an undocumented id: 1");
	ret = kmsg_docs_search(d, "\"unterminated", NULL, NULL);
	ok(ret < 0 && has(kmsg_docs_errmsg(d), "/good.db: search: ") &&
	   has(kmsg_docs_errmsg(d), "unterminated string"),
	   "a search FTS5 refuses says why: %s", kmsg_docs_errmsg(d));

	/* every call is bounded: a budget of 1 stops the first query */
	kmsg_docs_set_work_max(d, 1);
	ret = kmsg_docs_get(d, "fx.1", &doc);
	ok(ret < 0 && !doc.id && has(kmsg_docs_errmsg(d), "took too long"),
	   "a query over its budget stops: %s", kmsg_docs_errmsg(d));
	kmsg_docs_set_work_max(d, 0);
	ok(!kmsg_docs_get(d, "fx.1", &doc), "the default budget is enough again");
	kmsg_doc_free(&doc);
	kmsg_docs_close(d);
}

/*
 * get_params() fails after the doc was filled (a generated column that
 * fails when read): kmsg_docs_get() returns the error with nothing left to
 * free, LeakSanitizer checks at exit
 */
static void test_get_error(void)
{
	struct kmsg_docs *d = open_ok(make_db("params.db", schema, rows,
		bad_params,
		"INSERT INTO parameters (id, position, n) VALUES ('fx.1', 0, 0), ('fx.1', 1, 1);",
		overflow, NULL));
	struct kmsg_doc doc;
	int ret;

	if (!ok(d != NULL, "a database whose parameters fail when read opens"))
		return;
	ret = kmsg_docs_get(d, "fx.1", &doc);
	ok(ret < 0 && !doc.id && !doc.params && !doc.aliases,
	   "get: the error of get_params(), nothing left to free");
	ok(has(kmsg_docs_errmsg(d), "/params.db: table parameters: integer overflow"),
	   "get: says why: %s", kmsg_docs_errmsg(d));
	kmsg_docs_close(d);
}

static int count_ids(void *ctx, const char *id)
{
	(void)id;
	++*(int *)ctx;
	return 0;
}

static int fail_second(void *ctx, const char *id)
{
	(void)id;
	return ++*(int *)ctx == 2 ? -EIO : 0;
}

static void test_each(void)
{
	struct kmsg_docs *d;
	int n = 0, ret;

	d = open_ok(make_db("badid.db", schema, params_table, rows,
			    "INSERT INTO docs VALUES ('../../x', '', '', 0, '', NULL, '', '', '');",
			    NULL));
	if (!ok(d != NULL, "a database with an id \"../../x\" opens"))
		return;
	ret = kmsg_docs_each(d, count_ids, &n);
	ok(ret < 0 && n == 0 && has(kmsg_docs_errmsg(d), "malformed id \"../../x\""),
	   "each: a malformed id stops it: %s", kmsg_docs_errmsg(d));
	ok(kmsg_docs_get(d, "../../x", &(struct kmsg_doc){ 0 }) < 0 &&
	   has(kmsg_docs_errmsg(d), "table docs: malformed id"),
	   "get: a malformed id in docs is an error");
	kmsg_docs_close(d);

	d = open_ok(make_db("ctrl.db", schema, params_table, rows,
			    "INSERT INTO docs VALUES ('x.1' || char(10) || '.so /etc/passwd' || char(27),"
			    " '', '', 0, '', NULL, '', '', '');", NULL));
	ret = d ? kmsg_docs_each(d, count_ids, &n) : 0;
	ok(ret < 0 && has(kmsg_docs_errmsg(d), "\"x.1\\x0a.so /etc/passwd\\x1b\""),
	   "each: an id with control characters, quoted: %s",
	   d ? kmsg_docs_errmsg(d) : "");
	kmsg_docs_close(d);

	d = open_ok(make_db("each.db", schema, params_table, rows, NULL));
	n = 0;
	ret = d ? kmsg_docs_each(d, fail_second, &n) : 0;
	ok(ret == -EIO && n == 2, "each: an error of the callback stops it");
	kmsg_docs_close(d);
}

static char *slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return f ? buf : NULL;
}

/* kmsg_manual() with its output in DIR/output; its first line in @line */
static int manual(const char *db, const char *out, char **err, char *line,
		  size_t size)
{
	static char path[4096];
	struct kmsg_docs *d = open_ok(db);
	int out1 = dup(1), out2 = dup(2), ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/output", dir);
	f = fopen(path, "w");
	if (!d || !f)
		return -1;
	fflush(stdout);
	dup2(fileno(f), 1);
	dup2(fileno(f), 2);
	alarm(10);
	ret = kmsg_manual(d, out);
	alarm(0);
	fflush(stdout);
	fflush(stderr);
	dup2(out1, 1);
	dup2(out2, 2);
	close(out1);
	close(out2);
	fclose(f);
	kmsg_docs_close(d);
	*err = slurp(path);
	snprintf(line, size, "%.*s", *err ? (int)strcspn(*err, "\n") : 0,
		 *err ? *err : "");
	return ret;
}

static void test_manual(void)
{
	char out[4096], escaped[4096], path[4096], line[512], *err, *page;
	int ret;

	/* "../../x" would be DIR/man9/../../x.9: next to DIR */
	snprintf(out, sizeof(out), "%s/a/out", dir);
	mkdir(out, 0755);
	snprintf(out, sizeof(out), "%s/a", dir);
	mkdir(out, 0755);
	snprintf(out, sizeof(out), "%s/a/out", dir);
	snprintf(escaped, sizeof(escaped), "%s/a/x.9", dir);
	ret = manual(make_db("escape.db", schema, params_table, rows,
			     "INSERT INTO docs VALUES ('../../x', '', '', 0, '', NULL, '', '', '');",
			     NULL), out, &err, line, sizeof(line));
	ok(ret == 1 && access(escaped, F_OK) && errno == ENOENT,
	   "manual: an id \"../../x\" does not write %s", escaped);
	ok(has(err, "/escape.db: table docs: malformed id \"../../x\""),
	   "manual: says which database and id: %s", line);

	/* the release and the texts are escaped, as roff and as HTML */
	snprintf(out, sizeof(out), "%s/b", dir);
	ret = manual(make_db("roff.db", schema, params_table, rows,
			     "UPDATE build SET value = '6.12\" x' || char(10) || '.so /etc/passwd <script>'"
			     " WHERE key = 'release';"
			     "UPDATE docs SET description = 'a' || char(10) || '.so /etc/passwd' ||"
			     " char(10) || '<b>&' WHERE id = 'fx.1';", NULL), out, &err, line, sizeof(line));
	ok(ret == 0, "manual of a database with roff and HTML in its texts: %s", line);
	snprintf(path, sizeof(path), "%s/b/man9/fx.1.9", dir);
	page = slurp(path);
	ok(page && !strncmp(page, ".TH \"fx.1\" 9 \"fx.1\" \"Linux 6.12\\(dq x .so /etc/passwd <script>\" \"Linux Messages\"\n",
			    strlen(".TH \"fx.1\" 9 \"fx.1\" \"Linux 6.12\\(dq x .so /etc/passwd <script>\" \"Linux Messages\"\n")),
	   "man page: the release quoted in .TH, its newline and quote escaped");
	ok(page && has(page, "\na\n\\&.so /etc/passwd\n<b>&\n") && !has(page, "\n.so"),
	   "man page: no line of the text starts a request");
	snprintf(path, sizeof(path), "%s/b/kmsg-manual.html", dir);
	page = slurp(path);
	ok(page && has(page, "<title>Linux 6.12&quot; x\n.so /etc/passwd &lt;script&gt; messages</title>") &&
	   has(page, "<p>a\n.so /etc/passwd\n&lt;b&gt;&amp;</p>") && !has(page, "<script>"),
	   "HTML: the release and texts escaped");

	/* a database error in the middle: a message, not only exit status 1 */
	snprintf(out, sizeof(out), "%s/c", dir);
	ret = manual(make_db("params2.db", schema, rows,
		bad_params,
		"INSERT INTO parameters (id, position, n) VALUES ('fx.2', 0, 1);",
		overflow, NULL), out, &err, line, sizeof(line));
	ok(ret == 1 && has(err, "/params2.db: table parameters: integer overflow"),
	   "manual: an error reading the database is said: %s", line);
}

int main(void)
{
	printf("TAP version 13\n");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_open_errors();
	test_reads();
	test_get_error();
	test_each();
	test_manual();
	if (tap_failed) {
		printf("# files kept in %s\n", dir);
	} else {
		char cmd[4200];

		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", dir);
		if (system(cmd))
			printf("# %s failed\n", cmd);
	}
	return tap_done();
}
