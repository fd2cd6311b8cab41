// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc journal-catalog: the journal catalog of a database
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_catalog.h"
#include "kmsg_db.h"
#include "kmsg_diff.h"
#include "kmsg_index.h"
#include "kmsg_jcatalog.h"
#include "kmsg_srcdoc.h"
#include "kmsg_strbuf.h"
#include "kmsg-doc.h"

/* kmsg-doc journal-catalog [--db FILE] DIR: DIR/kmsg.catalog */
int cmd_journal_catalog(int argc, char **argv)
{
	const char *db = getenv("KMSG_DB"), *dir = NULL;
	int i;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--db") && i + 1 < argc)
			db = argv[++i];
		else if (!strncmp(argv[i], "--db=", 5))
			db = argv[i] + 5;
		else if (!dir && argv[i][0] != '-')
			dir = argv[i];
		else
			dir = NULL, i = argc;
	}
	if (!dir || !db) {
		fputs("kmsg-doc: journal-catalog takes --db FILE (or KMSG_DB) and DIR\n",
		      stderr);
		usage(stderr);
		return 2;
	}
	return kmsg_journal_catalog(db, dir);
}


