/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_strbuf - a tiny growable, always NUL-terminated output buffer.
 *
 * A zero-initialised struct kmsg_strbuf is an empty buffer.  The text may
 * contain NUL bytes (a "%c" of '\0' renders one); len is authoritative,
 * buf[len] is always '\0' once anything was appended.  On allocation
 * failure the functions return -ENOMEM and leave the contents untouched.
 */
#ifndef KMSG_STRBUF_H
#define KMSG_STRBUF_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct kmsg_strbuf {
	char *buf;
	size_t len, cap;
};

/* Make room for @n more bytes and the NUL (the slow path of reserve) */
int kmsg_strbuf_grow(struct kmsg_strbuf *sb, size_t n);

/*
 * Make room for @n more bytes and the terminating NUL: then up to @n
 * bytes may be written at buf + len directly (len advanced, buf[len] set
 * to '\0' by the writer). The capacity at least doubles when it grows.
 */
static inline int kmsg_strbuf_reserve(struct kmsg_strbuf *sb, size_t n)
{
	/* len < cap whenever cap: the NUL fits */
	if (sb->cap && n < sb->cap - sb->len)
		return 0;
	return kmsg_strbuf_grow(sb, n);
}

static inline int kmsg_strbuf_putn(struct kmsg_strbuf *sb, const char *s,
				   size_t n)
{
	if (kmsg_strbuf_reserve(sb, n))
		return -ENOMEM;
	if (n)
		memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

static inline int kmsg_strbuf_putc(struct kmsg_strbuf *sb, char c)
{
	if (kmsg_strbuf_reserve(sb, 1))
		return -ENOMEM;
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
	return 0;
}

static inline int kmsg_strbuf_puts(struct kmsg_strbuf *sb, const char *s)
{
	return kmsg_strbuf_putn(sb, s, strlen(s));
}

/* A string literal, its length known at compile time */
#define kmsg_strbuf_putlit(sb, lit) \
	kmsg_strbuf_putn(sb, "" lit, sizeof(lit) - 1)
/* Append n copies of c. */
int kmsg_strbuf_fill(struct kmsg_strbuf *sb, char c, size_t n);
/* @v in decimal, padded on the left with @pad to @width (no printf) */
int kmsg_strbuf_putu(struct kmsg_strbuf *sb, unsigned long long v,
		     int width, char pad);
/* @v in decimal, with a '-' if negative */
int kmsg_strbuf_puti(struct kmsg_strbuf *sb, long long v);
/* @v in lowercase hexadecimal, without "0x" */
int kmsg_strbuf_putx(struct kmsg_strbuf *sb, unsigned long long v);

/* The value of the hexadecimal digit @c (either case), or -1 */
static inline int kmsg_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
/* Only ever call this with a literal format of our own. */
int kmsg_strbuf_printf(struct kmsg_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void kmsg_strbuf_free(struct kmsg_strbuf *sb);

/*
 * Append @len bytes of @s as a JSON string, quotes included. Control
 * characters, '"' and '\\' are escaped; a byte that does not belong to a
 * valid UTF-8 sequence is written as the code point of the same value
 * (\u00XX), so that the output is always valid JSON.
 */
int kmsg_json_str(struct kmsg_strbuf *out, const char *s, size_t len);

/*
 * Does the POSIX extended regular expression @re have a back-reference
 * ("\\1")? The report expressions of the catalog and the docs database
 * may not: a class's are joined into one alternation, which renumbers
 * their groups.
 */
static inline bool kmsg_re_backref(const char *re)
{
	for (; *re; re++)
		if (re[0] == '\\' && re[1]) {
			if (re[1] >= '1' && re[1] <= '9')
				return true;
			re++;
		}
	return false;
}

#endif /* KMSG_STRBUF_H */
