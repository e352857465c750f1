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
#include <sys/utsname.h>
#include <unistd.h>

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

/* ---- module directories, as modprobe spells them ---------------------------- */

struct table_opts {
	char *root;    /* -d */
	char *version; /* -S */
	char *config;  /* -C */
	char *moddir;  /* --moddir */
	gboolean no_cache;
};

#define TABLE_OPTION_ENTRIES(o)                                                                 \
	{ "dirname", 'd', 0, G_OPTION_ARG_FILENAME, &(o).root,                                  \
	  "Modules are in DIR/lib/modules/VERSION (default /)", "DIR" },                         \
	{ "set-version", 'S', 0, G_OPTION_ARG_STRING, &(o).version,                              \
	  "Kernel version (default: uname -r)", "VERSION" },                                     \
	{ "config", 'C', 0, G_OPTION_ARG_FILENAME, &(o).config,                                  \
	  "modprobe.d file or directory to read instead of the system's (/dev/null: none)", "FILE" }, \
	{ "moddir", 'm', 0, G_OPTION_ARG_FILENAME, &(o).moddir,                                  \
	  "The module directory itself (overrides -d and -S)", "DIR" },                          \
	{ "no-cache", 0, 0, G_OPTION_ARG_NONE, &(o).no_cache,                                    \
	  "Neither read nor write the index cache ($MODALIAS_CACHE_DIR)", NULL }

static void table_opts_clear(struct table_opts *o)
{
	g_free(o->root);
	g_free(o->version);
	g_free(o->config);
	g_free(o->moddir);
}

static char *table_dir(const struct table_opts *o)
{
	struct utsname u;

	if (o->moddir)
		return g_strdup(o->moddir);
	if (!o->version && uname(&u) == 0)
		return g_build_filename(o->root ? o->root : "/", "lib", "modules", u.release, NULL);
	return g_build_filename(o->root ? o->root : "/", "lib", "modules", o->version ? o->version : "", NULL);
}

/* Where index caches go: $MODALIAS_CACHE_DIR, /var/cache/modalias for
 * root, else the user's cache directory; "" (the variable set empty)
 * means no cache. */
static char *cache_dir(void)
{
	const char *env = g_getenv("MODALIAS_CACHE_DIR");

	if (env)
		return *env ? g_strdup(env) : NULL;
	if (geteuid() == 0)
		return g_strdup("/var/cache/modalias");
	return g_build_filename(g_get_user_cache_dir(), "modalias", NULL);
}

/* Loads the table; on failure says why and returns NULL. */
static struct modalias_table *open_table(struct modalias_ctx *ctx, const struct table_opts *o,
					 const char *cmd)
{
	g_autofree char *dir = table_dir(o);
	g_autofree char *cache = o->no_cache ? NULL : cache_dir();
	struct modalias_table *t;
	int r = modalias_table_open(ctx, dir, cache, &t);

	if (r < 0) {
		fprintf(stderr, "modalias %s: cannot load the module tables of %s: %s\n", cmd, dir,
			strerror(-r));
		return NULL;
	}
	if (r > 0)
		fprintf(stderr, "modalias %s: %s: %d malformed lines skipped\n", cmd, dir, r);
	if (o->config && strcmp(o->config, "/dev/null") == 0) {
		r = 0; /* nothing to read, as with modprobe -C /dev/null */
	} else {
		const char *paths[] = { o->config, NULL };
		r = modalias_table_load_config(t, o->config ? paths : NULL);
	}
	if (r < 0) {
		fprintf(stderr, "modalias %s: cannot read the modprobe configuration: %s\n", cmd,
			strerror(-r));
		modalias_table_unref(t);
		return NULL;
	}
	return t;
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

/* ---- resolve -------------------------------------------------------------- */

static void json_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			g_string_append_printf(out, "\\%c", c);
		else if (c < 0x20)
			g_string_append_printf(out, "\\u%04x", c);
		else
			g_string_append_c(out, (char)c);
	}
	g_string_append_c(out, '"');
}

struct resolve_out {
	gboolean json, explain;
	bool lines; /* "-": ALIAS<TAB>MODULES per input line */
	GString *json_buf;
	unsigned int json_n;
	GHashTable *printed;
};

static void emit(struct resolve_out *o, const char *alias, const struct modalias_result *res)
{
	unsigned int n = modalias_result_get_count(res);

	if (o->json) {
		GString *j = o->json_buf;
		g_string_append(j, o->json_n++ ? ",\n  {\"alias\": " : "\n  {\"alias\": ");
		json_string(j, alias);
		g_string_append(j, ", \"source\": ");
		if (modalias_result_get_source(res))
			json_string(j, modalias_result_get_source(res));
		else
			g_string_append(j, "null");
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
		printf("%s: %s\n", alias, n ? modalias_result_get_source(res) : "no match");
		for (unsigned int i = 0; i < n; i++) {
			printf("  %s%s\n", modalias_result_get_module(res, i),
			       modalias_result_is_builtin(res, i) ? " (builtin)" : "");
			for (unsigned int k = 0; k < modalias_result_get_pattern_count(res, i); k++) {
				unsigned int line = 0;
				const char *origin = modalias_result_get_pattern_origin(res, i, k, &line);
				if (line)
					printf("    %s  (%s:%u)\n", modalias_result_get_pattern(res, i, k), origin, line);
				else
					printf("    %s  (%s)\n", modalias_result_get_pattern(res, i, k), origin);
			}
		}
		return;
	}
	if (o->lines) {
		printf("%s\t", alias);
		for (unsigned int i = 0; i < n; i++)
			printf(i ? " %s" : "%s", modalias_result_get_module(res, i));
		putchar('\n');
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		const char *m = modalias_result_get_module(res, i);
		if (!g_hash_table_contains(o->printed, m)) {
			g_hash_table_add(o->printed, g_strdup(m));
			puts(m);
		}
	}
}

