/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding kmsg:kmsg trace records (see the kernel's
 * Documentation/core-api/kmsg.rst) with libtraceevent.
 *
 * Five layouts. The first three are told apart by each record's "version"
 * field:
 * 1. The event of kmsg_*() call sites: component, number, level, flags,
 *    call site, arguments, format, driver and device.
 * 2. The event of every printk() message: version 1's fields, and the
 *    printk sequence number (seq) and the call site's KBUILD_MODNAME
 *    (modname); component and number are those of a kmsg_*() site, empty
 *    and 0 for other messages, and the format carries whatever prefix
 *    the message printed (a kmsg_*() site's "component.number: ").
 * 3. Version 2's, and the wrapper of a message passed in a %pV
 *    (KMSG_EVENT_WRAPPED): fmt and args are the message's, exactly as
 *    passed in the %pV (its trailing newline included); wrap_fmt and
 *    wrap_args the wrapper's, with an empty string for that %pV.
 * 4. The event of printk()'s vprintk_store(), told by its format: no
 *    "version" field, nor ip, number, component, driver and device; seq,
 *    level, flags, args, wrap_args, modname, fmt and wrap_fmt as version
 *    3's. Decoded as version 3 with number 0, component "" and ip 0. A
 *    device message (dev_printk(), netdev_printk(), ...) is always
 *    wrapped: wrap_fmt is the device layer's ("%s %s: %pV", "%s %s %s%s:
 *    %pV"), its first two arguments the driver and the device, which the
 *    decoder takes as the message's driver and device when the record is
 *    flagged KMSG_EVENT_DEVICE (see kmsg_msg_dev_wrapper()).
 *
 * 5. Layout 4 with two dynamic fields fewer, told by its "wrap_at" field:
 *    args holds the message's arguments, then from word wrap_at on the
 *    wrapper's; fmt the message's format, then after its NUL the
 *    wrapper's. Decoded as layout 4.
 *
 * 6. Layout 5 without wrap_at (told by having none of wrap_at, wrap_fmt,
 *    wrap_args): fmt holds the message's format, then the formats of its
 *    wrappers, outermost first, each after the NUL of the one before; args
 *    the arguments of the outermost wrapper, with those of the message of
 *    its first %pV in line, from the next 4-byte boundary on, and the rest
 *    of the wrapper's from the next 4-byte boundary after them (the next
 *    wrapper's in the same way). Decoded as layout 4, but wrap_fmt holds
 *    the wrappers' formats as recorded (NUL-separated, see
 *    kmsg_msg_wrapper_fmt()), wrap_args all of args, and args the
 *    message's, within wrap_args: none if a wrapper has no %pV the kernel
 *    stores in line (none with a width or precision), its arguments are cut
 *    or there are more than KMSG_EVENT_WRAP_MAX wrappers. In a record
 *    flagged KMSG_EVENT_TRUNCATED, a wrapper's arguments after its %pV are
 *    not looked for: the message's format may be cut, and where its
 *    arguments end is then not known.
 *
 * Every length and offset in a record is checked against the record's
 * size: a corrupt record gives an error, never an out-of-bounds read.
 */
#ifndef KMSG_EVENT_H
#define KMSG_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct tep_handle;
struct tep_event;
struct tep_format_field;
struct tep_record;

/* The newest event layout this decoder knows, from 1 */
#define KMSG_EVENT_VERSION	6
/* The newest layout with a "version" field: later ones have none */
#define KMSG_EVENT_VERSIONED	3
/* flags: arguments or format cut (the format to KMSG_EVENT_FMT_MAX bytes) */
#define KMSG_EVENT_TRUNCATED	0x01
/*
 * flags, version 2: a device message, "<driver> <device>: " before the
 * text; version 4: a record with device info, its prefix in the wrapper
 */
#define KMSG_EVENT_DEVICE	0x02
/* flags, version 2: a KERN_CONT fragment, appended to the record of seq */
#define KMSG_EVENT_CONT		0x04
/* flags, version 3: the message of the first %pV of wrap_fmt */
#define KMSG_EVENT_WRAPPED	0x08
/*
 * flags, version 3: the format (wrap_fmt if wrapped) ended in a newline,
 * not recorded: the one printk() dropped. Without it, printk() dropped
 * the newline that ended the text, from an argument, if there was one.
 */
#define KMSG_EVENT_NEWLINE	0x10
/*
 * flags: printk() printed pointers as strings (hash key not ready:
 * "(____ptrval____)" for the hashed ones, stored as 1; kptr_restrict 1 in
 * an interrupt: "pK-error" for every %pK)
 */
#define KMSG_EVENT_PTRVAL	0x20
#define KMSG_EVENT_PK_ERROR	0x40
/* Layout 6: the kernel's limit of wrappers around a message (VBIN_WRAP_MAX) */
#define KMSG_EVENT_WRAP_MAX	4
/* The kernel's limit of the format (KMSG_TRACE_FMT_MAX), in bytes */
#define KMSG_EVENT_FMT_MAX	1024
/* seq of a record that has none (version 1) or where the kernel had none */
#define KMSG_SEQ_UNKNOWN	(~0ULL)

