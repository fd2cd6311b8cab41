// SPDX-License-Identifier: GPL-2.0
/*
 * lib/kmsg_match: each conversion's pattern, the longest literal match,
 * ties, unidentified text, device prefixes, curated ids, pr_cont(), the
 * arguments parsed back, and the index agreeing with a loop over every
 * pattern. Never a wrong id: each cause of one, with a set of one or two
 * formats (the line's level against the site's, too little literal text
 * of the format's own, lines joined over a %s, a trimmed %-10s, a tag
 * read as a device's driver).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmsg_match.h"
#include "kmsg_modrel.h"
#include "tap.h"

static struct kmsg_match *set_of(const char *const *sites, int n)
{
	struct kmsg_match *m = kmsg_match_new();
	int i;

	if (!m)
		abort();
	/* sites: id, prefix, format */
	for (i = 0; i < n; i++)
		if (kmsg_match_add(m, sites[3 * i], sites[3 * i + 1],
				   sites[3 * i + 2], strlen(sites[3 * i + 2])) != i)
			abort();
	if (kmsg_match_build(m))
		abort();
	return m;
}

/* "" if no site, "?" if ambiguous, "~" if weak (candidates only), the id */
static const char *verdict(struct kmsg_match *m,
			   const struct kmsg_match_result *r)
{
	if (!r->n)
		return "";
	if (r->weak)
		return "~";
	return r->n > 1 ? "?" : kmsg_match_id(m, r->pat[0]);
}

/* What @text matches, the index agreeing with the loop over every site */
static const char *ident(struct kmsg_match *m, const char *text,
			 struct kmsg_match_result *r)
{
	struct kmsg_match_result naive;

	if (kmsg_match_text(m, text, strlen(text), r) ||
	    kmsg_match_text_naive(m, text, strlen(text), &naive))
		abort();
	if (naive.n != r->n || (r->n && naive.pat[0] != r->pat[0]))
		return "index and naive loop differ";
	return verdict(m, r);
}

/* What @text of level @level matches */
static const char *ident_at(struct kmsg_match *m, const char *text, int level,
			    struct kmsg_match_result *r)
{
	if (kmsg_match_line(m, text, strlen(text), level, 0, r))
		abort();
	return verdict(m, r);
}

static int joins(struct kmsg_match *m, const char *prev, const char *line,
		 int level)
{
	int yes = kmsg_match_joins(m, prev, strlen(prev), line, strlen(line),
				   level);

	if (yes < 0)
		abort();
	return yes;
}

/*
 * One format, one text: matched or not (a weak match is one: its format
 * matched, with too little text of its own to identify a line)
 */
static void one(const char *fmt, const char *text, bool want)
{
	const char *sites[] = { "t.h00000001", NULL, fmt };
	struct kmsg_match *m = set_of(sites, 1);
	struct kmsg_match_result r;
	const char *got = ident(m, text, &r);

	if (r.weak && r.n == 1)
		got = kmsg_match_id(m, r.pat[0]);
	ok(want ? !strcmp(got, "t.h00000001") && !r.partial : !*got,
	   "\"%s\" %s \"%s\"", fmt, want ? "matches" : "does not match", text);
	kmsg_match_free(m);
}

