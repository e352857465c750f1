/*
 * libmodalias - the layout of the index cache file, and the loader's
 * internal entry points: shared by cache.c and the tests that damage a cache
 * on purpose (tests/test-cache.c, tests/fuzz/fuzz-cache.c).  It holds no
 * code but the checksum's declaration.
 *
 * The file: this header, then the arrays of struct modalias_table as they
 * are in memory (every array of TABLE_ARRAYS and LAYER_ARRAYS, in their
 * order), each at an offset that is a multiple of CACHE_ALIGN and named by
 * the header.  Every byte after the first CACHE_CHECKED_FROM is covered by the
 * checksum; the bytes before it are compared as they are.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "table-private.h"

#define CACHE_MAGIC "libmodalias-idx"
#define CACHE_VERSION 10
#define CACHE_BOM 0x01020304u
#define CACHE_ALIGN 8 /* of every array: at least any element's alignment */

struct cache_layer {
	uint32_t n, max_prefix, prefix_cap, tri_cap, exact_n, exact_cap, n_anchored, n_floating;
	uint32_t wild_first, wild_first_anchored, exact_max_len;
	uint32_t pad; /* cppcheck-suppress unusedStructMember ; the file's layout: 8-byte aligned */
	uint16_t max_prefix_first[256];
	uint8_t float_first[256];
	uint64_t off[LAYER_ARRAY_MAX]; /* where the layer's arrays are, as LAYER_ARRAYS lists them */
};

struct cache_header {
	char magic[16];
	uint32_t version, bom;
	uint32_t crc[3];  /* cache_checksum() of the bytes from CACHE_CHECKED_FROM to the end */
	uint32_t pad0;    /* cppcheck-suppress unusedStructMember ; 0 */
	/* covered by the checksum from here on */
	uint32_t sizes[5]; /* pattern, slot, hashtab_slot, module, source */
	uint32_t n_modules, n_ordered, n_origins, dir, module_ids_n, module_ids_cap, n_sources;
	uint32_t skipped; /* malformed lines skipped when the sources were read */
	uint32_t pad1;    /* cppcheck-suppress unusedStructMember ; 0: the next field is 8-byte aligned */
	uint64_t file_size, pool_len;
	uint64_t dir_dev, dir_ino; /* the module directory (its path: the pool's string at dir) */
	uint64_t off[TABLE_ARRAY_MAX]; /* where the table's own arrays are, as TABLE_ARRAYS lists them */
	struct source sources[TABLE_SOURCES_MAX];
	struct cache_layer layers[LAYER_MAX];
};
#define CACHE_CHECKED_FROM offsetof(struct cache_header, sizes)

/* CRC-32C (Castagnoli) in three lanes over the 8-byte words of DATA taken in
 * turn (word i to lane i % 3); the bytes after the last whole word go to
 * lane 0.  Three lanes keep the processor's CRC instruction busy; where
 * there is none the same sums are computed from a table. */
void cache_checksum(const void *data, size_t len, uint32_t crc[3]);

/* The name of the cache of module directory DIR in a cache directory
 * (modalias_table_open()): one per directory, named by the SHA-256 of its
 * path as given (two spellings of one directory only cost a second cache),
 * so that a second path of the same name is not to be found and no
 * directory's cache is another's; the cache records its directory too,
 * which is compared. */
#define CACHE_NAME_MAX (sizeof("modalias-.idx") + 64)
void cache_file_name(char *buf, size_t size, const char *dir);

/* After a cache KEEP was written in the cache directory DIRFD (SHOWN names
 * it in messages): the caches there of module directories that are gone,
 * or another directory now, removed (cache-prune.c) */
void cache_prune(struct modalias_ctx *ctx, int dirfd, const char *shown, const char *keep);

/* Whether a file of SIZE bytes whose first bytes are H is a cache this
 * library reads, as far as its header's magic, version and byte order
 * tell: NULL when it is, else why not (a static string: the one wording
 * of the loader and of pruning).  A file shorter than a header is no
 * cache: H is not read then, and may be NULL. */
const char *cache_header_why_not(const struct cache_header *h, uint64_t size);

enum {
	CACHE_NO_CHECKSUM = 1u << 0, /* for the fuzz target: skip it, check the structure */
};

/* Maps the cache open on FD (SHOWN names it in *WHY) and checks it whole:
 * header, checksum, every offset, count and index, and with DIR that its
 * sources are unchanged.  Returns the number of malformed lines skipped
 * when its sources were read; -EINVAL when it is not a cache of this
 * version or is damaged, -ESTALE, or another negative errno; *WHY then
 * says why (a static string, or one in WHYBUF). */
int cache_map_fd(struct modalias_ctx *ctx, int fd, const char *dir, unsigned int flags,
		 struct modalias_table **ret, const char **why, char *whybuf, size_t whylen);
