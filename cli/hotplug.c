/*
 * hotplug - the kernel's uevent helper (/sbin/hotplug SUBSYSTEM) and a
 * netlink uevent daemon with coldplug, loading modules through libmodalias
 * and running /etc/hotplug.d handlers as hotplug-ng did.
 *
 * main: the settings, then one mode: the kernel's helper (one event, from
 * the environment), coldplug, or the daemon.  The parts it calls, and
 * the way calls go between them, are in hotplug-agent.h.
 *
 * This file may not hold the work of a mode, only choose it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "cli-output.h"
#include "hotplug-agent.h"

extern char **environ;

/* The kernel may start us with no standard streams */
static void std_fds(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0) {
			int n = open("/dev/null", O_RDWR | O_CLOEXEC);
			if (n >= 0 && n != fd) {
				dup2(n, fd);
				close(n);
			}
		}
}

/* hotplug SUBSYSTEM, the event in the environment */
static int helper(int argc, char **argv)
{
	const char *action = getenv("ACTION");

	if (argc < 2) {
		fprintf(stderr, "hotplug: a SUBSYSTEM is needed (or --daemon, --coldplug)\n");
		return CLI_EXIT_USAGE;
	}
	if (argc > 2) {
		g_autofree char *arg = shown(argv[2]);
		fprintf(stderr, "hotplug: unexpected argument '%s'\n", cli_shown(arg));
		return CLI_EXIT_USAGE;
	}
	if (!subsystem_ok(argv[1])) {
		g_autofree char *sub = shown(argv[1]);
		say(LOG_ERR, "refusing SUBSYSTEM '%s'", sub);
		return CLI_EXIT_USAGE;
	}
	/* the handlers run all the same; the status says modules could not be loaded */
	if (action && strcmp(action, "add") == 0 && modules_open() < 0) {
		say(LOG_ERR, "modules not loaded");
		event_handle(argv[1], environ);
		return CLI_EXIT_FAIL;
	}
	event_handle(argv[1], environ);
	return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
	int ret;

	std_fds();
	/* standard output checked at exit; SIGPIPE at its default action */
	cli_output_init("hotplug");
	ret = settings_load(&argc, &argv);
	if (ret != 0)
		return ret;
	if (settings.settle >= 0) {
		if (argc != 1 || settings.daemon || settings.coldplug_flag) {
			fprintf(stderr, "hotplug: --settle is alone (with --control-socket)\n");
			return CLI_EXIT_USAGE;
		}
		ret = settle_run();
	} else if (!settings.daemon && !settings.coldplug_flag) {
		ret = helper(argc, argv);
	} else if (argc != 1) {
		g_autofree char *arg = shown(argv[1]);
		fprintf(stderr, "hotplug: unexpected argument '%s'\n", cli_shown(arg));
		return CLI_EXIT_USAGE;
	} else if (!settings.daemon && coldplug_triggers()) {
		/* one-shot trigger loads nothing: no tables to open */
		ret = modules_open_ctx() < 0 ? CLI_EXIT_FAIL : coldplug_until_quiet();
	} else if (modules_open() < 0) {
		return CLI_EXIT_FAIL;
	} else if (settings.daemon) {
		ret = daemon_run();
	} else {
		ret = coldplug_until_quiet();
	}
	modules_close();
	settings_clear();
	return ret;
}