static void conversions(void)
{
	one("count %d", "count -42", true);
	one("count %u", "count -42", false);
	one("count %u", "count 42", true);
	one("count %d", "count 4a", false);
	one("flags %x", "flags 1fa0", true);
	one("flags %x", "flags 1FA0", false);
	one("flags %X", "flags 1FA0", true);
	one("flags %#x", "flags 0x1fa0", true);
	one("flags %#x", "flags 1fa0", false);
	one("reg %08x", "reg 0000ffff", true);
	one("reg %08x", "reg ffff", false);
	one("reg %.8x", "reg 1234", false);
	one("[%5d]", "[   42]", true);
	one("[%-5d|", "[42   |", true);
	one("[%*d]", "[   42]", true);
	/* one literal character is no evidence: such formats match any line */
	one("%s %s", "any line at all", false);
	/* a final left-justified field: a log trims its padding */
	one("mode %-10s", "mode abc", true);
	one("mode %-10s|", "mode abc|", false);
	one("mode %-10s|", "mode abc       |", true);
	one("[%-5d", "[42", true);
	one("size %lld bytes", "size -9223372036854775808 bytes", true);
	one("mode %o", "mode 755", true);
	one("mode %o", "mode 789", false);
	one("n=%+d", "n=+5", true);
	one("drive %c:", "drive C:", true);
	one("name '%s'", "name ''", true);
	one("name '%s'", "name 'a b c'", true);
	one("name '%.3s'", "name 'abcd'", false);
	one("name '%.3s'", "name 'abc'", true);
	one("error %pe", "error -EINVAL", true);
	one("error %pe", "error -22", true);
	one("error %pe", "error ENOSPC", true);
	one("from %pI4", "from 192.168.0.1", true);
	one("from %pI4", "from 192.168.0", false);
	one("from %pI6c", "from fe80::1", true);
	one("mac %pM", "mac 52:54:00:12:34:56", true);
	one("mac %pM", "mac 52:54", false);
	one("uuid %pU", "uuid 0b7b1c4e-3a5f-4c1e-9a6d-1e2f3a4b5c6d", true);
	one("in %ps", "in do_one_initcall", true);
	one("at %pS", "at do_one_initcall+0x5e/0x2a0", true);
	one("at %pS", "at kmsgtest_fire+0x10/0x80 [kmsgtest]", true);
	one("at %pS", "at 0xffffffffc0001000", true);
	one("ptr %p", "ptr 00000000a1b2c3d4", true);
	one("ptr %p", "ptr a1b2c", false);
	one("ptr %px", "ptr ffff888003a1b2c0", true);
	one("ptr %p", "ptr (____ptrval____)", true);
	one("phys %pa", "phys 0x000000001ffdd000", true);
	one("100%% done", "100% done", true);
	one("wrapped: %pV", "wrapped: anything at all", true);
	one("node %pOF ok", "node /soc/uart@1000 ok", true);
	one("bad %n here", "bad ", true);
	one("trailing space ", "trailing space", true);
	one("multi\\nline %d", "multi\\nline 3", true);
}

