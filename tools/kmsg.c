// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg - rebuild kernel messages from kmsg:kmsg trace events
 *
 *   kmsg live    stream messages from a tracefs instance of its own
 *   kmsg report  read a trace.dat recorded with trace-cmd
 *
 * See kmsg(1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>
#ifndef KMSG_NO_TRACECMD
#include <trace-cmd.h>
#endif

#include "kmsg_docs.h"
#include "kmsg_event.h"
#include "kmsg_id.h"
#include "kmsg_json.h"
#include "kmsg_ksyms.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"
#include "kmsg_text.h"
#include "manual.h"

#define KMSG_VERSION "0.1"

enum color { COLOR_NEVER, COLOR_ALWAYS, COLOR_AUTO };

struct options {
	bool json;
	enum color color;
	long count;		/* stop after this many messages, 0: never */
	double duration;	/* stop after this many seconds, 0: never */
	const char *component;	/* only this component (or modname) */
	bool by_id;		/* --id: only the messages of id */
	struct kmsg_id_filter id;
	unsigned int levels;	/* bit per level to show */
	bool errno_numbers;	/* %pe as numbers (!CONFIG_SYMBOLIC_ERRNAME) */
	const char *kallsyms;	/* symbols for %ps/%pS from this file */
	const char *db;		/* docs database */
	bool explain;		/* -x: annotate messages with their docs */
	const char *lang;	/* render translations for this locale */
};

/* how many pids kmsg live remembers having looked up again */
#define COMM_TRIED	256

struct state {
	struct options *opt;
	struct kmsg_event ev;
	struct kmsg_render_opts ropts;
	struct tep_handle *tep;
	struct kmsg_strbuf line, text;
	long shown;
	unsigned long long lost;
	long bad;
	bool use_color;
	bool done;
	struct kmsg_docs *docs;
	struct alias_cache *aliases;	/* automatic id -> curated, from docs */
	struct kmsg_ids ids;	/* of the message being printed */
	bool live;		/* on this machine, as the events happen */
	int comm_tried[COMM_TRIED];	/* pids looked up again, by pid */
};

/*
 * The curated aliases of automatic ids, looked up in the docs database
 * once per automatic id: a direct-mapped cache by hash.
 */
#define ALIAS_SLOTS	4096

struct alias_slot {
	char auto_id[KMSG_ID_MAX];
	char curated[KMSG_ID_MAX];	/* "" when there is none */
};

struct alias_cache {
	struct kmsg_docs *docs;
	struct alias_slot slot[ALIAS_SLOTS];
};

static int alias_lookup(void *ctx, const char *auto_id, char *curated,
			size_t size)
{
	struct alias_cache *c = ctx;
	struct alias_slot *sl;
	size_t len = strlen(auto_id);
	int ret;

	if (len >= KMSG_ID_MAX)
		return 1;
	sl = &c->slot[kmsg_fmt_hash(auto_id, len) % ALIAS_SLOTS];
	if (strcmp(sl->auto_id, auto_id)) {
		ret = kmsg_docs_curated_for_auto(c->docs, auto_id, sl->curated,
						 sizeof(sl->curated));
		if (ret < 0) {
			sl->auto_id[0] = '\0';
			return -1;
		}
		if (ret)
			sl->curated[0] = '\0';
		memcpy(sl->auto_id, auto_id, len + 1);
	}
	if (!sl->curated[0])
		return 1;
	if (strlen(sl->curated) >= size)
		return -1;
	strcpy(curated, sl->curated);
	return 0;
}

static volatile sig_atomic_t stop_requested;
static struct tracefs_instance *live_instance;

static const char *prog = "kmsg";

static void usage_main(FILE *f)
{
	fprintf(f,
		"Usage: %s COMMAND [OPTIONS]\n"
		"Rebuild kernel messages from kmsg:kmsg trace events.\n\n"
		"Commands:\n"
		"  live         stream messages as the kernel prints them\n"
		"  report FILE  read a trace.dat recorded with trace-cmd\n"
		"  explain ID   the documentation of a message (comp.N)\n"
		"  search WORD  messages whose documentation has these words\n"
		"  dmesg [FILE] kernel log (/dev/kmsg, or dmesg text), annotated\n"
		"  manual DIR   man pages and a printable manual of all messages\n\n"
		"'%s COMMAND --help' describes a command. See kmsg(1).\n",
		prog, prog);
}

static void usage_filters(FILE *f)
{
	fputs("Output:\n"
	      "  -J, --json             one JSON object per line (see kmsg(1))\n"
	      "      --color[=WHEN]     auto (default), always or never\n"
	      "      --errno-numbers    %pe as -19 rather than -ENODEV\n"
	      "  -x, --explain          add each message's description and user\n"
	      "                         response (from the docs database)\n"
	      "      --lang LOCALE      translated messages (default: LC_MESSAGES)\n"
	      "      --db FILE          docs database (default: $KMSG_DB or\n"
	      "                         " KMSG_DOCS_DEFAULT ")\n"
	      "  -k, --kallsyms FILE    symbols for %ps and %pS from FILE, in\n"
	      "                         /proc/kallsyms format (with module names)\n"
	      "Filters:\n"
	      "  -c, --component NAME   only messages of component (or module) NAME\n"
	      "  -i, --id COMP.N[-M]    only message COMP.N (or COMP.N to COMP.M),\n"
	      "      --id MOD.hXXXXXXXX or the message of this automatic id\n"
	      "  -l, --level LIST       only these levels: emerg,alert,crit,err,\n"
	      "                         warn,notice,info,debug or 0-7\n"
	      "  -h, --help             this text\n", f);
}

static void usage_live(FILE *f)
{
	fprintf(f,
		"Usage: %s live [OPTIONS]\n"
		"Stream kmsg messages until interrupted. Uses a tracefs instance\n"
		"of its own (removed on exit); needs root.\n\n"
		"  -n, --count N          stop after N messages\n"
		"  -d, --duration S       stop after S seconds\n", prog);
	usage_filters(f);
}

static void usage_report(FILE *f)
{
	fprintf(f,
		"Usage: %s report [OPTIONS] FILE\n"
		"Print the kmsg messages of a trace.dat recorded with\n"
		"'trace-cmd record -e kmsg:kmsg'.\n\n"
		"  -n, --count N          stop after N messages\n", prog);
	usage_filters(f);
}

static void usage_docs(FILE *f)
{
	fprintf(f,
		"Usage: %s explain [--db FILE] ID...\n"
		"       %s search [--db FILE] WORD...\n"
		"       %s dmesg [-x] [--db FILE] [FILE]\n"
		"       %s manual [--db FILE] DIR\n"
		"explain: the documentation of messages, by identifier (comp.N).\n"
		"search: messages whose format or documentation has every WORD.\n"
		"dmesg: the kernel log from /dev/kmsg, or dmesg text from FILE\n"
		"(- for standard input); with -x, each message carrying an\n"
		"identifier is followed by its description and user response.\n"
		"manual: DIR/man9/<id>.9 for every message (MANPATH=DIR man\n"
		"kmsgtest.2) and DIR/kmsg-manual.html, a printable manual.\n",
		prog, prog, prog, prog);
}

static int parse_level(const char *s)
{
	static const char * const names[] = {
		"emerg", "alert", "crit", "err", "warn", "notice", "info",
		"debug",
	};
	int i;

	if (s[0] >= '0' && s[0] <= '7' && !s[1])
		return s[0] - '0';
	for (i = 0; i < 8; i++)
		if (!strcmp(s, names[i]))
			return i;
	if (!strcmp(s, "warning"))
		return 4;
	return -1;
}

static int parse_levels(const char *list, unsigned int *mask)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int l, ret = 0;

	if (!copy)
		return -1;
	*mask = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		l = parse_level(tok);
		if (l < 0) {
			fprintf(stderr, "%s: unknown level '%s'\n", prog, tok);
			ret = -1;
			break;
		}
		*mask |= 1U << l;
	}
	free(copy);
	return ret;
}

