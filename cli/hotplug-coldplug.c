/*
 * cli/hotplug-coldplug.c - the devices already present, parents first:
 * each device's modalias resolved and its modules loaded (resolve, the
 * default), or "add" written to each uevent file reached without a symlink
 * so that the kernel replays the events (trigger).
 *
 * This file walks sysfs once per call; it may not run handlers (replayed
 * events come back through the daemon).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "hotplug-agent.h"

static int coldplug_resolve_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	char *alias;

	if (err < 0 || modalias_dev_format(dev, &alias) < 0)
		return 0;
	if (settings.dry_run)
		dry_line("coldplug %s %s", devpath, alias);
	modules_load_alias(alias);
	free(alias);
	return 0;
}

/* DEVPATH's uevent file under the sysfs root, opened for writing without
 * following a symlink anywhere below the root: each directory opened with
 * O_NOFOLLOW from the one before, the file itself a regular one (a FIFO
 * cannot block: O_NONBLOCK).  Returns the descriptor, or -errno with *why
 * set. */
static int uevent_open(int rootfd, const char *devpath, const char **why)
{
	g_auto(GStrv) parts = g_strsplit(devpath, "/", -1);
	struct stat st;
	int dfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 3), fd, r;

	*why = NULL;
	if (dfd < 0)
		return -errno;
	for (char **p = parts; dfd >= 0 && *p; p++) {
		int next;

		if (!**p)
			continue;
		if (strcmp(*p, ".") == 0 || strcmp(*p, "..") == 0) {
			close(dfd);
			*why = "not a device path";
			return -EINVAL;
		}
		next = openat(dfd, *p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			r = -errno;
			if (fstatat(dfd, *p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
				*why = "a symlink on the way (not followed)";
				r = -ELOOP;
			}
			next = r;
		}
		close(dfd);
		dfd = next;
	}
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, "uevent", O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	r = fd < 0 ? -errno : 0;
	if (fd < 0 && (r == -ELOOP || r == -ENXIO)) { /* a symlink, or a FIFO nobody reads */
		if (fstatat(dfd, "uevent", &st, AT_SYMLINK_NOFOLLOW) == 0)
			*why = S_ISLNK(st.st_mode) ? "a symlink (not followed)" : "not a regular file";
	} else if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		r = -EINVAL;
		*why = "not a regular file";
	}
	close(dfd);
	return fd < 0 ? r : fd;
}

static int coldplug_trigger_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	const int *rootfd = data;
	g_autofree char *path = g_build_filename(modalias_ctx_get_sysfs_root(modules_ctx()), devpath, "uevent", NULL);
	const char *why;
	int fd;

	if (settings.dry_run) {
		dry_line("trigger %s", devpath);
		return 0;
	}
	/* in place: sysfs attributes cannot be replaced by rename */
	fd = uevent_open(*rootfd, devpath, &why);
	if (fd < 0)
		say(LOG_NOTICE, "%s: cannot trigger: %s", path, why ? why : strerror(-fd));
	else if (write(fd, "add", 3) != 3)
		say(LOG_NOTICE, "%s: cannot trigger: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return 0;
}

void coldplug(void)
{
	bool trigger = g_strcmp0(settings.coldplug_mode ? settings.coldplug_mode : config.coldplug, "trigger") == 0;
	struct modalias_ctx *ctx = modules_ctx();
	const char *root = modalias_ctx_get_sysfs_root(ctx);
	int r, rootfd = -1;

	say(LOG_INFO, "coldplug (%s)", trigger ? "trigger" : "resolve");
	/* the sysfs root itself may be a symlink: what is below it may not */
	if (trigger && (rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		say(LOG_ERR, "coldplug: cannot open %s: %s", root, strerror(errno));
		return;
	}
	r = modalias_sysfs_foreach(ctx, trigger ? coldplug_trigger_one : coldplug_resolve_one, &rootfd);
	if (rootfd >= 0)
		close(rootfd);
	if (r < 0)
		say(LOG_ERR, "coldplug: cannot walk %s/devices: %s", root, strerror(-r));
}
