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
#include <syslog.h>
#include <unistd.h>

#include <glib.h>

#include "cli-config.h"
#include "cli-output.h"
#include "read-file.h"
#include "libmodalias.h"

enum {
	EXIT_FOUND = 0,
	EXIT_NOTHING = 1,
	EXIT_USAGE = 2, /* usage or input error */
};

static int verbosity;
/* The settings of modalias.conf (--config before the command). */
static struct cli_config config;

static void log_to_stderr(void *data, int priority, const char *file, int line,
			  const char *fn, const char *format, va_list args)
{
	fputs("modalias: ", stderr);
	vfprintf(stderr, format, args);
}

/* At most this much of an alias is echoed in a message: the library's own
 * limit, where an alias may be a 1 MiB line. */
#define ECHO_MAX 200
#define ECHO(s) (int)strnlen((s), ECHO_MAX), (s)

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
	else if (config.log_level >= 0)
		modalias_ctx_set_log_priority(ctx, config.log_level);
	if (sysfs && (r = modalias_ctx_set_sysfs_root(ctx, sysfs)) < 0) {
		fprintf(stderr, "modalias: bad sysfs root '%s': %s\n", sysfs, strerror(-r));
		exit(EXIT_USAGE);
	}
	return ctx;
}

/* ---- options: GOption, with '--' and unknown options made strict ----------- */

/* What a command's arguments are, for "… starting with '-' goes after '--'" */
static const char *argument_noun(const char *cmd)
{
	if (strcmp(cmd, "resolve") == 0 || strcmp(cmd, "load") == 0 || strcmp(cmd, "parse") == 0)
		return "an alias";
	if (strcmp(cmd, "map") == 0)
		return "a file";
	if (strcmp(cmd, "build") == 0)
		return "an argument";
	return NULL; /* list: none */
}

/* The entry of these sets with this long name (LEN bytes) or, when NAME is
 * NULL, this short name; NULL when there is none.  GOption's own -h,
 * --help, -? and --help-all are options too. */
static const GOptionEntry *option_find(const GOptionEntry *const *sets, const char *name, size_t len, char c)
{
	/* -? is GOption's other name for --help; here it rides with --help-all */
	static const GOptionEntry help[] = {
		{ "help", 'h', 0, G_OPTION_ARG_NONE, NULL, NULL, NULL },
		{ "help-all", '?', 0, G_OPTION_ARG_NONE, NULL, NULL, NULL },
		{ NULL }
	};

	for (const GOptionEntry *const *set = sets;; set++) {
		const GOptionEntry *e = *set ? *set : help;

		for (; e->long_name; e++)
			if (name ? strlen(e->long_name) == len && strncmp(e->long_name, name, len) == 0 : e->short_name == c)
				return e;
		if (!*set)
			return NULL;
	}
}

/* Whether the option takes the next argument as its value (when not given
 * as --name=VALUE) */
static bool option_takes_next(const GOptionEntry *e)
{
	if (e->arg == G_OPTION_ARG_NONE)
		return false;
	if (e->arg == G_OPTION_ARG_CALLBACK && (e->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG)))
		return false;
	return true;
}

/* The index of the '--' that ends the options (argc when there is none).
 * Before it, every argument starting with '-' (but '-' alone) must be an
 * option of SETS: --name, --name=VALUE, -x, or a group of flags -xyz of
 * which only the last may take a value (the next argument, as GOption
 * reads it).  GOption would take an unknown -hmac for -h (the help, exit 0)
 * and leave a '--' followed by '-…' arguments in place; an alias may start
 * with '-'.  Exits 2 naming the first unknown option. */
