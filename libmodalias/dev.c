/*
 * libmodalias - the public device calls (libmodalias.h): a device made for
 * a bus or parsed from a modalias, its fields set, read and unset by name,
 * and its modalias written.  It looks buses up in buses.c's table and keeps
 * values through fields.c; neither calls back into it.  It knows no bus by
 * name: what is particular to one is in its row of the table.
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

MODALIAS_EXPORT int modalias_dev_new(struct modalias_ctx *ctx, const char *bus,
				     struct modalias_dev **ret)
{
	const struct bus_desc *b;
	struct modalias_dev *dev;
	int r;

	if (!ctx || !bus || !ret)
		return -EINVAL;
	b = bus_find(bus, strlen(bus));
	if (!b) {
		err(ctx, "unknown bus '%.*s'\n", LOG_ECHO(bus));
		return -ENOENT;
	}
	r = dev_new(ctx, b, NULL, 0, &dev);
	if (r == 0 && (r = dev_put_today(dev)) < 0)
		modalias_dev_unref(dev);
	if (r == 0)
		*ret = dev;
	return r;
}

MODALIAS_EXPORT struct modalias_dev *modalias_dev_ref(struct modalias_dev *dev)
{
	if (dev)
		REF_INC(dev->refcount);
	return dev;
}

MODALIAS_EXPORT struct modalias_dev *modalias_dev_unref(struct modalias_dev *dev)
{
	if (!dev)
		return NULL;
	if (REF_DEC(dev->refcount) > 0)
		return dev;
	dev_free(dev);
	return NULL;
}

MODALIAS_EXPORT const char *modalias_dev_get_bus(const struct modalias_dev *dev)
{
	if (!dev)
		return NULL;
	return dev_bus_name(dev);
}

/* The index of a field of the device's bus; a name the bus does not have
 * is logged the one way every front end shows it, and is -ENOENT. */
static int field_of(const struct modalias_dev *dev, const char *field)
{
	int f = field_index(dev->bus, field);

	if (f < 0)
		err(dev->ctx, "unknown field '%.*s' of bus %s\n", LOG_ECHO(field), modalias_dev_get_bus(dev));
	return f;
}

static int set_error(const struct modalias_dev *dev, const struct field_desc *fd,
		     const char *value, int r)
{
	const char *why;

	switch (r) {
	case -ERANGE:
		why = "is out of range for the field";
		break;
	case -EINVAL:
		why = fd->kind == FK_DEC ? "is not a decimal number" :
		      field_is_numeric(fd) ? "is not a hexadecimal number" :
				       "is not a valid value";
		break;
	default:
		return r;
	}
	err(dev->ctx, "%s field %s: value '%.*s' %s\n", modalias_dev_get_bus(dev),
	    fd->name, LOG_ECHO(value), why);
	return r;
}

/* A GUID set in the case its bus writes it (FF_UPPER, FF_LOWER). */
static void fold_case(const struct field_desc *fd, char *text)
{
	if (!(fd->flags & (FF_UPPER | FF_LOWER)))
		return;
	for (; *text; text++)
		*text = (char)((fd->flags & FF_UPPER) ? toupper((unsigned char)*text) :
							 tolower((unsigned char)*text));
}

static int set_one(struct modalias_dev *dev, unsigned int f, const char *value,
		   size_t len, bool append)
{
	const struct field_desc *fd = &dev->bus->fields[f];
	uint64_t num;
	int r;

	if (!append && len == 1 && value[0] == '*' && !field_is_list(fd) && field_is_numeric(fd))
		return dev_put_wild(dev, f);
	switch (fd->kind) {
	case FK_HEX:
	case FK_HEXLIST:
		r = parse_hex(value, len, field_max(fd), &num);
		return r < 0 ? r : dev_put_num(dev, f, num, append);
	case FK_DEC:
		r = parse_dec(value, len, field_max(fd), &num);
		return r < 0 ? r : dev_put_num(dev, f, num, append);
	default:
		if (len == 0 && !(fd->flags & FF_EMPTY_OK))
			return -EINVAL;
		r = dev_put_text(dev, f, value, len, append);
		if (r == 0)
			fold_case(fd, dev->values[f].items[dev->values[f].n - 1].text);
		return r;
	}
}

