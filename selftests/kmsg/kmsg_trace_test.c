// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg selftests: the kmsg:kmsg trace event.
 *
 * First, the boot: the guest enables kmsg:kmsg on the kernel command line,
 * and every /dev/kmsg record from the first event on must be rebuilt from
 * the events with its sequence number. Then, in a tracefs instance of its
 * own: plain messages of every path to printk() (test_modules/kmsg_paths),
 * identifiers across two builds of a module (test_modules/kmsg_ids_*),
 * each kmsgtest message with its curated identifier, level, device and
 * format, a module's events outliving the module, softirq, hard interrupt
 * and NMI context, printk_deferred(), both CPUs at once, ring-buffer
 * overruns, and the event
 * disabled. A text rebuilt from an event's binary arguments must be, byte
 * for byte, the text /dev/kmsg shows.
 *
 * Needs libtracefs and libtraceevent, and the kmsg tools' decoder and
 * renderer (tools/lib of the kmsg project).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "../kselftest_harness.h"

#include "kmsg_common.h"
#include "kmsg_event.h"
#include "kmsg_id.h"
#include "kmsg_ksyms.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"
#include "kmsg_text.h"

#define MAX_RECORDS	8192
#define KMSG_TRACE_DEVICE	0x02
#define TEST_MODULES	"test_modules"
/* common_flags bits of a record made in interrupt and NMI context */
#define TRACE_FLAG_HARDIRQ	0x08
#define TRACE_FLAG_SOFTIRQ	0x10
#define TRACE_FLAG_NMI		0x40

/* One decoded record, with its text rebuilt */
struct trace_msg {
	struct kmsg_msg msg;
	unsigned int common_flags;
	char component[64], fmt[1100], driver[64], device[64], modname[64];
	char wrap_fmt[1100];
	char auto_id[KMSG_ID_MAX];
	char text[2048];
	int problems;		/* markers in the text, or -1: not decoded */
	size_t str_len[KMSG_ARGS_MAX];	/* string arguments */
	int nargs;
};

struct collect {
	struct kmsg_event *ev;
	struct kmsg_render_opts *opts;
	struct trace_msg *msgs;
	int n, max, bad;
	unsigned long long missed;	/* events lost, as counted */
	int missed_unknown;		/* losses whose count is unknown */
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
	struct kmsg_strbuf wrap = { 0 };
	char err[256];
	unsigned long long flags = 0;

	(void)event;
	(void)cpu;
	/* libtraceevent says -1 for "lost, count unknown" */
	if (rec->missed_events > 0)
		c->missed += rec->missed_events;
	else if (rec->missed_events < 0)
		c->missed_unknown++;
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
	copy_str(t->modname, sizeof(t->modname), &t->msg.modname);
	/* the formats of nested wrappers, spliced into one */
	if (!kmsg_msg_wrapper_fmt(&wrap, &t->msg) && wrap.buf)
		snprintf(t->wrap_fmt, sizeof(t->wrap_fmt), "%s", wrap.buf);
	kmsg_strbuf_free(&wrap);
	if (kmsg_auto_id(t->auto_id, sizeof(t->auto_id), t->msg.modname.s,
			 t->msg.modname.len, t->msg.fmt.s,
			 kmsg_msg_fmt_len(&t->msg)) < 0)
		t->auto_id[0] = '\0';
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

/* The event's decoder, the symbols, room for MAX_RECORDS records */
static int decoder_setup(struct trace_ctx *self, char *err, size_t errlen)
{
	self->tep = tracefs_local_events(NULL);
	if (!self->tep) {
		snprintf(err, errlen, "tracefs_local_events() failed");
		return -1;
	}
	if (kmsg_event_init(&self->ev, self->tep, err, errlen))
		return -1;
	if (kmsg_ksyms_load(&self->ksyms, "/proc/kallsyms")) {
		snprintf(err, errlen, "cannot read /proc/kallsyms");
		return -1;
	}
	self->opts.long_size = sizeof(long);
	self->opts.symbolic_errname = true;
	self->opts.lookup_symbol = kmsg_ksyms_lookup;
	self->opts.lookup_ctx = &self->ksyms;
	self->msgs = calloc(MAX_RECORDS, sizeof(*self->msgs));
	if (!self->msgs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	self->c.ev = &self->ev;
	self->c.opts = &self->opts;
	self->c.msgs = self->msgs;
	self->c.max = MAX_RECORDS;
	return 0;
}

static void ctx_setup(struct __test_metadata *_metadata,
			struct trace_ctx *self, int buffer_kb)
{
	char name[64], err[256];

	ASSERT_EQ(0, load_kmsgtest());
	snprintf(name, sizeof(name), "kmsg_selftest_%d", getpid());
	self->inst = tracefs_instance_create(name);
	ASSERT_NE(NULL, self->inst);
	ASSERT_EQ(0, tracefs_instance_set_buffer_size(self->inst, buffer_kb, -1));
	ASSERT_EQ(0, decoder_setup(self, err, sizeof(err))) TH_LOG("%s", err);
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
	self->c.missed_unknown = 0;
	return tracefs_iterate_raw_events(self->tep, self->inst, NULL, 0,
					  collect_one, &self->c);
}

/*
 * Is @t kmsgtest message @nr? By the curated identifier its format starts
 * with: the kmsg_*() macros put it there, and so does the prefix form (a
 * plain printk()).
 */
static bool is_kmsgtest(const struct trace_msg *t, unsigned int nr)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "kmsgtest.%u: ", nr);
	return !strncmp(t->fmt, prefix, strlen(prefix));
}