static int cmd_resolve(int argc, char **argv)
{
	struct table_opts to = { NULL };
	struct resolve_out o = { 0 };
	const GOptionEntry entries[] = {
		TABLE_OPTION_ENTRIES(to),
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &o.json, "Print a JSON array of {alias, source, modules}", NULL },
		{ "explain", 'x', 0, G_OPTION_ARG_NONE, &o.explain,
		  "Say which source and which pattern of which file matched", NULL },
		{ NULL }
	};
	struct modalias_ctx *ctx;
	struct modalias_table *t;
	struct modalias_result *res;
	unsigned int resolved = 0;
	int ret = EXIT_NOTHING, r;

	parse_options("resolve", "ALIAS… | -",
		      "Print the modules that would be loaded for each ALIAS, as 'modprobe -R' does:\n"
		      "one per line, each once, in modules.order order.  With '-', aliases are read\n"
		      "one per line from standard input and each gives one line ALIAS<TAB>MODULES.",
		      entries, &argc, &argv);
	if (argc < 2) {
		fprintf(stderr, "modalias resolve: an ALIAS (or '-') is needed\nTry 'modalias resolve --help'.\n");
		table_opts_clear(&to);
		return EXIT_USAGE;
	}
	o.lines = argc == 2 && strcmp(argv[1], "-") == 0;
	ctx = new_ctx(NULL);
	t = open_table(ctx, &to, "resolve");
	table_opts_clear(&to);
	if (!t || modalias_result_new(&res) < 0) {
		modalias_table_unref(t);
		modalias_ctx_unref(ctx);
		return EXIT_USAGE;
	}
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
			r = modalias_table_lookup(t, line, res);
			if (r < 0) {
				fprintf(stderr, "modalias resolve: stdin:%u: cannot look '%s' up: %s\n", lineno, line,
					strerror(-r));
				ret = EXIT_USAGE;
				/* the line still gets its output line */
				if (!o.json)
					printf("%s\t\n", line);
				continue;
			}
			resolved += r > 0;
			emit(&o, line, res);
		}
		free(line);
	} else {
		for (int i = 1; i < argc; i++) {
			r = modalias_table_lookup(t, argv[i], res);
			if (r < 0) {
				fprintf(stderr, "modalias resolve: cannot look '%s' up: %s\n", argv[i], strerror(-r));
				ret = EXIT_USAGE;
				continue;
			}
			resolved += r > 0;
			emit(&o, argv[i], res);
		}
	}
	if (o.json) {
		g_string_append(o.json_buf, o.json_n ? "\n]\n" : "]\n");
		fputs(o.json_buf->str, stdout);
	}
	if (ret != EXIT_USAGE)
		ret = resolved ? EXIT_FOUND : EXIT_NOTHING;
	g_string_free(o.json_buf, TRUE);
	g_hash_table_unref(o.printed);
	modalias_result_unref(res);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	return ret;
}

/* ---- list ----------------------------------------------------------------- */

struct list_state {
	unsigned int devices;
	unsigned int errors;
	struct modalias_table *table;
	struct modalias_result *res;
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
	printf("%s\t%s", devpath, s);
	if (st->table) {
		int n = modalias_table_lookup(st->table, s, st->res);
		putchar('\t');
		for (int i = 0; i < n; i++)
			printf(i ? " %s" : "%s", modalias_result_get_module(st->res, (unsigned int)i));
	}
	putchar('\n');
	free(s);
	st->devices++;
	return 0;
}

static int cmd_list(int argc, char **argv)
{
	g_autofree char *sysfs = NULL;
	struct table_opts to = { NULL };
	gboolean no_modules = FALSE;
	const GOptionEntry entries[] = {
		{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs, "Sysfs root (default /sys)", "DIR" },
		TABLE_OPTION_ENTRIES(to),
		{ "no-modules", 'n', 0, G_OPTION_ARG_NONE, &no_modules, "Leave the module column out", NULL },
		{ NULL }
	};
	struct list_state st = { 0 };
	struct modalias_ctx *ctx;
	int r;

	parse_options("list", "", "Print every device under the sysfs root that has a modalias:\n"
		      "DEVPATH<TAB>MODALIAS<TAB>MODULES, parents before children.",
		      entries, &argc, &argv);
	if (argc > 1) {
		fprintf(stderr, "modalias list: unexpected argument '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	ctx = new_ctx(sysfs);
	if (!no_modules && !to.root && !to.version && !to.moddir) {
		g_autofree char *dir = table_dir(&to);
		if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
			/* a container or a CI machine: no modules to show */
			fprintf(stderr, "modalias list: no %s here: module column left out (see --moddir)\n", dir);
			no_modules = TRUE;
		}
	}
	if (!no_modules) {
		st.table = open_table(ctx, &to, "list");
		if (!st.table || modalias_result_new(&st.res) < 0) {
			fprintf(stderr, "modalias list: no module column (use --no-modules, or -d/-S/--moddir)\n");
			table_opts_clear(&to);
			modalias_table_unref(st.table);
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
	}
	table_opts_clear(&to);
	r = modalias_sysfs_foreach(ctx, list_one, &st);
	modalias_result_unref(st.res);
	modalias_table_unref(st.table);
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
	{ "resolve", cmd_resolve, "print the modules that serve modaliases (as modprobe -R)" },
	{ "list", cmd_list, "list the devices in sysfs with their modalias and modules" },
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
