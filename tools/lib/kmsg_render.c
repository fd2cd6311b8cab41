// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_render - userspace bstr_printf(): rebuild printk text from a format
 * and the binary argument record written by the kernel's vbin_printf().
 *
 * The parsing follows format_decode() of lib/vsprintf.c (6.12), the number
 * and string formatting number(), string_nocheck() and widen_string(), the
 * pointer formatting pointer_string(), err_ptr() and symbol_string().  The
 * record is read the way bstr_printf()'s get_arg() reads it; the values are
 * then widened the way vsnprintf() widens its va_arg()s (this only differs
 * from bstr_printf() for %ld and %zd on 32-bit kernels, where bstr_printf()
 * zero-extends and vsnprintf() sign-extends).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_event.h"
#include "kmsg_render.h"

#define SIGN	KMSG_CONV_SIGN		/* unsigned/signed */
#define LEFT	KMSG_CONV_LEFT		/* left justified */
#define PLUS	KMSG_CONV_PLUS		/* show plus */
#define SPACE	KMSG_CONV_SPACE		/* space if plus */
#define ZEROPAD	KMSG_CONV_ZEROPAD	/* pad with zero, must be 16 == '0' - ' ' */
#define SMALL	KMSG_CONV_SMALL		/* use lowercase in hex (must be 32 == 0x20) */
#define SPECIAL	KMSG_CONV_SPECIAL	/* prefix hex with "0x", octal with "0" */

#define MAX_ERRNO	4095
#define INVALID_TEXT_MAX 32

enum fmt_type {
	FT_CHAR,
	FT_STR,
	FT_PTR,
	FT_PERCENT,
	FT_INVALID,
	FT_LONG_LONG,
	FT_ULONG,
	FT_LONG,
	FT_UBYTE,
	FT_BYTE,
	FT_USHORT,
	FT_SHORT,
	FT_UINT,
	FT_INT,
	FT_SIZE_T,
	FT_PTRDIFF,
};

/* One conversion as format_decode() sees it. */
struct kmsg_spec {
	enum fmt_type type;
	unsigned int flags;
	int base;
	int width;		/* -1: none */
	int precision;		/* -1: none */
	bool width_star, prec_star;
	bool too_wide;		/* width or precision digits > KMSG_WIDTH_MAX */
	bool positional;	/* "%N$" */
	int pos;		/* N, saturated at INT_MAX */
	char qualifier;
	char conv;
	char ptr_ext;
	size_t start, end;	/* format bytes [start, end) */
};

/* What number(), string() and pointer() get. */
struct kmsg_nspec {
	unsigned int flags;
	int base;
	int width;
	int precision;
};

struct kmsg_fmt {
	const char *s;
	size_t len;
};

static const char hex_asc_upper[] = "0123456789ABCDEF";

/* The format ends at fmt_len or at its first NUL. */
static size_t fmt_length(const char *fmt, size_t fmt_len)
{
	const char *nul;

	if (!fmt)
		return 0;
	nul = memchr(fmt, '\0', fmt_len);
	return nul ? (size_t)(nul - fmt) : fmt_len;
}

static char fmt_at(const struct kmsg_fmt *f, size_t i)
{
	return i < f->len ? f->s[i] : '\0';
}

static bool k_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

/* isalnum() of the kernel's lib/ctype.c: Latin-1 letters count too. */
static bool k_isalnum(char ch)
{
	unsigned char c = (unsigned char)ch;

	if (c < 0x80)
		return k_isdigit(ch) || (c >= 'a' && c <= 'z') ||
		       (c >= 'A' && c <= 'Z');
	return c >= 0xc0 && c != 0xd7 && c != 0xf7;
}

/* skip_atoi(), saturating instead of overflowing. */
static int parse_digits(const struct kmsg_fmt *f, size_t *i)
{
	int v = 0;

	while (k_isdigit(fmt_at(f, *i))) {
		int d = fmt_at(f, *i) - '0';

		v = v > (INT_MAX - d) / 10 ? INT_MAX : v * 10 + d;
		(*i)++;
	}
	return v;
}

static size_t parse_position(const struct kmsg_fmt *f, size_t i,
			     struct kmsg_spec *sp)
{
	size_t j = i;
	int v;

	if (!k_isdigit(fmt_at(f, j)))
		return i;
	v = parse_digits(f, &j);
	if (fmt_at(f, j) != '$')
		return i;
	sp->positional = true;
	sp->pos = v;
	return j + 1;
}

static unsigned int flag_of(char c)
{
	static const char chars[] = "-+ #0";
	static const unsigned char bits[] = {
		LEFT, PLUS, SPACE, SPECIAL, ZEROPAD,
	};
	const char *p = c ? memchr(chars, c, sizeof(chars) - 1) : NULL;

	return p ? bits[p - chars] : 0;
}

static size_t parse_flags(const struct kmsg_fmt *f, size_t i,
			  struct kmsg_spec *sp)
{
	unsigned int flag;

	while ((flag = flag_of(fmt_at(f, i)))) {
		sp->flags |= flag;
		i++;
	}
	return i;
}

