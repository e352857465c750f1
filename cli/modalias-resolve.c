/*
 * cli/modalias-resolve.c - modalias resolve: the modules that serve each
 * modalias, as modprobe -R prints them (each once, in modules.order
 * order), with --explain, --json, or one ALIAS<TAB>MODULES line per line of
 * standard input ('-').
 *
 * This file looks aliases up and prints the answers; it may not load a
 * module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modalias-commands.h"

struct resolve_out {
	gboolean json, explain;
	bool lines; /* "-": ALIAS<TAB>MODULES per input line */
	GString *json_buf;
	unsigned int json_n;
	GHashTable *printed;
	struct modalias_table *table; /* --explain: each module's weak dependencies */
};

static void emit(struct resolve_out *o, const char *alias, const struct modalias_result *res)
{
	unsigned int n = modalias_result_get_count(res);

	if (o->json) {
		GString *j = o->json_buf;
		g_string_append(j, o->json_n++ ? ",\n  {\"alias\": " : "\n  {\"alias\": ");
		json_string(j, alias);
		g_string_append(j, ", \"source\": ");
		json_string_or_null(j, modalias_result_get_source(res));
		g_string_append(j, ", \"modules\": [");
		for (unsigned int i = 0; i < n; i++) {
			g_string_append(j, i ? ", {\"name\": " : "{\"name\": ");
			json_string(j, modalias_result_get_module(res, i));
			g_string_append_printf(j, ", \"builtin\": %s, \"patterns\": [",
					       modalias_result_is_builtin(res, i) ? "true" : "false");
			for (unsigned int k = 0; k < modalias_result_get_pattern_count(res, i); k++) {
				if (k)
					g_string_append(j, ", ");
				json_string(j, modalias_result_get_pattern(res, i, k));
			}
			g_string_append(j, "]}");
		}
		g_string_append(j, "]}");
		return;
	}
	if (o->explain) {
		printf("%s: %s\n", cli_shown(alias), n ? cli_shown(modalias_result_get_source(res)) : "no match");
		for (unsigned int i = 0; i < n; i++) {
			printf("  %s%s\n", cli_shown(modalias_result_get_module(res, i)),
			       modalias_result_is_builtin(res, i) ? " (builtin)" : "");
			for (unsigned int k = 0; k < modalias_result_get_pattern_count(res, i); k++) {
				unsigned int line = 0;
				const char *origin = cli_shown(modalias_result_get_pattern_origin(res, i, k, &line));
				const char *pattern = cli_shown(modalias_result_get_pattern(res, i, k));

				if (line)
					printf("    %s  (%s:%u)\n", pattern, origin, line);
				else
					printf("    %s  (%s)\n", pattern, origin);
			}
			print_weakdeps(o->table, modalias_result_get_module(res, i));
		}
		return;
	}
	if (o->lines) {
		printf("%s\t", cli_shown(alias));
		for (unsigned int i = 0; i < n; i++)
			printf(i ? " %s" : "%s", cli_shown(modalias_result_get_module(res, i)));
		putchar('\n');
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		const char *m = modalias_result_get_module(res, i);
		if (!g_hash_table_contains(o->printed, m)) {
			g_hash_table_add(o->printed, g_strdup(m));
			puts(cli_shown(m));
		}
	}
}

