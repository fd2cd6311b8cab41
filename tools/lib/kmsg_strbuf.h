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

#include <stddef.h>

struct kmsg_strbuf {
	char *buf;
	size_t len, cap;
};

int kmsg_strbuf_putc(struct kmsg_strbuf *sb, char c);
int kmsg_strbuf_puts(struct kmsg_strbuf *sb, const char *s);
int kmsg_strbuf_putn(struct kmsg_strbuf *sb, const char *s, size_t n);
/* Append n copies of c. */
int kmsg_strbuf_fill(struct kmsg_strbuf *sb, char c, size_t n);
/* @v in decimal, padded on the left with @pad to @width (no printf) */
int kmsg_strbuf_putu(struct kmsg_strbuf *sb, unsigned long long v,
		     int width, char pad);
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

#endif /* KMSG_STRBUF_H */