static struct trace_msg *find(struct trace_ctx *self, unsigned int nr)
{
	int i;

	for (i = 0; i < self->c.n; i++)
		if (is_kmsgtest(&self->msgs[i], nr))
			return &self->msgs[i];
	return NULL;
}

static int count_nr(struct trace_ctx *self, unsigned int nr)
{
	int i, n = 0;

	for (i = 0; i < self->c.n; i++)
		n += is_kmsgtest(&self->msgs[i], nr);
	return n;
}

/*
 * The format as the kmsg index lists it (escaped), without its "\n"
 * unless @keep_newline (a device message's format is recorded as passed)
 */
static void index_fmt_unescaped(const char *in, char *out, size_t size,
				bool keep_newline)
{
	size_t n = 0;

	for (; *in && n + 1 < size; in++) {
		if (*in == '\\' && in[1] == 'n' && !in[2]) {
			if (keep_newline && n + 2 < size)
				out[n++] = '\n';
			break;
		}
		out[n++] = *in;
	}
	out[n] = '\0';
}

/* A /dev/kmsg record: its sequence number and unescaped text */
struct devkmsg_rec {
	unsigned long long seq;
	char text[RECORD_MAX];
};

/*
 * Read the kernel's records of /dev/kmsg (facility 0), opened O_NONBLOCK
 * on @fd, until none is left; at most @max. Returns how many.
 */
