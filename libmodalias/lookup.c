/*
 * libmodalias - lookups: a query normalised as kmod does, looked up in
 * each layer's index in kmod's order (the first layer with a match wins),
 * every candidate confirmed with the glob matcher; and the result object
 * that holds the answer, the modules in kmod's order with their patterns.
 *
 * It only reads a table (a table changed since its index was built is
 * indexed first, by index.c); whatever a table mapped from an index cache
 * holds is bounded here where it is read: every probe, run and chain.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "table-private.h"

/* ---- results --------------------------------------------------------------- */

struct res_module {
	uint32_t module;
	uint32_t first, count; /* into pats */
};

struct modalias_result {
	int refcount;
	const struct modalias_table *table;
	enum layer_id layer;
	char *query;
	size_t query_cap;
	/* trigram keys probed by the current lookup: each probed once, so a
	 * pattern (which has one key) is looked at once */
	struct slot *probed;
	size_t probed_cap;
	uint32_t gen;
	uint32_t *hits; /* matched pattern ids */
	size_t n_hits, cap_hits;
	struct res_module *mods;
	size_t n_mods, cap_mods;
	uint32_t *pats;
	size_t cap_pats;
};

MODALIAS_EXPORT int modalias_result_new(struct modalias_result **ret)
{
	struct modalias_result *r;

	if (!ret)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->refcount = 1;
	*ret = r;
	return 0;
}

MODALIAS_EXPORT struct modalias_result *modalias_result_ref(struct modalias_result *r)
{
	if (r)
		REF_INC(r->refcount);
	return r;
}

MODALIAS_EXPORT struct modalias_result *modalias_result_unref(struct modalias_result *r)
{
	if (!r)
		return NULL;
	if (REF_DEC(r->refcount) > 0)
		return r;
	free(r->query);
	free(r->probed);
	free(r->hits);
	free(r->mods);
	free(r->pats);
	free(r);
	return NULL;
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return true;
	while (c < need)
		c *= 2;
	n = realloc(*p, c * size);
	if (!n)
		return false;
	*p = n;
	*cap = c;
	return true;
}

static int hit(struct modalias_result *res, uint32_t id)
{
	/* two prefix lengths whose keys collide share a bucket */
	for (size_t i = 0; i < res->n_hits; i++)
		if (res->hits[i] == id)
			return 0;
	if (!grow((void **)&res->hits, &res->cap_hits, res->n_hits + 1, sizeof(*res->hits)))
		return -ENOMEM;
	res->hits[res->n_hits++] = id;
	return 0;
}

static inline int check(const struct modalias_table *t, const struct layer *ly,
			struct modalias_result *res, uint32_t entry, const char *q)
{
	uint32_t id = entry & ID_MASK;
	const char *s;
	bool ok;

	if (id >= ly->n) /* a cache's ids are checked here, not at load */
		return 0;
	s = t->pool.buf + ly->patterns[id].str;
	/* a cheap reject on the first byte */
	if (s[0] != q[0] && s[0] != '*' && s[0] != '?' && s[0] != '[' && s[0] != '\\')
		return 0;
	ok = (entry & ID_LIBC) ? glob_match_libc(s, q) : glob_match(s, q);
	return ok ? hit(res, id) : 0;
}

static int check_run(const struct modalias_table *t, const struct layer *ly,
		     struct modalias_result *res, const struct slot *sl, const char *q)
{
	const uint32_t *ids = ly->index.ids;

	if (!sl)
		return 0;
	/* a run ends at ID_LAST, and never past the array */
	for (uint32_t k = sl->first; k < ly->n; k++) {
		int r = check(t, ly, res, ids[k], q);
		if (r < 0)
			return r;
		if (ids[k] & ID_LAST)
			return 0;
	}
	return 0;
}

static int lookup_wild(const struct modalias_table *t, const struct layer *ly,
		       struct modalias_result *res, const char *q, size_t qlen)
{
	const struct index *ix = &ly->index;
	uint32_t h = FNV_OFFSET;
	int r;

	/* no anchored pattern that starts like the query has a longer prefix */
	size_t walk = qlen ? ix->max_prefix_first[(unsigned char)q[0]] : 0;

