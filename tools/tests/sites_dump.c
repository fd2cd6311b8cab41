// SPDX-License-Identifier: GPL-2.0
/*
 * sites_dump - the printk call sites lib/kmsg_sites.c finds in ELF files,
 * one line per site, for tests/sites.sh and to measure it:
 *
 *	sites_dump [--map SYSTEM.MAP] [--index [--live]] [--stats] FILE...
 *
 * Each line: kind, level, prefix ("-" if none), cont, modname, func,
 * file:line, addr (of a module's site: the section of its call, whose
 * offset changes with the compiler), then the format as a C string,
 * separated by tabs.
 * --index: the sites of the printk index instead (kmsg_index.c), kind
 * "index"; with --live, only those whose format some code loads (the
 * index keeps the entries of calls the compiler removed as dead code:
 * its entry is static data of the macro, not of the call): in vmlinux
 * a 32-bit immediate or %rip-relative displacement anywhere in its code
 * that gives the string's address, in a module a relocation of its code
 * to it.  --stats: then per kind, "# KIND calls N formats N" (and the
 * dynamic debug descriptors no call was found for).  An error is printed
 * on stderr and makes the exit status 1; the other files are still read.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
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

/* --live: the strings the code of an ELF image refers to, sorted */
struct strs {
	const char **v;
	size_t n, cap;
};

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* The format at offset off of section sh, as the index gives it */
static void add_str(struct strs *s, const unsigned char *img, size_t size,
		    const Elf64_Shdr *sh, uint64_t off)
{
	const char *p, *end;
	size_t len;

	if (sh->sh_type != SHT_PROGBITS || (sh->sh_flags & SHF_EXECINSTR) ||
	    off >= sh->sh_size || sh->sh_offset > size ||
	    sh->sh_size > size - sh->sh_offset)
		return;
	p = (const char *)img + sh->sh_offset + off;
	end = memchr(p, '\0', sh->sh_size - off);
	if (!end)
		return;
	while (p[0] == '\001' && p[1])
		p += 2;
	len = (size_t)(end - p);
	if (len && p[len - 1] == '\n')
		len--;
	KMSG_GROW(s->v, s->cap, s->n);
	s->v[s->n++] = kmsg_xstrndup(p, len);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void code_strings(const unsigned char *img, size_t size, struct strs *s)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh;
	uint64_t *addr = NULL;
	size_t i, j, na = 0, acap = 0;

	if (size < sizeof(*eh) || eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(*sh) < eh->e_shnum)
		return;
	sh = (const void *)(img + eh->e_shoff);
	for (i = 1; i < eh->e_shnum; i++) {
		const unsigned char *t = img + sh[i].sh_offset;

		if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)
			continue;
		if (eh->e_type == ET_REL && sh[i].sh_type == SHT_RELA &&
		    sh[i].sh_info < eh->e_shnum && sh[i].sh_link < eh->e_shnum &&
		    (sh[sh[i].sh_info].sh_flags & SHF_EXECINSTR)) {
			const Elf64_Shdr *st = &sh[sh[i].sh_link];

			for (j = 0; j + sizeof(Elf64_Rela) <= sh[i].sh_size;
			     j += sizeof(Elf64_Rela)) {
				const Elf64_Rela *r = (const void *)(t + j);
				const Elf64_Sym *sym;
				uint64_t k = ELF64_R_SYM(r->r_info);
				uint32_t type = ELF64_R_TYPE(r->r_info);

				if (st->sh_offset > size ||
				    (size - st->sh_offset) / sizeof(*sym) <= k)
					continue;
				sym = (const void *)(img + st->sh_offset) + k * sizeof(*sym);
				if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= eh->e_shnum)
					continue;
				add_str(s, img, size, &sh[sym->st_shndx], sym->st_value +
					(uint64_t)r->r_addend +
					(type == R_X86_64_PC32 ? 4 : 0));
			}
		}
		if (eh->e_type != ET_EXEC || sh[i].sh_type != SHT_PROGBITS ||
		    !(sh[i].sh_flags & SHF_EXECINSTR))
			continue;
		for (j = 0; j + 4 <= sh[i].sh_size; j++) {
			int64_t v = (int32_t)le(t + j, 4);

			KMSG_GROW(addr, acap, na + 1);
			addr[na++] = (uint64_t)v;
			addr[na++] = sh[i].sh_addr + j + 4 + (uint64_t)v;
		}
	}
	if (na)
		qsort(addr, na, sizeof(*addr), u64_cmp);
	for (j = 0; j < na; j++) {
		if (j && addr[j] == addr[j - 1])
			continue;
		for (i = 1; i < eh->e_shnum; i++)
			if (sh[i].sh_flags & SHF_ALLOC && addr[j] >= sh[i].sh_addr &&
			    addr[j] - sh[i].sh_addr < sh[i].sh_size)
				break;
		if (i < eh->e_shnum)
			add_str(s, img, size, &sh[i], addr[j] - sh[i].sh_addr);
	}
	free(addr);
	if (s->n > 1)
		qsort(s->v, s->n, sizeof(*s->v), str_cmp);
}

static bool in_strs(const struct strs *s, const char *str)
{
	return s->n && bsearch(&str, s->v, s->n, sizeof(*s->v), str_cmp);
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
	bool index = false, stats = false, wrappers = false, live = false;
	struct kmsg_wrappers wr = { 0 };
	int i, first, rc = 0;
	unsigned int k;
	size_t j;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--map") && i + 1 < argc)
			map = argv[++i];
		else if (!strcmp(argv[i], "--index"))
			index = true;
		else if (!strcmp(argv[i], "--live"))
			live = true;
		else if (!strcmp(argv[i], "--stats"))
			stats = true;
		else if (!strcmp(argv[i], "--wrappers"))
			wrappers = true;
		else {
			fprintf(stderr, "usage: sites_dump [--map SYSTEM.MAP] [--index [--live]] [--stats] [--wrappers] FILE...\n");
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
		if (index && live) {
			struct strs cs = { 0 };

			img = read_file(argv[i], &size, &err);
			if (!img) {
				fprintf(stderr, "%s\n", err);
				free(err);
				kmsg_msgs_free(&msgs);
				rc = 1;
				continue;
			}
			code_strings(img, size, &cs);
			for (j = 0; j < msgs.n; j++)
				if (in_strs(&cs, msgs.v[j].format))
					print(&msgs.v[j]);
			for (j = 0; j < cs.n; j++)
				free((char *)cs.v[j]);
			free(cs.v);
			free(img);
			kmsg_msgs_free(&msgs);
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
