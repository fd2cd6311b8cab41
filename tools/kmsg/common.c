// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg: what the commands share: options, the docs database, and the
 * printing of messages decoded from kmsg:kmsg events (live and report).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>

#include "kmsg_docs.h"
#include "kmsg_event.h"
#include "kmsg_id.h"
#include "kmsg_json.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"
#include "kmsg_text.h"
#include "kmsg.h"

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

void usage_filters(FILE *f)
{
	fputs("Output:\n"
	      "  -J, --json             one JSON object per line (see kmsg(1))\n"
	      "      --otlp             OpenTelemetry: an OTLP/JSON request per line\n"
	      "      --color[=WHEN]     auto (default), always or never\n"
	      "      --errno-numbers    %pe as -19 rather than -ENODEV\n"
	      "  -x, --explain          add each message's description and user\n"
	      "                         response (from the docs database)\n"
	      "      --lang LOCALE      translated messages (default: LC_MESSAGES)\n"
	      "      --journal          send each message to the journal (journald)\n"
	      "      --export FILE      write journal entries in the journal export\n"
	      "                         format to FILE (- for standard output)\n"
	      "      --db FILE          docs database (default: $KMSG_DB, else\n"
	      "                         kmsg.db in ../share/kmsg next to the program\n"
	      "                         or in " KMSG_DATADIR ")\n"
	      "      --release RELEASE  the database installed for this kernel\n"
	      "                         release (kmsg db list)\n"
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

void usage_docs(FILE *f)
{
	fprintf(f,
		"Usage: %s explain [--db FILE] ID...\n"
		"       %s search [--db FILE] WORD...\n"
		"       %s dmesg [-x [--srctree DIR]] [--json] [--stats] [--db FILE | --release R] [FILE]\n"
		"       %s dmesg -w|--follow [--state FILE] [--kmsg-device PATH]\n"
		"            [--json|--otlp|--journal|--export FILE] [-x] [--db FILE]\n"
		"       %s manual [--db FILE] DIR\n"
		"explain: the documentation of messages, by identifier (comp.N).\n"
		"search: messages whose format or documentation has every WORD.\n"
		"dmesg: the kernel log from /dev/kmsg, or log text from FILE\n"
		"(- for standard input: dmesg, dmesg -T, dmesg -r, journalctl -k\n"
		"output), each message identified by the format that printed it:\n"
		"its id and source, with -x also its description and user\n"
		"response, or for one not documented the lines of its call site in\n"
		"the kernel's source DIR (--srctree, KMSG_SRCTREE); --json one\n"
		"object per line, --stats the counts only.\n"
		"The database is the one installed for the log's kernel release\n"
		"(its 'Linux version' line; for /dev/kmsg, uname -r; see\n"
		"'kmsg db list'), else kmsg.db if it is for that release; --release R\n"
		"picks the one of R, --db FILE forces FILE.\n"
		"manual: DIR/man9/<id>.9 for every message (MANPATH=DIR man\n"
		"kmsgtest.2) and DIR/kmsg-manual.html, a printable manual.\n"
		"dmesg --follow: /dev/kmsg as it grows, each record identified and\n"
		"written as kmsg live writes messages; records missed reported as\n"
		"\"Missed N kernel messages\"; --state FILE resumes after the last\n"
		"record written (default $STATE_DIRECTORY/dmesg-follow.state when\n"
		"that is set, as for a service); --kmsg-device PATH reads PATH\n"
		"(a test double: kmsg(1)); --boot-id-file FILE for the boot id.\n",
		prog, prog, prog, prog, prog);
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

bool wanted(const struct options *o, const struct kmsg_msg *m,
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
 * The name of a task; live looks up the ones it does not know yet. The
 * last one found is kept: a run of messages of one task is the rule, and
 * names are only ever registered here (comm_miss), before the lookup.
 */
static const char *comm_of(struct state *st, int pid)
{
	if (!pid)
		return "<idle>";
	if (st->comm && pid == st->comm_pid)
		return st->comm;
	st->comm = NULL;
	if (st->comm_miss && !tep_is_pid_registered(st->tep, pid))
		st->comm_miss(st, pid);
	if (!tep_is_pid_registered(st->tep, pid))
		return "<...>";
	st->comm_pid = pid;
	st->comm = tep_data_comm_from_pid(st->tep, pid);
	return st->comm;
}

/* "[    5.140900] info   ": the time and level of a line of text */
static int put_head(struct state *st, unsigned long long ts, unsigned int level)
{
	return (st->use_color && kmsg_strbuf_puts(&st->line, "\033[32m")) ||
	       kmsg_strbuf_putc(&st->line, '[') ||
	       kmsg_strbuf_putu(&st->line, ts / 1000000000ULL, 5, ' ') ||
	       kmsg_strbuf_putc(&st->line, '.') ||
	       kmsg_strbuf_putu(&st->line, ts % 1000000000ULL / 1000, 6, '0') ||
	       kmsg_strbuf_putc(&st->line, ']') ||
	       (st->use_color && kmsg_strbuf_puts(&st->line, "\033[0m")) ||
	       kmsg_strbuf_putc(&st->line, ' ') ||
	       kmsg_strbuf_puts(&st->line, kmsg_level_name(level)) ||
	       kmsg_strbuf_fill(&st->line, ' ', 7 - strlen(kmsg_level_name(level)));
}

static int print_text(struct state *st, const struct kmsg_msg *m)
{
	const char *c = st->use_color ? level_color(m->level) : "";
	bool colored = st->use_color && *c;

	st->line.len = 0;
	if (put_head(st, m->ts, m->level) ||
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
		      const struct kmsg_args *args, const char *comm)
{
	st->line.len = 0;
	if (kmsg_json_msg(&st->line, &st->json_cache, m, &st->ids, comm,
			  st->text.buf, st->text.len, args) ||
	    (st->opt->explain && json_explain(st)) ||
	    kmsg_strbuf_putc(&st->line, '\n'))
		return -ENOMEM;
	return fwrite(st->line.buf, 1, st->line.len, stdout) == st->line.len ?
		0 : -EIO;
}

void otlp_open(struct state *st, const struct options *o, bool live)
{
	if (o->boot_time_set) {
		st->otlp.boot_ns = o->boot_ns;
		st->otlp.have_boot_time = true;
	}
	/* live: the running kernel's boot time, taken again each message */
	st->otlp_live = live && !o->boot_time_set;
	if (live && !gethostname(st->host, sizeof(st->host) - 1))
		st->otlp.host = st->host;
}

/* --otlp: the message as an ExportLogsServiceRequest of its own */
/* The observed time, and live the boot time, of the next request */
static void otlp_times(struct state *st)
{
	struct timespec now, mono;

	clock_gettime(CLOCK_REALTIME, &now);
	st->otlp.observed_ns = now.tv_sec * 1000000000ULL + now.tv_nsec;
	if (st->otlp_live) {
		/*
		 * The trace clock (local_clock(), as printk's) counts from boot
		 * like CLOCK_MONOTONIC, within the drift of sched_clock; the
		 * offset is taken again for each message, so that a clock set
		 * after kmsg started (NTP at boot) dates the next ones right.
		 */
		clock_gettime(CLOCK_MONOTONIC, &mono);
		st->otlp.boot_ns = st->otlp.observed_ns -
				   (mono.tv_sec * 1000000000ULL + mono.tv_nsec);
		st->otlp.have_boot_time = true;
	}
}

static int print_otlp(struct state *st, const struct kmsg_msg *m,
		      const struct kmsg_args *args, const char *comm)
{
	const char *id = kmsg_ids_id(&st->ids);
	struct kmsg_doc doc;
	bool have_doc = false;
	int ret;

	if (st->opt->explain && id) {
		ret = kmsg_docs_get(st->docs, id, &doc);
		if (ret < 0)
			return ret;
		have_doc = !ret;
	}
	otlp_times(st);
	st->otlp.description = have_doc ? doc.description : NULL;
	st->otlp.user_response = have_doc ? doc.user_response : NULL;
	st->line.len = 0;
	ret = kmsg_otlp_msg(&st->line, &st->otlp, m, &st->ids, comm,
			    st->text.buf, st->text.len, args) ||
	      kmsg_strbuf_putc(&st->line, '\n') ? -ENOMEM : 0;
	if (have_doc)
		kmsg_doc_free(&doc);
	if (ret)
		return ret;
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

int print_explain(struct state *st, const char *id)
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

/*
 * The identifiers of @m in st->ids. Those of the message before are kept
 * with what they were computed from (version, the flags that matter,
 * number, component, modname, format): a run of one message, the rule in
 * a burst, skips the hash of the format and the alias lookup.
 */
static int ids_of(struct state *st, const struct kmsg_msg *m, char *err,
		  size_t errlen)
{
	unsigned int head[3] = {
		m->version, m->flags & (KMSG_EVENT_TRUNCATED | KMSG_EVENT_WRAPPED),
		m->number,
	};
	size_t lens[3] = { m->component.len, m->modname.len, m->fmt.len };
	struct kmsg_strbuf *k = &st->ids_key;
	size_t n = sizeof(head) + sizeof(lens) + lens[0] + lens[1] + lens[2];
	char *p;

	if (k->len == n && !memcmp(k->buf, head, sizeof(head)) &&
	    !memcmp(k->buf + sizeof(head), lens, sizeof(lens)) &&
	    !memcmp(k->buf + sizeof(head) + sizeof(lens), m->fmt.s, lens[2]) &&
	    !memcmp(k->buf + n - lens[0] - lens[1], m->component.s, lens[0]) &&
	    !memcmp(k->buf + n - lens[1], m->modname.s, lens[1]))
		return 0;
	k->len = 0;
	/* curated aliases of automatic ids come from the docs database */
	if (kmsg_msg_ids(m, st->aliases ? alias_lookup : NULL, st->aliases,
			 &st->ids, err, errlen))
		return -1;
	if (kmsg_strbuf_reserve(k, n))
		return 0;	/* not kept */
	p = k->buf;
	memcpy(p, head, sizeof(head));
	memcpy(p += sizeof(head), lens, sizeof(lens));
	memcpy(p += sizeof(lens), m->fmt.s, lens[2]);
	memcpy(p += lens[2], m->component.s, lens[0]);
	memcpy(p + lens[0], m->modname.s, lens[1]);
	k->len = n;
	k->buf[n] = '\0';
	return 0;
}

/* A message of record @seq decoded: see struct state */
static void seq_note(struct state *st, unsigned long long seq)
{
	if (!st->seq_records++) {
		st->seq_first = seq;
		st->seq_last = seq;
	} else if (seq < st->seq_first) {
		st->seq_first = seq;
	} else if (seq > st->seq_last) {
		st->seq_last = seq;
	}
}

void report_loss(struct state *st, long long ring)
{
	unsigned long long span = 0, missing = 0;

	/* the ring buffer's count decides; the sequence numbers add to it */
	if (ring > 0)
		fprintf(stderr, "%s: %lld messages lost (the ring buffer's count)",
			prog, ring);
	else if (st->drops)
		fprintf(stderr, "%s: messages lost", prog);
	else
		return;
	if (st->seq_records) {
		span = st->seq_last - st->seq_first + 1;
		missing = span > st->seq_records ? span - st->seq_records : 0;
		/*
		 * A record without its event is lost, or was never traced:
		 * written to /dev/kmsg, or printed by a path that fires none
		 */
		fprintf(stderr, "; by sequence number, %llu of the %llu records from seq %llu to %llu decoded, %llu missing",
			st->seq_records, span, st->seq_first, st->seq_last,
			missing);
	}
	fputc('\n', stderr);
}

/* One record of any event: print it if it is a wanted kmsg message */
int handle_record(struct state *st, struct tep_record *rec)
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
	/* a pr_cont() fragment adds to a record already counted */
	if (m.version >= 2 && m.seq != KMSG_SEQ_UNKNOWN &&
	    !(m.flags & KMSG_EVENT_CONT))
		seq_note(st, m.seq);
	if (ids_of(st, &m, err, sizeof(err))) {
		bad_record(st, rec, err);
		return 0;
	}
	if (!wanted(st->opt, &m, &st->ids))
		return 0;
	st->text.len = 0;
	/* JSON: the text as logged; text: every message with its id */
	ret = kmsg_msg_text_id(&st->text, &m,
			       st->opt->json || st->opt->otlp || st->journal ? NULL :
			       kmsg_ids_label(&st->ids),
			       translation(st), &st->ropts, &args);
	if (ret < 0)
		return ret;
	return emit_msg(st, &m, &args, comm_of(st, m.pid));
}

int emit_msg(struct state *st, const struct kmsg_msg *m,
	     const struct kmsg_args *args, const char *comm)
{
	int ret;

	if (st->journal)
		ret = journal_msg(st, m, args, comm);
	else if (st->opt->json)
		ret = print_json(st, m, args, comm);
	else if (st->opt->otlp)
		ret = print_otlp(st, m, args, comm);
	else
		ret = print_text(st, m);
	if (!ret && st->opt->explain && !st->opt->json && !st->opt->otlp &&
	    !st->journal &&
	    kmsg_ids_id(&st->ids))
		ret = print_explain(st, kmsg_ids_id(&st->ids));
	if (ret)
		return ret;
	if (st->opt->count && ++st->shown >= st->opt->count)
		st->done = true;
	return 0;
}

int emit_missed(struct state *st, unsigned long long ts,
		const struct kmsg_missed *mi)
{
	int ret;

	st->line.len = 0;
	if (st->journal)
		return journal_missed(st, ts, mi);
	if (st->opt->json) {
		ret = kmsg_json_missed(&st->line, ts, mi);
	} else if (st->opt->otlp) {
		otlp_times(st);
		ret = kmsg_otlp_missed(&st->line, &st->otlp, ts, mi);
	} else {
		ret = put_head(st, ts, 4) ||
		      kmsg_strbuf_printf(&st->line, "Missed %llu kernel messages",
					 mi->missed) < 0 ? -ENOMEM : 0;
	}
	if (ret || kmsg_strbuf_putc(&st->line, '\n'))
		return -ENOMEM;
	return fwrite(st->line.buf, 1, st->line.len, stdout) == st->line.len ?
		0 : -EIO;
}

void report_lost(struct state *st, int cpu, long long missed)
{
	st->drops++;
	if (missed > 0) {
		st->lost += missed;
		fprintf(stderr, "CPU:%d [%lld EVENTS DROPPED]\n", cpu, missed);
	} else {
		fprintf(stderr, "CPU:%d [EVENTS DROPPED]\n", cpu);
	}
	/* as journald's "Missed N kernel messages" */
	if (st->journal && journal_lost(st, cpu, missed))
		fprintf(stderr, "%s: cannot log the lost messages\n", prog);
}

/*
 * Where the database of the project's own kernel may be, in order: @paths
 * (up to 3); returns how many
 */
static int default_paths(char paths[3][PATH_MAX + 64], char *exe)
{
	ssize_t n;
	int np = 0;

	n = readlink("/proc/self/exe", exe, PATH_MAX - 1);
	if (n > 0) {
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		snprintf(paths[np++], PATH_MAX + 64, "%s/../share/kmsg/"
			 KMSG_DOCS_FILE, exe);
	} else {
		exe[0] = '\0';
	}
	snprintf(paths[np++], PATH_MAX + 64, "%s/" KMSG_DOCS_FILE, KMSG_DATADIR);
	if (n > 0)
		snprintf(paths[np++], PATH_MAX + 64, "%s/../docs-db/"
			 KMSG_DOCS_FILE, exe);
	return np;
}

bool db_fallback(char *buf, size_t size)
{
	char exe[PATH_MAX], paths[3][PATH_MAX + 64];
	int i, np = default_paths(paths, exe);

	for (i = 0; i < np; i++)
		if (!access(paths[i], F_OK)) {
			snprintf(buf, size, "%s", paths[i]);
			return true;
		}
	return false;
}

void db_dir(char *buf, size_t size)
{
	const char *env = getenv("KMSG_DB_DIR");
	char exe[PATH_MAX], paths[3][PATH_MAX + 64];
	struct stat stb;

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return;
	}
	default_paths(paths, exe);
	snprintf(buf, size, "%s/../share/kmsg", exe);
	if (exe[0] && !stat(buf, &stb) && S_ISDIR(stb.st_mode))
		snprintf(buf, size, "%s/../share/kmsg/db", exe);
	else
		snprintf(buf, size, "%s/db", KMSG_DATADIR);
}

static int cmp_installed(const void *a, const void *b)
{
	return strcmp(((const struct installed *)a)->release,
		      ((const struct installed *)b)->release);
}

int db_installed(const char *dir, struct installed **v, size_t *n)
{
	struct dirent *e;
	size_t cap = 0;
	DIR *dh;

	*v = NULL;
	*n = 0;
	dh = opendir(dir);
	if (!dh)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(dh))) {
		size_t len = strlen(e->d_name);
		struct installed *x;

		if (len < 4 || strcmp(e->d_name + len - 3, ".db"))
			continue;
		e->d_name[len - 3] = '\0';
		if (!kmsg_release_ok(e->d_name))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			x = realloc(*v, cap * sizeof(**v));
			if (!x)
				goto oom;
			*v = x;
		}
		x = &(*v)[*n];
		x->release = strdup(e->d_name);
		if (asprintf(&x->path, "%s/%s.db", dir, e->d_name) < 0)
			x->path = NULL;
		if (!x->release || !x->path) {
			free(x->release);
			free(x->path);
			goto oom;
		}
		(*n)++;
	}
	closedir(dh);
	if (*n)
		qsort(*v, *n, sizeof(**v), cmp_installed);
	return 0;
oom:
	closedir(dh);
	installed_free(*v, *n);
	*v = NULL;
	*n = 0;
	return -ENOMEM;
}

void installed_free(struct installed *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].release);
		free(v[i].path);
	}
	free(v);
}