static void choosing(void)
{
	static const char *const sites[] = {
		"a.h00000001", NULL, "Freeing %s memory: %luK",
		"b.h00000002", NULL, "%s memory: %luK",
		"c.h00000003", NULL, "value %d",
		"d.h00000004", NULL, "value %u",
		"e.h00000005", NULL, "%s",
		"f.h00000006", "%s %s: ", "link is up at %d Mbps",
		"g.h00000007", NULL, "link is up at %d Mbps",
		"kmsgtest.2", NULL, "device %d not online",
		"h.h00000008", NULL, "BIOS-e820: [mem %#018Lx-%#018Lx]",
		"i.h00000009", NULL, "same %d",
		"i.h00000009", NULL, "same %d",
		"j.h0000000a", NULL, "Booting paravirtualized kernel on ",
		"k.h0000000b", NULL, "Booting paravirtualized %s on KVM",
		"libata.h0000000c", NULL, "ata%u: SATA link up %s (SStatus %X SControl %X)",
		"sata_via.h0000000d", NULL, "ata%u: SATA link %s 1.5 Gbps (SStatus %X SControl %X)",
		"security.h0000000e", NULL, "LSM: initializing lsm=",
		"security.h0000000f", NULL, "LSM: initializing %s",
		"mwl8k.h00000010", NULL, "%s version %s",
	};
	struct kmsg_match *m = set_of(sites, sizeof(sites) / sizeof(*sites) / 3);
	struct kmsg_match_result r;
	struct kmsg_args args;
	struct kmsg_span drv, dev;
	const char *t;

	ok(!strcmp(ident(m, "Freeing unused kernel memory: 2048K", &r),
		   "a.h00000001"), "the most literal characters win");
	ok(!strcmp(ident(m, "Other memory: 12K", &r), "b.h00000002"),
	   "the other format where only it matches");
	ok(!strcmp(ident(m, "value 7", &r), "?") && r.n == 2 && r.total == 2,
	   "%%d and %%u tie on a positive number: ambiguous, both candidates");
	ok(!strcmp(ident(m, "value -7", &r), "c.h00000003"),
	   "a negative number only %%d prints");
	ok(!strcmp(ident(m, "nothing like it", &r), ""),
	   "no literal text matched: unidentified (\"%%s\" does not count)");
	ok(!strcmp(ident(m, "e1000e 0000:00:03.0: link is up at 1000 Mbps", &r),
		   "f.h00000006"), "a device message: the prefix modelled");
	ok(!strcmp(ident(m, "link is up at 1000 Mbps", &r), "g.h00000007"),
	   "the same text without a device: the plain site");
	ok(!strcmp(ident(m, "kmsgtest.2: device 4711 not online", &r),
		   "kmsgtest.2"), "a curated id printed before its format");
	ok(!strcmp(ident(m, "device 4711 not online", &r), ""),
	   "a curated site's text without its id: not that site");
	t = "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable";
	ok(!strcmp(ident(m, t, &r), "h.h00000008") && r.partial,
	   "a message continued with pr_cont(): its first format, partial");
	ok(!strcmp(ident(m, "same 3", &r), "i.h00000009") && r.n == 1,
	   "two sites of one id: identified, not ambiguous");
	ok(!strcmp(ident(m, "Booting paravirtualized kernel on KVM", &r),
		   "k.h0000000b") && !r.partial,
	   "a whole match beats a longer one of the beginning only");
	ok(!strcmp(ident(m, "ata1: SATA link up 1.5 Gbps (SStatus 113 SControl 300)", &r),
		   "?") && r.n == 2,
	   "two whole matches, neither a generalization of the other: ambiguous, not the more literal");
	ok(!strcmp(ident(m, "ata1: SATA link down 1.5 Gbps (SStatus 113 SControl 300)", &r),
		   "sata_via.h0000000d"), "only one of them matches: that one");
	ok(!strcmp(ident(m, "LSM: initializing lsm=lockdown,capability", &r), "?") &&
	   r.n == 2, "a whole match that only generalizes a longer one of the beginning: ambiguous");
	ok(!strcmp(ident(m, "smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf)",
			 &r), "~"),
	   "a format open at both ends (\"%%s version %%s\") with under 8 bytes of its own: weak");

	t = "e1000e 0000:00:03.0: link is up at 1000 Mbps";
	ok(!kmsg_match_args(m, 5, t, strlen(t), false, &args, &drv, &dev) &&
	   args.n == 1 && args.v[0].type == KMSG_ARG_SIGNED &&
	   args.v[0].s == 1000 && drv.len == 6 && !memcmp(drv.s, "e1000e", 6) &&
	   dev.len == 12 && !memcmp(dev.s, "0000:00:03.0", 12),
	   "arguments parsed back: driver, device, an int");
	t = "Freeing unused kernel memory: 2048K";
	ok(!kmsg_match_args(m, 0, t, strlen(t), false, &args, NULL, NULL) &&
	   args.n == 2 && args.v[0].type == KMSG_ARG_STRING &&
	   args.v[0].str_len == 13 && !memcmp(args.v[0].str, "unused kernel", 13) &&
	   args.v[1].type == KMSG_ARG_UNSIGNED && args.v[1].u == 2048,
	   "arguments parsed back: a string, an unsigned long");
	t = "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable";
	ok(!kmsg_match_args(m, 8, t, strlen(t), true, &args, NULL, NULL) &&
	   args.n == 2 && args.v[1].u == 0x9fbff,
	   "arguments of a partial match: %%#018Lx");
	ok(kmsg_match_args(m, 2, t, strlen(t), false, &args, NULL, NULL) == -1,
	   "arguments of a pattern that does not match: -1");
	kmsg_match_free(m);
}

/* A level known from the line rules out the sites of other levels */
static void levels(void)
{
	static const char *const sites[] = {
		"kvm.h00000001", NULL, "Using msrs %x and %x",
		"acpi.h00000002", NULL, "%sACPI: %s: %pV",
		"e.h00000003", "%s %s: ", "link is up at %d Mbps",
		"f.h00000004", "%s %s: ", "foo bar quux %s",
	};
	struct kmsg_match *m = set_of(sites, 4);
	struct kmsg_match_result r;
	const char *t = "Using msrs 4b564d01 and 4b564d00";

	kmsg_match_set_level(m, 0, 3);
	kmsg_match_set_level(m, 1, 4);
	kmsg_match_set_level(m, 2, 6);
	kmsg_match_set_level(m, 3, 4);
	ok(!strcmp(ident_at(m, t, 6, &r), ""),
	   "a pr_err() site does not print a line of level 6");
	ok(!strcmp(ident_at(m, t, 3, &r), "kvm.h00000001"),
	   "the same line at level 3: that site");
	ok(!strcmp(ident_at(m, t, -1, &r), "kvm.h00000001"),
	   "the same line of unknown level: that site");
	kmsg_match_set_level(m, 0, 6);
	ok(!strcmp(ident_at(m, t, 6, &r), "kvm.h00000001"),
	   "the site's level changed: no result of before (a line remembered)");
	kmsg_match_set_level(m, 0, 3);
	ok(!strcmp(ident_at(m, "ACPI: PCI: Interrupt link LNKA", 6, &r), "~") &&
	   r.n == 1 && !strcmp(kmsg_match_id(m, r.pat[0]), "acpi.h00000002"),
	   "a level-4 site starting with %%s takes its level from it: any line (weak: \"%%sACPI: %%s: %%pV\" is open at both ends)");
	ok(!strcmp(ident_at(m, "e1000e 0000:00:03.0: link is up at 1000 Mbps",
			    6, &r), "e.h00000003") &&
	   !strcmp(ident_at(m, "e1000e 0000:00:03.0: link is up at 1000 Mbps",
			    4, &r), ""),
	   "a dev_info() site: level 6 lines only");
	ok(!strcmp(ident_at(m, "e1000e 0000:00:03.0: foo bar quux link down", 3,
			    &r), "") &&
	   !strcmp(ident_at(m, "e1000e 0000:00:03.0: foo bar quux link down", 4,
			    &r), "f.h00000004"),
	   "a dev_warn() site of \"foo bar quux %%s\": the prefix's %%s is not the format's");
	kmsg_match_free(m);
}

