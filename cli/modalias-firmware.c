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
 * A module that declares several files asks for some of them (iwlwifi
 * declares one per hardware family, a card loads its own), and the module
 * does not say which: it is served when all are present, missing when none
 * is, and otherwise not known, unless the machine tells: the kernel log
 * names the device's files (a failed load of a declared name, of another
 * version of one, of a name a wildcard entry matches), or, on the running
 * machine, the module's driver is bound to the device and the log names no
 * failed load of it.  A failed load is a fallback, not a missing file, when
 * another version of the same file is here (a name "STEM-N.EXT", declared
 * once by the device's modules: iwlwifi asks for -77, -76, ... and loads
 * the newest it finds) and the kernel log's failed loads of it walk down to
 * that version, none left out (a driver has a lowest version it takes, which
 * the module does not tell).  The files of a module's dependencies (ccp's for
 * kvm_amd) are reported apart and never decide the exit status: 1 when a
 * device's own module is missing its files, or a load the kernel log says
 * failed is still missing; else 4 when whether a device's own module has
 * its file is not known.
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
	const struct cli_devices *dv;
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
	unsigned int served[2], missing[2], unknown[2]; /* by FROM_MODULE, FROM_DEPENDENCY */
	unsigned int failed, failed_missing, fallbacks;
	unsigned int walked;  /* devices with a modalias (none: exit 1) */
	bool log_read;       /* the kernel log (or the snapshot's record) was read */
	bool needed_missing; /* exit 1 */
	bool needed_unknown; /* exit 4 (unless 1) */
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

/* ---- versions: a failed load that is a driver's fallback ------------------ */

/* A name with a version, "STEM-N.EXT" (iwlwifi-QuZ-a0-hr-b0-72.ucode: the
 * digits right before the extension of its base name, after a '-', no
 * leading zero): STEM's length (up to N), N and ".EXT" */
struct fw_version {
	size_t stem;
	unsigned long number;
	const char *ext;
};

static bool file_version(const char *file, struct fw_version *v)
{
	const char *base = strrchr(file, '/'), *ext, *p;

	base = base ? base + 1 : file;
	ext = strrchr(base, '.');
	if (!ext || has_glob(file))
		return false;
	for (p = ext; p > base && g_ascii_isdigit(p[-1]); p--)
		;
	if (p == ext || p == base || p[-1] != '-' || ext - p > 6 || (*p == '0' && ext - p > 1))
		return false;
	v->stem = (size_t)(p - file);
	v->number = strtoul(p, NULL, 10);
	v->ext = ext;
	return true;
}

/* A and B are versions of one file: the same STEM and EXT */
static bool same_file(const char *a, const struct fw_version *va, const char *b, const struct fw_version *vb)
{
	return va->stem == vb->stem && strncmp(a, b, va->stem) == 0 && strcmp(va->ext, vb->ext) == 0;
}

/* A and B: versions of one file */
static bool versions_of_one(const char *a, const char *b)
{
	struct fw_version va, vb;

	return file_version(a, &va) && file_version(b, &vb) && same_file(a, &va, b, &vb);
}

/* A device walked: its modules' firmware and its failed loads */
struct fw_device {
	const char *devpath;
	GPtrArray *groups;     /* struct fw_group, borrowed: its own modules' and their dependencies' */
	char *driver_module;   /* the module of the driver bound to it, NULL when none or not known */
	unsigned int failures; /* the kernel log's failed loads that name it */
};

/* Whether FILE (V) is a version of a file the device's modules declare,
 * and of one only: two declared versions of one name (rtl8168d-1.fw,
 * rtl8168d-2.fw) are two chips' files, not versions of one */
static bool declared_once(const struct fw_device *d, const char *file, const struct fw_version *v)
{
	unsigned int n = 0;

	for (guint i = 0; d && i < d->groups->len; i++) {
		const struct fw_group *g = d->groups->pdata[i];

		for (guint k = 0; k < g->files->len; k++) {
			struct fw_version w;

			n += file_version(g->files->pdata[k], &w) && same_file(file, v, g->files->pdata[k], &w);
		}
	}
	return n == 1;
}

