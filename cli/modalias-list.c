/*
 * cli/modalias-list.c - modalias list: every device under the sysfs root
 * that has a modalias, parents first, with the driver bound to it, the
 * modules that serve it and their state (loaded, builtin, blacklisted,
 * available, not-loaded, unknown), and a summary.
 * On a terminal (or with --width) and with --tree, the devices are kept
 * and drawn at the end (modalias-list-tree.c).
 *
 * This file walks sysfs (or a snapshot) and prints; it may not load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modalias-commands.h"
#include "cli-columns.h"
#include "modalias-list.h"

struct list_state {
	unsigned int devices;
	unsigned int unbound;   /* no driver bound */
	unsigned int unmatched; /* no module of the table matches */
	unsigned int errors;
	gboolean json;
	GString *out; /* the JSON array, else the line being written */
	GPtrArray *rows; /* of struct list_row: the human output, else NULL */
	struct cli_devices dv;
	struct cli_tables *tables; /* NULL: no module column */
	struct modalias_ctx *ctx;
	struct modalias_result *res;
};

static void row_free(void *p)
{
	struct list_row *row = p;

	g_free(row->devpath);
	g_free(row->modalias);
	g_free(row->driver);
	g_free(row->modules);
	g_free(row->name);
	g_free(row);
}

