// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg selftests: identified kernel messages as user space sees them.
 *
 * Loads the kmsgtest sample module, makes it print each of its messages
 * and checks the record in /dev/kmsg: level, "kmsgtest.N: " prefix, the
 * exact text and, for device messages, the SUBSYSTEM=/DEVICE= dictionary.
 * Then checks the module's entries in the printk index
 * (<debugfs>/printk/index/kmsgtest).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#include "kmsg_common.h"

FIXTURE(message) {
	struct kmsg_record rec;
};

FIXTURE_VARIANT(message) {
	unsigned int idx;
};

#define MSG_VARIANT(i, n)						\
	FIXTURE_VARIANT_ADD(message, kmsgtest_##n) { .idx = i }

MSG_VARIANT(0, 1);
MSG_VARIANT(1, 2);
MSG_VARIANT(2, 3);
MSG_VARIANT(3, 4);
MSG_VARIANT(4, 5);
MSG_VARIANT(5, 6);
MSG_VARIANT(6, 7);
MSG_VARIANT(7, 8);
MSG_VARIANT(8, 9);
MSG_VARIANT(9, 10);
MSG_VARIANT(10, 11);
MSG_VARIANT(11, 12);
MSG_VARIANT(12, 13);
MSG_VARIANT(13, 14);
MSG_VARIANT(14, 15);
MSG_VARIANT(15, 16);
MSG_VARIANT(16, 20);
MSG_VARIANT(17, 21);

FIXTURE_SETUP(message)
{
	ASSERT_EQ(0, load_kmsgtest()) {
		TH_LOG("cannot load test_modules/kmsgtest.ko");
	}
}

FIXTURE_TEARDOWN(message)
{
}

/* Message text, level and, for device messages, the dictionary */
TEST_F(message, dev_kmsg)
{
	const struct expected_msg *e = &expected[variant->idx];
	struct kmsg_record *rec = &self->rec;
	static char want[RECORD_MAX];

	ASSERT_EQ(0, fire_and_read(e->nr, rec)) {
		TH_LOG("kmsgtest.%u: no single record in /dev/kmsg", e->nr);
	}
	EXPECT_EQ(e->level, rec->level);

	if (e->nr == 11)
		long_text(want, sizeof(want));
	else
		snprintf(want, sizeof(want), "%s",
			 e->nr == 9 ? pointer_pattern(e->text) : e->text);

	if (e->pattern) {
		EXPECT_EQ(0, fnmatch(want, rec->text, 0)) {
			TH_LOG("text '%s' does not match '%s'", rec->text, want);
		}
	} else {
		EXPECT_STREQ(want, rec->text);
	}

	if (e->device) {
		EXPECT_NE(NULL, strstr(rec->dict, " SUBSYSTEM=platform\n"));
		EXPECT_NE(NULL, strstr(rec->dict, " DEVICE=+platform:kmsgtest\n"));
	} else {
		EXPECT_EQ(NULL, strstr(rec->dict, "DEVICE="));
	}
}

/*
 * The printk index lists every kmsgtest message once, the prefix form
 * included, with its identifier as part of the format.
 */
TEST(index_lists_module_messages)
{
	int seen[NR_EXPECTED] = { 0 };
	char line[1024], want[NR_EXPECTED][600];
	struct index_line l;
	size_t i;
	FILE *f;

	for (i = 0; i < NR_EXPECTED; i++) {
		const struct expected_msg *e = &expected[i];

		snprintf(want[i], sizeof(want[i]), "%skmsgtest.%u: %s",
			 e->device ? "%s %s: " : "", e->nr, e->index_fmt);
	}
	ASSERT_EQ(0, load_kmsgtest());
	f = fopen(INDEX_PATH, "r");
	ASSERT_NE(NULL, f) TH_LOG("%s: %s", INDEX_PATH, strerror(errno));
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	EXPECT_STREQ("# <level/flags> filename:line function \"format\" modname\n",
		     line);
	while (fgets(line, sizeof(line), f)) {
		ASSERT_EQ(0, parse_index_line(line, &l)) TH_LOG("bad line: %s", line);
		for (i = 0; i < NR_EXPECTED; i++) {
			if (strcmp(want[i], l.fmt))
				continue;
			seen[i]++;
			EXPECT_EQ(expected[i].level, l.level) TH_LOG("%s", line);
			EXPECT_STREQ("tools/testing/selftests/kmsg/test_modules/kmsgtest.c", l.file);
			EXPECT_STREQ("kmsgtest", l.modname);
			EXPECT_LT(0, l.line);
		}
	}
	fclose(f);
	for (i = 0; i < NR_EXPECTED; i++) {
		EXPECT_EQ(1, seen[i]) TH_LOG("kmsgtest.%u: listed %d times, as %s",
					     expected[i].nr, seen[i], want[i]);
	}
}

/*
 * vmlinux's index names the module of each built-in call site:
 * KBUILD_MODNAME, "printk" for kernel/printk/printk.c, "mounts" for
 * init/do_mounts.c (init/Makefile: mounts-y := do_mounts.o)
 */
TEST(index_names_builtin_modules)
{
	int printk_seen = 0, mounts_seen = 0, other = 0;
	char line[1024];
	struct index_line l;
	FILE *f;

	f = fopen(INDEX_DIR "/vmlinux", "r");
	ASSERT_NE(NULL, f) TH_LOG("%s/vmlinux: %s", INDEX_DIR, strerror(errno));
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		ASSERT_EQ(0, parse_index_line(line, &l)) TH_LOG("bad line: %s", line);
		if (!strcmp(l.file, "kernel/printk/printk.c")) {
			EXPECT_STREQ("printk", l.modname) TH_LOG("%s", line);
			printk_seen++;
		} else if (!strcmp(l.file, "init/do_mounts.c")) {
			EXPECT_STREQ("mounts", l.modname) TH_LOG("%s", line);
			mounts_seen++;
		} else if (l.modname[0]) {
			other++;
		}
	}
	fclose(f);
	EXPECT_LT(0, printk_seen);
	EXPECT_LT(0, mounts_seen);
	EXPECT_LT(1000, other) TH_LOG("%d other entries name a module", other);
}

