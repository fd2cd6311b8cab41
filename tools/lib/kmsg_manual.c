// SPDX-License-Identifier: GPL-2.0
/*
 * The message manual: one man page per message (section 9, "Linux
 * Messages", as the original message catalog proposal had it), and one
 * printable HTML manual of all messages, from the docs database.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_docs.h"
#include "kmsg_id.h"
#include "kmsg_json.h"
#include "kmsg_manual.h"

struct manual {
	struct kmsg_docs *docs;
	const char *dir;
	FILE *html;
	const char *release;
	int pages, errors;
};

/*
 * A new file for writing; an existing one is replaced, but a symbolic
 * link is not followed (the directory may be shared).
 */
static FILE *create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		      0644);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

/* Close @f, reporting an error of any write to it */
static int finish(FILE *f, const char *path)
{
	int err = ferror(f);

	if (fclose(f) || err) {
		fprintf(stderr, "kmsg: %s: %s\n", path,
			err ? "write error" : strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * A quoted argument of a roff request (.TH): no quote, backslash, newline
 * or other control character of the text can end it or start a request.
 */
static void roff_arg(FILE *f, const char *prefix, const char *s)
{
	fprintf(f, " \"%s", prefix);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '"')
			fputs("\\(dq", f);
		else if (*s == '-')
			fputs("\\-", f);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* roff: backslashes escaped, no line may start with a control character */
static void roff_inline(FILE *f, const char *s, bool bol)
{
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

static void roff_text(FILE *f, const char *s)
{
	roff_inline(f, s, true);
	if (*s && s[strlen(s) - 1] != '\n')
		fputc('\n', f);
}

/* a text with paragraphs ("\n\n") as roff paragraphs */
static void roff_paras(FILE *f, const char *s)
{
	const char *p = s, *e;
	char *para;

	while (*p) {
		e = strstr(p, "\n\n");
		if (!e)
			e = p + strlen(p);
		para = strndup(p, e - p);
		if (para && *para) {
			roff_text(f, para);
			fputs(".PP\n", f);
		}
		free(para);
		p = *e ? e + 2 : e;
	}
}

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\n':
			fputs(s[1] == '\n' ? "</p>\n<p>" : "\n", f);
			if (s[1] == '\n')
				s++;
			break;
		default: fputc(*s, f);
		}
	}
}

static void man_page(struct manual *m, const struct kmsg_doc *d)
{
	char path[4096];
	FILE *f;
	int i;

	if ((size_t)snprintf(path, sizeof(path), "%s/man9/%s.9", m->dir,
			     d->id) >= sizeof(path)) {
		fprintf(stderr, "kmsg: %s: the path of its man page is too long\n",
			m->dir);
		m->errors++;
		return;
	}
	f = create(path);
	if (!f) {
		fprintf(stderr, "kmsg: %s: %s\n", path, strerror(errno));
		m->errors++;
		return;
	}
	fputs(".TH", f);
	roff_arg(f, "", d->id);
	fputs(" 9", f);
	roff_arg(f, "", d->id);
	roff_arg(f, "Linux ", m->release);
	fputs(" \"Linux Messages\"\n", f);
	fputs(".SH MESSAGE\n", f);
	roff_inline(f, d->id, true);
	fputs(": \"", f);
	roff_inline(f, d->format, false);
	fputs("\"\n", f);
	if (d->level >= 0)
		fprintf(f, ".SH SEVERITY\n%s\n", kmsg_level_name(d->level));
	if (d->nparams) {
		fputs(".SH PARAMETERS\n", f);
		for (i = 0; i < d->nparams; i++) {
			fprintf(f, ".TP\n@%d\n", i);
			roff_text(f, d->params[i] ? d->params[i] : "");
		}
	}
	fputs(".SH DESCRIPTION\n", f);
	roff_paras(f, d->description);
	fputs(".SH USER RESPONSE\n", f);
	roff_paras(f, d->user_response);
	if (d->see_also[0]) {
		fputs(".SH SEE ALSO\n", f);
		roff_text(f, d->see_also);
	}
	if (finish(f, path))
		m->errors++;
	else
		m->pages++;
}

static void html_entry(struct manual *m, const struct kmsg_doc *d)
{
	FILE *f = m->html;
	int i;

	fputs("<section id=\"", f);
	html_text(f, d->id);
	fputs("\">\n<h2>", f);
	html_text(f, d->id);
	fputs("</h2>\n<pre>", f);
	html_text(f, d->format);
	fputs("</pre>\n", f);
	if (d->level >= 0)
		fprintf(f, "<p class=\"sev\">Severity: %s</p>\n",
			kmsg_level_name(d->level));
	if (d->nparams) {
		fputs("<h3>Parameters</h3>\n<dl>\n", f);
		for (i = 0; i < d->nparams; i++) {
			fprintf(f, "<dt>@%d</dt><dd>", i);
			html_text(f, d->params[i] ? d->params[i] : "");
			fputs("</dd>\n", f);
		}
		fputs("</dl>\n", f);
	}
	fputs("<h3>Description</h3>\n<p>", f);
	html_text(f, d->description);
	fputs("</p>\n<h3>User response</h3>\n<p>", f);
	html_text(f, d->user_response);
	fputs("</p>\n</section>\n", f);
}

static int one(void *ctx, const char *id)
{
	struct manual *m = ctx;
	struct kmsg_doc d;
	int ret;

	ret = kmsg_docs_get(m->docs, id, &d);
	if (ret) {
		/* an id kmsg_docs_each() just listed: the file is corrupt */
		fprintf(stderr, "kmsg: %s\n", ret < 0 ?
			kmsg_docs_errmsg(m->docs) : "an id of table docs has no row");
		m->errors++;
		return ret < 0 ? ret : -EIO;
	}
	/* kmsg_docs_get() checks it, and it becomes a file name */
	if (!kmsg_id_is_curated(d.id)) {
		fprintf(stderr, "kmsg: malformed id in the database\n");
		kmsg_doc_free(&d);
		m->errors++;
		return -EINVAL;
	}
	man_page(m, &d);
	html_entry(m, &d);
	kmsg_doc_free(&d);
	return 0;
}

int kmsg_manual(struct kmsg_docs *docs, const char *dir)
{
	struct manual m = { .docs = docs, .dir = dir };
	char path[4096];
	int ret;

	m.release = strdup(kmsg_docs_build(docs, "release"));
	if (!m.release) {
		fprintf(stderr, "kmsg: out of memory\n");
		return 1;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/man9", dir) >= sizeof(path)) {
		fprintf(stderr, "kmsg: %s: path too long\n", dir);
		free((char *)m.release);
		return 1;
	}
	if ((mkdir(dir, 0755) && errno != EEXIST) ||
	    (mkdir(path, 0755) && errno != EEXIST)) {
		fprintf(stderr, "kmsg: %s: %s\n", errno == ENOENT ? dir : path,
			strerror(errno));
		free((char *)m.release);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/kmsg-manual.html", dir);
	m.html = create(path);
	if (!m.html) {
		fprintf(stderr, "kmsg: %s: %s\n", path, strerror(errno));
		free((char *)m.release);
		return 1;
	}
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>Linux ",
	      m.html);
	html_text(m.html, m.release);
	fputs(" messages</title>\n<style>body{font-family:serif;"
	      "max-width:45em;margin:auto}section{page-break-inside:avoid}"
	      "pre{font-size:110%}</style></head>\n<body>\n<h1>Linux ", m.html);
	html_text(m.html, m.release);
	fputs(": kernel messages</h1>\n", m.html);
	ret = kmsg_docs_each(docs, one, &m);
	if (ret < 0 && !m.errors) {
		fprintf(stderr, "kmsg: %s\n", kmsg_docs_errmsg(docs));
		m.errors++;
	}
	fputs("</body></html>\n", m.html);
	if (finish(m.html, path))
		m.errors++;
	if (m.errors)
		fprintf(stderr, "kmsg: %d man pages in %s/man9, manual in %s, stopped by %s\n",
			m.pages, dir, path, m.errors > 1 ? "errors" : "an error");
	else
		printf("%d man pages in %s/man9, manual in %s\n", m.pages, dir, path);
	free((char *)m.release);
	return m.errors ? 1 : 0;
}
