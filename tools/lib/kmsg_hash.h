/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hash of an automatic message id: 32-bit FNV-1a (offset basis
 * 0x811c9dc5, prime 0x01000193) over the bytes of the format as the call
 * site passes it to printk(), without its KERN_<LEVEL> header and one
 * trailing newline. docs-db/FORMAT.md specifies it, with test vectors.
 * Header-only, so that every tool shares this one definition.
 */
#ifndef KMSG_HASH_H
#define KMSG_HASH_H

#include <stddef.h>
#include <stdint.h>

#define KMSG_FNV1A_BASIS	0x811c9dc5u
#define KMSG_FNV1A_PRIME	0x01000193u

/* 32-bit FNV-1a of @len bytes of @s (unsigned bytes) */
static inline uint32_t kmsg_fmt_hash(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t h = KMSG_FNV1A_BASIS;

	while (len--) {
		h ^= *p++;
		h *= KMSG_FNV1A_PRIME;
	}
	return h;
}

#endif /* KMSG_HASH_H */
