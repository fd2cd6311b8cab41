// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_match - which printk() format printed a line of kernel log text
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_match.h"
#include "kmsg_snap.h"

enum tok_kind {
	T_LIT,		/* literal text */
	T_INT,		/* %d %u %x ... */
	T_CHAR,		/* %c */
	T_STR,		/* any text, shortest first */
	T_WORD,		/* a non-space run, longest first */
	T_ERR,		/* %pe */
	T_PTR,		/* %p %px %pK */
	T_SYM,		/* %ps %pS %pB */
	T_IP4,
	T_IP6,
	T_MAC,
	T_UUID,
	T_PA,		/* %pa */
	T_RES,		/* %pr %pR: "[...]" */
	T_TIME,		/* %pt: a date or a time, "2038-01-19", "03:14:07" */
	T_REST,		/* after an invalid conversion: anything */
};

struct tok {
	unsigned char kind;
	bool pre;		/* part of the prefix */
	bool pad;		/* a width: spaces may pad */
	bool left;		/* '-': the padding comes after */
	unsigned char base;
	unsigned short min;	/* T_INT: digits at least (precision, zero pad) */
	unsigned short width;	/* bytes at least (a fixed width) */
	unsigned int flags;	/* KMSG_CONV_* */
	enum kmsg_arg_type type;
	char conv, ext;
	int max;		/* T_STR: at most this many bytes, -1: any */
	unsigned int off, len;	/* T_LIT: bytes of the pattern's text */
};

struct pat {
	char *id;
	char *text;		/* literal bytes, for T_LIT */
	unsigned int tok, ntok;	/* into m->toks */
	unsigned int literal;	/* literal bytes of the pattern */
	/* non-space literal bytes of the site's own text, and word bytes */
	unsigned int evidence, word;
	bool weak;		/* too little evidence to identify a line */
	bool str_first;		/* the format (not the prefix) starts with %s */
	/* a tag of several words (tag_of()), all of the site's own text */
	bool tag_spaced, tag_only;
	uint32_t tag_hash, fmt_hash;
	signed char level;	/* 0..7, -1: any */
};

struct anchor {
	uint32_t hash;
	int pat;
};

/*
 * The bytes and byte pairs a text has, each a bit of 256 (feat_bit()):
 * a pattern's literal text must be in the line, so its bits must be the
 * line's, a test of a few instructions before a match is tried
 */
#define FEAT_WORDS	4
struct feat {
	uint64_t w[FEAT_WORDS];
};

#define KMSG_MATCH_CACHE	4

struct kmsg_match {
	struct pat *pats;
	size_t n, cap;
	struct tok *toks;
	size_t ntoks, tcap;
	struct anchor *anchors;	/* sorted by hash */
	size_t nanchors;
	int *free_pats;		/* patterns with no anchor, in cmp_pat() order */
	struct feat *free_feat;	/* their features, in that order */
	size_t nfree;
	struct feat *feat;	/* per pattern: its literal text's features */
	/*
	 * the patterns with no anchor by their rarest feature (the index in
	 * free_pats of those of feature b: fb_item[fb_start[b] ..
	 * fb_start[b + 1]), 256: of none), and those a line has (fl)
	 */
	uint32_t *fb_start;
	int *fb_item, *fl;
	uint64_t *fbits;
	uint32_t *stamp;	/* per pattern: the line it was last tried on */
	uint32_t gen;
	int *cand;
	size_t ncand, ccap;
	size_t built;		/* patterns the index covers */
	size_t *at;		/* per token of the longest pattern */
	size_t maxtok;
	/*
	 * Per (token, position) of one match attempt: memo[] == memo_gen if
	 * the rest of the pattern failed to match from there
	 */
	uint32_t *memo;
	size_t memo_cap;
	uint32_t memo_gen;
	/* of the line being matched: its level (-1 unknown), flags, features */
	int level;
	unsigned int flags;
	struct feat line;
	/*
	 * the last lines matched, with their results: kmsg dmesg matches a
	 * line of a timestamp shared with the next alone, with the line
	 * before it, then once more as the message it ends up in
	 */
	struct cached {
		char *text;
		size_t len, cap;
		int level;
		unsigned int flags;
		struct kmsg_match_result r;
	} cache[KMSG_MATCH_CACHE];
	unsigned int ncache, cache_next;
	/* restored from a snapshot: its arrays are the snapshot's */
	bool snap;
};

struct kmsg_match *kmsg_match_new(void)
{
	return calloc(1, sizeof(struct kmsg_match));
}

void kmsg_match_free(struct kmsg_match *m)
{
	size_t i;

	if (!m)
		return;
	if (!m->snap) {
		for (i = 0; i < m->n; i++) {
			free(m->pats[i].id);
			free(m->pats[i].text);
		}
	}
	free(m->pats);
	if (!m->snap) {
		free(m->toks);
		free(m->anchors);
		free(m->free_pats);
		free(m->free_feat);
		free(m->feat);
	}
	free(m->stamp);
	free(m->fb_start);
	free(m->fb_item);
	free(m->fl);
	free(m->fbits);
	free(m->cand);
	free(m->at);
	free(m->memo);
	for (i = 0; i < KMSG_MATCH_CACHE; i++)
		free(m->cache[i].text);
	free(m);
}

size_t kmsg_match_count(const struct kmsg_match *m)
{
	return m->n;
}

const char *kmsg_match_id(const struct kmsg_match *m, int pat)
{
	return pat >= 0 && (size_t)pat < m->n ? m->pats[pat].id : NULL;
}

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	p = realloc(*v, ncap * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = ncap;
	return 0;
}

/* ---- compiling ---------------------------------------------------------- */

static bool is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

struct compiler {
	struct kmsg_match *m;
	struct pat *p;
	char *text;		/* the pattern's literal bytes */
	size_t tlen;
	bool pre;
	int err;
};

static struct tok *new_tok(struct compiler *c, enum tok_kind kind)
{
	struct kmsg_match *m = c->m;
	struct tok *t;

	if (grow((void **)&m->toks, &m->tcap, m->ntoks, sizeof(*m->toks))) {
		c->err = -ENOMEM;
		return NULL;
	}
	t = &m->toks[m->ntoks++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->pre = c->pre;
	t->max = -1;
	c->p->ntok++;
	return t;
}

static void add_lit(struct compiler *c, const char *s, size_t len)
{
	struct tok *last = c->p->ntok ? &c->m->toks[c->m->ntoks - 1] : NULL;

	if (!len || c->err)
		return;
	if (last && last->kind == T_LIT) {
		last->len += len;
	} else {
		last = new_tok(c, T_LIT);
		if (!last)
			return;
		last->off = c->tlen;
		last->len = len;
	}
	memcpy(c->text + c->tlen, s, len);
	c->tlen += len;
	c->p->literal += len;
	/* the device prefix and whitespace are no evidence */
	for (; !c->pre && len; s++, len--) {
		if (*s == ' ' || *s == '\n' || *s == '\t')
			continue;
		c->p->evidence++;
		if (is_word((unsigned char)*s))
			c->p->word++;
	}
}

/* The token for a %p extension */
static enum tok_kind ptr_kind(const struct kmsg_conv *cv)
{
	char e = cv->ext_len ? cv->ext[0] : 0;
	char e1 = cv->ext_len > 1 ? cv->ext[1] : 0;

