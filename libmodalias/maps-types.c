/*
 * libmodalias - legacy map files: the one description of each map type
 * (modules.usbmap, pcimap, ieee1394map, ccwmap, isapnpmap, inputmap,
 * ofmap, seriomap): its name, bus and header, and per column its name,
 * kind, width, file2alias tag and the device field it is matched against.
 * The parser, the accessors, the matcher, file2alias, the writer and
 * modalias_map_type_field_kind() all read these tables; nothing else says
 * what a column is.  Also the ISAPnP id encoding of isapnpmap columns.
 * Constant data and pure functions only: this file may not allocate, log,
 * or know a map object.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "maps-private.h"

#define NUM(n, b) { .name = (n), .kind = MODALIAS_MAP_FIELD_NUMBER, .bits = (b) }
/* a number that file2alias writes as TAG and width hex digits */
#define TAG(n, b, t, w) { .name = (n), .tag = (t), .kind = MODALIAS_MAP_FIELD_NUMBER, .bits = (b), .width = (w) }
/* an inputmap bitmap: "%x" words, highest first, ':'-separated */
#define BMP(n, dev, t, m) \
	{ .name = (n), .dev_field = (dev), .tag = (t), .kind = MODALIAS_MAP_FIELD_BITMAP, .bits = 64, .max_bit = (m) }
/* isapnp (vendor, function) pairs: a repeated column */
#define LST(n, b) { .name = (n), .kind = MODALIAS_MAP_FIELD_LIST, .bits = (b) }
/* an ofmap string, "*" for empty */
#define STR(n) { .name = (n), .kind = MODALIAS_MAP_FIELD_STRING }

static const struct map_col usb_cols[] = {
	NUM("match_flags", 16), TAG("idVendor", 16, "v", 4), TAG("idProduct", 16, "p", 4),
	NUM("bcdDevice_lo", 16), NUM("bcdDevice_hi", 16), TAG("bDeviceClass", 8, "dc", 2),
	TAG("bDeviceSubClass", 8, "dsc", 2), TAG("bDeviceProtocol", 8, "dp", 2),
	TAG("bInterfaceClass", 8, "ic", 2), TAG("bInterfaceSubClass", 8, "isc", 2),
	TAG("bInterfaceProtocol", 8, "ip", 2), NUM("driver_info", 64),
};

static const struct map_col pci_cols[] = {
	TAG("vendor", 32, "v", 8), TAG("device", 32, "d", 8), TAG("subvendor", 32, "sv", 8),
	TAG("subdevice", 32, "sd", 8), NUM("class", 32), NUM("class_mask", 32), NUM("driver_data", 64),
};

static const struct map_col ieee1394_cols[] = {
	NUM("match_flags", 32), TAG("vendor_id", 32, "ven", 8), TAG("model_id", 32, "mo", 8),
	TAG("specifier_id", 32, "sp", 8), TAG("version", 32, "ver", 8),
};

static const struct map_col ccw_cols[] = {
	NUM("match_flags", 16), TAG("cu_type", 16, "t", 4), TAG("cu_model", 8, "m", 2),
	TAG("dev_type", 16, "dt", 4), TAG("dev_model", 8, "dm", 2),
};

static const struct map_col isapnp_cols[] = {
	NUM("cardvendor", 16), NUM("carddevice", 16), NUM("driver_data", 64),
	LST("vendor", 16), LST("function", 16),
};

static const struct map_col input_cols[] = {
	NUM("matchBits", 64), TAG("bustype", 16, "b", 4), TAG("vendor", 16, "v", 4),
	TAG("product", 16, "p", 4), TAG("version", 16, "e", 4),
	BMP("evBits", "ev", "e", 0x1f), BMP("keyBits", "key", "k", 0x2ff),
	BMP("relBits", "rel", "r", 0x0f), BMP("absBits", "abs", "a", 0x3f),
	BMP("mscBits", "msc", "m", 0x07), BMP("ledBits", "led", "l", 0x0f),
	BMP("sndBits", "snd", "s", 0x07), BMP("ffBits", "ff", "f", 0x7f),
	BMP("swBits", "sw", "w", 0x11), NUM("driver_info", 64),
};

static const struct map_col of_cols[] = {
	STR("name"), STR("type"), STR("compatible"),
};

static const struct map_col serio_cols[] = {
	TAG("type", 8, "ty", 2), TAG("extra", 8, "ex", 2), TAG("id", 8, "id", 2), TAG("proto", 8, "pr", 2),
};