static bool wanted(const struct options *o, const struct kmsg_msg *m,
		   const struct kmsg_ids *ids)
{
	if (!(o->levels & (1U << m->level)))
		return false;
	if (o->component && !kmsg_ids_component_is(ids, o->component))
		return false;
	if (o->by_id && !kmsg_id_filter_match(&o->id, ids))
		return false;
	return true;
}

/* dmesg's colors: alert and emerg reversed red, crit bold red, ... */
static const char *level_color(unsigned int level)
{
	static const char * const colors[8] = {
		"\033[7;31m", "\033[7;31m", "\033[1;31m", "\033[31m",
		"\033[1m", "", "", "",
	};

	return level < 8 ? colors[level] : "";
}

/*
 * Live, a task that started after saved_cmdlines was read has no name
 * yet: read saved_cmdlines again, then /proc/PID/comm (the task may not
 * have been switched out since), once per pid.
 */
static void comm_lookup(struct state *st, int pid)
{
	int *tried = &st->comm_tried[(unsigned int)pid % COMM_TRIED];
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

static const char *comm_of(struct state *st, int pid)
{
	if (!pid)
		return "<idle>";
	if (st->live && !tep_is_pid_registered(st->tep, pid))
		comm_lookup(st, pid);
	if (!tep_is_pid_registered(st->tep, pid))
		return "<...>";
	return tep_data_comm_from_pid(st->tep, pid);
}

static int print_text(struct state *st, const struct kmsg_msg *m)
{
	const char *c = st->use_color ? level_color(m->level) : "";
	bool colored = st->use_color && *c;

	st->line.len = 0;
	if ((st->use_color && kmsg_strbuf_puts(&st->line, "\033[32m")) ||
	    kmsg_strbuf_putc(&st->line, '[') ||
	    kmsg_strbuf_putu(&st->line, m->ts / 1000000000ULL, 5, ' ') ||
	    kmsg_strbuf_putc(&st->line, '.') ||
	    kmsg_strbuf_putu(&st->line, m->ts % 1000000000ULL / 1000, 6, '0') ||
	    kmsg_strbuf_putc(&st->line, ']') ||
	    (st->use_color && kmsg_strbuf_puts(&st->line, "\033[0m")) ||
	    kmsg_strbuf_putc(&st->line, ' ') ||
	    kmsg_strbuf_puts(&st->line, kmsg_level_name(m->level)) ||
	    kmsg_strbuf_fill(&st->line, ' ', 7 - strlen(kmsg_level_name(m->level))) ||
	    (colored && kmsg_strbuf_puts(&st->line, c)) ||
	    kmsg_strbuf_putn(&st->line, st->text.buf, st->text.len) ||
	    (colored && kmsg_strbuf_puts(&st->line, "\033[0m")) ||
	    (m->flags & KMSG_EVENT_TRUNCATED &&
	     kmsg_strbuf_puts(&st->line, " <?truncated?>")) ||
	    kmsg_strbuf_putc(&st->line, '\n'))
		return -ENOMEM;
	return fwrite(st->line.buf, 1, st->line.len, stdout) == st->line.len ?
		0 : -EIO;
}

/* -x with --json: "description" and "user_response" in the object */
static int json_explain(struct state *st)
{
	const char *id = kmsg_ids_id(&st->ids);
	struct kmsg_doc doc;
	int ret;

	if (!id)
		return 0;
	ret = kmsg_docs_get(st->docs, id, &doc);
	if (ret)
		return ret < 0 ? ret : 0;
	st->line.len--;		/* reopen the object */
	ret = kmsg_strbuf_puts(&st->line, ",\"description\":") ||
	      kmsg_json_str(&st->line, doc.description, strlen(doc.description)) ||
	      kmsg_strbuf_puts(&st->line, ",\"user_response\":") ||
	      kmsg_json_str(&st->line, doc.user_response,
			    strlen(doc.user_response)) ||
	      kmsg_strbuf_putc(&st->line, '}') ? -ENOMEM : 0;
	kmsg_doc_free(&doc);
	return ret;
}

static int print_json(struct state *st, const struct kmsg_msg *m,
		      const struct kmsg_args *args)
{
	st->line.len = 0;
	if (kmsg_json_msg(&st->line, m, &st->ids, comm_of(st, m->pid),
			  st->text.buf, st->text.len, args) ||
	    (st->opt->explain && json_explain(st)) ||
	    kmsg_strbuf_putc(&st->line, '\n'))
		return -ENOMEM;
	return fwrite(st->line.buf, 1, st->line.len, stdout) == st->line.len ?
		0 : -EIO;
}

static const char *translation(struct state *st)
{
	const char *id = kmsg_ids_id(&st->ids);

	if (!st->docs || !st->opt->lang || !id)
		return NULL;
	return kmsg_docs_translation(st->docs, id, st->opt->lang);
}

/* journalctl -x style: the documentation under the message, "-- " lines */
static int print_lines(const char *label, const char *text)
{
	const char *p = text, *nl;
	bool first = true;

	if (!text || !*text)
		return 0;
	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		printf("-- %s%.*s\n", first ? label : "", (int)(nl - p), p);
		first = false;
		p = *nl ? nl + 1 : nl;
	}
	return 0;
}

