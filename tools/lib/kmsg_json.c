// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output of kmsg messages
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
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
		return kmsg_strbuf_putlit(out, "{\"type\":\"int\",\"value\":") ||
		       kmsg_strbuf_puti(out, a->s) ||
		       kmsg_strbuf_putc(out, '}') ? -ENOMEM : 0;
	case KMSG_ARG_UNSIGNED:
		return kmsg_strbuf_putlit(out, "{\"type\":\"uint\",\"value\":") ||
		       kmsg_strbuf_putu(out, a->u, 0, ' ') ||
		       kmsg_strbuf_putc(out, '}') ? -ENOMEM : 0;
	case KMSG_ARG_CHAR:
		c = (char)a->s;
		return kmsg_strbuf_putlit(out, "{\"type\":\"char\",\"value\":") ||
		       kmsg_json_str(out, &c, 1) ||
		       kmsg_strbuf_putc(out, '}') ? -ENOMEM : 0;
	case KMSG_ARG_STRING:
		return kmsg_strbuf_putlit(out, "{\"type\":\"string\",\"value\":") ||
		       kmsg_json_str(out, a->str ? a->str : "", a->str_len) ||
		       kmsg_strbuf_putc(out, '}') ? -ENOMEM : 0;
	case KMSG_ARG_RENDERED:
		return kmsg_strbuf_putlit(out, "{\"type\":\"rendered\",\"value\":") ||
		       kmsg_json_str(out, a->str ? a->str : "", a->str_len) ||
		       kmsg_strbuf_putc(out, '}') ? -ENOMEM : 0;
	case KMSG_ARG_POINTER:
		return kmsg_strbuf_putlit(out, "{\"type\":\"pointer\",\"value\":\"0x") ||
		       kmsg_strbuf_putx(out, a->u) ||
		       kmsg_strbuf_putlit(out, "\"}") ? -ENOMEM : 0;
	default:
		return kmsg_strbuf_putlit(out, "{\"type\":\"none\"}");
	}
}

int kmsg_json_args(struct kmsg_strbuf *out, const struct kmsg_args *args)
{
	bool first = true;
	int i;

	if (kmsg_strbuf_putc(out, '['))
		return -ENOMEM;
	for (i = 0; i < args->n; i++) {
		if (args->v[i].type == KMSG_ARG_NONE)
			continue;
		if ((!first && kmsg_strbuf_putc(out, ',')) ||
		    json_arg(out, &args->v[i]))
			return -ENOMEM;
		first = false;
	}
	return kmsg_strbuf_putc(out, ']') ? -ENOMEM : 0;
}

/* The fields that a message's site gives: the same for each of its messages */
static int json_site(struct kmsg_strbuf *out, const struct kmsg_msg *m,
		     const struct kmsg_ids *ids)
{
	const char *id = kmsg_ids_id(ids), *comp;
	size_t comp_len;
	int bad = 0;

	comp = kmsg_ids_component(ids, &comp_len);
	bad |= kmsg_strbuf_putlit(out, "\",\"component\":");
	bad |= kmsg_json_str(out, comp, comp_len);
	if (ids->curated[0]) {
		bad |= kmsg_strbuf_putlit(out, ",\"number\":");
		bad |= kmsg_strbuf_putu(out, ids->number, 0, ' ');
	}
	if (m->version >= 2) {
		bad |= kmsg_strbuf_putlit(out, ",\"modname\":");
		bad |= kmsg_json_str(out, m->modname.s, m->modname.len);
	}
	if (kmsg_ids_auto(ids)) {
		bad |= kmsg_strbuf_putlit(out, ",\"auto_id\":");
		bad |= kmsg_json_str(out, ids->automatic, strlen(ids->automatic));
	}
	if (id) {
		bad |= kmsg_strbuf_putlit(out, ",\"id\":");
		bad |= kmsg_json_str(out, id, strlen(id));
	}
	/* identified from text: no format when no site was */
	if (m->fmt.s || !m->origin) {
		bad |= kmsg_strbuf_putlit(out, ",\"format\":");
		bad |= kmsg_json_str(out, m->fmt.s, m->fmt.len);
	}
	if (m->flags & KMSG_EVENT_WRAPPED) {
		struct kmsg_strbuf w = { 0 };

		bad |= kmsg_strbuf_putlit(out, ",\"wrapper_format\":");
		bad |= kmsg_msg_wrapper_fmt(&w, m);
		bad |= kmsg_json_str(out, w.buf ? w.buf : "", w.len);
		kmsg_strbuf_free(&w);
	}
	return bad ? -ENOMEM : 0;
}

