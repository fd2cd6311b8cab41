// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_snap - a file of arrays kept for a later run
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_snap.h"

/* out of memory: what no caller can go on from */
static void *xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		abort();
	p = realloc(p, n && size ? n * size : 1);
	if (!p)
		abort();
	return p;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		abort();
	return p;
}

#define MAGIC		"KMSGSNP1"
#define POOL_TAG	0
#define PATH_TAG	1	/* the database's absolute path */

struct hdr {
	char magic[8];
	uint64_t sig;
	uint64_t dev, ino, size;
	int64_t mtime_sec, mtime_nsec;
	uint64_t content;	/* bytes after the header */
	uint64_t sum;		/* their checksum */
	uint32_t nblobs, pad;
};

struct bent {
	uint32_t tag, size;	/* tag, element size */
	uint64_t off, n;	/* in the file; elements */
};

/* four lanes: a read of tens of megabytes at memory speed */
static uint64_t checksum(const unsigned char *p, size_t n)
{
	uint64_t h[4] = { 0x6b6d7367736e6170ull, 1, 2, 3 }, w;
	unsigned int k;

	for (; n >= 32; p += 32, n -= 32) {
		for (k = 0; k < 4; k++) {
			memcpy(&w, p + 8 * k, 8);
			h[k] = (h[k] ^ w) * 0x9e3779b97f4a7c15ull;
			h[k] ^= h[k] >> 29;
		}
	}
	for (k = 1; k < 4; k++)
		h[0] = (h[0] ^ h[k]) * 0x9e3779b97f4a7c15ull;
	while (n--)
		h[0] = (h[0] ^ *p++) * 0x100000001b3ull;
	return h[0];
}

bool kmsg_snap_id(const char *db_path, struct kmsg_snap_id *id)
{
	struct stat st;

	if (stat(db_path, &st))
		return false;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->size = (uint64_t)st.st_size;
	id->mtime_sec = st.st_mtim.tv_sec;
	id->mtime_nsec = st.st_mtim.tv_nsec;
	return true;
}

static void id_to_hdr(const struct kmsg_snap_id *id, struct hdr *h)
{
	h->dev = id->dev;
	h->ino = id->ino;
	h->size = id->size;
	h->mtime_sec = id->mtime_sec;
	h->mtime_nsec = id->mtime_nsec;
}

static bool same_id(const struct hdr *h, const struct kmsg_snap_id *id)
{
	return h->dev == id->dev && h->ino == id->ino && h->size == id->size &&
	       h->mtime_sec == id->mtime_sec && h->mtime_nsec == id->mtime_nsec;
}

/* ---- writing ---- */

struct blob {
	uint32_t tag, size;
	void *v;
	size_t n;
};

struct kmsg_snap_writer {
	struct blob *b;
	size_t nb, bcap;
	char *pool;
	size_t plen, pcap;
	uint32_t *slot;		/* the pool's strings by hash: offset + 1 */
	size_t nslot, used;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

struct kmsg_snap_writer *kmsg_snap_writer_new(void)
{
	struct kmsg_snap_writer *w = xcalloc(1, sizeof(*w));

	w->nslot = 1 << 16;
	w->slot = xcalloc(w->nslot, sizeof(*w->slot));
	kmsg_snap_str(w, "");
	return w;
}

void kmsg_snap_writer_free(struct kmsg_snap_writer *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nb; i++)
		free(w->b[i].v);
	free(w->b);
	free(w->pool);
	free(w->slot);
	free(w);
}

static void rehash(struct kmsg_snap_writer *w)
{
	size_t n = w->nslot * 2, i;
	uint32_t *v = xcalloc(n, sizeof(*v));

	for (i = 0; i < w->nslot; i++) {
		size_t h;

		if (!w->slot[i])
			continue;
		h = str_hash(w->pool + w->slot[i] - 1) & (n - 1);
		while (v[h])
			h = (h + 1) & (n - 1);
		v[h] = w->slot[i];
	}
	free(w->slot);
	w->slot = v;
	w->nslot = n;
}

