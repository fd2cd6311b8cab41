// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc auto-id MODNAME FORMAT
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

/* kmsg-doc auto-id MODNAME FORMAT */
int cmd_auto_id(int argc, char **argv)
{
	char *id;

	if (argc != 4) {
		fputs("kmsg-doc: auto-id takes MODNAME and FORMAT\n", stderr);
		usage(stderr);
		return 2;
	}
	if (!kmsg_valid_modname(argv[2], strlen(argv[2]))) {
		fprintf(stderr, "kmsg-doc: \"%s\" is not a KBUILD_MODNAME (letters, digits and _)\n",
			argv[2]);
		return 2;
	}
	id = kmsg_catalog_auto_id(argv[2], argv[3]);
	printf("%s\n", id);
	free(id);
	if (fflush(stdout) || ferror(stdout)) {
		fputs("kmsg-doc: error writing the output\n", stderr);
		return 1;
	}
	return 0;
}


