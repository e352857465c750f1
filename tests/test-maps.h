/*
 * What the tests of the legacy map files share: fixture paths, loading a
 * map, reading a field, a row's patterns.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "test-common.h"

static inline char *data_path(const char *dir, const char *file)
{
	return g_test_build_filename(G_TEST_DIST, "data", dir, file, NULL);
}

static inline struct modalias_map *load(struct modalias_ctx *ctx, const char *dir, const char *file,
				 int want_bad)
{
	g_autofree char *path = data_path(dir, file);
	struct modalias_map *map = NULL;

	g_assert_cmpint(modalias_map_new_from_file(ctx, path, -1, &map), ==, want_bad);
	g_assert_nonnull(map);
	return map;
}

static inline uint64_t field(const struct modalias_map *map, unsigned int i, const char *name, unsigned int item)
{
	uint64_t v = 0;

	g_assert_cmpint(modalias_map_get_field(map, i, name, item, &v), ==, 0);
	return v;
}

/* The patterns of a row, space-separated. */
static inline char *aliases(const struct modalias_map *map, unsigned int i, unsigned int flags)
{
	char **v;
	int n = modalias_map_get_aliases(map, i, flags, &v);
	GString *s = g_string_new(NULL);

	g_assert_cmpint(n, >=, 0);
	for (int k = 0; k < n; k++) {
		g_string_append_printf(s, "%s%s", k ? " " : "", v[k]);
		free(v[k]);
	}
	g_assert_null(v[n]);
	free(v);
	return g_string_free(s, FALSE);
}
