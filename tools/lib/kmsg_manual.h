/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The message manual: DIR/man9/<id>.9 for every documented message of a
 * docs database, and DIR/kmsg-manual.html. Ids are checked against the
 * id grammar before they become file names, and escaped in roff and
 * HTML. Returns 0, or 1 after printing what went wrong to stderr.
 */
#ifndef KMSG_MANUAL_H
#define KMSG_MANUAL_H

struct kmsg_docs;

int kmsg_manual(struct kmsg_docs *docs, const char *dir);

#endif /* KMSG_MANUAL_H */
