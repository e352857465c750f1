/*
 * cli/cli-tables.c - the one way both front ends open module tables
 * (cli-tables.h): module directory, index cache, modprobe.d, extra tables,
 * blacklist, libkmod's loader.
 *
 * This file decides where tables come from; it may not print or exit:
 * what goes wrong goes to the caller's report function, in its voice.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <syslog.h>
#include <unistd.h>

#include "cli-output.h"
#include "cli-tables.h"
#include "path-trust.h"
#include "read-file.h"

void cli_tables_spec_clear(struct cli_tables_spec *spec)
{
	g_free(spec->root);
	g_free(spec->version);
	g_free(spec->moddir);
	g_free(spec->modprobe_d);
	memset(spec, 0, sizeof(*spec));
}

bool cli_module_dir_named(const struct cli_tables_spec *spec, const struct cli_config *cfg)
{
	return spec->root || spec->version || spec->moddir || cfg->root || cfg->version || cfg->directory;
}

const struct utsname *cli_uname(void)
{
	static struct utsname u;
	static gsize asked;

	if (g_once_init_enter(&asked)) {
		gsize got = uname(&u) == 0 ? 1 : 2;
		g_once_init_leave(&asked, got);
	}
	return asked == 1 ? &u : NULL;
}

char *cli_module_version(const struct cli_tables_spec *spec, const struct cli_config *cfg)
{
	const char *version = spec->version ? spec->version : cfg->version;

	if (spec->moddir || (!spec->root && !spec->version && cfg->directory))
		return NULL;
	if (!version && cli_uname())
		version = cli_uname()->release;
	return g_strdup(version ? version : "");
}

char *cli_module_dir(const struct cli_tables_spec *spec, const struct cli_config *cfg)
{
	const char *root = spec->root ? spec->root : cfg->root;
	g_autofree char *version = cli_module_version(spec, cfg);

	/* as named, but for a trailing '/' (the tables' names are joined to it) */
	if (spec->moddir || !version) {
		char *dir = g_strdup(spec->moddir ? spec->moddir : cfg->directory);
		size_t n = dir ? strlen(dir) : 0;

		while (n > 1 && dir[n - 1] == '/')
			dir[--n] = '\0';
		return dir;
	}
	return g_build_filename(root ? root : "/", "lib", "modules", version, NULL);
}

char *cli_cache_dir(const struct cli_tables_spec *spec, const struct cli_config *cfg)
{
	const char *env = g_getenv("MODALIAS_CACHE_DIR");

	if (spec->no_cache)
		return NULL;
	if (cfg->cache)
		return *cfg->cache ? g_strdup(cfg->cache) : NULL;
	if (env)
		return *env ? g_strdup(env) : NULL;
	if (geteuid() == 0)
		return g_strdup("/var/cache/modalias");
	return g_build_filename(g_get_user_cache_dir(), "modalias", NULL);
}

const char *const *cli_modprobe_paths(const struct cli_tables_spec *spec, const struct cli_config *cfg,
				      const char *buf[2], bool *none)
{
	*none = false;
	if (spec->modprobe_d) {
		*none = strcmp(spec->modprobe_d, "/dev/null") == 0;
		buf[0] = spec->modprobe_d;
		buf[1] = NULL;
		return buf;
	}
	return cfg->modprobe_d ? (const char *const *)cfg->modprobe_d : NULL;
}

