// SPDX-License-Identifier: GPL-2.0
/*
 * Real kernel messages on kmsg, end to end in the guest.
 *
 * An OOM kill in a memory cgroup and a hung task report are provoked;
 * for each, /dev/kmsg must show the message with its text unchanged,
 * "kmsg live --id" must find it by its curated identifier (an alias of
 * its automatic one, kept in the docs database) and have rebuilt the same
 * text from the event's raw arguments, with the victim's name and pid as
 * typed arguments (for the OOM kill also in the catalog's Japanese), and
 * "kmsg explain" must document it. The clocksource and lockup messages,
 * which a TCG guest cannot provoke on demand, are checked in the printk
 * index of vmlinux and in the docs database.
 *
 * Needs kmsg in PATH (or $KMSG) and its docs database, the kmsgtest
 * module (its "block" knob) and a kernel with CONFIG_MEMCG and
 * CONFIG_DETECT_HUNG_TASK.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "kmsg_common.h"

#define CGROOT		"/sys/fs/cgroup"
#define OOM_CG		CGROOT "/kmsg-oom"
#define OOM_COMM	"kmsg_oom_hog"
#define HUNG_COMM	"kmsg_hung"
#define BLOCK_PATH	"/sys/kernel/debug/kmsgtest/block"
#define HUNG_TIMEOUT	"/proc/sys/kernel/hung_task_timeout_secs"
#define HUNG_WARNINGS	"/proc/sys/kernel/hung_task_warnings"
#define TRACE_INST	"/sys/kernel/tracing/instances"
#define LIVE_OUT_MAX	65536
#define MAX_RECORDS	1024

static const char *kmsg_tool(void)
{
	const char *t = getenv("KMSG");

	return t && *t ? t : "kmsg";
}

/* --- "kmsg live --json" in the background ----------------------------- */

struct live {
	pid_t pid;
	char out[64];
};

/*
 * Start "kmsg live --id ID --count 1", as JSON (@lang NULL) or as text in
 * the language @lang; wait until it records.
 */
