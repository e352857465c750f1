/*
 * libmodalias - legacy map files: matching a device against a map's rows
 * as the kernel matches its device tables (match_flags, "any" values, the
 * PCI class mask, input bitmaps, ISAPnP and OF ids), each column against
 * the device field the column tables name.  Reads the device through the
 * public device API only, and the map read-only; it may not allocate,
 * parse, make patterns or write.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "maps-private.h"

/* The device field a column is matched against. */
static const char *col_dev_field(const struct map_col *cd)
{
	return cd->dev_field ? cd->dev_field : cd->name;
}

/* A device field as a number: 1 with *v (0 when unset), 0 for a wildcard
 * (which matches anything), -ENOENT when the bus has no such field. */
static int dev_num(const struct modalias_dev *dev, const char *field, unsigned int item, uint64_t *v)
{
	int n = modalias_dev_get_count(dev, field), r;

	if (n < 0)
		return n;
	*v = 0;
	if (item >= (unsigned int)n)
		return 1;
	r = modalias_dev_get_uint(dev, field, item, v);
	if (r == -EDOM)
		return 0;
	return r < 0 ? r : 1;
}

static bool num_eq(const struct modalias_dev *dev, const char *field, uint64_t want)
{
	uint64_t v;
	int r = dev_num(dev, field, 0, &v);

	return r == 0 || (r > 0 && v == want);
}

/* Whether column c of the entry, when it counts, has the device's value. */
static bool col_eq(const struct map_type_desc *td, const struct map_entry *e, unsigned int c,
		   const struct modalias_dev *dev)
{
	return num_eq(dev, col_dev_field(&td->cols[c]), e->vals[e->off[c]]);
}

/* usb, ieee1394, ccw: the columns that match_flags flags, in order */
static bool match_flagged(const struct map_type_desc *td, const struct map_entry *e,
			  const struct modalias_dev *dev, unsigned int first, unsigned int last)
{
	for (unsigned int c = first; c <= last; c++)
		if ((e->vals[0] & map_col_flag(c)) && !col_eq(td, e, c, dev))
			return false;
	return true;
}

static bool match_usb(const struct map_type_desc *td, const struct map_entry *e,
		      const struct modalias_dev *dev)
{
	uint64_t flags = e->vals[U_FLAGS], bcd;
	int r;

	if (!match_flagged(td, e, dev, U_VENDOR, U_PRODUCT) || !match_flagged(td, e, dev, U_DC, U_IP))
		return false;
	r = dev_num(dev, "bcdDevice", 0, &bcd);
	if (r > 0 && (flags & map_col_flag(U_LO)) && bcd < e->vals[U_LO])
		return false;
	if (r > 0 && (flags & map_col_flag(U_HI)) && bcd > e->vals[U_HI])
		return false;
	return true;
}

static bool match_pci(const struct map_type_desc *td, const struct map_entry *e,
		      const struct modalias_dev *dev)
{
	uint64_t mask = e->vals[P_MASK];

	for (unsigned int c = P_VENDOR; c <= P_SUBDEVICE; c++)
		if (e->vals[c] != 0xffffffff && !col_eq(td, e, c, dev))
			return false;
	/* (class ^ dev_class) & class_mask, byte by byte (a wildcard byte matches) */
	for (unsigned int b = 0; b < ARRAY_SIZE(map_pci_class_bytes); b++) {
		const struct map_pci_class_byte *cb = &map_pci_class_bytes[b];
		uint64_t m = (mask >> cb->shift) & 0xff, v;

		if (m && dev_num(dev, cb->dev_field, 0, &v) > 0 && ((v ^ (e->vals[P_CLASS] >> cb->shift)) & m))
			return false;
	}
	return true;
}

static bool match_serio(const struct map_type_desc *td, const struct map_entry *e,
			const struct modalias_dev *dev)
{
	for (unsigned int c = 0; c < td->n_cols; c++)
		if (e->vals[c] != 0xff && !col_eq(td, e, c, dev))
			return false;
	return true;
}

static bool dev_has_bit(const struct modalias_dev *dev, const char *field, uint64_t bit)
{
	int n = modalias_dev_get_count(dev, field);

	for (int i = 0; i < n; i++) {
		uint64_t v;
		int r = modalias_dev_get_uint(dev, field, (unsigned int)i, &v);

		if (r == -EDOM || (r == 0 && v == bit))
			return true;
	}
	return false;
}

