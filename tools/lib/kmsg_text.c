// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuilding the text of a kmsg message
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_text.h"

/* "<component>.<number>: " */
static int put_curated(struct kmsg_strbuf *out, const struct kmsg_msg *msg)
{
	if (kmsg_strbuf_putn(out, msg->component.s, msg->component.len) ||
	    kmsg_strbuf_putc(out, '.') ||
	    kmsg_strbuf_putu(out, msg->number, 0, ' ') ||
	    kmsg_strbuf_putn(out, ": ", 2))
		return -ENOMEM;
	return 0;
}

/* Does the format start with "<id>: ", as a kmsg_*() site's does? */
static bool fmt_starts_with_id(const struct kmsg_msg *msg, const char *id)
{
	size_t n = strlen(id);

	return msg->fmt.len >= n + 2 && !memcmp(msg->fmt.s, id, n) &&
	       !memcmp(msg->fmt.s + n, ": ", 2);
}

/* Drop KERN_SOH and level or flag characters at @from of @out */
static void strip_level_headers(struct kmsg_strbuf *out, size_t from)
{
	size_t n = 0;

	while (from + n + 1 < out->len && out->buf[from + n] == '\001' &&
	       strchr("01234567c", out->buf[from + n + 1]) &&
	       out->buf[from + n + 1])
		n += 2;
	if (!n)
		return;
	memmove(out->buf + from, out->buf + from + n, out->len - from - n + 1);
	out->len -= n;
}

/*
 * Layout 6: the wrapper @f (@len bytes), the @depth'th of the record's,
 * rendered with its arguments from *@pos of wrap_args on, its first %pV
 * as the next wrapper, the last wrapper's as @text (the message,
 * rendered). Returns the markers emitted, or -ENOMEM, and sets *@pos past
 * the wrapper's arguments: to the end of wrap_args if where they end is
 * not known, so that no argument after them is taken from a wrong place.
 */
static int render_chain(struct kmsg_strbuf *out, const struct kmsg_msg *msg,
			const char *f, size_t len, unsigned int depth,
			size_t *pos, const char *text, size_t text_len,
			const struct kmsg_render_opts *opts,
			struct kmsg_args *a)
{
	const char *end = msg->wrap_fmt.s + msg->wrap_fmt.len;
	size_t start, stop, at = *pos, all = msg->wrap_args_len;
	int ret, r;

	/* a record gone wrong: the message at least */
	if (depth >= KMSG_EVENT_WRAP_MAX || !kmsg_pv_find(f, len, &start, &stop)) {
		*pos = all;
		return kmsg_strbuf_putn(out, text, text_len) ? -ENOMEM : 0;
	}
	/* its arguments up to its %pV, then those of what the %pV prints */
	kmsg_args_decode(f, start, msg->wrap_args + at, all - at, opts, a);
	ret = kmsg_render(out, f, start, a, opts);
	if (ret < 0)
		return ret;
	at = kmsg_align4(at + a->used);
	if (at > all)
		at = all;
	if (f + len < end) {
		r = render_chain(out, msg, f + len + 1,
				 strnlen(f + len + 1, end - f - len - 1),
				 depth + 1, &at, text, text_len, opts, a);
	} else {
		r = kmsg_strbuf_putn(out, text, text_len) ? -ENOMEM : 0;
		at = msg->args + msg->args_len - msg->wrap_args;
	}
	if (r < 0)
		return r;
	ret += r;
	/*
	 * then the rest of its own, from a word on; not in a record cut, in
	 * which the message's format may be, and where its arguments end is
	 * then not known
	 */
	at = kmsg_align4(at);
	if (at > all || (msg->flags & KMSG_EVENT_TRUNCATED))
		at = all;
	kmsg_args_decode(f + stop, len - stop, msg->wrap_args + at, all - at,
			 opts, a);
	*pos = at + a->used;
	r = kmsg_render(out, f + stop, len - stop, a, opts);
	return r < 0 ? r : ret + r;
}

/*
 * A wrapped message: @wrap_fmt rendered with its arguments, the first %pV
 * as @text (the message, rendered). Returns the markers emitted, or a
 * negative error.
 */
static int render_wrapper(struct kmsg_strbuf *out, const struct kmsg_msg *msg,
			  const char *text, size_t text_len,
			  const struct kmsg_render_opts *opts)
{
	struct kmsg_args *wrap;
	int ret, r, i;

	wrap = calloc(1, sizeof(*wrap));
	if (!wrap)
		return -ENOMEM;
	if (msg->version == 6) {
		size_t pos = 0;

		ret = render_chain(out, msg, msg->wrap_fmt.s,
				   strnlen(msg->wrap_fmt.s, msg->wrap_fmt.len),
				   0, &pos, text, text_len, opts, wrap);
		free(wrap);
		return ret;
	}
	ret = kmsg_args_decode(msg->wrap_fmt.s, msg->wrap_fmt.len,
			       msg->wrap_args, msg->wrap_args_len, opts, wrap);
	if (ret >= 0) {
		for (i = 0; i < wrap->n; i++) {
			struct kmsg_arg *a = &wrap->v[i];

			if (a->type == KMSG_ARG_RENDERED && a->ptr_ext == 'V' &&
			    a->status == KMSG_ARG_OK) {
				a->str = text;
				a->str_len = text_len;
				break;
			}
		}
		r = kmsg_render(out, msg->wrap_fmt.s, msg->wrap_fmt.len, wrap,
				opts);
		ret = r < 0 ? r : ret + r;
	}
	free(wrap);
	return ret;
}

