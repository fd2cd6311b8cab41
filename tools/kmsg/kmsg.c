// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg - rebuild kernel messages from kmsg:kmsg trace events
 *
 *   kmsg live    stream messages from a tracefs instance of its own
 *   kmsg report  read a trace.dat recorded with trace-cmd
 *
 * See kmsg(1). Each command is in a file of its own; this one dispatches.
 */
#include <stdio.h>
#include <string.h>

#include "kmsg.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *prog = "kmsg";

static const struct command {
	const char *name;
	int (*main)(int argc, char **argv);
} commands[] = {
	{ "live", live_main },
	{ "report", report_main },
	{ "reports", reports_main },
	{ "compare", compare_main },
	{ "explain", explain_main },
	{ "search", search_main },
	{ "dmesg", dmesg_main },
	{ "manual", manual_main },
	{ "db", db_main },
};

static void usage_main(FILE *f)
{
	fprintf(f,
		"Usage: %s COMMAND [OPTIONS]\n"
		"Rebuild kernel messages from kmsg:kmsg trace events.\n\n"
		"Commands:\n"
		"  live         stream messages as the kernel prints them\n"
		"  report FILE  read a trace.dat recorded with trace-cmd\n"
		"  explain ID   the documentation of a message (comp.N)\n"
		"  search WORD  messages whose documentation has these words\n"
		"  dmesg [FILE] kernel log (/dev/kmsg, or dmesg text), annotated\n"
		"  reports LOG  the kernel reports of console logs (WARNING, KASAN, ...)\n"
		"  compare BASELINE NEW\n"
		"               the messages and reports of two logs that differ, by id\n"
		"  manual DIR   man pages and a printable manual of all messages\n"
		"  db list      the databases installed, one per kernel release\n"
		"               (db install FILE, db remove RELEASE)\n\n"
		"'%s COMMAND --help' describes a command. See kmsg(1).\n",
		prog, prog);
}


int main(int argc, char **argv)
{
	const char *cmd;
	size_t i;

	if (argc < 2) {
		usage_main(stderr);
		return 1;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage_main(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("kmsg %s\n", KMSG_VERSION);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s'\n", prog, cmd);
	usage_main(stderr);
	return 1;
}