static void report_printf(cli_report_fn report, void *data, int priority, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void report_printf(cli_report_fn report, void *data, int priority, const char *fmt, ...)
{
	g_autofree char *message = NULL;
	va_list ap;

	va_start(ap, fmt);
	message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	report(data, priority, message);
}

int cli_loader_new(struct modalias_ctx *ctx, const struct cli_tables_spec *spec, const struct cli_config *cfg,
		   const char *dir, struct modalias_loader **ret)
{
	const char *buf[2], *const *paths, *const empty[] = { NULL };
	bool none;
	int r;

	paths = cli_modprobe_paths(spec, cfg, buf, &none);
	r = modalias_loader_new(ctx, dir, none ? empty : paths, ret);
	for (char **b = cfg->blacklist; r == 0 && b && *b; b++)
		modalias_loader_add_blacklist(*ret, *b);
	return r;
}

bool cli_same_module(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

void cli_tables_close(struct cli_tables *t)
{
	modalias_loader_unref(t->loader);
	modalias_table_unref(t->table);
	g_free(t->dir);
	g_free(t->version);
	memset(t, 0, sizeof(*t));
}

int cli_table_open(const char *path, char **why)
{
	struct trust_why tw = { "" };
	g_autofree char *self = NULL;
	size_t n = strlen(path);
	int fd = trust_open(path, O_PATH, TRUST_FOLLOW | TRUST_REGULAR, &tw);
	const char *reason = fd == -EPERM && strncmp(tw.text, path, n) == 0 && strncmp(tw.text + n, ": ", 2) == 0 ?
				     tw.text + n + 2 : "";

	/* the file itself, as named (trust_stat_reason()'s words) */
	if (strcmp(reason, "writable by group or others") == 0) {
		*why = g_strdup_printf("a table file writable by group or others (%s)", path);
	} else if (strcmp(reason, "not owned by root") == 0 || strcmp(reason, "owned by another user") == 0) {
		*why = g_strdup_printf("a table file owned by another user (%s)", path);
	} else if (fd == -EPERM) {
		/* a directory above it, a symlink on the way or its target */
		*why = g_strdup_printf("a table file on a path another user may change (%s: %s)", path, tw.text);
	} else if (fd == -EISDIR || fd == -EINVAL) {
		*why = g_strdup_printf("a table file that cannot be read (%s: not a regular file)", path);
	} else if (fd < 0) {
		*why = g_strdup_printf("a table file that cannot be read (%s: %s)", path, g_strerror(-fd));
	} else {
		/* the file checked, whatever happens to PATH meanwhile */
		int e;

		self = g_strdup_printf("/proc/self/fd/%d", fd);
		e = access(self, R_OK) == 0 ? 0 : errno;
		if (!e)
			return fd;
		close(fd);
		fd = -e;
		*why = g_strdup_printf("a table file that cannot be read (%s: %s)", path, g_strerror(-fd));
	}
	return fd;
}

int cli_table_read(const char *path, char **text, size_t *len, char **why)
{
	g_autofree char *self = NULL;
	int fd = cli_table_open(path, why), r;

	if (fd < 0)
		return fd;
	/* the descriptor that was checked is what is read */
	self = g_strdup_printf("/proc/self/fd/%d", fd);
	r = read_file(self, READ_FILE_TABLE_MAX, READ_FILE_NO_KERNEL_FS, text, len);
	close(fd);
	if (r < 0) {
		char buf[64];

		*why = g_strdup_printf("a table file that cannot be read (%s: %s)", path,
				       read_file_error(r, READ_FILE_TABLE_MAX, buf, sizeof(buf)));
	}
	return r;
}

/* Whether the module directory cli_module_dir() names comes, whole or in
 * part, from modalias.conf (directory=, root=, version=) */
static bool module_dir_from_config(const struct cli_tables_spec *spec, const struct cli_config *cfg)
{
	if (spec->moddir)
		return false;
	if (!spec->root && !spec->version && cfg->directory)
		return true;
	return (!spec->root && cfg->root) || (!spec->version && cfg->version);
}

/* Whether kmod reads NAME in a modprobe.d directory: *.conf and *.alias,
 * not hidden (libkmod's conf_files_filter_out()) */
static bool modprobe_d_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && ((n > 5 && strcmp(name + n - 5, ".conf") == 0) ||
				  (n > 6 && strcmp(name + n - 6, ".alias") == 0));
}

/* The null device, which gives no configuration (a systemd-style mask) */
static bool is_null_device(const char *path)
{
	g_autofree char *real = realpath(path, NULL);

	return real && strcmp(real, "/dev/null") == 0;
}

/* PATH and every directory above it trusted (trust_open()); for a
 * directory, what is in it too: every entry (MODPROBE_D: the files kmod
 * reads there, symlinks followed and checked, a mask to the null device
 * passed; else, the module directory, its files and subdirectories, its
 * symlinks, kmod's build and source, passed over).  A path that is not
 * there is passed: whoever reads it says so.  WHY says what was refused. */
static int trusted_path(const char *path, bool modprobe_d, struct trust_why *why)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd, dfd, r = 0;

	if (modprobe_d && strcmp(path, "/dev/null") == 0)
		return 0;
	fd = trust_open(path, O_PATH | (modprobe_d ? 0 : O_DIRECTORY), TRUST_FOLLOW, why);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode)) {
		close(fd);
		return 0; /* a file: checked */
	}
	/* the directory checked, opened again to be listed */
	dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	r = dfd < 0 ? -errno : 0;
	close(fd);
	d = dfd < 0 ? NULL : fdopendir(dfd);
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return r < 0 ? r : -ENOMEM;
	}
	while (r == 0 && (e = readdir(d))) {
		int efd;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    (modprobe_d && !modprobe_d_name(e->d_name)))
			continue;
		efd = trust_openat(dirfd(d), path, e->d_name, O_PATH, 0, why);
		if (efd == -ELOOP && modprobe_d) {
			g_autofree char *full = g_build_filename(path, e->d_name, NULL);

			efd = is_null_device(full) ? -ENOENT : trust_open(full, O_PATH, TRUST_FOLLOW, why);
		}
		/* a symlink in the module directory, a dangling one in
		 * modprobe.d (kmod passes over it), a mask: passed */
		if (efd >= 0)
			close(efd);
		else if (efd != -ELOOP && efd != -ENOENT)
			r = efd;
	}
	closedir(d);
	return r;
}

