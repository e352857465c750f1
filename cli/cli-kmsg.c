/*
 * cli/cli-kmsg.c - the firmware loads the kernel log says failed (see
 * cli-kmsg.h).
 *
 * /dev/kmsg gives one record a read(2): "PRIO,SEQ,USEC,FLAGS;MESSAGE", then
 * its dictionary, one " KEY=VALUE" line each (Documentation/ABI/testing/
 * dev-kmsg).  The firmware loader writes the failures through dev_warn()
 * (drivers/base/firmware_loader/main.c: "Direct firmware load for %s failed
 * with error %d"; Debian's firmware_class patch: "firmware: failed to load
 * %s (%d)"), so a record names its device twice: the dictionary's
 * DEVICE= ("+pci:0000:00:14.3", "c189:1", "b8:0") and the message's
 * "DRIVER DEVNAME: " prefix.
 *
 * This file reads the log; it may not print.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-devices.h"
#include "cli-kmsg.h"

/* Read no more of the log (the kernel's buffer is at most 32 MiB:
 * CONFIG_LOG_BUF_SHIFT 25) */
#define KMSG_MAX (32u << 20)
/* A record's most (CONSOLE_EXT_LOG_MAX); a smaller buffer is EINVAL */
#define KMSG_RECORD_MAX 8192

const char *cli_kmsg_path(const char *sysfs_root)
{
	const char *env = secure_getenv("MODALIAS_KMSG");

	if (env && *env)
		return env;
	return strcmp(sysfs_root, "/sys") == 0 ? "/dev/kmsg" : NULL;
}

/* The log, whole as far as KMSG_MAX; 0 or a negative errno */
static int read_log(const char *path, GString *log)
{
	char buf[KMSG_RECORD_MAX];
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISCHR(st.st_mode) && !S_ISREG(st.st_mode))
		r = -EINVAL;
	if (r < 0) {
		close(fd);
		return r;
	}
	while (log->len < KMSG_MAX) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && (errno == EINTR || errno == EPIPE)) /* EPIPE: records overwritten meanwhile */
			continue;
		if (n < 0 && errno == EAGAIN) /* the end of the log */
			break;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		g_string_append_len(log, buf, n);
		if (log->len && log->str[log->len - 1] != '\n' && S_ISCHR(st.st_mode))
			g_string_append_c(log, '\n');
	}
	close(fd);
	return r;
}

static bool name_ok(const char *s, size_t len)
{
	return len && len < NAME_MAX && !memchr(s, '/', len) && !(len <= 2 && strncmp(s, "..", len) == 0);
}

