// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_catalog - message catalogs and the printf format scanner.
 * See kmsg_catalog.h and docs-db/FORMAT.md.
 */
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_catalog.h"
#include "kmsg_hash.h"

/* ---- formats ---- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void fmt_add(struct kmsg_fmt *f, const struct kmsg_conv *cv)
{
	KMSG_GROW(f->v, f->cap, f->n);
	f->v[f->n++] = *cv;
	if (cv->conv != '%')
		f->values++;
}

void kmsg_fmt_scan(const char *fmt, bool positional, struct kmsg_fmt *out)
{
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	while (fmt[i]) {
		struct kmsg_conv cv = { 0 };
		size_t j;
		char c;

		if (fmt[i] != '%') {
			i++;
			continue;
		}
		cv.off = i;
		j = i + 1;
		if (fmt[j] == '%') {
			cv.conv = '%';
			cv.len = 2;
			fmt_add(out, &cv);
			i = j + 1;
			continue;
		}
		if (positional && is_digit(fmt[j])) {
			unsigned long v = 0;
			size_t k = j;

			while (is_digit(fmt[k])) {
				if (v < 1000000)
					v = v * 10 + (unsigned long)(fmt[k] - '0');
				k++;
			}
			if (fmt[k] == '$') {
				/* 0 stays 0 and is reported as unknown */
				cv.pos = (unsigned int)v;
				j = k + 1;
			}
		}
		while (fmt[j] && strchr("-+ #0", fmt[j]))
			j++;
		if (fmt[j] == '*') {
			cv.width_star = true;
			j++;
		} else {
			while (is_digit(fmt[j]))
				j++;
		}
		if (fmt[j] == '.') {
			j++;
			if (fmt[j] == '*') {
				cv.prec_star = true;
				j++;
			} else {
				while (is_digit(fmt[j]))
					j++;
			}
		}
		if (fmt[j] == 'h' || fmt[j] == 'l') {
			cv.qual = fmt[j];
			if (fmt[j + 1] == fmt[j]) {
				cv.qual = fmt[j] == 'h' ? 'H' : 'L';
				j++;
			}
			j++;
		} else if (fmt[j] == 'z' || fmt[j] == 't') {
			cv.qual = fmt[j++];
		}
		c = fmt[j];
		if (!c || !strchr("diuxXocsp", c)) {
			out->invalid = true;
			out->bad_off = i;
			return;
		}
		cv.conv = c;
		j++;
		if (c == 'p')
			while (is_alnum(fmt[j]))
				j++;
		cv.len = j - i;
		fmt_add(out, &cv);
		i = j;
	}
}

