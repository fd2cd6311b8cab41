// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_strbuf - a tiny growable, always NUL-terminated output buffer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_strbuf.h"

int kmsg_strbuf_grow(struct kmsg_strbuf *sb, size_t n)
{
	size_t need, cap;
	char *p;

	if (n > SIZE_MAX - 1 - sb->len)
		return -ENOMEM;
	need = sb->len + n + 1;
	if (need <= sb->cap)
		return 0;

	cap = sb->cap ? sb->cap : 64;
	while (cap < need) {
		if (cap > SIZE_MAX / 2) {
			cap = need;
			break;
		}
		cap *= 2;
	}

	p = realloc(sb->buf, cap);
	if (!p)
		return -ENOMEM;
	sb->buf = p;
	sb->cap = cap;
	return 0;
}

int kmsg_strbuf_fill(struct kmsg_strbuf *sb, char c, size_t n)
{
	if (kmsg_strbuf_reserve(sb, n))
		return -ENOMEM;
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int kmsg_strbuf_putu(struct kmsg_strbuf *sb, unsigned long long v,
		     int width, char pad)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char tmp[24];
	int n = 0;

	/* two digits a division */
	while (v >= 100) {
		unsigned int r = v % 100;

		v /= 100;
		n += 2;
		memcpy(tmp + sizeof(tmp) - n, pairs + 2 * r, 2);
	}
	if (v >= 10) {
		n += 2;
		memcpy(tmp + sizeof(tmp) - n, pairs + 2 * v, 2);
	} else {
		tmp[sizeof(tmp) - ++n] = '0' + v;
	}
	if (width > n && kmsg_strbuf_fill(sb, pad, width - n))
		return -ENOMEM;
	return kmsg_strbuf_putn(sb, tmp + sizeof(tmp) - n, n);
}

int kmsg_strbuf_puti(struct kmsg_strbuf *sb, long long v)
{
	if (v >= 0)
		return kmsg_strbuf_putu(sb, v, 0, ' ');
	/* 0 - v as unsigned: LLONG_MIN too */
	if (kmsg_strbuf_putc(sb, '-'))
		return -ENOMEM;
	return kmsg_strbuf_putu(sb, 0ULL - (unsigned long long)v, 0, ' ');
}

int kmsg_strbuf_putx(struct kmsg_strbuf *sb, unsigned long long v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = hex[v & 15];
		v >>= 4;
	} while (v);
	return kmsg_strbuf_putn(sb, tmp + sizeof(tmp) - n, n);
}

int kmsg_strbuf_printf(struct kmsg_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* into the room there is; only when it does not fit, twice */
	if (kmsg_strbuf_reserve(sb, 64))
		return -ENOMEM;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return -ENOMEM;
	}
	if ((size_t)n >= sb->cap - sb->len) {
		sb->buf[sb->len] = '\0';
		if (kmsg_strbuf_reserve(sb, (size_t)n))
			return -ENOMEM;
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
	return 0;
}

void kmsg_strbuf_free(struct kmsg_strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}
