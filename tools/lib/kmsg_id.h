/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The identifiers of a kmsg message.
 *
 * Curated: "component.number", given by a kmsg_*() call site (every
 * version 1 record; a version 2 record whose component is not empty).
 *
 * Automatic (version 2 records, every message): "<modname>.h<hash>", the
 * call site's KBUILD_MODNAME ("vmlinux" when the record has none) and the
 * 32-bit FNV-1a hash of the format as recorded, in 8 lowercase hex
 * digits: "oom_kill.h923b9134" for "Out of memory and no killable
 * processes...". The kernel cuts a longer format to KMSG_EVENT_FMT_MAX
 * bytes and flags the record truncated (as it does when it cuts the
 * arguments): a truncated record with a format of that length may hold a
 * cut format, so its automatic id is not known, and never guessed.
 *
 * The identifier of a message is its curated id where it has one, else
 * its automatic id. kmsg_msg_ids() is the one place that chooses.
 */
#ifndef KMSG_ID_H
#define KMSG_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmsg_event.h"
#include "kmsg_hash.h"

/* Room for an id, its NUL included; a longer one is an error */
#define KMSG_ID_MAX		128
/* The 8 hex digits of an automatic id whose format was cut */
#define KMSG_ID_HASH_UNKNOWN	"????????"
/* The component of an automatic id when the record has no modname */
#define KMSG_ID_VMLINUX		"vmlinux"


/*
 * Write the automatic id of a message printed by module @modname (empty:
 * vmlinux) with format @fmt (the bytes of the record's fmt field, without
 * NUL) to @buf. Returns its length, or -1 if it does not fit in @size
 * bytes (nothing written then).
 */
int kmsg_auto_id(char *buf, size_t size, const char *modname,
		 size_t modname_len, const char *fmt, size_t fmt_len);

/* The identifiers of one message: see kmsg_msg_ids() */
struct kmsg_ids {
	char curated[KMSG_ID_MAX];	/* "component.number", or "" */
	unsigned int curated_comp_len;	/* length of its component */
	unsigned int number;		/* its number */
	/*
	 * Version 2: "<modname>.h<hash>", or "<modname>.h????????" when
	 * !auto_known (the format may be cut). Version 1: "".
	 */
	char automatic[KMSG_ID_MAX];
	unsigned int auto_comp_len;	/* length of its component */
	uint32_t hash;			/* when auto_known */
	bool auto_known;
};

/*
 * A curated alias of an automatic id (kept in the docs database, as
 * kmsg_docs_curated_for_auto() returns it): write "component.number" for
 * @auto_id to @curated (@size bytes) and return 0, return 1 when there is
 * none, -1 on an error.
 */
typedef int (*kmsg_alias_fn)(void *ctx, const char *auto_id, char *curated,
			     size_t size);

/*
 * The identifiers of @m: its curated id (the record's, or else the alias
 * @alias gives for the automatic id; @alias may be NULL) and its
 * automatic id. Returns 0, or -1 with the reason in @err: an id longer
 * than KMSG_ID_MAX, an alias that is not "component.number", an error of
 * @alias.
 */
int kmsg_msg_ids(const struct kmsg_msg *m, kmsg_alias_fn alias, void *ctx,
		 struct kmsg_ids *ids, char *err, size_t errlen);

/*
 * The identifiers of a message identified from its text: @curated
 * ("comp.N") and @automatic ("<modname>.h<8 hex>"), either NULL or "".
 * 0, or -1 (@ids emptied) if one is not of its form.
 */
int kmsg_ids_set(struct kmsg_ids *ids, const char *curated,
		 const char *automatic);

/* The identifier of the message: curated, else automatic; NULL if neither is known */
static inline const char *kmsg_ids_id(const struct kmsg_ids *ids)
{
	if (ids->curated[0])
		return ids->curated;
	return ids->auto_known ? ids->automatic : NULL;
}

/* The automatic id, NULL if not known (version 1, or the format was cut) */
static inline const char *kmsg_ids_auto(const struct kmsg_ids *ids)
{
	return ids->auto_known ? ids->automatic : NULL;
}

/* The id to show in text: kmsg_ids_id(), else "<modname>.h????????" */
static inline const char *kmsg_ids_label(const struct kmsg_ids *ids)
{
	return ids->curated[0] ? ids->curated : ids->automatic;
}

/*
 * The component of kmsg_ids_id(), not NUL-terminated: the curated one,
 * else the automatic id's (which is known when its hash is not).
 */
static inline const char *kmsg_ids_component(const struct kmsg_ids *ids,
					     size_t *len)
{
	*len = ids->curated[0] ? ids->curated_comp_len : ids->auto_comp_len;
	return ids->curated[0] ? ids->curated : ids->automatic;
}

/* Is @name the curated component or the modname ("vmlinux" if none)? */
bool kmsg_ids_component_is(const struct kmsg_ids *ids, const char *name);

/*
 * The grammar of docs-db/FORMAT.md, for ids read from a database or a
 * catalog before they become file names, roff or HTML: a curated id is
 * "component.number", the component one or more of [A-Za-z0-9_-], the
 * number decimal without leading zeros and at most UINT_MAX; an automatic
 * id is "modname.h" and 8 lowercase hex digits, the modname one or more of
 * [A-Za-z0-9_].  Either is shorter than KMSG_ID_MAX.
 */
bool kmsg_id_is_curated(const char *s);
bool kmsg_id_is_auto(const char *s);

/* --id: a curated "comp.N" or "comp.N-M", or an automatic id */
struct kmsg_id_filter {
	char component[KMSG_ID_MAX];	/* curated: the component */
	unsigned int lo, hi;		/* curated: the numbers */
	char automatic[KMSG_ID_MAX];	/* or an automatic id, matched exactly */
};

/* Parse @s into @f: 0, or -1 if it is neither form */
int kmsg_id_filter_parse(struct kmsg_id_filter *f, const char *s);

bool kmsg_id_filter_match(const struct kmsg_id_filter *f,
			  const struct kmsg_ids *ids);

#endif /* KMSG_ID_H */