void kmsg_fmt_free(struct kmsg_fmt *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

size_t kmsg_fmt_values(const char *fmt)
{
	struct kmsg_fmt f;
	size_t n;

	kmsg_fmt_scan(fmt, false, &f);
	n = f.values;
	kmsg_fmt_free(&f);
	return n;
}

/* The conversion's group: d/i, u/x/X/o, or itself */
static char conv_group(char c)
{
	switch (c) {
	case 'i':
		return 'd';
	case 'x': case 'X': case 'o':
		return 'u';
	default:
		return c;
	}
}

/* Whether cv (of a translation) was written "%N$..." */
static bool conv_positional(const char *fmt, const struct kmsg_conv *cv)
{
	size_t k = cv->off + 1;

	if (!is_digit(fmt[k]))
		return false;
	while (is_digit(fmt[k]))
		k++;
	return fmt[k] == '$';
}

static void put_conv(struct kmsg_strbuf *sb, const char *fmt,
		     const struct kmsg_conv *cv)
{
	char *s = kmsg_xstrndup(fmt + cv->off, cv->len);

	kmsg_escape(sb, s);
	free(s);
}

bool kmsg_trans_check(const char *orig, const char *tr, struct kmsg_strbuf *why)
{
	struct kmsg_fmt o, t;
	const struct kmsg_conv **ov;
	size_t i, k = 0, npos = 0;
	bool ok = false;

	kmsg_fmt_scan(orig, false, &o);
	kmsg_fmt_scan(tr, true, &t);
	ov = kmsg_xcalloc(o.values + 1, sizeof(*ov));
	for (i = 0; i < o.n; i++)
		if (o.v[i].conv != '%')
			ov[k++] = &o.v[i];

	if (t.invalid) {
		size_t n = strlen(tr + t.bad_off);
		char *s = kmsg_xstrndup(tr + t.bad_off, n < 6 ? n : 6);

		kmsg_sb_puts(why, "invalid conversion \"");
		kmsg_escape(why, s);
		kmsg_sb_puts(why, n > 6 ? "...\"" : "\"");
		free(s);
		goto out;
	}
	for (i = 0; i < t.n; i++)
		if (t.v[i].conv != '%' && conv_positional(tr, &t.v[i]))
			npos++;
	if (npos && npos != t.values) {
		kmsg_sb_puts(why, "positional and non-positional conversions mixed");
		goto out;
	}

	k = 0;
	for (i = 0; i < t.n; i++) {
		const struct kmsg_conv *cv = &t.v[i], *oc;
		size_t ref;

		if (cv->conv == '%')
			continue;
		if (npos) {
			if (!cv->pos || cv->pos > o.values) {
				kmsg_sb_puts(why, "unknown positional reference \"");
				put_conv(why, tr, cv);
				kmsg_sb_printf(why, "\" (the format has %zu conversions)",
					       o.values);
				goto out;
			}
			ref = cv->pos - 1;
		} else {
			ref = k++;
			if (ref >= o.values) {
				kmsg_sb_printf(why, "more conversions than the format's %zu",
					       o.values);
				goto out;
			}
		}
		oc = ov[ref];
		if (conv_group(cv->conv) != conv_group(oc->conv)) {
			kmsg_sb_puts(why, "conversion \"");
			put_conv(why, tr, cv);
			kmsg_sb_puts(why, "\" is not of the type of \"");
			put_conv(why, orig, oc);
			kmsg_sb_puts(why, "\"");
			goto out;
		}
		if ((cv->width_star && !oc->width_star) ||
		    (cv->prec_star && !oc->prec_star)) {
			kmsg_sb_puts(why, "conversion \"");
			put_conv(why, tr, cv);
			kmsg_sb_puts(why, "\" has a '*' that \"");
			put_conv(why, orig, oc);
			kmsg_sb_puts(why, "\" does not have");
			goto out;
		}
	}
	ok = true;
out:
	free(ov);
	kmsg_fmt_free(&o);
	kmsg_fmt_free(&t);
	return ok;
}

static const char *const level_names[8] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

const char *kmsg_level_name(unsigned int level)
{
	return level < 8 ? level_names[level] : NULL;
}

int kmsg_level_of(const char *name)
{
	int i;

	for (i = 0; i < 8; i++)
		if (!strcmp(name, level_names[i]))
			return i;
	return -1;
}

/* ---- automatic ids ---- */

static bool is_modname_char(char c)
{
	return is_alnum(c) || c == '_';
}

bool kmsg_valid_modname(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!is_modname_char(s[i]))
			return false;
	return true;
}