/* Too little literal text of the format's own: weak, never identified */
static void evidence(void)
{
	static const char *const sites[] = {
		"swapfile.h27748666", NULL, "%s: %s%08lx",
		"vmstat.hd06c8b2c", NULL, "%s: %s %ld",
		"d.h00000003", "%s %s: ", "%s: %d",
		"e.h00000004", "%s %s: ", "speed %d",
	};
	struct kmsg_match *m = set_of(sites, 4);
	struct kmsg_match_result r;

	kmsg_match_set_level(m, 0, 3);
	ok(!strcmp(ident_at(m, "kvm-clock: Using msrs 4b564d01 and 4b564d00",
			    6, &r), ""),
	   "kvm-clock at level 6: not the pr_err() \"%%s: %%s%%08lx\"");
	ok(!strcmp(ident(m, "kvm-clock: Using msrs 4b564d01 and 4b564d00", &r),
		   "~") && r.n == 1 && r.pat[0] == 0 && r.evidence == 1,
	   "kvm-clock of unknown level: weak, one candidate of evidence 1");
	ok(!strcmp(ident(m, "NetLabel:  domain hash size = 128", &r), "~") &&
	   r.n == 1 && r.pat[0] == 1,
	   "NetLabel: weak, \"%%s: %%s %%ld\" a candidate, not the id");
	ok(!strcmp(ident(m, "any:42", &r), "") ||
	   !strcmp(ident(m, "any:42", &r), "~"),
	   "\"%%s:%%d\"-like text: never identified");
	ok(!strcmp(ident(m, "virtio_net virtio0: eth0: 3", &r), "~"),
	   "a device prefix is no evidence: \"%%s %%s: \" \"%%s: %%d\" weak");
	ok(!strcmp(ident(m, "virtio_net virtio0: speed 3", &r), "e.h00000004"),
	   "a device site with a word of its own (\"speed\"): identified");
	kmsg_match_free(m);
}

