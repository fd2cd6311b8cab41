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
};

/*
 * Parse the @len bytes at @line (one line, its newline removed). A
 * /dev/kmsg record must have three decimal numbers, in range, before its
 * flags and ';'; anything else is text. Never fails.
 */
void kmsg_dmesg_parse(const char *line, size_t len, struct kmsg_dmesg_line *l);

/*
 * Append the @len bytes at @s to @out as a terminal may show them:
 * control characters, DEL and NUL as \xNN, as util-linux dmesg and
 * /dev/kmsg escape them; other bytes (UTF-8 included) as they are.
 * 0 or -ENOMEM.
 */
int kmsg_dmesg_escape(struct kmsg_strbuf *out, const char *s, size_t len);

#endif /* KMSG_DMESG_H */
