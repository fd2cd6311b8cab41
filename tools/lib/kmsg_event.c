// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding kmsg:kmsg trace records with libtraceevent
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "kmsg_event.h"
#include "kmsg_render.h"

static struct tep_format_field *field(struct tep_event *event, const char *name,
				      bool dynamic, char *err, size_t errlen)
{
	struct tep_format_field *f = tep_find_field(event, name);

	if (!f) {
		snprintf(err, errlen, "kmsg:kmsg has no field '%s'", name);
		return NULL;
	}
	if (!!(f->flags & TEP_FIELD_IS_DYNAMIC) != dynamic ||
	    (dynamic && f->size != 4) || (!dynamic && f->size > 8)) {
		snprintf(err, errlen, "kmsg:kmsg field '%s' has an unknown layout",
			 name);
		return NULL;
	}
	return f;
}

/* A field of a layout without a version field: where it goes */
struct layout_field {
	const char *name;
	bool dynamic;
	size_t at;	/* offsetof(struct kmsg_event, ...) */
};

#define LF(f, dyn) { #f, dyn, offsetof(struct kmsg_event, f) }
#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

/* Layout 4: no version field; the wrapper in fields of its own */
static const struct layout_field layout4[] = {
	LF(seq, false), LF(level, false), LF(flags, false), LF(args, true),
	LF(wrap_args, true), LF(modname, true), LF(fmt, true),
	LF(wrap_fmt, true),
};

/*
 * Layout 5: layout 4 with two dynamic fields fewer: args holds the
 * wrapper's arguments after the message's, from word wrap_at on, and fmt
 * the wrapper's format after its own NUL
 */
static const struct layout_field layout5[] = {
	LF(seq, false), LF(level, false), LF(flags, false), LF(wrap_at, false),
	LF(args, true), LF(modname, true), LF(fmt, true),
};

/*
 * Layout 6: layout 5 without wrap_at: fmt holds the formats of the
 * wrappers after the message's, args the arguments of the outermost
 * wrapper with those of the message of its first %pV in line
 */
static const struct layout_field layout6[] = {
	LF(seq, false), LF(level, false), LF(flags, false), LF(args, true),
	LF(modname, true), LF(fmt, true),
};

/* The fields of every record are known: each must be there */
static int init_layout(struct kmsg_event *ev, struct tep_event *e,
		       unsigned int layout, const struct layout_field *lf,
		       size_t n, char *err, size_t errlen)
{
	struct tep_format_field *f;
	size_t i;

	for (i = 0; i < n; i++) {
		f = field(e, lf[i].name, lf[i].dynamic, err, errlen);
		if (!f)
			return -1;
		memcpy((char *)ev + lf[i].at, &f, sizeof(f));
	}
	ev->layout = layout;
	return 0;
}

int kmsg_event_init(struct kmsg_event *ev, struct tep_handle *tep,
		    char *err, size_t errlen)
{
	struct tep_event *e = tep_find_event_by_name(tep, "kmsg", "kmsg");

	memset(ev, 0, sizeof(*ev));
	if (!e) {
		snprintf(err, errlen, "no kmsg:kmsg event (is the kernel patched?)");
		return -1;
	}
	ev->tep = tep;
	ev->event = e;
	ev->native = tep_is_file_bigendian(tep) == !!tep_is_bigendian();
	/* read as the other fields are: a load, not a call */
	ev->common_type = tep_find_common_field(e, "common_type");
	ev->common_pid = tep_find_common_field(e, "common_pid");
	if (ev->common_type && (ev->common_type->size != 2 ||
				ev->common_type->offset != 0))
		ev->common_type = NULL;
	if (ev->common_pid && (ev->common_pid->size != 4 ||
			       ev->common_pid->offset < 0))
		ev->common_pid = NULL;
	if (!tep_find_field(e, "version")) {
		if (tep_find_field(e, "wrap_fmt") || tep_find_field(e, "wrap_args"))
			return init_layout(ev, e, 4, layout4, NFIELDS(layout4),
					   err, errlen);
		if (tep_find_field(e, "wrap_at"))
			return init_layout(ev, e, 5, layout5, NFIELDS(layout5),
					   err, errlen);
		return init_layout(ev, e, 6, layout6, NFIELDS(layout6), err,
				   errlen);
	}
	if (!(ev->ip = field(e, "ip", false, err, errlen)) ||
	    !(ev->version = field(e, "version", false, err, errlen)) ||
	    !(ev->level = field(e, "level", false, err, errlen)) ||
	    !(ev->flags = field(e, "flags", false, err, errlen)) ||
	    !(ev->number = field(e, "number", false, err, errlen)) ||
	    !(ev->args = field(e, "args", true, err, errlen)) ||
	    !(ev->component = field(e, "component", true, err, errlen)) ||
	    !(ev->fmt = field(e, "fmt", true, err, errlen)) ||
	    !(ev->driver = field(e, "driver", true, err, errlen)) ||
	    !(ev->device = field(e, "device", true, err, errlen)))
		return -1;
	/* version 2's fields: a version 1 format has neither */
	if (tep_find_field(e, "seq") &&
	    !(ev->seq = field(e, "seq", false, err, errlen)))
		return -1;
	if (tep_find_field(e, "modname") &&
	    !(ev->modname = field(e, "modname", true, err, errlen)))
		return -1;
	/* version 3's */
	if (tep_find_field(e, "wrap_fmt") &&
	    !(ev->wrap_fmt = field(e, "wrap_fmt", true, err, errlen)))
		return -1;
	if (tep_find_field(e, "wrap_args") &&
	    !(ev->wrap_args = field(e, "wrap_args", true, err, errlen)))
		return -1;
	return 0;
}

