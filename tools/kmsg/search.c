// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg search: messages whose format or documentation has every word
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "kmsg_docs.h"
#include "kmsg_strbuf.h"
#include "kmsg.h"

static int search_hit(void *ctx, const char *id, const char *format,
		      const char *description)
{
	const char *nl = description ? strchr(description, '\n') : NULL;

	(void)ctx;
	printf("%-14s \"%s\"\n", id ? id : "", format ? format : "");
	if (description && *description)
		printf("               %.*s%s\n",
		       (int)(nl ? nl - description : (long)strlen(description)),
		       description, nl ? " ..." : "");
	return 0;
}

static int cmd_search(struct options *o, int n, char **words)
{
	struct kmsg_strbuf q = { 0 };
	struct kmsg_docs *docs;
	char err[1024];
	int i, ret;

	/* every word must match: each one quoted, as FTS5 phrase */
	for (i = 0; i < n; i++) {
		const char *p;

		kmsg_strbuf_puts(&q, i ? " \"" : "\"");
		for (p = words[i]; *p; p++)
			kmsg_strbuf_putn(&q, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
		kmsg_strbuf_putc(&q, '"');
	}
	docs = docs_open(o, err, sizeof(err));
	if (!docs) {
		fprintf(stderr, "%s: %s\n", prog, err);
		kmsg_strbuf_free(&q);
		return 1;
	}
	ret = kmsg_docs_search(docs, q.buf ? q.buf : "", search_hit, NULL);
	if (ret == 0)
		fprintf(stderr, "%s: nothing found\n", prog);
	else if (ret < 0)
		fprintf(stderr, "%s: search failed: %s\n", prog,
			kmsg_docs_errmsg(docs));
	kmsg_docs_close(docs);
	kmsg_strbuf_free(&q);
	return ret > 0 ? 0 : 1;
}

int search_main(int argc, char **argv)
{
	struct options o = { 0 };

	if (parse_command(argc, argv, &o, false, usage_docs, 1, INT_MAX))
		return 1;
	return cmd_search(&o, argc - optind, argv + optind);
}
