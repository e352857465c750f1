/*
 * cli/modalias-firmware.c - modalias firmware: for the modules that serve
 * the devices present (what resolve answers for each device's modalias)
 * and the modules they depend on (modules.dep), the firmware files each
 * declares (modinfo's "firmware", read by libkmod through
 * modalias_loader_get_modinfo()), and whether each is on the kernel's
 * firmware search path, as the kernel looks: every directory for the plain
 * file, then for FILE.zst, then for FILE.xz.
 *
 * This file reads modinfo and looks for files; it may not load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "modalias-commands.h"
#include "read-file.h"

/* The kernel's firmware search path, in its order (Linux
 * drivers/base/firmware_loader/main.c, fw_path[]; see
 * Documentation/driver-api/firmware/fw_search_path.rst): firmware_class's
 * "path" parameter when set, then these, KVER being the kernel's release */
static const char *const fw_dirs[] = {
	"/lib/firmware/updates/KVER",
	"/lib/firmware/updates",
	"/lib/firmware/KVER",
	"/lib/firmware",
};
/* the parameter, below the sysfs root */
#define FW_PATH_PARAM "module/firmware_class/parameters/path"
/* what the kernel tries after the plain file (_request_firmware(): zstd,
 * then xz, when built with them) */
static const char *const fw_suffixes[] = { "", ".zst", ".xz" };

struct fw_entry {
	char *module, *file;
};

struct fw_state {
	struct modalias_ctx *ctx;
	struct modalias_table *table;
	struct modalias_loader *loader;
	struct modalias_result *res;
	GPtrArray *dirs;         /* the search path */
	GHashTable *by_module;   /* module → GArray of struct fw_entry (own and dependencies') */
	GHashTable *found;       /* firmware file → path ("" when missing) */
	GHashTable *bad_modules; /* modules whose modinfo could not be read, told once */
	gboolean json, missing_only;
	GString *out;
	unsigned int json_n, devices, present, missing, errors;
	unsigned int walked; /* devices with a modalias (none: exit 1) */
};

static void entry_clear(void *p)
{
	struct fw_entry *e = p;

	g_free(e->module);
	g_free(e->file);
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* A file of DIR whose name, less a suffix, matches the glob NAME (its
 * directory part taken literally); NULL when none */
static char *glob_find(const char *dir, const char *name, const char *suffix)
{
	g_autofree char *sub = g_path_get_dirname(name);
	g_autofree char *base = g_path_get_basename(name);
	g_autofree char *where = g_build_filename(dir, sub, NULL);
	g_autofree char *pattern = g_strconcat(base, suffix, NULL);
	char *hit = NULL;
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	DIR *d = opendir(where);
	struct dirent *de;

	if (!d) {
		g_ptr_array_unref(names);
		return NULL;
	}
	while ((de = readdir(d)))
		if (fnmatch(pattern, de->d_name, FNM_PERIOD) == 0)
			g_ptr_array_add(names, g_strdup(de->d_name));
	closedir(d);
	/* the first in byte order, whatever the directory's order */
	for (guint i = 0; i < names->len; i++) {
		g_autofree char *path = g_build_filename(where, names->pdata[i], NULL);
		struct stat st;

		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (!hit || strcmp(path, hit) < 0)) {
			g_free(hit);
			hit = g_steal_pointer(&path);
		}
	}
	g_ptr_array_unref(names);
	return hit;
}

/* Where the kernel would find FILE, NULL when nowhere */
static char *fw_find(const struct fw_state *st, const char *file)
{
	for (size_t s = 0; s < G_N_ELEMENTS(fw_suffixes); s++)
		for (guint d = 0; d < st->dirs->len; d++) {
			const char *dir = st->dirs->pdata[d];
			g_autofree char *path = NULL;
			struct stat sb;

			if (has_glob(file)) {
				char *hit = glob_find(dir, file, fw_suffixes[s]);
				if (hit)
					return hit;
				continue;
			}
			path = g_strconcat(dir, "/", file, fw_suffixes[s], NULL);
			if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
				return g_steal_pointer(&path);
		}
	return NULL;
}

struct collect {
	struct fw_state *st;
	GArray *list;
};

static int on_firmware(void *data, const char *module, const char *value, int err)
{
	struct collect *c = data;
	struct fw_entry e;

	if (err < 0) {
		if (!g_hash_table_contains(c->st->bad_modules, module)) {
			g_hash_table_add(c->st->bad_modules, g_strdup(module));
			fprintf(stderr, "modalias firmware: cannot read the modinfo of %s: %s; its firmware is not checked\n",
				module, strerror(-err));
			c->st->errors++;
		}
		return 0;
	}
	e.module = g_strdup(module);
	e.file = g_strdup(value);
	g_array_append_val(c->list, e);
	return 0;
}

