/*
 * libmodalias - the lookup index: how it is built, from a layer's patterns
 * (lookup.c reads it; its records and keys are index-private.h)
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
 * Exact layers (names, symbols) are a hash table of names instead.  Here
 * too is kmod's normalisation, the form both patterns and queries are
 * indexed and looked up in.
 *
 * It changes nothing of a table but the index's own arrays (LAYER_ARRAYS
 * rows of INDEX), and gives back the room its patterns and strings no
 * longer need; it calls nothing above it (table.c, lookup.c, cache.c).
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

static inline unsigned char literal_first(const char *s)
{
	return (s[0] == '*' || s[0] == '?' || s[0] == '[' || s[0] == '\\') ? 0 : (unsigned char)s[0];
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
	ix->prefix_bloom = calloc(PREFIX_BLOOM_WORDS, sizeof(*ix->prefix_bloom));
	if (!ix->prefix_len_present || !ix->tri_bloom || !ix->prefix_bloom)
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
				uint32_t b = prefix_bloom_bit(pkey[i]);

				sl->key = pkey[i];
				n_prefix_keys++;
				ix->prefix_bloom[b >> 6] |= UINT64_C(1) << (b & 63);
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

/* ---- normalisation: kmod's alias_normalize() ------------------------------ */

int alias_normalize(const char *in, size_t len, char *out, size_t *out_len)
{
	size_t i;

	/* kmod's loop bound; a bracket may carry i past it, as in kmod */
	for (i = 0; i < len && i < KMOD_NORMALIZE_MAX; i++) {
		char c = in[i];

		switch (c) {
		case '-':
			out[i] = '_';
			break;
		case ']':
			return -EINVAL;
		case '[':
			while (i < len && in[i] != ']') {
				out[i] = in[i];
				i++;
			}
			if (i >= len)
				return -EINVAL;
			out[i] = ']';
			break;
		default:
			out[i] = c;
		}
	}
	out[i] = '\0';
	if (out_len)
		*out_len = i;
	return 0;
}

MODALIAS_EXPORT int modalias_table_prepare(struct modalias_table *t)
{
	return t ? table_build(t) : -EINVAL;
}

MODALIAS_EXPORT int modalias_table_get_memory(const struct modalias_table *t, size_t *bytes)
{
	if (!t || !bytes)
		return -EINVAL;
	*bytes = table_index_bytes(t);
	return 0;
}
