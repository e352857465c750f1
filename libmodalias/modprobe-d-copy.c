/*
 * libmodalias - a modprobe configuration the caller names, checked and
 * copied before libkmod reads it.
 *
 * libkmod reads its configuration inside kmod_new(), before a log
 * function can be set, and says what it cannot parse on standard error as
 * it is: the file's name and the first word of the line.  It also opens
 * whatever it lists, so a FIFO named "x.conf" hangs it.  A configuration
 * named with -C may be anybody's, so it is read here first: each file that
 * libkmod would read (modprobe_d_list(): its order, its masking) must be a
 * regular file of at most READ_FILE_CONFIG_MAX bytes, and neither its name
 * nor the first word of any line may hold what a terminal takes as a
 * control.  Where another user may change them (a file or a directory on
 * the way not root's or this user's, or writable by others: trust_open()),
 * the bytes checked are then written, under the same names,
 * into a directory of this process's own (mode 0700, in $TMPDIR or /tmp),
 * and libkmod is handed that directory as /proc/self/fd/N (and a file
 * named as a path as /proc/self/fd/N/NAME: libkmod reads it whatever its
 * name, not only *.conf as in a directory): it reads what was checked,
 * whatever happens to the originals meanwhile.  Once libkmod has read it,
 * the copy's names are removed (nothing is left behind by a process
 * killed outright; but a file named as a path, whose path libkmod keeps,
 * stays while the libkmod context lives), and its descriptor is kept
 * (kmod_validate_resources() stats the paths libkmod was handed); the
 * originals' modification times tell when to read them again
 * (modprobe_d_copy_stale()).  A configuration as trusted as the system's
 * is handed to libkmod as it is, once checked: nobody else can change it
 * meanwhile, and no writable /tmp is needed (early in a boot there may be
 * none).  The system's configuration (no paths) is root's and is read by
 * libkmod itself.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmod-dl.h"
#include "libmodalias-private.h"
#include "path-trust.h"
#include "read-file.h"
#include "write-file.h"

struct modprobe_d_copy {
	int parent;           /* the directory it was made in */
	int dir;              /* the copy */
	char name[32];        /* its name in PARENT */
	char fd_path[32];     /* what libkmod is handed: /proc/self/fd/DIR */
	struct copied {
		char *name;   /* a name written in it */
		bool single;  /* a file named as a path */
	} *files;
	size_t n;
	char **kmod_paths;    /* FD_PATH, then FD_PATH/NAME of each file named
			       * as a path (libkmod's listing of a directory
			       * skips names but *.conf, *.alias; and libkmod
			       * reads one name once, so NAME must be the
			       * file's own) */
	size_t nkmod;
	char **paths;         /* the originals, and their stamps */
	struct timespec *stamps;
	size_t npaths;
};

/* modalias_log's default shows a control \xNN; here the byte is named */
static int refuse(struct modalias_ctx *ctx, const char *file, unsigned int line, const char *what, int r)
{
	if (line)
		err(ctx, "%s line %u: %s: libkmod would print it as it is; the modprobe configuration is not read\n",
		    file, line, what);
	else
		err(ctx, "%s: %s; the modprobe configuration is not read\n", file, what);
	return r;
}

/* Whether WORD (LEN bytes) holds what a terminal takes as a control */
static bool has_control(const char *word, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (terminal_control(word + i, len - i))
			return true;
	return false;
}

/* The number of the line where the first word (what libkmod quotes of a
 * line it cannot parse) of a line holding a terminal control starts; 0:
 * none.  Lines as libkmod reads them (freadline_wrapped()): a backslash
 * before a newline joins the next line on (a '#' there does not start a
 * comment), before another byte it is dropped, at the end of the file it
 * is read as 0xff (kmod 30; kmod 34 drops it); a line whose first byte is
 * '#' is a comment.  WORD: a buffer of LEN bytes. */
static unsigned int bad_line(const char *buf, size_t len, char *word)
{
	unsigned int no = 1, word_no = 1;
	size_t at = 0, wlen = 0; /* bytes of the line so far; of its first word */
	enum { BEFORE, IN, AFTER } state = BEFORE;

	for (size_t i = 0; i <= len; i++) {
		char c = i < len ? buf[i] : '\n';

		if (c == '\\' && i + 1 < len && buf[i + 1] == '\n') {
			i++;
			no++;
			continue;
		}
		if (c == '\\')
			c = i + 1 < len ? buf[++i] : (char)0xff;
		else if (c == '\n') {
			if (state != BEFORE && has_control(word, wlen))
				return word_no;
			no++;
			at = wlen = 0;
			state = BEFORE;
			continue;
		}
		if (at++ == 0 && c == '#')
			state = AFTER;
		if (state == AFTER)
			continue;
		if (c == ' ' || c == '\t') {
			state = state == IN ? AFTER : BEFORE;
			continue;
		}
		if (state == BEFORE)
			word_no = no;
		state = IN;
		word[wlen++] = c;
	}
	return 0;
}

