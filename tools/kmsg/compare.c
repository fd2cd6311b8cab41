// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg compare BASELINE NEW: the kernel messages of two logs by id, for a
 * CI job that boots a kernel and compares its log with a known good one;
 * either may be a directory, the logs of a set of runs counted together.
 *
 * Each log is read as kmsg dmesg reads it (dmesg_each()): a message one
 * call site printed is known by its id, any other by its text with its
 * numbers as '#' (so "eth0: link up 1000Mbps" and "... 100Mbps" are one).
 * What differs is listed, sorted by kind and key, so a rerun of the same
 * kernel writes the same lines:
 *
 *   new     a message NEW has and BASELINE has not
 *   gone    a message BASELINE has and NEW has not
 *   count   the times it is printed differ
 *   level   its level differs
 *   report  a kernel report of NEW (kmsg reports) whose title BASELINE has not
 *
 * The exit status gates: 1 when NEW has a new report or a new message at
 * warning level or worse (or one that rose to it), 0 otherwise, 2 on an
 * error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kmsg.h"
#include "kmsg_dmesg.h"
#include "kmsg_json.h"
#include "kmsg_strbuf.h"

/* the level at which a new message fails the job: KERN_WARNING */
#define GATE_LEVEL	4
/* bytes of a message's text kept as its example */
#define EXAMPLE_MAX	200

struct msg {
	char *key;		/* the id, or "~" and the text's shape */
	char *example;		/* its first text */
	int side;		/* 0 BASELINE, 1 NEW */
	int level;
	bool report;		/* a report's title, not a message */
};

struct cmp {
	struct msg *v;
	size_t n, cap;
	int side;
};

static void cmp_oom(void)
{
	fprintf(stderr, "%s: out of memory\n", prog);
	exit(2);
}

static char *dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d)
		cmp_oom();
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static void add(struct cmp *c, char *key, const char *text, size_t len,
		int level, bool report)
{
	struct msg *m;

	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->v = realloc(c->v, c->cap * sizeof(*c->v));
		if (!c->v)
			cmp_oom();
	}
	m = &c->v[c->n++];
	m->key = key;
	m->example = dupn(text, len > EXAMPLE_MAX ? EXAMPLE_MAX : len);
	m->side = c->side;
	m->level = level;
	m->report = report;
}

static bool is_xdigit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/*
 * The shape of an unidentified message: its first line, each run of
 * digits (and a hex number's letters) one '#'
 */
static char *shape(const char *t, size_t n)
{
	struct kmsg_strbuf sb = { 0 };
	size_t i = 0;

	kmsg_strbuf_putc(&sb, '~');
	while (i < n && t[i] != '\n') {
		if (t[i] >= '0' && t[i] <= '9') {
			if (t[i] == '0' && i + 1 < n && t[i + 1] == 'x')
				i += 2;
			while (i < n && is_xdigit(t[i]))
				i++;
			kmsg_strbuf_putc(&sb, '#');
			continue;
		}
		kmsg_strbuf_putc(&sb, t[i++]);
	}
	if (!sb.buf)
		cmp_oom();
	return sb.buf;
}

static void on_msg(void *ctx, const struct dmesg_msg *m)
{
	struct cmp *c = ctx;

	if (!m->kernel)
		return;
	add(c, m->id ? dupn(m->id, strlen(m->id)) : shape(m->text, m->len),
	    m->text, m->len, m->level, false);
}

static void on_report(void *ctx, const char *cls, const char *title,
		      bool corrupted)
{
	struct cmp *c = ctx;

	(void)cls;
	(void)corrupted;
	add(c, dupn(title, strlen(title)), title, strlen(title), -1, true);
}

/* One log, its messages and reports into @c as side @side */
static int read_log(const struct options *o, struct cmp *c, const char *file,
		    int side)
{
	struct options oo = *o;

	c->side = side;
	oo.json = false;
	if (dmesg_each(&oo, file, on_msg, c))
		return 2;
	return reports_each(o, file, on_report, c);
}

static int cmp_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * A side: one log, or a directory whose files (not its subdirectories,
 * not those starting with '.') are the logs of a set, in name order
 */
static int read_side(const struct options *o, struct cmp *c, const char *path,
		     int side)
{
	struct dirent **names;
	struct stat st;
	int n, k, ret = 0, logs = 0;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return read_log(o, c, path, side);
	n = scandir(path, &names, NULL, cmp_name);
	if (n < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return 2;
	}
	for (k = 0; k < n; k++) {
		char *f = NULL;

		if (!ret && names[k]->d_name[0] != '.' &&
		    asprintf(&f, "%s/%s", path, names[k]->d_name) >= 0 &&
		    !stat(f, &st) && S_ISREG(st.st_mode)) {
			ret = read_log(o, c, f, side);
			logs++;
		}
		free(f);
		free(names[k]);
	}
	free(names);
	if (!ret && !logs) {
		fprintf(stderr, "%s: %s: no log in the directory\n", prog, path);
		ret = 2;
	}
	return ret;
}

static int cmp_msg(const void *a, const void *b)
{
	const struct msg *x = a, *y = b;
	int r;

	if (x->report != y->report)
		return x->report - y->report;
	r = strcmp(x->key, y->key);
	return r ? r : x->side - y->side;
}

static const char *level_of(int l)
{
	return l >= 0 ? kmsg_level_name(l) : "-";
}