struct kmsg_docs *docs_open(const struct options *o, char *err,
			   size_t errlen)
{
	char exe[PATH_MAX], paths[3][PATH_MAX + 64];
	const char *env = getenv("KMSG_DB");
	int i, n, np;

	if (o->db)
		return kmsg_docs_open(o->db, err, errlen);
	if (o->release) {
		char dir[PATH_MAX], path[PATH_MAX + 80];

		db_dir(dir, sizeof(dir));
		snprintf(path, sizeof(path), "%s/%s.db", dir, o->release);
		if (!access(path, F_OK))
			return kmsg_docs_open(path, err, errlen);
		snprintf(err, errlen, "no database installed for %s (%s): 'kmsg db list' lists those installed, 'kmsg db install FILE' installs one",
			 o->release, path);
		return NULL;
	}
	if (env && *env)
		return kmsg_docs_open(env, err, errlen);
	np = default_paths(paths, exe);
	for (i = 0; i < np; i++)
		if (!access(paths[i], F_OK))
			return kmsg_docs_open(paths[i], err, errlen);
	n = snprintf(err, errlen, "no kmsg docs database: looked for");
	for (i = 0; i < np && n > 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - n, "%s %s", i ? "," : "",
			      paths[i]);
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - n,
			 "; build one with 'make docs-db' (build/docs-db/kmsg.db) and install it with 'make install', or give one with --db FILE or KMSG_DB=FILE");
	return NULL;
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
	char err[1024];

	if (o->lang)
		needed = true;
	else
		o->lang = env_locale();
	if (o->lang && (!strcmp(o->lang, "C") || !strcmp(o->lang, "POSIX") ||
			!strncmp(o->lang, "C.", 2))) {
		o->lang = NULL;
		needed = o->explain || o->db;
	}
	*docs = docs_open(o, err, sizeof(err));
	if (*docs || !needed)
		return 0;
	fprintf(stderr, "%s: %s\n", prog, err);
	return -1;
}

