// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_unpack - the kernel images and modules of an input as a
 * distribution ships it (see kmsg_unpack.h), decompressed in memory with
 * libarchive: its ar and tar readers for a .deb, its raw format and
 * filters for a compressed file or a bzImage's payload.
 *
 * Every size and offset read from the input is checked before use; each
 * buffer is bounded by the cap of a member's size.
 */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_unpack.h"

#define READ_BLOCK (64 * 1024)
#define MAX_DEPTH 32

struct unpacker {
	const char *input;
	kmsg_blob_cb cb;
	void *arg;
	unsigned int kinds;
	uint64_t max;
	void (*progress)(const struct kmsg_unpack_progress *p, void *arg);
	void *progress_arg;
	struct kmsg_unpack_progress p;
	/* kernel images and modules met, whether wanted or not */
	unsigned long found;
	char *err;
	int stop;		/* what the callback returned, to stop */
	/* the .deb: its ar reader, and the bytes read of it */
	struct archive *outer;
	unsigned char block[READ_BLOCK];
};

const char *kmsg_blob_kind_name(enum kmsg_blob_kind kind)
{
	static const char *const names[] = {
		[KMSG_BLOB_VMLINUX] = "vmlinux",
		[KMSG_BLOB_MODULE] = "module",
		[KMSG_BLOB_SYSTEM_MAP] = "System.map",
		[KMSG_BLOB_CONFIG] = "config",
	};

	return (unsigned int)kind < KMSG_BLOB_KINDS ? names[kind] : "?";
}

/*
 * "WHERE: problem", the first error only; a control character (of a
 * member's name, say) as '?', so that it is one line, safe on a terminal
 */
static int __attribute__((format(printf, 3, 4)))
fail(struct unpacker *u, const char *where, const char *fmt, ...)
{
	char msg[512], *c;
	va_list ap;
	size_t n;

	if (u->err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n = strlen(where) + strlen(msg) + 3;
	u->err = malloc(n);
	if (!u->err)
		return -1;
	snprintf(u->err, n, "%s: %s", where, msg);
	for (c = u->err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -1;
}

/* the member's place in error messages: "INPUT: MEMBER" */
static char *member_where(const char *input, const char *member)
{
	size_t n = strlen(input) + strlen(member) + 3;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s: %s", input, member);
	return s;
}

static int is_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static int is_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The kind a member's name says it is, -1 for none */
static int name_kind(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (is_suffix(base, ".ko") || is_suffix(base, ".ko.xz") ||
	    is_suffix(base, ".ko.zst") || is_suffix(base, ".ko.gz"))
		return KMSG_BLOB_MODULE;
	if (!strcmp(base, "vmlinuz") || is_prefix(base, "vmlinuz-") ||
	    !strcmp(base, "vmlinux") || is_prefix(base, "vmlinux-"))
		return KMSG_BLOB_VMLINUX;
	if (!strcmp(base, "System.map") || is_prefix(base, "System.map-"))
		return KMSG_BLOB_SYSTEM_MAP;
	if (is_prefix(base, "config-"))
		return KMSG_BLOB_CONFIG;
	return -1;
}

static int wanted(const struct unpacker *u, int kind)
{
	return !u->kinds || (u->kinds & (1U << kind));
}

static unsigned int le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The ELF type (ET_*) of an ELF of either class and byte order, else -1 */
static int elf_type(const unsigned char *d, size_t n)
{
	/* e_ident (16), then e_type: in both classes, at 16 */
	if (n < 52 || memcmp(d, "\177ELF", 4))
		return -1;
	if ((d[4] != 1 && d[4] != 2) || (d[5] != 1 && d[5] != 2))
		return -1;
	if (d[4] == 2 && n < 64)
		return -1;
	return d[5] == 1 ? (int)le16(d + 16) : d[16] << 8 | d[17];
}

static int is_bzimage(const unsigned char *d, size_t n)
{
	return n >= 0x206 && !memcmp(d + 0x202, "HdrS", 4);
}

/* The compression by its magic, NULL for none known */
static const char *compression(const unsigned char *d, size_t n)
{
	if (n >= 2 && d[0] == 0x1f && d[1] == 0x8b)
		return "gzip";
	if (n >= 6 && !memcmp(d, "\3757zXZ\0", 6))
		return "xz";
	if (n >= 4 && !memcmp(d, "\x28\xb5\x2f\xfd", 4))
		return "zstd";
	if (n >= 3 && !memcmp(d, "BZh", 3))
		return "bzip2";
	if (n >= 4 && (!memcmp(d, "\x02\x21\x4c\x18", 4) ||
		       !memcmp(d, "\x04\x22\x4d\x18", 4)))
		return "lz4";
	if (n >= 3 && d[0] == 0x5d && d[1] == 0 && d[2] == 0)
		return "lzma";
	return NULL;
}

/*
 * The filters built into libarchive, each registered only when it is:
 * without its library libarchive would run an external program on the
 * data.
 */
static int (*const filters[])(struct archive *) = {
	archive_read_support_filter_gzip, archive_read_support_filter_bzip2,
	archive_read_support_filter_xz, archive_read_support_filter_lzma,
	archive_read_support_filter_lz4, archive_read_support_filter_zstd,
};

static void add_filters(struct archive *a)
{
	static int builtin = -1;
	unsigned int i;

	if (builtin < 0) {
		builtin = 0;
		for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
			struct archive *t = archive_read_new();

			if (t && filters[i](t) == ARCHIVE_OK)
				builtin |= 1 << i;
			archive_read_free(t);
		}
	}
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++)
		if (builtin & (1 << i))
			filters[i](a);
}