static int print_explain(struct state *st, const char *id)
{
	struct kmsg_doc doc;
	int ret = kmsg_docs_get(st->docs, id, &doc);

	if (ret == 1) {
		printf("-- %s: not documented\n", id);
		return 0;
	}
	if (ret < 0)
		return ret;
	print_lines("Description: ", doc.description);
	print_lines("User Response: ", doc.user_response);
	kmsg_doc_free(&doc);
	return 0;
}

static void bad_record(struct state *st, struct tep_record *rec,
		       const char *why)
{
	st->bad++;
	fprintf(stderr, "%s: cpu %d ts %llu: %s\n", prog, rec->cpu,
		rec->ts, why);
}

/* One record of any event: print it if it is a wanted kmsg message */
static int handle_record(struct state *st, struct tep_record *rec)
{
	struct kmsg_args args;
	struct kmsg_msg m;
	char err[256];
	int ret;

	if (st->done || !kmsg_event_match(&st->ev, rec))
		return 0;
	if (kmsg_event_decode(&st->ev, rec, &m, err, sizeof(err))) {
		bad_record(st, rec, err);
		return 0;
	}
	/* curated aliases of automatic ids come from the docs database */
	if (kmsg_msg_ids(&m, st->aliases ? alias_lookup : NULL, st->aliases,
			 &st->ids, err, sizeof(err))) {
		bad_record(st, rec, err);
		return 0;
	}
	if (!wanted(st->opt, &m, &st->ids))
		return 0;
	st->text.len = 0;
	/* JSON: the text as logged; text: every message with its id */
	ret = kmsg_msg_text_id(&st->text, &m,
			       st->opt->json ? NULL : kmsg_ids_label(&st->ids),
			       translation(st), &st->ropts, &args);
	if (ret < 0)
		return ret;
	ret = st->opt->json ? print_json(st, &m, &args) : print_text(st, &m);
	if (!ret && st->opt->explain && !st->opt->json &&
	    kmsg_ids_id(&st->ids))
		ret = print_explain(st, kmsg_ids_id(&st->ids));
	if (ret)
		return ret;
	if (st->opt->count && ++st->shown >= st->opt->count)
		st->done = true;
	return 0;
}

