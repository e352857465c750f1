/*
 * libmodalias - the lookup index and lookups
 *
 * Every pattern is reached through one key, chosen when the index is built:
 *
 *  - anchored: its literal prefix (the text before the first '*', '?', '['
 *    or '\').  A lookup hashes the query's prefixes as it walks the query
 *    and probes only the prefix lengths that some pattern has;
 *  - floating: where a literal prefix is shared by many patterns (of:N*T*C…,
 *    acpi*:…, dmi*:…, hid:b*…, cpu:type:x86,ven*…, the class-only usb and
 *    pci patterns), the rarest trigram of the pattern's literal text.  A
 *    lookup probes the query's trigrams (a bloom filter skips most).
 *
 * Candidates are confirmed with the glob matcher (fnmatch semantics), so
 * the index only decides which patterns are looked at, never what matches.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "table-private.h"

#define CROWDED 8         /* a prefix shared by more patterns is a poor key */
#define TRI_COUNT_BITS 18 /* temporary trigram frequency table */

static inline uint32_t tri_pack(const char *s)
{
	return (uint32_t)(unsigned char)s[0] | (uint32_t)(unsigned char)s[1] << 8 |
	       (uint32_t)(unsigned char)s[2] << 16;
}

static inline uint32_t mix(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	return h;
}

/* The key of a literal prefix: its hash and its length; never 0. */
static inline uint32_t prefix_key(uint32_t h, uint32_t len)
{
	uint32_t k = mix(h ^ (len * 0x9e3779b9u));
	return k ? k : 1;
}

/* The key of a trigram of a pattern whose first byte is first (0 when the
 * pattern starts with a wildcard): never 0, trigrams hold no NUL. */
static inline uint32_t tri_key(uint32_t t, unsigned char first)
{
	return t | (uint32_t)first << 24;
}

static inline unsigned char literal_first(const char *s)
{
	return (s[0] == '*' || s[0] == '?' || s[0] == '[' || s[0] == '\\') ? 0 : (unsigned char)s[0];
}

static inline bool bloom_test(const uint64_t *bloom, uint32_t t)
{
	uint32_t h = mix(t) & 0xffff;
	return bloom[h >> 6] >> (h & 63) & 1;
}

static inline void bloom_set(uint64_t *bloom, uint32_t t)
{
	uint32_t h = mix(t) & 0xffff;
	bloom[h >> 6] |= UINT64_C(1) << (h & 63);
}

void index_free(struct modalias_table *t, enum layer_id l)
{
	for (unsigned int a = 0; a < LAYER_ARRAY_MAX; a++) {
		struct table_array arr;

		table_array_get(t, layer_array(l, a), &arr);
		if (arr.of_index)
			table_array_free(t, layer_array(l, a));
	}
	memset(&t->layers[l].index, 0, sizeof(t->layers[l].index));
}

/* What the index of layer L takes: its arrays. */
static size_t index_bytes(const struct modalias_table *t, enum layer_id l)
{
	size_t bytes = 0;

	for (unsigned int a = 0; a < LAYER_ARRAY_MAX; a++) {
		struct table_array arr;

		table_array_get(t, layer_array(l, a), &arr);
		if (arr.of_index)
			bytes += arr.count * arr.size;
	}
	return bytes;
}

static unsigned int pow2_at_least(unsigned int n)
{
	unsigned int c = 16;

	while (c < n)
		c *= 2;
	return c;
}

/* Open addressing: the slot of key, or the free slot where it would go. */
static inline struct slot *slot_find(struct slot *slots, unsigned int cap, uint32_t key)
{
	unsigned int k = mix(key) & (cap - 1);

	while (slots[k].key && slots[k].key != key)
		k = (k + 1) & (cap - 1);
	return &slots[k];
}

/* The same for lookups, in a table that may have come from a cache (whose
 * slots are checked where they are used, not at load): at most CAP probes,
 * NULL when the key is not there. */
static inline const struct slot *slot_lookup(const struct slot *slots, unsigned int cap, uint32_t key)
{
	unsigned int k = mix(key) & (cap - 1);

	for (unsigned int i = 0; i < cap && slots[k].key; i++, k = (k + 1) & (cap - 1))
		if (slots[k].key == key)
			return &slots[k];
	return NULL;
}

