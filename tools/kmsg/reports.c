// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg reports: the kernel reports of console logs (WARNING, BUG, Oops,
 * KASAN, lockdep, RCU stall, hung task, panic, ...), each with its
 * class, title, lines and task.
 *
 * A report's header is a kernel message like any other: the classes are
 * catalog entries with a report-title (docs-db/SCHEMA.md, "Reports"),
 * every wording of each header is one of their formats, and a line is a
 * header when kmsg's matcher (kmsg_match.h) finds it printed by one of
 * them. The title is the class's name, its %s filled with the header's
 * string arguments, then " in " and the guilty frame: the first function
 * of the header's %pS, of the RIP line or of the stack trace that is not
 * skipped by the report_frames of the database (its class's and every
 * class's regular expressions), its prefixes stripped as they say too.
 * A class may be a kind of another (report-of): a header of it near a
 * header of the other, before the stack, names the report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg.h"
#include "kmsg_dmesg.h"
#include "kmsg_docs.h"
#include "kmsg_match.h"

/* Bytes of a line the matcher sees: a header is never longer */
#define LINE_MATCH_MAX	1024
/* A header this many lines after another, before any frame, is its */
#define MERGE_LINES	20
/* Lines a report spans at most without a frame or a report line */
#define GAP_MAX		200
#define NAME_MAX_LEN	256

/* The conversions of a header format a cut line is matched through */
#define CUT_DEPTH	32
/* Open reports at most: the oldest is finished to make room */
#define OPEN_MAX	1024
/* report-continues: * */
#define CONT_ANY	-2
/* Frames a report keeps to choose its guilty one from */
#define FRAMES_MAX	256

struct cls {
	char *id;	/* "report.1" */
	char *title;	/* "KASAN: %s" */
	char *parent_id;	/* the class it is a kind of, "" if none */
	int parent;		/* its index, -1 */
	struct kmsg_strbuf skip_src;	/* "(re1)|(re2)", its own */
	regex_t skip;
	bool has_skip;
	bool noframe;		/* its titles name no frame */
	bool stack_frame;	/* not the header's function: the stack's */
	bool follows;		/* only after another report: alone, corrupted */
	bool nostack;		/* no stack trace expected */
	/* report-after, -anchor, -frame-line, -ignore: one alternation each */
	struct kmsg_strbuf after_src, anchor_src, line_src, ignore_src;
	regex_t after, anchor, fline, ignore;
	bool has_after, has_anchor, has_fline, has_ignore;
	/* report-name: a frame matching re[k] is named name[k] ("": itself) */
	struct name_rule {
		regex_t re;
		char *name;
	} *names;
	size_t nnames;
	char *at_src;		/* the parent's header it names, "" */
	regex_t at;
	bool has_at;
	/* report-continues: the classes a header of this one goes on */
	int *cont;
	size_t ncont;
	char **cont_id;
};

struct rp {
	struct kmsg_match *m;
	struct cls *cls;
	size_t ncls;
	int *pat_cls;		/* class of each pattern */
	char **pat_id;		/* and its automatic id: the header's message */
	size_t npat, cappat;
	/* the regular expressions of every class's skip and the strips */
	struct kmsg_strbuf skip_src;
	regex_t skip;
	bool has_skip;
	regex_t *strip;
	size_t nstrip;
	/* frames that make a report corrupted (fault injection's) */
	struct kmsg_strbuf corrupt_src;
	regex_t corrupt;
	bool has_corrupt;
	char **strip_src;
	size_t nstrip_src;
	/* each format and its class, for a header cut short */
	struct lit {
		char *s;
		int cls;
	} *lit;
	size_t nlit;
	bool json;
	bool said;		/* an error of the database written */
	long found;
	/* kmsg compare: each report to this instead of the output */
	void (*collect)(void *ctx, const char *cls, const char *title,
			bool corrupted);
	void *collect_ctx;
};

struct line {
	const char *s;		/* the whole line */
	size_t len;
	size_t off;		/* where its message starts, after prefixes */
	char caller[16];	/* "T123", "C1", "" */
};

/* A frame that may be a report's guilty one: its line, its function */
struct frame {
	size_t line;
	bool own;		/* a line of the report's caller */
	bool at;		/* of a report-frame-line line: counts before the backtrace */
	char fn[NAME_MAX_LEN];
};

static void oom_exit(void)
{
	fprintf(stderr, "%s: out of memory\n", prog);
	exit(2);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom_exit();
	return p;
}

static char *xstrdup_(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom_exit();
	return d;
}

static int add_format(void *ctx, const char **col)
{
	struct rp *r = ctx;
	char pid[64];
	int pat;

	if (!r->ncls || strcmp(r->cls[r->ncls - 1].id, col[0])) {
		r->cls = xrealloc(r->cls, (r->ncls + 1) * sizeof(*r->cls));
		memset(&r->cls[r->ncls], 0, sizeof(r->cls[r->ncls]));
		r->cls[r->ncls].id = xstrdup_(col[0]);
		r->cls[r->ncls].title = xstrdup_(col[1]);
		r->cls[r->ncls].parent_id = xstrdup_(col[3]);
		r->cls[r->ncls].parent = -1;
		r->cls[r->ncls].at_src = xstrdup_(col[4]);
		r->cls[r->ncls].noframe = !strcmp(col[5], "0");
		r->cls[r->ncls].stack_frame = !strcmp(col[5], "2");
		r->cls[r->ncls].follows = !strcmp(col[6], "1");
		r->cls[r->ncls].nostack = !strcmp(col[7], "1");
		r->ncls++;
	}
	/* a class named by its parent's header only */
	if (!col[2][0])
		return 0;
	/*
	 * The wordings of one class share an id (none is ambiguous with
	 * another of its class); an automatic id's form, not "comp.N",
	 * which the matcher would look for in the line
	 */
	r->lit = xrealloc(r->lit, (r->nlit + 1) * sizeof(*r->lit));
	r->lit[r->nlit].s = xstrdup_(col[2]);
	r->lit[r->nlit].cls = (int)r->ncls - 1;
	r->nlit++;
	snprintf(pid, sizeof(pid), "report_%zu.h00000000", r->ncls - 1);
	pat = kmsg_match_add(r->m, pid, NULL, col[2], strlen(col[2]));
	if (pat < 0)
		return pat;
	if ((size_t)pat >= r->cappat) {
		size_t old = r->cappat;

		r->cappat = (size_t)pat * 2 + 16;
		r->pat_cls = xrealloc(r->pat_cls, r->cappat * sizeof(*r->pat_cls));
		r->pat_id = xrealloc(r->pat_id, r->cappat * sizeof(*r->pat_id));
		memset(r->pat_id + old, 0, (r->cappat - old) * sizeof(*r->pat_id));
	}
	r->pat_cls[pat] = (int)r->ncls - 1;
	free(r->pat_id[pat]);
	r->pat_id[pat] = xstrdup_(col[8]);
	if ((size_t)pat >= r->npat)
		r->npat = (size_t)pat + 1;
	return 0;
}

static void alt_add(struct kmsg_strbuf *sb, const char *re)
{
	if (sb->len)
		kmsg_strbuf_putc(sb, '|');
	kmsg_strbuf_printf(sb, "(%s)", re);
}

static int re_comp(regex_t *re, const char *src, int flags)
{
	int e = regcomp(re, src, REG_EXTENDED | flags);

	if (e) {
		char msg[256];

		regerror(e, re, msg, sizeof(msg));
		fprintf(stderr, "%s: report_frames: \"%.200s\": %s\n", prog, src, msg);
		return -EINVAL;
	}
	return 0;
}

/* The alternation of @src compiled into @re, @has set; none if empty */
static int alt_comp(const struct kmsg_strbuf *src, regex_t *re, bool *has,
		    int flags)
{
	if (!src->len)
		return 0;
	if (re_comp(re, src->buf, flags))
		return -EINVAL;
	*has = true;
	return 0;
}

static void alt_free(struct kmsg_strbuf *src, regex_t *re, bool has)
{
	kmsg_strbuf_free(src);
	if (has)
		regfree(re);
}

/* A row of report_frames: col[0] "skip" or "strip", col[1] the class */
static int add_frame(void *ctx, const char **col)
{
	struct rp *r = ctx;
	size_t k;

	if (kmsg_re_backref(col[2])) {
		fprintf(stderr, "%s: report_frames: \"%.200s\" has a back-reference\n",
			prog, col[2]);
		r->said = true;
		return -EINVAL;
	}

	if (!strcmp(col[0], "corrupt")) {
		alt_add(&r->corrupt_src, col[2]);
		return 0;
	}
	if (!strcmp(col[0], "strip")) {
		r->strip_src = xrealloc(r->strip_src, (r->nstrip_src + 1) *
					sizeof(*r->strip_src));
		r->strip_src[r->nstrip_src++] = xstrdup_(col[2]);
		return 0;
	}
	if (strcmp(col[0], "skip") && strcmp(col[0], "after") &&
	    strcmp(col[0], "anchor") && strcmp(col[0], "name") &&
	    strcmp(col[0], "line") && strcmp(col[0], "continues") &&
	    strcmp(col[0], "ignore")) {
		fprintf(stderr, "%s: report_frames: kind \"%s\" is not skip, strip, after, anchor, name, line, continues or ignore\n",
			prog, col[0]);
		r->said = true;
		return -EINVAL;
	}
	if (!col[1][0] && !strcmp(col[0], "skip")) {
		alt_add(&r->skip_src, col[2]);
		return 0;
	}
	for (k = 0; k < r->ncls; k++) {
		struct cls *c = &r->cls[k];
		const char *eq;
		char *re;

		if (strcmp(c->id, col[1]))
			continue;
		if (!strcmp(col[0], "skip")) {
			alt_add(&c->skip_src, col[2]);
		} else if (!strcmp(col[0], "after")) {
			alt_add(&c->after_src, col[2]);
		} else if (!strcmp(col[0], "anchor")) {
			alt_add(&c->anchor_src, col[2]);
		} else if (!strcmp(col[0], "line")) {
			alt_add(&c->line_src, col[2]);
		} else if (!strcmp(col[0], "ignore")) {
			alt_add(&c->ignore_src, col[2]);
		} else if (!strcmp(col[0], "continues")) {
			c->cont_id = xrealloc(c->cont_id, (c->ncont + 1) * sizeof(*c->cont_id));
			c->cont_id[c->ncont++] = xstrdup_(col[2]);
		} else {
			eq = strrchr(col[2], '=');
			if (!eq || eq == col[2]) {
				fprintf(stderr, "%s: report_frames: name \"%s\" is not REGEX=NAME\n",
					prog, col[2]);
				r->said = true;
				return -EINVAL;
			}
			re = xstrdup_(col[2]);
			re[eq - col[2]] = '\0';
			c->names = xrealloc(c->names, (c->nnames + 1) * sizeof(*c->names));
			if (re_comp(&c->names[c->nnames].re, re, REG_NOSUB)) {
				free(re);
				r->said = true;
				return -EINVAL;
			}
			free(re);
			c->names[c->nnames++].name = xstrdup_(eq + 1);
		}
		return 0;
	}
	fprintf(stderr, "%s: report_frames: \"%s\" is not a report class\n",
		prog, col[1]);
	r->said = true;
	return -EINVAL;
}

/*
 * Once the classes and frames are read: each class's parent, the
 * regular expressions compiled. 0, or -EINVAL after a message.
 */
static int rp_prepare(struct rp *r)
{
	size_t k, j;

	for (k = 0; k < r->ncls; k++) {
		struct cls *c = &r->cls[k];

		if (c->parent_id[0]) {
			for (j = 0; j < r->ncls; j++)
				if (j != k && !strcmp(r->cls[j].id, c->parent_id))
					c->parent = (int)j;
			if (c->parent < 0) {
				fprintf(stderr, "%s: reports: %s is a kind of \"%s\", not a report class\n",
					prog, c->id, c->parent_id);
				return -EINVAL;
			}
		}
		if (alt_comp(&c->skip_src, &c->skip, &c->has_skip, REG_NOSUB))
			return -EINVAL;
		c->cont = xrealloc(NULL, c->ncont * sizeof(*c->cont));
		for (j = 0; j < c->ncont; j++) {
			size_t m;

			c->cont[j] = strcmp(c->cont_id[j], "*") ? -1 : CONT_ANY;
			for (m = 0; m < r->ncls; m++)
				if (!strcmp(r->cls[m].id, c->cont_id[j]))
					c->cont[j] = (int)m;
			if (c->cont[j] == -1) {
				fprintf(stderr, "%s: reports: %s continues \"%s\", not a report class\n",
					prog, c->id, c->cont_id[j]);
				return -EINVAL;
			}
		}
		if (alt_comp(&c->after_src, &c->after, &c->has_after, REG_NOSUB))
			return -EINVAL;
		if (alt_comp(&c->anchor_src, &c->anchor, &c->has_anchor, REG_NOSUB))
			return -EINVAL;
		if (alt_comp(&c->ignore_src, &c->ignore, &c->has_ignore, REG_NOSUB))
			return -EINVAL;
		if (alt_comp(&c->line_src, &c->fline, &c->has_fline, 0))
			return -EINVAL;
		if (c->at_src[0]) {
			if (c->parent < 0) {
				fprintf(stderr, "%s: reports: %s names a header of no class\n",
					prog, c->id);
				return -EINVAL;
			}
			if (re_comp(&c->at, c->at_src, REG_NOSUB))
				return -EINVAL;
			c->has_at = true;
		}
	}
	if (alt_comp(&r->skip_src, &r->skip, &r->has_skip, REG_NOSUB))
		return -EINVAL;
	if (alt_comp(&r->corrupt_src, &r->corrupt, &r->has_corrupt, REG_NOSUB))
		return -EINVAL;
	r->strip = xrealloc(NULL, r->nstrip_src * sizeof(*r->strip));
	for (k = 0; k < r->nstrip_src; k++) {
		if (re_comp(&r->strip[k], r->strip_src[k], 0))
			return -EINVAL;
		r->nstrip++;
	}
	return 0;
}

static void rp_free(struct rp *r)
{
	size_t k, j;

	kmsg_match_free(r->m);
	for (k = 0; k < r->ncls; k++) {
		struct cls *c = &r->cls[k];

		free(r->cls[k].id);
		free(r->cls[k].title);
		free(r->cls[k].parent_id);
		free(r->cls[k].at_src);
		alt_free(&c->after_src, &c->after, c->has_after);
		alt_free(&c->anchor_src, &c->anchor, c->has_anchor);
		alt_free(&c->line_src, &c->fline, c->has_fline);
		alt_free(&c->ignore_src, &c->ignore, c->has_ignore);
		alt_free(&c->skip_src, &c->skip, c->has_skip);
		for (j = 0; j < r->cls[k].nnames; j++) {
			regfree(&r->cls[k].names[j].re);
			free(r->cls[k].names[j].name);
		}
		free(r->cls[k].names);
		for (j = 0; j < r->cls[k].ncont; j++)
			free(r->cls[k].cont_id[j]);
		free(r->cls[k].cont_id);
		free(r->cls[k].cont);
		if (r->cls[k].has_at)
			regfree(&r->cls[k].at);
	}
	alt_free(&r->skip_src, &r->skip, r->has_skip);
	alt_free(&r->corrupt_src, &r->corrupt, r->has_corrupt);
	for (k = 0; k < r->nstrip; k++)
		regfree(&r->strip[k]);
	for (k = 0; k < r->nstrip_src; k++)
		free(r->strip_src[k]);
	for (k = 0; k < r->nlit; k++)
		free(r->lit[k].s);
	free(r->strip);
	free(r->strip_src);
	free(r->lit);
	free(r->cls);
	for (k = 0; k < r->cappat; k++)
		free(r->pat_id[k]);
	free(r->pat_id);
	free(r->pat_cls);
}

/*
 * The class a header line @l of class @c is: a kind of @c whose
 * report-at the line matches, else @c; -1 if @c's report-ignore matches
 */
static int refine(const struct rp *r, int c, const struct line *l)
{
	char buf[LINE_MATCH_MAX + 1];
	size_t n = l->len - l->off, k;

	if (n > LINE_MATCH_MAX)
		n = LINE_MATCH_MAX;
	memcpy(buf, l->s + l->off, n);
	buf[n] = '\0';
	/* a header its class's report-ignore says is no report */
	if (r->cls[c].has_ignore && !regexec(&r->cls[c].ignore, buf, 0, NULL, 0))
		return -1;
	for (k = 0; k < r->ncls; k++)
		if (r->cls[k].parent == c && r->cls[k].has_at &&
		    !regexec(&r->cls[k].at, buf, 0, NULL, 0))
			return (int)k;
	return c;
}

/* A function no report of class @cls blames */
static bool skipped(const struct rp *r, int cls, const char *fn)
{
	if (r->has_skip && !regexec(&r->skip, fn, 0, NULL, 0))
		return true;
	return cls >= 0 && r->cls[cls].has_skip &&
	       !regexec(&r->cls[cls].skip, fn, 0, NULL, 0);
}

/* @fn without the longest prefix a strip expression matches */
static void strip_name(const struct rp *r, char *fn)
{
	size_t k, cut = 0, n = strlen(fn);
	regmatch_t m;

	for (k = 0; k < r->nstrip; k++)
		if (!regexec(&r->strip[k], fn, 1, &m, 0) && m.rm_so == 0 &&
		    (size_t)m.rm_eo > cut && (size_t)m.rm_eo < n)
			cut = (size_t)m.rm_eo;
	memmove(fn, fn + cut, n - cut + 1);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || c == '_';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * Where the message of a line starts: after what kmsg dmesg reads before
 * it (a /dev/kmsg record's header, a "<N>" level, "[ time]", dmesg -T's
 * date, journalctl -k's "date HOST kernel:"; kmsg_dmesg_parse()), a
 * PRINTK_CALLER "[ T123]" or "[C1]" (kept in @l->caller), blanks
 */
static void strip_prefixes(struct line *l)
{
	const char *s = l->s;
	size_t n = l->len, i = 0, j;
	struct kmsg_dmesg_line dl;

	l->caller[0] = '\0';
	kmsg_dmesg_parse(s, n, &dl);
	/* "[<80616f94>] (func) from ...": an arm frame, not a stamp */
	if (dl.text >= s && dl.text <= s + n && !memmem(s, (size_t)(dl.text - s), "[<", 2))
		i = (size_t)(dl.text - s);
	for (;;) {
		while (i < n && is_space(s[i]))
			i++;
		if (i < n && s[i] == '<') {
			for (j = i + 1; j < n && is_digit(s[j]); j++)
				;
			if (j > i + 1 && j < n && s[j] == '>') {
				i = j + 1;
				continue;
			}
		}
		if (i < n && s[i] == '[') {
			size_t k;

			for (j = i + 1; j < n && s[j] == ' '; j++)
				;
			k = j;
			if (j < n && (s[j] == 'T' || s[j] == 'C')) {
				for (j++; j < n && is_digit(s[j]); j++)
					;
				if (j > k + 1 && j < n && s[j] == ']') {
					size_t c = j - k;

					if (c >= sizeof(l->caller))
						c = sizeof(l->caller) - 1;
					memcpy(l->caller, s + k, c);
					l->caller[c] = '\0';
					i = j + 1;
					continue;
				}
			}
			for (; j < n && (is_digit(s[j]) || s[j] == '.'); j++)
				;
			if (j > k && j < n && s[j] == ']') {
				i = j + 1;
				continue;
			}
		}
		break;
	}
	l->off = i;
}

/* Copy a function name of @s (@n bytes) without .isra.0, .cold, ... */
static void put_name(char *out, const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && is_ident(s[k]))
		k++;
	if (k >= NAME_MAX_LEN)
		k = NAME_MAX_LEN - 1;
	memcpy(out, s, k);
	out[k] = '\0';
}

/*
 * A stack frame of a line's message: "[<ffffffff81000000>] " or "? "
 * first (a "? " frame is unreliable: not one), then "name+0x1/0x2" or
 * "name path/file.c:123" (syzkaller's symbolized frames). The function
 * into @fn. True if it is one.
 */
static bool frame_of(const char *s, size_t n, char *fn)
{
	size_t i = 0, k;

	while (i < n && is_space(s[i]))
		i++;
	/* "[<ffffffff81000000>] ", twice in an old RIP line */
	while (i + 2 < n && s[i] == '[' && s[i + 1] == '<') {
		while (i < n && s[i] != ']')
			i++;
		i++;
		while (i < n && is_space(s[i]))
			i++;
	}
	if (i < n && s[i] == '?')
		return false;
	/*
	 * arm's "[<80c1e5e8>] (__schedule) from [<80c1eb20>] (schedule+0x60/0xdc)":
	 * the caller, the function "from" names (the callee is the line
	 * before's, or the "PC is at" line's)
	 */
	if (i > 0 && i < n && s[i] == '(' && s[i - 1] == ' ') {
		const char *from = memmem(s + i, n - i, ") from [<", 9);

		if (from) {
			const char *p = memchr(from + 9, '(', n - (size_t)(from + 9 - s));

			if (p)
				i = (size_t)(p - s);
		}
		for (k = i + 1; k < n && (is_ident(s[k]) || s[k] == '.'); k++)
			;
		if (k == i + 1 || k == n || (s[k] != ')' && s[k] != '+'))
			return false;
		put_name(fn, s + i + 1, k - i - 1);
		return true;
	}
	k = i;
	while (k < n && (is_ident(s[k]) || s[k] == '.'))
		k++;
	if (k == i || is_digit(s[i]))
		return false;
	if (k + 3 < n && s[k] == '+' && s[k + 1] == '0' && s[k + 2] == 'x') {
		put_name(fn, s + i, k - i);
		return true;
	}
	/* "name file.c:123" and "name file.c:123 [inline]" */
	if (k < n && s[k] == ' ') {
		size_t p = k + 1, c;

		while (p < n && !is_space(s[p]) && s[p] != ':')
			p++;
		if (p < n && s[p] == ':' && p > k + 3 && s[p - 2] == '.' &&
		    (s[p - 1] == 'c' || s[p - 1] == 'h' || s[p - 1] == 'S')) {
			for (c = p + 1; c < n && is_digit(s[c]); c++)
				;
			if (c > p + 1) {
				put_name(fn, s + i, k - i);
				return true;
			}
		}
	}
	return false;
}

static bool starts(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && !memcmp(s, lit, k);
}

/* A line that belongs to a report (registers, markers, stacks) */
static bool report_line(const char *s, size_t n)
{
	static const char *const lits[] = {
		"Call Trace:", "<TASK>", "</TASK>", "<IRQ>", "</IRQ>",
		"RIP:", "IP:", "RSP:", "RAX:", "RDX:", "RBP:", "R10:", "R13:", "FS:",
		"CS:", "CR2:", "DR0:", "DR3:", "Code:", "Modules linked in:",
		"Hardware name:", "CPU:", "Read of size", "Write of size",
		"Read at addr", "Write at addr", "Pointer tag:",
		"---[ end", "Kernel Offset:", "stack backtrace:", "backtrace:",
		"backtrace (crc",
		"Allocated by task", "Freed by task", "The buggy address",
		"Memory state around", "Dumping ftrace", "Rebooting in",
		"Workqueue:", "Tainted:", "pc :", "lr :", "sp :", "Call trace:",
		"NMI backtrace", "Sending NMI", "Showing all locks",
		"irq event stamp", "hardirqs last", "softirqs last",
		"other info", "Possible unsafe", "*** DEADLOCK ***",
		"the existing dependency", "which lock already depends",
		"Chain exists of", "lock(", "-> #", "#0:", "#1:", "#2:",
		"#3:", "comm \"", "hex dump", "INFO: lockdep is turned off",
		"rcu:", "task:", "Uninit was", "Local variable",
		"Bytes ", "Byte ", "Task ", "(detected by", "Mem abort info:",
		"Data abort info:", "Internal error:", "ESR =", "Backtrace:",
		"Exception stack(",
	};
	size_t i;

	while (n && is_space(*s)) {
		s++;
		n--;
	}
	for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++)
		if (starts(s, n, lits[i]))
			return true;
	return false;
}

static bool end_line(const char *s, size_t n)
{
	while (n && is_space(*s)) {
		s++;
		n--;
	}
	return starts(s, n, "---[ end") || starts(s, n, "Kernel Offset:") ||
	       starts(s, n, "Rebooting in");
}

struct report {
	int cls;
	int raw;		/* the class its header's format is of */
	size_t first, last;	/* line numbers from 0 */
	size_t hdr;		/* the header's line */
	int pat;
	bool partial;		/* the header matched only its beginning */
	bool frames;		/* a stack frame seen */
	char caller[16];
	char fn[NAME_MAX_LEN];	/* the guilty frame, "" if none */
	char hdr_fn[NAME_MAX_LEN];	/* the header's %pS */
	char access[8];		/* KASAN's "Read", "Write" */
	bool ended;		/* an end marker */
	bool eof;		/* the log ended inside the report */
	bool trace;		/* a "Call Trace:" or backtrace line */
	/* from "CPU: N PID: N Comm: X Tainted: ... RELEASE" */
	long cpu, pid;
	char comm[64], taint[64], release[128];
	bool have_cpu;
	struct line hline;	/* the header's line */
	/*
	 * Kept as the lines go by, no line kept: the first "stack
	 * backtrace:" line, the first frames after the header that no
	 * class skips (the frames of lines after the report's last do not
	 * count)
	 */
	size_t bt_line;		/* SIZE_MAX: none */
	size_t after_line;	/* the class's report-after line, SIZE_MAX */
	size_t corrupt_line;	/* a report-corrupt-frame's frame, SIZE_MAX */
	size_t stack_line;	/* its first stack or RIP line, SIZE_MAX */
	bool at_next;		/* a frame-line without its frame: on the next */
	struct frame *fr;	/* up to FRAMES_MAX, freed when finished */
	size_t nfr, capfr;
	bool done;		/* finished, its output in out */
	struct kmsg_strbuf out;
};

/* A CPU or PID number: all digits, at most INT_MAX; else -1 (left out) */
static long number(const char *tok)
{
	char *end;
	long v;

	if (!is_digit(*tok))
		return -1;
	errno = 0;
	v = strtol(tok, &end, 10);
	if (errno || *end || v > INT_MAX)
		return -1;
	return v;
}

/* Parse the "CPU: 0 PID: 1 Comm: x Not tainted 6.1.0 #1" line */
static void task_line(struct report *rep, const char *s, size_t n)
{
	char buf[512], *p, *tok, *save = NULL;
	int state = 0;

	if (!starts(s, n, "CPU: ") || rep->have_cpu)
		return;
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (p = buf; *p; p++)
		if ((unsigned char)*p < ' ')
			*p = ' ';
	rep->have_cpu = true;
	rep->cpu = rep->pid = -1;
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		switch (state) {
		case 0:
			if (!strcmp(tok, "CPU:"))
				state = 1;
			else if (!strcmp(tok, "PID:"))
				state = 2;
			else if (!strcmp(tok, "Comm:"))
				state = 3;
			else if (!strcmp(tok, "Tainted:"))
				state = 4;
			else if (!strcmp(tok, "tainted"))
				state = 5;
			else if (!strcmp(tok, "Not"))
				snprintf(rep->taint, sizeof(rep->taint), "Not tainted");
			break;
		case 1:
			rep->cpu = number(tok);
			state = 0;
			break;
		case 2:
			rep->pid = number(tok);
			state = 0;
			break;
		case 3:
			snprintf(rep->comm, sizeof(rep->comm), "%s", tok);
			state = 0;
			break;
		case 4:
			/* flags, then the release: "G        W" */
			if (strlen(tok) == 1 || !strcmp(tok, "[W]") ||
			    strspn(tok, "PFSRMBUDAWCIOELKXTN") == strlen(tok)) {
				size_t l = strlen(rep->taint);

				if (!l)
					l = (size_t)snprintf(rep->taint, sizeof(rep->taint),
							     "Tainted:");
				if (l < sizeof(rep->taint) - 1)
					snprintf(rep->taint + l, sizeof(rep->taint) - l,
						 " %s", tok);
				break;
			}
			/* fall through */
		case 5:
			snprintf(rep->release, sizeof(rep->release), "%s", tok);
			state = 6;
			break;
		default:
			break;
		}
	}
}

