/*
 * libmodalias - the device a path below the sysfs root leads to: a bus's,
 * a class's or dev/'s link ("class/net/eth0"), or a devpath, resolved
 * inside the root (modalias_sysfs_devpath()).
 *
 * The path is walked one component at a time from a descriptor of the
 * root: each directory is opened with openat(O_NOFOLLOW) from the one
 * before, and a link is never followed by the kernel but read and its
 * target put in place of it, as text, so that every ".." is taken against
 * the path walked so far.  A step above the root (a ".." at the root, an
 * absolute target) is refused, whatever it would lead back to; so is a
 * chain of more than SYSFS_LINKS_MAX links, or a walk of more than
 * SYSFS_STEPS_MAX directories entered (-ELOOP).  This file resolves; it may not
 * read attributes (sysfs.c, sysfs-driver.c) nor print.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libmodalias-private.h"

/* as the kernel's own bound (MAXSYMLINKS) */
#define SYSFS_LINKS_MAX 40
/* directories entered in all, re-walks for ".." included: a real sysfs
 * path takes a few hundred; links of "../" by the thousand would take
 * minutes of re-walking (-ELOOP) */
#define SYSFS_STEPS_MAX 4096

/* The directory the walk has reached: its descriptor and its path below
 * the root ("" for the root, else "/a/b") */
struct walk {
	int root;
	int dir;
	unsigned int steps;
	char path[PATH_MAX];
	size_t len;
};

static int walk_enter(struct walk *w, const char *name)
{
	size_t n = strlen(name);
	int fd;

	if (w->len + 1 + n >= sizeof(w->path))
		return -ENAMETOOLONG;
	if (++w->steps > SYSFS_STEPS_MAX)
		return -ELOOP;
	fd = openat(w->dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(w->dir);
	w->dir = fd;
	w->path[w->len++] = '/';
	memcpy(w->path + w->len, name, n + 1);
	w->len += n;
	return 0;
}

/* ".." of the directory reached: its path less the last component, walked
 * again from the root (never the kernel's "..", which a directory moved
 * meanwhile would take elsewhere); -EXDEV at the root */
static int walk_up(struct walk *w)
{
	char path[PATH_MAX], *save = NULL;
	int r = 0;

	if (w->len == 0)
		return -EXDEV;
	while (w->len > 0 && w->path[w->len - 1] != '/')
		w->len--;
	w->path[--w->len] = '\0';
	memcpy(path, w->path, w->len + 1);
	close(w->dir);
	w->len = 0;
	w->path[0] = '\0';
	if ((w->dir = fcntl(w->root, F_DUPFD_CLOEXEC, 3)) < 0)
		return -errno;
	for (char *c = strtok_r(path, "/", &save); c && r == 0; c = strtok_r(NULL, "/", &save))
		r = walk_enter(w, c);
	return r;
}

/* Puts the link NAME of the directory reached in place of itself: its
 * target before the rest of the path to walk, REST (in place) */
static int walk_link(struct walk *w, const char *name, char *rest, size_t rest_size)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(w->dir, name, target, sizeof(target));
	size_t tail = strlen(rest);

	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(target) || (size_t)n + 1 + tail >= rest_size)
		return -ENAMETOOLONG;
	if (n == 0)
		return -ENOENT;
	if (target[0] == '/')
		return -EXDEV; /* sysfs's own links are relative */
	memmove(rest + n + 1, rest, tail + 1);
	memcpy(rest, target, (size_t)n);
	rest[n] = '/';
	return 0;
}

/* Walks PATH (below the root) to the directory it leads to, into W */
static int walk_path(struct walk *w, const char *path)
{
	char rest[PATH_MAX], name[NAME_MAX + 1];
	size_t len = strlen(path);
	unsigned int links = 0;
	struct stat st;
	int r = 0;

	if (len >= sizeof(rest))
		return -ENAMETOOLONG;
	memcpy(rest, path, len + 1);
	while (r == 0) {
		const char *p = rest;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		n = strcspn(p, "/");
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(name, p, n);
		name[n] = '\0';
		memmove(rest, p + n, strlen(p + n) + 1);
		if (strcmp(name, ".") == 0)
			continue;
		if (strcmp(name, "..") == 0)
			r = walk_up(w);
		else if (fstatat(w->dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			r = -errno;
		else if (S_ISLNK(st.st_mode))
			r = ++links > SYSFS_LINKS_MAX ? -ELOOP : walk_link(w, name, rest, sizeof(rest));
		else if (!S_ISDIR(st.st_mode))
			r = -ENOTDIR; /* a file, a FIFO, a device node: nothing to walk into */
		else
			r = walk_enter(w, name);
	}
	return r;
}

MODALIAS_EXPORT int modalias_sysfs_devpath(struct modalias_ctx *ctx, const char *path, char **devpath)
{
	static const char devices[] = "/devices/";
	struct walk w = { .dir = -1 };
	int r;

	if (!ctx || !path || !devpath)
		return -EINVAL;
	w.root = open(modalias_ctx_get_sysfs_root(ctx), O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w.root < 0)
		return -errno;
	w.dir = fcntl(w.root, F_DUPFD_CLOEXEC, 3);
	r = w.dir < 0 ? -errno : walk_path(&w, path);
	if (r == 0 && strncmp(w.path, devices, strlen(devices)) != 0)
		r = -ENODEV;
	if (r == 0 && !(*devpath = strdup(w.path)))
		r = -ENOMEM;
	if (w.dir >= 0)
		close(w.dir);
	close(w.root);
	return r;
}