static int options_end(const char *cmd, const GOptionEntry *const *sets, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const GOptionEntry *e = NULL;
		bool next = false;

		if (strcmp(a, "--") == 0)
			return i;
		if (a[0] != '-' || a[1] == '\0')
			continue;
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');

			e = option_find(sets, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), 0);
			next = e && !eq && option_takes_next(e);
			/* GOption would drop the value of a flag (--json=no) */
			if (e && eq && (e->arg == G_OPTION_ARG_NONE || (e->flags & G_OPTION_FLAG_NO_ARG))) {
				fprintf(stderr, "modalias %s: option --%s takes no value\nTry 'modalias %s --help'.\n", cmd,
					e->long_name, cmd);
				exit(EXIT_USAGE);
			}
		} else {
			for (const char *c = a + 1; *c; c++) {
				e = option_find(sets, NULL, 0, *c);
				/* a value-taking one ends the group */
				if (!e || (c[1] && option_takes_next(e))) {
					e = NULL;
					break;
				}
				next = option_takes_next(e);
			}
		}
		if (!e) {
			const char *noun = argument_noun(cmd);

			fprintf(stderr, "modalias %s: unknown option %.*s", cmd, ECHO(a));
			if (noun)
				fprintf(stderr, " (%s starting with '-' goes after '--')", noun);
			fprintf(stderr, "\nTry 'modalias %s --help'.\n", cmd);
			exit(EXIT_USAGE);
		}
		i += next;
	}
	return argc;
}

/* Parses the options of one subcommand; exits 2 on a usage error.  After
 * '--', every argument is the command's, whatever it starts with. */