	switch (e) {
	case 0:
	case 'x':
	case 'K':
		return T_PTR;
	case 'e':
		return T_ERR;
	case 's':
	case 'S':
	case 'B':
		return T_SYM;
	case 'I':
	case 'i':
		if (e1 == '4')
			return T_IP4;
		if (e1 == '6')
			return T_IP6;
		return e1 == 'S' ? T_WORD : T_STR;
	case 'M':
	case 'm':
		return T_MAC;
	case 'U':
		return T_UUID;
	case 'a':
		return T_PA;
	case 'r':
	case 'R':
		return T_RES;
	case 't':
		return T_TIME;
	default:
		/* %pV, %pd, %pD, %pg, %pOF, %pG, %pC, %pE, %ph... */
		return T_STR;
	}
}

static void add_conv(struct compiler *c, const struct kmsg_conv *cv)
{
	enum tok_kind kind;
	struct tok *t;

	switch (cv->type) {
	case KMSG_ARG_SIGNED:
	case KMSG_ARG_UNSIGNED:
		kind = T_INT;
		break;
	case KMSG_ARG_CHAR:
		kind = T_CHAR;
		break;
	case KMSG_ARG_STRING:
		kind = c->pre ? T_WORD : T_STR;
		break;
	default:
		kind = ptr_kind(cv);
		break;
	}
	t = new_tok(c, kind);
	if (!t)
		return;
	t->pad = cv->width > 0 || cv->width_star;
	t->left = cv->flags & KMSG_CONV_LEFT;
	t->flags = cv->flags;
	t->base = (unsigned char)cv->base;
	t->type = cv->type;
	t->conv = cv->conv;
	t->ext = cv->ext_len ? cv->ext[0] : 0;
	if (cv->width > 0 && !cv->width_star)
		t->width = cv->width > 4096 ? 4096 : cv->width;
	/* number() zero-pads to the precision, and to a '0' width */
	if (kind == T_INT && cv->precision > 0 && !cv->prec_star)
		t->min = cv->precision > 64 ? 64 : cv->precision;
	if (kind == T_INT && (cv->flags & KMSG_CONV_ZEROPAD) &&
	    !(cv->flags & KMSG_CONV_LEFT) && cv->width > t->min &&
	    !(cv->flags & (KMSG_CONV_SIGN | KMSG_CONV_PLUS | KMSG_CONV_SPACE |
			   KMSG_CONV_SPECIAL)))
		t->min = cv->width > 64 ? 64 : cv->width;
	if (kind == T_STR && cv->type == KMSG_ARG_STRING && cv->precision >= 0 &&
	    !cv->prec_star && !t->pad)
		t->max = cv->precision;
	if (kind == T_STR && cv->type == KMSG_ARG_STRING && cv->prec_star)
		t->max = -1;
}

/* Compile @len bytes of @fmt; false at an invalid conversion */
static bool compile_fmt(struct compiler *c, const char *fmt, size_t len)
{
	struct kmsg_conv cv;
	size_t i = 0, j;

	while (i < len && !c->err) {
		for (j = i; j < len && fmt[j] != '%'; j++)
			;
		add_lit(c, fmt + i, j - i);
		if (j >= len)
			break;
		i = kmsg_conv_decode(fmt, len, j, &cv);
		if (cv.invalid) {
			new_tok(c, T_REST);
			return false;
		}
		if (cv.percent)
			add_lit(c, "%", 1);
		else
			add_conv(c, &cv);
	}
	return true;
}

/*
 * Does fmt start with a "%s" and end with a conversion that prints any
 * text ("%s", "%pV")?  Its literal text is then anywhere in a line, and
 * "%s version %s" fits "smpboot: CPU0: AMD QEMU TCG CPU version 2.5+
 * (family: 0xf, ...)" as well as its own driver's line.
 */
static bool open_ends(const char *fmt, size_t len)
{
	if (len < 4 || fmt[0] != '%' || fmt[1] != 's')
		return false;
	if (fmt[len - 2] == '%' && fmt[len - 1] == 's')
		return len < 3 || fmt[len - 3] != '%';
	return len >= 3 && fmt[len - 3] == '%' && fmt[len - 2] == 'p' &&
	       fmt[len - 1] == 'V';
}

/*
 * The tag at the start of format @fmt (not a device prefix), as pr_fmt()
 * puts before every message of a file: what it has before its first ": "
 * or " : " (or a final ':'), ':' included, with no conversion in it;
 * "rcu:", "kvm-clock:", "Spectre V2 :". Its length, 0 if none; @n: its
 * non-space bytes.
 */
static size_t tag_of(const char *fmt, size_t len, unsigned int *n)
{
	size_t i, k;

	for (i = 0; i < len && fmt[i] != '%'; i++)
		if (fmt[i] == ':' && (i + 1 == len || fmt[i + 1] == ' '))
			break;
	if (!i || i == len || fmt[i] != ':')
		return 0;
	for (*n = 0, k = 0; k <= i; k++)
		*n += fmt[k] != ' ' && fmt[k] != '\n' && fmt[k] != '\t';
	return i + 1;
}

/* The non-space bytes of @fmt's @len that are not in a conversion */
static size_t own_bytes(const char *fmt, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (fmt[i] == '%' && i + 1 < len && fmt[i + 1] != '%') {
			for (i++; i < len && strchr("-+ #0123456789.*hlLzjtq", fmt[i]); i++)
				;
			if (i < len && fmt[i] == 'p')
				while (i + 1 < len && ((fmt[i + 1] >= 'a' && fmt[i + 1] <= 'z') ||
						       (fmt[i + 1] >= 'A' && fmt[i + 1] <= 'Z')))
					i++;
			continue;
		}
		if (fmt[i] == '%')
			i++;
		n += fmt[i] != ' ' && fmt[i] != '\n' && fmt[i] != '\t';
	}
	return n;
}

/*
 * Is @fmt a head and, after its first ": ", nothing of its own but
 * conversions, the head with a conversion or the rest a "%pV":
 * "ata%u.%02u: %s", "%sEXT4-fs (%s): %pV", "(NULL device *): %pV"?
 * Whatever the message says is in them: another format's text, or one
 * the log's kernel printed and this build does not, fits as well.  (A
 * head of text alone before a "%s" is a tag, tag_of(): "Command line:
 * %s" may be a message of its own.)
 */
static bool head_only(const char *fmt, size_t len)
{
	const char *p = memmem(fmt, len, ": ", 2), *end = fmt + len;
	bool head;
	bool conv = false, pv = false;

	if (!p)
		return false;
	/*
	 * a head with a conversion and little text of its own: not "mounted
	 * filesystem with%s. Quota mode: %s." (ext4), a message whose own
	 * text is before its ": "
	 */
	head = memchr(fmt, '%', p - fmt) != NULL &&
	       own_bytes(fmt, (size_t)(p - fmt)) < KMSG_MATCH_EVIDENCE_LONE;
	for (p += 2; p < end; p++) {
		if (*p != '%') {
			if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9'))
				return false;
			continue;
		}
		if (p + 1 < end && p[1] == '%') {
			p++;
			continue;
		}
		if (++p == end)
			break;
		while (p < end && strchr("-+ #0123456789.*hlLzjtq", *p))
			p++;
		if (p < end && *p == 'p') {
			pv |= p + 1 < end && p[1] == 'V';
			while (p + 1 < end && ((p[1] >= 'a' && p[1] <= 'z') ||
					       (p[1] >= 'A' && p[1] <= 'Z')))
				p++;
		}
		conv = true;
	}
	return conv && (head || pv);
}

/*
 * Is @fmt text and one conversion that prints any text ("%s", "%pV"),
 * first or last: "Freezing %s", "%s found"?  Its text is then part of
 * many lines: "Freezing %s" fits 6.1's "Freezing user space processes
 * ... (elapsed 0.004 seconds) done.", a message of another kernel, and
 * "Found %s" a line of any subsystem.
 */
static bool lone_open(const char *fmt, size_t len)
{
	size_t i, n = 0, at = 0, end = 0;

	for (i = 0; i < len; i++) {
		if (fmt[i] != '%')
			continue;
		if (i + 1 < len && fmt[i + 1] == '%') {
			i++;
			continue;
		}
		if (++n > 1)
			return false;
		at = i;
		if (i + 1 < len && fmt[i + 1] == 's')
			end = i + 2;
		else if (i + 2 < len && fmt[i + 1] == 'p' && fmt[i + 2] == 'V')
			end = i + 3;
		else
			return false;
		i = end - 1;
	}
	return n == 1 && (at == 0 || end == len);
}

static uint32_t word_hash(const char *s, size_t len);

int kmsg_match_add(struct kmsg_match *m, const char *id, const char *prefix,
		   const char *fmt, size_t fmt_len)
{
	struct compiler c = { .m = m };
	const char *nul = memchr(fmt, '\0', fmt_len);
	size_t plen = prefix ? strlen(prefix) : 0, idlen = strlen(id);
	const char *dot = strchr(id, '.');
	/* a site printing its identifier "comp.N" (not "modname.hXXXXXXXX") */
	bool curated = dot && dot[1] >= '0' && dot[1] <= '9';
	struct pat *p;
	unsigned int tn;
	size_t tlen;
	bool only;

	if (nul)
		fmt_len = nul - fmt;
	if (m->snap)
		return -EINVAL;
	m->ncache = 0;
	if (grow((void **)&m->pats, &m->cap, m->n, sizeof(*m->pats)))
		return -ENOMEM;
	p = &m->pats[m->n];
	memset(p, 0, sizeof(*p));
	p->tok = m->ntoks;
	p->level = -1;
	p->id = strdup(id);
	/* literal text is never longer than prefix, id and format */
	p->text = malloc(plen + idlen + 2 + fmt_len + 1);
	if (!p->id || !p->text) {
		free(p->id);
		free(p->text);
		return -ENOMEM;
	}
	c.p = p;
	c.text = p->text;
	c.pre = true;
	if (compile_fmt(&c, prefix ? prefix : "", plen)) {
		c.pre = false;
		if (curated) {
			add_lit(&c, id, idlen);
			add_lit(&c, ": ", 2);
		}
		compile_fmt(&c, fmt, fmt_len);
	}
	/* trailing spaces: a log may drop them; the text's are dropped too */
	if (!c.err && p->ntok) {
		/* the literal before the end, or before an invalid conversion */
		bool rest = m->toks[m->ntoks - 1].kind == T_REST;
		struct tok *t = &m->toks[m->ntoks - 1 - (rest && p->ntok > 1)];

		while (t->kind == T_LIT && t->len &&
		       p->text[t->off + t->len - 1] == ' ') {
			t->len--;
			p->literal--;
		}
		if (t->kind == T_LIT && !t->len) {
			*t = m->toks[m->ntoks - 1];
			m->ntoks--;
			p->ntok--;
		}
	}
	if (c.err) {
		m->ntoks = p->tok;
		free(p->id);
		free(p->text);
		return c.err;
	}
	/*
	 * the site's own text only a tag: "rcu:  ", "clocksource: %s" weak;
	 * a tag of several words ("Spectre V2 : %s") where another format
	 * has it too (kmsg_match_build()): "Zone ranges:" or "Command line:
	 * %s" is a message of its own
	 */
	tlen = tag_of(fmt, fmt_len, &tn);
	only = tlen && !curated && p->evidence <= tn;
	if (tlen && memchr(fmt, ' ', tlen)) {
		p->tag_spaced = true;
		p->tag_only = only;
		p->tag_hash = word_hash(fmt, tlen);
		p->fmt_hash = word_hash(fmt, fmt_len);
		only = false;
	}
	p->str_first = fmt_len >= 2 && fmt[0] == '%' && fmt[1] == 's';
	if (!curated && head_only(fmt, fmt_len))
		only = true;
	p->weak = p->evidence < KMSG_MATCH_EVIDENCE ||
		  p->word < KMSG_MATCH_EVIDENCE_WORD || only ||
		  (open_ends(fmt, fmt_len) && p->evidence < KMSG_MATCH_EVIDENCE_OPEN) ||
		  (lone_open(fmt, fmt_len) && p->evidence < KMSG_MATCH_EVIDENCE_LONE);
	return (int)m->n++;
}

