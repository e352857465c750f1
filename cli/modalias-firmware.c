/*
 * cli/modalias-firmware.c - modalias firmware: what the hardware present
 * (the devices under the sysfs root, or in a snapshot) will fail to get.
 *
 * Two records answer.  The kernel's own: the firmware loads its log says
 * failed (cli_devices_foreach_firmware_failure(): /dev/kmsg, or the
 * snapshot's record), each tied to the device that asked; those are
 * certain.  And the modules': for the modules that serve each device (what
 * resolve answers for its modalias), the firmware files each declares
 * (modinfo's "firmware", read by libkmod through
 * modalias_loader_get_modinfo()), looked for on the kernel's firmware
 * search path as the kernel looks: every directory for the plain file,
 * then for FILE.zst, then for FILE.xz; a wildcard entry by glob.  Its
 * directories of the kernel's release are left out (and said so) when the
 * release is not known; a snapshot's or a captured tree's files are looked
 * for here, on this machine, and said to be "here", never "served": its
 * machine's are not.
 *
 * A module that declares several files asks for one of them (iwlwifi
 * declares one per hardware family, a card loads its own): it is served
 * when at least one is present, missing when none is.  The files of a
 * module's dependencies (ccp's for kvm_amd) are reported apart and never
 * decide the exit status: 1 only when a device's own module is missing
 * all its files, or a load the kernel log says failed is still missing.
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

/* A directory of the search path; left out: a KVER one, the kernel
 * release not known (shown, never searched) */
struct fw_dir {
	char *path;
	bool left_out;
};

/* The firmware files one module declares, in its order */
struct fw_group {
	char *module;
	GPtrArray *files;
};

/* A failed load of the kernel log */
struct fw_failure {
	char *devpath, *file; /* devpath NULL: the line names no device found */
	int error;
	bool told;            /* reported with its device */
};

/* What a device's module, or a kernel log's line, comes to */
enum fw_source { FROM_MODULE, FROM_DEPENDENCY, FROM_KERNEL_LOG };
static const char *const source_names[] = { "module", "dependency", "kernel log" };

struct fw_state {
	struct modalias_ctx *ctx;
	struct modalias_table *table; /* NULL: the modules' declared files are not looked for */
	struct modalias_loader *loader;
	struct modalias_result *res;
	GArray *dirs;            /* the search path: struct fw_dir, the kernel's order */
	GHashTable *by_module;   /* module → GPtrArray of struct fw_group (its own first, then its dependencies') */
	GHashTable *found;       /* firmware file → path ("" when missing) */
	GHashTable *bad_modules; /* modules whose modinfo could not be read, told once */
	GArray *failures;        /* struct fw_failure, the kernel log's order */
	gboolean json, missing_only;
	bool here;            /* a snapshot, a captured tree: the files looked for are this machine's, not its machine's */
	GString *out;
	unsigned int json_n, devices, entries;
	unsigned int bad_devices, bad_modules_n; /* whose modalias, whose modinfo could not be read */
	unsigned int served[2], missing[2]; /* by FROM_MODULE, FROM_DEPENDENCY */
	unsigned int failed, failed_missing;
	unsigned int walked;  /* devices with a modalias (none: exit 1) */
	bool needed_missing; /* exit 1 */
};

static void group_free(void *p)
{
	struct fw_group *g = p;

	g_free(g->module);
	g_ptr_array_unref(g->files);
	g_free(g);
}

static void dir_clear(void *p)
{
	g_free(((struct fw_dir *)p)->path);
}

static void add_dir(struct fw_state *st, char *path, bool left_out)
{
	struct fw_dir d = { path, left_out };

	g_array_append_val(st->dirs, d);
}

