/*
 * shared/path-trust.c - the walk behind path-trust.h: a path opened one
 * component at a time from "/", every directory checked on the descriptor
 * that was opened, symlinks followed only where a trusted user made them.
 *
 * This file holds the trust policy and nothing else: it may not print,
 * allocate, or decide what a caller does with a refusal.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "path-trust.h"

#define WALK_DEPTH_MAX 128 /* directories open at once on the way down */
#define WALK_LINKS_MAX 40  /* symlinks followed in one walk (the kernel's own bound) */

struct walk {
	int fd[WALK_DEPTH_MAX];      /* fd[0] is "/" */
	size_t len[WALK_DEPTH_MAX];  /* strlen(real) with fd[i] on top */
	bool shared[WALK_DEPTH_MAX]; /* a (sticky) directory group or others may write to */
	unsigned int depth;
	unsigned int links;
	char real[PATH_MAX];         /* the real path walked so far, for messages */
	char rest[PATH_MAX];         /* what is left to walk */
	struct trust_why *why;
};

static bool uid_trusted(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

const char *trust_stat_reason(const struct stat *st, bool sticky_ok)
{
	if (!uid_trusted(st->st_uid))
		return geteuid() == 0 ? "not owned by root" : "owned by another user";
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(sticky_ok && S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX)))
		return "writable by group or others";
	return NULL;
}

static int refuse(struct walk *w, const char *name, const char *reason, int r)
{
	if (w->why) {
		const char *sep = strcmp(w->real, "/") == 0 || !name[0] ? "" : "/";
		size_t size = sizeof(w->why->text);

		/* the longest path with the longest name may be cut: say so */
		if (snprintf(w->why->text, size, "%s%s%s: %s", w->real, sep, name, reason) >= (int)size)
			memcpy(w->why->text + size - 4, "...", 4);
	}
	return r;
}

static int fail_errno(struct walk *w, const char *name, int r)
{
	return refuse(w, name, strerror(-r), r);
}

static void walk_pop(struct walk *w)
{
	if (w->depth <= 1)
		return;
	close(w->fd[--w->depth]);
	w->real[w->len[w->depth - 1]] = '\0';
}

static void walk_close(struct walk *w)
{
	while (w->depth > 0)
		close(w->fd[--w->depth]);
}

/* A directory opened (O_PATH) and stat'ed: checked, then walked into. */
static int walk_push(struct walk *w, int fd, const struct stat *st, const char *name)
{
	const char *reason = trust_stat_reason(st, true);
	size_t at = strlen(w->real);
	int r;

	if (reason)
		r = refuse(w, name, reason, -EPERM);
	else if (w->depth == WALK_DEPTH_MAX ||
		 (name[0] && snprintf(w->real + at, sizeof(w->real) - at, "%s%s", at > 1 ? "/" : "",
				      name) >= (int)(sizeof(w->real) - at)))
		r = fail_errno(w, name, -ENAMETOOLONG);
	else {
		w->fd[w->depth] = fd;
		/* the group is other users too: 1775 is as shared as 1777 */
		w->shared[w->depth] = (st->st_mode & (S_IWGRP | S_IWOTH)) != 0;
		w->len[w->depth++] = strlen(w->real);
		return 0;
	}
	w->real[at] = '\0';
	close(fd);
	return r;
}

/* LINKFD, an O_PATH descriptor of a symlink named NAME in the directory on
 * top: when a trusted user made it, its target goes in front of what is
 * left to walk (REMAINING, which may point into w->rest). */
