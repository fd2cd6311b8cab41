// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg manual DIR: the message manual (lib/kmsg_manual.c) of the docs
 * database.
 */
#include <getopt.h>
#include <stdio.h>

#include "kmsg_docs.h"
#include "kmsg_manual.h"
#include "kmsg.h"

int manual_main(int argc, char **argv)
{
	struct options o = { 0 };
	struct kmsg_docs *docs;
	char err[1024];
	int ret;

	if (parse_command(argc, argv, &o, false, usage_docs, 1, 1))
		return 1;
	docs = docs_open(&o, err, sizeof(err));
	if (!docs) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	ret = kmsg_manual(docs, argv[optind]);
	kmsg_docs_close(docs);
	return ret;
}
