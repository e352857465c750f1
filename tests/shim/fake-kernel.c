/*
 * A stand-in kernel for load tests (LD_PRELOAD, tests only): finit_module
 * and init_module succeed or fail as $FAKE_KERNEL_FAIL says ("mod:errno,…")
 * without touching the real kernel, record each insertion in
 * $FAKE_KERNEL_ROOT/inserted, and mark the module live in the fake root's
 * sys/module, where every /sys/module/ path is redirected — the way
 * kmod's own testsuite fakes a kernel.  $FAKE_KERNEL_PLUG
 * ("mod=DIR=MODALIAS[@MS];…") makes a device appear when a module is
 * inserted, as a host controller's driver makes the devices behind it
 * appear: the directory DIR (in a copied sysfs tree) with its uevent and
 * modalias, $FAKE_KERNEL_PLUG_DELAY_MS (and MS more) later.  An empty
 * MODALIAS makes a device without one; a DIR with "/scsi_host/" in it is
 * a SCSI host's (its uevent's SUBSYSTEM=scsi_host).
 * $FAKE_KERNEL_INSERT_MS makes each insertion take that long ("NAME:MS,…":
 * those named), and records it in $FAKE_KERNEL_ROOT/times ("NAME START
 * END", monotonic microseconds): parallel loads can be seen.
 * $FAKE_KERNEL_UEVENT_GROUP=N sends the uevents a kernel would, to that
 * netlink group: a module's own add once it is inserted, a plugged
 * device's add with its MODALIAS; each is recorded in
 * $FAKE_KERNEL_ROOT/uevents ("MICROSECONDS DEVPATH", monotonic).
 * $FAKE_KERNEL_SLOW_DIR ("NAME:MS") makes opendir() of a directory named
 * NAME take MS (a long sysfs walk), recorded in the times file as
 * "opendir:NAME START END".  $FAKE_KERNEL_SYSFS=DIR: the files under DIR
 * are on sysfs, as fstatfs() tells.
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
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

static long long now_us(void);
static void slow_dir(const char *path);

DIR *opendir(const char *path)
{
	char buf[PATH_MAX];
	NEXT(DIR *, "opendir", const char *);

	slow_dir(path);
	return next(trap(path, buf));
}

/* A "NAME:NUMBER,…" list (the variables' format): whether it names NAME,
 * and its NUMBER */
static bool listed(const char *list, const char *name, int *number)
{
	size_t len = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *colon = strchr(p, ':');
		if (colon && (size_t)(colon - p) == len && strncmp(p, name, len) == 0) {
			*number = atoi(colon + 1);
			return true;
		}
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return false;
}

/* $FAKE_KERNEL_SLOW_DIR: opendir() of that directory takes its time */
static void slow_dir(const char *path)
{
	const char *base = strrchr(path, '/');
	long long start;
	char times[PATH_MAX];
	int ms;
	FILE *f;

	base = base ? base + 1 : path;
	if (!root() || !listed(getenv("FAKE_KERNEL_SLOW_DIR"), base, &ms))
		return;
	start = now_us();
	usleep((useconds_t)ms * 1000);
	snprintf(times, sizeof(times), "%s/times", root());
	if ((f = fopen(times, "a"))) {
		fprintf(f, "opendir:%s %lld %lld\n", base, start, now_us());
		fclose(f);
	}
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

/* $FAKE_KERNEL_SYSFS=DIR: a file under DIR (a copied tree standing in for
 * /sys) is on sysfs, as fstatfs() tells it, where the agent writes
 * "add" only on sysfs (--coldplug=trigger) */
static void as_sysfs(int fd, struct statfs *fs)
{
	const char *dir = getenv("FAKE_KERNEL_SYSFS");
	char link[64], path[PATH_MAX];
	size_t n = dir ? strlen(dir) : 0;
	ssize_t len;

	if (!n)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len <= 0)
		return;
	path[len] = '\0';
	if (strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		fs->f_type = SYSFS_MAGIC;
}

int fstatfs(int fd, struct statfs *fs)
{
	NEXT(int, "fstatfs", int, struct statfs *);
	int r = next(fd, fs);

	if (r == 0)
		as_sysfs(fd, fs);
	return r;
}

/* An add uevent of DEVPATH (SUBSYSTEM, ALIAS or NULL) to
 * $FAKE_KERNEL_UEVENT_GROUP, recorded in the root's uevents (no
 * allocation: this may run in a forked child) */
static void fake_uevent(const char *devpath, const char *subsystem, const char *alias)
{
	const char *g = getenv("FAKE_KERNEL_UEVENT_GROUP");
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	char msg[PATH_MAX * 2 + 512], path[PATH_MAX];
	long long t = now_us();
	int fd, n;

	if (!g || atoi(g) < 1 || atoi(g) > 32 || !root())
		return;
	to.nl_groups = 1u << (atoi(g) - 1);
	n = snprintf(msg, sizeof(msg), "add@%s%cACTION=add%cDEVPATH=%s%cSUBSYSTEM=%s%cSEQNUM=%lld%c", devpath, 0, 0,
		     devpath, 0, subsystem, 0, t, 0);
	if (alias)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "MODALIAS=%s%c", alias, 0);
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return;
	if (sendto(fd, msg, (size_t)n, 0, (struct sockaddr *)&to, sizeof(to)) == n) {
		snprintf(path, sizeof(path), "%s/uevents", root());
		n = snprintf(msg, sizeof(msg), "%lld %s\n", t, devpath);
		close(fd);
		if ((fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) >= 0 && write(fd, msg, (size_t)n) < 0)
			n = 0;
	}
	if (fd >= 0)
		close(fd);
}

