/*
 * libmodalias - the cache directory kept to the module directories that
 * are: once a cache is written there, the caches of module directories
 * that are gone (a kernel removed, a scratch tree deleted) or are another
 * directory now (stamp.c's table_dir_check()) are removed, so that the
 * directory does not keep a cache of every kernel ever installed.
 *
 * Only what is surely a gone directory's cache goes: a regular file named
 * as caches are (cache_file_name()), whose header is this version's and
 * records an absolute path.  Another version's cache, or one of a relative
 * path (which would name another directory from another working
 * directory), is left.  The file removed is the one read: its device and
 * inode are compared with the name's just before unlinkat(); a cache
 * renamed over it in between by another process is lost, and rebuilt by
 * its next open, which is all a cache can lose.  "Gone" is as this
 * process sees the file system: a process in a mount namespace of its own
 * that hides a module directory removes its cache, which the host then
 * rebuilds (tens of milliseconds) at its next open.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache-private.h"

/* Whether NAME is a cache's name: "modalias-", 64 lower-case hex digits, ".idx" */
static bool cache_named(const char *name)
{
	static const char prefix[] = "modalias-", suffix[] = ".idx";
	size_t n = strlen(name);

	if (n != CACHE_NAME_MAX - 1 || strncmp(name, prefix, sizeof(prefix) - 1) != 0 ||
	    strcmp(name + n - (sizeof(suffix) - 1), suffix) != 0)
		return false;
	for (size_t i = sizeof(prefix) - 1; i < n - (sizeof(suffix) - 1); i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
			return false;
	return true;
}

/* The module directory the cache open on FD records (into DIR), and its
 * stamp: false when it is no cache of this version (the loader's own
 * check: cache_header_why_not()), or records no absolute path */
static bool cache_records(int fd, char *dir, size_t size, struct dir_id *id)
{
	struct cache_header h;
	ssize_t n = pread(fd, &h, sizeof(h), 0);

	if (n < 0 || cache_header_why_not(&h, (uint64_t)n) || h.dir >= h.pool_len ||
	    h.off[TABLE_ARRAY_POOL] > h.file_size || h.pool_len > h.file_size - h.off[TABLE_ARRAY_POOL])
		return false;
	n = pread(fd, dir, size - 1, (off_t)(h.off[TABLE_ARRAY_POOL] + h.dir));
	if (n <= 0)
		return false;
	dir[n] = '\0';
	if (strnlen(dir, (size_t)n) == (size_t)n || dir[0] != '/')
		return false; /* not NUL-terminated within PATH_MAX, or relative */
	id->dev = h.dir_dev;
	id->ino = h.dir_ino;
	return true;
}

void cache_prune(struct modalias_ctx *ctx, int dirfd, const char *shown, const char *keep)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unsigned int removed = 0;
	struct dirent *e;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		char dir[PATH_MAX], why[PATH_MAX + 64];
		struct stat st, now;
		struct dir_id id;
		int f, r;

		if (strcmp(e->d_name, keep) == 0 || !cache_named(e->d_name))
			continue;
		/* a regular file before it is opened (a device's open acts) */
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		f = openat(dirfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (f < 0)
			continue;
		r = fstat(f, &st) == 0 && S_ISREG(st.st_mode) && cache_records(f, dir, sizeof(dir), &id)
			    ? table_dir_check(dir, dir, &id, why, sizeof(why))
			    : 0;
		close(f);
		if (r != -ENOENT && r != -ENOTDIR && r != -ESTALE)
			continue;
		if (fstatat(dirfd, e->d_name, &now, AT_SYMLINK_NOFOLLOW) < 0 || now.st_dev != st.st_dev ||
		    now.st_ino != st.st_ino || unlinkat(dirfd, e->d_name, 0) < 0)
			continue;
		removed++;
		dbg(ctx, "%s/%s removed: the cache of %s, gone (%s)\n", shown, e->d_name, dir, why);
	}
	closedir(d);
	if (removed)
		info(ctx, "%s: %u index caches of module directories that are gone removed\n", shown, removed);
}
