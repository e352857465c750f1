/*
 * cli/hotplug-event.c - one event, in whichever mode it came (the kernel's
 * helper, the daemon's workers): on add the modules of its modalias (or
 * of its legacy variables), then its handlers; and which subsystems may
 * name a hotplug.d directory.
 *
 * This file decides what an event does; it may not know how events
 * arrive or are ordered.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "hotplug-agent.h"

/* No path and no control character: a newline would forge a log line */
bool subsystem_ok(const char *s)
{
	if (!s || !*s || strchr(s, '/') || strstr(s, "..") || strcmp(s, ".") == 0)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static const char *env_lookup(void *data, const char *name)
{
	char *const *envp = data;
	size_t len = strlen(name);

	for (; *envp; envp++)
		if (strncmp(*envp, name, len) == 0 && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

void event_handle(const char *subsystem, char *const *envp)
{
	const char *action = env_lookup((void *)envp, "ACTION");

	if (settings.dry_run) {
		const char *seq = env_lookup((void *)envp, "SEQNUM"), *devpath = env_lookup((void *)envp, "DEVPATH");
		dry_line("event %s %s %s %s", seq ? cli_shown(seq) : "-", action ? cli_shown(action) : "-", cli_shown(subsystem),
			 devpath ? cli_shown(devpath) : "-");
	}
	if (action && strcmp(action, "add") == 0)
		event_load(subsystem, envp);
	handlers_run(subsystem, envp);
}

void event_load(const char *subsystem, char *const *envp)
{
	if (modules_ready()) {
		struct modalias_dev *dev;
		int r = modalias_dev_new_from_env_fn(modules_ctx(), subsystem, env_lookup, (void *)envp, &dev);

		if (r == 0) {
			char *alias;
			if (modalias_dev_format(dev, &alias) == 0) {
				modules_load_alias(env_lookup((void *)envp, "DEVPATH"), alias);
				free(alias);
			}
			modalias_dev_unref(dev);
		} else if (r != -ENOENT) {
			say(LOG_NOTICE, "%s event: no modalias from its variables: %s", subsystem, strerror(-r));
		}
	}
}
