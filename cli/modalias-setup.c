/*
 * cli/modalias-setup.c - what a modalias command starts from: modalias.conf's
 * settings, the library context with its log on standard error, and the
 * module tables (libcli's cli_tables_open(), with the bundled Debian 6.1
 * table where a machine has none).
 *
 * This file sets things up; it may not look anything up or print a
 * command's output.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modalias-commands.h"

struct cli_config config;

static void log_to_stderr(void *data, int priority, const char *file, int line, const char *fn,
			  const char *format, va_list args)
{
	g_autofree char *msg = g_strdup_vprintf(format, args);
	g_autoptr(GString) shown = g_string_new(NULL);

	/* a message quotes the tables, modprobe.d, sysfs: escaped (one line) */
	g_strchomp(msg);
	cli_shown_message_append(shown, msg);
	fprintf(stderr, "modalias: %s\n", shown->str);
}

struct modalias_ctx *new_ctx(const char *sysfs)
{
	struct modalias_ctx *ctx;
	int r = modalias_ctx_new(&ctx);

	if (r < 0) {
		fprintf(stderr, "modalias: cannot create a library context: %s\n", strerror(-r));
		exit(CLI_EXIT_USAGE);
	}
	modalias_ctx_set_log_fn(ctx, log_to_stderr, NULL);
	if (verbosity)
		modalias_ctx_set_log_priority(ctx, verbosity > 1 ? 7 : 6);
	else if (config.log_level >= 0)
		modalias_ctx_set_log_priority(ctx, config.log_level);
	if (sysfs && (r = modalias_ctx_set_sysfs_root(ctx, sysfs)) < 0) {
		fprintf(stderr, "modalias: bad sysfs root '%s': %s\n", sysfs, strerror(-r));
		exit(CLI_EXIT_USAGE);
	}
	return ctx;
}

struct modalias_ctx *open_devices(struct device_source *src, const char *cmd, struct cli_devices *dv)
{
	struct modalias_ctx *ctx;
	int r;

	if (src->sysfs && src->snapshot) {
		fprintf(stderr, "modalias %s: --sysfs and --snapshot exclude each other\n", cmd);
		exit(CLI_EXIT_USAGE);
	}
	ctx = new_ctx(src->sysfs ? src->sysfs : config.sysfs);
	r = cli_devices_open(dv, ctx, src->snapshot);
	if (r < 0) {
		fprintf(stderr, "modalias %s: cannot use the snapshot %s: %s\n", cmd, src->snapshot, cli_devices_error(r));
		exit(CLI_EXIT_USAGE);
	}
	device_source_clear(src);
	return ctx;
}

void device_source_clear(struct device_source *src)
{
	g_free(src->sysfs);
	g_free(src->snapshot);
	src->sysfs = src->snapshot = NULL;
}

/* Where no module directory is (containers, CI), the bundled Debian 6.1
 * table: installed with the package, or in the source tree it was built in. */
static char *bundled_dir(void)
{
	static const char *const dirs[] = { BUNDLED_MODDIR, SOURCE_MODDIR };

	for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
		g_autofree char *alias = g_build_filename(dirs[i], "modules.alias", NULL);
		if (g_file_test(alias, G_FILE_TEST_IS_REGULAR))
			return g_strdup(dirs[i]);
	}
	return NULL;
}

/* cli_tables_open()'s reports: "modalias COMMAND: …", whatever the priority */
static void report_to_stderr(void *data, int priority, const char *message)
{
	g_autoptr(GString) shown = g_string_new(NULL);

	cli_shown_message_append(shown, message);
	fprintf(stderr, "modalias %s: %s\n", (const char *)data, shown->str);
}

int open_tables(struct modalias_ctx *ctx, const struct cli_tables_spec *spec, const char *cmd, unsigned int flags,
		struct cli_tables *out)
{
	g_autofree char *dir = cli_module_dir(spec, &config);
	g_autofree char *bundled = NULL;

	if (!cli_module_dir_named(spec, &config) && !g_file_test(dir, G_FILE_TEST_IS_DIR) && (bundled = bundled_dir()))
		fprintf(stderr, "modalias %s: no %s here: using the bundled Debian 6.1 table (%s)\n", cmd, cli_shown(dir),
			bundled);
	return cli_tables_open(ctx, spec, bundled ? bundled : dir, &config, flags, report_to_stderr, (void *)cmd, out);
}
