/*
 * cli/cli-config.h - modalias.conf: the settings of the modalias command
 * and the hotplug agent, read with GLib's GKeyFile.  Front-end code (in
 * libcli): the library knows nothing of it.
 *
 * This code reads settings; it may not act on them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdbool.h>

#include <glib.h>

struct cli_config {
	char *path;        /* the file read, or NULL */
	/* [modules] */
	char *root;        /* like modprobe -d */
	char *version;     /* like modprobe -S */
	char *directory;   /* the module directory itself */
	char **modprobe_d; /* modprobe.d files or directories; NULL: the system's */
	char **tables;     /* extra "alias PATTERN MODULE" files */
	char **blacklist;  /* modules never loaded, on top of modprobe.d */
	int blacklist_line; /* its line in path, 0: none */
	char *cache;       /* index cache directory; "" for none; NULL: default */
	/* [log] */
	int log_level;     /* syslog priority, -1: unset */
	/* [agent] */
	char *hotplug_dir;
	char *sysfs;
	int max_parallel;  /* -1: unset */
	char *coldplug;    /* "trigger" or "resolve" */
	int handler_timeout; /* seconds a handler may run, -1: unset */
	int coldplug_timeout; /* seconds a one-shot coldplug may take, -1: unset */
};

#define CLI_HANDLER_TIMEOUT_MAX 86400 /* a day */
#define CLI_COLDPLUG_TIMEOUT_MAX 3600 /* an hour */
#define CLI_COLDPLUG_TIMEOUT_DEFAULT 60

#define CLI_CONFIG_DEFAULT SYSCONFDIR "/modalias.conf"

/*
 * Reads path (or, when path is NULL, the default file if it exists).
 * Unknown groups and keys are warnings ("FILE:LINE: …\n", appended to
 * warnings); bad values are errors (FILE:LINE: [GROUP] KEY: why).  Both
 * quote the file as it is: whoever shows them escapes them.
 * Returns FALSE with error set on failure.
 */
gboolean cli_config_load(const char *path, struct cli_config *cfg, GString *warnings, GError **error);

/* WARNINGS (cli_config_load()'s) on standard error, a line each after
 * "PROG: ", escaped (cli_shown()), as the program's other messages are */
void cli_config_print_warnings(const char *prog, const GString *warnings);
void cli_config_clear(struct cli_config *cfg);
/* Whether PATH is a modalias.conf rather than a modprobe.d file: a regular
 * file whose first line that is neither blank nor a comment is a
 * "[GROUP]" line (no modprobe.d line starts with '[').  -C/--config names
 * modprobe.d in both programs; modalias.conf is --settings. */
bool cli_config_is_settings(const char *path);
/* "err" "3" "info" … → 0..7, or -1 */
int cli_log_level_parse(const char *s);
