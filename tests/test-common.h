/*
 * Shared helpers of the GLib tests.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "libmodalias.h"

/* A scratch tree removed (rm -rf) */
static inline void test_rm_rf(const char *path)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", path);
	g_assert_cmpint(system(cmd), ==, 0);
}

/* Every library message of a test lands here, so tests can assert on it. */
static GString *test_log;
static int test_log_worst = 8; /* the most severe priority logged, 8: none */

static void test_log_fn(void *data, int priority, const char *file, int line,
			const char *fn, const char *format, va_list args)
{
	if (!test_log)
		test_log = g_string_new(NULL);
	g_string_append_vprintf(test_log, format, args);
	if (priority < test_log_worst)
		test_log_worst = priority;
}

static inline struct modalias_ctx *test_ctx_new(void)
{
	struct modalias_ctx *ctx;

	g_assert_cmpint(modalias_ctx_new(&ctx), ==, 0);
	modalias_ctx_set_log_fn(ctx, test_log_fn, NULL);
	modalias_ctx_set_log_priority(ctx, 3);
	if (test_log)
		g_string_truncate(test_log, 0);
	test_log_worst = 8;
	return ctx;
}

static inline const char *test_log_text(void)
{
	return test_log ? test_log->str : "";
}

static inline void test_log_clear(void)
{
	if (test_log)
		g_string_truncate(test_log, 0);
	test_log_worst = 8;
}

/* One recorded kernel event of tests/data/uevents/uevents.txt. */
struct uevent {
	char *source;
	GPtrArray *env; /* "NAME=value", NULL-terminated */
};

static inline const char *uevent_get(const struct uevent *ev, const char *name)
{
	size_t len = strlen(name);

	for (guint i = 0; i + 1 < ev->env->len; i++) {
		const char *kv = g_ptr_array_index(ev->env, i);
		if (strncmp(kv, name, len) == 0 && kv[len] == '=')
			return kv + len + 1;
	}
	return NULL;
}

static inline void uevent_free(gpointer p)
{
	struct uevent *ev = p;

	g_free(ev->source);
	g_ptr_array_unref(ev->env);
	g_free(ev);
}

/* Reads every block of the recorded events. */
static inline GPtrArray *uevents_load(void)
{
	g_autofree char *path = g_test_build_filename(G_TEST_DIST, "data", "uevents", "uevents.txt", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	GPtrArray *all = g_ptr_array_new_with_free_func(uevent_free);
	struct uevent *cur = NULL;
	char **lines;

	if (!g_file_get_contents(path, &text, NULL, &error))
		g_error("%s", error->message);
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		if (g_str_has_prefix(*l, "# source: ")) {
			if (cur)
				g_ptr_array_add(cur->env, NULL);
			cur = g_new0(struct uevent, 1);
			cur->source = g_strdup(*l + 10);
			cur->env = g_ptr_array_new_with_free_func(g_free);
			g_ptr_array_add(all, cur);
		} else if (cur && **l && **l != '#') {
			g_ptr_array_add(cur->env, g_strdup(*l));
		}
	}
	if (cur)
		g_ptr_array_add(cur->env, NULL);
	g_strfreev(lines);
	g_assert_cmpuint(all->len, >, 2800);
	return all;
}

static inline char *test_format(struct modalias_dev *dev)
{
	char *s = NULL;

	g_assert_cmpint(modalias_dev_format(dev, &s), ==, 0);
	g_assert_nonnull(s);
	return s;
}
