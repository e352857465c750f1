/*
 * libmodalias - legacy modules.*map files: what the map sources share
 * (declarations only).  maps-types.c holds the per-type column tables and
 * ISAPnP ids; maps.c the map object and reading its rows; maps-parse.c
 * makes maps from text; maps-match.c matches devices against rows;
 * maps-alias.c turns rows into modules.alias patterns (file2alias) and
 * adds them to a table; maps-write.c writes a table's patterns as map
 * rows.  Calls go one way: maps-parse.c, -match.c, -alias.c and -write.c
 * → maps.c → maps-types.c (none of the four calls another, maps-types.c
 * calls no map code).  "map" means a legacy map file and nothing else.
 * Also declares the two table.c functions that maps-alias.c calls (table.c
 * includes this header for them; it calls nothing else declared here).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "libmodalias-private.h"

#define MAP_MAX_COLS 15

/* ---- the column tables (maps-types.c) ------------------------------------ */

/* One column of a map type.  kind is an enum modalias_map_field_kind: the
 * parser reads the column by it, the accessors and
 * modalias_map_type_field_kind() answer from it. */
struct map_col {
	const char *name;      /* as in the file's header, and the device field it
				* is matched against unless dev_field says otherwise */
	const char *dev_field; /* the device field, where not the name (input bitmaps) */
	const char *tag;       /* its tag in a file2alias pattern, or NULL */
	uint8_t kind;          /* enum modalias_map_field_kind */
	uint8_t bits;          /* widest value */
	uint8_t width;         /* hex digits of its value in a pattern */
	uint16_t max_bit;      /* bitmaps: the kernel's *_MAX of today (bits above are dropped) */
};

struct map_type_desc {
	const char *name;     /* "usb": modules.usbmap */
	const char *bus;      /* the modalias bus of its devices, and of its patterns ("bus:…") */
	const char *head;     /* how its header line starts (what the reader recognises) … */
	const char *head_cols; /* … and the rest of it, which the writer adds */
	const struct map_col *cols;
	unsigned int n_cols;
	bool flagged;         /* column 0 is match_flags: column c counts when bit c - 1 is set */
};

extern const struct map_type_desc map_types[];
extern const unsigned int map_n_types;

/* Column indexes of the types that code names one by one. */
enum { U_FLAGS, U_VENDOR, U_PRODUCT, U_LO, U_HI, U_DC, U_DSC, U_DP, U_IC, U_ISC, U_IP, U_INFO };
enum { P_VENDOR, P_DEVICE, P_SUBVENDOR, P_SUBDEVICE, P_CLASS, P_MASK, P_DATA };
enum { I_CARDVENDOR, I_CARDDEVICE, I_DATA, I_VENDOR, I_FUNCTION };
enum { IN_FLAGS, IN_BUS, IN_VENDOR, IN_PRODUCT, IN_VERSION, IN_EV, IN_KEY, IN_SW = 13, IN_INFO };
enum { S_TYPE, S_EXTRA, S_ID, S_PROTO };

/* file2alias leaves out the keys below KEY_MIN_INTERESTING (no modalias
 * carries them) */
#define INPUT_KEY_MIN_INTERESTING 0x71

/* The bytes of a pcimap class (and class_mask), highest first: their
 * shift, their file2alias tag and the pci device field. */
struct map_pci_class_byte {
	unsigned int shift;
	const char *tag, *dev_field;
};
extern const struct map_pci_class_byte map_pci_class_bytes[3];

/* The file2alias order of the seriomap columns (not the map's order). */
extern const uint8_t map_serio_alias_order[4];

bool map_type_valid(int type);
/* The index of a column of the type, -ENOENT for a name it does not have. */
int map_col_index(enum modalias_map_type type, const char *name);

/* The match_flags bit of column c of a flagged type. */
static inline uint64_t map_col_flag(unsigned int c)
{
	return (uint64_t)1 << (c - 1);
}

/* The ISAPnP (vendor, function) words of a 7-character PNP id, and back. */
int pnp_id_to_words(const char *id, uint16_t *vendor, uint16_t *function);
void pnp_words_to_id(uint16_t vendor, uint16_t function, char id[8]);

/* ---- the object (maps.c) --------------------------------------------------- */

struct map_entry {
	char *module;
	unsigned int line;
	unsigned int n_cols;
	uint64_t *vals;                  /* every number of the row, column by column */
	unsigned int off[MAP_MAX_COLS + 1]; /* column c is vals[off[c]] … vals[off[c + 1] - 1] */
	char *str[3];                    /* ofmap: name, type, compatible ("" for "*") */
};

struct modalias_map {
	int refcount;
	struct modalias_ctx *ctx;
	enum modalias_map_type type;
	char *name;
	struct map_entry *entries;
	unsigned int n, cap;
	unsigned int word_bits;
};

void map_entry_free(struct map_entry *e);
/* Is bit b set in a bitmap column (words highest first)? */
bool map_bitmap_test(const struct modalias_map *map, const struct map_entry *e, unsigned int c,
		     unsigned int bit);

/* ---- table.c, for maps-alias.c --------------------------------------------- */

struct modalias_table;
/* adds pattern → module to the modules.alias source, with its origin (a
 * name registered once per file) and line */
int table_origin_register(struct modalias_table *t, const char *name, uint32_t *origin);
int table_add_alias(struct modalias_table *t, const char *pattern, const char *module,
		    uint32_t origin, uint32_t line);
