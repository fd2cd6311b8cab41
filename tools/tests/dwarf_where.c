// SPDX-License-Identifier: GPL-2.0
/*
 * dwarf_where - kmsg_dwarf and kmsg_modmap on the command line, for
 * dwarf.sh and measurements.
 *
 *   dwarf_where [--map MAP] [--srctree DIR] [--section NAME] ELF [ADDR...]
 *   dwarf_where --map MAP		(only read the map)
 *
 * Each ADDR (hex), or each line of stdin "ADDR [TAG...]" when none is
 * given, prints one line of tab-separated fields: ADDR, compile unit,
 * object (kmsg_dwarf_object with --srctree, else "-"), modname (with
 * --map: the name, "unknown" or "ambiguous"; else "-"), FILE:LINE, func,
 * outer function, then the TAG if any; "ADDR\tnone" if no unit covers it.
 * With --section, ELF is a relocatable object (kmsg_dwarf_open_rel) and
 * each ADDR an offset in its section NAME. Exit status 1 with "FILE:
 * problem" on stderr for an unreadable ELF or map, 2 for a bad command
 * line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_dwarf.h"
#include "kmsg_modmap.h"

static struct kmsg_dwarf *dw;
static struct kmsg_modmap map;
static const char *map_path, *srctree, *section;

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

/* a relocatable object, read into memory */
static struct kmsg_dwarf *open_rel(const char *path, char *err, size_t errlen)
{
	struct kmsg_dwarf *d = NULL;
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc(size + 1)) ||
	    fread(buf, 1, size, f) != (size_t)size)
		snprintf(err, errlen, "%s: cannot read it", path);
	else
		d = kmsg_dwarf_open_rel(path, buf, size, err, errlen);
	if (f)
		fclose(f);
	free(buf);
	return d;
}

static int where(const char *arg, const char *tag)
{
	struct kmsg_dwarf_where w;
	char *end, obj[4096];
	const char *modname = "-";
	uint64_t addr;

	addr = strtoull(arg, &end, 16);
	if (end == arg || *end) {
		fprintf(stderr, "dwarf_where: %s: not a hex address\n", arg);
		return -1;
	}
	if ((section && kmsg_dwarf_section_addr(dw, section, addr, &addr)) ||
	    kmsg_dwarf_where(dw, addr, &w)) {
		printf("%" PRIx64 "\tnone%s%s\n", addr, tag ? "\t" : "",
		       tag ? tag : "");
		return 0;
	}
	if (map_path) {
		switch (kmsg_modmap_unit(&map, w.cu_name, &modname)) {
		case KMSG_MODMAP_UNKNOWN:
			modname = "unknown";
			break;
		case KMSG_MODMAP_AMBIGUOUS:
			modname = "ambiguous";
			break;
		}
	}
	printf("%" PRIx64 "\t%s\t%s\t%s\t%s:%d\t%s\t%s%s%s\n", addr,
	       or_dash(w.cu_name),
	       srctree ? or_dash(kmsg_dwarf_object(w.cu_name, srctree, obj,
						   sizeof(obj))) : "-",
	       modname, or_dash(w.file), w.line, or_dash(w.func),
	       or_dash(w.outer), tag ? "\t" : "", tag ? tag : "");
	return 0;
}

int main(int argc, char **argv)
{
	char err[4096], *line = NULL;
	size_t cap = 0;
	int i = 1, rc = 0;

	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--map"))
			map_path = argv[i + 1];
		else if (!strcmp(argv[i], "--srctree"))
			srctree = argv[i + 1];
		else if (!strcmp(argv[i], "--section"))
			section = argv[i + 1];
		else
			break;
	}
	if (map_path && kmsg_modmap_load(&map, map_path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (i == argc && map_path) {
		printf("%zu objects\n", map.n);
		kmsg_modmap_free(&map);
		return 0;
	}
	if (i >= argc || argv[i][0] == '-') {
		fprintf(stderr,
			"usage: dwarf_where [--map MAP] [--srctree DIR] [--section NAME] ELF [ADDR...]\n");
		return 2;
	}
	dw = section ? open_rel(argv[i], err, sizeof(err)) :
		kmsg_dwarf_open(argv[i], err, sizeof(err));
	if (!dw) {
		fprintf(stderr, "%s\n", err);
		kmsg_modmap_free(&map);
		return 1;
	}
	if (i + 1 < argc) {
		for (i++; i < argc; i++)
			if (where(argv[i], NULL))
				rc = 1;
	} else {
		ssize_t len;

		while ((len = getline(&line, &cap, stdin)) > 0) {
			char *tag;

			if (line[len - 1] == '\n')
				line[len - 1] = '\0';
			tag = strchr(line, ' ');
			if (tag)
				*tag++ = '\0';
			if (where(line, tag))
				rc = 1;
		}
		free(line);
	}
	kmsg_dwarf_close(dw);
	kmsg_modmap_free(&map);
	return rc;
}
