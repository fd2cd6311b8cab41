// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuilding the text of a kmsg message
 */
#include <errno.h>
#include <string.h>

#include "kmsg_text.h"

int kmsg_msg_text(struct kmsg_strbuf *out, const struct kmsg_msg *msg,
		  const char *fmt, const struct kmsg_render_opts *opts,
		  struct kmsg_args *args)
{
	size_t start = out->len, max;
	int ret = 0, r;

	if (msg->driver.len &&
	    (kmsg_strbuf_putn(out, msg->driver.s, msg->driver.len) ||
	     kmsg_strbuf_putc(out, ' ') ||
	     kmsg_strbuf_putn(out, msg->device.s, msg->device.len) ||
	     kmsg_strbuf_putn(out, ": ", 2)))
		return -ENOMEM;
	if (kmsg_strbuf_putn(out, msg->component.s, msg->component.len) ||
	    kmsg_strbuf_putc(out, '.') ||
	    kmsg_strbuf_putu(out, msg->number, 0, ' ') ||
	    kmsg_strbuf_putn(out, ": ", 2))
		return -ENOMEM;
	ret = kmsg_args_decode(msg->fmt.s, msg->fmt.len, msg->args,
			       msg->args_len, opts, args);
	if (ret < 0)
		return ret;
	if (fmt)
		r = kmsg_render(out, fmt, strlen(fmt), args, opts);
	else
		r = kmsg_render(out, msg->fmt.s, msg->fmt.len, args, opts);
	if (r < 0)
		return r;
	ret += r;
	/* printk()'s limit applies to the original text only */
	max = msg->driver.len ? KMSG_TEXT_MAX : KMSG_TEXT_MAX_PLAIN;
	if (!fmt && out->len - start > max) {
		out->len = start + max;
		out->buf[out->len] = '\0';
	}
	return ret;
}
