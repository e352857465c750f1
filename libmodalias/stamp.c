/*
 * libmodalias - the identity of a module directory (its path, its device
 * and inode) and of a table's source files (device, inode, size, mtime,
 * ctime): recorded when a module directory is read (table.c), compared with the
 * directory and the files as they are now before an index cache of it is
 * believed (cache.c) and when a caller asks whether a table is current
 * (table.c).  Size and mtime alone are not an identity: two file systems
 * (two tmpfs mounts) hold files of the same inode number, size and time,
 * and one mounted after the other is unmounted has its device number too;
 * the change time, which no user sets, tells them apart.
 * It only stats files; it may not open or read them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "table-private.h"

int table_source_stamp(const char *dir, const char *name, struct source *src)
{
	char path[4096];
	struct stat st;

	memset(src, 0, sizeof(*src));
	snprintf(src->name, sizeof(src->name), "%s", name);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno; /* absent: all zero */
	src->size = (uint64_t)st.st_size;
	src->mtime_sec = (int64_t)st.st_mtim.tv_sec;
	src->mtime_nsec = (int64_t)st.st_mtim.tv_nsec;
	src->ctime_sec = (int64_t)st.st_ctim.tv_sec;
	src->ctime_nsec = (int64_t)st.st_ctim.tv_nsec;
	src->ino = (uint64_t)st.st_ino;
	src->dev = (uint64_t)st.st_dev;
	src->present = 1;
	return 0;
}

int table_sources_check(const char *dir, const struct source *src, uint32_t n, char *why, size_t whylen)
{
	for (uint32_t i = 0; dir && i < n; i++) {
		struct source now;
		int r = table_source_stamp(dir, src[i].name, &now);

		if (r < 0) {
			snprintf(why, whylen, "%s/%s: %s", dir, src[i].name, strerror(-r));
			return r;
		}
		if (memcmp(&now, &src[i], sizeof(now)) != 0) {
			snprintf(why, whylen, "%s/%s changed since it was read", dir, src[i].name);
			return -ESTALE;
		}
	}
	return 0;
}

void table_dir_stamp(const char *dir, struct dir_id *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (stat(dir, &st) == 0) {
		id->dev = (uint64_t)st.st_dev;
		id->ino = (uint64_t)st.st_ino;
	}
}

int table_dir_check(const char *dir, const char *recorded, const struct dir_id *id, char *why, size_t whylen)
{
	struct stat st;

	if (strcmp(dir, recorded) != 0) {
		if (recorded[0])
			snprintf(why, whylen, "built for another module directory, %s", recorded);
		else
			snprintf(why, whylen, "built for no module directory");
		return -ESTALE;
	}
	if (stat(dir, &st) < 0) {
		int r = -errno;

		snprintf(why, whylen, "%s: %s", dir, strerror(-r));
		return r;
	}
	if ((uint64_t)st.st_dev != id->dev || (uint64_t)st.st_ino != id->ino) {
		snprintf(why, whylen, "%s is another directory than the one it was built from", dir);
		return -ESTALE;
	}
	return 0;
}
