/*
 * libmodalias - the legacy hotplug environment: what hotplug-ng's module_*
 * agents read (PRODUCT, TYPE, INTERFACE, PCI_ID, …), turned into today's
 * kernel modalias
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libmodalias-private.h"

struct env {
	struct modalias_ctx *ctx;
	modalias_getenv_fn fn;
	void *data;
};

static const char *env_get(const struct env *e, const char *name)
{
	return e->fn(e->data, name);
}

/* Some of a family of variables but not all: a broken event. */
static int env_missing(const struct env *e, const char *subsystem, const char *name)
{
	err(e->ctx, "%.*s event: variable %s is not set\n", LOG_ECHO(subsystem), name);
	return -ENOENT;
}

/* None of the family: the event is not of a device with a modalias (most
 * events are not: partitions, network interfaces, input event nodes…),
 * which is no error. */
static int env_absent(const struct env *e, const char *subsystem, const char *name)
{
	info(e->ctx, "%.*s event: variable %s is not set: no device with a modalias\n", LOG_ECHO(subsystem), name);
	return -ENOENT;
}

static int env_bad(const struct env *e, const char *name, const char *value,
		   const char *why, int r)
{
	err(e->ctx, "variable %s='%.*s' %s\n", name, LOG_ECHO(value), why);
	return r;
}

/* Splits "a/b/c" (sep '/') or "a:b" into n numbers of the given base. */
static int env_split(const struct env *e, const char *subsystem, const char *name,
		     char sep, int base, unsigned int n, uint64_t max, uint64_t *out)
{
	const char *value = env_get(e, name), *p;
	unsigned int i;

	if (!value)
		return env_missing(e, subsystem, name);
	/* the fields first: "80861E31" is a PCI_ID without its ':', not a
	 * number that overflows */
	for (p = value, i = 1; (p = strchr(p, sep)); p++)
		i++;
	if (i != n)
		return env_bad(e, name, value, i < n ? "has too few fields" : "has too many fields", -EINVAL);
	p = value;
	for (i = 0; i < n; i++) {
		size_t len = strcspn(p, (char[]){ sep, '\0' });
		int r = base == 16 ? parse_hex(p, len, max, &out[i]) : parse_dec(p, len, max, &out[i]);

		if (r == -ERANGE)
			return env_bad(e, name, value, "has a number that overflows its field", r);
		if (r < 0)
			return env_bad(e, name, value,
				       base == 16 ? "is not of the form HEX" : "is not of the form DEC", r);
		p += len;
		if (i + 1 < n) {
			if (*p != sep)
				return env_bad(e, name, value, "has too few fields", -EINVAL);
			p++;
		}
	}
	if (*p)
		return env_bad(e, name, value, "has too many fields", -EINVAL);
	return 0;
}

static int put_nums(struct modalias_dev *dev, unsigned int first, const uint64_t *v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		int r = dev_put_num(dev, first + i, v[i], false);
		if (r < 0)
			return r;
	}
	return 0;
}

static int new_dev(const struct env *e, const char *bus, struct modalias_dev **ret)
{
	return dev_new(e->ctx, bus_find(bus, strlen(bus)), NULL, 0, ret);
}

/* The sysfs path of the event's device: $SYSFS_ROOT$DEVPATH/attr */
static char *devpath_attr(const struct env *e, const char *attr)
{
	const char *devpath = env_get(e, "DEVPATH");
	struct strbuf sb;
	char *path;

	if (!devpath_is_safe(devpath))
		return NULL;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s%s/%s", modalias_ctx_get_sysfs_root(e->ctx), devpath, attr);
	return strbuf_steal(&sb, &path) < 0 ? NULL : path;
}

static int usb_interface_number(const struct env *e, uint64_t *num)
{
	char *path = devpath_attr(e, "bInterfaceNumber"), *text = NULL;
	const char *devpath, *base;
	unsigned int cfg, ifnum;
	char tail;

	if (path && read_text_file(path, &text, 64) == 0) {
		int r = parse_hex(text, strlen(text), 0xff, num);
		if (r < 0)
			err(e->ctx, "%s: '%s' is not a hexadecimal number\n", path, text);
		free(text);
		free(path);
		return r < 0 ? r : 1;
	}
	free(path);
	/* the kernel names interfaces BUS-PORT:CONFIG.IFNUM, IFNUM decimal */
	devpath = env_get(e, "DEVPATH");
	if (!devpath)
		return 0;
	base = strrchr(devpath, '/');
	base = base ? base + 1 : devpath;
	base = strchr(base, ':');
	if (base && sscanf(base, ":%u.%u%c", &cfg, &ifnum, &tail) == 2 && ifnum <= 0xff) {
		*num = ifnum;
		return 1;
	}
	return 0;
}