/* The firmware of MODULE and its dependencies, read once */
static GArray *module_firmware(struct fw_state *st, const char *module)
{
	struct collect c = { st, g_hash_table_lookup(st->by_module, module) };
	int r;

	if (c.list)
		return c.list;
	c.list = g_array_new(FALSE, TRUE, sizeof(struct fw_entry));
	g_array_set_clear_func(c.list, entry_clear);
	r = modalias_loader_get_modinfo(st->loader, module, "firmware", MODALIAS_MODINFO_DEPENDENCIES, on_firmware, &c);
	if (r < 0) {
		fprintf(stderr, "modalias firmware: cannot read the modinfo of %s: %s\n", module, strerror(-r));
		st->errors++;
	}
	g_hash_table_insert(st->by_module, g_strdup(module), c.list);
	return c.list;
}

/* Where FILE is, "" when missing; looked for once */
static const char *firmware_path(struct fw_state *st, const char *file)
{
	char *p = g_hash_table_lookup(st->found, file);

	if (!p) {
		p = fw_find(st, file);
		if (!p)
			p = g_strdup("");
		g_hash_table_insert(st->found, g_strdup(file), p);
	}
	return p;
}

static int firmware_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct fw_state *st = data;
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	char *alias;
	int n;
	bool header = false, counted = false;

	if (err < 0 || modalias_dev_format(dev, &alias) < 0) {
		fprintf(stderr, "modalias firmware: %s: cannot read its modalias: %s\n", devpath,
			strerror(err < 0 ? -err : ENOMEM));
		st->errors++;
		return 0;
	}
	st->walked++;
	n = modalias_table_lookup(st->table, alias, st->res);
	free(alias);
	for (int i = 0; i < n; i++) {
		const char *top = modalias_result_get_module(st->res, (unsigned int)i);
		GArray *list = module_firmware(st, top);

		for (guint k = 0; k < list->len; k++) {
			const struct fw_entry *e = &g_array_index(list, struct fw_entry, k);
			g_autofree char *key = g_strconcat(e->module, "/", e->file, NULL);
			const char *path;

			/* a dependency shared by two modules of the device: once */
			if (!g_hash_table_add(seen, g_steal_pointer(&key)))
				continue;
			path = firmware_path(st, e->file);
			if (!counted) {
				counted = true;
				st->devices++;
			}
			if (st->missing_only && *path)
				continue;
			if (st->json) {
				g_string_append(st->out, st->json_n++ ? ",\n  {\"devpath\": " : "\n  {\"devpath\": ");
				json_string(st->out, devpath);
				g_string_append(st->out, ", \"module\": ");
				json_string(st->out, e->module);
				g_string_append(st->out, ", \"for\": ");
				json_string(st->out, top);
				g_string_append(st->out, ", \"file\": ");
				json_string(st->out, e->file);
				g_string_append_printf(st->out, ", \"state\": \"%s\", \"path\": ", *path ? "present" : "missing");
				if (*path)
					json_string(st->out, path);
				else
					g_string_append(st->out, "null");
				g_string_append_c(st->out, '}');
				continue;
			}
			if (!header) {
				printf("%s\n", devpath);
				header = true;
			}
			if (strcmp(e->module, top) != 0)
				printf("  %s (for %s)\t%s\t%s%s%s\n", e->module, top, e->file, *path ? "present" : "missing",
				       *path ? "\t" : "", path);
			else
				printf("  %s\t%s\t%s%s%s\n", e->module, e->file, *path ? "present" : "missing",
				       *path ? "\t" : "", path);
		}
	}
	cli_output_check();
	return 0;
}

/* The default search path: firmware_class's path parameter when set (read
 * under the sysfs root), then fw_dirs[] under ROOT with KVER */
static void default_dirs(struct fw_state *st, const char *root, const char *kver)
{
	g_autofree char *param = g_build_filename(modalias_ctx_get_sysfs_root(st->ctx), FW_PATH_PARAM, NULL);
	char *custom = NULL;

	if (read_file(param, READ_FILE_ATTR_MAX, 0, &custom, NULL) == 0) {
		g_strchomp(custom);
		if (*custom)
			g_ptr_array_add(st->dirs, g_strdup(custom));
	}
	free(custom);
	for (size_t i = 0; i < G_N_ELEMENTS(fw_dirs); i++) {
		g_auto(GStrv) parts = g_strsplit(fw_dirs[i], "KVER", -1);
		g_autofree char *dir = g_strjoinv(kver, parts);

		g_ptr_array_add(st->dirs, g_build_filename(root ? root : "/", dir, NULL));
	}
}

