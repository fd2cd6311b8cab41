/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_tracedat - check the structure of a trace.dat file before
 * libtracecmd reads it.
 *
 * libtracecmd 3.1 trusts the sizes and offsets a trace.dat gives: a file
 * cut inside its CPU data, or one whose sizes point past its end, makes
 * tracecmd_open() fail and then crash in the tracecmd_close() it calls on
 * its half-built handle (version 6), or read past what is there.
 * "trace-cmd report" survives only because it exits without closing.
 * The check walks what trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5)
 * describe, reading only the headers (a few kilobytes, whatever the size
 * of the trace): magic, version (6 or 7), endianness, long and page size,
 * every section and option with its size, and each CPU's data, which must
 * lie inside the file.  It does not decompress: the options of a v7 file
 * whose options sections are compressed are checked for their size only.
 */
#ifndef KMSG_TRACEDAT_H
#define KMSG_TRACEDAT_H

#include <stddef.h>

/*
 * 0 if the file @path is a trace.dat whose structure is whole, else -1
 * with "PATH: what is wrong" in @err (@errlen bytes).
 */
int kmsg_tracedat_check(const char *path, char *err, size_t errlen);

/* The same for the @len bytes at @buf, named @name in the message */
int kmsg_tracedat_check_buf(const void *buf, size_t len, const char *name,
			    char *err, size_t errlen);

#endif /* KMSG_TRACEDAT_H */
