/*
 * libmodalias - legacy map files: the map object (struct modalias_map,
 * declared in maps-private.h): its references, and reading its rows'
 * modules, lines and fields, each column read as its kind in the column
 * tables (maps-types.c) says.  It may not create a map (maps-parse.c
 * does), match, make patterns or write; it reads no file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdlib.h>

#include "maps-private.h"

void map_entry_free(struct map_entry *e)
{
	free(e->module);
	free(e->vals);
	for (int i = 0; i < 3; i++)
		free(e->str[i]);
}

MODALIAS_EXPORT struct modalias_map *modalias_map_ref(struct modalias_map *map)
{
	if (map)
		REF_INC(map->refcount);
	return map;
}

MODALIAS_EXPORT struct modalias_map *modalias_map_unref(struct modalias_map *map)
{
	if (!map)
		return NULL;
	if (REF_DEC(map->refcount) > 0)
		return map;
	for (unsigned int i = 0; i < map->n; i++)
		map_entry_free(&map->entries[i]);
	free(map->entries);
	free(map->name);
	modalias_ctx_unref(map->ctx);
	free(map);
	return NULL;
}

MODALIAS_EXPORT int modalias_map_get_type(const struct modalias_map *map)
{
	return map ? (int)map->type : -EINVAL;
}

MODALIAS_EXPORT int modalias_map_get_count(const struct modalias_map *map)
{
	return map ? (int)map->n : -EINVAL;
}

MODALIAS_EXPORT const char *modalias_map_get_name(const struct modalias_map *map)
{
	return map ? map->name : NULL;
}

MODALIAS_EXPORT const char *modalias_map_get_module(const struct modalias_map *map,
						    unsigned int index)
{
	return map && index < map->n ? map->entries[index].module : NULL;
}

MODALIAS_EXPORT unsigned int modalias_map_get_line(const struct modalias_map *map,
						   unsigned int index)
{
	return map && index < map->n ? map->entries[index].line : 0;
}

MODALIAS_EXPORT int modalias_map_get_word_bits(const struct modalias_map *map)
{
	return map ? (int)map->word_bits : -EINVAL;
}

MODALIAS_EXPORT int modalias_map_set_word_bits(struct modalias_map *map, unsigned int bits)
{
	if (!map || (bits != 32 && bits != 64))
		return -EINVAL;
	map->word_bits = bits;
	return 0;
}

static int lookup_col(const struct modalias_map *map, unsigned int index, const char *field,
		      const struct map_entry **e)
{
	int c;

	if (!map || !field)
		return -EINVAL;
	c = map_col_index(map->type, field);
	if (c < 0)
		return c;
	if (index >= map->n)
		return -ERANGE;
	*e = &map->entries[index];
	return c;
}

MODALIAS_EXPORT int modalias_map_get_field_count(const struct modalias_map *map,
						 unsigned int index, const char *field)
{
	const struct map_entry *e;
	int c = lookup_col(map, index, field, &e);

	if (c < 0)
		return c;
	if (map_types[map->type].cols[c].kind == MODALIAS_MAP_FIELD_STRING)
		return 1;
	return (int)(e->off[c + 1] - e->off[c]);
}

MODALIAS_EXPORT int modalias_map_get_field(const struct modalias_map *map, unsigned int index,
					   const char *field, unsigned int item, uint64_t *value)
{
	const struct map_entry *e;
	int c = lookup_col(map, index, field, &e);

	if (c < 0)
		return c;
	if (map_types[map->type].cols[c].kind == MODALIAS_MAP_FIELD_STRING || !value)
		return -EINVAL;
	if (item >= e->off[c + 1] - e->off[c])
		return -ERANGE;
	/* bitmaps: item 0 is the lowest word, the file's last */
	if (map_types[map->type].cols[c].kind == MODALIAS_MAP_FIELD_BITMAP)
		item = e->off[c + 1] - e->off[c] - 1 - item;
	*value = e->vals[e->off[c] + item];
	return 0;
}

MODALIAS_EXPORT int modalias_map_get_string(const struct modalias_map *map, unsigned int index,
					    const char *field, const char **value)
{
	const struct map_entry *e;
	int c = lookup_col(map, index, field, &e);

	if (c < 0)
		return c;
	if (map_types[map->type].cols[c].kind != MODALIAS_MAP_FIELD_STRING || !value)
		return -EINVAL;
	*value = e->str[c];
	return 0;
}

bool map_bitmap_test(const struct modalias_map *map, const struct map_entry *e, unsigned int c,
		     unsigned int bit)
{
	unsigned int n = e->off[c + 1] - e->off[c], word = bit / map->word_bits;

	if (word >= n)
		return false;
	return (e->vals[e->off[c] + n - 1 - word] >> (bit % map->word_bits)) & 1;
}
