/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_render - rebuild printk text from a format and the binary argument
 * record written by the kernel's vbin_printf() (lib/vsprintf.c, 6.12).
 *
 * The output is what the kernel's vsnprintf() prints for the same format
 * and arguments, as on a kernel booted with no_hash_pointers (%p and %pK
 * print the raw address like %px).  Record and format are untrusted: the
 * code never reads outside them and never hands the format to libc.
 *
 * The format ends at fmt_len bytes or at its first NUL, whichever comes
 * first (the kernel stops at the NUL too).
 *
 * Argument numbering: args->v[] holds one entry per value-taking conversion
 * of the decoded format, in format order ("%%" takes no value and gets no
 * entry, so KMSG_ARG_NONE never appears in v[]).  A '*' width or precision
 * is not an entry of its own: it is stored with the conversion it belongs
 * to.  A positional reference "%N$..." names v[N - 1].  Only kmsg_render()
 * knows "%N$": kmsg_args_decode(), like the kernel, takes "%1$d" for an
 * invalid conversion.  A '*' rendered against an argument means the width or
 * precision recorded with that argument, positional or not.
 *
 * Values are widened as vsnprintf() widens its va_arg()s; this differs from
 * bstr_printf() only on 32-bit kernels, where bstr_printf() zero-extends %ld
 * and %zd (and prints -1 as 4294967295) while vsnprintf() prints -1.
 *
 * Markers emitted by kmsg_render() in place of a conversion:
 *   <?missing?>       the value is not in the record (short record), or the
 *                     format has more conversions than were decoded
 *   <?unterminated?>  a %s (or rendered %p) string runs to the end of the
 *                     record without a NUL
 *   <?%n?>            an invalid conversion, shown as its format text
 *                     ("<?%y?>", "<?%-?>" at the end of the format, bytes
 *                     outside printable ASCII as \xNN); output stops there,
 *                     as in the kernel
 *   <?width?>         width or precision larger than KMSG_WIDTH_MAX
 *   <?position?>      positional index 0 or beyond the decoded arguments,
 *                     or positional and sequential conversions mixed
 *   <?type?>          the conversion does not fit the recorded argument
 *                     (e.g. %s for an integer, '*' without a recorded width)
 *   <?toomany?>       the record held more than KMSG_ARGS_MAX values
 */
#ifndef KMSG_RENDER_H
#define KMSG_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmsg_strbuf.h"

#define KMSG_MARK_MISSING	"<?missing?>"
#define KMSG_MARK_UNTERMINATED	"<?unterminated?>"
#define KMSG_MARK_WIDTH		"<?width?>"
#define KMSG_MARK_POSITION	"<?position?>"
#define KMSG_MARK_TYPE		"<?type?>"
#define KMSG_MARK_TOOMANY	"<?toomany?>"

/* Largest field width / precision rendered; larger gives <?width?>. */
#define KMSG_WIDTH_MAX		4096

enum kmsg_arg_type {
	KMSG_ARG_NONE,		/* conversion with no value: %% (not stored) */
	KMSG_ARG_SIGNED,	/* %d %i with any qualifier */
	KMSG_ARG_UNSIGNED,	/* %u %x %X %o with any qualifier */
	KMSG_ARG_CHAR,		/* %c */
	KMSG_ARG_STRING,	/* %s */
	KMSG_ARG_POINTER,	/* %p %px %pK %ps %pS %pe: a raw address */
	KMSG_ARG_RENDERED,	/* other %p extensions: text rendered at record time */
};

enum kmsg_arg_status {
	KMSG_ARG_OK,
	KMSG_ARG_MISSING,	/* value (or its '*' width/precision) not in the record */
	KMSG_ARG_UNTERMINATED,	/* string without NUL up to the end of the record */
};

struct kmsg_arg {
	enum kmsg_arg_type type;
	char conv;		/* 'd','i','u','x','X','o','c','s','p' */
	char qualifier;		/* 0, 'h', 'H' (hh), 'l', 'L' (ll), 'z', 't' */
	char ptr_ext;		/* for %p: the letter after p ('S','s','x','K','e', ...) or 0 */
	unsigned char size;	/* bytes the value took in the record (0 for strings) */
	bool has_width_arg, has_prec_arg;
	int width_arg, prec_arg;	/* values of '*' width / precision */
	long long s;		/* KMSG_ARG_SIGNED / CHAR (sign-extended per qualifier as the kernel does) */
	unsigned long long u;	/* KMSG_ARG_UNSIGNED / POINTER (truncated per qualifier as the kernel does) */
	const char *str;	/* KMSG_ARG_STRING / RENDERED: points into the record */
	size_t str_len;		/* without the NUL */
	/* extensions */
	enum kmsg_arg_status status;
	size_t offset;		/* where the value (its '*' width, if any) started */
};

#define KMSG_ARGS_MAX 64

struct kmsg_args {
	int n;			/* value-taking conversions stored in v[] (no %%) */
	int missing;		/* conversions whose value was not in the record (short record) */
	bool invalid;		/* an invalid conversion (%n, unknown) stopped decoding */
	size_t used;		/* bytes of the record consumed (not rounded up to u32) */
	/* extensions */
	int unterminated;	/* strings without NUL (counted apart from missing) */
	int dropped;		/* value-taking conversions beyond KMSG_ARGS_MAX */
	/* last: only v[0] to v[n - 1] are set, the rest is never read */
	struct kmsg_arg v[KMSG_ARGS_MAX];
};

struct kmsg_fmt_cache;

