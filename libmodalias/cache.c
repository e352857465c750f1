/*
 * libmodalias - the index cache: a table written to one file that a later
 * process maps instead of parsing text and building the index again, so
 * that a one-shot lookup costs little more than starting the process.
 *
 * The file holds the table's arrays as they are in memory (it is specific
 * to this library version and this machine's layout, which the header
 * records) and the size, mtime and inode of every source file it was
 * built from, so a stale cache is noticed and rebuilt.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "table-private.h"

#define CACHE_MAGIC "libmodalias-idx"
#define CACHE_VERSION 5
#define CACHE_BOM 0x01020304u

struct cache_layer {
	uint32_t n, max_prefix, prefix_cap, tri_cap, exact_n, exact_cap, n_anchored, n_floating;
	uint32_t wild_first, wild_first_anchored, exact_max_len;
	uint32_t pad; /* cppcheck-suppress unusedStructMember ; the file's layout: 8-byte aligned */
	uint16_t max_prefix_first[256];
	uint8_t float_first[256];
	uint64_t patterns, prefix, prefix_len_present, tri, ids, exact, bloom;
};

struct cache_header {
	char magic[16];
	uint32_t version, bom;
	uint32_t sizes[5]; /* pattern, slot, map_slot, module, source */
	uint32_t n_modules, n_ordered, n_origins, dir, module_map_n, module_map_cap, n_sources;
	uint32_t pad; /* cppcheck-suppress unusedStructMember ; the file's layout: 8-byte aligned */
	uint64_t file_size, pool_len;
	uint64_t pool, modules, module_map, origins;
	struct source sources[TABLE_SOURCES_MAX];
	struct cache_layer layers[LAYER_MAX];
};

static void header_sizes(uint32_t *sizes)
{
	sizes[0] = sizeof(struct pattern);
	sizes[1] = sizeof(struct slot);
	sizes[2] = sizeof(struct map_slot);
	sizes[3] = sizeof(struct module);
	sizes[4] = sizeof(struct source);
}

/* ---- writing ------------------------------------------------------------ */

struct writer {
	FILE *f;
	uint64_t at;
	bool failed;
};

static uint64_t put(struct writer *w, const void *data, size_t len)
{
	static const char zeros[8];
	uint64_t off;
	size_t pad = (size_t)((8 - (w->at % 8)) % 8);

	if (pad && fwrite(zeros, 1, pad, w->f) != pad)
		w->failed = true;
	w->at += pad;
	off = w->at;
	if (len && fwrite(data, 1, len, w->f) != len)
		w->failed = true;
	w->at += len;
	return off;
}

