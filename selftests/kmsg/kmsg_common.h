/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kmsg selftests share: the kmsgtest messages as the kernel must
 * print them, and reading them back from /dev/kmsg.
 */
#ifndef KMSG_COMMON_H
#define KMSG_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIRE_PATH	"/sys/kernel/debug/kmsgtest/fire"
#define FIRE_IRQ_PATH	"/sys/kernel/debug/kmsgtest/fire_irq"
#define FIRE_CPUS_PATH	"/sys/kernel/debug/kmsgtest/fire_cpus"
#define FIRE_NMI_PATH	"/sys/kernel/debug/kmsgtest/fire_nmi"
#define FIRE_SOFTIRQ_PATH	"/sys/kernel/debug/kmsgtest/fire_softirq"
#define INDEX_DIR	"/sys/kernel/debug/printk/index"
#define INDEX_PATH	INDEX_DIR "/kmsgtest"
#define RECORD_MAX	16384
/*
 * printk keeps at most PRINTKRB_RECORD_MAX - 1 = 1023 bytes of formatted
 * text, including the two bytes of the KERN_<LEVEL> header it then strips.
 */
#define PRINTK_TEXT_MAX	1021
#define LONG_LEN	1500

struct kmsg_record {
	int level;
	unsigned long long seq;
	char text[RECORD_MAX];
	char dict[RECORD_MAX];
};

/*
 * One expected message. @text is an fnmatch() pattern when @pattern is set
 * (used where the kernel prints something the test cannot know, such as a
 * function size), an exact string otherwise.
 */
struct expected_msg {
	unsigned int nr;
	int level;
	const char *text;
	bool pattern;
	bool device;
	/* index: format as listed (escaped), NULL when not indexed */
	const char *index_fmt;
};

#define DEV_PREFIX	"platform kmsgtest: "

static const struct expected_msg expected[] = {
	{ 1, 6, "kmsgtest.1: device 4711 has status 1", false, false,
	  "device %x has status %i\\n" },
	{ 2, 3, "kmsgtest.2: device 4711 not online", false, false,
	  "device %x not online\\n" },
	{ 3, 4, "kmsgtest.3: signed -42 unsigned 4000000000 octal 755 hex BEEF",
	  false, false, "signed %d unsigned %u octal %o hex %X\\n" },
	{ 4, 5, "kmsgtest.4: long deadbeef ullong 18446744073709551615 llong -9223372036854775808",
	  false, false, "long %lx ullong %llu llong %lld\\n" },
	{ 5, 7, "kmsgtest.5: size 4096 ssize -1 short 4464 char 255",
	  false, false, "size %zu ssize %zd short %hd char %hhu\\n" },
	{ 6, 2, "kmsgtest.6: char 'K' string 'kmsg' null '(null)' percent 100%",
	  false, false,
	  "char '%c' string '%s' null '%s' percent 100%%\\n" },
	{ 7, 1, "kmsgtest.7: width [      42] [42      ] [00000abc] [+5] [ 5] [0xff] [010] [0x0]",
	  false, false,
	  "width [%8d] [%-8d] [%08x] [%+d] [% d] [%#x] [%#o] [%#x]\\n" },
	{ 8, 6, "kmsgtest.8: star [    42] [42    ] [abc] [    xy] [005] [    p]",
	  false, false,
	  "star [%*d] [%-*d] [%.*s] [%*.*s] [%.3d] [%5.1s]\\n" },
	/* %p: the guest boots with no_hash_pointers; see pointer_pattern() */
	{ 9, 4, "kmsgtest.9: pointers ffff8880deadbeef ffff8880deadbeef kmsgtest_target \\[kmsgtest\\] kmsgtest_target+0x0/0x* \\[kmsgtest\\]",
	  true, false, "pointers %p %px %ps %pS\\n" },
	{ 10, 3, "kmsgtest.10: errors -ENODEV -EINVAL", false, false,
	  "errors %pe %pe\\n" },
	/* 11: the long string, built by long_text() */
	{ 11, 6, NULL, false, false, "long string %s\\n" },
	{ 12, 5, "kmsgtest.12: a message without arguments", false, false,
	  "a message without arguments\\n" },
	{ 13, 0, "kmsgtest.13: emergency drill 1 of 3, no action needed",
	  false, false, "emergency drill %d of %d, no action needed\\n" },
	/* prefix form: a plain printk(), no curated identifier in the index */
	{ 14, 4, "kmsgtest.14: prefix form still works", false, false,
	  "prefix form %s\\n" },
	{ 15, 6, "kmsgtest.15: buffer [wxyz] [wx]", false, false,
	  "buffer [%.*s] [%.2s]\\n" },
	{ 16, 6, "kmsgtest.16: context task cpu [0-9]*", true, false,
	  "context %s cpu %d\\n" },
	{ 20, 3, DEV_PREFIX "kmsgtest.20: device 4711: request 5 timed out",
	  false, true, "device %x: request %d timed out\\n" },
	{ 21, 6, DEV_PREFIX "kmsgtest.21: device 4711: 2 of 4 paths online",
	  false, true, "device %x: %u of %u paths online\\n" },
};

