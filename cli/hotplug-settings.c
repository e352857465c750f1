/*
 * cli/hotplug-settings.c - the agent's settings: its options and
 * modalias.conf's [agent] and [log] into one struct settings, checked
 * (a bad value: exit 2, named); and how it speaks: syslog and standard
 * error at the level set, a dry run's lines on standard output.
 *
 * This file may not act on what it reads: it calls nothing of the agent.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "cli-output.h"
#include "hotplug-agent.h"

struct hotplug_settings settings = {
	.handler_timeout = INT_MIN, /* not given */
	.coldplug_timeout = INT_MIN,
	.queue_limit = INT_MIN,
	.settle = -1,
	.netlink_group = 1,
	.log_level = LOG_NOTICE,
};
struct cli_config config;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER; /* a line at a time, from the workers too */

void say(int priority, const char *fmt, ...)
{
	g_autoptr(GString) line = g_string_new(NULL);
	g_autofree char *msg = NULL;
	va_list ap;

	if (priority > settings.log_level)
		return;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	/* the names in it are the kernel's, a file's, a snapshot's: one line,
	 * no escape sequence, whoever formatted it, and a backslash \\ (no
	 * message writes one of its own): syslog's line is standard error's */
	cli_shown_append(line, msg);
	syslog(priority, "%s", line->str);
	if (settings.log_stderr) {
		pthread_mutex_lock(&out_lock);
		fprintf(stderr, "hotplug: %s\n", line->str);
		pthread_mutex_unlock(&out_lock);
	}
}

void say_library(void *data, int priority, const char *file, int line, const char *fn, const char *format,
		 va_list args)
{
	g_autofree char *msg = g_strdup_vprintf(format, args);

	g_strchomp(msg);
	say(priority, "%s", msg);
}

void dry_line(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	/* a line at a time: a dry run that cannot write ends at once (exit
	 * status 3; a closed pipe: SIGPIPE) */
	cli_output_flush();
	pthread_mutex_unlock(&out_lock);
}

char *shown(const char *s)
{
	return g_strndup(s, 200);
}

int poll_ms_until(gint64 at)
{
	gint64 left = at - g_get_monotonic_time();

	return left > 0 ? (int)MIN((left + 999) / 1000, G_MAXINT) : 0;
}

int poll_sooner(int a, int b)
{
	return a < 0 ? b : b < 0 ? a : MIN(a, b);
}

static gboolean opt_coldplug(const char *name, const char *value, gpointer data, GError **error)
{
	settings.coldplug_flag = TRUE;
	if (value) {
		g_free(settings.coldplug_mode);
		settings.coldplug_mode = g_strdup(value);
	}
	return TRUE;
}

/* -c FILE: modalias.conf, the old spelling of --settings (--config names
 * modprobe.d now, as in modalias and modprobe) */
static gboolean opt_old_c(const char *name, const char *value, gpointer data, GError **error)
{
	fprintf(stderr, "hotplug: -c is deprecated: give modalias.conf with --settings=FILE "
			"(-C/--config names modprobe.d)\n");
	g_free(settings.config_file);
	settings.config_file = g_strdup(value);
	return TRUE;
}

static gboolean opt_settle(const char *name, const char *value, gpointer data, GError **error)
{
	char *end;
	long n = value ? strtol(value, &end, 10) : 120;

	if (value && (*end || end == value || n < 0 || n > CLI_COLDPLUG_TIMEOUT_MAX)) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--settle=%s: not a number of seconds from 0 to %d", value, CLI_COLDPLUG_TIMEOUT_MAX);
		return FALSE;
	}
	settings.settle = (int)n;
	return TRUE;
}