/* The name of the class, its %s filled with the header's strings */
/*
 * The arguments of @rep's header, as its format printed them; none (n 0)
 * for a header cut short of its format. Freed by the caller.
 */
static struct kmsg_args *header_args(struct rp *r, const struct report *rep)
{
	const struct line *hl = &rep->hline;
	struct kmsg_args *args = calloc(1, sizeof(*args));
	size_t len = hl->len - hl->off;

	if (!args)
		oom_exit();
	if (len > LINE_MATCH_MAX)
		len = LINE_MATCH_MAX;
	if (rep->pat < 0 || kmsg_match_args(r->m, rep->pat, hl->s + hl->off, len,
					    rep->partial, args, NULL, NULL))
		args->n = 0;
	return args;
}

static void class_title(struct rp *r, struct report *rep,
			const struct kmsg_args *args, struct kmsg_strbuf *out)
{
	const char *t = r->cls[rep->cls].title;
	int next = 0;
	for (; *t; t++) {
		const struct kmsg_arg *a = NULL;
		size_t n;

		if (t[0] == '%' && t[1] == 'f') {
			/* "WARNING in %f/usb_submit_urb": the frame there */
			t++;
			kmsg_strbuf_puts(out, rep->fn[0] ? rep->fn : "corrupted");
			continue;
		}
		if (t[0] == '%' && t[1] >= '1' && t[1] <= '9') {
			/* "%3": the header's third argument, as printed */
			int k = t[1] - '1';

			t++;
			if (k < args->n && args->v[k].str) {
				a = &args->v[k];
				kmsg_strbuf_putn(out, a->str, a->str_len);
			}
			continue;
		}
		if (t[0] != '%' || t[1] != 's') {
			kmsg_strbuf_putc(out, *t);
			continue;
		}
		t++;
		while (next < args->n && args->v[next].type != KMSG_ARG_STRING)
			next++;
		if (next < args->n)
			a = &args->v[next++];
		if (!a || !a->str)
			continue;
		/* "general protection fault, probably for ...": the name */
		for (n = 0; n < a->str_len && a->str[n] != '\n' &&
		     !(a->str[n] == ',' && n + 1 < a->str_len && a->str[n + 1] == ' ');
		     n++)
			;
		kmsg_strbuf_putn(out, a->str, n);
	}
	/* a %s a cut header does not fill */
	while (out->len && out->buf[out->len - 1] == ' ')
		out->len--;
}

