// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc check: the checks of a build's documentation (build-db runs them
 * too) and the templates of what is missing
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_catalog.h"
#include "kmsg_db.h"
#include "kmsg_diff.h"
#include "kmsg_index.h"
#include "kmsg_jcatalog.h"
#include "kmsg_srcdoc.h"
#include "kmsg_strbuf.h"
#include "kmsg_xalloc.h"
#include "kmsg-doc.h"

/* ---- checks ---- */

static void attach(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->nsorted; i++) {
		const struct kmsg_msg *m = c->sorted[i];
		struct ident *id = find_ident(c, m->component, m->number);

		/*
		 * Sites adopted through the automatic id of another wording
		 * print another format, rightly.
		 */
		if (id->nmsgs && !m->adopted) {
			const struct kmsg_msg *first = c->sorted[id->msgs[0]];

			if (!first->adopted && strcmp(first->format, m->format)) {
				char *a = kmsg_escaped(first->format), *b = kmsg_escaped(m->format);

				kmsg_diag_add(&c->diags, m->file, m->line, true,
					      "%s used with two different formats: \"%s\" and \"%s\"",
					      m->id, a, b);
				free(a);
				free(b);
			}
		}
		KMSG_GROW(id->msgs, id->capmsgs, id->nmsgs);
		id->msgs[id->nmsgs++] = i;
	}
	for (i = 0; i < c->srcdocs.n; i++) {
		struct kmsg_doc *doc = c->srcdocs.v[i];
		struct ident *id = find_ident(c, doc->component, doc->number);

		if (id->src) {
			kmsg_diag_add(&c->diags, doc->file, doc->line, true,
				      "%s documented twice, first at %s:%u", doc->id,
				      id->src->file, id->src->line);
			continue;
		}
		id->src = doc;
	}
	for (i = 0; i < c->catdocs.n; i++) {
		struct kmsg_doc *doc = c->catdocs.v[i];
		struct ident *id = find_ident(c, doc->component, doc->number);

		if (doc->broken) {
			id->broken = true;
			continue;
		}
		if (id->cat) {
			kmsg_diag_add(&c->diags, doc->file, doc->line, true,
				      "%s documented twice, first at %s:%u", doc->id,
				      id->cat->file, id->cat->line);
			continue;
		}
		id->cat = doc;
	}
}

static void check_params(struct ctx *c, const struct kmsg_doc *doc,
			 const char *code)
{
	const char *fmt = doc->format ? doc->format : code;
	size_t m, count = doc->nparams, span;

	if (!count || !fmt)
		return;
	m = kmsg_fmt_values(fmt);
	span = (size_t)doc->params[count - 1].pos + 1;	/* sorted by pos */
	if (count != m || span != m)
		kmsg_diag_add(&c->diags, doc->file, doc->line, true,
			      "%s: %zu parameters documented, the format has %zu conversions",
			      doc->id, count != m ? count : span, m);
}

/* code is the end of fmt, after a (possibly empty) prefix */
static bool format_tail(const char *fmt, const char *code)
{
	size_t n = strlen(fmt), k = strlen(code);

	return k && k <= n && !strcmp(fmt + n - k, code);
}

static void check_format(struct ctx *c, const struct kmsg_doc *doc,
			 const char *code)
{
	char *a, *b;

	if (!doc->format || !strcmp(doc->format, code))
		return;
	/*
	 * A catalog entry with a modname documents the format as printk()
	 * gets it, pr_fmt() prefix included.  A kmsg_*() call of the same
	 * message prints its identifier instead of that prefix.
	 */
	if (doc->modname && format_tail(doc->format, code))
		return;
	a = kmsg_escaped(doc->format);
	b = kmsg_escaped(code);
	kmsg_diag_add(&c->diags, doc->file, doc->format_line, true,
		      "documented format of %s differs from the code: \"%s\" vs \"%s\"",
		      doc->id, a, b);
	free(a);
	free(b);
}