static void report_lost(struct state *st, int cpu, long long missed)
{
	if (missed > 0) {
		st->lost += missed;
		fprintf(stderr, "CPU:%d [%lld EVENTS DROPPED]\n", cpu, missed);
	} else {
		fprintf(stderr, "CPU:%d [EVENTS DROPPED]\n", cpu);
	}
}

static const char *db_path(const struct options *o)
{
	if (o->db)
		return o->db;
	return getenv("KMSG_DB") ?: KMSG_DOCS_DEFAULT;
}

/* The locale of the messages: LC_ALL, LC_MESSAGES, LANG, as gettext does */
static const char *env_locale(void)
{
	static const char * const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
	const char *v;
	size_t i;

	for (i = 0; i < 3; i++) {
		v = getenv(vars[i]);
		if (v && *v)
			return v;
	}
	return NULL;
}

/*
 * Open the docs database: the options may need it (-x, a language given),
 * and the curated aliases of automatic ids are in it. Without -x, --lang
 * or --db, a missing database only means no aliases or translations.
 */
static int open_docs(struct kmsg_docs **docs, struct options *o)
{
	bool needed = o->explain || o->db;
	char err[512];

	if (o->lang)
		needed = true;
	else
		o->lang = env_locale();
	if (o->lang && (!strcmp(o->lang, "C") || !strcmp(o->lang, "POSIX") ||
			!strncmp(o->lang, "C.", 2))) {
		o->lang = NULL;
		needed = o->explain || o->db;
	}
	*docs = kmsg_docs_open(db_path(o), err, sizeof(err));
	if (*docs || !needed)
		return 0;
	fprintf(stderr, "%s: %s\n", prog, err);
	return -1;
}