static const char *aerr(struct archive *a)
{
	const char *s = archive_error_string(a);

	return s ? s : "unknown libarchive error";
}

/*
 * Decompress @n bytes (@comp, from their magic) into a malloc()ed buffer
 * of at most the cap; @hint: the size expected, 0 if not known.
 */
static int decompress(struct unpacker *u, const char *where, const char *comp,
		      const unsigned char *in, size_t n, size_t hint,
		      unsigned char **out, size_t *outn)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	unsigned char *buf = NULL, *nb;
	size_t len = 0, cap;
	la_ssize_t r;
	int ret = -1;

	*out = NULL;
	if (!a)
		return fail(u, where, "out of memory");
	add_filters(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, in, n) != ARCHIVE_OK ||
	    archive_read_next_header(a, &e) != ARCHIVE_OK) {
		fail(u, where, "%s data: %s", comp, aerr(a));
		goto out;
	}
	if (archive_filter_count(a) < 2) {
		fail(u, where, "%s magic, but no %s data", comp, comp);
		goto out;
	}
	cap = hint ? hint + 1 : (n < READ_BLOCK ? READ_BLOCK : 4 * n);
	if (cap > u->max + 1)
		cap = u->max + 1;
	for (;;) {
		if (len == cap) {
			if (len > u->max) {
				fail(u, where, "decompresses to more than %llu bytes, the cap",
				     (unsigned long long)u->max);
				goto out;
			}
			cap = cap > u->max / 2 ? u->max + 1 : 2 * cap;
			nb = realloc(buf, cap);
			if (!nb) {
				fail(u, where, "out of memory for %zu bytes", cap);
				goto out;
			}
			buf = nb;
		}
		if (!buf) {
			buf = malloc(cap);
			if (!buf) {
				fail(u, where, "out of memory for %zu bytes", cap);
				goto out;
			}
		}
		r = archive_read_data(a, buf + len, cap - len);
		if (r < 0) {
			fail(u, where, "%s data: %s", comp, aerr(a));
			goto out;
		}
		if (!r)
			break;
		len += r;
	}
	if (len > u->max) {
		fail(u, where, "decompresses to more than %llu bytes, the cap",
		     (unsigned long long)u->max);
		goto out;
	}
	*out = buf;
	*outn = len;
	buf = NULL;
	ret = 0;
out:
	free(buf);
	archive_read_free(a);
	return ret;
}

/*
 * A bzImage (Documentation/arch/x86/boot.rst): its payload decompressed.
 * All but gzip have the kernel's size_append: the size of what was
 * compressed, 32 bits little-endian, after the compressed data.
 */