static int walk_follow(struct walk *w, int linkfd, const struct stat *st, const char *name, const char *remaining)
{
	char target[PATH_MAX], rest[PATH_MAX];
	ssize_t n;

	if (++w->links > WALK_LINKS_MAX)
		return fail_errno(w, name, -ELOOP);
	/* in a directory others may write to, anyone could have put it there */
	if (w->shared[w->depth - 1] && !uid_trusted(st->st_uid))
		return refuse(w, name, "a symlink made by another user in a shared directory", -EPERM);
	n = readlinkat(linkfd, "", target, sizeof(target));
	if (n < 0)
		return fail_errno(w, name, -errno);
	if (n == 0 || (size_t)n >= sizeof(target))
		return fail_errno(w, name, n == 0 ? -ENOENT : -ENAMETOOLONG);
	target[n] = '\0';
	if ((size_t)snprintf(rest, sizeof(rest), "%s/%s", target, remaining) >= sizeof(rest))
		return fail_errno(w, name, -ENAMETOOLONG);
	memcpy(w->rest, rest, sizeof(rest));
	if (target[0] == '/')
		while (w->depth > 1)
			walk_pop(w);
	return 0;
}

/* The last component, opened as the caller asked, and its checks. */
static int walk_last(struct walk *w, const char *name, const char *remaining, int oflags, unsigned int flags)
{
	const char *reason;
	struct stat st;
	int top = w->fd[w->depth - 1], fd, r;

	fd = openat(top, name, oflags | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno, probe;

		if (e != ELOOP && e != ENOTDIR)
			return fail_errno(w, name, -e);
		/* O_NOFOLLOW met a symlink (ENOTDIR when O_DIRECTORY came first)? */
		probe = openat(top, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (probe < 0)
			return fail_errno(w, name, -e);
		if (fstat(probe, &st) < 0 || !S_ISLNK(st.st_mode)) {
			close(probe);
			return fail_errno(w, name, -e);
		}
		fd = probe;
	} else if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return fail_errno(w, name, r);
	}
	if (S_ISLNK(st.st_mode)) {
		if (!(flags & TRUST_FOLLOW))
			r = refuse(w, name, "a symlink", -ELOOP);
		else
			r = walk_follow(w, fd, &st, name, remaining);
		close(fd);
		return r < 0 ? r : 1; /* 1: walk on */
	}
	reason = trust_stat_reason(&st, false);
	if (reason)
		r = refuse(w, name, reason, -EPERM);
	else if ((flags & TRUST_DIRECTORY) && !S_ISDIR(st.st_mode))
		r = refuse(w, name, "not a directory", -ENOTDIR);
	else if ((flags & TRUST_REGULAR) && !S_ISREG(st.st_mode))
		r = refuse(w, name, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file",
			   S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL);
	else
		return fd;
	close(fd);
	return r;
}

/* One component that is not the last: into a directory, or a symlink's
 * target in front of the rest.  ".": nothing; "..": up, never above "/". */
static int walk_step(struct walk *w, const char *name, const char *remaining)
{
	struct stat st;
	int fd, r;

	if (strcmp(name, ".") == 0)
		return 0;
	if (strcmp(name, "..") == 0) {
		walk_pop(w);
		return 0;
	}
	fd = openat(w->fd[w->depth - 1], name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail_errno(w, name, -errno);
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return fail_errno(w, name, r);
	}
	if (S_ISLNK(st.st_mode)) {
		r = walk_follow(w, fd, &st, name, remaining);
		close(fd);
		return r;
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		return fail_errno(w, name, -ENOTDIR);
	}
	return walk_push(w, fd, &st, name);
}

static int walk_start(struct walk *w, const char *path)
{
	struct stat st;
	size_t at = 0;
	int fd;

	w->real[0] = '\0';
	if (path[0] != '/') {
		if (!getcwd(w->rest, sizeof(w->rest)))
			return fail_errno(w, path, -errno);
		at = strlen(w->rest);
	}
	if ((size_t)snprintf(w->rest + at, sizeof(w->rest) - at, "/%s", path) >= sizeof(w->rest) - at)
		return fail_errno(w, path, -ENAMETOOLONG);
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail_errno(w, "/", -errno);
	if (fstat(fd, &st) < 0) {
		int r = -errno;

		close(fd);
		return fail_errno(w, "/", r);
	}
	strcpy(w->real, "/");
	return walk_push(w, fd, &st, "");
}

