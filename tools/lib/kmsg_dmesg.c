// SPDX-License-Identifier: GPL-2.0
/*
 * Lines of kernel log text: /dev/kmsg records and dmesg output
 */
#include <errno.h>
#include <string.h>

#include "kmsg_dmesg.h"

/* A decimal number of at most @max at @s (@len bytes): its length, or 0 */
static size_t number(const char *s, size_t len, unsigned long long max,
		     unsigned long long *val)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > (max - (s[i] - '0')) / 10)
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	*val = v;
	return i;
}

void kmsg_dmesg_parse(const char *line, size_t len, struct kmsg_dmesg_line *l)
{
	unsigned long long v[3];
	const char *semi, *close;
	size_t at = 0, n;
	int i;

	memset(l, 0, sizeof(*l));
	l->text = line;
	l->text_len = len;
	if (len && line[0] == ' ') {
		l->dict = true;
		return;
	}
	/* PRI,SEQ,TS, then flags (and fields a newer kernel adds) to ';' */
	for (i = 0; i < 3; i++) {
		n = number(line + at, len - at, i ? ~0ULL : 0xffffffffULL,
			   &v[i]);
		if (!n || at + n >= len || line[at + n] != ',')
			break;
		at += n + 1;
	}
	semi = i == 3 ? memchr(line + at, ';', len - at) : NULL;
	if (semi && !memchr(line + at, '\0', semi - (line + at))) {
		l->record = true;
		l->pri = v[0];
		l->seq = v[1];
		l->ts = v[2];
		l->text = semi + 1;
		l->text_len = len - (semi + 1 - line);
		return;
	}
	/* dmesg: "[    1.234567] text" */
	if (len && line[0] == '[') {
		close = memchr(line, ']', len);
		if (close) {
			l->text = close + 1;
			if (l->text < line + len && *l->text == ' ')
				l->text++;
			l->text_len = len - (l->text - line);
		}
	}
}

int kmsg_dmesg_escape(struct kmsg_strbuf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, from = 0;
	char esc[4] = { '\\', 'x' };

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c != 0x7f)
			continue;
		esc[2] = hex[c >> 4];
		esc[3] = hex[c & 15];
		if (kmsg_strbuf_putn(out, s + from, i - from) ||
		    kmsg_strbuf_putn(out, esc, 4))
			return -ENOMEM;
		from = i + 1;
	}
	if (kmsg_strbuf_putn(out, s + from, len - from))
		return -ENOMEM;
	return 0;
}
