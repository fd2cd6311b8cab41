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
 * for a plain message the two bytes of its KERN_<LEVEL> header count too.
 */
#define KMSG_TEXT_MAX		1023
#define KMSG_TEXT_MAX_PLAIN	1021

/*
 * Append to @out the text of @msg: "<driver> <device>: " for a device
 * message, "<component>.<number>: ", then the format rendered with the
 * record's arguments (decoded into @args), cut where printk() cut it; or,
 * when @fmt is given, that format instead (a translation), rendered with
 * the same arguments. Returns 0, the number of markers in the text, or
 * -ENOMEM.
 */
int kmsg_msg_text(struct kmsg_strbuf *out, const struct kmsg_msg *msg,
		  const char *fmt, const struct kmsg_render_opts *opts,
		  struct kmsg_args *args);

#endif /* KMSG_TEXT_H */
