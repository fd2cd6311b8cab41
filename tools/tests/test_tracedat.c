// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the trace.dat structure check (lib/kmsg_tracedat.c):
 * data/kmsg-v6.dat passes; every copy of it cut short fails with the file
 * and what is missing (one cut inside its CPU data crashed libtracecmd's
 * tracecmd_open()); crafted headers of versions 6 and 7 fail.
 *
 * data/kmsg-v6.dat: 47 kmsgtest messages recorded in the guest
 * (qemu/record.sh), converted with "trace-cmd convert --file-version 6
 * --compression none", then the kallsyms, the ftrace and trace_printk
 * formats dropped and the CPU data moved up: a 16 KiB uncompressed
 * version 6 file that "kmsg report" and "trace-cmd report" read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmsg_tracedat.h"
#include "tap.h"

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	unsigned char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0) {
		rewind(f);
		buf = malloc(n);
		if (buf && fread(buf, 1, n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = n;
	}
	fclose(f);
	return buf;
}

/* Every length from 0 to @len - 1 fails, naming the file */
static void test_cuts(const unsigned char *dat, size_t len)
{
	size_t n, accepted = 0, named = 0;
	char err[512];

	for (n = 0; n < len; n++) {
		err[0] = '\0';
		if (!kmsg_tracedat_check_buf(dat, n, "cut.dat", err, sizeof(err)))
			accepted++;
		else if (!strncmp(err, "cut.dat: ", 9))
			named++;
	}
	ok(!accepted && named == len,
	   "each of the %zu copies cut short fails, naming the file (%zu accepted)",
	   len, accepted);
	kmsg_tracedat_check_buf(dat, 12000, "cut.dat", err, sizeof(err));
	ok(!strcmp(err, "cut.dat: not a whole trace.dat: the data of CPU 0, 8192 bytes at byte 4096, is not all in the file of 12000 bytes (cut short, or corrupt)"),
	   "cut inside the CPU data (the libtracecmd crash): %s", err);
	kmsg_tracedat_check_buf(dat, 1000, "cut.dat", err, sizeof(err));
	ok(strstr(err, "needs") && strstr(err, "the file has 1000"),
	   "cut inside the headers: %s", err);
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void test_v6_crafted(const unsigned char *dat, size_t len)
{
	unsigned char *d = malloc(len);
	char err[512];

	memcpy(d, dat, len);
	d[0] = 0x18;
	ok(kmsg_tracedat_check_buf(d, len, "x", err, sizeof(err)) &&
	   strstr(err, "not a trace.dat"), "bad magic: %s", err);
	memcpy(d, dat, len);
	d[10] = '5';
	ok(kmsg_tracedat_check_buf(d, len, "x", err, sizeof(err)) &&
	   strstr(err, "version \"5\""), "version 5: %s", err);
	memcpy(d, dat, len);
	d[12] = 2;
	ok(kmsg_tracedat_check_buf(d, len, "x", err, sizeof(err)) &&
	   strstr(err, "endianness 2"), "endianness 2: %s", err);
	memcpy(d, dat, len);
	put32(d + 14, 4097);
	ok(kmsg_tracedat_check_buf(d, len, "x", err, sizeof(err)) &&
	   strstr(err, "page size 4097"), "page size 4097: %s", err);
	/* header_page's size (at 30) far beyond the file */
	memcpy(d, dat, len);
	put64(d + 30, 1ULL << 62);
	ok(kmsg_tracedat_check_buf(d, len, "x", err, sizeof(err)) &&
	   strstr(err, "header_page"), "header_page size 2^62: %s", err);
	put64(d + 30, ~0ULL);
	ok(kmsg_tracedat_check_buf(d, len, "x", err, sizeof(err)),
	   "header_page size 2^64 - 1 (no overflow): %s", err);
	free(d);
}

/*
 * A version 7 file whose only options section ends with DONE pointing
 * at @next: a loop if it points back.
 */
static size_t v7(unsigned char *d, uint64_t next, uint64_t cpu_off)
{
	size_t n = 0, sec, opt;

	memset(d, 0, 4096);
	memcpy(d, "\x17\x08\x44tracing7", 11);
	n = 12;
	d[n++] = 0;			/* little endian */
	d[n++] = 8;			/* long */
	put32(d + n, 4096);
	n += 4;
	memcpy(d + n, "none\0", 6);	/* "none", "" */
	n += 6;
	sec = n + 8;
	put64(d + n, sec);
	n = sec + 16;			/* the options */
	opt = n;
	d[n] = 3;			/* BUFFER */
	n += 2;
	put32(d + n, 8 + 1 + 6 + 4 + 4 + 20);
	n += 4;
	put64(d + n, sec);		/* its section: any will do here */
	n += 8;
	n += 1;				/* name "" */
	memcpy(d + n, "local", 6);
	n += 6;
	put32(d + n, 4096);
	n += 4;
	put32(d + n, 1);		/* one CPU */
	n += 4;
	put32(d + n, 0);
	put64(d + n + 4, cpu_off);
	put64(d + n + 12, 4096);
	n += 20;
	d[n] = 0;			/* DONE */
	n += 2;
	put32(d + n, 8);
	n += 4;
	put64(d + n, next);
	n += 8;
	put64(d + sec + 8, n - opt);	/* the section's size */
	return n;
}

static void test_v7_crafted(void)
{
	unsigned char d[8192];
	char err[512];
	size_t n;

	n = v7(d, 0, 4096);
	memset(d + n, 0, sizeof(d) - n);
	ok(!kmsg_tracedat_check_buf(d, 8192, "v7", err, sizeof(err)),
	   "version 7: a well-formed options section passes");
	n = v7(d, 22, 4096);
	ok(kmsg_tracedat_check_buf(d, 8192, "v7", err, sizeof(err)) &&
	   strstr(err, "points back"), "version 7: options looping back: %s", err);
	n = v7(d, 0, 8000);
	ok(kmsg_tracedat_check_buf(d, 8192, "v7", err, sizeof(err)) &&
	   strstr(err, "data of CPU 0"), "version 7: CPU data past the end: %s",
	   err);
	n = v7(d, 0, 4096);
	ok(kmsg_tracedat_check_buf(d, n - 3, "v7", err, sizeof(err)) &&
	   strstr(err, "options section"), "version 7: options cut: %s", err);
}

static void test_files(void)
{
	char err[512];

	ok(kmsg_tracedat_check("/nonexistent/trace.dat", err, sizeof(err)) &&
	   !strcmp(err, "/nonexistent/trace.dat: No such file or directory"),
	   "a missing file: %s", err);
	ok(kmsg_tracedat_check("data", err, sizeof(err)) &&
	   !strcmp(err, "data: is a directory, not a trace.dat"),
	   "a directory: %s", err);
	ok(kmsg_tracedat_check("data/kmsg.format", err, sizeof(err)) &&
	   strstr(err, "data/kmsg.format: not a trace.dat"), "a text file: %s",
	   err);
	ok(!kmsg_tracedat_check("data/kmsg-v6.dat", err, sizeof(err)),
	   "data/kmsg-v6.dat passes, read from the file");
}

int main(void)
{
	unsigned char *dat;
	size_t len = 0;
	char err[512];

	printf("TAP version 13\n");
	dat = read_file("data/kmsg-v6.dat", &len);
	if (!ok(dat && len > 4096, "data/kmsg-v6.dat read"))
		return tap_done();
	ok(!kmsg_tracedat_check_buf(dat, len, "kmsg-v6.dat", err, sizeof(err)),
	   "the recorded version 6 file passes %s", err);
	test_cuts(dat, len);
	test_v6_crafted(dat, len);
	test_v7_crafted();
	test_files();
	free(dat);
	return tap_done();
}