static int get_num(const struct kmsg_event *ev, struct tep_record *rec,
		   struct tep_format_field *f, unsigned long long *val);

bool kmsg_event_match(const struct kmsg_event *ev, struct tep_record *rec)
{
	unsigned long long type;

	if (rec->size < 2)
		return false;
	if (!ev->common_type)
		return tep_data_type(ev->tep, rec) == ev->event->id;
	return !get_num(ev, rec, ev->common_type, &type) &&
	       type == (unsigned long long)ev->event->id;
}

/* A fixed field, bounds-checked */
static int get_num(const struct kmsg_event *ev, struct tep_record *rec,
		   struct tep_format_field *f, unsigned long long *val)
{
	const char *p = (const char *)rec->data + f->offset;
	uint32_t v4;
	uint16_t v2;

	if (f->offset < 0 || f->size <= 0 ||
	    (long long)f->offset + f->size > rec->size)
		return -1;
	/* the host's order: a load, not a call (7 fields a record) */
	if (ev->native) {
		switch (f->size) {
		case 1:
			*val = *(const uint8_t *)p;
			return 0;
		case 2:
			memcpy(&v2, p, 2);
			*val = v2;
			return 0;
		case 4:
			memcpy(&v4, p, 4);
			*val = v4;
			return 0;
		case 8:
			memcpy(val, p, 8);
			return 0;
		}
	}
	*val = tep_read_number(ev->tep, p, f->size);
	return 0;
}

/* A __data_loc field: offset in the low 16 bits, length in the high 16 */
static int get_loc(const struct kmsg_event *ev, struct tep_record *rec,
		   struct tep_format_field *f, const unsigned char **data,
		   size_t *len)
{
	unsigned long long loc;
	unsigned int off, n;

	if (get_num(ev, rec, f, &loc))
		return -1;
	off = loc & 0xffff;
	n = (loc >> 16) & 0xffff;
	if ((size_t)off + n > (size_t)rec->size)
		return -1;
	*data = (const unsigned char *)rec->data + off;
	*len = n;
	return 0;
}

/*
 * A __string field: must end in its NUL within the record. With @next,
 * also what follows the first string's NUL, or "": layout 5's fmt holds
 * the wrapper's format there, layout 6's the formats of the wrappers,
 * each after the NUL of the one before (@chain: all of them).
 */
static int get_strs(const struct kmsg_event *ev, struct tep_record *rec,
		    struct tep_format_field *f, struct kmsg_str *str,
		    struct kmsg_str *next, bool chain)
{
	const unsigned char *data;
	size_t len, at;

	if (get_loc(ev, rec, f, &data, &len) || !len || data[len - 1])
		return -1;
	str->s = (const char *)data;
	str->len = strnlen(str->s, len - 1);
	if (next) {
		at = str->len + 1;
		next->s = at < len ? (const char *)data + at : "";
		next->len = at >= len ? 0 : chain ? len - at - 1 :
			    strnlen(next->s, len - at - 1);
	}
	return 0;
}