/* A subsystem's tag ("rcu: ") alone is no evidence either */
static void tags(void)
{
	static const char *const sites[] = {
		"tree.h895e2945", NULL, "rcu:  ",
		"c.h00000002", NULL, "clocksource: %s",
		"s.h00000003", NULL, "smpboot: CPU%d: ",
		"kmsgtest.7", NULL, "%s",
		"bugs.h00000005", NULL, "Spectre V2 : %s",
		"bugs.h00000006", NULL, "Speculative Store Bypass: %s",
		"d.h00000007", "%s %s: ", "MMIO Stale Data: %s",
		/* the tags of several words are pr_fmt()'s: other formats have them */
		"bugs.h00000008", NULL, "Spectre V2 : mitigation %s selected",
		"bugs.h00000009", NULL, "Speculative Store Bypass: disabled by %s",
		"d.h0000000a", "%s %s: ", "MMIO Stale Data: level %d",
		/* not a tag: no other format starts with it */
		"setup.h0000000b", NULL, "Command line: %s",
		"mm_init.h0000000c", NULL, "Zone ranges:",
	};
	struct kmsg_match *m = set_of(sites, 12);
	struct kmsg_match_result r;

	ok(!strcmp(ident(m, "rcu: Preemptible hierarchical RCU implementation.",
			 &r), ""),
	   "\"rcu:  \" (pr_cont() follows) is not the beginning of any rcu line");
	ok(!strcmp(ident(m, "clocksource: Switched to clocksource tsc", &r), "~"),
	   "\"clocksource: %%s\": weak");
	ok(!strcmp(ident(m, "smpboot: CPU0: AMD EPYC (family: 0x19)", &r),
		   "s.h00000003") && r.partial,
	   "a tag and text of its own: the beginning of a continued line");
	ok(!strcmp(ident(m, "kmsgtest.7: anything", &r), "kmsgtest.7"),
	   "a curated id printed is evidence enough");
	ok(!strcmp(ident(m, "Spectre V2 : Enabling IBPB for BPF", &r), "~"),
	   "a tag with a space before its ':' (\"Spectre V2 : %%s\"): weak");
	ok(!strcmp(ident(m, "Speculative Store Bypass: Vulnerable", &r), "~"),
	   "a tag of several words (\"Speculative Store Bypass: %%s\"): weak");
	ok(!strcmp(ident(m, "x86 cpu0: MMIO Stale Data: Unknown", &r), "~"),
	   "a device site's tag alone (\"MMIO Stale Data: %%s\"): weak");
	ok(!strcmp(ident(m, "Command line: console=ttyS0", &r),
		   "setup.h0000000b") &&
	   !strcmp(ident(m, "Zone ranges:", &r), "mm_init.h0000000c"),
	   "words before a ':' that no other format has: a message, not a tag");
	kmsg_match_free(m);
}

/* Lines of one timestamp joined only over a format's own newline */
static void joining(void)
{
	static const char *const sites[] = {
		"clocksource.h58743ee5", NULL,
			"clocksource: Switched to clocksource %s",
		"t.h00000002", NULL, "first line %d\nsecond line %s",
	};
	struct kmsg_match *m = set_of(sites, 2);
	struct kmsg_match_result r;
	const char *cs = "clocksource: Switched to clocksource tsc";
	const char *both = "clocksource: Switched to clocksource tsc\n"
			   "VFS: Disk quotas dquot_6.6.0";

	ok(!joins(m, cs, "VFS: Disk quotas dquot_6.6.0", 6),
	   "VFS: Disk quotas does not join a line identified alone");
	ok(kmsg_match_line(m, both, strlen(both), -1, KMSG_MATCH_NL_LITERAL,
			   &r) == 0 && !r.n,
	   "its %%s does not swallow the next line's text");
	ok(joins(m, "first line 1", "second line x", 6),
	   "a format's own newline: its second line joins the first");
	ok(!joins(m, "first line 1", "second line x\nthird", 6) &&
	   !joins(m, "first line 1", "other text", 6),
	   "not where a %%s would take the newline, nor other text");
	ok(!joins(m, "cpu 1", "second line x", 6),
	   "no format for the two: not joined");
	kmsg_match_free(m);
}

/* Nor over a line that a site of its own identifies */
static void joining_alone(void)
{
	static const char *const first[] = {
		"a.h00000001", NULL, "first line %d",
		"t.h00000002", NULL, "first line %d\nsecond line %s",
	};
	static const char *const second[] = {
		"c.h00000003", NULL, "second line %s",
		"t.h00000002", NULL, "first line %d\nsecond line %s",
	};
	struct kmsg_match *m = set_of(first, 2);

	ok(!joins(m, "first line 1", "second line x", 6),
	   "the first line identified alone: the next one does not join it");
	kmsg_match_free(m);
	m = set_of(second, 2);
	ok(!joins(m, "first line 1", "second line x", 6),
	   "the second line identified alone: it does not join");
	kmsg_match_free(m);
}

static void typed_args(void)
{
	static const char *const sites[] = {
		"t.h1", NULL, "c=%c p=%p px=%px e=%pe s=%pS ip=%pI4 x=%#x",
	};
	struct kmsg_match *m = set_of(sites, 1);
	const char *t = "c=Q p=00000000deadbeef px=ffff888000001000 e=-ENODEV "
			"s=schedule+0x10/0x20 ip=10.0.2.15 x=0x1f";
	struct kmsg_args a;

	ok(!kmsg_match_args(m, 0, t, strlen(t), false, &a, NULL, NULL) &&
	   a.n == 7 && a.v[0].type == KMSG_ARG_CHAR && a.v[0].s == 'Q' &&
	   a.v[1].type == KMSG_ARG_POINTER && a.v[1].u == 0xdeadbeef &&
	   a.v[2].u == 0xffff888000001000ULL &&
	   a.v[3].type == KMSG_ARG_RENDERED && a.v[3].str_len == 7 &&
	   a.v[4].type == KMSG_ARG_RENDERED && a.v[5].type == KMSG_ARG_RENDERED &&
	   a.v[6].type == KMSG_ARG_UNSIGNED && a.v[6].u == 0x1f,
	   "each kind typed as kmsg live --json types it");
	kmsg_match_free(m);
}