/*
 * The inputs of json_site(), each as its length and its bytes: @put
 * appends them to @key, else they are compared with @key from *@pos on.
 * The id is not among them: the curated and automatic ids make it.
 */
static inline bool key_part(struct kmsg_strbuf *key, size_t *pos, bool put,
			    const void *p, size_t len)
{
	size_t had;

	if (put)
		return !kmsg_strbuf_putn(key, (const char *)&len, sizeof(len)) &&
		       (!len || !kmsg_strbuf_putn(key, p, len));
	if (key->len - *pos < sizeof(len))
		return false;
	memcpy(&had, key->buf + *pos, sizeof(had));
	if (had != len || key->len - *pos - sizeof(len) < len ||
	    (len && memcmp(key->buf + *pos + sizeof(len), p, len)))
		return false;
	*pos += sizeof(len) + len;
	return true;
}

static bool site_key(struct kmsg_strbuf *key, bool put,
		     const struct kmsg_msg *m, const struct kmsg_ids *ids)
{
	const char *comp;
	unsigned int flags[3] = {
		m->version >= 2, m->flags & KMSG_EVENT_WRAPPED, ids->number,
	};
	size_t comp_len, pos = 0;
	bool ok;

	comp = kmsg_ids_component(ids, &comp_len);
	if (put)
		key->len = 0;
	ok = key_part(key, &pos, put, flags, sizeof(flags)) &&
	     key_part(key, &pos, put, comp, comp_len) &&
	     key_part(key, &pos, put, ids->curated, strlen(ids->curated)) &&
	     key_part(key, &pos, put, m->modname.s, m->modname.len) &&
	     key_part(key, &pos, put, ids->automatic,
		      kmsg_ids_auto(ids) ? strlen(ids->automatic) : 0) &&
	     key_part(key, &pos, put, m->fmt.s, m->fmt.len) &&
	     key_part(key, &pos, put, m->wrap_fmt.s, m->wrap_fmt.len);
	return ok && (put || pos == key->len);
}

/* json_site(), from @cache when the message's site is the last one's */
static int json_site_cached(struct kmsg_strbuf *out, struct kmsg_json_cache *c,
			    const struct kmsg_msg *m, const struct kmsg_ids *ids)
{
	if (!c)
		return json_site(out, m, ids);
	if (!c->valid || !site_key(&c->key, false, m, ids)) {
		c->valid = false;
		c->frag.len = 0;
		if (!site_key(&c->key, true, m, ids) ||
		    json_site(&c->frag, m, ids))
			return -ENOMEM;
		c->valid = true;
	}
	return kmsg_strbuf_putn(out, c->frag.buf, c->frag.len);
}

void kmsg_json_cache_free(struct kmsg_json_cache *cache)
{
	kmsg_strbuf_free(&cache->key);
	kmsg_strbuf_free(&cache->frag);
	cache->valid = false;
}

/* What a message identified from text has: how, and the record's device */
static int json_origin(struct kmsg_strbuf *out, const struct kmsg_msg_origin *o)
{
	int bad = 0;

	bad |= kmsg_strbuf_putlit(out, ",\"identified\":\"text\",\"match\":");
	bad |= kmsg_json_str(out, o->match ? o->match : "unidentified",
			     strlen(o->match ? o->match : "unidentified"));
	if (o->file) {
		bad |= kmsg_strbuf_putlit(out, ",\"source\":{\"file\":");
		bad |= kmsg_json_str(out, o->file, strlen(o->file));
		bad |= kmsg_strbuf_putlit(out, ",\"line\":");
		bad |= kmsg_strbuf_puti(out, o->line);
		bad |= kmsg_strbuf_putlit(out, ",\"function\":");
		bad |= kmsg_json_str(out, o->function ? o->function : "",
				     o->function ? strlen(o->function) : 0);
		bad |= kmsg_strbuf_putc(out, '}');
	}
	if (o->subsystem) {
		bad |= kmsg_strbuf_putlit(out, ",\"subsystem\":");
		bad |= kmsg_json_str(out, o->subsystem, strlen(o->subsystem));
	}
	if (o->kernel_device) {
		bad |= kmsg_strbuf_putlit(out, ",\"kernel_device\":");
		bad |= kmsg_json_str(out, o->kernel_device,
				     strlen(o->kernel_device));
	}
	if (o->facility > 0) {
		bad |= kmsg_strbuf_putlit(out, ",\"facility\":");
		bad |= kmsg_strbuf_puti(out, o->facility);
	}
	return bad;
}

