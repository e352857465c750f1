/*
 * libmodalias - the nearest patterns of an alias that nothing matches:
 * the alias and each pattern of its bus (modules.alias, builtin aliases)
 * cut into the bus's fields (bus-fields.h), each field compared with
 * kmod's glob, the fields that say what kind of device it is (FF_CLASS:
 * PCI's class, USB's classes) first; the patterns that do not name another
 * maker (the first field after the classes: PCI's and USB's vendor), then
 * those that name and match the most class fields, then the most fields,
 * before the first that differs win (among those, the ones whose value
 * there starts with most of the alias's), and each is told with that
 * field.
 *
 * Only buses written as the generic tag/value sequence of numbers (pci,
 * usb, hid, …) can be cut this way; this file answers -EOPNOTSUPP for the
 * others.  It reads a table and may not change one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bus-private.h"
#include "libmodalias-private.h"
#include "table-private.h"

#define NEAREST_FIELDS_MAX 32

struct seg {
	const char *s;
	size_t len;
};

/* The bus whose prefix starts ALIAS, when its fields can be cut out of a
 * pattern: generic form, numbers only, upper-case hex. */
static const struct bus_desc *cuttable_bus(const char *alias)
{
	const char *name;

	for (unsigned int i = 0; (name = modalias_bus_name(i)); i++) {
		const struct bus_desc *b = bus_find(name, strlen(name));

		if (!b || strncmp(alias, b->prefix, strlen(b->prefix)) != 0)
			continue;
		if (b->format || b->parse || b->n_fields > NEAREST_FIELDS_MAX)
			return NULL;
		for (unsigned int f = 0; f < b->n_fields; f++) {
			const struct field_desc *fd = &b->fields[f];

			if (fd->flags & FF_SETTER)
				continue;
			if ((fd->kind != FK_HEX && fd->kind != FK_DEC) || (fd->flags & FF_LOWER) || !fd->tag[0])
				return NULL;
		}
		return b;
	}
	return NULL;
}

/* S (after the bus prefix) cut into B's fields: seg[f] is field f's value
 * (empty when an optional field is absent).  false when S is not of B's
 * form. */
static bool cut(const struct bus_desc *b, const char *s, struct seg *seg)
{
	for (unsigned int f = 0; f < b->n_fields; f++) {
		const struct field_desc *fd = &b->fields[f];
		size_t tl = strlen(fd->tag);
		const char *end = NULL;

		seg[f].s = "";
		seg[f].len = 0;
		if (fd->flags & FF_SETTER)
			continue;
		if (strncmp(s, fd->tag, tl) != 0) {
			if (fd->flags & FF_OPTIONAL)
				continue;
			return false;
		}
		s += tl;
		/* the value runs to the tag of the next field present */
		for (unsigned int g = f + 1; g < b->n_fields && !end; g++) {
			if (b->fields[g].flags & FF_SETTER)
				continue;
			end = strstr(s, b->fields[g].tag);
			if (!end && !(b->fields[g].flags & FF_OPTIONAL))
				return false;
		}
		if (!end)
			end = s + strlen(s);
		seg[f].s = s;
		seg[f].len = (size_t)(end - s);
		s = end;
	}
	return *s == '\0';
}

static bool seg_match(const struct seg *pat, const struct seg *val)
{
	char p[256], v[256];

	if (pat->len >= sizeof(p) || val->len >= sizeof(v))
		return false;
	memcpy(p, pat->s, pat->len);
	p[pat->len] = '\0';
	memcpy(v, val->s, val->len);
	v[val->len] = '\0';
	return glob_needs_libc(p) ? glob_match_libc(p, v) : glob_match(p, v);
}

/* The fields of B in the order they are compared: what kind of device it
 * is (FF_CLASS) first, then the rest, each group in the bus's order; the
 * number of them */
static unsigned int compare_order(const struct bus_desc *b, unsigned int *order)
{
	unsigned int n = 0;

	for (int cls = 1; cls >= 0; cls--)
		for (unsigned int f = 0; f < b->n_fields; f++)
			if (!(b->fields[f].flags & FF_SETTER) && !!(b->fields[f].flags & FF_CLASS) == cls)
				order[n++] = f;
	return n;
}

/* The maker's field of B: the first in ORDER (N fields) after the classes
 * (PCI's and USB's vendor); B's n_fields when all are classes */
static unsigned int maker_field(const struct bus_desc *b, const unsigned int *order, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (!(b->fields[order[i]].flags & FF_CLASS))
			return order[i];
	return b->n_fields;
}

/* How a pattern compares with the alias, field by field in ORDER (N
 * fields): *differs, the first field that differs (N: none does);
 * *specific, how many before it the pattern names (a value other than "*"),
 * *classes how many of those are class fields, *last the last of them
 * (the fields of a class group whose class names no kind of device are not
 * counted: FF, vendor-specific, and 00, USB's "see the interfaces" and
 * PCI's "unclassified");
 * *common, how many leading characters the value that differs has in
 * common with the alias's.  false when the pattern is not of the bus's
 * form. */