MODALIAS_EXPORT int modalias_table_save(struct modalias_table *t, const char *path)
{
	struct cache_header h;
	struct writer w = { 0 };
	char *tmp;
	int fd, r;

	if (!t || !path)
		return -EINVAL;
	r = table_build(t);
	if (r < 0)
		return r;
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd < 0) {
		r = -errno;
		err(t->ctx, "cannot write the index cache %s: %s\n", path, strerror(-r));
		free(tmp);
		return r;
	}
	w.f = fdopen(fd, "w");
	if (!w.f) {
		r = -errno;
		close(fd);
		goto fail;
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, sizeof(CACHE_MAGIC));
	h.version = CACHE_VERSION;
	h.bom = CACHE_BOM;
	header_sizes(h.sizes);
	h.n_modules = t->n_modules;
	h.n_ordered = t->n_ordered;
	h.n_origins = t->n_origins;
	h.dir = t->dir;
	h.module_map_n = t->module_map.n;
	h.module_map_cap = t->module_map.cap;
	h.n_sources = t->n_sources;
	memcpy(h.sources, t->sources, sizeof(h.sources));
	h.pool_len = t->pool.len;
	put(&w, &h, sizeof(h));
	h.pool = put(&w, t->pool.buf, t->pool.len);
	h.modules = put(&w, t->modules, t->n_modules * sizeof(*t->modules));
	h.module_map = put(&w, t->module_map.slots, t->module_map.cap * sizeof(*t->module_map.slots));
	h.origins = put(&w, t->origins, t->n_origins * sizeof(*t->origins));
	for (unsigned int l = 0; l < LAYER_MAX; l++) {
		const struct layer *ly = &t->layers[l];
		const struct index *ix = &ly->index;
		struct cache_layer *c = &h.layers[l];

		c->n = ly->n;
		c->max_prefix = ix->max_prefix;
		c->prefix_cap = ix->prefix_cap;
		c->tri_cap = ix->tri_cap;
		c->exact_n = ix->exact.n;
		c->exact_cap = ix->exact.cap;
		c->n_anchored = ix->n_anchored;
		c->n_floating = ix->n_floating;
		c->wild_first = ix->wild_first;
		c->exact_max_len = ix->exact_max_len;
		c->wild_first_anchored = ix->wild_first_anchored;
		memcpy(c->max_prefix_first, ix->max_prefix_first, sizeof(c->max_prefix_first));
		memcpy(c->float_first, ix->float_first, sizeof(c->float_first));
		c->patterns = put(&w, ly->patterns, ly->n * sizeof(*ly->patterns));
		c->ids = put(&w, ix->ids, ix->ids ? ly->n * sizeof(*ix->ids) : 0);
		c->prefix = put(&w, ix->prefix, ix->prefix_cap * sizeof(*ix->prefix));
		c->prefix_len_present = put(&w, ix->prefix_len_present,
					    ix->prefix_len_present ? ix->max_prefix + 1 : 0);
		c->tri = put(&w, ix->tri, ix->tri_cap * sizeof(*ix->tri));
		c->exact = put(&w, ix->exact.slots, ix->exact.cap * sizeof(*ix->exact.slots));
		c->bloom = put(&w, ix->tri_bloom, ix->tri_bloom ? TRI_BLOOM_WORDS * sizeof(uint64_t) : 0);
	}
	h.file_size = w.at;
	/* the header again, now with the offsets */
	if (fseek(w.f, 0, SEEK_SET) < 0 || fwrite(&h, 1, sizeof(h), w.f) != sizeof(h))
		w.failed = true;
	if (fflush(w.f) != 0 || w.failed) {
		r = -EIO;
		fclose(w.f);
		goto fail;
	}
	fchmod(fileno(w.f), 0644);
	fclose(w.f);
	if (rename(tmp, path) < 0) {
		r = -errno;
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	err(t->ctx, "cannot write the index cache %s: %s\n", path, strerror(-r));
	unlink(tmp);
	free(tmp);
	return r;
}

/* ---- mapping --------------------------------------------------------------- */

int table_source_stamp(const char *dir, const char *name, struct source *src)
{
	char path[4096];
	struct stat st;

	memset(src, 0, sizeof(*src));
	snprintf(src->name, sizeof(src->name), "%s", name);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno; /* absent: all zero */
	src->size = (uint64_t)st.st_size;
	src->mtime_sec = (int64_t)st.st_mtim.tv_sec;
	src->mtime_nsec = (int64_t)st.st_mtim.tv_nsec;
	src->ino = (uint64_t)st.st_ino;
	src->present = 1;
	return 0;
}