int kmsg_msg_text_id(struct kmsg_strbuf *out, const struct kmsg_msg *msg,
		     const char *id, const char *fmt,
		     const struct kmsg_render_opts *opts,
		     struct kmsg_args *args)
{
	size_t start = out->len, added = 0, max, text_start;
	struct kmsg_strbuf inner = { 0 }, *dst, *head;
	struct kmsg_render_opts o = { 0 };
	bool wrapped;
	bool dev = msg->version < 2 ? msg->driver.len :
		msg->flags & KMSG_EVENT_DEVICE;
	/* version 4: the device layer's wrapper prints the device's prefix */
	bool prefix = dev && msg->version < 4;
	int ret = 0, r;

	if (prefix &&
	    (kmsg_strbuf_putn(out, msg->driver.s, msg->driver.len) ||
	     kmsg_strbuf_putc(out, ' ') ||
	     kmsg_strbuf_putn(out, msg->device.s, msg->device.len) ||
	     kmsg_strbuf_putn(out, ": ", 2)))
		return -ENOMEM;
	/* the id after the device's prefix: inside its wrapper's %pV */
	head = kmsg_msg_dev_wrapper(msg) ? &inner : out;
	if (fmt && id) {
		/* a translation: after the id given */
		if (kmsg_strbuf_puts(head, id) || kmsg_strbuf_putn(head, ": ", 2))
			goto nomem;
	} else if (msg->version < 2 || (fmt && msg->component.len)) {
		/* the prefix version 1's macros printed, not in its format */
		if (put_curated(head, msg))
			goto nomem;
	} else if (!fmt && id && !msg->component.len &&
		   !fmt_starts_with_id(msg, id)) {
		/* a kmsg_*() site prints its id, in its format */
		if (kmsg_strbuf_puts(head, id) || kmsg_strbuf_putn(head, ": ", 2))
			goto nomem;
		added = strlen(id) + 2;
	}
	/* pointers printk() printed as strings */
	if (opts)
		o = *opts;
	o.ptrval = msg->flags & KMSG_EVENT_PTRVAL;
	o.pk_error = msg->flags & KMSG_EVENT_PK_ERROR;
	opts = &o;
	ret = kmsg_args_decode(msg->fmt.s, msg->fmt.len, msg->args,
			       msg->args_len, opts, args);
	if (ret < 0) {
		kmsg_strbuf_free(&inner);
		return ret;
	}
	text_start = out->len;
	/* a wrapped message's text goes into its wrapper's */
	wrapped = msg->flags & KMSG_EVENT_WRAPPED;
	dst = wrapped ? &inner : out;
	if (fmt)
		r = kmsg_render(dst, fmt, strlen(fmt), args, opts);
	else
		r = kmsg_render(dst, msg->fmt.s, msg->fmt.len, args, opts);
	if (r >= 0 && wrapped) {
		ret += r;
		r = render_wrapper(out, msg, inner.buf ? inner.buf : "",
				   inner.len, opts);
	}
	kmsg_strbuf_free(&inner);
	if (r < 0)
		return r;
	ret += r;
	/* printk()'s limit applies to the original text only */
	max = (dev ? KMSG_TEXT_MAX : KMSG_TEXT_MAX_PLAIN) + added;
	if (!fmt && out->len - start > max) {
		out->len = start + max;
		out->buf[out->len] = '\0';
	}
	/*
	 * printk() parses a level header at the start of the text it
	 * formatted, also one that came in an argument (ACPI prints its
	 * messages as printk(KERN_CONT "%s", buf)), and does not log it
	 */
	if (msg->version >= 2 && !fmt && !prefix)
		strip_level_headers(out, text_start);
	/*
	 * printk() drops one newline at the end of the text: the format's,
	 * which is not recorded (flagged), else one from an argument (%s,
	 * %pV)
	 */
	if (msg->version >= 2 && !(msg->flags & KMSG_EVENT_NEWLINE) &&
	    out->len > start && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = '\0';
	return ret;
nomem:
	kmsg_strbuf_free(&inner);
	return -ENOMEM;
}

int kmsg_msg_text(struct kmsg_strbuf *out, const struct kmsg_msg *msg,
		  const char *fmt, const struct kmsg_render_opts *opts,
		  struct kmsg_args *args)
{
	return kmsg_msg_text_id(out, msg, NULL, fmt, opts, args);
}
