// SPDX-License-Identifier: GPL-2.0
/*
 * Following /dev/kmsg: sequence numbers and the state file
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmsg_follow.h"
#include "kmsg_strbuf.h"

void kmsg_follow_resume(struct kmsg_follow *f, unsigned long long last)
{
	f->started = true;
	f->next = last + 1;
}

void kmsg_follow_overrun(struct kmsg_follow *f)
{
	if (!f->overrun)
		f->overruns++;
	f->overrun = true;
}

long long kmsg_follow_seq(struct kmsg_follow *f, unsigned long long seq,
			  unsigned long long *first_missed)
{
	unsigned long long gap = 0;

	if (f->started && seq < f->next)
		return KMSG_FOLLOW_SKIP;
	if (f->started)
		gap = seq - f->next;
	if (first_missed)
		*first_missed = f->next;
	/* a gap that large is no count: a seq of 2^63 and more is not read */
	if (gap > (unsigned long long)0x7fffffffffffffffLL)
		gap = 0x7fffffffffffffffLL;
	f->started = true;
	f->next = seq + 1;
	f->overrun = false;
	f->missed += gap;
	return (long long)gap;
}

int kmsg_boot_id_parse(const char *text, size_t len,
		       char out[KMSG_BOOT_ID_LEN])
{
	static const char hex[] = "0123456789abcdef";
	size_t i, k = 0;

	if (len && text[len - 1] == '\n')
		len--;
	for (i = 0; i < len; i++) {
		int v = kmsg_hexval(text[i]);

		if (text[i] == '-')
			continue;
		if (v < 0 || k == 32)
			return -1;
		out[k++] = hex[v];
	}
	if (k != 32)
		return -1;
	out[32] = '\0';
	return 0;
}

/* "NAME=value\n" at *@p (before @end): the value and its length */
static int field(const char **p, const char *end, const char *name,
		 const char **v, size_t *vlen)
{
	size_t n = strlen(name);
	const char *nl;

	if ((size_t)(end - *p) <= n || memcmp(*p, name, n) || (*p)[n] != '=')
		return -1;
	*v = *p + n + 1;
	nl = memchr(*v, '\n', end - *v);
	if (!nl)
		return -1;
	*vlen = nl - *v;
	*p = nl + 1;
	return 0;
}

int kmsg_follow_state_parse(const char *text, size_t len,
			    struct kmsg_follow_state *s, char *err,
			    size_t errlen)
{
	const char *p = text, *end = text + len, *v;
	unsigned long long seq = 0;
	size_t vlen, i;

	memset(s, 0, sizeof(*s));
	if (field(&p, end, "boot_id", &v, &vlen) ||
	    kmsg_boot_id_parse(v, vlen, s->boot_id)) {
		snprintf(err, errlen, "line 1: not \"boot_id=\" and a boot id");
		return -1;
	}
	if (field(&p, end, "seq", &v, &vlen) || !vlen || vlen > 20) {
		snprintf(err, errlen, "line 2: not \"seq=\" and a number");
		return -1;
	}
	for (i = 0; i < vlen; i++) {
		if (v[i] < '0' || v[i] > '9' ||
		    seq > (~0ULL - (unsigned int)(v[i] - '0')) / 10) {
			snprintf(err, errlen, "line 2: not \"seq=\" and a number");
			return -1;
		}
		seq = seq * 10 + (unsigned int)(v[i] - '0');
	}
	/* the next would wrap to 0: no /dev/kmsg gets there */
	if (seq == ~0ULL) {
		snprintf(err, errlen, "line 2: seq out of range");
		return -1;
	}
	if (p != end) {
		snprintf(err, errlen, "line 3: more than a boot id and a seq");
		return -1;
	}
	s->seq = seq;
	return 0;
}

int kmsg_follow_state_read(const char *path, struct kmsg_follow_state *s,
			   char *err, size_t errlen)
{
	char buf[256];
	ssize_t n;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	while (len < sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s", strerror(errno));
			close(fd);
			return -1;
		}
		len += n;
	}
	close(fd);
	if (len == sizeof(buf)) {
		snprintf(err, errlen, "larger than a state file");
		return -1;
	}
	return kmsg_follow_state_parse(buf, len, s, err, errlen);
}

int kmsg_follow_state_write(const char *path,
			    const struct kmsg_follow_state *s)
{
	char buf[128], *tmp;
	int fd, len, ret = 0;
	ssize_t n;

	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return -ENOMEM;
	len = snprintf(buf, sizeof(buf), "boot_id=%s\nseq=%llu\n", s->boot_id,
		       s->seq);
	/* a new file: not one a symlink in the directory points to */
	if (unlink(tmp) && errno != ENOENT) {
		ret = -errno;
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	n = write(fd, buf, len);
	if (n != len)
		ret = n < 0 ? -errno : -EIO;
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
out:
	free(tmp);
	return ret;
}