int cmd_firmware(int argc, char **argv)
{
	struct device_source src = { NULL };
	struct cli_devices dv;
	g_auto(GStrv) fw_path = NULL;
	struct cli_tables_spec spec = { NULL };
	struct cli_tables tables = { NULL };
	struct fw_state st = { 0 };
	const GOptionEntry entries[] = {
		DEVICE_OPTION_ENTRIES(src),
		TABLE_OPTION_ENTRIES(spec),
		{ "firmware-path", 'f', 0, G_OPTION_ARG_FILENAME_ARRAY, &fw_path,
		  "Look for firmware in DIR (given once or more: instead of the kernel's search path)", "DIR" },
		{ "missing", 0, 0, G_OPTION_ARG_NONE, &st.missing_only, "Print only the missing files", NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &st.json,
		  "Print a JSON array of {devpath, module, for, file, state: present|missing, path}", NULL },
		QUIET_OPTION_ENTRY,
		{ NULL }
	};
	g_autofree char *kver = NULL;
	int r;

	parse_options("firmware", "",
		      "For the modules that serve the devices under the sysfs root (or in a snapshot),\n"
		      "and the modules they depend on, print the firmware files each declares\n"
		      "(modinfo -F firmware) and whether the kernel would find each on its firmware\n"
		      "search path (firmware_class.path, /lib/firmware/updates/KVER,\n"
		      "/lib/firmware/updates, /lib/firmware/KVER, /lib/firmware; as FILE, FILE.zst or\n"
		      "FILE.xz), grouped by ""device, then a summary.\n"
		      "Exit status: 0 every file present, 1 some missing (or there is no device), 2 usage\n"
		      "or input error (a module whose modinfo cannot be read included), 3 write error.",
		      entries, &argc, &argv);
	if (argc > 1) {
		cli_tables_spec_clear(&spec);
		device_source_clear(&src);
		return usage_error("firmware", "unexpected argument '%.*s'", ECHO(argv[1]));
	}
	st.ctx = open_devices(&src, "firmware", &dv);
	r = open_tables(st.ctx, &spec, "firmware", CLI_TABLES_LOADER, &tables);
	if (r < 0 || modalias_result_new(&st.res) < 0) {
		cli_tables_spec_clear(&spec);
		cli_tables_close(&tables);
		cli_devices_close(&dv);
		modalias_ctx_unref(st.ctx);
		return CLI_EXIT_USAGE;
	}
	st.table = tables.table;
	st.loader = tables.loader;
	st.dirs = g_ptr_array_new_with_free_func(g_free);
	if (fw_path && fw_path[0]) {
		for (char **p = fw_path; *p; p++)
			g_ptr_array_add(st.dirs, g_strdup(*p));
	} else {
		/* the module directory is ROOT/lib/modules/KVER */
		kver = g_path_get_basename(tables.dir);
		default_dirs(&st, spec.root ? spec.root : config.root, kver);
	}
	cli_tables_spec_clear(&spec);
	st.by_module = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
	st.found = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	st.bad_modules = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	st.out = g_string_new("[");
	r = cli_devices_foreach(&dv, firmware_one, &st);
	if (st.json) {
		g_string_append(st.out, st.json_n ? "\n]\n" : "]\n");
		cli_output_puts(st.out->str);
	}
	{
		GHashTableIter it;
		gpointer path;

		g_hash_table_iter_init(&it, st.found);
		while (g_hash_table_iter_next(&it, NULL, &path)) {
			if (*(const char *)path)
				st.present++;
			else
				st.missing++;
		}
	}
	if (!st.json && r >= 0)
		printf("%u firmware files for %u devices: %u present, %u missing%s\n", st.present + st.missing,
		       st.devices, st.present, st.missing, st.errors ? " (some modules not read: see above)" : "");
	g_string_free(st.out, TRUE);
	g_hash_table_unref(st.by_module);
	g_hash_table_unref(st.found);
	g_hash_table_unref(st.bad_modules);
	g_ptr_array_unref(st.dirs);
	modalias_result_unref(st.res);
	cli_tables_close(&tables);
	cli_devices_close(&dv);
	modalias_ctx_unref(st.ctx);
	if (r < 0 || st.errors)
		return CLI_EXIT_USAGE;
	return st.missing || !st.walked ? CLI_EXIT_NOTHING : CLI_EXIT_FOUND;
}
