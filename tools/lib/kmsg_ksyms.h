/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A symbol table read from /proc/kallsyms text, for %ps and %pS: name,
 * offset, size (up to the next symbol) and module of an address.
 */
#ifndef KMSG_KSYMS_H
#define KMSG_KSYMS_H

#include <stddef.h>

struct tep_handle;

struct kmsg_ksym {
	unsigned long long addr;
	char *name;
	char *module;		/* NULL for vmlinux */
	size_t line;		/* of the text it was read from */
};

struct kmsg_ksyms {
	struct kmsg_ksym *syms;
	size_t n;
};

/* Parse kallsyms text of @len bytes; lines that do not parse are skipped */
int kmsg_ksyms_parse(struct kmsg_ksyms *ks, const char *text, size_t len);
/*
 * Read and parse a file (normally /proc/kallsyms): 0, or -errno (-EFBIG
 * past 256 MiB). A file with no symbol (all addresses 0 for a reader
 * kptr_restrict hides them from) gives a table of none.
 */
int kmsg_ksyms_load(struct kmsg_ksyms *ks, const char *path);
/* What is wrong with a kallsyms file, from its -errno; -ENODATA: no symbols */
const char *kmsg_ksyms_strerror(int err);
/*
 * The symbols libtraceevent read from kallsyms (with trace-cmd, those of
 * the trace.dat), with their modules, which its lookups do not return
 */
int kmsg_ksyms_from_tep(struct kmsg_ksyms *ks, struct tep_handle *tep);
void kmsg_ksyms_free(struct kmsg_ksyms *ks);

/*
 * A kmsg_render_opts.lookup_symbol over a struct kmsg_ksyms (ctx). The
 * name and module point into the table.
 */
int kmsg_ksyms_lookup(void *ctx, unsigned long long addr, const char **name,
		      unsigned long long *offset, unsigned long long *size,
		      const char **module);

/*
 * The symbols of a file that may change: /proc/kallsyms, as modules are
 * loaded. Set path, reload_ns and, for a test, clock_ns; then
 * kmsg_ksyms_file_load() reads it: 0, -errno, or -ENODATA for a file
 * without symbols. A file that cannot be read keeps the table read before.
 */
struct kmsg_ksyms_file {
	const char *path;
	/* an address not found reads path again, at most this often; 0: never */
	unsigned long long reload_ns;
	unsigned long long (*clock_ns)(void);	/* default CLOCK_MONOTONIC */
	unsigned long long read_ns;	/* when path was last read */
	unsigned int reads;		/* how often path was read */
	struct kmsg_ksyms ks;
};

int kmsg_ksyms_file_load(struct kmsg_ksyms_file *kf);
/*
 * A kmsg_render_opts.lookup_symbol over a struct kmsg_ksyms_file (ctx).
 * The name and module are valid until the next lookup.
 */
int kmsg_ksyms_file_lookup(void *ctx, unsigned long long addr,
			   const char **name, unsigned long long *offset,
			   unsigned long long *size, const char **module);
void kmsg_ksyms_file_free(struct kmsg_ksyms_file *kf);

#endif /* KMSG_KSYMS_H */