static int live_start(struct live *l, const char *id, const char *lang)
{
	char enable[128], state[8];
	int i, fd;

	snprintf(l->out, sizeof(l->out), "/tmp/kmsg-live-%s.%s", id,
		 lang ? lang : "json");
	fd = open(l->out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -errno;
	l->pid = fork();
	if (l->pid < 0) {
		close(fd);
		return -errno;
	}
	if (!l->pid) {
		const char *argv[] = { "kmsg", "live", "--color=never",
			"--lang", lang ? lang : "C", "--id", id, "--count", "1",
			lang ? NULL : "--json", NULL };

		dup2(fd, 1);
		execvp(kmsg_tool(), (char **)argv);
		_exit(127);
	}
	close(fd);
	snprintf(enable, sizeof(enable),
		 TRACE_INST "/kmsg-live-%d/events/kmsg/kmsg/enable", l->pid);
	for (i = 0; i < 200; i++) {
		if (read_text(enable, state, sizeof(state)) > 0 &&
		    state[0] == '1')
			return 0;
		if (waitpid(l->pid, NULL, WNOHANG) == l->pid)
			return -ECHILD;
		usleep(50000);
	}
	return -ETIMEDOUT;
}

/* Wait up to @seconds for it to exit; its exit status, -1 if killed */
static int live_wait(struct live *l, int seconds, char *out, size_t size)
{
	int i, status;

	for (i = 0; i < seconds * 10; i++) {
		if (waitpid(l->pid, &status, WNOHANG) == l->pid)
			break;
		usleep(100000);
	}
	if (i == seconds * 10) {
		kill(l->pid, SIGINT);
		waitpid(l->pid, &status, 0);
		status = -1;
	}
	if (read_text(l->out, out, size) < 0)
		out[0] = '\0';
	unlink(l->out);
	return status < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * The value of string field @key of a JSON object, unescaped as far as
 * kmsg's JSON escapes ("\\", "\"", "\n", "\t"); false when absent.
 */
static bool json_string(const char *json, const char *key, char *out,
			size_t size)
{
	char pat[64];
	const char *p;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(json, pat);
	if (!p)
		return false;
	for (p += strlen(pat); *p && *p != '"' && n + 1 < size; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			out[n++] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	return *p == '"';
}

/* --- /dev/kmsg ----------------------------------------------------------- */

struct log {
	int fd;
	int n;
	struct kmsg_record *rec;
};

/* Start reading the kernel log at its end */
static int log_open(struct log *log)
{
	log->n = 0;
	log->rec = calloc(MAX_RECORDS, sizeof(*log->rec));
	if (!log->rec)
		return -ENOMEM;
	log->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (log->fd < 0)
		return -errno;
	return lseek(log->fd, 0, SEEK_END) < 0 ? -errno : 0;
}

/* Every record printed since log_open() */
static void log_read(struct log *log)
{
	static char buf[RECORD_MAX];
	ssize_t n;

	while (log->n < MAX_RECORDS &&
	       ((n = read(log->fd, buf, sizeof(buf) - 1)) > 0 ||
		(n < 0 && errno == EPIPE))) {
		if (n <= 0)
			continue;	/* overwritten records: go on */
		buf[n] = '\0';
		if (!parse_record(buf, &log->rec[log->n]))
			log->n++;
	}
}

/* The first record whose text starts with @prefix, from index @from */
static const struct kmsg_record *log_find(const struct log *log,
					  const char *prefix, int *from)
{
	int i;

	for (i = from ? *from : 0; i < log->n; i++) {
		if (!strncmp(log->rec[i].text, prefix, strlen(prefix))) {
			if (from)
				*from = i;
			return &log->rec[i];
		}
	}
	return NULL;
}

static void log_close(struct log *log)
{
	if (log->fd >= 0)
		close(log->fd);
	free(log->rec);
}

/* --- "kmsg explain" ------------------------------------------------------ */

/*
 * "kmsg explain ID" output in @out; true when it names the message and
 * the source line that prints it, and has a description and a user
 * response of at least one line each.
 */
static bool explained(const char *id, const char *file, char *out,
		      size_t size)
{
	char cmd[256], want[128];
	size_t len = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s explain %s 2>&1", kmsg_tool(), id);
	p = popen(cmd, "r");
	if (!p)
		return false;
	len = fread(out, 1, size - 1, p);
	out[len] = '\0';
	if (pclose(p) != 0)
		return false;
	snprintf(want, sizeof(want), "%s: \"", id);
	if (strncmp(out, want, strlen(want)))
		return false;
	snprintf(want, sizeof(want), "\nPrinted by: %s:", file);
	return strstr(out, want) && strstr(out, "\nDescription:\n  ") &&
	       strstr(out, "\nUser Response:\n  ");
}

/* --- OOM kill in a memory cgroup ---------------------------------------- */

static int oom_cgroup_setup(void)
{
	char buf[256];

	if (access(CGROOT "/cgroup.controllers", R_OK) &&
	    mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
		return -errno;
	if (read_text(CGROOT "/cgroup.controllers", buf, sizeof(buf)) < 0 ||
	    !strstr(buf, "memory"))
		return -ENOTSUP;
	rmdir(OOM_CG);
	if (write_str(CGROOT "/cgroup.subtree_control", "+memory"))
		return -EIO;
	if (mkdir(OOM_CG, 0755))
		return -errno;
	return write_str(OOM_CG "/memory.max", "16M");
}

/* The child: join the cgroup and allocate until killed */
static void oom_hog(void)
{
	char pid[16];
	int i;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_str(OOM_CG "/cgroup.procs", pid))
		_exit(2);
	prctl(PR_SET_NAME, OOM_COMM);
	for (i = 0; i < 256; i++) {
		char *p = malloc(1 << 20);

		if (!p)
			_exit(3);
		memset(p, i + 1, 1 << 20);
	}
	_exit(4);	/* not killed */
}

TEST(oom_kill)
{
	static char json[LIVE_OUT_MAX], ja[LIVE_OUT_MAX], text[RECORD_MAX];
	static char doc[8192];
	const struct kmsg_record *r;
	struct live live, live_ja;
	char want[512];
	struct log log;
	int status, ret;
	pid_t pid;

	/* CONFIG_MEMCG is in this test's config: no memory controller fails */
	ret = oom_cgroup_setup();
	ASSERT_EQ(0, ret) TH_LOG("memory cgroup %s: %s%s", OOM_CG, strerror(-ret),
				 ret == -ENOTSUP ? " (no CONFIG_MEMCG)" : "");
	ASSERT_EQ(0, live_start(&live, "oom.9", NULL));
	ASSERT_EQ(0, live_start(&live_ja, "oom.9", "ja_JP.UTF-8"));
	ASSERT_EQ(0, log_open(&log));

	/* the OOM report, its stack dump included, is this test's own */
	write_str("/dev/kmsg", "ktap-summary: expect begin " OOM_COMM " invoked oom-killer");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		oom_hog();
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_str("/dev/kmsg", "ktap-summary: expect end");
	rmdir(OOM_CG);
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("the child was not killed (status %#x)", status);
	usleep(200000);
	log_read(&log);

	/* /dev/kmsg: the report's header, its summary and the kill */
	snprintf(want, sizeof(want), "%s invoked oom-killer: gfp_mask=",
		 OOM_COMM);
	r = log_find(&log, want, NULL);
	ASSERT_NE(NULL, r) TH_LOG("no \"%s\" in /dev/kmsg", want);
	EXPECT_EQ(4, r->level);
	r = log_find(&log, "oom-kill:constraint=CONSTRAINT_MEMCG,", NULL);
	ASSERT_NE(NULL, r) TH_LOG("no oom.1 summary in /dev/kmsg");
	/* its pr_cont() continuation is part of the same record */
	snprintf(want, sizeof(want), ",task=%s,pid=%d,uid=0", OOM_COMM, pid);
	EXPECT_NE(NULL, strstr(r->text, want)) TH_LOG("oom.1: %s", r->text);
	snprintf(want, sizeof(want),
		 "Memory cgroup out of memory: Killed process %d (%s) total-vm:",
		 pid, OOM_COMM);
	r = log_find(&log, want, NULL);
	ASSERT_NE(NULL, r) TH_LOG("no \"%s\" in /dev/kmsg", want);
	EXPECT_EQ(3, r->level);

	/* kmsg live --json: the same text, the victim as typed arguments */
	ASSERT_EQ(0, live_wait(&live, 10, json, sizeof(json)));
	ASSERT_TRUE(json_string(json, "id", text, sizeof(text)));
	EXPECT_STREQ("oom.9", text);
	ASSERT_TRUE(json_string(json, "text", text, sizeof(text)));
	EXPECT_STREQ(r->text, text);
	/* printed by the hog, a task that started after kmsg live */
	snprintf(want, sizeof(want), "\"pid\":%d,\"comm\":\"%s\"", pid,
		 OOM_COMM);
	EXPECT_NE(NULL, strstr(json, want)) TH_LOG("%s", json);
	snprintf(want, sizeof(want),
		 "\"args\":[{\"type\":\"string\",\"value\":\"Memory cgroup out of memory\"},"
		 "{\"type\":\"int\",\"value\":%d},"
		 "{\"type\":\"string\",\"value\":\"%s\"},{\"type\":\"uint\",",
		 pid, OOM_COMM);
	EXPECT_NE(NULL, strstr(json, want)) TH_LOG("%s", json);

	/* the catalog's Japanese, from the same raw arguments */
	ASSERT_EQ(0, live_wait(&live_ja, 10, ja, sizeof(ja)));
	snprintf(want, sizeof(want),
		 "Memory cgroup out of memory: プロセス %d (%s) を強制終了しました total-vm:",
		 pid, OOM_COMM);
	EXPECT_NE(NULL, strstr(ja, want)) TH_LOG("%s", ja);

	EXPECT_TRUE(explained("oom.9", "mm/oom_kill.c", doc, sizeof(doc)))
		TH_LOG("%s", doc);
	log_close(&log);
}

/* --- hung task ------------------------------------------------------------ */

TEST(hung_task)
{
	static char json[LIVE_OUT_MAX], text[RECORD_MAX], doc[8192];
	char timeout[32], warnings[32], want[256];
	const struct kmsg_record *r;
	struct live live;
	struct log log;
	int status, i;
	pid_t pid;

	/* CONFIG_DETECT_HUNG_TASK is in this test's config */
	ASSERT_EQ(0, access(HUNG_TIMEOUT, W_OK))
		TH_LOG("no hung task detector (CONFIG_DETECT_HUNG_TASK)");
	ASSERT_EQ(0, load_kmsgtest());
	ASSERT_EQ(0, access(BLOCK_PATH, W_OK));
	ASSERT_LT(0, read_text(HUNG_TIMEOUT, timeout, sizeof(timeout)));
	ASSERT_LT(0, read_text(HUNG_WARNINGS, warnings, sizeof(warnings)));
	ASSERT_EQ(0, write_str(HUNG_WARNINGS, "10"));
	ASSERT_EQ(0, live_start(&live, "hung_task.1", NULL));
	ASSERT_EQ(0, log_open(&log));

	/* for ktap-summary: this report is expected */
	write_str("/dev/kmsg", "ktap-summary: expect begin INFO: task " HUNG_COMM ":");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		prctl(PR_SET_NAME, HUNG_COMM);
		_exit(write_str(BLOCK_PATH, "4") ? 1 : 0);
	}
	/*
	 * Once the child sleeps in state D, shorten the timeout: khungtaskd
	 * checks every 2 s then, and the second check reports it.
	 */
	for (i = 0; i < 50; i++) {
		char stat[512], path[64];

		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		if (read_text(path, stat, sizeof(stat)) > 0 &&
		    strstr(stat, ") D "))
			break;
		usleep(20000);
	}
	EXPECT_EQ(0, write_str(HUNG_TIMEOUT, "2"));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_str(HUNG_TIMEOUT, timeout);
	write_str(HUNG_WARNINGS, warnings);
	write_str("/dev/kmsg", "ktap-summary: expect end");
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	log_read(&log);

	/* /dev/kmsg: the three lines of the report, in order */
	snprintf(want, sizeof(want),
		 "INFO: task %s:%d blocked for more than ",
		 HUNG_COMM, pid);
	i = 0;
	r = log_find(&log, want, &i);
	ASSERT_NE(NULL, r) TH_LOG("no \"%s\" in /dev/kmsg", want);
	EXPECT_EQ(3, r->level);
	EXPECT_NE(NULL, strstr(r->text, " seconds."));
	EXPECT_NE(NULL, log_find(&log, "      ", &i));
	EXPECT_NE(NULL, log_find(&log,
		"\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this message.",
		&i));

	/* kmsg live --json: the same text, the task as typed arguments */
	ASSERT_EQ(0, live_wait(&live, 10, json, sizeof(json)));
	ASSERT_TRUE(json_string(json, "text", text, sizeof(text)));
	EXPECT_STREQ(r->text, text);
	snprintf(want, sizeof(want),
		 "\"args\":[{\"type\":\"string\",\"value\":\"%s\"},"
		 "{\"type\":\"int\",\"value\":%d},{\"type\":\"int\",\"value\":",
		 HUNG_COMM, pid);
	EXPECT_NE(NULL, strstr(json, want)) TH_LOG("%s", json);

	EXPECT_TRUE(explained("hung_task.1", "kernel/hung_task.c", doc,
			      sizeof(doc)))
		TH_LOG("%s", doc);
	log_close(&log);
}

/* --- messages that are not provoked: index and documentation ---------- */

struct real_msg {
	const char *id;
	int level;
	const char *file;
	const char *func;
	const char *index_fmt;	/* as the index lists it, escaped */
};

static const struct real_msg real_msgs[] = {
	{ "clocksource.11", 4, "kernel/time/clocksource.c",
	  "clocksource_watchdog",
	  "clocksource: timekeeping watchdog on CPU%d: Marking clocksource '%s' as unstable because the skew is too large:\\n" },
	{ "clocksource.14", 4, "kernel/time/clocksource.c",
	  "clocksource_watchdog",
	  "clocksource:                       Clocksource '%s' skewed %lld ns (%lld ms) over watchdog '%s' interval of %lld ns (%lld ms)\\n" },
	{ "clocksource.22", 6, "kernel/time/clocksource.c",
	  "__clocksource_select", "clocksource: Switched to clocksource %s\\n" },
	{ "watchdog.1", 0, "kernel/watchdog.c", "watchdog_hardlockup_check",
	  "watchdog: Watchdog detected hard LOCKUP on cpu %d\\n" },
	{ "watchdog.2", 0, "kernel/watchdog.c", "watchdog_timer_fn",
	  "watchdog: BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]\\n" },
	{ "oom.9", 3, "mm/oom_kill.c", "__oom_kill_process",
	  "%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, file-rss:%lukB, shmem-rss:%lukB, UID:%u pgtables:%lukB oom_score_adj:%hd\\n" },
	{ "hung_task.1", 3, "kernel/hung_task.c", "check_hung_task",
	  "INFO: task %s:%d blocked for more than %ld seconds.\\n" },
	{ "smp.2", 6, "kernel/smp.c", "smp_init",
	  "smp: Brought up %d node%s, %d CPU%s\\n" },
};

FIXTURE(real) {
	char doc[8192];
};

FIXTURE_VARIANT(real) {
	const struct real_msg *m;
};

FIXTURE_VARIANT_ADD(real, clocksource_11) { .m = &real_msgs[0] };
FIXTURE_VARIANT_ADD(real, clocksource_14) { .m = &real_msgs[1] };
FIXTURE_VARIANT_ADD(real, clocksource_22) { .m = &real_msgs[2] };
FIXTURE_VARIANT_ADD(real, watchdog_1) { .m = &real_msgs[3] };
FIXTURE_VARIANT_ADD(real, watchdog_2) { .m = &real_msgs[4] };
FIXTURE_VARIANT_ADD(real, oom_9) { .m = &real_msgs[5] };
FIXTURE_VARIANT_ADD(real, hung_task_1) { .m = &real_msgs[6] };
FIXTURE_VARIANT_ADD(real, smp_2) { .m = &real_msgs[7] };

FIXTURE_SETUP(real)
{
}

FIXTURE_TEARDOWN(real)
{
}

/*
 * The printk index of vmlinux lists the message, its text unchanged, at
 * its level, file and function: its function lists this format
 */
TEST_F(real, index)
{
	const struct real_msg *m = variant->m;
	char line[2048];
	struct index_line l;
	int sites = 0;
	bool found = false;
	FILE *f = fopen(INDEX_DIR "/vmlinux", "r");

	ASSERT_NE(NULL, f);
	while (!found && fgets(line, sizeof(line), f)) {
		if (parse_index_line(line, &l) || strcmp(l.file, m->file) ||
		    strcmp(l.func, m->func))
			continue;
		sites++;
		found = !strcmp(l.fmt, m->index_fmt);
	}
	fclose(f);
	ASSERT_TRUE(found) TH_LOG("%s: not among the %d formats of %s() in the index",
				  m->id, sites, m->func);
	EXPECT_EQ(m->level, l.level);
}

/* The docs database documents it, with this build's source line */
TEST_F(real, explained)
{
	EXPECT_TRUE(explained(variant->m->id, variant->m->file, self->doc,
			      sizeof(self->doc)))
		TH_LOG("%s", self->doc);
}

TEST_HARNESS_MAIN
