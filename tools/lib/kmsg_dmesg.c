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

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "[ts]" of dmesg, dmesg -T, dmesg --time-format=...: its length or 0 */
static size_t time_bracket(const char *s, size_t len)
{
	bool digit = false, letter = false;
	const char *close;
	size_t i, n;

	if (!len || s[0] != '[')
		return 0;
	n = len < 64 ? len : 64;
	close = memchr(s, ']', n);
	if (!close)
		return 0;
	for (i = 1; s + i < close; i++) {
		char c = s[i];

		if (is_digit(c))
			digit = true;
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			letter = true;
		else if (!c || !strchr(" .:+-,<>", c))
			return 0;
	}
	/* letters only in a date: "[Mon Jan  1 10:00:00 2024]" */
	if (!digit || (letter && !memchr(s, ':', close - s)))
		return 0;
	return close + 1 - s;
}

/* "HOST kernel: " at @s: its length or 0 */
static size_t host_kernel(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && s[i] != ' ' && s[i] != '\0')
		i++;
	if (!i || len - i < 9 || memcmp(s + i, " kernel: ", 9))
		return 0;
	return i + 9;
}

/* journalctl's and syslog's "Jan 01 10:00:00 " or ISO time: length or 0 */
static size_t journal_time(const char *s, size_t len)
{
	size_t i = 0;

	if (len > 16 && s[3] == ' ' && (s[4] == ' ' || is_digit(s[4])) &&
	    is_digit(s[5]) && s[6] == ' ' && is_digit(s[7]) && s[9] == ':') {
		i = 7;
	} else if (len > 20 && is_digit(s[0]) && is_digit(s[3]) &&
		   s[4] == '-' && s[7] == '-' && s[10] == 'T') {
		i = 11;
	} else {
		return 0;
	}
	while (i < len && (is_digit(s[i]) || (s[i] && strchr(":.,+-Z", s[i]))))
		i++;
	return i < len && s[i] == ' ' ? i + 1 : 0;
}

/* What precedes the message in dmesg and journal lines */
static void text_header(const char *line, size_t len,
			struct kmsg_dmesg_line *l)
{
	size_t at = 0, n, h;

	/* dmesg -r: "<6>", "<14>" */
	if (len > 2 && line[0] == '<') {
		unsigned int v = 0;

		for (n = 1; n < 4 && n < len && is_digit(line[n]); n++)
			v = v * 10 + (line[n] - '0');
		if (n > 1 && n < len && line[n] == '>') {
			l->level = v & 7;
			l->facility = v >> 3;
			at = n + 1;
		}
	}
	n = time_bracket(line + at, len - at);
	if (!n)
		n = journal_time(line + at, len - at);
	if (n) {
		l->stamp = line + at;
		l->stamp_len = n;
		at += n;
		if (at < len && line[at] == ' ')
			at++;
		h = host_kernel(line + at, len - at);
		if (h) {
			/* syslog files: "... kernel: [    1.234567] text" */
			at += h;
			n = time_bracket(line + at, len - at);
			if (n) {
				at += n;
				if (at < len && line[at] == ' ')
					at++;
			}
		}
	}
	l->text = line + at;
	l->text_len = len - at;
}

void kmsg_dmesg_parse(const char *line, size_t len, struct kmsg_dmesg_line *l)
{
	unsigned long long v[3];
	const char *semi, *nl;
	size_t at = 0, n;
	int i;

	memset(l, 0, sizeof(*l));
	l->level = -1;
	l->facility = -1;
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
		l->level = v[0] & 7;
		l->facility = v[0] >> 3;
		l->seq = v[1];
		l->ts = v[2];
		l->text = semi + 1;
		l->text_len = len - (semi + 1 - line);
		/*
		 * a read() of /dev/kmsg: the record's dictionary follows its
		 * text (escaped: no newline of its own), one " KEY=value"
		 * line each; not text of the message
		 */
		nl = memchr(l->text, '\n', l->text_len);
		if (nl)
			l->text_len = nl - l->text;
		return;
	}
	text_header(line, len, l);
}

int kmsg_dmesg_unescape(struct kmsg_strbuf *out, const char *s, size_t len)
{
	size_t i, from = 0;
	char c;

	for (i = 0; i + 3 < len; i++) {
		if (s[i] != '\\' || s[i + 1] != 'x' ||
		    kmsg_hexval(s[i + 2]) < 0 || kmsg_hexval(s[i + 3]) < 0)
			continue;
		c = (char)(kmsg_hexval(s[i + 2]) << 4 | kmsg_hexval(s[i + 3]));
		if (kmsg_strbuf_putn(out, s + from, i - from) ||
		    kmsg_strbuf_putn(out, &c, 1))
			return -ENOMEM;
		i += 3;
		from = i + 1;
	}
	if (kmsg_strbuf_putn(out, s + from, len - from))
		return -ENOMEM;
	return 0;
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

size_t kmsg_dmesg_version(const char *text, size_t len)
{
	static const char head[] = "Linux version ";
	const size_t hl = sizeof(head) - 1;
	size_t i;

	if (len < hl || memcmp(text, head, hl))
		return 0;
	for (i = hl; i < len && i - hl <= 64; i++) {
		unsigned char c = text[i];

		if (c == ' ')
			break;
		if (c < ' ' || c >= 0x7f)
			return 0;
	}
	if (i == hl || i - hl > 64 || i + 1 >= len || text[i + 1] != '(')
		return 0;
	return i - hl;
}