int settings_load(int *argc, char ***argv)
{
	g_autoptr(GOptionContext) oc = g_option_context_new("SUBSYSTEM | --daemon [--coldplug] | --coldplug | --settle");
	g_autoptr(GError) error = NULL;
	const GOptionEntry entries[] = {
		{ "daemon", 0, 0, G_OPTION_ARG_NONE, &settings.daemon, "Listen for kernel uevents (netlink)", NULL },
		{ "coldplug", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, (gpointer)opt_coldplug,
		  "Handle the devices already present (--coldplug=trigger: replay their add events)", "MODE" },
		{ "dry-run", 'n', 0, G_OPTION_ARG_NONE, &settings.dry_run,
		  "Print the modules it would load and the handlers it would run; do neither", NULL },
		{ "dirname", 'd', 0, G_OPTION_ARG_FILENAME, &settings.tables.root, "Modules are in ROOT/lib/modules/VERSION", "ROOT" },
		{ "set-version", 'S', 0, G_OPTION_ARG_FILENAME, &settings.tables.version, "Kernel version", "VERSION" },
		{ "moddir", 'm', 0, G_OPTION_ARG_FILENAME, &settings.tables.moddir, "The module directory itself", "DIR" },
		{ "config", 'C', 0, G_OPTION_ARG_FILENAME, &settings.tables.modprobe_d,
		  "modprobe.d file or directory (/dev/null: none), as for modprobe", "FILE" },
		{ "modprobe-config", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &settings.tables.modprobe_d, NULL,
		  NULL },
		{ "hotplug-dir", 0, 0, G_OPTION_ARG_FILENAME, &settings.hotplug_dir, "Handlers' directory (/etc/hotplug.d)", "DIR" },
		{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &settings.sysfs, "Sysfs root (/sys)", "DIR" },
		{ "snapshot", 0, 0, G_OPTION_ARG_FILENAME, &settings.snapshot,
		  "With --dry-run --coldplug: the devices of this snapshot (modalias snapshot), not sysfs", "FILE" },
		{ "settings", 0, 0, G_OPTION_ARG_FILENAME, &settings.config_file,
		  "modalias.conf to read instead of " CLI_CONFIG_DEFAULT, "FILE" },
		{ "old-c", 'c', G_OPTION_FLAG_HIDDEN | G_OPTION_FLAG_FILENAME, G_OPTION_ARG_CALLBACK, (gpointer)opt_old_c,
		  NULL, NULL },
		{ "version", 'V', 0, G_OPTION_ARG_NONE, &settings.version, "Print the version and exit", NULL },
		{ "log-level", 0, 0, G_OPTION_ARG_STRING, &settings.log_level_name, "err, warning, notice, info, debug", "LEVEL" },
		{ "max-parallel", 0, 0, G_OPTION_ARG_INT, &settings.max_parallel, "Unrelated events handled at once", "N" },
		{ "settle", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, (gpointer)opt_settle,
		  "Wait until the daemon has handled every event and coldplug (at most SECONDS, 120; 0: only ask, status 4 when busy)", "SECONDS" },
		{ "control-socket", 0, 0, G_OPTION_ARG_FILENAME, &settings.control_path,
		  "The daemon's control socket (" HOTPLUG_CONTROL_PATH ")", "PATH" },
		{ "coldplug-timeout", 0, 0, G_OPTION_ARG_INT, &settings.coldplug_timeout,
		  "One-shot coldplug: give up after SECONDS (60)", "SECONDS" },
		{ "handler-timeout", 0, 0, G_OPTION_ARG_INT, &settings.handler_timeout,
		  "Kill a handler still running after this long (30)", "SECONDS" },
		{ "queue-limit", 0, 0, G_OPTION_ARG_INT, &settings.queue_limit,
		  "The daemon holds at most N events (32768), the socket N x 4 KiB", "N" },
		{ "preload", 0, 0, G_OPTION_ARG_FILENAME, &settings.preload,
		  "With --daemon --coldplug: load the modules FILE lists first, then write there the ones this boot's "
		  "devices wanted (off by default: see hotplug(8))", "FILE" },
		{ "netlink-group", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &settings.netlink_group, NULL, NULL },
		{ "trust-any-sender", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &settings.trust_any_sender, NULL, NULL },
		{ "stderr", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &settings.force_stderr, NULL, NULL },
		{ NULL }
	};
	GString *warn = g_string_new(NULL);

	g_option_context_set_summary(oc, "The kernel's uevent helper (hotplug SUBSYSTEM, the event in the environment),\n"
				     "or a netlink uevent daemon: modules through libmodalias, then the handlers\n"
				     "HOTPLUG_DIR/SUBSYSTEM/*.hotplug and HOTPLUG_DIR/default/*.hotplug.");
	g_option_context_add_main_entries(oc, entries, NULL);
	if (!g_option_context_parse(oc, argc, argv, &error)) {
		g_autoptr(GString) shown = g_string_new(NULL);

		/* it quotes the value or the option given: escaped */
		cli_shown_append(shown, error->message);
		fprintf(stderr, "hotplug: %s\nTry 'hotplug --help'.\n", shown->str);
		return CLI_EXIT_USAGE;
	}
	if (settings.version) {
		printf("hotplug (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		exit(CLI_EXIT_OK); /* standard output checked there (cli_output_init()) */
	}
	/* GLib keeps a "--" that comes before an argument starting with '-':
	 * it only ends the options (hotplug -- -x: the subsystem "-x") */
	if (*argc > 1 && strcmp((*argv)[1], "--") == 0) {
		memmove(*argv + 1, *argv + 2, (size_t)(*argc - 1) * sizeof(**argv));
		(*argc)--;
	}
	/* no LOG_CONS: a console that is not read would block event handling */
	openlog("hotplug", LOG_PID, LOG_DAEMON);
	/* a dry run is a person's: why a handler or a module is left out goes
	 * where its lines go, whatever standard error is */
	settings.log_stderr = isatty(2) || settings.daemon || settings.coldplug_flag || settings.dry_run ||
			      settings.force_stderr;
	if (!cli_config_load(settings.config_file, &config, warn, &error)) {
		g_autoptr(GString) shown = g_string_new(NULL);

		cli_shown_append(shown, error->message);
		fprintf(stderr, "hotplug: %s\n", shown->str);
		return CLI_EXIT_USAGE;
	}
	cli_config_print_warnings("hotplug", warn);
	g_string_free(warn, TRUE);
	if (settings.log_level_name) {
		settings.log_level = cli_log_level_parse(settings.log_level_name);
		if (settings.log_level < 0) {
			fprintf(stderr, "hotplug: --log-level=%s: not err, warning, notice, info or debug\n", cli_shown(settings.log_level_name));
			return CLI_EXIT_USAGE;
		}
	} else if (config.log_level >= 0) {
		settings.log_level = config.log_level;
	}
	if (settings.coldplug_mode && strcmp(settings.coldplug_mode, "trigger") != 0 && strcmp(settings.coldplug_mode, "resolve") != 0) {
		fprintf(stderr, "hotplug: --coldplug=%s: neither resolve nor trigger\n", cli_shown(settings.coldplug_mode));
		return CLI_EXIT_USAGE;
	}
	if (settings.snapshot && (!settings.dry_run || !settings.coldplug_flag || settings.daemon ||
				  g_strcmp0(settings.coldplug_mode, "trigger") == 0 || settings.sysfs)) {
		fprintf(stderr, "hotplug: --snapshot goes with --dry-run --coldplug alone (no --daemon, "
				"--coldplug=trigger or --sysfs)\n");
		return CLI_EXIT_USAGE;
	}
	if (settings.preload && (!settings.daemon || !settings.coldplug_flag || !g_path_is_absolute(settings.preload))) {
		fprintf(stderr, "hotplug: --preload=FILE goes with --daemon --coldplug, and FILE is an absolute path\n");
		return CLI_EXIT_USAGE;
	}
	if (!settings.hotplug_dir && config.hotplug_dir)
		settings.hotplug_dir = g_strdup(config.hotplug_dir);
	if (!settings.sysfs && config.sysfs)
		settings.sysfs = g_strdup(config.sysfs);
	if (settings.max_parallel <= 0)
		settings.max_parallel = config.max_parallel > 0 ? config.max_parallel : 8;
	if (settings.handler_timeout == INT_MIN) /* not given */
		settings.handler_timeout = config.handler_timeout > 0 ? config.handler_timeout : 30;
	else if (settings.handler_timeout < 1 || settings.handler_timeout > CLI_HANDLER_TIMEOUT_MAX) {
		fprintf(stderr, "hotplug: --handler-timeout=%d: not a number of seconds from 1 to %d\n",
			settings.handler_timeout, CLI_HANDLER_TIMEOUT_MAX);
		return CLI_EXIT_USAGE;
	}
	if (!settings.control_path)
		settings.control_path = g_strdup(HOTPLUG_CONTROL_PATH);
	if (settings.coldplug_timeout == INT_MIN)
		settings.coldplug_timeout = config.coldplug_timeout > 0 ? config.coldplug_timeout : CLI_COLDPLUG_TIMEOUT_DEFAULT;
	else if (settings.coldplug_timeout < 1 || settings.coldplug_timeout > CLI_COLDPLUG_TIMEOUT_MAX) {
		fprintf(stderr, "hotplug: --coldplug-timeout=%d: not a number of seconds from 1 to %d\n",
			settings.coldplug_timeout, CLI_COLDPLUG_TIMEOUT_MAX);
		return CLI_EXIT_USAGE;
	}
	if (settings.queue_limit == INT_MIN)
		settings.queue_limit = HOTPLUG_QUEUE_LIMIT_DEFAULT;
	else if (settings.queue_limit < 1 || settings.queue_limit > HOTPLUG_QUEUE_LIMIT_MAX) {
		fprintf(stderr, "hotplug: --queue-limit=%d: not a number of events from 1 to %d\n", settings.queue_limit,
			HOTPLUG_QUEUE_LIMIT_MAX);
		return CLI_EXIT_USAGE;
	}
	if (settings.netlink_group < 1 || settings.netlink_group > 32) {
		fprintf(stderr, "hotplug: bad netlink group\n");
		return CLI_EXIT_USAGE;
	}
	return 0;
}

bool settings_reload(void)
{
	GString *warn = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	struct cli_config fresh;
	bool ok = cli_config_load(settings.config_file, &fresh, warn, &error);

	if (ok) {
		g_auto(GStrv) lines = g_strsplit(warn->str, "\n", -1);

		for (char **l = lines; *l; l++)
			if (**l)
				say(LOG_WARNING, "%s", *l);
		cli_config_clear(&config);
		config = fresh;
	} else {
		say(LOG_ERR, "configuration not reloaded: %s", error->message);
	}
	g_string_free(warn, TRUE);
	return ok;
}

void settings_clear(void)
{
	cli_config_clear(&config);
	closelog();
}