static int state_init(struct state *st, struct options *o,
		      struct tep_handle *tep)
{
	char err[256];

	memset(st, 0, sizeof(*st));
	st->opt = o;
	st->tep = tep;
	if (kmsg_event_init(&st->ev, tep, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return -1;
	}
	st->ropts.long_size = tep_get_long_size(tep) ?: (int)sizeof(long);
	st->ropts.symbolic_errname = !o->errno_numbers;
	st->use_color = o->color == COLOR_ALWAYS ||
		(o->color == COLOR_AUTO && isatty(STDOUT_FILENO));
	if (open_docs(&st->docs, o))
		return -1;
	if (st->docs) {
		st->aliases = calloc(1, sizeof(*st->aliases));
		if (!st->aliases) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return -1;
		}
		st->aliases->docs = st->docs;
	}
	return 0;
}

static void state_free(struct state *st)
{
	free(st->aliases);
	kmsg_docs_close(st->docs);
	kmsg_strbuf_free(&st->line);
	kmsg_strbuf_free(&st->text);
}

static int finish(struct state *st, int ret)
{
	fflush(stdout);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", prog, strerror(-ret));
		return 1;
	}
	if (st->bad)
		fprintf(stderr, "%s: %ld records could not be decoded\n", prog,
			st->bad);
	return st->bad ? 2 : 0;
}

/* --- live ---------------------------------------------------------- */

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