/* The header's %pS: the function it names */
static void header_frame(struct report *rep, const struct kmsg_args *args)
{
	int i;

	for (i = 0; i < args->n; i++) {
		const struct kmsg_arg *a = &args->v[i];

		if (a->conv == 'p' && (a->ptr_ext == 'S' || a->ptr_ext == 's' ||
				       a->ptr_ext == 'B') &&
		    a->str && a->str_len && !is_digit(a->str[0])) {
			put_name(rep->hdr_fn, a->str, a->str_len);
			break;
		}
	}
}

static void put_field(struct kmsg_strbuf *o, const char *name, const char *v,
		      size_t n);

/*
 * The source place a header prints, "lib/refcount.c:28" (a WARNING's,
 * a kernel BUG's, UBSAN's): a string argument that names a C or Rust
 * file and the number after it, as a "site" field of @o
 */
static void header_site(const struct kmsg_args *args, struct kmsg_strbuf *o)
{
	int i;

	for (i = 0; i + 1 < args->n; i++) {
		const struct kmsg_arg *a = &args->v[i], *b = &args->v[i + 1];
		size_t n = a->str_len;

		if (a->type != KMSG_ARG_STRING || !a->str || n < 3 ||
		    (b->type != KMSG_ARG_SIGNED && b->type != KMSG_ARG_UNSIGNED))
			continue;
		if (memcmp(a->str + n - 2, ".c", 2) && memcmp(a->str + n - 2, ".h", 2) &&
		    (n < 4 || memcmp(a->str + n - 3, ".rs", 3)))
			continue;
		kmsg_strbuf_puts(o, ",\"site\":");
		kmsg_json_str(o, a->str, n);
		o->len--;	/* the closing quote: the line goes in */
		kmsg_strbuf_printf(o, ":%lld\"", b->type == KMSG_ARG_SIGNED ?
				   b->s : (long long)b->u);
		break;
	}
}

