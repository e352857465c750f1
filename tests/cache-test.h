/*
 * The index cache tests' helpers (test-cache.c: the cache used as meant,
 * test-cache-damage.c: damaged caches): what a lookup answers, compared
 * with another table's answers, and the cache's file and log.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "cache-private.h"
#include "test-common.h"

#define NOBODY 65534
#define E1000E_ALIAS "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00"

/* Everything a lookup says: source, modules, builtin, patterns, origins. */
static inline char *answer(struct modalias_table *t, struct modalias_result *res, const char *alias)
{
	GString *s = g_string_new(NULL);
	int r = modalias_table_lookup(t, alias, res);

	if (r < 0) {
		g_string_printf(s, "error %d", r);
		return g_string_free(s, FALSE);
	}
	g_string_append(s, r ? modalias_result_get_source(res) : "-");
	for (int i = 0; i < r; i++) {
		g_string_append_printf(s, " %s%s", modalias_result_get_module(res, (unsigned int)i),
				       modalias_result_is_builtin(res, (unsigned int)i) ? "(builtin)" : "");
		for (unsigned int k = 0; k < modalias_result_get_pattern_count(res, (unsigned int)i); k++) {
			unsigned int line = 0;
			const char *o = modalias_result_get_pattern_origin(res, (unsigned int)i, k, &line);

			g_string_append_printf(s, " [%s %s:%u]", modalias_result_get_pattern(res, (unsigned int)i, k),
					       o, line);
		}
	}
	return g_string_free(s, FALSE);
}

/* The answers of the uncached table, for every alias of QUERIES. */
static inline GPtrArray *answers_of(struct modalias_table *t, const GPtrArray *queries)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	struct modalias_result *res;

	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	for (guint i = 0; i < queries->len; i++)
		g_ptr_array_add(out, answer(t, res, g_ptr_array_index(queries, i)));
	modalias_result_unref(res);
	return out;
}

/* How many of QUERIES T answers otherwise than WANT; QUIET: damage let
 * through on purpose, answers may differ (the first few are not shown). */
static inline unsigned int mismatches(struct modalias_table *t, const GPtrArray *queries, const GPtrArray *want,
				      bool quiet)
{
	struct modalias_result *res;
	unsigned int bad = 0;

	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	for (guint i = 0; i < queries->len; i++) {
		g_autofree char *got = answer(t, res, g_ptr_array_index(queries, i));

		if (strcmp(got, g_ptr_array_index(want, i)) != 0 && bad++ < 3 && !quiet)
			g_test_message("'%s': '%s', uncached '%s'", (char *)g_ptr_array_index(queries, i), got,
				       (char *)g_ptr_array_index(want, i));
	}
	modalias_result_unref(res);
	return bad;
}

static inline void remove_tree(const char *dir)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);

	g_assert_cmpint(system(cmd), ==, 0);
}

static inline char *cache_file(const char *cache_dir, const char *dir)
{
	char name[CACHE_NAME_MAX];

	cache_file_name(name, sizeof(name), dir);
	return g_build_filename(cache_dir, name, NULL);
}

static inline size_t log_lines(void)
{
	size_t n = 0;

	for (const char *p = test_log_text(); *p; p++)
		n += *p == '\n';
	return n;
}

/* Some 350 queries: every 8th recorded modalias, and one of each source. */
static inline GPtrArray *sample_queries(void)
{
	g_autoptr(GPtrArray) events = uevents_load();
	GPtrArray *q = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0, n = 0; i < events->len; i++) {
		const char *m = uevent_get(g_ptr_array_index(events, i), "MODALIAS");
		if (m && n++ % 8 == 0)
			g_ptr_array_add(q, g_strdup(m));
	}
	g_ptr_array_add(q, g_strdup("hid:b0003g0001v0000046Dp0000C52B"));
	g_ptr_array_add(q, g_strdup("acpi*:PNP0C0A:*"));
	g_ptr_array_add(q, g_strdup("fs-squashfs"));
	g_ptr_array_add(q, g_strdup("8139too"));
	g_ptr_array_add(q, g_strdup(E1000E_ALIAS));
	g_ptr_array_add(q, g_strdup("symbol:drm_need_swiotlb"));
	g_ptr_array_add(q, g_strdup("usbcore"));
	return q;
}