static void failure_clear(void *p)
{
	struct fw_failure *f = p;

	g_free(f->devpath);
	g_free(f->file);
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
			const char *dir = g_array_index(st->dirs, struct fw_dir, d).path;
			g_autofree char *path = NULL;
			struct stat sb;

			if (g_array_index(st->dirs, struct fw_dir, d).left_out)
				continue;
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

struct collect {
	struct fw_state *st;
	GPtrArray *groups;
};

static int on_firmware(void *data, const char *module, const char *value, int err)
{
	struct collect *c = data;
	struct fw_group *g = c->groups->len ? c->groups->pdata[c->groups->len - 1] : NULL;

	if (err < 0) {
		if (!g_hash_table_contains(c->st->bad_modules, module)) {
			g_hash_table_add(c->st->bad_modules, g_strdup(module));
			fprintf(stderr, "modalias firmware: cannot read the modinfo of %s: %s; its firmware is not checked\n",
				cli_shown(module), strerror(-err));
			c->st->bad_modules_n++;
		}
		return 0;
	}
	if (!g || strcmp(g->module, module) != 0) {
		g = g_new0(struct fw_group, 1);
		g->module = g_strdup(module);
		g->files = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(c->groups, g);
	}
	g_ptr_array_add(g->files, g_strdup(value));
	return 0;
}

/* The firmware of MODULE and its dependencies, by module, read once */
static GPtrArray *module_firmware(struct fw_state *st, const char *module)
{
	struct collect c = { st, g_hash_table_lookup(st->by_module, module) };
	int r;

	if (c.groups)
		return c.groups;
	c.groups = g_ptr_array_new_with_free_func(group_free);
	r = modalias_loader_get_modinfo(st->loader, module, "firmware", MODALIAS_MODINFO_DEPENDENCIES, on_firmware, &c);
	if (r < 0) {
		fprintf(stderr, "modalias firmware: cannot read the modinfo of %s: %s\n", cli_shown(module), strerror(-r));
		st->bad_modules_n++;
	}
	g_hash_table_insert(st->by_module, g_strdup(module), c.groups);
	return c.groups;
}

/* ---- output --------------------------------------------------------------- */

/* A module's files (or a kernel log's one) with their paths, and whether
 * it is served: one of them present */
struct fw_entry {
	enum fw_source source;
	const char *module, *for_module; /* NULL for the kernel log */
	GPtrArray *files;                /* borrowed */
	const char *file;                /* the kernel log's */
	int error;
	unsigned int present;
};

/* What an entry comes to: for this machine's own devices, served or
 * missing; for a snapshot's or a captured tree's, only whether its files
 * are here, on this machine (or in --firmware-path), which says nothing of
 * its machine's */
static const char *state_word(const struct fw_state *st, bool served)
{
	if (st->here)
		return served ? "present here" : "missing here";
	return served ? "served" : "missing";
}

static void device_header(struct fw_state *st, const char *devpath, bool *header)
{
	if (*header)
		return;
	*header = true;
	printf("%s\n", devpath ? cli_shown(devpath) : "(no device: the kernel log's line names none found here)");
}

/* One entry of DEVPATH: counted, then printed (unless --missing and served) */
static void report(struct fw_state *st, const char *devpath, const struct fw_entry *e, bool *header)
{
	const unsigned int n = e->files ? e->files->len : 1;
	const bool served = e->present > 0;

	st->entries++;
	if (e->source == FROM_KERNEL_LOG) {
		st->failed++;
		st->failed_missing += !served;
	} else if (served) {
		st->served[e->source]++;
	} else {
		st->missing[e->source]++;
	}
	if (!served && e->source != FROM_DEPENDENCY)
		st->needed_missing = true;
	if (st->missing_only && served)
		return;
	if (st->json) {
		g_string_append(st->out, st->json_n++ ? ",\n  {\"devpath\": " : "\n  {\"devpath\": ");
		if (devpath)
			json_string(st->out, devpath);
		else
			g_string_append(st->out, "null");
		g_string_append_printf(st->out, ", \"source\": \"%s\", \"module\": ", source_names[e->source]);
		if (e->module)
			json_string(st->out, e->module);
		else
			g_string_append(st->out, "null");
		g_string_append(st->out, ", \"for\": ");
		if (e->for_module)
			json_string(st->out, e->for_module);
		else
			g_string_append(st->out, "null");
		g_string_append_printf(st->out, ", \"state\": \"%s\"", state_word(st, served));
		if (e->source == FROM_KERNEL_LOG)
			g_string_append_printf(st->out, ", \"errno\": %d", -e->error);
		g_string_append(st->out, ", \"files\": [");
		for (unsigned int i = 0; i < n; i++) {
			const char *file = e->files ? e->files->pdata[i] : e->file;
			const char *path = firmware_path(st, file);

			g_string_append(st->out, i ? ", {\"file\": " : "{\"file\": ");
			json_string(st->out, file);
			g_string_append(st->out, ", \"path\": ");
			if (*path)
				json_string(st->out, path);
			else
				g_string_append(st->out, "null");
			g_string_append_c(st->out, '}');
		}
		g_string_append(st->out, "]}");
		return;
	}
	device_header(st, devpath, header);
	if (e->source == FROM_KERNEL_LOG) {
		const char *path = firmware_path(st, e->file);

		printf("  kernel log: %s failed to load (error %d)\t%s%s%s\n", cli_shown(e->file), e->error,
		       *path ? (st->here ? "present here" : "present now") : state_word(st, false), *path ? ": " : "",
		       cli_shown(path));
		return;
	}
	if (e->source == FROM_DEPENDENCY)
		printf("  %s (dependency of %s, not counted)", cli_shown(e->module), cli_shown(e->for_module));
	else
		printf("  %s", cli_shown(e->module));
	if (n == 1)
		printf(": %s\n", state_word(st, served));
	else if (served)
		printf(st->here ? ": present here (%u of its %u files)\n" : ": served (%u of its %u files present)\n",
		       e->present, n);
	else
		printf(st->here ? ": missing here (none of its %u files)\n" : ": missing (none of its %u files present)\n", n);
	/* the files that say it: a served one's present files, a missing
	 * one's every file; with -v every file */
	for (unsigned int i = 0; i < n; i++) {
		const char *file = e->files->pdata[i];
		const char *path = firmware_path(st, file);

		if (*path)
			printf("    %s\t%s\n", cli_shown(file), cli_shown(path));
		else if (!served || verbosity)
			printf("    %s\t%s\n", cli_shown(file), st->here ? "absent here" : "absent");
	}
}

/* A module's files looked for: the entry */
static struct fw_entry module_entry(struct fw_state *st, enum fw_source source, const struct fw_group *g,
				    const char *top)
{
	struct fw_entry e = { .source = source, .module = g->module, .for_module = top, .files = g->files };

	for (guint i = 0; i < g->files->len; i++)
		e.present += *firmware_path(st, g->files->pdata[i]) != '\0';
	return e;
}

static void report_failure(struct fw_state *st, struct fw_failure *f, bool *header)
{
	struct fw_entry e = { .source = FROM_KERNEL_LOG, .file = f->file, .error = f->error };

	e.present = *firmware_path(st, f->file) != '\0';
	f->told = true;
	report(st, f->devpath, &e, header);
}

static int firmware_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct fw_state *st = data;
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GPtrArray) tops = g_ptr_array_new_with_free_func(g_free);
	char *alias;
	int n;
	bool header = false;
	unsigned int before = st->entries;

	if (err < 0 || modalias_dev_format(dev, &alias) < 0) {
		fprintf(stderr, "modalias firmware: %s: cannot read its modalias: %s\n", cli_shown(devpath),
			strerror(err < 0 ? -err : ENOMEM));
		st->bad_devices++;
		return 0;
	}
	st->walked++;
	n = st->table ? modalias_table_lookup(st->table, alias, st->res) : 0;
	free(alias);
	for (int i = 0; i < n; i++)
		g_ptr_array_add(tops, g_strdup(modalias_result_get_module(st->res, (unsigned int)i)));
	/* the device's own modules first, then their dependencies', each once
	 * (a module both is its own) */
	for (guint i = 0; i < tops->len; i++)
		g_hash_table_add(seen, tops->pdata[i]);
	for (guint i = 0; i < tops->len; i++) {
		GPtrArray *groups = module_firmware(st, tops->pdata[i]);

		for (guint k = 0; k < groups->len; k++) {
			const struct fw_group *g = groups->pdata[k];
			struct fw_entry e;

			if (strcmp(g->module, tops->pdata[i]) != 0)
				continue;
			e = module_entry(st, FROM_MODULE, g, tops->pdata[i]);
			report(st, devpath, &e, &header);
		}
	}
	for (guint i = 0; i < tops->len; i++) {
		GPtrArray *groups = module_firmware(st, tops->pdata[i]);

		for (guint k = 0; k < groups->len; k++) {
			const struct fw_group *g = groups->pdata[k];
			struct fw_entry e;

			if (!g_hash_table_add(seen, g->module))
				continue;
			e = module_entry(st, FROM_DEPENDENCY, g, tops->pdata[i]);
			report(st, devpath, &e, &header);
		}
	}
	for (guint i = 0; i < st->failures->len; i++) {
		struct fw_failure *f = &g_array_index(st->failures, struct fw_failure, i);

		if (f->devpath && strcmp(f->devpath, devpath) == 0)
			report_failure(st, f, &header);
	}
	st->devices += st->entries > before;
	cli_output_check();
	return 0;
}

