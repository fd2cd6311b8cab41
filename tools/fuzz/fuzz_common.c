// SPDX-License-Identifier: GPL-2.0
/*
 * Shared by the targets that need files: a private temporary directory.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static char dir[4096];

/* Remove @path and the files (and empty directories) directly in it */
static void remove_tree(const char *path, int depth)
{
	char sub[4096 + 256];
	struct dirent *de;
	DIR *d = opendir(path);

	if (d) {
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
			if (unlink(sub) && depth < 3)
				remove_tree(sub, depth + 1);
		}
		closedir(d);
	}
	rmdir(path);
}

static void cleanup(void)
{
	if (dir[0])
		remove_tree(dir, 0);
}

const char *fuzz_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/kmsg-fuzz-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		abort();
	}
	atexit(cleanup);
	return dir;
}

void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t done = 0;
	ssize_t n;

	if (fd < 0) {
		perror(path);
		abort();
	}
	while (done < size) {
		n = write(fd, data + done, size - done);
		if (n <= 0) {
			perror(path);
			abort();
		}
		done += n;
	}
	close(fd);
}
