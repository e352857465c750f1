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

/* ---- the corpus --------------------------------------------------------- */

static const char alphabet[] = "0123456789ABCDEFabcdef_-:,.*vpdisc";

/* A concrete string the pattern matches (most of the time: a negated or
 * odd bracket may not be honoured, which makes a near-miss — also fine). */
static char *instantiate(GRand *rng, const char *p)
{
	GString *s = g_string_new(NULL);

	while (*p) {
		if (*p == '*') {
			int n = g_rand_int_range(rng, 0, 4);
			for (int i = 0; i < n; i++)
				g_string_append_c(s, alphabet[g_rand_int_range(rng, 0, sizeof(alphabet) - 1)]);
			p++;
		} else if (*p == '?') {
			g_string_append_c(s, alphabet[g_rand_int_range(rng, 0, 16)]);
			p++;
		} else if (*p == '[') {
			const char *close = strchr(p + 1, ']');
			if (!close) {
				g_string_append_c(s, *p++);
				continue;
			}
			if (p[1] != '!' && p[1] != '^' && close > p + 1) {
				/* a member, or the low end of a range */
				g_string_append_c(s, p[1 + g_rand_int_range(rng, 0, (gint32)(close - p - 1))] == '-' ?
							     p[1] : p[1 + g_rand_int_range(rng, 0, (gint32)(close - p - 1))]);
			} else {
				g_string_append_c(s, 'Z');
			}
			p = close + 1;
		} else if (*p == '\\' && p[1]) {
			g_string_append_c(s, p[1]);
			p += 2;
		} else {
			g_string_append_c(s, *p++);
		}
	}
	return g_string_free(s, FALSE);
}

static char *near_miss(GRand *rng, const char *s)
{
	char *m = g_strdup(s);
	size_t len = strlen(m);

	if (len == 0)
		return m;
	switch (g_rand_int_range(rng, 0, 3)) {
	case 0: /* change one character */
		m[g_rand_int_range(rng, 0, (gint32)len)] = alphabet[g_rand_int_range(rng, 0, 22)];
		break;
	case 1: /* cut it short */
		m[g_rand_int_range(rng, 0, (gint32)len)] = '\0';
		break;
	default: { /* append */
		char *n = g_strconcat(m, "0", NULL);
		g_free(m);
		m = n;
	}
	}
	return m;
}

static GPtrArray *alias_lines(const char *path, bool patterns)
{
	g_autofree char *text = NULL;
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	char **lines;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		g_auto(GStrv) f = g_strsplit_set(*l, " \t", -1);
		if (g_strv_length(f) == 3 && strcmp(f[0], "alias") == 0)
			g_ptr_array_add(out, g_strdup(patterns ? f[1] : f[2]));
	}
	g_strfreev(lines);
	return out;
}

static GPtrArray *build_corpus(const char *dir, unsigned int *n_real)
{
	g_autofree char *alias_path = g_build_filename(dir, "modules.alias", NULL);
	g_autoptr(GPtrArray) pats = alias_lines(alias_path, true);
	g_autoptr(GPtrArray) mods = alias_lines(alias_path, false);
	g_autoptr(GPtrArray) events = uevents_load();
	GPtrArray *corpus = g_ptr_array_new_with_free_func(g_free);
	GRand *rng = g_rand_new_with_seed(20261202);

	for (guint i = 0; i < pats->len; i++) {
		char *s = instantiate(rng, g_ptr_array_index(pats, i));
		g_ptr_array_add(corpus, s);
		if (i % 4 == 0)
			g_ptr_array_add(corpus, near_miss(rng, s));
	}
	*n_real = 0;
	for (guint i = 0; i < events->len; i++) {
		const char *m = uevent_get(g_ptr_array_index(events, i), "MODALIAS");
		if (m && !strstr(m, "[") && !strstr(m, "]")) {
			g_ptr_array_add(corpus, g_strdup(m));
			(*n_real)++;
		}
	}
	/* the builtin modules' aliases */
	{
		g_autofree char *mi = g_build_filename(dir, "modules.builtin.modinfo", NULL);
		g_autofree char *text = NULL;
		gsize len = 0;

		if (g_file_get_contents(mi, &text, &len, NULL)) {
			for (const char *e = text; e < text + len; e += strlen(e) + 1) {
				const char *a = strstr(e, ".alias=");
				if (a && !strchr(e, '\n') && a < e + strlen(e)) {
					char *inst = instantiate(rng, a + 7);
					g_ptr_array_add(corpus, inst);
					g_ptr_array_add(corpus, near_miss(rng, inst));
				}
			}
		}
	}
	for (guint i = 0; i < mods->len; i += 7)
		g_ptr_array_add(corpus, g_strdup(g_ptr_array_index(mods, i)));
	/* spellings: '-' for '_', both sides */
	g_ptr_array_add(corpus, g_strdup("snd-hda-intel"));
	g_ptr_array_add(corpus, g_strdup("platform:i8042"));
	g_ptr_array_add(corpus, g_strdup("symbol:usb_register_driver"));
	g_ptr_array_add(corpus, g_strdup("ext4"));
	g_ptr_array_add(corpus, g_strdup("crc32c"));
	g_rand_free(rng);
	return corpus;
}

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
	unsigned int n_real = 0, matched = 0, bad = 0;

	g_assert_nonnull(kctx);
	kmod_set_log_priority(kctx, 0);
	kmod_load_resources(kctx);
	g_assert_cmpint(modalias_table_new_from_directory(ctx, dir, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_config(t, no_config), ==, 0);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	corpus = build_corpus(dir, &n_real);
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
	g_assert_cmpuint(matched, >, corpus->len / 2);
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