static int bzimage(struct unpacker *u, const char *where,
		   const unsigned char *d, size_t n, const char **version,
		   const char **comp, unsigned char **out, size_t *outn)
{
	unsigned int proto, sects, kv;
	uint64_t pm, off, len;
	const unsigned char *pl;
	uint32_t trailer = 0;

	if (n < 0x250)
		return fail(u, where, "bzImage: %zu bytes, too short for its setup header",
			    n);
	if (le16(d + 0x1fe) != 0xaa55)
		return fail(u, where, "bzImage: no boot_flag 0xAA55 at 0x1FE");
	proto = le16(d + 0x206);
	if (proto < 0x208)
		return fail(u, where,
			    "bzImage: boot protocol %u.%02u has no payload_offset (2.08 or later)",
			    proto >> 8, proto & 0xff);
	sects = d[0x1f1] ? d[0x1f1] : 4;
	pm = (uint64_t)(sects + 1) * 512;
	if (pm > n)
		return fail(u, where,
			    "bzImage: setup_sects %u: its protected-mode code at %llu is beyond the end (%zu bytes)",
			    sects, (unsigned long long)pm, n);
	*version = NULL;
	kv = le16(d + 0x20e);
	if (kv) {
		uint64_t s = (uint64_t)kv + 0x200;

		if (s >= pm || !memchr(d + s, 0, pm - s))
			return fail(u, where,
				    "bzImage: kernel_version 0x%x: no string in the setup code",
				    kv);
		*version = (const char *)d + s;
	}
	off = le32(d + 0x248);
	len = le32(d + 0x24c);
	if (pm + off + len > n)
		return fail(u, where,
			    "bzImage: payload_offset %llu + payload_length %llu: beyond the end (%zu bytes)",
			    (unsigned long long)off, (unsigned long long)len, n);
	pl = d + pm + off;
	*comp = compression(pl, len);
	if (!*comp)
		return fail(u, where,
			    "bzImage: payload of %llu bytes in no known compression",
			    (unsigned long long)len);
	if (strcmp(*comp, "gzip")) {
		if (len < 8)
			return fail(u, where, "bzImage: payload of %llu bytes, too short",
				    (unsigned long long)len);
		len -= 4;
		trailer = le32(pl + len);
	}
	if (decompress(u, where, *comp, pl, len, trailer, out, outn))
		return -1;
	if (trailer && *outn != trailer) {
		free(*out);
		*out = NULL;
		return fail(u, where,
			    "bzImage: the payload decompressed to %zu bytes, its size field says %u",
			    *outn, trailer);
	}
	return 0;
}

/*
 * A member read (or the single file): decompressed, checked against the
 * kind its name says (-1: none, then by its ELF type), handed to the
 * callback. @where: its place in errors.
 */
static int member(struct unpacker *u, const char *name, const char *where,
		  int kind, const unsigned char *d, size_t n)
{
	struct kmsg_blob b = { .name = name, .data = d, .size = n,
			       .compression = "none" };
	unsigned char *dec = NULL;
	size_t decn = 0;
	int type, r;

	if (kind == KMSG_BLOB_SYSTEM_MAP || kind == KMSG_BLOB_CONFIG) {
		b.kind = kind;
		goto call;
	}
	if (is_bzimage(d, n)) {
		if (bzimage(u, where, d, n, &b.version, &b.compression, &dec, &decn))
			return -1;
	} else if (elf_type(d, n) < 0) {
		b.compression = compression(d, n);
		if (!b.compression)
			return fail(u, where, "%s", n ? "not an ELF, a bzImage or compressed data" :
				    "an empty file");
		if (decompress(u, where, b.compression, d, n, 0, &dec, &decn))
			return -1;
	}
	if (dec) {
		b.data = dec;
		b.size = decn;
	}
	type = elf_type(b.data, b.size);
	if (type < 0) {
		fail(u, where, "not an ELF after %s decompression%s", b.compression,
		     b.version ? " of the bzImage payload" : "");
		goto out;
	}
	if (kind < 0) {
		kind = type == 1 ? KMSG_BLOB_MODULE : KMSG_BLOB_VMLINUX;
		u->found++;
	}
	if (kind == KMSG_BLOB_MODULE && type != 1) {
		fail(u, where, "a module name, but an ELF of type %d, not ET_REL", type);
		goto out;
	}
	if (kind == KMSG_BLOB_VMLINUX && type != 2 && type != 3) {
		fail(u, where, "ELF type %d: not a kernel image (ET_EXEC, ET_DYN)%s",
		     type, type == 1 ? " nor named as a module" : "");
		goto out;
	}
	b.kind = kind;
call:
	r = 0;
	if (wanted(u, b.kind)) {
		u->p.blobs++;
		r = u->cb(&b, u->arg);
		if (r)
			u->stop = r;
	}
	free(dec);
	return r ? -1 : 0;
out:
	free(dec);
	return -1;
}