static void put_field(struct kmsg_strbuf *o, const char *name, const char *v,
		      size_t n)
{
	kmsg_strbuf_printf(o, ",\"%s\":", name);
	kmsg_json_str(o, v, n);
}

static void emit(struct rp *r, const char *path, struct report *rep,
		 const struct kmsg_args *args)
{
	struct kmsg_strbuf title = { 0 }, o = { 0 };
	const struct line *hl = &rep->hline;
	const char *reason = NULL;
	size_t hlen = hl->len - hl->off;

	class_title(r, rep, args, &title);
	if (rep->access[0] && strstr(r->cls[rep->cls].title, "KASAN") &&
	    !strstr(r->cls[rep->cls].title, "%f"))
		kmsg_strbuf_printf(&title, " %s", rep->access);
	/* as syzkaller writes a report without a frame: "X in corrupted" */
	if (!r->cls[rep->cls].noframe && !strstr(r->cls[rep->cls].title, "%f"))
		kmsg_strbuf_printf(&title, " in %s", rep->fn[0] ? rep->fn : "corrupted");
	if (rep->partial)
		reason = "the header is cut short";
	else if (r->cls[rep->cls].follows)
		reason = "the report it follows is missing";
	else if (rep->corrupt_line <= rep->last)
		reason = "a fault injection's stack is mixed into it";
	else if (r->cls[rep->cls].noframe && r->cls[rep->cls].nostack)
		reason = NULL;
	else if (r->cls[rep->cls].noframe)
		reason = rep->frames && rep->trace ? NULL : "no stack trace";
	else if (r->cls[rep->cls].nostack)
		reason = rep->fn[0] ? NULL : "no frame found";
	else if (rep->eof && !(rep->frames && rep->trace))
		reason = "the log ends before the stack trace";
	else if (!rep->fn[0])
		reason = "no frame found";
	else if (!(rep->frames && rep->trace))
		reason = "no stack trace";
	r->found++;
	if (r->collect) {
		r->collect(r->collect_ctx, r->cls[rep->cls].id,
			   title.buf ? title.buf : "", reason);
		kmsg_strbuf_free(&title);
		return;
	}
	if (!r->json) {
		/* the log's bytes escaped as kmsg dmesg does: no terminal escape */
		kmsg_dmesg_escape(&o, path, strlen(path));
		kmsg_strbuf_printf(&o, ":%zu-%zu: ", rep->first + 1, rep->last + 1);
		kmsg_dmesg_escape(&o, r->cls[rep->cls].id, strlen(r->cls[rep->cls].id));
		kmsg_strbuf_putc(&o, ' ');
		kmsg_dmesg_escape(&o, title.buf ? title.buf : "", title.len);
		if (reason)
			kmsg_strbuf_printf(&o, " (corrupted: %s)", reason);
		kmsg_strbuf_putc(&o, '\n');
	} else {
		kmsg_strbuf_puts(&o, "{\"file\":");
		kmsg_json_str(&o, path, strlen(path));
		put_field(&o, "class", r->cls[rep->cls].id, strlen(r->cls[rep->cls].id));
		put_field(&o, "name", r->cls[rep->cls].title,
			  strlen(r->cls[rep->cls].title));
		put_field(&o, "title", title.buf ? title.buf : "", title.len);
		put_field(&o, "frame", rep->fn, strlen(rep->fn));
		kmsg_strbuf_printf(&o, ",\"first_line\":%zu,\"last_line\":%zu,\"header_line\":%zu",
				   rep->first + 1, rep->last + 1, rep->hdr + 1);
		put_field(&o, "header", hl->s + hl->off, hlen);
		if (rep->pat >= 0 && (size_t)rep->pat < r->npat && r->pat_id[rep->pat] &&
		    r->pat_id[rep->pat][0])
			put_field(&o, "header_id", r->pat_id[rep->pat],
				  strlen(r->pat_id[rep->pat]));
		header_site(args, &o);
		if (rep->have_cpu) {
			if (rep->cpu >= 0)
				kmsg_strbuf_printf(&o, ",\"cpu\":%ld", rep->cpu);
			if (rep->pid >= 0)
				kmsg_strbuf_printf(&o, ",\"pid\":%ld", rep->pid);
			if (rep->comm[0])
				put_field(&o, "task", rep->comm, strlen(rep->comm));
			if (rep->taint[0])
				put_field(&o, "taint", rep->taint, strlen(rep->taint));
			if (rep->release[0])
				put_field(&o, "release", rep->release,
					  strlen(rep->release));
		}
		if (rep->caller[0])
			put_field(&o, "caller", rep->caller, strlen(rep->caller));
		kmsg_strbuf_printf(&o, ",\"corrupted\":%s", reason ? "true" : "false");
		if (reason)
			put_field(&o, "reason", reason, strlen(reason));
		kmsg_strbuf_puts(&o, "}\n");
	}
	rep->out = o;
	kmsg_strbuf_free(&title);
}

