/*
 * libmodalias - devices: a bus and the values of its fields
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libmodalias-private.h"

int dev_new(struct modalias_ctx *ctx, const struct bus_desc *bus,
	    const char *bus_name, size_t bus_name_len, struct modalias_dev **ret)
{
	struct modalias_dev *dev;
	const char *name = bus == &bus_unknown ? bus_name : NULL; /* an unknown bus keeps its name */

	if (bus == &bus_unknown && !name)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->values = calloc(bus->n_fields ? bus->n_fields : 1, sizeof(*dev->values));
	if (name)
		dev->bus_name = strndup(name, bus_name_len);
	if (!dev->values || (name && !dev->bus_name)) {
		free(dev->values);
		free(dev->bus_name);
		free(dev);
		return -ENOMEM;
	}
	dev->refcount = 1;
	dev->bus = bus;
	dev->ctx = modalias_ctx_ref(ctx);
	*ret = dev;
	return 0;
}

MODALIAS_EXPORT int modalias_dev_new(struct modalias_ctx *ctx, const char *bus,
				     struct modalias_dev **ret)
{
	const struct bus_desc *b;

	if (!ctx || !bus || !ret)
		return -EINVAL;
	b = bus_find(bus, strlen(bus));
	if (!b) {
		err(ctx, "unknown bus '%.*s'\n", LOG_ECHO(bus));
		return -ENOENT;
	}
	return dev_new(ctx, b, NULL, 0, ret);
}

MODALIAS_EXPORT struct modalias_dev *modalias_dev_ref(struct modalias_dev *dev)
{
	if (dev)
		dev->refcount++;
	return dev;
}

void dev_clear(struct modalias_dev *dev, unsigned int field)
{
	struct fval *v = &dev->values[field];

	for (unsigned int i = 0; i < v->n; i++)
		free(v->items[i].text);
	v->n = 0;
}

MODALIAS_EXPORT struct modalias_dev *modalias_dev_unref(struct modalias_dev *dev)
{
	if (!dev)
		return NULL;
	if (--dev->refcount > 0)
		return dev;
	for (unsigned int f = 0; f < dev->bus->n_fields; f++) {
		dev_clear(dev, f);
		free(dev->values[f].items);
	}
	free(dev->values);
	free(dev->bus_name);
	modalias_ctx_unref(dev->ctx);
	free(dev);
	return NULL;
}

MODALIAS_EXPORT const char *modalias_dev_get_bus(const struct modalias_dev *dev)
{
	if (!dev)
		return NULL;
	return dev->bus_name ? dev->bus_name : dev->bus->name;
}