int cli_tables_trusted(const struct cli_tables_spec *spec, const struct cli_config *cfg, const char *dir,
		       cli_report_fn report, void *data)
{
	struct trust_why why = { "" };
	int r;

	if (dir && module_dir_from_config(spec, cfg) && (r = trusted_path(dir, false, &why)) < 0) {
		if (report)
			report_printf(report, data, LOG_ERR, "%s (the module directory, from %s): refused: %s", dir,
				      cfg->path, why.text[0] ? why.text : g_strerror(-r));
		return r;
	}
	for (char **p = cfg->modprobe_d; !spec->modprobe_d && p && *p; p++)
		if ((r = trusted_path(*p, true, &why)) < 0) {
			if (report)
				report_printf(report, data, LOG_ERR, "%s (modprobe.d, from %s): refused: %s", *p,
					      cfg->path, why.text[0] ? why.text : g_strerror(-r));
			return r;
		}
	return 0;
}

/* modprobe.d, then modalias.conf's extra tables and blacklist, into T */
static int add_config(struct cli_tables *t, const struct cli_tables_spec *spec, const struct cli_config *cfg,
		      bool go_on, cli_report_fn report, void *data)
{
	const char *buf[2], *const *paths;
	bool none;
	int r;

	paths = cli_modprobe_paths(spec, cfg, buf, &none);
	if (spec->modprobe_d && cli_config_is_settings(spec->modprobe_d)) {
		/* hotplug's --config and modalias's --config before the command
		 * named modalias.conf once */
		report_printf(report, data, LOG_ERR,
			      "%s is a modalias.conf ([GROUP] lines): -C/--config names a modprobe.d file, as for "
			      "modprobe; give modalias.conf with --settings=FILE", spec->modprobe_d);
		return -EINVAL;
	}
	/* a configuration named that is not there is a typo, not an empty
	 * one (libkmod, reading the system's, passes over one missing) */
	for (size_t i = 0; paths && !none && paths[i]; i++) {
		struct stat st;

		if (lstat(paths[i], &st) == 0 || errno != ENOENT)
			continue;
		if (spec->modprobe_d)
			report_printf(report, data, LOG_ERR,
				      "-C/--config %s: no such file or directory (a modprobe.d file or directory; "
				      "/dev/null for none)", paths[i]);
		else
			report_printf(report, data, LOG_ERR,
				      "%s (modprobe.d, from %s): no such file or directory", paths[i], cfg->path);
		if (!go_on)
			return -ENOENT;
	}
	r = none ? 0 : modalias_table_load_config(t->table, paths);
	if (r < 0) {
		report_printf(report, data, LOG_ERR, "cannot read the modprobe configuration: %s", strerror(-r));
		if (!go_on)
			return r;
	}
	for (char **f = cfg->tables; f && *f; f++) {
		g_autofree char *text = NULL, *why = NULL;
		size_t len;

		/* checked again at each load: the daemon's reloads too */
		r = cli_table_read(*f, &text, &len, &why);
		if (r < 0) {
			report_printf(report, data, LOG_ERR, "%s: [modules] tables: %s%s", cfg->path, why,
				      go_on ? ": not used" : "");
			if (!go_on)
				return r;
			continue;
		}
		r = modalias_table_load_buffer(t->table, *f, text, len);
		if (r != 0) {
			report_printf(report, data, LOG_ERR, "%s (from %s): %s", *f, cfg->path,
				      r < 0 ? strerror(-r) : "malformed lines");
			if (!go_on)
				return r < 0 ? r : -EINVAL;
		}
	}
	/* (only an empty name fails here, and the library says nothing of it);
	 * where each is said, for whoever tells why a module is not loaded */
	for (char **b = cfg->blacklist; b && *b; b++)
		if ((r = modalias_table_add_blacklist_from(t->table, *b, cfg->path, (unsigned int)cfg->blacklist_line)) < 0 &&
		    !go_on)
			return r;
	return 0;
}