static int get_str(const struct kmsg_event *ev, struct tep_record *rec,
		   struct tep_format_field *f, struct kmsg_str *str)
{
	return get_strs(ev, rec, f, str, NULL, false);
}

/*
 * Layout 6: the arguments of the message, in line in its wrappers'. Each
 * wrapper's arguments up to its first %pV, then from the next 4-byte
 * boundary on those of the next wrapper, the message's after the last.
 * False if a wrapper has no %pV the kernel stores in line, its arguments
 * are not all there (a truncated record) or there are more wrappers than
 * the kernel records.
 */
static bool chain_args(const struct kmsg_event *ev, struct kmsg_msg *msg)
{
	struct kmsg_render_opts o = { .long_size = tep_get_long_size(ev->tep) };
	const char *f = msg->wrap_fmt.s, *end = f + msg->wrap_fmt.len;
	size_t pos = 0, start, stop, n;
	unsigned int depth = 0;
	struct kmsg_args *a;
	bool ok = false;

	a = malloc(sizeof(*a));
	if (!a)
		return false;
	for (; f <= end; f += n + 1) {
		n = strnlen(f, end - f);
		if (++depth > KMSG_EVENT_WRAP_MAX ||
		    !kmsg_pv_find(f, n, &start, &stop) ||
		    kmsg_args_decode(f, start, msg->wrap_args + pos,
				     msg->wrap_args_len - pos, &o, a))
			goto out;
		pos = kmsg_align4(pos + a->used);
		if (pos > msg->wrap_args_len)
			goto out;
	}
	msg->args = msg->wrap_args + pos;
	kmsg_args_decode(msg->fmt.s, msg->fmt.len, msg->args,
			 msg->wrap_args_len - pos, &o, a);
	msg->args_len = a->used;
	ok = true;
out:
	free(a);
	return ok;
}

/*
 * Version 4: the driver and the device of a device message, the first two
 * arguments of its wrapper ("%s %s: %pV"); left empty if they are not
 * both in wrap_args with their NULs
 */
static void dev_of_wrapper(struct kmsg_msg *msg)
{
	struct kmsg_args *a;

	a = malloc(sizeof(*a));
	if (!a)
		return;
	/* only the two strings: the rest of the wrapper is not looked at */
	if (!kmsg_args_decode(msg->wrap_fmt.s, 5, msg->wrap_args,
			      msg->wrap_args_len, NULL, a) && a->n == 2 &&
	    a->v[0].type == KMSG_ARG_STRING && a->v[0].status == KMSG_ARG_OK &&
	    a->v[1].type == KMSG_ARG_STRING && a->v[1].status == KMSG_ARG_OK) {
		msg->driver.s = a->v[0].str;
		msg->driver.len = a->v[0].str_len;
		msg->device.s = a->v[1].str;
		msg->device.len = a->v[1].str_len;
	}
	free(a);
}

static int bad(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "corrupt kmsg record: %s", what);
	return -1;
}

int kmsg_event_decode(const struct kmsg_event *ev, struct tep_record *rec,
		      struct kmsg_msg *msg, char *err, size_t errlen)
{
	unsigned long long v;

	memset(msg, 0, sizeof(*msg));
	msg->ts = rec->ts;
	msg->cpu = rec->cpu;
	if (rec->size < 8)
		return bad(err, errlen, "shorter than its header");
	if (!ev->common_pid)
		v = (unsigned int)tep_data_pid(ev->tep, rec);
	else if (get_num(ev, rec, ev->common_pid, &v))
		return bad(err, errlen, "pid outside the record");
	msg->pid = (int)(unsigned int)v;

