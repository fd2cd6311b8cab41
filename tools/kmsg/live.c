// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg live: stream messages from a tracefs instance of its own
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "kmsg_ksyms.h"
#include "kmsg.h"

/* how many pids kmsg live remembers having looked up again */
#define COMM_TRIED	256

/* live state: st first, so a struct state * is a struct live * */
struct live {
	struct state st;
	int comm_tried[COMM_TRIED];	/* pids looked up again, by pid */
	struct kmsg_ksyms_file ksyms;	/* for %ps and %pS */
	/*
	 * Loss as it goes, by CPU: what the ring buffer had dropped when last
	 * reported, and whether it reported a drop since
	 */
	long long *dropped;
	bool *drop_seen;
	int nr_cpus;
};

static volatile sig_atomic_t stop_requested;
static struct tracefs_instance *live_instance;

static void usage_live(FILE *f)
{
	fprintf(f,
		"Usage: %s live [OPTIONS]\n"
		"Stream kmsg messages until interrupted. Uses a tracefs instance\n"
		"of its own (removed on exit); needs root.\n\n"
		"  -n, --count N          stop after N messages\n"
		"  -d, --duration S       stop after S seconds\n"
		"      --buffer-kb N      the instance's ring buffer: N KiB per CPU\n"
		"On exit, messages lost are counted on standard error, by the\n"
		"ring buffer and by the printk sequence numbers of the events.\n", prog);
	usage_filters(f);
}

/*
 * Live, a task that started after saved_cmdlines was read has no name
 * yet: read saved_cmdlines again, then /proc/PID/comm (the task may not
 * have been switched out since), once per pid.
 */
static void comm_lookup(struct state *st, int pid)
{
	struct live *lv = (struct live *)st;
	int *tried = &lv->comm_tried[(unsigned int)pid % COMM_TRIED];
	char path[32], comm[32];
	ssize_t n;
	int fd;

	if (*tried == pid)
		return;
	*tried = pid;
	tracefs_load_cmdlines(NULL, st->tep);
	if (tep_is_pid_registered(st->tep, pid))
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	if (n <= 0)
		return;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	if (comm[0])
		tep_register_comm(st->tep, comm, pid);
}

static int live_record(struct tep_event *event, struct tep_record *rec,
		       int cpu, void *data)
{
	struct state *st = data;
	int ret;

	(void)event;
	(void)cpu;
	ret = handle_record(st, rec);
	if (ret || st->done || stop_requested) {
		tracefs_iterate_stop(live_instance);
		return ret ? -1 : 1;
	}
	return 0;
}

/* counted after the pass, by report_drops() */
static int live_missed(struct tep_event *event, struct tep_record *rec,
		       int cpu, void *data)
{
	struct live *lv = data;

	(void)event;
	(void)rec;
	if (cpu >= 0 && cpu < lv->nr_cpus)
		lv->drop_seen[cpu] = true;
	else
		report_lost(&lv->st, cpu, -1);
	return 0;
}

