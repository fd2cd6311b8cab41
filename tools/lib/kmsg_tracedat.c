// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_tracedat - the structure of a trace.dat, checked before libtracecmd
 * reads it.  See kmsg_tracedat.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_tracedat.h"

/* Bounds on counts, far above any real file, so that a loop ends early */
#define MAX_ITEMS	(1u << 20)	/* formats, systems, options */
#define MAX_CPUS	(1u << 16)
#define MAX_STRING	4096
#define MAX_SECTIONS	4096		/* v7 options sections */

/* trace-cmd.dat.v7(5): option ids */
enum {
	OPT_DONE = 0,
	OPT_BUFFER = 3,
	OPT_CPUCOUNT = 8,
	OPT_HEADER_INFO = 16,	/* to 21: the offset of a section */
	OPT_BUFFER_TEXT = 22,	/* the offset of a latency section */
};

#define SEC_FL_COMPRESS	1

static const char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

struct rd {
	int fd;				/* the file, or -1 */
	const unsigned char *buf;	/* or its bytes */
	uint64_t size;
	uint64_t off;			/* where the walk is */
	bool big;			/* big-endian numbers */
	const char *name;
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 2, 3)))
fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, r->errlen, "%s: ", r->name);
	if (n >= 0 && (size_t)n < r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err + n, r->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Does [off, off + n) lie inside the file? */
static bool inside(const struct rd *r, uint64_t off, uint64_t n)
{
	return off <= r->size && n <= r->size - off;
}

static int cut(struct rd *r, uint64_t off, uint64_t n, const char *what)
{
	return fail(r, "not a whole trace.dat: %s at byte %llu needs %llu bytes, the file has %llu (cut short, or corrupt)",
		    what, (unsigned long long)off, (unsigned long long)n,
		    (unsigned long long)r->size);
}

/* @n bytes at @off into @dst */
static int get_at(struct rd *r, uint64_t off, void *dst, size_t n,
		  const char *what)
{
	size_t done = 0;
	ssize_t got;

	if (!inside(r, off, n))
		return cut(r, off, n, what);
	if (r->buf) {
		memcpy(dst, r->buf + off, n);
		return 0;
	}
	while (done < n) {
		got = pread(r->fd, (char *)dst + done, n - done, off + done);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return fail(r, "%s at byte %llu: %s", what,
				    (unsigned long long)(off + done),
				    got ? strerror(errno) : "unexpected end of file");
		done += got;
	}
	return 0;
}

static int get(struct rd *r, void *dst, size_t n, const char *what)
{
	if (get_at(r, r->off, dst, n, what))
		return -1;
	r->off += n;
	return 0;
}

static uint64_t num(const struct rd *r, const unsigned char *b, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)b[r->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static int get_num(struct rd *r, int n, uint64_t *v, const char *what)
{
	unsigned char b[8];

	if (get(r, b, n, what))
		return -1;
	*v = num(r, b, n);
	return 0;
}

static int skip(struct rd *r, uint64_t n, const char *what)
{
	if (!inside(r, r->off, n))
		return cut(r, r->off, n, what);
	r->off += n;
	return 0;
}

/* A NUL-terminated string of at most @size bytes, NUL included */
static int get_str(struct rd *r, char *s, size_t size, const char *what)
{
	size_t i;

	for (i = 0; i < size; i++) {
		if (get(r, s + i, 1, what))
			return -1;
		if (!s[i])
			return 0;
	}
	return fail(r, "not a trace.dat: %s at byte %llu is not a string of at most %zu bytes",
		    what, (unsigned long long)(r->off - size), size - 1);
}

/* A size (u32 or u64) and the data it announces */
static int sized(struct rd *r, int width, const char *what)
{
	uint64_t n;

	return get_num(r, width, &n, what) || skip(r, n, what) ? -1 : 0;
}

static int label(struct rd *r, const char *want, size_t n)
{
	char got[16];

	if (get(r, got, n, want))
		return -1;
	if (memcmp(got, want, n))
		return fail(r, "not a trace.dat: no \"%s\" at byte %llu", want,
			    (unsigned long long)(r->off - n));
	return 0;
}

static int count(struct rd *r, uint64_t *n, uint64_t max, const char *what)
{
	if (get_num(r, 4, n, what))
		return -1;
	if (*n > max)
		return fail(r, "not a trace.dat: %llu %s (at byte %llu), more than %llu",
			    (unsigned long long)*n, what,
			    (unsigned long long)(r->off - 4),
			    (unsigned long long)max);
	return 0;
}

/* The data of one CPU must be in the file */
static int cpu_data(struct rd *r, uint64_t cpu, uint64_t off, uint64_t size)
{
	if (size && !inside(r, off, size))
		return fail(r, "not a whole trace.dat: the data of CPU %llu, %llu bytes at byte %llu, is not all in the file of %llu bytes (cut short, or corrupt)",
			    (unsigned long long)cpu, (unsigned long long)size,
			    (unsigned long long)off, (unsigned long long)r->size);
	return 0;
}

/* Header info, ftrace and event formats, as version 6 lays them out */
static int formats(struct rd *r)
{
	uint64_t n, k, i, j;
	char sys[MAX_STRING];

	if (label(r, "header_page", 12) || sized(r, 8, "the header_page format") ||
	    label(r, "header_event", 13) || sized(r, 8, "the header_event format") ||
	    count(r, &n, MAX_ITEMS, "ftrace event formats"))
		return -1;
	for (i = 0; i < n; i++)
		if (sized(r, 8, "an ftrace event format"))
			return -1;
	if (count(r, &n, MAX_ITEMS, "event systems"))
		return -1;
	for (i = 0; i < n; i++) {
		if (get_str(r, sys, sizeof(sys), "the name of an event system") ||
		    count(r, &k, MAX_ITEMS, "event formats"))
			return -1;
		for (j = 0; j < k; j++)
			if (sized(r, 8, "an event format"))
				return -1;
	}
	return 0;
}

/* Version 6: the options after "options  " */
static int options_v6(struct rd *r, uint64_t *cpus)
{
	uint64_t id, size, end, v, i;
	unsigned char b[8];

	for (i = 0; i < MAX_ITEMS; i++) {
		if (get_num(r, 2, &id, "an option"))
			return -1;
		if (id == OPT_DONE)
			return 0;
		if (get_num(r, 4, &size, "an option"))
			return -1;
		end = r->off + size;
		if (!inside(r, r->off, size))
			return cut(r, r->off, size, "an option");
		if (id == OPT_CPUCOUNT && size >= 4) {
			if (get_num(r, 4, &v, "the CPU count option"))
				return -1;
			if (v > MAX_CPUS)
				return fail(r, "not a trace.dat: %llu CPUs, more than %u",
					    (unsigned long long)v, MAX_CPUS);
			*cpus = v;
		} else if ((id == OPT_BUFFER || id == OPT_BUFFER_TEXT) && size >= 8) {
			if (get(r, b, 8, "a buffer option"))
				return -1;
			v = num(r, b, 8);
			if (v >= r->size)
				return fail(r, "not a whole trace.dat: the data of a buffer at byte %llu is past the end of the file of %llu bytes",
					    (unsigned long long)v,
					    (unsigned long long)r->size);
		}
		r->off = end;
	}
	return fail(r, "not a trace.dat: more than %u options", MAX_ITEMS);
}

static int check_v6(struct rd *r)
{
	uint64_t cpus, off, size, i;
	char what[10];

	if (formats(r) ||
	    sized(r, 4, "the kallsyms") || sized(r, 4, "the trace_printk formats") ||
	    sized(r, 8, "the saved command lines") ||
	    count(r, &cpus, MAX_CPUS, "CPUs") ||
	    get(r, what, 10, "the options or data label"))
		return -1;
	if (!memcmp(what, "options  ", 10)) {
		if (options_v6(r, &cpus) || get(r, what, 10, "the data label"))
			return -1;
	}
	if (!memcmp(what, "latency  ", 10))
		return 0;
	if (memcmp(what, "flyrecord", 10))
		return fail(r, "not a trace.dat: no \"flyrecord\" or \"latency\" at byte %llu",
			    (unsigned long long)(r->off - 10));
	for (i = 0; i < cpus; i++) {
		if (get_num(r, 8, &off, "the offset of a CPU's data") ||
		    get_num(r, 8, &size, "the size of a CPU's data") ||
		    cpu_data(r, i, off, size))
			return -1;
	}
	return 0;
}

/* Version 7: a section header (16 bytes) at @off, its data inside the file */
static int section(struct rd *r, uint64_t off, uint64_t *id, uint64_t *flags,
		   uint64_t *size, const char *what)
{
	unsigned char h[16];

	if (get_at(r, off, h, sizeof(h), what))
		return -1;
	*id = num(r, h, 2);
	*flags = num(r, h + 2, 2);
	*size = num(r, h + 8, 8);
	if (!inside(r, off + 16, *size))
		return cut(r, off + 16, *size, what);
	return 0;
}

/* Version 7: an option that gives the offset of a section */
static int option_section(struct rd *r, const unsigned char *b, uint64_t size)
{
	uint64_t id, flags, len;

	if (size < 8)
		return fail(r, "not a trace.dat: an option of %llu bytes at byte %llu, too short for an offset",
			    (unsigned long long)size, (unsigned long long)r->off);
	return section(r, num(r, b, 8), &id, &flags, &len, "a section");
}

/* Version 7: a buffer option, the data of each CPU in the file */
static int option_buffer(struct rd *r, uint64_t size)
{
	uint64_t start = r->off, end = r->off + size, n, cpu, off, len, i;
	char s[MAX_STRING];

	if (get_num(r, 8, &off, "a buffer option") ||
	    section(r, off, &cpu, &len, &n, "the section of a buffer") ||
	    get_str(r, s, sizeof(s), "the name of a buffer") ||
	    get_str(r, s, sizeof(s), "the clock of a buffer") ||
	    skip(r, 4, "the page size of a buffer") ||
	    count(r, &n, MAX_CPUS, "CPUs of a buffer"))
		return -1;
	for (i = 0; i < n; i++) {
		if (get_num(r, 4, &cpu, "a CPU of a buffer") ||
		    get_num(r, 8, &off, "the offset of a CPU's data") ||
		    get_num(r, 8, &len, "the size of a CPU's data") ||
		    cpu_data(r, cpu, off, len))
			return -1;
	}
	if (r->off > end)
		return fail(r, "not a trace.dat: the buffer option at byte %llu is longer than its size",
			    (unsigned long long)start);
	return 0;
}

/* Version 7: the options sections, from the first one's offset on */
static int check_v7(struct rd *r)
{
	uint64_t next, id, flags, size, opt, len, end, start, i, k;
	unsigned char b[8];
	char s[MAX_STRING];

	if (get_str(r, s, 64, "the compression algorithm") ||
	    get_str(r, s, 64, "the compression version") ||
	    get_num(r, 8, &next, "the offset of the options"))
		return -1;
	for (k = 0; next; k++) {
		if (k == MAX_SECTIONS)
			return fail(r, "not a trace.dat: more than %u options sections",
				    MAX_SECTIONS);
		if (section(r, next, &id, &flags, &size, "an options section"))
			return -1;
		if (id != OPT_DONE)
			return fail(r, "not a trace.dat: the section at byte %llu is not an options section",
				    (unsigned long long)next);
		/* checked for its size only: no decompression here */
		if (flags & SEC_FL_COMPRESS)
			return 0;
		r->off = next + 16;
		end = r->off + size;
		next = 0;
		for (i = 0; r->off < end; i++) {
			if (i == MAX_ITEMS)
				return fail(r, "not a trace.dat: more than %u options",
					    MAX_ITEMS);
			if (get_num(r, 2, &opt, "an option") ||
			    get_num(r, 4, &len, "an option"))
				return -1;
			if (r->off > end || len > end - r->off)
				return cut(r, r->off, len, "an option");
			if (opt == OPT_DONE) {
				if (len < 8 || get(r, b, 8, "the last option"))
					return fail(r, "not a trace.dat: the last option of the section at byte %llu has no offset",
						    (unsigned long long)(end - size - 16));
				next = num(r, b, 8);
				/* forward only: a loop would never end */
				if (next && next <= end - size - 16)
					return fail(r, "not a trace.dat: the options section at byte %llu points back to byte %llu",
						    (unsigned long long)(end - size - 16),
						    (unsigned long long)next);
				break;
			}
			start = r->off;
			if (opt == OPT_BUFFER) {
				if (option_buffer(r, len))
					return -1;
			} else if (opt >= OPT_HEADER_INFO && opt <= OPT_BUFFER_TEXT) {
				if (get_at(r, r->off, b, len < 8 ? len : 8, "an option") ||
				    option_section(r, b, len))
					return -1;
			}
			r->off = start + len;
		}
	}
	return 0;
}

static int check(struct rd *r)
{
	unsigned char b[6];
	char version[16];
	uint64_t page;
	unsigned long v;
	char *end;

	if (get(r, version, sizeof(magic), "the magic") ||
	    memcmp(version, magic, sizeof(magic)))
		return fail(r, "not a trace.dat (no \"\\027\\010Dtracing\" at its start)");
	if (get_str(r, version, sizeof(version), "the version"))
		return -1;
	errno = 0;
	v = strtoul(version, &end, 10);
	if (*end || end == version || errno || v < 6 || v > 7)
		return fail(r, "trace.dat version \"%.15s\": only versions 6 and 7 are read",
			    version);
	if (get(r, b, 2, "the endianness and long size"))
		return -1;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8))
		return fail(r, "not a trace.dat: endianness %u, long size %u",
			    b[0], b[1]);
	r->big = b[0];
	if (get_num(r, 4, &page, "the page size"))
		return -1;
	if (page < 512 || page > (1u << 24) || (page & (page - 1)))
		return fail(r, "not a trace.dat: page size %llu",
			    (unsigned long long)page);
	return v == 6 ? check_v6(r) : check_v7(r);
}

int kmsg_tracedat_check_buf(const void *buf, size_t len, const char *name,
			    char *err, size_t errlen)
{
	struct rd r = {
		.fd = -1, .buf = buf, .size = len, .name = name,
		.err = err, .errlen = errlen,
	};

	return check(&r);
}

int kmsg_tracedat_check(const char *path, char *err, size_t errlen)
{
	struct rd r = { .name = path, .err = err, .errlen = errlen };
	struct stat stb;
	int ret;

	r.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r.fd < 0)
		return fail(&r, "%s", strerror(errno));
	if (fstat(r.fd, &stb)) {
		ret = errno;
		close(r.fd);
		return fail(&r, "%s", strerror(ret));
	}
	if (!S_ISREG(stb.st_mode)) {
		close(r.fd);
		return fail(&r, "%s", S_ISDIR(stb.st_mode) ?
			    "is a directory, not a trace.dat" :
			    "not a regular file, not a trace.dat");
	}
	r.size = stb.st_size;
	ret = check(&r);
	close(r.fd);
	return ret;
}