	for (size_t l = 0; l <= qlen && l <= walk; l++) {
		if (ix->prefix_len_present[l]) {
			uint32_t key = prefix_key(h, (uint32_t)l);

			/* most of the lengths walked have no pattern: the
			 * filter says so without a probe */
			r = prefix_bloom_test(ix->prefix_bloom, key) ?
				    check_run(t, ly, res, slot_lookup(ix->prefix, ix->prefix_cap, key), q) :
				    0;
			if (r < 0)
				return r;
		}
		if (l < qlen)
			h = fnv_step(h, (unsigned char)q[l]);
	}
	if (ix->tri_cap && qlen >= 3 && (ix->float_first[(unsigned char)q[0]] || ix->wild_first)) {
		size_t need = 16;

		while (need < 2 * qlen)
			need *= 2;
		if (res->probed_cap < need) {
			struct slot *p = calloc(need, sizeof(*p));
			if (!p)
				return -ENOMEM;
			free(res->probed);
			res->probed = p;
			res->probed_cap = need;
			res->gen = 0;
		}
		if (++res->gen == 0) {
			memset(res->probed, 0, res->probed_cap * sizeof(*res->probed));
			res->gen = 1;
		}
		for (size_t i = 0, pass = 0; i + 3 <= qlen;) {
			/* the query's first byte, then (when some floating pattern
			 * starts with a wildcard) none */
			uint32_t tr = tri_key(tri_pack(q + i), pass ? 0 : (unsigned char)q[0]);
			size_t k;

			if (!pass && !ix->float_first[(unsigned char)q[0]]) {
				/* nothing starts like the query: straight to the second pass */
				pass = 1;
				continue;
			}
			if (++i + 3 > qlen && !pass && ix->wild_first) {
				i = 0;
				pass = 1;
			}
			if (!bloom_test(ix->tri_bloom, tr))
				continue;
			/* a trigram seen earlier in the query was probed then */
			for (k = mix(tr) & (res->probed_cap - 1);
			     res->probed[k].first == res->gen && res->probed[k].key != tr;
			     k = (k + 1) & (res->probed_cap - 1))
				;
			if (res->probed[k].first == res->gen)
				continue;
			res->probed[k].key = tr;
			res->probed[k].first = res->gen;
			r = check_run(t, ly, res, slot_lookup(ix->tri, ix->tri_cap, tr), q);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static int lookup_exact(const struct modalias_table *t, const struct layer *ly,
			struct modalias_result *res, const char *q, size_t qlen)
{
	const struct index *ix = &ly->index;
	const struct hashtab_slot *sl;

	/* no name that long, or starting so: no need to hash the query */
	if (!ix->exact.cap || qlen > ix->exact_max_len || !ix->float_first[(unsigned char)q[0]])
		return 0;
	sl = hashtab_get(&ix->exact, &t->pool, q, qlen, hash_bytes(q, qlen));
	/* a chain ends at UINT32_MAX, and after n steps whatever a cache holds */
	for (uint32_t id = sl ? sl->value : UINT32_MAX, steps = 0; id < ly->n && steps < ly->n;
	     id = ix->ids[id], steps++) {
		int r = hit(res, id);
		if (r < 0)
			return r;
	}
	return 0;
}

/* How kmod orders the modules a layer matches. */
enum hit_order {
	ORDER_TABLE,   /* modprobe.d: its own order */
	ORDER_MODULES, /* by place in modules.order (then first appearance): the
			* priority depmod gives each value of modules.alias.bin */
	ORDER_TRIE,    /* modules.builtin.alias.bin: see trie_before() */
};

static bool is_wild(char c)
{
	return c == '*' || c == '?' || c == '[';
}

/* Whether kmod's walk of its index (libkmod-index.c, index_mm_searchwild)
 * meets pattern a before pattern b, both matching the query.  Along the
 * query's literal path it takes, at each depth, the children '*', '?' and
 * '[' first, in that order, then goes on down (or takes the node's own
 * values where the query ends); below a wildcard it visits every child in
 * byte order and a node's own values after its children.  So: where a and b
 * part in their literal head, a wildcard comes first, '*' before '?' before
 * '['; where they part past a wildcard, the smaller byte, and a string ends
 * after all of its extensions. */
static bool trie_before(const char *a, const char *b)
{
	bool below_wild = false;
	size_t i = 0;
	unsigned int ca, cb;

	for (; a[i] && a[i] == b[i]; i++)
		below_wild = below_wild || is_wild(a[i]);
	if (a[i] == b[i])
		return false;
	if (!below_wild && (is_wild(a[i]) || is_wild(b[i]))) {
		static const char rank[] = "*?[";
		ca = is_wild(a[i]) ? (unsigned int)(strchr(rank, a[i]) - rank) : 3;
		cb = is_wild(b[i]) ? (unsigned int)(strchr(rank, b[i]) - rank) : 3;
		return ca < cb;
	}
	ca = a[i] ? (unsigned char)a[i] : 256;
	cb = b[i] ? (unsigned char)b[i] : 256;
	return ca < cb;
}

/* Whether hit x comes before hit y in kmod's answer.  depmod gives every
 * builtin alias the same priority, and libkmod's search puts each value it
 * finds before the equal ones found earlier: the answer is the walk's order
 * reversed, a pattern's own modules in modules.builtin.modinfo's order (depmod
 * stored them reversed too). */
static bool hit_before(const struct modalias_table *t, const struct layer *ly, enum hit_order order,
		       uint32_t x, uint32_t y)
{
	if (order == ORDER_TRIE) {
		const char *a = t->pool.buf + ly->patterns[x].str, *b = t->pool.buf + ly->patterns[y].str;

		return strcmp(a, b) == 0 ? x < y : trie_before(b, a);
	}
	{
		const struct module *m = &t->modules[ly->patterns[x].module];
		const struct module *o = &t->modules[ly->patterns[y].module];

		return m->prio < o->prio || (m->prio == o->prio && m->seen < o->seen);
	}
}

static int group_modules(const struct modalias_table *t, const struct layer *ly,
			 struct modalias_result *res, enum hit_order order)
{
	size_t n = res->n_hits;

	if (order != ORDER_TABLE) {
		/* insertion sort: hits are few, and it is stable */
		for (size_t i = 1; i < n; i++) {
			uint32_t id = res->hits[i];
			size_t j = i;

			while (j > 0 && hit_before(t, ly, order, id, res->hits[j - 1])) {
				res->hits[j] = res->hits[j - 1];
				j--;
			}
			res->hits[j] = id;
		}
	}
	if (!grow((void **)&res->mods, &res->cap_mods, n ? n : 1, sizeof(*res->mods)) ||
	    !grow((void **)&res->pats, &res->cap_pats, n ? n : 1, sizeof(*res->pats)))
		return -ENOMEM;
	res->n_mods = 0;
	/* one entry per module, its patterns together, in order of first hit */
	for (size_t i = 0; i < n; i++) {
		uint32_t mod = ly->patterns[res->hits[i]].module;
		size_t m;

		for (m = 0; m < res->n_mods; m++)
			if (res->mods[m].module == mod)
				break;
		if (m == res->n_mods)
			res->mods[res->n_mods++] = (struct res_module){ .module = mod };
		res->mods[m].count++;
	}
	{
		uint32_t at = 0;
		for (size_t m = 0; m < res->n_mods; m++) {
			res->mods[m].first = at;
			at += res->mods[m].count;
			res->mods[m].count = 0;
		}
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t mod = ly->patterns[res->hits[i]].module;
		for (size_t m = 0; m < res->n_mods; m++)
			if (res->mods[m].module == mod) {
				/* a module's patterns in table order */
				uint32_t *p = &res->pats[res->mods[m].first];
				uint32_t k = res->mods[m].count++;
				while (k > 0 && p[k - 1] > res->hits[i]) {
					p[k] = p[k - 1];
					k--;
				}
				p[k] = res->hits[i];
				break;
			}
	}
	return 0;
}

/* kmod 30's kmod_module_new_from_lookup() tries its sources in this order
 * (libkmod/libkmod-module.c): modprobe.d aliases, modules.dep names,
 * modules.symbols, modprobe.d install then remove commands, modules.alias,
 * modules.builtin names (kmod_lookup_alias_from_builtin_file), then the
 * builtin modules' aliases (…_from_kernel_builtin_file).  The first one
 * that yields a module wins. */
static const enum layer_id lookup_order[] = {
	LAYER_CONFIG, LAYER_NAME,	  LAYER_SYMBOL,	       LAYER_COMMAND,
	LAYER_ALIAS,  LAYER_BUILTIN_NAME, LAYER_BUILTIN_ALIAS,
};
_Static_assert(ARRAY_SIZE(lookup_order) == LAYER_LOOKUP_MAX, "every lookup layer, once");

/* Where kmod makes a module object "from an alias", its key is the module
 * name, '\' and the alias (the query, or a modprobe.d alias's pattern):
 * one too long for its buffer fails the whole lookup (see KMOD_KEY_MAX). */
static int check_key_length(const struct modalias_table *t, enum layer_id l,
			    const struct modalias_result *res, const char *alias, size_t qlen)
{
	const struct layer *ly = &t->layers[l];

	if (l != LAYER_CONFIG && l != LAYER_SYMBOL && l != LAYER_ALIAS && l != LAYER_BUILTIN_ALIAS)
		return 0;
	for (size_t i = 0; i < res->n_hits; i++) {
		const struct pattern *p = &ly->patterns[res->hits[i]];
		const char *mod = table_module_name(t, p->module);
		size_t alen = l == LAYER_CONFIG ? strlen(t->pool.buf + p->str) : qlen;

		if (strlen(mod) + alen + 2 > KMOD_KEY_MAX) {
			err(t->ctx,
			    "'%.60s…' (%zu bytes) is too long for kmod: with the module name '%s' it "
			    "exceeds kmod's %d-byte key, and kmod answers nothing\n",
			    alias, strlen(alias), mod, KMOD_KEY_MAX);
			return -ENAMETOOLONG;
		}
	}
	return 0;
}

MODALIAS_EXPORT int modalias_table_lookup(struct modalias_table *t, const char *alias,
					  struct modalias_result *res)
{
	size_t len, qlen;
	int r;

	if (!t || !alias || !res)
		return -EINVAL;
	res->table = t;
	res->n_hits = 0;
	res->n_mods = 0;
	res->layer = LAYER_MAX;
	/* a table changed since its index was built is indexed now */
	r = table_build(t);
	if (r < 0)
		return r;
	len = strlen(alias);
	if (!grow((void **)&res->query, &res->query_cap, len + 1, 1))
		return -ENOMEM;
	/* as kmod: the alias is cut at KMOD_NORMALIZE_MAX bytes */
	if (alias_normalize(alias, len, res->query, &qlen) < 0) {
		err(t->ctx, "'%.*s' has unbalanced brackets\n",
		    LOG_ECHO_LEN(alias, len));
		return -EINVAL;
	}

	for (size_t o = 0; o < ARRAY_SIZE(lookup_order); o++) {
		enum layer_id l = lookup_order[o];
		const struct layer *ly = &t->layers[l];

		if (!ly->n)
			continue;
		r = layer_is_exact(l) ? lookup_exact(t, ly, res, res->query, qlen) :
					lookup_wild(t, ly, res, res->query, qlen);
		if (r < 0)
			return r;
		if (res->n_hits) {
			r = group_modules(t, ly, res,
					  l == LAYER_CONFIG	     ? ORDER_TABLE :
					  l == LAYER_BUILTIN_ALIAS ? ORDER_TRIE :
								     ORDER_MODULES);
			/* in kmod's order, so the message names the module kmod fails on */
			if (r == 0)
				r = check_key_length(t, l, res, alias, qlen);
			if (r < 0) {
				res->n_hits = 0;
				res->n_mods = 0;
				return r;
			}
			res->layer = l;
			return (int)res->n_mods;
		}
	}
	return 0;
}

MODALIAS_EXPORT unsigned int modalias_result_get_count(const struct modalias_result *r)
{
	return r ? (unsigned int)r->n_mods : 0;
}

MODALIAS_EXPORT const char *modalias_result_get_module(const struct modalias_result *r, unsigned int i)
{
	if (!r || i >= r->n_mods)
		return NULL;
	return table_module_name(r->table, r->mods[i].module);
}

MODALIAS_EXPORT bool modalias_result_is_builtin(const struct modalias_result *r, unsigned int i)
{
	if (!r || i >= r->n_mods)
		return false;
	return r->layer == LAYER_BUILTIN_ALIAS || r->layer == LAYER_BUILTIN_NAME ||
	       r->table->modules[r->mods[i].module].builtin;
}

MODALIAS_EXPORT int modalias_table_is_module_builtin(struct modalias_table *t, const char *module)
{
	const struct hashtab_slot *sl;
	char norm[256];
	size_t len;

	if (!t || !module || !*module)
		return -EINVAL;
	len = strlen(module);
	if (len >= sizeof(norm))
		return 0;
	for (size_t i = 0; i <= len; i++)
		norm[i] = module[i] == '-' ? '_' : module[i];
	if (!t->module_ids.cap)
		return 0;
	sl = hashtab_get(&t->module_ids, &t->pool, norm, len, hash_bytes(norm, len));
	return sl && sl->value < t->n_modules && t->modules[sl->value].builtin;
}

MODALIAS_EXPORT unsigned int modalias_result_get_pattern_count(const struct modalias_result *r,
							      unsigned int i)
{
	if (!r || i >= r->n_mods)
		return 0;
	return r->mods[i].count;
}

static const struct pattern *result_pattern(const struct modalias_result *r, unsigned int i,
					    unsigned int k)
{
	if (!r || i >= r->n_mods || k >= r->mods[i].count)
		return NULL;
	return &r->table->layers[r->layer].patterns[r->pats[r->mods[i].first + k]];
}

MODALIAS_EXPORT const char *modalias_result_get_pattern(const struct modalias_result *r,
						       unsigned int i, unsigned int k)
{
	const struct pattern *p = result_pattern(r, i, k);

	return p ? r->table->pool.buf + p->str : NULL;
}

MODALIAS_EXPORT const char *modalias_result_get_pattern_origin(const struct modalias_result *r,
							      unsigned int i, unsigned int k,
							      unsigned int *line)
{
	const struct pattern *p = result_pattern(r, i, k);

	if (!p)
		return NULL;
	if (line)
		*line = WHERE_LINE(p->where);
	return table_origin_name(r->table, WHERE_ORIGIN(p->where));
}

MODALIAS_EXPORT const char *modalias_result_get_source(const struct modalias_result *r)
{
	static const char *const names[] = {
		[LAYER_CONFIG] = "config",      [LAYER_NAME] = "name",
		[LAYER_SYMBOL] = "symbol",      [LAYER_COMMAND] = "command",
		[LAYER_ALIAS] = "alias",        [LAYER_BUILTIN_ALIAS] = "builtin-alias",
		[LAYER_BUILTIN_NAME] = "builtin",
	};

	if (!r || r->layer >= LAYER_MAX)
		return NULL;
	return names[r->layer];
}

MODALIAS_EXPORT bool modalias_table_is_blacklisted(struct modalias_table *t, const char *module)
{
	const struct index *ix;
	char norm[256];
	size_t len;

	if (!t || !module || table_build(t) < 0)
		return false;
	len = strlen(module);
	if (len >= sizeof(norm))
		return false;
	for (size_t i = 0; i <= len; i++)
		norm[i] = module[i] == '-' ? '_' : module[i];
	ix = &t->layers[LAYER_BLACKLIST].index;
	return ix->exact.cap && hashtab_get(&ix->exact, &t->pool, norm, len, hash_bytes(norm, len));
}

MODALIAS_EXPORT const char *modalias_table_get_blacklist_origin(struct modalias_table *t, const char *module,
								 unsigned int *line)
{
	const struct layer *ly;
	const struct hashtab_slot *sl;
	char norm[256];
	size_t len;

	if (line)
		*line = 0;
	if (!t || !module || table_build(t) < 0)
		return NULL;
	len = strlen(module);
	if (len >= sizeof(norm))
		return NULL;
	for (size_t i = 0; i <= len; i++)
		norm[i] = module[i] == '-' ? '_' : module[i];
	ly = &t->layers[LAYER_BLACKLIST];
	if (!ly->index.exact.cap)
		return NULL;
	sl = hashtab_get(&ly->index.exact, &t->pool, norm, len, hash_bytes(norm, len));
	if (!sl || sl->value >= ly->n)
		return NULL;
	if (line)
		*line = WHERE_LINE(ly->patterns[sl->value].where);
	return table_origin_name(t, WHERE_ORIGIN(ly->patterns[sl->value].where));
}
