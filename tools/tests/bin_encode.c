// SPDX-License-Identifier: GPL-2.0
/*
 * bin_encode - TEST ONLY userspace vbin_printf().
 *
 * A deliberately separate, line-by-line port of format_decode() and
 * vbin_printf() so that the tests do not check the decoder against itself.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bin_encode.h"

#define SIGN	1
#define LEFT	2
#define PLUS	4
#define SPACE	8
#define ZEROPAD	16
#define SMALL	32
#define SPECIAL	64

#define PAGE_SIZE	4096UL
#define MAX_ERRNO	4095UL
#define FIELD_WIDTH_MAX ((1 << 23) - 1)
#define PRECISION_MAX	((1 << 15) - 1)

enum format_type {
	FORMAT_TYPE_NONE,
	FORMAT_TYPE_WIDTH,
	FORMAT_TYPE_PRECISION,
	FORMAT_TYPE_CHAR,
	FORMAT_TYPE_STR,
	FORMAT_TYPE_PTR,
	FORMAT_TYPE_PERCENT_CHAR,
	FORMAT_TYPE_INVALID,
	FORMAT_TYPE_LONG_LONG,
	FORMAT_TYPE_ULONG,
	FORMAT_TYPE_LONG,
	FORMAT_TYPE_UBYTE,
	FORMAT_TYPE_BYTE,
	FORMAT_TYPE_USHORT,
	FORMAT_TYPE_SHORT,
	FORMAT_TYPE_UINT,
	FORMAT_TYPE_INT,
	FORMAT_TYPE_SIZE_T,
	FORMAT_TYPE_PTRDIFF
};

struct printf_spec {
	unsigned int	type:8;
	signed int	field_width:24;
	unsigned int	flags:8;
	unsigned int	base:8;
	signed int	precision:16;
};

static int k_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static int k_isalnum(char ch)
{
	unsigned char c = (unsigned char)ch;

	if (c < 0x80)
		return k_isdigit(ch) || (c >= 'a' && c <= 'z') ||
		       (c >= 'A' && c <= 'Z');
	return c >= 0xc0 && c != 0xd7 && c != 0xf7;
}

static int skip_atoi(const char **s)
{
	unsigned int i = 0;

	while (k_isdigit(**s))
		i = i * 10 + (unsigned int)(*((*s)++) - '0');
	return (int)i;
}

static void set_bits_width(struct printf_spec *spec, int v)
{
	/* the kernel's bitfield store: keep the low 24 bits, signed */
	spec->field_width = (int)((unsigned int)v << 8) >> 8;
}

static void set_bits_prec(struct printf_spec *spec, int v)
{
	spec->precision = (int16_t)(uint16_t)v;
}

