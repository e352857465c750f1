/*
 * libmodalias - the string pool (strpool.h): appending, reserving and
 * shrinking its one buffer.  It may not look into the strings it holds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "strpool.h"

bool strpool_reserve(struct strpool *pool, size_t extra)
{
	char *n;

	if (pool->oom)
		return false;
	if (pool->len + extra + 1 <= pool->cap)
		return true;
	n = realloc(pool->buf, pool->len + extra + 1);
	if (!n) {
		pool->oom = true;
		return false;
	}
	pool->buf = n;
	pool->cap = pool->len + extra + 1;
	return true;
}

void strpool_shrink(struct strpool *pool)
{
	char *n;

	if (pool->oom || pool->cap == pool->len || !pool->len)
		return;
	n = realloc(pool->buf, pool->len);
	if (n) {
		pool->buf = n;
		pool->cap = pool->len;
	}
}

uint32_t strpool_add(struct strpool *pool, const char *s, size_t len)
{
	uint32_t off;

	if (pool->oom || pool->len + len + 1 > UINT32_MAX) {
		pool->oom = true;
		return 0;
	}
	if (pool->len + len + 1 > pool->cap) {
		size_t cap = pool->cap ? pool->cap : 4096;
		char *n;

		while (cap < pool->len + len + 1)
			cap *= 2;
		n = realloc(pool->buf, cap);
		if (!n) {
			pool->oom = true;
			return 0;
		}
		pool->buf = n;
		pool->cap = cap;
	}
	off = (uint32_t)pool->len;
	memcpy(pool->buf + off, s, len);
	pool->buf[off + len] = '\0';
	pool->len += len + 1;
	return off;
}
