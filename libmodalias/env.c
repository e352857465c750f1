/*
 * libmodalias - the legacy hotplug environment: what hotplug-ng's module_*
 * agents read (PRODUCT, TYPE, INTERFACE, PCI_ID, …), turned into today's
 * kernel modalias.  Each variable is described by the fields it fills
 * (bus-fields.h's indexes) and checked against them; a bus's fields and
 * their widths are never written here again, nor a field's position.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus-private.h"
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

/* A legacy variable: n numbers (base 16 or 10) separated by sep, each the
 * value of one field of the bus, at most that field's largest number (or
 * max, where the variable's numbers are narrower than the field). */
#define ENV_VAR_NUMBERS 4
struct env_var {
	const char *name;
	char sep;
	unsigned int base;
	unsigned int n;
	unsigned int field[ENV_VAR_NUMBERS]; /* bus-fields.h's indexes, in the variable's order */
	uint64_t max;                         /* 0: each field's own */
};

/* Reads the variable's numbers into out[0 … var->n - 1]. */
static int env_split(const struct env *e, const char *subsystem, const struct bus_desc *bus,
		     const struct env_var *var, uint64_t *out)
{
	const char *name = var->name, *value = env_get(e, name), *p;
	const char sep = var->sep;
	const unsigned int n = var->n;
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
		uint64_t max = var->max ? var->max : field_max(&bus->fields[var->field[i]]);
		int r = var->base == 16 ? parse_hex(p, len, max, &out[i]) : parse_dec(p, len, max, &out[i]);

		if (r == -ERANGE)
			return env_bad(e, name, value, "has a number that overflows its field", r);
		if (r < 0)
			return env_bad(e, name, value,
				       var->base == 16 ? "is not of the form HEX" : "is not of the form DEC", r);
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

/* Sets the fields of a variable read by env_split(). */
static int env_put(struct modalias_dev *dev, const struct env_var *var, const uint64_t *v)
{
	for (unsigned int i = 0; i < var->n; i++) {
		int r = dev_put_num(dev, var->field[i], v[i], false);
		if (r < 0)
			return r;
	}
	return 0;
}

static const struct bus_desc *env_bus(const char *bus)
{
	return bus_find(bus, strlen(bus));
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

static const struct env_var usb_product = { "PRODUCT", '/', 16, 3,
					     { USB_VENDOR, USB_PRODUCT, USB_BCD_DEVICE } };
static const struct env_var usb_type = { "TYPE", '/', 10, 3,
					  { USB_DEV_CLASS, USB_DEV_SUBCLASS, USB_DEV_PROTOCOL } };
static const struct env_var usb_interface = { "INTERFACE", '/', 10, 3,
					       { USB_IF_CLASS, USB_IF_SUBCLASS, USB_IF_PROTOCOL } };

static int env_usb(const struct env *e, struct modalias_dev **ret)
{
	const struct bus_desc *bus = env_bus("usb");
	const bool intf = env_get(e, usb_interface.name) != NULL;
	uint64_t product[ENV_VAR_NUMBERS], type[ENV_VAR_NUMBERS], ifv[ENV_VAR_NUMBERS], ifnum;
	struct modalias_dev *dev;
	int r;

	if (!env_get(e, usb_product.name))
		return env_absent(e, "usb", usb_product.name);
	if ((r = env_split(e, "usb", bus, &usb_product, product)) < 0 ||
	    (r = env_split(e, "usb", bus, &usb_type, type)) < 0)
		return r;
	if (intf && (r = env_split(e, "usb", bus, &usb_interface, ifv)) < 0)
		return r;
	if ((r = dev_new(e->ctx, bus, NULL, 0, &dev)) < 0)
		return r;
	if ((r = env_put(dev, &usb_product, product)) < 0 || (r = env_put(dev, &usb_type, type)) < 0)
		goto out;
	if (intf) {
		if ((r = env_put(dev, &usb_interface, ifv)) < 0)
			goto out;
		r = usb_interface_number(e, &ifnum);
		if (r < 0)
			goto out;
		r = r ? dev_put_num(dev, USB_IF_NUMBER, ifnum, false) : dev_put_wild(dev, USB_IF_NUMBER);
	} else {
		/* a device, not an interface: what its interfaces are is unknown */
		for (unsigned int i = 0; i < usb_interface.n && r >= 0; i++)
			r = dev_put_wild(dev, usb_interface.field[i]);
		if (r >= 0)
			r = dev_put_wild(dev, USB_IF_NUMBER);
	}
out:
	if (r < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

static const struct env_var pci_id = { "PCI_ID", ':', 16, 2, { PCI_VENDOR, PCI_DEVICE }, PCI_ID_MAX };
static const struct env_var pci_subsys_id = { "PCI_SUBSYS_ID", ':', 16, 2,
					       { PCI_SUBVENDOR, PCI_SUBDEVICE }, PCI_ID_MAX };
static const struct env_var pci_class = { "PCI_CLASS", ':', 16, 1, { PCI_CLASS }, PCI_CLASS_MAX };

static int env_pci(const struct env *e, struct modalias_dev **ret)
{
	const struct bus_desc *bus = env_bus("pci");
	uint64_t id[ENV_VAR_NUMBERS], sub[ENV_VAR_NUMBERS], cls;
	struct modalias_dev *dev;
	int r;

	if (!env_get(e, pci_id.name))
		return env_absent(e, "pci", pci_id.name);
	if ((r = env_split(e, "pci", bus, &pci_id, id)) < 0 ||
	    (r = env_split(e, "pci", bus, &pci_subsys_id, sub)) < 0 ||
	    (r = env_split(e, "pci", bus, &pci_class, &cls)) < 0)
		return r;
	if ((r = dev_new(e->ctx, bus, NULL, 0, &dev)) < 0)
		return r;
	if ((r = env_put(dev, &pci_id, id)) < 0 || (r = env_put(dev, &pci_subsys_id, sub)) < 0 ||
	    (r = dev_put_pci_class(dev, cls)) < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

/* A bus whose variables are all set, or none (the first one unset: the
 * event is of no device of the bus); each number goes to its field. */
struct env_bus_vars {
	const char *bus;
	unsigned int n;
	struct env_var var[4];
};

static int env_vars(const struct env *e, const struct env_bus_vars *bv, struct modalias_dev **ret)
{
	const struct bus_desc *bus = env_bus(bv->bus);
	uint64_t v[ARRAY_SIZE(bv->var)][ENV_VAR_NUMBERS];
	struct modalias_dev *dev;
	int r;

	if (!env_get(e, bv->var[0].name))
		return env_absent(e, bv->bus, bv->var[0].name);
	for (unsigned int i = 0; i < bv->n; i++)
		if ((r = env_split(e, bv->bus, bus, &bv->var[i], v[i])) < 0)
			return r;
	if ((r = dev_new(e->ctx, bus, NULL, 0, &dev)) < 0)
		return r;
	for (unsigned int i = 0; i < bv->n; i++)
		if ((r = env_put(dev, &bv->var[i], v[i])) < 0) {
			modalias_dev_unref(dev);
			return r;
		}
	*ret = dev;
	return 0;
}

static const struct env_bus_vars ieee1394_vars = { "ieee1394", 4, {
	{ "VENDOR_ID", ':', 16, 1, { IEEE1394_VENDOR_ID } },
	{ "MODEL_ID", ':', 16, 1, { IEEE1394_MODEL_ID } },
	{ "SPECIFIER_ID", ':', 16, 1, { IEEE1394_SPECIFIER_ID } },
	{ "VERSION", ':', 16, 1, { IEEE1394_VERSION } },
} };
static const struct env_bus_vars serio_vars = { "serio", 4, {
	{ "SERIO_TYPE", ':', 16, 1, { SERIO_TYPE } },
	{ "SERIO_PROTO", ':', 16, 1, { SERIO_PROTO } },
	{ "SERIO_ID", ':', 16, 1, { SERIO_ID } },
	{ "SERIO_EXTRA", ':', 16, 1, { SERIO_EXTRA } },
} };
static const struct env_bus_vars ccw_vars = { "ccw", 4, {
	{ "CU_TYPE", ':', 16, 1, { CCW_CU_TYPE } },
	{ "CU_MODEL", ':', 16, 1, { CCW_CU_MODEL } },
	{ "DEV_TYPE", ':', 16, 1, { CCW_DEV_TYPE } },
	{ "DEV_MODEL", ':', 16, 1, { CCW_DEV_MODEL } },
} };
static const struct env_bus_vars sdio_vars = { "sdio", 2, {
	{ "SDIO_CLASS", ':', 16, 1, { SDIO_CLASS } },
	{ "SDIO_ID", ':', 16, 2, { SDIO_VENDOR, SDIO_DEVICE } },
} };

static int env_scsi(const struct env *e, struct modalias_dev **ret)
{
	const struct bus_desc *bus = env_bus("scsi");
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
	r = parse_dec(text, strlen(text), field_max(&bus->fields[SCSI_TYPE]), &type);
	if (r < 0)
		err(e->ctx, "%s: '%s' is not a SCSI device type\n", path, text);
	free(text);
	free(path);
	if (r < 0)
		return r;
	if ((r = dev_new(e->ctx, bus, NULL, 0, &dev)) < 0)
		return r;
	if ((r = dev_put_num(dev, SCSI_TYPE, type, false)) < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

/* The uevent variable of an input capability bitmap: its field's name
 * upper-cased (EV, KEY, …), as the kernel's input_dev_uevent() writes it. */
static const char *bitmap_var(const struct bus_desc *bus, unsigned int field, char *buf, size_t size)
{
	const char *name = bus->fields[field].name;
	size_t i;

	for (i = 0; name[i] && i + 1 < size; i++)
		buf[i] = (char)toupper((unsigned char)name[i]);
	buf[i] = '\0';
	return buf;
}

/* A word of more than 8 digits can only come from a 64-bit kernel; else
 * the context's word size when given (modalias_ctx_set_word_bits()), else
 * this process's, said when it matters (a bitmap of several words). */
static unsigned int bitmap_word_bits(const struct env *e, const struct bus_desc *bus)
{
	int given = modalias_ctx_get_word_bits(e->ctx);
	char several[16] = "";

	for (unsigned int f = INPUT_FIRST_BITMAP; f <= INPUT_LAST_BITMAP; f++) {
		char var[16];
		const char *name = bitmap_var(bus, f, var, sizeof(var)), *v = env_get(e, name);
		unsigned int words = 0;

		while (v && *v) {
			size_t len;
			v += strspn(v, " ");
			len = strcspn(v, " ");
			if (len > 8) {
				if (given == 32)
					err(e->ctx, "%s: a word of %zu digits: read as 64-bit words, not the 32 given\n",
					    name, len);
				return 64;
			}
			words += len > 0;
			v += len;
		}
		if (words > 1 && !several[0])
			snprintf(several, sizeof(several), "%s", name);
	}
	if (given > 0)
		return (unsigned int)given;
	if (several[0])
		info(e->ctx, "variable %s: words of 8 digits at most do not tell their size: read as %u-bit words (this "
			     "machine's); set the word size if the event is from a kernel of another\n",
		     several, ctx_get_long_bits(e->ctx));
	return ctx_get_long_bits(e->ctx);
}

static const struct env_var input_product = { "PRODUCT", '/', 16, 4,
					      { INPUT_BUSTYPE, INPUT_VENDOR, INPUT_PRODUCT, INPUT_VERSION } };

static int env_input(const struct env *e, struct modalias_dev **ret)
{
	const struct bus_desc *bus = env_bus("input");
	uint64_t product[ENV_VAR_NUMBERS];
	unsigned int word_bits;
	struct modalias_dev *dev;
	int r;

	if (!env_get(e, input_product.name))
		return env_absent(e, "input", input_product.name);
	if ((r = env_split(e, "input", bus, &input_product, product)) < 0)
		return r;
	if ((r = dev_new(e->ctx, bus, NULL, 0, &dev)) < 0)
		return r;
	r = env_put(dev, &input_product, product);
	word_bits = bitmap_word_bits(e, bus);
	for (unsigned int f = INPUT_FIRST_BITMAP; r == 0 && f <= INPUT_LAST_BITMAP; f++) {
		char var[16];
		const char *v = env_get(e, bitmap_var(bus, f, var, sizeof(var)));

		if (!v)
			continue;
		r = dev_add_bitmap(dev, f, v, word_bits);
		if (r < 0)
			r = env_bad(e, var, v, r == -ERANGE ? "has a word wider than a long" :
					       "is not a bitmap of hexadecimal words", r);
	}
	if (r < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

/* VALUE of the variable VAR as FIELD of DEV: refused, named, when it has
 * a control (a newline in OF_NAME would forge a line of the modalias) */
static int env_of_text(const struct env *e, struct modalias_dev *dev, const char *var, unsigned int field,
		       const char *value, bool append)
{
	int r = dev_put_text(dev, field, value, strlen(value), append);

	return r == -EINVAL ? env_bad(e, var, value, "has a control character", r) : r;
}

/* The OF variables, which drivers/base/core.c dev_uevent() adds to the
 * event of every device with a devicetree node (drivers/of/device.c
 * of_device_uevent()): OF_TYPE only when the node has a device_type, where
 * the modalias has "T(null)" (drivers/of/module.c of_modalias() prints
 * of_node_get_device_type()'s NULL with %s: of_format()'s default). */
static int env_of(const struct env *e, const char *subsystem, struct modalias_dev **ret)
{
	const char *name = env_get(e, "OF_NAME"), *type = env_get(e, "OF_TYPE");
	const char *ncompat = env_get(e, "OF_COMPATIBLE_N");
	struct modalias_dev *dev;
	uint64_t n = 0;
	int r;

	if (!name)
		return strcmp(subsystem, "of") == 0 ? env_missing(e, subsystem, "OF_NAME") :
						      env_absent(e, subsystem, "OF_NAME");
	if (ncompat && (r = parse_dec(ncompat, strlen(ncompat), 1024, &n)) < 0)
		return env_bad(e, "OF_COMPATIBLE_N", ncompat, "is not a small decimal number", r);
	if ((r = dev_new(e->ctx, env_bus("of"), NULL, 0, &dev)) < 0)
		return r;
	r = env_of_text(e, dev, "OF_NAME", OF_NAME, name, false);
	if (r == 0 && type)
		r = env_of_text(e, dev, "OF_TYPE", OF_TYPE, type, false);
	for (uint64_t i = 0; r == 0 && i < n; i++) {
		char var[40];
		const char *c;

		snprintf(var, sizeof(var), "OF_COMPATIBLE_%llu", (unsigned long long)i);
		c = env_get(e, var);
		r = c ? env_of_text(e, dev, var, OF_COMPATIBLE, c, true) : env_missing(e, subsystem, var);
	}
	if (r < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

/* The subsystems whose uevent writes an of: MODALIAS for a device with a
 * devicetree node, from the OF variables: those whose bus_type's uevent
 * calls of_device_uevent_modalias() (Linux 6.12: drivers/base/platform.c
 * platform_uevent(), drivers/i2c/i2c-core-base.c i2c_device_uevent() (since
 * 4.18; i2c: before), drivers/spmi/spmi.c, drivers/tty/serdev/core.c (bus
 * "serial"), drivers/net/phy/mdio_bus.c, drivers/usb/common/ulpi.c,
 * drivers/rpmsg/rpmsg_core.c, drivers/gpu/drm/drm_mipi_dsi.c,
 * arch/powerpc/platforms/pseries/ibmebus.c, drivers/macintosh/macio_asic.c),
 * 2.6's of_platform bus, and "of" asked for by name.  Every other bus writes
 * its own string though its events carry the OF variables too (spi's is
 * spi:NAME, vio's vio:T…S…, amba's amba:d…). */
static const char *const of_subsystems[] = {
	"of", "of_platform", "platform", "i2c", "spmi", "serial", "mdio_bus", "ulpi", "rpmsg",
	"mipi-dsi", "ibmebus", "macio",
};

/* The subsystems with legacy variables: a builder of their own, or the
 * variables of a bus, read by env_vars(). */
static const struct {
	const char *subsystem;
	int (*build)(const struct env *e, struct modalias_dev **ret);
	const struct env_bus_vars *vars;
} env_builders[] = {
	{ "usb", env_usb },
	{ "pci", env_pci },
	{ "ieee1394", .vars = &ieee1394_vars },
	{ "firewire", .vars = &ieee1394_vars },
	{ "scsi", env_scsi },
	{ "input", env_input },
	{ "serio", .vars = &serio_vars },
	{ "sdio", .vars = &sdio_vars },
	{ "ccw", .vars = &ccw_vars },
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
	for (size_t i = 0; i < ARRAY_SIZE(env_builders); i++) {
		if (strcmp(subsystem, env_builders[i].subsystem) != 0)
			continue;
		if (env_builders[i].build)
			return env_builders[i].build(&e, ret);
		return env_vars(&e, env_builders[i].vars, ret);
	}
	for (size_t i = 0; i < ARRAY_SIZE(of_subsystems); i++)
		if (strcmp(subsystem, of_subsystems[i]) == 0)
			return env_of(&e, subsystem, ret);
	if (env_get(&e, "OF_NAME"))
		info(ctx, "%.*s event: no MODALIAS, and its OF_ variables are not its modalias "
		     "(this bus writes its own, not of:)\n", LOG_ECHO(subsystem));
	else
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
