/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding kmsg:kmsg trace records (see the kernel's
 * Documentation/core-api/kmsg.rst) with libtraceevent.
 *
 * Every length and offset in a record is checked against the record's
 * size: a corrupt record gives an error, never an out-of-bounds read.
 */
#ifndef KMSG_EVENT_H
#define KMSG_EVENT_H

#include <stdbool.h>
#include <stddef.h>

struct tep_handle;
struct tep_event;
struct tep_format_field;
struct tep_record;

/* The event layout this decoder knows (field "version") */
#define KMSG_EVENT_VERSION	1
#define KMSG_EVENT_TRUNCATED	0x01

/* The kmsg:kmsg event of one tep handle, with its fields looked up */
struct kmsg_event {
	struct tep_handle *tep;
	struct tep_event *event;
	struct tep_format_field *ip, *version, *level, *flags, *number;
	struct tep_format_field *args, *component, *fmt, *driver, *device;
};

/* A string field: points into the record, not NUL-terminated */
struct kmsg_str {
	const char *s;
	size_t len;
};

/* One decoded record */
struct kmsg_msg {
	unsigned long long ts;		/* nanoseconds */
	int cpu;
	int pid;
	unsigned long long ip;
	unsigned int version;
	unsigned int level;
	unsigned int flags;
	unsigned int number;
	struct kmsg_str component, fmt, driver, device;
	const unsigned char *args;	/* binary arguments, in the record */
	size_t args_len;
};

/*
 * Find kmsg:kmsg in @tep and check its fields. Returns 0, or -1 with a
 * message in @err (of @errlen bytes).
 */
int kmsg_event_init(struct kmsg_event *ev, struct tep_handle *tep,
		    char *err, size_t errlen);

/* Is @rec a kmsg:kmsg record? */
bool kmsg_event_match(const struct kmsg_event *ev, struct tep_record *rec);

/*
 * Decode @rec into @msg. Returns 0, or -1 with the reason in @err: a
 * field outside the record, a string without its NUL, an unknown version.
 */
int kmsg_event_decode(const struct kmsg_event *ev, struct tep_record *rec,
		      struct kmsg_msg *msg, char *err, size_t errlen);

/*
 * A kmsg_render_opts.lookup_symbol over libtraceevent's symbol table (a
 * struct tep_handle as ctx), as trace.dat files carry it: names, offsets
 * and sizes, but no module names.
 */
int kmsg_tep_lookup(void *ctx, unsigned long long addr, const char **name,
		    unsigned long long *offset, unsigned long long *size,
		    const char **module);

#endif /* KMSG_EVENT_H */
