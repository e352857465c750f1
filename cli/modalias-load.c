/*
 * cli/modalias-load.c - modalias load: the modules of each modalias
 * inserted with their dependencies and softdeps through libkmod, as udev
 * does (blacklists apply, builtin and loaded ones skipped); --dry-run
 * prints what modprobe -n -v prints.
 *
 * This file loads and reports each module's state; it may not decide which
 * modules an alias has (the library's lookup does).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modalias-commands.h"

struct load_out {
	struct modalias_table *table;
	gboolean json, dry;
	GString *out;
	unsigned int n_modules, failed;
};

/* "# MODULE: blacklisted (FILE:LINE)": a comment, as the lines of a dry run
 * are commands */
static void print_blacklisted(struct modalias_table *table, const char *module)
{
	unsigned int line = 0;
	const char *file = modalias_table_get_blacklist_origin(table, module, &line);

	if (file && line)
		printf("# %s: blacklisted (%s:%u)\n", cli_shown(module), cli_shown(file), line);
	else if (file)
		printf("# %s: blacklisted (%s)\n", cli_shown(module), cli_shown(file));
	else
		printf("# %s: blacklisted\n", module);
}

static void on_module(void *data, const char *module, const char *detail, const char *options,
		      enum modalias_load_state state, int err)
{
	struct load_out *o = data;
	const char *name = cli_shown(module);

	o->failed += state == MODALIAS_LOAD_FAILED || state == MODALIAS_LOAD_NOT_FOUND;
	if (o->json) {
		g_string_append(o->out, o->n_modules++ ? ", {\"name\": " : "{\"name\": ");
		json_string(o->out, module);
		g_string_append(o->out, ", \"state\": ");
		json_string(o->out, modalias_load_state_name(state));
		g_string_append(o->out, ", \"detail\": ");
		json_string(o->out, detail);
		g_string_append(o->out, ", \"options\": ");
		json_string(o->out, options);
		g_string_append_printf(o->out, ", \"errno\": %d}", -err);
		return;
	}
	o->n_modules++;
	if (o->dry) {
		/* what modprobe -n -v prints */
		if (state == MODALIAS_LOAD_WOULD_INSERT)
			printf("insmod %s %s\n", cli_shown(detail), cli_shown(options));
		else if (state == MODALIAS_LOAD_COMMAND)
			printf("install %s %s\n", cli_shown(detail), cli_shown(options));
		else if (state == MODALIAS_LOAD_NOT_FOUND && err == -ENOENT)
			/* modprobe -n -v prints nothing for it; the real run fails */
			fprintf(stderr, "modalias load: module '%s' not found\n", ECHO(module));
		else if (state == MODALIAS_LOAD_NOT_FOUND)
			fprintf(stderr, "modalias load: '%s' is not a module name (%s)\n", ECHO(module), strerror(-err));
		else if (state == MODALIAS_LOAD_BLACKLISTED)
			print_blacklisted(o->table, module);
		else if (verbosity)
			printf("# %s: %s\n", name, modalias_load_state_name(state));
		return;
	}
	if (state == MODALIAS_LOAD_FAILED)
		printf("%s\t%s\t%s\t%s\n", name, modalias_load_state_name(state), cli_shown(detail), strerror(-err));
	else
		printf("%s\t%s%s%s\n", name, modalias_load_state_name(state), *detail ? "\t" : "", cli_shown(detail));
}

int cmd_load(int argc, char **argv)
{
	struct cli_tables_spec spec = { NULL };
	struct load_out o = { 0 };
	const GOptionEntry entries[] = {
		TABLE_OPTION_ENTRIES(spec),
		{ "dry-run", 'n', 0, G_OPTION_ARG_NONE, &o.dry,
		  "Insert nothing: print what modprobe -n -v would (insmod PATH OPTIONS)", NULL },
		{ "show", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &o.dry, NULL, NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &o.json,
		  "Print a JSON array of {alias, modules: [{name, state, detail, options, errno}]}", NULL },
		QUIET_OPTION_ENTRY,
		{ NULL }
	};
	struct modalias_ctx *ctx;
	struct cli_tables tables;
	unsigned int unresolved = 0;
	bool bad = false;
	int r;

	parse_options("load", "ALIAS…",
		      "Insert the modules of each ALIAS with their dependencies and softdeps, as udev does:\n"
		      "modprobe.d blacklists apply, builtin and loaded modules are skipped.  One line per module:\n"
		      "MODULE<TAB>STATE[<TAB>PATH] (inserted, already loaded, builtin, blacklisted, failed, not found);\n"
		      "--dry-run: what modprobe -n -v prints, and '# MODULE: blacklisted (FILE:LINE)'.  An ALIAS\n"
		      "that has no module is named on standard error (\"modalias load: ALIAS: no module\").\n"
		      "Exit status: 0 every ALIAS has a module and each was loaded (or would be), 1 an ALIAS\n"
		      "has none or a module failed, 2 usage or input error, 3 write error.",
		      entries, &argc, &argv);
	if (argc < 2) {
		usage_error("load", "an ALIAS is needed");
		cli_tables_spec_clear(&spec);
		return CLI_EXIT_USAGE;
	}
	ctx = new_ctx(NULL);
	r = open_tables(ctx, &spec, "load", CLI_TABLES_LOADER | CLI_TABLES_INSERT | CLI_TABLES_TRUSTED, &tables);
	cli_tables_spec_clear(&spec);
	if (r < 0) {
		modalias_ctx_unref(ctx);
		return CLI_EXIT_USAGE;
	}
	o.table = tables.table;
	o.out = g_string_new("[");
	for (int i = 1; i < argc; i++) {
		struct modalias_result *res;
		unsigned int failed_before = o.failed;

		if (o.json) {
			g_string_append(o.out, i > 1 ? ",\n  {\"alias\": " : "\n  {\"alias\": ");
			json_string(o.out, argv[i]);
			g_string_append(o.out, ", \"modules\": [");
			o.n_modules = 0;
		}
		r = modalias_loader_load(tables.loader, tables.table, argv[i], o.dry ? MODALIAS_LOAD_DRY_RUN : 0, on_module, &o);
		if (o.json)
			g_string_append(o.out, "]}");
		if (r == -EINVAL && o.failed == failed_before) {
			/* (a module's own -EINVAL came through on_module) */
			fprintf(stderr, "modalias load: '%s' is not a valid alias\n", ECHO(argv[i]));
			bad = true;
			continue;
		}
		if (modalias_result_new(&res) == 0) {
			if (modalias_table_lookup(tables.table, argv[i], res) == 0) {
				unresolved++;
				say_no_module("load", argv[i]);
			}
			modalias_result_unref(res);
		}
	}
	if (o.json) {
		g_string_append(o.out, argc > 1 ? "\n]\n" : "]\n");
		cli_output_puts(o.out->str);
	}
	g_string_free(o.out, TRUE);
	cli_tables_close(&tables);
	modalias_ctx_unref(ctx);
	return cli_exit_status(bad, !unresolved && !o.failed);
}