int cmd_resolve(int argc, char **argv)
{
	struct cli_tables_spec spec = { NULL };
	struct resolve_out o = { 0 };
	const GOptionEntry entries[] = {
		TABLE_OPTION_ENTRIES(spec),
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &o.json, "Print a JSON array of {alias, source, modules}", NULL },
		{ "explain", 'x', 0, G_OPTION_ARG_NONE, &o.explain,
		  "Say which source and which pattern (as kmod matches it: '-' as '_') of which file matched", NULL },
		QUIET_OPTION_ENTRY,
		{ NULL }
	};
	struct modalias_ctx *ctx;
	struct cli_tables tables;
	struct modalias_table *t;
	struct modalias_result *res;
	unsigned int resolved = 0, unresolved = 0;
	bool bad = false;
	int r;

	parse_options("resolve", "ALIAS… | -",
		      "Print the modules that would be loaded for each ALIAS, as 'modprobe -R' does:\n"
		      "one per line, each once, in modules.order order; an ALIAS that has none is named on\n"
		      "standard error (\"modalias resolve: ALIAS: no module\").  With '-', aliases are read\n"
		      "one per line from standard input and each gives one line ALIAS<TAB>MODULES.\n"
		      "Exit status: 0 every ALIAS has a module (with '-': one has), 1 one has none\n"
		      "(with '-': none has), 2 usage or input error, 3 write error.",
		      entries, &argc, &argv);
	if (argc < 2) {
		usage_error("resolve", "an ALIAS (or '-') is needed");
		cli_tables_spec_clear(&spec);
		return CLI_EXIT_USAGE;
	}
	o.lines = argc == 2 && strcmp(argv[1], "-") == 0;
	ctx = new_ctx(NULL);
	r = open_tables(ctx, &spec, "resolve", 0, &tables);
	cli_tables_spec_clear(&spec);
	if (r < 0 || modalias_result_new(&res) < 0) {
		cli_tables_close(&tables);
		modalias_ctx_unref(ctx);
		return CLI_EXIT_USAGE;
	}
	t = tables.table;
	o.table = t;
	o.printed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	o.json_buf = g_string_new("[");
	if (o.lines) {
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		unsigned int lineno = 0;

		while ((n = getline(&line, &cap, stdin)) >= 0) {
			lineno++;
			if (n > 0 && line[n - 1] == '\n')
				line[--n] = '\0';
			if (memchr(line, '\0', (size_t)n)) {
				/* not looked up as the text before the NUL; the line
				 * still gets its output line, whole, escaped */
				fprintf(stderr, "modalias resolve: stdin:%u: NUL byte in the line, not looked up\n",
					lineno);
				bad = true;
				if (!o.json) {
					g_autoptr(GString) whole = g_string_new(NULL);

					cli_shown_append_len(whole, line, (size_t)n);
					printf("%s\t\n", whole->str);
				}
				continue;
			}
			r = modalias_table_lookup(t, line, res);
			if (r < 0) {
				const char *shown = cli_shown(line);

				fprintf(stderr, "modalias resolve: stdin:%u: cannot look '%s' up: %s\n", lineno,
					ECHO(line), strerror(-r));
				bad = true;
				/* the line still gets its output line */
				if (!o.json)
					printf("%s\t\n", shown);
				continue;
			}
			resolved += r > 0;
			emit(&o, line, res);
			/* a filter: a write error ends it now, not at end of input */
			cli_output_check();
		}
		free(line);
	} else {
		for (int i = 1; i < argc; i++) {
			if (!*argv[i]) {
				/* no device has it: a variable that was empty, not an alias */
				fprintf(stderr, "modalias resolve: argument %d is empty: no ALIAS to look up\n", i);
				bad = true;
				continue;
			}
			r = modalias_table_lookup(t, argv[i], res);
			if (r < 0) {
				fprintf(stderr, "modalias resolve: cannot look '%s' up: %s\n", ECHO(argv[i]),
					strerror(-r));
				bad = true;
				continue;
			}
			resolved += r > 0;
			unresolved += r == 0;
			if (r == 0)
				say_no_module("resolve", argv[i]);
			emit(&o, argv[i], res);
		}
	}
	if (o.json) {
		g_string_append(o.json_buf, o.json_n ? "\n]\n" : "]\n");
		cli_output_puts(o.json_buf->str);
	}
	g_string_free(o.json_buf, TRUE);
	g_hash_table_unref(o.printed);
	modalias_result_unref(res);
	cli_tables_close(&tables);
	modalias_ctx_unref(ctx);
	/* '-' is a filter: its output line says which have none */
	return cli_exit_status(bad, o.lines ? resolved > 0 : unresolved == 0);
}
