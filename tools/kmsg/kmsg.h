/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg: one source file per command (live.c, report.c, explain.c,
 * search.c, dmesg.c, manual.c), what they share in common.c, and kmsg.c,
 * which dispatches.
 */
#ifndef KMSG_H
#define KMSG_H

#include <stdbool.h>
#include <stdio.h>

#include "kmsg_event.h"
#include "kmsg_id.h"
#include "kmsg_json.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"

#define KMSG_VERSION "0.1"

/* dmesg --follow's output buffer: more than a record's longest line */
#define KMSG_FOLLOW_LINE_BUF	(1 << 20)

struct kmsg_docs;
struct tep_handle;
struct tep_record;

extern const char *prog;

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
	const char *release;	/* dmesg --release: the database for it */
	bool explain;		/* -x: annotate messages with their docs */
	bool stats;		/* dmesg --stats: counts only */
	const char *lang;	/* render translations for this locale */
	bool journal;		/* --journal: send entries to journald */
	const char *export;	/* --export FILE: journal export format */
	bool otlp;		/* --otlp: OTLP/JSON, a request a line */
	/* --boot-time: when the traced kernel booted, ns since 1970 */
	unsigned long long boot_ns;
	bool boot_time_set;
	unsigned long buffer_kb;	/* live --buffer-kb: per CPU, 0: default */
	bool follow;		/* dmesg --follow: wait for new records */
	const char *kmsg_device;	/* dmesg: instead of /dev/kmsg */
	const char *srctree;	/* dmesg -x: the kernel's source, for sites */
	const char *state;	/* dmesg --follow --state FILE */
	const char *boot_id_file;	/* instead of .../random/boot_id */
};

/* Decoding and printing kmsg:kmsg records: live and report */
struct state {
	struct options *opt;
	struct kmsg_event ev;
	struct kmsg_render_opts ropts;
	struct tep_handle *tep;
	struct kmsg_strbuf line, text;
	struct kmsg_json_cache json_cache;
	long shown;
	unsigned long long lost;
	long bad;
	bool use_color;
	bool done;
	struct kmsg_docs *docs;
	struct alias_cache *aliases;	/* automatic id -> curated, from docs */
	struct kmsg_ids ids;	/* of the message being printed */
	/* what ids were computed from (ids_of()); valid when ids_key.len */
	struct kmsg_strbuf ids_key;
	struct journal_out *journal;	/* --journal, --export; else NULL */
	struct kmsg_otlp otlp;		/* --otlp: the resource and time */
	bool otlp_live;			/* its boot time: the running kernel's */
	char host[256];			/* its host.name, live */
	/* live: called for a pid with no name yet, to look it up */
	void (*comm_miss)(struct state *st, int pid);
	/* the name of the last task looked up (comm_of()), or NULL */
	const char *comm;
	int comm_pid;
	/*
	 * Loss by printk sequence number: the lowest and highest seq of the
	 * events decoded, and how many records they were (a record's
	 * pr_cont() fragments share its seq: only its first is counted)
	 */
	unsigned long long seq_first, seq_last, seq_records;
	unsigned long drops;	/* reports of lost events (report_lost()) */
};

/*
 * The options of a command, then its operands (argv[optind] on): at least
 * min, at most max. Prints usage() and exits for --help; returns -1 with a
 * message or the usage on stderr when they are wrong.
 */
int parse_command(int argc, char **argv, struct options *o, bool live,
		  void (*usage)(FILE *), int min, int max);
void usage_filters(FILE *f);
void usage_docs(FILE *f);
/*
 * Open the docs database: --db, else $KMSG_DB, else the first that exists
 * of ../share/kmsg/kmsg.db next to the program (an installed tree, also
 * under DESTDIR), KMSG_DATADIR/kmsg.db (from PREFIX at build time) and
 * ../docs-db/kmsg.db next to the program (build/tools/kmsg of a build
 * tree). NULL with a message in @err: where it looked, how to get one.
 */
struct kmsg_docs *docs_open(const struct options *o, char *err, size_t errlen);

/*
 * Databases installed side by side, one per kernel release, as
 * DIR/<release>.db (kmsg db install): DIR is $KMSG_DB_DIR, else db/ in
 * ../share/kmsg next to the program when that exists (an installed
 * tree), else KMSG_DATADIR/db
 */
