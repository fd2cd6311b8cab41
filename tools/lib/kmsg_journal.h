/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg messages as systemd journal entries: the fields of one entry, built
 * once and then either sent to journald (sd_journal_sendv(), kmsg live
 * --journal) or written in the journal export format (--export), which
 * systemd-journal-remote turns into a journal file.  The fields are
 * documented in kmsg(1), section JOURNAL.
 *
 * MESSAGE_ID is derived from the identifier of the message alone, so that
 * the same message has the same MESSAGE_ID on every machine, in every
 * release and in every catalog: the first 16 bytes of the SHA-256 hash of
 * "kmsg:" and the identifier ("kmsg:kmsgtest.2"), as 32 lowercase hex
 * digits.  The entries reporting lost messages have the MESSAGE_ID of the
 * key "kmsg:lost" (no identifier has that form).
 */
#ifndef KMSG_JOURNAL_H
#define KMSG_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "kmsg_event.h"
#include "kmsg_id.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"

/* 32 hex digits and the NUL */
#define KMSG_JOURNAL_ID_LEN	33
/* SYSLOG_IDENTIFIER of kmsg's entries, against journald's "kernel" */
#define KMSG_JOURNAL_IDENTIFIER	"kmsg"
/* The key of the MESSAGE_ID of the entries reporting lost messages */
#define KMSG_JOURNAL_LOST_KEY	"kmsg:lost"
/*
 * The key of the MESSAGE_ID of the entries reporting records of /dev/kmsg
 * missed (kmsg dmesg --follow): KMSG_JOURNAL_MISSED_ID
 */
#define KMSG_JOURNAL_MISSED_KEY	"kmsg:missed"
#define KMSG_JOURNAL_MISSED_ID	"b29d0b39c13962a4c31e08963e719ac7"

/* The MESSAGE_ID of identifier @id ("kmsgtest.2") in @out */
void kmsg_journal_message_id(const char *id, char out[KMSG_JOURNAL_ID_LEN]);

/* The first 16 bytes of the SHA-256 of the string @key, in hex */
void kmsg_journal_key_id(const char *key, char out[KMSG_JOURNAL_ID_LEN]);

/* SHA-256 of @len bytes at @data */
void kmsg_journal_sha256(const void *data, size_t len, unsigned char out[32]);

/* The fields of one entry, "NAME=value" back to back in buf */
struct kmsg_journal_entry {
	struct kmsg_strbuf buf;
	size_t *off;		/* where field i starts in buf */
	size_t *len;		/* its length, "NAME=" included */
	int n, cap;
};

/* Where the message was printed, when known (else NULLs and 0) */
struct kmsg_journal_code {
	const char *file;
	int line;
	const char *func;
};

void kmsg_journal_reset(struct kmsg_journal_entry *e);
void kmsg_journal_free(struct kmsg_journal_entry *e);

/*
 * Add field @name (a valid journal field name: A-Z, 0-9 and '_', not
 * starting with a digit, at most 64 bytes) with @len bytes of @value.
 * 0, -EINVAL for a bad name, -ENOMEM.
 */
int kmsg_journal_add(struct kmsg_journal_entry *e, const char *name,
		     const char *value, size_t len);

/*
 * The entry of one message: @m decoded, @ids its identifiers, @text its
 * text as logged (@text_len bytes), @args its arguments (as the text was
 * rendered), @comm its task's name (NULL: unknown), @code its call site.
 * Resets @e first.
 */
int kmsg_journal_msg(struct kmsg_journal_entry *e, const struct kmsg_msg *m,
		     const struct kmsg_ids *ids, const char *comm,
		     const char *text, size_t text_len,
		     const struct kmsg_args *args,
		     const struct kmsg_journal_code *code);

/*
 * The entry reporting @missed lost messages on @cpu (@missed <= 0: an
 * unknown number), as journald's "Missed N kernel messages".
 */
int kmsg_journal_lost(struct kmsg_journal_entry *e, int cpu, long long missed);

/*
 * The entry reporting records of /dev/kmsg never read, as journald's
 * "Missed N kernel messages": KMSG_MISSED=N, the seqs missed, and
 * KMSG_OVERRUN=1 when the reader was overtaken
 */
int kmsg_journal_missed(struct kmsg_journal_entry *e,
			const struct kmsg_missed *mi);

/*
 * Text @s for a systemd catalog entry, appended to @out: journalctl -x
 * replaces "@NAME@" (NAME of A-Z and '_') by the entry's field NAME, so
 * such an '@' is written as U+FF20 (FULLWIDTH COMMERCIAL AT); a line
 * starting with "--" (another entry's header) or with '#' or ';' (a
 * comment, dropped) gets a space in front; control characters become
 * spaces, and with @one_line newlines too. -ENOMEM or 0.
 */
int kmsg_journal_catalog_text(struct kmsg_strbuf *out, const char *s,
			      bool one_line);

/*
 * Append @e in the journal export format to @out: the address fields
 * first (__REALTIME_TIMESTAMP from @realtime_us, and when @boot_id is
 * not NULL, _BOOT_ID and __MONOTONIC_TIMESTAMP from @monotonic_us), then
 * each field, as NAME=value or, for a value holding a control character,
 * in the binary form (NAME, newline, little-endian 64-bit length, the
 * bytes, newline), then the empty line that ends the entry.
 */
int kmsg_journal_export(struct kmsg_strbuf *out,
			const struct kmsg_journal_entry *e,
			unsigned long long realtime_us,
			unsigned long long monotonic_us, const char *boot_id);

#endif /* KMSG_JOURNAL_H */
