/*
 * libmodalias - legacy modules.*map files, internals shared by maps.c,
 * table.c and the tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdint.h>

#include "libmodalias-private.h"

#define MAP_MAX_COLS 15

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

struct modalias_table;
/* table.c: adds pattern → module to the modules.alias source, with its
 * origin (a name registered once per file) and line */
int table_origin_register(struct modalias_table *t, const char *name, uint32_t *origin);
int table_add_alias(struct modalias_table *t, const char *pattern, const char *module,
		    uint32_t origin, uint32_t line);

/* The ISAPnP (vendor, function) words of a 7-character PNP id, and back. */
int pnp_id_to_words(const char *id, uint16_t *vendor, uint16_t *function);
void pnp_words_to_id(uint16_t vendor, uint16_t function, char id[8]);
