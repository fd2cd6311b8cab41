/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_match - which printk() format printed a line of kernel log text.
 *
 * Each format of a set becomes a pattern: its literal text, and for each
 * conversion (decoded as lib/vsprintf.c's format_decode() does, with
 * kmsg_conv_decode()) a token for what vsnprintf() can print there:
 *
 *	%d %i			[spaces] [-+ ] decimal digits
 *	%u %o %x %X		[spaces] [0x/0] digits of the base, in the case
 *				the conversion prints; '#', widths, '*'
 *	%c			one byte (after spaces for a width)
 *	%s %pV, other %p...	any text, shortest first (at most the precision)
 *	%pr %pR			"[" any text "]"
 *	%pe			-EINVAL, EINVAL, -22, or a pointer as %p
 *	%p %px %pK		hex digits, or "(null)", "(____ptrval____)"
 *	%ps %pS %pB		symbol[+0xoff/0xsize] [ [module]], or 0xaddr
 *	%pI4 %pi4, %pI6 %pi6	IPv4 and IPv6 addresses; %pIS any non-space run
 *	%pM %pm (R, F)		MAC addresses
 *	%pU			UUIDs
 *	%pa %pad %pap		0x and hex digits
 *	%%			'%'
 *
 * An invalid conversion ends the pattern, as it ends the kernel's output.
 * A site with a prefix (dev_printk()'s "%s %s: ", driver and device)
 * matches that prefix first, each of its %s a non-space run, the driver
 * not ending in ':' (or "(NULL device *): ", what dev_printk() of no
 * device prints instead); a site with a
 * curated identifier "comp.N" matches "comp.N: " next.
 *
 * A line is looked up by its words (runs of [A-Za-z0-9_]): each pattern is
 * filed under the rarest word its literal text has on its own (not
 * touching a conversion); a pattern with no such word is tried on every
 * line, in the order below, merged with the line's candidates. A pattern
 * whose literal bytes and byte pairs are not all in the line (a 256-bit
 * set of each) is not tried. A pattern whose site has a level
 * (kmsg_match_set_level()) is not tried on a line of another level, when
 * the line's is known. Of the
 * patterns that match the whole line, the one with the most literal
 * characters wins over those that only generalize it (each literal run
 * of theirs inside one of its runs, in order: "foo %s" of "foo bar %d");
 * any other pattern that matches it too, with another id, makes the line
 * ambiguous, however much less literal text it has. A pattern with too little literal text of its own
 * (KMSG_MATCH_EVIDENCE) never identifies a line: it only makes it weak,
 * with its candidates, when no pattern with enough matches. When none matches the whole line, one matching its
 * beginning counts (a message continued with pr_cont()): result.partial;
 * a whole match beats it unless it only generalizes it: then ambiguous.
 * When the winner prints a %pV, the formats matching what the %pV printed
 * are the result, if any (result.wrapped). A field of a fixed width is at
 * least that wide, but for a left-justified one ("%-10s") that ends the
 * text: a log's trailing spaces may have been trimmed.
 *
 * The text is untrusted: any bytes. Each match attempt is bounded
 * (KMSG_MATCH_STEPS): a pattern that would take longer does not match.
 * A (token, position) that failed once is not tried again, so that the
 * budget is spent on different ways to match, not on the same one.
 */
#ifndef KMSG_MATCH_H
#define KMSG_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "kmsg_render.h"

struct kmsg_match;

/*
 * Steps of one match attempt (one pattern against one line): each
 * (token, position) is tried once, its failure remembered while the
 * tokens times the text's bytes are at most KMSG_MATCH_MEMO_MAX
 */
#define KMSG_MATCH_STEPS	20000
#define KMSG_MATCH_MEMO_MAX	(1 << 20)
/* Candidates a result lists */
#define KMSG_MATCH_CAND_MAX	8

/*
 * The evidence a match needs: the literal text of the site itself (its
 * format, and the "comp.N: " of a curated id it prints), not the device
 * prefix (which any "%s %s: " device line has) and not whitespace, has at
 * least KMSG_MATCH_EVIDENCE non-space bytes, KMSG_MATCH_EVIDENCE_WORD of
 * them letters, digits or '_'; a format open at both ends (a "%s" first,
 * a "%s" or "%pV" last) KMSG_MATCH_EVIDENCE_OPEN non-space bytes: its
 * text may be anywhere in a line ("%s version %s" of a wireless driver
 * fits "smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: ...)").
 * Below that, a format is a skeleton that
 * many lines fit: "%s: %s %ld" (one ':'), "%s: %s%08lx", "%s (%s)",
 * "%s=%d, %s=%d" (punctuation only), "IRQ %d". Measured: on a 6.18 log
 * with Debian 6.12's 44k formats, 73 of 74 wrong ids came from formats
 * of at most 8 literal bytes, spaces included; the project's guest boot
 * log has its right ids from formats with at least 6 ("ACPI:" and ":"
 * of "%sACPI: %s: %pV", "_OSC: %s [%s]", "%s: [mem %#018Lx-%#018Lx]"),
 * but for one line of "%s: %s %ld", and 16 of formats with none
 * ("%s%s %10llu %pg %s", "%s %pR"). A format whose own text is only a
 * subsystem's tag at its start ("rcu:  ", "clocksource: %s": what
 * pr_fmt() puts before every message of a file; anything before the
 * format's first ": " or " : " with no conversion: "Spectre V2 : %s",
 * of a device site too, but a tag of several words only where another
 * format starts with it: "Zone ranges:", "Command line: %s" are
 * messages) is weak too: on the 6.18
 * log, "rcu:  " (continued by pr_cont()) took the beginning of an rcu
 * line it did not print. A curated id the line prints is evidence.
 */
#define KMSG_MATCH_EVIDENCE	4
#define KMSG_MATCH_EVIDENCE_WORD	3
/* the same of a format open at both ends ("%s version %s") */
#define KMSG_MATCH_EVIDENCE_OPEN	8
/*
 * and of text and one conversion printing any text, first or last:
 * "Freezing %s" fits a line of another kernel ("Freezing user space
 * processes ... (elapsed 0.004 seconds) done."), "Found %s" one of any
 * subsystem; "Command line: %s" has enough, and "input: %s as %s" has
 * its text on both sides of a conversion
 */
#define KMSG_MATCH_EVIDENCE_LONE	10

/* kmsg_match_line() flags: no conversion matches a newline of the text */
#define KMSG_MATCH_NL_LITERAL	1

struct kmsg_match *kmsg_match_new(void);
void kmsg_match_free(struct kmsg_match *m);

/*
 * Add a site: its @id ("oom_kill.h923b9134", or "comp.N", which the line
 * must print after the prefix), @prefix (NULL or "" for none) and @fmt of
 * @fmt_len bytes (stops at a NUL), without its level and trailing newline.
 * Returns the pattern's number (0, 1, ...) or -ENOMEM. Patterns added
 * after kmsg_match_build() are not found until it is called again.
 */
int kmsg_match_add(struct kmsg_match *m, const char *id, const char *prefix,
		   const char *fmt, size_t fmt_len);

/*
 * The level (0..7) site @pat prints at; -1 (the default): unknown, any
 * line's. A site of level 4 whose format (not its device prefix) starts
 * with "%s" takes its level from that argument (printk("%s...",
 * KERN_INFO)): any line's.
 */
void kmsg_match_set_level(struct kmsg_match *m, int pat, int level);

/*
 * The non-space literal bytes of site @pat's own text (its format and a
 * curated id it prints, not a device prefix): 0 for "%s", "%d"; 0 for no
 * such site
 */
unsigned int kmsg_match_evidence(const struct kmsg_match *m, int pat);

/* Build the index over the patterns added: 0 or -ENOMEM */
int kmsg_match_build(struct kmsg_match *m);

/*
 * Snapshots (kmsg_snap.h): the built matcher @m saved in @w (0, -EINVAL
 * if it is not built, -ENOMEM), and a matcher restored from @s (NULL if
 * @s has none, or one whose indexes or offsets are out of bounds): it
 * matches as the saved one did; no pattern can be added to it.
 * kmsg_match_snap_sig(): the layout the snapshot's arrays have.
 */
struct kmsg_snap_writer;
struct kmsg_snap;
int kmsg_match_snap_save(const struct kmsg_match *m, struct kmsg_snap_writer *w);
struct kmsg_match *kmsg_match_snap_load(const struct kmsg_snap *s);
unsigned long long kmsg_match_snap_sig(void);

size_t kmsg_match_count(const struct kmsg_match *m);
const char *kmsg_match_id(const struct kmsg_match *m, int pat);

struct kmsg_match_result {
	/*
	 * ids in pat[]: 0 none, 1 identified, >1 ambiguous; with @weak set,
	 * candidates only: the line is not identified
	 */
	int n;
	int total;		/* different ids that tied (may exceed n) */
	int pat[KMSG_MATCH_CAND_MAX];	/* first pattern of each id */
	unsigned int literal;	/* literal characters the winners matched */
	unsigned int evidence;	/* the winners' non-space literal bytes */
	bool weak;		/* the winners have too little evidence */
	bool partial;		/* matched the beginning of the text only */
	/*
	 * Printed by a %pV wrapper, pattern @wrapper: pat[] are the formats
	 * matching what its %pV printed, @inner_len bytes at @inner_off
	 */
	bool wrapped;
	int wrapper;
	size_t inner_off, inner_len;
};

/*
 * Match the @len bytes of @text (one message, no timestamp) of level
 * @level (0..7, -1 if unknown), with KMSG_MATCH_* @flags. 0 or -ENOMEM
 */
int kmsg_match_line(struct kmsg_match *m, const char *text, size_t len,
		    int level, unsigned int flags, struct kmsg_match_result *r);

/* The same, of unknown level, no flags */
int kmsg_match_text(struct kmsg_match *m, const char *text, size_t len,
		    struct kmsg_match_result *r);

/*
 * Does line @line (@line_len bytes) of level @level continue the message
 * @prev (@prev_len bytes, its lines joined by newlines), when both have
 * the same timestamp? Only where a format's own newline explains it:
 * neither @prev nor @line alone matches a site with evidence (exactly or
 * ambiguously, the whole text), and @prev, a newline and @line do, each
 * newline matched by a newline of the format's literal text, never by a
 * conversion. 1 yes, 0 no, -ENOMEM.
 */
int kmsg_match_joins(struct kmsg_match *m, const char *prev, size_t prev_len,
		     const char *line, size_t line_len, int level);

/* The same by trying every pattern, without the index (for comparisons) */
int kmsg_match_text_naive(struct kmsg_match *m, const char *text, size_t len,
			  struct kmsg_match_result *r);

/*
 * The arguments of pattern @pat in @text, parsed back: integers as
 * KMSG_ARG_SIGNED/UNSIGNED values, %c as KMSG_ARG_CHAR, %s as
 * KMSG_ARG_STRING, %p, %px and %pK as KMSG_ARG_POINTER (the value
 * printed, a hashed one unless the kernel ran with no_hash_pointers),
 * other %p extensions as KMSG_ARG_RENDERED text (strings point into
 * @text). The prefix's first two conversions go to @driver and @device
 * (either may be NULL). Returns 0, or -1 if @pat does not match @text.
 */
struct kmsg_span {
	const char *s;
	size_t len;
};

int kmsg_match_args(struct kmsg_match *m, int pat, const char *text,
		    size_t len, bool partial, struct kmsg_args *args,
		    struct kmsg_span *driver, struct kmsg_span *device);

/*
 * Where pattern @pat's match of @text ends: @len if it matches the whole
 * text, else the end of a match of its beginning (a pattern ending in
 * literal text), -1 if it matches neither.  For following a line
 * continued with pr_cont() fragment by fragment.
 */
long kmsg_match_end(struct kmsg_match *m, int pat, const char *text,
		    size_t len);

#endif /* KMSG_MATCH_H */