static size_t parse_width_prec(const struct kmsg_fmt *f, size_t i,
			       struct kmsg_spec *sp)
{
	if (k_isdigit(fmt_at(f, i))) {
		sp->width = parse_digits(f, &i);
		if (sp->width > KMSG_WIDTH_MAX)
			sp->too_wide = true;
	} else if (fmt_at(f, i) == '*') {
		sp->width_star = true;
		i++;
	}

	if (fmt_at(f, i) != '.')
		return i;
	i++;
	if (k_isdigit(fmt_at(f, i))) {
		sp->precision = parse_digits(f, &i);
		if (sp->precision > KMSG_WIDTH_MAX)
			sp->too_wide = true;
	} else if (fmt_at(f, i) == '*') {
		sp->prec_star = true;
		i++;
	}
	return i;
}

static size_t parse_qualifier(const struct kmsg_fmt *f, size_t i,
			      struct kmsg_spec *sp)
{
	char c = fmt_at(f, i);

	/* _tolower(c) == 'l' matches 'l' and 'L' */
	if (c != 'h' && c != 'l' && c != 'L' && c != 'z' && c != 't')
		return i;
	sp->qualifier = c;
	i++;
	if (fmt_at(f, i) == c && c == 'l') {
		sp->qualifier = 'L';
		i++;
	} else if (fmt_at(f, i) == c && c == 'h') {
		sp->qualifier = 'H';
		i++;
	}
	return i;
}

static enum fmt_type int_type(char qualifier, unsigned int flags)
{
	bool sign = flags & SIGN;

	switch (qualifier) {
	case 'L':
		return FT_LONG_LONG;
	case 'l':
		return sign ? FT_LONG : FT_ULONG;
	case 'z':
		return FT_SIZE_T;
	case 't':
		return FT_PTRDIFF;
	case 'H':
		return sign ? FT_BYTE : FT_UBYTE;
	case 'h':
		return sign ? FT_SHORT : FT_USHORT;
	default:
		return sign ? FT_INT : FT_UINT;
	}
}

static size_t parse_pointer_ext(const struct kmsg_fmt *f, size_t i,
				struct kmsg_spec *sp)
{
	if (k_isalnum(fmt_at(f, i)))
		sp->ptr_ext = fmt_at(f, i);
	while (k_isalnum(fmt_at(f, i)))
		i++;
	return i;
}

/* The conversion letter; i points at it.  Returns the end of the spec. */
static size_t parse_conversion(const struct kmsg_fmt *f, size_t i,
			       struct kmsg_spec *sp)
{
	char c = fmt_at(f, i);

	sp->conv = c;
	sp->base = 10;
	switch (c) {
	case 'c':
		sp->type = FT_CHAR;
		return i + 1;
	case 's':
		sp->type = FT_STR;
		return i + 1;
	case '%':
		sp->type = FT_PERCENT;
		return i + 1;
	case 'p':
		sp->type = FT_PTR;
		return parse_pointer_ext(f, i + 1, sp);
	case 'o':
		sp->base = 8;
		break;
	case 'x':
		sp->flags |= SMALL;
		sp->base = 16;
		break;
	case 'X':
		sp->base = 16;
		break;
	case 'd':
	case 'i':
		sp->flags |= SIGN;
		break;
	case 'u':
		break;
	default:
		/* %n, unknown letters and the end of the format */
		sp->type = FT_INVALID;
		return i;
	}
	sp->type = int_type(sp->qualifier, sp->flags);
	return i + 1;
}

/* format_decode() of the conversion starting at fmt[i] == '%'. */
static void parse_spec(const struct kmsg_fmt *f, size_t i,
		       struct kmsg_spec *sp, bool allow_pos)
{
	memset(sp, 0, sizeof(*sp));
	sp->width = -1;
	sp->precision = -1;
	sp->start = i++;
	if (allow_pos)
		i = parse_position(f, i, sp);
	i = parse_flags(f, i, sp);
	i = parse_width_prec(f, i, sp);
	i = parse_qualifier(f, i, sp);
	sp->end = parse_conversion(f, i, sp);
}

/* ---- parsed formats ---------------------------------------------------- */

#define FMT_CACHE_SLOTS	64	/* a power of two */
#define FMT_CACHE_LEN	256	/* longer formats are parsed each time */
#define FMT_CACHE_SPECS	16	/* so are formats of more conversions */

/*
 * A format and its conversions up to the first invalid one (included), as
 * parse_spec() returns them.  Only formats without '$' are kept: for them
 * parsing with and without positions gives the same conversions.
 */
struct fmt_entry {
	bool used;
	bool cacheable;		/* false: parse this format each time */
	unsigned int n;
	size_t len;
	char fmt[FMT_CACHE_LEN];
	struct kmsg_spec spec[FMT_CACHE_SPECS];
};

struct kmsg_fmt_cache {
	struct fmt_entry slot[FMT_CACHE_SLOTS];
};

struct kmsg_fmt_cache *kmsg_fmt_cache_new(void)
{
	return calloc(1, sizeof(struct kmsg_fmt_cache));
}

void kmsg_fmt_cache_free(struct kmsg_fmt_cache *cache)
{
	free(cache);
}

/*
 * The slot of a format: its length and its first and last 8 bytes (the
 * bytes are compared on a hit, the hash only spreads the formats).
 */
