/*
 * A corpus of concrete modaliases for a kernel's module directory: every
 * pattern of its modules.alias instantiated, near-misses, the builtin
 * aliases, the real recorded MODALIAS strings, module names.  Shared by
 * the oracle test and the benchmark.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>

#include <glib.h>

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
		/* depmod's "alias %s %s": the module is the last word, the
		 * pattern all between (arm64 has aliases with spaces) */
		const char *sp = strrchr(*l, ' ');
		if (g_str_has_prefix(*l, "alias ") && sp && sp > *l + 6)
			g_ptr_array_add(out, patterns ? g_strndup(*l + 6, (gsize)(sp - *l - 6)) : g_strdup(sp + 1));
	}
	g_strfreev(lines);
	return out;
}

/* real: MODALIAS strings recorded on real machines */
static GPtrArray *build_corpus(const char *dir, const GPtrArray *real, unsigned int *n_real,
				unsigned int *n_patterns)
{
	g_autofree char *alias_path = g_build_filename(dir, "modules.alias", NULL);
	g_autoptr(GPtrArray) pats = alias_lines(alias_path, true);
	g_autoptr(GPtrArray) mods = alias_lines(alias_path, false);
	GPtrArray *corpus = g_ptr_array_new_with_free_func(g_free);
	GRand *rng = g_rand_new_with_seed(20261202);

	*n_patterns = pats->len;
	for (guint i = 0; i < pats->len; i++) {
		char *s = instantiate(rng, g_ptr_array_index(pats, i));
		g_ptr_array_add(corpus, s);
		if (i % 4 == 0)
			g_ptr_array_add(corpus, near_miss(rng, s));
	}
	*n_real = 0;
	for (guint i = 0; i < real->len; i++) {
		const char *m = g_ptr_array_index(real, i);
		if (!strchr(m, '[') && !strchr(m, ']')) {
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

