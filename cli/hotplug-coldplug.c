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
 * as they come; it stops QUIET_MS after the last uevent (ENUMERATE_MS
 * after a USB hub appeared; a SCSI host, until its scan found a target or
 * for ENUMERATE_MS), once every module it
 * inserted said so with its own uevent and the kernel's uevent_seqnum
 * stands where it was at the last one heard.  It walks again only when
 * the uevents cannot tell it all: some were lost, or insertions went
 * unannounced (UNANNOUNCED_MS) — or it stops at the time limit, with a
 * report.  A dry run walks once: it loads nothing, so nothing new
 * can appear; it may walk a snapshot's devices instead (--snapshot).
 *
 * This file walks sysfs; it may not run handlers (replayed events come
 * back through the daemon).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <syslog.h>
#include <unistd.h>

#include "hotplug-agent.h"

static int coldplug_resolve_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	void (*const *found)(const char *, const char *) = data;
	char *alias;

	if (err < 0 || modalias_dev_format(dev, &alias) < 0)
		return 0;
	if (settings.dry_run)
		dry_line("coldplug %s %s", cli_shown(devpath), cli_shown(alias));
	(*found)(devpath, alias);
	free(alias);
	return 0;
}

/* Whether FD is on sysfs: "add" is written only there (where the kernel
 * replays the device's event); anywhere else, a captured tree or a user's
 * directory given as --sysfs, it would only overwrite a file. */
static bool on_sysfs(int fd)
{
	struct statfs fs;

	return fstatfs(fd, &fs) == 0 && (unsigned long)fs.f_type == SYSFS_MAGIC;
}