static void put_line(struct kmsg_strbuf *o, bool json, const char *kind,
		     const struct msg *m, long nb, long nn, int lb, int ln)
{
	const char *key = m->key[0] == '~' ? "-" : m->key;

	o->len = 0;
	if (json) {
		kmsg_strbuf_printf(o, "{\"kind\":\"%s\",", kind);
		if (m->report) {
			kmsg_strbuf_puts(o, "\"title\":");
			kmsg_json_str(o, m->key, strlen(m->key));
		} else {
			kmsg_strbuf_puts(o, "\"id\":");
			if (m->key[0] == '~')
				kmsg_strbuf_puts(o, "null");
			else
				kmsg_json_str(o, m->key, strlen(m->key));
			kmsg_strbuf_puts(o, ",\"text\":");
			kmsg_json_str(o, m->example, strlen(m->example));
		}
		kmsg_strbuf_printf(o, ",\"baseline\":%ld,\"new\":%ld", nb, nn);
		if (!m->report)
			kmsg_strbuf_printf(o, ",\"baseline_level\":\"%s\",\"new_level\":\"%s\"",
					   level_of(lb), level_of(ln));
		kmsg_strbuf_puts(o, "}\n");
	} else if (m->report) {
		kmsg_strbuf_printf(o, "%-7s ", kind);
		kmsg_dmesg_escape(o, m->key, strlen(m->key));
		kmsg_strbuf_printf(o, " (%ld)\n", nn);
	} else {
		kmsg_strbuf_printf(o, "%-7s ", kind);
		kmsg_dmesg_escape(o, key, strlen(key));
		kmsg_strbuf_printf(o, " %ld -> %ld %s -> %s: ", nb, nn,
				   level_of(lb), level_of(ln));
		kmsg_dmesg_escape(o, m->example, strlen(m->example));
		kmsg_strbuf_putc(o, '\n');
	}
	if (!o->buf)
		cmp_oom();
	fwrite(o->buf, 1, o->len, stdout);
}

static void usage_compare(FILE *f)
{
	fprintf(f,
		"Usage: %s compare [--json] [--db FILE] BASELINE NEW\n\n"
		"The kernel messages of two logs (dmesg text, console logs), or of\n"
		"two sets of logs (directories of them, counted together), by id:\n"
		"new, gone, printed a different number of times or at another level;\n"
		"and NEW's kernel reports that BASELINE has not. Sorted, so a rerun\n"
		"writes the same lines.\n\n"
		"  --json     one JSON object per difference\n"
		"  --db FILE  the database both logs are identified with (and whose\n"
		"             report classes find the reports); default as kmsg dmesg\n\n"
		"Exit status: 0 nothing that fails a job, 1 a new report or a new\n"
		"message at warning level or worse in NEW, 2 an error.\n",
		prog);
}

int compare_main(int argc, char **argv)
{
	struct options o = { 0 };
	struct cmp c = { 0 };
	struct kmsg_strbuf out = { 0 };
	size_t i, j;
	int side, ret = 0, gate = 0;

	if (parse_command(argc, argv, &o, false, usage_compare, 2, 2))
		return 2;
	/* each log is read twice: for its messages, for its reports */
	if (!strcmp(argv[optind], "-") || !strcmp(argv[optind + 1], "-")) {
		fprintf(stderr, "%s: compare reads files, not standard input\n", prog);
		return 2;
	}
	for (side = 0; side < 2 && !ret; side++)
		ret = read_side(&o, &c, argv[optind + side], side);
	if (ret)
		goto out;
	qsort(c.v, c.n, sizeof(*c.v), cmp_msg);
	for (i = 0; i < c.n; i = j) {
		long nb = 0, nn = 0;
		int lb = -1, ln = -1;

		for (j = i; j < c.n && c.v[j].report == c.v[i].report &&
		     !strcmp(c.v[j].key, c.v[i].key); j++) {
			if (c.v[j].side) {
				nn++;
				if (ln < 0 || (c.v[j].level >= 0 && c.v[j].level < ln))
					ln = c.v[j].level;
			} else {
				nb++;
				if (lb < 0 || (c.v[j].level >= 0 && c.v[j].level < lb))
					lb = c.v[j].level;
			}
		}
		if (c.v[i].report) {
			if (nn && !nb) {
				put_line(&out, o.json, "report", &c.v[j - 1], nb, nn, -1, -1);
				gate = 1;
			}
			continue;
		}
		if (!nb) {
			put_line(&out, o.json, "new", &c.v[i], nb, nn, lb, ln);
			if (ln >= 0 && ln <= GATE_LEVEL)
				gate = 1;
		} else if (!nn) {
			put_line(&out, o.json, "gone", &c.v[i], nb, nn, lb, ln);
		} else if (lb != ln) {
			put_line(&out, o.json, "level", &c.v[j - 1], nb, nn, lb, ln);
			if (ln >= 0 && ln <= GATE_LEVEL && (lb < 0 || lb > GATE_LEVEL))
				gate = 1;
		} else if (nb != nn) {
			put_line(&out, o.json, "count", &c.v[j - 1], nb, nn, lb, ln);
		}
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: standard output: %s\n", prog,
			strerror(errno ? errno : EIO));
		ret = 2;
	}
out:
	for (i = 0; i < c.n; i++) {
		free(c.v[i].key);
		free(c.v[i].example);
	}
	free(c.v);
	kmsg_strbuf_free(&out);
	return ret ? ret : gate;
}
