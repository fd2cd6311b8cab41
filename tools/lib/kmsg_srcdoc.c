// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_srcdoc - shared helpers of kmsg-doc and the parser of in-source
 * message documentation.  See kmsg_srcdoc.h.
 */
#define _GNU_SOURCE		/* tdestroy() */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <search.h>

#include "kmsg_srcdoc.h"

static void __attribute__((noreturn)) kmsg_oom(void)
{
	fputs("kmsg-doc: out of memory\n", stderr);
	exit(2);
}

void *kmsg_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		kmsg_oom();
	return p;
}

void *kmsg_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		kmsg_oom();
	return p;
}

void *kmsg_xrealloc(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		kmsg_oom();
	p = realloc(p, nmemb && size ? nmemb * size : 1);
	if (!p)
		kmsg_oom();
	return p;
}

char *kmsg_xstrndup(const char *s, size_t n)
{
	char *p;

	if (n == SIZE_MAX)
		kmsg_oom();
	p = kmsg_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *kmsg_xstrdup(const char *s)
{
	return kmsg_xstrndup(s, strlen(s));
}

static void kmsg_sb_vprintf(struct kmsg_strbuf *sb, const char *fmt, va_list ap)
{
	char buf[256], *tmp;
	va_list aq;
	int n;

	/* most texts fit the stack buffer: formatted once */
	va_copy(aq, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, aq);
	va_end(aq);
	if (n < 0)
		kmsg_oom();
	if ((size_t)n < sizeof(buf)) {
		kmsg_sb_putn(sb, buf, (size_t)n);
		return;
	}
	tmp = kmsg_xmalloc((size_t)n + 1);
	vsnprintf(tmp, (size_t)n + 1, fmt, ap);
	kmsg_sb_putn(sb, tmp, (size_t)n);
	free(tmp);
}

char *kmsg_xvprintf(const char *fmt, va_list ap)
{
	struct kmsg_strbuf sb = { 0 };

	kmsg_sb_vprintf(&sb, fmt, ap);
	return kmsg_sb_take(&sb);
}

char *kmsg_xprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = kmsg_xvprintf(fmt, ap);
	va_end(ap);
	return s;
}

void kmsg_first_err(char **err, const char *fmt, ...)
{
	va_list ap;

	if (*err)
		return;
	va_start(ap, fmt);
	*err = kmsg_xvprintf(fmt, ap);
	va_end(ap);
}

void kmsg_sb_putn(struct kmsg_strbuf *sb, const char *s, size_t n)
{
	if (kmsg_strbuf_putn(sb, s, n))
		kmsg_oom();
}

void kmsg_sb_puts(struct kmsg_strbuf *sb, const char *s)
{
	kmsg_sb_putn(sb, s, strlen(s));
}

void kmsg_sb_putc(struct kmsg_strbuf *sb, char c)
{
	kmsg_sb_putn(sb, &c, 1);
}