/* The newest version of FILE (V) at most TOP on the search path, NULL
 * when none: what a driver asking for TOP, then TOP - 1, ... loads */
static char *version_here(const struct fw_state *st, const char *file, const struct fw_version *v, unsigned long top)
{
	g_autofree char *sub = g_path_get_dirname(file);
	const char *base = strrchr(file, '/');
	size_t stem;
	unsigned long best = 0;
	bool found = false;

	base = base ? base + 1 : file;
	stem = v->stem - (size_t)(base - file);
	for (guint d = 0; d < st->dirs->len; d++) {
		const struct fw_dir *fd = &g_array_index(st->dirs, struct fw_dir, d);
		g_autofree char *where = NULL;
		struct dirent *de;
		DIR *dir;

		if (fd->left_out)
			continue;
		where = g_build_filename(fd->path, sub, NULL);
		dir = opendir(where);
		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			const char *n = de->d_name, *p = n + stem, *e;
			unsigned long number;

			if (strncmp(n, base, stem) != 0 || !g_ascii_isdigit(*p))
				continue;
			for (e = p; g_ascii_isdigit(*e); e++)
				;
			if (e - p > 6 || (*p == '0' && e - p > 1) || strncmp(e, v->ext, strlen(v->ext)) != 0)
				continue;
			number = strtoul(p, NULL, 10);
			if (number > top || (found && number <= best))
				continue;
			for (size_t s = 0; s < G_N_ELEMENTS(fw_suffixes); s++)
				if (strcmp(e + strlen(v->ext), fw_suffixes[s]) == 0) {
					g_autofree char *path = g_build_filename(where, n, NULL);
					struct stat sb;

					if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
						best = number;
						found = true;
					}
				}
		}
		closedir(dir);
	}
	return found ? g_strdup_printf("%.*s%lu%s", (int)v->stem, file, best, v->ext) : NULL;
}

