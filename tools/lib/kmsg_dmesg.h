/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lines of kernel log text, as "kmsg dmesg" reads them: /dev/kmsg records
 * ("PRI,SEQ,TS,FLAGS[,...];TEXT") and dmesg output ("[TS] TEXT", or text
 * alone). The input is untrusted: any bytes, NULs included.
 */
#ifndef KMSG_DMESG_H
#define KMSG_DMESG_H

#include <stdbool.h>
#include <stddef.h>

#include "kmsg_strbuf.h"

struct kmsg_dmesg_line {
	bool record;		/* a /dev/kmsg record: pri, seq, ts are set */
	unsigned int pri;	/* facility << 3 | level */
	unsigned long long seq, ts;	/* ts in microseconds */
	const char *text;	/* the message: into the line, @text_len bytes */
	size_t text_len;
	bool dict;		/* a /dev/kmsg dictionary line (" KEY=value") */
	int level;		/* 0..7 from a record or "<N>", else -1 */
	/*
	 * the syslog facility (pri >> 3) from a record or "<N>", else -1:
	 * 0 the kernel's, any other a program's write to /dev/kmsg
	 */
	int facility;
	/* the line's timestamp or journal header, NULL if it has none */
	const char *stamp;
	size_t stamp_len;
};

/*
 * Parse the @len bytes at @line (one line, its newline removed). A
 * /dev/kmsg record must have three decimal numbers, in range, before its
 * flags and ';'; its text ends at a newline (what one read() of /dev/kmsg
 * returns: the " KEY=value" lines of its dictionary follow). Anything
 * else is text, after what precedes the message in these forms:
 *
 *	<6>                          dmesg -r, before any of the others
 *	[    1.234567]               dmesg, journalctl -o short-monotonic
 *	[Mon Jan  1 10:00:00 2024]   dmesg -T (any bracket with a digit
 *	                             and only time-like characters)
 *	Jan 01 10:00:00 HOST kernel: journalctl -k (short, short-precise,
 *	2024-01-01T10:00:00+0000 HOST kernel:   short-iso), syslog files
 *	[    1.234567] HOST kernel:  journalctl -o short-monotonic
 *
 * A bracket that is not time-like ("[drm] ...") is part of the text.
 * Never fails.
 */
void kmsg_dmesg_parse(const char *line, size_t len, struct kmsg_dmesg_line *l);

/*
 * Append the @len bytes at @s to @out as a terminal may show them:
 * control characters, DEL and NUL as \xNN, as util-linux dmesg and
 * /dev/kmsg escape them; other bytes (UTF-8 included) as they are.
 * 0 or -ENOMEM.
 */
int kmsg_dmesg_escape(struct kmsg_strbuf *out, const char *s, size_t len);

/*
 * Undo /dev/kmsg's escaping of a record's text ("\\x0a" for a newline):
 * @len bytes at @s appended to @out. 0 or -ENOMEM.
 */
int kmsg_dmesg_unescape(struct kmsg_strbuf *out, const char *s, size_t len);

/*
 * Is the message text (@len bytes at @text) the kernel's banner, "Linux
 * version RELEASE (...) ...", as the first line of every boot prints it?
 * Then the length of RELEASE, which starts at @text + 14: 1 to 64 bytes
 * with no space or control character, followed by " (".  0 if not.
 */
size_t kmsg_dmesg_version(const char *text, size_t len);

#endif /* KMSG_DMESG_H */
