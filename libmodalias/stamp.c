/*
 * libmodalias - the identity of a table's source files (size, mtime,
 * inode): recorded when a module directory is read (table.c), compared
 * with the files as they are now before an index cache of it is believed
 * (cache.c) and when a caller asks whether a table is current (table.c).  It only stats files; it may not open or read them.
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
	src->ino = (uint64_t)st.st_ino;
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
