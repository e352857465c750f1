/*
 * libmodalias - devices from sysfs: the modalias attribute, the uevent
 * file, or the id attributes; and the walk over every device (coldplug)
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
#include <unistd.h>

#include "libmodalias-private.h"
#include "read-file.h"

struct sysdev {
	struct modalias_ctx *ctx;
	char *dir; /* sysfs root + devpath */
};

/* A device directory that is no more: the device went away. */
static bool dir_gone(const char *dir)
{
	struct stat st;

	return stat(dir, &st) < 0 && errno == ENOENT;
}

/* Reads DIR/name: a regular file of READ_FILE_ATTR_MAX bytes at most,
 * opened without blocking (a FIFO named modalias or uevent in a copied tree
 * cannot stall the walk); -ENOENT quietly, other errors logged with the
 * path (but not -ENODEV, what an attribute of a device that went away
 * gives). */
static int sys_read(const struct sysdev *sd, const char *name, char **ret)
{
	struct strbuf sb;
	char *path;
	int r;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/%s", sd->dir, name);
	if ((r = strbuf_steal(&sb, &path)) < 0)
		return r;
	r = read_text_file(path, ret, READ_FILE_ATTR_MAX);
	if (r < 0 && r != -ENOENT && !(r == -ENODEV && dir_gone(sd->dir))) {
		char buf_why[64];
		const char *why = r == -EBADMSG ? "a NUL byte in it"
						: read_file_error(r, READ_FILE_ATTR_MAX, buf_why, sizeof(buf_why));

		err(sd->ctx, "cannot read %s: %s\n", path, why);
	}
	free(path);
	return r;
}

static bool sys_has(const struct sysdev *sd, const char *name)
{
	char path[4096];
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", sd->dir, name) >= sizeof(path))
		return false;
	return stat(path, &st) == 0;
}

static int sys_hex(const struct sysdev *sd, const char *name, uint64_t max, uint64_t *v)
{
	char *text;
	int r = sys_read(sd, name, &text);

	if (r < 0)
		return r;
	r = parse_hex(text, strlen(text), max, v);
	if (r < 0)
		err(sd->ctx, "%s/%s: '%s' is not a hexadecimal number of the field's size\n",
		    sd->dir, name, text);
	free(text);
	return r;
}

/* Sets fields first… from the named hex attributes. */
static int sys_hex_fields(const struct sysdev *sd, struct modalias_dev *dev, unsigned int first,
			  const char *const *names, const uint64_t *max, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		uint64_t v;
		int r = sys_hex(sd, names[i], max[i], &v);
		if (r < 0 || (r = dev_put_num(dev, first + i, v, false)) < 0)
			return r;
	}
	return 0;
}

static int new_bus_dev(const struct sysdev *sd, const char *bus, struct modalias_dev **ret)
{
	return dev_new(sd->ctx, bus_find(bus, strlen(bus)), NULL, 0, ret);
}

static int rebuild_usb_interface(const struct sysdev *sd, struct modalias_dev *dev)
{
	static const char *const devattr[] = { "../idVendor", "../idProduct", "../bcdDevice",
					       "../bDeviceClass", "../bDeviceSubClass",
					       "../bDeviceProtocol" };
	static const char *const ifattr[] = { "bInterfaceClass", "bInterfaceSubClass",
					      "bInterfaceProtocol", "bInterfaceNumber" };
	static const uint64_t max[] = { 0xffff, 0xffff, 0xffff, 0xff, 0xff, 0xff };
	static const uint64_t max8[] = { 0xff, 0xff, 0xff, 0xff };
	int r = sys_hex_fields(sd, dev, 0, devattr, max, 6);

	return r < 0 ? r : sys_hex_fields(sd, dev, 6, ifattr, max8, 4);
}