static void progress(struct unpacker *u, const char *name)
{
	u->p.done++;
	u->p.name = name;
	if (u->outer)
		u->p.in_pos = archive_filter_bytes(u->outer, -1);
	if (u->progress)
		u->progress(&u->p, u->progress_arg);
}

/* A regular file into memory, at most the cap */
static int read_file(struct unpacker *u, const char *path, unsigned char **out,
		     size_t *outn)
{
	unsigned char *buf;
	struct stat st;
	size_t got = 0;
	ssize_t r;
	int fd;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(u, path, "%s", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(u, path, "not a regular file");
	}
	if ((uint64_t)st.st_size > u->max) {
		close(fd);
		return fail(u, path, "%llu bytes, more than the cap of %llu",
			    (unsigned long long)st.st_size, (unsigned long long)u->max);
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		close(fd);
		return fail(u, path, "out of memory for %llu bytes",
			    (unsigned long long)st.st_size);
	}
	while (got < (size_t)st.st_size) {
		r = read(fd, buf + got, st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			fail(u, path, "%s", r ? strerror(errno) : "shorter than its size");
			close(fd);
			free(buf);
			return -1;
		}
		got += r;
	}
	close(fd);
	*out = buf;
	*outn = got;
	return 0;
}

/* --- a directory --------------------------------------------------------- */

struct paths {
	char **v;
	size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int push(struct paths *p, char *s)
{
	char **nv;

	if (!s)
		return -1;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		nv = realloc(p->v, p->cap * sizeof(*nv));
		if (!nv) {
			free(s);
			return -1;
		}
		p->v = nv;
	}
	p->v[p->n++] = s;
	return 0;
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s%s%s", a, *a ? "/" : "", b);
	return s;
}

/* The files of @root/@rel chosen by name, sorted, in @out (relative) */
static int walk(struct unpacker *u, const char *root, const char *rel,
		int depth, struct paths *out)
{
	struct paths names = { 0 };
	char *dir = *rel ? join(root, rel) : strdup(root);
	struct dirent *de;
	struct stat st;
	size_t i;
	DIR *d;
	int ret = -1;

	if (!dir)
		return fail(u, root, "out of memory");
	if (depth > MAX_DEPTH) {
		fail(u, dir, "directories nested more than %d deep", MAX_DEPTH);
		goto out;
	}
	d = opendir(dir);
	if (!d) {
		fail(u, dir, "%s", strerror(errno));
		goto out;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    push(&names, strdup(de->d_name))) {
			closedir(d);
			fail(u, dir, "out of memory");
			goto out;
		}
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (i = 0; i < names.n; i++) {
		char *r = join(rel, names.v[i]), *full = r ? join(root, r) : NULL;

		if (!full || lstat(full, &st)) {
			if (full)
				fail(u, full, "%s", strerror(errno));
			else
				fail(u, dir, "out of memory");
			free(r);
			free(full);
			goto out;
		}
		free(full);
		if (S_ISDIR(st.st_mode)) {
			int e = walk(u, root, r, depth + 1, out);

			free(r);
			if (e)
				goto out;
		} else if (S_ISREG(st.st_mode) && name_kind(r) >= 0) {
			if (push(out, r)) {
				fail(u, dir, "out of memory");
				goto out;
			}
		} else {
			free(r);
		}
	}
	ret = 0;
out:
	for (i = 0; i < names.n; i++)
		free(names.v[i]);
	free(names.v);
	free(dir);
	return ret;
}