/* PATH's text BUF (LEN bytes): 0, or -EBADMSG (logged) when a first word
 * holds a terminal control */
static int check_lines(struct modalias_ctx *ctx, const char *path, const char *buf, size_t len)
{
	char *word = malloc(len + 1);
	unsigned int line;

	if (!word)
		return -ENOMEM;
	line = bad_line(buf, len, word);
	free(word);
	if (line)
		return refuse(ctx, path, line, "a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word", -EBADMSG);
	return 0;
}

/* PATH read (at most MAX bytes, with read_file()'s FLAGS more) and
 * checked as libkmod will read it: 0 with its text in *BUF (LEN bytes), or
 * a logged error and *BUF NULL.  ABSENT_OK: a file libkmod reads no line
 * of (none, a directory, one this process may not open) is 0 with *BUF
 * NULL. */
static int read_checked(struct modalias_ctx *ctx, const char *path, size_t max, unsigned int flags,
			bool absent_ok, char **buf, size_t *len)
{
	char why[64];
	int r;

	*buf = NULL;
	r = read_file(path, max, READ_FILE_NULL | READ_FILE_NO_KERNEL_FS | flags, buf, len);
	if (r >= 0) {
		r = check_lines(ctx, path, *buf, *len);
	} else if (absent_ok && (r == -ENOENT || r == -ENOTDIR || r == -EACCES || r == -EPERM || r == -EISDIR)) {
		r = 0;
	} else if (r == -ELOOP && (flags & READ_FILE_NO_LINK)) {
		r = refuse(ctx, path, 0,
			   "a link where another user may change the configuration: not followed (only a link to "
			   "/dev/null, a mask, is; name the file it points to)", r);
	} else if (r == -EINVAL) {
		r = refuse(ctx, path, 0, "not a regular file (libkmod would open it as it is: a FIFO hangs it)", r);
	} else {
		/* one too big to check is not read past the check either */
		r = refuse(ctx, path, 0, read_file_error(r, max, why, sizeof(why)), r);
	}
	if (r < 0) {
		free(*buf);
		*buf = NULL;
	}
	return r;
}

/* One file checked, then written into the copy */
static int copy_file(struct modalias_ctx *ctx, struct modprobe_d_copy *c, const struct modprobe_d_file *f)
{
	struct copied *files;
	char *buf = NULL;
	size_t len;
	int r, fd;

	if (has_control(f->name, strlen(f->name)))
		return refuse(ctx, f->path, 0, "a control, invisible or bidirectional character, or a byte that is no UTF-8, in the file's name", -EBADMSG);
	/* one another user may change: a link there could name a file that
	 * user may not read (root would copy it) */
	r = read_checked(ctx, f->path, READ_FILE_CONFIG_MAX, c->dir >= 0 ? READ_FILE_NO_LINK : 0, false, &buf, &len);
	if (r < 0 || c->dir < 0) {
		free(buf); /* refused; or checked, and trusted: not copied */
		return r;
	}
	files = realloc(c->files, (c->n + 1) * sizeof(*c->files));
	if (files)
		c->files = files;
	if (!files || !(c->files[c->n].name = strdup(f->name))) {
		free(buf);
		return -ENOMEM;
	}
	c->files[c->n].single = f->single;
	fd = openat(c->dir, f->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	r = fd < 0 ? -errno : write_all(fd, buf, len);
	if (fd >= 0) {
		c->n++; /* created: removed at the end */
		if (close(fd) < 0 && r == 0)
			r = -errno;
	} else {
		free(c->files[c->n].name);
	}
	free(buf);
	if (r < 0)
		err(ctx, "cannot copy %s for libkmod: %s\n", f->path, strerror(-r));
	return r;
}

/* The copy's directory: made, opened without following a link, and
 * checked to be this process's alone (nobody else can add a file) */
static int copy_dir(struct modalias_ctx *ctx, struct modprobe_d_copy *c)
{
	const char *tmp = secure_getenv("TMPDIR");
	char path[PATH_MAX];
	struct stat st;

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	c->parent = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->parent < 0 || snprintf(path, sizeof(path), "%s/modalias-modprobe.d-XXXXXX", tmp) >= (int)sizeof(path) ||
	    !mkdtemp(path)) {
		int r = c->parent < 0 || errno != 0 ? -errno : -ENAMETOOLONG;

		if (strcmp(tmp, "/tmp") != 0)
			err(ctx,
			    "cannot make a directory for the modprobe configuration in $TMPDIR, %s: %s"
			    " (set TMPDIR to a writable directory)\n",
			    tmp, strerror(-r));
		else
			err(ctx, "cannot make a directory for the modprobe configuration in /tmp: %s\n", strerror(-r));
		return r;
	}
	snprintf(c->name, sizeof(c->name), "%s", strrchr(path, '/') + 1);
	c->dir = openat(c->parent, c->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->dir < 0 || fstat(c->dir, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 07777) != 0700) {
		err(ctx, "%s/%s: not the directory just made for the modprobe configuration\n", tmp, c->name);
		if (c->dir >= 0)
			close(c->dir);
		c->dir = -1;
		c->name[0] = '\0'; /* someone else's now: not removed */
		return -EPERM;
	}
	snprintf(c->fd_path, sizeof(c->fd_path), "/proc/self/fd/%d", c->dir);
	if (access(c->fd_path, R_OK | X_OK) < 0) {
		int r = -errno;

		err(ctx, "cannot hand libkmod the checked modprobe configuration: %s: %s (is /proc mounted?)\n", c->fd_path,
		    strerror(-r));
		return r;
	}
	return 0;
}