/* The header @n bytes at @s are, or -1: its pattern in @pat */
static int header_at(struct rp *r, const char *s, size_t n, int *pat,
		     bool *partial)
{
	struct kmsg_match_result res;

	if (!n)
		return -1;
	if (n > LINE_MATCH_MAX)
		n = LINE_MATCH_MAX;
	if (kmsg_match_line(r->m, s, n, -1, KMSG_MATCH_NL_LITERAL, &res))
		oom_exit();
	if (res.n < 1 || res.pat[0] < 0 || (size_t)res.pat[0] >= r->npat)
		return -1;
	/* a pattern matching only the start of a line, with little text */
	if (res.partial && res.literal < 12)
		return -1;
	*pat = res.pat[0];
	*partial = res.partial;
	return r->pat_cls[res.pat[0]];
}

/*
 * The length of @s (@n bytes) without the source place a symbolizer
 * appends to a line that ends in a frame: " mm/vmalloc.c:3108" or
 * " net/core/dev.c:12 [inline]"; @n if it has none
 */
static size_t without_place(const char *s, size_t n)
{
	size_t e = n, k;

	if (e > 9 && !memcmp(s + e - 9, " [inline]", 9))
		e -= 9;
	for (k = e; k && is_digit(s[k - 1]); k--)
		;
	if (k == e || k < 4 || s[k - 1] != ':' || s[k - 3] != '.' ||
	    !strchr("chS", s[k - 2]))
		return n;
	for (k -= 3; k && !is_space(s[k - 1]); k--)
		;
	return k > 1 ? k - 1 : n;
}

/*
 * Where a "[ time]" stamp, and a caller's after it, end in @s (@n
 * bytes) after its start: a line that another's text ran into
 * ("login: [ 16.3] INFO: ..."); 0 if none
 */
