/*
 * cli/modalias-setup.c - what a modalias command starts from: modalias.conf's
 * settings, the library context with its log on standard error (or kept,
 * for a command's one-line message: ctx_capture(), say_captured()), the
 * devices (a --sysfs that is no sysfs root refused), and the module tables
 * (libcli's cli_tables_open(), with the bundled Debian 6.1 table where a
 * machine has none).
 *
 * This file sets things up and says what went wrong on standard error; it
 * may not look anything up or print a command's output.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bundled-table.h"
#include "modalias-commands.h"
#include "read-file.h"

struct cli_config config;

/* The kernel release and architecture of the snapshot open_devices() read
 * last (NULL: unknown, or no snapshot): open_tables()'s default version,
 * and what its tables are checked against */
static char *devices_kernel, *devices_arch;
static bool devices_here; /* the devices are the running machine's own (its /sys) */

/* The library's log: standard error, or the GString of ctx_capture() */
static void log_to_stderr(void *data, int priority, const char *file, int line, const char *fn,
			  const char *format, va_list args)
{
	g_autofree char *msg = g_strdup_vprintf(format, args);
	g_autoptr(GString) shown = g_string_new(NULL);

	/* a message quotes the tables, modprobe.d, sysfs: escaped (one line) */
	g_strchomp(msg);
	cli_shown_append(shown, msg);
	if (data) {
		/* ctx_capture(): said later, one line a message */
		g_string_append_printf(data, "%s\n", shown->str);
		return;
	}
	fprintf(stderr, "modalias: %s\n", shown->str);
}

void say_no_module(const char *cmd, const char *alias)
{
	if (!quiet)
		fprintf(stderr, "modalias %s: %s: no module\n", cmd, ECHO(alias));
}

void ctx_capture(struct modalias_ctx *ctx, GString *buf)
{
	modalias_ctx_set_log_fn(ctx, log_to_stderr, buf);
}

void say_log(const GString *buf)
{
	g_auto(GStrv) lines = g_strsplit(buf->str, "\n", -1);

	for (char **l = lines; *l; l++)
		if (**l)
			fprintf(stderr, "modalias: %s\n", *l);
}

void say_captured(const char *cmd, GString *buf, const char *fallback, const char *hint)
{
	g_autofree char *text = g_strchomp(g_strdup(buf->str));
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autofree char *joined = g_strjoinv("; ", lines);

	fprintf(stderr, "modalias %s: %s%s%s\n", cmd, *joined ? joined : fallback, hint ? "; " : "", hint ? hint : "");
}

struct modalias_ctx *new_ctx(const char *sysfs)
{
	struct modalias_ctx *ctx;
	int r = modalias_ctx_new(&ctx);

	if (r < 0) {
		fprintf(stderr, "modalias: cannot create a library context: %s\n", strerror(-r));
		exit(CLI_EXIT_USAGE);
	}
	modalias_ctx_set_log_fn(ctx, log_to_stderr, NULL);
	if (verbosity)
		modalias_ctx_set_log_priority(ctx, verbosity > 1 ? 7 : 6);
	else if (config.log_level >= 0)
		modalias_ctx_set_log_priority(ctx, config.log_level);
	if (word_bits_option)
		modalias_ctx_set_word_bits(ctx, word_bits_option); /* 32 or 64: cannot fail */
	if (sysfs && (r = modalias_ctx_set_sysfs_root(ctx, sysfs)) < 0) {
		fprintf(stderr, "modalias: bad sysfs root '%s': %s\n", cli_shown(sysfs), strerror(-r));
		exit(CLI_EXIT_USAGE);
	}
	return ctx;
}

/* Exits 2 when ROOT is no directory (not there), or a directory without
 * devices/ in it (a directory of sysfs given for its root, as
 * /sys/devices), naming the root to give */