/* Whether the pattern's text outside brackets can be trusted as literal for
 * trigram keys: no backslashes, no bracket whose first member is ']'. */
static bool simple_pattern(const char *s)
{
	if (strchr(s, '\\'))
		return false;
	for (const char *p = s; (p = strchr(p, '[')); p++)
		if (p[1] == ']' || ((p[1] == '!' || p[1] == '^') && p[2] == ']'))
			return false;
	return true;
}

#define TRI_COUNT_SIZE 65536

/* For every trigram inside the literal runs of s (after its prefix, which
 * the crowd shares), count it, or find the rarest. */
static uint32_t trigrams(const char *s, uint16_t *counts, bool count, uint32_t *best_count)
{
	const char *run = s, *p = s;
	uint32_t best = 0;

	for (;; p++) {
		if (*p == '\0' || *p == '*' || *p == '?' || *p == '[') {
			for (const char *q = run; q + 3 <= p; q++) {
				uint32_t t = tri_pack(q), h = mix(t) & (TRI_COUNT_SIZE - 1);
				if (count) {
					if (counts[h] < UINT16_MAX)
						counts[h]++;
				} else if (counts[h] < *best_count) {
					*best_count = counts[h];
					best = t;
				}
			}
			if (*p == '\0')
				return best;
			if (*p == '[') {
				const char *close = strchr(p, ']');
				if (!close)
					return best;
				p = close;
			}
			run = p + 1;
		}
	}
}

static int build_exact(struct modalias_table *t, struct layer *ly)
{
	struct index *ix = &ly->index;

	/* the hash table: name → first pattern; patterns of one name are chained via ids */
	ix->exact.cap = pow2_at_least(ly->n * 2 + 1);
	ix->exact.slots = calloc(ix->exact.cap, sizeof(*ix->exact.slots));
	ix->ids = malloc((ly->n ? ly->n : 1) * sizeof(*ix->ids));
	if (!ix->ids || !ix->exact.slots)
		return -ENOMEM;
	for (unsigned int i = ly->n; i-- > 0;) {
		/* backwards, so that each chain is in file order */
		const struct pattern *p = &ly->patterns[i];
		const char *name = t->pool.buf + p->str;
		size_t len = strlen(name);
		uint32_t h = hash_bytes(name, len);
		struct hashtab_slot *sl;

		if (len > ix->exact_max_len)
			ix->exact_max_len = (uint32_t)len;
		ix->float_first[(unsigned char)name[0]] = 1; /* here: first bytes of the names */

		sl = hashtab_slot_for(&ix->exact, &t->pool, name, len, h);
		if (sl->key) {
			ix->ids[i] = sl->value;
			sl->value = i;
		} else {
			ix->ids[i] = UINT32_MAX;
			*sl = (struct hashtab_slot){ .hash = h, .key = p->str, .value = i };
			ix->exact.n++;
		}
	}
	ix->built = true;
	return 0;
}

/* Lays the members of every bucket out as runs of ids.  key[i] is pattern
 * i's key in table slots (0: not in this table). */
static int fill_table(struct slot **slots_out, unsigned int *cap_out, const uint32_t *key,
		      const uint8_t *libc, unsigned int n, unsigned int n_keys, uint32_t *ids,
		      uint32_t *at, uint32_t *tmp_count)
{
	unsigned int cap = pow2_at_least(n_keys + n_keys / 2 + 1);
	struct slot *slots = calloc(cap, sizeof(*slots));
	unsigned int n_buckets = 0;
	uint32_t *pos;

	if (!slots)
		return -ENOMEM;
	/* count members per bucket: the slot's first holds a bucket number */
	for (unsigned int i = 0; i < n; i++) {
		struct slot *sl;
		if (!key[i])
			continue;
		sl = slot_find(slots, cap, key[i]);
		if (!sl->key) {
			sl->key = key[i];
			sl->first = n_buckets;
			tmp_count[n_buckets++] = 0;
		}
		tmp_count[sl->first]++;
	}
	/* bucket b starts at tmp_count[b]; pos[b] is where its next member goes */
	pos = malloc((n_buckets ? n_buckets : 1) * sizeof(*pos));
	if (!pos) {
		free(slots);
		return -ENOMEM;
	}
	for (unsigned int b = 0; b < n_buckets; b++) {
		uint32_t c = tmp_count[b];
		tmp_count[b] = pos[b] = *at;
		*at += c;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct slot *sl;
		if (!key[i])
			continue;
		sl = slot_find(slots, cap, key[i]);
		ids[pos[sl->first]++] = i | (libc[i] ? ID_LIBC : 0);
	}
	/* the last member of each run is marked; slots point at the run */
	for (unsigned int k = 0; k < cap; k++) {
		uint32_t b = slots[k].first;
		if (!slots[k].key)
			continue;
		ids[pos[b] - 1] |= ID_LAST;
		slots[k].first = tmp_count[b];
	}
	free(pos);
	*slots_out = slots;
	*cap_out = cap;
	return 0;
}