/* DEVPATH's uevent file under the sysfs root, opened for writing without
 * following a symlink anywhere below the root: each directory opened with
 * O_NOFOLLOW from the one before, the file itself a regular one (a FIFO
 * cannot block: O_NONBLOCK) on sysfs.  Returns the descriptor, or -errno
 * with *why set. */
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
	} else if (fd >= 0 && !on_sysfs(fd)) {
		close(fd);
		fd = -1;
		r = -EMEDIUMTYPE;
		*why = "not on sysfs (nothing written)";
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

bool coldplug_triggers(void)
{
	return g_strcmp0(settings.coldplug_mode ? settings.coldplug_mode : config.coldplug, "trigger") == 0;
}

bool coldplug(void (*found)(const char *devpath, const char *alias))
{
	bool trigger = coldplug_triggers();
	struct modalias_ctx *ctx = modules_ctx();
	const char *root = modalias_ctx_get_sysfs_root(ctx);
	int r, rootfd = -1;

	say(LOG_INFO, "coldplug (%s)", trigger ? "trigger" : "resolve");
	/* the sysfs root itself may be a symlink: what is below it may not */
	if (trigger && (rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		say(LOG_ERR, "coldplug: cannot open %s: %s", root, strerror(errno));
		return false;
	}
	if (trigger && !settings.dry_run && !on_sysfs(rootfd)) {
		say(LOG_ERR, "coldplug: --coldplug=trigger writes \"add\" only to sysfs, and %s is not (a captured tree "
			     "cannot replay its events; --coldplug=resolve loads what its devices want): nothing written",
		    root);
		close(rootfd);
		return false;
	}
	r = trigger ? modalias_sysfs_foreach(ctx, coldplug_trigger_one, &rootfd)
		    : modalias_sysfs_foreach(ctx, coldplug_resolve_one, &found);
	if (rootfd >= 0)
		close(rootfd);
	if (r < 0)
		say(LOG_ERR, "coldplug: cannot walk %s/devices: %s", root, strerror(-r));
	return r >= 0;
}

/* ---- one-shot, to a fixed point ------------------------------------------------- */

/* No uevent for this long after the last one: the devices the loaded
 * modules make have appeared (a driver's probe registers the devices it
 * finds before it returns, and each module inserted says so with its own
 * uevent once its init returned; their add events come before). */
#define QUIET_MS G_GINT64_CONSTANT(200)
/* ... except behind a bus that enumerates later: a USB hub debounces a
 * port for 100 ms and more, then resets and reads the device on it
 * (slower under emulation), usb-storage waits delay_use (1 s) before it
 * scans its SCSI host, a SATA port resets its link: quiet only this long
 * after a hub's interface appeared, or a SCSI host until its scan found a
 * target: its other targets and LUNs then have to follow within the quiet
 * while of the last uevent (a scan that takes longer between two, such as
 * a parallel SCSI bus's selection timeouts, is not waited for). */
#define ENUMERATE_MS G_GINT64_CONSTANT(1500)
/* A module inserted whose own uevent does not come (a kernel that sends
 * none, the tests' stand-in kernel): sysfs is walked again this long after
 * it, as what it made appear cannot be heard. */
#define UNANNOUNCED_MS G_GINT64_CONSTANT(1000)

struct fixed_point {
	GHashTable *seen;        /* "DEVPATH MODALIAS" handled */
	GHashTable *unannounced; /* module name → (gint64 *) when inserted, its uevent not heard */
	unsigned int handled, fresh;
	GHashTable *scanning;    /* a SCSI host's devpath → (gint64 *) until when its scan may find a target */
	gint64 quiet_at;         /* monotonic µs: quiet from then on, unless more comes */
	bool walk_again;         /* events were lost, or insertions went unannounced */
};

static struct fixed_point *watching; /* the insertion hook's */

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
	modules_load_alias(devpath, alias);
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

/* A module inserted (modules_on_insert()): its uevent is awaited */
static void fixed_point_inserted(const char *module)
{
	char *name = g_strdup(module);

	g_strdelimit(name, "-", '_');
	g_hash_table_insert(watching->unannounced, name, g_memdup2(&(gint64){ g_get_monotonic_time() }, sizeof(gint64)));
}

static const char *event_var(const struct event *e, const char *name)
{
	size_t len = strlen(name);

	for (char **v = e->envp; v && *v; v++)
		if (strncmp(*v, name, len) == 0 && (*v)[len] == '=')
			return *v + len + 1;
	return NULL;
}

/* A target's DEVPATH: the scan of the SCSI host above it found one (a
 * target may sit right under its host, or under a SAS port, an FC rport
 * or an iSCSI session of it) */
static void fixed_point_target(struct fixed_point *fp, const char *devpath)
{
	GHashTableIter it;
	gpointer host;

	g_hash_table_iter_init(&it, fp->scanning);
	while (g_hash_table_iter_next(&it, &host, NULL)) {
		size_t len = strlen(host);

		if (strncmp(devpath, host, len) == 0 && devpath[len] == '/' && strstr(devpath + len, "/target")) {
			g_hash_table_iter_remove(&it);
			return;
		}
	}
}

/* One uevent: quiet later, a module's own add heard, a device's modules
 * loaded (its MODALIAS, or sysfs's when it has none there) */
static void fixed_point_event(struct fixed_point *fp, const struct event *e)
{
	const char *action = event_var(e, "ACTION"), *alias = event_var(e, "MODALIAS");
	const char *devtype = event_var(e, "DEVTYPE"), *interface = event_var(e, "INTERFACE"), *host;
	gint64 now = e->heard; /* its whiles run from when it came */

	fp->quiet_at = MAX(fp->quiet_at, now + QUIET_MS * 1000);
	if (g_strcmp0(action, "add") != 0)
		return;
	if (g_str_has_prefix(e->devpath, "/module/")) {
		g_autofree char *name = g_strdup(e->devpath + strlen("/module/"));
		g_hash_table_remove(fp->unannounced, g_strdelimit(name, "-", '_'));
		return;
	}
	if (strcmp(e->subsystem, "scsi_host") == 0 && (host = strstr(e->devpath, "/scsi_host/")))
		g_hash_table_insert(fp->scanning, g_strndup(e->devpath, (gsize)(host - e->devpath)),
				    g_memdup2(&(gint64){ now + ENUMERATE_MS * 1000 }, sizeof(gint64)));
	else if (strcmp(e->subsystem, "usb") == 0 && g_strcmp0(devtype, "usb_interface") == 0 && interface &&
		 g_str_has_prefix(interface, "9/"))
		fp->quiet_at = MAX(fp->quiet_at, now + ENUMERATE_MS * 1000);
	else if (strstr(e->devpath, "/target"))
		fixed_point_target(fp, e->devpath);
	if (alias && *alias) {
		fixed_point_handle(fp, e->devpath, alias);
	} else {
		struct modalias_dev *dev;
		char *text;

		if (modalias_dev_new_from_sysfs(modules_ctx(), e->devpath, &dev) == 0) {
			if (modalias_dev_format(dev, &text) == 0) {
				fixed_point_handle(fp, e->devpath, text);
				free(text);
			}
			modalias_dev_unref(dev);
		}
	}
}

/* When it may be quiet: after the last event's quiet while, each SCSI
 * host's scan, and each unannounced insertion's wait */
static gint64 fixed_point_quiet_at(const struct fixed_point *fp)
{
	gint64 at = fp->quiet_at;
	GHashTableIter it;
	gpointer when;

	g_hash_table_iter_init(&it, fp->scanning);
	while (g_hash_table_iter_next(&it, NULL, &when))
		at = MAX(at, *(gint64 *)when);
	g_hash_table_iter_init(&it, fp->unannounced);
	while (g_hash_table_iter_next(&it, NULL, &when))
		at = MAX(at, *(gint64 *)when + UNANNOUNCED_MS * 1000);
	return at;
}

/* The uevents heard until it is quiet (true), or the DEADLINE (false).
 * Quiet: no uevent for the quiet while (longer after a late bus), every
 * insertion announced or waited for; sysfs is to be walked again
 * (fp->walk_again) when one was not, when some were lost, or when the
 * kernel's uevent_seqnum moved from where it was at the last event heard
 * (it sent what did not reach us). */
static bool fixed_point_listen(struct fixed_point *fp, struct hear *ear, gint64 deadline)
{
	for (;;) {
		gint64 now = g_get_monotonic_time(), at = fixed_point_quiet_at(fp);
		bool lost, moved;
		struct event *e;

		if (now >= at && hear_quiet(ear, &moved)) {
			/* what they made cannot be heard; the kernel sent what
			 * did not reach us: sysfs will tell */
			if (g_hash_table_size(fp->unannounced) > 0 || moved)
				fp->walk_again = true;
			g_hash_table_remove_all(fp->unannounced);
			g_hash_table_remove_all(fp->scanning); /* each one's while is over */
			return true;
		}
		if (now >= deadline)
			return false;
		/* past the quiet while with an event still on its way: a moment */
		e = hear_next(ear, MIN(MAX(at, now + 1000), deadline), &lost);
		if (lost) { /* the next walk finds them */
			fp->walk_again = true;
			fp->quiet_at = MAX(fp->quiet_at, g_get_monotonic_time() + QUIET_MS * 1000);
		}
		if (e) {
			fixed_point_event(fp, e);
			event_free(e);
		}
	}
}

static void fixed_point_clear(struct fixed_point *fp)
{
	g_hash_table_destroy(fp->seen);
	g_hash_table_destroy(fp->unannounced);
	g_hash_table_destroy(fp->scanning);
}

int coldplug_until_quiet(void)
{
	struct fixed_point fp = { .seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
				  .unannounced = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
				  .scanning = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free) };
	struct modalias_ctx *ctx = modules_ctx();
	gint64 start = g_get_monotonic_time(), deadline = start + (gint64)settings.coldplug_timeout * G_USEC_PER_SEC;
	unsigned int passes = 0;
	struct cli_devices dv;
	struct hear *ear = NULL;
	bool done = false;
	int nl, r;

	if (coldplug_triggers()) {
		/* the replayed events are the daemon's to handle */
		r = coldplug(NULL) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
		fixed_point_clear(&fp);
		return r;
	}
	r = cli_devices_open(&dv, ctx, settings.snapshot);
	if (r < 0) {
		say(LOG_ERR, "coldplug: cannot use the snapshot %s: %s", settings.snapshot, cli_devices_error(r));
		fixed_point_clear(&fp);
		return CLI_EXIT_USAGE;
	}
	/* listening first: nothing that happens during the walk is missed */
	nl = settings.dry_run ? -ENOTCONN : netlink_open();
	if (nl >= 0 && !(ear = hear_start(nl))) {
		close(nl);
		nl = -EAGAIN; /* no thread */
	}
	if (nl < 0 && !settings.dry_run)
		say(LOG_WARNING, "coldplug: cannot listen for uevents (%s): walking sysfs again instead", strerror(-nl));
	say(LOG_INFO, "coldplug (resolve, to a fixed point)");
	watching = &fp;
	modules_on_insert(fixed_point_inserted);
	modules_set_devices(&dv);
	/* a walk; then the uevents until quiet; walked again when they cannot
	 * be trusted to tell everything (lost, unannounced insertions) */
	do {
		passes++;
		fp.fresh = 0;
		fp.walk_again = nl < 0;
		r = cli_devices_foreach(&dv, fixed_point_one, &fp);
		if (r < 0) {
			say(LOG_ERR, "coldplug: cannot walk %s/devices: %s", modalias_ctx_get_sysfs_root(ctx), strerror(-r));
			break;
		}
		if (settings.dry_run) { /* nothing loaded: nothing can appear */
			done = true;
			break;
		}
		fp.quiet_at = MAX(fp.quiet_at, g_get_monotonic_time() + QUIET_MS * 1000);
		if (!fixed_point_listen(&fp, ear, deadline))
			break;
		/* without uevents, until a walk finds nothing new */
		done = !fp.walk_again || (nl < 0 && fp.fresh == 0);
	} while (!done);
	modules_on_insert(NULL);
	modules_set_devices(NULL);
	watching = NULL;
	hear_stop(ear);
	if (nl >= 0)
		close(nl);
	cli_devices_close(&dv);
	fixed_point_clear(&fp);
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