uint32_t kmsg_snap_str(struct kmsg_snap_writer *w, const char *s)
{
	size_t h, len = strlen(s);
	uint32_t off;

	if (2 * (w->used + 1) > w->nslot)
		rehash(w);
	h = str_hash(s) & (w->nslot - 1);
	while (w->slot[h]) {
		if (!strcmp(w->pool + w->slot[h] - 1, s))
			return w->slot[h] - 1;
		h = (h + 1) & (w->nslot - 1);
	}
	if (w->plen + len + 1 >= UINT32_MAX - 1)
		abort();	/* 4 GiB of strings: no database has them */
	while (w->plen + len + 1 > w->pcap) {
		w->pcap = w->pcap ? 2 * w->pcap : 1 << 16;
		w->pool = xrealloc(w->pool, w->pcap, 1);
	}
	off = (uint32_t)w->plen;
	memcpy(w->pool + w->plen, s, len + 1);
	w->plen += len + 1;
	w->slot[h] = off + 1;
	w->used++;
	return off;
}

void kmsg_snap_add(struct kmsg_snap_writer *w, uint32_t tag, const void *v,
		   size_t n, size_t size)
{
	struct blob *b;

	if (w->nb == w->bcap) {
		w->bcap = w->bcap ? 2 * w->bcap : 16;
		w->b = xrealloc(w->b, w->bcap, sizeof(*w->b));
	}
	b = &w->b[w->nb++];
	b->tag = tag;
	b->size = (uint32_t)size;
	b->n = n;
	b->v = xrealloc(NULL, n * size + 1, 1);
	if (n)
		memcpy(b->v, v, n * size);
}

static uint64_t align8(uint64_t x)
{
	return (x + 7) & ~(uint64_t)7;
}

/*
 * Is the snapshot at @path one of a database that is still there, as it
 * was?  Only its header and the database's path are read.
 */
static bool current(const char *path)
{
	struct kmsg_snap_id want;
	struct hdr h;
	struct bent b;
	char db[PATH_MAX];
	bool ok = false;
	uint32_t i;
	FILE *f = fopen(path, "rb");

	if (!f)
		return false;
	if (fread(&h, sizeof(h), 1, f) != 1 || memcmp(h.magic, MAGIC, 8) ||
	    h.nblobs > 4096)
		goto out;
	for (i = 0; i < h.nblobs; i++) {
		if (fread(&b, sizeof(b), 1, f) != 1)
			goto out;
		if (b.tag == PATH_TAG && b.size == 1 && b.n && b.n < sizeof(db))
			break;
	}
	if (i == h.nblobs || fseek(f, (long)b.off, SEEK_SET) ||
	    fread(db, 1, b.n, f) != b.n || db[b.n - 1])
		goto out;
	ok = kmsg_snap_id(db, &want) && same_id(&h, &want);
out:
	fclose(f);
	return ok;
}

/*
 * Remove the snapshots beside @path whose database is gone or changed
 * (of a temporary database, or an older build of it): a cache must not
 * grow with every database ever read
 */
static void prune(const char *path)
{
	char dir[PATH_MAX], f[PATH_MAX + 256];
	const char *slash = strrchr(path, '/');
	struct dirent *e;
	DIR *dp;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	dp = opendir(dir);
	if (!dp)
		return;
	while ((e = readdir(dp))) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".snap"))
			continue;
		snprintf(f, sizeof(f), "%s/%s", dir, e->d_name);
		if (strcmp(f, path) && !current(f))
			unlink(f);
	}
	closedir(dp);
}

int kmsg_snap_write(struct kmsg_snap_writer *w, const char *path,
		    const char *db_path, const struct kmsg_snap_id *id,
		    uint64_t sig)
{
	struct hdr h = { .sig = sig };
	struct bent *t;
	unsigned char *buf;
	uint64_t off, total;
	char tmp[PATH_MAX + 32];
	size_t i, nb;
	int fd, ret = -1;
	ssize_t r;

	if (!realpath(db_path, tmp))
		return -1;
	id_to_hdr(id, &h);
	kmsg_snap_add(w, PATH_TAG, tmp, strlen(tmp) + 1, 1);
	nb = w->nb + 1;
	memcpy(h.magic, MAGIC, 8);
	h.nblobs = (uint32_t)nb;
	off = align8(sizeof(h) + nb * sizeof(*t));
	total = off;
	for (i = 0; i < w->nb; i++)
		total = align8(total + w->b[i].n * w->b[i].size);
	total = align8(total + w->plen);
	buf = calloc(1, total);
	if (!buf)
		return -1;
	t = (struct bent *)(buf + sizeof(h));
	for (i = 0; i < nb; i++) {
		const struct blob *b = i < w->nb ? &w->b[i] : NULL;
		size_t len = b ? b->n * b->size : w->plen;

		t[i].tag = b ? b->tag : POOL_TAG;
		t[i].size = b ? b->size : 1;
		t[i].n = b ? b->n : w->plen;
		t[i].off = off;
		if (len)
			memcpy(buf + off, b ? b->v : w->pool, len);
		off = align8(off + len);
	}
	h.content = total - sizeof(h);
	h.sum = checksum(buf + sizeof(h), h.content);
	memcpy(buf, &h, sizeof(h));
	/* a name of its own: another writer, a link planted there */
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto out;
	if (fchmod(fd, 0644)) {
		close(fd);
		unlink(tmp);
		goto out;
	}
	for (off = 0; off < total; off += (uint64_t)r) {
		r = write(fd, buf + off, total - off);
		if (r <= 0)
			break;
	}
	if (close(fd) || off < total || rename(tmp, path))
		unlink(tmp);
	else
		ret = 0;
out:
	free(buf);
	if (!ret)
		prune(path);
	return ret;
}