static int build_wild(struct modalias_table *t, struct layer *ly)
{
	struct index *ix = &ly->index;
	unsigned int n = ly->n, n_prefix_keys = 0, n_tri_keys = 0;
	uint32_t *pkey = NULL, *tkey = NULL, *count = NULL, *plen = NULL, at = 0;
	uint8_t *libc = NULL;
	uint16_t *tri_counts = NULL;
	struct slot *crowd = NULL;
	unsigned int crowd_cap = pow2_at_least(n * 2 + 1);
	int r = -ENOMEM;

	pkey = malloc((n ? n : 1) * sizeof(*pkey));
	tkey = calloc(n ? n : 1, sizeof(*tkey));
	plen = malloc((n ? n : 1) * sizeof(*plen));
	count = malloc((n ? n : 1) * sizeof(*count));
	libc = calloc(n ? n : 1, 1);
	ix->ids = malloc((n ? n : 1) * sizeof(*ix->ids));
	crowd = calloc(crowd_cap, sizeof(*crowd)); /* key → how many share it */
	if (!pkey || !tkey || !plen || !count || !libc || !ix->ids || !crowd)
		goto out;

	/* pass 1: literal prefixes and how many patterns share each */
	ix->max_prefix = 0;
	for (unsigned int i = 0; i < n; i++) {
		const char *s = t->pool.buf + ly->patterns[i].str;
		struct slot *sl;

		plen[i] = (uint32_t)strcspn(s, "*?[\\");
		libc[i] = glob_needs_libc(s);
		pkey[i] = prefix_key(hash_bytes(s, plen[i]), plen[i]);
		if (plen[i] > ix->max_prefix)
			ix->max_prefix = plen[i];
		sl = slot_find(crowd, crowd_cap, pkey[i]);
		sl->key = pkey[i];
		sl->first++;
	}

	/* pass 2: patterns of crowded prefixes get a rare trigram instead */
	tri_counts = calloc(TRI_COUNT_SIZE, sizeof(*tri_counts));
	if (!tri_counts)
		goto out;
	for (unsigned int i = 0; i < n; i++) {
		const char *s = t->pool.buf + ly->patterns[i].str;
		count[i] = slot_find(crowd, crowd_cap, pkey[i])->first;
		if (count[i] > CROWDED && simple_pattern(s))
			trigrams(s, tri_counts, true, NULL);
	}
	for (unsigned int i = 0; i < n; i++) {
		const char *s = t->pool.buf + ly->patterns[i].str;
		uint32_t best_count = UINT32_MAX, best;

		if (count[i] <= CROWDED || !simple_pattern(s))
			continue;
		best = trigrams(s, tri_counts, false, &best_count);
		if (best && best_count < count[i]) {
			tkey[i] = tri_key(best, literal_first(s));
			if (!literal_first(s))
				ix->wild_first = true;
			ix->float_first[literal_first(s)] = 1;
			pkey[i] = 0;
		}
	}

	/* pass 3: the two tables, their buckets as runs of ids */
	ix->prefix_len_present = calloc(ix->max_prefix + 1, 1);
	ix->tri_bloom = calloc(TRI_BLOOM_WORDS, sizeof(*ix->tri_bloom));
	if (!ix->prefix_len_present || !ix->tri_bloom)
		goto out;
	memset(crowd, 0, crowd_cap * sizeof(*crowd));
	for (unsigned int i = 0; i < n; i++) {
		struct slot *sl;
		if (tkey[i]) {
			bloom_set(ix->tri_bloom, tkey[i]);
			sl = slot_find(crowd, crowd_cap, tkey[i] ^ 0x80000000u);
			if (!sl->key) {
				sl->key = tkey[i] ^ 0x80000000u;
				n_tri_keys++;
			}
			ix->n_floating++;
		} else {
			const char *ps = t->pool.buf + ly->patterns[i].str;
			unsigned char fb = (unsigned char)ps[0];
			ix->prefix_len_present[plen[i]] = 1;
			if (plen[i] == 0)
				ix->wild_first_anchored = true;
			else if (plen[i] > ix->max_prefix_first[fb])
				ix->max_prefix_first[fb] = plen[i] > UINT16_MAX ? UINT16_MAX : (uint16_t)plen[i];
			sl = slot_find(crowd, crowd_cap, pkey[i]);
			if (!sl->key) {
				sl->key = pkey[i];
				n_prefix_keys++;
			}
			ix->n_anchored++;
		}
	}
	r = fill_table(&ix->prefix, &ix->prefix_cap, pkey, libc, n, n_prefix_keys, ix->ids, &at, count);
	if (r == 0)
		r = fill_table(&ix->tri, &ix->tri_cap, tkey, libc, n, n_tri_keys, ix->ids, &at, count);
	if (r < 0)
		goto out;
	ix->built = true;
	dbg(t->ctx, "index: %u patterns, %u anchored, %u by trigram\n", n, ix->n_anchored, ix->n_floating);
out:
	free(pkey);
	free(tkey);
	free(plen);
	free(count);
	free(libc);
	free(tri_counts);
	free(crowd);
	return r;
}