int kmsg_json_msg(struct kmsg_strbuf *out, struct kmsg_json_cache *cache,
		  const struct kmsg_msg *m, const struct kmsg_ids *ids,
		  const char *comm, const char *text, size_t text_len,
		  const struct kmsg_args *args)
{
	int bad = 0;

	/* no printf: every number by hand, every literal by its length */
	bad |= kmsg_strbuf_putlit(out, "{\"timestamp\":");
	bad |= kmsg_strbuf_putu(out, m->ts / 1000000000ULL, 0, ' ');
	bad |= kmsg_strbuf_putc(out, '.');
	bad |= kmsg_strbuf_putu(out, m->ts % 1000000000ULL / 1000, 6, '0');
	if (m->version >= 2 && m->seq != KMSG_SEQ_UNKNOWN) {
		bad |= kmsg_strbuf_putlit(out, ",\"seq\":");
		bad |= kmsg_strbuf_putu(out, m->seq, 0, ' ');
	}
	/* a record of /dev/kmsg has no CPU and task */
	if (!m->origin) {
		bad |= kmsg_strbuf_putlit(out, ",\"cpu\":");
		bad |= kmsg_strbuf_puti(out, m->cpu);
		bad |= kmsg_strbuf_putlit(out, ",\"pid\":");
		bad |= kmsg_strbuf_puti(out, m->pid);
		bad |= kmsg_strbuf_putlit(out, ",\"comm\":");
		bad |= kmsg_json_str(out, comm ? comm : "", comm ? strlen(comm) : 0);
	}
	bad |= kmsg_strbuf_putlit(out, ",\"level\":");
	bad |= kmsg_strbuf_putu(out, m->level, 0, ' ');
	bad |= kmsg_strbuf_putlit(out, ",\"level_name\":\"");
	bad |= kmsg_strbuf_puts(out, kmsg_level_name(m->level));
	bad |= json_site_cached(out, cache, m, ids);
	bad |= kmsg_strbuf_putlit(out, ",\"args\":");
	bad |= kmsg_json_args(out, args);
	bad |= kmsg_strbuf_putlit(out, ",\"text\":");
	bad |= kmsg_json_str(out, text, text_len);
	if (m->device.len) {
		bad |= kmsg_strbuf_putlit(out, ",\"device\":");
		bad |= kmsg_json_str(out, m->device.s, m->device.len);
		bad |= kmsg_strbuf_putlit(out, ",\"driver\":");
		bad |= kmsg_json_str(out, m->driver.s, m->driver.len);
	}
	if (m->origin)
		bad |= json_origin(out, m->origin);
	if (m->flags & KMSG_EVENT_TRUNCATED)
		bad |= kmsg_strbuf_putlit(out, ",\"truncated\":true}");
	else
		bad |= kmsg_strbuf_putlit(out, ",\"truncated\":false}");
	return bad ? -ENOMEM : 0;
}