static void multiline(void)
{
	static const char *const sites[] = {
		"t.h1", NULL, "first line %d\nsecond line %s",
	};
	struct kmsg_match *m = set_of(sites, 1);
	struct kmsg_match_result r;

	ok(!strcmp(ident(m, "first line 1\nsecond line x", &r), "t.h1") &&
	   !r.partial, "a message of two lines");
	ok(!strcmp(ident(m, "first line 1", &r), ""),
	   "its first line alone: unidentified");
	kmsg_match_free(m);
}

/* Many patterns: the index finds what the loop over all finds */
static void many(void)
{
	struct kmsg_match *m = kmsg_match_new();
	struct kmsg_match_result r, n;
	char fmt[64], text[64], id[32];
	int i, bad = 0;

	for (i = 0; i < 2000; i++) {
		snprintf(id, sizeof(id), "m.h%08x", i);
		snprintf(fmt, sizeof(fmt), i % 3 ? "word%d status %%d of %%s" :
			 "%%s: thing%d %%u", i);
		if (kmsg_match_add(m, id, NULL, fmt, strlen(fmt)) != i)
			abort();
	}
	if (kmsg_match_build(m))
		abort();
	for (i = 0; i < 2000; i += 7) {
		if (i % 3)
			snprintf(text, sizeof(text), "word%d status -3 of x y", i);
		else
			snprintf(text, sizeof(text), "sda1: thing%d 12", i);
		if (kmsg_match_text(m, text, strlen(text), &r) ||
		    kmsg_match_text_naive(m, text, strlen(text), &n))
			abort();
		bad += r.n != 1 || n.n != 1 || r.pat[0] != i || n.pat[0] != i;
	}
	ok(!bad, "2000 patterns: the index and the loop agree (%d differ)", bad);
	kmsg_match_free(m);
}

static bool same_result(const struct kmsg_match_result *a,
			const struct kmsg_match_result *b)
{
	int i;

	if (a->n != b->n || a->total != b->total || a->weak != b->weak ||
	    a->partial != b->partial || a->literal != b->literal ||
	    a->evidence != b->evidence)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->pat[i] != b->pat[i])
			return false;
	return true;
}

/*
 * Formats with no word of their own (punctuation between conversions)
 * are tried on every line, in the order of the line's candidates, and
 * passed over where their text is not in the line: the same results as
 * the loop over every pattern, whole and partial matches alike
 */
static void unanchored(void)
{
	static const char *const punct[] = {
		":", "=", "->", "|", "<", ">", ",", ";",
		"#", "@", "!", "~", "^", "&", "*", "+",
	};
	struct kmsg_match *m = kmsg_match_new();
	struct kmsg_match_result r, n;
	char id[32], fmt[64], text[64];
	int i, bad = 0, found = 0, weak = 0, partial = 0, wrong = 0;

	if (!m)
		abort();
	for (i = 0; i < 1024; i++) {
		snprintf(id, sizeof(id), "u.h%08x", i);
		snprintf(fmt, sizeof(fmt), "%%s%s%s %%d%s%%u%s", punct[i % 16],
			 punct[i / 16 % 16], punct[i / 256], i % 5 ? "" : " tail");
		if (kmsg_match_add(m, id, i % 2 ? "%s %s: " : NULL, fmt,
				   strlen(fmt)) != i)
			abort();
	}
	/* a site with a word: the index finds it, the others too */
	if (kmsg_match_add(m, "u.h10000000", NULL, "%s: count %d", 12) != 1024)
		abort();
	if (kmsg_match_build(m))
		abort();
	for (i = 0; i < 1030; i += 3) {
		if (i >= 1024)
			snprintf(text, sizeof(text), "sda: count %d", i);
		else
			snprintf(text, sizeof(text), "%sdev%s%s 12%s34%s",
				 i % 2 ? "drv 0000:01: " : "", punct[i % 16],
				 punct[i / 16 % 16], punct[i / 256],
				 i % 10 == 5 ? " tail end" : "");
		if (kmsg_match_text(m, text, strlen(text), &r) ||
		    kmsg_match_text_naive(m, text, strlen(text), &n))
			abort();
		bad += !same_result(&r, &n);
		found += r.n > 0;
		weak += r.weak;
		partial += r.partial;
		wrong += r.n == 1 && !r.weak && r.pat[0] != (i < 1024 ? i : 1024);
	}
	/*
	 * Of the 344 lines: the 273 of a format without " tail" weak (its
	 * text is punctuation); of the 69 with (i % 15 == 0), 34 continue
	 * it (partial), 35 lack it (none); the 2 "count" lines exact
	 */
	ok(!bad && found == 309 && weak == 273 && partial == 34 && !wrong,
	   "1024 formats without a word: the index and the loop agree (%d differ; of 344 lines %d found, %d weak, %d partial, %d wrong)",
	   bad, found, weak, partial, wrong);
	kmsg_match_free(m);
}

