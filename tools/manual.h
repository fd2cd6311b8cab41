/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KMSG_MANUAL_H
#define KMSG_MANUAL_H

struct kmsg_docs;

/* DIR/man9/<id>.9 for every documented message, DIR/kmsg-manual.html */
int kmsg_manual(struct kmsg_docs *docs, const char *dir);

#endif /* KMSG_MANUAL_H */
