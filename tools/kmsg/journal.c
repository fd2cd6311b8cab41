// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg live/report --journal and --export: each message as a journal
 * entry (lib/kmsg_journal.c), sent to journald through libsystemd or
 * written in the journal export format.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifdef KMSG_HAVE_SYSTEMD
#include <systemd/sd-journal.h>
#endif

#include "kmsg_docs.h"
#include "kmsg_journal.h"
#include "kmsg.h"

/* where sd_journal_sendv() sends to */
#define JOURNAL_SOCKET	"/run/systemd/journal/socket"

/* the call sites of documented messages, looked up once per id */
#define CODE_SLOTS	1024

struct code_slot {
	char id[KMSG_ID_MAX];
	char *file, *func;
	int line;
};

struct journal_out {
	FILE *export;			/* --export; NULL: --journal */
	bool close_export;
	struct kmsg_journal_entry e;
	struct kmsg_strbuf out;
	struct iovec *iov;
	int iov_cap;
	bool have_time;			/* realtime = boot_ns + ts */
	bool live_clock;		/* boot_ns taken again each message */
	long long boot_ns;
	char boot_id[33];		/* live: this boot's; "" if unknown */
	unsigned long long last_ts;
	struct code_slot code[CODE_SLOTS];
};

static void read_boot_id(char out[33])
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	char line[64];
	int i, k = 0;

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f))
		for (i = 0; line[i] && k < 32; i++)
			if ((line[i] >= '0' && line[i] <= '9') ||
			    (line[i] >= 'a' && line[i] <= 'f'))
				out[k++] = line[i];
	fclose(f);
	out[k == 32 ? 32 : 0] = '\0';
}

static long long clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int journal_open(struct state *st, const struct options *o, const char *file)
{
	struct journal_out *j = calloc(1, sizeof(*j));
	struct stat sb;

	if (!j) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
#ifdef KMSG_HAVE_SYSTEMD
	/* libsystemd drops entries silently when there is no journald */
	if (o->journal && access(JOURNAL_SOCKET, F_OK)) {
		fprintf(stderr, "%s: --journal: no journal at %s: %s (is systemd-journald running?)\n",
			prog, JOURNAL_SOCKET, strerror(errno));
		free(j);
		return -1;
	}
#else
	if (o->journal) {
		fprintf(stderr, "%s: --journal: this build of kmsg has no libsystemd (use --export)\n",
			prog);
		free(j);
		return -1;
	}
#endif
	if (o->export && strcmp(o->export, "-")) {
		j->export = fopen(o->export, "w");
		if (!j->export) {
			fprintf(stderr, "%s: %s: %s\n", prog, o->export,
				strerror(errno));
			free(j);
			return -1;
		}
		j->close_export = true;
		/* following: each entry out whole, as dmesg --follow's lines */
		if (o->follow) {
			static char export_buf[KMSG_FOLLOW_LINE_BUF];

			setvbuf(j->export, export_buf, _IOLBF,
				sizeof(export_buf));
		}
	} else if (o->export) {
		j->export = stdout;
	}
	if (o->boot_time_set) {
		j->boot_ns = o->boot_ns;
		j->have_time = true;
	} else if (!file) {
		/*
		 * live: the trace clock counts from boot, as CLOCK_MONOTONIC;
		 * the offset is taken again for each message (the clock may be
		 * set after kmsg started)
		 */
		j->boot_ns = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
		j->have_time = true;
		j->live_clock = true;
		read_boot_id(j->boot_id);
	} else if (!stat(file, &sb)) {
		/* first message: the file's modification time, see kmsg(1) */
		j->boot_ns = sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
	}
	st->journal = j;
	return 0;
}

static const struct code_slot *code_of(struct state *st, const char *id)
{
	struct journal_out *j = st->journal;
	struct code_slot *c;
	struct kmsg_doc doc;
	size_t len = strlen(id);

	if (!st->docs || len >= KMSG_ID_MAX)
		return NULL;
	c = &j->code[kmsg_fmt_hash(id, len) % CODE_SLOTS];
	if (strcmp(c->id, id)) {
		free(c->file);
		free(c->func);
		c->file = c->func = NULL;
		c->line = 0;
		memcpy(c->id, id, len + 1);
		if (!kmsg_docs_get(st->docs, id, &doc)) {
			if (doc.code_file) {
				c->file = doc.code_file;
				c->func = doc.function;
				c->line = doc.code_line;
				doc.code_file = doc.function = NULL;
			}
			kmsg_doc_free(&doc);
		}
	}
	return c->file ? c : NULL;
}

