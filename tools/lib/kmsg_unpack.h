/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel image and module of an input as a distribution ships it,
 * decompressed in memory and handed to a callback one at a time.
 *
 * An input is one of:
 *   - a plain ELF: a vmlinux (ET_EXEC, ET_DYN) or a module (ET_REL);
 *   - a compressed one: .ko.xz, .ko.zst, .ko.gz, vmlinux.gz, ... (xz,
 *     zstd, gzip, bzip2, lzma, lz4: by their magic, not their suffix);
 *   - a bzImage (vmlinuz): its payload (payload_offset, payload_length
 *     of the setup header), decompressed, must be an ELF;
 *   - a directory, walked recursively in strcmp order of each level,
 *     symbolic links not followed: *.ko, *.ko.xz, *.ko.zst, *.ko.gz,
 *     vmlinuz, vmlinuz-*, vmlinux, vmlinux-*, System.map, System.map-*,
 *     config-*; other files are ignored;
 *   - a .deb (ar): its data.tar.{xz,zst,gz,bz2,} streamed, its regular
 *     members chosen by the same names (boot/vmlinuz-*,
 *     lib/modules/(...)/kernel/(...).ko.xz, usr/lib/debug/boot/vmlinux-*).
 *
 * Only one member is in memory at a time (compressed and decompressed).
 * All input is untrusted: a damaged input or member is an error
 * "FILE: problem" or "FILE: MEMBER: problem", never a crash; a member
 * that decompresses to more than the cap (1 GiB unless told) is an error
 * that says so. A file that matches a name above but is not what the
 * name says (a *.ko that is no ELF module) is an error, not skipped. An
 * input without any kernel image or module is an error naming it.
 */
#ifndef KMSG_UNPACK_H
#define KMSG_UNPACK_H

#include <stddef.h>
#include <stdint.h>

enum kmsg_blob_kind {
	KMSG_BLOB_VMLINUX,	/* an ELF vmlinux (from a bzImage too) */
	KMSG_BLOB_MODULE,	/* an ELF relocatable module */
	KMSG_BLOB_SYSTEM_MAP,	/* System.map, as is */
	KMSG_BLOB_CONFIG,	/* config-*, as is */
	KMSG_BLOB_KINDS
};

struct kmsg_blob {
	/* the member path inside the input (no leading "./"), or the path
	 * of the input when it is a single file */
	const char *name;
	/* the decompressed content; valid during the callback only */
	const unsigned char *data;
	size_t size;
	enum kmsg_blob_kind kind;
	/* a bzImage's kernel_version string ("6.12.118+deb12-amd64
	 * (debian-kernel@lists.debian.org) #1 SMP ..."), else NULL */
	const char *version;
	/* how it was compressed: "xz", "zstd", "gzip", ..., "none" */
	const char *compression;
};

/* Where a walk is, for a progress display */
struct kmsg_unpack_progress {
	const char *input;	/* the path given to kmsg_unpack */
	const char *name;	/* the member just done (or skipped) */
	unsigned long done;	/* members looked at so far, blobs or not */
	unsigned long total;	/* members of a directory; 0: not known */
	unsigned long blobs;	/* blobs handed to the callback so far */
	uint64_t in_pos;	/* bytes of the input file read so far */
	uint64_t in_size;	/* its size (a directory: 0) */
};

/* 1 GiB: no member decompresses to more, unless told otherwise */
#define KMSG_UNPACK_MAX_SIZE (1ULL << 30)

struct kmsg_unpack_opts {
	/* a mask of 1 << KMSG_BLOB_*: the kinds wanted; 0: all. Members of
	 * the other kinds are not read into memory nor decompressed. */
	unsigned int kinds;
	/* the cap of a member's decompressed size; 0: KMSG_UNPACK_MAX_SIZE */
	uint64_t max_size;
	/* called after each member looked at, when set */
	void (*progress)(const struct kmsg_unpack_progress *p, void *arg);
	void *progress_arg;
};

typedef int (*kmsg_blob_cb)(const struct kmsg_blob *b, void *arg);

/*
 * Hand each blob of @path to @cb, in the input's order (a directory:
 * sorted). @cb returns 0 to go on; any other value stops the walk and is
 * returned as is, *@err left NULL. Returns 0 when done, -1 on an error
 * with *@err a malloc()ed message "PATH: problem" (no newline).
 */
int kmsg_unpack(const char *path, kmsg_blob_cb cb, void *arg, char **err);
int kmsg_unpack_ex(const char *path, const struct kmsg_unpack_opts *opts,
		   kmsg_blob_cb cb, void *arg, char **err);

/* "vmlinux", "module", "System.map", "config" */
const char *kmsg_blob_kind_name(enum kmsg_blob_kind kind);

#endif /* KMSG_UNPACK_H */
