// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output of kmsg messages
 */
#include <errno.h>
#include <string.h>

#include "kmsg_json.h"

static const char * const level_names[8] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

const char *kmsg_level_name(unsigned int level)
{
	return level < 8 ? level_names[level] : "unknown";
}

static int json_arg(struct kmsg_strbuf *out, const struct kmsg_arg *a)
{
	char c;

	switch (a->type) {
	case KMSG_ARG_SIGNED:
		return kmsg_strbuf_printf(out, "{\"type\":\"int\",\"value\":%lld}",
					  a->s) < 0;
	case KMSG_ARG_UNSIGNED:
		return kmsg_strbuf_printf(out, "{\"type\":\"uint\",\"value\":%llu}",
					  a->u) < 0;
	case KMSG_ARG_CHAR:
		c = (char)a->s;
		if (kmsg_strbuf_puts(out, "{\"type\":\"char\",\"value\":") ||
		    kmsg_json_str(out, &c, 1))
			return -ENOMEM;
		return kmsg_strbuf_putc(out, '}');
	case KMSG_ARG_STRING:
	case KMSG_ARG_RENDERED:
		if (kmsg_strbuf_printf(out, "{\"type\":\"%s\",\"value\":",
				       a->type == KMSG_ARG_STRING ? "string" :
				       "rendered") < 0 ||
		    kmsg_json_str(out, a->str ? a->str : "", a->str_len))
			return -ENOMEM;
		return kmsg_strbuf_putc(out, '}');
	case KMSG_ARG_POINTER:
		return kmsg_strbuf_printf(out, "{\"type\":\"pointer\",\"value\":\"0x%llx\"}",
					  a->u) < 0;
	default:
		return kmsg_strbuf_puts(out, "{\"type\":\"none\"}");
	}
}

int kmsg_json_args(struct kmsg_strbuf *out, const struct kmsg_args *args)
{
	int i;

	if (kmsg_strbuf_putc(out, '['))
		return -ENOMEM;
	for (i = 0; i < args->n; i++) {
		if (args->v[i].type == KMSG_ARG_NONE)
			continue;
		if ((out->buf[out->len - 1] != '[' && kmsg_strbuf_putc(out, ',')) ||
		    json_arg(out, &args->v[i]))
			return -ENOMEM;
	}
	return kmsg_strbuf_putc(out, ']') ? -ENOMEM : 0;
}

int kmsg_json_msg(struct kmsg_strbuf *out, const struct kmsg_msg *m,
		  const struct kmsg_ids *ids, const char *comm,
		  const char *text, size_t text_len,
		  const struct kmsg_args *args)
{
	const char *id = kmsg_ids_id(ids), *comp;
	size_t comp_len;
	int bad = 0;

	comp = kmsg_ids_component(ids, &comp_len);
	bad |= kmsg_strbuf_printf(out, "{\"timestamp\":%llu.%06llu,",
				  m->ts / 1000000000ULL,
				  m->ts % 1000000000ULL / 1000) < 0;
	if (m->version >= 2 && m->seq != KMSG_SEQ_UNKNOWN)
		bad |= kmsg_strbuf_printf(out, "\"seq\":%llu,", m->seq) < 0;
	bad |= kmsg_strbuf_printf(out, "\"cpu\":%d,\"pid\":%d,\"comm\":",
				  m->cpu, m->pid) < 0;
	bad |= kmsg_json_str(out, comm ? comm : "", comm ? strlen(comm) : 0);
	bad |= kmsg_strbuf_printf(out, ",\"level\":%u,\"level_name\":\"%s\",\"component\":",
				  m->level, kmsg_level_name(m->level)) < 0;
	bad |= kmsg_json_str(out, comp, comp_len);
	if (ids->curated[0])
		bad |= kmsg_strbuf_printf(out, ",\"number\":%u", ids->number) < 0;
	if (m->version >= 2) {
		bad |= kmsg_strbuf_puts(out, ",\"modname\":");
		bad |= kmsg_json_str(out, m->modname.s, m->modname.len);
	}
	if (kmsg_ids_auto(ids)) {
		bad |= kmsg_strbuf_puts(out, ",\"auto_id\":");
		bad |= kmsg_json_str(out, ids->automatic, strlen(ids->automatic));
	}
	if (id) {
		bad |= kmsg_strbuf_puts(out, ",\"id\":");
		bad |= kmsg_json_str(out, id, strlen(id));
	}
	bad |= kmsg_strbuf_puts(out, ",\"format\":");
	bad |= kmsg_json_str(out, m->fmt.s, m->fmt.len);
	if (m->flags & KMSG_EVENT_WRAPPED) {
		bad |= kmsg_strbuf_puts(out, ",\"wrapper_format\":");
		bad |= kmsg_json_str(out, m->wrap_fmt.s, m->wrap_fmt.len);
	}
	bad |= kmsg_strbuf_puts(out, ",\"args\":");
	bad |= kmsg_json_args(out, args);
	bad |= kmsg_strbuf_puts(out, ",\"text\":");
	bad |= kmsg_json_str(out, text, text_len);
	if (m->device.len) {
		bad |= kmsg_strbuf_puts(out, ",\"device\":");
		bad |= kmsg_json_str(out, m->device.s, m->device.len);
		bad |= kmsg_strbuf_puts(out, ",\"driver\":");
		bad |= kmsg_json_str(out, m->driver.s, m->driver.len);
	}
	bad |= kmsg_strbuf_printf(out, ",\"truncated\":%s}",
				  m->flags & KMSG_EVENT_TRUNCATED ? "true" :
				  "false") < 0;
	return bad ? -ENOMEM : 0;
}