static int live_missed(struct tep_event *event, struct tep_record *rec,
		       int cpu, void *data)
{
	(void)event;
	report_lost(data, cpu, rec->missed_events);
	return 0;
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

static int live_loop(struct state *st, struct kmsg_ksyms *ks)
{
	double end = st->opt->duration ? now() + st->opt->duration : 0;

	st->ropts.lookup_symbol = kmsg_ksyms_lookup;
	st->ropts.lookup_ctx = ks;
	tracefs_follow_missed_events(live_instance, live_missed, st);
	while (!stop_requested && !st->done) {
		if (tracefs_iterate_raw_events(st->tep, live_instance, NULL, 0,
					       live_record, st) < 0 &&
		    !stop_requested && !st->done)
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
	struct kmsg_ksyms ks = { 0 };
	struct tep_handle *tep;
	struct state st;
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
	if (!tep || state_init(&st, o, tep)) {
		if (!tep)
			fprintf(stderr, "%s: cannot read the event formats\n", prog);
		ret = 1;
		goto out;
	}
	tracefs_load_cmdlines(NULL, tep);
	st.live = true;
	if (kmsg_ksyms_load(&ks, o->kallsyms ?: "/proc/kallsyms"))
		fprintf(stderr, "%s: cannot read %s: %%ps and %%pS print addresses\n",
			prog, o->kallsyms ?: "/proc/kallsyms");
	if (tracefs_event_enable(live_instance, "kmsg", "kmsg")) {
		fprintf(stderr, "%s: cannot enable kmsg:kmsg\n", prog);
		ret = 1;
	} else {
		ret = finish(&st, live_loop(&st, &ks));
	}
	state_free(&st);
out:
	tracefs_event_disable(live_instance, NULL, NULL);
	tracefs_instance_destroy(live_instance);
	tracefs_instance_free(live_instance);
	live_instance = NULL;
	kmsg_ksyms_free(&ks);
	if (tep)
		tep_free(tep);
	return ret;
}

/* --- report -------------------------------------------------------- */

#ifndef KMSG_NO_TRACECMD
static int report_record(struct tracecmd_input *handle,
			 struct tep_record *rec, int cpu, void *data)
{
	struct state *st = data;
	int ret;

	(void)handle;
	(void)cpu;
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
	int ret;

	if (o->kallsyms && kmsg_ksyms_load(&ks, o->kallsyms)) {
		fprintf(stderr, "%s: cannot read %s\n", prog, o->kallsyms);
		return 1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(file, 0);
	if (!handle) {
		fprintf(stderr, "%s: %s: not a readable trace.dat file\n", prog,
			file);
		return 1;
	}
	if (state_init(&st, o, tracecmd_get_tep(handle))) {
		tracecmd_close(handle);
		return 1;
	}
	st.ropts.lookup_symbol = o->kallsyms ? kmsg_ksyms_lookup : kmsg_tep_lookup;
	st.ropts.lookup_ctx = o->kallsyms ? (void *)&ks : (void *)st.tep;
	tracecmd_follow_missed_events(handle, report_missed, &st);
	ret = tracecmd_iterate_events(handle, NULL, 0, report_record, &st);
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

/* --- explain, search, dmesg ------------------------------------------ */

static void print_indented(const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl > p)
			printf("  %.*s\n", (int)(nl - p), p);
		else
			putchar('\n');
		p = *nl ? nl + 1 : nl;
	}
}

static int explain_one(struct kmsg_docs *docs, const char *id)
{
	struct kmsg_doc d;
	int i, ret = kmsg_docs_get(docs, id, &d);

	if (ret) {
		fprintf(stderr, "%s: %s: %s\n", prog, id,
			ret > 0 ? "no documentation" : "cannot read the database");
		return 1;
	}
	printf("%s: \"%s\"\n\n", d.id, d.format);
	if (d.level >= 0)
		printf("Severity: %s\n", kmsg_level_name(d.level));
	if (d.code_file)
		printf("Printed by: %s:%d (%s)\n", d.code_file, d.code_line,
		       d.function);
	printf("Documented in: %s:%d\n", d.file, d.line);
	if (d.naliases) {
		printf("\nAutomatic ids (the message as the kernel prints it):\n");
		for (i = 0; i < d.naliases; i++)
			printf("  %s  %s\n", d.aliases[i].auto_id,
			       d.aliases[i].format ? d.aliases[i].format :
			       "(another wording)");
	}
	if (d.nparams) {
		printf("\nParameters:\n");
		for (i = 0; i < d.nparams; i++)
			printf("  @%d  %s\n", i, d.params[i] ? d.params[i] : "");
	}
	printf("\nDescription:\n");
	print_indented(d.description);
	printf("\nUser Response:\n");
	print_indented(d.user_response);
	if (d.see_also[0])
		printf("\nSee also: %s\n", d.see_also);
	kmsg_doc_free(&d);
	return 0;
}

static int cmd_explain(struct options *o, int n, char **ids)
{
	struct kmsg_docs *docs;
	char err[512];
	int i, ret = 0;

	docs = kmsg_docs_open(db_path(o), err, sizeof(err));
	if (!docs) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (i)
			printf("\n");
		ret |= explain_one(docs, ids[i]);
	}
	kmsg_docs_close(docs);
	return ret;
}

static int search_hit(void *ctx, const char *id, const char *format,
		      const char *description)
{
	const char *nl = description ? strchr(description, '\n') : NULL;

	(void)ctx;
	printf("%-14s \"%s\"\n", id ? id : "", format ? format : "");
	if (description && *description)
		printf("               %.*s%s\n",
		       (int)(nl ? nl - description : (long)strlen(description)),
		       description, nl ? " ..." : "");
	return 0;
}

static int cmd_search(struct options *o, int n, char **words)
{
	struct kmsg_strbuf q = { 0 };
	struct kmsg_docs *docs;
	char err[512];
	int i, ret;

	/* every word must match: each one quoted, as FTS5 phrase */
	for (i = 0; i < n; i++) {
		const char *p;

		kmsg_strbuf_puts(&q, i ? " \"" : "\"");
		for (p = words[i]; *p; p++)
			kmsg_strbuf_putn(&q, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
		kmsg_strbuf_putc(&q, '"');
	}
	docs = kmsg_docs_open(db_path(o), err, sizeof(err));
	if (!docs) {
		fprintf(stderr, "%s: %s\n", prog, err);
		kmsg_strbuf_free(&q);
		return 1;
	}
	ret = kmsg_docs_search(docs, q.buf ? q.buf : "", search_hit, NULL);
	if (ret == 0)
		fprintf(stderr, "%s: nothing found\n", prog);
	else if (ret < 0)
		fprintf(stderr, "%s: search failed\n", prog);
	kmsg_docs_close(docs);
	kmsg_strbuf_free(&q);
	return ret > 0 ? 0 : 1;
}

/* "comp.N: " in @text, at its start or after ": " (device messages) */
static bool find_id(const char *text, char *id, size_t size)
{
	const char *p = text, *q;

	for (;;) {
		q = p;
		while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		       (*q >= '0' && *q <= '9') || *q == '_' || *q == '-')
			q++;
		if (q > p && *q == '.' && q[1] >= '0' && q[1] <= '9') {
			const char *d = q + 1;

			while (*d >= '0' && *d <= '9')
				d++;
			if (d[0] == ':' && d[1] == ' ' && (size_t)(d - p) < size) {
				snprintf(id, size, "%.*s", (int)(d - p), p);
				return true;
			}
		}
		p = strstr(p, ": ");
		if (!p)
			return false;
		p += 2;
	}
}

/* One line of /dev/kmsg ("pri,seq,ts,flags;text") or of dmesg output */
static void dmesg_line(struct options *o, struct kmsg_docs *docs, char *line)
{
	unsigned long long ts;
	unsigned int pri;
	char id[96], *text = line;
	struct state st = { .opt = o, .docs = docs };

	line[strcspn(line, "\n")] = '\0';
	if (line[0] == ' ')
		return;		/* a /dev/kmsg dictionary line */
	if (sscanf(line, "%u,%*u,%llu,", &pri, &ts) == 2 && strchr(line, ';')) {
		text = strchr(line, ';') + 1;
		printf("[%5llu.%06llu] %-6s %s\n", ts / 1000000, ts % 1000000,
		       kmsg_level_name(pri & 7), text);
	} else {
		printf("%s\n", line);
		if (line[0] == '[' && strchr(line, ']'))
			text = strchr(line, ']') + 1 + (strchr(line, ']')[1] == ' ');
	}
	if (o->explain && find_id(text, id, sizeof(id)))
		print_explain(&st, id);
}

static int cmd_dmesg(struct options *o, const char *file)
{
	struct kmsg_docs *docs = NULL;
	bool kmsg = !file;
	char err[512], *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (o->explain) {
		docs = kmsg_docs_open(db_path(o), err, sizeof(err));
		if (!docs) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return 1;
		}
	}
	if (kmsg) {
		/* every record once, without waiting for new ones */
		int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
		char rec[8192];
		ssize_t n;

		if (fd < 0) {
			fprintf(stderr, "%s: /dev/kmsg: %s\n", prog, strerror(errno));
			kmsg_docs_close(docs);
			return 1;
		}
		while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 ||
		       (n < 0 && errno == EPIPE)) {
			if (n <= 0)
				continue;
			rec[n] = '\0';
			dmesg_line(o, docs, rec);
		}
		close(fd);
	} else {
		f = strcmp(file, "-") ? fopen(file, "r") : stdin;
		if (!f) {
			fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
			kmsg_docs_close(docs);
			return 1;
		}
		while (getline(&line, &cap, f) > 0)
			dmesg_line(o, docs, line);
		if (f != stdin)
			fclose(f);
		free(line);
	}
	kmsg_docs_close(docs);
	return 0;
}

