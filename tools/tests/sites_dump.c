// SPDX-License-Identifier: GPL-2.0
/*
 * sites_dump - the printk call sites lib/kmsg_sites.c finds in ELF files,
 * one line per site, for tests/sites.sh and to measure it:
 *
 *	sites_dump [--map SYSTEM.MAP] [--index] [--stats] FILE...
 *
 * Each line: kind, level, prefix ("-" if none), cont, modname, func,
 * file:line, addr (of a module's site: the section of its call, whose
 * offset changes with the compiler), then the format as a C string,
 * separated by tabs.
 * --index: the sites of the printk index instead (kmsg_index.c), kind
 * "index".  --stats: then per kind, "# KIND calls N formats N" (and the
 * dynamic debug descriptors no call was found for).  An error is printed
 * on stderr and makes the exit status 1; the other files are still read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_index.h"
#include "kmsg_sites.h"
#include "kmsg_xalloc.h"

static void *read_file(const char *path, size_t *size, char **err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf;

	if (!f) {
		*err = kmsg_xprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = kmsg_xmalloc(cap);
	for (;;) {
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (n < cap)
			break;
		cap *= 2;
		buf = kmsg_xrealloc(buf, cap, 1);
	}
	if (ferror(f)) {
		*err = kmsg_xprintf("%s: read error", path);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = n;
	return buf;
}

static void print(const struct kmsg_msg *m)
{
	struct kmsg_strbuf sb = { 0 };
	char *fmt;

	kmsg_escape(&sb, m->format);
	fmt = kmsg_sb_take(&sb);
	printf("%s\t%u\t%s\t%d\t%s\t%s\t%s:%u\t",
	       m->kind ? m->kind : "index", m->level,
	       m->prefix ? m->prefix : "-", m->cont, m->modname,
	       m->func ? m->func : "", m->file ? m->file : "", m->line);
	if (m->section)
		printf("%s", m->section);
	else
		printf("%#llx", m->addr);
	printf("\t\"%s\"\n", fmt);
	free(fmt);
}

int main(int argc, char **argv)
{
	struct kmsg_sites_stats st = { 0 };
	const char *map = NULL;
	bool index = false, stats = false, wrappers = false;
	struct kmsg_wrappers wr = { 0 };
	int i, first, rc = 0;
	unsigned int k;
	size_t j;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--map") && i + 1 < argc)
			map = argv[++i];
		else if (!strcmp(argv[i], "--index"))
			index = true;
		else if (!strcmp(argv[i], "--stats"))
			stats = true;
		else if (!strcmp(argv[i], "--wrappers"))
			wrappers = true;
		else {
			fprintf(stderr, "usage: sites_dump [--map SYSTEM.MAP] [--index] [--stats] [--wrappers] FILE...\n");
			return 2;
		}
	}
	for (first = i; i < argc; i++) {
		struct kmsg_msgs msgs = { 0 };
		char *err = NULL;
		size_t size = 0;
		void *img;
		int ret;

		if (index) {
			ret = kmsg_index_read_sites(argv[i], &msgs, NULL, &err);
		} else {
			img = read_file(argv[i], &size, &err);
			ret = img ? kmsg_sites_scan(argv[i], img, size, map, &msgs,
						    &st, wrappers ? &wr : NULL,
						    NULL, &err) : -1;
			free(img);
		}
		if (ret) {
			fprintf(stderr, "%s\n", err);
			free(err);
			rc = 1;
			continue;
		}
		for (j = 0; j < msgs.n; j++)
			print(&msgs.v[j]);
		kmsg_msgs_free(&msgs);
	}
	/* --wrappers: those found, then the sites of their calls */
	kmsg_wrappers_sort(&wr);
	for (j = 0; j < wr.n; j++) {
		const char *f = wr.v[j].format;

		if (f[0] == '\001' && f[1])
			f += 2;
		printf("# wrapper %s %s reg %u level %d \"%.*s\"\n", wr.v[j].name,
		       wr.v[j].object, wr.v[j].reg, wr.v[j].level,
		       (int)strcspn(f, "\n"), f);
	}
	for (i = first; wr.n && i < argc; i++) {
		struct kmsg_msgs msgs = { 0 };
		char *err = NULL;
		size_t size = 0;
		void *img = read_file(argv[i], &size, &err);

		if (!img || kmsg_sites_scan(argv[i], img, size, map, &msgs, &st,
					    NULL, &wr, &err)) {
			fprintf(stderr, "%s\n", err);
			free(err);
			rc = 1;
		}
		free(img);
		for (j = 0; j < msgs.n; j++)
			print(&msgs.v[j]);
		kmsg_msgs_free(&msgs);
	}
	kmsg_wrappers_free(&wr);
	if (stats) {
		for (k = 0; k < KMSG_SITE_KINDS; k++)
			printf("# %s calls %lu formats %lu\n", kmsg_site_kind_name(k),
			       st.calls[k], st.formats[k]);
		printf("# dyndbg descriptors without a call %lu\n", st.dyndbg_unpaired);
	}
	return rc;
}
