// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF reader of a -dbg package's modules (lib/kmsg_dwarf.c,
 * kmsg_dwarf_open_rel()): the input is the relocatable object's image;
 * its line tables are read, then offsets of .text looked up.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_dwarf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_dwarf *d;
	char err[512];
	uint64_t off;

	err[0] = '\0';
	d = kmsg_dwarf_open_rel("fuzz.o", data, size, err, sizeof(err));
	if (!d) {
		/* an error says which file */
		if (strncmp(err, "fuzz.o: ", 8))
			__builtin_trap();
		return 0;
	}
	for (off = 0; off < 64; off += 7) {
		struct kmsg_dwarf_where w;
		uint64_t a;

		if (kmsg_dwarf_section_addr(d, ".text", off, &a) ||
		    kmsg_dwarf_where(d, a, &w))
			continue;
		/* a row has a file, and a line of its own */
		if (!w.file || strlen(w.file) > size || w.line < 0)
			__builtin_trap();
	}
	kmsg_dwarf_close(d);
	return 0;
}