#define NR_EXPECTED (sizeof(expected) / sizeof(expected[0]))

struct index_line {
	int level;
	char file[256];
	unsigned int line;
	char func[128];
	char fmt[512];
	char modname[64];	/* "" if the line names none */
};

/*
 * A line of a printk index file: "<L[,c]> file:line func "fmt" [modname]",
 * or "<c> ..." (level -1)
 */
static inline int parse_index_line(const char *s, struct index_line *l)
{
	const char *q;
	size_t len;
	int n = 0;

	if (sscanf(s, "<%d%*[^>]> %255[^:]:%u %127s \"%n", &l->level,
		   l->file, &l->line, l->func, &n) != 4 || !n) {
		n = 0;
		if (sscanf(s, "<%d> %255[^:]:%u %127s \"%n", &l->level,
			   l->file, &l->line, l->func, &n) != 4 || !n) {
			/* a continuation without a level of its own */
			n = 0;
			l->level = -1;
			if (sscanf(s, "<c> %255[^:]:%u %127s \"%n", l->file,
				   &l->line, l->func, &n) != 3 || !n)
				return -EINVAL;
		}
	}
	q = strrchr(s + n, '"');
	if (!q)
		return -EINVAL;
	len = q - (s + n);
	if (len >= sizeof(l->fmt))
		return -E2BIG;
	memcpy(l->fmt, s + n, len);
	l->fmt[len] = '\0';
	l->modname[0] = '\0';
	if (q[1] == '\n')
		return 0;
	if (sscanf(q + 1, " %63[^ \n]%n", l->modname, &n) != 1 ||
	    strcmp(q + 1 + n, "\n"))
		return -EINVAL;
	return 0;
}

static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	if (n < 0)
		return -errno;
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

/*
 * The text of @path, read at most @chunk bytes at a time, NUL-terminated;
 * its length, or -errno
 */