int cli_tables_open(struct modalias_ctx *ctx, const struct cli_tables_spec *spec, const char *dir,
		    const struct cli_config *cfg, unsigned int flags, cli_report_fn report, void *data,
		    struct cli_tables *out)
{
	g_autofree char *cache = cli_cache_dir(spec, cfg);
	struct cli_tables t = { .dir = dir ? g_strdup(dir) : cli_module_dir(spec, cfg) };
	int r = 0;

	memset(out, 0, sizeof(*out));
	/* before anything of them is read (or cached) */
	if (flags & CLI_TABLES_TRUSTED)
		r = cli_tables_trusted(spec, cfg, t.dir, report, data);
	if (r < 0) {
		cli_tables_close(&t);
		return r;
	}
	r = modalias_table_open(ctx, t.dir, cache, &t.table);
	if (r < 0) {
		report_printf(report, data, LOG_ERR, "cannot load the module tables of %s: %s%s", t.dir, strerror(-r),
			      r == -ENOENT ? " (a module directory holds modules.alias, as /lib/modules/VERSION: -m DIR, "
					     "or -d ROOT -S VERSION for ROOT/lib/modules/VERSION)" : "");
		cli_tables_close(&t);
		return r;
	}
	if (r > 0) /* each line was named by the library */
		report_printf(report, data, LOG_INFO, "%s: %d malformed line%s skipped", t.dir, r, cli_plural((unsigned int)r));
	r = add_config(&t, spec, cfg, flags & CLI_TABLES_GO_ON, report, data);
	if (r == 0 && (flags & CLI_TABLES_LOADER)) {
		r = cli_loader_new(ctx, spec, cfg, t.dir, &t.loader);
		if (r < 0)
			report_printf(report, data, LOG_ERR, "cannot set up libkmod: %s", strerror(-r));
	}
	if (r < 0) {
		cli_tables_close(&t);
		return r;
	}
	*out = t;
	return 0;
}
