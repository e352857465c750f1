/*
 * libmodalias - alias tables inside: the table, its layers (kmod's
 * sources), patterns and modules, the description of its arrays, and the
 * calls between table.c, table-arrays.c, stamp.c, index.c, lookup.c and
 * cache.c (and the tests, through the uninstalled twin library).  Calls go
 * one way: cache.c -> table.c -> index.c -> table-arrays.c; lookup.c ->
 * index.c.  It holds no code but small accessors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "hashtab.h"
#include "index-private.h"
#include "libmodalias-private.h"
#include "strpool.h"

/* kmod 30's buffers (PATH_MAX, 4096 bytes), which decide what it answers:
 *  - shared/util.c alias_normalize() copies at most KMOD_NORMALIZE_MAX
 *    bytes of an alias or pattern (more only to close a bracket that
 *    straddles the limit): the rest is cut off, in depmod's patterns and
 *    in libkmod's lookups alike;
 *  - libkmod/libkmod-module.c kmod_module_new_from_alias() refuses, with
 *    -ENAMETOOLONG, a module whose name, '\', the alias and a NUL exceed
 *    KMOD_KEY_MAX: that error ends the whole lookup, so no answer. */
#define KMOD_KEY_MAX 4096
#define KMOD_NORMALIZE_MAX (KMOD_KEY_MAX - 1)

/* kmod's alias_normalize() (index.c): '-' → '_' outside brackets; a stray ']' or an
 * unterminated '[' is -EINVAL; cut at KMOD_NORMALIZE_MAX bytes as kmod
 * does.  out has room for len + 1 bytes. */
int alias_normalize(const char *in, size_t len, char *out, size_t *out_len);

/* The sources of kmod_module_new_from_lookup().  These numbers are where
 * each is stored (an index cache keeps them); the order in which lookups
 * try them — kmod's, the first one that matches wins — is lookup_order[]
 * in lookup.c. */
enum layer_id {
	LAYER_CONFIG,        /* modprobe.d "alias" (fnmatch, config order) */
	LAYER_NAME,          /* modules.dep: a module's own name (exact) */
	LAYER_SYMBOL,        /* modules.symbols (exact) */
	LAYER_COMMAND,       /* modprobe.d install/remove commands (exact) */
	LAYER_ALIAS,         /* modules.alias and other tables (fnmatch) */
	LAYER_BUILTIN_ALIAS, /* modules.builtin.modinfo aliases (fnmatch) */
	LAYER_BUILTIN_NAME,  /* modules.builtin: a builtin's own name (exact) */
	LAYER_LOOKUP_MAX,    /* the layers above answer lookups */
	LAYER_BLACKLIST = LAYER_LOOKUP_MAX, /* modprobe.d "blacklist" names (exact) */
	LAYER_MAX,
};

#define LAYERS_ALL ((1u << LAYER_MAX) - 1)
/* What the configuration fills (modprobe.d, modalias.conf's blacklist), in
 * each process that reads it: small layers, built on the heap beside a
 * table mapped from an index cache, whose other layers stay mapped. */
#define LAYERS_CONFIG (1u << LAYER_CONFIG | 1u << LAYER_COMMAND | 1u << LAYER_BLACKLIST)

static inline bool layer_is_exact(enum layer_id l)
{
	return l == LAYER_NAME || l == LAYER_SYMBOL || l == LAYER_COMMAND || l == LAYER_BUILTIN_NAME ||
	       l == LAYER_BLACKLIST;
}

struct pattern {
	uint32_t str;    /* normalised, in the pool */
	uint32_t module;
	uint32_t where;  /* origin << 24 | line */
};
#define WHERE(origin, line) ((uint32_t)(origin) << 24 | ((line) > 0xffffff ? 0xffffff : (line)))
#define WHERE_ORIGIN(w) ((w) >> 24)
#define WHERE_LINE(w) ((w) & 0xffffff)

struct module {
	uint32_t name;
	uint32_t prio; /* place in modules.order, UINT32_MAX when absent */
	uint32_t seen; /* order of first appearance */
	bool builtin;
};

struct layer {
	struct pattern *patterns;
	unsigned int n, cap;
	bool dirty;
	struct index index;
};

