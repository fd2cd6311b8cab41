// SPDX-License-Identifier: GPL-2.0
/*
 * The identifiers of kmsg messages: curated and automatic
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_id.h"

/* "<comp>.<number>" in @buf: its length, or -1 if it does not fit */
static int put_curated(char *buf, size_t size, const char *comp, size_t len,
		       unsigned int number)
{
	char digits[16];
	size_t n = 0, i;

	do {
		digits[n++] = '0' + number % 10;
		number /= 10;
	} while (number);
	if (len + 1 + n >= size)
		return -1;
	memcpy(buf, comp, len);
	buf[len] = '.';
	for (i = 0; i < n; i++)
		buf[len + 1 + i] = digits[n - 1 - i];
	buf[len + 1 + n] = '\0';
	return len + 1 + n;
}

/* "<comp>.h<8 hex digits>", or "<comp>.h????????" without @hash */
static int put_auto(char *buf, size_t size, const char *comp, size_t len,
		    const uint32_t *hash)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	if (len + 10 >= size)
		return -1;
	memcpy(buf, comp, len);
	buf[len] = '.';
	buf[len + 1] = 'h';
	for (i = 0; i < 8; i++)
		buf[len + 2 + i] = hash ? hex[*hash >> (28 - 4 * i) & 0xf] :
			KMSG_ID_HASH_UNKNOWN[i];
	buf[len + 10] = '\0';
	return len + 10;
}

