/*
 * libmodalias - snapshots: a machine's devices (devpath, subsystem,
 * modalias, bound driver and its module, driver_override), its loaded
 * modules and the firmware loads its kernel log says failed, taken from
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
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

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

int snapshot_add_module(struct modalias_snapshot *snap, char *name)
{
	if (snap->n_modules == snap->cap_modules) {
		size_t cap = snap->cap_modules ? snap->cap_modules * 2 : 64;
		char **n = realloc(snap->modules, cap * sizeof(*n));

		if (!n) {
			free(name);
			return -ENOMEM;
		}
		snap->modules = n;
		snap->cap_modules = cap;
	}
	snap->modules[snap->n_modules++] = name;
	return 0;
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

const char *snapshot_finish(struct modalias_snapshot *snap)
{
	if (snap->n_devices > 1)
		qsort(snap->devices, snap->n_devices, sizeof(*snap->devices), device_cmp);
	if (snap->n_modules > 1)
		qsort(snap->modules, snap->n_modules, sizeof(*snap->modules), str_cmp);
	for (size_t i = 1; i < snap->n_devices; i++)
		if (strcmp(snap->devices[i - 1].devpath, snap->devices[i].devpath) == 0)
			return snap->devices[i].devpath;
	for (size_t i = 1; i < snap->n_modules; i++)
		if (strcmp(snap->modules[i - 1], snap->modules[i]) == 0)
			return snap->modules[i];
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

/* The modules whose initstate is "live" (a builtin one has none) */
static int take_modules(struct modalias_snapshot *snap)
{
	struct strbuf sb;
	struct dirent *de;
	DIR *d;
	int r = 0;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/module", modalias_ctx_get_sysfs_root(snap->ctx));
	if (sb.oom)
		return -ENOMEM;
	d = opendir(sb.buf);
	strbuf_release(&sb);
	if (!d)
		return 0; /* a captured tree without modules */
	while (r == 0 && (de = readdir(d))) {
		char *name;

		if (de->d_name[0] == '.' || modalias_sysfs_is_module_loaded(snap->ctx, de->d_name) <= 0)
			continue;
		r = (name = strdup(de->d_name)) ? snapshot_add_module(snap, name) : -ENOMEM;
	}
	closedir(d);
	return r;
}

MODALIAS_EXPORT int modalias_snapshot_new_from_sysfs(struct modalias_ctx *ctx, struct modalias_snapshot **ret)
{
	struct modalias_snapshot *snap;
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
	if (r == 0)
		r = take_modules(snap);
	if (r < 0) {
		modalias_snapshot_unref(snap);
		return r;
	}
	snapshot_finish(snap);
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
	for (size_t i = 0; i < snap->n_modules; i++)
		free(snap->modules[i]);
	free(snap->modules);
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

MODALIAS_EXPORT int modalias_snapshot_is_module_loaded(const struct modalias_snapshot *snap, const char *module)
{
	if (!snap || !module)
		return -EINVAL;
	if (snap->n_modules == 0) /* no array to search (bsearch() takes none) */
		return 0;
	return bsearch(&module, snap->modules, snap->n_modules, sizeof(*snap->modules), str_cmp) != NULL;
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
	strbuf_puts(&sb, snap->n_devices ? "\n  ],\n  \"modules\": [" : "],\n  \"modules\": [");
	for (size_t i = 0; i < snap->n_modules; i++) {
		strbuf_puts(&sb, i ? (i % 8 ? ", " : ",\n    ") : "\n    ");
		put_string(&sb, snap->modules[i]);
	}
	strbuf_puts(&sb, snap->n_modules ? "\n  ]" : "]");
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