/*
 * Each entry is listed whatever the size of the reads: a read that ends
 * before an entry does not lose it (seq_file restarts at that entry)
 */
TEST(index_whatever_the_reads)
{
	static char big[4 << 20], small[4 << 20];
	int a, b;

	a = read_text_by(INDEX_DIR "/vmlinux", big, sizeof(big), 1 << 20);
	b = read_text_by(INDEX_DIR "/vmlinux", small, sizeof(small), 61);
	ASSERT_LT(100000, a) TH_LOG("%s/vmlinux: %d", INDEX_DIR, a);
	ASSERT_GT((int)sizeof(big) - 1, a);
	EXPECT_EQ(a, b);
	EXPECT_EQ(0, memcmp(big, small, a));
}

/* The module's index file goes with the module; vmlinux's stays */
TEST(index_follows_module)
{
	struct stat st;

	ASSERT_EQ(0, load_kmsgtest());
	ASSERT_EQ(0, stat(INDEX_PATH, &st));
	ASSERT_EQ(0, system("rmmod kmsgtest"));
	EXPECT_EQ(-1, stat(INDEX_PATH, &st));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(0, stat(INDEX_DIR "/vmlinux", &st));
	ASSERT_EQ(0, load_kmsgtest());
	EXPECT_EQ(0, stat(INDEX_PATH, &st));
}

/* a record of kmsgtest: a message of it, or text of its own ("kmsgtest: ") */
static bool of_kmsgtest(const char *text, unsigned int unused)
{
	(void)unused;
	return !strncmp(text, "kmsgtest", strlen("kmsgtest")) ||
	       !strncmp(text, DEV_PREFIX, strlen(DEV_PREFIX));
}

/*
 * A number that is not a message is refused and prints nothing: the
 * records printed while the write runs are in /dev/kmsg when it returns
 */
TEST(unknown_number_rejected)
{
	static struct kmsg_record rec;
	int fd;

	ASSERT_EQ(0, load_kmsgtest());
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd) TH_LOG("/dev/kmsg: %s", strerror(errno));
	ASSERT_NE(-1, lseek(fd, 0, SEEK_END));
	EXPECT_EQ(-EINVAL, write_str(FIRE_PATH, "999\n"));
	EXPECT_EQ(-EINVAL, write_str(FIRE_PATH, "x\n"));
	EXPECT_EQ(0, read_matching(fd, of_kmsgtest, 0, &rec)) {
		TH_LOG("kmsgtest printed: %s", rec.text);
	}
	close(fd);
}

TEST_HARNESS_MAIN