static int format_decode(const char *fmt, struct printf_spec *spec)
{
	const char *start = fmt;
	char qualifier;

	if (spec->type == FORMAT_TYPE_WIDTH) {
		if (spec->field_width < 0) {
			spec->field_width = -spec->field_width;
			spec->flags |= LEFT;
		}
		spec->type = FORMAT_TYPE_NONE;
		goto precision;
	}
	if (spec->type == FORMAT_TYPE_PRECISION) {
		if (spec->precision < 0)
			spec->precision = 0;
		spec->type = FORMAT_TYPE_NONE;
		goto qualifier;
	}

	spec->type = FORMAT_TYPE_NONE;
	for (; *fmt; ++fmt)
		if (*fmt == '%')
			break;
	if (fmt != start || !*fmt)
		return (int)(fmt - start);

	spec->flags = 0;
	for (;;) {
		bool found = true;

		++fmt;
		switch (*fmt) {
		case '-': spec->flags |= LEFT;    break;
		case '+': spec->flags |= PLUS;    break;
		case ' ': spec->flags |= SPACE;   break;
		case '#': spec->flags |= SPECIAL; break;
		case '0': spec->flags |= ZEROPAD; break;
		default:  found = false;
		}
		if (!found)
			break;
	}

	spec->field_width = -1;
	if (k_isdigit(*fmt)) {
		set_bits_width(spec, skip_atoi(&fmt));
	} else if (*fmt == '*') {
		spec->type = FORMAT_TYPE_WIDTH;
		return (int)(++fmt - start);
	}

precision:
	spec->precision = -1;
	if (*fmt == '.') {
		++fmt;
		if (k_isdigit(*fmt)) {
			set_bits_prec(spec, skip_atoi(&fmt));
			if (spec->precision < 0)
				spec->precision = 0;
		} else if (*fmt == '*') {
			spec->type = FORMAT_TYPE_PRECISION;
			return (int)(++fmt - start);
		}
	}

qualifier:
	qualifier = 0;
	if (*fmt == 'h' || (*fmt | 0x20) == 'l' || *fmt == 'z' || *fmt == 't') {
		qualifier = *fmt++;
		if (qualifier == *fmt) {
			if (qualifier == 'l') {
				qualifier = 'L';
				++fmt;
			} else if (qualifier == 'h') {
				qualifier = 'H';
				++fmt;
			}
		}
	}

	spec->base = 10;
	switch (*fmt) {
	case 'c':
		spec->type = FORMAT_TYPE_CHAR;
		return (int)(++fmt - start);
	case 's':
		spec->type = FORMAT_TYPE_STR;
		return (int)(++fmt - start);
	case 'p':
		spec->type = FORMAT_TYPE_PTR;
		return (int)(++fmt - start);
	case '%':
		spec->type = FORMAT_TYPE_PERCENT_CHAR;
		return (int)(++fmt - start);
	case 'o':
		spec->base = 8;
		break;
	case 'x':
		spec->flags |= SMALL;
		/* fall through */
	case 'X':
		spec->base = 16;
		break;
	case 'd':
	case 'i':
		spec->flags |= SIGN;
		break;
	case 'u':
		break;
	default:
		spec->type = FORMAT_TYPE_INVALID;
		return (int)(fmt - start);
	}

	if (qualifier == 'L')
		spec->type = FORMAT_TYPE_LONG_LONG;
	else if (qualifier == 'l')
		spec->type = FORMAT_TYPE_ULONG + (spec->flags & SIGN);
	else if (qualifier == 'z')
		spec->type = FORMAT_TYPE_SIZE_T;
	else if (qualifier == 't')
		spec->type = FORMAT_TYPE_PTRDIFF;
	else if (qualifier == 'H')
		spec->type = FORMAT_TYPE_UBYTE + (spec->flags & SIGN);
	else if (qualifier == 'h')
		spec->type = FORMAT_TYPE_USHORT + (spec->flags & SIGN);
	else
		spec->type = FORMAT_TYPE_UINT + (spec->flags & SIGN);

	return (int)(++fmt - start);
}

static void set_field_width(struct printf_spec *spec, int width)
{
	if (width > FIELD_WIDTH_MAX)
		width = FIELD_WIDTH_MAX;
	if (width < -FIELD_WIDTH_MAX)
		width = -FIELD_WIDTH_MAX;
	spec->field_width = width;
}

static void set_precision(struct printf_spec *spec, int prec)
{
	if (prec > PRECISION_MAX || prec < -PRECISION_MAX - 1)
		prec = prec < 0 ? 0 : PRECISION_MAX;
	spec->precision = prec;
}

struct enc {
	unsigned char *base;
	size_t pos, size;
	int long_size;
};

static void align(struct enc *e, size_t a)
{
	e->pos = (e->pos + a - 1) & ~(a - 1);
}

/* save_arg(): little endian, 8-byte values aligned to 4 only */
static void save(struct enc *e, unsigned long long v, size_t size)
{
	size_t k;

	align(e, size >= 4 ? 4 : size);
	if (e->pos + size <= e->size)
		for (k = 0; k < size; k++)
			e->base[e->pos + k] = (unsigned char)(v >> (8 * k));
	e->pos += size;
}

static unsigned long long ulong_arg(struct enc *e, unsigned long v)
{
	return e->long_size == 4 ? (uint32_t)v : v;
}

static const char *check_pointer_msg(const void *ptr)
{
	uintptr_t v = (uintptr_t)ptr;

	if (!ptr)
		return "(null)";
	if (v < PAGE_SIZE || v >= (uintptr_t)-MAX_ERRNO)
		return "(efault)";
	return NULL;
}

