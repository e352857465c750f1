/*
 * shared/path-trust.h - whether a file may be acted on by a privileged
 * process: the one home of that policy, compiled into the library (index
 * caches) and the front ends (handlers, the control socket, snapshot -o).
 *
 * A path is trusted when the file and every directory met on the way to it
 * (the targets of symlinks included) are owned by root or by the effective
 * uid, and none is writable by group or others.  Only a directory *above*
 * the last one may be writable by group or others when it is sticky (/tmp,
 * a 1775 directory): nobody may rename or remove another's entry there;
 * such a directory is shared, and a symlink met in it must itself be owned
 * by a trusted user (the kernel's protected_symlinks rule).  The walk opens
 * each component with openat(O_NOFOLLOW) from the descriptor of the one
 * before and checks what it opened with fstat(), so the caller gets the
 * very descriptor that was checked: nothing can be swapped between the
 * check and the use.
 *
 * These functions never print, allocate or exit; what was refused and why is
 * written into the caller's struct trust_why.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>

/* "PATH: reason", for one message line */
struct trust_why {
	char text[PATH_MAX + 128];
};

enum {
	/* the last component may be a symlink (its target is checked too);
	 * without this flag a symlink there is refused with ELOOP */
	TRUST_FOLLOW = 1u << 0,
	TRUST_DIRECTORY = 1u << 1, /* the last component must be a directory */
	TRUST_REGULAR = 1u << 2,   /* the last component must be a regular file */
	/* trust_open_parent(): the directory may be a shared sticky one (/tmp)
	 * for a caller that only ever makes a new file there (O_EXCL) and
	 * renames it over the name: in a sticky directory nobody else can
	 * rename, remove or swap root's files, and a rename replaces whatever
	 * another user put at the name without following it */
	TRUST_STICKY_PARENT = 1u << 3,
};

/* Why a file or a directory with this stat is not trusted, or NULL when it
 * is.  sticky_ok: a sticky directory writable by others will do (for
 * directories above the last one only). */
const char *trust_stat_reason(const struct stat *st, bool sticky_ok);

/* Opens PATH (absolute, or relative to the working directory, whose own
 * path is checked too) with OFLAGS (O_NOFOLLOW and O_CLOEXEC are added;
 * O_PATH, O_DIRECTORY, O_RDONLY, O_NONBLOCK … as the caller needs), after
 * checking it and every directory above it.  Returns the descriptor;
 * -EPERM when something on the way is not trusted; -ELOOP for a symlink
 * as the last component without TRUST_FOLLOW (or too many symlinks);
 * -ENOTDIR/-EISDIR/-EINVAL for the wrong kind of file; another negative
 * errno when a component cannot be opened.  On failure WHY (may be NULL)
 * says which path and why. */
int trust_open(const char *path, int oflags, unsigned int flags, struct trust_why *why);

/* What trust_open_parent() opens: the directory that holds a path's last
 * component, and that component's name in it. */
struct trust_parent {
	int fd;                  /* the directory, O_PATH: for the *at() calls */
	char dir[PATH_MAX];      /* its real path, for messages */
	char name[NAME_MAX + 1]; /* the last component (it may not exist) */
};

/* For a caller that makes or replaces PATH: the directory that holds it,
 * checked as by trust_open(), and not shared (writable by group or others,
 * even sticky: nobody else may put or swap a file there), unless
 * TRUST_STICKY_PARENT allows a sticky one.  A symlink as
 * the last component is followed with TRUST_FOLLOW, when trusted as
 * trust_open() trusts one (then its target's directory is returned), and
 * refused with -ELOOP without; whether the last component exists, and
 * what it is, is the caller's to check (trust_openat()).  Returns 0 and
 * fills *RET (the caller closes RET->fd); -EISDIR when PATH ends in a
 * directory ("/", "..", "x/"); trust_open()'s errors otherwise. */
int trust_open_parent(const char *path, unsigned int flags, struct trust_parent *ret, struct trust_why *why);

/* The same for NAME (one component: no '/', not "." or "..") inside DIRFD,
 * a directory already opened and checked by trust_open(); SHOWN is how
 * DIRFD's path is named in WHY.  A symlink is never followed here (-ELOOP):
 * give the whole path to trust_open() to follow one. */
int trust_openat(int dirfd, const char *shown, const char *name, int oflags, unsigned int flags,
		 struct trust_why *why);