struct kmsg_render_opts {
	int long_size;			/* 8 or 4 (anything but 4 means 8) */
	bool symbolic_errname;		/* CONFIG_SYMBOLIC_ERRNAME: %pe as "-ENODEV" rather than "-19" */
	/*
	 * The message's pointers shown as strings (the event's flags): a
	 * hashed pointer (%p, %pK, %pe of no error) stored as 1 printed as
	 * "(____ptrval____)"; every %pK printed as "pK-error".
	 */
	bool ptrval;
	bool pk_error;
	/*
	 * %ps/%pS: resolve a kernel address.  Return 0 and set *name (and
	 * *module to NULL or "" for a built-in symbol) on success.  NULL, a
	 * nonzero return or a NULL *name print "0x<hex address>" like the
	 * kernel's __sprint_symbol() when kallsyms finds nothing.
	 */
	int (*lookup_symbol)(void *ctx, unsigned long long addr, const char **name,
			     unsigned long long *offset, unsigned long long *size,
			     const char **module);
	void *lookup_ctx;
	/*
	 * Optional (kmsg_fmt_cache_new()): the formats seen last, parsed
	 * once.  The output is the same with or without it.  Decoding and
	 * rendering change it (through these const options): one cache per
	 * thread.
	 */
	struct kmsg_fmt_cache *fmt_cache;
};

/*
 * A cache of parsed formats, keyed by their bytes: a tool decoding many
 * messages of few formats parses each format once, not twice a message.
 * kmsg_fmt_cache_new() returns NULL when out of memory (then pass NULL).
 */
struct kmsg_fmt_cache *kmsg_fmt_cache_new(void);
void kmsg_fmt_cache_free(struct kmsg_fmt_cache *cache);

/*
 * Decode the binary arguments for fmt (fmt_len bytes, need not be
 * NUL-terminated).  Never reads past data+len.  opts may be NULL (8-byte
 * longs).  Returns 0, or the number of problems found (missing values,
 * unterminated strings, values beyond KMSG_ARGS_MAX, invalid conversion).
 */
int kmsg_args_decode(const char *fmt, size_t fmt_len, const void *data, size_t len,
		     const struct kmsg_render_opts *opts, struct kmsg_args *args);

/*
 * Render fmt with the decoded args, appending to out (no trailing NUL
 * counted in len).  Conversions are matched to args->v[] in order, or by
 * position "%N$..." (see the numbering above; a '*' in a positional
 * conversion means the width/precision recorded with argument N).  Returns
 * 0, the number of markers emitted, or -ENOMEM.  opts may be NULL.
 */
int kmsg_render(struct kmsg_strbuf *out, const char *fmt, size_t fmt_len,
		const struct kmsg_args *args, const struct kmsg_render_opts *opts);

/* Flags of a conversion, as lib/vsprintf.c names them */
#define KMSG_CONV_SIGN		1
#define KMSG_CONV_LEFT		2	/* '-' */
#define KMSG_CONV_PLUS		4	/* '+' */
#define KMSG_CONV_SPACE		8	/* ' ' */
#define KMSG_CONV_ZEROPAD	16	/* '0' */
#define KMSG_CONV_SMALL		32	/* lowercase hex */
#define KMSG_CONV_SPECIAL	64	/* '#' */

/* One conversion of a format, as format_decode() sees it */
struct kmsg_conv {
	size_t start, end;	/* format bytes [start, end) */
	enum kmsg_arg_type type;	/* KMSG_ARG_NONE: %% or invalid */
	bool percent;		/* "%%" */
	bool invalid;		/* %n, an unknown letter, the end of the format:
				 * the kernel stops printing here */
	char conv;		/* 'd' ... 'p' */
	char qualifier;		/* as struct kmsg_arg */
	const char *ext;	/* %p: the extension letters, ext_len bytes */
	size_t ext_len;
	unsigned int flags;	/* KMSG_CONV_* */
	int base;		/* 8, 10, 16 */
	int width, precision;	/* -1: none */
	bool width_star, prec_star;
};

/*
 * Decode the conversion starting at @fmt[@i] == '%' (@fmt_len bytes, no
 * positional "%N$" as in the kernel). Returns the offset after it.
 */
size_t kmsg_conv_decode(const char *fmt, size_t fmt_len, size_t i,
			struct kmsg_conv *c);

/*
 * The first %pV of @fmt (@fmt_len bytes), as the kernel reads it (not
 * past an invalid conversion): its conversion is @fmt[*@start, *@end).
 * False if there is none, or if it has a width or precision: the kernel
 * does not store the message of such a %pV in line (layout 6).
 */
bool kmsg_pv_find(const char *fmt, size_t fmt_len, size_t *start,
		  size_t *end);

struct kmsg_msg;

/* @n rounded up to a 4-byte boundary, where the kernel starts a %pV's message */
static inline size_t kmsg_align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/*
 * Append to @out the format of @msg's wrapper (KMSG_EVENT_WRAPPED): as
 * recorded, but for layout 6, which records the formats of nested
 * wrappers apart: each in place of the first %pV of the one before
 * ("%s %s: error %pe: %pV" for a dev_err_probe()). Returns 0 or -ENOMEM.
 */
int kmsg_msg_wrapper_fmt(struct kmsg_strbuf *out, const struct kmsg_msg *msg);

/* Name of an errno value as lib/errname.c has it ("EIO", "-EIO"), or NULL */
const char *kmsg_errname(int err);

#endif /* KMSG_RENDER_H */