static int rebuild_pci(const struct sysdev *sd, struct modalias_dev *dev)
{
	static const char *const attr[] = { "vendor", "device", "subsystem_vendor",
					    "subsystem_device" };
	static const uint64_t max[] = { 0xffff, 0xffff, 0xffff, 0xffff };
	uint64_t cls;
	int r = sys_hex_fields(sd, dev, 0, attr, max, 4);

	if (r < 0 || (r = sys_hex(sd, "class", 0xffffff, &cls)) < 0)
		return r;
	if ((r = dev_put_num(dev, 4, cls >> 16, false)) < 0 ||
	    (r = dev_put_num(dev, 5, (cls >> 8) & 0xff, false)) < 0)
		return r;
	return dev_put_num(dev, 6, cls & 0xff, false);
}

static int rebuild_input(const struct sysdev *sd, struct modalias_dev *dev)
{
	static const char *const id[] = { "id/bustype", "id/vendor", "id/product", "id/version" };
	static const char *const caps[] = { "capabilities/ev", "capabilities/key",
					    "capabilities/rel", "capabilities/abs",
					    "capabilities/msc", "capabilities/led",
					    "capabilities/snd", "capabilities/ff",
					    "capabilities/sw" };
	static const uint64_t max[] = { 0xffff, 0xffff, 0xffff, 0xffff };
	int r = sys_hex_fields(sd, dev, 0, id, max, 4);

	for (unsigned int i = 0; r == 0 && i < ARRAY_SIZE(caps); i++) {
		char *words;

		r = sys_read(sd, caps[i], &words);
		if (r == -ENOENT) {
			r = 0;
			continue;
		}
		if (r < 0)
			break;
		r = dev_add_bitmap(dev, 4 + i, words, ctx_get_long_bits(sd->ctx), i == 1 ? 0x71 : 0);
		if (r < 0)
			err(sd->ctx, "%s/%s: '%.*s' is not a bitmap\n", sd->dir, caps[i], LOG_ECHO(words));
		free(words);
	}
	return r;
}

static int rebuild_serio(const struct sysdev *sd, struct modalias_dev *dev)
{
	static const char *const id[] = { "id/type", "id/proto", "id/id", "id/extra" };
	static const uint64_t max[] = { 0xff, 0xff, 0xff, 0xff };

	return sys_hex_fields(sd, dev, 0, id, max, 4);
}

static int rebuild_virtio(const struct sysdev *sd, struct modalias_dev *dev)
{
	static const char *const id[] = { "device", "vendor" };
	static const uint64_t max[] = { UINT32_MAX, UINT32_MAX };

	return sys_hex_fields(sd, dev, 0, id, max, 2);
}

static int rebuild_scsi(const struct sysdev *sd, struct modalias_dev *dev)
{
	char *text;
	uint64_t type;
	int r = sys_read(sd, "type", &text);

	if (r < 0)
		return r;
	r = parse_dec(text, strlen(text), 0xff, &type);
	if (r < 0)
		err(sd->ctx, "%s/type: '%s' is not a SCSI device type\n", sd->dir, text);
	free(text);
	return r < 0 ? r : dev_put_num(dev, 0, type, false);
}

/* The subsystem: the basename of the "subsystem" link, when there is one. */
static char *sys_subsystem(const struct sysdev *sd)
{
	char path[4096], target[4096];
	ssize_t n;
	char *slash;

	if ((size_t)snprintf(path, sizeof(path), "%s/subsystem", sd->dir) >= sizeof(path))
		return NULL;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	slash = strrchr(target, '/');
	return strdup(slash ? slash + 1 : target);
}

/* Without a subsystem link (a copied tree): the kernel's device names. */
static bool name_virtio(const char *base)
{
	return strncmp(base, "virtio", 6) == 0 && base[6] && strspn(base + 6, "0123456789") == strlen(base + 6);
}

static bool name_scsi(const char *base)
{
	unsigned int h, c, t, l;
	char tail;

	return sscanf(base, "%u:%u:%u:%u%c", &h, &c, &t, &l, &tail) == 4;
}