int state_init(struct state *st, struct options *o,
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
	/* without it (no memory), each format is parsed twice a message */
	st->ropts.fmt_cache = kmsg_fmt_cache_new();
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

void state_free(struct state *st)
{
	journal_close(st);
	free(st->aliases);
	kmsg_fmt_cache_free(st->ropts.fmt_cache);
	kmsg_json_cache_free(&st->json_cache);
	kmsg_docs_close(st->docs);
	kmsg_strbuf_free(&st->line);
	kmsg_strbuf_free(&st->text);
	kmsg_strbuf_free(&st->ids_key);
}

int finish(struct state *st, int ret)
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

static const struct option long_options[] = {
	{ "json", no_argument, NULL, 'J' },
	{ "color", optional_argument, NULL, 'C' },
	{ "colour", optional_argument, NULL, 'C' },
	{ "errno-numbers", no_argument, NULL, 'E' },
	{ "kallsyms", required_argument, NULL, 'k' },
	{ "explain", no_argument, NULL, 'x' },
	{ "lang", required_argument, NULL, 'L' },
	{ "db", required_argument, NULL, 'D' },
	{ "release", required_argument, NULL, 'R' },
	{ "journal", no_argument, NULL, 'j' },
	{ "export", required_argument, NULL, 'e' },
	{ "otlp", no_argument, NULL, 'O' },
	{ "boot-time", required_argument, NULL, 'B' },
	{ "component", required_argument, NULL, 'c' },
	{ "id", required_argument, NULL, 'i' },
	{ "level", required_argument, NULL, 'l' },
	{ "count", required_argument, NULL, 'n' },
	{ "duration", required_argument, NULL, 'd' },
	{ "buffer-kb", required_argument, NULL, 'b' },
	{ "stats", no_argument, NULL, 'S' },
	{ "follow", no_argument, NULL, 'w' },
	{ "kmsg-device", required_argument, NULL, 'K' },
	{ "state", required_argument, NULL, 's' },
	{ "boot-id-file", required_argument, NULL, 'I' },
	{ "srctree", required_argument, NULL, 'T' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * --boot-time EPOCH: seconds since 1970 with up to 9 decimals, read as
 * integers (a double has no nanoseconds left at 10^9 s), up to year 2255
 */
static int parse_epoch(const char *s, unsigned long long *ns)
{
	unsigned long long sec = 0, frac = 0, scale = 100000000ULL;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		sec = sec * 10 + (unsigned long long)(*p - '0');
		if (sec > 9000000000ULL)
			return -1;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10) {
			if (!scale)
				return -1;
			frac += (unsigned long long)(*p - '0') * scale;
		}
	}
	if (*p)
		return -1;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

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
	while ((c = getopt_long(argc, argv, "Jc:i:l:n:d:k:xwh", long_options,
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
		case 'S':
			if (usage != usage_docs)
				goto bad_opt;
			o->stats = true;
			break;
		case 'w':
			if (usage != usage_docs)
				goto bad_opt;
			o->follow = true;
			break;
		case 'K':
			if (usage != usage_docs)
				goto bad_opt;
			o->kmsg_device = optarg;
			break;
		case 'T':
			if (usage != usage_docs)
				goto bad_opt;
			o->srctree = optarg;
			break;
		case 's':
			if (usage != usage_docs)
				goto bad_opt;
			o->state = optarg;
			break;
		case 'I':
			if (usage != usage_docs)
				goto bad_opt;
			o->boot_id_file = optarg;
			break;
		case 'L':
			o->lang = optarg;
			break;
		case 'D':
			o->db = optarg;
			break;
		case 'R':
			if (!kmsg_release_ok(optarg))
				goto bad;
			o->release = optarg;
			break;
		case 'j':
			o->journal = true;
			break;
		case 'e':
			o->export = optarg;
			break;
		case 'O':
			o->otlp = true;
			break;
		case 'B':
			if (live || parse_epoch(optarg, &o->boot_ns))
				goto bad;
			o->boot_time_set = true;
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
		case 'b':
			if (!live || parse_number(optarg, &v) || v < 1 ||
			    v > 1 << 22 || v != (unsigned long)v)
				goto bad;
			o->buffer_kb = v;
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
bad_opt:
	usage(stderr);
	return -1;
bad:
	fprintf(stderr, "%s: invalid argument '%s'\n", prog, optarg);
	return -1;
}

int parse_command(int argc, char **argv, struct options *o, bool live,
		  void (*usage)(FILE *), int min, int max)
{
	if (parse_options(argc, argv, o, live, usage))
		return -1;
	if (o->db && o->release) {
		fprintf(stderr, "%s: --db and --release exclude each other\n",
			prog);
		return -1;
	}
	if (o->journal + !!o->export + o->json + o->otlp > 1) {
		fprintf(stderr, "%s: --json, --otlp, --journal and --export exclude each other\n",
			prog);
		return -1;
	}
	if (argc - optind < min || argc - optind > max) {
		usage(stderr);
		return -1;
	}
	return 0;
}