static bool match_input(const struct modalias_map *map, const struct map_entry *e,
			const struct modalias_dev *dev)
{
	const struct map_type_desc *td = &map_types[MODALIAS_MAP_INPUT];
	uint64_t flags = e->vals[IN_FLAGS];

	if (!match_flagged(td, e, dev, IN_BUS, IN_VERSION))
		return false;
	for (unsigned int c = IN_EV; c <= IN_SW; c++) {
		unsigned int first = c == IN_KEY ? INPUT_KEY_MIN_INTERESTING : 0;

		if (!(flags & map_col_flag(c)))
			continue;
		/* every bit of the entry must be set in the device's bitmap (keys
		 * below KEY_MIN_INTERESTING are not in a modalias: not checked) */
		for (unsigned int bit = first; bit <= td->cols[c].max_bit; bit++)
			if (map_bitmap_test(map, e, c, bit) && !dev_has_bit(dev, col_dev_field(&td->cols[c]), bit))
				return false;
	}
	return true;
}

static bool match_isapnp(const struct map_entry *e, const struct modalias_dev *dev)
{
	const char *id;
	uint16_t v, f;

	if (modalias_dev_get(dev, "id", 0, &id) < 0 || pnp_id_to_words(id, &v, &f) < 0)
		return false;
	if (e->vals[I_CARDVENDOR] != 0xffff || e->vals[I_CARDDEVICE] != 0xffff)
		return e->vals[I_CARDVENDOR] == v && e->vals[I_CARDDEVICE] == f;
	for (unsigned int k = e->off[I_VENDOR]; k < e->off[I_VENDOR + 1]; k++)
		if (e->vals[k] == v && e->vals[e->off[I_FUNCTION] + (k - e->off[I_VENDOR])] == f)
			return true;
	return false;
}

static bool match_of(const struct map_entry *e, const struct modalias_dev *dev)
{
	const char *v;
	int n;

	if (e->str[0][0] && (modalias_dev_get(dev, "name", 0, &v) < 0 || strcmp(v, e->str[0]) != 0))
		return false;
	if (e->str[1][0] && (modalias_dev_get(dev, "type", 0, &v) < 0 || strcmp(v, e->str[1]) != 0))
		return false;
	if (!e->str[2][0])
		return true;
	n = modalias_dev_get_count(dev, "compatible");
	for (int i = 0; i < n; i++)
		if (modalias_dev_get(dev, "compatible", (unsigned int)i, &v) == 0 && strcasecmp(v, e->str[2]) == 0)
			return true;
	return false;
}

static bool entry_matches(const struct modalias_map *map, const struct map_entry *e,
			  const struct modalias_dev *dev)
{
	const struct map_type_desc *td = &map_types[map->type];

	switch (map->type) {
	case MODALIAS_MAP_USB:
		return match_usb(td, e, dev);
	case MODALIAS_MAP_PCI:
		return match_pci(td, e, dev);
	case MODALIAS_MAP_IEEE1394:
	case MODALIAS_MAP_CCW:
		return match_flagged(td, e, dev, 1, td->n_cols - 1);
	case MODALIAS_MAP_ISAPNP:
		return match_isapnp(e, dev);
	case MODALIAS_MAP_INPUT:
		return match_input(map, e, dev);
	case MODALIAS_MAP_OF:
		return match_of(e, dev);
	case MODALIAS_MAP_SERIO:
		return match_serio(td, e, dev);
	}
	return false;
}

MODALIAS_EXPORT int modalias_map_match(const struct modalias_map *map,
				       const struct modalias_dev *dev, unsigned int start,
				       unsigned int *index)
{
	const struct map_type_desc *td;
	const char *bus;

	if (!map || !dev || !index)
		return -EINVAL;
	td = &map_types[map->type];
	bus = modalias_dev_get_bus(dev);
	if (strcmp(bus, td->bus) != 0) {
		err(map->ctx, "%s: a %s map matches %s devices, not %s devices\n", map->name, td->name,
		    td->bus, bus);
		return -EINVAL;
	}
	for (unsigned int i = start; i < map->n; i++)
		if (entry_matches(map, &map->entries[i], dev)) {
			*index = i;
			return 1;
		}
	return 0;
}