void kmsg_sb_printf(struct kmsg_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kmsg_sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

char *kmsg_sb_take(struct kmsg_strbuf *sb)
{
	char *s = sb->buf;

	if (!s)
		return kmsg_xstrdup("");
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
	return s;
}

/* ---- keys seen ---- */

struct seen_key {
	unsigned int line;
	char key[];
};

unsigned long long kmsg_seen_compares;

static int seen_cmp(const void *a, const void *b)
{
	kmsg_seen_compares++;
	return strcmp(((const struct seen_key *)a)->key,
		      ((const struct seen_key *)b)->key);
}

unsigned int kmsg_seen_add(struct kmsg_seen *s, const char *key,
			   unsigned int line)
{
	size_t n = strlen(key);
	struct seen_key *k = kmsg_xmalloc(sizeof(*k) + n + 1);
	struct seen_key **found;

	k->line = line;
	memcpy(k->key, key, n + 1);
	found = tsearch(k, &s->root, seen_cmp);
	if (!found)
		kmsg_oom();
	if (*found != k) {
		free(k);
		return (*found)->line;
	}
	return 0;
}

unsigned int kmsg_seen_add_nr(struct kmsg_seen *s, unsigned int nr,
			      unsigned int line)
{
	char key[16];

	snprintf(key, sizeof(key), "%u", nr);
	return kmsg_seen_add(s, key, line);
}

void kmsg_seen_free(struct kmsg_seen *s)
{
	tdestroy(s->root, free);
	s->root = NULL;
}

/* Control bytes of untrusted text become '?' in diagnostics. */
static char *kmsg_sanitize(const char *s)
{
	char *p = kmsg_xstrdup(s ? s : "");
	unsigned char *q;

	for (q = (unsigned char *)p; *q; q++)
		if (*q < 0x20 || *q == 0x7f)
			*q = '?';
	return p;
}

void kmsg_diag_add(struct kmsg_diags *d, const char *file, unsigned int line,
		   bool error, const char *fmt, ...)
{
	struct kmsg_strbuf sb = { 0 };
	struct kmsg_diag *g;
	va_list ap;
	char *text;

	va_start(ap, fmt);
	kmsg_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	text = kmsg_sb_take(&sb);

	KMSG_GROW(d->v, d->cap, d->n);
	g = &d->v[d->n];
	g->file = kmsg_sanitize(file);
	g->line = line;
	g->error = error;
	g->text = kmsg_sanitize(text);
	g->seq = d->n;
	d->n++;
	free(text);
}

static int kmsg_diag_cmp(const void *a, const void *b)
{
	const struct kmsg_diag *x = a, *y = b;
	int r = strcmp(x->file, y->file);

	if (r)
		return r;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void kmsg_diags_sort(struct kmsg_diags *d)
{
	if (d->n > 1)
		qsort(d->v, d->n, sizeof(d->v[0]), kmsg_diag_cmp);
}

size_t kmsg_diags_errors(const struct kmsg_diags *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->v[i].error;
	return n;
}

void kmsg_diags_print(const struct kmsg_diags *d, FILE *f)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		fprintf(f, "%s:%u: %s: %s\n", d->v[i].file, d->v[i].line,
			d->v[i].error ? "error" : "warning", d->v[i].text);
}

void kmsg_diags_free(struct kmsg_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].text);
	}
	free(d->v);
	d->v = NULL;
	d->n = 0;
	d->cap = 0;
}

bool kmsg_parse_number(const char *s, size_t n, unsigned int *nr)
{
	unsigned long long v = 0;
	size_t i;

	if (!n || (s[0] == '0' && n > 1) || n > 10)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned int)(s[i] - '0');
	}
	if (v > UINT_MAX)
		return false;
	*nr = (unsigned int)v;
	return true;
}

bool kmsg_valid_component(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
	}
	return true;
}

bool kmsg_parse_id(const char *s, size_t n, char **comp, unsigned int *nr)
{
	const char *dot = NULL;
	size_t i;

	for (i = n; i > 0; i--) {
		if (s[i - 1] == '.') {
			dot = s + i - 1;
			break;
		}
	}
	if (!dot || !kmsg_valid_component(s, (size_t)(dot - s)) ||
	    !kmsg_parse_number(dot + 1, n - (size_t)(dot - s) - 1, nr))
		return false;
	*comp = kmsg_xstrndup(s, (size_t)(dot - s));
	return true;
}

int kmsg_id_cmp(const char *comp_a, unsigned int nr_a,
		const char *comp_b, unsigned int nr_b)
{
	int r = strcmp(comp_a, comp_b);

	if (r)
		return r;
	return nr_a < nr_b ? -1 : nr_a > nr_b;
}

void kmsg_escape(struct kmsg_strbuf *sb, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '\n':
			kmsg_sb_puts(sb, "\\n");
			break;
		case '\t':
			kmsg_sb_puts(sb, "\\t");
			break;
		case '\\':
			kmsg_sb_puts(sb, "\\\\");
			break;
		case '"':
			kmsg_sb_puts(sb, "\\\"");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				kmsg_sb_printf(sb, "\\%03o", *p);
			else
				kmsg_sb_putc(sb, (char)*p);
		}
	}
}

char *kmsg_escaped(const char *s)
{
	struct kmsg_strbuf sb = { 0 };

	kmsg_escape(&sb, s);
	return kmsg_sb_take(&sb);
}

