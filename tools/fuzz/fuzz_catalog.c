// SPDX-License-Identifier: GPL-2.0
/*
 * The catalog parser (lib/kmsg_catalog.c), and the checks kmsg-doc makes
 * of what it parsed: the format's conversions, each translation against
 * the format, the sorted diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "kmsg_catalog.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	return devnull ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_diags diags = { 0 };
	struct kmsg_docs docs = { 0 };
	struct kmsg_strbuf why = { 0 };
	size_t i, k;

	kmsg_catalog_parse("fuzz.kmsg", "fx", (const char *)data, size, &docs,
			   &diags);
	for (i = 0; i < docs.n; i++) {
		const struct kmsg_doc *d = docs.v[i];

		if (!d->format)
			continue;
		kmsg_fmt_values(d->format);
		for (k = 0; k < d->ntrans; k++) {
			kmsg_trans_check(d->format, d->trans[k].format, &why);
			why.len = 0;
		}
	}
	kmsg_diags_sort(&diags);
	kmsg_diags_print(&diags, devnull);
	kmsg_strbuf_free(&why);
	kmsg_docs_free(&docs);
	kmsg_diags_free(&diags);
	return 0;
}
