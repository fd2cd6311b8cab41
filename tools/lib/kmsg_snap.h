/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_snap - a file of arrays kept for a later run: the matcher that
 * kmsg dmesg builds over a database's sites, so that the next run maps
 * it instead of building it again.
 *
 * A snapshot is made for one database file, identified by its device,
 * inode, size and modification time, and for one build of kmsg (a
 * signature of the layouts it stores, given by the caller).  It holds
 * blobs, each an array of one element size under a tag, and a pool of
 * NUL-terminated strings that the blobs refer to by offset.  The file is
 * written to a temporary name and renamed, so a reader sees a whole one
 * or none.  Reading checks the header, the blob table and a checksum of
 * the whole content: a snapshot that is not exactly what was written,
 * or not for this database and this build, is not used.  The caller
 * still checks every index and offset it takes from a blob.
 */
#ifndef KMSG_SNAP_H
#define KMSG_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- writing ---- */
struct kmsg_snap_writer;

struct kmsg_snap_writer *kmsg_snap_writer_new(void);
void kmsg_snap_writer_free(struct kmsg_snap_writer *w);
/* The offset of @s in the pool (added once): a uint32_t */
uint32_t kmsg_snap_str(struct kmsg_snap_writer *w, const char *s);
/* Add the @n elements of @size bytes at @v under @tag (copied) */
void kmsg_snap_add(struct kmsg_snap_writer *w, uint32_t tag, const void *v,
		   size_t n, size_t size);
/* What identifies a database file: taken before its sites are read */
struct kmsg_snap_id {
	uint64_t dev, ino, size;
	int64_t mtime_sec, mtime_nsec;
};

/* @db_path's identity in @id: false if it cannot be had */
bool kmsg_snap_id(const char *db_path, struct kmsg_snap_id *id);

/*
 * Write the snapshot of database @db_path as it was when its identity was
 * @id, for build @sig, to @path (through a temporary file beside it). 0,
 * or -1.
 */
int kmsg_snap_write(struct kmsg_snap_writer *w, const char *path,
		    const char *db_path, const struct kmsg_snap_id *id,
		    uint64_t sig);

/* ---- reading ---- */
struct kmsg_snap;

/* The snapshot at @path if it is one of the database @id for @sig */
struct kmsg_snap *kmsg_snap_open(const char *path,
				 const struct kmsg_snap_id *id, uint64_t sig);
void kmsg_snap_close(struct kmsg_snap *s);
/*
 * The blob @tag of elements of @size bytes: its elements, their number in
 * *@n; NULL if there is none or its size differs.  Read-only (a mapping
 * of the file), 8-byte aligned, valid until kmsg_snap_close().
 */
const void *kmsg_snap_get(const struct kmsg_snap *s, uint32_t tag,
			  size_t size, size_t *n);
/* The string at offset @off of the pool, NULL if @off is not one */
const char *kmsg_snap_string(const struct kmsg_snap *s, uint32_t off);

/*
 * The file a database's snapshot is kept in: $KMSG_CACHE_DIR, else
 * $XDG_CACHE_HOME/kmsg, else ~/.cache/kmsg, and a name from the
 * database's absolute path.  false if there is no such directory to use
 * (KMSG_CACHE_DIR="" turns snapshots off).
 */
bool kmsg_snap_path(const char *db_path, char *buf, size_t size);

#endif
