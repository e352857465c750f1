/*
 * Oracle: every lookup answered as libkmod answers it.  On the committed
 * kernel index files (Debian 6.1's and a 2.6.35 build), a corpus of
 * concrete modaliases — every pattern instantiated, the real recorded
 * MODALIAS strings, module names, and near-misses — is resolved by
 * libmodalias and by kmod_module_new_from_lookup(); the modules must be
 * the same, in the same order (kmod's duplicates folded).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <libkmod.h>

#include "libmodalias-private.h"
#include "table-private.h"
#include "test-common.h"

#include "corpus.h"

/* ---- the comparison -------------------------------------------------------- */

/* kmod's answer, duplicates folded, as a space-separated string. */
static char *kmod_answer(struct kmod_ctx *kctx, const char *alias)
{
	struct kmod_list *list = NULL, *l;
	GString *s = g_string_new(NULL);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	int r = kmod_module_new_from_lookup(kctx, alias, &list);

	if (r < 0) {
		g_string_printf(s, "error %d", r);
		return g_string_free(s, FALSE);
	}
	kmod_list_foreach(l, list) {
		struct kmod_module *m = kmod_module_get_module(l);
		const char *name = kmod_module_get_name(m);
		if (!g_hash_table_contains(seen, name)) {
			g_hash_table_add(seen, g_strdup(name));
			g_string_append_printf(s, "%s%s", s->len ? " " : "", name);
		}
		kmod_module_unref(m);
	}
	kmod_module_unref_list(list);
	return g_string_free(s, FALSE);
}

static char *our_answer(struct modalias_table *t, struct modalias_result *res, const char *alias)
{
	GString *s = g_string_new(NULL);
	int r = modalias_table_lookup(t, alias, res);

	if (r < 0) {
		g_string_printf(s, "error %d", r);
		return g_string_free(s, FALSE);
	}
	for (unsigned int i = 0; i < modalias_result_get_count(res); i++)
		g_string_append_printf(s, "%s%s", i ? " " : "", modalias_result_get_module(res, i));
	return g_string_free(s, FALSE);
}

struct fixture {
	const char *name;
	unsigned int min_corpus;
};

static void test_oracle(gconstpointer data)
{
	const struct fixture *fx = data;
	g_autofree char *dir = g_test_build_filename(G_TEST_DIST, "data", fx->name, NULL);
	const char *no_config[] = { NULL };
	struct modalias_ctx *ctx = test_ctx_new();
	struct kmod_ctx *kctx = kmod_new(dir, no_config);
	struct modalias_table *t;
	struct modalias_result *res;
	g_autoptr(GPtrArray) corpus = NULL;
	unsigned int n_real = 0, n_patterns = 0, matched = 0, bad = 0;

	g_assert_nonnull(kctx);
	kmod_set_log_priority(kctx, 0);
	kmod_load_resources(kctx);
	g_assert_cmpint(modalias_table_new_from_directory(ctx, dir, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_config(t, no_config), ==, 0);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	{
		g_autoptr(GPtrArray) events = uevents_load();
		g_autoptr(GPtrArray) real = g_ptr_array_new();
		for (guint i = 0; i < events->len; i++) {
			const char *m = uevent_get(g_ptr_array_index(events, i), "MODALIAS");
			if (m)
				g_ptr_array_add(real, (gpointer)m);
		}
		corpus = build_corpus(dir, real, &n_real, &n_patterns);
	}
	g_assert_cmpuint(corpus->len, >=, fx->min_corpus);
	for (guint i = 0; i < corpus->len; i++) {
		const char *alias = g_ptr_array_index(corpus, i);
		g_autofree char *want = kmod_answer(kctx, alias);
		g_autofree char *got = our_answer(t, res, alias);

		if (strcmp(want, got) != 0) {
			if (bad++ < 20)
				g_test_message("DISAGREE on '%s': kmod '%s', libmodalias '%s'", alias, want, got);
		}
		matched += got[0] != '\0' && strncmp(got, "error", 5) != 0;
	}
	g_test_message("%s: %u aliases (%u real recorded ones), %u resolved, %u disagreements",
		       fx->name, corpus->len, n_real, matched, bad);
	g_assert_cmpuint(bad, ==, 0);
	/* most instantiated patterns must resolve, or the corpus tests little */
	g_assert_cmpuint(matched, >, n_patterns * 3 / 4);
	modalias_result_unref(res);
	modalias_table_unref(t);
	kmod_unref(kctx);
	modalias_ctx_unref(ctx);
}

static const struct fixture fixtures[] = {
	{ "linux-6.1.0-57-amd64", 20000 },
	{ "linux-2.6.35.7-samsung", 1500 },
};

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(fixtures); i++) {
		g_autofree char *path = g_strdup_printf("/oracle/%s", fixtures[i].name);
		g_test_add_data_func(path, &fixtures[i], test_oracle);
	}
	return g_test_run();
}