/* A source file's identity, to tell whether an index cache is stale: the
 * file (its device and inode) and its contents (size, mtime; and ctime,
 * which no user sets: device and inode numbers are given again to another
 * file, another tmpfs mounted later, and the mtime is the owner's to set). */
struct source {
	char name[32];
	uint64_t size;
	int64_t mtime_sec, mtime_nsec;
	int64_t ctime_sec, ctime_nsec;
	uint64_t ino, dev;
	uint32_t present, pad;
};

/* A module directory's identity: the directory itself, whatever path
 * names it (stamp.c) */
struct dir_id {
	uint64_t dev, ino;
};
#define TABLE_SOURCES_MAX 8

struct modalias_table {
	int refcount;
	struct modalias_ctx *ctx;
	struct strpool pool;
	struct module *modules;
	unsigned int n_modules, cap_modules;
	struct hashtab module_ids; /* module name → module id */
	uint32_t n_ordered;
	uint32_t *origins;
	unsigned int n_origins;
	uint32_t dir; /* module directory (pool offset), 0 when none */
	struct dir_id dir_id; /* and its device and inode, when it was read (0: none) */
	struct layer layers[LAYER_MAX];
	struct source sources[TABLE_SOURCES_MAX];
	uint32_t n_sources;
	/* malformed lines skipped reading the sources (kept in the index cache,
	 * so that a cached open reports them as a fresh one does) */
	uint32_t skipped;
	/* a table mapped from an index cache: the arrays not yet copied out
	 * (table_own*()) point into this */
	void *mapping;
	size_t mapping_size;
	/* modules.weakdep, read when first asked (weakdep.c); not cached */
	struct weakdeps *weakdeps;
};

void weakdeps_free(struct weakdeps *w);
/* A table file, whole and bounded, its failure logged (quiet: a missing
 * one is no error to log) (table.c) */
int table_slurp(struct modalias_table *t, const char *path, char **buf, size_t *len, bool quiet);

/* ---- the arrays of a table, described once (table-arrays.c) --------------
 *
 * Every array that a table points to.  Each walk over them is a loop over
 * this list: the index cache writes, bounds-checks and maps them (cache.c),
 * table_own() copies them from a mapping to the heap, index_free() and the
 * table's unref free them, the index's size is summed from it.  A row: its
 * name in messages, where its pointer is (t: the table; ly, ix: a layer and
 * its index), the element type (its size and alignment), how many elements
 * there are, in which layers it is (ALL, WILD: fnmatch layers, EXACT: exact
 * ones; table rows: the table's own, one each), and whose it is (TABLE:
 * filled as table.c loads; INDEX: built, freed and rebuilt by index.c).
 * The order of the rows is that of the index cache's header: a row added,
 * removed or moved is a new CACHE_VERSION. */
#define TABLE_ARRAYS(X)                                                                                \
	X(POOL, "string pool", t->pool.buf, char, t->pool.len, ALL, TABLE)                             \
	X(MODULES, "modules", t->modules, struct module, t->n_modules, ALL, TABLE)                     \
	X(MODULE_IDS, "module names", t->module_ids.slots, struct hashtab_slot, t->module_ids.cap, ALL, TABLE) \
	X(ORIGINS, "origins", t->origins, uint32_t, t->n_origins, ALL, TABLE)
#define LAYER_ARRAYS(X)                                                                                \
	X(PATTERNS, "patterns", ly->patterns, struct pattern, ly->n, ALL, TABLE)                       \
	X(PREFIX, "prefix slots", ix->prefix, struct slot, ix->prefix_cap, WILD, INDEX)                \
	X(PREFIX_LENGTHS, "prefix lengths", ix->prefix_len_present, uint8_t, (size_t)ix->max_prefix + 1, WILD, INDEX) \
	X(TRIGRAMS, "trigram slots", ix->tri, struct slot, ix->tri_cap, WILD, INDEX)                   \
	X(IDS, "ids", ix->ids, uint32_t, ly->n, ALL, INDEX)                                            \
	X(EXACT, "name slots", ix->exact.slots, struct hashtab_slot, ix->exact.cap, EXACT, INDEX)      \
	X(BLOOM, "trigram filter", ix->tri_bloom, uint64_t, TRI_BLOOM_WORDS, WILD, INDEX)                \
	X(PREFIX_BLOOM, "prefix filter", ix->prefix_bloom, uint64_t, PREFIX_BLOOM_WORDS, WILD, INDEX)

