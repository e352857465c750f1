/*
 * libmodalias - a device's values, field by field: stored as the field's
 * description (bus-fields.h) says (numbers in range, lists sorted, the
 * text as the kernel writes it), the generic tag/value form of a modalias
 * written and read, and a kernel bitmap turned into a list of bits.
 *
 * It knows buses only through the struct bus_desc a device points to: it
 * looks no bus up, names no bus and calls nothing in buses.c or dev.c
 * (bus-private.h: calls go dev.c -> buses.c -> fields.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus-private.h"
#include "libmodalias-private.h"

int dev_new(struct modalias_ctx *ctx, const struct bus_desc *bus,
	    const char *bus_name, size_t bus_name_len, struct modalias_dev **ret)
{
	struct modalias_dev *dev;
	const char *name = bus->name[0] ? NULL : bus_name; /* an unknown bus keeps its name */

	if (!bus->name[0] && !name)
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

int dev_put_today(struct modalias_dev *dev)
{
	for (unsigned int f = 0; f < dev->bus->n_fields; f++) {
		int r = (dev->bus->fields[f].flags & FF_OLD_OPTIONAL) ? dev_put_num(dev, f, 0, false) : 0;
		if (r < 0)
			return r;
	}
	return 0;
}

void dev_clear(struct modalias_dev *dev, unsigned int field)
{
	struct fval *v = &dev->values[field];

	for (unsigned int i = 0; i < v->n; i++)
		free(v->items[i].text);
	v->n = 0;
}

void dev_free(struct modalias_dev *dev)
{
	for (unsigned int f = 0; f < dev->bus->n_fields; f++) {
		dev_clear(dev, f);
		free(dev->values[f].items);
	}
	free(dev->values);
	free(dev->bus_name);
	modalias_ctx_unref(dev->ctx);
	free(dev);
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

size_t text_ctrl_at(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (unsigned char)s[i] >= 0x20 && s[i] != 0x7f)
		i++;
	return i;
}

int dev_put_text(struct modalias_dev *dev, unsigned int field, const char *text,
		 size_t len, bool append)
{
	struct fval *v = &dev->values[field];
	struct item *it;

	if (text_ctrl_at(text, len) < len)
		return -EINVAL;
	it = new_item(v, append);
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

int dev_add_bitmap(struct modalias_dev *dev, unsigned int field, const char *words,
		   unsigned int word_bits)
{
	const uint32_t min = dev->bus->fields[field].min;
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
		if (field_is_list(fd)) {
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

int parse_error(const struct modalias_dev *dev, int field, size_t off, const char *why)
{
	if (field >= 0)
		err(dev->ctx, "malformed %s modalias: field %s at offset %zu: %s\n",
		    dev_bus_name(dev), dev->bus->fields[field].name, off, why);
	else
		err(dev->ctx, "malformed %s modalias at offset %zu: %s\n",
		    dev_bus_name(dev), off, why);
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

int dev_parse_generic(struct modalias_dev *dev, const char *s, size_t len,
		      unsigned int first, unsigned int last, size_t *consumed)
{
	size_t pos = 0;
	int r;

	for (unsigned int f = first; f < last; f++) {
		const struct field_desc *fd = &dev->bus->fields[f];
		const int fe = (int)f; /* for parse_error() */
		size_t tl = strlen(fd->tag), n = 0;
		uint64_t num;

		if (fd->flags & FF_SETTER)
			continue;
		if (len - pos < tl || memcmp(s + pos, fd->tag, tl) != 0) {
			if (fd->flags & FF_OPTIONAL)
				continue;
			return parse_error(dev, fe, pos, "tag missing");
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
				return parse_error(dev, fe, pos, "hexadecimal digits missing");
			break;
		case FK_DEC:
			while (pos + n < len && s[pos + n] >= '0' && s[pos + n] <= '9')
				n++;
			if (n == 0)
				return parse_error(dev, fe, pos, "decimal digits missing");
			r = parse_dec(s + pos, n, field_max(fd), &num);
			if (r < 0)
				return parse_error(dev, fe, pos, "number too large");
			break;
		case FK_STR:
			/* only as the last field: takes the rest */
			n = len - pos;
			if (n == 0 && !(fd->flags & FF_EMPTY_OK))
				return parse_error(dev, fe, pos, "empty");
			break;
		default:
			return parse_error(dev, fe, pos, "no generic parser");
		}
		r = dev_put_text(dev, f, s + pos, n, false);
		if (r < 0)
			return r;
		if (fd->kind == FK_HEX) {
			r = parse_hex(s + pos, n, field_max(fd), &dev->values[f].items[0].num);
			if (r < 0)
				return parse_error(dev, fe, pos, "number too large");
		} else if (fd->kind == FK_DEC) {
			dev->values[f].items[0].num = num;
			/* "007" would not format back */
			if (n > 1 && s[pos] == '0')
				return parse_error(dev, fe, pos, "leading zero");
		}
		pos += n;
	}
	*consumed = pos;
	return 0;
}
