/*
 * modalias - build, take apart, list and resolve device modaliases
 *
 * The dispatcher: main, the table of commands and the options before the
 * command (--settings, -C/--config, --help, --version).  Each command is a file of its
 * own (modalias-build.c, -parse.c, -resolve.c, -list.c, -load.c, -map.c,
 * -explain.c, -firmware.c, -diff.c, -snapshot.c)
 * over the public API; their entry points and what they share are in
 * modalias-commands.h.
 *
 * This file may not hold a command's work, nor an option of one.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modalias-commands.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "build", cmd_build, "print the modalias of a device from its IDs or its hotplug environment" },
	{ "parse", cmd_parse, "take modalias strings apart into named fields" },
	{ "resolve", cmd_resolve, "print the modules that serve modaliases (as modprobe -R)" },
	{ "list", cmd_list, "list the devices in sysfs with their modalias and modules" },
	{ "map", cmd_map, "read legacy modules.*map files: entries, alias patterns, matches" },
	{ "explain", cmd_explain, "say why a device has the driver it has, or none" },
	{ "firmware", cmd_firmware, "what firmware the devices present will fail to get (kernel log, modinfo)" },
	{ "diff", cmd_diff, "what moving to another kernel does to each device's modules" },
	{ "snapshot", cmd_snapshot, "write the devices present as a snapshot file, for --snapshot" },
	{ "load", cmd_load, "insert the modules of modaliases, as udev does (--dry-run: as modprobe -n -v)" },
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: modalias [--help] [--version] [--settings=FILE] [-C FILE] COMMAND [OPTIONS…]\n\n"
		     "Which kernel module drives this device?\n\nCommands:\n");
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n--settings=FILE reads FILE instead of the default modalias.conf (see modalias.conf(5));\n"
		     "-C/--config=FILE names a modprobe.d file or directory, as for modprobe.  Both mean\n"
		     "the same before the command and after it.\n"
		     "Run 'modalias COMMAND --help' for a command's options; '--' ends them\n"
		     "(an alias starting with '-' goes after it: modalias resolve -- -hmac).\n"
		     "Exit status: 0 found, 1 what the command looks for is not there (its --help says\n"
		     "what), 2 usage or input error, 3 standard output cannot be written; 4 and 5\n"
		     "firmware, diff and explain only (their --help says what).\n");
}

/* The value of option NAME (long, with its short form SHORT or 0) at
 * ARGV[0]: "--NAME=V", "--NAME V" or "-S V"; *USED the arguments it takes
 * (0: not this option) */
static const char *option_value(char **argv, int argc, const char *name, char short_name, int *used)
{
	size_t len = strlen(name);

	*used = 0;
	if (strncmp(argv[0], "--", 2) == 0 && strncmp(argv[0] + 2, name, len) == 0) {
		if (argv[0][2 + len] == '=') {
			*used = 1;
			return argv[0] + 3 + len;
		}
		if (argv[0][2 + len] != '\0')
			return NULL;
	} else if (!(short_name && argv[0][0] == '-' && argv[0][1] == short_name && argv[0][2] == '\0')) {
		return NULL;
	}
	*used = argc > 1 ? 2 : -1; /* -1: no value */
	return argc > 1 ? argv[1] : NULL;
}

int main(int argc, char **argv)
{
	const char *modprobe_d = NULL;
	g_autofree char *forward = NULL;
	char **args;
	int i, used;

	cli_output_init("modalias");
	/* the charset only (cli_output_glyphs()): messages stay untranslated,
	 * numbers and sorting C's */
	setlocale(LC_CTYPE, "");
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return CLI_EXIT_FOUND;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("modalias (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return CLI_EXIT_FOUND;
	}
	/* before the command: --settings (modalias.conf) and -C/--config
	 * (modprobe.d, handed to the command), '--' may end them */
	for (i = 1; i < argc && argv[i][0] == '-'; i += used) {
		const char *v;

		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		v = option_value(argv + i, argc - i, "settings", 0, &used);
		if (used > 0)
			settings_file = v;
		else if (!used && (v = option_value(argv + i, argc - i, "config", 'C', &used)) && used > 0)
			modprobe_d = v;
		if (used < 0) {
			fprintf(stderr, "modalias: %s needs a FILE\nTry 'modalias --help'.\n", argv[i]);
			return CLI_EXIT_USAGE;
		}
		if (!used) {
			fprintf(stderr, "modalias: unknown option %s\nTry 'modalias --help'.\n", ECHO(argv[i]));
			return CLI_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	/* the command's arguments: -C given before it goes first, as if
	 * given after it */
	args = g_new0(char *, (size_t)(argc - i) + 2);
	args[0] = argv[i];
	if (modprobe_d) {
		forward = g_strconcat("--config=", modprobe_d, NULL);
		args[1] = forward;
	}
	memcpy(args + 1 + !!modprobe_d, argv + i + 1, (size_t)(argc - i - 1) * sizeof(char *));
	for (size_t k = 0; k < G_N_ELEMENTS(commands); k++)
		if (strcmp(argv[i], commands[k].name) == 0) {
			int ret = commands[k].run(argc - i + !!modprobe_d, args);

			cli_config_clear(&config);
			g_free(args);
			return ret;
		}
	g_free(args);
	fprintf(stderr, "modalias: unknown command '%s'\n", ECHO(argv[i]));
	usage(stderr);
	return CLI_EXIT_USAGE;
}
