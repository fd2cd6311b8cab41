// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output of kmsg messages
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kmsg_json.h"

static const char * const level_names[8] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

const char *kmsg_level_name(unsigned int level)
{
	return level < 8 ? level_names[level] : "unknown";
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 */
static size_t utf8_len(const unsigned char *s, size_t len)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * The bytes that go into a JSON string as they are: printable ASCII but
 * '"' and '\\'. Every other byte takes the slow path below.
 */
static const unsigned char json_plain[256] = {
	/* ' ' to '~' but '"' (0x22) and '\\' (0x5c) */
	[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7e] = 1,
};

/* The longest escape of one byte: \u00XX */
#define JSON_ESC_MAX	6

static char *json_esc(char *d, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	*d++ = '\\';
	switch (c) {
	case '"':
	case '\\':
		*d++ = c;
		break;
	case '\n':
		*d++ = 'n';
		break;
	case '\t':
		*d++ = 't';
		break;
	default:
		/* control characters, DEL, and bytes that are not UTF-8 */
		*d++ = 'u';
		*d++ = '0';
		*d++ = '0';
		*d++ = hex[c >> 4];
		*d++ = hex[c & 15];
	}
	return d;
}

/*
 * Does one of the 8 bytes of @x need escaping (or UTF-8 checking): below
 * 0x20, '"', '\\', 0x7f or above? Each test is exact for "any byte".
 */
static inline bool word_special(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');

	return (((x - ones * 0x20) & ~x) |	/* < 0x20 */
		((q - ones) & ~q) |		/* == '"' */
		((b - ones) & ~b) |		/* == '\\' */
		((x & ~high) + ones) | x)	/* >= 0x7f */
		& high;
}

int kmsg_json_str(struct kmsg_strbuf *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;
	uint64_t w;
	char *d;

	/* room for the worst case, every byte escaped: one check */
	if (len > (SIZE_MAX - 2) / JSON_ESC_MAX ||
	    kmsg_strbuf_reserve(out, len * JSON_ESC_MAX + 2))
		return -ENOMEM;
	d = out->buf + out->len;
	*d++ = '"';
	while (i < len) {
		/* bytes that need no escaping: 8 at a time, then one by one */
		while (len - i >= 8) {
			memcpy(&w, s + i, 8);
			if (word_special(w))
				break;
			memcpy(d, &w, 8);
			d += 8;
			i += 8;
		}
		while (i < len && json_plain[s[i]])
			*d++ = s[i++];
		if (i == len)
			break;
		if (s[i] >= 0x80 && (n = utf8_len(s + i, len - i))) {
			memcpy(d, s + i, n);
			d += n;
			i += n;
		} else {
			d = json_esc(d, s[i++]);
		}
	}
	*d++ = '"';
	*d = '\0';
	out->len = d - out->buf;
	return 0;
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

int kmsg_json_msg(struct kmsg_strbuf *out, const struct kmsg_msg *m,
		  const struct kmsg_ids *ids, const char *comm,
		  const char *text, size_t text_len,
		  const struct kmsg_args *args)
{
	const char *id = kmsg_ids_id(ids), *comp;
	size_t comp_len;
	int bad = 0;

	/* no printf: every number by hand, every literal by its length */
	comp = kmsg_ids_component(ids, &comp_len);
	bad |= kmsg_strbuf_putlit(out, "{\"timestamp\":");
	bad |= kmsg_strbuf_putu(out, m->ts / 1000000000ULL, 0, ' ');
	bad |= kmsg_strbuf_putc(out, '.');
	bad |= kmsg_strbuf_putu(out, m->ts % 1000000000ULL / 1000, 6, '0');
	if (m->version >= 2 && m->seq != KMSG_SEQ_UNKNOWN) {
		bad |= kmsg_strbuf_putlit(out, ",\"seq\":");
		bad |= kmsg_strbuf_putu(out, m->seq, 0, ' ');
	}
	bad |= kmsg_strbuf_putlit(out, ",\"cpu\":");
	bad |= kmsg_strbuf_puti(out, m->cpu);
	bad |= kmsg_strbuf_putlit(out, ",\"pid\":");
	bad |= kmsg_strbuf_puti(out, m->pid);
	bad |= kmsg_strbuf_putlit(out, ",\"comm\":");
	bad |= kmsg_json_str(out, comm ? comm : "", comm ? strlen(comm) : 0);
	bad |= kmsg_strbuf_putlit(out, ",\"level\":");
	bad |= kmsg_strbuf_putu(out, m->level, 0, ' ');
	bad |= kmsg_strbuf_putlit(out, ",\"level_name\":\"");
	bad |= kmsg_strbuf_puts(out, kmsg_level_name(m->level));
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
	bad |= kmsg_strbuf_putlit(out, ",\"format\":");
	bad |= kmsg_json_str(out, m->fmt.s, m->fmt.len);
	if (m->flags & KMSG_EVENT_WRAPPED) {
		bad |= kmsg_strbuf_putlit(out, ",\"wrapper_format\":");
		bad |= kmsg_json_str(out, m->wrap_fmt.s, m->wrap_fmt.len);
	}
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
	if (m->flags & KMSG_EVENT_TRUNCATED)
		bad |= kmsg_strbuf_putlit(out, ",\"truncated\":true}");
	else
		bad |= kmsg_strbuf_putlit(out, ",\"truncated\":false}");
	return bad ? -ENOMEM : 0;
}
