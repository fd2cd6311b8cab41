// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg selftests: the kmsg:kmsg trace event.
 *
 * In a tracefs instance of its own, records each kmsgtest message and
 * checks the record's component, number, level, device and format, and
 * that the text rebuilt from its binary arguments is, byte for byte, the
 * text /dev/kmsg shows. Then: a module's events outlive the module,
 * softirq, hard interrupt and NMI context, both CPUs at once, ring-buffer
 * overruns, and the event disabled.
 *
 * Needs libtracefs and libtraceevent, and the kmsg tools' decoder and
 * renderer (tools/lib of the kmsg project).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "../kselftest_harness.h"

#include "kmsg_common.h"
#include "kmsg_event.h"
#include "kmsg_ksyms.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"
#include "kmsg_text.h"

#define MAX_RECORDS	1024
/* common_flags bits of a record made in interrupt and NMI context */
#define TRACE_FLAG_HARDIRQ	0x08
#define TRACE_FLAG_SOFTIRQ	0x10
#define TRACE_FLAG_NMI		0x40

/* One decoded record, with its text rebuilt */
struct trace_msg {
	struct kmsg_msg msg;
	unsigned int common_flags;
	char component[64], fmt[1100], driver[64], device[64];
	char text[RECORD_MAX];
	int problems;		/* markers in the text, or -1: not decoded */
	size_t str_len[KMSG_ARGS_MAX];	/* string arguments */
	int nargs;
};

struct collect {
	struct kmsg_event *ev;
	struct kmsg_render_opts *opts;
	struct trace_msg *msgs;
	int n, max, bad;
	unsigned long long missed;
};

static void copy_str(char *dst, size_t size, const struct kmsg_str *s)
{
	snprintf(dst, size, "%.*s", (int)s->len, s->s);
}

/* The text printk() printed, rebuilt by the kmsg tools' code */
static int rebuild(const struct kmsg_msg *m, struct kmsg_render_opts *opts,
		   struct trace_msg *t)
{
	struct kmsg_strbuf out = { 0 };
	struct kmsg_args args;
	int ret;

	ret = kmsg_msg_text(&out, m, NULL, opts, &args);
	snprintf(t->text, sizeof(t->text), "%s", out.buf ? out.buf : "");
	for (t->nargs = 0; t->nargs < args.n; t->nargs++)
		t->str_len[t->nargs] = args.v[t->nargs].str_len;
	kmsg_strbuf_free(&out);
	return ret;
}

static int collect_one(struct tep_event *event, struct tep_record *rec,
		       int cpu, void *data)
{
	struct collect *c = data;
	struct trace_msg *t;
	char err[256];
	unsigned long long flags = 0;

	(void)event;
	(void)cpu;
	c->missed += rec->missed_events > 0 ? rec->missed_events : 0;
	if (!kmsg_event_match(c->ev, rec))
		return 0;
	if (c->n == c->max) {
		c->bad++;
		return 0;
	}
	t = &c->msgs[c->n++];
	memset(t, 0, sizeof(*t));
	if (kmsg_event_decode(c->ev, rec, &t->msg, err, sizeof(err))) {
		t->problems = -1;
		c->bad++;
		return 0;
	}
	tep_get_common_field_val(NULL, event, "common_flags", rec, &flags, 0);
	t->common_flags = flags;
	copy_str(t->component, sizeof(t->component), &t->msg.component);
	copy_str(t->fmt, sizeof(t->fmt), &t->msg.fmt);
	copy_str(t->driver, sizeof(t->driver), &t->msg.driver);
	copy_str(t->device, sizeof(t->device), &t->msg.device);
	t->problems = rebuild(&t->msg, c->opts, t);
	return 0;
}

struct trace_ctx {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct kmsg_event ev;
	struct kmsg_ksyms ksyms;
	struct kmsg_render_opts opts;
	struct trace_msg *msgs;
	struct collect c;
};

FIXTURE(trace) {
	struct trace_ctx t;
};

/* Same, with a ring buffer of 8 KiB per CPU */
FIXTURE(small) {
	struct trace_ctx t;
};

static void ctx_setup(struct __test_metadata *_metadata,
			struct trace_ctx *self, int buffer_kb)
{
	char name[64], err[256];