/* --- main ---------------------------------------------------------- */

static const struct option long_options[] = {
	{ "json", no_argument, NULL, 'J' },
	{ "color", optional_argument, NULL, 'C' },
	{ "colour", optional_argument, NULL, 'C' },
	{ "errno-numbers", no_argument, NULL, 'E' },
	{ "kallsyms", required_argument, NULL, 'k' },
	{ "explain", no_argument, NULL, 'x' },
	{ "lang", required_argument, NULL, 'L' },
	{ "db", required_argument, NULL, 'D' },
	{ "component", required_argument, NULL, 'c' },
	{ "id", required_argument, NULL, 'i' },
	{ "level", required_argument, NULL, 'l' },
	{ "count", required_argument, NULL, 'n' },
	{ "duration", required_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || end == s || *v < 0 ? -1 : 0;
}

static int parse_options(int argc, char **argv, struct options *o,
			 bool live, void (*usage)(FILE *))
{
	double v;
	int c;

	o->color = COLOR_AUTO;
	o->levels = 0xff;
	while ((c = getopt_long(argc, argv, "Jc:i:l:n:d:k:xh", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'J':
			o->json = true;
			break;
		case 'C':
			if (!optarg || !strcmp(optarg, "auto"))
				o->color = COLOR_AUTO;
			else if (!strcmp(optarg, "always"))
				o->color = COLOR_ALWAYS;
			else if (!strcmp(optarg, "never"))
				o->color = COLOR_NEVER;
			else
				goto bad;
			break;
		case 'E':
			o->errno_numbers = true;
			break;
		case 'k':
			o->kallsyms = optarg;
			break;
		case 'x':
			o->explain = true;
			break;
		case 'L':
			o->lang = optarg;
			break;
		case 'D':
			o->db = optarg;
			break;
		case 'c':
			o->component = optarg;
			break;
		case 'i':
			if (kmsg_id_filter_parse(&o->id, optarg))
				goto bad;
			o->by_id = true;
			break;
		case 'l':
			if (parse_levels(optarg, &o->levels))
				return -1;
			break;
		case 'n':
			if (parse_number(optarg, &v) || v < 1 || v > LONG_MAX)
				goto bad;
			o->count = v;
			break;
		case 'd':
			if (!live || parse_number(optarg, &v))
				goto bad;
			o->duration = v;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	return 0;
bad:
	fprintf(stderr, "%s: invalid argument '%s'\n", prog, optarg);
	return -1;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	const char *cmd;

	if (argc < 2) {
		usage_main(stderr);
		return 1;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage_main(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("kmsg %s\n", KMSG_VERSION);
		return 0;
	}
	argv++;
	argc--;
	if (!strcmp(cmd, "live")) {
		if (parse_options(argc, argv, &o, true, usage_live))
			return 1;
		if (optind != argc) {
			usage_live(stderr);
			return 1;
		}
		return cmd_live(&o);
	}
	if (!strcmp(cmd, "report")) {
		if (parse_options(argc, argv, &o, false, usage_report))
			return 1;
		if (optind != argc - 1) {
			usage_report(stderr);
			return 1;
		}
		return cmd_report(&o, argv[optind]);
	}
	if (!strcmp(cmd, "manual")) {
		struct kmsg_docs *docs;
		char err[512];
		int ret;

		if (parse_options(argc, argv, &o, false, usage_docs))
			return 1;
		if (optind != argc - 1) {
			usage_docs(stderr);
			return 1;
		}
		docs = kmsg_docs_open(db_path(&o), err, sizeof(err));
		if (!docs) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return 1;
		}
		ret = kmsg_manual(docs, argv[optind]);
		kmsg_docs_close(docs);
		return ret;
	}
	if (!strcmp(cmd, "explain") || !strcmp(cmd, "search") ||
	    !strcmp(cmd, "dmesg")) {
		if (parse_options(argc, argv, &o, false, usage_docs))
			return 1;
		if (!strcmp(cmd, "dmesg"))
			return optind < argc - 1 ? (usage_docs(stderr), 1) :
				cmd_dmesg(&o, optind < argc ? argv[optind] : NULL);
		if (optind == argc) {
			usage_docs(stderr);
			return 1;
		}
		return !strcmp(cmd, "explain") ?
			cmd_explain(&o, argc - optind, argv + optind) :
			cmd_search(&o, argc - optind, argv + optind);
	}
	fprintf(stderr, "%s: unknown command '%s'\n", prog, cmd);
	usage_main(stderr);
	return 1;
}
