/*
 * cli/hotplug-coldplug.c - the devices already present, parents first:
 * each device's modalias resolved and its modules loaded (resolve, the
 * default), or "add" written to each uevent file reached without a symlink
 * so that the kernel replays the events (trigger).
 *
 * One-shot (no daemon), coldplug_until_quiet() goes on to a fixed point:
 * it listens on the uevent socket before the first walk; the devices that
 * appear because of the modules it loaded (a USB device behind a host
 * controller it just loaded, its interfaces, …) come as add events, handled
 * as they come, and walks again find any whose event was missed; it stops
 * when a walk found nothing new, no uevent came for QUIET_MS and the
 * kernel's uevent_seqnum did not move meanwhile — or at the time limit,
 * with a report.  A dry run walks once: it loads nothing, so nothing new
 * can appear; it may walk a snapshot's devices instead (--snapshot).
 *
 * This file walks sysfs; it may not run handlers (replayed events come
 * back through the daemon).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
		dry_line("coldplug %s %s", cli_shown(devpath), cli_shown(alias));
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
		dry_line("trigger %s", cli_shown(devpath));
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

/* ---- one-shot, to a fixed point ------------------------------------------------- */

/* No uevent for this long, and a walk with nothing new: the devices the
 * loaded modules make have appeared (a USB hub's ports are debounced for
 * 100 ms before a device on them is announced, then reset and read:
 * slower under emulation). */
#define QUIET_MS 1000

struct fixed_point {
	GHashTable *seen; /* "DEVPATH MODALIAS" handled */
	unsigned int handled, fresh;
};

/* Loads the modules of DEVPATH's ALIAS unless that pair was handled */
static void fixed_point_handle(struct fixed_point *fp, const char *devpath, const char *alias)
{
	char *key = g_strdup_printf("%s %s", devpath, alias);

	if (!g_hash_table_add(fp->seen, key))
		return;
	fp->handled++;
	fp->fresh++;
	if (settings.dry_run)
		dry_line("coldplug %s %s", cli_shown(devpath), cli_shown(alias));
	modules_load_alias(alias);
}

static int fixed_point_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	char *alias;

	if (err < 0 || modalias_dev_format(dev, &alias) < 0)
		return 0;
	fixed_point_handle(data, devpath, alias);
	free(alias);
	return 0;
}

/* The add events on NL until none comes for QUIET_MS: whether that quiet
 * while passed whole, with no event at all (the deadline cutting it short
 * is not quiet) */
static bool fixed_point_listen(struct fixed_point *fp, int nl, gint64 deadline)
{
	bool any = false;

	for (;;) {
		struct pollfd p = { .fd = nl, .events = POLLIN };
		gint64 left = (deadline - g_get_monotonic_time()) / 1000;
		int n;

		if (left <= 0)
			return false;
		n = poll(&p, 1, (int)MIN(left, QUIET_MS));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return !any && left >= QUIET_MS;
		for (int k = 0; k < 256; k++) {
			bool overflow;
			struct event *e;
			const char *alias = NULL, *action = NULL;

			errno = 0;
			e = netlink_receive(nl, &overflow);
			if (!e) {
				if (overflow) /* lost: the next walk finds them */
					any = true;
				else if (errno == EAGAIN || errno == EWOULDBLOCK)
					break;
				continue;
			}
			any = true;
			for (char **v = e->envp; v && *v; v++)
				if (g_str_has_prefix(*v, "MODALIAS="))
					alias = *v + strlen("MODALIAS=");
				else if (g_str_has_prefix(*v, "ACTION="))
					action = *v + strlen("ACTION=");
			if (alias && *alias && g_strcmp0(action, "add") == 0)
				fixed_point_handle(fp, e->devpath, alias);
			event_free(e);
		}
	}
}

int coldplug_until_quiet(void)
{
	struct fixed_point fp = { .seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
	struct modalias_ctx *ctx = modules_ctx();
	gint64 start = g_get_monotonic_time(), deadline = start + (gint64)settings.coldplug_timeout * G_USEC_PER_SEC;
	unsigned int passes = 0;
	struct cli_devices dv;
	bool done = false;
	int nl, r;

	if (g_strcmp0(settings.coldplug_mode ? settings.coldplug_mode : config.coldplug, "trigger") == 0) {
		coldplug(); /* the replayed events are the daemon's to handle */
		g_hash_table_destroy(fp.seen);
		return CLI_EXIT_OK;
	}
	r = cli_devices_open(&dv, ctx, settings.snapshot);
	if (r < 0) {
		say(LOG_ERR, "coldplug: cannot use the snapshot %s: %s", settings.snapshot, cli_devices_error(r));
		g_hash_table_destroy(fp.seen);
		return CLI_EXIT_USAGE;
	}
	/* listening first: nothing that happens during the walk is missed */
	nl = settings.dry_run ? -ENOTCONN : netlink_open();
	if (nl < 0 && !settings.dry_run)
		say(LOG_WARNING, "coldplug: cannot listen for uevents (%s): walking sysfs again instead", strerror(-nl));
	say(LOG_INFO, "coldplug (resolve, to a fixed point)");
	while (!done && g_get_monotonic_time() < deadline) {
		unsigned long long before = 0, after = 0;
		bool have_before = kernel_seqnum(&before), quiet;

		passes++;
		fp.fresh = 0;
		r = cli_devices_foreach(&dv, fixed_point_one, &fp);
		if (r < 0) {
			say(LOG_ERR, "coldplug: cannot walk %s/devices: %s", modalias_ctx_get_sysfs_root(ctx), strerror(-r));
			break;
		}
		if (settings.dry_run) { /* nothing loaded: nothing can appear */
			done = true;
			break;
		}
		quiet = fixed_point_listen(&fp, nl, deadline);
		/* nothing new found, nothing heard for QUIET_MS, and the kernel
		 * sent nothing meanwhile (not even to other listeners) */
		done = fp.fresh == 0 && quiet && (!have_before || (kernel_seqnum(&after) && after == before));
	}
	if (nl >= 0)
		close(nl);
	cli_devices_close(&dv);
	g_hash_table_destroy(fp.seen);
	if (!done) {
		say(LOG_ERR, "coldplug: no fixed point after %d s (%u walks, %u devices handled): devices were still "
			     "appearing; their modules may be missing (--coldplug-timeout)",
		    settings.coldplug_timeout, passes, fp.handled);
		return CLI_EXIT_TIMEOUT;
	}
	say(LOG_INFO, "coldplug: fixed point after %u walks, %u devices, %.2f s", passes, fp.handled,
	    (double)(g_get_monotonic_time() - start) / G_USEC_PER_SEC);
	return CLI_EXIT_OK;
}
