/*
 * cli/cli-exit.h - the exit statuses of both front ends (modalias(1),
 * hotplug(8) and README.md say what each means), and the one rule that
 * picks among them.
 *
 * This header holds numbers and their precedence; it may not print, and it
 * knows no command.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdbool.h>

enum cli_exit {
	CLI_EXIT_FOUND = 0,   /* modalias: something found */
	CLI_EXIT_OK = 0,      /* hotplug: done (whatever the handlers did) */
	CLI_EXIT_NOTHING = 1, /* modalias: what the command looks for is not there (its
			       * --help and modalias(1) say what, command by command) */
	CLI_EXIT_FAIL = 1,    /* hotplug: the daemon cannot start */
	CLI_EXIT_USAGE = 2,   /* a usage or input error, the message naming it */
	CLI_EXIT_WRITE = 3,   /* standard output cannot be written (cli-output.h) */
	CLI_EXIT_TIMEOUT = 4, /* hotplug: coldplug or settle did not finish in time */
	CLI_EXIT_UNKNOWN = 4, /* modalias firmware: nothing known missing, but whether a
			       * device has its file cannot be told */
	CLI_EXIT_LOST = 4,    /* modalias diff: a device loses its module, gone from TO */
	CLI_EXIT_UNMATCHED = 5, /* modalias diff: a device has no module in TO, which
				 * still has its modules (none lost) */
	CLI_EXIT_UNBOUND = 4, /* modalias explain: no driver is bound, and a module
			       * that matches the device is not in the kernel (not
			       * loaded, blacklisted, not known to be loaded) */
};

/* A command's status: an input error wins over "nothing found", which wins
 * over "found". */
static inline int cli_exit_status(bool input_error, bool found)
{
	if (input_error)
		return CLI_EXIT_USAGE;
	return found ? CLI_EXIT_FOUND : CLI_EXIT_NOTHING;
}