static int take_failure(void *data, const char *devpath, const char *file, int error)
{
	struct fw_state *st = data;
	struct fw_failure f = { g_strdup(devpath), g_strdup(file), error, false };

	for (guint i = 0; i < st->failures->len; i++) {
		const struct fw_failure *o = &g_array_index(st->failures, struct fw_failure, i);

		if (strcmp(o->file, file) == 0 && g_strcmp0(o->devpath, devpath) == 0) {
			failure_clear(&f);
			return 0;
		}
	}
	g_array_append_val(st->failures, f);
	return 0;
}

/* ---- where it looks --------------------------------------------------------- */

/* The kernel release whose directories the kernel searches: the one the
 * tables were named by when NAMED (-S, modalias.conf's version=), else the
 * machine's (the running kernel's, a snapshot's), else that of a module
 * directory ROOT/lib/modules/RELEASE (-m); NULL when none is known (-m of
 * another directory, the bundled table, a captured tree or a snapshot
 * without its kernel, whose tables' uname -r is this machine's): never a
 * name made up */
static char *firmware_release(const struct cli_tables *tables, bool named, const struct cli_devices *dv,
			      const char *root)
{
	const char *machine = cli_devices_kernel(dv);
	g_autofree char *modules = NULL, *dir = NULL, *parent = NULL, *release = NULL;

	if (named && kernel_release_ok(tables->version))
		return g_strdup(tables->version);
	if (kernel_release_ok(machine))
		return g_strdup(machine);
	if (tables->version || tables->bundled)
		return NULL;
	modules = g_canonicalize_filename("lib/modules", root ? root : "/");
	dir = g_canonicalize_filename(tables->dir, NULL);
	parent = g_path_get_dirname(dir);
	release = g_path_get_basename(dir);
	return strcmp(parent, modules) == 0 && kernel_release_ok(release) ? g_steal_pointer(&release) : NULL;
}

