/*
 * libmodalias - the hash table of strings: a string of a string pool
 * (strpool.h), named by its offset, to a 32-bit value; open addressing,
 * linear probing, FNV-1a hashes kept in the slots.  A table uses one for
 * its module ids (name → module) and one per exact layer (name → its first
 * pattern).
 *
 * It holds no string of its own (keys are offsets into the caller's pool)
 * and it believes nothing it reads: a table mapped from an index cache is
 * probed at most CAP slots and its keys compared with the pool's end, and
 * hashtab_ok() says whether one may be added to.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strpool.h"

/* FNV-1a, also the index's hash of literal prefixes (index.c), a byte at a
 * time as a lookup walks its query */
#define FNV_OFFSET 2166136261u
static inline uint32_t fnv_step(uint32_t h, unsigned char c)
{
	return (h ^ c) * 16777619u;
}
uint32_t hash_bytes(const char *s, size_t len);

/* key is a pool offset, 0 (the empty string) marks a free slot */
struct hashtab_slot {
	uint32_t hash, key, value;
};
struct hashtab {
	struct hashtab_slot *slots;
	unsigned int n, cap; /* cap: a power of two, 0 when there are no slots */
};

/* The slot of NAME (LEN bytes, hash H: hash_bytes()), or NULL: at most CAP
 * probes, and a key past the end of POOL matches nothing. */
const struct hashtab_slot *hashtab_get(const struct hashtab *ht, const struct strpool *pool, const char *name,
				       size_t len, uint32_t h);
/* The slot of NAME, or the free one where it would go: for a table being
 * built, which has a free slot. */
struct hashtab_slot *hashtab_slot_for(struct hashtab *ht, const struct strpool *pool, const char *name,
				      size_t len, uint32_t h);
/* NAME's value in *VALUE; when it is absent, NAME is added to POOL and to HT
 * with the value *VALUE, and *KEY (when not NULL) is its offset in POOL.
 * Returns 1 found, 0 added, -ENOMEM. */
int hashtab_add(struct hashtab *ht, struct strpool *pool, const char *name, size_t len, uint32_t *value,
		uint32_t *key);
/* Whether a table read from elsewhere may be added to: N slots used, a free
 * one, every key a string of a pool of POOL_LEN bytes and every value below
 * N_VALUES (hashtab_add() probes until a free slot). */
bool hashtab_ok(const struct hashtab *ht, size_t pool_len, uint32_t n_values);
