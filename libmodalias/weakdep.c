/*
 * libmodalias - weak dependencies: modules.weakdep, which kmod >= 33's
 * depmod writes from the modules' MODULE_WEAKDEP() ("weakdep MODULE DEP"
 * lines).  A weak dependency is not loaded with its module (modprobe and
 * libkmod's probe leave it out); initramfs generators copy it beside the
 * module, which may ask for it later.  Read from the table's directory when
 * first asked, and kept with the table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libmodalias-private.h"
#include "table-private.h"

struct weakdep_module {
	const char *name;
	size_t first; /* into vec: its dependencies, then NULL */
};

struct weakdeps {
	char *buf; /* the file, its words cut in place */
	const char **vec;
	struct weakdep_module *mods;
	size_t n_mods;
};

void weakdeps_free(struct weakdeps *w)
{
	if (!w)
		return;
	free(w->buf);
	free(w->vec);
	free(w->mods);
	free(w);
}

/* Module names as kmod compares them: '-' and '_' alike */
static bool same_module(const char *a, const char *b)
{
	if (!a || !b)
		return false;
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return false;
	return *a == *b;
}

static char *next_word(char **p, char *end)
{
	char *s = *p, *w;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == end)
		return NULL;
	w = s;
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	*s = '\0';
	*p = s < end ? s + 1 : end;
	return w;
}

struct weakdep_pair {
	size_t module;
	const char *dep;
};

/* The lines, in the file's order, each module's dependencies gathered
 * (depmod writes a module's lines together; a module named again adds to
 * its first run). */
static int weakdeps_parse(struct weakdeps *w, size_t len)
{
	char *line = w->buf, *end = w->buf + len;
	size_t n_words = 1, n_pairs = 0, at = 0, *fill = NULL;
	struct weakdep_pair *pairs;
	int r = -ENOMEM;

	for (size_t i = 0; i < len; i++)
		n_words += w->buf[i] == ' ' || w->buf[i] == '\t' || w->buf[i] == '\n';
	pairs = calloc(n_words, sizeof(*pairs));
	w->mods = calloc(n_words, sizeof(*w->mods));
	if (!pairs || !w->mods)
		goto out;
	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line)), *eol = nl ? nl : end;
		char *p = line, *word = next_word(&p, eol), *mod = word ? next_word(&p, eol) : NULL;
		size_t m = 0;

		line = nl ? nl + 1 : end;
		if (!mod || strcmp(word, "weakdep") != 0)
			continue; /* a comment, an empty or another line */
		while (m < w->n_mods && !same_module(w->mods[m].name, mod))
			m++;
		for (char *dep; (dep = next_word(&p, eol));) {
			if (m == w->n_mods)
				w->mods[w->n_mods++].name = mod;
			w->mods[m].first++; /* counted here, placed below */
			pairs[n_pairs++] = (struct weakdep_pair){ m, dep };
		}
	}
	/* each module's run: its dependencies, then a NULL */
	for (size_t m = 0; m < w->n_mods; m++) {
		size_t count = w->mods[m].first;
		w->mods[m].first = at;
		at += count + 1;
	}
	w->vec = calloc(at + 1, sizeof(*w->vec));
	fill = calloc(w->n_mods + 1, sizeof(*fill));
	if (!w->vec || !fill)
		goto out;
	for (size_t i = 0; i < n_pairs; i++)
		w->vec[w->mods[pairs[i].module].first + fill[pairs[i].module]++] = pairs[i].dep;
	r = 0;
out:
	free(pairs);
	free(fill);
	return r;
}

static int weakdeps_load(struct modalias_table *t, struct weakdeps **ret)
{
	const char *dir = t->pool.buf + t->dir;
	char *path = NULL;
	struct weakdeps *w = calloc(1, sizeof(*w));
	size_t len = 0;
	int r;

	if (!w)
		return -ENOMEM;
	if (asprintf(&path, "%s/modules.weakdep", dir) < 0) {
		free(w);
		return -ENOMEM;
	}
	r = table_slurp(t, path, &w->buf, &len, true);
	if (r == -ENOENT) {
		dbg(t->ctx, "%s: not present: no weak dependencies (depmod before kmod 33)\n", path);
		r = 0;
	} else if (r >= 0) {
		r = weakdeps_parse(w, len);
	}
	free(path);
	if (r < 0) {
		weakdeps_free(w);
		return r;
	}
	*ret = w;
	return 0;
}

MODALIAS_EXPORT int modalias_table_get_weakdeps(struct modalias_table *t, const char *module,
						const char *const **ret)
{
	static const char *const none[] = { NULL };
	int r;

	if (!t || !module || !ret)
		return -EINVAL;
	*ret = none;
	if (!t->dir)
		return 0;
	if (!t->weakdeps && (r = weakdeps_load(t, &t->weakdeps)) < 0)
		return r;
	for (size_t m = 0; m < t->weakdeps->n_mods; m++)
		if (same_module(t->weakdeps->mods[m].name, module)) {
			const char *const *v = t->weakdeps->vec + t->weakdeps->mods[m].first;
			int n = 0;

			while (v[n])
				n++;
			*ret = v;
			return n;
		}
	return 0;
}
