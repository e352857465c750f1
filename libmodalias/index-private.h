/*
 * libmodalias - the lookup index of a layer: its records and how its keys
 * are made, shared by index.c (which builds it), lookup.c (which reads it)
 * and, through the table's arrays, cache.c (which writes and maps it).
 * The design is index.c's opening comment.
 *
 * It holds no code but the key functions, which must be the same where
 * the index is built and where it is read.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hashtab.h"

/* A bucket's members are a run of ids; the last has ID_LAST set. */
#define ID_LAST 0x80000000u
#define ID_LIBC 0x40000000u
#define ID_MASK 0x3fffffffu

#define TRI_BLOOM_WORDS 1024
/* the prefix filter: 131072 bits, some 15,000 prefix keys in a
 * distribution's modules.alias set about 11% of them; most prefix lengths a
 * lookup walks have no pattern, and the filter answers that without a
 * probe of the prefix slots (a cache miss each) */
#define PREFIX_BLOOM_WORDS 2048

struct slot {
	uint32_t key; /* 0: free */
	uint32_t first;
};

struct index {
	bool built;
	/* anchored: patterns grouped by their literal prefix */
	struct slot *prefix;
	unsigned int prefix_cap;
	uint8_t *prefix_len_present; /* [max_prefix + 1] */
	uint64_t *prefix_bloom;      /* [PREFIX_BLOOM_WORDS]: the prefix keys */
	uint32_t max_prefix;
	uint16_t max_prefix_first[256]; /* longest prefix by first byte */
	bool wild_first_anchored;      /* a pattern with an empty prefix */
	bool wild_first;               /* a floating pattern starting with a wildcard */
	uint8_t float_first[256];      /* floating patterns (exact: names) exist with this first byte */
	uint32_t exact_max_len;        /* exact layers: the longest name */
	/* floating: patterns keyed by a rare trigram of their literal text */
	struct slot *tri;
	unsigned int tri_cap;
	uint64_t *tri_bloom; /* [TRI_BLOOM_WORDS]: 65536 bits */
	uint32_t *ids;
	/* exact layers: name → first pattern, chained through ids */
	struct hashtab exact;
	size_t bytes;
	unsigned int n_anchored, n_floating;
};

/* ---- keys ------------------------------------------------------------------ */

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

/* The key of a literal prefix: its hash (hash_bytes()) and its length;
 * never 0. */
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

static inline bool bloom_test(const uint64_t *bloom, uint32_t t)
{
	uint32_t h = mix(t) & 0xffff;
	return bloom[h >> 6] >> (h & 63) & 1;
}

/* A prefix key (already mixed) in the prefix filter: its own bits */
static inline uint32_t prefix_bloom_bit(uint32_t key)
{
	return (key >> 7) & (PREFIX_BLOOM_WORDS * 64 - 1);
}

static inline bool prefix_bloom_test(const uint64_t *bloom, uint32_t key)
{
	uint32_t h = prefix_bloom_bit(key);
	return bloom[h >> 6] >> (h & 63) & 1;
}

/* The slot of KEY in a table of prefix or trigram slots that may have come
 * from a cache (whose slots are checked where they are used, not at load):
 * at most CAP probes, NULL when the key is not there. */
static inline const struct slot *slot_lookup(const struct slot *slots, unsigned int cap, uint32_t key)
{
	unsigned int k = mix(key) & (cap - 1);

	for (unsigned int i = 0; i < cap && slots[k].key; i++, k = (k + 1) & (cap - 1))
		if (slots[k].key == key)
			return &slots[k];
	return NULL;
}