	ASSERT_EQ(0, load_kmsgtest());
	snprintf(name, sizeof(name), "kmsg_selftest_%d", getpid());
	self->inst = tracefs_instance_create(name);
	ASSERT_NE(NULL, self->inst);
	ASSERT_EQ(0, tracefs_instance_set_buffer_size(self->inst, buffer_kb, -1));
	self->tep = tracefs_local_events(NULL);
	ASSERT_NE(NULL, self->tep);
	ASSERT_EQ(0, kmsg_event_init(&self->ev, self->tep, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(0, kmsg_ksyms_load(&self->ksyms, "/proc/kallsyms"));
	self->opts.long_size = sizeof(long);
	self->opts.symbolic_errname = true;
	self->opts.lookup_symbol = kmsg_ksyms_lookup;
	self->opts.lookup_ctx = &self->ksyms;
	self->msgs = calloc(MAX_RECORDS, sizeof(*self->msgs));
	ASSERT_NE(NULL, self->msgs);
	self->c.ev = &self->ev;
	self->c.opts = &self->opts;
	self->c.msgs = self->msgs;
	self->c.max = MAX_RECORDS;
	ASSERT_EQ(0, tracefs_event_enable(self->inst, "kmsg", "kmsg"));
}

static void ctx_teardown(struct trace_ctx *self)
{
	if (self->inst) {
		tracefs_event_disable(self->inst, NULL, NULL);
		tracefs_instance_destroy(self->inst);
		tracefs_instance_free(self->inst);
	}
	kmsg_ksyms_free(&self->ksyms);
	if (self->tep)
		tep_free(self->tep);
	free(self->msgs);
}

FIXTURE_SETUP(trace)
{
	ctx_setup(_metadata, &self->t, 1024);
}

FIXTURE_TEARDOWN(trace)
{
	ctx_teardown(&self->t);
}

FIXTURE_SETUP(small)
{
	ctx_setup(_metadata, &self->t, 8);
}

FIXTURE_TEARDOWN(small)
{
	ctx_teardown(&self->t);
}

/* Read (and consume) what the instance holds */
static int collect(struct trace_ctx *self)
{
	self->c.n = 0;
	self->c.bad = 0;
	self->c.missed = 0;
	return tracefs_iterate_raw_events(self->tep, self->inst, NULL, 0,
					  collect_one, &self->c);
}

static struct trace_msg *find(struct trace_ctx *self, unsigned int nr)
{
	int i;

	for (i = 0; i < self->c.n; i++)
		if (!strcmp(self->msgs[i].component, "kmsgtest") &&
		    self->msgs[i].msg.number == nr)
			return &self->msgs[i];
	return NULL;
}

static int count_nr(struct trace_ctx *self, unsigned int nr)
{
	int i, n = 0;

	for (i = 0; i < self->c.n; i++)
		n += self->msgs[i].msg.number == nr;
	return n;
}

/* The format as the kmsg index lists it (escaped), without its "\n" */
static void index_fmt_unescaped(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (; *in && n + 1 < size; in++) {
		if (*in == '\\' && in[1] == 'n' && !in[2])
			break;
		out[n++] = *in;
	}
	out[n] = '\0';
}

/* Every kmsgtest message: record fields, and text equal to /dev/kmsg */
TEST_F(trace, every_message)
{
	struct kmsg_record rec;
	char fmt[1100];
	size_t i;

	for (i = 0; i < NR_EXPECTED; i++) {
		const struct expected_msg *e = &expected[i];
		struct trace_msg *t;

		ASSERT_EQ(0, fire_and_read(e->nr, &rec));
		ASSERT_LE(0, collect(&self->t));
		EXPECT_EQ(0, self->t.c.bad);
		t = find(&self->t, e->nr);
		if (!e->index_fmt) {
			/* the prefix form is a plain printk(): no event */
			EXPECT_EQ(NULL, t) TH_LOG("kmsgtest.%u traced", e->nr);
			continue;
		}
		ASSERT_NE(NULL, t) TH_LOG("kmsgtest.%u: no event", e->nr);
		EXPECT_EQ(1, count_nr(&self->t, e->nr));
		EXPECT_EQ(e->level, (int)t->msg.level);
		EXPECT_EQ(1, t->msg.version);
		EXPECT_EQ(0, t->msg.flags);
		EXPECT_STREQ(e->device ? "platform" : "", t->driver);
		EXPECT_STREQ(e->device ? "kmsgtest" : "", t->device);
		index_fmt_unescaped(e->index_fmt, fmt, sizeof(fmt));
		EXPECT_STREQ(fmt, t->fmt);
		EXPECT_EQ(0, t->problems);
		EXPECT_STREQ(rec.text, t->text)
			TH_LOG("kmsgtest.%u rebuilt differently", e->nr);
	}
}

/* vbin_printf() copies no further than the precision (kmsgtest.15) */
TEST_F(trace, string_precision)
{
	struct kmsg_record rec;
	struct trace_msg *t;

	ASSERT_EQ(0, fire_and_read(15, &rec));
	ASSERT_LE(0, collect(&self->t));
	t = find(&self->t, 15);
	ASSERT_NE(NULL, t);
	ASSERT_EQ(2, t->nargs);
	EXPECT_EQ(4, t->str_len[0]);
	EXPECT_EQ(2, t->str_len[1]);
	/* 4 (precision) + "wxyz" + NUL + "wx" + NUL = 12 bytes, 3 words */
	EXPECT_GE(16, t->msg.args_len);
	EXPECT_STREQ(rec.text, t->text);
}

/* A module's buffered events still decode after it is unloaded */
TEST_F(trace, module_unloaded)
{
	struct kmsg_record rec;
	struct trace_msg *t;

	ASSERT_EQ(0, fire_and_read(2, &rec));
	ASSERT_EQ(0, system("rmmod kmsgtest"));
	ASSERT_LE(0, collect(&self->t));
	t = find(&self->t, 2);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("device %x not online", t->fmt);
	EXPECT_STREQ(rec.text, t->text);
	EXPECT_EQ(0, load_kmsgtest());
}

/*
 * Message 16 fired through PATH names CONTEXT in its text, and its record
 * carries FLAG in common_flags and rebuilds to the same text.
 */
#define CHECK_CONTEXT(path, context, flag)				\
	do {								\
		struct kmsg_record rec;					\
		struct trace_msg *t;					\
									\
		ASSERT_EQ(0, fire_and_read_via(path, 16, &rec));	\
		EXPECT_EQ(0, fnmatch("kmsgtest.16: context " context	\
				     " cpu *", rec.text, 0))		\
			TH_LOG("%s", rec.text);				\
		ASSERT_LE(0, collect(&self->t));			\
		t = find(&self->t, 16);					\
		ASSERT_NE(NULL, t);					\
		EXPECT_NE(0, t->common_flags & (flag));			\
		EXPECT_STREQ(rec.text, t->text);			\
	} while (0)

/* From softirq context (a timer) */
TEST_F(trace, softirq)
{
	CHECK_CONTEXT(FIRE_SOFTIRQ_PATH, "softirq", TRACE_FLAG_SOFTIRQ);
}

/* From hard interrupt context (irq_work) */
TEST_F(trace, hardirq)
{
	CHECK_CONTEXT(FIRE_IRQ_PATH, "hardirq", TRACE_FLAG_HARDIRQ);
}

/* From NMI context: an NMI the CPU sends itself (x86) */
TEST_F(trace, nmi)
{
	CHECK_CONTEXT(FIRE_NMI_PATH, "nmi", TRACE_FLAG_NMI);
}

/* Both CPUs at once: every message recorded, on the CPU that printed it */
TEST_F(trace, all_cpus)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int per_cpu[8] = { 0 };
	char want[64];
	int i, count = 200;

	ASSERT_LE(2, cpus) TH_LOG("needs 2 CPUs (qemu -smp 2)");
	ASSERT_GE(8, cpus);
	ASSERT_EQ(0, write_str(FIRE_CPUS_PATH, "200\n"));
	ASSERT_LE(0, collect(&self->t));
	EXPECT_EQ(0, self->t.c.bad);
	EXPECT_EQ(0, self->t.c.missed);
	for (i = 0; i < self->t.c.n; i++) {
		struct trace_msg *t = &self->t.msgs[i];

		if (t->msg.number != 16)
			continue;
		ASSERT_GT(cpus, t->msg.cpu);
		per_cpu[t->msg.cpu]++;
		snprintf(want, sizeof(want), "cpu %d", t->msg.cpu);
		EXPECT_NE(NULL, strstr(t->text, want)) TH_LOG("%s", t->text);
	}
	for (i = 0; i < cpus; i++)
		EXPECT_EQ(count, per_cpu[i]) TH_LOG("cpu %d", i);
}

/* The event disabled: nothing in the buffer, the message still printed */
TEST_F(trace, disabled)
{
	struct kmsg_record rec;

	ASSERT_EQ(0, tracefs_event_disable(self->t.inst, "kmsg", "kmsg"));
	ASSERT_EQ(0, fire_and_read(2, &rec));
	EXPECT_STREQ("kmsgtest.2: device 4711 not online", rec.text);
	ASSERT_LE(0, collect(&self->t));
	EXPECT_EQ(0, self->t.c.n);
}

/* Overrun of a small buffer: lost events reported, the rest decodes */
TEST_F(small, overrun)
{
	unsigned long long overrun = 0;
	const char *p;
	char *stats;

	/* keep the console out of it: 3000 messages per CPU */
	ASSERT_EQ(0, write_str("/proc/sys/kernel/printk", "4\n"));
	EXPECT_EQ(0, write_str(FIRE_CPUS_PATH, "3000\n"));
	write_str("/proc/sys/kernel/printk", "7\n");
	stats = tracefs_instance_file_read(self->t.inst, "per_cpu/cpu0/stats",
					   NULL);
	ASSERT_NE(NULL, stats);
	p = strstr(stats, "overrun: ");
	if (p)
		overrun = strtoull(p + 9, NULL, 10);
	free(stats);
	EXPECT_LT(0, overrun);
	ASSERT_LE(0, collect(&self->t));
	EXPECT_EQ(0, self->t.c.bad);
	EXPECT_LT(0, self->t.c.n);
	TH_LOG("overrun %llu, %d records kept, %llu reported missed",
	       overrun, self->t.c.n, self->t.c.missed);
}

TEST_HARNESS_MAIN
