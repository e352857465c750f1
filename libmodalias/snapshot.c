/*
 * libmodalias - snapshots: a machine's devices (devpath, subsystem,
 * modalias, bound driver and its module, driver_override), its loaded
 * modules, what it showed built in (module entries without an initstate,
 * drivers without a module link) and the firmware loads its kernel log
 * says failed, taken from
 * sysfs or read from a snapshot file, written as the versioned JSON
 * document of modalias(1)'s "snapshot" command, and asked as sysfs would
 * be (walked parents first, a device looked up, a driver, a loaded
 * module), so that every question about a machine's devices can be
 * answered offline.
 *
 * This file holds the object and the writer; the reader is
 * snapshot-read.c, which builds through this file (never the other way).
 * It may not print.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "json.h"
#include "libmodalias-private.h"
#include "snapshot-private.h"

struct modalias_snapshot *snapshot_alloc(struct modalias_ctx *ctx)
{
	struct modalias_snapshot *snap = calloc(1, sizeof(*snap));

	if (!snap)
		return NULL;
	snap->refcount = 1;
	snap->ctx = modalias_ctx_ref(ctx);
	return snap;
}

void snap_device_clear(struct snap_device *d)
{
	free(d->devpath);
	free(d->subsystem);
	free(d->modalias);
	free(d->driver);
	free(d->driver_module);
	free(d->driver_override);
	memset(d, 0, sizeof(*d));
}

int snapshot_add_device(struct modalias_snapshot *snap, struct snap_device *d)
{
	if (snap->n_devices == snap->cap_devices) {
		size_t cap = snap->cap_devices ? snap->cap_devices * 2 : 64;
		struct snap_device *n = realloc(snap->devices, cap * sizeof(*n));

		if (!n) {
			snap_device_clear(d);
			return -ENOMEM;
		}
		snap->devices = n;
		snap->cap_devices = cap;
	}
	snap->devices[snap->n_devices++] = *d;
	memset(d, 0, sizeof(*d));
	return 0;
}

int snapshot_add_name(struct snap_names *set, char *name)
{
	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 64;
		char **n = realloc(set->v, cap * sizeof(*n));

		if (!n) {
			free(name);
			return -ENOMEM;
		}
		set->v = n;
		set->cap = cap;
	}
	set->v[set->n++] = name;
	return 0;
}

static void names_clear(struct snap_names *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i]);
	free(set->v);
	memset(set, 0, sizeof(*set));
}

/* Devpaths in the order of the sysfs walk: component by component, a
 * parent before its children ('/' before any other byte) */
static int devpath_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned char ca = *a == '/' ? 1 : (unsigned char)*a, cb = *b == '/' ? 1 : (unsigned char)*b;

		if (ca != cb || !ca)
			return ca - cb;
	}
}

static int device_cmp(const void *a, const void *b)
{
	return devpath_cmp(((const struct snap_device *)a)->devpath, ((const struct snap_device *)b)->devpath);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* SET sorted; the first name in it twice, or NULL */
static const char *names_sort(struct snap_names *set)
{
	if (set->n > 1)
		qsort(set->v, set->n, sizeof(*set->v), str_cmp);
	for (size_t i = 1; i < set->n; i++)
		if (strcmp(set->v[i - 1], set->v[i]) == 0)
			return set->v[i];
	return NULL;
}

/* SET sorted, each name once (a name found twice is one fact: two buses
 * may each have a driver of that name) */
static void names_sort_unique(struct snap_names *set)
{
	size_t kept = 0;

	names_sort(set);
	for (size_t i = 0; i < set->n; i++) {
		if (kept > 0 && strcmp(set->v[kept - 1], set->v[i]) == 0)
			free(set->v[i]);
		else
			set->v[kept++] = set->v[i];
	}
	set->n = kept;
}

static bool names_have(const struct snap_names *set, const char *name)
{
	/* none: no array to search (bsearch() takes none) */
	return set->n > 0 && bsearch(&name, set->v, set->n, sizeof(*set->v), str_cmp) != NULL;
}

const char *snapshot_finish(struct modalias_snapshot *snap, const char **member)
{
	const struct {
		const char *member;
		struct snap_names *set;
	} sets[] = {
		{ "modules", &snap->modules },
		{ "builtin", &snap->builtin_modules },
		{ "builtin_drivers", &snap->builtin_drivers },
	};

	if (snap->n_devices > 1)
		qsort(snap->devices, snap->n_devices, sizeof(*snap->devices), device_cmp);
	*member = "devices";
	for (size_t i = 1; i < snap->n_devices; i++)
		if (strcmp(snap->devices[i - 1].devpath, snap->devices[i].devpath) == 0)
			return snap->devices[i].devpath;
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		const char *twice = names_sort(sets[i].set);

		*member = sets[i].member;
		if (twice)
			return twice;
	}
	return NULL;
}