/* The number on the line of @stats that starts with @name, else 0 */
static long long stat_line(const char *stats, const char *name)
{
	size_t len = strlen(name);
	const char *p = stats;

	while (p && *p) {
		if (!strncmp(p, name, len))
			return strtoll(p + len, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/*
 * What the instance's ring buffer dropped on @cpu: the "overrun",
 * "commit overrun" and "dropped events" of its stats; -1 if they cannot
 * be read
 */
static long long ring_dropped(int cpu)
{
	char path[64], *stats;
	long long n;

	snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
	stats = tracefs_instance_file_read(live_instance, path, NULL);
	if (!stats)
		return -1;
	n = stat_line(stats, "overrun: ") +
	    stat_line(stats, "commit overrun: ") +
	    stat_line(stats, "dropped events: ");
	free(stats);
	return n;
}

static int ring_cpus(struct live *lv)
{
	char path[64];
	int n;

	for (n = 0; n < 4096; n++) {
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", n);
		if (!tracefs_file_exists(live_instance, path))
			break;
	}
	lv->dropped = calloc(n ? n : 1, sizeof(*lv->dropped));
	lv->drop_seen = calloc(n ? n : 1, sizeof(*lv->drop_seen));
	if (!lv->dropped || !lv->drop_seen)
		return -ENOMEM;
	lv->nr_cpus = n;
	return 0;
}

/*
 * The loss of each CPU that reported a drop since (of every CPU when
 * @all), as a count: the ring buffer stores none in a full page, and its
 * stats have it exactly. Returns what the ring buffer dropped in all, or
 * -1 if the stats of a CPU that dropped some could not be read.
 */
static long long report_drops(struct live *lv, bool all)
{
	long long n, total = 0;
	bool unknown = false;
	int cpu;

	for (cpu = 0; cpu < lv->nr_cpus; cpu++) {
		if (!all && !lv->drop_seen[cpu]) {
			total += lv->dropped[cpu];
			continue;
		}
		lv->drop_seen[cpu] = false;
		n = ring_dropped(cpu);
		if (n < 0) {
			/* said without a count, as the ring buffer gave it */
			if (!all)
				report_lost(&lv->st, cpu, -1);
			unknown = true;
			total += lv->dropped[cpu];
			continue;
		}
		if (n > lv->dropped[cpu])
			report_lost(&lv->st, cpu, n - lv->dropped[cpu]);
		lv->dropped[cpu] = n;
		total += n;
	}
	return unknown ? -1 : total;
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
	if (live_instance)
		tracefs_iterate_stop(live_instance);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int live_loop(struct state *st)
{
	double end = st->opt->duration ? now() + st->opt->duration : 0;
	struct live *lv = (struct live *)st;

	tracefs_follow_missed_events(live_instance, live_missed, st);
	while (!stop_requested && !st->done) {
		if (tracefs_iterate_raw_events(st->tep, live_instance, NULL, 0,
					       live_record, st) < 0 &&
		    !stop_requested && !st->done)
			return -EIO;
		report_drops(lv, false);
		/*
		 * what this pass read, out now: into a file or a pipe, stdout
		 * is fully buffered, and messages are rare (a shipper reading
		 * kmsg live --otlp >> FILE sees whole lines, and soon)
		 */
		if (fflush(stdout))
			return -EIO;
		if (end && now() >= end)
			break;
		if (!stop_requested && !st->done)
			usleep(50000);
	}
	return 0;
}

static int cmd_live(struct options *o)
{
	const char *systems[] = { "kmsg", NULL };
	struct sigaction sa = { .sa_handler = on_signal };
	struct tep_handle *tep;
	struct live lv;
	struct state *st = &lv.st;
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "kmsg-live-%d", getpid());
	live_instance = tracefs_instance_create(name);
	if (!live_instance) {
		fprintf(stderr, "%s: cannot create tracefs instance %s: %s\n",
			prog, name, strerror(errno));
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	tep = tracefs_local_events_system(NULL, systems);
	memset(&lv, 0, sizeof(lv));
	if (!tep || state_init(st, o, tep)) {
		if (!tep)
			fprintf(stderr, "%s: cannot read the event formats\n", prog);
		ret = 1;
		goto out;
	}
	if (o->otlp)
		otlp_open(st, o, true);
	if ((o->journal || o->export) && journal_open(st, o, NULL)) {
		state_free(st);
		ret = 1;
		goto out;
	}
	tracefs_load_cmdlines(NULL, tep);
	st->comm_miss = comm_lookup;
	/*
	 * Symbols of modules loaded since are not in the table: an address
	 * not found reads /proc/kallsyms again, at most once a second
	 */
	lv.ksyms.path = o->kallsyms ?: "/proc/kallsyms";
	lv.ksyms.reload_ns = o->kallsyms ? 0 : 1000000000ULL;
	ret = kmsg_ksyms_file_load(&lv.ksyms);
	if (ret)
		fprintf(stderr, "%s: %s: %s: %%ps and %%pS print addresses\n",
			prog, lv.ksyms.path, kmsg_ksyms_strerror(ret));
	st->ropts.lookup_symbol = kmsg_ksyms_file_lookup;
	st->ropts.lookup_ctx = &lv.ksyms;
	if (o->buffer_kb &&
	    tracefs_instance_set_buffer_size(live_instance, o->buffer_kb, -1)) {
		fprintf(stderr, "%s: cannot set the ring buffer of %s to %lu KiB: %s\n",
			prog, name, o->buffer_kb, strerror(errno));
		ret = 1;
	} else if (ring_cpus(&lv)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = 1;
	} else if (tracefs_event_enable(live_instance, "kmsg", "kmsg")) {
		fprintf(stderr, "%s: cannot enable kmsg:kmsg\n", prog);
		ret = 1;
	} else {
		ret = live_loop(st);
		tracefs_event_disable(live_instance, NULL, NULL);
		report_loss(st, report_drops(&lv, true));
		ret = finish(st, ret);
	}
	state_free(st);
out:
	tracefs_event_disable(live_instance, NULL, NULL);
	tracefs_instance_destroy(live_instance);
	tracefs_instance_free(live_instance);
	live_instance = NULL;
	kmsg_ksyms_file_free(&lv.ksyms);
	free(lv.dropped);
	free(lv.drop_seen);
	if (tep)
		tep_free(tep);
	return ret;
}

int live_main(int argc, char **argv)
{
	struct options o = { 0 };

	if (parse_command(argc, argv, &o, true, usage_live, 0, 0))
		return 1;
	return cmd_live(&o);
}
