// SPDX-License-Identifier: GPL-2.0
/*
 * The systemd journal catalog of a docs database (see kmsg_jcatalog.h and
 * systemd's journal-catalog format: "-- MESSAGEID" lines, header fields,
 * an empty line, the text).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kmsg_docs.h"
#include "kmsg_id.h"
#include "kmsg_jcatalog.h"
#include "kmsg_journal.h"

struct jcat {
	struct kmsg_docs *docs;
	FILE *f;
	int entries;
	struct kmsg_strbuf buf;
	int err;
};

/* @s as catalog text (see kmsg_journal_catalog_text()) */
static void put(struct jcat *c, const char *s, bool one_line)
{
	c->buf.len = 0;
	if (kmsg_journal_catalog_text(&c->buf, s, one_line))
		c->err = -ENOMEM;
	else
		fwrite(c->buf.buf, 1, c->buf.len, c->f);
}

static void put_line(struct jcat *c, const char *s)
{
	put(c, s, true);
}

/* text of lines, ending in a newline */
static void put_text(struct jcat *c, const char *s)
{
	size_t n = strlen(s);

	put(c, s, false);
	if (n && s[n - 1] != '\n')
		fputc('\n', c->f);
}

/*
 * The entry of @key: in @lang (a checked locale, NULL: the default one)
 * with the subject @format, the translated one
 */
static void entry(struct jcat *c, const char *key, const struct kmsg_doc *d,
		  const char *lang, const char *format)
{
	char mid[KMSG_JOURNAL_ID_LEN];

	kmsg_journal_message_id(key, mid);
	fprintf(c->f, "-- %s%s%s\nSubject: ", mid, lang ? " " : "",
		lang ? lang : "");
	put_line(c, d->id);
	fputs(": ", c->f);
	put_line(c, format);
	fputs("\nDefined-By: kmsg\nDocumentation: man:", c->f);
	put_line(c, d->id);
	fputs("(9)\n\n", c->f);
	if (strcmp(key, d->id)) {
		fputs("The message ", c->f);
		put_line(c, key);
		fputs(" is documented as ", c->f);
		put_line(c, d->id);
		fputs(".\n\n", c->f);
	}
	put_text(c, d->description);
	fputs("\nUser response:\n", c->f);
	put_text(c, d->user_response);
	fputc('\n', c->f);
	c->entries++;
}

/*
 * A locale as journalctl looks it up: its LC_MESSAGES up to a '.' or '@',
 * then without "_CC". So "ll" or "lll", and "_CC" (a territory: two
 * capitals or three digits): "de", "de_CH", "es_419". Nothing else ever
 * matches, and nothing else can end the "-- MESSAGEID LANG" line early.
 */
static bool jcatalog_locale(const char *s)
{
	size_t n = 0, t;

	while (s[n] >= 'a' && s[n] <= 'z')
		n++;
	if (n < 2 || n > 3)
		return false;
	if (!s[n])
		return true;
	if (s[n++] != '_')
		return false;
	for (t = 0; s[n + t] >= 'A' && s[n + t] <= 'Z'; t++)
		;
	if (t == 2 && !s[n + t])
		return true;
	for (t = 0; s[n + t] >= '0' && s[n + t] <= '9'; t++)
		;
	return t == 3 && !s[n + t];
}

/* The translated entries of one documented message */
struct jcat_tr {
	struct jcat *c;
	const struct kmsg_doc *d;
};