static int str_ptr_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The devpath of the device LINK (below CTX's sysfs root) leads to
 * (modalias_sysfs_devpath()), NULL when none */
static char *devpath_at(struct modalias_ctx *ctx, const char *link)
{
	char *devpath = NULL;

	return modalias_sysfs_devpath(ctx, link, &devpath) < 0 ? NULL : devpath;
}

/* The devpath of the device DEVICE (the dictionary's DEVICE= value) or,
 * when it is NULL, DEVNAME (the message's prefix): NULL when not found */
static char *find_device(struct modalias_ctx *ctx, const char *device, const char *devname)
{
	g_autofree char *link = NULL;

	if (device && device[0] == '+') {
		const char *colon = strchr(device + 1, ':');
		g_autofree char *sub = colon ? g_strndup(device + 1, (gsize)(colon - device - 1)) : NULL;
		char *found;

		if (!colon || !name_ok(sub, strlen(sub)) || !name_ok(colon + 1, strlen(colon + 1)))
			return NULL;
		link = g_strconcat("bus/", sub, "/devices/", colon + 1, NULL);
		if ((found = devpath_at(ctx, link)))
			return found;
		g_free(link);
		link = g_strconcat("class/", sub, "/", colon + 1, NULL);
		return devpath_at(ctx, link);
	}
	if (device && (device[0] == 'c' || device[0] == 'b')) {
		if (!name_ok(device + 1, strlen(device + 1)))
			return NULL;
		link = g_strconcat(device[0] == 'c' ? "dev/char/" : "dev/block/", device + 1, NULL);
		return devpath_at(ctx, link);
	}
	if (device || !devname || !name_ok(devname, strlen(devname)))
		return NULL; /* a network interface's index, or no name */
	{
		/* the buses in byte order: the same answer whatever readdir's */
		g_autofree char *bus_dir = g_build_filename(modalias_ctx_get_sysfs_root(ctx), "bus", NULL);
		g_autoptr(GPtrArray) buses = g_ptr_array_new_with_free_func(g_free);
		DIR *d = opendir(bus_dir);
		struct dirent *de;
		char *found = NULL;

		while (d && (de = readdir(d)))
			if (de->d_name[0] != '.')
				g_ptr_array_add(buses, g_strdup(de->d_name));
		if (d)
			closedir(d);
		g_ptr_array_sort(buses, str_ptr_cmp);
		for (guint i = 0; i < buses->len && !found; i++) {
			g_free(link);
			link = g_strconcat("bus/", (char *)buses->pdata[i], "/devices/", devname, NULL);
			found = devpath_at(ctx, link);
		}
		return found;
	}
}

/* MSG's failed firmware load: the file, the error and where the phrase
 * starts (what is before it is dev_printk()'s prefix); false for any
 * other line */
static bool failure_of(const char *msg, char **file, int *error, const char **phrase)
{
	static const char direct[] = "Direct firmware load for ", failed[] = " failed with error ",
			  debian[] = "firmware: failed to load ";
	const char *p, *start, *end;
	char *tail;
	long e;

	if ((p = strstr(msg, direct))) {
		start = p + strlen(direct);
		if (!(end = strstr(start, failed)))
			return false;
		e = strtol(end + strlen(failed), &tail, 10);
	} else if ((p = strstr(msg, debian))) {
		start = p + strlen(debian);
		if (!(end = strrchr(start, '(')) || end == start || end[-1] != ' ')
			return false;
		e = strtol(end + 1, &tail, 10);
		end--;
		if (*tail != ')')
			return false;
	} else {
		return false;
	}
	if (end == start || e > -1 || e < -4095)
		return false;
	*file = g_strndup(start, (gsize)(end - start));
	*error = (int)e;
	*phrase = p;
	return true;
}

/* The device name of dev_printk()'s "DRIVER DEVNAME: " before PHRASE, or
 * NULL */
static char *prefix_devname(const char *msg, const char *phrase)
{
	const char *space = memchr(msg, ' ', (size_t)(phrase - msg));

	if (!space || phrase - msg < 4 || phrase[-1] != ' ' || phrase[-2] != ':' || space + 1 >= phrase - 2)
		return NULL;
	return g_strndup(space + 1, (gsize)(phrase - 2 - space - 1));
}

int cli_kmsg_foreach_firmware_failure(struct modalias_ctx *ctx, const char *path, modalias_firmware_failure_fn fn,
				      void *data)
{
	g_autoptr(GString) log = g_string_new(NULL);
	g_auto(GStrv) lines = NULL;
	int r = read_log(path, log);

	if (r < 0)
		return r;
	lines = g_strsplit(log->str, "\n", -1);
	for (char **l = lines; *l && r == 0; l++) {
		const char *semi = strchr(*l, ';'), *msg = semi ? semi + 1 : *l, *phrase, *device = NULL;
		g_autofree char *file = NULL, *devname = NULL, *devpath = NULL;
		int error;

		if (**l == ' ' || !failure_of(msg, &file, &error, &phrase))
			continue;
		for (char **k = l + 1; *k && **k == ' '; k++)
			if (g_str_has_prefix(*k, " DEVICE="))
				device = *k + strlen(" DEVICE=");
		devname = device ? NULL : prefix_devname(msg, phrase);
		devpath = find_device(ctx, device, devname);
		r = fn(data, devpath, file, error);
	}
	return r;
}