static void save_str(struct enc *e, const char *s, int precision)
{
	const char *msg = check_pointer_msg(s);
	size_t len;

	if (msg)
		s = msg;
	if (precision >= 0)
		len = strnlen(s, (size_t)precision);
	else
		len = strlen(s);
	if (e->pos + len + 1 < e->size) {
		memcpy(e->base + e->pos, s, len);
		e->base[e->pos + len] = '\0';
	}
	e->pos += len + 1;
}

/* pointer() output for the extensions rendered at record time */
static void save_rendered(struct enc *e, const char *s)
{
	size_t len = strlen(s), k;

	for (k = 0; k < len; k++)
		if (e->pos + k < e->size)
			e->base[e->pos + k] = (unsigned char)s[k];
	e->pos += len;
	if (e->pos + 1 < e->size)
		e->base[e->pos++] = '\0';
	else if (e->size)
		e->base[e->size - 1] = '\0';
}

static void save_ptr(struct enc *e, const char *fmt, va_list *ap)
{
	switch (*fmt) {
	case 'S':
	case 's':
	case 'x':
	case 'K':
	case 'e':
		save(e, ulong_arg(e, (uintptr_t)va_arg(*ap, void *)),
		     (size_t)e->long_size);
		break;
	default:
		if (!k_isalnum(*fmt)) {
			save(e, ulong_arg(e, (uintptr_t)va_arg(*ap, void *)),
			     (size_t)e->long_size);
			break;
		}
		save_rendered(e, va_arg(*ap, const char *));
	}
}

static void save_number(struct enc *e, unsigned int type, va_list *ap)
{
	size_t ls = (size_t)e->long_size;

	switch (type) {
	case FORMAT_TYPE_LONG_LONG:
		save(e, va_arg(*ap, unsigned long long), 8);
		break;
	case FORMAT_TYPE_ULONG:
	case FORMAT_TYPE_LONG:
	case FORMAT_TYPE_SIZE_T:
	case FORMAT_TYPE_PTRDIFF:
		save(e, ulong_arg(e, va_arg(*ap, unsigned long)), ls);
		break;
	case FORMAT_TYPE_UBYTE:
	case FORMAT_TYPE_BYTE:
		save(e, (unsigned int)va_arg(*ap, int), 1);
		break;
	case FORMAT_TYPE_USHORT:
	case FORMAT_TYPE_SHORT:
		save(e, (unsigned int)va_arg(*ap, int), 2);
		break;
	default:
		save(e, (unsigned int)va_arg(*ap, int), 4);
	}
}

int bin_vencode(int long_size, void *buf, size_t size, const char *fmt,
		va_list ap)
{
	struct printf_spec spec = { 0 };
	struct enc e = { buf, 0, size, long_size == 4 ? 4 : 8 };
	va_list aq;
	int width;

	va_copy(aq, ap);
	while (*fmt) {
		int read = format_decode(fmt, &spec);

		fmt += read;
		switch (spec.type) {
		case FORMAT_TYPE_NONE:
		case FORMAT_TYPE_PERCENT_CHAR:
			break;
		case FORMAT_TYPE_INVALID:
			goto out;
		case FORMAT_TYPE_WIDTH:
		case FORMAT_TYPE_PRECISION:
			width = va_arg(aq, int);
			save(&e, (unsigned int)width, 4);
			if (*fmt == 'p')
				set_field_width(&spec, width);
			if (spec.type == FORMAT_TYPE_PRECISION)
				set_precision(&spec, width);
			break;
		case FORMAT_TYPE_CHAR:
			save(&e, (unsigned int)va_arg(aq, int), 1);
			break;
		case FORMAT_TYPE_STR:
			save_str(&e, va_arg(aq, const char *), spec.precision);
			break;
		case FORMAT_TYPE_PTR:
			save_ptr(&e, fmt, &aq);
			while (k_isalnum(*fmt))
				fmt++;
			break;
		default:
			save_number(&e, spec.type, &aq);
		}
	}
out:
	va_end(aq);
	align(&e, 4);
	return (int)e.pos;
}

int bin_encode_ls(int long_size, void *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = bin_vencode(long_size, buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int bin_encode(void *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = bin_vencode(8, buf, size, fmt, ap);
	va_end(ap);
	return n;
}
