// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol table from /proc/kallsyms text
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_ksyms.h"

static int cmp_addr(const void *a, const void *b)
{
	const struct kmsg_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* "ADDR TYPE NAME[\t[MODULE]]" */
static int parse_line(const char *line, size_t len, struct kmsg_ksym *sym)
{
	char buf[512], name[256], module[128] = "";
	char type;
	int n;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	n = sscanf(buf, "%llx %c %255s [%127[^]]]", &sym->addr, &type, name,
		   module);
	if (n < 3 || !sym->addr)
		return -1;
	sym->name = strdup(name);
	sym->module = module[0] ? strdup(module) : NULL;
	if (!sym->name || (module[0] && !sym->module)) {
		free(sym->name);
		free(sym->module);
		return -ENOMEM;
	}
	return 0;
}

int kmsg_ksyms_parse(struct kmsg_ksyms *ks, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	size_t cap = 0;
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
		ret = parse_line(p, nl - p, &ks->syms[ks->n]);
		if (ret == -ENOMEM)
			goto nomem;
		if (!ret)
			ks->n++;
		p = nl + 1;
	}
	/* none: ks->syms may be NULL, which qsort() must not get */
	if (ks->n > 1)
		qsort(ks->syms, ks->n, sizeof(*ks->syms), cmp_addr);
	return 0;
nomem:
	kmsg_ksyms_free(ks);
	return -ENOMEM;
}

int kmsg_ksyms_load(struct kmsg_ksyms *ks, const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	int ret;

	ks->syms = NULL;
	ks->n = 0;
	if (!f)
		return -errno;
	for (;;) {
		if (cap - len < 65536) {
			char *t = cap < KMSG_KSYMS_FILE_MAX ?
				realloc(text, cap + 1048576) : NULL;

			if (!t) {
				free(text);
				fclose(f);
				return cap < KMSG_KSYMS_FILE_MAX ? -ENOMEM : -EFBIG;
			}
			text = t;
			cap += 1048576;
		}
		n = fread(text + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	/* a directory opens, and its read fails */
	if (ferror(f)) {
		ret = errno ? -errno : -EIO;
		free(text);
		fclose(f);
		return ret;
	}
	fclose(f);
	ret = kmsg_ksyms_parse(ks, text, len);
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
	i = lo - 1;
	/* its size: up to the next symbol at a higher address */
	for (next = lo; next < ks->n && ks->syms[next].addr == ks->syms[i].addr;)
		next++;
	if (next == ks->n)
		return -1;
	*name = ks->syms[i].name;
	*offset = addr - ks->syms[i].addr;
	*size = ks->syms[next].addr - ks->syms[i].addr;
	*module = ks->syms[i].module;
	return 0;
}
