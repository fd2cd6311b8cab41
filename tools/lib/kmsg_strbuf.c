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

/* Make room for n more bytes plus the terminating NUL. */
static int kmsg_strbuf_grow(struct kmsg_strbuf *sb, size_t n)
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

int kmsg_strbuf_putn(struct kmsg_strbuf *sb, const char *s, size_t n)
{
	if (kmsg_strbuf_grow(sb, n))
		return -ENOMEM;
	if (n)
		memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int kmsg_strbuf_putc(struct kmsg_strbuf *sb, char c)
{
	return kmsg_strbuf_putn(sb, &c, 1);
}

int kmsg_strbuf_puts(struct kmsg_strbuf *sb, const char *s)
{
	return kmsg_strbuf_putn(sb, s, strlen(s));
}

int kmsg_strbuf_fill(struct kmsg_strbuf *sb, char c, size_t n)
{
	if (kmsg_strbuf_grow(sb, n))
		return -ENOMEM;
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int kmsg_strbuf_putu(struct kmsg_strbuf *sb, unsigned long long v,
		     int width, char pad)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	if (width > n && kmsg_strbuf_fill(sb, pad, width - n))
		return -ENOMEM;
	return kmsg_strbuf_putn(sb, tmp + sizeof(tmp) - n, n);
}

int kmsg_strbuf_printf(struct kmsg_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	if (kmsg_strbuf_grow(sb, (size_t)n))
		return -ENOMEM;

	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
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

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 */
static size_t utf8_len(const unsigned char *s, size_t len)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

int kmsg_json_str(struct kmsg_strbuf *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;
	int ret = kmsg_strbuf_putc(out, '"');

	while (!ret && i < len) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			ret = kmsg_strbuf_putc(out, '\\');
			if (!ret)
				ret = kmsg_strbuf_putc(out, c);
			i++;
		} else if (c == '\n') {
			ret = kmsg_strbuf_puts(out, "\\n");
			i++;
		} else if (c == '\t') {
			ret = kmsg_strbuf_puts(out, "\\t");
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			ret = kmsg_strbuf_printf(out, "\\u%04x", c) < 0;
			i++;
		} else if ((n = utf8_len(s + i, len - i))) {
			ret = kmsg_strbuf_putn(out, str + i, n);
			i += n;
		} else {
			/* not UTF-8: the code point of the byte's value */
			ret = kmsg_strbuf_printf(out, "\\u%04x", c) < 0;
			i++;
		}
	}
	if (!ret)
		ret = kmsg_strbuf_putc(out, '"');
	return ret ? -ENOMEM : 0;
}