static unsigned int fmt_hash(const struct kmsg_fmt *f)
{
	uint64_t a = 0, b = 0, h;

	if (f->len >= 8) {
		memcpy(&a, f->s, 8);
		memcpy(&b, f->s + f->len - 8, 8);
	} else {
		memcpy(&a, f->s, f->len);
	}
	h = (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xff51afd7ed558ccdULL) ^ f->len;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return (unsigned int)(h >> 58) & (FMT_CACHE_SLOTS - 1);
}

static void fmt_fill(struct fmt_entry *e, const struct kmsg_fmt *f)
{
	size_t i = 0;

	e->used = true;
	e->cacheable = false;
	e->n = 0;
	e->len = f->len;
	memcpy(e->fmt, f->s, f->len);
	if (memchr(f->s, '$', f->len))
		return;
	while (i < f->len) {
		const char *pct = memchr(f->s + i, '%', f->len - i);
		struct kmsg_spec *sp;

		if (!pct)
			break;
		if (e->n == FMT_CACHE_SPECS)
			return;
		sp = &e->spec[e->n++];
		parse_spec(f, pct - f->s, sp, false);
		i = sp->end;
		if (sp->type == FT_INVALID)
			break;
	}
	e->cacheable = true;
}

/* The parsed conversions of @f, or NULL: parse it as it goes. */
static const struct fmt_entry *fmt_cached(const struct kmsg_render_opts *opts,
					  const struct kmsg_fmt *f)
{
	struct fmt_entry *e;

	if (!opts || !opts->fmt_cache || !f->len || f->len > FMT_CACHE_LEN)
		return NULL;
	e = &opts->fmt_cache->slot[fmt_hash(f)];
	if (!e->used || e->len != f->len || memcmp(e->fmt, f->s, f->len))
		fmt_fill(e, f);
	return e->cacheable ? e : NULL;
}

/* The conversions of a format, one after the other, cached or parsed. */
struct spec_iter {
	const struct kmsg_fmt *f;
	const struct fmt_entry *e;
	bool allow_pos;
	unsigned int k;
	size_t i;
	struct kmsg_spec sp;
};

static void spec_iter_init(struct spec_iter *it, const struct kmsg_fmt *f,
			   const struct kmsg_render_opts *opts, bool allow_pos)
{
	it->f = f;
	it->e = fmt_cached(opts, f);
	it->allow_pos = allow_pos;
	it->k = 0;
	it->i = 0;
}

/* The next conversion, or NULL after the last. */
static const struct kmsg_spec *spec_next(struct spec_iter *it)
{
	const char *pct;

	if (it->e)
		return it->k < it->e->n ? &it->e->spec[it->k++] : NULL;
	if (it->i >= it->f->len)
		return NULL;
	pct = memchr(it->f->s + it->i, '%', it->f->len - it->i);
	if (!pct)
		return NULL;
	parse_spec(it->f, pct - it->f->s, &it->sp, it->allow_pos);
	it->i = it->sp.end;
	return &it->sp;
}

static bool ptr_is_raw(char ext)
{
	switch (ext) {
	case 'S':
	case 's':
	case 'x':
	case 'K':
	case 'e':
		return true;
	default:
		return !k_isalnum(ext);
	}
}

static enum kmsg_arg_type arg_type(const struct kmsg_spec *sp)
{
	switch (sp->type) {
	case FT_PERCENT:
	case FT_INVALID:
		return KMSG_ARG_NONE;
	case FT_CHAR:
		return KMSG_ARG_CHAR;
	case FT_STR:
		return KMSG_ARG_STRING;
	case FT_PTR:
		return ptr_is_raw(sp->ptr_ext) ? KMSG_ARG_POINTER :
						 KMSG_ARG_RENDERED;
	default:
		return (sp->flags & SIGN) ? KMSG_ARG_SIGNED : KMSG_ARG_UNSIGNED;
	}
}

static int norm_long_size(const struct kmsg_render_opts *opts)
{
	return opts && opts->long_size == 4 ? 4 : 8;
}

/*
 * Integer conversions: bytes in the record (0: sizeof(long)) and how
 * vsnprintf() widens the value (1: signed, 2: signed for %d/%i only).
 */
static const struct {
	unsigned char bytes;
	unsigned char sign;
} int_types[] = {
	[FT_LONG_LONG]	= { 8, 0 },
	[FT_ULONG]	= { 0, 0 },
	[FT_LONG]	= { 0, 1 },
	[FT_UBYTE]	= { 1, 0 },
	[FT_BYTE]	= { 1, 1 },
	[FT_USHORT]	= { 2, 0 },
	[FT_SHORT]	= { 2, 1 },
	[FT_UINT]	= { 4, 0 },
	[FT_INT]	= { 4, 1 },
	[FT_SIZE_T]	= { 0, 2 },
	[FT_PTRDIFF]	= { 0, 1 },
};

static bool is_int_type(enum fmt_type type)
{
	return type >= FT_LONG_LONG && type <= FT_PTRDIFF;
}

/* Bytes a fixed-size value takes in the record; 8-byte ones align to 4. */
static unsigned int value_size(const struct kmsg_spec *sp, int ls,
			       unsigned int *align)
{
	unsigned int size = (unsigned int)ls;	/* pointers */

	if (sp->type == FT_CHAR)
		size = 1;
	else if (is_int_type(sp->type) && int_types[sp->type].bytes)
		size = int_types[sp->type].bytes;
	*align = size < 4 ? size : 4;
	return size;
}

