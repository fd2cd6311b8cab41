/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bin_encode - TEST ONLY: build argument records laid out exactly as the
 * kernel's vbin_printf() (lib/vsprintf.c, 6.12, with the precision fix for
 * "%.Ns") lays them out, from C varargs.
 *
 * Pass the arguments as you would to printk(), except that %p extensions
 * which vbin_printf() renders at record time (anything but plain %p, %px,
 * %pK, %ps, %pS, %pe) take the already-rendered text as a const char *.
 *
 * Returns the record size in bytes, rounded up to whole u32 words like
 * vbin_printf()'s return value; if that is more than size, buf holds only
 * what fitted (as with vbin_printf(), it is then not a valid record).
 */
#ifndef BIN_ENCODE_H
#define BIN_ENCODE_H

#include <stdarg.h>
#include <stddef.h>

/* x86_64 kernel: sizeof(long) == sizeof(void *) == 8 */
int bin_encode(void *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* long_size 4: a 32-bit kernel (long, size_t, pointers truncated) */
int bin_encode_ls(int long_size, void *buf, size_t size, const char *fmt, ...);
int bin_vencode(int long_size, void *buf, size_t size, const char *fmt,
		va_list ap);

#endif /* BIN_ENCODE_H */
