// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg explain: the documentation of messages, by identifier
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "kmsg_docs.h"
#include "kmsg_json.h"
#include "kmsg.h"

static void print_indented(const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl > p)
			printf("  %.*s\n", (int)(nl - p), p);
		else
			putchar('\n');
		p = *nl ? nl + 1 : nl;
	}
}

static int explain_one(struct kmsg_docs *docs, const char *id)
{
	struct kmsg_doc d;
	int i, ret = kmsg_docs_get(docs, id, &d);

	if (ret) {
		fprintf(stderr, "%s: %s: %s\n", prog, id,
			ret > 0 ? "no documentation" : kmsg_docs_errmsg(docs));
		return 1;
	}
	printf("%s: \"%s\"\n\n", d.id, d.format);
	if (d.level >= 0)
		printf("Severity: %s\n", kmsg_level_name(d.level));
	if (d.code_file)
		printf("Printed by: %s:%d (%s)\n", d.code_file, d.code_line,
		       d.function);
	printf("Documented in: %s:%d\n", d.file, d.line);
	if (d.naliases) {
		printf("\nAutomatic ids (the message as the kernel prints it):\n");
		for (i = 0; i < d.naliases; i++)
			printf("  %s  %s\n", d.aliases[i].auto_id,
			       d.aliases[i].format ? d.aliases[i].format :
			       "(another wording)");
	}
	if (d.nparams) {
		printf("\nParameters:\n");
		for (i = 0; i < d.nparams; i++)
			printf("  @%d  %s\n", i, d.params[i] ? d.params[i] : "");
	}
	printf("\nDescription:\n");
	print_indented(d.description);
	printf("\nUser Response:\n");
	print_indented(d.user_response);
	if (d.see_also[0])
		printf("\nSee also: %s\n", d.see_also);
	kmsg_doc_free(&d);
	return 0;
}

static int cmd_explain(struct options *o, int n, char **ids)
{
	struct kmsg_docs *docs;
	char err[1024];
	int i, ret = 0;

	docs = docs_open(o, err, sizeof(err));
	if (!docs) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (i)
			printf("\n");
		ret |= explain_one(docs, ids[i]);
	}
	kmsg_docs_close(docs);
	return ret;
}

int explain_main(int argc, char **argv)
{
	struct options o = { 0 };

	if (parse_command(argc, argv, &o, false, usage_docs, 1, INT_MAX))
		return 1;
	return cmd_explain(&o, argc - optind, argv + optind);
}
