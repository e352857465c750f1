/*
 * modalias - build, take apart and list device modaliases
 *
 * A thin front end: option parsing, a table of subcommands, output.
 * Everything else is libmodalias.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "libmodalias.h"

enum {
	EXIT_FOUND = 0,
	EXIT_NOTHING = 1,
	EXIT_USAGE = 2, /* usage or input error */
};

static int verbosity;

static void log_to_stderr(void *data, int priority, const char *file, int line,
			  const char *fn, const char *format, va_list args)
{
	fputs("modalias: ", stderr);
	vfprintf(stderr, format, args);
}

static gboolean opt_verbose(const char *name, const char *value, gpointer data, GError **error)
{
	verbosity++;
	return TRUE;
}

static const GOptionEntry common_entries[] = {
	{ "verbose", 'v', G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, (gpointer)opt_verbose,
	  "Log more (repeat for debug messages)", NULL },
	{ NULL }
};

static struct modalias_ctx *new_ctx(const char *sysfs)
{
	struct modalias_ctx *ctx;
	int r = modalias_ctx_new(&ctx);

	if (r < 0) {
		fprintf(stderr, "modalias: cannot create a library context: %s\n", strerror(-r));
		exit(EXIT_USAGE);
	}
	modalias_ctx_set_log_fn(ctx, log_to_stderr, NULL);
	if (verbosity)
		modalias_ctx_set_log_priority(ctx, verbosity > 1 ? 7 : 6);
	if (sysfs && (r = modalias_ctx_set_sysfs_root(ctx, sysfs)) < 0) {
		fprintf(stderr, "modalias: bad sysfs root '%s': %s\n", sysfs, strerror(-r));
		exit(EXIT_USAGE);
	}
	return ctx;
}

/* Parses the options of one subcommand; exits 2 on a usage error. */
static void parse_options(const char *cmd, const char *params, const char *summary,
			  const GOptionEntry *entries, int *argc, char ***argv)
{
	g_autoptr(GOptionContext) oc = g_option_context_new(params);
	g_autoptr(GError) error = NULL;
	g_autofree char *prog = g_strdup_printf("modalias %s", cmd);

	g_set_prgname(prog);
	g_option_context_set_summary(oc, summary);
	if (entries)
		g_option_context_add_main_entries(oc, entries, NULL);
	g_option_context_add_main_entries(oc, common_entries, NULL);
	if (!g_option_context_parse(oc, argc, argv, &error)) {
		fprintf(stderr, "modalias %s: %s\nTry 'modalias %s --help'.\n", cmd, error->message, cmd);
		exit(EXIT_USAGE);
	}
}

static int print_dev(struct modalias_dev *dev)
{
	char *s;
	int r = modalias_dev_format(dev, &s);

	if (r < 0) {
		fprintf(stderr, "modalias: cannot format: %s\n", strerror(-r));
		return EXIT_USAGE;
	}
	puts(s);
	free(s);
	return EXIT_FOUND;
}

/* ---- build ---------------------------------------------------------------- */

static int list_fields(const char *bus)
{
	const char *f;

	if (!modalias_bus_field_name(bus, 0)) {
		fprintf(stderr, "modalias build: unknown bus '%s' (known: see 'modalias build --buses')\n", bus);
		return EXIT_USAGE;
	}
	for (unsigned int i = 0; (f = modalias_bus_field_name(bus, i)); i++)
		printf("%-20s %s\n", f, modalias_bus_field_help(bus, f));
	return EXIT_FOUND;
}