static const struct rebuilder {
	const char *bus;
	const char *subsystem;
	const char *needs[3]; /* attributes that identify it without the link */
	bool (*name_ok)(const char *base);
	int (*build)(const struct sysdev *sd, struct modalias_dev *dev);
} rebuilders[] = {
	{ "usb", "usb", { "bInterfaceClass", "bInterfaceNumber", "../idVendor" }, NULL, rebuild_usb_interface },
	{ "pci", "pci", { "subsystem_vendor", "subsystem_device", "class" }, NULL, rebuild_pci },
	{ "input", "input", { "id/bustype", "capabilities/ev", NULL }, NULL, rebuild_input },
	{ "serio", "serio", { "id/type", "id/proto", "id/extra" }, NULL, rebuild_serio },
	{ "virtio", "virtio", { "vendor", "device", NULL }, name_virtio, rebuild_virtio },
	{ "scsi", "scsi", { "type", NULL, NULL }, name_scsi, rebuild_scsi },
};

/* Rebuilds the modalias from the id attributes; -ENODATA when the device
 * is of no bus that has them. */
int sysfs_rebuild(struct modalias_ctx *ctx, const char *dir, struct modalias_dev **ret)
{
	const struct sysdev sd = { .ctx = ctx, .dir = (char *)dir };
	char *subsystem = sys_subsystem(&sd);

	for (size_t i = 0; i < ARRAY_SIZE(rebuilders); i++) {
		const struct rebuilder *rb = &rebuilders[i];
		struct modalias_dev *dev;
		bool match;
		int r;

		if (subsystem) {
			match = strcmp(subsystem, rb->subsystem) == 0;
			/* usb devices (not interfaces) have no modalias */
			if (match && strcmp(rb->bus, "usb") == 0)
				match = sys_has(&sd, "bInterfaceClass");
		} else {
			const char *base = strrchr(dir, '/');
			match = !rb->name_ok || rb->name_ok(base ? base + 1 : dir);
			for (size_t k = 0; match && k < ARRAY_SIZE(rb->needs) && rb->needs[k]; k++)
				match = sys_has(&sd, rb->needs[k]);
		}
		if (!match)
			continue;
		free(subsystem);
		if ((r = new_bus_dev(&sd, rb->bus, &dev)) < 0)
			return r;
		if ((r = rb->build(&sd, dev)) < 0) {
			modalias_dev_unref(dev);
			return r == -ENOENT ? -ENODATA : r;
		}
		*ret = dev;
		return 0;
	}
	free(subsystem);
	return -ENODATA;
}

static char *uevent_modalias(char *uevent)
{
	for (char *line = uevent; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strncmp(line, "MODALIAS=", 9) == 0)
			return line + 9;
		line = nl ? nl + 1 : NULL;
	}
	return NULL;
}

static int devpath_ok(struct modalias_ctx *ctx, const char *devpath)
{
	if (!devpath_is_safe(devpath)) {
		err(ctx, "'%.*s' is not a device path below the sysfs root\n", LOG_ECHO(devpath ? devpath : "(null)"));
		return -EINVAL;
	}
	return 0;
}

/* walking: a device directory that is gone is no news (the walk listed
 * it a moment ago) */
static int dev_from_sysfs(struct modalias_ctx *ctx, const char *devpath, bool walking,
			  struct modalias_dev **ret)
{
	struct sysdev sd = { .ctx = ctx };
	struct strbuf sb;
	struct stat st;
	char *text = NULL;
	int r;