static unsigned long long zext(unsigned long long v, unsigned int bytes)
{
	if (bytes >= 8)
		return v;
	return v & ((1ULL << (8 * bytes)) - 1);
}

static unsigned long long sext(unsigned long long v, unsigned int bytes)
{
	unsigned long long bit;

	if (bytes >= 8)
		return v;
	v = zext(v, bytes);
	bit = 1ULL << (8 * bytes - 1);
	return (v ^ bit) - bit;
}

/* The value vsnprintf() hands to number() for this conversion. */
static unsigned long long int_value(const struct kmsg_spec *sp,
				    unsigned long long raw, int ls)
{
	unsigned int bytes;
	bool sign;

	if (!is_int_type(sp->type))
		return raw;
	bytes = int_types[sp->type].bytes;
	if (!bytes)
		bytes = (unsigned int)ls;
	sign = int_types[sp->type].sign == 2 ? (sp->flags & SIGN) :
					       int_types[sp->type].sign;
	return sign ? sext(raw, bytes) : zext(raw, bytes);
}

size_t kmsg_conv_decode(const char *fmt, size_t fmt_len, size_t i,
			struct kmsg_conv *c)
{
	struct kmsg_fmt f = { fmt, fmt_length(fmt, fmt_len) };
	struct kmsg_spec sp;

	parse_spec(&f, i, &sp, false);
	memset(c, 0, sizeof(*c));
	c->start = sp.start;
	c->end = sp.end;
	c->type = arg_type(&sp);
	c->percent = sp.type == FT_PERCENT;
	c->invalid = sp.type == FT_INVALID;
	c->conv = sp.conv;
	c->qualifier = sp.qualifier;
	if (sp.type == FT_PTR) {
		/* flags, width and qualifier have no 'p' */
		const char *p = memchr(fmt + sp.start, 'p', sp.end - sp.start);

		c->ext = p ? p + 1 : fmt + sp.end;
		c->ext_len = fmt + sp.end - c->ext;
	}
	c->flags = sp.flags;
	c->base = sp.base;
	c->width = sp.width;
	c->precision = sp.precision;
	c->width_star = sp.width_star;
	c->prec_star = sp.prec_star;
	return sp.end;
}

bool kmsg_pv_find(const char *fmt, size_t fmt_len, size_t *start,
		  size_t *end)
{
	/* measured once: a format of many conversions is read in one pass */
	struct kmsg_fmt f = { fmt, fmt_length(fmt, fmt_len) };
	const char *pct;
	struct kmsg_spec sp;
	size_t i = 0;

	while (i < f.len && (pct = memchr(fmt + i, '%', f.len - i))) {
		*start = pct - fmt;
		parse_spec(&f, *start, &sp, false);
		if (sp.type == FT_INVALID || sp.end <= *start)
			return false;
		i = sp.end;
		if (sp.type == FT_PTR && sp.ptr_ext == 'V') {
			*end = i;
			return sp.width < 0 && sp.precision < 0 &&
			       !sp.width_star && !sp.prec_star;
		}
	}
	return false;
}

/*
 * The wrapper @f, the wrappers after it up to @end spliced in, the
 * @depth'th (no more than the kernel records)
 */
static int splice_chain(struct kmsg_strbuf *out, const char *f,
			const char *end, unsigned int depth)
{
	size_t n = strnlen(f, end - f), start, stop;

	if (f + n >= end || depth + 1 >= KMSG_EVENT_WRAP_MAX ||
	    !kmsg_pv_find(f, n, &start, &stop))
		return kmsg_strbuf_putn(out, f, n);
	if (kmsg_strbuf_putn(out, f, start) ||
	    splice_chain(out, f + n + 1, end, depth + 1) ||
	    kmsg_strbuf_putn(out, f + stop, n - stop))
		return -ENOMEM;
	return 0;
}

int kmsg_msg_wrapper_fmt(struct kmsg_strbuf *out, const struct kmsg_msg *msg)
{
	if (msg->version != 6)
		return kmsg_strbuf_putn(out, msg->wrap_fmt.s, msg->wrap_fmt.len);
	return splice_chain(out, msg->wrap_fmt.s,
			    msg->wrap_fmt.s + msg->wrap_fmt.len, 0);
}

/* ---- decoding ---------------------------------------------------------- */

struct kmsg_rec {
	const unsigned char *data;
	size_t len;
	size_t pos;
	bool exhausted;		/* a value was missing: so are all later ones */
};

/* The @size bytes at @p, the first one least significant */
static unsigned long long load_le(const unsigned char *p, unsigned int size)
{
	unsigned long long v = 0;
	unsigned int k;
	uint32_t v4;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the common sizes: a load */
	if (size == 4) {
		memcpy(&v4, p, 4);
		return v4;
	}
	if (size == 8) {
		memcpy(&v, p, 8);
		return v;
	}
#endif
	for (k = 0; k < size; k++)
		v |= (unsigned long long)p[k] << (8 * k);
	return v;
}