static int list_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct list_state *st = data;
	GString *mods = NULL;
	g_autofree char *driver_module = NULL;
	char *s, *driver = NULL;
	int n = 0;

	if (err < 0 || modalias_dev_format(dev, &s) < 0) {
		fprintf(stderr, "modalias list: %s: cannot read its modalias: %s\n", cli_shown(devpath),
			strerror(err < 0 ? -err : ENOMEM));
		st->errors++;
		return 0;
	}
	if (st->tables)
		n = modalias_table_lookup(st->tables->table, s, st->res);
	cli_devices_get_driver(&st->dv, devpath, &driver, &driver_module, NULL);
	st->devices++;
	st->unbound += !driver;
	st->unmatched += st->tables && n <= 0;
	if (st->json) {
		g_string_append(st->out, st->devices > 1 ? ",\n  {\"devpath\": " : "\n  {\"devpath\": ");
		json_string(st->out, devpath);
		g_string_append(st->out, ", \"modalias\": ");
		json_string(st->out, s);
		g_string_append(st->out, ", \"driver\": ");
		if (driver)
			json_string(st->out, driver);
		else
			g_string_append(st->out, "null");
		dev_names_json(st->out, st->ctx, dev);
		g_string_append(st->out, ", \"modules\": [");
		for (int i = 0; i < n; i++) {
			g_string_append(st->out, i ? ", {\"name\": " : "{\"name\": ");
			json_string(st->out, modalias_result_get_module(st->res, (unsigned int)i));
			g_string_append(st->out, ", \"state\": ");
			json_string(st->out, cli_module_state(&st->dv, st->tables, st->res, (unsigned int)i, driver, driver_module));
			g_string_append_c(st->out, '}');
		}
		g_string_append(st->out, "]}");
		g_free(driver);
		free(s);
		return 0;
	}
	if (st->tables) {
		mods = g_string_new(n > 0 ? NULL : "none");
		for (int i = 0; i < n; i++)
			g_string_append_printf(mods, i ? " %s:%s" : "%s:%s",
					       cli_shown(modalias_result_get_module(st->res, (unsigned int)i)),
					       cli_module_state(&st->dv, st->tables, st->res, (unsigned int)i, driver, driver_module));
	}
	if (st->rows) {
		struct list_row *row = g_new(struct list_row, 1);

		row->devpath = g_strdup(cli_shown(devpath));
		row->modalias = g_strdup(cli_shown(s));
		row->driver = g_strdup(driver ? cli_shown(driver) : "-");
		g_free(driver);
		row->modules = mods ? g_string_free(mods, FALSE) : NULL;
		row->name = dev_name_text(st->ctx, dev);
		g_ptr_array_add(st->rows, row);
		free(s);
		return 0;
	}
	g_string_printf(st->out, "%s\t%s\t%s%s%s\n", cli_shown(devpath), cli_shown(s), driver ? cli_shown(driver) : "-",
			mods ? "\t" : "", mods ? mods->str : "");
	if (mods)
		g_string_free(mods, TRUE);
	g_free(driver);
	free(s);
	/* each line checked as it is written: a write error ends the walk at
	 * once (not after the last device), with its reason */
	cli_output_puts(st->out->str);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct device_source src = { NULL };
	struct cli_tables_spec spec = { NULL };
	struct cli_tables tables = { NULL };
	gboolean no_modules = FALSE, tree = FALSE;
	struct list_state st = { 0 };
	const GOptionEntry entries[] = {
		DEVICE_OPTION_ENTRIES(src),
		TABLE_OPTION_ENTRIES(spec),
		{ "no-modules", 'n', 0, G_OPTION_ARG_NONE, &no_modules, "Leave the module column out", NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &st.json,
		  "Print a JSON array of {devpath, modalias, driver, vendor_name, device_name, class_name, "
		  "modules: [{name, state}]}", NULL },
		{ "tree", 't', 0, G_OPTION_ARG_NONE, &tree,
		  "Draw the devices as a tree, each by its name (parents that have no modalias too)", NULL },
		WIDTH_OPTION_ENTRY("modaliases"),
		{ NULL }
	};
	struct modalias_ctx *ctx;
	size_t width;
	int r;

	parse_options("list", "", "Print every device under the sysfs root (or in a snapshot) that has a modalias,\nparents first:\n"
		      "DEVPATH<TAB>MODALIAS<TAB>DRIVER<TAB>MODULE:STATE … (DRIVER: the driver bound now,\n"
		      "- when none; STATE: loaded, builtin, blacklisted, available, not-loaded from\n"
		      "tables of another kernel, or unknown where the tree records no module (a\n"
		      "captured tree without /sys/module); none when no module serves it), then a summary on\n"
		      "standard error: the devices without a bound driver, and those no module matches.\n"
		      "On a terminal the columns are aligned and cut with '…' so that each line fits\n"
		      "its width (else $COLUMNS, else 80); --width=N does so for N columns wherever\n"
		      "the output goes.  --tree draws the devices below /devices as a tree (piped\n"
		      "without --width, nothing cut).\n"
		      "Exit status: 0 a device found, 1 none, 2 usage or input error (a device whose\n"
		      "modalias cannot be read included), 3 write error.",
		      entries, &argc, &argv);
	r = 0;
	if (argc > 1)
		r = usage_error("list", "unexpected argument '%s'", ECHO(argv[1]));
	else if (st.json && (tree || width_option))
		r = usage_error("list", "%s and --json cannot be used together", tree ? "--tree" : "--width");
	if (r) {
		cli_tables_spec_clear(&spec);
		device_source_clear(&src);
		return r;
	}
	width = width_option ? width_option : cli_terminal_width();
	if (!st.json && (tree || width))
		st.rows = g_ptr_array_new_with_free_func(row_free);
	ctx = open_devices(&src, "list", &st.dv);
	st.ctx = ctx;
	if (!no_modules) {
		r = open_machine_tables(ctx, &st.dv, &spec, "list", 0, &tables);
		if (r < 0 || modalias_result_new(&st.res) < 0) {
			cli_tables_spec_clear(&spec);
			cli_tables_close(&tables);
			cli_devices_close(&st.dv);
			modalias_ctx_unref(ctx);
			return CLI_EXIT_USAGE;
		}
		st.tables = &tables;
	}
	cli_tables_spec_clear(&spec);
	st.out = g_string_new("[");
	r = cli_devices_foreach(&st.dv, list_one, &st);
	if (st.json) {
		g_string_append(st.out, st.devices ? "\n]\n" : "]\n");
		cli_output_puts(st.out->str);
	} else if (st.rows && tree) {
		list_print_tree(st.rows, width ? width : SIZE_MAX, st.tables != NULL);
	} else if (st.rows) {
		list_print_columns(st.rows, width, st.tables != NULL);
	}
	if (r >= 0) {
		g_autofree char *unread = st.errors ? g_strdup_printf("; %u more whose modalias cannot be read (named above)",
								       st.errors)
						    : NULL;

		if (st.tables)
			fprintf(stderr, "%u device%s, %u without a bound driver, %u that no module matches%s\n", st.devices,
				cli_plural(st.devices), st.unbound, st.unmatched, unread ? unread : "");
		else
			fprintf(stderr, "%u device%s, %u without a bound driver%s\n", st.devices, cli_plural(st.devices),
				st.unbound, unread ? unread : "");
	}
	g_string_free(st.out, TRUE);
	if (st.rows)
		g_ptr_array_unref(st.rows);
	modalias_result_unref(st.res);
	cli_tables_close(&tables);
	cli_devices_close(&st.dv);
	modalias_ctx_unref(ctx);
	return cli_exit_status(r < 0 || st.errors, st.devices > 0);
}