static int one_translation(void *ctx, const char *locale, const char *format)
{
	struct jcat_tr *t = ctx;
	size_t i;

	if (!jcatalog_locale(locale)) {
		fputs("kmsg-doc: ", stderr);
		fputs(t->d->id, stderr);
		fputs(": translation of locale \"", stderr);
		for (i = 0; locale[i] && i < 40; i++)
			fputc(locale[i] > ' ' && locale[i] < 0x7f ? locale[i] : '?',
			      stderr);
		fputs("\" left out of the journal catalog: not a locale journalctl looks up (ll or ll_CC)\n",
		      stderr);
		return 0;
	}
	entry(t->c, t->d->id, t->d, locale, format);
	/* the automatic id of the documented format: the same wording */
	if (t->d->naliases && kmsg_id_is_auto(t->d->aliases[0].auto_id))
		entry(t->c, t->d->aliases[0].auto_id, t->d, locale, format);
	return t->c->err;
}

static int one(void *ctx, const char *id)
{
	struct jcat *c = ctx;
	struct jcat_tr tr;
	struct kmsg_doc d;
	int i, ret = kmsg_docs_get(c->docs, id, &d);

	if (ret) {
		fprintf(stderr, "kmsg-doc: %s\n", ret < 0 ?
			kmsg_docs_errmsg(c->docs) : "an id of table docs has no row");
		return ret < 0 ? ret : -EIO;
	}
	/* kmsg_docs_get() checked them; they are keys, never paths */
	if (!kmsg_id_is_curated(d.id) && !kmsg_id_is_auto(d.id)) {
		fprintf(stderr, "kmsg-doc: malformed id in the database\n");
		kmsg_doc_free(&d);
		return -EINVAL;
	}
	entry(c, d.id, &d, NULL, d.format);
	for (i = 0; i < d.naliases; i++)
		if (kmsg_id_is_auto(d.aliases[i].auto_id))
			entry(c, d.aliases[i].auto_id, &d, NULL, d.format);
	/* one entry per translation: the subject translated, the rest not */
	tr.c = c;
	tr.d = &d;
	ret = kmsg_docs_translations(c->docs, d.id, one_translation, &tr);
	if (ret < 0) {
		fprintf(stderr, "kmsg-doc: %s\n", kmsg_docs_errmsg(c->docs));
		kmsg_doc_free(&d);
		return ret;
	}
	kmsg_doc_free(&d);
	if (c->err)
		fprintf(stderr, "kmsg-doc: out of memory\n");
	return c->err;
}

int kmsg_journal_catalog(const char *db, const char *dir)
{
	struct jcat c = { 0 };
	char err[1024], path[4096];
	int ret;

	c.docs = kmsg_docs_open(db, err, sizeof(err));
	if (!c.docs) {
		fprintf(stderr, "kmsg-doc: %s\n", err);
		return 1;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/kmsg.catalog", dir) >=
	    sizeof(path)) {
		fprintf(stderr, "kmsg-doc: %s: path too long\n", dir);
		kmsg_docs_close(c.docs);
		return 1;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "kmsg-doc: %s: %s\n", dir, strerror(errno));
		kmsg_docs_close(c.docs);
		return 1;
	}
	c.f = fopen(path, "w");
	if (!c.f) {
		fprintf(stderr, "kmsg-doc: %s: %s\n", path, strerror(errno));
		kmsg_docs_close(c.docs);
		return 1;
	}
	fputs("# SPDX-License-Identifier: GPL-2.0\n"
	      "# Kernel messages of the kmsg docs database, by MESSAGE_ID\n"
	      "# (written by kmsg-doc journal-catalog; see kmsg(1), JOURNAL)\n\n",
	      c.f);
	ret = kmsg_docs_each(c.docs, one, &c);
	if (ret < 0)
		fprintf(stderr, "kmsg-doc: %s: %s\n", db, kmsg_docs_errmsg(c.docs));
	if (fclose(c.f) && !ret) {
		fprintf(stderr, "kmsg-doc: %s: %s\n", path, strerror(errno));
		ret = -EIO;
	}
	kmsg_docs_close(c.docs);
	kmsg_strbuf_free(&c.buf);
	if (ret < 0) {
		remove(path);
		return 1;
	}
	printf("%d catalog entries in %s\n", c.entries, path);
	return 0;
}