/* The kmsg:kmsg event of one tep handle, with its fields looked up */
struct kmsg_event {
	struct tep_handle *tep;
	struct tep_event *event;
	/* 4 to 6: the layout of every record (no version field); else 0 */
	unsigned int layout;
	struct tep_format_field *level, *flags, *args, *fmt;
	/* versions 1 to 3; NULL in layout 4 */
	struct tep_format_field *ip, *version, *number, *component;
	struct tep_format_field *driver, *device;
	struct tep_format_field *seq, *modname;	/* version 2; else NULL */
	struct tep_format_field *wrap_fmt, *wrap_args;	/* version 3 */
	struct tep_format_field *wrap_at;	/* layout 5; else NULL */
	struct tep_format_field *common_type, *common_pid;	/* or NULL */
	bool native;	/* the file's byte order is the host's */
};

/* A string field: points into the record, not NUL-terminated */
struct kmsg_str {
	const char *s;
	size_t len;
};

/*
 * Where a message that was not traced came from: a /dev/kmsg record whose
 * text was identified against a database (kmsg dmesg --follow). Writers
 * then leave out what only a trace has (CPU, pid, task) and say how the
 * text matched.
 */
struct kmsg_msg_origin {
	/* "exact", "printed", "ambiguous", "weak" or "unidentified" */
	const char *match;
	/* the call site identified (exact match), else NULL and 0 */
	const char *file, *function;
	int line;
	int facility;		/* the record's syslog facility (0: kernel) */
	/* the record's SUBSYSTEM= and DEVICE= as they are, else NULL */
	const char *subsystem, *kernel_device;
};

/*
 * Records of /dev/kmsg never read (an overrun, a gap in sequence
 * numbers): @missed records from seq @first_seq on; @overrun when the
 * reader was overtaken (read() failed with EPIPE) before them
 */
struct kmsg_missed {
	unsigned long long missed, first_seq;
	bool overrun;
};

/* One decoded record */
struct kmsg_msg {
	unsigned long long ts;		/* nanoseconds */
	int cpu;
	int pid;
	unsigned long long ip;		/* version 4: 0, no caller recorded */
	unsigned int version;
	unsigned int level;
	unsigned int flags;
	unsigned int number;		/* version 4: 0 */
	unsigned long long seq;		/* KMSG_SEQ_UNKNOWN: none */
	/*
	 * version 4: component "", driver and device those of the device
	 * wrapper (kmsg_msg_dev_wrapper()), else ""
	 */
	struct kmsg_str component, fmt, driver, device;
	struct kmsg_str modname;	/* version 2; "": unknown */
	const unsigned char *args;	/* binary arguments, in the record */
	size_t args_len;
	/* version 3, KMSG_EVENT_WRAPPED: the wrapper; else empty */
	struct kmsg_str wrap_fmt;
	const unsigned char *wrap_args;
	size_t wrap_args_len;
	/* NULL: a traced record; else identified from text, see above */
	const struct kmsg_msg_origin *origin;
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
 * field outside the record, a string without its NUL, an unknown version,
 * a record of a version whose fields its event format lacks.
 */
int kmsg_event_decode(const struct kmsg_event *ev, struct tep_record *rec,
		      struct kmsg_msg *msg, char *err, size_t errlen);

/*
 * The length of @m's format that names the message: a wrapped message's
 * format is recorded as passed, with the trailing newline that the
 * kernel leaves out of every other format.
 */
static inline size_t kmsg_msg_fmt_len(const struct kmsg_msg *m)
{
	if ((m->flags & KMSG_EVENT_WRAPPED) && m->fmt.len &&
	    m->fmt.s[m->fmt.len - 1] == '\n')
		return m->fmt.len - 1;
	return m->fmt.len;
}

/*
 * Is @m a version 4 device message, wrapped in the device layer's wrapper:
 * flagged KMSG_EVENT_DEVICE and KMSG_EVENT_WRAPPED, wrap_fmt starting with
 * "%s %s" and ':' or ' ' (dev_printk()'s "%s %s: %pV", netdev_printk()'s
 * "%s %s %s%s: %pV")? Its first two arguments are the driver and the
 * device, and the wrapper prints the "<driver> <device>: " that versions
 * 2 and 3 left to the tools.
 */
static inline bool kmsg_msg_dev_wrapper(const struct kmsg_msg *m)
{
	return m->version >= 4 &&
	       (m->flags & (KMSG_EVENT_DEVICE | KMSG_EVENT_WRAPPED)) ==
	       (KMSG_EVENT_DEVICE | KMSG_EVENT_WRAPPED) &&
	       m->wrap_fmt.len > 5 && !memcmp(m->wrap_fmt.s, "%s %s", 5) &&
	       (m->wrap_fmt.s[5] == ':' || m->wrap_fmt.s[5] == ' ');
}

/*
 * A kmsg_render_opts.lookup_symbol over libtraceevent's symbol table (a
 * struct tep_handle as ctx), as trace.dat files carry it: names, offsets
 * and sizes, but no module names.
 */
int kmsg_tep_lookup(void *ctx, unsigned long long addr, const char **name,
		    unsigned long long *offset, unsigned long long *size,
		    const char **module);

#endif /* KMSG_EVENT_H */