int kmsg_auto_id(char *buf, size_t size, const char *modname,
		 size_t modname_len, const char *fmt, size_t fmt_len)
{
	uint32_t hash = kmsg_fmt_hash(fmt, fmt_len);

	if (!modname_len) {
		modname = KMSG_ID_VMLINUX;
		modname_len = strlen(KMSG_ID_VMLINUX);
	}
	return put_auto(buf, size, modname, modname_len, &hash);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * "comp.N" or, with @range, also "comp.N-M": 0 and the length of the
 * component in @comp_len, or -1.
 */
static int parse_curated(const char *s, bool range, size_t *comp_len,
			 unsigned int *lo, unsigned int *hi)
{
	const char *dot = strrchr(s, '.');
	unsigned long a, b;
	char *end;

	if (!dot || dot == s || !is_digit(dot[1]))
		return -1;
	errno = 0;
	a = strtoul(dot + 1, &end, 10);
	b = a;
	if (range && *end == '-') {
		if (!is_digit(end[1]))
			return -1;
		b = strtoul(end + 1, &end, 10);
	}
	if (errno || *end || b < a || b > UINT_MAX)
		return -1;
	*comp_len = dot - s;
	*lo = a;
	*hi = b;
	return 0;
}

/* "h" and 8 lowercase hex digits, and nothing else */
static bool is_auto_suffix(const char *s)
{
	int i;

	if (*s++ != 'h')
		return false;
	for (i = 0; i < 8; i++)
		if (!is_digit(s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			return false;
	return !s[8];
}

static bool is_component_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		c == '_' || c == '-';
}

bool kmsg_id_is_curated(const char *s)
{
	size_t n = strlen(s), k = 0, d;
	unsigned long long v = 0;

	if (n >= KMSG_ID_MAX)
		return false;
	while (is_component_char(s[k]))
		k++;
	if (!k || s[k] != '.')
		return false;
	d = ++k;
	if (s[d] == '0' && s[d + 1])
		return false;
	for (; is_digit(s[k]) && k - d < 10; k++)
		v = v * 10 + (unsigned int)(s[k] - '0');
	return k > d && !s[k] && v <= UINT_MAX;
}

bool kmsg_id_is_auto(const char *s)
{
	size_t n = strlen(s), k;

	if (n >= KMSG_ID_MAX || n < 11)
		return false;
	for (k = 0; k < n - 10; k++)
		if (!is_component_char(s[k]) || s[k] == '-')
			return false;
	return s[k] == '.' && is_auto_suffix(s + k + 1);
}

static int fail(char *err, size_t errlen, const char *why, const char *what)
{
	snprintf(err, errlen, "%s%s", why, what);
	return -1;
}

int kmsg_ids_set(struct kmsg_ids *ids, const char *curated,
		 const char *automatic)
{
	size_t len;
	unsigned int hi;
	const char *h;
	char *end;

	memset(ids, 0, sizeof(*ids));
	if (curated && *curated) {
		if (strlen(curated) >= sizeof(ids->curated) ||
		    !kmsg_id_is_curated(curated) ||
		    parse_curated(curated, false, &len, &ids->number, &hi))
			goto bad;
		strcpy(ids->curated, curated);
		ids->curated_comp_len = len;
	}
	if (automatic && *automatic) {
		h = strrchr(automatic, '.');
		if (strlen(automatic) >= sizeof(ids->automatic) ||
		    !kmsg_id_is_auto(automatic) || !h || h[1] != 'h')
			goto bad;
		errno = 0;
		ids->hash = strtoul(h + 2, &end, 16);
		if (errno || *end)
			goto bad;
		strcpy(ids->automatic, automatic);
		ids->auto_comp_len = h - automatic;
		ids->auto_known = true;
	}
	return 0;
bad:
	memset(ids, 0, sizeof(*ids));
	return -1;
}

int kmsg_msg_ids(const struct kmsg_msg *m, kmsg_alias_fn alias, void *ctx,
		 struct kmsg_ids *ids, char *err, size_t errlen)
{
	const char *comp = m->modname.s;
	size_t len = m->modname.len;
	char buf[KMSG_ID_MAX];
	unsigned int hi;
	int ret;

	ids->curated[0] = ids->automatic[0] = '\0';
	ids->curated_comp_len = ids->auto_comp_len = ids->number = 0;
	ids->hash = 0;
	ids->auto_known = false;

	/* curated: every version 1 record, a kmsg_*() site in version 2 */
	if (m->version < 2 || m->component.len) {
		if (put_curated(ids->curated, sizeof(ids->curated),
				m->component.s, m->component.len, m->number) < 0)
			return fail(err, errlen, "identifier too long: ",
				    "component");
		ids->curated_comp_len = m->component.len;
		ids->number = m->number;
	}
	if (m->version < 2)
		return 0;

	/*
	 * automatic: not when the format may have been cut, that is when
	 * a truncated record has a format of the kernel's limit
	 */
	if (!len) {
		comp = KMSG_ID_VMLINUX;
		len = strlen(KMSG_ID_VMLINUX);
	}
	ids->auto_known = !(m->flags & KMSG_EVENT_TRUNCATED) ||
		m->fmt.len < KMSG_EVENT_FMT_MAX;
	if (ids->auto_known)
		ids->hash = kmsg_fmt_hash(m->fmt.s, kmsg_msg_fmt_len(m));
	if (put_auto(ids->automatic, sizeof(ids->automatic), comp, len,
		     ids->auto_known ? &ids->hash : NULL) < 0)
		return fail(err, errlen, "identifier too long: ", "modname");
	ids->auto_comp_len = len;

	/* a curated alias of the automatic id */
	if (ids->curated[0] || !ids->auto_known || !alias)
		return 0;
	memset(buf, 0, sizeof(buf));
	ret = alias(ctx, ids->automatic, buf, sizeof(buf));
	if (ret < 0)
		return fail(err, errlen, "alias lookup failed: ", ids->automatic);
	if (ret)
		return 0;
	buf[sizeof(buf) - 1] = '\0';
	if (!kmsg_id_is_curated(buf) ||
	    parse_curated(buf, false, &len, &ids->number, &hi))
		return fail(err, errlen, "alias is not component.number: ",
			    ids->automatic);
	memcpy(ids->curated, buf, sizeof(buf));
	ids->curated_comp_len = len;
	return 0;
}

bool kmsg_ids_component_is(const struct kmsg_ids *ids, const char *name)
{
	size_t n = strlen(name);

	if (ids->curated[0] && ids->curated_comp_len == n &&
	    !memcmp(ids->curated, name, n))
		return true;
	return ids->automatic[0] && ids->auto_comp_len == n &&
		!memcmp(ids->automatic, name, n);
}

int kmsg_id_filter_parse(struct kmsg_id_filter *f, const char *s)
{
	const char *dot = strrchr(s, '.');
	size_t len;

	memset(f, 0, sizeof(*f));
	if (dot && dot != s && is_auto_suffix(dot + 1)) {
		if (strlen(s) >= sizeof(f->automatic))
			return -1;
		strcpy(f->automatic, s);
		return 0;
	}
	if (parse_curated(s, true, &len, &f->lo, &f->hi) ||
	    len >= sizeof(f->component))
		return -1;
	memcpy(f->component, s, len);
	f->component[len] = '\0';
	return 0;
}

bool kmsg_id_filter_match(const struct kmsg_id_filter *f,
			  const struct kmsg_ids *ids)
{
	size_t n = strlen(f->component);

	if (f->automatic[0])
		return ids->auto_known && !strcmp(ids->automatic, f->automatic);
	return ids->curated[0] && ids->curated_comp_len == n &&
		!memcmp(ids->curated, f->component, n) &&
		ids->number >= f->lo && ids->number <= f->hi;
}