static inline int read_text_by(const char *path, char *buf, size_t size,
			       size_t chunk)
{
	int fd = open(path, O_RDONLY);
	ssize_t n, len = 0;
	size_t room;

	if (fd < 0)
		return -errno;
	while ((size_t)len + 1 < size) {
		room = size - 1 - len;
		n = read(fd, buf + len, chunk < room ? chunk : room);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return len;
}

static inline int read_text(const char *path, char *buf, size_t size)
{
	return read_text_by(path, buf, size, size);
}

static inline int load_kmsgtest(void)
{
	if (access(FIRE_PATH, W_OK) == 0)
		return 0;
	if (system("insmod test_modules/kmsgtest.ko") != 0)
		return -ENOENT;
	return access(FIRE_PATH, W_OK) ? -errno : 0;
}

/* kmsgtest's long string: 'a' + i % 26, LONG_LEN bytes */
static inline void long_text(char *buf, size_t size)
{
	size_t len = snprintf(buf, size, "kmsgtest.11: long string ");
	size_t i;

	for (i = 0; i < LONG_LEN && len + 1 < size; i++)
		buf[len++] = 'a' + i % 26;
	buf[len] = '\0';
	if (len > PRINTK_TEXT_MAX)
		buf[PRINTK_TEXT_MAX] = '\0';
}

/* Pattern for message 9 when pointers are hashed (no no_hash_pointers) */
static inline const char *pointer_pattern(const char *text)
{
	char cmdline[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	if (strstr(cmdline, "no_hash_pointers"))
		return text;
	return "kmsgtest.9: pointers * ffff8880deadbeef kmsgtest_target \\[kmsgtest\\] kmsgtest_target+0x0/0x* \\[kmsgtest\\]";
}

/*
 * Parse one /dev/kmsg record: "<pri>,<seq>,<ts>,<flags>;<text>\n" followed
 * by dictionary lines " KEY=value\n".
 */
static inline int parse_record(const char *buf, struct kmsg_record *rec)
{
	const char *text = strchr(buf, ';');
	const char *end;
	size_t len;

	if (!text)
		return -EINVAL;
	rec->level = atoi(buf) & 7;
	rec->seq = strtoull(strchr(buf, ',') ? strchr(buf, ',') + 1 : "", NULL, 10);
	text++;
	end = strchr(text, '\n');
	if (!end)
		return -EINVAL;
	len = end - text;
	memcpy(rec->text, text, len);
	rec->text[len] = '\0';
	snprintf(rec->dict, sizeof(rec->dict), "%s", end + 1);
	return 0;
}

/*
 * Undo /dev/kmsg's escaping of a record's text in place: it writes bytes
 * below ' ', from 127 up, and '\\' as "\xHH".
 */
static inline void unescape_text(char *s)
{
	char *out = s;
	unsigned int c;

	while (*s) {
		if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2x", &c) == 1) {
			*out++ = (char)c;
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

static inline bool is_message(const char *text, unsigned int nr)
{
	char id[32];

	snprintf(id, sizeof(id), "kmsgtest.%u: ", nr);
	if (!strncmp(text, id, strlen(id)))
		return true;
	return !strncmp(text, DEV_PREFIX, strlen(DEV_PREFIX)) &&
	       !strncmp(text + strlen(DEV_PREFIX), id, strlen(id));
}

/*
 * The records that can be read now from @fd, a non-blocking /dev/kmsg,
 * whose text @match accepts (@nr passed on): how many, the last in @rec.
 * Records overwritten meanwhile are skipped.
 */
static inline int read_matching(int fd,
				bool (*match)(const char *text, unsigned int nr),
				unsigned int nr, struct kmsg_record *rec)
{
	static char buf[RECORD_MAX];
	static struct kmsg_record tmp;
	int found = 0;
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		buf[n] = '\0';
		if (parse_record(buf, &tmp) || !match(tmp.text, nr))
			continue;
		*rec = tmp;
		found++;
	}
	return found;
}

/*
 * Fire message @nr and return its record. Records that other code prints
 * meanwhile are skipped; exactly one record of message @nr must appear.
 *
 * printk truncates a message longer than its record (kmsgtest.11), and
 * the cut-off text has no final newline, so printk keeps the record open
 * for a continuation: readers see it only once the next record starts.
 * For such a message, message 12 is fired after it.
 */
static inline int fire_and_read_via(const char *path, unsigned int nr,
				    struct kmsg_record *rec)
{
	char cmd[16];
	int fd, ret, found = 0;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	lseek(fd, 0, SEEK_END);
	snprintf(cmd, sizeof(cmd), "%u\n", nr);
	ret = write_str(path, cmd);
	if (!ret && nr == 11)
		ret = write_str(FIRE_PATH, "12\n");
	if (!ret)
		found = read_matching(fd, is_message, nr, rec);
	close(fd);
	if (ret)
		return ret;
	return found == 1 ? 0 : -ENOMSG;
}

static inline int fire_and_read(unsigned int nr, struct kmsg_record *rec)
{
	return fire_and_read_via(FIRE_PATH, nr, rec);
}

#endif /* KMSG_COMMON_H */