/* DIR with its uevent and modalias files for ALIAS (no allocation: this
 * may run in a child forked by a threaded program) */
static void plug_device(char *dir, const char *alias)
{
	char path[PATH_MAX + 16], text[PATH_MAX + 16];
	int fd, n;

	for (char *q = dir + 1; (q = strchr(q, '/')); q++) {
		*q = '\0';
		mkdir(dir, 0755);
		*q = '/';
	}
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/modalias", dir);
	n = snprintf(text, sizeof(text), "%s\n", alias);
	if (*alias && (fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
		if (write(fd, text, (size_t)n) < 0)
			n = 0;
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/uevent", dir);
	n = *alias ? snprintf(text, sizeof(text), "MODALIAS=%s\n", alias) : 0;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
		if (write(fd, text, (size_t)n) < 0)
			n = 0;
		close(fd);
	}
	if (strstr(dir, "/devices/"))
		fake_uevent(strstr(dir, "/devices/"), strstr(dir, "/scsi_host/") ? "scsi_host" : "modalias-test",
			    *alias ? alias : NULL);
}

/* The devices that inserting NAME makes appear ($FAKE_KERNEL_PLUG), after
 * $FAKE_KERNEL_PLUG_DELAY_MS (from a child process, as a bus enumerates
 * the devices behind a controller after its driver's init returned) */
static void fake_plug(const char *name)
{
	const char *spec = getenv("FAKE_KERNEL_PLUG"), *delay = getenv("FAKE_KERNEL_PLUG_DELAY_MS");
	int ms = delay ? atoi(delay) : 0;
	size_t len = strlen(name);

	for (const char *p = spec; p && *p;) {
		const char *end = strchr(p, ';');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char entry[PATH_MAX];
		char *alias, *more;
		int wait = ms;

		if (n < sizeof(entry) && n > len && strncmp(p, name, len) == 0 && p[len] == '=') {
			memcpy(entry, p + len + 1, n - len - 1);
			entry[n - len - 1] = '\0';
			alias = strchr(entry, '=');
			if (alias) {
				*alias++ = '\0';
				if ((more = strchr(alias, '@'))) {
					*more++ = '\0';
					wait += atoi(more);
				}
				if (wait <= 0) {
					plug_device(entry, alias);
				} else if (fork() == 0) {
					usleep((useconds_t)wait * 1000);
					plug_device(entry, alias);
					_exit(0);
				}
			}
		}
		p = end ? end + 1 : NULL;
	}
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int fake_insert_timed(const char *name);

/* How long inserting NAME takes: $FAKE_KERNEL_INSERT_MS, "MS" for every
 * module or "NAME:MS,…" for those named (the others at once) */
static int insert_ms(const char *ms, const char *name)
{
	int n;

	if (!strchr(ms, ':'))
		return atoi(ms);
	return listed(ms, name, &n) ? n : 0;
}

static int fake_insert(const char *name)
{
	const char *ms = getenv("FAKE_KERNEL_INSERT_MS");
	long long start = now_us();
	char path[PATH_MAX];
	int r;
	FILE *f;

	if (ms && insert_ms(ms, name) > 0)
		usleep((useconds_t)insert_ms(ms, name) * 1000);
	r = fake_insert_timed(name);
	if (ms && root()) {
		snprintf(path, sizeof(path), "%s/times", root());
		if ((f = fopen(path, "a"))) {
			fprintf(f, "%s %lld %lld\n", name, start, now_us());
			fclose(f);
		}
	}
	return r;
}

static int fake_insert_timed(const char *name)
{
	char path[PATH_MAX];
	int fail;
	FILE *f;

	if (!root()) {
		errno = EPERM;
		return -1;
	}
	/* FAKE_KERNEL_FAIL="mod_a:19,mod_b:1": errno 19 (ENODEV) for mod_a … */
	if (listed(getenv("FAKE_KERNEL_FAIL"), name, &fail)) {
		errno = fail;
		return -1;
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
	fake_plug(name);
	snprintf(path, sizeof(path), "/module/%s", name);
	fake_uevent(path, "module", NULL);
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
