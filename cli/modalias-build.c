/*
 * cli/modalias-build.c - modalias build: the modalias the kernel writes
 * for a device from its IDs (BUS FIELD=VALUE…) or from the kernel event in
 * the environment (--env); --fields and --buses.  Also the device made of
 * BUS FIELD=VALUE… arguments, which map --match takes too.
 *
 * This file turns arguments into a device and prints it; it may not read
 * module tables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "modalias-commands.h"

/* "its fields: A, B, …; see 'modalias build --fields BUS'" (g_free() it) */
static char *fields_hint(const char *bus)
{
	GString *s = g_string_new("its fields: ");
	const char *f;

	for (unsigned int i = 0; (f = modalias_bus_field_name(bus, i)); i++)
		g_string_append_printf(s, i ? ", %s" : "%s", f);
	g_string_append_printf(s, " (see 'modalias build --fields %s')", bus);
	return g_string_free(s, FALSE);
}

struct modalias_dev *dev_from_args(struct modalias_ctx *ctx, const char *cmd, const char *bus, char **args, int n)
{
	struct modalias_dev *dev;
	int r = modalias_dev_new(ctx, bus, &dev);

	if (r < 0) {
		fprintf(stderr, "modalias %s: unknown bus '%s' (see 'modalias build --buses')\n", cmd, ECHO(bus));
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		char *eq = strchr(args[i], '=');

		if (!eq || eq == args[i]) {
			fprintf(stderr, "modalias %s: '%s' is not FIELD=VALUE\n", cmd, ECHO(args[i]));
			modalias_dev_unref(dev);
			return NULL;
		}
		*eq = '\0';
		{
			g_autoptr(GString) why = g_string_new(NULL);

			/* the library names the field and the reason: one line */
			ctx_capture(ctx, why);
			r = modalias_dev_add(dev, args[i], eq + 1);
			ctx_capture(ctx, NULL);
			if (r < 0) {
				g_autofree char *hint = r == -ENOENT ? fields_hint(bus) : NULL;
				g_autofree char *fallback = g_strdup_printf("bad field '%s'", ECHO(args[i]));

				say_captured(cmd, why, fallback, hint);
			}
		}
		*eq = '=';
		if (r < 0) {
			modalias_dev_unref(dev);
			return NULL;
		}
	}
	return dev;
}

static int print_dev(struct modalias_dev *dev)
{
	char *s;
	int r = modalias_dev_format(dev, &s);

	if (r < 0) {
		fprintf(stderr, "modalias: cannot format: %s\n", strerror(-r));
		return CLI_EXIT_USAGE;
	}
	puts(cli_shown(s)); /* from the environment: any byte (--json keeps them) */
	free(s);
	return CLI_EXIT_FOUND;
}

static int list_fields(const char *bus)
{
	const char *f;

	if (!modalias_bus_field_name(bus, 0)) {
		fprintf(stderr, "modalias build: unknown bus '%s' (known: see 'modalias build --buses')\n", ECHO(bus));
		return CLI_EXIT_USAGE;
	}
	for (unsigned int i = 0; (f = modalias_bus_field_name(bus, i)); i++)
		printf("%-20s %s\n", f, modalias_bus_field_help(bus, f));
	return CLI_EXIT_FOUND;
}

/*
 * The device of the event in the environment: its MODALIAS, else its
 * legacy variables, else the device at $DEVPATH under the sysfs root
 * (modalias_dev_new_from_sysfs(): its modalias attribute, uevent or id
 * attributes).  On failure, why in one line naming the variable, and
 * what to give.
 */
static int dev_from_env(struct modalias_ctx *ctx, const char *bus, struct modalias_dev **dev)
{
	g_autoptr(GString) why = g_string_new(NULL);
	const char *devpath = getenv("DEVPATH");
	int r;

	ctx_capture(ctx, why);
	r = modalias_dev_new_from_env(ctx, bus, (const char *const *)environ, dev);
	if (r >= 0)
		say_log(why); /* a note on the event read: a word size assumed */
	if (r == -ENOENT && devpath) {
		g_autoptr(GString) sysfs_why = g_string_new(NULL);

		ctx_capture(ctx, sysfs_why);
		r = modalias_dev_new_from_sysfs(ctx, devpath, dev);
		if (r < 0)
			g_string_append_printf(why, "DEVPATH %s under %s: %s\n", cli_echo(devpath, ECHO_MAX),
					       cli_shown(modalias_ctx_get_sysfs_root(ctx)),
					       sysfs_why->len ? sysfs_why->str : g_strerror(-r));
	}
	ctx_capture(ctx, NULL);
	if (r < 0)
		say_captured("build", why, g_strerror(-r),
			     r == -ENOENT ? "give MODALIAS, the legacy variables, or DEVPATH of a device under --sysfs"
					  : NULL);
	return r;
}