static size_t stamp_inside(const char *s, size_t n)
{
	size_t i, j;

	for (i = 1; i + 3 < n && i < 256; i++) {
		if (s[i] != '[')
			continue;
		for (j = i + 1; j < n && s[j] == ' '; j++)
			;
		if (j == n || !is_digit(s[j]))
			continue;
		while (j < n && is_digit(s[j]))
			j++;
		if (j == n || s[j] != '.')
			continue;
		for (j++; j < n && is_digit(s[j]); j++)
			;
		if (j < n && s[j] == ']')
			return j + 1;
	}
	return 0;
}

/*
 * The header a line is, or -1: its pattern in @pat. A header with a
 * symbolizer's place after it, after the "comp.N: " id of a kmsg_*()
 * call, or after another line's text, is one too: @l's message is then
 * that header (its off and len moved).
 */
static int header_of(struct rp *r, struct line *l, int *pat, bool *partial)
{
	const char *s = l->s + l->off;
	size_t n = l->len - l->off, k;
	struct line in;
	int c;

	c = header_at(r, s, n, pat, partial);
	if (c >= 0)
		return c;
	k = without_place(s, n);
	if (k < n) {
		c = header_at(r, s, k, pat, partial);
		if (c >= 0) {
			l->len = l->off + k;
			return c;
		}
	}
	/* "hung_task.1: INFO: task ...": the id a kmsg_*() call prints */
	for (k = 0; k < n && k < 64 && (is_ident(s[k]) && s[k] != '.'); k++)
		;
	if (k && k + 1 < n && s[k] == '.' && is_digit(s[k + 1])) {
		for (k++; k < n && is_digit(s[k]); k++)
			;
		if (k + 1 < n && s[k] == ':' && s[k + 1] == ' ') {
			c = header_at(r, s + k + 2, n - k - 2, pat, partial);
			if (c >= 0) {
				l->off += k + 2;
				return c;
			}
		}
	}
	k = stamp_inside(s, n);
	if (!k)
		return -1;
	in = *l;
	in.s = s + k;
	in.len = n - k;
	strip_prefixes(&in);
	c = header_at(r, in.s + in.off, in.len - in.off, pat, partial);
	if (c >= 0) {
		l->off += k + in.off;
		if (in.caller[0])
			memcpy(l->caller, in.caller, sizeof(l->caller));
	}
	return c;
}

/*
 * Is @s (@n bytes) the beginning of a line format @f prints? Its
 * literal text matched as it is, each conversion by a run of non-blanks
 * (any length, tried in turn); the text may end anywhere, once @lit
 * literal characters or more matched. *@steps bounds the tries, @depth
 * the conversions tried in turn (a format from the database may have
 * any number).
 */
static bool cut_of(const char *f, const char *s, size_t n, size_t lit,
		   long *steps, int depth)
{
	size_t k, run;

	for (;;) {
		if (--*steps < 0)
			return false;
		if (!n)
			return lit >= 8;
		if (!*f)
			return false;
		if (f[0] != '%' || f[1] == '%') {
			if (*s != *f)
				return false;
			f += f[0] == '%' ? 2 : 1;
			s++;
			n--;
			lit++;
			continue;
		}
		/* a conversion: flags, width, precision, length, its letter */
		for (f++; *f && strchr("-+ #0123456789.*hlzjtL", *f); f++)
			;
		if (*f == 'p')
			while (is_ident(f[1]))
				f++;
		if (*f)
			f++;
		for (run = 0; run < n && !is_space(s[run]); run++)
			;
		if (run == n)
			return lit >= 8;
		if (depth >= CUT_DEPTH)
			return false;
		for (k = 0; k <= run; k++)
			if (cut_of(f, s + k, n - k, lit, steps, depth + 1))
				return true;
		return false;
	}
}

/*
 * The header the last line of a log may be, cut short: the beginning of
 * what a header format prints, at least 8 of its literal characters; the
 * first class with such a format, or -1
 */
static int header_cut(const struct rp *r, const struct line *l)
{
	const char *s = l->s + l->off;
	size_t n = l->len - l->off, k;
	long steps = 20000;

	for (k = 0; k < r->nlit; k++)
		if (cut_of(r->lit[k].s, s, n, 0, &steps, 0))
			return r->lit[k].cls;
	return -1;
}

/*
 * The frame a line names for a report, not a skipped one: of its "RIP:",
 * "pc :" or "PC is at" line, or of its stack. True with it in @fn.
 */
static bool line_frame(const struct rp *r, const char *s, size_t n, char *fn)
{
	if (starts(s, n, "RIP: ") || starts(s, n, "pc : ") ||
	    starts(s, n, "PC is at ") || starts(s, n, "IP: ")) {
		const char *p = memchr(s, ':', n);
		size_t k = p ? (size_t)(p - s) + 1 : n;

		if (starts(s, n, "RIP: ")) {
			/* "RIP: 0010:func+0x1/0x2" */
			p = k < n ? memchr(s + k, ':', n - k) : NULL;
			k = p ? (size_t)(p - s) + 1 : n;
		} else if (starts(s, n, "PC is at ")) {
			k = 9;
		}
		while (k < n && is_space(s[k]))
			k++;
		return frame_of(s + k, n - k, fn) && !skipped(r, -1, fn);
	}
	return frame_of(s, n, fn) && !skipped(r, -1, fn);
}

/* A line where a stack trace starts, or the RIP line of its registers */
static bool stack_start(const char *s, size_t n)
{
	while (n && is_space(*s)) {
		s++;
		n--;
	}
	return starts(s, n, "Call Trace:") || starts(s, n, "Call trace:") ||
	       starts(s, n, "Backtrace:") || starts(s, n, "backtrace:") ||
	       starts(s, n, "backtrace (crc") ||
	       starts(s, n, "RIP: ") || starts(s, n, "pc : ") ||
	       starts(s, n, "PC is at ") || starts(s, n, "IP: ");
}

/*
 * Line @i after the header of open report @rep: a "stack backtrace:"
 * line (@bt), a frame (@fn, NULL if none)
 */
static void report_sees(const struct rp *r, struct report *rep,
			const struct line *l, size_t i, bool bt, const char *fn)
{
	const struct cls *c = &r->cls[rep->cls];
	char buf[LINE_MATCH_MAX + 1], at_fn[NAME_MAX_LEN];
	size_t n = l->len - l->off;
	bool at = false;
	struct frame *f;

	if (n > LINE_MATCH_MAX)
		n = LINE_MATCH_MAX;
	if (rep->stack_line == SIZE_MAX && stack_start(l->s + l->off, n))
		rep->stack_line = i;
	if (c->has_after || c->has_fline) {
		memcpy(buf, l->s + l->off, n);
		buf[n] = '\0';
	}
	if (c->has_fline && !bt) {
		regmatch_t m;
		bool next = rep->at_next;

		/*
		 * "(&mm->mmap_lock){++++}, at: __might_fault+0x1/0x2", or
		 * "... lock (mrt_lock) at:" and the frame on the next line
		 */
		rep->at_next = false;
		if (!regexec(&c->fline, buf, 1, &m, 0)) {
			if (frame_of(buf + m.rm_eo, n - (size_t)m.rm_eo, at_fn)) {
				if (!skipped(r, -1, at_fn)) {
					fn = at_fn;
					at = true;
				}
			} else {
				rep->at_next = true;
			}
		} else if (next && fn) {
			at = true;
		}
	}
	if (c->has_after && rep->after_line == SIZE_MAX) {
		if (!regexec(&c->after, buf, 0, NULL, 0)) {
			/* the frames before it are not the report's */
			rep->after_line = i;
			rep->nfr = 0;
			return;
		}
	}
	if (bt) {
		if (rep->bt_line == SIZE_MAX)
			rep->bt_line = i;
		return;
	}
	if (!fn || rep->nfr == FRAMES_MAX)
		return;
	if (rep->nfr == rep->capfr) {
		rep->capfr = rep->capfr ? rep->capfr * 2 : 16;
		rep->fr = xrealloc(rep->fr, rep->capfr * sizeof(*rep->fr));
	}
	f = &rep->fr[rep->nfr++];
	f->line = i;
	f->own = !rep->caller[0] || !l->caller[0] || !strcmp(l->caller, rep->caller);
	f->at = at;
	/* the lock lines of a lockdep report are its own lines */
	if (at && f->own && i > rep->last && !rep->done)
		rep->last = i;
	snprintf(f->fn, sizeof(f->fn), "%s", fn);
}