const struct map_type_desc map_types[] = {
	[MODALIAS_MAP_USB] = { "usb", "usb", "# usb module",
		"         match_flags idVendor idProduct bcdDevice_lo bcdDevice_hi bDeviceClass bDeviceSubClass bDeviceProtocol bInterfaceClass bInterfaceSubClass bInterfaceProtocol driver_info\n",
		usb_cols, ARRAY_SIZE(usb_cols), true },
	[MODALIAS_MAP_PCI] = { "pci", "pci", "# pci module",
		"         vendor     device     subvendor  subdevice  class      class_mask driver_data\n",
		pci_cols, ARRAY_SIZE(pci_cols), false },
	[MODALIAS_MAP_IEEE1394] = { "ieee1394", "ieee1394", "# ieee1394 module",
		"    match_flags vendor_id model_id specifier_id version\n",
		ieee1394_cols, ARRAY_SIZE(ieee1394_cols), true },
	[MODALIAS_MAP_CCW] = { "ccw", "ccw", "# ccw module",
		"         match_flags cu_type cu_model dev_type dev_model\n",
		ccw_cols, ARRAY_SIZE(ccw_cols), true },
	[MODALIAS_MAP_ISAPNP] = { "isapnp", "pnp", "# isapnp module",
		"      cardvendor carddevice driver_data vendor     function   ...\n",
		isapnp_cols, ARRAY_SIZE(isapnp_cols), false },
	[MODALIAS_MAP_INPUT] = { "input", "input", "# module         matchBits",
		" bustype vendor product version evBits keyBits relBits absBits mscBits ledBits sndBits ffBits [swBits] driver_info\n",
		input_cols, ARRAY_SIZE(input_cols), true },
	[MODALIAS_MAP_OF] = { "of", "of", "# of module",
		"          name                 type                 compatible\n",
		of_cols, ARRAY_SIZE(of_cols), false },
	[MODALIAS_MAP_SERIO] = { "serio", "serio", "# serio module",
		"       type extra id   proto\n",
		serio_cols, ARRAY_SIZE(serio_cols), false },
};
const unsigned int map_n_types = ARRAY_SIZE(map_types);

const struct map_pci_class_byte map_pci_class_bytes[3] = {
	{ 16, "bc", "baseclass" }, { 8, "sc", "subclass" }, { 0, "i", "interface" },
};

const uint8_t map_serio_alias_order[4] = { S_TYPE, S_PROTO, S_ID, S_EXTRA };

bool map_type_valid(int type)
{
	return type >= 0 && (unsigned int)type < map_n_types;
}

int map_col_index(enum modalias_map_type type, const char *name)
{
	for (unsigned int i = 0; i < map_types[type].n_cols; i++)
		if (strcmp(map_types[type].cols[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

MODALIAS_EXPORT const char *modalias_map_type_name(int type)
{
	return map_type_valid(type) ? map_types[type].name : NULL;
}

MODALIAS_EXPORT int modalias_map_type_from_name(const char *name)
{
	for (unsigned int i = 0; name && i < map_n_types; i++)
		if (strcmp(map_types[i].name, name) == 0)
			return (int)i;
	return -EINVAL;
}

MODALIAS_EXPORT const char *modalias_map_type_field_name(int type, unsigned int index)
{
	if (!map_type_valid(type) || index >= map_types[type].n_cols)
		return NULL;
	return map_types[type].cols[index].name;
}

MODALIAS_EXPORT int modalias_map_type_field_kind(int type, const char *field)
{
	int c;

	if (!map_type_valid(type) || !field)
		return -EINVAL;
	c = map_col_index((enum modalias_map_type)type, field);
	return c < 0 ? c : map_types[type].cols[c].kind;
}

/* ---- ISAPnP ids ------------------------------------------------------------ */

int pnp_id_to_words(const char *id, uint16_t *vendor, uint16_t *function)
{
	unsigned int a, b, c;
	uint64_t d;

	if (strlen(id) != 7)
		return -EINVAL;
	for (int i = 0; i < 3; i++)
		if (!isalpha((unsigned char)id[i]))
			return -EINVAL;
	if (parse_hex(id + 3, 4, 0xffff, &d) < 0 || id[4] == 'x' || id[4] == 'X')
		return -EINVAL;
	a = (unsigned int)(toupper((unsigned char)id[0]) - 'A' + 1);
	b = (unsigned int)(toupper((unsigned char)id[1]) - 'A' + 1);
	c = (unsigned int)(toupper((unsigned char)id[2]) - 'A' + 1);
	*vendor = (uint16_t)(((a & 0x3f) << 2) | ((b & 0x18) >> 3) | ((b & 7) << 13) | ((c & 0x1f) << 8));
	/* the 16-bit number, its bytes swapped */
	*function = (uint16_t)(((d & 0xff) << 8) | (d >> 8));
	return 0;
}

void pnp_words_to_id(uint16_t vendor, uint16_t function, char id[8])
{
	unsigned int d = ((unsigned int)(function & 0xff) << 8) | (function >> 8);

	id[0] = (char)('A' - 1 + ((vendor >> 2) & 0x1f));
	id[1] = (char)('A' - 1 + (((vendor & 3) << 3) | ((vendor >> 13) & 7)));
	id[2] = (char)('A' - 1 + ((vendor >> 8) & 0x1f));
	snprintf(id + 3, 5, "%04X", d);
}