static void check_translations(struct ctx *c, const struct kmsg_doc *cat,
			       const char *ref)
{
	size_t i;

	if (!ref)
		return;
	for (i = 0; i < cat->ntrans; i++) {
		struct kmsg_strbuf why = { 0 };

		if (!kmsg_trans_check(ref, cat->trans[i].format, &why))
			kmsg_diag_add(&c->diags, cat->file, cat->trans[i].line, true,
				      "%s: translation.%s: %s", cat->id,
				      cat->trans[i].locale, why.buf ? why.buf : "");
		kmsg_strbuf_free(&why);
	}
}

static bool same_text(const char *a, const char *b)
{
	char *x = kmsg_normalize_text(a), *y = kmsg_normalize_text(b);
	bool same = !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

/*
 * The format the documentation of @id is checked against: that of its
 * kmsg_*() sites, or of the sites printing the documented format (the
 * entry's first automatic id).  NULL when the build prints only other
 * wordings of the message, each with an automatic id the entry lists.
 */
static const char *ref_format(struct ctx *c, const struct ident *id)
{
	size_t i;

	for (i = 0; i < id->nmsgs; i++) {
		const struct kmsg_msg *m = c->sorted[id->msgs[i]];

		if (!m->adopted || !m->alias_pos)
			return m->format;
	}
	return NULL;
}

static void check_ident(struct ctx *c, struct ident *id)
{
	struct kmsg_doc *src = id->src, *cat = id->cat, *eff;
	bool cat_desc = cat && cat->described;
	const char *code = NULL;
	size_t i;

	if (!id->nmsgs) {
		if (src)
			kmsg_diag_add(&c->diags, src->file, src->line, true,
				      "Description without message for: %s", src->id);
		/*
		 * An entry with a modname documents messages by their
		 * automatic ids; no call site prints its identifier. A
		 * class of kernel reports named by its parent's header
		 * (report-at) has no message of its own.
		 */
		if (cat && !cat->modname && !cat->report_at)
			kmsg_diag_add(&c->diags, cat->file, cat->line, true,
				      "Description without message for: %s", cat->id);
		if (src)
			check_params(c, src, NULL);
		if (cat_desc)
			check_params(c, cat, NULL);
		if (cat)
			check_translations(c, cat, cat->format ? cat->format :
					   src ? src->format : NULL);
		if (!src && cat && cat->modname && !cat->user_response[0])
			kmsg_diag_add(&c->diags, cat->file, cat->line, false,
				      "%s: no user response documented", id->id);
		return;
	}

	code = ref_format(c, id);
	if (!src && !cat_desc && !id->broken) {
		const struct kmsg_msg *m = c->sorted[id->msgs[0]];

		/*
		 * An error for the checker; the database still takes the
		 * message, undocumented.
		 */
		kmsg_diag_add(&c->diags, m->file, m->line, !c->opt.build_db,
			      "Missing description for: %s", id->id);
		id->missing = true;
	}
	if (src) {
		if (code)
			check_format(c, src, code);
		check_params(c, src, code);
	}
	if (cat_desc) {
		if (code)
			check_format(c, cat, code);
		check_params(c, cat, code);
	}
	if (cat && cat->severity) {
		for (i = 0; i < id->nmsgs; i++) {
			const struct kmsg_msg *m = c->sorted[id->msgs[i]];
			const char *lvl = kmsg_level_name(m->level);

			if (lvl && strcmp(lvl, cat->severity)) {
				kmsg_diag_add(&c->diags, cat->file, cat->severity_line,
					      true,
					      "documented severity of %s is %s, the code prints at %s",
					      id->id, cat->severity, lvl);
				break;
			}
		}
	}
	if (src && cat_desc &&
	    (!same_text(src->description, cat->description) ||
	     !same_text(src->user_response, cat->user_response)))
		kmsg_diag_add(&c->diags, cat->file, cat->line, true,
			      "%s documented in both the source and the catalog, differently",
			      id->id);
	eff = src ? src : cat_desc ? cat : NULL;
	if (eff && !eff->user_response[0])
		kmsg_diag_add(&c->diags, eff->file, eff->line, false,
			      "%s: no user response documented", id->id);
	if (cat)
		check_translations(c, cat, cat->format ? cat->format : code);
}

static int alias_ref_cmp(const void *a, const void *b)
{
	const struct alias_ref *x = a, *y = b;
	int r = strcmp(x->alias->auto_id, y->alias->auto_id);

	if (r)
		return r;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* An automatic id is documented by one identifier only */
static void check_aliases(struct ctx *c)
{
	size_t i, k, n = 0;

	for (i = 0; i < c->nids; i++)
		if (c->ids[i].cat)
			n += c->ids[i].cat->naliases;
	c->aliases = kmsg_xcalloc(n + 1, sizeof(*c->aliases));
	for (i = 0; i < c->nids; i++) {
		const struct kmsg_doc *cat = c->ids[i].cat;

		for (k = 0; cat && k < cat->naliases; k++) {
			c->aliases[c->naliases].alias = &cat->aliases[k];
			c->aliases[c->naliases].doc = cat;
			c->aliases[c->naliases].seq = c->naliases;
			c->naliases++;
		}
	}
	if (c->naliases > 1)
		qsort(c->aliases, c->naliases, sizeof(*c->aliases), alias_ref_cmp);
	for (i = 1; i < c->naliases; i++) {
		const struct alias_ref *first = &c->aliases[i - 1];
		const struct alias_ref *r = &c->aliases[i];

		if (strcmp(first->alias->auto_id, r->alias->auto_id))
			continue;
		while (first > c->aliases &&
		       !strcmp(first[-1].alias->auto_id, r->alias->auto_id))
			first--;
		kmsg_diag_add(&c->diags, r->doc->file, r->alias->line, true,
			      "%s: automatic id %s is documented by %s too, at %s:%u",
			      r->doc->id, r->alias->auto_id, first->doc->id,
			      first->doc->file, first->alias->line);
	}
}

void run_checks(struct ctx *c)
{
	size_t i;

	attach(c);
	for (i = 0; i < c->nids; i++)
		check_ident(c, &c->ids[i]);
	check_aliases(c);
	kmsg_diags_sort(&c->diags);
}

/* ---- templates ---- */

struct missing {
	const struct kmsg_msg *m;
};

static int missing_cmp(const void *a, const void *b)
{
	const struct kmsg_msg *x = ((const struct missing *)a)->m;
	const struct kmsg_msg *y = ((const struct missing *)b)->m;
	int r = strcmp(x->file, y->file);

	if (r)
		return r;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return kmsg_id_cmp(x->component, x->number, y->component, y->number);
}

static void print_template(const struct options *opt, const struct kmsg_msg *m)
{
	size_t k, n = kmsg_fmt_values(m->format);
	char *fmt = kmsg_escaped(m->format);

	putchar('\n');
	if (opt->tmpl == TEMPLATE_SOURCE) {
		fputs("/*\n * message\n", stdout);
		for (k = 0; k < n; k++)
			printf(" * @%zu:\n", k);
		fputs(" *\n * Description:\n *\n * User Response:\n */\n", stdout);
		printf("KMSG_DOC(%s, %u, \"%s\");\n", m->component, m->number, fmt);
	} else {
		printf("id: %s\n", m->id);
		printf("severity: %s\n", kmsg_level_name(m->level));
		printf("format: %s\n", fmt);
		for (k = 0; k < n; k++)
			printf("parameter: @%zu\n", k);
		fputs("description:\nuser-response:\n", stdout);
	}
	free(fmt);
}

void print_templates(struct ctx *c)
{
	struct missing *v = kmsg_xcalloc(c->nids + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < c->nids; i++)
		if (c->ids[i].missing)
			v[n++].m = c->sorted[c->ids[i].msgs[0]];
	if (n) {
		if (n > 1)
			qsort(v, n, sizeof(*v), missing_cmp);
		fputs("# Templates for undocumented messages:\n", stdout);
		for (i = 0; i < n; i++)
			print_template(&c->opt, v[i].m);
	}
	free(v);
}

