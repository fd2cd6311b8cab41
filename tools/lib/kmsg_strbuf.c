// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_strbuf - a tiny growable, always NUL-terminated output buffer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "kmsg_strbuf.h"

int kmsg_strbuf_grow(struct kmsg_strbuf *sb, size_t n)
{
	size_t need, cap;
	char *p;

	if (n > SIZE_MAX - 1 - sb->len)
		return -ENOMEM;
	need = sb->len + n + 1;
	if (need <= sb->cap)
		return 0;

	cap = sb->cap ? sb->cap : 64;
	while (cap < need) {
		if (cap > SIZE_MAX / 2) {
			cap = need;
			break;
		}
		cap *= 2;
	}

	p = realloc(sb->buf, cap);
	if (!p)
		return -ENOMEM;
	sb->buf = p;
	sb->cap = cap;
	return 0;
}

int kmsg_strbuf_fill(struct kmsg_strbuf *sb, char c, size_t n)
{
	if (kmsg_strbuf_reserve(sb, n))
		return -ENOMEM;
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

/* Decimal digits of @v */
static int digits(unsigned long long v)
{
	int n = 1;

	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

int kmsg_strbuf_putu(struct kmsg_strbuf *sb, unsigned long long v,
		     int width, char pad)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	int n = digits(v);
	uint32_t v32;
	char *d;

	if (width > n && kmsg_strbuf_fill(sb, pad, width - n))
		return -ENOMEM;
	if (kmsg_strbuf_reserve(sb, n))
		return -ENOMEM;
	/* in place, from the last digit: two digits a division */
	sb->len += n;
	d = sb->buf + sb->len;
	*d = '\0';
	while (v > UINT32_MAX) {
		unsigned int r = v % 100;

		v /= 100;
		d -= 2;
		memcpy(d, pairs + 2 * r, 2);
	}
	/* the rest in 32 bits: cheaper divisions */
	v32 = (uint32_t)v;
	while (v32 >= 100) {
		unsigned int r = v32 % 100;

		v32 /= 100;
		d -= 2;
		memcpy(d, pairs + 2 * r, 2);
	}
	if (v32 >= 10) {
		d -= 2;
		memcpy(d, pairs + 2 * v32, 2);
	} else {
		*--d = '0' + v32;
	}
	return 0;
}

int kmsg_strbuf_puti(struct kmsg_strbuf *sb, long long v)
{
	if (v >= 0)
		return kmsg_strbuf_putu(sb, v, 0, ' ');
	/* 0 - v as unsigned: LLONG_MIN too */
	if (kmsg_strbuf_putc(sb, '-'))
		return -ENOMEM;
	return kmsg_strbuf_putu(sb, 0ULL - (unsigned long long)v, 0, ' ');
}

int kmsg_strbuf_putx(struct kmsg_strbuf *sb, unsigned long long v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = hex[v & 15];
		v >>= 4;
	} while (v);
	return kmsg_strbuf_putn(sb, tmp + sizeof(tmp) - n, n);
}

int kmsg_strbuf_printf(struct kmsg_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* into the room there is; only when it does not fit, twice */
	if (kmsg_strbuf_reserve(sb, 64))
		return -ENOMEM;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return -ENOMEM;
	}
	if ((size_t)n >= sb->cap - sb->len) {
		sb->buf[sb->len] = '\0';
		if (kmsg_strbuf_reserve(sb, (size_t)n))
			return -ENOMEM;
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
	return 0;
}

void kmsg_strbuf_free(struct kmsg_strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 */
static size_t utf8_len(const unsigned char *s, size_t len)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * The bytes that go into a JSON string as they are: printable ASCII but
 * '"' and '\\'. Every other byte takes the slow path below.
 */
static const unsigned char json_plain[256] = {
	/* ' ' to '~' but '"' (0x22) and '\\' (0x5c) */
	[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7e] = 1,
};

/* The longest escape of one byte: \u00XX */
#define JSON_ESC_MAX	6

static char *json_esc(char *d, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	*d++ = '\\';
	switch (c) {
	case '"':
	case '\\':
		*d++ = c;
		break;
	case '\n':
		*d++ = 'n';
		break;
	case '\t':
		*d++ = 't';
		break;
	default:
		/* control characters, DEL, and bytes that are not UTF-8 */
		*d++ = 'u';
		*d++ = '0';
		*d++ = '0';
		*d++ = hex[c >> 4];
		*d++ = hex[c & 15];
	}
	return d;
}

/*
 * Which of the 8 bytes of @x need escaping (or UTF-8 checking): below
 * 0x20, '"', '\\', 0x7f or above?  The 0x80 bit of each such byte is set;
 * each test is exact for the least significant such byte (borrows run
 * upwards only, and only out of a byte that is rightly marked).
 */
static inline uint64_t word_special(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');

	return (((x - ones * 0x20) & ~x) |	/* < 0x20 */
		((q - ones) & ~q) |		/* == '"' */
		((b - ones) & ~b) |		/* == '\\' */
		((x & ~high) + ones) | x)	/* >= 0x7f */
		& high;
}

/* 8 bytes loaded from memory, the first one least significant */
static inline uint64_t le64(uint64_t w)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap64(w);
#else
	return w;
#endif
}

#ifdef __SSE2__
/* The same for 16 bytes: bit k of the mask for byte k */
static inline unsigned int block_special(const unsigned char *s)
{
	__m128i x = _mm_loadu_si128((const __m128i *)s);
	/* signed: 0x80 and above are negative, so "below 0x20" too */
	__m128i m = _mm_cmplt_epi8(x, _mm_set1_epi8(0x20));

	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('"')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
	return (unsigned int)_mm_movemask_epi8(m);
}
#endif

int kmsg_json_str(struct kmsg_strbuf *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;
	uint64_t w, m;
	char *d;

	/* room for the worst case, every byte escaped: one check */
	if (len > (SIZE_MAX - 2) / JSON_ESC_MAX ||
	    kmsg_strbuf_reserve(out, len * JSON_ESC_MAX + 2))
		return -ENOMEM;
	d = out->buf + out->len;
	*d++ = '"';
	while (i < len) {
		/*
		 * Bytes that need no escaping: 16 or 8 at a time, then one
		 * by one.  A block is copied whole (the room is there) and
		 * the output kept up to its first byte that needs escaping.
		 */
#ifdef __SSE2__
		while (len - i >= 16) {
			m = block_special(s + i);
			_mm_storeu_si128((__m128i *)d,
					 _mm_loadu_si128((const __m128i *)(s + i)));
			n = m ? (size_t)__builtin_ctzll(m) : 16;
			d += n;
			i += n;
			if (m)
				break;
		}
#endif
		while (len - i >= 8) {
			memcpy(&w, s + i, 8);
			memcpy(d, &w, 8);
			m = word_special(le64(w));
			n = m ? (size_t)__builtin_ctzll(m) / 8 : 8;
			d += n;
			i += n;
			if (m)
				break;
		}
		while (i < len && json_plain[s[i]])
			*d++ = s[i++];
		if (i == len)
			break;
		if (s[i] >= 0x80 && (n = utf8_len(s + i, len - i))) {
			memcpy(d, s + i, n);
			d += n;
			i += n;
		} else {
			d = json_esc(d, s[i++]);
		}
	}
	*d++ = '"';
	*d = '\0';
	out->len = d - out->buf;
	return 0;
}