/*
 * Fifteen %.9s between commas: the first ways to split the text all fail
 * at its end, exponentially many of them. A failed (token, position) is
 * not tried again, so the longer pattern is found within the step budget,
 * and the line does not go to the shorter one.
 */
static void backtracking(void)
{
	static const char *const sites[] = {
		"p.h00000001", NULL, "%.9s,%.9s,%.9s,%.9s,%.9s,%.9s,%.9s,%.9s,"
			"%.9s,%.9s,%.9s,%.9s,%.9s,%.9s,%.9s,END of the list",
		"p.h00000002", NULL, "%s,END of the list",
	};
	struct kmsg_match *m = set_of(sites, 2);
	struct kmsg_match_result r;
	char text[256] = "";
	int i;

	for (i = 0; i < 60; i++)
		strcat(text, "x,");
	strcat(text, "END of the list");
	ok(!strcmp(ident(m, text, &r), "p.h00000001") && !r.partial,
	   "15 %%.9s splitting 60 fields: the longest pattern, not the step budget's end");
	kmsg_match_free(m);
}

/*
 * What kmsg dmesg builds on: a device prefix's driver never ends in ':',
 * a site set weak identifies nothing, and where a match of a line's
 * beginning ends (to follow its KERN_CONT fragments)
 */
static void fragments(void)
{
	static const char *const sites[] = {
		"ngene.h00000001", "%s %s: ", "Found %s firmware",
		"cont.h00000002", NULL, "usable",
		"e820.h00000003", NULL, "e820: update [mem %#010Lx-%#010Lx] ",
		"bt.h00000004", NULL, "Bluetooth: hci%u: Found %s",
		"tail.h00000006", NULL, "Freezing %s",
		"libata.h00000005", NULL, "ata%u.%02u: %s",
		"ext4.h00000007", "EXT4-fs (%s): ",
		"mounted filesystem with%s. Quota mode: %s.",
	};
	struct kmsg_match *m = set_of(sites, 7);
	struct kmsg_match_result r;
	static struct kmsg_args args;
	struct kmsg_span drv, dev;
	const char *t = "e820: update [mem 0x00000000-0x00000fff] usable ==> reserved";

	ok(!strcmp(ident(m, "Bluetooth: hci0: Found device firmware", &r), "bt.h00000004"),
	   "\"Bluetooth:\" is no driver of a device line: not \"%%s %%s: \" \"Found %%s firmware\"");
	ok(!strcmp(ident(m, "Bluetooth: hci: Found it firmware", &r), ""),
	   "nor when the tag's own format does not fit");
	ok(!strcmp(ident(m, "ngene 0000:01:00.0: Found it firmware", &r), "ngene.h00000001"),
	   "a device line of a driver still is");
	ok(!strcmp(ident(m, "(NULL device *): Found it firmware", &r), "ngene.h00000001") &&
	   !kmsg_match_args(m, 0, "(NULL device *): Found x firmware", 33, false, &args,
			    &drv, &dev) && !drv.len && !dev.len && args.n == 1 &&
	   args.v[0].str_len == 1 && args.v[0].str[0] == 'x',
	   "and one of no device, \"(NULL device *): \" for driver and device");
	ok(!strcmp(ident(m, "ata2.00: ACPI cmd f5/XXX(SECURITY FREEZE LOCK) filtered out", &r), "~"),
	   "a head with conversions and nothing of its own after its \": \" (\"ata%%u.%%02u: %%s\"): weak");
	ok(!strcmp(ident(m, "EXT4-fs (dm-1): mounted filesystem with ordered data mode. Quota mode: none.",
			 &r), "ext4.h00000007"),
	   "a message whose own text is before its \": \" is no head: \"mounted filesystem with%%s. Quota mode: %%s.\"");
	ok(!strcmp(ident(m, "Freezing user space processes ... (elapsed 0.004 seconds) done.", &r), "~"),
	   "text and a lone \"%%s\" last, under 10 bytes of text (\"Freezing %%s\"): weak");
	ok(kmsg_match_evidence(m, 1) == 6 && kmsg_match_evidence(m, 0) == 13 &&
	   kmsg_match_evidence(m, 5) == 5 && kmsg_match_evidence(m, 9) == 0,
	   "kmsg_match_evidence(): a site's own text, without its prefix");
	ok(kmsg_match_end(m, 2, t, strlen(t)) == 40,
	   "kmsg_match_end(): the first fragment of an e820 line ends at its ']' (its space trimmed)");
	ok(kmsg_match_end(m, 1, t + 41, strlen(t + 41)) == 6,
	   "the next fragment where the first one ends");
	ok(kmsg_match_end(m, 1, "usable", 6) == 6 &&
	   kmsg_match_end(m, 1, "reserved", 8) == -1 &&
	   kmsg_match_end(m, 0, "x", 1) == -1 && kmsg_match_end(m, 9, "x", 1) == -1,
	   "the whole text, no match, a pattern ending in a conversion, no pattern");
	kmsg_match_free(m);
}