bool kmsg_valid_auto_id(const char *s, size_t n)
{
	size_t i;

	/* "MODNAME.h" and 8 lowercase hex digits */
	if (n < 11 || s[n - 10] != '.' || s[n - 9] != 'h' ||
	    !kmsg_valid_modname(s, n - 10))
		return false;
	for (i = n - 8; i < n; i++)
		if (!is_digit(s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			return false;
	return true;
}

char *kmsg_catalog_auto_id(const char *modname, const char *fmt)
{
	return kmsg_xprintf("%s.h%08x", modname,
			    (unsigned int)kmsg_fmt_hash(fmt, strlen(fmt)));
}

/* ---- catalogs ---- */

enum field {
	F_NONE,
	F_ID,
	F_SEVERITY,
	F_FORMAT,
	F_PARAMETER,
	F_DESCRIPTION,
	F_URESP,
	F_SEEALSO,
	F_TRANSLATION,
	F_MODNAME,
	F_AUTOID,
	F_RTITLE,
	F_RSKIP,
	F_RSKIPANY,
	F_RSTRIP,
	F_ROF,
	F_RAT,
	F_RFRAME,
	F_RAFTER,
	F_RANCHOR,
	F_RNAME,
	F_RFLINE,
	F_RCORRUPT,
	F_RFOLLOWS,
	F_RCONT,
	F_RIGNORE,
	F_RSTACK,
};

static const struct {
	const char *name;
	enum field field;
} fields[] = {
	{ "id", F_ID },
	{ "severity", F_SEVERITY },
	{ "format", F_FORMAT },
	{ "parameter", F_PARAMETER },
	{ "description", F_DESCRIPTION },
	{ "user-response", F_URESP },
	{ "see-also", F_SEEALSO },
	{ "modname", F_MODNAME },
	{ "auto-id", F_AUTOID },
	{ "report-title", F_RTITLE },
	{ "report-skip", F_RSKIP },
	{ "report-skip-any", F_RSKIPANY },
	{ "report-strip", F_RSTRIP },
	{ "report-of", F_ROF },
	{ "report-at", F_RAT },
	{ "report-frame", F_RFRAME },
	{ "report-after", F_RAFTER },
	{ "report-anchor", F_RANCHOR },
	{ "report-name", F_RNAME },
	{ "report-frame-line", F_RFLINE },
	{ "report-corrupt-frame", F_RCORRUPT },
	{ "report-follows", F_RFOLLOWS },
	{ "report-continues", F_RCONT },
	{ "report-ignore", F_RIGNORE },
	{ "report-stack", F_RSTACK },
};

struct cat_state {
	const char *path, *comp;
	struct kmsg_docs *docs;
	struct kmsg_diags *diags;
	struct kmsg_seen ids;		/* the numbers of the file's ids */

	/* the current entry */
	bool active, failed;
	struct kmsg_doc *doc;
	unsigned int seen;		/* bit per field */
	/* its parameters, automatic ids and translations' locales */
	struct kmsg_seen params, autos, locales;
	/* the current field */
	enum field field;
	unsigned int field_line;
	char *locale;
	struct kmsg_strbuf val;
};

/* An error that ends the entry; only ever called with a literal format */
static void __attribute__((format(printf, 3, 4)))
cat_error(struct cat_state *st, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	char *tmp;

	va_start(ap, fmt);
	tmp = kmsg_xvprintf(fmt, ap);
	va_end(ap);
	kmsg_diag_add(st->diags, st->path, line, true, "%s", tmp);
	free(tmp);
	st->failed = true;
}

/*
 * Unescape \n \t \\ \" of a format or translation; NULL on error. A
 * value in double quotes keeps the blanks at its ends: "   %s" is the
 * format of three spaces and a string.
 */
static char *cat_unescape(struct cat_state *st, const char *s, unsigned int line,
			  const char *name)
{
	struct kmsg_strbuf sb = { 0 };
	bool quoted = *s == '"';
	const char *bad;

	for (s += quoted; *s; s++) {
		if (quoted && *s == '"') {
			if (!s[1])
				return kmsg_sb_take(&sb);
			break;
		}
		if (*s != '\\') {
			/* the run up to the next escape or quote, at once */
			size_t n = strcspn(s, quoted ? "\\\"" : "\\");

			kmsg_sb_putn(&sb, s, n);
			s += n - 1;
			continue;
		}
		switch (s[1]) {
		case 'n':
			kmsg_sb_putc(&sb, '\n');
			break;
		case 't':
			kmsg_sb_putc(&sb, '\t');
			break;
		case '\\': case '"':
			kmsg_sb_putc(&sb, s[1]);
			break;
		default:
			bad = "unknown escape sequence (only \\n \\t \\\\ \\\" are allowed)";
			goto fail;
		}
		s++;
	}
	if (!quoted)
		return kmsg_sb_take(&sb);
	bad = "a quoted value must end with its closing \" (write a \" inside as \\\")";
fail:
	kmsg_diag_add(st->diags, st->path, line, true, "%s: %s", name, bad);
	st->failed = true;
	kmsg_strbuf_free(&sb);
	return NULL;
}

/* Trim blanks and newlines at both ends, in place */
static char *trim(char *s)
{
	size_t n = strlen(s), k = 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	s[n] = '\0';
	while (s[k] == '\n' || s[k] == ' ' || s[k] == '\t')
		k++;
	memmove(s, s + k, n - k + 1);
	return s;
}

static void field_id(struct cat_state *st, char *v)
{
	unsigned int nr, first;
	char *comp;

	if (!kmsg_parse_id(v, strlen(v), &comp, &nr)) {
		cat_error(st, st->field_line, "malformed id \"%s\"", v);
		return;
	}
	st->doc = kmsg_doc_new(KMSG_DOC_CATALOG, st->path);
	kmsg_doc_set_id(st->doc, comp, nr);
	st->doc->line = st->field_line;
	if (strcmp(comp, st->comp)) {
		kmsg_diag_add(st->diags, st->path, st->field_line, true,
			      "the component of %s is not the file's (%s)",
			      st->doc->id, st->comp);
		st->failed = true;
		free(comp);
		return;
	}
	free(comp);
	first = kmsg_seen_add_nr(&st->ids, nr, st->field_line);
	if (first) {
		kmsg_diag_add(st->diags, st->path, st->field_line, true,
			      "duplicate id %s, first at line %u",
			      st->doc->id, first);
		st->failed = true;
	}
}

static void field_parameter(struct cat_state *st, char *v)
{
	struct kmsg_doc *doc = st->doc;
	unsigned int pos;
	size_t k = 1;

	while (is_digit(v[k]))
		k++;
	if (v[0] != '@' || !kmsg_parse_number(v + 1, k - 1, &pos) ||
	    (v[k] != ' ' && v[k] != '\t')) {
		cat_error(st, st->field_line, "parameter is not \"@N text\"");
		return;
	}
	while (v[k] == ' ' || v[k] == '\t')
		k++;
	if (!v[k]) {
		cat_error(st, st->field_line, "parameter is not \"@N text\"");
		return;
	}
	if (kmsg_seen_add_nr(&st->params, pos, st->field_line)) {
		kmsg_diag_add(st->diags, st->path, st->field_line, true,
			      "parameter @%u given twice", pos);
		st->failed = true;
		return;
	}
	KMSG_GROW(doc->params, doc->capparams, doc->nparams);
	doc->params[doc->nparams].pos = pos;
	doc->params[doc->nparams].line = st->field_line;
	doc->params[doc->nparams].text = kmsg_xstrdup(v + k);
	doc->nparams++;
}

static void field_see_also(struct cat_state *st, const char *v)
{
	struct kmsg_strbuf sb = { 0 };
	const char *p = v;

	while (*p) {
		size_t n = strcspn(p, " \t\n,");

		if (n) {
			if (sb.len)
				kmsg_sb_putc(&sb, ' ');
			kmsg_sb_putn(&sb, p, n);
			p += n;
		} else {
			p++;
		}
	}
	free(st->doc->see_also);
	st->doc->see_also = kmsg_sb_take(&sb);
}

static void add_alias(struct kmsg_doc *doc, char *auto_id, char *modname,
		      char *format, unsigned int line)
{
	KMSG_GROW(doc->aliases, doc->capaliases, doc->naliases);
	doc->aliases[doc->naliases].auto_id = auto_id;
	doc->aliases[doc->naliases].modname = modname;
	doc->aliases[doc->naliases].format = format;
	doc->aliases[doc->naliases].line = line;
	doc->naliases++;
}

/* "auto-id: MODNAME.hXXXXXXXX" or "auto-id: MODNAME "FORMAT"" */
static void field_auto_id(struct cat_state *st, const char *v)
{
	size_t n = strlen(v), k = 0, j;
	char *modname, *fmt = NULL, *auto_id;
	unsigned int dup;

	while (is_modname_char(v[k]))
		k++;
	for (j = k; v[j] == ' ' || v[j] == '\t'; j++)
		;
	if (kmsg_valid_auto_id(v, n)) {
		auto_id = kmsg_xstrdup(v);
		modname = kmsg_xstrndup(v, n - 10);
	} else if (k && j > k && v[j] == '"') {
		fmt = cat_unescape(st, v + j, st->field_line, "auto-id");
		if (!fmt)
			return;
		modname = kmsg_xstrndup(v, k);
		auto_id = kmsg_catalog_auto_id(modname, fmt);
	} else {
		cat_error(st, st->field_line,
			  "malformed auto-id \"%s\": not MODNAME.hXXXXXXXX (8 lowercase hex digits) or MODNAME \"FORMAT\"",
			  v);
		return;
	}
	dup = kmsg_seen_add(&st->autos, auto_id, st->field_line);
	if (dup) {
		kmsg_diag_add(st->diags, st->path, st->field_line, true,
			      "auto-id %s given twice, first at line %u",
			      auto_id, dup);
		st->failed = true;
		free(auto_id);
		free(modname);
		free(fmt);
		return;
	}
	add_alias(st->doc, auto_id, modname, fmt, st->field_line);
}

/* A class's id: "report.5", "hung_task.1" */
static bool class_id(const char *w)
{
	const char *dot = strchr(w, '.');
	const char *p;

	if (!dot || dot == w || !dot[1])
		return false;
	for (p = w; p < dot; p++)
		if (!is_alnum(*p) && *p != '_')
			return false;
	for (p = dot + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/*
 * report-skip, report-skip-any, report-strip, report-after,
 * report-anchor, report-name, report-frame-line, report-corrupt-frame:
 * POSIX extended regular
 * expressions over a function's name (a line's for report-after and
 * report-frame-line), separated by blanks; a
 * report-name's each followed by "=NAME" or "=". Each line adds to the
 * entry's list (@list), kept space-separated.
 */
static void field_report_res(struct cat_state *st, const char *v, char **list,
			     const char *field)
{
	bool named = !strcmp(field, "report-name");
	struct kmsg_strbuf sb = { 0 };
	const char *p = v;

	if (*list)
		kmsg_sb_puts(&sb, *list);
	while (*p) {
		regex_t re;
		char *w;
		size_t n;
		int bad;

		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (!n)
			break;
		w = kmsg_xstrndup(p, n);
		if (named) {
			char *eq = strrchr(w, '=');

			if (!eq || eq == w) {
				cat_error(st, st->field_line,
					  "%s: \"%.*s\" is not REGEX=NAME or REGEX=",
					  field, (int)n, p);
				free(w);
				break;
			}
			*eq = '\0';
		}
		if (!strcmp(field, "report-continues")) {
			/* class ids, or "*": any class */
			bad = strcmp(w, "*") && !class_id(w);
		} else {
			/*
			 * a back-reference's group is renumbered when the
			 * expressions of a class are joined: none
			 */
			bad = kmsg_re_backref(w) ||
			      regcomp(&re, w, REG_EXTENDED | REG_NOSUB);
			if (!bad)
				regfree(&re);
		}
		free(w);
		if (bad) {
			cat_error(st, st->field_line,
				  strcmp(field, "report-continues") ?
				  "%s: \"%.*s\" is not a POSIX extended regular expression without back-references" :
				  "%s: \"%.*s\" is not a class id or *",
				  field, (int)n, p);
			break;
		}
		if (sb.len)
			kmsg_sb_putc(&sb, ' ');
		kmsg_sb_putn(&sb, p, n);
		p += n;
	}
	free(*list);
	*list = kmsg_sb_take(&sb);
}

/* The value of the current field is complete. */
static void finish_field(struct cat_state *st)
{
	enum field f = st->field;
	char *v, *u;

	st->field = F_NONE;
	if (f == F_NONE)
		return;
	v = trim(kmsg_sb_take(&st->val));
	if (st->failed)
		goto out;

	switch (f) {
	case F_ID:
		field_id(st, v);
		break;
	case F_SEVERITY:
		if (kmsg_level_of(v) < 0) {
			cat_error(st, st->field_line, "unknown severity \"%s\"", v);
			break;
		}
		st->doc->severity = v;
		st->doc->severity_line = st->field_line;
		v = NULL;
		break;
	case F_FORMAT:
		u = cat_unescape(st, v, st->field_line, "format");
		if (u) {
			st->doc->format = u;
			st->doc->format_line = st->field_line;
		}
		break;
	case F_PARAMETER:
		field_parameter(st, v);
		break;
	case F_DESCRIPTION:
		free(st->doc->description);
		st->doc->description = v;
		v = NULL;
		break;
	case F_URESP:
		free(st->doc->user_response);
		st->doc->user_response = v;
		v = NULL;
		break;
	case F_SEEALSO:
		field_see_also(st, v);
		break;
	case F_MODNAME:
		if (!kmsg_valid_modname(v, strlen(v))) {
			cat_error(st, st->field_line,
				  "malformed modname \"%s\": a KBUILD_MODNAME is letters, digits and _",
				  v);
			break;
		}
		st->doc->modname = v;
		st->doc->modname_line = st->field_line;
		v = NULL;
		break;
	case F_AUTOID:
		field_auto_id(st, v);
		break;
	case F_RTITLE:
		st->doc->report_title = v;
		st->doc->report_title_line = st->field_line;
		v = NULL;
		break;
	case F_RSKIP:
		field_report_res(st, v, &st->doc->report_skip, "report-skip");
		break;
	case F_RSKIPANY:
		field_report_res(st, v, &st->doc->report_skip_any,
				 "report-skip-any");
		break;
	case F_RSTRIP:
		field_report_res(st, v, &st->doc->report_strip, "report-strip");
		break;
	case F_RAFTER:
		field_report_res(st, v, &st->doc->report_after, "report-after");
		break;
	case F_RANCHOR:
		field_report_res(st, v, &st->doc->report_anchor, "report-anchor");
		break;
	case F_RNAME:
		field_report_res(st, v, &st->doc->report_name, "report-name");
		break;
	case F_RFLINE:
		field_report_res(st, v, &st->doc->report_frame_line,
				 "report-frame-line");
		break;
	case F_RCORRUPT:
		field_report_res(st, v, &st->doc->report_corrupt,
				 "report-corrupt-frame");
		break;
	case F_RCONT:
		field_report_res(st, v, &st->doc->report_continues,
				 "report-continues");
		break;
	case F_RIGNORE:
		field_report_res(st, v, &st->doc->report_ignore, "report-ignore");
		break;
	case F_RSTACK:
		if (strcmp(v, "none")) {
			cat_error(st, st->field_line,
				  "report-stack: \"%s\" is not none", v);
			break;
		}
		st->doc->report_nostack = true;
		break;
	case F_RFOLLOWS:
		if (strcmp(v, "yes")) {
			cat_error(st, st->field_line,
				  "report-follows: \"%s\" is not yes", v);
			break;
		}
		st->doc->report_follows = true;
		break;
	case F_ROF:
		st->doc->report_of = v;
		v = NULL;
		break;
	case F_RFRAME:
		if (!strcmp(v, "none")) {
			st->doc->report_frame = 0;
		} else if (!strcmp(v, "stack")) {
			st->doc->report_frame = 2;
		} else {
			cat_error(st, st->field_line,
				  "report-frame: \"%s\" is not none or stack", v);
			break;
		}
		st->doc->report_frame_set = true;
		break;
	case F_RAT: {
		regex_t re;

		if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB)) {
			cat_error(st, st->field_line,
				  "report-at: \"%s\" is not a POSIX extended regular expression",
				  v);
			break;
		}
		regfree(&re);
		st->doc->report_at = v;
		v = NULL;
		break;
	}
	case F_TRANSLATION:
		u = cat_unescape(st, v, st->field_line, "translation");
		if (u) {
			struct kmsg_doc *doc = st->doc;

			KMSG_GROW(doc->trans, doc->captrans, doc->ntrans);
			doc->trans[doc->ntrans].locale = st->locale;
			doc->trans[doc->ntrans].format = u;
			doc->trans[doc->ntrans].line = st->field_line;
			doc->ntrans++;
			st->locale = NULL;
		}
		break;
	case F_NONE:
		break;
	}
out:
	free(v);
	free(st->locale);
	st->locale = NULL;
}

/*
 * The automatic id of modname and format goes first, before those of the
 * auto-id lines; auto-id lines need a modname.
 */
static void finish_aliases(struct cat_state *st)
{
	struct kmsg_doc *doc = st->doc;
	unsigned int dup;
	char *auto_id;

	if (!doc->modname) {
		if (doc->naliases) {
			kmsg_diag_add(st->diags, st->path, doc->aliases[0].line, true,
				      "%s: auto-id without a modname field", doc->id);
			st->failed = true;
		}
		return;
	}
	auto_id = kmsg_catalog_auto_id(doc->modname, doc->format);
	dup = kmsg_seen_add(&st->autos, auto_id, doc->modname_line);
	if (dup) {
		kmsg_diag_add(st->diags, st->path, dup, true,
			      "auto-id %s is the one of modname and format (line %u)",
			      auto_id, doc->format_line);
		st->failed = true;
		free(auto_id);
		return;
	}
	add_alias(doc, auto_id, kmsg_xstrdup(doc->modname),
		  kmsg_xstrdup(doc->format), doc->modname_line);
	/* rotate the new one to the front */
	if (doc->naliases > 1) {
		struct kmsg_alias a = doc->aliases[doc->naliases - 1];

		memmove(doc->aliases + 1, doc->aliases,
			(doc->naliases - 1) * sizeof(*doc->aliases));
		doc->aliases[0] = a;
	}
}

static void finish_entry(struct cat_state *st)
{
	struct kmsg_doc *doc;

	finish_field(st);
	doc = st->doc;
	if (doc && !st->failed) {
		static const struct {
			enum field f;
			const char *name;
		} required[] = {
			{ F_DESCRIPTION, "description" },
			{ F_SEVERITY, "severity" },
			{ F_FORMAT, "format" },
		};
		unsigned int any = (1u << F_SEVERITY) | (1u << F_FORMAT) |
				   (1u << F_PARAMETER) | (1u << F_DESCRIPTION) |
				   (1u << F_URESP) | (1u << F_MODNAME) |
				   (1u << F_AUTOID);
		size_t i;

		doc->described = st->seen & any;
		if (doc->described) {
			for (i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
				if (st->seen & (1u << required[i].f))
					continue;
				kmsg_diag_add(st->diags, st->path, doc->line, true,
					      "%s: no %s field", doc->id,
					      required[i].name);
				st->failed = true;
			}
		} else if (!doc->ntrans) {
			kmsg_diag_add(st->diags, st->path, doc->line, true,
				      "%s: the entry has neither a description nor translations",
				      doc->id);
			st->failed = true;
		}
		if (!st->failed)
			finish_aliases(st);
	}
	if (doc) {
		doc->broken = st->failed;
		kmsg_doc_sort(doc);
		kmsg_docs_add(st->docs, doc);
	}
	st->doc = NULL;
	st->active = false;
	st->failed = false;
	st->seen = 0;
	kmsg_seen_free(&st->params);
	kmsg_seen_free(&st->autos);
	kmsg_seen_free(&st->locales);
}

static bool valid_locale(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!is_alnum(s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '@')
			return false;
	return true;
}

static bool is_name_char(char c)
{
	return is_alnum(c) || c == '-' || c == '_' || c == '.' || c == '@';
}

static void field_line(struct cat_state *st, const char *s, size_t n,
		       unsigned int line)
{
	enum field f = F_NONE;
	size_t k = 0, i;

	while (k < n && is_name_char(s[k]))
		k++;
	if (!k || k >= n || s[k] != ':' ||
	    (k + 1 < n && s[k + 1] != ' ' && s[k + 1] != '\t')) {
		cat_error(st, line, "not a field, comment, continuation or blank line");
		return;
	}
	finish_field(st);
	if (st->failed)
		return;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strlen(fields[i].name) == k && !memcmp(s, fields[i].name, k))
			f = fields[i].field;
	if (f == F_NONE && k > 12 && !memcmp(s, "translation.", 12) &&
	    valid_locale(s + 12, k - 12))
		f = F_TRANSLATION;
	if (f == F_NONE) {
		char *name = kmsg_xstrndup(s, k);

		cat_error(st, line, "unknown field \"%s\"", name);
		free(name);
		return;
	}
	if (!st->doc && f != F_ID) {
		cat_error(st, line, "the entry does not start with an id field");
		return;
	}
	if (f == F_TRANSLATION) {
		st->locale = kmsg_xstrndup(s + 12, k - 12);
		if (kmsg_seen_add(&st->locales, st->locale, line)) {
			char *name = kmsg_xstrndup(s, k);

			cat_error(st, line, "field \"%s\" given twice", name);
			free(name);
			free(st->locale);
			st->locale = NULL;
			return;
		}
	} else if (f != F_PARAMETER && f != F_AUTOID && f != F_RSKIP &&
		   f != F_RSKIPANY && f != F_RSTRIP && f != F_RAFTER &&
		   f != F_RANCHOR && f != F_RNAME && f != F_RFLINE &&
		   f != F_RCORRUPT && f != F_RCONT && f != F_RIGNORE &&
		   (st->seen & (1u << f))) {
		char *name = kmsg_xstrndup(s, k);

		cat_error(st, line, "field \"%s\" given twice", name);
		free(name);
		return;
	}
	st->seen |= 1u << f;
	st->field = f;
	st->field_line = line;
	k++;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	kmsg_sb_putn(&st->val, s + k, n - k);
}

static void continuation_line(struct cat_state *st, const char *s, size_t n,
			      unsigned int line)
{
	switch (st->field) {
	case F_NONE:
		cat_error(st, line, "continuation line without a field");
		return;
	case F_ID:
	case F_SEVERITY:
	case F_FORMAT:
	case F_TRANSLATION:
	case F_MODNAME:
	case F_AUTOID:
		cat_error(st, line, "continuation line of a one-line field");
		return;
	case F_RTITLE:
	case F_ROF:
	case F_RAT:
	case F_RFRAME:
	case F_RFOLLOWS:
	case F_RSTACK:
		cat_error(st, line, "continuation line of a one-line field");
		return;
	case F_PARAMETER:
	case F_SEEALSO:
	case F_RSKIP:
	case F_RSKIPANY:
	case F_RSTRIP:
	case F_RAFTER:
	case F_RANCHOR:
	case F_RNAME:
	case F_RFLINE:
	case F_RCORRUPT:
	case F_RCONT:
	case F_RIGNORE:
		kmsg_sb_putc(&st->val, ' ');
		break;
	default:
		kmsg_sb_putc(&st->val, '\n');
		break;
	}
	/* s starts after the one space */
	if (!(n == 1 && s[0] == '.'))
		kmsg_sb_putn(&st->val, s, n);
}

void kmsg_catalog_parse(const char *path, const char *comp, const char *text,
			size_t len, struct kmsg_docs *docs,
			struct kmsg_diags *diags)
{
	struct cat_state st = {
		.path = path,
		.comp = comp,
		.docs = docs,
		.diags = diags,
	};
	const char *p = text, *end = text + len;
	unsigned int line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *s = p;
		size_t n, k;

		if (!nl)
			nl = end;
		p = nl + 1;
		line++;
		n = kmsg_rtrim(s, (size_t)(nl - s));

		for (k = 0; k < n && (s[k] == ' ' || s[k] == '\t'); k++)
			;
		if (k == n) {
			if (st.active)
				finish_entry(&st);
			continue;
		}
		if (s[0] == '#')
			continue;
		if (!st.active) {
			st.active = true;
			st.failed = false;
		}
		if (st.failed)
			continue;
		if (memchr(s, '\0', n)) {
			cat_error(&st, line, "NUL byte in the line");
			continue;
		}
		if (s[0] == ' ')
			continuation_line(&st, s + 1, n - 1, line);
		else
			field_line(&st, s, n, line);
	}
	if (st.active)
		finish_entry(&st);
	kmsg_strbuf_free(&st.val);
	free(st.locale);
	kmsg_seen_free(&st.ids);
	kmsg_seen_free(&st.params);
	kmsg_seen_free(&st.autos);
	kmsg_seen_free(&st.locales);
}
