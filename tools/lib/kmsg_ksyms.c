// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol table from /proc/kallsyms text
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event-parse.h>

#include "kmsg_ksyms.h"

/* the largest kallsyms text read */
#define KMSG_KSYMS_FILE_MAX	(256U << 20)

/* include/linux/kallsyms.h and module.h (64-bit), with the NUL */
#define KSYM_NAME_LEN	512
#define MODULE_NAME_LEN	64

/* by address, and symbols at one address in the order of the text */
static int cmp_addr(const void *a, const void *b)
{
	const struct kmsg_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * "ADDR TYPE NAME[\t[MODULE]]" of /proc/kallsyms, or with !typed
 * "ADDR NAME[ [MODULE]]" of tep_print_funcs(); other lines are skipped
 * (returns 1). So are absolute symbols (per-CPU offsets), no addresses
 * %pS prints, as libtraceevent skips them, and address 0 (hidden).
 */
static int parse_line(const char *p, const char *end, bool typed,
		      struct kmsg_ksym *sym)
{
	const char *name, *mod = NULL;
	size_t name_len, mod_len = 0;
	char type = 't';
	long digits = 0;

	if (end > p && end[-1] == '\r')
		end--;
	while (digits < end - p && isxdigit((unsigned char)p[digits]))
		digits++;
	if (!digits || digits > 16 || end - p < digits + 2 || p[digits] != ' ')
		return 1;
	sym->addr = strtoull(p, NULL, 16);	/* stops at the ' ' */
	p += digits + 1;
	if (typed) {
		type = *p++;
		if (type == ' ' || type == '\t' || end - p < 2 || *p++ != ' ')
			return 1;
	}
	name = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	name_len = p - name;
	if (p < end) {
		/* "\t[MODULE]" (" [MODULE]" of tep_print_funcs()) */
		if (end - p < 4 || *p != (typed ? '\t' : ' ') || p[1] != '[' ||
		    end[-1] != ']')
			return 1;
		mod = p + 2;
		mod_len = end - 1 - mod;
		if (!mod_len || mod_len >= MODULE_NAME_LEN ||
		    memchr(mod, ']', mod_len))
			return 1;
	}
	if (!name_len || name_len >= KSYM_NAME_LEN || !sym->addr ||
	    type == 'A' || type == 'a')
		return 1;
	sym->name = strndup(name, name_len);
	sym->module = mod ? strndup(mod, mod_len) : NULL;
	if (!sym->name || (mod && !sym->module)) {
		free(sym->name);
		free(sym->module);
		return -ENOMEM;
	}
	return 0;
}

static int parse(struct kmsg_ksyms *ks, const char *text, size_t len,
		 bool typed)
{
	const char *p = text, *end = text + len, *nl;
	size_t cap = 0, line = 0;
	struct kmsg_ksym *tmp;
	int ret;

	ks->syms = NULL;
	ks->n = 0;
	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (ks->n == cap) {
			cap = cap ? 2 * cap : 4096;
			tmp = realloc(ks->syms, cap * sizeof(*tmp));
			if (!tmp)
				goto nomem;
			ks->syms = tmp;
		}
		ret = parse_line(p, nl, typed, &ks->syms[ks->n]);
		if (ret < 0)
			goto nomem;
		ks->syms[ks->n].line = line++;
		if (!ret)
			ks->n++;
		p = nl < end ? nl + 1 : end;
	}
	if (ks->n)
		qsort(ks->syms, ks->n, sizeof(*ks->syms), cmp_addr);
	return 0;
nomem:
	kmsg_ksyms_free(ks);
	return -ENOMEM;
}

int kmsg_ksyms_parse(struct kmsg_ksyms *ks, const char *text, size_t len)
{
	return parse(ks, text, len, true);
}

int kmsg_ksyms_load(struct kmsg_ksyms *ks, const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL, *t;
	size_t len = 0, cap = 0, n;
	int ret = 0;

	ks->syms = NULL;
	ks->n = 0;
	if (!f)
		return -errno;
	for (;;) {
		if (cap - len < 65536) {
			if (cap >= KMSG_KSYMS_FILE_MAX) {
				ret = -EFBIG;
				break;
			}
			t = realloc(text, cap + 1048576);
			if (!t) {
				ret = -ENOMEM;
				break;
			}
			text = t;
			cap += 1048576;
		}
		errno = 0;
		n = fread(text + len, 1, cap - len, f);
		if (!n) {
			if (ferror(f))
				ret = errno ? -errno : -EIO;
			break;
		}
		len += n;
	}
	fclose(f);
	if (!ret)
		ret = kmsg_ksyms_parse(ks, text, len);
	free(text);
	return ret;
}