static int number_cmp(const void *a, const void *b)
{
	const unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The version of FILE that the device gets instead, FILE a failed load of
 * it, absent: a version of a file its modules declare once, the newest
 * here at most the newest of that file the device asked for (TOP, its
 * failed loads'), V, when the kernel log's failed loads of that file for
 * the device are every version from TOP down to V + 1: the driver was seen
 * walking down to V (a driver has a lowest version it takes, which the
 * module does not tell: -0 here is no fallback for a failed -72); NULL
 * when none */
static char *other_version(const struct fw_state *st, const struct fw_device *d, const char *file)
{
	g_autoptr(GArray) asked = g_array_new(false, false, sizeof(unsigned long));
	g_autofree char *here = NULL;
	struct fw_version v, h;
	unsigned long top, seen = 0;

	if (!d || !file_version(file, &v) || !declared_once(d, file, &v))
		return NULL;
	g_array_append_val(asked, v.number);
	for (guint i = 0; i < st->failures->len; i++) {
		const struct fw_failure *f = &g_array_index(st->failures, struct fw_failure, i);
		struct fw_version w;

		if (f->devpath && strcmp(f->devpath, d->devpath) == 0 && file_version(f->file, &w) &&
		    same_file(file, &v, f->file, &w))
			g_array_append_val(asked, w.number);
	}
	g_array_sort(asked, number_cmp);
	top = g_array_index(asked, unsigned long, asked->len - 1);
	here = version_here(st, file, &v, top);
	if (!here || !file_version(here, &h))
		return NULL;
	/* the versions failed above V, each once: all of V + 1 … TOP */
	for (guint i = 0; i < asked->len; i++) {
		const unsigned long n = g_array_index(asked, unsigned long, i);

		seen += n > h.number && (i == 0 || n != g_array_index(asked, unsigned long, i - 1));
	}
	return seen == top - h.number ? g_steal_pointer(&here) : NULL;
}

/* Whether the kernel log's failed load of FAILED is of the device's file
 * DECLARED: the same name, a name the wildcard matches, another version of
 * a name declared once */
static bool asks_for(const struct fw_device *d, const char *declared, const char *failed)
{
	struct fw_version v, w;

	if (strcmp(declared, failed) == 0)
		return true;
	if (has_glob(declared))
		return fnmatch(declared, failed, FNM_PATHNAME | FNM_PERIOD) == 0;
	return file_version(declared, &v) && file_version(failed, &w) && same_file(declared, &v, failed, &w) &&
	       declared_once(d, declared, &v);
}

/* ---- output --------------------------------------------------------------- */

/* What an entry comes to */
enum fw_verdict {
	SERVED,   /* present: all its files, the device's own, or another version of a failed load */
	MISSING,  /* none of its files, the device's own absent, a failed load's file absent */
	UNKNOWN,  /* some of its files, which one the device loads not told */
	FALLBACK, /* a failed load, another version of its file here */
};

/* How a module's verdict is told beyond its files */
enum fw_told { BY_FILES, BY_KERNEL_LOG, BY_DRIVER };

/* A module's files (or a kernel log's one) with their paths, and what it
 * comes to */
struct fw_entry {
	enum fw_source source;
	const char *module, *for_module; /* NULL for the kernel log */
	GPtrArray *files;                /* borrowed */
	const char *file, *last;         /* the kernel log's; LAST: the last of a run of fallbacks */
	char *other;                     /* the version here of the kernel log's file, or of a module's own */
	int error;
	unsigned int present, count;     /* COUNT: the kernel log's failed loads told */
	enum fw_verdict verdict;
	enum fw_told told;
	bool *own;                       /* by file: the kernel log names it the device's; NULL: none */
};

/* What an entry comes to, in words: for this machine's own devices,
 * served or missing; for a snapshot's or a captured tree's, only whether
 * its files are here, on this machine (or in --firmware-path), which says
 * nothing of its machine's */
static const char *state_word(const struct fw_state *st, enum fw_verdict v)
{
	static const char *const live[] = { "served", "missing", "not known", "fallback" };
	static const char *const here[] = { "present here", "missing here", "not known here", "fallback here" };

	return st->here ? here[v] : live[v];
}

static void device_header(struct fw_state *st, const char *devpath, bool *header)
{
	if (*header)
		return;
	*header = true;
	printf("%s\n", devpath ? cli_shown(devpath) : "(no device: the kernel log's line names none found here)");
}

/* The version number of FILE as "-N" (the kernel log's fallback lines) */
static const char *version_said(const char *file)
{
	struct fw_version v;

	return file_version(file, &v) ? file + v.stem - 1 : file;
}

static void json_entry(struct fw_state *st, const char *devpath, const struct fw_entry *e)
{
	const unsigned int n = e->files ? e->files->len : 1;

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
	g_string_append_printf(st->out, ", \"state\": \"%s\"", state_word(st, e->verdict));
	if (e->source == FROM_KERNEL_LOG)
		g_string_append_printf(st->out, ", \"errno\": %d", -e->error);
	else
		g_string_append_printf(st->out, ", \"told_by\": \"%s\"",
				       e->told == BY_KERNEL_LOG ? "kernel log" : e->told == BY_DRIVER ? "driver" : "files");
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
		if (e->own)
			g_string_append_printf(st->out, ", \"this_device\": %s", e->own[i] ? "true" : "false");
		g_string_append_c(st->out, '}');
	}
	g_string_append_c(st->out, ']');
	if (e->other) {
		g_string_append(st->out, ", \"other_version\": {\"file\": ");
		json_string(st->out, e->other);
		g_string_append(st->out, ", \"path\": ");
		json_string(st->out, firmware_path(st, e->other));
		g_string_append_c(st->out, '}');
	}
	g_string_append_c(st->out, '}');
}

/* The kernel log's line: a failed load (or a run of fallbacks: versions
 * the driver tried before the one here) and what it comes to now */
static void print_failure(const struct fw_state *st, const struct fw_entry *e)
{
	const char *path = firmware_path((struct fw_state *)st, e->other ? e->other : e->file);
	struct fw_version v, w;

	if (e->count > 1)
		printf("  kernel log: %s … %s failed to load (error %d)", cli_shown(e->file), cli_shown(version_said(e->last)),
		       e->error);
	else
		printf("  kernel log: %s failed to load (error %d)", cli_shown(e->file), e->error);
	if (e->verdict != FALLBACK) {
		printf("\t%s%s%s\n", *path ? (st->here ? "present here" : "present now") : state_word(st, MISSING),
		       *path ? ": " : "", cli_shown(path));
		return;
	}
	/* tried first (newer, not released or not installed); or, older,
	 * never reached now: a newer one is here */
	if (file_version(e->file, &v) && file_version(e->other, &w) && w.number > v.number)
		printf("\ta fallback, not reached now: %s %s, which the driver tries first: %s\n", cli_shown(version_said(e->other)),
		       st->here ? "here" : "present now", cli_shown(path));
	else
		printf("\ta fallback: tried first, not released or not %s; %s %s: %s\n", st->here ? "here" : "installed",
		       cli_shown(version_said(e->other)), st->here ? "here" : "present now", cli_shown(path));
}

/* One entry of DEVPATH: counted, then printed (unless --missing and served) */
static void report(struct fw_state *st, const char *devpath, const struct fw_entry *e, bool *header)
{
	const unsigned int n = e->files ? e->files->len : 1;
	const char *where = st->here ? "here" : "present";

	st->entries++;
	if (e->source == FROM_KERNEL_LOG) {
		st->failed += e->count;
		st->failed_missing += e->verdict == MISSING ? e->count : 0;
		st->fallbacks += e->verdict == FALLBACK ? e->count : 0;
	} else if (e->verdict == SERVED) {
		st->served[e->source]++;
	} else if (e->verdict == MISSING) {
		st->missing[e->source]++;
	} else {
		st->unknown[e->source]++;
	}
	if (e->source != FROM_DEPENDENCY) {
		st->needed_missing |= e->verdict == MISSING;
		st->needed_unknown |= e->verdict == UNKNOWN;
	}
	if (st->missing_only && (e->verdict == SERVED || e->verdict == FALLBACK))
		return;
	if (st->json) {
		json_entry(st, devpath, e);
		return;
	}
	device_header(st, devpath, header);
	if (e->source == FROM_KERNEL_LOG) {
		print_failure(st, e);
		return;
	}
	if (e->source == FROM_DEPENDENCY)
		printf("  %s (dependency of %s, not counted): %s", cli_shown(e->module), cli_shown(e->for_module),
		       state_word(st, e->verdict));
	else
		printf("  %s: %s", cli_shown(e->module), state_word(st, e->verdict));
	if (e->told == BY_KERNEL_LOG && e->verdict == SERVED && e->other && e->present)
		printf(" (the kernel log names this device's file; the version its driver falls back to is %s, %s; "
		       "%u of the %u files it declares %s)\n", where, cli_shown(version_said(e->other)), e->present, n, where);
	else if (e->told == BY_KERNEL_LOG && e->verdict == SERVED && e->other)
		printf(" (the kernel log names this device's file; the version its driver falls back to is %s, %s; "
		       "none of the %u file%s it declares)\n", where, cli_shown(version_said(e->other)), n, cli_plural(n));
	else if (e->told == BY_KERNEL_LOG)
		printf(" (the kernel log names this device's file%s; %u of its %u file%s %s)\n",
		       e->verdict == MISSING ? ", absent" : "", e->present, n, cli_plural(n), where);
	else if (e->told == BY_DRIVER)
		printf(" (%u of its %u files %s; the driver is bound and the kernel log names no failed load for this "
		       "device)\n", e->present, n, where);
	else if (n == 1)
		printf("\n");
	else if (e->verdict == SERVED)
		printf(st->here ? " (%u of its %u files)\n" : " (%u of its %u files present)\n", e->present, n);
	else if (e->verdict == MISSING)
		printf(st->here ? " (none of its %u files)\n" : " (none of its %u files present)\n", n);
	else
		printf(" (%u of its %u files %s; which one this device loads cannot be told from the module)\n",
		       e->present, n, where);
	/* the files that say it: the device's own when the kernel log names
	 * them; else a served or not known one's present files, a missing
	 * one's every file; with -v every file */
	for (unsigned int i = 0; i < n; i++) {
		const char *file = e->files->pdata[i];
		const char *path = firmware_path(st, file);

		if (e->own && !e->own[i] && !verbosity)
			continue;
		if (*path)
			printf("    %s\t%s\n", cli_shown(file), cli_shown(path));
		else if (e->own && e->own[i] && e->other && versions_of_one(file, e->other))
			printf("    %s\t%s; another version, %s: %s\n", cli_shown(file), st->here ? "absent here" : "absent",
			       cli_shown(e->other), cli_shown(firmware_path(st, e->other)));
		else if (e->verdict == MISSING || e->own || verbosity)
			printf("    %s\t%s\n", cli_shown(file), st->here ? "absent here" : "absent");
	}
}

/* A module's files looked for, and what they come to for device D: the
 * entry (its OWN and OTHER the caller's to free) */
static struct fw_entry module_entry(struct fw_state *st, enum fw_source source, const struct fw_group *g,
				    const char *top, const struct fw_device *d)
{
	struct fw_entry e = { .source = source, .module = g->module, .for_module = top, .files = g->files };
	bool named = false, all = true;

	for (guint i = 0; i < g->files->len; i++)
		e.present += *firmware_path(st, g->files->pdata[i]) != '\0';
	/* the kernel log names the device's files: each of its failed loads
	 * of them present now, or another version of it */
	for (guint i = 0; i < st->failures->len; i++) {
		const struct fw_failure *f = &g_array_index(st->failures, struct fw_failure, i);
		bool mine = false;

		if (!f->devpath || strcmp(f->devpath, d->devpath) != 0)
			continue;
		for (guint k = 0; k < g->files->len; k++)
			if (asks_for(d, g->files->pdata[k], f->file)) {
				if (!e.own)
					e.own = g_new0(bool, g->files->len);
				e.own[k] = mine = true;
			}
		if (mine) {
			char *other = *firmware_path(st, f->file) ? NULL : other_version(st, d, f->file);

			named = true;
			all &= *firmware_path(st, f->file) || other;
			if (other && !e.other)
				e.other = other;
			else
				g_free(other);
		}
	}
	/* another version only when the declared one is absent */
	for (guint i = 0; e.other && i < g->files->len; i++)
		if (strcmp(e.other, g->files->pdata[i]) == 0)
			g_clear_pointer(&e.other, g_free);
	if (named) {
		e.told = BY_KERNEL_LOG;
		e.verdict = all ? SERVED : MISSING;
	} else if (e.present == g->files->len) {
		e.verdict = SERVED;
	} else if (!e.present) {
		e.verdict = MISSING;
	} else if (!st->here && st->log_read && !d->failures && source == FROM_MODULE &&
		   g_strcmp0(d->driver_module, g->module) == 0) {
		e.told = BY_DRIVER;
		e.verdict = SERVED;
	} else {
		e.verdict = UNKNOWN;
	}
	return e;
}

/* The kernel log's failed loads of DEVPATH not told yet (D: that device,
 * walked; NULL: not walked, no fallback told), in the log's order: each,
 * or a run of fallbacks to one version (one entry each with --json) */
static void report_failures(struct fw_state *st, const char *devpath, const struct fw_device *d, bool *header)
{
	for (guint i = 0; i < st->failures->len; i++) {
		struct fw_failure *f = &g_array_index(st->failures, struct fw_failure, i);
		struct fw_entry e = { .source = FROM_KERNEL_LOG, .file = f->file, .error = f->error, .count = 1 };

		if (f->told || g_strcmp0(f->devpath, devpath) != 0)
			continue;
		f->told = true;
		if (*firmware_path(st, f->file)) {
			e.verdict = SERVED;
		} else {
			e.other = other_version(st, d, f->file);
			e.verdict = e.other ? FALLBACK : MISSING;
		}
		e.last = f->file;
		/* the next ones of the run: the same device, error and version here */
		for (guint k = i + 1; e.verdict == FALLBACK && !st->json && k < st->failures->len; k++) {
			struct fw_failure *n = &g_array_index(st->failures, struct fw_failure, k);
			g_autofree char *other = NULL;
			struct fw_version a, b, o;

			if (n->told || g_strcmp0(n->devpath, devpath) != 0)
				continue;
			if (n->error != f->error || *firmware_path(st, n->file))
				break;
			other = other_version(st, d, n->file);
			if (!other || strcmp(other, e.other) != 0 || !file_version(e.last, &a) || !file_version(n->file, &b) ||
			    !file_version(other, &o) || (a.number > o.number) != (b.number > o.number))
				break;
			n->told = true;
			e.last = n->file;
			e.count++;
		}
		report(st, devpath, &e, header);
		g_free(e.other);
	}
}

static int firmware_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct fw_state *st = data;
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GPtrArray) tops = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) groups = g_ptr_array_new();
	g_autoptr(GPtrArray) of = g_ptr_array_new(); /* by group: its top */
	struct fw_device d = { devpath, groups, NULL, 0 };
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
		GPtrArray *mg = module_firmware(st, tops->pdata[i]);

		for (guint k = 0; k < mg->len; k++)
			if (strcmp(((struct fw_group *)mg->pdata[k])->module, tops->pdata[i]) == 0) {
				g_ptr_array_add(groups, mg->pdata[k]);
				g_ptr_array_add(of, tops->pdata[i]);
			}
	}
	for (guint i = 0; i < tops->len; i++) {
		GPtrArray *mg = module_firmware(st, tops->pdata[i]);

		for (guint k = 0; k < mg->len; k++)
			if (g_hash_table_add(seen, ((struct fw_group *)mg->pdata[k])->module)) {
				g_ptr_array_add(groups, mg->pdata[k]);
				g_ptr_array_add(of, tops->pdata[i]);
			}
	}
	for (guint i = 0; i < st->failures->len; i++) {
		const struct fw_failure *f = &g_array_index(st->failures, struct fw_failure, i);

		d.failures += f->devpath && strcmp(f->devpath, devpath) == 0;
	}
	if (!st->here) {
		g_autofree char *driver = NULL;

		cli_devices_get_driver(st->dv, devpath, &driver, &d.driver_module, NULL);
	}
	for (guint i = 0; i < groups->len; i++) {
		const struct fw_group *g = groups->pdata[i];
		struct fw_entry e = module_entry(st, strcmp(g->module, of->pdata[i]) == 0 ? FROM_MODULE : FROM_DEPENDENCY,
						 g, of->pdata[i], &d);

		report(st, devpath, &e, &header);
		g_free(e.own);
		g_free(e.other);
	}
	report_failures(st, devpath, &d, &header);
	g_free(d.driver_module);
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
 * tables were named by, or NAMED (-S, modalias.conf's version=; with -m,
 * which names the tables, -S still names the release), else the
 * machine's (the running kernel's, a snapshot's), else that of a module
 * directory ROOT/lib/modules/RELEASE (-m); NULL when none is known (-m of
 * another directory, the bundled table, a captured tree or a snapshot
 * without its kernel, whose tables' uname -r is this machine's): never a
 * name made up */
