// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel log lines (lib/kmsg_dmesg.c), as kmsg dmesg reads them: the
 * parser and the escaping of any bytes. Input: one line, any bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_dmesg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a heap copy of exactly @size bytes: ASan sees any overread */
	char *line = malloc(size ? size : 1);
	struct kmsg_strbuf out = { 0 };
	struct kmsg_dmesg_line l;
	size_t i;

	if (!line)
		abort();
	memcpy(line, data, size);
	kmsg_dmesg_parse(line, size, &l);
	if (l.text < line || l.text + l.text_len > line + size)
		abort();
	if (kmsg_dmesg_escape(&out, l.text, l.text_len))
		abort();
	/* nothing a terminal acts on is left */
	for (i = 0; i < out.len; i++)
		if ((unsigned char)out.buf[i] < 0x20 || out.buf[i] == 0x7f)
			abort();
	kmsg_strbuf_free(&out);
	free(line);
	return 0;
}
