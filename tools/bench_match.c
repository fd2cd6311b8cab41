// SPDX-License-Identifier: GPL-2.0
/*
 * bench_match [FORMATS]: lines/s of lib/kmsg_match against at least 10^4
 * formats (generated in the style of kernel messages, over a vocabulary
 * of words so that many share words), with the index and with a loop
 * over every pattern, on the same generated log lines. Prints one line
 * per figure; for make bench (tools/bench.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmsg_match.h"

static const char *const words[] = {
	"device", "failed", "error", "link", "up", "down", "reset", "timeout",
	"memory", "irq", "driver", "probe", "register", "queue", "buffer",
	"port", "firmware", "version", "enabled", "disabled", "using", "mode",
	"clock", "power", "state", "init", "bus", "slot", "controller", "cpu",
};
#define NWORDS (sizeof(words) / sizeof(*words))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Format @i, and a line it prints */
static void make(unsigned int i, char *fmt, char *line, size_t size)
{
	unsigned int a = i % NWORDS, b = i / NWORDS % NWORDS;

	switch (i % 4) {
	case 0:
		snprintf(fmt, size, "sub%u: %s %s %%d on %%s", i / 4, words[a], words[b]);
		snprintf(line, size, "sub%u: %s %s %u on eth0", i / 4, words[a], words[b], i);
		break;
	case 1:
		snprintf(fmt, size, "%s%u %s: status %%#x, %%u bytes", words[a], i, words[b]);
		snprintf(line, size, "%s%u %s: status 0x%x, %u bytes", words[a], i, words[b], i, i * 3);
		break;
	case 2:
		snprintf(fmt, size, "%%s: %s_%u %s (%%pe)", words[b], i, words[a]);
		snprintf(line, size, "sda1: %s_%u %s (-EIO)", words[b], i, words[a]);
		break;
	default:
		snprintf(fmt, size, "%s %s %u at %%pS", words[a], words[b], i);
		snprintf(line, size, "%s %s %u at kmsg_fire+0x10/0x80 [kmsgtest]", words[a], words[b], i);
		break;
	}
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000, i;
	unsigned int lines = 200000, naive_lines = 200;
	struct kmsg_match *m = kmsg_match_new();
	struct kmsg_match_result r;
	char fmt[160], id[32], (*text)[160];
	double t, idx, naive;
	unsigned int ok = 0;

	text = calloc(n, sizeof(*text));
	if (!m || !text || n < 1)
		return 1;
	for (i = 0; i < n; i++) {
		make(i, fmt, text[i], sizeof(fmt));
		snprintf(id, sizeof(id), "bench.h%08x", i);
		if (kmsg_match_add(m, id, i % 8 ? NULL : "%s %s: ", fmt,
				   strlen(fmt)) < 0)
			return 1;
		if (!(i % 8)) {
			/* a device message: "driver device: " first */
			char plain[160];

			memcpy(plain, text[i], sizeof(plain));
			snprintf(text[i], sizeof(*text), "e1000e 0000:00:03.0: %.130s",
				 plain);
		}
	}
	t = now();
	if (kmsg_match_build(m))
		return 1;
	printf("match: %u formats, index built in %.3f s\n", n, now() - t);
	t = now();
	for (i = 0; i < lines; i++) {
		const char *s = text[(i * 7919u) % n];

		if (kmsg_match_text(m, s, strlen(s), &r))
			return 1;
		ok += r.n == 1 && r.pat[0] == (int)((i * 7919u) % n);
	}
	idx = lines / (now() - t);
	t = now();
	for (i = 0; i < naive_lines; i++) {
		const char *s = text[(i * 7919u) % n];

		if (kmsg_match_text_naive(m, s, strlen(s), &r))
			return 1;
	}
	naive = naive_lines / (now() - t);
	printf("match: %.0f lines/s with the index (%u of %u identified), %.0f lines/s looping over every pattern: %.0fx\n",
	       idx, ok, lines, naive, idx / naive);
	kmsg_match_free(m);
	free(text);
	return ok == lines ? 0 : 2;
}