int table_build(struct modalias_table *t)
{
	bool changed = false;

	for (unsigned int l = 0; l < LAYER_MAX; l++) {
		struct layer *ly = &t->layers[l];
		int r;

		if (!ly->dirty && ly->index.built)
			continue;
		/* what is loaded takes no more room than it needs */
		if (ly->n && ly->n < ly->cap) {
			struct pattern *p = realloc(ly->patterns, ly->n * sizeof(*p));
			if (p) {
				ly->patterns = p;
				ly->cap = ly->n;
			}
		}
		index_free(t, l);
		r = layer_is_exact(l) ? build_exact(t, ly) : build_wild(t, ly);
		if (r < 0) {
			index_free(t, l);
			return r;
		}
		ly->index.bytes = index_bytes(t, l);
		ly->dirty = false;
		changed = true;
	}
	if (changed)
		strpool_shrink(&t->pool);
	return 0;
}

size_t table_index_bytes(const struct modalias_table *t)
{
	size_t bytes = t->pool.cap + t->cap_modules * sizeof(struct module) +
		       t->module_ids.cap * sizeof(struct hashtab_slot);

	for (unsigned int l = 0; l < LAYER_MAX; l++)
		bytes += t->layers[l].cap * sizeof(struct pattern) + t->layers[l].index.bytes;
	return bytes;
}

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
		r->refcount++;
	return r;
}

MODALIAS_EXPORT struct modalias_result *modalias_result_unref(struct modalias_result *r)
{
	if (!r)
		return NULL;
	if (--r->refcount > 0)
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
			r = check_run(t, ly, res, slot_lookup(ix->prefix, ix->prefix_cap, key), q);
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

/* kmod's order: by place in modules.order (then first appearance); the
 * config layer keeps its own order. */
static int group_modules(const struct modalias_table *t, const struct layer *ly,
			 struct modalias_result *res, bool sort)
{
	size_t n = res->n_hits;

	if (sort) {
		/* insertion sort: hits are few, and it is stable */
		for (size_t i = 1; i < n; i++) {
			uint32_t id = res->hits[i];
			const struct module *m = &t->modules[ly->patterns[id].module];
			size_t j = i;

			while (j > 0) {
				const struct module *o = &t->modules[ly->patterns[res->hits[j - 1]].module];
				if (o->prio < m->prio || (o->prio == m->prio && o->seen <= m->seen))
					break;
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
			r = group_modules(t, ly, res, l != LAYER_CONFIG);
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

MODALIAS_EXPORT int modalias_table_prepare(struct modalias_table *t)
{
	return t ? table_build(t) : -EINVAL;
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

MODALIAS_EXPORT int modalias_table_get_memory(const struct modalias_table *t, size_t *bytes)
{
	if (!t || !bytes)
		return -EINVAL;
	*bytes = table_index_bytes(t);
	return 0;
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