int field_index(const struct bus_desc *bus, const char *name)
{
	for (unsigned int i = 0; i < bus->n_fields; i++)
		if (strcmp(bus->fields[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
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

static bool is_list(const struct field_desc *fd)
{
	return fd->kind == FK_HEXLIST || fd->kind == FK_STRLIST;
}

static bool is_numeric(const struct field_desc *fd)
{
	return fd->kind == FK_HEX || fd->kind == FK_DEC || fd->kind == FK_HEXLIST;
}

static uint64_t field_max(const struct field_desc *fd)
{
	if (fd->max)
		return fd->max;
	if (fd->kind == FK_HEX && fd->width > 0 && fd->width < 16)
		return (UINT64_C(1) << (4 * fd->width)) - 1;
	return UINT32_MAX;
}

static struct item *new_item(struct fval *v, bool append)
{
	if (!append) {
		for (unsigned int i = 0; i < v->n; i++)
			free(v->items[i].text);
		v->n = 0;
	}
	if (v->n == v->cap) {
		unsigned int cap = v->cap ? v->cap * 2 : 2;
		struct item *n = realloc(v->items, cap * sizeof(*n));
		if (!n)
			return NULL;
		v->items = n;
		v->cap = cap;
	}
	return &v->items[v->n];
}

int dev_put_text(struct modalias_dev *dev, unsigned int field, const char *text,
		 size_t len, bool append)
{
	struct fval *v = &dev->values[field];
	struct item *it = new_item(v, append);

	if (!it)
		return -ENOMEM;
	it->text = strndup(text, len);
	if (!it->text)
		return -ENOMEM;
	it->num = 0;
	it->wild = false;
	v->n++;
	return 0;
}

static void format_num(const struct field_desc *fd, uint64_t num, char *buf, size_t size)
{
	if (fd->kind == FK_DEC)
		snprintf(buf, size, "%llu", (unsigned long long)num);
	else if (fd->flags & FF_LOWER)
		snprintf(buf, size, "%0*llx", fd->width, (unsigned long long)num);
	else
		snprintf(buf, size, "%0*llX", fd->width, (unsigned long long)num);
}

int dev_put_num(struct modalias_dev *dev, unsigned int field, uint64_t num, bool append)
{
	const struct field_desc *fd = &dev->bus->fields[field];
	struct fval *v = &dev->values[field];
	unsigned int pos;
	char buf[32];
	struct item *it;

	if (num > field_max(fd) || num < fd->min)
		return -ERANGE;
	if ((fd->flags & FF_SORTED) && append && (v->n == 0 || v->items[v->n - 1].num < num)) {
		pos = v->n; /* the usual case, in order: no scan (a bitmap may have 100,000 bits) */
	} else if ((fd->flags & FF_SORTED) && append) {
		/* keep the list ascending and unique, as the kernel walks bits */
		for (pos = 0; pos < v->n; pos++) {
			if (v->items[pos].num == num)
				return 0;
			if (v->items[pos].num > num)
				break;
		}
	} else {
		pos = append ? v->n : 0;
	}
	format_num(fd, num, buf, sizeof(buf));
	it = new_item(v, append);
	if (!it)
		return -ENOMEM;
	memmove(&v->items[pos + 1], &v->items[pos], (v->n - pos) * sizeof(*it));
	it = &v->items[pos];
	it->text = strdup(buf);
	if (!it->text) {
		memmove(&v->items[pos], &v->items[pos + 1], (v->n - pos) * sizeof(*it));
		return -ENOMEM;
	}
	it->num = num;
	it->wild = false;
	v->n++;
	return 0;
}

int dev_put_wild(struct modalias_dev *dev, unsigned int field)
{
	int r = dev_put_text(dev, field, "*", 1, false);

	if (r == 0)
		dev->values[field].items[0].wild = true;
	return r;
}

const char *dev_text(const struct modalias_dev *dev, unsigned int field, const char *dflt)
{
	const struct fval *v = &dev->values[field];

	return v->n ? v->items[0].text : dflt;
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
		      is_numeric(fd) ? "is not a hexadecimal number" :
				       "is not a valid value";
		break;
	default:
		return r;
	}
	err(dev->ctx, "%s field %s: value '%.*s' %s\n", modalias_dev_get_bus(dev),
	    fd->name, LOG_ECHO(value), why);
	return r;
}

static bool has_ctrl(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static int set_one(struct modalias_dev *dev, unsigned int f, const char *value,
		   size_t len, bool append)
{
	const struct field_desc *fd = &dev->bus->fields[f];
	uint64_t num;
	int r;

	if (!append && len == 1 && value[0] == '*' && !is_list(fd) && is_numeric(fd))
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
		return dev_put_text(dev, f, value, len, append);
	}
}

static int dev_set_value(struct modalias_dev *dev, const char *field,
			 const char *value, bool append)
{
	const struct field_desc *fd;
	int f, r;

	if (!dev || !field || !value)
		return -EINVAL;
	f = field_of(dev, field);
	if (f < 0)
		return -ENOENT;
	fd = &dev->bus->fields[f];
	if (has_ctrl(value))
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
	r = set_one(dev, (unsigned int)f, value, strlen(value), append && is_list(fd));
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
	if (!is_numeric(fd) || (fd->flags & FF_SETTER))
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
	if (!is_numeric(fd))
		return -EINVAL;
	if (it->wild)
		return -EDOM;
	*value = it->num;
	return 0;
}

/* ---- the generic form: tag value tag value … -------------------------- */

int dev_format_generic(const struct modalias_dev *dev, struct strbuf *sb,
		       unsigned int first, unsigned int last)
{
	for (unsigned int f = first; f < last; f++) {
		const struct field_desc *fd = &dev->bus->fields[f];
		const struct fval *v = &dev->values[f];

		if (fd->flags & FF_SETTER)
			continue;
		if (v->n == 0 && (fd->flags & FF_OPTIONAL))
			continue;
		strbuf_puts(sb, fd->tag);
		if (fd->kind == FK_HEXLIST || fd->kind == FK_STRLIST) {
			for (unsigned int i = 0; i < v->n; i++) {
				strbuf_puts(sb, v->items[i].text);
				strbuf_putc(sb, ',');
			}
		} else if (v->n) {
			strbuf_puts(sb, v->items[0].text);
		} else if (fd->kind == FK_HEX || fd->kind == FK_DEC) {
			char zero[32];
			format_num(fd, 0, zero, sizeof(zero));
			strbuf_puts(sb, zero);
		}
	}
	return sb->oom ? -ENOMEM : 0;
}

int parse_error(const struct modalias_dev *dev, const char *field, size_t off,
		const char *why)
{
	if (field)
		err(dev->ctx, "malformed %s modalias: field %s at offset %zu: %s\n",
		    modalias_dev_get_bus(dev), field, off, why);
	else
		err(dev->ctx, "malformed %s modalias at offset %zu: %s\n",
		    modalias_dev_get_bus(dev), off, why);
	return -EINVAL;
}

static bool is_hex_for(const struct field_desc *fd, char c)
{
	if (c >= '0' && c <= '9')
		return true;
	if (fd->flags & FF_LOWER)
		return c >= 'a' && c <= 'f';
	/* upper-case fields: old kernels printed some bytes lower-case
	 * (PCI's interface byte); accept both, keep what was written */
	return (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}

/* Parses fields [first, last) from s; on success *consumed is how far. */
int dev_parse_generic(struct modalias_dev *dev, const char *s, size_t len,
		      unsigned int first, unsigned int last, size_t *consumed)
{
	size_t pos = 0;
	int r;

	for (unsigned int f = first; f < last; f++) {
		const struct field_desc *fd = &dev->bus->fields[f];
		size_t tl = strlen(fd->tag), n = 0;
		uint64_t num;

		if (fd->flags & FF_SETTER)
			continue;
		if (len - pos < tl || memcmp(s + pos, fd->tag, tl) != 0) {
			if (fd->flags & FF_OPTIONAL)
				continue;
			return parse_error(dev, fd->name, pos, "tag missing");
		}
		pos += tl;
		if (pos < len && s[pos] == '*' && (fd->kind == FK_HEX || fd->kind == FK_DEC)) {
			r = dev_put_wild(dev, f);
			if (r < 0)
				return r;
			pos++;
			continue;
		}
		switch (fd->kind) {
		case FK_HEX:
			while (pos + n < len && is_hex_for(fd, s[pos + n]) &&
			       ((fd->flags & FF_VARWIDTH) || n < fd->width))
				n++;
			if (n == 0 || n < fd->width)
				return parse_error(dev, fd->name, pos, "hexadecimal digits missing");
			break;
		case FK_DEC:
			while (pos + n < len && s[pos + n] >= '0' && s[pos + n] <= '9')
				n++;
			if (n == 0)
				return parse_error(dev, fd->name, pos, "decimal digits missing");
			r = parse_dec(s + pos, n, field_max(fd), &num);
			if (r < 0)
				return parse_error(dev, fd->name, pos, "number too large");
			break;
		case FK_STR:
			/* only as the last field: takes the rest */
			n = len - pos;
			if (n == 0 && !(fd->flags & FF_EMPTY_OK))
				return parse_error(dev, fd->name, pos, "empty");
			break;
		default:
			return parse_error(dev, fd->name, pos, "no generic parser");
		}
		r = dev_put_text(dev, f, s + pos, n, false);
		if (r < 0)
			return r;
		if (fd->kind == FK_HEX) {
			r = parse_hex(s + pos, n, field_max(fd), &dev->values[f].items[0].num);
			if (r < 0)
				return parse_error(dev, fd->name, pos, "number too large");
		} else if (fd->kind == FK_DEC) {
			dev->values[f].items[0].num = num;
			/* "007" would not format back */
			if (n > 1 && s[pos] == '0')
				return parse_error(dev, fd->name, pos, "leading zero");
		}
		pos += n;
	}
	*consumed = pos;
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
	size_t len, rlen, used = 0;
	int r;

	if (!ctx || !modalias || !ret)
		return -EINVAL;
	len = strlen(modalias);
	if (len > 0 && modalias[len - 1] == '\n')
		len--;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)modalias[i];
		if (c < 0x20 || c == 0x7f) {
			err(ctx, "modalias has a control character (0x%02x) at offset %zu\n", c, i);
			return -EINVAL;
		}
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
		r = parse_error(dev, NULL, (size_t)(colon - modalias) + 1, "wrong prefix");
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
		r = parse_error(dev, NULL, (size_t)(rest - modalias) + used, "trailing characters");
	if (r < 0) {
		modalias_dev_unref(dev);
		return r;
	}
	*ret = dev;
	return 0;
}

int dev_add_bitmap(struct modalias_dev *dev, unsigned int field, const char *words,
		   unsigned int word_bits, unsigned int min)
{
	const char *p = words;
	size_t n_words = 0, w = 0;
	uint64_t *v;
	int r = 0;

	/* count the words: the last one holds bits 0 … word_bits-1 */
	for (const char *q = words; *q;) {
		q += strspn(q, " ");
		if (!*q)
			break;
		n_words++;
		q += strcspn(q, " ");
	}
	if (n_words == 0)
		return 0;
	v = malloc(n_words * sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* every word read first (the first bad one is the error)… */
	while (*p && w < n_words) {
		size_t len;

		p += strspn(p, " ");
		if (!*p)
			break;
		len = strcspn(p, " ");
		r = parse_hex(p, len, word_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << word_bits) - 1, &v[w++]);
		if (r < 0)
			goto out;
		p += len;
	}
	/* …then the bits, lowest word first: in order, each one appended
	 * (highest first, each went to the front of the list: quadratic) */
	for (size_t i = w; r == 0 && i-- > 0;)
		for (unsigned int b = 0; r == 0 && b < word_bits; b++) {
			uint64_t bit = (uint64_t)(w - 1 - i) * word_bits + b;
			if ((v[i] >> b & 1) && bit >= min)
				r = dev_put_num(dev, field, bit, true);
		}
out:
	free(v);
	return r;
}
