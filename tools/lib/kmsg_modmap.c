// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_modmap - the map of tools/kbuild-modnames.sh: object, KBUILD_MODNAME
 * and source of each object built into vmlinux.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_modmap.h"

static int cmp_object(const void *a, const void *b)
{
	const struct kmsg_modmap_entry *x = a, *y = b;

	return strcmp(x->object, y->object);
}

static int cmp_source(const void *a, const void *b)
{
	const struct kmsg_modmap_entry *const *x = a, *const *y = b;
	int c = strcmp((*x)->source, (*y)->source);

	return c ? c : strcmp((*x)->object, (*y)->object);
}

void kmsg_modmap_free(struct kmsg_modmap *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->by_object[i].object);	/* one allocation a line */
	free(m->by_object);
	free(m->by_source);
	memset(m, 0, sizeof(*m));
}

/* the problem with one line's fields, or NULL */
static const char *check_fields(char **f, int nf)
{
	size_t len;
	const char *p;

	if (nf != 3)
		return "not three fields \"OBJECT MODNAME SOURCE\"";
	len = strlen(f[0]);
	if (len < 3 || strcmp(f[0] + len - 2, ".o"))
		return "the object does not end in .o";
	for (p = f[1]; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == ':'))
			return "a modname has only letters, digits, '_' and ':'";
	return NULL;
}

int kmsg_modmap_parse(struct kmsg_modmap *m, const char *name,
		      const char *text, size_t len, char *err, size_t errlen)
{
	size_t pos = 0, lineno = 0, cap = 0, i;
	const char *problem = NULL;

	memset(m, 0, sizeof(*m));
	while (pos < len) {
		const char *end = memchr(text + pos, '\n', len - pos);
		size_t n = end ? (size_t)(end - text) - pos : len - pos;
		char *line, *f[4], *save = NULL, *tok;
		int nf = 0;

		lineno++;
		for (i = 0; i < n; i++)
			if ((unsigned char)text[pos + i] < ' ')
				break;
		if (i < n) {
			problem = text[pos + i] ? "a control character" : "a NUL byte";
			goto bad;
		}
		if (n == 0) {
			problem = "an empty line";
			goto bad;
		}
		line = malloc(n + 1);
		if (!line) {
			problem = strerror(ENOMEM);
			goto bad;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		for (tok = strtok_r(line, " ", &save); tok && nf < 4;
		     tok = strtok_r(NULL, " ", &save))
			f[nf++] = tok;
		/* fields are single-space separated, the line not padded */
		if (nf == 3 && f[0] == line &&
		    (size_t)(f[2] + strlen(f[2]) - line) == n &&
		    f[1] == f[0] + strlen(f[0]) + 1 && f[2] == f[1] + strlen(f[1]) + 1)
			problem = check_fields(f, nf);
		else
			problem = nf == 3 ? "fields not separated by one space" :
				  check_fields(f, nf);
		if (problem) {
			free(line);
			goto bad;
		}
		if (m->n == cap) {
			size_t nc = cap ? 2 * cap : 256;
			void *p = realloc(m->by_object, nc * sizeof(*m->by_object));

			if (!p) {
				free(line);
				problem = strerror(ENOMEM);
				goto bad;
			}
			m->by_object = p;
			cap = nc;
		}
		m->by_object[m->n].object = f[0];
		m->by_object[m->n].modname = f[1];
		m->by_object[m->n].source = f[2];
		m->n++;
	}
	qsort(m->by_object, m->n, sizeof(*m->by_object), cmp_object);
	for (i = 1; i < m->n; i++)
		if (!strcmp(m->by_object[i - 1].object, m->by_object[i].object)) {
			snprintf(err, errlen, "%s: object %s listed twice", name,
				 m->by_object[i].object);
			kmsg_modmap_free(m);
			return -1;
		}
	m->by_source = malloc((m->n ? m->n : 1) * sizeof(*m->by_source));
	if (!m->by_source) {
		snprintf(err, errlen, "%s: %s", name, strerror(ENOMEM));
		kmsg_modmap_free(m);
		return -1;
	}
	for (i = 0; i < m->n; i++)
		m->by_source[i] = &m->by_object[i];
	qsort(m->by_source, m->n, sizeof(*m->by_source), cmp_source);
	return 0;
bad:
	snprintf(err, errlen, "%s:%zu: %s", name, lineno, problem);
	kmsg_modmap_free(m);
	return -1;
}

int kmsg_modmap_load(struct kmsg_modmap *m, const char *path,
		     char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0, cap = 0, got;
	int ret;

	memset(m, 0, sizeof(*m));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			size_t nc = cap ? 2 * cap : 65536;
			char *p = realloc(text, nc);

			if (!p) {
				snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
				goto fail;
			}
			text = p;
			cap = nc;
		}
		got = fread(text + len, 1, cap - len, f);
		len += got;
	} while (got);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		goto fail;
	}
	fclose(f);
	ret = kmsg_modmap_parse(m, path, text, len, err, errlen);
	free(text);
	return ret;
fail:
	free(text);
	fclose(f);
	return -1;
}

const struct kmsg_modmap_entry *kmsg_modmap_object(const struct kmsg_modmap *m,
						   const char *object)
{
	struct kmsg_modmap_entry key = { .object = (char *)object };

	if (!m->n)
		return NULL;
	return bsearch(&key, m->by_object, m->n, sizeof(*m->by_object),
		       cmp_object);
}

/* the first of the entries of source s, or m->n */
static size_t first_source(const struct kmsg_modmap *m, const char *s)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(m->by_source[mid]->source, s) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n && !strcmp(m->by_source[lo]->source, s) ? lo : m->n;
}

/* the index in by_source of the first entry of path's longest tail, or m->n */
static size_t find_tail(const struct kmsg_modmap *m, const char *path,
			size_t *count)
{
	const char *p = path;

	*count = 0;
	while (p && *p) {
		size_t i = first_source(m, p), j;

		if (i < m->n) {
			for (j = i; j < m->n && !strcmp(m->by_source[j]->source, p); j++)
				;
			*count = j - i;
			return i;
		}
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return m->n;
}

const struct kmsg_modmap_entry *
kmsg_modmap_source(const struct kmsg_modmap *m, const char *path, size_t *count)
{
	size_t i = find_tail(m, path, count);

	return i < m->n ? m->by_source[i] : NULL;
}

int kmsg_modmap_unit(const struct kmsg_modmap *m, const char *cu_name,
		     const char **modname)
{
	size_t n = 0, i, j;

	*modname = NULL;
	i = cu_name ? find_tail(m, cu_name, &n) : m->n;
	if (i == m->n)
		return KMSG_MODMAP_UNKNOWN;
	for (j = i + 1; j < i + n; j++)
		if (strcmp(m->by_source[i]->modname, m->by_source[j]->modname))
			return KMSG_MODMAP_AMBIGUOUS;
	*modname = m->by_source[i]->modname;
	return KMSG_MODMAP_FOUND;
}
