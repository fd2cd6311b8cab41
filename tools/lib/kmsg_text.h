/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text of a kmsg message as printk() printed it, rebuilt from a
 * decoded kmsg:kmsg record.
 */
#ifndef KMSG_TEXT_H
#define KMSG_TEXT_H

#include "kmsg_event.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"

/*
 * printk() keeps PRINTKRB_RECORD_MAX - 1 = 1023 bytes of formatted text;
 * for a plain message the two bytes of its KERN_<LEVEL> header count too
 * (so they do for a dev_printk() of a NULL device, which printk()s the
 * header as an argument).
 */
#define KMSG_TEXT_MAX		1023
#define KMSG_TEXT_MAX_PLAIN	1021

/*
 * Append to @out the text of @msg as the kernel logged it: "<driver>
 * <device>: " for a device message (version 2: flagged KMSG_EVENT_DEVICE,
 * else driver and device are not looked at; a dev_printk() of a NULL
 * device is recorded by the printk() of "%s(NULL device *): %pV" it
 * makes; version 4: printed by the device layer's wrapper, see
 * kmsg_msg_dev_wrapper()), then the format rendered with the record's
 * arguments (decoded into @args), cut where printk() cut it. A
 * version 1 record's "<component>.<number>: " comes before the format (the
 * kmsg_*() macros printed it); in version 2 it is part of the format.
 *
 * When @fmt is given, that format instead (a translation), rendered with
 * the same arguments, after "<component>.<number>: " if the record has a
 * curated id.
 *
 * Returns 0, the number of markers in the text, or -ENOMEM.
 */
int kmsg_msg_text(struct kmsg_strbuf *out, const struct kmsg_msg *msg,
		  const char *fmt, const struct kmsg_render_opts *opts,
		  struct kmsg_args *args);

/*
 * As kmsg_msg_text(), with every message showing its identifier @id
 * ("kmsgtest.2", "oom_kill.h923b9134") as "<id>: " where a kmsg_*()
 * site prints its id, after the device (version 4: at the start of the
 * device wrapper's %pV): a version 2 or later message that did not
 * print one gets @id there (not counted in printk()'s cut); a translation
 * comes after "<id>: ". @id NULL: as kmsg_msg_text().
 */
int kmsg_msg_text_id(struct kmsg_strbuf *out, const struct kmsg_msg *msg,
		     const char *id, const char *fmt,
		     const struct kmsg_render_opts *opts,
		     struct kmsg_args *args);

#endif /* KMSG_TEXT_H */