static bool rec_get(struct kmsg_rec *r, unsigned int size, unsigned int align,
		    unsigned long long *val)
{
	size_t pos;

	if (r->exhausted)
		return false;
	pos = r->pos;
	if (pos % align)
		pos += align - pos % align;
	if (pos > r->len || r->len - pos < size) {
		r->exhausted = true;
		r->pos = r->len;
		return false;
	}
	*val = load_le(r->data + pos, size);
	r->pos = pos + size;
	return true;
}

static void rec_str(struct kmsg_rec *r, struct kmsg_arg *a)
{
	const unsigned char *p, *nul;
	size_t room;

	if (r->exhausted || r->pos >= r->len) {
		r->exhausted = true;
		a->status = KMSG_ARG_MISSING;
		return;
	}
	p = r->data + r->pos;
	room = r->len - r->pos;
	nul = memchr(p, '\0', room);
	a->str = (const char *)p;
	if (!nul) {
		a->str_len = room;
		a->status = KMSG_ARG_UNTERMINATED;
		r->pos = r->len;
		r->exhausted = true;
		return;
	}
	a->str_len = (size_t)(nul - p);
	r->pos += a->str_len + 1;
}

static bool rec_star(struct kmsg_rec *r, int *val)
{
	unsigned long long raw;

	if (!rec_get(r, 4, 4, &raw))
		return false;
	*val = (int)sext(raw, 4);
	return true;
}

static void decode_value(struct kmsg_rec *r, const struct kmsg_spec *sp,
			 int ls, struct kmsg_arg *a)
{
	unsigned long long raw;
	unsigned int size, align;

	if (a->type == KMSG_ARG_STRING || a->type == KMSG_ARG_RENDERED) {
		rec_str(r, a);
		return;
	}
	size = value_size(sp, ls, &align);
	if (!rec_get(r, size, align, &raw)) {
		a->status = KMSG_ARG_MISSING;
		return;
	}
	a->size = (unsigned char)size;
	switch (a->type) {
	case KMSG_ARG_CHAR:
		a->s = (unsigned char)raw;
		break;
	case KMSG_ARG_SIGNED:
		a->s = (long long)int_value(sp, raw, ls);
		break;
	case KMSG_ARG_POINTER:
		a->u = zext(raw, size);
		break;
	default:
		a->u = int_value(sp, raw, ls);
		break;
	}
}

/* Where the first item of this conversion will be read from. */
static size_t first_offset(const struct kmsg_rec *r, const struct kmsg_spec *sp,
			   int ls)
{
	unsigned int align = 1;
	size_t pos = r->pos;

	if (sp->width_star || sp->prec_star)
		align = 4;
	else if (sp->type != FT_STR &&
		 !(sp->type == FT_PTR && !ptr_is_raw(sp->ptr_ext)))
		value_size(sp, ls, &align);
	if (pos % align)
		pos += align - pos % align;
	return pos < r->len ? pos : r->len;
}

/*
 * The '*' width and precision of @sp, into *@width and *@prec: read for
 * every conversion, a "%%" or an invalid one included, as format_decode()
 * returns them before it reads the conversion. False if one is missing.
 */
static bool read_stars(struct kmsg_rec *r, const struct kmsg_spec *sp,
		       int *width, int *prec)
{
	return (!sp->width_star || rec_star(r, width)) &&
	       (!sp->prec_star || rec_star(r, prec));
}

static void decode_one(struct kmsg_rec *r, const struct kmsg_spec *sp,
		       int ls, struct kmsg_arg *a)
{
	memset(a, 0, sizeof(*a));
	a->type = arg_type(sp);
	a->conv = sp->conv;
	a->qualifier = sp->qualifier;
	a->ptr_ext = sp->ptr_ext;
	a->offset = first_offset(r, sp, ls);
	a->has_width_arg = sp->width_star;
	a->has_prec_arg = sp->prec_star;

	if (!read_stars(r, sp, &a->width_arg, &a->prec_arg)) {
		a->status = KMSG_ARG_MISSING;
		return;
	}
	decode_value(r, sp, ls, a);
}

static int count_arg(struct kmsg_args *args, const struct kmsg_arg *a)
{
	if (args->n >= KMSG_ARGS_MAX) {
		args->dropped++;
		return 1;
	}
	/* decoded in place: a is v[n] */
	args->n++;
	if (a->status == KMSG_ARG_MISSING) {
		args->missing++;
		return 1;
	}
	if (a->status == KMSG_ARG_UNTERMINATED) {
		args->unterminated++;
		return 1;
	}
	return 0;
}

int kmsg_args_decode(const char *fmt, size_t fmt_len, const void *data, size_t len,
		     const struct kmsg_render_opts *opts, struct kmsg_args *args)
{
	struct kmsg_fmt f = { fmt, fmt_length(fmt, fmt_len) };
	struct kmsg_rec r = { data, data ? len : 0, 0, false };
	int ls = norm_long_size(opts);
	const struct kmsg_spec *sp;
	struct spec_iter it;
	struct kmsg_arg a, *pa;
	int problems = 0, w, p;

	/* the counts; not the 64 values (v[], last), set as they are found */
	memset(args, 0, offsetof(struct kmsg_args, v));
	spec_iter_init(&it, &f, opts, false);
	while ((sp = spec_next(&it))) {
		if ((sp->type == FT_INVALID || sp->type == FT_PERCENT) &&
		    !read_stars(&r, sp, &w, &p))
			problems++;
		if (sp->type == FT_INVALID) {
			args->invalid = true;
			problems++;
			break;
		}
		if (sp->type == FT_PERCENT)
			continue;
		/* into its place in v[], or aside when v[] is full */
		pa = args->n < KMSG_ARGS_MAX ? &args->v[args->n] : &a;
		decode_one(&r, sp, ls, pa);
		problems += count_arg(args, pa);
	}
	args->used = r.pos;
	return problems;
}

