/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON output of kmsg messages: one object per line. The fields are
 * documented in kmsg(1).
 */
#ifndef KMSG_JSON_H
#define KMSG_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "kmsg_event.h"
#include "kmsg_id.h"
#include "kmsg_render.h"
#include "kmsg_strbuf.h"

/* "emerg" ... "debug", as dmesg names the levels */
const char *kmsg_level_name(unsigned int level);

/* kmsg_json_str(): kmsg_strbuf.h */

/* Append the arguments as a typed JSON array */
int kmsg_json_args(struct kmsg_strbuf *out, const struct kmsg_args *args);

/*
 * The JSON of the fields of the last message site (component to
 * wrapper_format), kept for the next message of that site.  Zeroed to
 * start; kmsg_json_cache_free() when done.
 */
struct kmsg_json_cache {
	bool valid;
	struct kmsg_strbuf key;		/* what the fields were made of */
	struct kmsg_strbuf frag;
};

void kmsg_json_cache_free(struct kmsg_json_cache *cache);

/*
 * Append one message object (without newline): @msg, its identifiers
 * @ids (kmsg_msg_ids()), the name @comm of its task, its @text and its
 * decoded arguments @args.  @cache may be NULL; the output is the same.
 */
int kmsg_json_msg(struct kmsg_strbuf *out, struct kmsg_json_cache *cache,
		  const struct kmsg_msg *msg, const struct kmsg_ids *ids,
		  const char *comm, const char *text, size_t text_len,
		  const struct kmsg_args *args);

/*
 * OpenTelemetry: one ExportLogsServiceRequest of OTLP/JSON (the
 * Collector's otlpjsonfile receiver reads one a line) holding the
 * message as one LogRecord, mapped as kmsg(1) says.
 */
struct kmsg_otlp {
	bool have_boot_time;		/* timeUnixNano = boot_ns + ts */
	unsigned long long boot_ns;	/* when the kernel booted, Unix ns */
	unsigned long long observed_ns;	/* observedTimeUnixNano */
	const char *host;		/* resource host.name, or NULL */
	const char *description;	/* -x: the docs, or NULL */
	const char *user_response;
};

/* The SeverityNumber of a level (0 to 7), as the data model's appendix B */
unsigned int kmsg_otlp_severity(unsigned int level);

int kmsg_otlp_msg(struct kmsg_strbuf *out, const struct kmsg_otlp *o,
		  const struct kmsg_msg *msg, const struct kmsg_ids *ids,
		  const char *comm, const char *text, size_t text_len,
		  const struct kmsg_args *args);

/*
 * Records of /dev/kmsg missed (kmsg dmesg --follow), reported at @ts (ns,
 * the next record's time) as a message of their own, as journald's
 * "Missed N kernel messages": a JSON object, an OTLP request
 */
int kmsg_json_missed(struct kmsg_strbuf *out, unsigned long long ts,
		     const struct kmsg_missed *mi);
int kmsg_otlp_missed(struct kmsg_strbuf *out, const struct kmsg_otlp *o,
		     unsigned long long ts, const struct kmsg_missed *mi);

#endif /* KMSG_JSON_H */
