// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the identifiers of kmsg messages: the FNV-1a hash of the
 * format against fixed vectors (computed apart, with Python), automatic
 * ids, the choice between curated and automatic ids, the alias hook, and
 * the --id and --component filters.
 */
#include <stdio.h>
#include <string.h>

#include "kmsg_id.h"
#include "tap.h"

static const struct {
	const char *s;
	uint32_t hash;
} vectors[] = {
	{ "", 0x811c9dc5 },
	{ "a", 0xe40c292c },
	/* mm/oom_kill.c */
	{ "Out of memory and no killable processes...", 0x923b9134 },
	{ "%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, file-rss:%lukB, shmem-rss:%lukB, UID:%u pgtables:%lukB oom_score_adj:%hd",
	  0x3196cc8e },
	/* kernel/time/clocksource.c, with its pr_fmt() */
	{ "clocksource: Switched to clocksource %s", 0x58743ee5 },
	/* kernel/smp.c, with its pr_fmt() */
	{ "smp: Brought up %d node%s, %d CPU%s", 0x5a06158f },
	/* bytes above 0x7f count as unsigned */
	{ "caf\xc3\xa9 \xc3\xbf\xff\x80", 0xe03bb22a },
};

static const char oom[] = "Out of memory and no killable processes...";

static void test_hash(void)
{
	size_t i;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		uint32_t h = kmsg_fmt_hash(vectors[i].s, strlen(vectors[i].s));

		ok(h == vectors[i].hash, "FNV-1a \"%.20s\": %08x, want %08x",
		   vectors[i].s, h, vectors[i].hash);
	}
	ok(kmsg_fmt_hash("a\0b", 3) != kmsg_fmt_hash("a", 1),
	   "the hash covers the given length, not up to a NUL");
}

static void test_auto_id(void)
{
	char buf[KMSG_ID_MAX];
	int n;

	n = kmsg_auto_id(buf, sizeof(buf), "oom_kill", 8, oom, strlen(oom));
	ok(n == 18 && !strcmp(buf, "oom_kill.h923b9134"), "auto id: %s", buf);
	n = kmsg_auto_id(buf, sizeof(buf), "", 0, oom, strlen(oom));
	ok(n == 17 && !strcmp(buf, "vmlinux.h923b9134"),
	   "auto id without modname: %s", buf);
	n = kmsg_auto_id(buf, sizeof(buf), "smp", 3, "", 0);
	ok(n == 13 && !strcmp(buf, "smp.h811c9dc5"), "auto id, empty format: %s",
	   buf);
	n = kmsg_auto_id(buf, 19, "oom_kill", 8, oom, strlen(oom));
	ok(n == 18, "auto id in 19 bytes: fits (%d)", n);
	strcpy(buf, "untouched");
	n = kmsg_auto_id(buf, 18, "oom_kill", 8, oom, strlen(oom));
	ok(n == -1 && !strcmp(buf, "untouched"),
	   "auto id in 18 bytes: -1, nothing written (%d, %s)", n, buf);
}

static struct kmsg_msg msg(unsigned int version, const char *component,
			   unsigned int number, const char *modname,
			   const char *fmt, unsigned int flags)
{
	struct kmsg_msg m = {
		.version = version, .number = number, .flags = flags,
		.component = { component, strlen(component) },
		.modname = { modname, strlen(modname) },
		.fmt = { fmt, strlen(fmt) },
	};

	return m;
}

static int alias_calls;

/* The docs database's part, faked: oom_kill's message is oom.9 */
static int fake_alias(void *ctx, const char *auto_id, char *curated,
		      size_t size)
{
	const char *want = ctx;

	alias_calls++;
	if (!strcmp(want, "error"))
		return -1;
	if (strcmp(auto_id, "oom_kill.h923b9134"))
		return 1;
	snprintf(curated, size, "%s", want);
	return 0;
}