/* ---- rendering --------------------------------------------------------- */

enum { MODE_NONE, MODE_SEQ, MODE_POS };

struct kmsg_out {
	struct kmsg_strbuf *sb;
	const struct kmsg_args *args;
	const struct kmsg_render_opts *opts;
	int ls;
	int markers;
	int err;
	int mode;
	int seq;
};

static void out_putn(struct kmsg_out *o, const char *s, size_t n)
{
	if (!o->err && kmsg_strbuf_putn(o->sb, s, n))
		o->err = -ENOMEM;
}

static void out_putc(struct kmsg_out *o, char c)
{
	out_putn(o, &c, 1);
}

static void out_fill(struct kmsg_out *o, char c, int n)
{
	if (n > 0 && !o->err && kmsg_strbuf_fill(o->sb, c, (size_t)n))
		o->err = -ENOMEM;
}

static void out_mark(struct kmsg_out *o, const char *marker)
{
	out_putn(o, marker, strlen(marker));
	o->markers++;
}

/* number() of lib/vsprintf.c */
static void out_number(struct kmsg_out *o, unsigned long long num,
		       struct kmsg_nspec spec)
{
	char tmp[3 * sizeof(num)];
	char sign = 0, locase = (char)(spec.flags & SMALL);
	bool need_pfx = (spec.flags & SPECIAL) && spec.base != 10;
	bool is_zero = num == 0;
	int field_width = spec.width;
	int precision = spec.precision;
	unsigned int base = (unsigned int)spec.base;
	int i = 0;

	if (spec.flags & LEFT)
		spec.flags &= ~ZEROPAD;
	if (spec.flags & SIGN) {
		if ((long long)num < 0) {
			sign = '-';
			num = 0 - num;
			field_width--;
		} else if (spec.flags & PLUS) {
			sign = '+';
			field_width--;
		} else if (spec.flags & SPACE) {
			sign = ' ';
			field_width--;
		}
	}
	if (need_pfx) {
		if (base == 16)
			field_width -= 2;
		else if (!is_zero)
			field_width--;
	}

	/* digits from the end of tmp; constant bases divide faster */
	if (base == 10) {
		do {
			tmp[sizeof(tmp) - ++i] = '0' + num % 10;
			num /= 10;
		} while (num);
	} else if (base == 16) {
		do {
			tmp[sizeof(tmp) - ++i] = hex_asc_upper[num & 15] | locase;
			num >>= 4;
		} while (num);
	} else {
		do {
			tmp[sizeof(tmp) - ++i] = hex_asc_upper[num % base] | locase;
			num /= base;
		} while (num);
	}

	if (i > precision)
		precision = i;
	field_width -= precision;
	if (!(spec.flags & (ZEROPAD | LEFT))) {
		out_fill(o, ' ', field_width);
		field_width = 0;
	}
	if (sign)
		out_putc(o, sign);
	if (need_pfx) {
		if (base == 16 || !is_zero)
			out_putc(o, '0');
		if (base == 16)
			out_putc(o, 'X' | locase);
	}
	if (!(spec.flags & LEFT)) {
		out_fill(o, ' ' + (spec.flags & ZEROPAD), field_width);
		field_width = 0;
	}
	out_fill(o, '0', precision - i);
	out_putn(o, tmp + sizeof(tmp) - i, i);
	out_fill(o, ' ', field_width);
}

/* string_nocheck() + widen_string(): s has no NUL in its first n bytes */
static void out_string(struct kmsg_out *o, const char *s, size_t n,
		       struct kmsg_nspec spec)
{
	int len, spaces;

	if (spec.precision >= 0 && n > (size_t)spec.precision)
		n = (size_t)spec.precision;
	len = n > INT_MAX ? INT_MAX : (int)n;
	spaces = spec.width > len ? spec.width - len : 0;
	if (!(spec.flags & LEFT))
		out_fill(o, ' ', spaces);
	out_putn(o, s, n);
	if (spec.flags & LEFT)
		out_fill(o, ' ', spaces);
}

/* FORMAT_TYPE_CHAR of bstr_printf() */
static void out_char(struct kmsg_out *o, char c, struct kmsg_nspec spec)
{
	int pad = spec.width > 1 ? spec.width - 1 : 0;

	if (!(spec.flags & LEFT))
		out_fill(o, ' ', pad);
	out_putc(o, c);
	if (spec.flags & LEFT)
		out_fill(o, ' ', pad);
}

static unsigned long long ulong_max(int ls)
{
	return ls == 4 ? 0xffffffffULL : ~0ULL;
}

