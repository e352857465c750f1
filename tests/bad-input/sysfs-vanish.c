/*
 * The walk over a sysfs tree (modalias_sysfs_foreach) while a device goes
 * away, at a chosen moment: a helper of tests/bad-input/test-bad-input.sh.
 *
 *   sysfs-vanish ROOT MODE DEVPATH
 *
 * ROOT is a copy of a captured tree (tests/data/sysfs); DEVPATH's directory
 * is removed, whole, when the library
 *
 *   listed    stats DEVPATH/uevent (the walk listed the device and now
 *             looks at it): removed just before, so the check fails;
 *   checked   the same, removed just after: the check passed, the device
 *             directory is gone when it is read;
 *   enodev    opens DEVPATH/modalias: removed, and the open fails with
 *             ENODEV, as a read of an attribute of a deleted kernfs node does.
 *
 * The library's calls to stat() and open() come here through the linker's
 * --wrap (it is linked in statically, as libmodalias-internal.la), so the
 * moment is exact, not a race.  Output: "DEVPATH<TAB>MODALIAS" or
 * "DEVPATH<TAB>error: STRERROR" per device, the library's messages on
 * standard error; exit 0, or 2 after an error, 3 when the trigger never
 * fired.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libmodalias.h"

int __real_stat(const char *path, struct stat *st);
int __wrap_stat(const char *path, struct stat *st);
int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);

static const char *mode;
static char *target, *trigger; /* ROOT DEVPATH, and the file that fires */
static int fired;

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static void vanish(void)
{
	fired++;
	if (nftw(target, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0) {
		perror(target);
		exit(1);
	}
}

int __wrap_stat(const char *path, struct stat *st)
{
	int r;

	if (fired || strcmp(path, trigger) != 0 || strcmp(mode, "enodev") == 0)
		return __real_stat(path, st);
	if (strcmp(mode, "listed") == 0)
		vanish();
	r = __real_stat(path, st);
	if (strcmp(mode, "checked") == 0)
		vanish();
	return r;
}

int __wrap_open(const char *path, int flags, ...)
{
	mode_t m = 0;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		m = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (!fired && strcmp(mode, "enodev") == 0 && strcmp(path, trigger) == 0) {
		vanish();
		errno = ENODEV;
		return -1;
	}
	return __real_open(path, flags, m);
}

static void log_fn(void *data, int priority, const char *file, int line, const char *fn,
		   const char *format, va_list args)
{
	fputs("libmodalias: ", stderr);
	vfprintf(stderr, format, args);
}

static int errors;

static int one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	char *s;

	if (err < 0) {
		printf("%s\terror: %s\n", devpath, strerror(-err));
		errors++;
		return 0;
	}
	if (modalias_dev_format(dev, &s) < 0) {
		printf("%s\terror: cannot format\n", devpath);
		errors++;
		return 0;
	}
	printf("%s\t%s\n", devpath, s);
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	struct modalias_ctx *ctx;
	int r;

	if (argc != 4 || (strcmp(argv[2], "listed") != 0 && strcmp(argv[2], "checked") != 0 &&
			  strcmp(argv[2], "enodev") != 0)) {
		fprintf(stderr, "usage: %s ROOT listed|checked|enodev DEVPATH\n", argv[0]);
		return 1;
	}
	mode = argv[2];
	if (modalias_ctx_new(&ctx) < 0)
		return 1;
	modalias_ctx_set_log_fn(ctx, log_fn, NULL);
	if (modalias_ctx_set_sysfs_root(ctx, argv[1]) < 0)
		return 1;
	/* the paths as the library spells them */
	if (asprintf(&target, "%s%s", modalias_ctx_get_sysfs_root(ctx), argv[3]) < 0 ||
	    asprintf(&trigger, "%s/%s", target, strcmp(mode, "enodev") == 0 ? "modalias" : "uevent") < 0)
		return 1;
	r = modalias_sysfs_foreach(ctx, one, NULL);
	if (r < 0)
		printf("walk: %s\n", strerror(-r));
	modalias_ctx_unref(ctx);
	free(target);
	free(trigger);
	if (!fired)
		return 3;
	return r < 0 || errors ? 2 : 0;
}