static int emit(struct state *st, unsigned long long ts)
{
	struct journal_out *j = st->journal;
	int i;

	if (j->export) {
		j->out.len = 0;
		if (kmsg_journal_export(&j->out, &j->e,
					(j->boot_ns + (long long)ts) / 1000,
					ts / 1000, j->boot_id[0] ? j->boot_id : NULL))
			return -ENOMEM;
		return fwrite(j->out.buf, 1, j->out.len, j->export) == j->out.len ?
			0 : -EIO;
	}
	if (j->e.n > j->iov_cap) {
		struct iovec *iov = realloc(j->iov, j->e.n * sizeof(*iov));

		if (!iov)
			return -ENOMEM;
		j->iov = iov;
		j->iov_cap = j->e.n;
	}
	for (i = 0; i < j->e.n; i++) {
		j->iov[i].iov_base = j->e.buf.buf + j->e.off[i];
		j->iov[i].iov_len = j->e.len[i];
	}
#ifdef KMSG_HAVE_SYSTEMD
	i = sd_journal_sendv(j->iov, j->e.n);
	if (i < 0) {
		fprintf(stderr, "%s: cannot send to the journal: %s\n", prog,
			strerror(-i));
		return -EIO;
	}
#endif
	return 0;
}

int journal_msg(struct state *st, const struct kmsg_msg *m,
		const struct kmsg_args *args, const char *comm)
{
	struct journal_out *j = st->journal;
	struct kmsg_journal_code code = { 0 };
	const struct code_slot *c = NULL;
	const char *id = kmsg_ids_id(&st->ids), *mod;
	unsigned long long off, size;
	int ret;

	if (!j->have_time) {
		j->boot_ns -= m->ts;
		j->have_time = true;
	}
	if (j->live_clock)
		j->boot_ns = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
	if (m->origin && m->origin->file) {
		/* the site the text was identified as */
		code.file = m->origin->file;
		code.line = m->origin->line;
		code.func = m->origin->function;
	} else if (id) {
		c = code_of(st, id);
	}
	if (c) {
		code.file = c->file;
		code.line = c->line;
		code.func = c->func;
	} else if (st->ropts.lookup_symbol && m->ip &&
		   st->ropts.lookup_symbol(st->ropts.lookup_ctx, m->ip,
					   &code.func, &off, &size, &mod)) {
		code.func = NULL;	/* else the call site's function */
	}
	ret = kmsg_journal_msg(&j->e, m, &st->ids, comm, st->text.buf,
			       st->text.len, args, &code);
	if (ret)
		return ret;
	j->last_ts = m->ts;
	return emit(st, m->ts);
}

int journal_lost(struct state *st, int cpu, long long missed)
{
	struct journal_out *j = st->journal;
	int ret = kmsg_journal_lost(&j->e, cpu, missed);

	if (!j->have_time)
		return 0;	/* nothing dated yet: stderr has it */
	return ret ? ret : emit(st, j->last_ts);
}

int journal_missed(struct state *st, unsigned long long ts,
		   const struct kmsg_missed *mi)
{
	struct journal_out *j = st->journal;
	int ret;

	if (!j->have_time) {
		j->boot_ns -= ts;
		j->have_time = true;
	}
	if (j->live_clock)
		j->boot_ns = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
	ret = kmsg_journal_missed(&j->e, mi);
	if (ret)
		return ret;
	j->last_ts = ts;
	return emit(st, ts);
}

int journal_flush(struct state *st)
{
	struct journal_out *j = st->journal;

	return j && j->export && fflush(j->export) ? -1 : 0;
}

void journal_set_boot_id(struct state *st, const char *boot_id)
{
	struct journal_out *j = st->journal;

	snprintf(j->boot_id, sizeof(j->boot_id), "%s", boot_id);
}

void journal_close(struct state *st)
{
	struct journal_out *j = st->journal;
	int i;

	if (!j)
		return;
	if (j->close_export && fclose(j->export))
		fprintf(stderr, "%s: %s: %s\n", prog, st->opt->export,
			strerror(errno));
	else if (j->export)
		fflush(j->export);
	for (i = 0; i < CODE_SLOTS; i++) {
		free(j->code[i].file);
		free(j->code[i].func);
	}
	kmsg_journal_free(&j->e);
	kmsg_strbuf_free(&j->out);
	free(j->iov);
	free(j);
	st->journal = NULL;
}
