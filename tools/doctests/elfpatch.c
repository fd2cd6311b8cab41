// SPDX-License-Identifier: GPL-2.0
/*
 * elfpatch - damage a fixture object file in a chosen way, for the
 * kmsg-doc tests.  Trusts its input (our own gcc output).
 *
 *   elfpatch index-addend FILE VALUE   addend of the first .printk_index pointer
 *   elfpatch string-addend FILE VALUE  addend of the first entry's component
 *   elfpatch index-size FILE SIZE      sh_size of .printk_index
 *   elfpatch nonul FILE                no NUL left in .rodata.str* sections
 *   elfpatch mutate IN OUT SEED COUNT  COUNT pseudo-random byte changes
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *buf;
static size_t len;

static void load(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n = -1;

	if (f && !fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(1);
	}
	len = (size_t)n;
	buf = malloc(len + 1);
	if (!buf || fread(buf, 1, len, f) != len) {
		perror(path);
		exit(1);
	}
	fclose(f);
}

static void save(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static Elf64_Shdr *shdr(size_t i)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;

	return (Elf64_Shdr *)(buf + eh->e_shoff + i * eh->e_shentsize);
}

static const char *name(size_t i)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;

	return (const char *)buf + shdr(eh->e_shstrndx)->sh_offset + shdr(i)->sh_name;
}

static size_t find(const char *n)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	size_t i;

	for (i = 1; i < eh->e_shnum; i++)
		if (!strcmp(name(i), n))
			return i;
	fprintf(stderr, "elfpatch: no section %s\n", n);
	exit(1);
}

/* The relocation at offset off of the RELA section for section target */
static Elf64_Rela *rela_at(size_t target, Elf64_Addr off)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	size_t i, k;

	for (i = 1; i < eh->e_shnum; i++) {
		Elf64_Shdr *s = shdr(i);

		if (s->sh_type != SHT_RELA || s->sh_info != target)
			continue;
		for (k = 0; k < s->sh_size / sizeof(Elf64_Rela); k++) {
			Elf64_Rela *r = (Elf64_Rela *)(buf + s->sh_offset) + k;

			if (r->r_offset == off)
				return r;
		}
	}
	fprintf(stderr, "elfpatch: no relocation at %s+%#lx\n", name(target),
		(unsigned long)off);
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "index-addend")) {
		load(argv[2]);
		rela_at(find(".printk_index"), 0)->r_addend = strtoll(argv[3], NULL, 0);
		save(argv[2]);
	} else if (argc == 4 && !strcmp(argv[1], "string-addend")) {
		Elf64_Rela *p;
		Elf64_Sym *sym;
		Elf64_Shdr *symtab;

		load(argv[2]);
		p = rela_at(find(".printk_index"), 0);
		symtab = shdr(find(".symtab"));
		sym = (Elf64_Sym *)(buf + symtab->sh_offset) + ELF64_R_SYM(p->r_info);
		rela_at(sym->st_shndx, sym->st_value + (Elf64_Addr)p->r_addend)->r_addend =
			strtoll(argv[3], NULL, 0);
		save(argv[2]);
	} else if (argc == 4 && !strcmp(argv[1], "index-size")) {
		load(argv[2]);
		shdr(find(".printk_index"))->sh_size = strtoull(argv[3], NULL, 0);
		save(argv[2]);
	} else if (argc == 3 && !strcmp(argv[1], "nonul")) {
		Elf64_Ehdr *eh;
		size_t i, k;

		load(argv[2]);
		eh = (Elf64_Ehdr *)buf;
		for (i = 1; i < eh->e_shnum; i++) {
			Elf64_Shdr *s = shdr(i);

			if (strncmp(name(i), ".rodata.str", 11))
				continue;
			for (k = 0; k < s->sh_size; k++)
				if (!buf[s->sh_offset + k])
					buf[s->sh_offset + k] = 'x';
		}
		save(argv[2]);
	} else if (argc == 6 && !strcmp(argv[1], "mutate")) {
		unsigned long long x = strtoull(argv[4], NULL, 0) * 2654435761u + 1;
		long i, count = strtol(argv[5], NULL, 0);

		load(argv[2]);
		for (i = 0; i < count && len; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			buf[(x >> 33) % len] ^= (unsigned char)(1u << ((x >> 20) & 7));
			if ((x >> 28) % 4 == 0)		/* sometimes a wild byte */
				buf[(x >> 13) % len] = (unsigned char)(x >> 40);
		}
		if ((x >> 30) % 5 == 0)			/* and sometimes cut */
			len = (x >> 7) % (len + 1);
		save(argv[3]);
	} else {
		fputs("usage: see elfpatch.c\n", stderr);
		return 2;
	}
	return 0;
}
