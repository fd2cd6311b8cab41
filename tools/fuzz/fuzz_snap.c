// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshots (lib/kmsg_snap.c) and the matcher restored from one
 * (kmsg_match_snap_load()): a valid snapshot of a small matcher, changed
 * at the offsets the input gives (pairs of a 32-bit offset and a byte),
 * its checksum then made right again, so that every change reaches the
 * checks of the blobs and of the matcher's indexes and offsets.  What
 * loads must match lines without an out-of-bounds access.  The input's
 * first byte, if odd, cuts the file at an offset instead.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_match.h"
/* its checksum and header, to make a changed snapshot's checksum right */
#include "../lib/kmsg_snap.c"

static char db[4096], snap[4096], good_path[4096];
static struct kmsg_snap_id id;
static unsigned char *good;
static size_t good_size;

static const char *const fmts[] = {
	"Linux version %s (%s)", "%s: %d tables", "ACPI: %s: %pV", "e820: %s",
	"pci %s: [%04x:%04x] type %02x class %#08x", "%s %s: %s", "%s",
	"Memory: %luK/%luK available", "rcu: \t%s", "x86/fpu: %s", "IRQ %d",
	"%s version %s", "Booting %s", "ata%u: SATA link up %s (SStatus %X)",
	/* one generalizes the other: generalizes() compares their runs */
	"Freeing unused %s memory: %dK",
	"Freeing unused kernel image (%s) memory: %ldK",
};

static const char *const lines[] = {
	"Linux version 6.12.0 (gcc)", "ACPI: PCI: 4 tables", "IRQ 5",
	"pci 0000:00:01.0: [8086:1237] type 00 class 0x060000", "Booting x",
	"ata1: SATA link up 1.5 Gbps (SStatus 113)", "anything at all",
	"Freeing unused kernel image (initmem) memory: 2K",
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct kmsg_match *m = kmsg_match_new();
	struct kmsg_snap_writer *w = kmsg_snap_writer_new();
	FILE *f;
	size_t i;

	(void)argc;
	(void)argv;
	snprintf(db, sizeof(db), "%s/fuzz.db", fuzz_tmpdir());
	snprintf(snap, sizeof(snap), "%s/fuzz.snap", fuzz_tmpdir());
	snprintf(good_path, sizeof(good_path), "%s/good.snap", fuzz_tmpdir());
	fuzz_write(db, (const uint8_t *)"a database", 10);
	if (!kmsg_snap_id(db, &id))
		abort();
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char id[32];

		snprintf(id, sizeof(id), i % 3 ? "f.h%08zx" : "f.%zu", i);
		if (kmsg_match_add(m, id, i % 4 ? NULL : "%s %s: ", fmts[i],
				   strlen(fmts[i])) < 0)
			abort();
		kmsg_match_set_level(m, (int)i, (int)(i % 9) - 1);
	}
	if (kmsg_match_build(m) || kmsg_match_snap_save(m, w) ||
	    kmsg_snap_write(w, good_path, db, &id, kmsg_match_snap_sig()))
		abort();
	kmsg_snap_writer_free(w);
	kmsg_match_free(m);
	f = fopen(good_path, "rb");
	if (!f || fseek(f, 0, SEEK_END))
		abort();
	good_size = (size_t)ftell(f);
	good = malloc(good_size);
	rewind(f);
	if (!good || fread(good, 1, good_size, f) != good_size)
		abort();
	fclose(f);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *b = malloc(good_size);
	size_t n = good_size, i, k;
	struct kmsg_snap *s;
	struct kmsg_match *m;
	struct hdr h;

	if (!b)
		abort();
	memcpy(b, good, good_size);
	if (size && data[0] & 1 && size >= 5) {
		uint32_t at;

		memcpy(&at, data + 1, 4);
		n = at % good_size;
	} else {
		for (i = size && size % 5 ? 1 : 0; i + 5 <= size; i += 5) {
			uint32_t at;

			memcpy(&at, data + i, 4);
			b[at % good_size] = data[i + 4];
		}
		memcpy(&h, b, sizeof(h));
		if (h.content == good_size - sizeof(h)) {
			h.sum = checksum(b + sizeof(h), h.content);
			memcpy(b, &h, sizeof(h));
		}
	}
	fuzz_write(snap, b, n);
	free(b);
	s = kmsg_snap_open(snap, &id, kmsg_match_snap_sig());
	if (!s)
		return 0;
	m = kmsg_match_snap_load(s);
	for (k = 0; m && k < sizeof(lines) / sizeof(lines[0]); k++) {
		struct kmsg_match_result r;
		size_t len = strlen(lines[k]);
		char *t = malloc(len + 1);

		if (!t)
			abort();
		memcpy(t, lines[k], len + 1);
		if (kmsg_match_line(m, t, len, (int)k % 8, 0, &r) ||
		    r.n < 0 || r.n > KMSG_MATCH_CAND_MAX)
			abort();
		for (i = 0; i < (size_t)r.n; i++)
			if (!kmsg_match_id(m, r.pat[i]))
				abort();
		free(t);
	}
	kmsg_match_free(m);
	kmsg_snap_close(s);
	return 0;
}
