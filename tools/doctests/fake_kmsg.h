/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_kmsg.h - what include/linux/kmsg.h puts into an object file with
 * CONFIG_PRINTK_INDEX, for host-compiled test fixtures of kmsg-doc:
 *
 *	#define KMSG_COMPONENT "fx"
 *	#include "fake_kmsg.h"
 *
 *	KMSG(ERR, 1, "device %x not online\n");
 *	KMSG_DEV(INFO, 2, "device %x: %u paths\n");
 *	PLAIN(WARNING, "a message without an identifier %d\n");
 *	PLAIN(CONT, "continued\n");	(also DEFAULT: no level)
 *	PLAIN_DEV(ERR, "a device message %d\n");
 *
 * Each call site defines a static const struct pi_entry and a pointer to
 * it in section ".printk_index", like __printk_index_emit_id() does: the
 * format with the level header (printk()) or the level apart (the device
 * forms), the identifier printed in front, KBUILD_MODNAME (FAKE_MODNAME,
 * KMSG_COMPONENT unless defined), the component and the number.
 * KMSG_DOC() compiles to nothing, like the kernel's.
 */
#ifndef FAKE_KMSG_H
#define FAKE_KMSG_H

#ifndef KMSG_COMPONENT
#error "define KMSG_COMPONENT before including fake_kmsg.h"
#endif
#ifndef FAKE_MODNAME
#define FAKE_MODNAME KMSG_COMPONENT
#endif

struct pi_entry {
	const char *fmt;
	const char *func;
	const char *file;
	unsigned int line;
	const char *level;
	const char *subsys_fmt_prefix;
	const char *modname;
	const char *component;
	unsigned int number;
} __attribute__((packed));

_Static_assert(sizeof(struct pi_entry) == 64, "pi_entry layout");

#define FAKE_KERN_EMERG		"\001" "0"
#define FAKE_KERN_ALERT		"\001" "1"
#define FAKE_KERN_CRIT		"\001" "2"
#define FAKE_KERN_ERR		"\001" "3"
#define FAKE_KERN_WARNING	"\001" "4"
#define FAKE_KERN_NOTICE	"\001" "5"
#define FAKE_KERN_INFO		"\001" "6"
#define FAKE_KERN_DEBUG		"\001" "7"
#define FAKE_KERN_DEFAULT	""
#define FAKE_KERN_CONT		"\001" "c"

#define __FAKE_ENTRY(_fmt, _level, _prefix, _comp, _nr)			\
	do {								\
		static const struct pi_entry __pi_entry = {		\
			.fmt = _fmt,					\
			.func = __func__,				\
			.file = __FILE__,				\
			.line = __LINE__,				\
			.level = _level,				\
			.subsys_fmt_prefix = _prefix,			\
			.modname = FAKE_MODNAME,			\
			.component = _comp,				\
			.number = _nr,					\
		};							\
		static const struct pi_entry *__pi_entry_ptr		\
		__attribute__((used, section(".printk_index"))) =	\
			&__pi_entry;					\
	} while (0)

#define KMSG(lvl, nr, fmt)						\
	__FAKE_ENTRY(FAKE_KERN_##lvl KMSG_COMPONENT "." #nr ": " fmt,	\
		     (const char *)0, (const char *)0, KMSG_COMPONENT, nr)
#define KMSG_DEV(lvl, nr, fmt)						\
	__FAKE_ENTRY(KMSG_COMPONENT "." #nr ": " fmt, FAKE_KERN_##lvl,	\
		     "%s %s: ", KMSG_COMPONENT, nr)
#define PLAIN(lvl, fmt)							\
	__FAKE_ENTRY(FAKE_KERN_##lvl fmt, (const char *)0,		\
		     (const char *)0, (const char *)0, 0)
/* dev_printk(): the level apart, the device prefix as pre_fmt */
#define PLAIN_DEV(lvl, fmt)						\
	__FAKE_ENTRY(fmt, FAKE_KERN_##lvl, "%s %s: ", (const char *)0, 0)

#define KMSG_DOC(comp, nr, fmt)						\
	_Static_assert(sizeof(#comp) > 1 && sizeof(#nr) > 1 &&		\
		       sizeof(fmt) > 0, "KMSG_DOC(component, number, format)")

/* .modinfo "name=" of a module */
#define FAKE_MODULE_NAME(name)						\
	static const char __fake_modinfo[]				\
	__attribute__((used, section(".modinfo"), aligned(1))) =	\
		"license=GPL\0name=" name

#endif /* FAKE_KMSG_H */