/* The default search path: firmware_class's path parameter when set (read
 * under the sysfs root), then fw_dirs[] under ROOT with KVER; KVER NULL:
 * its directories left out */
static void default_dirs(struct fw_state *st, const char *root, const char *kver)
{
	g_autofree char *param = g_build_filename(modalias_ctx_get_sysfs_root(st->ctx), FW_PATH_PARAM, NULL);
	char *custom = NULL;

	if (read_file(param, READ_FILE_ATTR_MAX, 0, &custom, NULL) == 0) {
		g_strchomp(custom);
		if (*custom)
			add_dir(st, g_strdup(custom), false);
	}
	free(custom);
	for (size_t i = 0; i < G_N_ELEMENTS(fw_dirs); i++) {
		g_auto(GStrv) parts = g_strsplit(fw_dirs[i], "KVER", -1);
		g_autofree char *dir = g_strjoinv(kver ? kver : "RELEASE", parts);

		add_dir(st, g_build_filename(root ? root : "/", dir, NULL), !kver && parts[1]);
	}
}

/* For the summary: what could not be read, devices' modaliases or
 * modules' modinfo, said as what it is; NULL when all was read */
static char *not_read_said(const struct fw_state *st)
{
	GString *s;

	if (!st->bad_devices && !st->bad_modules_n)
		return NULL;
	s = g_string_new(" (not read, see above: ");
	if (st->bad_devices)
		g_string_append_printf(s, "%u %s", st->bad_devices,
				       st->bad_devices == 1 ? "device's modalias" : "devices' modaliases");
	if (st->bad_modules_n)
		g_string_append_printf(s, "%s%u %s", st->bad_devices ? ", " : "", st->bad_modules_n,
				       st->bad_modules_n == 1 ? "module's modinfo" : "modules' modinfo");
	g_string_append_c(s, ')');
	return g_string_free(s, FALSE);
}