/* A function no report of class @c (or of the class it is a kind of) blames */
static bool class_skips(const struct rp *r, int c, const char *fn)
{
	return skipped(r, c, fn) || (r->cls[c].parent >= 0 &&
				     skipped(r, r->cls[c].parent, fn));
}

/* The name a rule of class @c gives frame @fn, or NULL */
static const char *named(const struct cls *c, const char *fn)
{
	size_t k;

	for (k = 0; k < c->nnames; k++)
		if (!regexec(&c->names[k].re, fn, 0, NULL, 0))
			return c->names[k].name[0] ? c->names[k].name : fn;
	return NULL;
}

/*
 * Frame @f may be the guilty one of @rep (of class @c): its own, in the
 * stack read; for a class blamed on its stack, not before that starts
 */
static bool frame_counts(const struct cls *c, const struct report *rep,
			 const struct frame *f, bool own)
{
	bool backtrace = rep->bt_line <= rep->last;

	if (c->stack_frame && f->line < rep->stack_line)
		return false;
	/* a class whose stack starts after a line: none without it */
	if (c->has_after && rep->after_line == SIZE_MAX)
		return false;
	if (rep->after_line != SIZE_MAX)
		backtrace = false;
	return f->line <= rep->last &&
	       !(backtrace && f->line < rep->bt_line && !f->at) &&
	       (!own || f->own);
}

/*
 * Choose the guilty frame of a report whose lines are all read: the
 * header's %pS, else of the frames after the header (after lockdep's
 * and kmemleak's "stack backtrace:", where their own stack starts; after
 * the class's report-after line), of the report's caller first, that
 * the class does not skip: the one before the first of its anchors (a
 * stall is blamed on what called the loop, not the loop), else one a
 * report-name rule names, else the first.
 */
static void finish_report(struct rp *r, const char *path, struct report *rep)
{
	const struct cls *c = &r->cls[rep->cls];
	const char *name = NULL;
	struct kmsg_args *args;
	size_t k;
	int own;

	args = header_args(r, rep);
	header_frame(rep, args);
	if (rep->hdr_fn[0] && !c->stack_frame && !class_skips(r, rep->cls, rep->hdr_fn))
		snprintf(rep->fn, sizeof(rep->fn), "%s", rep->hdr_fn);
	for (own = 1; own >= 0 && !rep->fn[0] && !name; own--) {
		const struct frame *prev = NULL;

		for (k = 0; k < rep->nfr && !name; k++) {
			const struct frame *f = &rep->fr[k];

			if (!frame_counts(c, rep, f, own))
				continue;
			if (c->has_anchor) {
				if (class_skips(r, rep->cls, f->fn))
					continue;
				if (!regexec(&c->anchor, f->fn, 0, NULL, 0)) {
					name = named(c, f->fn);
					if (!name)
						name = prev ? prev->fn : f->fn;
				}
				prev = f;
			} else {
				name = named(c, f->fn);
			}
		}
	}
	if (name)
		snprintf(rep->fn, sizeof(rep->fn), "%s", name);
	for (own = 1; own >= 0 && !rep->fn[0]; own--)
		for (k = 0; k < rep->nfr && !rep->fn[0]; k++) {
			const struct frame *f = &rep->fr[k];

			if (!frame_counts(c, rep, f, own) || class_skips(r, rep->cls, f->fn))
				continue;
			snprintf(rep->fn, sizeof(rep->fn), "%s", f->fn);
		}
	strip_name(r, rep->fn);
	emit(r, path, rep, args);
	free(args);
	rep->done = true;
	free(rep->fr);
	rep->fr = NULL;
	rep->nfr = rep->capfr = 0;
}

/* The open reports, in the order of their headers */
struct open {
	struct report **v;
	size_t n, cap;
};

/* Write the finished reports that no open one precedes */
static void flush_done(struct open *o)
{
	size_t k = 0, j;

	while (k < o->n && o->v[k]->done) {
		if (o->v[k]->out.buf)
			fwrite(o->v[k]->out.buf, 1, o->v[k]->out.len, stdout);
		kmsg_strbuf_free(&o->v[k]->out);
		free(o->v[k]);
		k++;
	}
	for (j = k; j < o->n; j++)
		o->v[j - k] = o->v[j];
	o->n -= k;
}

/*
 * The open report a line of @caller continues: the one of its caller,
 * else, for a line without one, the newest
 */
static struct report *report_of(struct open *o, const char *caller)
{
	size_t k;

	for (k = o->n; k--;)
		if (!o->v[k]->done && !strcmp(o->v[k]->caller, caller))
			return o->v[k];
	if (!caller[0])
		for (k = o->n; k--;)
			if (!o->v[k]->done)
				return o->v[k];
	return NULL;
}

/*
 * Whether a header of class @raw (@c once refined) close after open
 * report @rep's is part of it: 2 for a class that goes on the report's
 * (report-continues: the "Oops:" line after a page fault's, a panic after
 * any report), before its stack trace; 1 for a kind of the report's
 * class or the class it is a kind of (a WARNING after its refcount_t
 * text, or that text after it), before any frame; else 0
 */
static int continues(const struct rp *r, int raw, int c,
		     const struct report *rep)
{
	size_t k;
	int i;

	for (i = 0; i < 2; i++) {
		const struct cls *n = &r->cls[i ? c : raw];

		for (k = 0; k < n->ncont; k++)
			if (n->cont[k] == CONT_ANY || n->cont[k] == rep->cls ||
			    n->cont[k] == rep->raw ||
			    n->cont[k] == r->cls[rep->cls].parent)
				return 2;
	}
	return c == rep->cls || r->cls[c].parent == rep->cls ||
	       r->cls[rep->cls].parent == c || r->cls[raw].parent == rep->raw;
}

