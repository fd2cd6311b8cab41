// SPDX-License-Identifier: GPL-2.0
/*
 * The renderer (lib/kmsg_render.c): a format and binary arguments of any
 * length and alignment, decoded and rendered as 8- and 4-byte-long
 * kernels, with symbols for %ps/%pS.
 *
 * Input: byte 0 the options (bits 0-2: how far the arguments are from an
 * 8-byte boundary, bit 3: 4-byte longs, bit 4: symbolic errnames), bytes
 * 1-2 the format's length (little endian, modulo what is left), then the
 * format, then the arguments.  Each is copied to a buffer of its exact
 * size, so that ASan sees any read past it.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_render.h"

static int lookup(void *ctx, unsigned long long addr, const char **name,
		  unsigned long long *offset, unsigned long long *size,
		  const char **module)
{
	(void)ctx;
	if (addr < 0xffffffff81000000ULL || addr >= 0xffffffff81100000ULL)
		return -1;
	*name = addr & 0x10 ? "kmsgtest_fire" : "do_one_initcall";
	*offset = addr & 0xfff;
	*size = 0x1000;
	*module = addr & 0x20 ? "kmsgtest" : NULL;
	return 0;
}

/* Parsed formats kept from input to input render the same text. */
static void same_cached(const char *fmt, size_t fmt_len, const void *rec,
			size_t len, const struct kmsg_render_opts *opts,
			const struct kmsg_strbuf *want)
{
	static struct kmsg_fmt_cache *cache;
	static struct kmsg_args args;
	struct kmsg_render_opts o = *opts;
	struct kmsg_strbuf out = { 0 };

	if (!cache)
		cache = kmsg_fmt_cache_new();
	if (!cache)
		abort();
	o.fmt_cache = cache;
	kmsg_args_decode(fmt, fmt_len, rec, len, &o, &args);
	kmsg_render(&out, fmt, fmt_len, &args, &o);
	if (out.len != want->len ||
	    (out.len && memcmp(out.buf, want->buf, out.len)))
		abort();
	kmsg_strbuf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_render_opts opts = { .lookup_symbol = lookup };
	struct kmsg_strbuf out = { 0 };
	struct kmsg_args args;
	size_t fmt_len, args_len, shift;
	char *fmt, *base;

	if (size < 3)
		return 0;
	shift = data[0] & 7;
	opts.long_size = data[0] & 8 ? 4 : 8;
	opts.symbolic_errname = data[0] & 16;
	fmt_len = (data[1] | data[2] << 8) % (size - 2);
	args_len = size - 3 - fmt_len;
	fmt = malloc(fmt_len ? fmt_len : 1);
	base = malloc(shift + args_len ? shift + args_len : 1);
	if (!fmt || !base)
		abort();
	memcpy(fmt, data + 3, fmt_len);
	memcpy(base + shift, data + 3 + fmt_len, args_len);
	kmsg_args_decode(fmt, fmt_len, base + shift, args_len, &opts, &args);
	kmsg_render(&out, fmt, fmt_len, &args, &opts);
	same_cached(fmt, fmt_len, base + shift, args_len, &opts, &out);
	/* without options: 8-byte longs, no symbols */
	kmsg_args_decode(fmt, fmt_len, base + shift, args_len, NULL, &args);
	out.len = 0;
	kmsg_render(&out, fmt, fmt_len, &args, NULL);
	kmsg_strbuf_free(&out);
	free(fmt);
	free(base);
	return 0;
}