struct nearness {
	unsigned int differs, last;
	int classes, specific;
	size_t common;
	bool other_maker; /* it names another maker (the first field after the classes: PCI's, USB's vendor) */
};

static bool compare(const struct bus_desc *b, const unsigned int *order, unsigned int n, unsigned int maker,
		    const char *pattern, const struct seg *dev, struct nearness *out)
{
	struct seg pat[NEAREST_FIELDS_MAX];
	bool no_kind = false; /* in a class group whose class names no kind (FF, 00) */

	*out = (struct nearness){ .differs = n };
	if (!cut(b, pattern, pat))
		return false;
	out->other_maker = maker < b->n_fields && !seg_match(&pat[maker], &dev[maker]);
	for (unsigned int i = 0; i < n; i++) {
		unsigned int f = order[i], flags = b->fields[f].flags;

		if (flags & FF_CLASS_TOP)
			no_kind = dev[f].len == 2 && (memcmp(dev[f].s, "FF", 2) == 0 || memcmp(dev[f].s, "00", 2) == 0);
		if (!seg_match(&pat[f], &dev[f])) {
			/* how far the value that differs agrees, character by character */
			while (out->common < pat[f].len && out->common < dev[f].len &&
			       pat[f].s[out->common] == dev[f].s[out->common] && !strchr("*?[", pat[f].s[out->common]))
				out->common++;
			out->differs = f;
			break;
		}
		/* a vendor-specific class, or none ("see the interfaces",
		 * "unclassified"), says nothing of the kind of device: naming
		 * it is no claim */
		if (!(pat[f].len == 1 && pat[f].s[0] == '*') && !((flags & FF_CLASS) && no_kind)) {
			out->specific++;
			out->classes += !!(flags & FF_CLASS);
			out->last = f;
		}
	}
	return true;
}

/* A before B: one that names the device's maker (or none) before one that
 * names another (another vendor's driver never drives it, whatever class it
 * names: Realtek's r8169 for a new Realtek NIC, not QLogic's qlcnic that
 * names its class); then the more class fields named and matched, then the
 * more fields, then the more characters of the one that differs */
static int nearer(const struct nearness *a, const struct nearness *b)
{
	if (a->other_maker != b->other_maker)
		return a->other_maker ? -1 : 1;
	if (a->classes != b->classes)
		return a->classes > b->classes ? 1 : -1;
	if (a->specific != b->specific)
		return a->specific > b->specific ? 1 : -1;
	return a->common > b->common ? 1 : a->common < b->common ? -1 : 0;
}

static const enum layer_id nearest_layers[] = { LAYER_ALIAS, LAYER_BUILTIN_ALIAS };

MODALIAS_EXPORT int modalias_table_find_nearest(struct modalias_table *t, const char *alias,
						modalias_nearest_fn fn, void *data)
{
	const struct bus_desc *b;
	struct seg dev[NEAREST_FIELDS_MAX];
	unsigned int order[NEAREST_FIELDS_MAX], n_order, maker;
	struct nearness best = { 0 };
	bool have = false; /* best is a pattern's */
	size_t plen;
	int n = 0;

	if (!t || !alias || !fn)
		return -EINVAL;
	b = cuttable_bus(alias);
	plen = b ? strlen(b->prefix) : 0;
	if (!b || !cut(b, alias + plen, dev))
		return -EOPNOTSUPP;
	n_order = compare_order(b, order);
	maker = maker_field(b, order, n_order);
	/* two passes: the nearest a pattern comes (nearer()), then the
	 * patterns that come that near, in the table's order */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t l = 0; l < sizeof(nearest_layers) / sizeof(nearest_layers[0]); l++) {
			const struct layer *ly = &t->layers[nearest_layers[l]];

			for (unsigned int i = 0; i < ly->n; i++) {
				const char *pattern = t->pool.buf + ly->patterns[i].str;
				struct nearness nr;

				if (strncmp(pattern, b->prefix, plen) != 0 ||
				    !compare(b, order, n_order, maker, pattern + plen, dev, &nr) || nr.differs >= b->n_fields ||
				    nr.specific == 0)
					continue;
				if (pass == 0) {
					if (!have || nearer(&nr, &best) > 0)
						best = nr;
					have = true;
				} else if (nearer(&nr, &best) == 0) {
					n++;
					if (fn(data, table_module_name(t, ly->patterns[i].module), pattern,
					       b->fields[nr.last].name, b->fields[nr.differs].name, (unsigned int)nr.specific))
						return n;
				}
			}
		}
		if (!have)
			return 0;
	}
	return n;
}