static void test_ids(void)
{
	static char cut[KMSG_EVENT_FMT_MAX + 1];
	struct kmsg_msg m;
	struct kmsg_ids ids;
	char err[256], big[300];
	const char *comp;
	size_t len;

	/* version 1: always curated, never automatic */
	m = msg(1, "kmsgtest", 2, "", "device %x not online", 0);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), "kmsgtest.2") && ids.number == 2 &&
	   !kmsg_ids_auto(&ids) && !ids.automatic[0],
	   "version 1: kmsgtest.2, no automatic id");
	comp = kmsg_ids_component(&ids, &len);
	ok(len == 8 && !memcmp(comp, "kmsgtest", 8), "version 1: component %.*s",
	   (int)len, comp);

	/* version 2, plain */
	m = msg(2, "", 0, "oom_kill", oom, 0);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !ids.curated[0] && !strcmp(kmsg_ids_id(&ids), "oom_kill.h923b9134") &&
	   ids.hash == 0x923b9134, "version 2 plain: %s", ids.automatic);
	comp = kmsg_ids_component(&ids, &len);
	ok(len == 8 && !memcmp(comp, "oom_kill", 8),
	   "version 2 plain: component is the modname");
	ok(kmsg_ids_component_is(&ids, "oom_kill") &&
	   !kmsg_ids_component_is(&ids, "oom") &&
	   !kmsg_ids_component_is(&ids, "oom_kill.h923b9134") &&
	   !kmsg_ids_component_is(&ids, "vmlinux"),
	   "version 2 plain: --component oom_kill, not oom");

	m = msg(2, "", 0, "", oom, 0);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	ok(kmsg_ids_component_is(&ids, "vmlinux") &&
	   !kmsg_ids_component_is(&ids, ""), "no modname: --component vmlinux");

	/* version 2, curated */
	m = msg(2, "kmsgtest", 2, "kmsgtest", "kmsgtest.2: device %x not online", 0);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), "kmsgtest.2") &&
	   !strcmp(kmsg_ids_auto(&ids), "kmsgtest.hb6122c20"),
	   "version 2 curated: kmsgtest.2, automatic %s", ids.automatic);
	m = msg(2, "clocksource", 22, "clocksource",
		"clocksource.22: Switched to clocksource %s", 0);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	ok(kmsg_ids_component_is(&ids, "clocksource") &&
	   ids.curated_comp_len == 11 && ids.number == 22,
	   "version 2 curated: component and number");
	m = msg(2, "oom", 9, "oom_kill", oom, 0);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	ok(kmsg_ids_component_is(&ids, "oom") &&
	   kmsg_ids_component_is(&ids, "oom_kill"),
	   "--component: the curated component or the modname");

	/* cut: arguments only, or the format too */
	m = msg(2, "", 0, "oom_kill", oom, KMSG_EVENT_TRUNCATED);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), "oom_kill.h923b9134"),
	   "truncated, short format: the arguments were cut, not the format");
	memset(cut, 'f', sizeof(cut) - 1);
	cut[sizeof(cut) - 1] = '\0';
	m = msg(2, "", 0, "oom_kill", cut, KMSG_EVENT_TRUNCATED);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   !kmsg_ids_id(&ids) && !kmsg_ids_auto(&ids) &&
	   !strcmp(kmsg_ids_label(&ids), "oom_kill.h????????") &&
	   kmsg_ids_component_is(&ids, "oom_kill"),
	   "truncated, format of %d bytes: no id, label %s",
	   KMSG_EVENT_FMT_MAX, kmsg_ids_label(&ids));
	m = msg(2, "", 0, "oom_kill", cut + 1, KMSG_EVENT_TRUNCATED);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   kmsg_ids_auto(&ids), "truncated, format of %d bytes: automatic id %s",
	   KMSG_EVENT_FMT_MAX - 1, ids.automatic);
	m = msg(2, "", 0, "oom_kill", cut, 0);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   kmsg_ids_auto(&ids), "not truncated, format of %d bytes: automatic id %s",
	   KMSG_EVENT_FMT_MAX, ids.automatic);
	m = msg(2, "kmsgtest", 2, "kmsgtest", cut, KMSG_EVENT_TRUNCATED);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	ok(!strcmp(kmsg_ids_id(&ids), "kmsgtest.2") && !kmsg_ids_auto(&ids),
	   "truncated curated, format cut: kmsgtest.2, no automatic id");

	/* too long */
	memset(big, 'c', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	m = msg(1, big, 1, "", "x", 0);
	err[0] = '\0';
	ok(kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) == -1 &&
	   strstr(err, "component"), "component of 299 bytes: %s", err);
	big[KMSG_ID_MAX - 11] = '\0';
	m = msg(2, "", 0, big, "x", 0);
	ok(!kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) &&
	   strlen(ids.automatic) == KMSG_ID_MAX - 1,
	   "modname of %d bytes fits", KMSG_ID_MAX - 11);
	big[KMSG_ID_MAX - 11] = 'c';
	big[KMSG_ID_MAX - 10] = '\0';
	m = msg(2, "", 0, big, "x", 0);
	err[0] = '\0';
	ok(kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err)) == -1 &&
	   strstr(err, "modname"), "modname of %d bytes: %s", KMSG_ID_MAX - 10,
	   err);
}