void kmsg_match_set_level(struct kmsg_match *m, int pat, int level)
{
	struct pat *p;

	if (pat < 0 || (size_t)pat >= m->n || m->snap)
		return;
	m->ncache = 0;
	p = &m->pats[pat];
	p->level = level >= 0 && level <= 7 ? level : -1;
	/*
	 * printk("%s...", KERN_INFO): the level is the first argument; the
	 * format's own start, not a device prefix's tokens it merged into
	 */
	if (p->level == 4 && p->str_first)
		p->level = -1;
}

unsigned int kmsg_match_evidence(const struct kmsg_match *m, int pat)
{
	return pat < 0 || (size_t)pat >= m->n ? 0 : m->pats[pat].evidence;
}

/* ---- the index ---------------------------------------------------------- */

static unsigned int feat_bit(unsigned char a, int b)
{
	/* a byte alone (b < 0), or followed by byte @b */
	return (a * 31u + (unsigned int)(b + 1) * 0x9e5u) & 255;
}

static void feat_set(struct feat *f, unsigned int bit)
{
	f->w[bit >> 6] |= (uint64_t)1 << (bit & 63);
}

/* The features of @len bytes of text */
static void feat_of(struct feat *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		feat_set(f, feat_bit((unsigned char)s[i], -1));
		if (i + 1 < len)
			feat_set(f, feat_bit((unsigned char)s[i],
					     (unsigned char)s[i + 1]));
	}
}

/* Has the line (@line) every feature of the pattern (@need)? */
static bool feat_in(const struct feat *line, const struct feat *need)
{
	uint64_t miss = 0;
	unsigned int i;

	for (i = 0; i < FEAT_WORDS; i++)
		miss |= need->w[i] & ~line->w[i];
	return !miss;
}

static void pat_feat(const struct kmsg_match *m, const struct pat *p,
		     struct feat *f)
{
	unsigned int k;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < p->ntok; k++) {
		const struct tok *t = &m->toks[p->tok + k];

		if (t->kind == T_LIT)
			feat_of(f, p->text + t->off, t->len);
	}
}

static uint32_t word_hash(const char *s, size_t len)
{
	uint32_t h = 0x811c9dc5;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x01000193;
	return h;
}

/*
 * Call @fn for each word of pattern @p's literal text with text of its own
 * around it (or the pattern's start or end)
 */
static void pat_words(const struct kmsg_match *m, const struct pat *p,
		      void (*fn)(void *ctx, uint32_t hash, size_t len),
		      void *ctx)
{
	unsigned int k;

	for (k = 0; k < p->ntok; k++) {
		const struct tok *t = &m->toks[p->tok + k];
		const char *s = p->text + t->off;
		size_t i = 0, j;

		if (t->kind != T_LIT)
			continue;
		while (i < t->len) {
			if (!is_word(s[i])) {
				i++;
				continue;
			}
			for (j = i; j < t->len && is_word(s[j]); j++)
				;
			if ((i > 0 || k == 0) && (j < t->len || k + 1 == p->ntok))
				fn(ctx, word_hash(s + i, j - i), j - i);
			i = j;
		}
	}
}

static int cmp_anchor(const void *a, const void *b)
{
	const struct anchor *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->pat - y->pat;
}

/*
 * Of each word hash: how many patterns have it (each pattern counted
 * once), in an open-addressing table of a power of two slots
 */
struct word_count {
	uint32_t hash;
	uint32_t n;		/* 0: the slot is empty */
	int last;		/* the last pattern counted */
};

struct counts {
	struct word_count *v;
	size_t mask, used;
	int pat;
	int err;
};

static struct word_count *count_slot(const struct counts *c, uint32_t hash)
{
	size_t i = (hash * 0x9e3779b1u) & c->mask;

	while (c->v[i].n && c->v[i].hash != hash)
		i = (i + 1) & c->mask;
	return &c->v[i];
}

/* Twice the slots, when 3/4 are used */
static int count_grow(struct counts *c)
{
	struct counts n = *c;
	size_t i;

	if (c->used < (c->mask + 1) / 4 * 3)
		return 0;
	if (c->mask >= SIZE_MAX / 2 / sizeof(*c->v))
		return -ENOMEM;
	n.mask = c->mask * 2 + 1;
	n.v = calloc(n.mask + 1, sizeof(*n.v));
	if (!n.v)
		return -ENOMEM;
	for (i = 0; i <= c->mask; i++)
		if (c->v[i].n)
			*count_slot(&n, c->v[i].hash) = c->v[i];
	free(c->v);
	*c = n;
	return 0;
}

static void count_word(void *ctx, uint32_t hash, size_t len)
{
	struct counts *c = ctx;
	struct word_count *w;

	(void)len;
	if (c->err || (c->err = count_grow(c)))
		return;
	w = count_slot(c, hash);
	if (!w->n) {
		c->used++;
		w->hash = hash;
		w->n = 1;
		w->last = c->pat;
	} else if (w->last != c->pat) {
		w->n++;
		w->last = c->pat;
	}
}

struct pick {
	const struct counts *counts;
	uint32_t best;
	size_t best_n, best_len;
	bool found;
};

static void pick_word(void *ctx, uint32_t hash, size_t len)
{
	struct pick *pk = ctx;
	size_t n = count_slot(pk->counts, hash)->n;

	if (!pk->found || n < pk->best_n ||
	    (n == pk->best_n && len > pk->best_len)) {
		pk->found = true;
		pk->best = hash;
		pk->best_n = n;
		pk->best_len = len;
	}
}

/*
 * The order in which candidates are tried: enough evidence first (a
 * skeleton only where nothing else matches), then the most literal text
 */
static int cmp_pat(const struct kmsg_match *m, int a, int b)
{
	const struct pat *x = &m->pats[a], *y = &m->pats[b];

	if (x->weak != y->weak)
		return x->weak ? 1 : -1;
	if (x->literal != y->literal)
		return x->literal > y->literal ? -1 : 1;
	return a - b;
}

static const struct kmsg_match *sort_m;

