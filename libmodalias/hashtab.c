/*
 * libmodalias - the hash table of strings (hashtab.h): probing, adding,
 * growing, and the check of one read from elsewhere.  It may not add
 * strings to a pool except the keys it is given.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hashtab.h"

uint32_t hash_bytes(const char *s, size_t len)
{
	uint32_t h = FNV_OFFSET;

	for (size_t i = 0; i < len; i++)
		h = fnv_step(h, (unsigned char)s[i]);
	return h;
}

/* Whether the string at offset KEY of POOL is NAME: KEY inside the pool,
 * whose last byte is a NUL, so the compare stays inside it. */
static inline bool key_is(const struct strpool *pool, uint32_t key, const char *name, size_t len)
{
	const char *s = pool->buf + key;

	return key < pool->len && strncmp(s, name, len) == 0 && s[len] == '\0';
}

const struct hashtab_slot *hashtab_get(const struct hashtab *ht, const struct strpool *pool, const char *name,
				       size_t len, uint32_t h)
{
	unsigned int mask = ht->cap - 1;

	for (unsigned int i = 0, k = h & mask; i < ht->cap && ht->slots[k].key; i++, k = (k + 1) & mask) {
		const struct hashtab_slot *s = &ht->slots[k];

		if (s->hash == h && key_is(pool, s->key, name, len))
			return s;
	}
	return NULL;
}

struct hashtab_slot *hashtab_slot_for(struct hashtab *ht, const struct strpool *pool, const char *name,
				      size_t len, uint32_t h)
{
	unsigned int mask = ht->cap - 1, k;

	for (k = h & mask; ht->slots[k].key; k = (k + 1) & mask)
		if (ht->slots[k].hash == h && key_is(pool, ht->slots[k].key, name, len))
			break;
	return &ht->slots[k];
}

static int grow(struct hashtab *ht)
{
	unsigned int cap = ht->cap ? ht->cap * 2 : 1024;
	struct hashtab_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (unsigned int i = 0; i < ht->cap; i++) {
		const struct hashtab_slot *s = &ht->slots[i];
		unsigned int k;

		if (!s->key)
			continue;
		for (k = s->hash & (cap - 1); slots[k].key; k = (k + 1) & (cap - 1))
			;
		slots[k] = *s;
	}
	free(ht->slots);
	ht->slots = slots;
	ht->cap = cap;
	return 0;
}

int hashtab_add(struct hashtab *ht, struct strpool *pool, const char *name, size_t len, uint32_t *value,
		uint32_t *key)
{
	uint32_t h = hash_bytes(name, len);
	const struct hashtab_slot *found = ht->cap ? hashtab_get(ht, pool, name, len, h) : NULL;
	struct hashtab_slot *s;

	if (found) {
		*value = found->value;
		return 1;
	}
	if ((ht->n + 1) * 2 > ht->cap) {
		int r = grow(ht);

		if (r < 0)
			return r;
	}
	s = hashtab_slot_for(ht, pool, name, len, h);
	s->hash = h;
	s->key = strpool_add(pool, name, len);
	s->value = *value;
	ht->n++;
	if (key)
		*key = s->key;
	return pool->oom ? -ENOMEM : 0;
}

bool hashtab_ok(const struct hashtab *ht, size_t pool_len, uint32_t n_values)
{
	uint32_t used = 0, bad = 0;

	for (unsigned int k = 0; k < ht->cap; k++) {
		uint32_t full = ht->slots[k].key != 0;

		/* without branches: whether a slot is used is a coin toss */
		bad |= full & ((ht->slots[k].key >= pool_len) | (ht->slots[k].value >= n_values));
		used += full;
	}
	return !bad && used == ht->n && (!ht->cap || used < ht->cap);
}
