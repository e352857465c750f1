/*
 * libmodalias - the string pool: every string of a table (patterns, module
 * names, origins, the module directory) in one buffer, each named by its
 * offset and ended by a NUL; offset 0 is the empty string.  A table's
 * arrays hold offsets, not pointers, so that they can be written to an
 * index cache and mapped back as they are.
 *
 * It only stores bytes: what a string means (a pattern, a name) and which
 * strings may be added is its users' business (table.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strpool {
	char *buf;
	size_t len, cap;
	bool oom; /* an addition failed: the pool is no longer complete */
};

/* Appends LEN bytes of S and a NUL; its offset, or 0 and oom set when the
 * pool cannot grow (or would pass 4 GiB: offsets are 32-bit). */
uint32_t strpool_add(struct strpool *pool, const char *s, size_t len);
/* Room for EXTRA more bytes at once (a file about to be read into it). */
bool strpool_reserve(struct strpool *pool, size_t extra);
/* Gives back the room that was reserved and not used. */
void strpool_shrink(struct strpool *pool);