/* pointer_string() */
static void out_pointer_string(struct kmsg_out *o, unsigned long long ptr,
			       struct kmsg_nspec spec)
{
	spec.base = 16;
	spec.flags |= SMALL;
	if (spec.width == -1) {
		spec.width = 2 * o->ls;
		spec.flags |= ZEROPAD;
	}
	out_number(o, ptr & ulong_max(o->ls), spec);
}

/* err_ptr(); ptr is known to be an error pointer */
static void out_err_ptr(struct kmsg_out *o, unsigned long long ptr,
			struct kmsg_nspec spec)
{
	int err = (int)(long long)sext(ptr, (unsigned int)o->ls);
	const char *sym = NULL;

	if (o->opts && o->opts->symbolic_errname)
		sym = kmsg_errname(err);
	if (sym) {
		out_string(o, sym, strlen(sym), spec);
		return;
	}
	spec.flags |= SIGN;
	spec.base = 10;
	out_number(o, (unsigned long long)(long long)err, spec);
}

static int sym_format(struct kmsg_out *o, struct kmsg_strbuf *sb,
		      unsigned long long addr, bool add_offset)
{
	const struct kmsg_render_opts *opts = o->opts;
	unsigned long long offset = 0, size = 0, mask = ulong_max(o->ls);
	const char *name = NULL, *module = NULL;
	int ret;

	if (!opts || !opts->lookup_symbol ||
	    opts->lookup_symbol(opts->lookup_ctx, addr, &name, &offset,
				&size, &module) || !name)
		return kmsg_strbuf_printf(sb, "0x%llx", addr);

	ret = kmsg_strbuf_puts(sb, name);
	if (!ret && add_offset)
		ret = kmsg_strbuf_printf(sb, "+0x%llx/0x%llx",
					 offset & mask, size & mask);
	if (!ret && module && *module)
		ret = kmsg_strbuf_printf(sb, " [%s]", module);
	return ret;
}

/* symbol_string() with sprint_symbol() / sprint_symbol_no_offset() */
static void out_symbol(struct kmsg_out *o, unsigned long long ptr, char ext,
		       struct kmsg_nspec spec)
{
	struct kmsg_strbuf sym = { 0 };

	if (sym_format(o, &sym, ptr & ulong_max(o->ls), ext != 's'))
		o->err = -ENOMEM;
	else
		out_string(o, sym.buf, sym.len, spec);
	kmsg_strbuf_free(&sym);
}

/* error_string(): a string printed where a pointer was, as ptr_to_id() does */
static void out_error_string(struct kmsg_out *o, const char *s,
			     struct kmsg_nspec spec)
{
	if (spec.precision == -1)
		spec.precision = 2 * o->ls;
	out_string(o, s, strlen(s), spec);
}

/*
 * pointer() for the raw-address extensions, as with no_hash_pointers, and
 * the strings printk() printed instead of a value (opts->ptrval, pk_error)
 */
static void out_pointer(struct kmsg_out *o, unsigned long long ptr, char ext,
			struct kmsg_nspec spec)
{
	unsigned long long mask = ulong_max(o->ls);
	bool ptrval = o->opts && o->opts->ptrval && (ptr & mask) == 1;

	switch (ext) {
	case 'S':
	case 's':
		out_symbol(o, ptr, ext, spec);
		return;
	case 'x':
		out_pointer_string(o, ptr, spec);
		return;
	case 'K':
		/* restricted_pointer() */
		if (o->opts && o->opts->pk_error) {
			if (spec.width == -1)
				spec.width = 2 * o->ls;
			out_error_string(o, "pK-error", spec);
			return;
		}
		break;
	case 'e':
		if ((ptr & mask) > mask - MAX_ERRNO) {
			out_err_ptr(o, ptr, spec);
			return;
		}
		break;
	default:		/* %p */
		break;
	}
	if (ptrval) {
		/* ptr_to_id() before the hash key is ready */
		spec.width = 2 * o->ls;
		out_error_string(o, o->ls == 8 ? "(____ptrval____)" : "(ptrval)",
				 spec);
		return;
	}
	out_pointer_string(o, ptr, spec);
}

/* "<?%y?>": the invalid conversion as written, printable ASCII only */
static void out_invalid(struct kmsg_out *o, const struct kmsg_fmt *f,
			const struct kmsg_spec *sp)
{
	size_t end = sp->end < f->len ? sp->end + 1 : sp->end;
	size_t i;

	if (end - sp->start > INVALID_TEXT_MAX)
		end = sp->start + INVALID_TEXT_MAX;
	out_putn(o, "<?", 2);
	for (i = sp->start; i < end; i++) {
		unsigned char c = (unsigned char)f->s[i];

		if (c >= 0x20 && c < 0x7f) {
			out_putc(o, (char)c);
		} else {
			out_putn(o, "\\x", 2);
			out_putc(o, hex_asc_upper[c >> 4] | SMALL);
			out_putc(o, hex_asc_upper[c & 15] | SMALL);
		}
	}
	out_putn(o, "?>", 2);
	o->markers++;
}

static int args_n(const struct kmsg_out *o)
{
	return o->args ? o->args->n : 0;
}

static int args_dropped(const struct kmsg_out *o)
{
	return o->args ? o->args->dropped : 0;
}