static void check_sysfs_root(const char *cmd, const char *root)
{
	g_autofree char *devices = g_build_filename(root, "devices", NULL);
	g_autofree char *parent = NULL, *parent_devices = NULL;
	const char *p;
	struct stat st;
	int err = stat(root, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;

	if (err) {
		fprintf(stderr, "modalias %s: the sysfs root %s: %s: give the sysfs root (/sys, or the top of a "
				"captured tree)\n", cmd, cli_shown(root), strerror(err));
		exit(CLI_EXIT_USAGE);
	}
	if (g_file_test(devices, G_FILE_TEST_IS_DIR))
		return; /* the walk says why it cannot read it */
	/* the root is the directory above the first "devices" component */
	p = strstr(root, "/devices");
	while (p && p[8] != '/' && p[8] != '\0')
		p = strstr(p + 1, "/devices");
	if (p) {
		parent = g_strndup(root, (size_t)(p - root));
		parent_devices = g_build_filename(*parent ? parent : "/", "devices", NULL);
	}
	if (parent && g_file_test(parent_devices, G_FILE_TEST_IS_DIR))
		fprintf(stderr, "modalias %s: %s is not a sysfs root (it has no devices/): give the sysfs root, --sysfs=%s\n",
			cmd, cli_shown(root), cli_shown(*parent ? parent : "/"));
	else
		fprintf(stderr, "modalias %s: %s is not a sysfs root (it has no devices/): give the sysfs root "
				"(/sys, or the top of a captured tree)\n", cmd, cli_shown(root));
	exit(CLI_EXIT_USAGE);
}

struct modalias_ctx *open_devices(struct device_source *src, const char *cmd, struct cli_devices *dv)
{
	struct modalias_ctx *ctx;
	int r;

	if (src->sysfs && src->snapshot) {
		fprintf(stderr, "modalias %s: --sysfs and --snapshot exclude each other\n", cmd);
		exit(CLI_EXIT_USAGE);
	}
	ctx = new_ctx(src->sysfs ? src->sysfs : config.sysfs);
	if (!src->snapshot)
		check_sysfs_root(cmd, modalias_ctx_get_sysfs_root(ctx));
	r = cli_devices_open(dv, ctx, src->snapshot);
	if (r < 0) {
		fprintf(stderr, "modalias %s: cannot use the snapshot %s: %s\n", cmd, cli_shown(src->snapshot), cli_devices_error(r));
		exit(CLI_EXIT_USAGE);
	}
	g_free(devices_kernel);
	g_free(devices_arch);
	devices_kernel = g_strdup(modalias_snapshot_get_kernel(dv->snap));
	devices_arch = g_strdup(modalias_snapshot_get_arch(dv->snap));
	/* the running machine's /sys: its architecture is uname's (a captured
	 * tree's is not known) */
	devices_here = !dv->snap && cli_devices_kernel(dv);
	if (devices_here) {
		devices_arch = cli_uname() ? g_strdup(cli_uname()->machine) : NULL;
	}
	device_source_clear(src);
	return ctx;
}

void device_source_clear(struct device_source *src)
{
	g_free(src->sysfs);
	g_free(src->snapshot);
	src->sysfs = src->snapshot = NULL;
}

/* Where no module directory is (containers, CI), the bundled Debian 6.1
 * table (bundled-table.h) */
static char *bundled_dir(void)
{
	return g_strdup(bundled_table_dir());
}

/* cli_tables_open()'s reports: "modalias COMMAND: …", whatever the priority */
static void report_to_stderr(void *data, int priority, const char *message)
{
	g_autoptr(GString) shown = g_string_new(NULL);

	cli_shown_append(shown, message);
	fprintf(stderr, "modalias %s: %s\n", (const char *)data, shown->str);
}

bool kernel_release_ok(const char *release)
{
	size_t n = release ? strlen(release) : 0;

	/* the kernel's own: at most 64 bytes (__NEW_UTS_LEN), none a space or
	 * a control (it names a directory, and is shown) */
	if (n == 0 || n > 64 || strcmp(release, ".") == 0 || strcmp(release, "..") == 0)
		return false;
	for (const char *p = release; *p; p++)
		if (*p == '/' || (unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
			return false;
	return true;
}

/* The kernel's name of an architecture (its arch/ directory: x86, arm64,
 * …) for a machine name as uname -m says it, or a Debian kernel flavour
 * (the last part of a release: amd64, 686, arm64, armmp, …); NULL when
 * unknown */
static const char *kernel_arch(const char *name)
{
	static const struct {
		const char *prefix, *arch;
	} arches[] = {
		{ "x86_64", "x86" }, { "amd64", "x86" }, { "i386", "x86" }, { "i486", "x86" }, { "i586", "x86" },
		{ "i686", "x86" }, { "686", "x86" }, { "aarch64", "arm64" }, { "arm64", "arm64" }, { "arm", "arm" },
		{ "rpi", "arm" }, { "ppc", "powerpc" }, { "powerpc", "powerpc" }, { "s390", "s390" },
		{ "riscv", "riscv" }, { "mips", "mips" }, { "loong", "loongarch" },
	};

	for (size_t i = 0; name && i < G_N_ELEMENTS(arches); i++)
		if (g_str_has_prefix(name, arches[i].prefix))
			return arches[i].arch;
	return NULL;
}

/* The architecture of the module tables of DIR, as its name says it (a
 * Debian release: 6.12.118+deb12-arm64), else as its modules (the first
 * kernel/arch/ARCH/ of modules.dep), else as its aliases (cpu:type:x86);
 * NULL when none says */
static char *tables_arch(const char *dir)
{
	static const char *const flavours[] = { "amd64", "686", "arm64", "armmp", "rpi", "powerpc64le",
						"ppc64el", "s390x", "riscv64", "loong64" };
	g_autofree char *base = g_path_get_basename(dir);
	g_autofree char *dep = NULL, *alias = NULL;
	g_auto(GStrv) parts = g_strsplit(base, "-", -1);
	char *text = NULL;
	const char *at;

	for (guint i = g_strv_length(parts); i-- > 1;)
		if (g_strv_contains(flavours, parts[i]))
			return g_strdup(kernel_arch(parts[i]));
	dep = g_build_filename(dir, "modules.dep", NULL);
	if (read_file(dep, READ_FILE_TABLE_MAX, READ_FILE_NO_KERNEL_FS, &text, NULL) == 0 && (at = strstr(text, "kernel/arch/"))) {
		char *arch = g_strndup(at + 12, strcspn(at + 12, "/: \n"));

		free(text);
		return arch;
	}
	free(text);
	text = NULL;
	alias = g_build_filename(dir, "modules.alias", NULL);
	if (read_file(alias, READ_FILE_TABLE_MAX, READ_FILE_NO_KERNEL_FS, &text, NULL) == 0 && strstr(text, "\nalias cpu:type:x86,")) {
		free(text);
		return g_strdup("x86");
	}
	free(text);
	return NULL;
}

/* A warning when the devices' machine (a snapshot's, or this one) is not
 * of the architecture of the tables of DIR */
static void check_arch(const char *cmd, const char *dir)
{
	const char *snap = kernel_arch(devices_arch);
	g_autofree char *tables = snap ? tables_arch(dir) : NULL;

	if (tables && strcmp(snap, tables) != 0)
		fprintf(stderr,
			"modalias %s: warning: %s is %s (arch/%s), the module tables of %s are for "
			"arch/%s: its devices are answered with another architecture's modules\n",
			cmd, devices_here ? "this machine" : "the snapshot's machine", cli_shown(devices_arch), snap,
			cli_shown(dir), tables);
}

void warn_arch_pair(const char *cmd, const char *from, const char *to)
{
	g_autofree char *a = tables_arch(from), *b = tables_arch(to);

	if (a && b && strcmp(a, b) != 0)
		fprintf(stderr,
			"modalias %s: warning: the module tables of %s are for arch/%s, those of %s for arch/%s: "
			"the devices are answered with two architectures' modules\n",
			cmd, cli_shown(from), a, cli_shown(to), b);
}

/* Whether a module directory's last component BASE names kernel RELEASE:
 * RELEASE (…/lib/modules/RELEASE), or linux-RELEASE (the bundled table's
 * and tests/data's) */
static bool named_as_release(const char *base, const char *release)
{
	return strcmp(base, release) == 0 || (g_str_has_prefix(base, "linux-") && strcmp(base + strlen("linux-"), release) == 0);
}

/* Whether the module directory DIR, named as a directory (-m, [modules]
 * directory), is kernel RELEASE's: named as that release, or
 * /lib/modules/RELEASE itself by another path */
static bool dir_is_release(const char *dir, const char *release)
{
	g_autofree char *base = g_path_get_basename(dir);
	g_autofree char *own = g_build_filename("/lib/modules", release, NULL);
	struct stat a, b;

	if (named_as_release(base, release))
		return true;
	return stat(dir, &a) == 0 && stat(own, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int open_machine_tables(struct modalias_ctx *ctx, const struct cli_devices *dv, const struct cli_tables_spec *spec,
			const char *cmd, unsigned int flags, struct cli_tables *out)
{
	struct cli_tables_spec s = *spec;
	g_autofree char *dir = NULL, *version = NULL, *bundled = NULL;
	const char *machine = dv ? cli_devices_kernel(dv) : NULL;
	bool of_snapshot = false, foreign, unnamed, guessed;
	int r;

	/* the snapshot's kernel where uname -r would be taken */
	if (devices_kernel && !spec->version && !spec->moddir && !config.version &&
	    !(config.directory && !spec->root)) {
		if (kernel_release_ok(devices_kernel)) {
			s.version = devices_kernel;
			of_snapshot = true;
		} else {
			fprintf(stderr, "modalias %s: the snapshot's kernel '%s' is not a kernel release: not used\n", cmd,
				ECHO(devices_kernel));
		}
	}
	dir = cli_module_dir(&s, &config);
	version = cli_module_version(&s, &config);
	/* a snapshot that does not say its kernel, read with the release
	 * uname gives: this machine's, not known to be the snapshot's */
	guessed = dv && dv->snap && !devices_kernel && !s.version && !s.moddir && !config.version && version;
	if (guessed && !g_file_test(dir, G_FILE_TEST_IS_DIR) && cli_module_dir_named(spec, &config)) {
		fprintf(stderr,
			"modalias %s: the snapshot does not record its kernel, and %s (of this machine's release) is no "
			"module directory: give -S VERSION (for %s/lib/modules/VERSION) or -m DIR\n",
			cmd, cli_shown(dir), cli_shown(spec->root ? spec->root : config.root ? config.root : ""));
		return -ENOENT;
	}
	/* tables of another version than the machine's are not its kernel's;
	 * nor are those of a directory named as it is, unless they are known
	 * to be (its name, or the machine's own directory) */
	foreign = dv && version && machine && strcmp(version, machine) != 0;
	unnamed = dv && !version && machine && !dir_is_release(dir, machine);
	if (!g_file_test(dir, G_FILE_TEST_IS_DIR) && (of_snapshot || !cli_module_dir_named(spec, &config))) {
		g_autofree char *base = (bundled = bundled_dir()) ? g_path_get_basename(bundled) : NULL;

		/* a snapshot of this machine's own kernel, whose tables are not
		 * here: the bundled table, as this machine's own /sys gets */
		bool of_this_kernel = of_snapshot && cli_uname() && strcmp(cli_uname()->release, devices_kernel) == 0 &&
				      !spec->root && !config.root;

		if (of_snapshot && !of_this_kernel &&
		    (spec->root || config.root || !base || !named_as_release(base, devices_kernel))) {
			fprintf(stderr,
				"modalias %s: the snapshot is of kernel %s, whose module tables are not in %s: "
				"give -d ROOT (for ROOT/lib/modules/%s), -S VERSION or -m DIR\n",
				cmd, cli_shown(devices_kernel), cli_shown(dir), cli_shown(devices_kernel));
			return -ENOENT;
		}
		if (bundled && (flags & CLI_TABLES_INSERT)) {
			fprintf(stderr, "modalias %s: no %s here: no module to insert (the bundled table has none): give "
					"-m DIR, or -d ROOT -S VERSION for ROOT/lib/modules/VERSION\n",
				cmd, cli_shown(dir));
			return -ENOENT;
		}
		/* the bundled table is the machine's only for a snapshot of its kernel */
		foreign = dv && bundled && (!of_snapshot || (base && !named_as_release(base, devices_kernel)));
		if (bundled && !quiet)
			fprintf(stderr, "modalias %s: no %s here: using the bundled Debian 6.1 table (%s)%s\n", cmd, cli_shown(dir),
				cli_shown(bundled),
				foreign ? ", not this kernel's: module states are the machine's (loaded, builtin) or "
					  "not-loaded; whether its kernel has a module, the table cannot tell" : "");
	} else if (foreign && !quiet) {
		fprintf(stderr, "modalias %s: the module tables are kernel %s's (%s), not the machine's (%s): module states "
				"are the machine's (loaded, builtin) or not-loaded; whether its kernel has a module, the "
				"tables cannot tell\n", cmd, cli_shown(version), cli_shown(dir), cli_shown(machine));
	} else if (guessed) {
		foreign = true;
		if (!quiet)
			fprintf(stderr, "modalias %s: the snapshot does not record its kernel: read with the module tables of "
					"this machine's (%s), not known to be its: module states are the snapshot's (loaded, "
					"builtin) or not-loaded (-S VERSION or -m DIR names its kernel's)\n",
				cmd, cli_shown(version));
	} else if (unnamed) {
		foreign = true;
		if (!quiet)
			fprintf(stderr, "modalias %s: the module tables of %s are not known to be the machine's kernel's (%s): "
					"module states are the machine's (loaded, builtin) or not-loaded (tables in a directory "
					"named as their release, ROOT/lib/modules/%s for -d ROOT, are known to be its)\n",
				cmd, cli_shown(dir), cli_shown(machine), cli_shown(machine));
	}
	r = cli_tables_open(ctx, &s, bundled ? bundled : dir, &config, flags, report_to_stderr, (void *)cmd, out);
	if (r == 0)
		check_arch(cmd, out->dir);
	if (r == 0 && !bundled)
		out->version = g_steal_pointer(&version);
	out->bundled = r == 0 && bundled;
	out->foreign = r == 0 && foreign;
	return r;
}

int open_tables(struct modalias_ctx *ctx, const struct cli_tables_spec *spec, const char *cmd, unsigned int flags,
		struct cli_tables *out)
{
	return open_machine_tables(ctx, NULL, spec, cmd, flags, out);
}