static int cmp_cand(const void *a, const void *b)
{
	return cmp_pat(sort_m, *(const int *)a, *(const int *)b);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A site whose own text is only a tag of several words is weak if
 * another format starts with that tag: it is then a file's pr_fmt()
 */
static int shared_tags(struct kmsg_match *m)
{
	uint64_t *v, key;
	size_t i, j, n = 0, lo, hi;

	for (i = 0; i < m->n; i++)
		n += m->pats[i].tag_spaced;
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = n = 0; i < m->n; i++)
		if (m->pats[i].tag_spaced)
			v[n++] = (uint64_t)m->pats[i].tag_hash << 32 |
				 m->pats[i].fmt_hash;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < m->n; i++) {
		struct pat *p = &m->pats[i];

		if (!p->tag_only)
			continue;
		key = (uint64_t)p->tag_hash << 32;
		for (lo = 0, hi = n; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (v[mid] < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (j = lo; j < n && v[j] >> 32 == p->tag_hash; j++)
			if ((uint32_t)v[j] != p->fmt_hash) {
				p->weak = true;
				break;
			}
	}
	free(v);
	return 0;
}

static bool feat_has(const struct feat *f, unsigned int bit)
{
	return f->w[bit / 64] >> (bit % 64) & 1;
}

/*
 * Index the patterns with no anchor by the feature of theirs the fewest
 * of them have: a line is then tested against those of its features
 * only, not against all of them. 0 or -ENOMEM.
 */
static int free_index(struct kmsg_match *m)
{
	uint32_t count[257] = { 0 };
	unsigned int *key;
	size_t j;
	unsigned int b;

	free(m->fb_start);
	free(m->fb_item);
	free(m->fl);
	free(m->fbits);
	m->fbits = calloc(m->nfree / 64 + 1, sizeof(*m->fbits));
	m->fb_start = calloc(258, sizeof(*m->fb_start));
	m->fb_item = calloc(m->nfree + 1, sizeof(*m->fb_item));
	m->fl = calloc(m->nfree + 1, sizeof(*m->fl));
	key = calloc(m->nfree + 1, sizeof(*key));
	if (!m->fb_start || !m->fb_item || !m->fl || !m->fbits || !key) {
		free(key);
		return -ENOMEM;
	}
	for (j = 0; j < m->nfree; j++)
		for (b = 0; b < 256; b++)
			count[b] += feat_has(&m->free_feat[j], b);
	for (j = 0; j < m->nfree; j++) {
		key[j] = 256;
		for (b = 0; b < 256; b++)
			if (feat_has(&m->free_feat[j], b) &&
			    (key[j] == 256 || count[b] < count[key[j]]))
				key[j] = b;
	}
	memset(count, 0, sizeof(count));
	for (j = 0; j < m->nfree; j++)
		count[key[j]]++;
	for (b = 0; b < 257; b++)
		m->fb_start[b + 1] = m->fb_start[b] + count[b];
	memset(count, 0, sizeof(count));
	/* in free_pats' order within each feature */
	for (j = 0; j < m->nfree; j++)
		m->fb_item[m->fb_start[key[j]] + count[key[j]]++] = (int)j;
	free(key);
	return 0;
}

/*
 * The patterns with no anchor whose features the line (m->line) has, as
 * indexes of free_pats, in its order, in m->fl: their number.  Those it
 * leaves out best_of() would pass over: it only ends its loop at a
 * pattern, which a later pattern in that order would end as well.
 */
static size_t free_filter(struct kmsg_match *m)
{
	size_t n = 0, k, words = (m->nfree + 63) / 64;
	unsigned int b;

	memset(m->fbits, 0, words * sizeof(*m->fbits));
	for (b = 0; b < 257; b++) {
		if (b < 256 && !feat_has(&m->line, b))
			continue;
		for (k = m->fb_start[b]; k < m->fb_start[b + 1]; k++) {
			int j = m->fb_item[k];

			if (feat_in(&m->line, &m->free_feat[j]))
				m->fbits[j / 64] |= 1ull << (j % 64);
		}
	}
	for (k = 0; k < words; k++) {
		uint64_t w = m->fbits[k];

		while (w) {
			m->fl[n++] = (int)(k * 64 + (size_t)__builtin_ctzll(w));
			w &= w - 1;
		}
	}
	return n;
}

static int build(struct kmsg_match *m);

int kmsg_match_build(struct kmsg_match *m)
{
	if (m->snap)
		return 0;
	return build(m);
}

static int build(struct kmsg_match *m)
{
	struct counts counts = { 0 };
	struct pick pk;
	size_t i, k = 0, nfree = 0;
	struct anchor *anchors;
	struct feat *feat, *free_feat;
	int *free_pats;
	uint32_t *stamp;

	m->ncache = 0;
	if (shared_tags(m))
		return -ENOMEM;
	/* how many patterns have each word */
	counts.mask = 1023;
	counts.v = calloc(counts.mask + 1, sizeof(*counts.v));
	if (!counts.v)
		return -ENOMEM;
	for (i = 0; i < m->n && !counts.err; i++) {
		counts.pat = (int)i;
		pat_words(m, &m->pats[i], count_word, &counts);
	}
	if (counts.err) {
		free(counts.v);
		return counts.err;
	}
	anchors = calloc(m->n ? m->n : 1, sizeof(*anchors));
	free_pats = calloc(m->n ? m->n : 1, sizeof(*free_pats));
	stamp = calloc(m->n ? m->n : 1, sizeof(*stamp));
	feat = malloc((m->n ? m->n : 1) * sizeof(*feat));
	if (!anchors || !free_pats || !stamp || !feat) {
		free(counts.v);
		free(anchors);
		free(free_pats);
		free(stamp);
		free(feat);
		return -ENOMEM;
	}
	/* each pattern under its rarest word */
	for (i = 0; i < m->n; i++) {
		memset(&pk, 0, sizeof(pk));
		pk.counts = &counts;
		pat_words(m, &m->pats[i], pick_word, &pk);
		pat_feat(m, &m->pats[i], &feat[i]);
		if (pk.found) {
			anchors[k].hash = pk.best;
			anchors[k++].pat = (int)i;
		} else if (m->pats[i].evidence) {
			/* one with no evidence at all is no candidate */
			free_pats[nfree++] = (int)i;
		}
	}
	free(counts.v);
	if (k)
		qsort(anchors, k, sizeof(*anchors), cmp_anchor);
	/* tried in this order: merged with a line's candidates, not sorted */
	sort_m = m;
	if (nfree)
		qsort(free_pats, nfree, sizeof(*free_pats), cmp_cand);
	free_feat = malloc((nfree ? nfree : 1) * sizeof(*free_feat));
	if (!free_feat) {
		free(anchors);
		free(free_pats);
		free(stamp);
		free(feat);
		return -ENOMEM;
	}
	for (i = 0; i < nfree; i++)
		free_feat[i] = feat[free_pats[i]];
	free(m->anchors);
	free(m->free_pats);
	free(m->free_feat);
	free(m->feat);
	free(m->stamp);
	m->anchors = anchors;
	m->nanchors = k;
	m->free_pats = free_pats;
	m->free_feat = free_feat;
	m->nfree = nfree;
	m->feat = feat;
	m->stamp = stamp;
	m->gen = 0;
	for (i = 0; i < m->n; i++)
		if (m->pats[i].ntok > m->maxtok)
			m->maxtok = m->pats[i].ntok;
	free(m->at);
	m->at = calloc(m->maxtok + 1, sizeof(*m->at));
	if (!m->at || free_index(m))
		return -ENOMEM;
	m->built = m->n;
	return 0;
}

/* ---- snapshots ----------------------------------------------------------- */

enum {
	SNAP_COUNTS = 0x4d415401,	/* n, ntoks, nanchors, nfree */
	SNAP_PATS,
	SNAP_PAT_STR,
	SNAP_TEXT,
	SNAP_TOKS,
	SNAP_ANCHORS,
	SNAP_FREE,
	SNAP_FREE_FEAT,
	SNAP_FEAT,
};

/* a pattern's strings: its id in the pool, its literal bytes in SNAP_TEXT */
struct pat_str {
	uint32_t id, pad;
	uint64_t text, len;
};

unsigned long long kmsg_match_snap_sig(void)
{
	return (uint64_t)sizeof(struct pat) << 48 ^ (uint64_t)sizeof(struct tok) << 32 ^
	       (uint64_t)sizeof(struct anchor) << 24 ^ (uint64_t)sizeof(struct feat) << 16 ^
	       (uint64_t)T_REST << 8 ^ KMSG_MATCH_EVIDENCE_LONE;
}

int kmsg_match_snap_save(const struct kmsg_match *m, struct kmsg_snap_writer *w)
{
	uint64_t counts[4] = { m->n, m->ntoks, m->nanchors, m->nfree };
	struct pat_str *ps;
	struct pat *pats;
	char *text = NULL;
	size_t i, k, tlen = 0, tcap = 0;

	if (m->built != m->n)
		return -EINVAL;
	pats = calloc(m->n + 1, sizeof(*pats));
	ps = calloc(m->n + 1, sizeof(*ps));
	if (!pats || !ps) {
		free(pats);
		free(ps);
		return -ENOMEM;
	}
	for (i = 0; i < m->n; i++) {
		const struct pat *p = &m->pats[i];
		size_t len = 0;

		for (k = p->tok; k < p->tok + p->ntok; k++)
			if (m->toks[k].kind == T_LIT &&
			    m->toks[k].off + m->toks[k].len > len)
				len = m->toks[k].off + m->toks[k].len;
		if (grow((void **)&text, &tcap, tlen + len + 1, 1)) {
			free(pats);
			free(ps);
			free(text);
			return -ENOMEM;
		}
		memcpy(text + tlen, p->text, len);
		text[tlen + len] = '\0';
		pats[i] = *p;
		pats[i].id = NULL;
		pats[i].text = NULL;
		ps[i].id = kmsg_snap_str(w, p->id);
		ps[i].text = tlen;
		ps[i].len = len;
		tlen += len + 1;
	}
	kmsg_snap_add(w, SNAP_COUNTS, counts, 4, sizeof(counts[0]));
	kmsg_snap_add(w, SNAP_PATS, pats, m->n, sizeof(*pats));
	kmsg_snap_add(w, SNAP_PAT_STR, ps, m->n, sizeof(*ps));
	kmsg_snap_add(w, SNAP_TEXT, text, tlen, 1);
	kmsg_snap_add(w, SNAP_TOKS, m->toks, m->ntoks, sizeof(*m->toks));
	kmsg_snap_add(w, SNAP_ANCHORS, m->anchors, m->nanchors, sizeof(*m->anchors));
	kmsg_snap_add(w, SNAP_FREE, m->free_pats, m->nfree, sizeof(*m->free_pats));
	kmsg_snap_add(w, SNAP_FREE_FEAT, m->free_feat, m->nfree, sizeof(*m->free_feat));
	kmsg_snap_add(w, SNAP_FEAT, m->feat, m->n, sizeof(*m->feat));
	free(pats);
	free(ps);
	free(text);
	return 0;
}

/* Is the bool at @b, read from a file, 0 or 1? */
static bool snap_bool(const bool *b)
{
	return *(const unsigned char *)b <= 1;
}

struct kmsg_match *kmsg_match_snap_load(const struct kmsg_snap *s)
{
	size_t n, ntoks, nanch, nfree, nps, ntext, nfeat, nff, nc, i, k, lit;
	const struct pat *pats;
	const struct pat_str *ps;
	const uint64_t *counts;
	struct kmsg_match *m;
	const char *text;

	counts = kmsg_snap_get(s, SNAP_COUNTS, sizeof(*counts), &nc);
	if (!counts || nc != 4)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->snap = true;
	/* the mapping is read-only: the arrays a match only reads are its */
	pats = kmsg_snap_get(s, SNAP_PATS, sizeof(*pats), &n);
	ps = kmsg_snap_get(s, SNAP_PAT_STR, sizeof(*ps), &nps);
	text = kmsg_snap_get(s, SNAP_TEXT, 1, &ntext);
	m->toks = (struct tok *)kmsg_snap_get(s, SNAP_TOKS, sizeof(*m->toks), &ntoks);
	m->anchors = (struct anchor *)kmsg_snap_get(s, SNAP_ANCHORS,
						    sizeof(*m->anchors), &nanch);
	m->free_pats = (int *)kmsg_snap_get(s, SNAP_FREE, sizeof(*m->free_pats),
					    &nfree);
	m->free_feat = (struct feat *)kmsg_snap_get(s, SNAP_FREE_FEAT,
						    sizeof(*m->free_feat), &nff);
	m->feat = (struct feat *)kmsg_snap_get(s, SNAP_FEAT, sizeof(*m->feat), &nfeat);
	if (!pats || !ps || !text || !m->toks || !m->anchors || !m->free_pats ||
	    !m->free_feat || !m->feat || counts[0] != n || counts[1] != ntoks ||
	    counts[2] != nanch || counts[3] != nfree || nps != n || nfeat != n ||
	    nff != nfree || n > INT_MAX)
		goto bad;
	/* the patterns get the strings' addresses: a copy */
	m->pats = malloc((n ? n : 1) * sizeof(*m->pats));
	if (!m->pats)
		goto bad;
	memcpy(m->pats, pats, n * sizeof(*m->pats));
	/* every index and offset a match follows in its bounds, every bool one */
	for (i = 0; i < n; i++) {
		struct pat *p = &m->pats[i];

		if (!snap_bool(&p->weak) || !snap_bool(&p->str_first) ||
		    !snap_bool(&p->tag_spaced) || !snap_bool(&p->tag_only) ||
		    !(p->id = (char *)kmsg_snap_string(s, ps[i].id)) ||
		    ps[i].text > ntext || ps[i].len >= ntext - ps[i].text ||
		    p->tok > ntoks || p->ntok > ntoks - p->tok ||
		    p->level < -1 || p->level > 7)
			goto bad;
		p->text = (char *)text + ps[i].text;
		lit = 0;
		for (k = p->tok; k < p->tok + p->ntok; k++) {
			const struct tok *t = &m->toks[k];

			if (t->kind > T_REST || !snap_bool(&t->pre) ||
			    !snap_bool(&t->pad) || !snap_bool(&t->left) ||
			    (t->kind == T_LIT &&
			     (t->off > ps[i].len || t->len > ps[i].len - t->off)))
				goto bad;
			if (t->kind == T_LIT)
				lit += t->len;
		}
		/* literal_runs() sizes its copy of the runs by it */
		if (lit != p->literal)
			goto bad;
		if (p->ntok > m->maxtok)
			m->maxtok = p->ntok;
	}
	for (i = 0; i < nanch; i++)
		if (m->anchors[i].pat < 0 || (size_t)m->anchors[i].pat >= n ||
		    (i && m->anchors[i].hash < m->anchors[i - 1].hash))
			goto bad;
	for (i = 0; i < nfree; i++)
		if (m->free_pats[i] < 0 || (size_t)m->free_pats[i] >= n)
			goto bad;
	m->n = m->cap = m->built = n;
	m->ntoks = m->tcap = ntoks;
	m->nanchors = nanch;
	m->nfree = nfree;
	m->stamp = calloc(n ? n : 1, sizeof(*m->stamp));
	m->at = calloc(m->maxtok + 1, sizeof(*m->at));
	if (!m->stamp || !m->at || free_index(m))
		goto bad;
	return m;
bad:
	kmsg_match_free(m);
	return NULL;
}

/* ---- matching ----------------------------------------------------------- */

struct run {
	const struct kmsg_match *m;
	const struct pat *p;
	const char *s;
	size_t len;
	bool partial;		/* the text may go on after the pattern */
	long steps;
	size_t *cap;		/* per token: where it ended; NULL: not wanted */
	size_t *at;		/* per token: where it started */
	uint32_t *memo;		/* NULL: the step budget alone bounds it */
	uint32_t gen;
	bool nl_literal;	/* no conversion matches a newline */
};

static bool is_space(char c)
{
	return c == ' ';
}

static bool in_base(char c, const struct tok *t)
{
	if (c >= '0' && c <= '9')
		return c - '0' < t->base;
	if (t->base != 16)
		return false;
	if (t->flags & KMSG_CONV_SMALL)
		return c >= 'a' && c <= 'f';
	return c >= 'A' && c <= 'F';
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static size_t span(const char *s, size_t at, size_t len, bool (*ok)(char))
{
	size_t i = at;

	while (i < len && ok(s[i]))
		i++;
	return i - at;
}

static bool is_sym(char c)
{
	return is_word((unsigned char)c) || c == '.' || c == '$';
}

static bool not_space(char c)
{
	return c != ' ' && c != '\n';
}

static bool is_ip6(char c)
{
	return is_hex(c) || (c >= 'A' && c <= 'F') || c == ':' || c == '.';
}

static bool is_mac(char c)
{
	return is_hex(c) || c == ':' || c == '-';
}

static bool is_uuid(char c)
{
	return is_hex(c) || (c >= 'A' && c <= 'F') || c == '-';
}

static bool is_upper_alnum(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_time(char c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == ':' || c == 'T';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_lower_(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

/* Hashed or raw pointer, or the strings pointer() prints instead */
static size_t ptr_len(const char *s, size_t at, size_t len)
{
	size_t n = span(s, at, len, is_hex);

	if (n)
		return n;
	if (at < len && s[at] == '(') {
		n = span(s, at + 1, len, is_lower_);
		if (n && at + 1 + n < len && s[at + 1 + n] == ')')
			return n + 2;
	}
	return 0;
}

static bool match_from(struct run *r, unsigned int k, size_t pos);

/* Try the token ending at @end, then the rest */
static bool next(struct run *r, unsigned int k, size_t end)
{
	const struct tok *t = &r->m->toks[r->p->tok + k];

	/*
	 * a field of a fixed width is that wide at least; a left-justified
	 * one at the end may have lost its padding to a trimmed log line
	 */
	if (t->width && end - r->at[k] < t->width &&
	    !(t->left && end == r->len))
		return false;
	/*
	 * a device prefix's driver name never ends in ':': "Bluetooth:
	 * hci0: ..." and "ACPI: \_SB_.PR00: ..." are a tag and a name
	 */
	if (k == 0 && t->kind == T_WORD && t->pre && end > r->at[k] &&
	    r->s[end - 1] == ':')
		return false;
	if (r->nl_literal && t->kind != T_LIT && end > r->at[k] &&
	    memchr(r->s + r->at[k], '\n', end - r->at[k]))
		return false;
	if (r->cap)
		r->cap[k] = end;
	return match_from(r, k + 1, end);
}

/* Longest first: every end from @hi down to @lo */
static bool try_down(struct run *r, unsigned int k, size_t lo, size_t hi)
{
	size_t e;

	for (e = hi; e >= lo; e--) {
		if (next(r, k, e))
			return true;
		if (!e)
			break;
	}
	return false;
}

static bool match_int(struct run *r, const struct tok *t, unsigned int k,
		      size_t pos)
{
	const char *s = r->s;
	size_t i = pos, d, end;

	if (t->pad && !t->left)
		i += span(s, i, r->len, is_space);
	if (i < r->len && ((s[i] == '-' && (t->flags & KMSG_CONV_SIGN)) ||
			   (s[i] == '+' && (t->flags & KMSG_CONV_PLUS)) ||
			   (s[i] == ' ' && (t->flags & KMSG_CONV_SPACE))))
		i++;
	if ((t->flags & KMSG_CONV_SPECIAL) && t->base == 16) {
		if (i + 1 >= r->len || s[i] != '0' ||
		    (s[i + 1] | 0x20) != 'x')
			return false;
		i += 2;
	}
	for (d = 0; i + d < r->len && in_base(s[i + d], t); d++)
		;
	if (!d || d < t->min)
		return false;
	end = i + d;
	if (t->pad && t->left) {
		size_t sp = span(s, end, r->len, is_space);

		/* spaces after, as many as there are first */
		if (next(r, k, end + sp))
			return true;
		if (sp && next(r, k, end))
			return true;
		return d > 1 && d > t->min &&
		       try_down(r, k, i + (t->min ? t->min : 1), end - 1);
	}
	return try_down(r, k, i + (t->min ? t->min : 1), end);
}

/* Any text, shortest first; only where the literal after it can start */
static bool match_str(struct run *r, const struct tok *t, unsigned int k,
		      size_t pos)
{
	const struct tok *nt = k + 1 < r->p->ntok ? t + 1 : NULL;
	size_t hi = r->len, e;
	char first;

	if (t->max >= 0 && (size_t)t->max < hi - pos)
		hi = pos + t->max;
	if (!nt) {
		if (r->partial)
			return next(r, k, pos);
		return hi == r->len && next(r, k, hi);
	}
	if (nt->kind != T_LIT) {
		for (e = pos; e <= hi; e++)
			if (next(r, k, e))
				return true;
		return false;
	}
	first = r->p->text[nt->off];
	/* the literal starts at most at hi, and before the end */
	if (hi == r->len && hi > pos)
		hi--;
	else if (hi == r->len)
		return false;
	for (e = pos; e <= hi; e++) {
		const char *q = memchr(r->s + e, first, hi + 1 - e);

		if (!q)
			return false;
		e = q - r->s;
		if (next(r, k, e))
			return true;
	}
	return false;
}

static bool match_sym(struct run *r, unsigned int k, size_t pos)
{
	const char *s = r->s;
	size_t n, i = pos, close;

	if (pos + 2 < r->len && s[pos] == '0' && s[pos + 1] == 'x') {
		n = span(s, pos + 2, r->len, is_hex);
		if (n && next(r, k, pos + 2 + n))
			return true;
	}
	n = span(s, i, r->len, is_sym);
	if (!n)
		return false;
	i += n;
	/* +0xoff/0xsize */
	if (i + 3 < r->len && s[i] == '+' && s[i + 1] == '0' && s[i + 2] == 'x') {
		size_t a = span(s, i + 3, r->len, is_hex), b;

		if (a && i + 3 + a + 3 < r->len && s[i + 3 + a] == '/' &&
		    s[i + 4 + a] == '0' && s[i + 5 + a] == 'x') {
			b = span(s, i + 6 + a, r->len, is_hex);
			if (b)
				i += 6 + a + b;
		}
	}
	/* " [module]" */
	if (i + 2 < r->len && s[i] == ' ' && s[i + 1] == '[') {
		const char *q = memchr(s + i + 2, ']', r->len - i - 2);

		close = q ? (size_t)(q - s) : 0;
		if (q && close > i + 2 && next(r, k, close + 1))
			return true;
	}
	return next(r, k, i);
}

static bool match_err(struct run *r, unsigned int k, size_t pos)
{
	const char *s = r->s;
	size_t i = pos + (pos < r->len && s[pos] == '-'), n;

	if (i < r->len && s[i] == 'E') {
		n = span(s, i, r->len, is_upper_alnum);
		if (n > 1 && next(r, k, i + n))
			return true;
	}
	n = span(s, i, r->len, is_digit);
	if (n && next(r, k, i + n))
		return true;
	n = ptr_len(s, pos, r->len);
	return n && next(r, k, pos + n);
}

static bool match_ip4(struct run *r, unsigned int k, size_t pos)
{
	size_t i = pos, n;
	int part;

	for (part = 0; part < 4; part++) {
		if (part) {
			if (i >= r->len || r->s[i] != '.')
				return false;
			i++;
		}
		n = span(r->s, i, r->len, is_digit);
		if (!n || n > 3)
			return false;
		i += n;
	}
	return next(r, k, i);
}

/* A run of @ok characters, at least @min, longest first */
static bool match_run(struct run *r, unsigned int k, size_t pos,
		      bool (*ok)(char), size_t min)
{
	size_t n = span(r->s, pos, r->len, ok);

	if (n < min || !n)
		return false;
	return try_down(r, k, pos + min, pos + n);
}

static bool match_tok(struct run *r, unsigned int k, size_t pos)
{
	const struct tok *t = &r->m->toks[r->p->tok + k];
	const char *q;
	size_t n, i;

	r->at[k] = pos;
	switch (t->kind) {
	case T_LIT:
		if (r->len - pos < t->len ||
		    memcmp(r->s + pos, r->p->text + t->off, t->len))
			return false;
		return next(r, k, pos + t->len);
	case T_INT:
		return match_int(r, t, k, pos);
	case T_CHAR:
		n = t->pad && !t->left ? span(r->s, pos, r->len, is_space) : 0;
		/* the character itself may be a space */
		for (i = 0; i <= n; i++) {
			size_t e = pos + i + 1;

			if (e > r->len)
				break;
			if (t->pad && t->left)
				e += span(r->s, e, r->len, is_space);
			if (next(r, k, e))
				return true;
		}
		return false;
	case T_STR:
		return match_str(r, t, k, pos);
	case T_WORD:
		return match_run(r, k, pos, not_space, 1);
	case T_ERR:
		return match_err(r, k, pos);
	case T_PTR:
		if (t->pad && !t->left)
			pos += span(r->s, pos, r->len, is_space);
		n = ptr_len(r->s, pos, r->len);
		/* pointer_string(): 2 * sizeof(void *) digits, zero-padded */
		if (!t->pad && n && r->s[pos] != '(' && n != 8 && n != 16)
			return false;
		return n && next(r, k, pos + n);
	case T_SYM:
		return match_sym(r, k, pos);
	case T_IP4:
		return match_ip4(r, k, pos);
	case T_IP6:
		return match_run(r, k, pos, is_ip6, 2);
	case T_MAC:
		return match_run(r, k, pos, is_mac, 12);
	case T_UUID:
		return match_run(r, k, pos, is_uuid, 32);
	case T_PA:
		if (pos + 2 >= r->len || r->s[pos] != '0' || r->s[pos + 1] != 'x')
			return false;
		n = span(r->s, pos + 2, r->len, is_hex);
		return n && next(r, k, pos + 2 + n);
	case T_TIME:
		/* digits with '-' or ':': never a bare number */
		n = span(r->s, pos, r->len, is_time);
		for (i = 0; i < n && r->s[pos + i] != '-' && r->s[pos + i] != ':'; i++)
			;
		return i < n && try_down(r, k, pos + i + 1, pos + n);
	case T_RES:
		if (pos >= r->len || r->s[pos] != '[')
			return false;
		for (i = pos + 1; i < r->len; i = q - r->s + 1) {
			q = memchr(r->s + i, ']', r->len - i);
			if (!q)
				return false;
			if (next(r, k, q - r->s + 1))
				return true;
		}
		return false;
	default:		/* T_REST */
		return next(r, k, r->len);
	}
}

/*
 * Whether the rest of the pattern from token @k matches from @pos depends on
 * nothing else: a failure is remembered, so that no (token, position) is
 * tried twice. Without that, n %s between separators try each way to split
 * the text, exponential in n, and the step budget would end the attempt
 * long before it reaches a match.
 */
static bool match_from(struct run *r, unsigned int k, size_t pos)
{
	uint32_t *memo = NULL;

	if (--r->steps < 0)
		return false;
	if (k == r->p->ntok)
		return pos == r->len || r->partial;
	if (r->memo && pos <= r->len) {
		memo = &r->memo[k * (r->len + 1) + pos];
		if (*memo == r->gen)
			return false;
	}
	if (match_tok(r, k, pos))
		return true;
	/* not when out of steps: that is no answer */
	if (memo && r->steps >= 0)
		*memo = r->gen;
	return false;
}

static size_t trim(const char *s, size_t len)
{
	while (len && s[len - 1] == ' ')
		len--;
	return len;
}

/* The memo of an attempt of @ntok tokens on @len bytes, or NULL */
static uint32_t *memo_for(struct kmsg_match *m, size_t ntok, size_t len,
			  uint32_t *gen)
{
	size_t n;
	uint32_t *v;

	if (len >= KMSG_MATCH_MEMO_MAX || ntok > KMSG_MATCH_MEMO_MAX / (len + 1))
		return NULL;
	n = ntok * (len + 1);
	if (n > m->memo_cap) {
		v = realloc(m->memo, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + m->memo_cap, 0, (n - m->memo_cap) * sizeof(*v));
		m->memo = v;
		m->memo_cap = n;
	}
	if (++m->memo_gen == 0) {
		memset(m->memo, 0, m->memo_cap * sizeof(*m->memo));
		m->memo_gen = 1;
	}
	*gen = m->memo_gen;
	return m->memo;
}

static bool match_pat(struct kmsg_match *m, int pat, const char *s,
		      size_t len, bool partial, size_t *cap)
{
	struct run r = {
		.m = m, .p = &m->pats[pat], .s = s, .len = trim(s, len),
		.partial = partial, .steps = KMSG_MATCH_STEPS, .cap = cap,
		.at = m->at, .nl_literal = m->flags & KMSG_MATCH_NL_LITERAL,
	};

	static const char null_dev[] = "(NULL device *): ";
	const size_t nd = sizeof(null_dev) - 1;
	unsigned int k = 0;

	/* a partial match must end before the text does */
	if ((partial && !r.p->ntok) || !m->at || r.p->ntok > m->maxtok)
		return false;
	r.memo = memo_for(m, r.p->ntok, r.len, &r.gen);
	/*
	 * dev_printk() of no device prints this instead of "%s %s: ", driver
	 * and device: those conversions match nothing, and the literal after
	 * them (": ", and any text of the format it was merged with) matches
	 * from the ": " it ends in
	 */
	if (r.p->ntok > 3 && m->toks[r.p->tok].pre && r.len > nd &&
	    !memcmp(s, null_dev, nd)) {
		const struct tok *t = &m->toks[r.p->tok];

		if (t[0].kind != T_WORD || t[1].kind != T_LIT || t[2].kind != T_WORD ||
		    t[3].kind != T_LIT || !t[3].pre || t[3].len < 2 ||
		    memcmp(r.p->text + t[3].off, ": ", 2))
			return false;
		for (k = 0; k < 3; k++) {
			r.at[k] = 0;
			if (cap)
				cap[k] = 0;
		}
		return match_from(&r, 3, nd - 2);
	}
	return match_from(&r, 0, 0);
}

static int add_cand(struct kmsg_match *m, int pat)
{
	if (grow((void **)&m->cand, &m->ccap, m->ncand, sizeof(*m->cand)))
		return -ENOMEM;
	m->cand[m->ncand++] = pat;
	return 0;
}

static void add_result(const struct kmsg_match *m, struct kmsg_match_result *r,
		       int pat)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(m->pats[r->pat[i]].id, m->pats[pat].id))
			return;
	if (r->n < KMSG_MATCH_CAND_MAX)
		r->pat[r->n++] = pat;
	r->total++;
}

/* Can pattern @p match the beginning of a text? Only if it ends in text */
static bool may_be_partial(const struct kmsg_match *m, const struct pat *p)
{
	return p->ntok && m->toks[p->tok + p->ntok - 1].kind == T_LIT;
}

/* Can site @p have printed a line of level @level (-1: unknown)? */
static bool level_ok(const struct pat *p, int level)
{
	return level < 0 || p->level < 0 || p->level == level;
}

/*
 * The best of the candidates, in m->cand, that can have printed a line
 * of m->level: those with enough evidence before the others, a whole
 * match before one of the beginning only (however long), then the most
 * literal characters. A pattern with no evidence at all ("%s", "%s %pR") is no
 * candidate; a weak one only for the whole text.
 */
/*
 * The literal runs of pattern @p (adjacent literal tokens, the prefix's
 * too, as one), each ended by '\001': a malloc()ed string, NULL if none
 */
static char *literal_runs(const struct kmsg_match *m, const struct pat *p)
{
	char *out = malloc((size_t)p->literal + p->ntok + 1), *o = out;
	bool in_run = false;
	unsigned int k;

	if (!out)
		return NULL;
	for (k = 0; k < p->ntok; k++) {
		const struct tok *t = &m->toks[p->tok + k];

		if (t->kind != T_LIT) {
			if (in_run)
				*o++ = '\001';
			in_run = false;
			continue;
		}
		memcpy(o, p->text + t->off, t->len);
		o += t->len;
		in_run = true;
	}
	if (in_run)
		*o++ = '\001';
	*o = 0;
	return out;
}

/*
 * Is pattern @b a generalization of @a: each literal run of b, in order,
 * inside one of a's (b prints with a conversion what a has as text)?
 * Then a line both match is a's, the more specific.
 */
static bool generalizes(const struct kmsg_match *m, int a, int b)
{
	char *ra = literal_runs(m, &m->pats[a]), *rb = literal_runs(m, &m->pats[b]);
	const char *at, *piece, *end;
	bool yes = ra && rb;

	at = ra;
	for (piece = rb; yes && *piece; piece = end + 1) {
		end = strchr(piece, '\001');
		at = memmem(at, strlen(at), piece, end - piece);
		if (!at)
			yes = false;
		else
			at += end - piece;
	}
	free(ra);
	free(rb);
	return yes;
}

static void best_of(struct kmsg_match *m, const char *text, size_t len,
		    bool with_free, struct kmsg_match_result *r)
{
	unsigned int best = 0;
	bool found = false, partial = false, weak = false;
	size_t i = 0, j = 0, nfree = with_free && m->nfree ? free_filter(m) : 0;
	const struct feat *line = &m->line;

	if (!m->ncand && !nfree)
		return;
	sort_m = m;
	if (m->ncand > 1)
		qsort(m->cand, m->ncand, sizeof(*m->cand), cmp_cand);
	/* the line's candidates and the patterns with no anchor, in order */
	while (i < m->ncand || j < nfree) {
		const struct feat *need;
		const struct pat *p;
		bool whole;
		int pat;

		if (j == nfree || (i < m->ncand &&
				   cmp_pat(m, m->cand[i], m->free_pats[m->fl[j]]) < 0)) {
			pat = m->cand[i++];
			/* added since kmsg_match_build(): tried by the naive loop */
			need = (size_t)pat < m->built ? &m->feat[pat] : NULL;
		} else {
			need = &m->free_feat[m->fl[j]];
			pat = m->free_pats[m->fl[j++]];
		}
		p = &m->pats[pat];
		/*
		 * Every pattern with evidence that matches the whole line
		 * counts, unless it only generalizes the winner ("foo %s"
		 * after "foo bar %d"): "ata%u: SATA link %s 1.5 Gbps (...)"
		 * of one driver must not win over "ata%u: SATA link up %s
		 * (...)" of another for a line both print.  Among weak ones,
		 * the most literal.
		 */
		if (found && (p->weak != weak ||
			      (!partial && weak && p->literal < best)))
			break;
		/* its literal text is not in the line: it matches no part */
		if (!p->evidence || !level_ok(p, m->level) ||
		    (need && !feat_in(line, need)))
			continue;
		whole = match_pat(m, pat, text, len, false, NULL);
		/* after a match of the beginning, only a whole one, if shorter */
		if (!whole && found && p->literal < best)
			continue;
		if (!whole && (p->weak || !may_be_partial(m, p) ||
			       (found && !partial) ||
			       !match_pat(m, pat, text, len, true, NULL)))
			continue;
		if (whole && found && !partial && !weak && p->literal < best &&
		    generalizes(m, r->pat[0], pat))
			continue;
		if (whole && partial) {
			/*
			 * a whole match beats those of the beginning only,
			 * unless it only generalizes the one with the most
			 * text: "LSM: initializing %s" does not say that
			 * "LSM: initializing lsm=", continued, did not
			 * print the line
			 */
			if (!generalizes(m, r->pat[0], pat))
				r->n = r->total = 0;
			partial = false;
			best = 0;
		}
		if (!found)
			partial = !whole;
		if (!found || p->literal > best)
			best = p->literal;
		found = true;
		weak = p->weak;
		if (!r->n || p->evidence < r->evidence)
			r->evidence = p->evidence;
		add_result(m, r, pat);
	}
	r->literal = best;
	r->partial = found && partial;
	r->weak = found && weak;
}

static void new_line(struct kmsg_match *m)
{
	if (++m->gen == 0) {
		memset(m->stamp, 0, m->built * sizeof(*m->stamp));
		m->gen = 1;
	}
	m->ncand = 0;
}

static int lookup_word(struct kmsg_match *m, uint32_t h)
{
	size_t lo = 0, hi = m->nanchors;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->anchors[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->nanchors && m->anchors[lo].hash == h; lo++) {
		int p = m->anchors[lo].pat;

		if (m->stamp[p] == m->gen)
			continue;
		m->stamp[p] = m->gen;
		/* what best_of() would pass over, left out before it sorts */
		if (!m->pats[p].evidence || !level_ok(&m->pats[p], m->level) ||
		    !feat_in(&m->line, &m->feat[p]))
			continue;
		if (add_cand(m, p))
			return -ENOMEM;
	}
	return 0;
}

static int candidates(struct kmsg_match *m, const char *text, size_t len)
{
	size_t i = 0, j;

	new_line(m);
	memset(&m->line, 0, sizeof(m->line));
	feat_of(&m->line, text, len);
	while (i < len) {
		if (!is_word(text[i])) {
			i++;
			continue;
		}
		for (j = i; j < len && is_word(text[j]); j++)
			;
		if (lookup_word(m, word_hash(text + i, j - i)))
			return -ENOMEM;
		i = j;
	}
	return 0;
}

/*
 * A message printed through a %pV wrapper ("%sACPI: %s: %pV"): the
 * format inside, where one matches what %pV printed
 */
static int unwrap(struct kmsg_match *m, const char *text, size_t len,
		  struct kmsg_match_result *r)
{
	const struct pat *p = &m->pats[r->pat[0]];
	struct kmsg_match_result in;
	size_t *cap, from;
	unsigned int k;

	for (k = 0; k < p->ntok; k++) {
		const struct tok *t = &m->toks[p->tok + k];

		if (t->kind == T_STR && t->conv == 'p' && t->ext == 'V')
			break;
	}
	if (k == p->ntok)
		return 0;
	cap = calloc(p->ntok + 1, sizeof(*cap));
	if (!cap)
		return -ENOMEM;
	if (!match_pat(m, r->pat[0], text, len, r->partial, cap)) {
		free(cap);
		return 0;
	}
	from = k ? cap[k - 1] : 0;
	memset(&in, 0, sizeof(in));
	if (candidates(m, text + from, cap[k] - from)) {
		free(cap);
		return -ENOMEM;
	}
	best_of(m, text + from, cap[k] - from, true, &in);
	/* only an inner format of its own: not one that any text matches */
	if (in.n == 1 && !in.partial && !in.weak) {
		in.wrapper = r->pat[0];
		in.wrapped = true;
		in.inner_off = from;
		in.inner_len = cap[k] - from;
		*r = in;
	}
	free(cap);
	return 0;
}

/* The result of a line matched lately, NULL if none */
static const struct cached *cached(const struct kmsg_match *m,
				   const char *text, size_t len, int level,
				   unsigned int flags)
{
	unsigned int i;

	for (i = 0; i < m->ncache; i++) {
		const struct cached *c = &m->cache[i];

		if (c->len == len && c->level == level && c->flags == flags &&
		    !memcmp(c->text, text, len))
			return c;
	}
	return NULL;
}

static void remember(struct kmsg_match *m, const char *text, size_t len,
		     int level, unsigned int flags,
		     const struct kmsg_match_result *r)
{
	struct cached *c = &m->cache[m->cache_next];

	if (c->cap < len + 1) {
		char *t = realloc(c->text, len + 1);

		if (!t)
			return;		/* not remembered: matched again */
		c->text = t;
		c->cap = len + 1;
	}
	memcpy(c->text, text, len);
	c->len = len;
	c->level = level;
	c->flags = flags;
	c->r = *r;
	m->cache_next = (m->cache_next + 1) % KMSG_MATCH_CACHE;
	if (m->ncache < KMSG_MATCH_CACHE)
		m->ncache++;
}

int kmsg_match_line(struct kmsg_match *m, const char *text, size_t len,
		    int level, unsigned int flags, struct kmsg_match_result *r)
{
	const struct cached *c;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	if (!m->built)
		return 0;
	/* no newline in the text: the flag changes nothing */
	if (!memchr(text, '\n', len))
		flags &= ~KMSG_MATCH_NL_LITERAL;
	c = cached(m, text, len, level, flags);
	if (c) {
		*r = c->r;
		return 0;
	}
	m->level = level;
	m->flags = flags;
	if (candidates(m, text, len))
		return -ENOMEM;
	best_of(m, text, len, true, r);
	if (r->n == 1 && !r->weak)
		ret = unwrap(m, text, len, r);
	if (!ret)
		remember(m, text, len, level, flags, r);
	return ret;
}

int kmsg_match_text(struct kmsg_match *m, const char *text, size_t len,
		    struct kmsg_match_result *r)
{
	return kmsg_match_line(m, text, len, -1, 0, r);
}

/* Matched by a site with evidence: exactly or ambiguously, all of it */
static bool strong(const struct kmsg_match_result *r)
{
	return r->n && !r->weak && !r->partial;
}

int kmsg_match_joins(struct kmsg_match *m, const char *prev, size_t prev_len,
		     const char *line, size_t line_len, int level)
{
	struct kmsg_match_result r;
	char *both;
	int yes;

	if (kmsg_match_line(m, line, line_len, level, 0, &r))
		return -ENOMEM;
	if (strong(&r))
		return 0;
	if (kmsg_match_line(m, prev, prev_len, level, KMSG_MATCH_NL_LITERAL,
			    &r))
		return -ENOMEM;
	if (strong(&r))
		return 0;
	both = malloc(prev_len + 1 + line_len + 1);
	if (!both)
		return -ENOMEM;
	memcpy(both, prev, prev_len);
	both[prev_len] = '\n';
	memcpy(both + prev_len + 1, line, line_len);
	both[prev_len + 1 + line_len] = '\0';
	yes = kmsg_match_line(m, both, prev_len + 1 + line_len, level,
			      KMSG_MATCH_NL_LITERAL, &r);
	if (!yes)
		yes = strong(&r);
	free(both);
	return yes;
}

int kmsg_match_text_naive(struct kmsg_match *m, const char *text, size_t len,
			  struct kmsg_match_result *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	m->level = -1;
	m->flags = 0;
	m->ncand = 0;
	/* every feature: each pattern is tried */
	memset(&m->line, 0xff, sizeof(m->line));
	for (i = 0; i < m->n; i++)
		if (add_cand(m, (int)i))
			return -ENOMEM;
	best_of(m, text, len, false, r);
	return 0;
}

/* ---- arguments ---------------------------------------------------------- */

static unsigned long long parse_uint(const char *s, size_t len, int base)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		char c = s[i];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			continue;
		if (d >= base)
			continue;
		v = v * base + d;
	}
	return v;
}

static void int_arg(struct kmsg_arg *a, const struct tok *t, const char *s,
		    size_t len)
{
	bool neg = false;
	size_t i = 0;
	unsigned long long v;

	while (i < len && s[i] == ' ')
		i++;
	while (len > i && s[len - 1] == ' ')
		len--;
	if (i < len && (s[i] == '-' || s[i] == '+')) {
		neg = s[i] == '-';
		i++;
	}
	if ((t->flags & KMSG_CONV_SPECIAL) && t->base == 16)
		i += 2;
	v = i < len ? parse_uint(s + i, len - i, t->base) : 0;
	if (t->type == KMSG_ARG_SIGNED)
		a->s = neg ? (long long)(0 - v) : (long long)v;
	else
		a->u = v;
}

long kmsg_match_end(struct kmsg_match *m, int pat, const char *text,
		    size_t len)
{
	const struct pat *p;
	size_t *cap;
	long end = -1;

	if (pat < 0 || (size_t)pat >= m->n)
		return -1;
	p = &m->pats[pat];
	if (!p->ntok)
		return len ? -1 : 0;
	m->flags = 0;
	if (match_pat(m, pat, text, len, false, NULL))
		return (long)len;
	if (!may_be_partial(m, p))
		return -1;
	cap = calloc(p->ntok + 1, sizeof(*cap));
	if (!cap)
		return -1;
	if (match_pat(m, pat, text, len, true, cap))
		end = (long)cap[p->ntok - 1];
	free(cap);
	return end;
}

int kmsg_match_args(struct kmsg_match *m, int pat, const char *text,
		    size_t len, bool partial, struct kmsg_args *args,
		    struct kmsg_span *driver, struct kmsg_span *device)
{
	const struct pat *p;
	size_t *cap, start = 0;
	unsigned int k;
	int npre = 0;

	memset(args, 0, sizeof(*args));
	if (driver)
		memset(driver, 0, sizeof(*driver));
	if (device)
		memset(device, 0, sizeof(*device));
	if (pat < 0 || (size_t)pat >= m->n)
		return -1;
	p = &m->pats[pat];
	m->flags = 0;
	cap = calloc(p->ntok + 1, sizeof(*cap));
	if (!cap)
		return -1;
	if (!match_pat(m, pat, text, len, partial, cap)) {
		free(cap);
		return -1;
	}
	for (k = 0; k < p->ntok; start = cap[k], k++) {
		const struct tok *t = &m->toks[p->tok + k];
		const char *s = text + start;
		size_t n = cap[k] - start;
		struct kmsg_arg *a;

		if (t->kind == T_LIT || t->kind == T_REST)
			continue;
		if (t->pre) {
			struct kmsg_span *sp = npre == 0 ? driver :
					       npre == 1 ? device : NULL;

			npre++;
			if (sp) {
				sp->s = s;
				sp->len = n;
			}
			continue;
		}
		if (args->n >= KMSG_ARGS_MAX) {
			args->dropped++;
			continue;
		}
		a = &args->v[args->n++];
		a->type = t->type;
		a->conv = t->conv;
		a->ptr_ext = t->ext;
		a->offset = start;
		switch (t->kind) {
		case T_INT:
			int_arg(a, t, s, n);
			break;
		case T_CHAR:
			while (n > 1 && (t->left ? s[n - 1] : s[0]) == ' ') {
				if (!t->left)
					s++;
				n--;
			}
			a->s = (unsigned char)s[0];
			break;
		case T_PTR:
			while (n && *s == ' ') {
				s++;
				n--;
			}
			if (n && is_hex(*s)) {
				a->u = parse_uint(s, n, 16);
				break;
			}
			a->type = KMSG_ARG_RENDERED;
			a->str = s;
			a->str_len = n;
			break;
		default:
			if (a->type != KMSG_ARG_STRING)
				a->type = KMSG_ARG_RENDERED;
			a->str = s;
			a->str_len = n;
			break;
		}
	}
	free(cap);
	return 0;
}