static void test_alias(void)
{
	static char cut[KMSG_EVENT_FMT_MAX + 1];
	struct kmsg_msg m = msg(2, "", 0, "oom_kill", oom, 0);
	struct kmsg_ids ids;
	char err[256];

	alias_calls = 0;
	ok(!kmsg_msg_ids(&m, fake_alias, "oom.9", &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), "oom.9") && ids.number == 9 &&
	   ids.curated_comp_len == 3 &&
	   !strcmp(kmsg_ids_auto(&ids), "oom_kill.h923b9134") && alias_calls == 1,
	   "alias: oom_kill.h923b9134 is oom.9");
	ok(kmsg_ids_component_is(&ids, "oom") &&
	   kmsg_ids_component_is(&ids, "oom_kill"), "alias: --component oom");

	m = msg(2, "", 0, "smp", "smp: Brought up %d node%s, %d CPU%s", 0);
	ok(!kmsg_msg_ids(&m, fake_alias, "oom.9", &ids, err, sizeof(err)) &&
	   !strcmp(kmsg_ids_id(&ids), "smp.h5a06158f"),
	   "no alias: the automatic id %s", kmsg_ids_id(&ids));

	m = msg(2, "", 0, "oom_kill", oom, 0);
	err[0] = '\0';
	ok(kmsg_msg_ids(&m, fake_alias, "error", &ids, err, sizeof(err)) == -1 &&
	   strstr(err, "alias"), "alias lookup fails: %s", err);
	err[0] = '\0';
	ok(kmsg_msg_ids(&m, fake_alias, "oom", &ids, err, sizeof(err)) == -1 &&
	   strstr(err, "component.number"), "alias \"oom\" refused: %s", err);
	ok(kmsg_msg_ids(&m, fake_alias, "oom.9-12", &ids, err, sizeof(err)) == -1,
	   "alias \"oom.9-12\" refused");
	/* an alias from a crafted database is printed: the id grammar only */
	ok(kmsg_msg_ids(&m, fake_alias, "\033[2J.9", &ids, err, sizeof(err)) == -1 &&
	   !ids.curated[0], "alias with an escape sequence refused");
	ok(kmsg_msg_ids(&m, fake_alias, "../x.9", &ids, err, sizeof(err)) == -1,
	   "alias \"../x.9\" refused");

	memset(cut, 'f', KMSG_EVENT_FMT_MAX);
	alias_calls = 0;
	m = msg(2, "kmsgtest", 2, "oom_kill", oom, 0);
	kmsg_msg_ids(&m, fake_alias, "oom.9", &ids, err, sizeof(err));
	m = msg(2, "", 0, "oom_kill", cut, KMSG_EVENT_TRUNCATED);
	kmsg_msg_ids(&m, fake_alias, "oom.9", &ids, err, sizeof(err));
	m = msg(1, "kmsgtest", 2, "", oom, 0);
	kmsg_msg_ids(&m, fake_alias, "oom.9", &ids, err, sizeof(err));
	ok(!alias_calls, "no alias lookup for curated, cut or version 1 (%d)",
	   alias_calls);
}

/* docs-db/FORMAT.md's grammar, for ids read from a database or catalog */
static void test_grammar(void)
{
	static const char *const curated[] = {
		"oom.9", "kmsgtest.0", "hung_task.3", "a-b_C9.4294967295",
	};
	static const char *const not_curated[] = {
		"", "oom", ".9", "oom.", "oom.09", "oom.4294967296",
		"oom.99999999999", "../../x", "../x.1", "a/b.1", "a.b.1",
		"oom.9-12", "oom.9 ", "x.1\n.so /etc/passwd", "\033[2J.1",
		"oom.h923b9134", "x\"y.1", "x<y.1",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.1",
	};
	static const char *const autos[] = {
		"oom_kill.h923b9134", "vmlinux.h00000000", "A_9.hffffffff",
	};
	static const char *const not_autos[] = {
		"", ".h923b9134", "oom_kill.h923B9134", "oom_kill.h923b913",
		"oom_kill.h923b91345", "oom-kill.h923b9134", "../x.h923b9134",
		"oom_kill.x923b9134", "oom.9",
	};
	size_t i;

	for (i = 0; i < sizeof(curated) / sizeof(curated[0]); i++)
		ok(kmsg_id_is_curated(curated[i]) && !kmsg_id_is_auto(curated[i]),
		   "curated id: %s", curated[i]);
	for (i = 0; i < sizeof(not_curated) / sizeof(not_curated[0]); i++)
		ok(!kmsg_id_is_curated(not_curated[i]),
		   "not a curated id: #%zu", i);
	for (i = 0; i < sizeof(autos) / sizeof(autos[0]); i++)
		ok(kmsg_id_is_auto(autos[i]) && !kmsg_id_is_curated(autos[i]),
		   "automatic id: %s", autos[i]);
	for (i = 0; i < sizeof(not_autos) / sizeof(not_autos[0]); i++)
		ok(!kmsg_id_is_auto(not_autos[i]), "not an automatic id: #%zu", i);
}

