// SPDX-License-Identifier: GPL-2.0
/*
 * The in-source doc parser (lib/kmsg_srcdoc.c): any C source, NULs
 * included, gives docs and diagnostics, never a crash.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "kmsg_catalog.h"
#include "kmsg_srcdoc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_diags diags = { 0 };
	struct kmsg_docs docs = { 0 };
	size_t i;

	kmsg_srcdoc_parse("fuzz.c", (const char *)data, size, &docs, &diags);
	for (i = 0; i < docs.n; i++)
		if (docs.v[i]->format)
			kmsg_fmt_values(docs.v[i]->format);
	kmsg_diags_sort(&diags);
	kmsg_docs_free(&docs);
	kmsg_diags_free(&diags);
	return 0;
}
