// SPDX-License-Identifier: GPL-2.0
/*
 * docs_lookup - the docs database reader (lib/kmsg_docs.c) on the command
 * line, for run.sh:
 *
 *   docs_lookup DB get ID          kmsg_docs_get(): id, format, level,
 *                                  source file and the automatic ids
 *   docs_lookup DB curated AUTO_ID kmsg_docs_curated_for_auto()
 *   docs_lookup DB autos ID        kmsg_docs_auto_for_curated()
 *   docs_lookup DB tr ID LOCALE    kmsg_docs_translation()
 *
 * Prints "none" when there is nothing; exit status 0, 1 for "none", 2 on
 * an error.
 */
#include <stdio.h>
#include <string.h>

#include "kmsg_docs.h"

static int cmd_get(struct kmsg_docs *d, const char *id)
{
	struct kmsg_doc doc;
	int i, ret = kmsg_docs_get(d, id, &doc);

	if (ret) {
		puts(ret > 0 ? "none" : "error");
		return ret > 0 ? 1 : 2;
	}
	printf("id %s\nformat %s\nlevel %d\nfile %s:%d\n", doc.id, doc.format,
	       doc.level, doc.file, doc.line);
	for (i = 0; i < doc.naliases; i++)
		printf("alias %s %s %s\n", doc.aliases[i].auto_id,
		       doc.aliases[i].modname,
		       doc.aliases[i].format ? doc.aliases[i].format : "(none)");
	kmsg_doc_free(&doc);
	return 0;
}

static int cmd_curated(struct kmsg_docs *d, const char *auto_id)
{
	char out[64];
	int ret = kmsg_docs_curated_for_auto(d, auto_id, out, sizeof(out));

	puts(ret == 0 ? out : ret > 0 ? "none" : "error");
	return ret == 0 ? 0 : ret > 0 ? 1 : 2;
}

static int print_auto(void *ctx, const char *auto_id, const char *modname,
		      const char *format)
{
	(void)ctx;
	printf("%s %s %s\n", auto_id, modname, format ? format : "(none)");
	return 0;
}

static int cmd_autos(struct kmsg_docs *d, const char *id)
{
	int n = kmsg_docs_auto_for_curated(d, id, print_auto, NULL);

	if (n < 0) {
		puts("error");
		return 2;
	}
	if (!n)
		puts("none");
	return n ? 0 : 1;
}

static int cmd_tr(struct kmsg_docs *d, const char *id, const char *locale)
{
	const char *t = kmsg_docs_translation(d, id, locale);

	puts(t ? t : "none");
	return t ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct kmsg_docs *d;
	char err[512];
	int ret = 2;

	if (argc < 4) {
		fputs("usage: docs_lookup DB get|curated|autos|tr ID [LOCALE]\n",
		      stderr);
		return 2;
	}
	d = kmsg_docs_open(argv[1], err, sizeof(err));
	if (!d) {
		fprintf(stderr, "docs_lookup: %s\n", err);
		return 2;
	}
	if (!strcmp(argv[2], "get"))
		ret = cmd_get(d, argv[3]);
	else if (!strcmp(argv[2], "curated"))
		ret = cmd_curated(d, argv[3]);
	else if (!strcmp(argv[2], "autos"))
		ret = cmd_autos(d, argv[3]);
	else if (!strcmp(argv[2], "tr") && argc == 5)
		ret = cmd_tr(d, argv[3], argv[4]);
	else
		fputs("docs_lookup: unknown command\n", stderr);
	kmsg_docs_close(d);
	return ret;
}
