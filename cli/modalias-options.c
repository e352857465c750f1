/*
 * cli/modalias-options.c - the option rules every modalias command shares:
 * GOption made strict ('--' ends the options, an unknown option or a flag
 * given a value is a usage error naming it: exit 2), -v, --settings
 * (modalias.conf, read once the options are parsed), the -q/--quiet of
 * the commands that have it (standard output to /dev/null), --width and
 * --word-bits.
 *
 * This file parses a command line; it may not know what any command does
 * with its options (but which noun its arguments are, for the messages).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modalias-commands.h"

int verbosity;
const char *settings_file;
bool quiet;
size_t width_option;
unsigned int word_bits_option;

static gboolean opt_verbose(const char *name, const char *value, gpointer data, GError **error)
{
	verbosity++;
	return TRUE;
}

static gboolean opt_settings(const char *name, const char *value, gpointer data, GError **error)
{
	static char *copy; /* GOption's value does not outlive the parse */

	g_free(copy);
	settings_file = copy = g_strdup(value);
	return TRUE;
}

static const GOptionEntry common_entries[] = {
	{ "verbose", 'v', G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, (gpointer)opt_verbose,
	  "Log more (repeat for debug messages)", NULL },
	{ "settings", 0, G_OPTION_FLAG_FILENAME, G_OPTION_ARG_CALLBACK, (gpointer)opt_settings,
	  "Read this modalias.conf instead of " CLI_CONFIG_DEFAULT " (as before the command)", "FILE" },
	{ NULL }
};

/* What a command's arguments are, for "… starting with '-' goes after '--'" */
static const char *argument_noun(const char *cmd)
{
	if (strcmp(cmd, "resolve") == 0 || strcmp(cmd, "load") == 0 || strcmp(cmd, "parse") == 0)
		return "an alias";
	if (strcmp(cmd, "map") == 0)
		return "a file";
	if (strcmp(cmd, "build") == 0)
		return "an argument";
	return NULL; /* list: none */
}

/* The entry of these sets with this long name (LEN bytes) or, when NAME is
 * NULL, this short name; NULL when there is none.  GOption's own -h,
 * --help, -? and --help-all are options too. */
static const GOptionEntry *option_find(const GOptionEntry *const *sets, const char *name, size_t len, char c)
{
	/* -? is GOption's other name for --help; here it rides with --help-all */
	static const GOptionEntry help[] = {
		{ "help", 'h', 0, G_OPTION_ARG_NONE, NULL, NULL, NULL },
		{ "help-all", '?', 0, G_OPTION_ARG_NONE, NULL, NULL, NULL },
		{ NULL }
	};

	for (const GOptionEntry *const *set = sets;; set++) {
		const GOptionEntry *e = *set ? *set : help;

		for (; e->long_name; e++)
			if (name ? strlen(e->long_name) == len && strncmp(e->long_name, name, len) == 0 : e->short_name == c)
				return e;
		if (!*set)
			return NULL;
	}
}

/* Whether the option takes the next argument as its value (when not given
 * as --name=VALUE) */
static bool option_takes_next(const GOptionEntry *e)
{
	if (e->arg == G_OPTION_ARG_NONE)
		return false;
	if (e->arg == G_OPTION_ARG_CALLBACK && (e->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG)))
		return false;
	return true;
}

static void load_settings(void);

gboolean opt_quiet(const char *name, const char *value, gpointer data, GError **error)
{
	quiet = true;
	return TRUE;
}

gboolean opt_width(const char *name, const char *value, gpointer data, GError **error)
{
	guint64 n;

	G_STATIC_ASSERT(CLI_WIDTH_MIN == 30); /* CLI_WIDTH_MIN_TEXT says so in --help */
	if (!g_ascii_string_to_unsigned(value, 10, CLI_WIDTH_MIN, G_MAXINT, &n, NULL)) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--width takes a number of columns, %d or more (not '%s')", CLI_WIDTH_MIN, value);
		return FALSE;
	}
	width_option = n;
	return TRUE;
}

gboolean opt_word_bits(const char *name, const char *value, gpointer data, GError **error)
{
	if (strcmp(value, "32") != 0 && strcmp(value, "64") != 0) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--word-bits takes 32 or 64, the word size of the kernel (not '%s')", value);
		return FALSE;
	}
	word_bits_option = value[0] == '3' ? 32 : 64;
	return TRUE;
}

