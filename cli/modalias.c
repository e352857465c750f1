/*
 * modalias - build, take apart, list and resolve device modaliases
 *
 * The dispatcher: main, the table of commands and the options before the
 * command (--config, --help, --version).  Each command is a file of its
 * own (modalias-build.c, -parse.c, -resolve.c, -list.c, -load.c, -map.c,
 * -explain.c, -firmware.c, -diff.c, -snapshot.c)
 * over the public API; their entry points and what they share are in
 * modalias-commands.h.
 *
 * This file may not hold a command's work, nor an option of one.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
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
	{ "firmware", cmd_firmware, "check the firmware that the modules of the devices present declare" },
	{ "diff", cmd_diff, "what moving to another kernel does to each device's modules" },
	{ "snapshot", cmd_snapshot, "write the devices present as a snapshot file, for --snapshot" },
	{ "load", cmd_load, "insert the modules of modaliases, as udev does (--dry-run: as modprobe -n -v)" },
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: modalias [--help] [--version] [--config=FILE] COMMAND [OPTIONS…]\n\n"
		     "Which kernel module drives this device?\n\nCommands:\n");
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n--config=FILE reads FILE instead of the default modalias.conf (see modalias.conf(5)).\n"
		     "Run 'modalias COMMAND --help' for a command's options; '--' ends them\n"
		     "(an alias starting with '-' goes after it: modalias resolve -- -hmac).\n"
		     "Exit status: 0 found, 1 nothing found, 2 usage or input error,\n"
		     "3 standard output cannot be written.\n");
}

int main(int argc, char **argv)
{
	cli_output_init("modalias");
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
	{
		/* modalias --config=FILE COMMAND …: modalias.conf (-C is modprobe.d's) */
		const char *conf = NULL;
		g_autoptr(GError) error = NULL;
		GString *warnings = g_string_new(NULL);
		int ret = -1;

		if (g_str_has_prefix(argv[1], "--config=")) {
			conf = argv[1] + 9;
			argv++;
			argc--;
		} else if (strcmp(argv[1], "--config") == 0 && argc > 2) {
			conf = argv[2];
			argv += 2;
			argc -= 2;
		}
		/* before the command: these options only ('--' may end them) */
		if (argc >= 2 && strcmp(argv[1], "--") == 0) {
			argv++;
			argc--;
		} else if (argc >= 2 && argv[1][0] == '-') {
			if (strcmp(argv[1], "--config") == 0)
				fprintf(stderr, "modalias: --config needs a FILE\n");
			else
				fprintf(stderr, "modalias: unknown option %.*s\n", ECHO(argv[1]));
			fprintf(stderr, "Try 'modalias --help'.\n");
			g_string_free(warnings, TRUE);
			return CLI_EXIT_USAGE;
		}
		if (!cli_config_load(conf, &config, warnings, &error)) {
			g_autoptr(GString) shown = g_string_new(NULL);

			cli_shown_message_append(shown, error->message);
			fprintf(stderr, "modalias: %s\n", shown->str);
			g_string_free(warnings, TRUE);
			return CLI_EXIT_USAGE;
		}
		fputs(warnings->str, stderr);
		g_string_free(warnings, TRUE);
		if (argc < 2) {
			usage(stderr);
			cli_config_clear(&config);
			return CLI_EXIT_USAGE;
		}
		for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				ret = commands[i].run(argc - 1, argv + 1);
		cli_config_clear(&config);
		if (ret >= 0)
			return ret;
	}
	fprintf(stderr, "modalias: unknown command '%.*s'\n", ECHO(argv[1]));
	usage(stderr);
	return CLI_EXIT_USAGE;
}