/* "Missed N kernel messages" in @b: its length */
static size_t missed_text(char *b, size_t size, unsigned long long missed)
{
	int n = snprintf(b, size, "Missed %llu kernel messages", missed);

	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

int kmsg_json_missed(struct kmsg_strbuf *out, unsigned long long ts,
		     const struct kmsg_missed *mi)
{
	char b[64];
	size_t len = missed_text(b, sizeof(b), mi->missed);
	int bad = 0;

	bad |= kmsg_strbuf_putlit(out, "{\"timestamp\":");
	bad |= kmsg_strbuf_putu(out, ts / 1000000000ULL, 0, ' ');
	bad |= kmsg_strbuf_putc(out, '.');
	bad |= kmsg_strbuf_putu(out, ts % 1000000000ULL / 1000, 6, '0');
	bad |= kmsg_strbuf_putlit(out, ",\"level\":4,\"level_name\":\"warn\",\"text\":");
	bad |= kmsg_json_str(out, b, len);
	bad |= kmsg_strbuf_putlit(out, ",\"missed\":");
	bad |= kmsg_strbuf_putu(out, mi->missed, 0, ' ');
	bad |= kmsg_strbuf_putlit(out, ",\"first_seq\":");
	bad |= kmsg_strbuf_putu(out, mi->first_seq, 0, ' ');
	bad |= kmsg_strbuf_putlit(out, ",\"last_seq\":");
	bad |= kmsg_strbuf_putu(out, mi->first_seq + mi->missed - 1, 0, ' ');
	bad |= kmsg_strbuf_puts(out, mi->overrun ? ",\"overrun\":true}" :
				",\"overrun\":false}");
	return bad ? -ENOMEM : 0;
}

/* ---- OpenTelemetry (OTLP/JSON) ----------------------------------------- */

/* The logs data model's appendix B: syslog severities */
static const unsigned char otlp_severity[8] = { 21, 19, 18, 17, 13, 10, 9, 5 };

unsigned int kmsg_otlp_severity(unsigned int level)
{
	return level < 8 ? otlp_severity[level] : 0;
}

/* {"key":"KEY","value":{"stringValue":"S"}}, after a comma unless first */
static int otlp_str(struct kmsg_strbuf *out, bool *first, const char *key,
		    const char *s, size_t len)
{
	int bad = 0;

	bad |= kmsg_strbuf_puts(out, *first ? "{\"key\":\"" : ",{\"key\":\"");
	bad |= kmsg_strbuf_puts(out, key);
	bad |= kmsg_strbuf_putlit(out, "\",\"value\":{\"stringValue\":");
	bad |= kmsg_json_str(out, s, len);
	bad |= kmsg_strbuf_putlit(out, "}}");
	*first = false;
	return bad;
}

/* An int64 attribute: a JSON string, as the protobuf JSON mapping has it */
static int otlp_int(struct kmsg_strbuf *out, bool *first, const char *key,
		    long long v)
{
	int bad = 0;

	bad |= kmsg_strbuf_puts(out, *first ? "{\"key\":\"" : ",{\"key\":\"");
	bad |= kmsg_strbuf_puts(out, key);
	bad |= kmsg_strbuf_putlit(out, "\",\"value\":{\"intValue\":\"");
	bad |= kmsg_strbuf_puti(out, v);
	bad |= kmsg_strbuf_putlit(out, "\"}}");
	*first = false;
	return bad;
}

/* One argument as an AnyValue: intValue when it fits int64, else text */
static int otlp_arg(struct kmsg_strbuf *out, const struct kmsg_arg *a)
{
	char c;

	switch (a->type) {
	case KMSG_ARG_SIGNED:
		return kmsg_strbuf_putlit(out, "{\"intValue\":\"") ||
		       kmsg_strbuf_puti(out, a->s) ||
		       kmsg_strbuf_putlit(out, "\"}") ? -ENOMEM : 0;
	case KMSG_ARG_UNSIGNED:
		if (a->u > (unsigned long long)LLONG_MAX)
			return kmsg_strbuf_putlit(out, "{\"stringValue\":\"") ||
			       kmsg_strbuf_putu(out, a->u, 0, ' ') ||
			       kmsg_strbuf_putlit(out, "\"}") ? -ENOMEM : 0;
		return kmsg_strbuf_putlit(out, "{\"intValue\":\"") ||
		       kmsg_strbuf_putu(out, a->u, 0, ' ') ||
		       kmsg_strbuf_putlit(out, "\"}") ? -ENOMEM : 0;
	case KMSG_ARG_CHAR:
		c = (char)a->s;
		return kmsg_strbuf_putlit(out, "{\"stringValue\":") ||
		       kmsg_json_str(out, &c, 1) ||
		       kmsg_strbuf_putc(out, '}') ? -ENOMEM : 0;
	case KMSG_ARG_STRING:
	case KMSG_ARG_RENDERED:
		return kmsg_strbuf_putlit(out, "{\"stringValue\":") ||
		       kmsg_json_str(out, a->str ? a->str : "", a->str_len) ||
		       kmsg_strbuf_putc(out, '}') ? -ENOMEM : 0;
	case KMSG_ARG_POINTER:
		return kmsg_strbuf_putlit(out, "{\"stringValue\":\"0x") ||
		       kmsg_strbuf_putx(out, a->u) ||
		       kmsg_strbuf_putlit(out, "\"}") ? -ENOMEM : 0;
	default:
		return kmsg_strbuf_putlit(out, "{}");
	}
}

/* The request up to the LogRecord's times: its resource and scope */
static int otlp_head(struct kmsg_strbuf *out, const struct kmsg_otlp *o,
		     unsigned long long ts)
{
	bool first = true;
	int bad = 0;

	bad |= kmsg_strbuf_putlit(out, "{\"resourceLogs\":[{\"resource\":{\"attributes\":[");
	bad |= otlp_str(out, &first, "os.type", "linux", 5);
	if (o->host)
		bad |= otlp_str(out, &first, "host.name", o->host,
				strlen(o->host));
	bad |= kmsg_strbuf_putlit(out, "]},\"scopeLogs\":[{\"scope\":{\"name\":\"kmsg\"},"
				  "\"logRecords\":[{");
	if (o->have_boot_time) {
		bad |= kmsg_strbuf_putlit(out, "\"timeUnixNano\":\"");
		bad |= kmsg_strbuf_putu(out, o->boot_ns + ts, 0, ' ');
		bad |= kmsg_strbuf_putlit(out, "\",");
	}
	bad |= kmsg_strbuf_putlit(out, "\"observedTimeUnixNano\":\"");
	bad |= kmsg_strbuf_putu(out, o->observed_ns, 0, ' ');
	return bad;
}

int kmsg_otlp_msg(struct kmsg_strbuf *out, const struct kmsg_otlp *o,
		  const struct kmsg_msg *m, const struct kmsg_ids *ids,
		  const char *comm, const char *text, size_t text_len,
		  const struct kmsg_args *args)
{
	const char *id = kmsg_ids_id(ids), *comp;
	bool first = true, afirst = true;
	size_t comp_len;
	int bad = 0, i;

	comp = kmsg_ids_component(ids, &comp_len);
	bad |= otlp_head(out, o, m->ts);
	bad |= kmsg_strbuf_putlit(out, "\",\"severityNumber\":");
	bad |= kmsg_strbuf_putu(out, kmsg_otlp_severity(m->level), 0, ' ');
	bad |= kmsg_strbuf_putlit(out, ",\"severityText\":\"");
	bad |= kmsg_strbuf_puts(out, kmsg_level_name(m->level));
	bad |= kmsg_strbuf_putlit(out, "\",\"body\":{\"stringValue\":");
	bad |= kmsg_json_str(out, text, text_len);
	bad |= kmsg_strbuf_putc(out, '}');
	if (id) {
		bad |= kmsg_strbuf_putlit(out, ",\"eventName\":");
		bad |= kmsg_json_str(out, id, strlen(id));
	}
	bad |= kmsg_strbuf_putlit(out, ",\"attributes\":[");
	first = true;
	if (id)
		bad |= otlp_str(out, &first, "kmsg.id", id, strlen(id));
	if (kmsg_ids_auto(ids))
		bad |= otlp_str(out, &first, "kmsg.auto_id", ids->automatic,
				strlen(ids->automatic));
	bad |= otlp_str(out, &first, "kmsg.component", comp, comp_len);
	if (ids->curated[0])
		bad |= otlp_int(out, &first, "kmsg.number", ids->number);
	if (m->version >= 2) {
		bad |= otlp_str(out, &first, "kmsg.modname", m->modname.s,
				m->modname.len);
		if (m->seq != KMSG_SEQ_UNKNOWN)
			bad |= otlp_int(out, &first, "kmsg.seq",
					(long long)m->seq);
	}
	bad |= otlp_str(out, &first, "kmsg.format", m->fmt.s, m->fmt.len);
	if (m->flags & KMSG_EVENT_WRAPPED) {
		struct kmsg_strbuf w = { 0 };

		bad |= kmsg_msg_wrapper_fmt(&w, m);
		bad |= otlp_str(out, &first, "kmsg.wrapper_format",
				w.buf ? w.buf : "", w.len);
		kmsg_strbuf_free(&w);
	}
	bad |= kmsg_strbuf_putlit(out, ",{\"key\":\"kmsg.args\",\"value\":{\"arrayValue\":{\"values\":[");
	for (i = 0; i < args->n; i++) {
		if (args->v[i].type == KMSG_ARG_NONE)
			continue;
		if (!afirst)
			bad |= kmsg_strbuf_putc(out, ',');
		bad |= otlp_arg(out, &args->v[i]);
		afirst = false;
	}
	bad |= kmsg_strbuf_putlit(out, "]}}}");
	bad |= kmsg_strbuf_putlit(out, ",{\"key\":\"kmsg.truncated\",\"value\":{\"boolValue\":");
	bad |= kmsg_strbuf_puts(out, m->flags & KMSG_EVENT_TRUNCATED ?
				"true}}" : "false}}");
	if (m->device.len) {
		bad |= otlp_str(out, &first, "kmsg.device", m->device.s,
				m->device.len);
		bad |= otlp_str(out, &first, "kmsg.driver", m->driver.s,
				m->driver.len);
	}
	if (o->description)
		bad |= otlp_str(out, &first, "kmsg.description", o->description,
				strlen(o->description));
	if (o->user_response)
		bad |= otlp_str(out, &first, "kmsg.user_response",
				o->user_response, strlen(o->user_response));
	if (m->origin) {
		const struct kmsg_msg_origin *g = m->origin;
		const char *match = g->match ? g->match : "unidentified";

		bad |= otlp_str(out, &first, "kmsg.identified", "text", 4);
		bad |= otlp_str(out, &first, "kmsg.match", match, strlen(match));
		if (g->file) {
			bad |= otlp_str(out, &first, "code.filepath", g->file,
					strlen(g->file));
			bad |= otlp_int(out, &first, "code.lineno", g->line);
			if (g->function)
				bad |= otlp_str(out, &first, "code.function",
						g->function, strlen(g->function));
		}
		if (g->subsystem)
			bad |= otlp_str(out, &first, "kmsg.subsystem",
					g->subsystem, strlen(g->subsystem));
		if (g->kernel_device)
			bad |= otlp_str(out, &first, "kmsg.kernel_device",
					g->kernel_device,
					strlen(g->kernel_device));
		if (g->facility > 0)
			bad |= otlp_int(out, &first, "kmsg.facility",
					g->facility);
	} else {
		bad |= otlp_int(out, &first, "cpu.logical_number", m->cpu);
		bad |= otlp_int(out, &first, "thread.id", m->pid);
		if (comm)
			bad |= otlp_str(out, &first, "thread.name", comm,
					strlen(comm));
	}
	bad |= kmsg_strbuf_putlit(out, "]}]}]}]}");
	return bad ? -ENOMEM : 0;
}

int kmsg_otlp_missed(struct kmsg_strbuf *out, const struct kmsg_otlp *o,
		     unsigned long long ts, const struct kmsg_missed *mi)
{
	bool first = true;
	char b[64];
	size_t len = missed_text(b, sizeof(b), mi->missed);
	int bad = 0;

	bad |= otlp_head(out, o, ts);
	bad |= kmsg_strbuf_putlit(out, "\",\"severityNumber\":");
	bad |= kmsg_strbuf_putu(out, kmsg_otlp_severity(4), 0, ' ');
	bad |= kmsg_strbuf_putlit(out, ",\"severityText\":\"warn\",\"body\":{\"stringValue\":");
	bad |= kmsg_json_str(out, b, len);
	bad |= kmsg_strbuf_putlit(out, "},\"attributes\":[");
	first = true;
	bad |= otlp_int(out, &first, "kmsg.missed", (long long)mi->missed);
	bad |= otlp_int(out, &first, "kmsg.first_seq", (long long)mi->first_seq);
	bad |= otlp_int(out, &first, "kmsg.last_seq",
			(long long)(mi->first_seq + mi->missed - 1));
	bad |= kmsg_strbuf_puts(out, mi->overrun ?
		",{\"key\":\"kmsg.overrun\",\"value\":{\"boolValue\":true}}" :
		",{\"key\":\"kmsg.overrun\",\"value\":{\"boolValue\":false}}");
	bad |= kmsg_strbuf_putlit(out, "]}]}]}]}");
	return bad ? -ENOMEM : 0;
}
