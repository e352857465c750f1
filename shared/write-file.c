/*
 * shared/write-file.c - write_file_replace(): a file replaced atomically,
 * in a directory that passed the trust walk, never written through a link
 * nor into a FIFO or a device; and write_all(), a buffer written whole.
 *
 * This file writes and nothing else: it may not print, log or exit.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "write-file.h"

int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* "DIR/NAME: REASON" into WHY */
static int say(const struct trust_parent *at, const char *reason, int r, struct trust_why *why)
{
	size_t size = sizeof(why->text);

	if (why && snprintf(why->text, size, "%s%s%s: %s", at->dir, strcmp(at->dir, "/") ? "/" : "", at->name,
			    reason) >= (int)size)
		memcpy(why->text + size - 4, "...", 4);
	return r;
}

/* What is at NAME now: nothing, or a regular file (its kind looked at
 * first, without opening it) trusted as trust_open() trusts one. */
static int check_existing(const struct trust_parent *at, struct trust_why *why)
{
	struct stat st;
	int fd;

	if (fstatat(at->fd, at->name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		int e = errno;

		return e == ENOENT ? 0 : say(at, strerror(e), -e, why);
	}
	if (S_ISDIR(st.st_mode))
		return say(at, "a directory", -EISDIR, why);
	if (!S_ISREG(st.st_mode))
		return say(at, "not a regular file", -EINVAL, why);
	fd = trust_openat(at->fd, at->dir, at->name, O_PATH, TRUST_REGULAR, why);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

void write_temp_name(char *buf, size_t size, const char *name)
{
	uint64_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		r = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 40;
	}
	snprintf(buf, size, ".%.200s.%016llx", name, (unsigned long long)r);
}

/* A new file in AT's directory holding DATA, flushed; its name in TMP
 * (NAME_MAX + 1 bytes). */
static int write_temp(const struct trust_parent *at, const char *data, size_t len, mode_t mode, char *tmp)
{
	int fd = -1, r;

	/* a name taken is another writer's (random: nobody can take them all) */
	for (unsigned int tries = 0; fd < 0; tries++) {
		write_temp_name(tmp, NAME_MAX + 1, at->name);
		fd = openat(at->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && (errno != EEXIST || tries >= 8))
			return -errno;
	}
	r = write_all(fd, data, len);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		unlinkat(at->fd, tmp, 0);
	return r;
}

int write_file_replace(const char *path, const void *data, size_t len, mode_t mode, struct trust_why *why)
{
	struct trust_parent at;
	struct stat st;
	int r;

	/* a FIFO or a device named through a link the walk cannot follow by
	 * its path (/dev/stdout to a pipe: "pipe:[N]"), said as what it is;
	 * stat() opens nothing, and the walk below decides */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (why)
			snprintf(why->text, sizeof(why->text), "%s", S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	/* a sticky /tmp will do: the file is made anew (O_EXCL) and renamed */
	r = trust_open_parent(path, TRUST_FOLLOW | TRUST_STICKY_PARENT, &at, why);
	if (r < 0)
		return r;
	r = check_existing(&at, why);
	if (r == 0) {
		char tmp[NAME_MAX + 1];

		r = write_temp(&at, data, len, mode, tmp);
		if (r == 0 && renameat(at.fd, tmp, at.fd, at.name) < 0) {
			r = -errno;
			unlinkat(at.fd, tmp, 0);
		}
		if (r < 0)
			say(&at, strerror(-r), r, why);
	}
	close(at.fd);
	return r;
}