static void test_filter(void)
{
	static char cut[KMSG_EVENT_FMT_MAX + 1];
	char want[KMSG_ID_MAX];
	static const char * const bad[] = {
		"kmsgtest", ".2", "kmsgtest.", "kmsgtest.2-1", "kmsgtest.x",
		"kmsgtest.-1", "kmsgtest.1-", "kmsgtest.+1", "kmsgtest. 1",
		"kmsgtest.4294967296", "kmsgtest.2x", "oom_kill.h923B9134",
		"oom_kill.h923b913", "oom_kill.h923b91345", ".h923b9134",
		"oom_kill.h923b9134-5", "oom_kill.H923b9134", "",
	};
	struct kmsg_id_filter f;
	struct kmsg_msg m;
	struct kmsg_ids ids;
	char err[256];
	size_t i;

	ok(!kmsg_id_filter_parse(&f, "kmsgtest.2") &&
	   !strcmp(f.component, "kmsgtest") && f.lo == 2 && f.hi == 2 &&
	   !f.automatic[0], "--id kmsgtest.2");
	ok(!kmsg_id_filter_parse(&f, "kmsgtest.1-99") &&
	   !strcmp(f.component, "kmsgtest") && f.lo == 1 && f.hi == 99,
	   "--id kmsgtest.1-99");
	ok(!kmsg_id_filter_parse(&f, "a.b.4294967295") &&
	   !strcmp(f.component, "a.b") && f.lo == 4294967295u,
	   "--id a.b.4294967295");
	ok(!kmsg_id_filter_parse(&f, "oom_kill.h923b9134") &&
	   !strcmp(f.automatic, "oom_kill.h923b9134") && !f.component[0],
	   "--id oom_kill.h923b9134: automatic");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(kmsg_id_filter_parse(&f, bad[i]) == -1, "--id \"%s\" refused",
		   bad[i]);

	/* matching */
	m = msg(2, "", 0, "oom_kill", oom, 0);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	kmsg_id_filter_parse(&f, "oom_kill.h923b9134");
	ok(kmsg_id_filter_match(&f, &ids), "oom_kill.h923b9134 matches its message");
	kmsg_id_filter_parse(&f, "oom_kill.h923b9135");
	ok(!kmsg_id_filter_match(&f, &ids), "oom_kill.h923b9135 does not");
	kmsg_id_filter_parse(&f, "vmlinux.h923b9134");
	ok(!kmsg_id_filter_match(&f, &ids), "vmlinux.h923b9134 does not");
	kmsg_id_filter_parse(&f, "oom_kill.0-99");
	ok(!kmsg_id_filter_match(&f, &ids), "oom_kill.0-99 does not (no curated id)");

	memset(cut, 'f', KMSG_EVENT_FMT_MAX);
	m = msg(2, "", 0, "oom_kill", cut, KMSG_EVENT_TRUNCATED);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	kmsg_auto_id(want, sizeof(want), "oom_kill", 8, cut, KMSG_EVENT_FMT_MAX);
	ok(!kmsg_id_filter_parse(&f, want) && !kmsg_id_filter_match(&f, &ids),
	   "a message whose format may be cut does not match %s", want);

	m = msg(2, "kmsgtest", 20, "kmsgtest", "kmsgtest.20: x", 0);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	kmsg_id_filter_parse(&f, "kmsgtest.1-20");
	ok(kmsg_id_filter_match(&f, &ids), "kmsgtest.1-20 matches kmsgtest.20");
	kmsg_id_filter_parse(&f, "kmsgtest.21-30");
	ok(!kmsg_id_filter_match(&f, &ids), "kmsgtest.21-30 does not");
	kmsg_id_filter_parse(&f, "kmsgtes.20");
	ok(!kmsg_id_filter_match(&f, &ids), "kmsgtes.20 does not");
	kmsg_id_filter_parse(&f, ids.automatic);
	ok(kmsg_id_filter_match(&f, &ids), "a curated message matches its %s",
	   ids.automatic);

	m = msg(1, "kmsgtest", 2, "", "x", 0);
	kmsg_msg_ids(&m, NULL, NULL, &ids, err, sizeof(err));
	kmsg_id_filter_parse(&f, "kmsgtest.2");
	ok(kmsg_id_filter_match(&f, &ids), "version 1: kmsgtest.2 matches");

	m = msg(2, "", 0, "oom_kill", oom, 0);
	kmsg_msg_ids(&m, fake_alias, "oom.9", &ids, err, sizeof(err));
	kmsg_id_filter_parse(&f, "oom.9");
	ok(kmsg_id_filter_match(&f, &ids), "alias: oom.9 matches");
}

int main(void)
{
	printf("TAP version 13\n");
	test_hash();
	test_auto_id();
	test_ids();
	test_alias();
	test_grammar();
	test_filter();
	return tap_done();
}