static int dev_set_value(struct modalias_dev *dev, const char *field,
			 const char *value, bool append)
{
	const struct field_desc *fd;
	size_t len;
	int f, r;

	if (!dev || !field || !value)
		return -EINVAL;
	f = field_of(dev, field);
	if (f < 0)
		return -ENOENT;
	fd = &dev->bus->fields[f];
	len = strlen(value);
	if (len == 0 && (fd->flags & FF_OPTIONAL) && !(fd->flags & FF_EMPTY_OK)) {
		/* FIELD= : left out of the string, as the kernel may */
		dev_clear(dev, (unsigned int)f);
		return 0;
	}
	if (text_ctrl_at(value, len) < len)
		return set_error(dev, fd, value, -EINVAL);
	if (fd->flags & FF_SETTER)
		return set_error(dev, fd, value, dev->bus->set_special(dev, (unsigned int)f, value));

	if (fd->kind == FK_HEXLIST) {
		/* a comma-separated list of numbers: all checked before any is set */
		size_t count = 1, i = 0;
		uint64_t *nums;
		const char *p;

		for (p = value; *p; p++)
			count += *p == ',';
		nums = calloc(count, sizeof(*nums));
		if (!nums)
			return -ENOMEM;
		for (p = value, r = 0; r == 0 && i < count; i++) {
			size_t n = strcspn(p, ",");
			r = parse_hex(p, n, field_max(fd), &nums[i]);
			if (r == 0 && nums[i] < fd->min)
				r = -ERANGE;
			p += n + 1;
		}
		if (r == 0 && !append)
			dev_clear(dev, (unsigned int)f);
		for (i = 0; r == 0 && i < count; i++)
			r = dev_put_num(dev, (unsigned int)f, nums[i], true);
		free(nums);
		return set_error(dev, fd, value, r);
	}
	r = set_one(dev, (unsigned int)f, value, len, append && field_is_list(fd));
	return set_error(dev, fd, value, r);
}

MODALIAS_EXPORT int modalias_dev_set(struct modalias_dev *dev, const char *field,
				     const char *value)
{
	return dev_set_value(dev, field, value, false);
}

MODALIAS_EXPORT int modalias_dev_add(struct modalias_dev *dev, const char *field,
				     const char *value)
{
	return dev_set_value(dev, field, value, true);
}

MODALIAS_EXPORT int modalias_dev_set_uint(struct modalias_dev *dev, const char *field,
					  uint64_t value)
{
	const struct field_desc *fd;
	int f, r;

	if (!dev || !field)
		return -EINVAL;
	f = field_of(dev, field);
	if (f < 0)
		return -ENOENT;
	fd = &dev->bus->fields[f];
	if (!field_is_numeric(fd) || (fd->flags & FF_SETTER))
		return -EINVAL;
	r = dev_put_num(dev, (unsigned int)f, value, false);
	if (r == -ERANGE)
		err(dev->ctx, "%s field %s: value 0x%llx is out of range for the field\n",
		    modalias_dev_get_bus(dev), fd->name, (unsigned long long)value);
	return r;
}

MODALIAS_EXPORT int modalias_dev_unset(struct modalias_dev *dev, const char *field)
{
	int f;

	if (!dev || !field)
		return -EINVAL;
	f = field_of(dev, field);
	if (f < 0)
		return -ENOENT;
	dev_clear(dev, (unsigned int)f);
	return 0;
}

MODALIAS_EXPORT int modalias_dev_get_count(const struct modalias_dev *dev, const char *field)
{
	int f;

	if (!dev || !field)
		return -EINVAL;
	f = field_of(dev, field);
	if (f < 0)
		return -ENOENT;
	return (int)dev->values[f].n;
}