int cmd_build(int argc, char **argv)
{
	gboolean from_env = FALSE, fields = FALSE, buses = FALSE, json = FALSE;
	g_autofree char *sysfs = NULL;
	const GOptionEntry entries[] = {
		{ "env", 'e', 0, G_OPTION_ARG_NONE, &from_env,
		  "Build from the kernel event in the environment (MODALIAS, else the legacy variables, else the "
		  "device at $DEVPATH under the sysfs root); BUS defaults to $SUBSYSTEM", NULL },
		{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs,
		  "Sysfs root for --env lookups of $DEVPATH (default /sys)", "DIR" },
		{ "fields", 'f', 0, G_OPTION_ARG_NONE, &fields, "List the fields of BUS", NULL },
		{ "buses", 0, 0, G_OPTION_ARG_NONE, &buses, "List the known buses", NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print {modalias, bus, fields} as JSON", NULL },
		WORD_BITS_OPTION_ENTRY("--env's EV=, KEY=, …", "said on standard error"),
		{ NULL }
	};
	struct modalias_ctx *ctx;
	struct modalias_dev *dev = NULL;
	int ret;

	parse_options("build", "BUS FIELD=VALUE… | --env [BUS]",
		      "Print the modalias the kernel writes for a device with these IDs.\n"
		      "Numbers are hexadecimal; a list field may be given several times.\n"
		      "A field today's kernels always write (USB's bInterfaceNumber, HID's group) is 0\n"
		      "unless given; FIELD= (empty) leaves it out, as old kernels did.\n"
		      "Exit status: 0 printed (1 is not used), 2 usage or input error, 3 write error.",
		      entries, &argc, &argv);
	if (buses) {
		const char *b;
		for (unsigned int i = 0; (b = modalias_bus_name(i)); i++)
			puts(b);
		return CLI_EXIT_FOUND;
	}
	if (fields) {
		if (argc != 2) {
			fprintf(stderr, "modalias build: --fields takes one BUS\n");
			return CLI_EXIT_USAGE;
		}
		return list_fields(argv[1]);
	}
	ctx = new_ctx(sysfs);
	if (from_env) {
		int r;

		if (argc > 2) {
			fprintf(stderr, "modalias build: --env takes at most one BUS\n");
			modalias_ctx_unref(ctx);
			return CLI_EXIT_USAGE;
		}
		/* why an event has no modalias is the answer here, not noise */
		if (modalias_ctx_get_log_priority(ctx) < LOG_INFO)
			modalias_ctx_set_log_priority(ctx, LOG_INFO);
		r = dev_from_env(ctx, argc == 2 ? argv[1] : NULL, &dev);
		if (r < 0) {
			modalias_ctx_unref(ctx);
			return CLI_EXIT_USAGE;
		}
	} else {
		if (argc < 2) {
			usage_error("build", "a BUS is needed");
			modalias_ctx_unref(ctx);
			return CLI_EXIT_USAGE;
		}
		/* every field at 0 (or empty) is no device, whatever the bus */
		if (argc == 2 && modalias_bus_field_name(argv[1], 0)) {
			g_autofree char *hint = fields_hint(argv[1]);

			modalias_ctx_unref(ctx);
			return usage_error("build", "%s: no FIELD=VALUE: give the device's IDs, e.g. %s=…; %s", argv[1],
					   modalias_bus_field_name(argv[1], 0), hint);
		}
		dev = dev_from_args(ctx, "build", argv[1], argv + 2, argc - 2);
		if (!dev) {
			modalias_ctx_unref(ctx);
			return CLI_EXIT_USAGE;
		}
	}
	if (json) {
		char *str;
		GString *j = g_string_new(NULL);

		ret = modalias_dev_format(dev, &str) < 0 ? CLI_EXIT_USAGE : CLI_EXIT_FOUND;
		if (ret == CLI_EXIT_FOUND) {
			dev_json(j, dev, str);
			puts(j->str);
			free(str);
		}
		g_string_free(j, TRUE);
	} else {
		ret = print_dev(dev);
	}
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
	return ret;
}