	if (ev->layout) {
		msg->version = ev->layout;
	} else {
		if (get_num(ev, rec, ev->version, &v))
			return bad(err, errlen, "version field outside the record");
		msg->version = v;
		if (msg->version < 1 || msg->version > KMSG_EVENT_VERSIONED) {
			snprintf(err, errlen, "kmsg record of unknown version %u (this tool knows 1 to %d in a version field)",
				 msg->version, KMSG_EVENT_VERSIONED);
			return -1;
		}
	}
	if (msg->version >= 2 && (!ev->seq || !ev->modname)) {
		snprintf(err, errlen, "kmsg record of version %u, but its event format has no %s field",
			 msg->version, ev->seq ? "modname" : "seq");
		return -1;
	}
	if (msg->version >= 3 && msg->version != 6 && !ev->wrap_at &&
	    (!ev->wrap_fmt || !ev->wrap_args)) {
		snprintf(err, errlen, "kmsg record of version %u, but its event format has no %s field",
			 msg->version, ev->wrap_fmt ? "wrap_args" : "wrap_fmt");
		return -1;
	}
	if ((ev->ip && get_num(ev, rec, ev->ip, &msg->ip)) ||
	    get_num(ev, rec, ev->level, &v))
		return bad(err, errlen, "field outside the record");
	msg->level = v & 7;
	if (get_num(ev, rec, ev->flags, &v))
		return bad(err, errlen, "field outside the record");
	msg->flags = v;
	if (ev->number && get_num(ev, rec, ev->number, &v))
		return bad(err, errlen, "field outside the record");
	msg->number = ev->number ? v : 0;
	msg->seq = KMSG_SEQ_UNKNOWN;
	if (msg->version >= 2) {
		if (get_num(ev, rec, ev->seq, &msg->seq))
			return bad(err, errlen, "field outside the record");
		if (get_str(ev, rec, ev->modname, &msg->modname))
			return bad(err, errlen, "modname outside the record or unterminated");
	}

	if (get_loc(ev, rec, ev->args, &msg->args, &msg->args_len))
		return bad(err, errlen, "arguments outside the record");
	msg->component.s = msg->driver.s = msg->device.s = "";
	if (ev->component && get_str(ev, rec, ev->component, &msg->component))
		return bad(err, errlen, "component outside the record or unterminated");
	msg->wrap_fmt.s = "";
	/* layouts 5 and 6: the wrappers' formats after the message's */
	if (get_strs(ev, rec, ev->fmt, &msg->fmt,
		     msg->version >= 5 ? &msg->wrap_fmt : NULL,
		     msg->version == 6))
		return bad(err, errlen, "format outside the record or unterminated");
	if (ev->driver && (get_str(ev, rec, ev->driver, &msg->driver) ||
			   get_str(ev, rec, ev->device, &msg->device)))
		return bad(err, errlen, "device outside the record or unterminated");
	if (ev->wrap_at) {
		if (get_num(ev, rec, ev->wrap_at, &v))
			return bad(err, errlen, "field outside the record");
		if (v * 4 > msg->args_len)
			return bad(err, errlen, "wrap_at past the arguments");
		msg->wrap_args = msg->args + v * 4;
		msg->wrap_args_len = msg->args_len - v * 4;
		msg->args_len = v * 4;
	} else if (msg->version == 6) {
		if (msg->flags & KMSG_EVENT_WRAPPED) {
			msg->wrap_args = msg->args;
			msg->wrap_args_len = msg->args_len;
			/* none for the message, nor after it */
			if (!chain_args(ev, msg)) {
				msg->args += msg->args_len;
				msg->args_len = 0;
			}
		}
	} else if (msg->version >= 3) {
		if (get_str(ev, rec, ev->wrap_fmt, &msg->wrap_fmt))
			return bad(err, errlen, "wrapper format outside the record or unterminated");
		if (get_loc(ev, rec, ev->wrap_args, &msg->wrap_args,
			    &msg->wrap_args_len))
			return bad(err, errlen, "wrapper arguments outside the record");
	}
	if (!(msg->flags & KMSG_EVENT_WRAPPED))
		msg->wrap_fmt.len = msg->wrap_args_len = 0;
	else if (msg->version < 3)
		return bad(err, errlen, "a wrapped message in a record of version 2");
	if (kmsg_msg_dev_wrapper(msg))
		dev_of_wrapper(msg);
	return 0;
}

int kmsg_tep_lookup(void *ctx, unsigned long long addr, const char **name,
		    unsigned long long *offset, unsigned long long *size,
		    const char **module)
{
	unsigned long long start;
	unsigned long sz;

	/* it returns 1 when found (libtraceevent 1.7), so look at name */
	*name = NULL;
	tep_find_function_info(ctx, addr, name, &start, &sz);
	if (!*name)
		return -1;
	*offset = addr - start;
	*size = sz;
	*module = NULL;
	return 0;
}
