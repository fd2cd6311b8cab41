/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KBUILD_MODNAME of each object built into vmlinux, as
 * tools/kbuild-modnames.sh writes it: lines "OBJECT MODNAME SOURCE",
 * e.g. "fs/ext4/super.o ext4 fs/ext4/super.c", OBJECT unique.
 */
#ifndef KMSG_MODMAP_H
#define KMSG_MODMAP_H

#include <stddef.h>

struct kmsg_modmap_entry {
	char *object;
	char *modname;
	char *source;
};

struct kmsg_modmap {
	struct kmsg_modmap_entry *by_object;	/* sorted by object */
	struct kmsg_modmap_entry **by_source;	/* the same, by source */
	size_t n;
};

/*
 * Parse text of len bytes read from name: 0, or -1 with "NAME:LINE:
 * problem" in err (errlen bytes) for a malformed line (not three fields,
 * an object not ending in .o, a modname with other than [A-Za-z0-9_:],
 * a NUL, an object listed twice) or no memory. The map is empty (and
 * needs no kmsg_modmap_free) on error.
 */
int kmsg_modmap_parse(struct kmsg_modmap *m, const char *name,
		      const char *text, size_t len, char *err, size_t errlen);
/* Read and parse a file: as kmsg_modmap_parse, "PATH: problem" if unread */
int kmsg_modmap_load(struct kmsg_modmap *m, const char *path,
		     char *err, size_t errlen);
void kmsg_modmap_free(struct kmsg_modmap *m);

/* The entry of an object ("fs/ext4/super.o"), or NULL: kbuild lists none */
const struct kmsg_modmap_entry *kmsg_modmap_object(const struct kmsg_modmap *m,
						   const char *object);
/*
 * The entries whose source is the longest tail of path that starts after
 * a '/' (or is path itself): "/build/linux/fs/ext4/super.c" finds
 * "fs/ext4/super.c", whatever the tree was called where it was built.
 * The first of them, *count set to how many (a source may be compiled
 * twice: lib/ctype.c is lib/ctype.o and the EFI stub's lib-ctype.o, of
 * other modnames; the caller decides, the map cannot); NULL and 0 if none.
 */
const struct kmsg_modmap_entry *
kmsg_modmap_source(const struct kmsg_modmap *m, const char *path, size_t *count);

enum {
	KMSG_MODMAP_FOUND,
	KMSG_MODMAP_UNKNOWN,	/* kbuild lists no object of this source */
	KMSG_MODMAP_AMBIGUOUS,	/* objects of this source, of other modnames */
};

/*
 * The KBUILD_MODNAME a compile unit of DWARF (DW_AT_name, cu_name) was
 * compiled with: the modname of the object of its source (as
 * kmsg_modmap_source() finds it), never a guess. KMSG_MODMAP_FOUND with
 * *modname (owned by the map), else *modname NULL.
 */
int kmsg_modmap_unit(const struct kmsg_modmap *m, const char *cu_name,
		     const char **modname);

#endif
