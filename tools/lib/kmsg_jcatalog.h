/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The systemd journal catalog of a docs database (kmsg-doc
 * journal-catalog): DIR/kmsg.catalog, one entry per documented message,
 * keyed by the MESSAGE_ID of kmsg_journal.h, and one per automatic id it
 * documents (with the same text), so that journalctl -x explains entries
 * made with or without the database. A translated message has one more
 * entry per locale ("-- MESSAGEID de") for its id and the automatic id of
 * its format: the same text under the translated format as Subject.
 */
#ifndef KMSG_JCATALOG_H
#define KMSG_JCATALOG_H

/*
 * Write DIR/kmsg.catalog from the database @db (untrusted: its ids are
 * checked, and never become paths).  0, or 1 with the error on stderr.
 */
int kmsg_journal_catalog(const char *db, const char *dir);

#endif /* KMSG_JCATALOG_H */
