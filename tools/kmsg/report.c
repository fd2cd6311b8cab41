// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg report: the messages of a trace.dat recorded with trace-cmd
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include <event-parse.h>
#ifndef KMSG_NO_TRACECMD
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <trace-cmd.h>
#endif

#include "kmsg_ksyms.h"
#include "kmsg_tracedat.h"
#include "kmsg.h"

static void usage_report(FILE *f)
{
	fprintf(f,
		"Usage: %s report [OPTIONS] FILE\n"
		"Print the kmsg messages of a trace.dat recorded with\n"
		"'trace-cmd record -e kmsg:kmsg'.\n\n"
		"  -n, --count N          stop after N messages\n"
		"      --boot-time EPOCH  with --journal, --export: the traced kernel\n"
		"                         booted at EPOCH (seconds since 1970; default:\n"
		"                         the first message at the file's mtime)\n", prog);
	usage_filters(f);
}

#ifndef KMSG_NO_TRACECMD
static char outbuf[1 << 16];

/*
 * libtracecmd 1.3 decompresses each chunk of a compressed trace.dat into
 * memory of its own malloc() and keeps every chunk until the file is
 * closed: reading a trace.dat fills the heap with fresh memory at the
 * rate the file is read. In 4 KiB pages, the faults and TLB misses on it
 * were a third of the time of a report where transparent huge pages are
 * given only on request (the "madvise" mode, Debian's and Ubuntu's). So
 * the heap grows in steps of HEAP_STEP and each step is advised for huge
 * pages as soon as it appears; the 2 MiB block that a step boundary cuts
 * stays in small pages. Best effort: where the heap cannot grow, malloc()
 * maps memory of its own, unadvised. M_TOP_PAD also fixes glibc's mmap
 * threshold at 128 KiB, and a step counts in full against RLIMIT_AS.
 * Where chunks are above the mmap threshold (64 KiB base pages: 640 KiB
 * chunks), none of this applies.
 */
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
#define HEAP_STEP	(64UL << 20)
#define HUGE_PAGE	(2UL << 20)	/* x86-64's PMD size */

static uintptr_t heap_top;

static void heap_advise(void)
{
	uintptr_t top = (uintptr_t)sbrk(0), start, end;

	if (top == heap_top || heap_top == (uintptr_t)-1)
		return;		/* no growth, or no brk() heap at all */
	start = (heap_top + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	end = top & ~(HUGE_PAGE - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
	heap_top = top;
}

static void heap_init(void)
{
	mallopt(M_TOP_PAD, HEAP_STEP);
	heap_top = (uintptr_t)sbrk(0);
}
#else
static inline void heap_advise(void) { }
static inline void heap_init(void) { }
#endif

static int report_record(struct tracecmd_input *handle,
			 struct tep_record *rec, int cpu, void *data)
{
	struct state *st = data;
	int ret;

	(void)handle;
	(void)cpu;
	heap_advise();
	ret = handle_record(st, rec);
	return ret ? -1 : st->done;
}

static int report_missed(struct tracecmd_input *handle, struct tep_event *event,
			 struct tep_record *rec, int cpu, void *data)
{
	(void)handle;
	(void)event;
	report_lost(data, cpu, rec->missed_events);
	return 0;
}

static int cmd_report(struct options *o, const char *file)
{
	struct tracecmd_input *handle;
	struct kmsg_ksyms ks = { 0 };
	struct state st;
	char err[512];
	int ret, i;

	if (o->kallsyms) {
		ret = kmsg_ksyms_load(&ks, o->kallsyms);
		if (!ret && !ks.n)
			ret = -ENODATA;
		if (ret) {
			fprintf(stderr, "%s: %s: %s\n", prog, o->kallsyms,
				kmsg_ksyms_strerror(ret));
			kmsg_ksyms_free(&ks);
			return 1;
		}
	}
	/* libtracecmd may crash on a damaged file: check it first */
	if (kmsg_tracedat_check(file, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		kmsg_ksyms_free(&ks);
		return 1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	heap_init();
	handle = tracecmd_open(file, 0);
	if (!handle) {
		fprintf(stderr, "%s: %s: not a readable trace.dat file\n", prog,
			file);
		kmsg_ksyms_free(&ks);
		return 1;
	}
	if (state_init(&st, o, tracecmd_get_tep(handle))) {
		tracecmd_close(handle);
		kmsg_ksyms_free(&ks);
		return 1;
	}
	if (o->otlp)
		otlp_open(&st, o, false);
	if ((o->journal || o->export) && journal_open(&st, o, file)) {
		state_free(&st);
		tracecmd_close(handle);
		kmsg_ksyms_free(&ks);
		return 1;
	}
	/* %ps and %pS with " [module]": the trace.dat's kallsyms */
	if (!o->kallsyms && kmsg_ksyms_from_tep(&ks, st.tep)) {
		fprintf(stderr, "%s: %s: cannot copy its symbols: out of memory\n",
			prog, file);
		state_free(&st);
		tracecmd_close(handle);
		return 1;
	}
	st.ropts.lookup_symbol = kmsg_ksyms_lookup;
	st.ropts.lookup_ctx = &ks;
	/*
	 * into a file or pipe: fewer, larger writes than stdio's 4 KiB
	 * (glibc takes the size only with a buffer; it outlives main())
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	tracecmd_follow_missed_events(handle, report_missed, &st);
	ret = tracecmd_iterate_events(handle, NULL, 0, report_record, &st);
	/* then the buffers of instances (trace-cmd extract -B NAME) */
	for (i = 0; ret >= 0 && !st.done && i < tracecmd_buffer_instances(handle);
	     i++) {
		struct tracecmd_input *buf;

		buf = tracecmd_buffer_instance_handle(handle, i);
		if (!buf)
			continue;
		tracecmd_follow_missed_events(buf, report_missed, &st);
		ret = tracecmd_iterate_events(buf, NULL, 0, report_record, &st);
		tracecmd_close(buf);
	}
	report_loss(&st, -1);
	ret = finish(&st, ret < 0 && !st.done ? -EIO : 0);
	state_free(&st);
	tracecmd_close(handle);
	kmsg_ksyms_free(&ks);
	return ret;
}
#else
static int cmd_report(struct options *o, const char *file)
{
	(void)o;
	fprintf(stderr, "%s: %s: this build of kmsg cannot read trace.dat files\n",
		prog, file);
	return 1;
}
#endif

int report_main(int argc, char **argv)
{
	struct options o = { 0 };

	if (parse_command(argc, argv, &o, false, usage_report, 1, 1))
		return 1;
	return cmd_report(&o, argv[optind]);
}