static bool in_file(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

MODALIAS_EXPORT int modalias_table_new_from_cache(struct modalias_ctx *ctx, const char *path,
						  const char *dir, struct modalias_table **ret)
{
	const struct cache_header *h;
	struct modalias_table *t;
	uint32_t sizes[5];
	struct stat st;
	void *map;
	int fd, r;

	if (!ctx || !path || !ret)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < sizeof(*h)) {
		close(fd);
		info(ctx, "%s: not an index cache\n", path);
		return -EINVAL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	h = map;
	header_sizes(sizes);
	if (memcmp(h->magic, CACHE_MAGIC, sizeof(CACHE_MAGIC)) != 0 || h->version != CACHE_VERSION ||
	    h->bom != CACHE_BOM || memcmp(h->sizes, sizes, sizeof(sizes)) != 0 ||
	    h->file_size != (uint64_t)st.st_size || h->n_sources > TABLE_SOURCES_MAX) {
		info(ctx, "%s: not an index cache of this library version\n", path);
		r = -EINVAL;
		goto fail;
	}
	/* every array must lie inside the file */
	{
		uint64_t size = h->file_size;
		bool ok = in_file(h->pool, h->pool_len, size) && h->pool_len > 0 &&
			  ((const char *)map)[h->pool + h->pool_len - 1] == '\0' &&
			  in_file(h->modules, (uint64_t)h->n_modules * sizeof(struct module), size) &&
			  in_file(h->module_map, (uint64_t)h->module_map_cap * sizeof(struct map_slot), size) &&
			  in_file(h->origins, (uint64_t)h->n_origins * sizeof(uint32_t), size);
		for (unsigned int l = 0; ok && l < LAYER_MAX; l++) {
			const struct cache_layer *c = &h->layers[l];
			ok = in_file(c->patterns, (uint64_t)c->n * sizeof(struct pattern), size) &&
			     in_file(c->ids, (uint64_t)c->n * sizeof(uint32_t), size) &&
			     in_file(c->prefix, (uint64_t)c->prefix_cap * sizeof(struct slot), size) &&
			     in_file(c->tri, (uint64_t)c->tri_cap * sizeof(struct slot), size) &&
			     in_file(c->exact, (uint64_t)c->exact_cap * sizeof(struct map_slot), size) &&
			     (layer_is_exact(l) || c->n == 0 ||
			      in_file(c->bloom, TRI_BLOOM_WORDS * sizeof(uint64_t), size)) &&
			     (layer_is_exact(l) || c->n == 0 ||
			      in_file(c->prefix_len_present, (uint64_t)c->max_prefix + 1, size));
		}
		if (!ok) {
			err(ctx, "%s: damaged index cache\n", path);
			r = -EINVAL;
			goto fail;
		}
	}
	/* the sources it was built from must be unchanged */
	if (dir) {
		for (uint32_t i = 0; i < h->n_sources; i++) {
			struct source now;
			r = table_source_stamp(dir, h->sources[i].name, &now);
			if (r < 0)
				goto fail;
			if (memcmp(&now, &h->sources[i], sizeof(now)) != 0) {
				info(ctx, "%s: %s/%s changed since the cache was written\n", path, dir,
				     h->sources[i].name);
				r = -ESTALE;
				goto fail;
			}
		}
	}
	r = modalias_table_new(ctx, &t);
	if (r < 0)
		goto fail;
	/* drop the fresh table's own arrays: the mapped ones replace them */
	free(t->pool.buf);
	free(t->origins);
	t->map = map;
	t->map_size = (size_t)st.st_size;
	t->pool = (struct pool){ .buf = (char *)map + h->pool, .len = h->pool_len, .cap = h->pool_len };
	t->modules = (struct module *)((char *)map + h->modules);
	t->n_modules = t->cap_modules = h->n_modules;
	t->n_ordered = h->n_ordered;
	t->module_map = (struct map){ .slots = (struct map_slot *)((char *)map + h->module_map),
				      .n = h->module_map_n, .cap = h->module_map_cap };
	t->origins = (uint32_t *)((char *)map + h->origins);
	t->n_origins = h->n_origins;
	t->dir = h->dir;
	t->n_sources = h->n_sources;
	memcpy(t->sources, h->sources, sizeof(t->sources));
	for (unsigned int l = 0; l < LAYER_MAX; l++) {
		const struct cache_layer *c = &h->layers[l];
		struct layer *ly = &t->layers[l];
		struct index *ix = &ly->index;

		ly->patterns = c->n ? (struct pattern *)((char *)map + c->patterns) : NULL;
		ly->n = ly->cap = c->n;
		ly->dirty = false;
		ix->built = true;
		ix->ids = c->n ? (uint32_t *)((char *)map + c->ids) : NULL;
		ix->prefix = c->prefix_cap ? (struct slot *)((char *)map + c->prefix) : NULL;
		ix->prefix_cap = c->prefix_cap;
		ix->prefix_len_present = (!layer_is_exact(l) && c->n) ? (uint8_t *)map + c->prefix_len_present : NULL;
		ix->max_prefix = c->max_prefix;
		ix->tri = c->tri_cap ? (struct slot *)((char *)map + c->tri) : NULL;
		ix->tri_cap = c->tri_cap;
		ix->exact = (struct map){ .slots = c->exact_cap ? (struct map_slot *)((char *)map + c->exact) : NULL,
					  .n = c->exact_n, .cap = c->exact_cap };
		ix->n_anchored = c->n_anchored;
		ix->n_floating = c->n_floating;
		ix->wild_first = c->wild_first;
		ix->exact_max_len = c->exact_max_len;
		ix->wild_first_anchored = c->wild_first_anchored;
		memcpy(ix->max_prefix_first, c->max_prefix_first, sizeof(ix->max_prefix_first));
		memcpy(ix->float_first, c->float_first, sizeof(ix->float_first));
		ix->tri_bloom = (!layer_is_exact(l) && c->n) ? (uint64_t *)((char *)map + c->bloom) : NULL;
	}
	*ret = t;
	return 0;
fail:
	munmap(map, (size_t)st.st_size);
	return r;
}

static void *dup_or_null(const void *p, size_t len, bool *oom)
{
	void *n;

	if (!p || !len)
		return NULL;
	n = malloc(len);
	if (!n) {
		*oom = true;
		return NULL;
	}
	return memcpy(n, p, len);
}

/* A mapped table about to change: its arrays move to the heap. */
int table_own(struct modalias_table *t)
{
	bool oom = false;
	struct modalias_table c;

	if (!t->map)
		return 0;
	c = *t;
	c.pool.buf = dup_or_null(t->pool.buf, t->pool.len, &oom);
	c.modules = dup_or_null(t->modules, t->n_modules * sizeof(*t->modules), &oom);
	c.module_map.slots = dup_or_null(t->module_map.slots, t->module_map.cap * sizeof(struct map_slot), &oom);
	c.origins = dup_or_null(t->origins, t->n_origins * sizeof(*t->origins), &oom);
	for (unsigned int l = 0; l < LAYER_MAX; l++) {
		const struct layer *ly = &t->layers[l];
		struct layer *cl = &c.layers[l];

		cl->patterns = dup_or_null(ly->patterns, ly->n * sizeof(*ly->patterns), &oom);
		cl->index.ids = dup_or_null(ly->index.ids, ly->n * sizeof(uint32_t), &oom);
		cl->index.prefix = dup_or_null(ly->index.prefix, ly->index.prefix_cap * sizeof(struct slot), &oom);
		cl->index.prefix_len_present =
			dup_or_null(ly->index.prefix_len_present,
				    ly->index.prefix_len_present ? ly->index.max_prefix + 1 : 0, &oom);
		cl->index.tri = dup_or_null(ly->index.tri, ly->index.tri_cap * sizeof(struct slot), &oom);
		cl->index.exact.slots = dup_or_null(ly->index.exact.slots,
						    ly->index.exact.cap * sizeof(struct map_slot), &oom);
		cl->index.tri_bloom = dup_or_null(ly->index.tri_bloom,
						  ly->index.tri_bloom ? TRI_BLOOM_WORDS * sizeof(uint64_t) : 0, &oom);
	}
	if (oom) {
		/* free what was copied; the table stays mapped */
		free(c.pool.buf);
		free(c.modules);
		free(c.module_map.slots);
		free(c.origins);
		for (unsigned int l = 0; l < LAYER_MAX; l++) {
			free(c.layers[l].patterns);
			index_free(&c.layers[l].index);
		}
		return -ENOMEM;
	}
	munmap(t->map, t->map_size);
	c.map = NULL;
	c.map_size = 0;
	*t = c;
	return 0;
}

/* ---- the cached open ----------------------------------------------------- */

/* One cache per module directory, named after the directory as given (two
 * spellings of one directory only cost a second cache). */
static char *cache_path(const char *cache_dir, const char *dir)
{
	char *path;

	if (asprintf(&path, "%s/modalias-%08x.idx", cache_dir, hash_bytes(dir, strlen(dir))) < 0)
		return NULL;
	return path;
}

MODALIAS_EXPORT int modalias_table_open(struct modalias_ctx *ctx, const char *dir,
					const char *cache_dir, struct modalias_table **ret)
{
	char *dflt = NULL, *path = NULL;
	int r;

	if (!ctx || !ret)
		return -EINVAL;
	if (!dir) {
		r = table_default_dir(&dflt);
		if (r < 0)
			return r;
		dir = dflt;
	}
	if (cache_dir) {
		path = cache_path(cache_dir, dir);
		if (!path) {
			r = -ENOMEM;
			goto out;
		}
		r = modalias_table_new_from_cache(ctx, path, dir, ret);
		if (r == 0) {
			/* at info: a front end's verbose log tells a cached run from a parse */
			info(ctx, "%s: the tables of %s, from this index cache\n", path, dir);
			goto out;
		}
		if (r != -ENOENT)
			info(ctx, "%s: cache not used (%s), rebuilding\n", path, strerror(-r));
	}
	r = modalias_table_new_from_directory(ctx, dir, ret);
	if (r >= 0 && path && (mkdir(cache_dir, 0755) == 0 || errno == EEXIST) &&
	    access(cache_dir, W_OK) == 0) {
		/* a cache that cannot be written only costs time */
		int s = modalias_table_save(*ret, path);
		if (s < 0)
			info(ctx, "%s: not written: %s\n", path, strerror(-s));
	}
out:
	free(path);
	free(dflt);
	return r;
}
