// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-doc - check the documentation of kernel messages against the kmsg
 * index of a build, and build the docs database from them.
 *
 *   kmsg-doc check   [--srctree DIR] [--catalog DIR] [--template=source|catalog]
 *                    [--coverage] [--templates DIR] [--log FILE] OBJECT...
 *   kmsg-doc build-db --out FILE [--srctree DIR] [--catalog DIR] [--release STR]
 *                     [--banner LINE] [--source STR] [--dbg VMLINUX]
 *                     [--dbg-modules DEB|DIR] [--kbuild-map FILE] OBJECT...
 *   kmsg-doc diff [--json] [--srctree DIR] [--catalog DIR] OLD NEW
 *   kmsg-doc auto-id MODNAME FORMAT
 *   kmsg-doc journal-catalog --db FILE DIR
 *
 * OBJECT is vmlinux, a module or object file, or a directory searched for
 * *.ko.  The documentation comes from the source files the index names
 * (in-source form, relative to --srctree) and from the *.kmsg catalogs in
 * --catalog; docs-db/FORMAT.md and docs-db/SCHEMA.md describe both and the
 * database.  auto-id prints the automatic id of a message printed without
 * an identifier of its own: MODNAME is the KBUILD_MODNAME of the file, FORMAT
 * the format as a catalog's format field has it, taken as it is (no
 * escapes; in the shell $'...' writes a tab as \t).
 *
 * check --coverage prints, after the diagnostics, the messages (distinct
 * ids: curated, else automatic) of every call site per component and in
 * total, documented and not.  --templates DIR (implies --coverage)
 * writes DIR/<component>.kmsg, catalog entries to fill in for each
 * undocumented message, numbered after the component's highest; an
 * existing file is not overwritten.  --log FILE (dmesg text) counts how
 * often each message occurs in it, approximately (the longest text before
 * the first conversion that starts the line wins), lists the
 * undocumented ones seen, most frequent first, and orders the templates
 * so.  Only an undocumented kmsg_*() message is a diagnostic.
 *
 * Built by tools/Makefile from the files kmsg-doc/sources.mk lists: this
 * file parses the command line and dispatches, kmsg-doc.h says which file
 * does what.
 *
 * Exit status: 0 without errors (warnings are fine), 1 if there were
 * errors, 2 for a usage error.
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

void usage(FILE *f)
{
	fputs("usage: kmsg-doc check [--srctree DIR] [--catalog DIR] [--template=source|catalog]\n"
	      "                      [--coverage] [--templates DIR] [--log FILE] OBJECT...\n"
	      "       kmsg-doc build-db --out FILE [--srctree DIR] [--catalog DIR] [--release STR]\n"
	      "                       [--banner LINE] [--source STR] [--dbg VMLINUX]\n"
	      "                       [--dbg-modules DEB|DIR] [--kbuild-map FILE] OBJECT...\n"
	      "       kmsg-doc diff [--json] [--srctree DIR] [--catalog DIR] OLD NEW\n"
	      "       kmsg-doc auto-id MODNAME FORMAT\n"
	      "       kmsg-doc journal-catalog [--db FILE] DIR\n",
	      f);
}

/* ---- main ---- */

static int parse_args(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "srctree", required_argument, NULL, 's' },
		{ "catalog", required_argument, NULL, 'c' },
		{ "template", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "release", required_argument, NULL, 'r' },
		{ "banner", required_argument, NULL, 'b' },
		{ "source", required_argument, NULL, 'S' },
		{ "dbg", required_argument, NULL, 'D' },
		{ "dbg-modules", required_argument, NULL, 'G' },
		{ "kbuild-map", required_argument, NULL, 'M' },
		{ "coverage", no_argument, NULL, 'C' },
		{ "templates", required_argument, NULL, 'T' },
		{ "log", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	if (argc < 2) {
		usage(stderr);
		return -1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		exit(0);
	}
	if (!strcmp(argv[1], "build-db")) {
		opt->build_db = true;
	} else if (strcmp(argv[1], "check")) {
		fprintf(stderr, "kmsg-doc: unknown command \"%s\"\n", argv[1]);
		usage(stderr);
		return -1;
	}
	opt->srctree = ".";
	optind = 2;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			opt->srctree = optarg;
			break;
		case 'c':
			opt->catalog = optarg;
			break;
		case 't':
			if (opt->build_db)
				goto wrong;
			if (!strcmp(optarg, "source")) {
				opt->tmpl = TEMPLATE_SOURCE;
			} else if (!strcmp(optarg, "catalog")) {
				opt->tmpl = TEMPLATE_CATALOG;
			} else {
				fputs("kmsg-doc: --template is source or catalog\n", stderr);
				return -1;
			}
			break;
		case 'o':
			if (!opt->build_db)
				goto wrong;
			opt->out = optarg;
			break;
		case 'r':
			if (!opt->build_db)
				goto wrong;
			opt->release = optarg;
			break;
		case 'b':
		case 'S':
			if (!opt->build_db)
				goto wrong;
			*(ch == 'b' ? &opt->banner : &opt->source) = optarg;
			break;
		case 'D':
		case 'M':
			*(ch == 'D' ? &opt->dbg : &opt->kbuild_map) = optarg;
			break;
		case 'G':
			if (!opt->build_db)
				goto wrong;
			opt->dbg_modules = optarg;
			break;
		case 'C':
		case 'T':
		case 'L':
			if (opt->build_db)
				goto wrong;
			opt->coverage = true;
			if (ch == 'T')
				opt->templates = optarg;
			else if (ch == 'L')
				opt->log = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (opt->build_db && !opt->out) {
		fputs("kmsg-doc: build-db needs --out FILE\n", stderr);
		return -1;
	}
	if (optind >= argc) {
		fputs("kmsg-doc: no OBJECT given\n", stderr);
		usage(stderr);
		return -1;
	}
	return 0;
wrong:
	fprintf(stderr, "kmsg-doc: %s is not an option of %s\n", argv[optind - 1],
		argv[1]);
	return -1;
}



int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	size_t errors;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "auto-id"))
		return cmd_auto_id(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "journal-catalog"))
		return cmd_journal_catalog(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return kmsg_doc_diff(argc, argv, diff_build);
	if (parse_args(argc, argv, &c.opt))
		return 2;

	run_build(&c, argv + optind, argc - optind);

	kmsg_diags_print(&c.diags, stdout);
	errors = kmsg_diags_errors(&c.diags);
	if (!c.opt.build_db) {
		print_templates(&c);
		if (c.opt.coverage && coverage(&c))
			c.failed = true;
		ret = errors || c.failed ? 1 : 0;
	} else if (errors || c.failed) {
		fprintf(stderr, "kmsg-doc: %s%s, no database written\n",
			errors ? "errors in the documentation" : "errors",
			errors && c.failed ? " and the objects" : "");
		ret = 1;
	} else {
		ret = write_db(&c) ? 1 : 0;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fputs("kmsg-doc: error writing the output\n", stderr);
		ret = 1;
	}
	ctx_free(&c);
	return ret;
}