static int get_item(const struct modalias_dev *dev, const char *field,
		    unsigned int index, const struct item **it, const struct field_desc **fd)
{
	int f;

	if (!dev || !field)
		return -EINVAL;
	f = field_of(dev, field);
	if (f < 0)
		return -ENOENT;
	if (dev->values[f].n == 0)
		return -ENOENT;
	if (index >= dev->values[f].n)
		return -ERANGE;
	*it = &dev->values[f].items[index];
	*fd = &dev->bus->fields[f];
	return 0;
}

MODALIAS_EXPORT int modalias_dev_get(const struct modalias_dev *dev, const char *field,
				     unsigned int index, const char **value)
{
	const struct field_desc *fd;
	const struct item *it;
	int r;

	if (!value)
		return -EINVAL;
	r = get_item(dev, field, index, &it, &fd);
	if (r < 0)
		return r;
	*value = it->text;
	return 0;
}

MODALIAS_EXPORT int modalias_dev_get_uint(const struct modalias_dev *dev, const char *field,
					  unsigned int index, uint64_t *value)
{
	const struct field_desc *fd;
	const struct item *it;
	int r;

	if (!value)
		return -EINVAL;
	r = get_item(dev, field, index, &it, &fd);
	if (r < 0)
		return r;
	if (!field_is_numeric(fd))
		return -EINVAL;
	if (it->wild)
		return -EDOM;
	*value = it->num;
	return 0;
}

MODALIAS_EXPORT int modalias_dev_format(const struct modalias_dev *dev, char **ret)
{
	struct strbuf sb;
	int r;

	if (!dev || !ret)
		return -EINVAL;
	strbuf_init(&sb);
	strbuf_puts(&sb, dev->bus_name ? dev->bus_name : "");
	strbuf_puts(&sb, dev->bus->prefix);
	if (dev->bus->format)
		r = dev->bus->format(dev, &sb);
	else
		r = dev_format_generic(dev, &sb, 0, dev->bus->n_fields);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	return strbuf_steal(&sb, ret);
}

MODALIAS_EXPORT int modalias_parse(struct modalias_ctx *ctx, const char *modalias,
				   struct modalias_dev **ret)
{
	const struct bus_desc *bus;
	struct modalias_dev *dev;
	const char *colon, *rest;
	size_t len, rlen, used = 0, ctrl;
	int r;

	if (!ctx || !modalias || !ret)
		return -EINVAL;
	len = strlen(modalias);
	if (len > 0 && modalias[len - 1] == '\n')
		len--;
	if ((ctrl = text_ctrl_at(modalias, len)) < len) {
		err(ctx, "modalias has a control character (0x%02x) at offset %zu\n", (unsigned char)modalias[ctrl], ctrl);
		return -EINVAL;
	}
	colon = memchr(modalias, ':', len);
	if (!colon || colon == modalias) {
		err(ctx, "'%.*s' is not a modalias: no \"bus:\" prefix\n",
		    (int)(len > 80 ? 80 : len), modalias);
		return -EINVAL;
	}
	bus = bus_find(modalias, (size_t)(colon - modalias));
	if (bus && strncmp(modalias, bus->prefix, strlen(bus->prefix)) != 0) {
		/* a known bus whose prefix goes on ("cpu:type:") */
		r = dev_new(ctx, bus, NULL, 0, &dev);
		if (r < 0)
			return r;
		r = parse_error(dev, NO_FIELD, (size_t)(colon - modalias) + 1, "wrong prefix");
		modalias_dev_unref(dev);
		return r;
	}
	if (!bus)
		bus = &bus_unknown;
	r = dev_new(ctx, bus, modalias, (size_t)(colon - modalias), &dev);
	if (r < 0)
		return r;
	rest = bus == &bus_unknown ? colon + 1 : modalias + strlen(bus->prefix);
	rlen = len - (size_t)(rest - modalias);
	if (bus->parse) {
		r = bus->parse(dev, rest, rlen);
		used = rlen;
	} else {
		r = dev_parse_generic(dev, rest, rlen, 0, bus->n_fields, &used);
	}
	if (r == 0 && used != rlen)
		r = parse_error(dev, NO_FIELD, (size_t)(rest - modalias) + used, "trailing characters");
	if (r < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}
