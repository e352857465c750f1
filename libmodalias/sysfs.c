/*
 * libmodalias - devices from sysfs: the modalias attribute, the uevent
 * file, or the id attributes; and the walk over every device (coldplug).
 * An id attribute is described by the field it fills (bus-fields.h's
 * index) and read within that field's range; no field position or width
 * is written here.
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

#include "bus-private.h"
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

/* An id attribute: a hex number, the value of one field of the bus, at most
 * the field's largest number (or max, where the attribute is narrower). */
struct sys_attr {
	const char *name;
	unsigned int field; /* bus-fields.h's index */
	uint64_t max;       /* 0: the field's own */
};

static int sys_hex_fields(const struct sysdev *sd, struct modalias_dev *dev,
			  const struct sys_attr *attrs, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		const struct sys_attr *a = &attrs[i];
		uint64_t v;
		int r = sys_hex(sd, a->name, a->max ? a->max : field_max(&dev->bus->fields[a->field]), &v);
		if (r < 0 || (r = dev_put_num(dev, a->field, v, false)) < 0)
			return r;
	}
	return 0;
}

/* a usb interface: the device's ids in its parent directory */
static const struct sys_attr usb_attrs[] = {
	{ "../idVendor", USB_VENDOR },
	{ "../idProduct", USB_PRODUCT },
	{ "../bcdDevice", USB_BCD_DEVICE },
	{ "../bDeviceClass", USB_DEV_CLASS },
	{ "../bDeviceSubClass", USB_DEV_SUBCLASS },
	{ "../bDeviceProtocol", USB_DEV_PROTOCOL },
	{ "bInterfaceClass", USB_IF_CLASS },
	{ "bInterfaceSubClass", USB_IF_SUBCLASS },
	{ "bInterfaceProtocol", USB_IF_PROTOCOL },
	{ "bInterfaceNumber", USB_IF_NUMBER },
};

static const struct sys_attr pci_attrs[] = {
	{ "vendor", PCI_VENDOR, PCI_ID_MAX },
	{ "device", PCI_DEVICE, PCI_ID_MAX },
	{ "subsystem_vendor", PCI_SUBVENDOR, PCI_ID_MAX },
	{ "subsystem_device", PCI_SUBDEVICE, PCI_ID_MAX },
};

static int rebuild_pci_class(const struct sysdev *sd, struct modalias_dev *dev)
{
	uint64_t cls;
	int r = sys_hex(sd, "class", PCI_CLASS_MAX, &cls);

	return r < 0 ? r : dev_put_pci_class(dev, cls);
}

static const struct sys_attr input_attrs[] = {
	{ "id/bustype", INPUT_BUSTYPE },
	{ "id/vendor", INPUT_VENDOR },
	{ "id/product", INPUT_PRODUCT },
	{ "id/version", INPUT_VERSION },
};

/* capabilities/ev, capabilities/key, …: the bitmap fields by name */
static int rebuild_input_bitmaps(const struct sysdev *sd, struct modalias_dev *dev)
{
	int r = 0;

	for (unsigned int f = INPUT_FIRST_BITMAP; r == 0 && f <= INPUT_LAST_BITMAP; f++) {
		char attr[32], *words;

		snprintf(attr, sizeof(attr), "capabilities/%s", dev->bus->fields[f].name);
		r = sys_read(sd, attr, &words);
		if (r == -ENOENT) {
			r = 0;
			continue;
		}
		if (r < 0)
			break;
		r = dev_add_bitmap(dev, f, words, ctx_get_long_bits(sd->ctx));
		if (r < 0)
			err(sd->ctx, "%s/%s: '%.*s' is not a bitmap\n", sd->dir, attr, LOG_ECHO(words));
		free(words);
	}
	return r;
}

static const struct sys_attr serio_attrs[] = {
	{ "id/type", SERIO_TYPE },
	{ "id/proto", SERIO_PROTO },
	{ "id/id", SERIO_ID },
	{ "id/extra", SERIO_EXTRA },
};

static const struct sys_attr virtio_attrs[] = {
	{ "device", VIRTIO_DEVICE },
	{ "vendor", VIRTIO_VENDOR },
};

/* "type" is decimal */
static int rebuild_scsi_type(const struct sysdev *sd, struct modalias_dev *dev)
{
	char *text;
	uint64_t type;
	int r = sys_read(sd, "type", &text);

	if (r < 0)
		return r;
	r = parse_dec(text, strlen(text), field_max(&dev->bus->fields[SCSI_TYPE]), &type);
	if (r < 0)
		err(sd->ctx, "%s/type: '%s' is not a SCSI device type\n", sd->dir, text);
	free(text);
	return r < 0 ? r : dev_put_num(dev, SCSI_TYPE, type, false);
}

/* The subsystem: the basename of the "subsystem" link, when there is one. */
static char *sys_subsystem(const struct sysdev *sd)
{
	char path[4096];

	if ((size_t)snprintf(path, sizeof(path), "%s/subsystem", sd->dir) >= sizeof(path))
		return NULL;
	return sysfs_link_name(path);
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

#define ATTRS(a) .attrs = (a), .n_attrs = ARRAY_SIZE(a)
static const struct rebuilder {
	const char *bus;
	const char *subsystem;
	const char *needs[3]; /* attributes that identify it without the link */
	bool (*name_ok)(const char *base);
	const struct sys_attr *attrs; /* the id attributes, read first */
	unsigned int n_attrs;
	int (*build)(const struct sysdev *sd, struct modalias_dev *dev); /* then this */
} rebuilders[] = {
	{ "usb", "usb", { "bInterfaceClass", "bInterfaceNumber", "../idVendor" }, NULL, ATTRS(usb_attrs) },
	{ "pci", "pci", { "subsystem_vendor", "subsystem_device", "class" }, NULL, ATTRS(pci_attrs),
	  rebuild_pci_class },
	{ "input", "input", { "id/bustype", "capabilities/ev", NULL }, NULL, ATTRS(input_attrs),
	  rebuild_input_bitmaps },
	{ "serio", "serio", { "id/type", "id/proto", "id/extra" }, NULL, ATTRS(serio_attrs) },
	{ "virtio", "virtio", { "vendor", "device", NULL }, name_virtio, ATTRS(virtio_attrs) },
	{ "scsi", "scsi", { "type", NULL, NULL }, name_scsi, .build = rebuild_scsi_type },
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
		if ((r = dev_new(ctx, bus_find(rb->bus, strlen(rb->bus)), NULL, 0, &dev)) < 0)
			return r;
		r = sys_hex_fields(&sd, dev, rb->attrs, rb->n_attrs);
		if (r == 0 && rb->build)
			r = rb->build(&sd, dev);
		if (r < 0) {
			modalias_dev_unref(dev);
			return r == -ENOENT ? -ENODATA : r;
		}
		*ret = dev;
		return 0;
	}
	free(subsystem);
	return -ENODATA;
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
		const char *m = uevent_value(text, "MODALIAS");
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