/* --quiet: nothing on standard output, whatever the command would print
 * (once the options are parsed: --help still prints) */
static void quiet_stdout(const char *cmd)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		fprintf(stderr, "modalias %s: --quiet: cannot open /dev/null: %s\n", cmd, g_strerror(errno));
		exit(CLI_EXIT_USAGE);
	}
	if (fd != STDOUT_FILENO)
		close(fd);
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "modalias %s: %s\nTry 'modalias %s --help'.\n", cmd, msg, cmd);
	return CLI_EXIT_USAGE;
}

/* The index of the '--' that ends the options (argc when there is none).
 * Before it, every argument starting with '-' (but '-' alone) must be an
 * option of SETS: --name, --name=VALUE, -x, or a group of flags -xyz of
 * which only the last may take a value (the next argument, as GOption
 * reads it).  GOption would take an unknown -hmac for -h (the help, exit 0)
 * and leave a '--' followed by '-…' arguments in place; an alias may start
 * with '-'.  Exits 2 naming the first unknown option. */
static int options_end(const char *cmd, const GOptionEntry *const *sets, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const GOptionEntry *e = NULL;
		bool next = false;

		if (strcmp(a, "--") == 0)
			return i;
		if (a[0] != '-' || a[1] == '\0')
			continue;
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');

			e = option_find(sets, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), 0);
			next = e && !eq && option_takes_next(e);
			/* GOption would drop the value of a flag (--json=no) */
			if (e && eq && (e->arg == G_OPTION_ARG_NONE || (e->flags & G_OPTION_FLAG_NO_ARG))) {
				exit(usage_error(cmd, "option --%s takes no value", e->long_name));
			}
		} else {
			for (const char *c = a + 1; *c; c++) {
				e = option_find(sets, NULL, 0, *c);
				/* a value-taking one ends the group */
				if (!e || (c[1] && option_takes_next(e))) {
					e = NULL;
					break;
				}
				next = option_takes_next(e);
			}
		}
		if (!e) {
			const char *noun = argument_noun(cmd);

			if (noun)
				exit(usage_error(cmd, "unknown option %s (%s starting with '-' goes after '--')",
						 ECHO(a), noun));
			exit(usage_error(cmd, "unknown option %s", ECHO(a)));
		}
		i += next;
	}
	return argc;
}

void parse_options(const char *cmd, const char *params, const char *summary, const GOptionEntry *entries,
		   int *argc, char ***argv)
{
	g_autoptr(GOptionContext) oc = g_option_context_new(params);
	g_autoptr(GError) error = NULL;
	g_autofree char *prog = g_strdup_printf("modalias %s", cmd);
	const GOptionEntry *const sets[] = { entries ? entries : common_entries, common_entries, NULL };
	const char *noun = argument_noun(cmd);
	g_autofree char *full_summary = noun ? g_strdup_printf("%s\n%c%s starting with '-' goes after '--'.", summary,
							       g_ascii_toupper(noun[0]), noun + 1)
					     : g_strdup(summary);
	int end = options_end(cmd, sets, *argc, *argv), rest = *argc - end - (end < *argc);

	g_set_prgname(prog);
	g_option_context_set_summary(oc, full_summary);
	if (entries)
		g_option_context_add_main_entries(oc, entries, NULL);
	g_option_context_add_main_entries(oc, common_entries, NULL);
	/* GOption reads what comes before the '--'; what follows it is put
	 * back after what GOption left */
	*argc = end;
	if (!g_option_context_parse(oc, argc, argv, &error)) {
		exit(usage_error(cmd, "%s", cli_shown(error->message))); /* it quotes the value given */
	}
	memmove(*argv + *argc, *argv + end + 1, (size_t)rest * sizeof(char *));
	*argc += rest;
	(*argv)[*argc] = NULL;
	if (quiet)
		quiet_stdout(cmd);
	load_settings();
}

/* modalias.conf (--settings, before or after the command), for the
 * command to run with; exits 2 when it cannot be read */
static void load_settings(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GString) warnings = g_string_new(NULL);

	if (!cli_config_load(settings_file, &config, warnings, &error)) {
		g_autoptr(GString) shown = g_string_new(NULL);

		/* GKeyFile's message quotes the file's bad key or group */
		cli_shown_append(shown, error->message);
		fprintf(stderr, "modalias: %s\n", shown->str);
		exit(CLI_EXIT_USAGE);
	}
	cli_config_print_warnings("modalias", warnings);
}