	if (!ctx || !ret)
		return -EINVAL;
	if ((r = devpath_ok(ctx, devpath)) < 0)
		return r;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s%s", modalias_ctx_get_sysfs_root(ctx), devpath);
	if ((r = strbuf_steal(&sb, &sd.dir)) < 0)
		return r;
	r = stat(sd.dir, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOENT;
	if (r < 0) {
		if (!walking || r != -ENOENT)
			err(ctx, "%s: no such device directory\n", sd.dir);
		free(sd.dir);
		return r;
	}
	r = sys_read(&sd, "modalias", &text);
	if (r == 0) {
		r = modalias_parse(ctx, text, ret);
		if (r < 0)
			err(ctx, "%s/modalias does not parse\n", sd.dir);
		goto out;
	}
	if (r != -ENOENT)
		goto out;
	r = sys_read(&sd, "uevent", &text);
	if (r == 0) {
		const char *m = uevent_modalias(text);
		if (m) {
			r = modalias_parse(ctx, m, ret);
			if (r < 0)
				err(ctx, "%s/uevent: MODALIAS does not parse\n", sd.dir);
			goto out;
		}
	} else if (r != -ENOENT) {
		goto out;
	}
	r = sysfs_rebuild(ctx, sd.dir, ret);
out:
	free(text);
	free(sd.dir);
	return r;
}

MODALIAS_EXPORT int modalias_dev_new_from_sysfs(struct modalias_ctx *ctx, const char *devpath,
						struct modalias_dev **ret)
{
	return dev_from_sysfs(ctx, devpath, false, ret);
}

/* ---- the walk --------------------------------------------------------- */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct walk {
	struct modalias_ctx *ctx;
	modalias_sysfs_fn fn;
	void *data;
	struct strbuf path; /* the devpath */
};

static int walk_dir(struct walk *w, unsigned int depth)
{
	char **names = NULL;
	size_t n = 0, cap = 0, len = w->path.len;
	struct strbuf full;
	struct dirent *de;
	DIR *d;
	int r = 0;

	strbuf_init(&full);
	strbuf_printf(&full, "%s%s", modalias_ctx_get_sysfs_root(w->ctx), w->path.buf);
	if (full.oom) {
		strbuf_release(&full);
		return -ENOMEM;
	}
	d = opendir(full.buf);
	if (!d) {
		r = -errno;
		if (depth == 0)
			err(w->ctx, "cannot read %s: %s\n", full.buf, strerror(-r));
		strbuf_release(&full);
		/* a device that went away while we walked is no error */
		return depth == 0 ? r : 0;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' && (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof(*nn));
			if (!nn) {
				r = -ENOMEM;
				break;
			}
			names = nn;
		}
		if (!(names[n] = strdup(de->d_name))) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	strbuf_release(&full);
	if (r == 0 && n > 1)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct modalias_dev *dev = NULL;
		struct sysdev sd;

		w->path.len = len;
		strbuf_putc(&w->path, '/');
		strbuf_puts(&w->path, names[i]);
		if (w->path.oom) {
			r = -ENOMEM;
			break;
		}
		strbuf_init(&full);
		strbuf_printf(&full, "%s%s", modalias_ctx_get_sysfs_root(w->ctx), w->path.buf);
		sd.ctx = w->ctx;
		sd.dir = full.buf;
		if (!full.oom && sys_has(&sd, "uevent")) {
			int e = dev_from_sysfs(w->ctx, w->path.buf, true, &dev);
			/* listed, then gone before it was read: no error either */
			if ((e == -ENOENT || e == -ENODEV) && dir_gone(full.buf))
				dbg(w->ctx, "%s: went away\n", full.buf);
			else if (e != -ENODATA)
				r = w->fn(w->data, w->path.buf, e < 0 ? NULL : dev, e < 0 ? e : 0);
			modalias_dev_unref(dev);
		}
		strbuf_release(&full);
		if (r == 0 && depth < 64)
			r = walk_dir(w, depth + 1);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	w->path.len = len;
	if (w->path.buf)
		w->path.buf[len] = '\0';
	return r;
}

MODALIAS_EXPORT int modalias_sysfs_foreach(struct modalias_ctx *ctx, modalias_sysfs_fn fn, void *data)
{
	struct walk w = { .ctx = ctx, .fn = fn, .data = data };
	int r;

	if (!ctx || !fn)
		return -EINVAL;
	strbuf_init(&w.path);
	strbuf_puts(&w.path, "/devices");
	if (w.path.oom)
		return -ENOMEM;
	r = walk_dir(&w, 0);
	strbuf_release(&w.path);
	return r;
}
