// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_kmsg.so - libtraceevent plugin: kmsg:kmsg events printed as the
 * text the kernel logged, e.g. in "trace-cmd report":
 *
 *   kmsg: kmsgtest.2 <3> kmsgtest.2: device 4711 not online
 *   kmsg: oom_kill.h923b9134 <4> Out of memory and no killable processes...
 *
 * The identifier is the curated one where there is one, else the
 * automatic one ("<modname>.h????????" when the format was cut).
 *
 * Built with hidden visibility; only the loader and unloader are
 * exported. The text comes from the same decoder and renderer as the
 * kmsg tool's.
 */
#include <stdio.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "kmsg_event.h"
#include "kmsg_id.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"
#include "kmsg_text.h"

#define EXPORT __attribute__((visibility("default")))

/* The kmsg:kmsg fields of the handles this plugin was loaded into */
#define MAX_HANDLES 8
static struct {
	struct tep_handle *tep;
	struct kmsg_event ev;
	bool ready;
} handles[MAX_HANDLES];

static struct kmsg_event *event_of(struct tep_handle *tep)
{
	char err[128];
	int i;

	for (i = 0; i < MAX_HANDLES; i++) {
		if (handles[i].tep != tep)
			continue;
		if (!handles[i].ready &&
		    !kmsg_event_init(&handles[i].ev, tep, err, sizeof(err)))
			handles[i].ready = true;
		return handles[i].ready ? &handles[i].ev : NULL;
	}
	return NULL;
}

static int kmsg_handler(struct trace_seq *s, struct tep_record *record,
			struct tep_event *event, void *context)
{
	struct kmsg_event *ev = event_of(event->tep);
	struct kmsg_render_opts opts = {
		.long_size = tep_get_long_size(event->tep) ?: 8,
		.symbolic_errname = true,
		.lookup_symbol = kmsg_tep_lookup,
		.lookup_ctx = event->tep,
	};
	struct kmsg_strbuf text = { 0 };
	struct kmsg_args args;
	struct kmsg_ids ids;
	struct kmsg_msg m;
	char err[256];

	(void)context;
	if (!ev || kmsg_event_decode(ev, record, &m, err, sizeof(err)) ||
	    kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err))) {
		trace_seq_puts(s, ev ? err : "kmsg: unknown event layout");
		return 0;
	}
	if (kmsg_msg_text(&text, &m, NULL, &opts, &args) < 0) {
		trace_seq_puts(s, "kmsg: out of memory");
		return 0;
	}
	trace_seq_printf(s, "%s <%u> ", kmsg_ids_label(&ids), m.level);
	trace_seq_puts(s, text.buf ? text.buf : "");
	if (m.flags & KMSG_EVENT_TRUNCATED)
		trace_seq_puts(s, " <?truncated?>");
	kmsg_strbuf_free(&text);
	return 0;
}

EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	int i;

	for (i = 0; i < MAX_HANDLES && handles[i].tep; i++)
		;
	if (i < MAX_HANDLES)
		handles[i].tep = tep;
	tep_register_event_handler(tep, -1, "kmsg", "kmsg", kmsg_handler, NULL);
	return 0;
}

EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	int i;

	tep_unregister_event_handler(tep, -1, "kmsg", "kmsg", kmsg_handler,
				     NULL);
	for (i = 0; i < MAX_HANDLES; i++)
		if (handles[i].tep == tep)
			memset(&handles[i], 0, sizeof(handles[i]));
}