enum table_array_id {
#define X(id, ...) TABLE_ARRAY_##id,
	TABLE_ARRAYS(X)
#undef X
	TABLE_ARRAY_MAX,
};
enum layer_array_id {
#define X(id, ...) LAYER_ARRAY_##id,
	LAYER_ARRAYS(X)
#undef X
	LAYER_ARRAY_MAX,
};
/* Array i of a table: the table's own first, then each layer's in turn. */
#define ARRAY_MAX (TABLE_ARRAY_MAX + LAYER_MAX * LAYER_ARRAY_MAX)
static inline unsigned int layer_array(enum layer_id l, enum layer_array_id a)
{
	return TABLE_ARRAY_MAX + (unsigned int)l * LAYER_ARRAY_MAX + (unsigned int)a;
}

/* One array of one table, as the description gives it. */
struct table_array {
	const char *name;
	size_t size;        /* of an element */
	bool of_index;      /* index.c's (else table.c's) */
	enum layer_id layer; /* LAYER_MAX: one of the table's own */
	void *p;             /* NULL when there is none */
	size_t count;        /* elements; 0 in a layer that has none */
};
/* Array I of T. */
void table_array_get(const struct modalias_table *t, unsigned int i, struct table_array *a);
/* Points array I of T at P (its count is T's, set apart). */
void table_array_set(struct modalias_table *t, unsigned int i, void *p);
/* Frees array I of T, unless it lies in T's mapping, and forgets it. */
void table_array_free(struct modalias_table *t, unsigned int i);
/* Every array of T freed or unmapped: what unref does before free(T). */
void table_arrays_release(struct modalias_table *t);
/* A table mapped from an index cache about to change: its arrays copied
 * to the heap, the mapping dropped; -EINVAL (logged) when its module ids
 * cannot be added to. */
int table_own(struct modalias_table *t);
/* The same for the table's own arrays and the layers in LAYERS (a mask of
 * 1 << enum layer_id) only: the other layers' arrays stay in the mapping,
 * which is dropped when nothing is left in it. */
int table_own_layers(struct modalias_table *t, unsigned int layers);
/* 0 when T may be changed; -EINVAL (logged) when it was mapped from an
 * index cache whose module ids cannot be added to (table_own*() ask it). */
int table_changeable(struct modalias_table *t);

static inline const char *table_module_name(const struct modalias_table *t, uint32_t id)
{
	return t->pool.buf + t->modules[id].name;
}

static inline const char *table_origin_name(const struct modalias_table *t, uint32_t origin)
{
	return origin < t->n_origins ? t->pool.buf + t->origins[origin] : "";
}

int table_default_dir(char **ret);
/* (Re)builds the index of every layer that changed. */
int table_build(struct modalias_table *t);
/* Frees the index of layer L (what of it is not in a mapping). */
void index_free(struct modalias_table *t, enum layer_id l);
size_t table_index_bytes(const struct modalias_table *t);
/* stamp.c: the identity of DIR/NAME now (all zero when it is absent). */
int table_source_stamp(const char *dir, const char *name, struct source *src);
/* Whether the N sources recorded of DIR are the files as they are now: 0,
 * -ESTALE when one changed, or another -errno; WHY says which file. */
int table_sources_check(const char *dir, const struct source *src, uint32_t n, char *why, size_t whylen);
/* stamp.c: the device and inode of the directory DIR now (all zero when it
 * cannot be stat()ed: reading it fails then, and says why). */
void table_dir_stamp(const char *dir, struct dir_id *id);
/* Whether DIR is the module directory recorded as RECORDED (its path) and
 * ID: the same path, and the same directory now.  0, or -ESTALE (or the
 * -errno of stat()) with WHY saying how it differs. */
int table_dir_check(const char *dir, const char *recorded, const struct dir_id *id, char *why, size_t whylen);
