/*
 * libmodalias - the arrays of a table, walked from their one description
 * (TABLE_ARRAYS and LAYER_ARRAYS in table-private.h): each array's pointer
 * and count read and set, the table's arrays freed, and table_own(), which
 * copies a table mapped from an index cache to the heap before it changes
 * (the whole table, or its own arrays and the layers that change, the
 * others left in the mapping).
 *
 * It knows no array by name: what is true of one array (how the cache
 * checks it, how the index builds it) is said where that is done.  It
 * calls nothing above it (cache.c, table.c, index.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "table-private.h"

/* whether a row is in layer l (wild: an fnmatch layer) */
#define IN_ALL true
#define IN_WILD wild
#define IN_EXACT (!wild)
#define OF_TABLE false
#define OF_INDEX true

void table_array_get(const struct modalias_table *t, unsigned int i, struct table_array *a)
{
	if (i < TABLE_ARRAY_MAX) {
		switch ((enum table_array_id)i) {
#define X(id, name_, ptr, type, count_, in, of)                                                              \
	case TABLE_ARRAY_##id:                                                                              \
		*a = (struct table_array){ .name = (name_), .size = sizeof(type), .of_index = OF_##of,     \
					   .layer = LAYER_MAX, .p = (ptr), .count = (count_) };               \
		return;
			TABLE_ARRAYS(X)
#undef X
		case TABLE_ARRAY_MAX:
			break;
		}
	} else {
		enum layer_id l = (enum layer_id)((i - TABLE_ARRAY_MAX) / LAYER_ARRAY_MAX);
		const struct layer *ly = &t->layers[l];
		const struct index *ix = &ly->index;
		bool wild = !layer_is_exact(l);

		switch ((enum layer_array_id)((i - TABLE_ARRAY_MAX) % LAYER_ARRAY_MAX)) {
#define X(id, name_, ptr, type, count_, in, of)                                                              \
	case LAYER_ARRAY_##id:                                                                              \
		*a = (struct table_array){ .name = (name_), .size = sizeof(type), .of_index = OF_##of,     \
					   .layer = l, .p = (ptr), .count = (IN_##in) ? (count_) : 0 };       \
		return;
			LAYER_ARRAYS(X)
#undef X
		case LAYER_ARRAY_MAX:
			break;
		}
	}
	memset(a, 0, sizeof(*a));
}

void table_array_set(struct modalias_table *t, unsigned int i, void *p)
{
	if (i < TABLE_ARRAY_MAX) {
		switch ((enum table_array_id)i) {
#define X(id, name_, ptr, ...)                                                                               \
	case TABLE_ARRAY_##id:                                                                              \
		(ptr) = p;                                                                                  \
		return;
			TABLE_ARRAYS(X)
#undef X
		case TABLE_ARRAY_MAX:
			return;
		}
	} else {
		struct layer *ly = &t->layers[(i - TABLE_ARRAY_MAX) / LAYER_ARRAY_MAX];
		struct index *ix = &ly->index;

		switch ((enum layer_array_id)((i - TABLE_ARRAY_MAX) % LAYER_ARRAY_MAX)) {
#define X(id, name_, ptr, ...)                                                                               \
	case LAYER_ARRAY_##id:                                                                              \
		(ptr) = p;                                                                                  \
		return;
			LAYER_ARRAYS(X)
#undef X
		case LAYER_ARRAY_MAX:
			return;
		}
	}
}

static bool in_mapping(const struct modalias_table *t, const void *p)
{
	uintptr_t at = (uintptr_t)p, start = (uintptr_t)t->mapping;

	return t->mapping && at >= start && at - start < t->mapping_size;
}

void table_array_free(struct modalias_table *t, unsigned int i)
{
	struct table_array a;

	table_array_get(t, i, &a);
	if (!in_mapping(t, a.p))
		free(a.p);
	table_array_set(t, i, NULL);
}

void table_arrays_release(struct modalias_table *t)
{
	for (unsigned int i = 0; i < ARRAY_MAX; i++)
		table_array_free(t, i);
	if (t->mapping)
		munmap(t->mapping, t->mapping_size);
	t->mapping = NULL;
	t->mapping_size = 0;
}

int table_changeable(struct modalias_table *t)
{
	/* hashtab_add() probes until a free slot */
	if (in_mapping(t, t->module_ids.slots) && !hashtab_ok(&t->module_ids, t->pool.len, t->n_modules)) {
		err(t->ctx, "damaged index cache (module names: a slot out of range, or none free)\n");
		return -EINVAL;
	}
	return 0;
}

int table_own_layers(struct modalias_table *t, unsigned int layers)
{
	struct modalias_table c;
	bool still_mapped = false;
	unsigned int i;
	int r;

	if (!t->mapping)
		return 0;
	if ((r = table_changeable(t)) < 0)
		return r;
	c = *t;
	for (i = 0; i < ARRAY_MAX; i++) {
		struct table_array a;
		void *p = NULL;

		table_array_get(t, i, &a);
		if (!in_mapping(t, a.p))
			continue; /* on the heap already, or none */
		if (a.layer != LAYER_MAX && !(layers & 1u << a.layer)) {
			still_mapped = true;
			continue;
		}
		if (a.count) {
			p = malloc(a.count * a.size);
			if (!p)
				break;
			memcpy(p, a.p, a.count * a.size);
		}
		table_array_set(&c, i, p);
	}
	if (i < ARRAY_MAX) {
		/* free what was copied; the table stays as it was */
		while (i-- > 0) {
			struct table_array copy, was;

			table_array_get(&c, i, &copy);
			table_array_get(t, i, &was);
			if (copy.p != was.p)
				free(copy.p);
		}
		return -ENOMEM;
	}
	if (!still_mapped) {
		munmap(t->mapping, t->mapping_size);
		c.mapping = NULL;
		c.mapping_size = 0;
	}
	*t = c;
	return 0;
}

int table_own(struct modalias_table *t)
{
	return table_own_layers(t, LAYERS_ALL);
}