void modprobe_d_copy_free(struct modprobe_d_copy *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		if (c->dir >= 0)
			unlinkat(c->dir, c->files[i].name, 0);
		free(c->files[i].name);
	}
	free(c->files);
	if (c->dir >= 0)
		close(c->dir);
	if (c->parent >= 0) {
		if (c->name[0])
			unlinkat(c->parent, c->name, AT_REMOVEDIR);
		close(c->parent);
	}
	for (size_t i = 0; c->kmod_paths && i < c->nkmod; i++)
		free(c->kmod_paths[i]);
	free(c->kmod_paths);
	/* npaths is counted before paths is allocated */
	for (size_t i = 0; c->paths && i < c->npaths; i++)
		free(c->paths[i]);
	free(c->paths);
	free(c->stamps);
	free(c);
}

static struct timespec stamp_of(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return (struct timespec){ 0, 0 };
	return st.st_mtim;
}

bool modprobe_d_copy_stale(const struct modprobe_d_copy *c)
{
	for (size_t i = 0; c && i < c->npaths; i++) {
		struct timespec t = stamp_of(c->paths[i]);

		if (t.tv_sec != c->stamps[i].tv_sec || t.tv_nsec != c->stamps[i].tv_nsec)
			return true;
	}
	return false;
}

static bool trusted_path(const char *path)
{
	int fd = trust_open(path, O_PATH, TRUST_FOLLOW, NULL);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Whether PATHS and every one of their FILES are as trusted as the
 * system's configuration (root's or this user's, and nobody else may write
 * them or a directory above them: trust_open()): nobody else can change
 * them between the check and libkmod's reading, so they need no copy (and
 * no writable /tmp, which early in a boot there may not be).  A path that
 * holds a control anywhere (a directory's name too) is copied all the
 * same: libkmod prints the path of a file it cannot parse as it is, and
 * the copy's is /proc/self/fd/N. */
static bool trusted(const char *const *paths, const struct modprobe_d_file *files, size_t n)
{
	for (size_t i = 0; paths[i]; i++)
		if (has_control(paths[i], strlen(paths[i])) || !trusted_path(paths[i]))
			return false;
	for (size_t i = 0; i < n; i++)
		if (has_control(files[i].path, strlen(files[i].path)) || !trusted_path(files[i].path))
			return false;
	return true;
}

/* The copy's names removed once libkmod has read it, so that nothing is
 * left behind, even by a process killed outright.  LibKmod keeps the
 * paths it was handed and compares their modification times with those
 * it read (kmod_validate_resources()): the descriptor keeps the
 * directory, and its time, which the removals change, is put back.  A
 * file named as a path is handed as FD_PATH/NAME (libkmod reads a name
 * once, whatever the directory: NAME must be the file's own), so it stays,
 * and the directory with it, until modprobe_d_copy_free(). */
static void copy_unlink(struct modprobe_d_copy *c)
{
	struct stat st;
	size_t kept = 0;
	bool stamped;

	if (c->dir < 0)
		return;
	stamped = fstat(c->dir, &st) == 0;
	for (size_t i = 0; i < c->n; i++) {
		if (c->files[i].single) {
			c->files[kept++] = c->files[i];
			continue;
		}
		unlinkat(c->dir, c->files[i].name, 0);
		free(c->files[i].name);
	}
	c->n = kept;
	if (kept == 0 && c->name[0]) {
		unlinkat(c->parent, c->name, AT_REMOVEDIR);
		c->name[0] = '\0';
	}
	if (stamped) {
		struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, st.st_mtim };

		futimens(c->dir, times);
	}
}

