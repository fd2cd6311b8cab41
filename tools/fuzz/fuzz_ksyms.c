// SPDX-License-Identifier: GPL-2.0
/*
 * The kallsyms parser (lib/kmsg_ksyms.c) and lookups in what it parsed:
 * of each symbol's address and its neighbours, and of the first eight
 * bytes of the input as an address.
 */
#include <string.h>

#include "fuzz.h"
#include "kmsg_ksyms.h"

static void lookup(struct kmsg_ksyms *ks, unsigned long long addr)
{
	unsigned long long off, size;
	const char *name, *mod;

	if (!kmsg_ksyms_lookup(ks, addr, &name, &off, &size, &mod) &&
	    (strlen(name) + (mod ? strlen(mod) : 0) == (size_t)-1 || off >= size))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long addr = 0;
	struct kmsg_ksyms ks;
	size_t i;

	if (kmsg_ksyms_parse(&ks, (const char *)data, size))
		return 0;
	memcpy(&addr, data, size < 8 ? size : 8);
	lookup(&ks, addr);
	for (i = 0; i < ks.n && i < 64; i++) {
		lookup(&ks, ks.syms[i].addr);
		lookup(&ks, ks.syms[i].addr - 1);
		lookup(&ks, ks.syms[i].addr + 1);
	}
	kmsg_ksyms_free(&ks);
	return 0;
}