/* Index into args->v for this conversion, or -1 after a marker. */
static int pick_index(struct kmsg_out *o, const struct kmsg_spec *sp)
{
	long long idx;
	int n = args_n(o);

	if (sp->positional) {
		if (o->mode == MODE_SEQ || sp->pos < 1) {
			out_mark(o, KMSG_MARK_POSITION);
			return -1;
		}
		o->mode = MODE_POS;
		idx = (long long)sp->pos - 1;
	} else {
		if (o->mode == MODE_POS) {
			out_mark(o, KMSG_MARK_POSITION);
			return -1;
		}
		o->mode = MODE_SEQ;
		idx = o->seq++;
	}
	if (idx < n)
		return (int)idx;
	if (idx < (long long)n + args_dropped(o))
		out_mark(o, KMSG_MARK_TOOMANY);
	else if (sp->positional)
		out_mark(o, KMSG_MARK_POSITION);
	else
		out_mark(o, KMSG_MARK_MISSING);
	return -1;
}

static bool type_fits(const struct kmsg_spec *sp, const struct kmsg_arg *a)
{
	enum kmsg_arg_type want = arg_type(sp);

	if (sp->width_star && !a->has_width_arg)
		return false;
	if (sp->prec_star && !a->has_prec_arg)
		return false;
	if (want == KMSG_ARG_SIGNED || want == KMSG_ARG_UNSIGNED)
		return a->type == KMSG_ARG_SIGNED ||
		       a->type == KMSG_ARG_UNSIGNED;
	return want == a->type;
}

static const struct kmsg_arg *pick_arg(struct kmsg_out *o,
				       const struct kmsg_spec *sp)
{
	const struct kmsg_arg *a;
	int idx = pick_index(o, sp);

	if (idx < 0)
		return NULL;
	a = &o->args->v[idx];
	if (a->status == KMSG_ARG_MISSING) {
		out_mark(o, KMSG_MARK_MISSING);
		return NULL;
	}
	if (a->status == KMSG_ARG_UNTERMINATED) {
		out_mark(o, KMSG_MARK_UNTERMINATED);
		return NULL;
	}
	if (!type_fits(sp, a)) {
		out_mark(o, KMSG_MARK_TYPE);
		return NULL;
	}
	return a;
}

/* Field width and precision as format_decode() leaves them; false if capped */
static bool make_nspec(const struct kmsg_spec *sp, const struct kmsg_arg *a,
		       struct kmsg_nspec *ns)
{
	long long w = sp->width, p = sp->precision;

	ns->flags = sp->flags;
	ns->base = sp->base;
	if (sp->width_star) {
		w = a->width_arg;
		if (w < 0) {
			w = -w;
			ns->flags |= LEFT;
		}
	}
	if (sp->prec_star)
		p = a->prec_arg < 0 ? 0 : a->prec_arg;
	if (sp->too_wide || w > KMSG_WIDTH_MAX || p > KMSG_WIDTH_MAX)
		return false;
	ns->width = (int)w;
	ns->precision = (int)p;
	return true;
}

static void render_conv(struct kmsg_out *o, const struct kmsg_spec *sp)
{
	const struct kmsg_arg *a = pick_arg(o, sp);
	struct kmsg_nspec ns;
	unsigned long long raw;

	if (!a)
		return;
	if (!make_nspec(sp, a, &ns)) {
		out_mark(o, KMSG_MARK_WIDTH);
		return;
	}
	switch (a->type) {
	case KMSG_ARG_CHAR:
		out_char(o, (char)(unsigned char)a->s, ns);
		break;
	case KMSG_ARG_STRING:
		out_string(o, a->str, a->str_len, ns);
		break;
	case KMSG_ARG_RENDERED:
		/* vbin_printf() already applied the spec */
		out_putn(o, a->str, a->str_len);
		break;
	case KMSG_ARG_POINTER:
		out_pointer(o, a->u, sp->ptr_ext, ns);
		break;
	default:
		raw = a->type == KMSG_ARG_SIGNED ? (unsigned long long)a->s :
						   a->u;
		out_number(o, int_value(sp, raw, o->ls), ns);
		break;
	}
}

int kmsg_render(struct kmsg_strbuf *out, const char *fmt, size_t fmt_len,
		const struct kmsg_args *args, const struct kmsg_render_opts *opts)
{
	struct kmsg_fmt f = { fmt, fmt_length(fmt, fmt_len) };
	struct kmsg_out o = {
		.sb = out, .args = args, .opts = opts,
		.ls = norm_long_size(opts),
	};
	const struct kmsg_spec *sp;
	struct spec_iter it;
	size_t i = 0, j;

	/* make sure out is a NUL-terminated string even for empty output */
	out_putn(&o, "", 0);
	spec_iter_init(&it, &f, opts, true);
	while (!o.err) {
		/* the text up to the next conversion, then the conversion */
		sp = spec_next(&it);
		j = sp ? sp->start : f.len;
		if (j > i)
			out_putn(&o, f.s + i, j - i);
		if (!sp || o.err)
			break;
		i = sp->end;
		if (sp->type == FT_INVALID) {
			out_invalid(&o, &f, sp);
			break;
		}
		if (sp->type == FT_PERCENT)
			out_putc(&o, '%');
		else
			render_conv(&o, sp);
	}
	return o.err ? o.err : o.markers;
}
