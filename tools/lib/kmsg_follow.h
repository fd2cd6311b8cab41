/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Following /dev/kmsg (kmsg dmesg --follow): what was read, what was
 * missed, and where to resume.
 *
 * Sequence numbers: every record of /dev/kmsg has one, one more than the
 * record before it. A reader that was overtaken gets EPIPE, and then the
 * oldest record still there: the records in between are lost to it, and
 * their count is the gap in sequence numbers. kmsg_follow_seq() counts
 * every gap, an overrun's or not, exactly; and skips records at or
 * before where a run resumes.
 *
 * The state file ("--state FILE") holds the boot id and the last seq
 * written, as two lines of text:
 *
 *	boot_id=0123456789abcdef0123456789abcdef
 *	seq=1234
 *
 * written to FILE.tmp and renamed over FILE (after the output it
 * accounts for is flushed): a reader sees the old state or the new one,
 * never a part.
 */
#ifndef KMSG_FOLLOW_H
#define KMSG_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>

/* 32 lowercase hex digits and the NUL */
#define KMSG_BOOT_ID_LEN	33

struct kmsg_follow {
	bool started;		/* @next is known */
	unsigned long long next;	/* the seq expected next */
	bool overrun;		/* read() failed with EPIPE since the last record */
	unsigned long long missed, overruns;	/* in all */
};

/* Returned by kmsg_follow_seq() for a record already written */
#define KMSG_FOLLOW_SKIP	(-1LL)

/* Resume after @last (the state file's seq) */
void kmsg_follow_resume(struct kmsg_follow *f, unsigned long long last);

/* read() failed with EPIPE: the next record's gap is an overrun's */
void kmsg_follow_overrun(struct kmsg_follow *f);

/*
 * A record of sequence number @seq was read: KMSG_FOLLOW_SKIP if it is
 * at or before the one expected less one (written already), else the
 * number of records missed before it (0: none), counted in @f->missed;
 * @first_missed (may be NULL) gets the first of them.
 */
long long kmsg_follow_seq(struct kmsg_follow *f, unsigned long long seq,
			  unsigned long long *first_missed);

/*
 * The boot id in @text (@len bytes: /proc/sys/kernel/random/boot_id,
 * "01234567-89ab-...\n"; dashes and one trailing newline allowed) as
 * 32 lowercase hex digits in @out. 0, or -1 if it is not one.
 */
int kmsg_boot_id_parse(const char *text, size_t len,
		       char out[KMSG_BOOT_ID_LEN]);

struct kmsg_follow_state {
	char boot_id[KMSG_BOOT_ID_LEN];
	unsigned long long seq;		/* the last written */
};

/*
 * Parse the state file's @len bytes at @text. 0, or -1 with why in @err
 * (the file is not one kmsg wrote: any other byte, a line missing, a
 * number out of range).
 */
int kmsg_follow_state_parse(const char *text, size_t len,
			    struct kmsg_follow_state *s, char *err,
			    size_t errlen);

/*
 * Read @path: 0, 1 if it does not exist, -1 with why in @err (prefixed
 * by nothing: the caller names the file).
 */
int kmsg_follow_state_read(const char *path, struct kmsg_follow_state *s,
			   char *err, size_t errlen);

/* Write @s to @path atomically (PATH.tmp, fsync, rename). 0 or -errno */
int kmsg_follow_state_write(const char *path,
			    const struct kmsg_follow_state *s);

#endif /* KMSG_FOLLOW_H */
