/*
 * shared/read-file.c - read_file(): a file read whole, bounded, its kind
 * checked before it is opened for reading, and opened without blocking.
 *
 * This file reads and nothing else: it may not print, log or exit, and
 * what a caller makes of a failure is the caller's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "read-file.h"

/* Reads in steps of at most this much: a size every kernel file that
 * wants aligned reads accepts (/proc/PID/pagemap reads 8-byte entries). */
#define STEP ((size_t)1 << 20)

/* The null device (1:3), which READ_FILE_NULL reads as an empty file */
static bool is_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

static int check_kind(const struct stat *st, size_t max, unsigned int flags)
{
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	if (!S_ISREG(st->st_mode) && !((flags & READ_FILE_NULL) && is_null(st)))
		return -EINVAL;
	/* a regular file that says it is too big is; one that says 0 (procfs)
	 * may still be, which the reads find out */
	if (S_ISREG(st->st_mode) && st->st_size > 0 && (uint64_t)st->st_size > (uint64_t)max)
		return -EFBIG;
	return 0;
}

/* READ_FILE_NO_KERNEL_FS: FD's file system is none of the kernel's own */
static int check_fs(int fd)
{
	struct statfs fs;

	if (fstatfs(fd, &fs) < 0)
		return -errno;
	switch ((unsigned long)fs.f_type) {
	case PROC_SUPER_MAGIC:
	case SYSFS_MAGIC:
	case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC:
	case SECURITYFS_MAGIC:
		return -EMEDIUMTYPE;
	default:
		return 0;
	}
}

/* PATH opened O_PATH (which has no effect on a FIFO or a device: no
 * driver's open() runs) and its kind checked (*ST): the descriptor, or a
 * negative errno. */
static int open_path_checked(const char *path, size_t max, unsigned int flags, struct stat *st)
{
	int pfd, r;

	pfd = open(path, O_PATH | O_CLOEXEC | (flags & READ_FILE_NO_LINK ? O_NOFOLLOW : 0));
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, st) < 0) {
		r = -errno;
	} else if (S_ISLNK(st->st_mode)) {
		/* READ_FILE_NO_LINK: a mask (a link to the null device) only */
		close(pfd);
		pfd = flags & READ_FILE_NULL ? open(path, O_PATH | O_CLOEXEC) : -1;
		if (pfd < 0)
			return -ELOOP;
		r = fstat(pfd, st) < 0 ? -errno : is_null(st) ? 0 : -ELOOP;
	} else {
		r = check_kind(st, max, flags);
	}
	if (r == 0 && (flags & READ_FILE_NO_KERNEL_FS))
		r = check_fs(pfd);
	if (r < 0) {
		close(pfd);
		return r;
	}
	return pfd;
}

/* PATH opened for reading once its kind is known (open_path_checked()),
 * then opened again through /proc/self/fd, which is that very file
 * whatever happens to PATH meanwhile.  Without /proc, PATH is opened again
 * and must be the same file (a file swapped in between is then opened, but
 * not read).  O_NONBLOCK: a device does not block a read (a FIFO never
 * gets here). */
static int open_checked(const char *path, size_t max, unsigned int flags, struct stat *st)
{
	char self[32];
	struct stat again;
	int pfd, fd, r;

	pfd = open_path_checked(path, max, flags, st);
	if (pfd < 0)
		return pfd;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT)
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	r = fd < 0 ? -errno : 0;
	close(pfd);
	if (r < 0)
		return r;
	if (fstat(fd, &again) < 0 || again.st_dev != st->st_dev || again.st_ino != st->st_ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

int read_file(const char *path, size_t max, unsigned int flags, char **ret, size_t *len)
{
	struct stat st = { 0 }; /* open_checked() fills it */
	char *buf = NULL;
	size_t cap, n = 0;
	int fd, r = 0;

	if (!path || !ret || max > SIZE_MAX / 4)
		return -EINVAL;
	fd = open_checked(path, max, flags, &st);
	if (fd < 0)
		return fd;
	/* the size the file gives, plus one byte to see its end in one read */
	cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	buf = malloc(cap + 1);
	if (!buf) {
		r = -ENOMEM;
		goto out;
	}
	for (;;) {
		size_t want;
		ssize_t got;

		if (n == cap) {
			char *more;

			/* n <= max here: the buffer grows to twice max at most */
			cap *= 2;
			more = realloc(buf, cap + 1);
			if (!more) {
				r = -ENOMEM;
				break;
			}
			buf = more;
		}
		want = cap - n < STEP ? cap - n : STEP;
		got = read(fd, buf + n, want);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			/* -EINVAL says "not a regular file" here */
			r = errno == EINVAL ? -EIO : -errno;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			r = -EFBIG;
			break;
		}
	}
out:
	close(fd);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[n] = '\0';
	*ret = buf;
	if (len)
		*len = n;
	return 0;
}

const char *file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "a file of an unknown kind";
}

int read_file_check(const char *path, unsigned int flags, const char **kind)
{
	struct stat st = { 0 };
	int pfd;

	if (kind)
		*kind = NULL;
	if (!path)
		return -EINVAL;
	pfd = open_path_checked(path, SIZE_MAX, flags, &st);
	if (pfd < 0) {
		/* what it is, when that is why: st is filled once the open went through */
		if (kind && (pfd == -EINVAL || pfd == -EISDIR) && st.st_mode)
			*kind = file_kind(st.st_mode);
		return pfd;
	}
	close(pfd);
	return 0;
}

const char *read_file_error(int r, size_t max, char *buf, size_t size)
{
	if (r == -EFBIG) {
		if (max >= ((size_t)1 << 20) && max % ((size_t)1 << 20) == 0)
			snprintf(buf, size, "larger than %zu MiB", max >> 20);
		else if (max >= 1024 && max % 1024 == 0)
			snprintf(buf, size, "larger than %zu KiB", max >> 10);
		else
			snprintf(buf, size, "larger than %zu bytes", max);
	} else if (r == -EINVAL) {
		snprintf(buf, size, "not a regular file");
	} else if (r == -EMEDIUMTYPE) {
		snprintf(buf, size, "a kernel file (procfs, sysfs…): reading may change it");
	} else {
		snprintf(buf, size, "%s", strerror(r < 0 ? -r : r));
	}
	return buf;
}