static char *firmware_release(const struct cli_tables *tables, const char *named, const struct cli_devices *dv,
			      const char *root)
{
	const char *machine = cli_devices_kernel(dv);
	g_autofree char *modules = NULL, *dir = NULL, *parent = NULL, *release = NULL;

	if (named && kernel_release_ok(tables->version))
		return g_strdup(tables->version);
	if (named && kernel_release_ok(named))
		return g_strdup(named);
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
	st->log_read = r >= 0;
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
		{ "missing", 0, 0, G_OPTION_ARG_NONE, &st.missing_only, "Print only what is missing or not known", NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &st.json,
		  "Print a JSON array of {devpath, source: module|dependency|kernel log, module, for, "
		  "state: served|missing|not known|fallback (a snapshot, a captured tree: present here|missing here|"
		  "not known here|fallback here), [told_by: files|kernel log|driver,] [errno,] files: "
		  "[{file, path[, this_device]}][, other_version: {file, path}]}",
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
		      "when all the files it declares are present, missing when none is; with only\n"
		      "some present, which one the device loads is not known (the module does not\n"
		      "say), unless the machine tells: the kernel log names the device's file, or, on\n"
		      "the running machine, the module's driver is bound and the log names no failed\n"
		      "load for the device (-v: every file).  A failed load is a fallback, not a\n"
		      "missing file, when another version of it (NAME-N.EXT, the driver trying N, then\n"
		      "N-1, ...) is here and the log's failed loads walk down to it, none left out.\n"
		      "Dependencies' firmware is reported apart.  For a snapshot or a captured tree\n"
		      "the files are this machine's, not its machine's: \"present here\", \"missing\n"
		      "here\", \"not known here\".  A summary goes to standard error.\n"
		      "Exit status: 0 nothing missing, 1 a device's module has none of its files (or\n"
		      "not the one the kernel log names), a load the kernel log says failed is still\n"
		      "missing, or there is no device, 2 usage or input error (a device whose modalias\n"
		      "or a module whose modinfo cannot be read, a --firmware-path that is not a\n"
		      "directory), 3 write error, 4 nothing missing, but whether a device's module\n"
		      "has the file the device loads is not known.",
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
	st.dv = &dv;
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

		kver = firmware_release(&tables, spec.version ? spec.version : config.version, &dv, root);
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
		bool header = false;

		if (!g_array_index(st.failures, struct fw_failure, i).told)
			report_failures(&st, g_array_index(st.failures, struct fw_failure, i).devpath, NULL, &header);
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
			"%u device%s for firmware: %u module%s %s, %u %s, %u %s; their dependencies (not counted): "
			"%u %s, %u %s, %u %s; the kernel log: %u failed load%s, %u still %s, %u fallback%s to another "
			"version %s%s%s\n",
			st.devices, st.devices == 1 ? " asks" : "s ask", st.served[FROM_MODULE], cli_plural(st.served[FROM_MODULE]),
			state_word(&st, SERVED), st.missing[FROM_MODULE], state_word(&st, MISSING), st.unknown[FROM_MODULE],
			state_word(&st, UNKNOWN), st.served[FROM_DEPENDENCY], state_word(&st, SERVED),
			st.missing[FROM_DEPENDENCY], state_word(&st, MISSING), st.unknown[FROM_DEPENDENCY],
			state_word(&st, UNKNOWN), st.failed, cli_plural(st.failed), st.failed_missing, state_word(&st, MISSING),
			st.fallbacks, cli_plural(st.fallbacks), st.here ? "here" : "present",
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
	if (st.needed_missing || !st.walked)
		return CLI_EXIT_NOTHING;
	return st.needed_unknown ? CLI_EXIT_UNKNOWN : CLI_EXIT_FOUND;
}