static const struct snap_device *find_device(const struct modalias_snapshot *snap, const char *devpath)
{
	size_t lo = 0, hi = snap->n_devices;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = devpath_cmp(devpath, snap->devices[mid].devpath);

		if (c == 0)
			return &snap->devices[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* ---- taken from sysfs --------------------------------------------------- */

static int take_device(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct modalias_snapshot *snap = data;
	struct snap_device d = { .err = err < 0 ? -err : 0 };
	int r;

	if (!(d.devpath = strdup(devpath)))
		return -ENOMEM;
	if (err >= 0 && (r = modalias_dev_format(dev, &d.modalias)) < 0) {
		snap_device_clear(&d);
		return r;
	}
	d.subsystem = sysfs_subsystem_of(snap->ctx, devpath);
	r = modalias_sysfs_get_driver(snap->ctx, devpath, &d.driver, &d.driver_module, &d.driver_override);
	if (r < 0) {
		snap_device_clear(&d);
		return r;
	}
	return snapshot_add_device(snap, &d);
}

/* DIR below the sysfs root (O_NOFOLLOW: not a link to one), opened as
 * the live calls open it; NULL when there is none (a captured tree of
 * devices alone) */
static DIR *open_below_root(struct modalias_snapshot *snap, const char *dir, int nofollow)
{
	struct strbuf sb;
	DIR *d;
	int fd;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/%s", modalias_ctx_get_sysfs_root(snap->ctx), dir);
	if (sb.oom) {
		errno = ENOMEM;
		return NULL;
	}
	fd = open(sb.buf, O_RDONLY | O_DIRECTORY | nofollow | O_CLOEXEC);
	strbuf_release(&sb);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return d;
}

/* NAME (a directory in DIR, not a link to one) into SET when it can be a
 * module's name and has no AT (what makes it built in): asked as
 * modalias_sysfs_is_module_builtin() asks; -ENOMEM */
static int add_if_missing(struct snap_names *set, int dir, const char *name, const char *at)
{
	const char *why;
	struct stat st;
	char *copy;
	int fd, r;

	if (module_name_check(name, strlen(name), &why) < 0)
		return 0;
	fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	r = fstatat(fd, at, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
	close(fd);
	if (!r)
		return 0;
	return (copy = strdup(name)) ? snapshot_add_name(set, copy) : -ENOMEM;
}

/* The modules whose initstate is "live"; the entries without one, built
 * in.  SEEN: set when there is a module directory to ask (as the live
 * calls ask SYSFS_ROOT/module/NAME, a link to it is followed). */
static int take_modules(struct modalias_snapshot *snap, bool *seen)
{
	struct dirent *de;
	DIR *d = open_below_root(snap, "module", 0);
	int r = 0;

	if (!d)
		return errno == ENOMEM ? -ENOMEM : 0;
	*seen = true;
	snap->modules_known = true;
	while (r == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (modalias_sysfs_is_module_loaded(snap->ctx, de->d_name) > 0) {
			char *name = strdup(de->d_name);

			r = name ? snapshot_add_name(&snap->modules, name) : -ENOMEM;
		} else {
			r = add_if_missing(&snap->builtin_modules, dirfd(d), de->d_name, "initstate");
		}
	}
	closedir(d);
	return r;
}

/* The drivers without a module link, on every bus, a name once (two buses
 * may each have one): built in.  As the live call: SYSFS_ROOT/bus not a
 * link, a bus and its drivers directory followed. */
static int take_builtin_drivers(struct modalias_snapshot *snap, bool *seen)
{
	struct snap_names *set = &snap->builtin_drivers;
	struct dirent *bus, *drv;
	DIR *buses = open_below_root(snap, "bus", O_NOFOLLOW);
	int r = 0;

	if (!buses)
		return errno == ENOMEM ? -ENOMEM : 0;
	*seen = true;
	while (r == 0 && (bus = readdir(buses))) {
		int fd;
		char *path;
		DIR *drivers;

		if (bus->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/drivers", bus->d_name) < 0) {
			r = -ENOMEM;
			break;
		}
		fd = openat(dirfd(buses), path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		free(path);
		if (fd < 0)
			continue;
		if (!(drivers = fdopendir(fd))) {
			close(fd);
			continue;
		}
		while (r == 0 && (drv = readdir(drivers)))
			if (drv->d_name[0] != '.')
				r = add_if_missing(set, dirfd(drivers), drv->d_name, "module");
		closedir(drivers);
	}
	closedir(buses);
	names_sort_unique(set);
	return r;
}

MODALIAS_EXPORT int modalias_snapshot_new_from_sysfs(struct modalias_ctx *ctx, struct modalias_snapshot **ret)
{
	struct modalias_snapshot *snap;
	const char *member;
	struct utsname u;
	int r;

	if (!ctx || !ret)
		return -EINVAL;
	if (!(snap = snapshot_alloc(ctx)))
		return -ENOMEM;
	/* the running kernel's only for the running machine's sysfs: a captured
	 * tree's is unknown (modalias_snapshot_set_kernel() says it) */
	if (strcmp(modalias_ctx_get_sysfs_root(ctx), "/sys") == 0 && uname(&u) == 0 &&
	    (!(snap->kernel = strdup(u.release)) || !(snap->arch = strdup(u.machine)))) {
		modalias_snapshot_unref(snap);
		return -ENOMEM;
	}
	r = modalias_sysfs_foreach(ctx, take_device, snap);
	/* built-in modules: unknown when sysfs has nothing to ask */
	if (r == 0)
		r = take_modules(snap, &snap->builtins_known);
	if (r == 0)
		r = take_builtin_drivers(snap, &snap->builtins_known);
	if (r < 0) {
		modalias_snapshot_unref(snap);
		return r;
	}
	snapshot_finish(snap, &member); /* sysfs lists a name once */
	*ret = snap;
	return 0;
}

MODALIAS_EXPORT struct modalias_snapshot *modalias_snapshot_ref(struct modalias_snapshot *snap)
{
	if (snap)
		REF_INC(snap->refcount);
	return snap;
}

MODALIAS_EXPORT struct modalias_snapshot *modalias_snapshot_unref(struct modalias_snapshot *snap)
{
	if (!snap)
		return NULL;
	if (REF_DEC(snap->refcount) > 0)
		return snap;
	for (size_t i = 0; i < snap->n_devices; i++)
		snap_device_clear(&snap->devices[i]);
	free(snap->devices);
	names_clear(&snap->modules);
	names_clear(&snap->builtin_modules);
	names_clear(&snap->builtin_drivers);
	for (size_t i = 0; i < snap->n_fw_failures; i++) {
		free(snap->fw_failures[i].devpath);
		free(snap->fw_failures[i].file);
	}
	free(snap->fw_failures);
	free(snap->kernel);
	free(snap->arch);
	modalias_ctx_unref(snap->ctx);
	free(snap);
	return NULL;
}

/* ---- asked ---------------------------------------------------------------- */

MODALIAS_EXPORT const char *modalias_snapshot_get_kernel(const struct modalias_snapshot *snap)
{
	return snap ? snap->kernel : NULL;
}

MODALIAS_EXPORT const char *modalias_snapshot_get_arch(const struct modalias_snapshot *snap)
{
	return snap ? snap->arch : NULL;
}

MODALIAS_EXPORT int modalias_snapshot_set_kernel(struct modalias_snapshot *snap, const char *kernel,
						 const char *arch)
{
	char *k = NULL, *a = NULL;

	if (!snap)
		return -EINVAL;
	if ((kernel && !(k = strdup(kernel))) || (arch && !(a = strdup(arch)))) {
		free(k);
		return -ENOMEM;
	}
	free(snap->kernel);
	free(snap->arch);
	snap->kernel = k;
	snap->arch = a;
	return 0;
}

MODALIAS_EXPORT int modalias_snapshot_add_firmware_failure(struct modalias_snapshot *snap, const char *devpath,
							   const char *file, int error)
{
	struct snap_fw_failure f = { NULL };

	if (!snap || (file && (!*file || error >= 0 || error < -4095)) ||
	    (devpath && (strncmp(devpath, "/devices/", 9) != 0 || !devpath_is_safe(devpath))))
		return -EINVAL;
	snap->kernel_log = true;
	if (!file)
		return 0;
	for (size_t i = 0; i < snap->n_fw_failures; i++) {
		const struct snap_fw_failure *o = &snap->fw_failures[i];

		if (strcmp(o->file, file) == 0 && (o->devpath && devpath ? strcmp(o->devpath, devpath) == 0
									  : o->devpath == devpath))
			return 0;
	}
	if (snap->n_fw_failures == snap->cap_fw_failures) {
		size_t cap = snap->cap_fw_failures ? snap->cap_fw_failures * 2 : 8;
		struct snap_fw_failure *n = realloc(snap->fw_failures, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		snap->fw_failures = n;
		snap->cap_fw_failures = cap;
	}
	if ((devpath && !(f.devpath = strdup(devpath))) || !(f.file = strdup(file))) {
		free(f.devpath);
		return -ENOMEM;
	}
	f.err = -error;
	snap->fw_failures[snap->n_fw_failures++] = f;
	return 0;
}

MODALIAS_EXPORT int modalias_snapshot_foreach_firmware_failure(const struct modalias_snapshot *snap,
							       modalias_firmware_failure_fn fn, void *data)
{
	if (!snap || !fn)
		return -EINVAL;
	if (!snap->kernel_log)
		return -ENODATA;
	for (size_t i = 0; i < snap->n_fw_failures; i++) {
		const struct snap_fw_failure *f = &snap->fw_failures[i];
		int r = fn(data, f->devpath, f->file, -f->err);

		if (r != 0)
			return r;
	}
	return 0;
}

MODALIAS_EXPORT unsigned int modalias_snapshot_get_n_devices(const struct modalias_snapshot *snap)
{
	return snap ? (unsigned int)snap->n_devices : 0;
}

static int device_dev(const struct modalias_snapshot *snap, const struct snap_device *d, struct modalias_dev **ret)
{
	if (d->err)
		return -d->err;
	return modalias_parse(snap->ctx, d->modalias, ret);
}

MODALIAS_EXPORT int modalias_snapshot_foreach(const struct modalias_snapshot *snap, modalias_sysfs_fn fn, void *data)
{
	if (!snap || !fn)
		return -EINVAL;
	for (size_t i = 0; i < snap->n_devices; i++) {
		struct modalias_dev *dev = NULL;
		int e = device_dev(snap, &snap->devices[i], &dev), r;

		r = fn(data, snap->devices[i].devpath, e < 0 ? NULL : dev, e < 0 ? e : 0);
		modalias_dev_unref(dev);
		if (r != 0)
			return r;
	}
	return 0;
}

MODALIAS_EXPORT int modalias_snapshot_get_dev(const struct modalias_snapshot *snap, const char *devpath,
					      struct modalias_dev **ret)
{
	const struct snap_device *d;

	if (!snap || !devpath || !ret)
		return -EINVAL;
	if (!(d = find_device(snap, devpath)))
		return -ENOENT;
	return device_dev(snap, d, ret);
}

MODALIAS_EXPORT int modalias_snapshot_get_driver(const struct modalias_snapshot *snap, const char *devpath,
						 const char **driver, const char **driver_module,
						 const char **driver_override)
{
	const struct snap_device *d;

	if (!snap || !devpath)
		return -EINVAL;
	if (!(d = find_device(snap, devpath)))
		return -ENOENT;
	if (driver)
		*driver = d->driver;
	if (driver_module)
		*driver_module = d->driver_module;
	if (driver_override)
		*driver_override = d->driver_override;
	return 0;
}

/* MODULE as the live calls take it (module_name_check()): -EINVAL */
static int check_module(const struct modalias_snapshot *snap, const char *module)
{
	const char *why;

	return snap && module && module_name_check(module, strlen(module), &why) == 0 ? 0 : -EINVAL;
}

MODALIAS_EXPORT int modalias_snapshot_is_module_loaded(const struct modalias_snapshot *snap, const char *module)
{
	int r = check_module(snap, module);

	if (r < 0)
		return r;
	return snap->modules_known ? names_have(&snap->modules, module) : -ENODATA;
}

/* As modalias_sysfs_is_module_builtin() asks sysfs: the module's entry
 * without an initstate, or a driver of its name ('_' or '-') without a
 * module link */
MODALIAS_EXPORT int modalias_snapshot_is_module_builtin(const struct modalias_snapshot *snap, const char *module)
{
	char *dashed;
	int r = check_module(snap, module);

	if (r < 0)
		return r;
	if (!snap->builtins_known)
		return -ENODATA;
	if (names_have(&snap->builtin_modules, module) || names_have(&snap->builtin_drivers, module))
		return 1;
	if (!strchr(module, '_'))
		return 0;
	if (!(dashed = module_name_dashed(module)))
		return -ENOMEM;
	r = names_have(&snap->builtin_drivers, dashed);
	free(dashed);
	return r;
}

/* ---- written -------------------------------------------------------------- */

static void put_string(struct strbuf *sb, const char *s)
{
	size_t len;

	if (!s) {
		strbuf_puts(sb, "null");
		return;
	}
	len = strlen(s);
	if (strbuf_reserve(sb, JSON_QUOTED_MAX(len)))
		sb->len += json_quote(sb->buf + sb->len, s);
}

/* SET as an array, eight names a line */
static void put_names(struct strbuf *sb, const struct snap_names *set)
{
	strbuf_putc(sb, '[');
	for (size_t i = 0; i < set->n; i++) {
		strbuf_puts(sb, i ? (i % 8 ? ", " : ",\n    ") : "\n    ");
		put_string(sb, set->v[i]);
	}
	strbuf_puts(sb, set->n ? "\n  ]" : "]");
}

static void put_member(struct strbuf *sb, const char *key, const char *value)
{
	strbuf_puts(sb, ", \"");
	strbuf_puts(sb, key);
	strbuf_puts(sb, "\": ");
	put_string(sb, value);
}

MODALIAS_EXPORT int modalias_snapshot_format(const struct modalias_snapshot *snap, char **ret)
{
	struct strbuf sb;

	if (!snap || !ret)
		return -EINVAL;
	strbuf_init(&sb);
	strbuf_printf(&sb, "{\n  \"version\": %d,\n  \"kernel\": ", SNAPSHOT_VERSION);
	put_string(&sb, snap->kernel);
	strbuf_puts(&sb, ",\n  \"arch\": ");
	put_string(&sb, snap->arch);
	strbuf_puts(&sb, ",\n  \"devices\": [");
	for (size_t i = 0; i < snap->n_devices; i++) {
		const struct snap_device *d = &snap->devices[i];

		strbuf_puts(&sb, i ? ",\n    {\"devpath\": " : "\n    {\"devpath\": ");
		put_string(&sb, d->devpath);
		put_member(&sb, "subsystem", d->subsystem);
		put_member(&sb, "modalias", d->modalias);
		put_member(&sb, "driver", d->driver);
		if (d->driver_module)
			put_member(&sb, "driver_module", d->driver_module);
		if (d->driver_override)
			put_member(&sb, "driver_override", d->driver_override);
		if (d->err) {
			strbuf_printf(&sb, ", \"errno\": %d", d->err);
			put_member(&sb, "error", strerror(d->err));
		}
		strbuf_putc(&sb, '}');
	}
	strbuf_puts(&sb, snap->n_devices ? "\n  ]" : "]");
	if (snap->modules_known) {
		strbuf_puts(&sb, ",\n  \"modules\": ");
		put_names(&sb, &snap->modules);
	}
	if (snap->builtins_known) {
		strbuf_puts(&sb, ",\n  \"builtin\": ");
		put_names(&sb, &snap->builtin_modules);
		strbuf_puts(&sb, ",\n  \"builtin_drivers\": ");
		put_names(&sb, &snap->builtin_drivers);
	}
	if (snap->kernel_log) {
		strbuf_puts(&sb, ",\n  \"firmware_failures\": [");
		for (size_t i = 0; i < snap->n_fw_failures; i++) {
			const struct snap_fw_failure *f = &snap->fw_failures[i];

			strbuf_puts(&sb, i ? ",\n    {\"devpath\": " : "\n    {\"devpath\": ");
			put_string(&sb, f->devpath);
			put_member(&sb, "file", f->file);
			strbuf_printf(&sb, ", \"errno\": %d}", f->err);
		}
		strbuf_puts(&sb, snap->n_fw_failures ? "\n  ]" : "]");
	}
	strbuf_puts(&sb, "\n}\n");
	return strbuf_steal(&sb, ret);
}
