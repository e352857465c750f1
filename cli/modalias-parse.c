/*
 * cli/modalias-parse.c - modalias parse: modalias strings taken apart into
 * their bus and named fields, as FIELD=VALUE lines or JSON; and a device as
 * JSON, which build --json prints too.
 *
 * This file prints what the library parsed; it may not read module tables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>

#include "modalias-commands.h"

void dev_json(GString *j, struct modalias_dev *dev, const char *modalias)
{
	const char *bus = modalias_dev_get_bus(dev), *f;

	g_string_append(j, "{\"modalias\": ");
	json_string(j, modalias);
	g_string_append(j, ", \"bus\": ");
	json_string(j, bus);
	g_string_append(j, ", \"fields\": {");
	if (!modalias_bus_field_name(bus, 0)) {
		const char *raw;
		if (modalias_dev_get(dev, "raw", 0, &raw) == 0) {
			g_string_append(j, "\"raw\": ");
			json_string(j, raw);
		}
	}
	for (unsigned int i = 0, n = 0; (f = modalias_bus_field_name(bus, i)); i++) {
		int count = modalias_dev_get_count(dev, f);
		bool list = modalias_bus_field_is_list(bus, f) == 1;

		if (count <= 0)
			continue;
		if (n++)
			g_string_append(j, ", ");
		json_string(j, f);
		g_string_append(j, list ? ": [" : ": ");
		for (int k = 0; k < count; k++) {
			const char *v;
			if (modalias_dev_get(dev, f, (unsigned int)k, &v) < 0)
				continue;
			if (k)
				g_string_append(j, ", ");
			json_string(j, v);
		}
		if (list)
			g_string_append_c(j, ']');
	}
	g_string_append(j, "}}");
}

static void print_fields(struct modalias_dev *dev)
{
	const char *bus = modalias_dev_get_bus(dev), *f;

	/* the bus alone, as build's first argument (a field may be named
	 * "bus": hid's) */
	printf("\t%s\n", bus);
	if (!modalias_bus_field_name(bus, 0)) {
		const char *raw;
		if (modalias_dev_get(dev, "raw", 0, &raw) == 0)
			printf("\traw=%s\n", cli_shown(raw));
		return;
	}
	for (unsigned int i = 0; (f = modalias_bus_field_name(bus, i)); i++) {
		int n = modalias_dev_get_count(dev, f);
		for (int k = 0; k < n; k++) {
			const char *v;
			if (modalias_dev_get(dev, f, (unsigned int)k, &v) == 0)
				printf("\t%s=%s\n", f, cli_shown(v));
		}
	}
}

int cmd_parse(int argc, char **argv)
{
	struct modalias_ctx *ctx;
	int ret = CLI_EXIT_FOUND;
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print a JSON array of {modalias, bus, fields}", NULL },
		{ NULL }
	};
	GString *j = g_string_new("[");
	unsigned int n_json = 0;

	parse_options("parse", "ALIAS…",
		      "Take modalias strings apart into their bus and named fields.\n"
		      "Exit status: 0 every ALIAS parsed (1 is not used), 2 usage or input error (an ALIAS\n"
		      "that does not parse), 3 write error.",
		      entries, &argc, &argv);
	if (argc < 2) {
		usage_error("parse", "an ALIAS is needed");
		g_string_free(j, TRUE);
		return CLI_EXIT_USAGE;
	}
	ctx = new_ctx(NULL);
	for (int i = 1; i < argc; i++) {
		struct modalias_dev *dev;
		int r = modalias_parse(ctx, argv[i], &dev);

		if (r < 0) {
			fprintf(stderr, "modalias parse: '%s' is not a valid modalias\n", ECHO(argv[i]));
			ret = CLI_EXIT_USAGE;
			continue;
		}
		if (json) {
			g_string_append(j, n_json++ ? ",\n  " : "\n  ");
			dev_json(j, dev, argv[i]);
		} else {
			printf("%s\n", cli_shown(argv[i]));
			print_fields(dev);
		}
		modalias_dev_unref(dev);
	}
	if (json) {
		g_string_append(j, n_json ? "\n]\n" : "]\n");
		cli_output_puts(j->str);
	}
	g_string_free(j, TRUE);
	modalias_ctx_unref(ctx);
	return ret;
}