/* The copy of PATHS, made and filled (none when they are trusted) */
static int copy_new(struct modalias_ctx *ctx, const char *const *paths, struct modprobe_d_copy **ret)
{
	struct modprobe_d_copy *c = calloc(1, sizeof(*c));
	struct modprobe_d_file *files = NULL;
	size_t n = 0;
	int r;

	if (!c)
		return -ENOMEM;
	c->parent = c->dir = -1;
	while (paths[c->npaths])
		c->npaths++;
	c->paths = calloc(c->npaths, sizeof(*c->paths));
	c->stamps = calloc(c->npaths, sizeof(*c->stamps));
	r = c->paths && c->stamps ? 0 : -ENOMEM;
	/* the stamps first: a change while copying is seen at the next check */
	for (size_t i = 0; r == 0 && i < c->npaths; i++) {
		c->stamps[i] = stamp_of(paths[i]);
		if (!(c->paths[i] = strdup(paths[i])))
			r = -ENOMEM;
	}
	if (r == 0)
		r = modprobe_d_list(paths, &files, &n);
	if (r == 0 && !trusted(paths, files, n))
		r = copy_dir(ctx, c);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = copy_file(ctx, c, &files[i]);
	if (r == 0 && !(c->kmod_paths = calloc(n + c->npaths + 2, sizeof(*c->kmod_paths))))
		r = -ENOMEM;
	/* trusted: libkmod reads them as they are, as the system's */
	for (size_t i = 0; r == 0 && c->dir < 0 && i < c->npaths; i++)
		if (!(c->kmod_paths[c->nkmod++] = strdup(paths[i])))
			r = -ENOMEM;
	if (r == 0 && c->dir >= 0 && !(c->kmod_paths[c->nkmod++] = strdup(c->fd_path)))
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && c->dir >= 0 && i < n; i++)
		if (files[i].single && asprintf(&c->kmod_paths[c->nkmod++], "%s/%s", c->fd_path, files[i].name) < 0) {
			c->kmod_paths[--c->nkmod] = NULL;
			r = -ENOMEM;
		}
	modprobe_d_list_free(files, n);
	if (r < 0) {
		modprobe_d_copy_free(c);
		return r;
	}
	*ret = c;
	return 0;
}

/* DIR/modules.softdep and DIR/modules.weakdep (kmod >= 33), which libkmod
 * reads inside kmod_new() whatever the configuration, as modprobe.d files:
 * a module directory the caller names may be anybody's too.  They are not
 * copied (libkmod reads them in DIR), so they are only checked: a file
 * swapped in after the check is still read. */
static int check_softdep(struct modalias_ctx *ctx, const char *dir)
{
	static const char *const names[] = { "modules.softdep", "modules.weakdep" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *path, *buf;
		size_t len;
		int r;

		if (asprintf(&path, "%s/%s", dir, names[i]) < 0)
			return -ENOMEM;
		r = read_checked(ctx, path, READ_FILE_TABLE_MAX, 0, true, &buf, &len);
		free(buf);
		free(path);
		if (r < 0)
			return r;
	}
	return 0;
}

int modprobe_d_kmod_new(struct modalias_ctx *ctx, const char *dir, const char *const *paths,
			struct kmod_ctx **kctx, struct modprobe_d_copy **copy)
{
	struct modprobe_d_copy *c = NULL;
	int r;

	*kctx = NULL;
	*copy = NULL;
	if (dir && (r = check_softdep(ctx, dir)) < 0)
		return r;
	/* the system's (root's), or none at all: as they are */
	if (paths && paths[0]) {
		r = copy_new(ctx, paths, &c);
		if (r < 0)
			return r;
		*kctx = kmod_dl.kmod_new(dir, (const char *const *)c->kmod_paths);
		copy_unlink(c); /* read: its names are no longer needed */
	} else {
		*kctx = kmod_dl.kmod_new(dir, paths);
	}
	if (!*kctx) {
		modprobe_d_copy_free(c);
		return -ENOMEM;
	}
	*copy = c;
	return 0;
}