/* The kernel log's failed loads into ST; what was read, said in words
 * for the human output */
static char *read_failures(struct fw_state *st, const struct cli_devices *dv)
{
	const char *log = cli_devices_kernel_log(dv);
	int r = cli_devices_foreach_firmware_failure(dv, take_failure, st);

	/* a snapshot without a record: of a captured tree, or of a machine
	 * whose log could not be read; the document does not say which */
	if (r == -ENODATA)
		return g_strdup(dv->snap ? "not recorded in the snapshot"
					 : "not read (a captured sysfs tree: its machine's log is not here)");
	if (r < 0)
		return g_strdup_printf("%s cannot be read: %s%s", log, strerror(-r),
				       r == -EPERM || r == -EACCES ? " (root can read it)" : "");
	return g_strdup_printf("%s: %u failed firmware load%s", dv->snap ? "the snapshot's record" : log,
			       st->failures->len, cli_plural(st->failures->len));
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
		{ "missing", 0, 0, G_OPTION_ARG_NONE, &st.missing_only, "Print only what is missing", NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &st.json,
		  "Print a JSON array of {devpath, source: module|dependency|kernel log, module, for, "
		  "state: served|missing (a snapshot, a captured tree: present here|missing here), [errno,] files: "
		  "[{file, path}]}",
		  NULL },
		QUIET_OPTION_ENTRY,
		{ NULL }
	};
	g_autofree char *kver = NULL, *log_said = NULL, *not_read = NULL;
	int r;

	parse_options("firmware", "",
		      "What the devices under the sysfs root (or in a snapshot) will fail to get: the\n"
		      "firmware loads the kernel log says failed (/dev/kmsg, or the snapshot's record),\n"
		      "and for the modules that serve each device, the firmware files each declares\n"
		      "(modinfo -F firmware), looked for on the kernel's firmware search path\n"
		      "(firmware_class.path, /lib/firmware/updates/KVER, /lib/firmware/updates,\n"
		      "/lib/firmware/KVER, /lib/firmware; as FILE, then FILE.zst, then FILE.xz; the\n"
		      "KVER ones left out when the kernel release is not known).  A module is served\n"
		      "when one of the files it declares is present (-v: every file); its\n"
		      "dependencies' firmware is reported apart.  For a snapshot or a captured tree the\n"
		      "files are this machine's, not its machine's: \"present here\", \"missing here\".  A summary\n"
		      "goes to standard error.\n"
		      "Exit status: 0 nothing missing, 1 a device's module has none of its files, a\n"
		      "load the kernel log says failed is still missing, or there is no device, 2 usage\n"
		      "or input error (a device whose modalias or a module whose modinfo cannot be\n"
		      "read, a --firmware-path that is not a directory), 3 write error.",
		      entries, &argc, &argv);
	r = 0;
	if (argc > 1)
		r = usage_error("firmware", "unexpected argument '%s'", ECHO(argv[1]));
	for (char **p = fw_path; !r && p && *p; p++)
		if (!g_file_test(*p, G_FILE_TEST_IS_DIR))
			r = usage_error("firmware", "--firmware-path %s: not a directory", ECHO(*p));
	if (r) {
		cli_tables_spec_clear(&spec);
		device_source_clear(&src);
		return r;
	}
	st.ctx = open_devices(&src, "firmware", &dv);
	r = open_machine_tables(st.ctx, st.ctx ? &dv : NULL, &spec, "firmware", CLI_TABLES_LOADER, &tables);
	if (r < 0 || modalias_result_new(&st.res) < 0) {
		cli_tables_spec_clear(&spec);
		cli_tables_close(&tables);
		cli_devices_close(&dv);
		modalias_ctx_unref(st.ctx);
		return CLI_EXIT_USAGE;
	}
	/* the bundled table has no module files whose modinfo could be read */
	st.table = tables.bundled ? NULL : tables.table;
	st.loader = tables.loader;
	if (tables.bundled && !quiet)
		fprintf(stderr, "modalias firmware: the bundled table holds no modules: the firmware files they declare "
				"are not looked for, only the kernel log's failed loads\n");
	st.dirs = g_array_new(FALSE, FALSE, sizeof(struct fw_dir));
	g_array_set_clear_func(st.dirs, dir_clear);
	/* the devices of another machine (a snapshot, a captured tree: no
	 * kernel log of their own here): the files are looked for on this one */
	st.here = dv.snap != NULL || !cli_devices_kernel_log(&dv);
	if (fw_path && fw_path[0]) {
		for (char **p = fw_path; *p; p++)
			add_dir(&st, g_strdup(*p), false);
	} else {
		const char *root = spec.root ? spec.root : config.root;

		kver = firmware_release(&tables, spec.version || config.version, &dv, root);
		default_dirs(&st, root, kver);
	}
	cli_tables_spec_clear(&spec);
	st.by_module = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
	st.found = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	st.bad_modules = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	st.failures = g_array_new(FALSE, TRUE, sizeof(struct fw_failure));
	g_array_set_clear_func(st.failures, failure_clear);
	st.out = g_string_new("[");
	log_said = read_failures(&st, &dv);
	if (!st.json) {
		printf("search path%s (the kernel's order: every directory for FILE, then for FILE.zst, then FILE.xz):\n",
		       st.here ? (dv.snap ? " on this machine, not the snapshot's" : " on this machine, not the captured tree's") : "");
		for (guint i = 0; i < st.dirs->len; i++) {
			const struct fw_dir *d = &g_array_index(st.dirs, struct fw_dir, i);

			printf("  %s%s\n", cli_shown(d->path),
			       d->left_out ? "\tleft out: the kernel release is not known (-S VERSION or -d ROOT -S VERSION gives it)"
					   : "");
		}
		printf("kernel log: %s\n", cli_shown(log_said));
	}
	r = cli_devices_foreach(&dv, firmware_one, &st);
	/* the kernel log's lines whose device was not walked, under theirs */
	for (guint i = 0; r >= 0 && i < st.failures->len; i++) {
		const char *devpath = g_array_index(st.failures, struct fw_failure, i).devpath;
		bool header = false;

		if (g_array_index(st.failures, struct fw_failure, i).told)
			continue;
		for (guint k = i; k < st.failures->len; k++) {
			struct fw_failure *f = &g_array_index(st.failures, struct fw_failure, k);

			if (!f->told && g_strcmp0(f->devpath, devpath) == 0)
				report_failure(&st, f, &header);
		}
	}
	if (st.json) {
		g_string_append(st.out, st.json_n ? "\n]\n" : "]\n");
		cli_output_puts(st.out->str);
	} else {
		cli_output_check();
	}
	not_read = not_read_said(&st);
	if (r < 0)
		fprintf(stderr, "modalias firmware: cannot walk the devices: %s\n", strerror(-r));
	else if (!quiet)
		fprintf(stderr,
			"%u device%s for firmware: %u module%s %s, %u %s; their dependencies (not counted): "
			"%u %s, %u %s; the kernel log: %u failed load%s, %u still %s%s%s\n",
			st.devices, st.devices == 1 ? " asks" : "s ask", st.served[FROM_MODULE], cli_plural(st.served[FROM_MODULE]),
			state_word(&st, true), st.missing[FROM_MODULE], state_word(&st, false), st.served[FROM_DEPENDENCY],
			state_word(&st, true), st.missing[FROM_DEPENDENCY], state_word(&st, false), st.failed,
			cli_plural(st.failed), st.failed_missing, state_word(&st, false),
			st.here ? (dv.snap ? " (files looked for on this machine, not the snapshot's)"
				: " (files looked for on this machine, not the captured tree's)") : "", not_read ? not_read : "");
	g_string_free(st.out, TRUE);
	g_array_unref(st.failures);
	g_hash_table_unref(st.by_module);
	g_hash_table_unref(st.found);
	g_hash_table_unref(st.bad_modules);
	g_array_unref(st.dirs);
	modalias_result_unref(st.res);
	cli_tables_close(&tables);
	cli_devices_close(&dv);
	modalias_ctx_unref(st.ctx);
	if (r < 0 || st.bad_devices || st.bad_modules_n)
		return CLI_EXIT_USAGE;
	return st.needed_missing || !st.walked ? CLI_EXIT_NOTHING : CLI_EXIT_FOUND;
}