static int env_usb(const struct env *e, struct modalias_dev **ret)
{
	uint64_t product[3], type[3], intf[3], ifnum;
	struct modalias_dev *dev;
	int r;

	if (!env_get(e, "PRODUCT"))
		return env_absent(e, "usb", "PRODUCT");
	if ((r = env_split(e, "usb", "PRODUCT", '/', 16, 3, 0xffff, product)) < 0 ||
	    (r = env_split(e, "usb", "TYPE", '/', 10, 3, 0xff, type)) < 0)
		return r;
	if (env_get(e, "INTERFACE") &&
	    (r = env_split(e, "usb", "INTERFACE", '/', 10, 3, 0xff, intf)) < 0)
		return r;
	if ((r = new_dev(e, "usb", &dev)) < 0)
		return r;
	if ((r = put_nums(dev, 0, product, 3)) < 0 || (r = put_nums(dev, 3, type, 3)) < 0)
		goto out;
	if (env_get(e, "INTERFACE")) {
		if ((r = put_nums(dev, 6, intf, 3)) < 0)
			goto out;
		r = usb_interface_number(e, &ifnum);
		if (r < 0)
			goto out;
		r = r ? dev_put_num(dev, 9, ifnum, false) : dev_put_wild(dev, 9);
	} else {
		/* a device, not an interface: what its interfaces are is unknown */
		for (unsigned int f = 6; f <= 9 && r >= 0; f++)
			r = dev_put_wild(dev, f);
	}
out:
	if (r < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

static int env_pci(const struct env *e, struct modalias_dev **ret)
{
	uint64_t id[2], sub[2], cls;
	struct modalias_dev *dev;
	int r;

	if (!env_get(e, "PCI_ID"))
		return env_absent(e, "pci", "PCI_ID");
	if ((r = env_split(e, "pci", "PCI_ID", ':', 16, 2, 0xffff, id)) < 0 ||
	    (r = env_split(e, "pci", "PCI_SUBSYS_ID", ':', 16, 2, 0xffff, sub)) < 0 ||
	    (r = env_split(e, "pci", "PCI_CLASS", ':', 16, 1, 0xffffff, &cls)) < 0)
		return r;
	if ((r = new_dev(e, "pci", &dev)) < 0)
		return r;
	if ((r = put_nums(dev, 0, id, 2)) < 0 || (r = put_nums(dev, 2, sub, 2)) < 0 ||
	    (r = dev_put_num(dev, 4, cls >> 16, false)) < 0 ||
	    (r = dev_put_num(dev, 5, (cls >> 8) & 0xff, false)) < 0 ||
	    (r = dev_put_num(dev, 6, cls & 0xff, false)) < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

static int env_simple(const struct env *e, const char *subsystem, const char *bus,
		      const char *const *vars, const uint64_t *max, unsigned int n,
		      struct modalias_dev **ret)
{
	uint64_t v[8];
	struct modalias_dev *dev;
	int r;

	if (!env_get(e, vars[0]))
		return env_absent(e, subsystem, vars[0]);
	for (unsigned int i = 0; i < n; i++)
		if ((r = env_split(e, subsystem, vars[i], ':', 16, 1, max[i], &v[i])) < 0)
			return r;
	if ((r = new_dev(e, bus, &dev)) < 0)
		return r;
	if ((r = put_nums(dev, 0, v, n)) < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

static int env_ieee1394(const struct env *e, struct modalias_dev **ret)
{
	static const char *const vars[] = { "VENDOR_ID", "MODEL_ID", "SPECIFIER_ID", "VERSION" };
	static const uint64_t max[] = { UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX };

	return env_simple(e, "ieee1394", "ieee1394", vars, max, 4, ret);
}

static int env_serio(const struct env *e, struct modalias_dev **ret)
{
	static const char *const vars[] = { "SERIO_TYPE", "SERIO_PROTO", "SERIO_ID", "SERIO_EXTRA" };
	static const uint64_t max[] = { 0xff, 0xff, 0xff, 0xff };

	return env_simple(e, "serio", "serio", vars, max, 4, ret);
}

static int env_ccw(const struct env *e, struct modalias_dev **ret)
{
	static const char *const vars[] = { "CU_TYPE", "CU_MODEL", "DEV_TYPE", "DEV_MODEL" };
	static const uint64_t max[] = { 0xffff, 0xff, 0xffff, 0xff };

	return env_simple(e, "ccw", "ccw", vars, max, 4, ret);
}

static int env_sdio(const struct env *e, struct modalias_dev **ret)
{
	uint64_t cls, id[2];
	struct modalias_dev *dev;
	int r;

	if (!env_get(e, "SDIO_CLASS"))
		return env_absent(e, "sdio", "SDIO_CLASS");
	if ((r = env_split(e, "sdio", "SDIO_CLASS", ':', 16, 1, 0xff, &cls)) < 0 ||
	    (r = env_split(e, "sdio", "SDIO_ID", ':', 16, 2, 0xffff, id)) < 0)
		return r;
	if ((r = new_dev(e, "sdio", &dev)) < 0)
		return r;
	if ((r = dev_put_num(dev, 0, cls, false)) < 0 || (r = put_nums(dev, 1, id, 2)) < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

static int env_scsi(const struct env *e, struct modalias_dev **ret)
{
	const char *devtype = env_get(e, "DEVTYPE");
	char *path, *text = NULL;
	struct modalias_dev *dev;
	uint64_t type;
	int r;

	if (!env_get(e, "DEVPATH"))
		return env_missing(e, "scsi", "DEVPATH");
	/* hosts and targets are scsi events too; only a device has a type */
	if (devtype && strcmp(devtype, "scsi_device") != 0) {
		info(e->ctx, "scsi event: DEVTYPE=%.*s is not a scsi_device: no modalias\n", LOG_ECHO(devtype));
		return -ENOENT;
	}
	path = devpath_attr(e, "type");
	if (!path) {
		err(e->ctx, "variable DEVPATH='%.*s' is not a device path below the sysfs root\n",
		    LOG_ECHO(env_get(e, "DEVPATH")));
		return -EINVAL;
	}
	r = read_text_file(path, &text, 64);
	if (r == -ENOENT) {
		/* an older kernel's host or target event (no DEVTYPE yet) */
		info(e->ctx, "scsi event: no %s: not a SCSI device\n", path);
		free(path);
		return r;
	}
	if (r < 0) {
		err(e->ctx, "scsi event: cannot read %s: %s\n", path, strerror(-r));
		free(path);
		return r;
	}
	r = parse_dec(text, strlen(text), 0xff, &type);
	if (r < 0)
		err(e->ctx, "%s: '%s' is not a SCSI device type\n", path, text);
	free(text);
	free(path);
	if (r < 0)
		return r;
	if ((r = new_dev(e, "scsi", &dev)) < 0)
		return r;
	if ((r = dev_put_num(dev, 0, type, false)) < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

/* A word of more than 8 digits can only come from a 64-bit kernel; else
 * the kernel is taken to have this process's word size. */
static unsigned int bitmap_word_bits(const struct env *e, const char *const *maps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = env_get(e, maps[i]);
		while (v && *v) {
			size_t len;
			v += strspn(v, " ");
			len = strcspn(v, " ");
			if (len > 8)
				return 64;
			v += len;
		}
	}
	return ctx_get_long_bits(e->ctx);
}

static int env_input(const struct env *e, struct modalias_dev **ret)
{
	static const char *const maps[] = { "EV", "KEY", "REL", "ABS", "MSC", "LED", "SND", "FF", "SW" };
	uint64_t product[4];
	struct modalias_dev *dev;
	int r;

	if (!env_get(e, "PRODUCT"))
		return env_absent(e, "input", "PRODUCT");
	if ((r = env_split(e, "input", "PRODUCT", '/', 16, 4, 0xffff, product)) < 0)
		return r;
	if ((r = new_dev(e, "input", &dev)) < 0)
		return r;
	r = put_nums(dev, 0, product, 4);
	for (unsigned int i = 0; r == 0 && i < ARRAY_SIZE(maps); i++) {
		const char *v = env_get(e, maps[i]);
		if (!v)
			continue;
		r = dev_add_bitmap(dev, 4 + i, v, bitmap_word_bits(e, maps, ARRAY_SIZE(maps)),
				   i == 1 ? 0x71 /* KEY_MIN_INTERESTING */ : 0);
		if (r < 0)
			r = env_bad(e, maps[i], v, r == -ERANGE ? "has a word wider than a long" :
						   "is not a bitmap of hexadecimal words", r);
	}
	if (r < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

static int env_of(const struct env *e, struct modalias_dev **ret)
{
	const char *name = env_get(e, "OF_NAME"), *type = env_get(e, "OF_TYPE");
	const char *ncompat = env_get(e, "OF_COMPATIBLE_N");
	struct modalias_dev *dev;
	uint64_t n = 0;
	int r;

	if (!name)
		return env_missing(e, "of", "OF_NAME");
	if (ncompat && (r = parse_dec(ncompat, strlen(ncompat), 1024, &n)) < 0)
		return env_bad(e, "OF_COMPATIBLE_N", ncompat, "is not a small decimal number", r);
	if ((r = new_dev(e, "of", &dev)) < 0)
		return r;
	r = dev_put_text(dev, 0, name, strlen(name), false);
	if (r == 0 && type)
		r = dev_put_text(dev, 1, type, strlen(type), false);
	for (uint64_t i = 0; r == 0 && i < n; i++) {
		char var[40];
		const char *c;

		snprintf(var, sizeof(var), "OF_COMPATIBLE_%llu", (unsigned long long)i);
		c = env_get(e, var);
		r = c ? dev_put_text(dev, 2, c, strlen(c), true) : env_missing(e, "of", var);
	}
	if (r < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

static const struct {
	const char *subsystem;
	int (*build)(const struct env *e, struct modalias_dev **ret);
} env_builders[] = {
	{ "usb", env_usb },       { "pci", env_pci },     { "ieee1394", env_ieee1394 },
	{ "firewire", env_ieee1394 }, { "scsi", env_scsi }, { "input", env_input },
	{ "serio", env_serio },   { "sdio", env_sdio },   { "ccw", env_ccw },
};

MODALIAS_EXPORT int modalias_dev_new_from_env_fn(struct modalias_ctx *ctx, const char *subsystem,
						 modalias_getenv_fn getenv_fn, void *data,
						 struct modalias_dev **ret)
{
	const struct env e = { .ctx = ctx, .fn = getenv_fn, .data = data };
	const char *modalias;

	if (!ctx || !getenv_fn || !ret)
		return -EINVAL;
	modalias = env_get(&e, "MODALIAS");
	if (modalias)
		return modalias_parse(ctx, modalias, ret);
	if (!subsystem)
		subsystem = env_get(&e, "SUBSYSTEM");
	if (!subsystem) {
		err(ctx, "event has neither MODALIAS nor SUBSYSTEM\n");
		return -ENOENT;
	}
	for (size_t i = 0; i < ARRAY_SIZE(env_builders); i++)
		if (strcmp(subsystem, env_builders[i].subsystem) == 0)
			return env_builders[i].build(&e, ret);
	if (env_get(&e, "OF_NAME"))
		return env_of(&e, ret);
	info(ctx, "%.*s event: no MODALIAS, and no legacy variables known for this subsystem\n",
	     LOG_ECHO(subsystem));
	return -ENOENT;
}

static const char *envp_lookup(void *data, const char *name)
{
	const char *const *envp = data;
	size_t len = strlen(name);

	for (; *envp; envp++)
		if (strncmp(*envp, name, len) == 0 && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

MODALIAS_EXPORT int modalias_dev_new_from_env(struct modalias_ctx *ctx, const char *subsystem,
					      const char *const *envp, struct modalias_dev **ret)
{
	if (!envp)
		return -EINVAL;
	return modalias_dev_new_from_env_fn(ctx, subsystem, envp_lookup, (void *)envp, ret);
}
