// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg db: the databases installed side by side, one per kernel release,
 * as DIR/<release>.db (db_dir()): list, install, remove.  kmsg dmesg
 * picks among them by the release of the log's kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmsg_dmesg.h"
#include "kmsg_docs.h"
#include "kmsg.h"

static void usage_db(FILE *f)
{
	fprintf(f,
		"Usage: %s db list\n"
		"       %s db install FILE\n"
		"       %s db remove RELEASE\n"
		"The docs databases installed side by side, one per kernel release,\n"
		"for kmsg dmesg to pick the one of a log's kernel. install copies a\n"
		"database (kmsg-doc build-db --release R) as DIR/R.db, remove removes\n"
		"it. DIR: $KMSG_DB_DIR, else db/ in ../share/kmsg next to the program,\n"
		"else " KMSG_DATADIR "/db. See kmsg(1).\n",
		prog, prog, prog);
}

/* An untrusted string of a database, control characters escaped */
static const char *shown(struct kmsg_strbuf *b, const char *s)
{
	b->len = 0;
	if (kmsg_dmesg_escape(b, s, strlen(s)) || kmsg_strbuf_putc(b, '\0')) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	return b->buf;
}

/* Open @path and read what it describes; 0, or -1 with the error printed */
static int info_of(const char *path, struct kmsg_docs_info *info)
{
	char err[1024];
	struct kmsg_docs *docs = kmsg_docs_open(path, err, sizeof(err));

	if (!docs) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return -1;
	}
	if (kmsg_docs_info(docs, info)) {
		fprintf(stderr, "%s: %s: not a usable kmsg database\n", prog,
			kmsg_docs_errmsg(docs));
		kmsg_docs_close(docs);
		return -1;
	}
	kmsg_docs_close(docs);
	return 0;
}

static void print_info(const struct kmsg_docs_info *in, const char *path,
		       const char *note)
{
	struct kmsg_strbuf b = { 0 };

	printf("%s  %lld sites", in->release[0] ? shown(&b, in->release) :
	       "(no release)", in->sites);
	if (in->source[0])
		printf("  %s", shown(&b, in->source));
	printf("%s\n", note);
	if (in->banner[0])
		printf("  %s\n", shown(&b, in->banner));
	printf("  %s\n", path);
	kmsg_strbuf_free(&b);
}

static int db_list(void)
{
	char dir[PATH_MAX], fb[PATH_MAX + 80];
	struct kmsg_docs_info info;
	struct installed *v;
	size_t n, i;
	int ret = 0, r;

	db_dir(dir, sizeof(dir));
	r = db_installed(dir, &v, &n);
	if (r) {
		fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(-r));
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (info_of(v[i].path, &info)) {
			ret = 1;
			continue;
		}
		print_info(&info, v[i].path, strcmp(info.release, v[i].release) ?
			   "  (not the release of its name: not used)" : "");
		kmsg_docs_info_free(&info);
	}
	if (!n)
		printf("no databases installed in %s: 'kmsg db install FILE' installs one\n",
		       dir);
	if (db_fallback(fb, sizeof(fb))) {
		if (info_of(fb, &info)) {
			ret = 1;
		} else {
			print_info(&info, fb, "  (kmsg.db: the fallback)");
			kmsg_docs_info_free(&info);
		}
	}
	installed_free(v, n);
	return ret;
}

/* Copy @from to @to through a temporary file in its directory */
static int copy_file(const char *from, const char *to)
{
	char *tmp = NULL, buf[65536];
	int in = -1, out = -1, ret = -1;
	ssize_t r;

	if (asprintf(&tmp, "%s.tmp.XXXXXX", to) < 0) {
		tmp = NULL;
		errno = ENOMEM;
		goto out;
	}
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, from, strerror(errno));
		goto out;
	}
	out = mkstemp(tmp);
	if (out < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, tmp, strerror(errno));
		goto out;
	}
	while ((r = read(in, buf, sizeof(buf))) > 0) {
		char *p = buf;

		while (r > 0) {
			ssize_t w = write(out, p, r);

			if (w < 0)
				goto wfail;
			p += w;
			r -= w;
		}
	}
	if (r < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, from, strerror(errno));
		goto out;
	}
	if (fchmod(out, 0644) || fsync(out) || close(out))
		goto wfail;
	out = -1;
	if (rename(tmp, to)) {
		fprintf(stderr, "%s: %s: %s\n", prog, to, strerror(errno));
		goto out;
	}
	ret = 0;
	goto out;
wfail:
	fprintf(stderr, "%s: %s: %s\n", prog, tmp, strerror(errno));
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (ret && tmp)
		unlink(tmp);
	free(tmp);
	return ret;
}

static int db_install(const char *file)
{
	char dir[PATH_MAX], path[PATH_MAX + 80];
	struct kmsg_docs_info info;
	struct kmsg_strbuf b = { 0 };
	bool replace;
	int ret = 1;

	if (info_of(file, &info))
		return 1;
	if (!info.release[0]) {
		fprintf(stderr, "%s: %s: the database names no kernel release: build it with 'kmsg-doc build-db --release RELEASE ...' (RELEASE as uname -r prints it)\n",
			prog, file);
		goto out;
	}
	if (!kmsg_release_ok(info.release)) {
		fprintf(stderr, "%s: %s: its release \"%s\" cannot name a file (a '/', a space, a control character, or over 64 bytes): not a kernel's release\n",
			prog, file, shown(&b, info.release));
		goto out;
	}
	if (info.sites <= 0) {
		fprintf(stderr, "%s: %s: the database of %s has no messages (table messages is empty): build it again from the kernel's vmlinux and modules\n",
			prog, file, info.release);
		goto out;
	}
	db_dir(dir, sizeof(dir));
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/%s.db", dir, info.release);
	replace = !access(path, F_OK);
	if (copy_file(file, path))
		goto out;
	printf("%s %s as %s\n", replace ? "replaced" : "installed",
	       info.release, path);
	ret = 0;
out:
	kmsg_strbuf_free(&b);
	kmsg_docs_info_free(&info);
	return ret;
}

static int db_remove(const char *release)
{
	char dir[PATH_MAX], path[PATH_MAX + 80];

	db_dir(dir, sizeof(dir));
	if (!kmsg_release_ok(release)) {
		fprintf(stderr, "%s: \"%s\" is not a kernel release ('kmsg db list' lists those installed)\n",
			prog, release);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s.db", dir, release);
	if (unlink(path)) {
		if (errno == ENOENT)
			fprintf(stderr, "%s: no database installed for %s in %s ('kmsg db list' lists those installed)\n",
				prog, release, dir);
		else
			fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return 1;
	}
	printf("removed %s (%s)\n", release, path);
	return 0;
}

int db_main(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
		usage_db(stdout);
		return 0;
	}
	if (!strcmp(sub, "list") && argc == 2)
		return db_list();
	if (!strcmp(sub, "install") && argc == 3)
		return db_install(argv[2]);
	if (!strcmp(sub, "remove") && argc == 3)
		return db_remove(argv[2]);
	usage_db(stderr);
	return 1;
}