static int unpack_dir(struct unpacker *u)
{
	struct paths files = { 0 };
	unsigned char *d;
	size_t i, n;
	int ret = walk(u, u->input, "", 0, &files);

	u->p.total = files.n;
	/* nothing usable: said before any blob */
	for (i = 0; !ret && i < files.n; i++) {
		int kind = name_kind(files.v[i]);

		if (kind == KMSG_BLOB_VMLINUX || kind == KMSG_BLOB_MODULE)
			u->found++;
	}
	if (!u->found)
		goto out;
	for (i = 0; !ret && i < files.n; i++) {
		const char *rel = files.v[i];
		int kind = name_kind(rel);
		char *full = join(u->input, rel);

		if (!full) {
			ret = fail(u, u->input, "out of memory");
			break;
		}
		if (wanted(u, kind)) {
			ret = read_file(u, full, &d, &n);
			if (!ret)
				ret = member(u, rel, full, kind, d, n);
			free(d);
		}
		free(full);
		progress(u, rel);
	}
out:
	for (i = 0; i < files.n; i++)
		free(files.v[i]);
	free(files.v);
	return ret;
}

/* --- a .deb ---------------------------------------------------------------- */

/* The data.tar member of the ar archive, for the tar reader */
static la_ssize_t outer_read(struct archive *a, void *arg, const void **buf)
{
	struct unpacker *u = arg;
	la_ssize_t r = archive_read_data(u->outer, u->block, sizeof(u->block));

	if (r < 0) {
		archive_set_error(a, archive_errno(u->outer), "%s", aerr(u->outer));
		return -1;
	}
	*buf = u->block;
	return r;
}

