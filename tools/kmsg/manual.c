// SPDX-License-Identifier: GPL-2.0
/*
 * The message manual: one man page per message (section 9, "Linux
 * Messages", as the original message catalog proposal had it), and one
 * printable HTML manual of all messages, from the docs database.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kmsg_docs.h"
#include "kmsg_json.h"
#include "kmsg.h"

struct manual {
	struct kmsg_docs *docs;
	const char *dir;
	FILE *html;
	const char *release;
	int pages, errors;
};

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

	snprintf(path, sizeof(path), "%s/man9/%s.9", m->dir, d->id);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "kmsg: %s: %s\n", path, strerror(errno));
		m->errors++;
		return;
	}
	fprintf(f, ".TH \"%s\" 9 \"%s\" \"Linux %s\" \"Linux Messages\"\n",
		d->id, d->id, m->release);
	fputs(".SH MESSAGE\n", f);
	fprintf(f, "%s: \"", d->id);
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
	fclose(f);
	m->pages++;
}

static void html_entry(struct manual *m, const struct kmsg_doc *d)
{
	FILE *f = m->html;
	int i;

	fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n<pre>", d->id, d->id);
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

	if (!id || kmsg_docs_get(m->docs, id, &d)) {
		m->errors++;
		return 0;
	}
	man_page(m, &d);
	html_entry(m, &d);
	kmsg_doc_free(&d);
	return 0;
}

/* DIR/man9/<id>.9 for every documented message, DIR/kmsg-manual.html */
static int kmsg_manual(struct kmsg_docs *docs, const char *dir)
{
	struct manual m = { .docs = docs, .dir = dir };
	char path[4096];

	m.release = strdup(kmsg_docs_build(docs, "release"));
	snprintf(path, sizeof(path), "%s/man9", dir);
	mkdir(dir, 0755);
	if (mkdir(path, 0755) && errno != EEXIST) {
		fprintf(stderr, "kmsg: %s: %s\n", path, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/kmsg-manual.html", dir);
	m.html = fopen(path, "w");
	if (!m.html || !m.release) {
		fprintf(stderr, "kmsg: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(m.html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
		"<title>Linux %s messages</title>\n<style>body{font-family:serif;"
		"max-width:45em;margin:auto}section{page-break-inside:avoid}"
		"pre{font-size:110%%}</style></head>\n<body>\n"
		"<h1>Linux %s: kernel messages</h1>\n", m.release, m.release);
	kmsg_docs_each(docs, one, &m);
	fputs("</body></html>\n", m.html);
	fclose(m.html);
	printf("%d man pages in %s/man9, manual in %s\n", m.pages, dir, path);
	free((char *)m.release);
	return m.errors ? 1 : 0;
}

int manual_main(int argc, char **argv)
{
	struct options o = { 0 };
	struct kmsg_docs *docs;
	char err[512];
	int ret;

	if (parse_command(argc, argv, &o, false, usage_docs, 1, 1))
		return 1;
	docs = kmsg_docs_open(db_path(&o), err, sizeof(err));
	if (!docs) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	ret = kmsg_manual(docs, argv[optind]);
	kmsg_docs_close(docs);
	return ret;
}
