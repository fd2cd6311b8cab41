/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_xalloc - allocation that cannot fail, string buffers that exit on
 * ENOMEM and C escaping, for kmsg-doc and the libraries it uses
 * (implemented in kmsg_srcdoc.c).  Apart from kmsg_srcdoc.h so that code
 * reading the docs database (kmsg_docs.h, whose struct kmsg_doc is
 * another) can use them too.
 */
#ifndef KMSG_XALLOC_H
#define KMSG_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

#include "kmsg_strbuf.h"

/* Allocation: these print "kmsg-doc: out of memory" and exit(2) on failure. */
void *kmsg_xmalloc(size_t size);
void *kmsg_xcalloc(size_t nmemb, size_t size);
void *kmsg_xrealloc(void *p, size_t nmemb, size_t size);
char *kmsg_xstrdup(const char *s);
char *kmsg_xstrndup(const char *s, size_t n);
/* Only ever call this with a literal format of our own. */
char *kmsg_xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *kmsg_xvprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/*
 * Set *@err to the message, kmsg_xprintf(), unless it holds one already:
 * so the first error is the one kept. Only with a literal format.
 */
void kmsg_first_err(char **err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append, exiting on ENOMEM */
void kmsg_sb_putn(struct kmsg_strbuf *sb, const char *s, size_t n);
void kmsg_sb_puts(struct kmsg_strbuf *sb, const char *s);
void kmsg_sb_putc(struct kmsg_strbuf *sb, char c);
void kmsg_sb_printf(struct kmsg_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The buffer's text as a malloc()ed string ("" if empty); sb is emptied. */
char *kmsg_sb_take(struct kmsg_strbuf *sb);

/* Make room in the array arr of cap elements for element n. */
#define KMSG_GROW(arr, cap, n)						\
	do {								\
		if ((n) >= (cap)) {					\
			size_t __nc = (cap) ? 2 * (cap) : 8;		\
									\
			(arr) = kmsg_xrealloc((arr), __nc, sizeof(*(arr))); \
			(cap) = __nc;					\
		}							\
	} while (0)

/*
 * s as the inside of a C string literal: \n \t \\ \" and other control
 * bytes as three-digit octal escapes; bytes >= 0x80 are copied (UTF-8).
 */
void kmsg_escape(struct kmsg_strbuf *sb, const char *s);
/* the same, in a string of its own (malloc) */
char *kmsg_escaped(const char *s);
/*
 * "NAME: VALUE\n", a catalog field (docs-db/FORMAT.md) of a format:
 * escaped, and in double quotes if blanks at its ends would be lost.
 */
void kmsg_catalog_field(struct kmsg_strbuf *sb, const char *name,
			const char *value);

#endif /* KMSG_XALLOC_H */