static void parse_options(const char *cmd, const char *params, const char *summary,
			  const GOptionEntry *entries, int *argc, char ***argv)
{
	g_autoptr(GOptionContext) oc = g_option_context_new(params);
	g_autoptr(GError) error = NULL;
	g_autofree char *prog = g_strdup_printf("modalias %s", cmd);
	const GOptionEntry *const sets[] = { entries ? entries : common_entries, common_entries, NULL };
	const char *noun = argument_noun(cmd);
	g_autofree char *full_summary = noun ? g_strdup_printf("%s\n%c%s starting with '-' goes after '--'.", summary,
							       g_ascii_toupper(noun[0]), noun + 1)
					     : g_strdup(summary);
	int end = options_end(cmd, sets, *argc, *argv), rest = *argc - end - (end < *argc);

	g_set_prgname(prog);
	g_option_context_set_summary(oc, full_summary);
	if (entries)
		g_option_context_add_main_entries(oc, entries, NULL);
	g_option_context_add_main_entries(oc, common_entries, NULL);
	/* GOption reads what comes before the '--'; what follows it is put
	 * back after what GOption left */
	*argc = end;
	if (!g_option_context_parse(oc, argc, argv, &error)) {
		fprintf(stderr, "modalias %s: %s\nTry 'modalias %s --help'.\n", cmd, error->message, cmd);
		exit(EXIT_USAGE);
	}
	memmove(*argv + *argc, *argv + end + 1, (size_t)rest * sizeof(char *));
	*argc += rest;
	(*argv)[*argc] = NULL;
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

/* {"modalias": …, "bus": …, "fields": {"name": "value" | ["v", …]}} */
static void dev_json(GString *j, struct modalias_dev *dev, const char *modalias)
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

static bool explicit_dir(const struct table_opts *o)
{
	return o->root || o->version || o->moddir || config.root || config.version || config.directory;
}

static char *table_dir(const struct table_opts *o)
{
	const char *root = o->root ? o->root : config.root;
	const char *version = o->version ? o->version : config.version;
	struct utsname u;

	if (o->moddir)
		return g_strdup(o->moddir);
	if (!o->root && !o->version && config.directory)
		return g_strdup(config.directory);
	if (!version && uname(&u) == 0)
		version = u.release;
	return g_build_filename(root ? root : "/", "lib", "modules", version ? version : "", NULL);
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

/* Where index caches go: --no-cache none; modalias.conf's cache= ("":
 * none); $MODALIAS_CACHE_DIR ("": none); /var/cache/modalias for root,
 * else the user's cache directory. */
static char *cache_dir(const struct table_opts *o)
{
	const char *env = g_getenv("MODALIAS_CACHE_DIR");

	if (o->no_cache)
		return NULL;
	if (config.cache)
		return *config.cache ? g_strdup(config.cache) : NULL;
	if (env)
		return *env ? g_strdup(env) : NULL;
	if (geteuid() == 0)
		return g_strdup("/var/cache/modalias");
	return g_build_filename(g_get_user_cache_dir(), "modalias", NULL);
}

/* The modprobe.d paths: -C, else modalias.conf's, else NULL (the system's);
 * *none when there is nothing to read at all (-C /dev/null). */
static const char *const *modprobe_paths(const struct table_opts *o, const char *buf[2], bool *none)
{
	*none = false;
	if (o->config) {
		*none = strcmp(o->config, "/dev/null") == 0;
		buf[0] = o->config;
		buf[1] = NULL;
		return buf;
	}
	return config.modprobe_d ? (const char *const *)config.modprobe_d : NULL;
}

/* Loads the table (with modalias.conf's extra tables and blacklist); on
 * failure says why and returns NULL.  *dir_out gets the module directory. */
static struct modalias_table *open_table_at(struct modalias_ctx *ctx, const struct table_opts *o,
					    const char *cmd, char **dir_out)
{
	g_autofree char *dir = table_dir(o);
	g_autofree char *cache = cache_dir(o);
	const char *buf[2], *const *paths;
	struct modalias_table *t;
	bool none;
	int r;

	if (!explicit_dir(o) && !g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		char *b = bundled_dir();
		if (b) {
			fprintf(stderr, "modalias %s: no %s here: using the bundled Debian 6.1 table (%s)\n", cmd, dir, b);
			g_free(dir);
			dir = b;
		}
	}
	r = modalias_table_open(ctx, dir, cache, &t);
	if (r < 0) {
		fprintf(stderr, "modalias %s: cannot load the module tables of %s: %s\n", cmd, dir,
			strerror(-r));
		return NULL;
	}
	if (r > 0)
		fprintf(stderr, "modalias %s: %s: %d malformed lines skipped\n", cmd, dir, r);
	paths = modprobe_paths(o, buf, &none);
	r = none ? 0 : modalias_table_load_config(t, paths);
	if (r < 0) {
		fprintf(stderr, "modalias %s: cannot read the modprobe configuration: %s\n", cmd,
			strerror(-r));
		modalias_table_unref(t);
		return NULL;
	}
	for (char **f = config.tables; f && *f; f++) {
		r = modalias_table_load_file(t, *f);
		if (r != 0) {
			fprintf(stderr, "modalias %s: %s (from %s): %s\n", cmd, *f, config.path,
				r < 0 ? strerror(-r) : "malformed lines");
			modalias_table_unref(t);
			return NULL;
		}
	}
	for (char **b = config.blacklist; b && *b; b++)
		if (modalias_table_add_blacklist(t, *b) < 0) {
			modalias_table_unref(t);
			return NULL;
		}
	if (dir_out)
		*dir_out = g_steal_pointer(&dir);
	return t;
}

static struct modalias_table *open_table(struct modalias_ctx *ctx, const struct table_opts *o,
					 const char *cmd)
{
	return open_table_at(ctx, o, cmd, NULL);
}

/* ---- build ---------------------------------------------------------------- */

static int list_fields(const char *bus)
{
	const char *f;

	if (!modalias_bus_field_name(bus, 0)) {
		fprintf(stderr, "modalias build: unknown bus '%.*s' (known: see 'modalias build --buses')\n", ECHO(bus));
		return EXIT_USAGE;
	}
	for (unsigned int i = 0; (f = modalias_bus_field_name(bus, i)); i++)
		printf("%-20s %s\n", f, modalias_bus_field_help(bus, f));
	return EXIT_FOUND;
}

static int cmd_build(int argc, char **argv)
{
	gboolean from_env = FALSE, fields = FALSE, buses = FALSE, json = FALSE;
	g_autofree char *sysfs = NULL;
	const GOptionEntry entries[] = {
		{ "env", 'e', 0, G_OPTION_ARG_NONE, &from_env,
		  "Build from the kernel event in the environment (MODALIAS, or the legacy variables); BUS defaults to $SUBSYSTEM", NULL },
		{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs,
		  "Sysfs root for --env lookups of $DEVPATH (default /sys)", "DIR" },
		{ "fields", 'f', 0, G_OPTION_ARG_NONE, &fields, "List the fields of BUS", NULL },
		{ "buses", 0, 0, G_OPTION_ARG_NONE, &buses, "List the known buses", NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print {modalias, bus, fields} as JSON", NULL },
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
		/* why an event has no modalias is the answer here, not noise */
		if (modalias_ctx_get_log_priority(ctx) < LOG_INFO)
			modalias_ctx_set_log_priority(ctx, LOG_INFO);
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
			fprintf(stderr, "modalias build: unknown bus '%.*s' (see 'modalias build --buses')\n", ECHO(argv[1]));
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
		for (int i = 2; i < argc; i++) {
			char *eq = strchr(argv[i], '=');

			if (!eq || eq == argv[i]) {
				fprintf(stderr, "modalias build: '%.*s' is not FIELD=VALUE\n", ECHO(argv[i]));
				r = -EINVAL;
				break;
			}
			*eq = '\0';
			r = modalias_dev_add(dev, argv[i], eq + 1);
			*eq = '=';
			if (r < 0) {
				/* the library named the field and the reason */
				fprintf(stderr, "modalias build: bad field '%.*s'\n", ECHO(argv[i]));
				break;
			}
		}
		if (r < 0) {
			modalias_dev_unref(dev);
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
	}
	if (json) {
		char *str;
		GString *j = g_string_new(NULL);

		ret = modalias_dev_format(dev, &str) < 0 ? EXIT_USAGE : EXIT_FOUND;
		if (ret == EXIT_FOUND) {
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
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print a JSON array of {modalias, bus, fields}", NULL },
		{ NULL }
	};
	GString *j = g_string_new("[");
	unsigned int n_json = 0;

	parse_options("parse", "ALIAS…", "Take modalias strings apart into their bus and named fields.",
		      entries, &argc, &argv);
	if (argc < 2) {
		fprintf(stderr, "modalias parse: an ALIAS is needed\nTry 'modalias parse --help'.\n");
		g_string_free(j, TRUE);
		return EXIT_USAGE;
	}
	ctx = new_ctx(NULL);
	for (int i = 1; i < argc; i++) {
		struct modalias_dev *dev;
		int r = modalias_parse(ctx, argv[i], &dev);

		if (r < 0) {
			fprintf(stderr, "modalias parse: '%.*s' is not a valid modalias\n", ECHO(argv[i]));
			ret = EXIT_USAGE;
			continue;
		}
		if (json) {
			g_string_append(j, n_json++ ? ",\n  " : "\n  ");
			dev_json(j, dev, argv[i]);
		} else {
			printf("%s\n", argv[i]);
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

/* ---- resolve -------------------------------------------------------------- */

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
			if (memchr(line, '\0', (size_t)n)) {
				/* not looked up as the text before the NUL; the line
				 * still gets its output line, as it came */
				fprintf(stderr, "modalias resolve: stdin:%u: NUL byte in the line, not looked up\n",
					lineno);
				ret = EXIT_USAGE;
				if (!o.json) {
					fwrite(line, 1, (size_t)n, stdout);
					fputs("\t\n", stdout);
				}
				continue;
			}
			r = modalias_table_lookup(t, line, res);
			if (r < 0) {
				fprintf(stderr, "modalias resolve: stdin:%u: cannot look '%.*s' up: %s\n", lineno,
					ECHO(line), strerror(-r));
				ret = EXIT_USAGE;
				/* the line still gets its output line */
				if (!o.json)
					printf("%s\t\n", line);
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
			r = modalias_table_lookup(t, argv[i], res);
			if (r < 0) {
				fprintf(stderr, "modalias resolve: cannot look '%.*s' up: %s\n", ECHO(argv[i]),
					strerror(-r));
				ret = EXIT_USAGE;
				continue;
			}
			resolved += r > 0;
			emit(&o, argv[i], res);
		}
	}
	if (o.json) {
		g_string_append(o.json_buf, o.json_n ? "\n]\n" : "]\n");
		cli_output_puts(o.json_buf->str);
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
	unsigned int driverless;
	unsigned int errors;
	gboolean json;
	GString *out;
	struct modalias_ctx *ctx;
	struct modalias_table *table;
	struct modalias_result *res;
};

/* loaded / builtin / blacklisted / available, as the system stands */
static const char *module_state(struct list_state *st, unsigned int i)
{
	const char *m = modalias_result_get_module(st->res, i);
	g_autofree char *sysmod = g_build_filename(modalias_ctx_get_sysfs_root(st->ctx), "module", m, "initstate", NULL);
	g_autofree char *state = NULL;

	if (modalias_result_is_builtin(st->res, i))
		return "builtin";
	/* a sysfs attribute: bounded, and a FIFO there cannot block */
	if (read_file(sysmod, READ_FILE_ATTR_MAX, 0, &state, NULL) == 0 && g_str_has_prefix(state, "live"))
		return "loaded";
	if (modalias_table_is_blacklisted(st->table, m))
		return "blacklisted";
	return "available";
}

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
			json_string(st->out, module_state(st, (unsigned int)i));
			g_string_append_c(st->out, '}');
		}
		g_string_append(st->out, "]}");
	} else {
		printf("%s\t%s", devpath, s);
		if (st->table) {
			putchar('\t');
			for (int i = 0; i < n; i++)
				printf(i ? " %s:%s" : "%s:%s", modalias_result_get_module(st->res, (unsigned int)i),
				       module_state(st, (unsigned int)i));
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

static int cmd_list(int argc, char **argv)
{
	g_autofree char *sysfs = NULL;
	struct table_opts to = { NULL };
	gboolean no_modules = FALSE;
	struct list_state st = { 0 };
	const GOptionEntry entries[] = {
		{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs, "Sysfs root (default /sys)", "DIR" },
		TABLE_OPTION_ENTRIES(to),
		{ "no-modules", 'n', 0, G_OPTION_ARG_NONE, &no_modules, "Leave the module column out", NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &st.json,
		  "Print a JSON array of {devpath, modalias, modules: [{name, state}]}", NULL },
		{ NULL }
	};
	struct modalias_ctx *ctx;
	int r;

	parse_options("list", "", "Print every device under the sysfs root that has a modalias, parents first:\n"
		      "DEVPATH<TAB>MODALIAS<TAB>MODULE:STATE … (loaded, builtin, blacklisted, available;\n"
		      "none when no module serves it), then a summary on standard error.",
		      entries, &argc, &argv);
	if (argc > 1) {
		fprintf(stderr, "modalias list: unexpected argument '%.*s'\n", ECHO(argv[1]));
		table_opts_clear(&to);
		return EXIT_USAGE;
	}
	ctx = new_ctx(sysfs ? sysfs : config.sysfs);
	st.ctx = ctx;
	if (!no_modules) {
		st.table = open_table(ctx, &to, "list");
		if (!st.table || modalias_result_new(&st.res) < 0) {
			table_opts_clear(&to);
			modalias_table_unref(st.table);
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
	}
	table_opts_clear(&to);
	st.out = g_string_new("[");
	r = modalias_sysfs_foreach(ctx, list_one, &st);
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
	modalias_table_unref(st.table);
	modalias_ctx_unref(ctx);
	if (r < 0 || st.errors)
		return EXIT_USAGE;
	return st.devices ? EXIT_FOUND : EXIT_NOTHING;
}

/* ---- load ----------------------------------------------------------------- */

struct load_out {
	gboolean json, dry;
	GString *out;
	unsigned int n_modules, failed;
};

static void on_module(void *data, const char *module, const char *detail, const char *options,
		      enum modalias_load_state state, int err)
{
	struct load_out *o = data;

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
			printf("insmod %s %s\n", detail, options);
		else if (state == MODALIAS_LOAD_COMMAND)
			printf("install %s %s\n", detail, options);
		else if (state == MODALIAS_LOAD_NOT_FOUND && err == -ENOENT)
			/* modprobe -n -v prints nothing for it; the real run fails */
			fprintf(stderr, "modalias load: module '%.*s' not found\n", ECHO(module));
		else if (state == MODALIAS_LOAD_NOT_FOUND)
			fprintf(stderr, "modalias load: '%.*s' is not a module name (%s)\n", ECHO(module), strerror(-err));
		else if (verbosity)
			printf("# %s: %s\n", module, modalias_load_state_name(state));
		return;
	}
	if (state == MODALIAS_LOAD_FAILED)
		printf("%s\t%s\t%s\t%s\n", module, modalias_load_state_name(state), detail, strerror(-err));
	else
		printf("%s\t%s%s%s\n", module, modalias_load_state_name(state), *detail ? "\t" : "", detail);
}

static int cmd_load(int argc, char **argv)
{
	struct table_opts to = { NULL };
	struct load_out o = { 0 };
	const GOptionEntry entries[] = {
		TABLE_OPTION_ENTRIES(to),
		{ "dry-run", 'n', 0, G_OPTION_ARG_NONE, &o.dry,
		  "Insert nothing: print what modprobe -n -v would (insmod PATH OPTIONS)", NULL },
		{ "show", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &o.dry, NULL, NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &o.json,
		  "Print a JSON array of {alias, modules: [{name, state, detail, options, errno}]}", NULL },
		{ NULL }
	};
	struct modalias_ctx *ctx;
	struct modalias_table *t;
	struct modalias_loader *loader = NULL;
	g_autofree char *dir = NULL;
	const char *buf[2], *const *paths;
	unsigned int resolved = 0;
	bool none;
	int ret = EXIT_FOUND, r;

	parse_options("load", "ALIAS…",
		      "Insert the modules of each ALIAS with their dependencies and softdeps, as udev does:\n"
		      "modprobe.d blacklists apply, builtin and loaded modules are skipped.  One line per module:\n"
		      "MODULE<TAB>STATE[<TAB>PATH] (inserted, already loaded, builtin, blacklisted, failed, not found).",
		      entries, &argc, &argv);
	if (argc < 2) {
		fprintf(stderr, "modalias load: an ALIAS is needed\nTry 'modalias load --help'.\n");
		table_opts_clear(&to);
		return EXIT_USAGE;
	}
	ctx = new_ctx(NULL);
	t = open_table_at(ctx, &to, "load", &dir);
	paths = modprobe_paths(&to, buf, &none);
	if (t) {
		const char *empty[] = { NULL };
		r = modalias_loader_new(ctx, dir, none ? empty : paths, &loader);
		if (r < 0)
			fprintf(stderr, "modalias load: cannot set up libkmod: %s\n", strerror(-r));
	}
	for (char **b = config.blacklist; loader && b && *b; b++)
		modalias_loader_add_blacklist(loader, *b);
	table_opts_clear(&to);
	if (!t || !loader) {
		modalias_table_unref(t);
		modalias_ctx_unref(ctx);
		return EXIT_USAGE;
	}
	o.out = g_string_new("[");
	for (int i = 1; i < argc; i++) {
		struct modalias_result *res;
		unsigned int before = o.n_modules, failed_before = o.failed;

		if (o.json) {
			g_string_append(o.out, i > 1 ? ",\n  {\"alias\": " : "\n  {\"alias\": ");
			json_string(o.out, argv[i]);
			g_string_append(o.out, ", \"modules\": [");
			o.n_modules = 0;
		}
		r = modalias_loader_load(loader, t, argv[i], o.dry ? MODALIAS_LOAD_DRY_RUN : 0, on_module, &o);
		if (o.json)
			g_string_append(o.out, "]}");
		if (r == -EINVAL && o.failed == failed_before) {
			/* (a module's own -EINVAL came through on_module) */
			fprintf(stderr, "modalias load: '%.*s' is not a valid alias\n", ECHO(argv[i]));
			ret = EXIT_USAGE;
			continue;
		}
		if (modalias_result_new(&res) == 0) {
			resolved += modalias_table_lookup(t, argv[i], res) > 0;
			modalias_result_unref(res);
		}
		if (!o.json && o.n_modules == before && !o.dry)
			fprintf(stderr, "modalias load: no module for '%.*s'\n", ECHO(argv[i]));
	}
	if (o.json) {
		g_string_append(o.out, argc > 1 ? "\n]\n" : "]\n");
		cli_output_puts(o.out->str);
	}
	if (ret != EXIT_USAGE)
		ret = (!resolved || o.failed) ? EXIT_NOTHING : EXIT_FOUND;
	g_string_free(o.out, TRUE);
	modalias_loader_unref(loader);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	return ret;
}

/* ---- map ------------------------------------------------------------------ */

static void print_entry(const struct modalias_map *m, unsigned int i, GString *json)
{
	int type = modalias_map_get_type(m);
	const char *f;

	if (json) {
		g_string_append(json, "{\"module\": ");
		json_string(json, modalias_map_get_module(m, i));
		g_string_append_printf(json, ", \"line\": %u", modalias_map_get_line(m, i));
	} else {
		printf("%s:%u\t%s", modalias_map_get_name(m), modalias_map_get_line(m, i),
		       modalias_map_get_module(m, i));
	}
	for (unsigned int c = 0; (f = modalias_map_type_field_name(type, c)); c++) {
		const char *s;
		int n = modalias_map_get_field_count(m, i, f);

		if (json) {
			g_string_append(json, ", ");
			json_string(json, f);
			g_string_append(json, ": ");
		}
		if (modalias_map_get_string(m, i, f, &s) == 0) {
			if (json)
				json_string(json, s);
			else
				printf(" %s=%s", f, *s ? s : "*");
			continue;
		}
		if (json)
			g_string_append(json, n == 1 ? "" : "[");
		else
			printf(" %s=", f);
		for (int k = 0; k < n; k++) {
			uint64_t v = 0;
			/* bitmaps: highest word first, as in the file */
			bool bitmap = g_str_has_suffix(f, "Bits") && strcmp(f, "matchBits") != 0;
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

static int cmd_map(int argc, char **argv)
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
		{ NULL }
	};
	struct modalias_ctx *ctx;
	struct modalias_dev *dev = NULL;
	GString *out = NULL;
	unsigned int flags = 0, found = 0, n_json = 0;
	int type = -1, ret = EXIT_FOUND, first = 1, last;

	parse_options("map", "FILE… | --to-aliases FILE… | --match BUS FIELD=VALUE… FILE",
		      "Read legacy module-init-tools map files (modules.usbmap, …, user maps):\n"
		      "print their entries, their alias patterns, or the modules that match IDs.",
		      entries, &argc, &argv);
	if (dialect && strcmp(dialect, "2.6") == 0)
		flags = MODALIAS_MAP_DIALECT_2_6;
	else if (dialect && strcmp(dialect, "current") != 0) {
		fprintf(stderr, "modalias map: unknown dialect '%.*s' (current or 2.6)\n", ECHO(dialect));
		return EXIT_USAGE;
	}
	if (type_name && (type = modalias_map_type_from_name(type_name)) < 0) {
		fprintf(stderr, "modalias map: unknown map type '%.*s'\n", ECHO(type_name));
		return EXIT_USAGE;
	}
	if (argc < (match ? 4 : 2)) {
		fprintf(stderr, "modalias map: %s\nTry 'modalias map --help'.\n",
			match ? "--match needs BUS, FIELD=VALUE… and FILE" : "a FILE is needed");
		return EXIT_USAGE;
	}
	ctx = new_ctx(NULL);
	last = argc - 1;
	if (match) {
		int r = modalias_dev_new(ctx, argv[1], &dev);

		if (r < 0) {
			fprintf(stderr, "modalias map: unknown bus '%.*s' (see 'modalias build --buses')\n", ECHO(argv[1]));
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
		for (int i = 2; i < last; i++) {
			char *eq = strchr(argv[i], '=');

			if (!eq || eq == argv[i]) {
				fprintf(stderr, "modalias map: '%.*s' is not FIELD=VALUE\n", ECHO(argv[i]));
				r = -EINVAL;
				break;
			}
			*eq = '\0';
			r = modalias_dev_add(dev, argv[i], eq + 1);
			*eq = '=';
			if (r < 0) {
				fprintf(stderr, "modalias map: bad field '%.*s'\n", ECHO(argv[i]));
				break;
			}
		}
		if (r < 0) {
			modalias_dev_unref(dev);
			modalias_ctx_unref(ctx);
			return EXIT_USAGE;
		}
		first = last;
	}
	if (json)
		out = g_string_new("[");
	for (int f = first; f <= last; f++) {
		struct modalias_map *m;
		int r = modalias_map_new_from_file(ctx, argv[f], type, &m);
		int n;

		if (r < 0) {
			fprintf(stderr, "modalias map: cannot read %s: %s\n", argv[f], strerror(-r));
			ret = EXIT_USAGE;
			continue;
		}
		if (r > 0) {
			/* each bad row was named by the library */
			fprintf(stderr, "modalias map: %s: %d bad rows skipped\n", argv[f], r);
			ret = EXIT_USAGE;
		}
		n = modalias_map_get_count(m);
		if (match) {
			GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
			unsigned int idx = 0, start = 0;

			while ((r = modalias_map_match(m, dev, start, &idx)) == 1) {
				const char *mod = modalias_map_get_module(m, idx);
				if (!g_hash_table_contains(seen, mod)) {
					g_hash_table_add(seen, (gpointer)mod);
					puts(mod);
					found++;
				}
				start = idx + 1;
			}
			if (r < 0)
				ret = EXIT_USAGE;
			g_hash_table_unref(seen);
		} else {
			for (int i = 0; i < n; i++) {
				if (to_aliases) {
					char **v;
					int k = modalias_map_get_aliases(m, (unsigned int)i, flags, &v);
					for (int j = 0; j < k; j++) {
						printf("alias %s %s\n", v[j], modalias_map_get_module(m, (unsigned int)i));
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
		modalias_map_unref(m);
	}
	if (out) {
		g_string_append(out, n_json ? "\n]\n" : "]\n");
		cli_output_puts(out->str);
		g_string_free(out, TRUE);
	}
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
	if (match && ret == EXIT_FOUND && !found)
		ret = EXIT_NOTHING;
	return ret;
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
	{ "map", cmd_map, "read legacy modules.*map files: entries, alias patterns, matches" },
	{ "load", cmd_load, "insert the modules of modaliases, as udev does (--dry-run: as modprobe -n -v)" },
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: modalias [--help] [--version] [--config=FILE] COMMAND [OPTIONS…]\n\n"
		     "Which kernel module drives this device?\n\nCommands:\n");
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n--config=FILE reads FILE instead of the default modalias.conf (see modalias.conf(5)).\n"
		     "Run 'modalias COMMAND --help' for a command's options; '--' ends them\n"
		     "(an alias starting with '-' goes after it: modalias resolve -- -hmac).\n"
		     "Exit status: 0 found, 1 nothing found, 2 usage or input error,\n"
		     "3 standard output cannot be written.\n");
}

int main(int argc, char **argv)
{
	cli_output_init("modalias");
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
	{
		/* modalias --config=FILE COMMAND …: modalias.conf (-C is modprobe.d's) */
		const char *conf = NULL;
		g_autoptr(GError) error = NULL;
		GString *warnings = g_string_new(NULL);
		int ret = -1;

		if (g_str_has_prefix(argv[1], "--config=")) {
			conf = argv[1] + 9;
			argv++;
			argc--;
		} else if (strcmp(argv[1], "--config") == 0 && argc > 2) {
			conf = argv[2];
			argv += 2;
			argc -= 2;
		}
		/* before the command: these options only ('--' may end them) */
		if (argc >= 2 && strcmp(argv[1], "--") == 0) {
			argv++;
			argc--;
		} else if (argc >= 2 && argv[1][0] == '-') {
			if (strcmp(argv[1], "--config") == 0)
				fprintf(stderr, "modalias: --config needs a FILE\n");
			else
				fprintf(stderr, "modalias: unknown option %.*s\n", ECHO(argv[1]));
			fprintf(stderr, "Try 'modalias --help'.\n");
			g_string_free(warnings, TRUE);
			return EXIT_USAGE;
		}
		if (!cli_config_load(conf, &config, warnings, &error)) {
			fprintf(stderr, "modalias: %s\n", error->message);
			g_string_free(warnings, TRUE);
			return EXIT_USAGE;
		}
		fputs(warnings->str, stderr);
		g_string_free(warnings, TRUE);
		if (argc < 2) {
			usage(stderr);
			cli_config_clear(&config);
			return EXIT_USAGE;
		}
		for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				ret = commands[i].run(argc - 1, argv + 1);
		cli_config_clear(&config);
		if (ret >= 0)
			return ret;
	}
	fprintf(stderr, "modalias: unknown command '%.*s'\n", ECHO(argv[1]));
	usage(stderr);
	return EXIT_USAGE;
}