void db_dir(char *buf, size_t size);
struct installed {
	char *release;		/* from the file's name */
	char *path;
};
/* Those of @dir, by release; none if it does not exist. 0 or -errno */
int db_installed(const char *dir, struct installed **v, size_t *n);
void installed_free(struct installed *v, size_t n);
/* The path of the database of the project's own kernel (kmsg.db), if any */
bool db_fallback(char *buf, size_t size);

int state_init(struct state *st, struct options *o, struct tep_handle *tep);
void state_free(struct state *st);
/* One record of any event: print it if it is a wanted kmsg message */
int handle_record(struct state *st, struct tep_record *rec);
/* Does the message pass the filters (--level, --component, --id)? */
bool wanted(const struct options *o, const struct kmsg_msg *m,
	    const struct kmsg_ids *ids);
/*
 * Write message @m (its identifiers in st->ids, its text in st->text) as
 * the options say: text (and -x), --json, --otlp, --journal, --export.
 * kmsg live and report for traced messages, kmsg dmesg --follow for
 * records identified from text (@m->origin set). 0 or -errno.
 */
int emit_msg(struct state *st, const struct kmsg_msg *m,
	     const struct kmsg_args *args, const char *comm);
/* As emit_msg(): records of /dev/kmsg missed, dated @ts (ns) */
int emit_missed(struct state *st, unsigned long long ts,
		const struct kmsg_missed *mi);
/*
 * On stderr, when messages were lost: the ring buffer's count @ring (< 0:
 * unknown, a trace.dat), then what the sequence numbers of the events
 * decoded say: how many records from the first to the last have none
 */
void report_loss(struct state *st, long long ring);
void report_lost(struct state *st, int cpu, long long missed);
/* The exit status: ret < 0 is an error, records not decoded give 2 */
int finish(struct state *st, int ret);
/* journalctl -x style: the description and user response of id */
int print_explain(struct state *st, const char *id);

/*
 * --journal and --export (journal.c): open the sink (@file: the trace.dat
 * of report, NULL live), one entry per message, an entry for lost ones
 */
int journal_open(struct state *st, const struct options *o, const char *file);
/* --otlp: live (the running kernel's boot time and host) or a trace.dat */
void otlp_open(struct state *st, const struct options *o, bool live);
int journal_msg(struct state *st, const struct kmsg_msg *m,
		const struct kmsg_args *args, const char *comm);
int journal_lost(struct state *st, int cpu, long long missed);
int journal_missed(struct state *st, unsigned long long ts,
		   const struct kmsg_missed *mi);
/* --export's file written out: 0 or -1 (errno) */
int journal_flush(struct state *st);
/* _BOOT_ID of --export: the boot being followed (32 hex digits) */
void journal_set_boot_id(struct state *st, const char *boot_id);
void journal_close(struct state *st);

/* The commands: argv[0] is the command's name */
int live_main(int argc, char **argv);
int report_main(int argc, char **argv);
int reports_main(int argc, char **argv);
int compare_main(int argc, char **argv);

/*
 * A message of a log as kmsg dmesg identifies it: @id its identifier
 * when one site printed it (NULL otherwise), its text (all its lines),
 * its level (-1 unknown), @kernel false for a program's record
 */
struct dmesg_msg {
	const char *id;
	const char *text;
	size_t len;
	int level;
	bool kernel;
};

/* Each message of @file (kmsg dmesg's reading, @o's database) to @cb */
int dmesg_each(struct options *o, const char *file,
	       void (*cb)(void *ctx, const struct dmesg_msg *msg), void *ctx);
/*
 * Each kernel report of @file (kmsg reports' finding, the docs database
 * of @o) to @cb: its class, title, whether corrupted. 0, or 2 after a
 * message.
 */
int reports_each(const struct options *o, const char *path,
		 void (*cb)(void *ctx, const char *cls, const char *title,
			    bool corrupted), void *ctx);
int explain_main(int argc, char **argv);
int search_main(int argc, char **argv);
int dmesg_main(int argc, char **argv);
int manual_main(int argc, char **argv);
int db_main(int argc, char **argv);

#endif /* KMSG_H */