/* The last component NAME, when the caller wants the directory holding it
 * (trust_open_parent()): a symlink there is followed (with TRUST_FOLLOW)
 * as by walk_last() (1: walk on); anything else, or nothing, leaves the
 * directory on top, which must not be shared: the caller makes and
 * replaces files in it (0). */
static int walk_parent(struct walk *w, const char *name, const char *remaining, unsigned int flags)
{
	int top = w->fd[w->depth - 1], fd, r;
	struct stat st;

	fd = openat(top, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!(flags & TRUST_FOLLOW))
			r = refuse(w, name, "a symlink", -ELOOP);
		else
			r = walk_follow(w, fd, &st, name, remaining);
		close(fd);
		return r < 0 ? r : 1;
	}
	r = fd < 0 && errno != ENOENT ? -errno : 0;
	if (fd >= 0)
		close(fd);
	if (r < 0)
		return fail_errno(w, name, r);
	/* only sticky shared directories are walked into (walk_push()) */
	if (w->shared[w->depth - 1] && !(flags & TRUST_STICKY_PARENT))
		return refuse(w, "", "writable by group or others", -EPERM);
	return 0;
}

/* The walk of PATH; the last component opened (walk_last()) or, with
 * PARENT, left to the caller, its directory on top of the walk. */
static int walk_path(struct walk *w, const char *path, int oflags, unsigned int flags, char *parent)
{
	int r = walk_start(w, path);

	while (r >= 0) {
		char name[NAME_MAX + 1];
		const char *p = w->rest, *end;
		size_t len;

		while (*p == '/')
			p++;
		if (!*p) {
			/* the path ends in a directory already walked ("/", "x/.."):
			 * open it again as the caller asked, and check it as the last */
			if (parent)
				return refuse(w, "", "a directory", -EISDIR);
			return walk_last(w, ".", "", oflags, flags);
		}
		end = strchrnul(p, '/');
		len = (size_t)(end - p);
		if (len > NAME_MAX)
			return fail_errno(w, "", -ENAMETOOLONG);
		memcpy(name, p, len);
		name[len] = '\0';
		while (*end == '/')
			end++;
		/* what is left, moved to the front (walk_follow rewrites it) */
		memmove(w->rest, end, strlen(end) + 1);
		if (w->rest[0] || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
			r = walk_step(w, name, w->rest);
			continue;
		}
		r = parent ? walk_parent(w, name, w->rest, flags) : walk_last(w, name, w->rest, oflags, flags);
		if (r != 1) {
			if (parent && r == 0)
				memcpy(parent, name, len + 1);
			return r;
		}
		r = 0; /* a symlink: walk its target */
	}
	return r;
}

int trust_open(const char *path, int oflags, unsigned int flags, struct trust_why *why)
{
	struct walk w = { .why = why };
	int r;

	if (!path || !path[0])
		return -EINVAL;
	r = walk_path(&w, path, oflags, flags, NULL);
	walk_close(&w);
	return r;
}

int trust_open_parent(const char *path, unsigned int flags, struct trust_parent *ret, struct trust_why *why)
{
	struct walk w = { .why = why };
	int r;

	if (!path || !path[0] || !ret)
		return -EINVAL;
	r = walk_path(&w, path, 0, flags, ret->name);
	if (r == 0) {
		/* the directory on top is the caller's now */
		ret->fd = w.fd[--w.depth];
		snprintf(ret->dir, sizeof(ret->dir), "%s", w.real);
	}
	walk_close(&w);
	return r;
}

int trust_openat(int dirfd, const char *shown, const char *name, int oflags, unsigned int flags,
		 struct trust_why *why)
{
	struct walk w = { .why = why, .depth = 1 };
	int r;

	if (!name || !name[0] || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return -EINVAL;
	snprintf(w.real, sizeof(w.real), "%s", shown ? shown : "");
	w.fd[0] = dirfd;
	r = walk_last(&w, name, "", oflags, flags & ~TRUST_FOLLOW);
	return r == 1 ? -ELOOP : r;
}
