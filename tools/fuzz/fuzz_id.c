// SPDX-License-Identifier: GPL-2.0
/*
 * The ids (lib/kmsg_id.c): the --id filter's parser and matcher, the id
 * grammar, and the ids of a message built from the input, with its alias
 * taken from the input too.
 *
 * Input: NUL-separated parts: the --id argument, the component, the
 * modname, the format, the alias.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_id.h"

static int alias(void *ctx, const char *auto_id, char *curated, size_t size)
{
	const char *a = ctx;

	(void)auto_id;
	if (!*a)
		return 1;
	if (a[0] == '!')
		return -1;
	strncpy(curated, a, size);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *part[5] = { "", "", "", "", "" };
	struct kmsg_id_filter f;
	struct kmsg_msg m = { .version = 2 };
	struct kmsg_ids ids;
	char *copy = malloc(size + 1), *p, err[256];
	int i;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (i = 0, p = copy; i < 5 && p <= copy + size; i++) {
		part[i] = p;
		p += strlen(p) + 1;
	}
	m.version = size && data[size - 1] & 1 ? 1 : 2;
	m.component.s = part[1];
	m.component.len = strlen(part[1]);
	m.number = size;
	m.modname.s = part[2];
	m.modname.len = strlen(part[2]);
	m.fmt.s = part[3];
	m.fmt.len = strlen(part[3]);
	m.flags = size & 1 ? KMSG_EVENT_TRUNCATED : 0;
	kmsg_id_is_curated(part[0]);
	kmsg_id_is_auto(part[0]);
	if (!kmsg_msg_ids(&m, alias, (void *)part[4], &ids, err, sizeof(err))) {
		if (ids.curated[0] && m.version == 2 && !m.component.len &&
		    !kmsg_id_is_curated(ids.curated))
			__builtin_trap();	/* an alias must be well-formed */
		kmsg_ids_component_is(&ids, part[1]);
		kmsg_ids_component_is(&ids, part[2]);
		if (!kmsg_id_filter_parse(&f, part[0]))
			kmsg_id_filter_match(&f, &ids);
	}
	free(copy);
	return 0;
}
