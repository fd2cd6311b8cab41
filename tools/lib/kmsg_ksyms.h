/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A symbol table read from /proc/kallsyms text, for %ps and %pS: name,
 * offset, size (up to the next symbol) and module of an address.
 */
#ifndef KMSG_KSYMS_H
#define KMSG_KSYMS_H

#include <stddef.h>

struct kmsg_ksym {
	unsigned long long addr;
	char *name;
	char *module;		/* NULL for vmlinux */
};

struct kmsg_ksyms {
	struct kmsg_ksym *syms;
	size_t n;
};

/* The largest kallsyms file read (a kernel's has a few MiB) */
#define KMSG_KSYMS_FILE_MAX	(256u << 20)

/*
 * Parse kallsyms text of @len bytes (none is fine); lines that do not
 * parse are skipped.  0, or -ENOMEM.
 */
int kmsg_ksyms_parse(struct kmsg_ksyms *ks, const char *text, size_t len);
/*
 * Read and parse a file (normally /proc/kallsyms): 0, or -errno of the
 * failure (a directory: -EISDIR; larger than KMSG_KSYMS_FILE_MAX: -EFBIG).
 */
int kmsg_ksyms_load(struct kmsg_ksyms *ks, const char *path);
void kmsg_ksyms_free(struct kmsg_ksyms *ks);

/* A kmsg_render_opts.lookup_symbol over a struct kmsg_ksyms (ctx) */
int kmsg_ksyms_lookup(void *ctx, unsigned long long addr, const char **name,
		      unsigned long long *offset, unsigned long long *size,
		      const char **module);

#endif /* KMSG_KSYMS_H */
