// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg messages as systemd journal entries (see kmsg_journal.h)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_journal.h"
#include "kmsg_render.h"

/* SHA-256 (FIPS 180-4), for MESSAGE_ID: the first 16 bytes of the hash */
static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) ((x) >> (n) | (x) << (32 - (n)))

static void sha256_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^
				    (w[i - 15] >> 3)) + w[i - 7] +
		       (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10));
	a = h[0], b = h[1], c = h[2], d = h[3];
	e = h[4], f = h[5], g = h[6], k = h[7];
	for (i = 0; i < 64; i++) {
		t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		     ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		k = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d;
	h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

void kmsg_journal_sha256(const void *data, size_t len, unsigned char out[32])
{
	uint32_t h[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	const unsigned char *p = data;
	unsigned char block[64];
	unsigned long long bits = (unsigned long long)len * 8;
	size_t rest;
	int i;

	for (; len >= 64; p += 64, len -= 64)
		sha256_block(h, p);
	rest = len;
	memcpy(block, p, rest);
	block[rest++] = 0x80;
	if (rest > 56) {
		memset(block + rest, 0, 64 - rest);
		sha256_block(h, block);
		rest = 0;
	}
	memset(block + rest, 0, 56 - rest);
	for (i = 0; i < 8; i++)
		block[56 + i] = bits >> (56 - 8 * i);
	sha256_block(h, block);
	for (i = 0; i < 32; i++)
		out[i] = h[i / 4] >> (24 - 8 * (i % 4));
}

void kmsg_journal_key_id(const char *key, char out[KMSG_JOURNAL_ID_LEN])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char sum[32];
	int i;

	kmsg_journal_sha256(key, strlen(key), sum);
	for (i = 0; i < 16; i++) {
		out[2 * i] = hex[sum[i] >> 4];
		out[2 * i + 1] = hex[sum[i] & 15];
	}
	out[32] = '\0';
}

void kmsg_journal_message_id(const char *id, char out[KMSG_JOURNAL_ID_LEN])
{
	char key[KMSG_ID_MAX + 8];

	snprintf(key, sizeof(key), "kmsg:%s", id);
	kmsg_journal_key_id(key, out);
}

void kmsg_journal_reset(struct kmsg_journal_entry *e)
{
	e->buf.len = 0;
	e->n = 0;
}

void kmsg_journal_free(struct kmsg_journal_entry *e)
{
	kmsg_strbuf_free(&e->buf);
	free(e->off);
	free(e->len);
	memset(e, 0, sizeof(*e));
}

static bool valid_name(const char *name)
{
	size_t i, n = strlen(name);

	if (!n || n > 64 || (name[0] >= '0' && name[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!((name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return false;
	return true;
}

int kmsg_journal_add(struct kmsg_journal_entry *e, const char *name,
		     const char *value, size_t len)
{
	size_t start = e->buf.len;

	if (!valid_name(name))
		return -EINVAL;
	if (e->n == e->cap) {
		int cap = e->cap ? 2 * e->cap : 32;
		size_t *off = realloc(e->off, cap * sizeof(*off));

		if (!off)
			return -ENOMEM;
		e->off = off;
		off = realloc(e->len, cap * sizeof(*off));
		if (!off)
			return -ENOMEM;
		e->len = off;
		e->cap = cap;
	}
	if (kmsg_strbuf_puts(&e->buf, name) || kmsg_strbuf_putc(&e->buf, '=') ||
	    kmsg_strbuf_putn(&e->buf, value, len))
		return -ENOMEM;
	e->off[e->n] = start;
	e->len[e->n] = e->buf.len - start;
	e->n++;
	return 0;
}

static int add_str(struct kmsg_journal_entry *e, const char *name,
		   const char *s)
{
	return kmsg_journal_add(e, name, s, strlen(s));
}

static int add_u(struct kmsg_journal_entry *e, const char *name,
		 unsigned long long v)
{
	char b[24];

	return kmsg_journal_add(e, name, b, snprintf(b, sizeof(b), "%llu", v));
}

static const char *arg_type(const struct kmsg_arg *a)
{
	switch (a->type) {
	case KMSG_ARG_SIGNED:
		return "int";
	case KMSG_ARG_UNSIGNED:
		return "uint";
	case KMSG_ARG_CHAR:
		return "char";
	case KMSG_ARG_STRING:
		return "string";
	case KMSG_ARG_RENDERED:
		return "rendered";
	case KMSG_ARG_POINTER:
		return "pointer";
	default:
		return NULL;
	}
}

/* KMSG_ARG_TYPES and KMSG_ARG_1..N, numbered as the JSON "args" array */
static int add_args(struct kmsg_journal_entry *e, const struct kmsg_args *args)
{
	char types[KMSG_ARGS_MAX * 9 + 1], name[24], b[24];
	size_t tl = 0;
	int i, k = 0, ret = 0, n;

	for (i = 0; i < args->n && !ret; i++) {
		const struct kmsg_arg *a = &args->v[i];
		const char *t = arg_type(a);
		char c;

		if (!t)
			continue;
		n = snprintf(types + tl, sizeof(types) - tl, "%s%s",
			     k ? "," : "", t);
		if (n > 0 && (size_t)n < sizeof(types) - tl)
			tl += n;
		snprintf(name, sizeof(name), "KMSG_ARG_%d", ++k);
		switch (a->type) {
		case KMSG_ARG_SIGNED:
			ret = kmsg_journal_add(e, name, b,
					       snprintf(b, sizeof(b), "%lld", a->s));
			break;
		case KMSG_ARG_UNSIGNED:
			ret = add_u(e, name, a->u);
			break;
		case KMSG_ARG_CHAR:
			c = (char)a->s;
			ret = kmsg_journal_add(e, name, &c, 1);
			break;
		case KMSG_ARG_POINTER:
			ret = kmsg_journal_add(e, name, b,
					       snprintf(b, sizeof(b), "0x%llx", a->u));
			break;
		default:
			ret = kmsg_journal_add(e, name, a->str ? a->str : "",
					       a->str ? a->str_len : 0);
			break;
		}
	}
	if (!ret && k)
		ret = kmsg_journal_add(e, "KMSG_ARG_TYPES", types, tl);
	return ret;
}

int kmsg_journal_msg(struct kmsg_journal_entry *e, const struct kmsg_msg *m,
		     const struct kmsg_ids *ids, const char *comm,
		     const char *text, size_t text_len,
		     const struct kmsg_args *args,
		     const struct kmsg_journal_code *code)
{
	const char *id = kmsg_ids_id(ids), *comp;
	char mid[KMSG_JOURNAL_ID_LEN], b[48];
	size_t comp_len;
	int ret;

	kmsg_journal_reset(e);
	comp = kmsg_ids_component(ids, &comp_len);
	ret = kmsg_journal_add(e, "MESSAGE", text, text_len) ||
	      add_u(e, "PRIORITY", m->level & 7) ||
	      add_u(e, "SYSLOG_FACILITY", m->origin && m->origin->facility > 0 ?
		    m->origin->facility : 0) ||
	      add_str(e, "SYSLOG_IDENTIFIER", KMSG_JOURNAL_IDENTIFIER);
	if (!ret && id) {
		kmsg_journal_message_id(id, mid);
		ret = add_str(e, "MESSAGE_ID", mid) || add_str(e, "KMSG_ID", id);
	}
	if (!ret && kmsg_ids_auto(ids))
		ret = add_str(e, "KMSG_AUTO_ID", ids->automatic);
	if (!ret)
		ret = kmsg_journal_add(e, "KMSG_COMPONENT", comp, comp_len);
	if (!ret && ids->curated[0])
		ret = add_u(e, "KMSG_NUMBER", ids->number);
	if (!ret && m->version >= 2 && m->modname.len)
		ret = kmsg_journal_add(e, "KMSG_MODNAME", m->modname.s,
				       m->modname.len);
	if (!ret && (m->fmt.s || !m->origin))
		ret = kmsg_journal_add(e, "KMSG_FORMAT", m->fmt.s, m->fmt.len);
	if (!ret && (m->flags & KMSG_EVENT_WRAPPED)) {
		struct kmsg_strbuf w = { 0 };

		ret = kmsg_msg_wrapper_fmt(&w, m);
		if (!ret)
			ret = kmsg_journal_add(e, "KMSG_WRAPPER_FORMAT",
					       w.buf ? w.buf : "", w.len);
		kmsg_strbuf_free(&w);
	}
	if (!ret && m->version >= 2 && m->seq != KMSG_SEQ_UNKNOWN)
		ret = add_u(e, "KMSG_SEQ", m->seq);
	if (!ret)
		ret = add_args(e, args);
	if (!ret)
		ret = kmsg_journal_add(e, "KMSG_TIMESTAMP", b,
				       snprintf(b, sizeof(b), "%llu.%06llu",
						m->ts / 1000000000ULL,
						m->ts % 1000000000ULL / 1000)) ||
		      (!m->origin && (add_u(e, "KMSG_CPU", m->cpu) ||
				      add_u(e, "KMSG_PID", m->pid)));
	if (!ret && comm && !m->origin)
		ret = add_str(e, "KMSG_COMM", comm);
	if (!ret && (m->flags & KMSG_EVENT_TRUNCATED))
		ret = add_str(e, "KMSG_TRUNCATED", "1");
	if (!ret && m->device.len)
		ret = kmsg_journal_add(e, "KMSG_DEVICE", m->device.s,
				       m->device.len) ||
		      kmsg_journal_add(e, "KMSG_DRIVER", m->driver.s,
				       m->driver.len);
	if (!ret && code && code->file && code->file[0])
		ret = add_str(e, "CODE_FILE", code->file) ||
		      (code->line > 0 && add_u(e, "CODE_LINE", code->line));
	if (!ret && code && code->func && code->func[0])
		ret = add_str(e, "CODE_FUNC", code->func);
	if (!ret && m->origin) {
		const struct kmsg_msg_origin *g = m->origin;

		ret = add_str(e, "KMSG_IDENTIFIED", "text") ||
		      add_str(e, "KMSG_MATCH", g->match ? g->match :
			      "unidentified") ||
		      (g->subsystem && add_str(e, "KMSG_SUBSYSTEM", g->subsystem)) ||
		      (g->kernel_device &&
		       add_str(e, "KMSG_KERNEL_DEVICE", g->kernel_device));
	}
	return ret ? -ENOMEM : 0;
}

int kmsg_journal_missed(struct kmsg_journal_entry *e,
			const struct kmsg_missed *mi)
{
	char mid[KMSG_JOURNAL_ID_LEN], b[64];
	int ret;

	kmsg_journal_reset(e);
	kmsg_journal_key_id(KMSG_JOURNAL_MISSED_KEY, mid);
	snprintf(b, sizeof(b), "Missed %llu kernel messages", mi->missed);
	ret = add_str(e, "MESSAGE", b) || add_str(e, "PRIORITY", "4") ||
	      add_str(e, "SYSLOG_FACILITY", "0") ||
	      add_str(e, "SYSLOG_IDENTIFIER", KMSG_JOURNAL_IDENTIFIER) ||
	      add_str(e, "MESSAGE_ID", mid) ||
	      add_u(e, "KMSG_MISSED", mi->missed) ||
	      add_u(e, "KMSG_MISSED_FIRST_SEQ", mi->first_seq) ||
	      add_u(e, "KMSG_MISSED_LAST_SEQ", mi->first_seq + mi->missed - 1) ||
	      (mi->overrun && add_str(e, "KMSG_OVERRUN", "1"));
	return ret ? -ENOMEM : 0;
}

int kmsg_journal_lost(struct kmsg_journal_entry *e, int cpu, long long missed)
{
	char mid[KMSG_JOURNAL_ID_LEN], b[96];
	int ret;

	kmsg_journal_reset(e);
	kmsg_journal_key_id(KMSG_JOURNAL_LOST_KEY, mid);
	if (missed > 0)
		snprintf(b, sizeof(b), "Missed %lld kernel messages on CPU %d",
			 missed, cpu);
	else
		snprintf(b, sizeof(b), "Missed kernel messages on CPU %d", cpu);
	ret = add_str(e, "MESSAGE", b) || add_str(e, "PRIORITY", "4") ||
	      add_str(e, "SYSLOG_FACILITY", "0") ||
	      add_str(e, "SYSLOG_IDENTIFIER", KMSG_JOURNAL_IDENTIFIER) ||
	      add_str(e, "MESSAGE_ID", mid) || add_u(e, "KMSG_CPU", cpu) ||
	      (missed > 0 && add_u(e, "KMSG_LOST", missed));
	return ret ? -ENOMEM : 0;
}

static bool needs_binary(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

int kmsg_journal_export(struct kmsg_strbuf *out,
			const struct kmsg_journal_entry *e,
			unsigned long long realtime_us,
			unsigned long long monotonic_us, const char *boot_id)
{
	int i, j, ret;

	ret = kmsg_strbuf_printf(out, "__REALTIME_TIMESTAMP=%llu\n",
				 realtime_us) < 0;
	if (!ret && boot_id)
		ret = kmsg_strbuf_printf(out, "__MONOTONIC_TIMESTAMP=%llu\n_BOOT_ID=%s\n",
					 monotonic_us, boot_id) < 0;
	for (i = 0; i < e->n && !ret; i++) {
		const char *f = e->buf.buf + e->off[i];
		size_t name_len = (const char *)memchr(f, '=', e->len[i]) - f;
		const char *v = f + name_len + 1;
		size_t vlen = e->len[i] - name_len - 1;
		unsigned long long l = vlen;

		if (!needs_binary(v, vlen)) {
			ret = kmsg_strbuf_putn(out, f, e->len[i]) ||
			      kmsg_strbuf_putc(out, '\n');
			continue;
		}
		ret = kmsg_strbuf_putn(out, f, name_len) ||
		      kmsg_strbuf_putc(out, '\n');
		for (j = 0; j < 8 && !ret; j++)
			ret = kmsg_strbuf_putc(out, (char)(l >> (8 * j)));
		ret = ret || kmsg_strbuf_putn(out, v, vlen) ||
		      kmsg_strbuf_putc(out, '\n');
	}
	if (!ret)
		ret = kmsg_strbuf_putc(out, '\n');
	return ret ? -ENOMEM : 0;
}

/* "@NAME@" at @s, which journalctl -x would replace by a field */
static bool catalog_var(const char *s)
{
	size_t n = 1;

	while ((s[n] >= 'A' && s[n] <= 'Z') || s[n] == '_')
		n++;
	return n > 1 && s[n] == '@';
}

int kmsg_journal_catalog_text(struct kmsg_strbuf *out, const char *s,
			      bool one_line)
{
	bool bol = true;
	int ret = 0;

	for (; *s && !ret; s++) {
		unsigned char c = *s;

		if (bol && !one_line &&
		    ((c == '-' && s[1] == '-') || c == '#' || c == ';'))
			ret = kmsg_strbuf_putc(out, ' ');
		bol = c == '\n';
		if (c == '@' && catalog_var(s))
			ret = ret || kmsg_strbuf_puts(out, "\xef\xbc\xa0");
		else if ((c < 0x20 && (one_line || c != '\n')) || c == 0x7f)
			ret = ret || kmsg_strbuf_putc(out, ' ');
		else
			ret = ret || kmsg_strbuf_putc(out, c);
	}
	return ret ? -ENOMEM : 0;
}