static int unpack_tar(struct unpacker *u, const char *tarname)
{
	struct archive *a = archive_read_new();
	char *where = member_where(u->input, tarname), *mwhere;
	struct archive_entry *e;
	unsigned char *d;
	la_int64_t size;
	la_ssize_t r;
	size_t got;
	int ret = -1, kind;

	if (!a || !where) {
		fail(u, u->input, "out of memory");
		goto out;
	}
	add_filters(a);
	archive_read_support_format_tar(a);
	if (archive_read_open2(a, u, NULL, outer_read, NULL, NULL) != ARCHIVE_OK) {
		fail(u, where, "%s", aerr(a));
		goto out;
	}
	for (;;) {
		const char *name;
		int h = archive_read_next_header(a, &e);

		if (h == ARCHIVE_EOF)
			break;
		if (h != ARCHIVE_OK && h != ARCHIVE_WARN) {
			fail(u, where, "%s", aerr(a));
			goto out;
		}
		name = archive_entry_pathname(e);
		if (!name) {
			fail(u, where, "a member without a name");
			goto out;
		}
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		kind = name_kind(name);
		if (archive_entry_filetype(e) != AE_IFREG || kind < 0) {
			if (archive_read_data_skip(a) != ARCHIVE_OK) {
				fail(u, where, "%s: %s", name, aerr(a));
				goto out;
			}
			progress(u, name);
			continue;
		}
		if (kind == KMSG_BLOB_VMLINUX || kind == KMSG_BLOB_MODULE)
			u->found++;
		if (!wanted(u, kind)) {
			if (archive_read_data_skip(a) != ARCHIVE_OK) {
				fail(u, where, "%s: %s", name, aerr(a));
				goto out;
			}
			progress(u, name);
			continue;
		}
		mwhere = member_where(u->input, name);
		if (!mwhere) {
			fail(u, where, "out of memory");
			goto out;
		}
		size = archive_entry_size(e);
		if (!archive_entry_size_is_set(e) || size < 0 ||
		    (uint64_t)size > u->max) {
			fail(u, mwhere, "size %lld: not set or more than the cap of %llu",
			     (long long)size, (unsigned long long)u->max);
			free(mwhere);
			goto out;
		}
		d = malloc(size ? size : 1);
		if (!d) {
			fail(u, mwhere, "out of memory for %lld bytes", (long long)size);
			free(mwhere);
			goto out;
		}
		for (got = 0; got < (size_t)size; got += r) {
			r = archive_read_data(a, d + got, size - got);
			if (r <= 0)
				break;
		}
		if (got < (size_t)size) {
			fail(u, mwhere, "%s", r < 0 ? aerr(a) : "truncated");
			free(mwhere);
			free(d);
			goto out;
		}
		ret = member(u, name, mwhere, kind, d, got);
		free(mwhere);
		free(d);
		progress(u, name);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	archive_read_free(a);
	free(where);
	return ret;
}

static int unpack_deb(struct unpacker *u)
{
	struct archive_entry *e;
	int ret = -1, tars = 0;

	u->outer = archive_read_new();
	if (!u->outer)
		return fail(u, u->input, "out of memory");
	archive_read_support_format_ar(u->outer);
	if (archive_read_open_filename(u->outer, u->input, READ_BLOCK) != ARCHIVE_OK) {
		fail(u, u->input, "%s", aerr(u->outer));
		goto out;
	}
	for (;;) {
		int h = archive_read_next_header(u->outer, &e);
		const char *name;

		if (h == ARCHIVE_EOF)
			break;
		if (h != ARCHIVE_OK && h != ARCHIVE_WARN) {
			fail(u, u->input, "%s", aerr(u->outer));
			goto out;
		}
		name = archive_entry_pathname(e);
		if (name && is_prefix(name, "data.tar")) {
			tars++;
			if (unpack_tar(u, name))
				goto out;
		}
	}
	if (!tars) {
		fail(u, u->input, "an ar archive without a data.tar member: not a .deb");
		goto out;
	}
	ret = 0;
out:
	archive_read_free(u->outer);
	u->outer = NULL;
	return ret;
}

/* --- the input ------------------------------------------------------------- */

int kmsg_unpack_ex(const char *path, const struct kmsg_unpack_opts *opts,
		   kmsg_blob_cb cb, void *arg, char **err)
{
	struct unpacker *u = calloc(1, sizeof(*u));
	unsigned char magic[8], *d;
	struct stat st;
	size_t n;
	int ret = -1, fd;
	ssize_t r;

	*err = NULL;
	if (!u) {
		*err = strdup("out of memory");
		return -1;
	}
	u->input = path;
	u->cb = cb;
	u->arg = arg;
	u->max = KMSG_UNPACK_MAX_SIZE;
	if (opts) {
		u->kinds = opts->kinds;
		if (opts->max_size)
			u->max = opts->max_size;
		/* room for one more byte, twice, in size_t */
		if (u->max > SIZE_MAX / 4)
			u->max = SIZE_MAX / 4;
		u->progress = opts->progress;
		u->progress_arg = opts->progress_arg;
	}
	u->p.input = path;
	if (stat(path, &st)) {
		fail(u, path, "%s", strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = unpack_dir(u);
		goto done;
	}
	if (!S_ISREG(st.st_mode)) {
		fail(u, path, "not a regular file or a directory");
		goto out;
	}
	u->p.in_size = st.st_size;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fail(u, path, "%s", strerror(errno));
		goto out;
	}
	r = read(fd, magic, sizeof(magic));
	close(fd);
	if (r == sizeof(magic) && !memcmp(magic, "!<arch>\n", 8)) {
		ret = unpack_deb(u);
		goto done;
	}
	ret = read_file(u, path, &d, &n);
	if (!ret) {
		int kind = name_kind(path);

		if (kind == KMSG_BLOB_VMLINUX || kind == KMSG_BLOB_MODULE)
			u->found++;
		ret = member(u, path, path, kind, d, n);
		free(d);
		u->p.in_pos = n;
		u->p.total = 1;
		progress(u, path);
	}
done:
	if (!ret && !u->found) {
		fail(u, path, "no kernel image or module (vmlinuz, vmlinux, *.ko)");
		ret = -1;
	}
out:
	if (u->stop) {
		ret = u->stop;
		free(u->err);
		u->err = NULL;
	} else if (ret) {
		*err = u->err ? u->err : strdup("out of memory");
		u->err = NULL;
		ret = -1;
	}
	free(u->err);
	free(u);
	return ret;
}

int kmsg_unpack(const char *path, kmsg_blob_cb cb, void *arg, char **err)
{
	return kmsg_unpack_ex(path, NULL, cb, arg, err);
}