const char *kmsg_ksyms_strerror(int err)
{
	if (err == -ENODATA)
		return "no symbol addresses (not /proc/kallsyms text, or hidden by kptr_restrict)";
	if (err == -EFBIG)
		return "larger than 256 MiB";
	return strerror(-err);
}

static unsigned long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int kmsg_ksyms_file_load(struct kmsg_ksyms_file *kf)
{
	struct kmsg_ksyms ks;
	int ret;

	if (!kf->clock_ns)
		kf->clock_ns = monotonic_ns;
	kf->read_ns = kf->clock_ns();
	kf->reads++;
	ret = kmsg_ksyms_load(&ks, kf->path);
	if (ret)
		return ret;
	if (!ks.n) {
		kmsg_ksyms_free(&ks);
		return -ENODATA;	/* the table kf has stays */
	}
	kmsg_ksyms_free(&kf->ks);
	kf->ks = ks;
	return 0;
}

int kmsg_ksyms_file_lookup(void *ctx, unsigned long long addr,
			   const char **name, unsigned long long *offset,
			   unsigned long long *size, const char **module)
{
	struct kmsg_ksyms_file *kf = ctx;

	if (!kmsg_ksyms_lookup(&kf->ks, addr, name, offset, size, module))
		return 0;
	/* a module loaded since: read the file again, at most so often */
	if (!kf->reload_ns || !kf->clock_ns ||
	    kf->clock_ns() - kf->read_ns < kf->reload_ns ||
	    kmsg_ksyms_file_load(kf))
		return -1;
	return kmsg_ksyms_lookup(&kf->ks, addr, name, offset, size, module);
}

void kmsg_ksyms_file_free(struct kmsg_ksyms_file *kf)
{
	kmsg_ksyms_free(&kf->ks);
}

/*
 * libtraceevent keeps the module of each symbol it read from kallsyms
 * (the trace.dat's, with trace-cmd) but has no call that returns it; only
 * tep_print_funcs() prints it, to stdout. In glibc stdout is a variable
 * one may set: point it at a memory stream for the call.
 */
int kmsg_ksyms_from_tep(struct kmsg_ksyms *ks, struct tep_handle *tep)
{
	FILE *saved = stdout, *mem;
	char *text = NULL;
	size_t len = 0;
	int ret;

	ks->syms = NULL;
	ks->n = 0;
	mem = open_memstream(&text, &len);
	if (!mem)
		return -ENOMEM;
	fflush(saved);
	stdout = mem;
	tep_print_funcs(tep);
	stdout = saved;
	ret = fclose(mem) ? -ENOMEM : parse(ks, text, len, false);
	free(text);
	return ret;
}

void kmsg_ksyms_free(struct kmsg_ksyms *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++) {
		free(ks->syms[i].name);
		free(ks->syms[i].module);
	}
	free(ks->syms);
	ks->syms = NULL;
	ks->n = 0;
}

static bool same_module(const struct kmsg_ksym *a, const struct kmsg_ksym *b)
{
	if (!a->module || !b->module)
		return a->module == b->module;
	return !strcmp(a->module, b->module);
}

int kmsg_ksyms_lookup(void *ctx, unsigned long long addr, const char **name,
		      unsigned long long *offset, unsigned long long *size,
		      const char **module)
{
	const struct kmsg_ksyms *ks = ctx;
	size_t lo = 0, hi = ks->n, i, next;

	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	next = lo;
	/* of symbols at one address, the kernel names the first listed */
	for (i = lo - 1; i && ks->syms[i - 1].addr == ks->syms[i].addr;)
		i--;
	/*
	 * Its size: up to the next symbol, of the same module (the kernel
	 * looks no further than the module's own symbols). Past the last
	 * symbol of a module or of vmlinux the end is not known.
	 */
	if (next == ks->n || !same_module(&ks->syms[i], &ks->syms[next]))
		return -1;
	*name = ks->syms[i].name;
	*offset = addr - ks->syms[i].addr;
	*size = ks->syms[next].addr - ks->syms[i].addr;
	*module = ks->syms[i].module;
	return 0;
}
