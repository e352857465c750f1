/*
 * cli/modalias-list.c - modalias list: every device under the sysfs root
 * that has a modalias, parents first, with the modules that serve it and
 * their state (loaded, builtin, blacklisted, available), and a summary.
 *
 * This file walks sysfs (or a snapshot) and prints; it may not load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modalias-commands.h"

struct list_state {
	unsigned int devices;
	unsigned int driverless;
	unsigned int errors;
	gboolean json;
	GString *out;
	struct cli_devices dv;
	struct modalias_table *table;
	struct modalias_result *res;
};

static int list_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct list_state *st = data;
	char *s;
	int n = 0;

	if (err < 0 || modalias_dev_format(dev, &s) < 0) {
		fprintf(stderr, "modalias list: %s: cannot read its modalias: %s\n", devpath,
			strerror(err < 0 ? -err : ENOMEM));
		st->errors++;
		return 0;
	}
	if (st->table)
		n = modalias_table_lookup(st->table, s, st->res);
	st->devices++;
	st->driverless += st->table && n <= 0;
	if (st->json) {
		g_string_append(st->out, st->devices > 1 ? ",\n  {\"devpath\": " : "\n  {\"devpath\": ");
		json_string(st->out, devpath);
		g_string_append(st->out, ", \"modalias\": ");
		json_string(st->out, s);
		g_string_append(st->out, ", \"modules\": [");
		for (int i = 0; i < n; i++) {
			g_string_append(st->out, i ? ", {\"name\": " : "{\"name\": ");
			json_string(st->out, modalias_result_get_module(st->res, (unsigned int)i));
			g_string_append(st->out, ", \"state\": ");
			json_string(st->out, module_state(&st->dv, st->table, st->res, (unsigned int)i));
			g_string_append_c(st->out, '}');
		}
		g_string_append(st->out, "]}");
	} else {
		printf("%s\t%s", devpath, s);
		if (st->table) {
			putchar('\t');
			for (int i = 0; i < n; i++)
				printf(i ? " %s:%s" : "%s:%s", modalias_result_get_module(st->res, (unsigned int)i),
				       module_state(&st->dv, st->table, st->res, (unsigned int)i));
			if (n <= 0)
				fputs("none", stdout);
		}
		putchar('\n');
	}
	free(s);
	/* a write error ends the walk at once, not after the last device */
	cli_output_check();
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct device_source src = { NULL };
	struct cli_tables_spec spec = { NULL };
	struct cli_tables tables = { NULL };
	gboolean no_modules = FALSE;
	struct list_state st = { 0 };
	const GOptionEntry entries[] = {
		DEVICE_OPTION_ENTRIES(src),
		TABLE_OPTION_ENTRIES(spec),
		{ "no-modules", 'n', 0, G_OPTION_ARG_NONE, &no_modules, "Leave the module column out", NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &st.json,
		  "Print a JSON array of {devpath, modalias, modules: [{name, state}]}", NULL },
		{ NULL }
	};
	struct modalias_ctx *ctx;
	int r;

	parse_options("list", "", "Print every device under the sysfs root (or in a snapshot) that has a modalias,\nparents first:\n"
		      "DEVPATH<TAB>MODALIAS<TAB>MODULE:STATE … (loaded, builtin, blacklisted, available;\n"
		      "none when no module serves it), then a summary on standard error.",
		      entries, &argc, &argv);
	if (argc > 1) {
		fprintf(stderr, "modalias list: unexpected argument '%.*s'\n", ECHO(argv[1]));
		cli_tables_spec_clear(&spec);
		g_free(src.sysfs);
		g_free(src.snapshot);
		return CLI_EXIT_USAGE;
	}
	ctx = open_devices(&src, "list", &st.dv);
	if (!no_modules) {
		r = open_tables(ctx, &spec, "list", 0, &tables);
		if (r < 0 || modalias_result_new(&st.res) < 0) {
			cli_tables_spec_clear(&spec);
			cli_tables_close(&tables);
			cli_devices_close(&st.dv);
			modalias_ctx_unref(ctx);
			return CLI_EXIT_USAGE;
		}
		st.table = tables.table;
	}
	cli_tables_spec_clear(&spec);
	st.out = g_string_new("[");
	r = cli_devices_foreach(&st.dv, list_one, &st);
	if (st.json) {
		g_string_append(st.out, st.devices ? "\n]\n" : "]\n");
		cli_output_puts(st.out->str);
	}
	if (r >= 0 && st.table)
		fprintf(stderr, "%u devices, %u without a driver\n", st.devices, st.driverless);
	else if (r >= 0)
		fprintf(stderr, "%u devices\n", st.devices);
	g_string_free(st.out, TRUE);
	modalias_result_unref(st.res);
	cli_tables_close(&tables);
	cli_devices_close(&st.dv);
	modalias_ctx_unref(ctx);
	return cli_exit_status(r < 0 || st.errors, st.devices > 0);
}
