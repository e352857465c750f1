/*
 * cli/modalias-map.c - modalias map: the legacy module-init-tools map files
 * (modules.usbmap, …, hotplug user maps): their entries (text or JSON),
 * their modules.alias lines (--to-aliases), the modules whose entries
 * match a device's IDs (--match).
 *
 * This file prints what the library read from map files; it may not read
 * module tables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "modalias-commands.h"

static void print_entry(const struct modalias_map *m, unsigned int i, GString *json)
{
	int type = modalias_map_get_type(m);
	const char *f;

	if (json) {
		g_string_append(json, "{\"module\": ");
		json_string(json, modalias_map_get_module(m, i));
		g_string_append_printf(json, ", \"line\": %u", modalias_map_get_line(m, i));
	} else {
		printf("%s:%u\t%s", cli_shown(modalias_map_get_name(m)), modalias_map_get_line(m, i),
		       cli_shown(modalias_map_get_module(m, i)));
	}
	for (unsigned int c = 0; (f = modalias_map_type_field_name(type, c)); c++) {
		const char *s;
		int n = modalias_map_get_field_count(m, i, f);
		bool bitmap;

		if (json) {
			g_string_append(json, ", ");
			json_string(json, f);
			g_string_append(json, ": ");
		}
		if (modalias_map_get_string(m, i, f, &s) == 0) {
			if (json)
				json_string(json, s);
			else
				printf(" %s=%s", f, *s ? cli_shown(s) : "*");
			continue;
		}
		if (json)
			g_string_append(json, n == 1 ? "" : "[");
		else
			printf(" %s=", f);
		/* bitmaps: highest word first, as in the file */
		bitmap = modalias_map_type_field_kind(type, f) == MODALIAS_MAP_FIELD_BITMAP;
		for (int k = 0; k < n; k++) {
			uint64_t v = 0;

			modalias_map_get_field(m, i, f, bitmap ? (unsigned int)(n - 1 - k) : (unsigned int)k, &v);
			if (json)
				g_string_append_printf(json, "%s\"0x%llx\"", k ? ", " : "", (unsigned long long)v);
			else
				printf("%s0x%llx", k ? (bitmap ? ":" : ",") : "", (unsigned long long)v);
		}
		if (json && n != 1)
			g_string_append(json, "]");
	}
	if (json)
		g_string_append(json, "}");
	else
		putchar('\n');
}

/* "give its type with --type=TYPE (usb, pci, …)" (g_free() it) */
static char *type_hint(void)
{
	GString *s = g_string_new("give its type with --type=TYPE (");
	const char *t;

	for (int i = 0; (t = modalias_map_type_name(i)); i++)
		g_string_append_printf(s, i ? ", %s" : "%s", t);
	g_string_append_c(s, ')');
	return g_string_free(s, FALSE);
}

