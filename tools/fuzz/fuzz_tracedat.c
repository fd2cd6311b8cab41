// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat structure check (lib/kmsg_tracedat.c): any bytes give
 * 0 or an error with the name, never a read outside them.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_tracedat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	if (kmsg_tracedat_check_buf(copy, size, "fuzz.dat", err, sizeof(err)) &&
	    strncmp(err, "fuzz.dat: ", 10))
		__builtin_trap();
	free(copy);
	return 0;
}