/* Which modules' code may print a device line of a driver */
static void drivers(void)
{
	struct kmsg_modrel *r = kmsg_modrel_new();

	if (!r || kmsg_modrel_add(r, "iwlwifi", "cfg80211") ||
	    kmsg_modrel_add(r, "iwlmvm", "mac80211,cfg80211,iwlwifi") ||
	    kmsg_modrel_add(r, "mac80211", "cfg80211,libarc4") ||
	    kmsg_modrel_add(r, "cfg80211", "rfkill") ||
	    kmsg_modrel_add(r, "ftdi_sio", "usbserial") ||
	    kmsg_modrel_add(r, "e1000", "") || kmsg_modrel_add(r, "e1000e", "") ||
	    kmsg_modrel_add(r, "usb_storage", "usbcore") ||
	    kmsg_modrel_add(r, "usbcore", "usb_common") ||
	    kmsg_modrel_add(r, "e1000e", "ftdi_sio"))
		abort();
	ok(kmsg_modrel_count(r) == 10, "ten modules added, one name twice");
	ok(kmsg_modrel_allows(r, "iwlwifi", 7, "iwlwifi") &&
	   kmsg_modrel_allows(r, "iwlwifi", 7, "cfg80211") &&
	   kmsg_modrel_allows(r, "iwlwifi", 7, "iwlmvm") &&
	   kmsg_modrel_allows(r, "iwlwifi", 7, "mac80211"),
	   "iwlwifi's device: iwlwifi, what it uses, what uses it, and what that uses");
	ok(!kmsg_modrel_allows(r, "iwlwifi", 7, "ftdi_sio") &&
	   !kmsg_modrel_allows(r, "e1000e", 6, "e1000") &&
	   !kmsg_modrel_allows(r, "e1000e", 6, "ftdi_sio"),
	   "not an unrelated module's, e1000's for an e1000e device, nor the second copy's dependency");
	ok(kmsg_modrel_allows(r, "usb-storage", 11, "usb_storage") &&
	   kmsg_modrel_allows(r, "usb-storage", 11, "usbcore") &&
	   !kmsg_modrel_allows(r, "usb-storage", 11, "e1000"),
	   "a driver's '-' is a module's '_'");
	ok(kmsg_modrel_allows(r, "pcieport", 8, "e1000") &&
	   kmsg_modrel_allows(r, "iwlwifi", 7, "vmlinux") &&
	   kmsg_modrel_allows(r, "iwlwifi", 7, "") &&
	   kmsg_modrel_allows(r, "iwlwifi", 3, "e1000"),
	   "a driver no module has, vmlinux, an unknown object: allowed");
	kmsg_modrel_free(r);
	ok(kmsg_modrel_allows(NULL, "iwlwifi", 7, "ftdi_sio"), "no table: allowed");
}

int main(void)
{
	printf("TAP version 13\n");
	fragments();
	drivers();
	conversions();
	choosing();
	levels();
	evidence();
	tags();
	joining();
	joining_alone();
	typed_args();
	multiline();
	many();
	unanchored();
	backtracking();
	return tap_done();
}
