/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_kmsg.h - what include/linux/kmsg.h puts into an object file with
 * CONFIG_KMSG_INDEX, for host-compiled test fixtures of kmsg-doc:
 *
 *	#define KMSG_COMPONENT "fx"
 *	#include "fake_kmsg.h"
 *
 *	KMSG(ERR, 1, "device %x not online\n");
 *	KMSG_DEV(INFO, 2, "device %x: %u paths\n");
 *
 * Each call site defines a static const struct kmsg_index_entry and a
 * pointer to it in section ".kmsg_index", like __kmsg_printk() does.
 * KMSG_DOC() compiles to nothing, like the kernel's.
 */
#ifndef FAKE_KMSG_H
#define FAKE_KMSG_H

#ifndef KMSG_COMPONENT
#error "define KMSG_COMPONENT before including fake_kmsg.h"
#endif

struct kmsg_index_entry {
	const char *component;
	const char *fmt;
	const char *func;
	const char *file;
	unsigned int line;
	unsigned int number;
	unsigned char level;
	_Bool device;
	unsigned short component_len;
	unsigned int fmt_len;
};

_Static_assert(sizeof(struct kmsg_index_entry) == 48, "kmsg_index_entry layout");

enum {
	LOGLEVEL_EMERG, LOGLEVEL_ALERT, LOGLEVEL_CRIT, LOGLEVEL_ERR,
	LOGLEVEL_WARNING, LOGLEVEL_NOTICE, LOGLEVEL_INFO, LOGLEVEL_DEBUG,
};

#define __FAKE_KMSG(lvl, nr, _fmt, dev)					\
	do {								\
		static const struct kmsg_index_entry __kmsg_entry = {	\
			.component = KMSG_COMPONENT,			\
			.fmt = _fmt,					\
			.func = __func__,				\
			.file = __FILE__,				\
			.line = __LINE__,				\
			.number = nr,					\
			.level = LOGLEVEL_##lvl,			\
			.device = dev,					\
			.component_len = sizeof(KMSG_COMPONENT) - 1,	\
			.fmt_len = sizeof(_fmt) - 1,			\
		};							\
		static const struct kmsg_index_entry *__kmsg_entry_ptr	\
		__attribute__((used, section(".kmsg_index"))) =		\
			&__kmsg_entry;					\
	} while (0)

#define KMSG(lvl, nr, fmt)	__FAKE_KMSG(lvl, nr, fmt, 0)
#define KMSG_DEV(lvl, nr, fmt)	__FAKE_KMSG(lvl, nr, fmt, 1)

#define KMSG_DOC(comp, nr, fmt)						\
	_Static_assert(sizeof(#comp) > 1 && sizeof(#nr) > 1 &&		\
		       sizeof(fmt) > 0, "KMSG_DOC(component, number, format)")

/* .modinfo "name=" of a module */
#define FAKE_MODULE_NAME(name)						\
	static const char __fake_modinfo[]				\
	__attribute__((used, section(".modinfo"), aligned(1))) =	\
		"license=GPL\0name=" name

#endif /* FAKE_KMSG_H */
