// SPDX-License-Identifier: GPL-2.0
/*
 * The docs database reader (lib/kmsg_docs.c) and the manual (manual.c):
 * the input is written to a file and opened as a database; what opens is
 * read the ways kmsg reads it (ids, automatic ids, translations, search,
 * every doc) and made into a manual, which must write nothing outside
 * its directory.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "kmsg_docs.h"
#include "kmsg_manual.h"

static char path[4096], parent[4096], out[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/fuzz.db", fuzz_tmpdir());
	snprintf(parent, sizeof(parent), "%s/m", fuzz_tmpdir());
	snprintf(out, sizeof(out), "%s/m/out", fuzz_tmpdir());
	/* the manual's "N man pages in ..." */
	if (!freopen("/dev/null", "w", stdout))
		return -1;
	return mkdir(parent, 0700);
}

static int each_get(void *ctx, const char *id)
{
	struct kmsg_docs *d = ctx;
	struct kmsg_doc doc;
	int ret = kmsg_docs_get(d, id, &doc);

	if (ret < 0 && (doc.id || doc.params || doc.aliases))
		__builtin_trap();	/* an error leaves nothing to free */
	if (!ret)
		kmsg_doc_free(&doc);
	return ret < 0 ? ret : 0;
}

static int autos(void *ctx, const char *auto_id, const char *modname,
		 const char *format)
{
	(void)ctx;
	(void)format;
	return !auto_id || !modname;
}

static int trans(void *ctx, const char *locale, const char *format)
{
	(void)ctx;
	if (!locale || !format)
		__builtin_trap();
	return 0;
}

static int hit(void *ctx, const char *id, const char *format,
	       const char *description)
{
	(void)id;
	(void)format;
	(void)description;
	return ++*(int *)ctx > 20;
}

/* Nothing but DIR/out in DIR; empty DIR/out for the next run */
static void check_manual(void)
{
	char sub[4096 + 512];
	struct dirent *de;
	DIR *d = opendir(parent);

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "out"))
			__builtin_trap();	/* written outside DIR */
	if (d)
		closedir(d);
	snprintf(sub, sizeof(sub), "%s/man9", out);
	d = opendir(sub);
	while (d && (de = readdir(d))) {
		snprintf(sub, sizeof(sub), "%s/man9/%s", out, de->d_name);
		unlink(sub);
	}
	if (d)
		closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_docs *d;
	struct kmsg_doc doc;
	char err[512], id[128];
	int n = 0;

	fuzz_write(path, data, size);
	d = kmsg_docs_open(path, err, sizeof(err));
	if (!d) {
		if (strncmp(err, path, strlen(path)))
			__builtin_trap();	/* the error names the file */
		return 0;
	}
	if (!kmsg_docs_get(d, "fx.1", &doc))
		kmsg_doc_free(&doc);
	if (!kmsg_docs_get(d, "fxdrv.h7938bce2", &doc))
		kmsg_doc_free(&doc);
	kmsg_docs_curated_for_auto(d, "fxdrv.hc47d3668", id, sizeof(id));
	kmsg_docs_auto_for_curated(d, "fx.10", autos, NULL);
	kmsg_docs_translation(d, "fx.3", "ja_JP.UTF-8");
	kmsg_docs_translation(d, "fxdrv.h7938bce2", "de");
	kmsg_docs_translations(d, "fx.3", trans, NULL);
	kmsg_docs_search(d, "\"online\"", hit, &n);
	kmsg_docs_build(d, "release");
	kmsg_docs_each(d, each_get, d);
	kmsg_manual(d, out);
	check_manual();
	kmsg_docs_close(d);
	return 0;
}
