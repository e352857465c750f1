/*
 * cli/hotplug-preload.c - hotplug --daemon --coldplug --preload=FILE: the
 * modules this machine's devices wanted at its last boot, inserted at the
 * start, all at once, before the walk (which waits for them; as Android's
 * modules.load and systemd-modules-load do for fixed hardware), and the
 * list written again once this boot's coldplug has settled.
 *
 * The file, written by the daemon alone (root's, in a directory that
 * passes the trust walk: it names modules root inserts):
 *
 *   # hotplug --preload: modules this machine's devices wanted (hotplug(8))
 *   modules /lib/modules/6.1.0-57-amd64
 *   ehci_pci
 *   …
 *
 * "modules DIR" is the module directory the list was made with: a list
 * made for another kernel is not used (and is rewritten).  Each name is
 * loaded as `modprobe NAME` would (dependencies, softdeps, modprobe.d's
 * blacklist), in the list's order as far as there are workers; a name
 * this kernel has no module for is skipped.  The list written is every
 * module that a device's modalias named and that ended up loaded, those of
 * the shallowest devices first, then by name (a controller's driver before
 * those of the devices behind it: where the next boot has to wait for
 * hardware to appear, it is loaded first): a module preloaded for hardware
 * that has left is loaded once more, at the boot after it left, and then
 * drops out.
 *
 * Off by default: a module loaded for hardware that is gone may do harm
 * (a driver that binds something else, a watchdog armed).
 *
 * This file reads and writes that list; the daemon's loop calls it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "hotplug-agent.h"
#include "path-trust.h"
#include "read-file.h"
#include "write-file.h"

/* The list is written once the daemon has been idle this long after its
 * coldplug (the devices behind the controllers it loaded have come). */
#define PRELOAD_QUIET_MS 2000
/* A list of some thousands of names: 1 MiB at most */
#define PRELOAD_FILE_MAX ((size_t)1 << 20)
#define PRELOAD_HEADER "# hotplug --preload: modules this machine's devices wanted (hotplug(8))\n"

static bool recorded;   /* written (or given up) this run */
static gint64 idle_since; /* monotonic µs of the last activity */

/* Reads the list; its module names into NAMES when it is for this
 * module directory.  Logs what is wrong, naming the file and line. */
static bool preload_read(const char *path, GPtrArray *names)
{
	struct trust_why why = { "" };
	g_autofree char *text = NULL, *proc = NULL;
	g_auto(GStrv) lines = NULL;
	bool ours = false;
	int fd, r;

	fd = trust_open(path, O_RDONLY | O_NONBLOCK, TRUST_FOLLOW | TRUST_REGULAR, &why);
	if (fd == -ENOENT) {
		say(LOG_INFO, "--preload: no %s yet (written after this boot's coldplug)", path);
		return false;
	}
	if (fd < 0) {
		say(LOG_ERR, "--preload: %s: not used: %s", path, why.text);
		return false;
	}
	/* the checked descriptor is what is read */
	proc = g_strdup_printf("/proc/self/fd/%d", fd);
	r = read_file(proc, PRELOAD_FILE_MAX, 0, &text, NULL);
	close(fd);
	if (r < 0) {
		char errbuf[64];

		say(LOG_ERR, "--preload: cannot read %s: %s", path, read_file_error(r, PRELOAD_FILE_MAX, errbuf, sizeof(errbuf)));
		return false;
	}
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (!*l || *l == '#')
			continue;
		if (g_str_has_prefix(l, "modules ")) {
			if (strcmp(l + strlen("modules "), modules_dir()) != 0) {
				say(LOG_NOTICE, "--preload: %s is for %s, not %s: not used (written again after this boot's coldplug)",
				    path, l + strlen("modules "), modules_dir());
				return false;
			}
			ours = true;
		} else if (!ours) {
			say(LOG_ERR, "--preload: %s:%u: a module before the \"modules DIR\" line: not used", path, i + 1);
			return false;
		} else {
			/* the loader checks that it is a module name */
			g_ptr_array_add(names, g_strdup(l));
		}
	}
	if (!ours)
		say(LOG_ERR, "--preload: %s: no \"modules DIR\" line: not used", path);
	return ours;
}

void preload_start(void)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);

	recorded = false;
	idle_since = g_get_monotonic_time();
	if (!settings.preload || !preload_read(settings.preload, names))
		return;
	say(LOG_INFO, "--preload: %u module%s from %s", names->len, names->len == 1 ? "" : "s", settings.preload);
	for (guint i = 0; i < names->len; i++)
		queue_add_preload(g_ptr_array_index(names, i));
}

void preload_activity(void)
{
	idle_since = g_get_monotonic_time();
}

int preload_timeout(void)
{
	if (!settings.preload || recorded || !queue_empty())
		return -1;
	return poll_ms_until(idle_since + (gint64)PRELOAD_QUIET_MS * 1000);
}

void preload_record(void)
{
	g_autoptr(GPtrArray) wanted = NULL;
	g_autoptr(GString) text = NULL;
	struct trust_why why = { "" };
	int r;

	if (preload_timeout() != 0)
		return;
	recorded = true;
	if (settings.dry_run)
		return;
	wanted = modules_wanted();
	text = g_string_new(PRELOAD_HEADER);
	g_string_append_printf(text, "modules %s\n", modules_dir());
	for (guint i = 0; i < wanted->len; i++)
		g_string_append_printf(text, "%s\n", (const char *)g_ptr_array_index(wanted, i));
	r = write_file_replace(settings.preload, text->str, text->len, 0644, &why);
	if (r < 0)
		say(LOG_ERR, "--preload: cannot write %s: %s", settings.preload, why.text[0] ? why.text : strerror(-r));
	else
		say(LOG_INFO, "--preload: %u module%s written to %s", wanted->len, wanted->len == 1 ? "" : "s",
		    settings.preload);
}