/* ---- reading ---- */

struct kmsg_snap {
	const unsigned char *map;
	size_t size;
	const struct bent *t;
	size_t nb;
	const char *pool;
	size_t plen;
};

struct kmsg_snap *kmsg_snap_open(const char *path,
				 const struct kmsg_snap_id *id, uint64_t sig)
{
	struct kmsg_snap *s = NULL;
	struct hdr h;
	struct stat st;
	void *map;
	size_t i;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || (uint64_t)st.st_size < sizeof(h) ||
	    (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return NULL;
	}
	/* all of it is read now (its checksum), never written */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
		   fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	memcpy(&h, map, sizeof(h));
	if (memcmp(h.magic, MAGIC, 8) || h.sig != sig || !same_id(&h, id) ||
	    h.content != (uint64_t)st.st_size - sizeof(h) ||
	    h.nblobs > h.content / sizeof(struct bent) ||
	    checksum((const unsigned char *)map + sizeof(h), h.content) != h.sum)
		goto bad;
	s = xcalloc(1, sizeof(*s));
	s->map = map;
	s->size = (size_t)st.st_size;
	s->t = (const struct bent *)(s->map + sizeof(h));
	s->nb = h.nblobs;
	for (i = 0; i < s->nb; i++) {
		const struct bent *b = &s->t[i];

		if (b->off % 8 || b->off < sizeof(h) + s->nb * sizeof(*b) ||
		    b->off > s->size || !b->size ||
		    b->n > (s->size - b->off) / b->size)
			goto bad;
		if (b->tag == POOL_TAG && b->size == 1) {
			s->pool = (const char *)s->map + b->off;
			s->plen = b->n;
		}
	}
	if (!s->plen || s->pool[s->plen - 1])
		goto bad;
	return s;
bad:
	free(s);
	munmap(map, (size_t)st.st_size);
	return NULL;
}

void kmsg_snap_close(struct kmsg_snap *s)
{
	if (!s)
		return;
	munmap((void *)s->map, s->size);
	free(s);
}

const void *kmsg_snap_get(const struct kmsg_snap *s, uint32_t tag,
			  size_t size, size_t *n)
{
	size_t i;

	for (i = 0; i < s->nb; i++) {
		if (s->t[i].tag != tag)
			continue;
		if (s->t[i].size != size)
			return NULL;
		*n = (size_t)s->t[i].n;
		return s->map + s->t[i].off;
	}
	return NULL;
}

const char *kmsg_snap_string(const struct kmsg_snap *s, uint32_t off)
{
	return off < s->plen ? s->pool + off : NULL;
}

static bool mkdirs(char *dir)
{
	char *p;

	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST) {
			*p = '/';
			return false;
		}
		*p = '/';
	}
	return !mkdir(dir, 0700) || errno == EEXIST;
}

bool kmsg_snap_path(const char *db_path, char *buf, size_t size)
{
	const char *env = getenv("KMSG_CACHE_DIR");
	char dir[PATH_MAX], abs[PATH_MAX];
	int n;

	if (env) {
		if (!env[0])
			return false;
		n = snprintf(dir, sizeof(dir), "%s", env);
	} else if ((env = getenv("XDG_CACHE_HOME")) && env[0] == '/') {
		n = snprintf(dir, sizeof(dir), "%s/kmsg", env);
	} else if ((env = getenv("HOME")) && env[0] == '/') {
		n = snprintf(dir, sizeof(dir), "%s/.cache/kmsg", env);
	} else {
		return false;
	}
	if (n < 0 || (size_t)n >= sizeof(dir) || !realpath(db_path, abs) ||
	    !mkdirs(dir))
		return false;
	n = snprintf(buf, size, "%s/%016llx.snap", dir,
		     (unsigned long long)str_hash(abs));
	return n > 0 && (size_t)n < size;
}
