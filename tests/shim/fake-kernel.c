/*
 * A stand-in kernel for load tests (LD_PRELOAD, tests only): finit_module
 * and init_module succeed or fail as $FAKE_KERNEL_FAIL says ("mod:errno,…")
 * without touching the real kernel, record each insertion in
 * $FAKE_KERNEL_ROOT/inserted, and mark the module live in the fake root's
 * sys/module, where every /sys/module/ path is redirected — the way
 * kmod's own testsuite fakes a kernel.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *root(void)
{
	const char *r = getenv("FAKE_KERNEL_ROOT");
	return r && *r ? r : NULL;
}

/* "/sys/module/x" → "$FAKE_KERNEL_ROOT/sys/module/x" */
static const char *trap(const char *path, char *buf)
{
	if (!path || !root() || strncmp(path, "/sys/module/", 12) != 0)
		return path;
	if ((size_t)snprintf(buf, PATH_MAX, "%s%s", root(), path) >= PATH_MAX)
		return path;
	return buf;
}

#define NEXT(ret, name, ...)                                            \
	static ret (*next)(__VA_ARGS__);                                \
	if (!next)                                                      \
		*(void **)&next = dlsym(RTLD_NEXT, name)

int open(const char *path, int flags, ...)
{
	char buf[PATH_MAX];
	mode_t mode = 0;
	NEXT(int, "open", const char *, int, ...);

	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return next(trap(path, buf), flags, mode);
}

int open64(const char *path, int flags, ...)
{
	char buf[PATH_MAX];
	mode_t mode = 0;
	NEXT(int, "open64", const char *, int, ...);

	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return next(trap(path, buf), flags, mode);
}

FILE *fopen(const char *path, const char *mode)
{
	char buf[PATH_MAX];
	NEXT(FILE *, "fopen", const char *, const char *);

	return next(trap(path, buf), mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	char buf[PATH_MAX];
	NEXT(FILE *, "fopen64", const char *, const char *);

	return next(trap(path, buf), mode);
}

int stat(const char *path, struct stat *st)
{
	char buf[PATH_MAX];
	NEXT(int, "stat", const char *, struct stat *);

	return next(trap(path, buf), st);
}

int stat64(const char *path, struct stat64 *st)
{
	char buf[PATH_MAX];
	NEXT(int, "stat64", const char *, struct stat64 *);

	return next(trap(path, buf), st);
}

int access(const char *path, int mode)
{
	char buf[PATH_MAX];
	NEXT(int, "access", const char *, int);

	return next(trap(path, buf), mode);
}

DIR *opendir(const char *path)
{
	char buf[PATH_MAX];
	NEXT(DIR *, "opendir", const char *);

	return next(trap(path, buf));
}

/* The module's name from the file the kernel is handed. */
static void name_of_fd(int fd, char *name, size_t size)
{
	char link[64], path[PATH_MAX], *base, *dot;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	base = strrchr(path, '/');
	snprintf(name, size, "%s", base ? base + 1 : path);
	dot = strchr(name, '.');
	if (dot)
		*dot = '\0';
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
}

static int fake_insert(const char *name)
{
	const char *fail = getenv("FAKE_KERNEL_FAIL");
	char path[PATH_MAX];
	size_t len = strlen(name);
	FILE *f;

	if (!root()) {
		errno = EPERM;
		return -1;
	}
	/* FAKE_KERNEL_FAIL="mod_a:19,mod_b:1": errno 19 (ENODEV) for mod_a … */
	for (const char *p = fail; p && *p;) {
		const char *colon = strchr(p, ':');
		if (colon && (size_t)(colon - p) == len && strncmp(p, name, len) == 0) {
			errno = atoi(colon + 1);
			return -1;
		}
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	snprintf(path, sizeof(path), "%s/sys/module/%s/initstate", root(), name);
	if (access(path, F_OK) == 0) {
		errno = EEXIST;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/sys/module/%s", root(), name);
	mkdir(path, 0755);
	strcat(path, "/initstate");
	f = fopen(path, "w");
	if (f) {
		fputs("live\n", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/inserted", root());
	f = fopen(path, "a");
	if (f) {
		fprintf(f, "%s\n", name);
		fclose(f);
	}
	return 0;
}

long syscall(long number, ...)
{
	va_list ap;
	long a[6];
	NEXT(long, "syscall", long, ...);

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number == SYS_finit_module) {
		char name[PATH_MAX];
		name_of_fd((int)a[0], name, sizeof(name));
		return fake_insert(name);
	}
	if (number == SYS_init_module)
		return fake_insert("unknown");
	return next(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int init_module(void *image, unsigned long len, const char *params)
{
	(void)image;
	(void)len;
	(void)params;
	return fake_insert("unknown");
}

int finit_module(int fd, const char *params, int flags)
{
	char name[PATH_MAX];

	(void)params;
	(void)flags;
	name_of_fd(fd, name, sizeof(name));
	return fake_insert(name);
}
