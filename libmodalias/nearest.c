/*
 * libmodalias - the nearest patterns of an alias that nothing matches:
 * the alias and each pattern of its bus (modules.alias, builtin aliases)
 * cut into the bus's fields (bus-fields.h), each field compared with
 * kmod's glob; the patterns that name and match the most fields before
 * the first that differs win (among those, the ones whose value there
 * starts with most of the alias's), and each is told with that field.
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

/* How many leading fields of the pattern match the alias's (the index of
 * the first that differs), or -1 when the pattern is not of the bus's form;
 * *specific: how many of those the pattern names (a value other than "*"),
 * *last: the last of them; *common: how many leading characters the value
 * that differs has in common with the alias's. */
static int leading(const struct bus_desc *b, const char *pattern, const struct seg *dev, int *specific,
		   unsigned int *last, size_t *common)
{
	struct seg pat[NEAREST_FIELDS_MAX];
	unsigned int f;

	*specific = 0;
	*common = 0;
	if (!cut(b, pattern, pat))
		return -1;
	for (f = 0; f < b->n_fields; f++) {
		if (b->fields[f].flags & FF_SETTER)
			continue;
		if (!seg_match(&pat[f], &dev[f])) {
			/* how far the value that differs agrees, character by character */
			while (*common < pat[f].len && *common < dev[f].len && pat[f].s[*common] == dev[f].s[*common] &&
			       !strchr("*?[", pat[f].s[*common]))
				(*common)++;
			break;
		}
		if (!(pat[f].len == 1 && pat[f].s[0] == '*')) {
			(*specific)++;
			*last = f;
		}
	}
	return (int)f;
}

static const enum layer_id nearest_layers[] = { LAYER_ALIAS, LAYER_BUILTIN_ALIAS };

MODALIAS_EXPORT int modalias_table_find_nearest(struct modalias_table *t, const char *alias,
						modalias_nearest_fn fn, void *data)
{
	const struct bus_desc *b;
	struct seg dev[NEAREST_FIELDS_MAX];
	size_t plen;
	int best = 0, n = 0;
	size_t best_common = 0;

	if (!t || !alias || !fn)
		return -EINVAL;
	b = cuttable_bus(alias);
	plen = b ? strlen(b->prefix) : 0;
	if (!b || !cut(b, alias + plen, dev))
		return -EOPNOTSUPP;
	/* two passes: the most fields a pattern names and matches before
	 * the first that differs (ties: the most leading characters of that
	 * one in common), then the patterns that reach it, in the table's
	 * order */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t l = 0; l < sizeof(nearest_layers) / sizeof(nearest_layers[0]); l++) {
			const struct layer *ly = &t->layers[nearest_layers[l]];

			for (unsigned int i = 0; i < ly->n; i++) {
				const char *pattern = t->pool.buf + ly->patterns[i].str;
				unsigned int last = 0;
				size_t common;
				int k, specific;

				if (strncmp(pattern, b->prefix, plen) != 0)
					continue;
				k = leading(b, pattern + plen, dev, &specific, &last, &common);
				if (k < 0 || (unsigned int)k >= b->n_fields)
					continue;
				if (pass == 0) {
					if (specific > best || (specific == best && common > best_common)) {
						best = specific;
						best_common = common;
					}
				} else if (specific == best && common == best_common) {
					n++;
					if (fn(data, table_module_name(t, ly->patterns[i].module), pattern,
					       b->fields[last].name, b->fields[k].name, (unsigned int)specific))
						return n;
				}
			}
		}
		if (best == 0)
			return 0;
	}
	return n;
}