static int read_devkmsg(int fd, struct devkmsg_rec *recs, int max)
{
	static char buf[RECORD_MAX];
	static struct kmsg_record tmp;
	ssize_t len;
	int n = 0;

	while (n < max) {
		len = read(fd, buf, sizeof(buf) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (len <= 0)
			break;
		buf[len] = '\0';
		/* kernel messages only: not what user space wrote */
		if (parse_record(buf, &tmp) || atoi(buf) >> 3)
			continue;
		unescape_text(tmp.text);
		recs[n].seq = tmp.seq;
		snprintf(recs[n].text, sizeof(recs[n].text), "%s", tmp.text);
		n++;
	}
	return n;
}

/*
 * Messages a CPU prints while it comes up, before it is online: no
 * tracepoint fires there (their condition is cpu_online()). On x86,
 * calibrate_delay() of a starting CPU, when TCG's timing is noisy.
 */
static bool from_offline_cpu(const char *text)
{
	static const char *const known[] = {
		"calibrate_delay_direct() ",
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strncmp(text, known[i], strlen(known[i])))
			return true;
	return false;
}

/*
 * Each record of @recs from sequence number @from on must be rebuilt,
 * byte for byte, from the events with its sequence number, joined in the
 * order they were recorded (a record with pr_cont() fragments has one
 * event per fragment), unless a CPU that was not online printed it.
 * Logs every record that is not; returns how many.
 */
static int check_join(struct __test_metadata *_metadata,
		      struct trace_ctx *self, const struct devkmsg_rec *recs,
		      int n, unsigned long long from, int *checked)
{
	static char joined[8192];
	int i, j, bad = 0;

	*checked = 0;
	for (i = 0; i < n; i++) {
		size_t len = 0;
		int events = 0;

		if (recs[i].seq < from)
			continue;
		(*checked)++;
		joined[0] = '\0';
		for (j = 0; j < self->c.n; j++) {
			const struct trace_msg *t = &self->msgs[j];

			if (t->msg.seq != recs[i].seq)
				continue;
			events++;
			len += snprintf(joined + len, sizeof(joined) - len,
					"%s", t->text);
			if (len >= sizeof(joined))
				len = sizeof(joined) - 1;
		}
		if (!events && from_offline_cpu(recs[i].text)) {
			TH_LOG("seq %llu has no event, printed by a CPU not online yet: %s",
			       recs[i].seq, recs[i].text);
		} else if (!events) {
			bad++;
			TH_LOG("seq %llu has no event: %s", recs[i].seq,
			       recs[i].text);
		} else if (strcmp(joined, recs[i].text)) {
			bad++;
			TH_LOG("seq %llu rebuilt from %d event(s) as '%s', /dev/kmsg has '%s'",
			       recs[i].seq, events, joined, recs[i].text);
		}
	}
	return bad;
}

static struct trace_msg *find_fmt(struct trace_ctx *self, const char *fmt)
{
	int i;

	for (i = 0; i < self->c.n; i++)
		if (!strcmp(self->msgs[i].fmt, fmt))
			return &self->msgs[i];
	return NULL;
}

/* The automatic identifier a message of @modname with @fmt must have */
static const char *auto_id_of(const char *modname, const char *fmt)
{
	static char id[KMSG_ID_MAX];

	if (kmsg_auto_id(id, sizeof(id), modname, strlen(modname), fmt,
			 strlen(fmt)) < 0)
		return "";
	return id;
}

/*
 * Events the ring buffer of @inst overwrote, on all CPUs; -1 if a CPU's
 * count cannot be read
 */
static long long overrun(struct tracefs_instance *inst)
{
	long long sum = 0;
	char file[64], *stats, *p;
	int cpu;

	for (cpu = 0; cpu < sysconf(_SC_NPROCESSORS_ONLN); cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		stats = tracefs_instance_file_read(inst, file, NULL);
		p = stats ? strstr(stats, "overrun: ") : NULL;
		if (!p) {
			free(stats);
			return -1;
		}
		sum += strtoll(p + 9, NULL, 10);
		free(stats);
	}
	return sum;
}

/*
 * The guest boots with trace_event=kmsg:kmsg: from the first event on,
 * every record of the boot (and of the tests that ran before this one)
 * is in the top instance's stream, with an identifier and the same text.
 */
/*
 * A line of trace_printk()'s banner (kernel/trace/trace.c), which
 * no_hash_pointers' (lib/vsprintf.c) prints too: vmlinux keeps the two
 * equal strings apart (-fno-merge-constants with the event configured),
 * so that each call site is named by its own KBUILD_MODNAME
 */
static const char notice[] =
	"**   NOTICE NOTICE NOTICE NOTICE NOTICE NOTICE NOTICE   **";

TEST(boot_coverage)
{
	static struct trace_ctx ctx;
	struct trace_ctx *self = &ctx;
	struct devkmsg_rec *recs;
	unsigned long long first = ~0ULL;
	char err[256], *enabled;
	int i, fd, n, checked, bad, noid = 0, devmsgs = 0, nodev = 0;
	int notices = 0;

	enabled = tracefs_instance_file_read(NULL, "events/kmsg/kmsg/enable",
					     NULL);
	ASSERT_NE(NULL, enabled);
	/* qemu/run.sh boots the guest of make check with it */
	EXPECT_EQ('1', enabled[0]) TH_LOG("boot without trace_event=kmsg:kmsg");
	free(enabled);
	if (_metadata->exit_code)
		return;
	ASSERT_EQ(0, decoder_setup(self, err, sizeof(err))) TH_LOG("%s", err);
	recs = calloc(MAX_RECORDS, sizeof(*recs));
	ASSERT_NE(NULL, recs);

	/* Stop recording, then read what the boot left */
	ASSERT_EQ(0, tracefs_event_disable(NULL, "kmsg", "kmsg"));
	ASSERT_LE(0, collect(self));
	EXPECT_EQ(0, self->c.bad);
	EXPECT_EQ(0, self->c.missed);
	EXPECT_EQ(0, self->c.missed_unknown);
	/*
	 * Nothing was overwritten: the oldest event is the first one the
	 * boot recorded, not the oldest that survived.
	 */
	EXPECT_EQ(0, overrun(NULL));
	ASSERT_LT(0, self->c.n);
	for (i = 0; i < self->c.n; i++) {
		const struct trace_msg *t = &self->msgs[i];

		if (t->msg.seq < first)
			first = t->msg.seq;
		noid += !t->auto_id[0];
		/*
		 * A device message of a built-in driver is named by the
		 * driver's KBUILD_MODNAME (its dev_*() site's index entry),
		 * not by the device layer's wrapper
		 */
		/*
		 * A literal that built-in call sites of different
		 * KBUILD_MODNAME print is named by the one that printed it
		 */
		if (!strcmp(t->fmt, notice)) {
			notices++;
			EXPECT_STREQ("trace", t->modname);
		}
		if ((t->msg.flags & KMSG_TRACE_DEVICE) &&
		    (t->msg.flags & KMSG_EVENT_WRAPPED)) {
			devmsgs++;
			if (!t->modname[0] || !strcmp(t->modname, "core")) {
				nodev++;
				TH_LOG("device message without its driver's module: '%s' (%s)",
				       t->fmt, t->modname);
			}
		}
	}
	EXPECT_EQ(0, noid);
	EXPECT_LT(0, devmsgs);
	EXPECT_EQ(0, nodev);
	TH_LOG("%d device messages of the boot, each named by its driver's module",
	       devmsgs);
	TH_LOG("%d lines of trace_printk()'s banner, named by their module", notices);

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	n = read_devkmsg(fd, recs, MAX_RECORDS);
	close(fd);
	bad = check_join(_metadata, self, recs, n, first, &checked);
	TH_LOG("%d records from seq %llu on, %d events, %d not rebuilt",
	       checked, first, self->c.n, bad);
	EXPECT_LT(10, checked);
	EXPECT_EQ(0, bad);

	kmsg_ksyms_free(&self->ksyms);
	tep_free(self->tep);
	free(self->msgs);
	free(recs);
}

/*
 * Plain messages of every path to printk(), from a module that knows
 * nothing of kmsg, decoded after the module is gone: each record the
 * module made is rebuilt from its events, and the events name the module
 * and the format.
 */
TEST_F(trace, plain_paths)
{
	struct devkmsg_rec *recs = calloc(512, sizeof(*recs));
	unsigned long long from = ~0ULL;
	struct trace_msg *t;
	int i, fd, n, checked;

	ASSERT_NE(NULL, recs);
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	lseek(fd, 0, SEEK_END);
	ASSERT_EQ(0, system("insmod " TEST_MODULES "/kmsg_paths.ko"));
	ASSERT_EQ(0, system("rmmod kmsg_paths"));
	/*
	 * once more with %pK restricted to zeros, and once with %pK raw for
	 * CAP_SYSLOG, but "pK-error" in an interrupt
	 */
	ASSERT_EQ(0, write_str("/proc/sys/kernel/kptr_restrict", "2\n"));
	EXPECT_EQ(0, system("insmod " TEST_MODULES "/kmsg_paths.ko"));
	EXPECT_EQ(0, system("rmmod kmsg_paths"));
	ASSERT_EQ(0, write_str("/proc/sys/kernel/kptr_restrict", "1\n"));
	EXPECT_EQ(0, system("insmod " TEST_MODULES "/kmsg_paths.ko"));
	write_str("/proc/sys/kernel/kptr_restrict", "0\n");
	EXPECT_EQ(0, system("rmmod kmsg_paths"));
	n = read_devkmsg(fd, recs, 512);
	close(fd);
	ASSERT_LE(0, collect(&self->t));
	EXPECT_EQ(0, self->t.c.bad);

	/* The records of the module: from its first message to its last */
	for (i = 0; i < n && from == ~0ULL; i++)
		if (strstr(recs[i].text, "kmsg_paths: pr_info with pr_fmt"))
			from = recs[i].seq;
	ASSERT_NE(~0ULL, from);
	EXPECT_EQ(0, check_join(_metadata, &self->t, recs, n, from, &checked));
	EXPECT_LT(40, checked);
	for (i = 0; i < n; i++)
		if (strstr(recs[i].text, "kmsg_paths: pointers ") &&
		    strstr(recs[i].text, " 0000000000000000 "))
			break;
	EXPECT_GT(n, i) TH_LOG("no %%pK printed as zeros");
	for (i = 0; i < n; i++)
		if (strstr(recs[i].text, "kmsg_paths: pointers in an interrupt ") &&
		    strstr(recs[i].text, "        pK-error pK-error  |"))
			break;
	EXPECT_GT(n, i) TH_LOG("no %%pK printed as pK-error in an interrupt");
	/* the event says so, and the text is rebuilt (check_join above) */
	for (i = 0; i < self->t.c.n; i++) {
		t = &self->t.msgs[i];
		if (!strcmp(t->fmt, "kmsg_paths: pointers in an interrupt %p %pK %-10pK|") &&
		    (t->msg.flags & KMSG_EVENT_PK_ERROR))
			break;
	}
	EXPECT_GT(self->t.c.n, i) TH_LOG("no event flagged KMSG_EVENT_PK_ERROR");

	/* pr_fmt() is part of the format; the module names the message */
	t = find_fmt(&self->t, "kmsg_paths: pr_info with pr_fmt, %d and %s");
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("kmsg_paths", t->modname);
	EXPECT_STREQ("", t->component);
	EXPECT_EQ(0, t->msg.number);
	EXPECT_EQ(6, (int)t->msg.level);
	EXPECT_STREQ(auto_id_of("kmsg_paths", t->fmt), t->auto_id);

	/* A level-less printk() gets the default level */
	t = find_fmt(&self->t, "printk without a level %u");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(4, (int)t->msg.level);

	/*
	 * A device message: the message in dev_printk()'s "%s %s: %pV",
	 * driver and device its first arguments
	 */
	t = find_fmt(&self->t, "device error %d on %s\n");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(KMSG_EVENT_WRAPPED | KMSG_TRACE_DEVICE, t->msg.flags);
	EXPECT_STREQ("%s %s: %pV", t->wrap_fmt);
	EXPECT_STREQ("platform", t->driver);
	EXPECT_STREQ("kmsg_paths", t->device);
	EXPECT_STREQ("platform kmsg_paths: device error -5 on port 1", t->text);

	/* A device without driver, bus or class */
	t = find_fmt(&self->t, "bare device message %d\n");
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("", t->driver);
	EXPECT_STREQ(" kmsg_paths_bare: bare device message 42", t->text);

	/* The once variant fires once; the continuation has four events */
	EXPECT_NE(NULL, find_fmt(&self->t, "kmsg_paths: once, whatever i is (%d)"));
	EXPECT_NE(NULL, find_fmt(&self->t, " %s"));

	/* Pointers: as printk() printed them, whether hashed or not */
	t = find_fmt(&self->t, "kmsg_paths: pointers %p %pK %px");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(0, t->problems);
	t = find_fmt(&self->t, "kmsg_paths: not an error %pe");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(0, t->problems);

	/*
	 * A string no longer than the record shows: printk() cuts the text
	 * at 1023 bytes, its level header included, which leaves 1004 of
	 * the string after "kmsg_paths: long "
	 */
	t = find_fmt(&self->t, "kmsg_paths: long %s");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(1, t->nargs);
	EXPECT_EQ(1004, (int)t->str_len[0]);
	EXPECT_EQ(0, t->problems);

	/*
	 * A message passed in a %pV is recorded as itself: its format, its
	 * arguments, its module and id; the wrapper apart, the text whole
	 */
	t = find_fmt(&self->t, "inner %s %d");
	ASSERT_NE(NULL, t);
	/* the wrapper's format ends in the newline printk() drops */
	EXPECT_EQ(KMSG_EVENT_WRAPPED | KMSG_EVENT_NEWLINE, t->msg.flags);
	EXPECT_STREQ("kmsg_paths", t->modname);
	EXPECT_STREQ(auto_id_of("kmsg_paths", "inner %s %d"), t->auto_id);
	EXPECT_EQ(2, t->nargs);
	EXPECT_STREQ("kmsg_paths: wrapped (outer): inner format 99 (7)",
		     t->text);
	EXPECT_STREQ("kmsg_paths: wrapped (%s): %pV (%d)", t->wrap_fmt);

	/*
	 * So is the caller's message of dev_err_probe(), in a %pV of a %pV:
	 * the two wrappers are recorded around it
	 */
	t = find_fmt(&self->t, "probe failed for %s\n");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(KMSG_EVENT_WRAPPED | KMSG_TRACE_DEVICE, t->msg.flags);
	EXPECT_STREQ("%s %s: error %pe: %pV", t->wrap_fmt);
	EXPECT_STREQ("platform", t->driver);
	EXPECT_STREQ("kmsg_paths", t->modname);
	EXPECT_STREQ(auto_id_of("kmsg_paths", "probe failed for %s"),
		     t->auto_id);
	EXPECT_NE(NULL, strstr(t->text, ": probe failed for kmsg"));

	/*
	 * dev_printk_emit(), as netdev_printk() and dynamic debug call it:
	 * a record of the device, the format the caller's
	 */
	t = find_fmt(&self->t, "dev_printk_emit %d");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(KMSG_TRACE_DEVICE | KMSG_EVENT_NEWLINE, t->msg.flags);
	EXPECT_STREQ("dev_printk_emit 5", t->text);
	t = find_fmt(&self->t, "link %s at %u Mb/s\n");
	ASSERT_NE(NULL, t);
	/* the wrapper's format has no newline: the message's is dropped */
	EXPECT_EQ(KMSG_EVENT_WRAPPED | KMSG_TRACE_DEVICE, t->msg.flags);
	EXPECT_STREQ("platform", t->driver);
	EXPECT_STREQ("kmsg_paths", t->device);
	EXPECT_STREQ("kmsg_paths", t->modname);
	EXPECT_STREQ("platform kmsg_paths kpath0: link up at 1000 Mb/s", t->text);
	free(recs);
}

/*
 * The same messages in other lines and functions of a second build keep
 * their identifiers; the reworded one gets a new one. Each identifier is
 * the one computed from the module name and the format in the source.
 */
TEST_F(trace, ids_stable)
{
	static const char * const fmts[] = {
		"kmsg_ids: first message %d",
		"kmsg_ids: second message %s",
		"kmsg_ids: third message",
		"kmsg_ids: third message, reworded",
	};
	char ids_a[4][KMSG_ID_MAX] = { 0 }, ids_b[4][KMSG_ID_MAX] = { 0 };
	struct trace_msg *t;
	size_t i;

	ASSERT_EQ(0, system("insmod " TEST_MODULES "/kmsg_ids_a.ko"));
	ASSERT_EQ(0, system("rmmod kmsg_ids"));
	ASSERT_LE(0, collect(&self->t));
	for (i = 0; i < 4; i++) {
		t = find_fmt(&self->t, fmts[i]);
		if (!t)
			continue;
		EXPECT_STREQ("kmsg_ids", t->modname);
		snprintf(ids_a[i], KMSG_ID_MAX, "%s", t->auto_id);
	}

	ASSERT_EQ(0, system("insmod " TEST_MODULES "/kmsg_ids_b.ko"));
	ASSERT_EQ(0, system("rmmod kmsg_ids"));
	ASSERT_LE(0, collect(&self->t));
	for (i = 0; i < 4; i++) {
		t = find_fmt(&self->t, fmts[i]);
		if (!t)
			continue;
		snprintf(ids_b[i], KMSG_ID_MAX, "%s", t->auto_id);
	}

	EXPECT_STREQ(auto_id_of("kmsg_ids", fmts[0]), ids_a[0]);
	EXPECT_STREQ(auto_id_of("kmsg_ids", fmts[1]), ids_a[1]);
	EXPECT_STREQ(auto_id_of("kmsg_ids", fmts[2]), ids_a[2]);
	EXPECT_STREQ("", ids_a[3]);
	EXPECT_STREQ(ids_a[0], ids_b[0]);
	EXPECT_STREQ(ids_a[1], ids_b[1]);
	EXPECT_STREQ("", ids_b[2]);
	EXPECT_STREQ(auto_id_of("kmsg_ids", fmts[3]), ids_b[3]);
	EXPECT_STRNE(ids_a[2], ids_b[3]);
}

/*
 * An identifier does not depend on how the code is built: kmsgbench is a
 * module in the guest and built in in the debug guest
 * (qemu/kernel-debug.config), and its messages, a pr_info() and a
 * dev_info() wrapped in dev_printk()'s "%s %s: %pV", are named by its
 * KBUILD_MODNAME either way: from the module the format lies in, or from
 * vmlinux's printk index.
 */
TEST_F(trace, ids_built_in_or_module)
{
	static const char run[] = "/sys/kernel/debug/kmsgbench/run";
	/* the message of a %pV is recorded as passed, its newline kept */
	static const char * const fmts[] = {
		"kmsgbench.1: request %u of device %s at %lx",
		"request %u of device %s at %lx\n",
	};
	/* what the identifier hashes: the format without its newline */
	static const char * const hashed[] = {
		"kmsgbench.1: request %u of device %s at %lx",
		"request %u of device %s at %lx",
	};
	static const char * const modes[] = { "printk 1", "dev 1", "probe 1" };
	static const char probe_fmt[] = "request %u of device %s at %lx failed\n";
	static const char probe_hashed[] = "request %u of device %s at %lx failed";
	/* dev_err_probe()'s format spliced into dev_printk()'s */
	static const char probe_wrap[] = "%s %s: error %pe: %pV";
	int notices, probes;
	bool module;
	struct trace_msg *t;
	size_t i;

	if (access(run, W_OK))
		ASSERT_EQ(0, system("modprobe kmsgbench"));
	module = !system("grep -q '^kmsgbench ' /proc/modules");
	TH_LOG("kmsgbench is %s", module ? "a module" : "built in");
	for (i = 0; i < ARRAY_SIZE(modes); i++)
		ASSERT_EQ(0, write_str(run, modes[i]));
	if (module)
		EXPECT_EQ(0, system("rmmod kmsgbench"));
	ASSERT_LE(0, collect(&self->t));
	/*
	 * The module, the boot's first user of trace_printk(), made
	 * tracing print its banner: a literal that lib/vsprintf.c prints
	 * too, named by its own module
	 */
	for (i = 0, notices = 0; module && i < (size_t)self->t.c.n; i++) {
		if (strcmp(self->t.msgs[i].fmt, notice))
			continue;
		notices++;
		EXPECT_STREQ("trace", self->t.msgs[i].modname);
	}
	if (module)
		EXPECT_LT(0, notices) TH_LOG("no banner of trace_printk()");
	for (i = 0; i < 2; i++) {
		t = find_fmt(&self->t, fmts[i]);
		ASSERT_NE(NULL, t) TH_LOG("no event of \"%s\"", fmts[i]);
		EXPECT_STREQ("kmsgbench", t->modname);
		EXPECT_STREQ(auto_id_of("kmsgbench", hashed[i]), t->auto_id);
		EXPECT_EQ(i == 1, !!(t->msg.flags & KMSG_EVENT_WRAPPED));
	}
	/*
	 * A message passed to a function, dev_err_probe(), wrapped twice,
	 * with a format of its own: only its index entry names it built in
	 */
	for (i = 0, probes = 0; i < (size_t)self->t.c.n; i++) {
		t = &self->t.msgs[i];
		if (strcmp(t->fmt, probe_fmt) || strcmp(t->wrap_fmt, probe_wrap))
			continue;
		probes++;
		EXPECT_STREQ("kmsgbench", t->modname);
		EXPECT_STREQ(auto_id_of("kmsgbench", probe_hashed), t->auto_id);
	}
	EXPECT_EQ(1, probes) TH_LOG("no single event of dev_err_probe()");
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
		ASSERT_NE(NULL, t) TH_LOG("kmsgtest.%u: no event", e->nr);
		EXPECT_EQ(1, count_nr(&self->t, e->nr));
		EXPECT_EQ(e->level, (int)t->msg.level);
		EXPECT_EQ(KMSG_EVENT_VERSION, (int)t->msg.version);
		EXPECT_EQ(rec.seq, t->msg.seq);
		EXPECT_EQ(e->device ? KMSG_TRACE_DEVICE | KMSG_EVENT_WRAPPED :
				      KMSG_EVENT_NEWLINE, t->msg.flags);
		EXPECT_STREQ("kmsgtest", t->modname);
		EXPECT_STREQ(e->device ? "platform" : "", t->driver);
		EXPECT_STREQ(e->device ? "kmsgtest" : "", t->device);
		/* curated identifiers are the documentation's, not the event's */
		EXPECT_STREQ("", t->component);
		EXPECT_EQ(0, t->msg.number);
		snprintf(fmt, sizeof(fmt), "kmsgtest.%u: ", e->nr);
		index_fmt_unescaped(e->index_fmt, fmt + strlen(fmt),
				    sizeof(fmt) - strlen(fmt), e->device);
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
	EXPECT_STREQ("kmsgtest.2: device %x not online", t->fmt);
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

/*
 * printk_deferred(), which modules cannot call: the scheduler's "process
 * N (comm) no longer affine to cpuM", when a task bound to a CPU that
 * went offline wakes up
 */
#define CPU1_ONLINE "/sys/devices/system/cpu/cpu1/online"

TEST_F(trace, printk_deferred)
{
	struct trace_msg *t;
	cpu_set_t cpus;
	char want[64];
	int fds[2], status;
	pid_t pid;

	if (access(CPU1_ONLINE, W_OK))
		SKIP(return, "CPU 1 cannot go offline");
	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		CPU_ZERO(&cpus);
		CPU_SET(1, &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			_exit(1);
		close(fds[1]);	/* bound: tell the parent */
		pause();
		_exit(0);
	}
	close(fds[1]);
	ASSERT_EQ(0, read(fds[0], want, 1));
	close(fds[0]);
	ASSERT_EQ(0, write_str(CPU1_ONLINE, "0\n"));
	kill(pid, SIGKILL);	/* wakes up where it may run */
	waitpid(pid, &status, 0);
	ASSERT_EQ(0, write_str(CPU1_ONLINE, "1\n"));
	ASSERT_LE(0, collect(&self->t));
	EXPECT_EQ(0, self->t.c.bad);
	t = find_fmt(&self->t, "process %d (%s) no longer affine to cpu%d");
	ASSERT_NE(NULL, t) TH_LOG("no event of printk_deferred()");
	snprintf(want, sizeof(want), "process %d (", pid);
	EXPECT_EQ(0, strncmp(t->text, want, strlen(want))) TH_LOG("%s", t->text);
	EXPECT_NE(NULL, strstr(t->text, ") no longer affine to cpu1"));
	EXPECT_NE(KMSG_SEQ_UNKNOWN, t->msg.seq);
}

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
	EXPECT_EQ(0, self->t.c.missed_unknown);
	for (i = 0; i < self->t.c.n; i++) {
		struct trace_msg *t = &self->t.msgs[i];

		if (!is_kmsgtest(t, 16))
			continue;
		ASSERT_GT(cpus, t->msg.cpu);
		per_cpu[t->msg.cpu]++;
		snprintf(want, sizeof(want), "cpu %d", t->msg.cpu);
		EXPECT_NE(NULL, strstr(t->text, want)) TH_LOG("%s", t->text);
	}
	for (i = 0; i < cpus; i++) {
		EXPECT_EQ(count, per_cpu[i]) TH_LOG("cpu %d", i);
	}
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
	long long lost;
	char saved[64];

	/*
	 * Keep the 3000 messages per CPU, at info, off the console; a
	 * warning or a report still reaches it, and ktap-summary.sh fails
	 * on any console line in the quiet window.
	 */
	ASSERT_LT(0, read_text("/proc/sys/kernel/printk", saved, sizeof(saved)));
	ASSERT_EQ(0, write_str("/proc/sys/kernel/printk", "5\n"));
	EXPECT_EQ(0, write_str("/dev/kmsg", "ktap-summary: quiet begin small.overrun"));
	EXPECT_EQ(0, write_str(FIRE_CPUS_PATH, "3000\n"));
	EXPECT_EQ(0, write_str("/dev/kmsg", "ktap-summary: quiet end"));
	EXPECT_EQ(0, write_str("/proc/sys/kernel/printk", saved));
	lost = overrun(self->t.inst);
	EXPECT_LT(0, lost);
	ASSERT_LE(0, collect(&self->t));
	EXPECT_EQ(0, self->t.c.bad);
	EXPECT_LT(0, self->t.c.n);
	/* the reader was told: a count, or "lost, count unknown" */
	EXPECT_LT(0, self->t.c.missed + self->t.c.missed_unknown);
	TH_LOG("overrun %lld, %d records kept, %llu reported missed, %d losses of unknown count",
	       lost, self->t.c.n, self->t.c.missed, self->t.c.missed_unknown);
}

TEST_HARNESS_MAIN