static int cmd_build(int argc, char **argv)
{
	gboolean from_env = FALSE, fields = FALSE, buses = FALSE;
	g_autofree char *sysfs = NULL;
	const GOptionEntry entries[] = {
		{ "env", 'e', 0, G_OPTION_ARG_NONE, &from_env,
		  "Build from the kernel event in the environment (MODALIAS, or the legacy variables); BUS defaults to $SUBSYSTEM", NULL },
		{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs,
		  "Sysfs root for --env lookups of $DEVPATH (default /sys)", "DIR" },
		{ "fields", 'f', 0, G_OPTION_ARG_NONE, &fields, "List the fields of BUS", NULL },
		{ "buses", 0, 0, G_OPTION_ARG_NONE, &buses, "List the known buses", NULL },
		{ NULL }
	};
	struct modalias_ctx *ctx;
	struct modalias_dev *dev = NULL;
	int r, ret;

	parse_options("build", "BUS [FIELD=VALUE…] | --env [BUS]",
		      "Print the modalias the kernel writes for a device with these IDs.\n"
		      "Numbers are hexadecimal; a list field may be given several times.",
		      entries, &argc, &argv);
	if (buses) {
		const char *b;
		for (unsigned int i = 0; (b = modalias_bus_name(i)); i++)
			puts(b);
		return EXIT_FOUND;
	}
	if (fields) {
		if (argc != 2) {
			fprintf(stderr, "modalias build: --fields takes one BUS\n");
			return EXIT_USAGE;
		}
		return list_fields(argv[1]);
	}
	ctx = new_ctx(sysfs);
	if (from_env) {
		if (argc > 2) {
			fprintf(stderr, "modalias build: --env takes at most one BUS\n");
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
		r = modalias_dev_new_from_env(ctx, argc == 2 ? argv[1] : NULL,
					      (const char *const *)environ, &dev);
		if (r < 0) {
			fprintf(stderr, "modalias build: no modalias from the environment: %s\n", strerror(-r));
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
	} else {
		if (argc < 2) {
			fprintf(stderr, "modalias build: a BUS is needed\nTry 'modalias build --help'.\n");
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
		r = modalias_dev_new(ctx, argv[1], &dev);
		if (r < 0) {
			fprintf(stderr, "modalias build: unknown bus '%s' (see 'modalias build --buses')\n", argv[1]);
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
		for (int i = 2; i < argc; i++) {
			char *eq = strchr(argv[i], '=');

			if (!eq || eq == argv[i]) {
				fprintf(stderr, "modalias build: '%s' is not FIELD=VALUE\n", argv[i]);
				r = -EINVAL;
				break;
			}
			*eq = '\0';
			r = modalias_dev_add(dev, argv[i], eq + 1);
			*eq = '=';
			if (r < 0) {
				/* the library named the field and the reason */
				fprintf(stderr, "modalias build: bad field '%s'\n", argv[i]);
				break;
			}
		}
		if (r < 0) {
			modalias_dev_unref(dev);
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
	}
	ret = print_dev(dev);
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
	return ret;
}

/* ---- parse ---------------------------------------------------------------- */

static void print_fields(struct modalias_dev *dev)
{
	const char *bus = modalias_dev_get_bus(dev), *f;

	printf("\tbus=%s\n", bus);
	if (!modalias_bus_field_name(bus, 0)) {
		const char *raw;
		if (modalias_dev_get(dev, "raw", 0, &raw) == 0)
			printf("\traw=%s\n", raw);
		return;
	}
	for (unsigned int i = 0; (f = modalias_bus_field_name(bus, i)); i++) {
		int n = modalias_dev_get_count(dev, f);
		for (int k = 0; k < n; k++) {
			const char *v;
			if (modalias_dev_get(dev, f, (unsigned int)k, &v) == 0)
				printf("\t%s=%s\n", f, v);
		}
	}
}

static int cmd_parse(int argc, char **argv)
{
	struct modalias_ctx *ctx;
	int ret = EXIT_FOUND;

	parse_options("parse", "ALIAS…", "Take modalias strings apart into their bus and named fields.",
		      NULL, &argc, &argv);
	if (argc < 2) {
		fprintf(stderr, "modalias parse: an ALIAS is needed\nTry 'modalias parse --help'.\n");
		return EXIT_USAGE;
	}
	ctx = new_ctx(NULL);
	for (int i = 1; i < argc; i++) {
		struct modalias_dev *dev;
		int r = modalias_parse(ctx, argv[i], &dev);

		if (r < 0) {
			fprintf(stderr, "modalias parse: '%s' is not a valid modalias\n", argv[i]);
			ret = EXIT_USAGE;
			continue;
		}
		printf("%s\n", argv[i]);
		print_fields(dev);
		modalias_dev_unref(dev);
	}
	modalias_ctx_unref(ctx);
	return ret;
}

/* ---- list ----------------------------------------------------------------- */

struct list_state {
	unsigned int devices;
	unsigned int errors;
};

static int list_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct list_state *st = data;
	char *s;

	if (err < 0 || modalias_dev_format(dev, &s) < 0) {
		fprintf(stderr, "modalias list: %s: cannot read its modalias: %s\n", devpath,
			strerror(err < 0 ? -err : ENOMEM));
		st->errors++;
		return 0;
	}
	printf("%s\t%s\n", devpath, s);
	free(s);
	st->devices++;
	return 0;
}

static int cmd_list(int argc, char **argv)
{
	g_autofree char *sysfs = NULL;
	const GOptionEntry entries[] = {
		{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs, "Sysfs root (default /sys)", "DIR" },
		{ NULL }
	};
	struct list_state st = { 0 };
	struct modalias_ctx *ctx;
	int r;

	parse_options("list", "", "Print every device under the sysfs root that has a modalias:\nDEVPATH<TAB>MODALIAS, parents before children.",
		      entries, &argc, &argv);
	if (argc > 1) {
		fprintf(stderr, "modalias list: unexpected argument '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	ctx = new_ctx(sysfs);
	r = modalias_sysfs_foreach(ctx, list_one, &st);
	modalias_ctx_unref(ctx);
	if (r < 0)
		return EXIT_USAGE;
	if (st.errors)
		return EXIT_USAGE;
	return st.devices ? EXIT_FOUND : EXIT_NOTHING;
}

/* ---- dispatch ------------------------------------------------------------- */

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "build", cmd_build, "print the modalias of a device from its IDs or its hotplug environment" },
	{ "parse", cmd_parse, "take modalias strings apart into named fields" },
	{ "list", cmd_list, "list the devices in sysfs with their modalias" },
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: modalias [--help] [--version] COMMAND [OPTIONS…]\n\n"
		     "Which kernel module drives this device?\n\nCommands:\n");
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\nRun 'modalias COMMAND --help' for a command's options.\n"
		     "Exit status: 0 found, 1 nothing found, 2 usage or input error.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EXIT_FOUND;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("modalias (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return EXIT_FOUND;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "modalias: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