static void scan(struct rp *r, const char *path, const char *buf, size_t size)
{
	struct open o = { 0 };
	struct line cur, prev = { 0 };
	size_t i, p = 0, k;

	for (i = 0; p < size; i++) {
		const char *e = memchr(buf + p, '\n', size - p);
		size_t n = e ? (size_t)(e - (buf + p)) : size - p;
		const char *nul = memchr(buf + p, '\0', n);
		struct line *l = &cur;
		const char *s;
		char fn[NAME_MAX_LEN];
		bool partial = false, bt, has_fn;
		int pat = -1, c, raw, how;
		struct report *rep;

		l->s = buf + p;
		/* a NUL ends the line's text: no kernel prints one */
		l->len = nul ? (size_t)(nul - (buf + p)) : n;
		if (l->len && l->s[l->len - 1] == '\r')
			l->len--;
		strip_prefixes(l);
		p += n + 1;
		s = l->s + l->off;
		n = l->len - l->off;
		c = header_of(r, l, &pat, &partial);
		if (c < 0 && p >= size) {
			c = header_cut(r, l);
			pat = -1;
			partial = c >= 0;
		}
		raw = c;
		if (c >= 0)
			c = refine(r, c, l);
		if (c < 0)
			raw = -1;
		rep = report_of(&o, l->caller);
		/* what the open reports' guilty frames need of the line */
		bt = starts(s, n, "stack backtrace:");
		has_fn = !bt && o.n && line_frame(r, s, n, fn);
		/* a fault injection's stack mixed into the open reports' */
		if (o.n && r->has_corrupt && frame_of(s, n, fn) &&
		    !regexec(&r->corrupt, fn, 0, NULL, 0)) {
			has_fn = false;
			for (k = 0; k < o.n; k++)
				if (!o.v[k]->done && o.v[k]->corrupt_line == SIZE_MAX &&
				    (!l->caller[0] || !strcmp(l->caller, o.v[k]->caller)))
					o.v[k]->corrupt_line = i;
		}
		for (k = 0; k < o.n; k++)
			if (!o.v[k]->done)
				report_sees(r, o.v[k], l, i, bt, has_fn ? fn : NULL);

		if (c >= 0 && rep && !rep->trace && i - rep->hdr <= MERGE_LINES &&
		    raw != rep->raw && (how = continues(r, raw, c, rep)) &&
		    (how == 2 || !rep->frames)) {
			/* "Oops:" after a page fault, WARNING after its text */
			rep->last = i;
			/* a kind of the report's class names it: its header */
			if (r->cls[c].parent == rep->cls) {
				rep->cls = c;
				rep->raw = raw;
				rep->pat = pat;
				rep->partial = partial;
				rep->hdr = i;
				rep->hline = *l;
			}
		} else if (c >= 0) {
			if (rep && (!l->caller[0] || !strcmp(rep->caller, l->caller)))
				finish_report(r, path, rep);
			rep = calloc(1, sizeof(*rep));
			if (!rep)
				oom_exit();
			if (o.n == o.cap) {
				o.cap = o.cap ? o.cap * 2 : 16;
				o.v = xrealloc(o.v, o.cap * sizeof(*o.v));
			}
			o.v[o.n++] = rep;
			/*
			 * a log that keeps one report open while others come:
			 * the oldest open one ends, and what is done is written
			 */
			if (o.n > OPEN_MAX)
				for (k = 0; k < o.n; k++)
					if (!o.v[k]->done) {
						finish_report(r, path, o.v[k]);
						break;
					}
			rep->cls = c;
			rep->raw = raw;
			rep->pat = pat;
			rep->partial = partial;
			rep->first = rep->last = rep->hdr = i;
			rep->hline = *l;
			rep->bt_line = SIZE_MAX;
			rep->after_line = SIZE_MAX;
			rep->corrupt_line = SIZE_MAX;
			rep->stack_line = SIZE_MAX;
			memcpy(rep->caller, l->caller, sizeof(rep->caller));
			/* the "cut here" line before a WARNING is the report's */
			if (i && prev.len - prev.off < 80 &&
			    memmem(prev.s + prev.off, prev.len - prev.off, "cut here", 8))
				rep->first = i - 1;
		} else {
			/* a report ended by its marker ends at the next line */
			for (k = 0; k < o.n; k++)
				if (!o.v[k]->done && o.v[k]->ended) {
					if (o.v[k] == rep)
						rep = NULL;
					finish_report(r, path, o.v[k]);
				}
			if (rep && (frame_of(s, n, fn) || report_line(s, n) ||
				    (n && (s[0] == ' ' || s[0] == '\t') && rep->trace))) {
				if (frame_of(s, n, fn))
					rep->frames = true;
				if (starts(s, n, "Call Trace:") || starts(s, n, "Call trace:") ||
				    starts(s, n, "backtrace:") || starts(s, n, "stack backtrace:") ||
				    starts(s, n, "Backtrace:") || starts(s, n, "backtrace (crc") ||
				    starts(s, n, "Allocated by task") ||
				    starts(s, n, "Freed by task") ||
				    starts(s, n, "Uninit was stored"))
					rep->trace = true;
				if (!rep->access[0] && (starts(s, n, "Read of size") ||
							starts(s, n, "Read at addr")))
					snprintf(rep->access, sizeof(rep->access), "Read");
				if (!rep->access[0] && (starts(s, n, "Write of size") ||
							starts(s, n, "Write at addr")))
					snprintf(rep->access, sizeof(rep->access), "Write");
				task_line(rep, s, n);
				rep->last = i;
				if (end_line(s, n))
					rep->ended = true;
			}
		}
		/* a report without a line of its own for GAP_MAX lines ends */
		for (k = 0; k < o.n; k++)
			if (!o.v[k]->done && i - o.v[k]->last > GAP_MAX)
				finish_report(r, path, o.v[k]);
		flush_done(&o);
		prev = cur;
	}
	for (k = 0; k < o.n; k++)
		if (!o.v[k]->done) {
			o.v[k]->eof = !o.v[k]->ended;
			finish_report(r, path, o.v[k]);
		}
	flush_done(&o);
	free(o.v);
}

static int read_file(const char *path, char **buf, size_t *size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 0, n = 0, k;
	char *b = NULL;

	if (!f)
		return -1;
	for (;;) {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			b = xrealloc(b, cap);
		}
		k = fread(b + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		if (f != stdin)
			fclose(f);
		free(b);
		errno = e ? e : EIO;
		return -1;
	}
	if (f != stdin)
		fclose(f);
	*buf = b;
	*size = n;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s reports [--json] [--docs-db FILE] LOG...\n"
		"The kernel reports of console logs (WARNING, BUG, Oops, KASAN,\n"
		"lockdep, RCU stall, hung task, panic, ...): one line each, or with\n"
		"--json one object each. LOG '-' is standard input.\n\n"
		"  --json          one JSON object per report\n"
		"  --docs-db FILE  the docs database with the report classes\n"
		"                  (docs-db/catalog/report.kmsg); default as kmsg explain\n\n"
		"Exit status: 0 no report, 1 reports found, 2 an error.\n",
		prog);
}

/*
 * The report classes and frames of the docs database of @o, ready to
 * scan. 0, or 2 after a message on standard error.
 */
static int rp_load(struct rp *r, const struct options *o)
{
	struct kmsg_docs *docs;
	char err[1024];

	docs = docs_open(o, err, sizeof(err));
	if (!docs) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 2;
	}
	r->m = kmsg_match_new();
	if (!r->m)
		oom_exit();
	if (kmsg_docs_report_formats(docs, add_format, r) ||
	    kmsg_docs_report_frames(docs, add_frame, r)) {
		if (!r->said)
			fprintf(stderr, "%s: %s\n", prog, kmsg_docs_errmsg(docs));
		kmsg_docs_close(docs);
		return 2;
	}
	kmsg_docs_close(docs);
	if (!r->ncls) {
		fprintf(stderr, "%s: %s has no report classes (docs-db/catalog/report.kmsg; a database of schema 6)\n",
			prog, o->db ? o->db : "the docs database");
		return 2;
	}
	if (rp_prepare(r))
		return 2;
	if (kmsg_match_build(r->m))
		oom_exit();
	return 0;
}

int reports_each(const struct options *o, const char *path,
		 void (*cb)(void *ctx, const char *cls, const char *title,
			    bool corrupted), void *ctx)
{
	struct rp r = { .collect = cb, .collect_ctx = ctx };
	char *buf = NULL;
	size_t size = 0;
	int ret = rp_load(&r, o);

	if (!ret && read_file(path, &buf, &size)) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		ret = 2;
	}
	if (!ret)
		scan(&r, path, buf, size);
	free(buf);
	rp_free(&r);
	return ret;
}

int reports_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "docs-db", required_argument, NULL, 'd' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct options o = { 0 };
	struct rp r = { 0 };
	int c, i, ret = 0, werr = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			r.json = true;
			break;
		case 'd':
			o.db = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	ret = rp_load(&r, &o);
	if (ret)
		goto out;
	for (i = optind; i < argc; i++) {
		char *buf = NULL;
		size_t size = 0;

		if (read_file(argv[i], &buf, &size)) {
			fprintf(stderr, "%s: %s: %s\n", prog, argv[i], strerror(errno));
			ret = 2;
			continue;
		}
		scan(&r, argv[i], buf, size);
		free(buf);
		if (fflush(stdout) && !werr)
			werr = errno;
	}
	if ((fflush(stdout) && !werr) || ferror(stdout)) {
		if (!werr)
			werr = errno ? errno : EIO;
		fprintf(stderr, "%s: standard output: %s\n", prog, strerror(werr));
		ret = 2;
	}
out:
	rp_free(&r);
	if (ret)
		return ret;
	return r.found ? 1 : 0;
}