void kmsg_catalog_field(struct kmsg_strbuf *sb, const char *name,
			const char *value)
{
	size_t n = strlen(value);
	bool quote = n && (value[0] == ' ' || value[0] == '\t' ||
			   value[0] == '"' || value[n - 1] == ' ' ||
			   value[n - 1] == '\t');

	kmsg_sb_puts(sb, name);
	kmsg_sb_puts(sb, quote ? ": \"" : ": ");
	kmsg_escape(sb, value);
	kmsg_sb_puts(sb, quote ? "\"\n" : "\n");
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

size_t kmsg_rtrim(const char *s, size_t n)
{
	while (n && is_blank(s[n - 1]))
		n--;
	return n;
}

char *kmsg_normalize_text(const char *s)
{
	struct kmsg_strbuf sb = { 0 };
	size_t newlines = 0;
	bool space = false;

	for (; *s; s++) {
		if (*s == '\n') {
			newlines++;
			space = true;
		} else if (is_blank(*s)) {
			space = true;
		} else {
			if (sb.len && newlines >= 2)
				kmsg_sb_puts(&sb, "\n\n");
			else if (sb.len && space)
				kmsg_sb_putc(&sb, ' ');
			kmsg_sb_putc(&sb, *s);
			newlines = 0;
			space = false;
		}
	}
	return kmsg_sb_take(&sb);
}

struct kmsg_doc *kmsg_doc_new(enum kmsg_doc_source source, const char *file)
{
	struct kmsg_doc *doc = kmsg_xcalloc(1, sizeof(*doc));

	doc->source = source;
	doc->file = kmsg_xstrdup(file);
	doc->description = kmsg_xstrdup("");
	doc->user_response = kmsg_xstrdup("");
	doc->see_also = kmsg_xstrdup("");
	return doc;
}

void kmsg_doc_set_id(struct kmsg_doc *doc, const char *comp, unsigned int nr)
{
	free(doc->component);
	free(doc->id);
	doc->component = kmsg_xstrdup(comp);
	doc->number = nr;
	doc->id = kmsg_xprintf("%s.%u", comp, nr);
}

void kmsg_srcdoc_doc_free(struct kmsg_doc *doc)
{
	size_t i;

	if (!doc)
		return;
	free(doc->component);
	free(doc->id);
	free(doc->file);
	free(doc->format);
	free(doc->severity);
	free(doc->description);
	free(doc->user_response);
	free(doc->see_also);
	for (i = 0; i < doc->nparams; i++)
		free(doc->params[i].text);
	free(doc->params);
	for (i = 0; i < doc->ntrans; i++) {
		free(doc->trans[i].locale);
		free(doc->trans[i].format);
	}
	free(doc->trans);
	free(doc->modname);
	free(doc->report_title);
	free(doc->report_skip);
	free(doc->report_skip_any);
	free(doc->report_strip);
	free(doc->report_after);
	free(doc->report_anchor);
	free(doc->report_name);
	free(doc->report_frame_line);
	free(doc->report_corrupt);
	free(doc->report_continues);
	free(doc->report_ignore);
	free(doc->report_of);
	free(doc->report_at);
	for (i = 0; i < doc->naliases; i++) {
		free(doc->aliases[i].auto_id);
		free(doc->aliases[i].modname);
		free(doc->aliases[i].format);
	}
	free(doc->aliases);
	free(doc);
}

void kmsg_docs_add(struct kmsg_docs *docs, struct kmsg_doc *doc)
{
	KMSG_GROW(docs->v, docs->cap, docs->n);
	docs->v[docs->n++] = doc;
}

void kmsg_docs_free(struct kmsg_docs *docs)
{
	size_t i;

	for (i = 0; i < docs->n; i++)
		kmsg_srcdoc_doc_free(docs->v[i]);
	free(docs->v);
	docs->v = NULL;
	docs->n = 0;
	docs->cap = 0;
}

static int param_cmp(const void *a, const void *b)
{
	const struct kmsg_param *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int trans_cmp(const void *a, const void *b)
{
	const struct kmsg_trans *x = a, *y = b;

	return strcmp(x->locale, y->locale);
}

void kmsg_doc_sort(struct kmsg_doc *doc)
{
	if (doc->nparams > 1)
		qsort(doc->params, doc->nparams, sizeof(doc->params[0]), param_cmp);
	if (doc->ntrans > 1)
		qsort(doc->trans, doc->ntrans, sizeof(doc->trans[0]), trans_cmp);
}

/* ---- the in-source form ---- */

enum section { SEC_NONE, SEC_PARAM, SEC_DESC, SEC_URESP };

struct comment_state {
	const char *file;
	struct kmsg_diags *diags;
	struct kmsg_doc *doc;
	enum section sec;
	bool have_desc, have_uresp;
	bool brk;			/* a blank line since the last text */
	struct kmsg_strbuf desc, uresp;
	struct kmsg_strbuf param;	/* text of the current @N */
	unsigned int param_pos, param_line;
	struct kmsg_seen params;	/* the @N so far */
};

static void end_param(struct comment_state *st)
{
	struct kmsg_doc *doc = st->doc;
	struct kmsg_param *p;

	if (st->sec != SEC_PARAM)
		return;
	KMSG_GROW(doc->params, doc->capparams, doc->nparams);
	p = &doc->params[doc->nparams++];
	p->pos = st->param_pos;
	p->line = st->param_line;
	p->text = kmsg_sb_take(&st->param);
	st->sec = SEC_NONE;
}

/* "Description:" or "User Response:" at the start of s: length, else 0 */
static size_t section_header(const char *s, size_t n, const char *name)
{
	size_t k = strlen(name);

	if (n < k || strncasecmp(s, name, k))
		return 0;
	return k;
}

static void section_text(struct comment_state *st, struct kmsg_strbuf *sb,
			 const char *s, size_t n)
{
	if (!n)
		return;
	if (sb->len)
		kmsg_sb_puts(sb, st->brk ? "\n\n" : "\n");
	kmsg_sb_putn(sb, s, n);
	st->brk = false;
}

/* One line of the comment, leading " * " and trailing blanks removed. */
static void comment_line(struct comment_state *st, const char *s, size_t n,
			 unsigned int line)
{
	size_t k;

	if (!n) {
		if (st->sec == SEC_PARAM)
			end_param(st);
		else
			st->brk = true;
		return;
	}

	if (s[0] == '@') {
		unsigned int pos;
		const char *colon = memchr(s, ':', n);

		end_param(st);
		if (!colon || !kmsg_parse_number(s + 1, (size_t)(colon - s - 1), &pos)) {
			kmsg_diag_add(st->diags, st->file, line, true,
				      "parameter line is not \"@N: text\"");
			st->sec = SEC_NONE;
			return;
		}
		if (kmsg_seen_add_nr(&st->params, pos, line)) {
			kmsg_diag_add(st->diags, st->file, line, true,
				      "parameter @%u documented twice", pos);
			st->sec = SEC_NONE;
			return;
		}
		st->sec = SEC_PARAM;
		st->param_pos = pos;
		st->param_line = line;
		k = (size_t)(colon - s) + 1;
		while (k < n && is_blank(s[k]))
			k++;
		kmsg_sb_putn(&st->param, s + k, n - k);
		return;
	}

	k = section_header(s, n, "Description:");
	if (!k)
		k = section_header(s, n, "User Response:");
	if (k) {
		bool desc = s[0] == 'D' || s[0] == 'd';
		bool *have = desc ? &st->have_desc : &st->have_uresp;

		end_param(st);
		if (*have) {
			kmsg_diag_add(st->diags, st->file, line, true,
				      "%s given twice",
				      desc ? "Description:" : "User Response:");
		}
		*have = true;
		st->sec = desc ? SEC_DESC : SEC_URESP;
		st->brk = false;
		while (k < n && is_blank(s[k]))
			k++;
		section_text(st, desc ? &st->desc : &st->uresp, s + k, n - k);
		return;
	}

	switch (st->sec) {
	case SEC_PARAM:
		if (st->param.len)
			kmsg_sb_putc(&st->param, ' ');
		kmsg_sb_putn(&st->param, s, n);
		break;
	case SEC_DESC:
		section_text(st, &st->desc, s, n);
		break;
	case SEC_URESP:
		section_text(st, &st->uresp, s, n);
		break;
	case SEC_NONE:
		kmsg_diag_add(st->diags, st->file, line, true,
			      "text outside the sections of a doc comment");
		break;
	}
}

/*
 * Next line of a comment body: [*s, *s + *n) trimmed; advances *p.
 * first: the line right after the opening, which has no leading '*'.
 */
static bool next_line(const char **p, const char *end, const char **s,
		      size_t *n, bool first)
{
	const char *q = *p, *nl;

	if (q > end)
		return false;
	nl = memchr(q, '\n', (size_t)(end - q));
	if (!nl)
		nl = end;
	*p = nl + 1;
	while (q < nl && is_blank(*q))
		q++;
	if (!first && q < nl && *q == '*') {
		q++;
		while (q < nl && is_blank(*q))
			q++;
	}
	*s = q;
	*n = kmsg_rtrim(q, (size_t)(nl - q));
	return true;
}

/* Is the comment body [body, end) (after the two stars) a message doc? */
static bool is_message_comment(const char *body, const char *end)
{
	const char *p = body, *s;
	size_t n;
	bool first = true;

	while (next_line(&p, end, &s, &n, first)) {
		first = false;
		if (!n)
			continue;
		return n == 7 && !memcmp(s, "message", 7);
	}
	return false;
}

/*
 * Parse the body of a message doc comment (after its opening) into a new
 * doc without identifier.
 */
static struct kmsg_doc *parse_doc_comment(const char *file, const char *body,
					  const char *end, unsigned int line,
					  struct kmsg_diags *diags)
{
	struct comment_state st = {
		.file = file,
		.diags = diags,
		.sec = SEC_NONE,
	};
	const char *p = body, *s;
	size_t n;
	bool first = true, seen_message = false;

	st.doc = kmsg_doc_new(KMSG_DOC_SOURCE, file);
	st.doc->described = true;
	while (next_line(&p, end, &s, &n, first)) {
		first = false;
		if (!seen_message) {
			if (n)
				seen_message = true;
		} else {
			comment_line(&st, s, n, line);
		}
		line++;
	}
	end_param(&st);
	kmsg_seen_free(&st.params);
	free(st.doc->description);
	free(st.doc->user_response);
	st.doc->description = kmsg_sb_take(&st.desc);
	st.doc->user_response = kmsg_sb_take(&st.uresp);
	kmsg_doc_sort(st.doc);
	return st.doc;
}

/* A cursor over the source text, counting lines */
struct cursor {
	const char *s;
	size_t len, i;
	unsigned int line;
};

static void skip_space(struct cursor *c)
{
	while (c->i < c->len) {
		char ch = c->s[c->i];

		if (ch == '\n') {
			c->line++;
		} else if (ch == '\\' && c->i + 1 < c->len && c->s[c->i + 1] == '\n') {
			c->line++;
			c->i++;
		} else if (!is_blank(ch)) {
			break;
		}
		c->i++;
	}
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static char simple_escape(char c)
{
	switch (c) {
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case 'r':
		return '\r';
	case 'a':
		return '\a';
	case 'b':
		return '\b';
	case 'f':
		return '\f';
	default:
		return '\v';
	}
}

/* One C string literal at c (which is at '"'), unescaped onto sb. */
static bool string_literal(struct cursor *c, struct kmsg_strbuf *sb,
			   const char **err)
{
	c->i++;
	for (;;) {
		unsigned int v;
		char ch;
		int k;

		if (c->i >= c->len || c->s[c->i] == '\n') {
			*err = "unterminated string literal";
			return false;
		}
		ch = c->s[c->i++];
		if (ch == '"')
			return true;
		if (ch == '\0') {
			*err = "NUL byte in the format";
			return false;
		}
		if (ch != '\\') {
			kmsg_sb_putc(sb, ch);
			continue;
		}
		if (c->i >= c->len) {
			*err = "unterminated string literal";
			return false;
		}
		ch = c->s[c->i++];
		switch (ch) {
		case 'n': case 't': case 'r': case 'a': case 'b': case 'f': case 'v':
			kmsg_sb_putc(sb, simple_escape(ch));
			continue;
		case '\\': case '"': case '\'': case '?':
			kmsg_sb_putc(sb, ch);
			continue;
		case '\n':
			c->line++;
			continue;
		case 'x':
			v = 0;
			k = 0;
			while (c->i < c->len && kmsg_hexval(c->s[c->i]) >= 0) {
				v = v * 16 +
				    (unsigned int)kmsg_hexval(c->s[c->i++]);
				if (v > 0xff) {
					*err = "hex escape out of range";
					return false;
				}
				k++;
			}
			if (!k) {
				*err = "\\x without hex digits";
				return false;
			}
			break;
		default:
			if (ch < '0' || ch > '7') {
				*err = "unknown escape sequence";
				return false;
			}
			v = (unsigned int)(ch - '0');
			for (k = 1; k < 3 && c->i < c->len &&
			     c->s[c->i] >= '0' && c->s[c->i] <= '7'; k++)
				v = v * 8 + (unsigned int)(c->s[c->i++] - '0');
			if (v > 0xff) {
				*err = "octal escape out of range";
				return false;
			}
			break;
		}
		if (!v) {
			*err = "NUL byte in the format";
			return false;
		}
		kmsg_sb_putc(sb, (char)v);
	}
}

/*
 * The arguments of KMSG_DOC, c right after the name and at '(' (after
 * blanks).  On success *comp and *fmt are malloc()ed.
 */
static bool kmsg_doc_args(struct cursor *c, char **comp, unsigned int *nr,
			  char **fmt, const char **err)
{
	struct kmsg_strbuf sb = { 0 };
	size_t start;

	skip_space(c);
	if (c->i >= c->len || c->s[c->i] != '(') {
		*err = "expected '('";
		return false;
	}
	c->i++;
	skip_space(c);
	start = c->i;
	while (c->i < c->len && is_ident(c->s[c->i]))
		c->i++;
	if (c->i == start) {
		*err = "expected the component";
		return false;
	}
	*comp = kmsg_xstrndup(c->s + start, c->i - start);
	skip_space(c);
	if (c->i >= c->len || c->s[c->i] != ',') {
		*err = "expected ',' after the component";
		goto fail;
	}
	c->i++;
	skip_space(c);
	start = c->i;
	while (c->i < c->len && is_ident(c->s[c->i]))
		c->i++;
	if (!kmsg_parse_number(c->s + start, c->i - start, nr)) {
		*err = "the number is not a decimal number without leading zeros";
		goto fail;
	}
	skip_space(c);
	if (c->i >= c->len || c->s[c->i] != ',') {
		*err = "expected ',' after the number";
		goto fail;
	}
	c->i++;
	skip_space(c);
	if (c->i >= c->len || c->s[c->i] != '"') {
		*err = "expected a string literal";
		goto fail;
	}
	while (c->i < c->len && c->s[c->i] == '"') {
		if (!string_literal(c, &sb, err))
			goto fail;
		skip_space(c);
	}
	if (c->i >= c->len || c->s[c->i] != ')') {
		*err = "expected ')' after the format";
		goto fail;
	}
	c->i++;
	*fmt = kmsg_sb_take(&sb);
	return true;
fail:
	kmsg_strbuf_free(&sb);
	free(*comp);
	*comp = NULL;
	return false;
}

static unsigned int count_lines(const char *s, size_t n)
{
	unsigned int k = 0;
	const char *p = s, *end = s + n;

	while ((p = memchr(p, '\n', (size_t)(end - p)))) {
		k++;
		p++;
	}
	return k;
}

struct src_state {
	const char *file;
	struct kmsg_docs *docs;
	struct kmsg_diags *diags;
	struct kmsg_doc *pending;	/* doc comment waiting for KMSG_DOC */
	unsigned int pending_line;
};

static void drop_pending(struct src_state *st)
{
	if (!st->pending)
		return;
	kmsg_diag_add(st->diags, st->file, st->pending_line, true,
		      "doc comment without KMSG_DOC");
	kmsg_srcdoc_doc_free(st->pending);
	st->pending = NULL;
}

/* KMSG_DOC at c (right after the name), on line kline */
static void handle_kmsg_doc(struct src_state *st, struct cursor *c,
			    unsigned int kline)
{
	struct cursor probe = *c;
	char *comp = NULL, *fmt = NULL;
	const char *err = NULL;
	struct kmsg_doc *doc;
	unsigned int nr;

	skip_space(&probe);
	if (probe.i >= probe.len || probe.s[probe.i] != '(') {
		/* the bare word, not a use */
		drop_pending(st);
		return;
	}
	if (!kmsg_doc_args(c, &comp, &nr, &fmt, &err)) {
		kmsg_diag_add(st->diags, st->file, c->line, true,
			      "malformed KMSG_DOC: %s", err);
		kmsg_srcdoc_doc_free(st->pending);
		st->pending = NULL;
		return;
	}
	doc = st->pending;
	st->pending = NULL;
	if (!doc) {
		kmsg_diag_add(st->diags, st->file, kline, false,
			      "KMSG_DOC(%s, %u) without a doc comment", comp, nr);
		free(comp);
		free(fmt);
		return;
	}
	kmsg_doc_set_id(doc, comp, nr);
	doc->line = kline;
	doc->format = fmt;
	doc->format_line = kline;
	if (!doc->description[0])
		kmsg_diag_add(st->diags, st->file, kline, true,
			      "%s: no description documented", doc->id);
	kmsg_docs_add(st->docs, doc);
	free(comp);
}

void kmsg_srcdoc_parse(const char *file, const char *text, size_t len,
		       struct kmsg_docs *docs, struct kmsg_diags *diags)
{
	struct src_state st = { .file = file, .docs = docs, .diags = diags };
	struct cursor c = { .s = text, .len = len, .i = 0, .line = 1 };
	bool line_start = true, in_pp = false;

	while (c.i < len) {
		char ch = text[c.i];

		if (ch == '\n') {
			c.line++;
			c.i++;
			line_start = true;
			in_pp = false;
			continue;
		}
		if (ch == '\\' && c.i + 1 < len && text[c.i + 1] == '\n') {
			c.line++;
			c.i += 2;
			continue;
		}
		if (is_blank(ch)) {
			c.i++;
			continue;
		}
		if (ch == '/' && c.i + 1 < len && text[c.i + 1] == '*') {
			const char *body = text + c.i + 2, *end;
			size_t rest = len - c.i - 2, k;
			bool doc, star;

			drop_pending(&st);
			end = NULL;
			for (k = 0; k + 1 < rest; k++) {
				if (body[k] == '*' && body[k + 1] == '/') {
					end = body + k;
					break;
				}
			}
			/*
			 * A message doc opens with slash-star alone on its
			 * line, or with slash-star-star, which is warned
			 * about: kernel-doc reads such comments.
			 */
			star = rest >= 1 && body[0] == '*';
			doc = rest >= (size_t)star + 1 &&
			      (body[star] == '\n' || body[star] == '\r' ||
			       (star && (body[1] == ' ' || body[1] == '\t'))) &&
			      is_message_comment(body + star,
						 end ? end : text + len);
			if (!end) {
				kmsg_diag_add(diags, file, c.line, true,
					      doc ? "unterminated doc comment" :
					      "unterminated comment");
				return;
			}
			if (doc) {
				if (star)
					kmsg_diag_add(diags, file, c.line, false,
						      "message doc opened with \"/**\": kernel-doc would read it; use \"/*\"");
				st.pending = parse_doc_comment(file, body + star, end,
							       c.line, diags);
				st.pending_line = c.line;
			}
			k = (size_t)(end + 2 - (text + c.i));
			c.line += count_lines(text + c.i, k);
			c.i += k;
			line_start = false;
			continue;
		}
		if (ch == '/' && c.i + 1 < len && text[c.i + 1] == '/') {
			drop_pending(&st);
			while (c.i < len && text[c.i] != '\n') {
				if (text[c.i] == '\\' && c.i + 1 < len &&
				    text[c.i + 1] == '\n') {
					c.line++;
					c.i++;
				}
				c.i++;
			}
			continue;
		}
		if (is_ident(ch) && !(ch >= '0' && ch <= '9')) {
			size_t start = c.i;

			while (c.i < len && is_ident(text[c.i]))
				c.i++;
			if (!in_pp && c.i - start == 8 &&
			    !memcmp(text + start, "KMSG_DOC", 8))
				handle_kmsg_doc(&st, &c, c.line);
			else
				drop_pending(&st);
			line_start = false;
			continue;
		}

		drop_pending(&st);
		if (ch == '#' && line_start)
			in_pp = true;
		line_start = false;
		if (ch >= '0' && ch <= '9') {
			/* a preprocessing number: 0x1f, 1e+5, 10UL */
			c.i++;
			while (c.i < len && (is_ident(text[c.i]) || text[c.i] == '.' ||
			       ((text[c.i] == '+' || text[c.i] == '-') &&
				strchr("eEpP", text[c.i - 1]))))
				c.i++;
			continue;
		}
		if (ch == '"' || ch == '\'') {
			c.i++;
			while (c.i < len && text[c.i] != ch && text[c.i] != '\n') {
				if (text[c.i] == '\\' && c.i + 1 < len) {
					if (text[c.i + 1] == '\n')
						c.line++;
					c.i++;
				}
				c.i++;
			}
			if (c.i < len && text[c.i] == ch)
				c.i++;
			continue;
		}
		c.i++;
	}
	drop_pending(&st);
}