int cmd_map(int argc, char **argv)
{
	gboolean json = FALSE, to_aliases = FALSE, match = FALSE;
	g_autofree char *dialect = NULL, *type_name = NULL;
	const GOptionEntry entries[] = {
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print the entries as a JSON array", NULL },
		{ "to-aliases", 'a', 0, G_OPTION_ARG_NONE, &to_aliases,
		  "Print the modules.alias lines of the entries (as the kernel's file2alias)", NULL },
		{ "dialect", 0, 0, G_OPTION_ARG_STRING, &dialect,
		  "With --to-aliases: 'current' (default) or '2.6' (no USB 'in' field, one OF pattern)", "D" },
		{ "match", 0, 0, G_OPTION_ARG_NONE, &match,
		  "BUS FIELD=VALUE… FILE: print the modules whose entries match these IDs", NULL },
		{ "type", 't', 0, G_OPTION_ARG_STRING, &type_name,
		  "The map type (usb, pci, ieee1394, ccw, isapnp, input, of, serio); default: from the header or name", "TYPE" },
		WORD_BITS_OPTION_ENTRY("an inputmap", "-v says so"),
		{ NULL }
	};
	struct modalias_ctx *ctx;
	struct modalias_dev *dev = NULL;
	GString *out = NULL;
	unsigned int flags = 0, found = 0, n_json = 0, none;
	int type = -1, ret = CLI_EXIT_FOUND, first = 1, last;

	parse_options("map", "FILE… | --to-aliases FILE… | --match BUS FIELD=VALUE… FILE",
		      "Read legacy module-init-tools map files (modules.usbmap, …, user maps):\n"
		      "print their entries, their alias patterns, or the modules that match IDs.\n"
		      "A row that gives no alias (a class_mask not of whole bytes: file2alias cannot say it)\n"
		      "is named on standard error, and counted; as file2alias, that is no error.\n"
		      "Exit status: 0 read (--match: an entry matches), 1 --match: none does, 2 usage or\n"
		      "input error, 3 write error.",
		      entries, &argc, &argv);
	if (dialect && strcmp(dialect, "2.6") == 0)
		flags = MODALIAS_MAP_DIALECT_2_6;
	else if (dialect && strcmp(dialect, "current") != 0) {
		fprintf(stderr, "modalias map: unknown dialect '%s' (current or 2.6)\n", ECHO(dialect));
		return CLI_EXIT_USAGE;
	}
	if (type_name && (type = modalias_map_type_from_name(type_name)) < 0) {
		fprintf(stderr, "modalias map: unknown map type '%s'\n", ECHO(type_name));
		return CLI_EXIT_USAGE;
	}
	if (argc < (match ? 4 : 2)) {
		return usage_error("map", "%s", match ? "--match needs BUS, FIELD=VALUE… and FILE" : "a FILE is needed");
	}
	ctx = new_ctx(NULL);
	last = argc - 1;
	if (match) {
		dev = dev_from_args(ctx, "map", argv[1], argv + 2, last - 2);
		if (!dev) {
			modalias_ctx_unref(ctx);
			return CLI_EXIT_USAGE;
		}
		first = last;
	}
	if (json)
		out = g_string_new("[");
	for (int f = first; f <= last; f++) {
		g_autoptr(GString) why = g_string_new(NULL);
		struct modalias_map *m;
		struct stat st;
		int r, n;

		ctx_capture(ctx, why);
		r = modalias_map_new_from_file(ctx, argv[f], type, &m);
		ctx_capture(ctx, NULL);
		if (r < 0) {
			g_autofree char *fallback = g_strdup_printf("cannot read %s: %s", cli_shown(argv[f]), strerror(-r));
			/* a regular file of no type it can tell */
			bool untyped = r == -EINVAL && type < 0 && stat(argv[f], &st) == 0 && S_ISREG(st.st_mode);

			g_autofree char *hint = untyped ? type_hint() : NULL;

			say_captured("map", why, fallback, hint);
			ret = CLI_EXIT_USAGE;
			continue;
		}
		say_log(why); /* the bad rows, named (counted below) */
		if (r > 0) {
			/* each bad row was named by the library */
			fprintf(stderr, "modalias map: %s: %d bad rows skipped\n", cli_shown(argv[f]), r);
			ret = CLI_EXIT_USAGE;
		}
		n = modalias_map_get_count(m);
		none = 0;
		if (match) {
			GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
			unsigned int idx = 0, start = 0;

			while ((r = modalias_map_match(m, dev, start, &idx)) == 1) {
				const char *mod = modalias_map_get_module(m, idx);
				if (!g_hash_table_contains(seen, mod)) {
					g_hash_table_add(seen, (gpointer)mod);
					puts(cli_shown(mod));
					found++;
				}
				start = idx + 1;
			}
			if (r < 0)
				ret = CLI_EXIT_USAGE;
			g_hash_table_unref(seen);
		} else {
			for (int i = 0; i < n; i++) {
				if (to_aliases) {
					char **v;
					int k = modalias_map_get_aliases(m, (unsigned int)i, flags, &v);

					none += k == 0; /* the library said why */
					for (int j = 0; j < k; j++) {
						printf("alias %s %s\n", cli_shown(v[j]),
						       cli_shown(modalias_map_get_module(m, (unsigned int)i)));
						free(v[j]);
					}
					if (k >= 0)
						free(v);
				} else {
					if (out)
						g_string_append(out, n_json++ ? ",\n  " : "\n  ");
					print_entry(m, (unsigned int)i, out);
				}
			}
		}
		/* as file2alias, which warns and goes on: not an error */
		if (none)
			fprintf(stderr, "modalias map: %s: %u of %d rows give no alias%s\n", cli_shown(argv[f]), none,
				n, verbosity ? "" : " (-v names every one)");
		modalias_map_unref(m);
	}
	if (out) {
		g_string_append(out, n_json ? "\n]\n" : "]\n");
		cli_output_puts(out->str);
		g_string_free(out, TRUE);
	}
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
	return match ? cli_exit_status(ret == CLI_EXIT_USAGE, found > 0) : ret;
}
