/*
 * libmodalias - the index cache: a table written to one file that a later
 * process maps instead of parsing text and building the index again, so
 * that a one-shot lookup costs little more than starting the process.
 *
 * The file holds the table's arrays as they are in memory (it is specific
 * to this library version and this machine's layout, which the header
 * records) and the size, mtime and inode of every source file it was
 * built from, so a stale cache is noticed and rebuilt.  Its layout is in
 * cache-private.h.
 *
 * Nothing in it is believed: a cache is used only where shared/path-trust
 * allows (no other user could have written it or a directory above it),
 * and only after its checksum and a check of every offset, count and index
 * that is not checked where it is used (index.c).  A damaged or stale
 * cache is rebuilt: a new file made in the checked directory, renamed over
 * it.  This file never follows a path twice: what was checked is the
 * descriptor that is used.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache-private.h"
#include "path-trust.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static void header_sizes(uint32_t *sizes)
{
	sizes[0] = sizeof(struct pattern);
	sizes[1] = sizeof(struct slot);
	sizes[2] = sizeof(struct hashtab_slot);
	sizes[3] = sizeof(struct module);
	sizes[4] = sizeof(struct source);
}

/* ---- the checksum ------------------------------------------------------- */

static inline uint64_t load_le64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_CRC_INSN 1
#if defined(__has_include) && __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
/* what the C library found at start-up: no CPUID (slow in a VM) per call */
#define crc_insn_usable() CPU_FEATURE_ACTIVE(SSE4_2)
#else
#define crc_insn_usable() __builtin_cpu_supports("sse4.2")
#endif
__attribute__((target("sse4.2"))) static void checksum_insn(const unsigned char *p, size_t len,
							     uint32_t crc[3])
{
	unsigned long long c0 = crc[0], c1 = crc[1], c2 = crc[2];
	size_t i = 0;

	for (; i + 24 <= len; i += 24) {
		c0 = __builtin_ia32_crc32di(c0, load_le64(p + i));
		c1 = __builtin_ia32_crc32di(c1, load_le64(p + i + 8));
		c2 = __builtin_ia32_crc32di(c2, load_le64(p + i + 16));
	}
	if (i + 8 <= len) {
		c0 = __builtin_ia32_crc32di(c0, load_le64(p + i));
		i += 8;
		if (i + 8 <= len) {
			c1 = __builtin_ia32_crc32di(c1, load_le64(p + i));
			i += 8;
		}
	}
	for (; i < len; i++)
		c0 = __builtin_ia32_crc32qi((unsigned int)c0, p[i]);
	crc[0] = (uint32_t)c0;
	crc[1] = (uint32_t)c1;
	crc[2] = (uint32_t)c2;
}
#endif

/* The same sums, eight bytes at a time from tables (slicing-by-8). */
static void checksum_table(const unsigned char *p, size_t len, uint32_t crc[3])
{
	uint32_t t[8][256], c[3] = { crc[0], crc[1], crc[2] };
	size_t i = 0;
	unsigned int lane = 0;

	for (uint32_t b = 0; b < 256; b++) {
		uint32_t v = b;
		for (int k = 0; k < 8; k++)
			v = v & 1 ? v >> 1 ^ 0x82f63b78u : v >> 1;
		t[0][b] = v;
	}
	for (unsigned int k = 1; k < 8; k++)
		for (unsigned int b = 0; b < 256; b++)
			t[k][b] = t[k - 1][b] >> 8 ^ t[0][t[k - 1][b] & 0xff];
	for (; i + 8 <= len; i += 8) {
		uint64_t w = load_le64(p + i);
		uint32_t lo = (uint32_t)w ^ c[lane], hi = (uint32_t)(w >> 32);

		c[lane] = t[7][lo & 0xff] ^ t[6][lo >> 8 & 0xff] ^ t[5][lo >> 16 & 0xff] ^ t[4][lo >> 24] ^
			  t[3][hi & 0xff] ^ t[2][hi >> 8 & 0xff] ^ t[1][hi >> 16 & 0xff] ^ t[0][hi >> 24];
		lane = lane == 2 ? 0 : lane + 1;
	}
	for (; i < len; i++)
		c[0] = c[0] >> 8 ^ t[0][(c[0] ^ p[i]) & 0xff];
	memcpy(crc, c, sizeof(c));
}

void cache_checksum(const void *data, size_t len, uint32_t crc[3])
{
	crc[0] = crc[1] = crc[2] = UINT32_MAX;
#ifdef HAVE_CRC_INSN
	if (crc_insn_usable())
		checksum_insn(data, len, crc);
	else
#endif
		checksum_table(data, len, crc);
	for (int i = 0; i < 3; i++)
		crc[i] = ~crc[i];
}

/* ---- writing ------------------------------------------------------------ */

/* The file is built in memory, then written at once: its checksum covers
 * it whole. */
static uint64_t put(struct strbuf *img, const void *data, size_t len)
{
	static const char zeros[8];
	uint64_t off;

	strbuf_putn(img, zeros, (8 - img->len % 8) % 8);
	off = img->len;
	if (len)
		strbuf_putn(img, data, len);
	return off;
}

static int build_image(struct modalias_table *t, struct strbuf *img)
{
	struct cache_header h;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, sizeof(CACHE_MAGIC));
	h.version = CACHE_VERSION;
	h.bom = CACHE_BOM;
	header_sizes(h.sizes);
	h.n_modules = t->n_modules;
	h.n_ordered = t->n_ordered;
	h.n_origins = t->n_origins;
	h.dir = t->dir;
	h.module_ids_n = t->module_ids.n;
	h.module_ids_cap = t->module_ids.cap;
	h.n_sources = t->n_sources;
	h.skipped = t->skipped;
	memcpy(h.sources, t->sources, sizeof(h.sources));
	h.pool_len = t->pool.len;
	put(img, &h, sizeof(h)); /* again at the end, with the offsets */
	h.pool = put(img, t->pool.buf, t->pool.len);
	h.modules = put(img, t->modules, t->n_modules * sizeof(*t->modules));
	h.module_ids = put(img, t->module_ids.slots, t->module_ids.cap * sizeof(*t->module_ids.slots));
	h.origins = put(img, t->origins, t->n_origins * sizeof(*t->origins));
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
		c->patterns = put(img, ly->patterns, ly->n * sizeof(*ly->patterns));
		c->ids = put(img, ix->ids, ix->ids ? ly->n * sizeof(*ix->ids) : 0);
		c->prefix = put(img, ix->prefix, ix->prefix_cap * sizeof(*ix->prefix));
		c->prefix_len_present = put(img, ix->prefix_len_present,
					    ix->prefix_len_present ? ix->max_prefix + 1 : 0);
		c->tri = put(img, ix->tri, ix->tri_cap * sizeof(*ix->tri));
		c->exact = put(img, ix->exact.slots, ix->exact.cap * sizeof(*ix->exact.slots));
		c->bloom = put(img, ix->tri_bloom, ix->tri_bloom ? TRI_BLOOM_WORDS * sizeof(uint64_t) : 0);
	}
	if (img->oom)
		return -ENOMEM;
	h.file_size = img->len;
	memcpy(img->buf, &h, sizeof(h));
	cache_checksum(img->buf + CACHE_CHECKED_FROM, img->len - CACHE_CHECKED_FROM, h.crc);
	memcpy(img->buf, &h, sizeof(h));
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A fresh name for the temporary file beside NAME. */
static void temp_name(char *buf, size_t size, const char *name)
{
	uint64_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		r = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 40;
	}
	snprintf(buf, size, ".%s.%016llx", name, (unsigned long long)r);
}

/* Writes T's cache as NAME in the directory DIRFD (already checked; SHOWN
 * is its path, for messages): a new file made there without following
 * anything, renamed over NAME.  *DENIED: the directory is not writable for
 * us (not an error worth more than an info). */
static int save_at(struct modalias_table *t, int dirfd, const char *shown, const char *name,
		   bool *denied)
{
	struct strbuf img;
	char tmp[NAME_MAX + 1];
	int fd = -1, r;

	*denied = false;
	r = table_build(t);
	if (r < 0)
		return r;
	strbuf_init(&img);
	r = build_image(t, &img);
	if (r < 0)
		goto out;
	for (int tries = 0; fd < 0 && tries < 8; tries++) {
		temp_name(tmp, sizeof(tmp), name);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		r = -errno;
		*denied = r == -EACCES || r == -EROFS || r == -EPERM;
		goto out;
	}
	r = write_all(fd, img.buf, img.len);
	/* the mode asked for, whatever the umask */
	if (r == 0 && fchmod(fd, 0644) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dirfd, tmp, 0);
out:
	strbuf_release(&img);
	if (r < 0 && !*denied)
		err(t->ctx, "cannot write the index cache %s/%s: %s\n", shown, name, strerror(-r));
	return r;
}

/* PATH's directory and last component; false when PATH names no file. */
static bool split_path(const char *path, char **dir, const char **base)
{
	const char *slash = strrchr(path, '/');

	*base = slash ? slash + 1 : path;
	if (!**base || strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0 || strlen(*base) > NAME_MAX - 18)
		return false;
	if (!slash)
		*dir = strdup(".");
	else if (slash == path)
		*dir = strdup("/");
	else
		*dir = strndup(path, (size_t)(slash - path));
	return true;
}

MODALIAS_EXPORT int modalias_table_save(struct modalias_table *t, const char *path)
{
	struct trust_why why = { "" };
	const char *base;
	char *dir = NULL;
	bool denied;
	int dirfd, r;

	if (!t || !path)
		return -EINVAL;
	if (!split_path(path, &dir, &base)) {
		err(t->ctx, "cannot write the index cache %s: not a file name\n", path);
		return -EINVAL;
	}
	if (!dir)
		return -ENOMEM;
	dirfd = trust_open(dir, O_PATH | O_DIRECTORY, TRUST_DIRECTORY | TRUST_FOLLOW, &why);
	if (dirfd < 0) {
		err(t->ctx, "cannot write the index cache %s: %s\n", path, why.text);
		free(dir);
		return dirfd;
	}
	r = save_at(t, dirfd, dir, base, &denied);
	if (denied)
		err(t->ctx, "cannot write the index cache %s: %s\n", path, strerror(-r));
	close(dirfd);
	free(dir);
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

/* ---- checking a cache ----------------------------------------------------- */

/* What a check found wrong, for the one message: "damaged index cache
 * (WHY)". */
struct check {
	const unsigned char *map;
	uint64_t size;   /* of the file */
	uint64_t pool_len;
	uint32_t n_modules;
	char *why;
	size_t why_len;
	bool bad;
};

static bool fail(struct check *c, const char *fmt, ...) _printf_(2, 3);
static bool fail(struct check *c, const char *fmt, ...)
{
	if (!c->bad) {
		va_list ap;

		va_start(ap, fmt);
		/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): ap is va_start()'s, one line up */
		vsnprintf(c->why, c->why_len, fmt, ap);
		va_end(ap);
	}
	c->bad = true;
	return false;
}

/* An array of COUNT elements of SIZE bytes at OFF: inside the file, aligned
 * as the writer aligns every array. */
static bool array_ok(struct check *c, const char *what, uint64_t off, uint64_t count, size_t size)
{
	uint64_t len = count * size; /* count < 2^32, size < 2^10: no overflow */

	if (off % 8 != 0 || off > c->size || len > c->size - off)
		return fail(c, "%s: %llu bytes at %llu, past the end of the file or misaligned", what,
			    (unsigned long long)len, (unsigned long long)off);
	return true;
}

static const void *at(const struct check *c, uint64_t off)
{
	return c->map + off;
}

/* Whether every pattern's string is in the pool and its module in the
 * table: the array seen as 32-bit words, each compared with the bound of
 * its field, four patterns (twelve words) at a time where SSE2 is. */
static bool patterns_in_range(const void *pats, uint32_t n, uint32_t pool_len, uint32_t n_modules)
{
	const struct pattern *p = pats;
	uint32_t i = 0, bad = 0;

	if (n && !n_modules)
		return false;
#ifdef __SSE2__
	{
		/* the largest value allowed, biased for a signed compare */
		const uint32_t s = (pool_len - 1) ^ 0x80000000u, m = (n_modules - 1) ^ 0x80000000u, any = INT32_MAX;
		const __m128i bias = _mm_set1_epi32(INT32_MIN);
		const __m128i lim0 = _mm_setr_epi32((int)s, (int)m, any, (int)s);
		const __m128i lim1 = _mm_setr_epi32((int)m, any, (int)s, (int)m);
		const __m128i lim2 = _mm_setr_epi32(any, (int)s, (int)m, any);
		const unsigned char *w = pats;
		__m128i acc = _mm_setzero_si128();

		for (; i + 4 <= n; i += 4, w += 4 * sizeof(struct pattern)) {
			__m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)w), bias);
			__m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(w + 16)), bias);
			__m128i c = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(w + 32)), bias);

			acc = _mm_or_si128(acc, _mm_cmpgt_epi32(a, lim0));
			acc = _mm_or_si128(acc, _mm_cmpgt_epi32(b, lim1));
			acc = _mm_or_si128(acc, _mm_cmpgt_epi32(c, lim2));
		}
		bad = (uint32_t)_mm_movemask_epi8(acc);
	}
#endif
	for (; i < n; i++)
		bad |= (p[i].str >= pool_len) | (p[i].module >= n_modules);
	return !bad;
}

/* An index table that lookups probe (prefix, trigram or exact slots): in the
 * file, its capacity a power of two.  What its slots hold is checked where
 * it is used (index.c): a probe stops after CAP slots, a run of ids at the
 * end of the array, a chain after N steps, a slot's string offset and
 * pattern number are compared with the pool and the layer. */
static bool probed_ok(struct check *c, const char *what, uint64_t off, uint32_t cap, size_t size)
{
	if (!array_ok(c, what, off, cap, size))
		return false;
	if (cap & (cap - 1))
		return fail(c, "%s: %u slots, not a power of two", what, cap);
	return true;
}

static bool layer_ok(struct check *c, unsigned int l, const struct cache_layer *cl)
{
	static const char *const names[LAYER_MAX] = {
		"config", "names", "symbols", "commands", "aliases", "builtin aliases", "builtin names", "blacklist",
	};
	const char *what = names[l];
	uint32_t n = cl->n;

	if (!array_ok(c, what, cl->patterns, n, sizeof(struct pattern)) ||
	    !array_ok(c, what, cl->ids, n, sizeof(uint32_t)))
		return false;
	/* what every user of a pattern follows: its string, its module */
	if (!patterns_in_range(at(c, cl->patterns), n, (uint32_t)c->pool_len, c->n_modules))
		return fail(c, "%s: a pattern out of range", what);
	if (layer_is_exact(l)) {
		if (cl->prefix_cap || cl->tri_cap)
			return fail(c, "%s: prefix or trigram slots in an exact layer", what);
		return probed_ok(c, what, cl->exact, cl->exact_cap, sizeof(struct hashtab_slot));
	}
	if (cl->exact_cap)
		return fail(c, "%s: exact slots in a wild layer", what);
	if (!probed_ok(c, what, cl->prefix, cl->prefix_cap, sizeof(struct slot)) ||
	    !probed_ok(c, what, cl->tri, cl->tri_cap, sizeof(struct slot)))
		return false;
	if (!n)
		return true; /* lookups skip it; nothing else of it is mapped */
	if (!cl->prefix_cap)
		return fail(c, "%s: no prefix slots", what);
	/* a lookup walks the prefix lengths up to the longest of its first byte */
	if (cl->max_prefix >= c->pool_len)
		return fail(c, "%s: longest prefix %u out of range", what, cl->max_prefix);
	for (unsigned int b = 0; b < 256; b++)
		if (cl->max_prefix_first[b] > cl->max_prefix)
			return fail(c, "%s: prefix length of byte %u out of range", what, b);
	return array_ok(c, what, cl->prefix_len_present, (uint64_t)cl->max_prefix + 1, 1) &&
	       array_ok(c, what, cl->bloom, TRI_BLOOM_WORDS, sizeof(uint64_t));
}

/* Every offset, length and count of the file against its size and
 * alignment, and every index that users of the table follow without a
 * check of their own (patterns' strings and modules, modules' names,
 * origins, the module directory, source names).  What only lookups follow
 * (the slots of the index tables, runs and chains of ids) is checked where
 * it is read, in index.c: there every probe, run and chain is bounded. */
static bool structure_ok(struct check *c, const struct cache_header *h)
{
	const unsigned char *pool;
	const uint32_t *origins;
	uint32_t sizes[5], bad = 0;

	header_sizes(sizes);
	if (memcmp(h->sizes, sizes, sizeof(sizes)) != 0)
		return fail(c, "the sizes of its records differ from this build's");
	if (h->pad1)
		return fail(c, "header padding not zero");
	if (h->pool_len == 0 || h->pool_len > UINT32_MAX || !array_ok(c, "string pool", h->pool, h->pool_len, 1))
		return c->bad ? false : fail(c, "string pool: %llu bytes", (unsigned long long)h->pool_len);
	pool = at(c, h->pool);
	if (pool[0] != '\0' || pool[h->pool_len - 1] != '\0')
		return fail(c, "string pool: not NUL-delimited");
	c->pool_len = h->pool_len;
	c->n_modules = h->n_modules;
	if (h->dir >= h->pool_len)
		return fail(c, "module directory out of range");
	if (!array_ok(c, "modules", h->modules, h->n_modules, sizeof(struct module)))
		return false;
	for (uint32_t i = 0; i < h->n_modules; i++) {
		const unsigned char *m = at(c, h->modules + (uint64_t)i * sizeof(struct module));
		uint32_t name;

		/* read as bytes: a bool holding 2 may not even be loaded */
		memcpy(&name, m + offsetof(struct module, name), sizeof(name));
		bad |= (name >= h->pool_len) | (m[offsetof(struct module, builtin)] > 1);
	}
	if (bad)
		return fail(c, "a module out of range");
	/* its slots are checked by table_own(): only a change of the table
	 * walks them */
	if (!array_ok(c, "module names", h->module_ids, h->module_ids_cap, sizeof(struct hashtab_slot)))
		return false;
	if (h->module_ids_n != h->n_modules || (h->module_ids_cap & (h->module_ids_cap - 1)) ||
	    (uint64_t)h->module_ids_n * 2 > h->module_ids_cap)
		return fail(c, "module names: %u in %u slots, for %u modules", h->module_ids_n, h->module_ids_cap,
			    h->n_modules);
	if (!array_ok(c, "origins", h->origins, h->n_origins, sizeof(uint32_t)))
		return false;
	origins = at(c, h->origins);
	for (uint32_t i = 0; i < h->n_origins; i++)
		bad |= origins[i] >= h->pool_len;
	if (bad)
		return fail(c, "an origin out of range");
	if (h->n_sources > TABLE_SOURCES_MAX)
		return fail(c, "%u source files", h->n_sources);
	for (uint32_t i = 0; i < h->n_sources; i++) {
		const char *name = h->sources[i].name;
		size_t len = strnlen(name, sizeof(h->sources[i].name));

		if (len == 0 || len == sizeof(h->sources[i].name) || memchr(name, '/', len) || name[0] == '.')
			return fail(c, "source %u: not a file name", i);
	}
	for (unsigned int l = 0; l < LAYER_MAX; l++)
		if (!layer_ok(c, l, &h->layers[l]))
			return false;
	return true;
}

/* The table whose arrays are those of the checked mapping. */
static int table_from_map(struct modalias_ctx *ctx, void *map, size_t size, struct modalias_table **ret)
{
	const struct cache_header *h = map;
	struct modalias_table *t;
	int r = modalias_table_new(ctx, &t);

	if (r < 0)
		return r;
	/* drop the fresh table's own arrays: the mapped ones replace them */
	free(t->pool.buf);
	free(t->origins);
	t->mapping = map;
	t->mapping_size = size;
	t->pool = (struct strpool){ .buf = (char *)map + h->pool, .len = h->pool_len, .cap = h->pool_len };
	t->modules = (struct module *)((char *)map + h->modules);
	t->n_modules = t->cap_modules = h->n_modules;
	t->n_ordered = h->n_ordered;
	t->module_ids = (struct hashtab){ .slots = h->module_ids_cap ? (struct hashtab_slot *)((char *)map + h->module_ids) : NULL,
				      .n = h->module_ids_n, .cap = h->module_ids_cap };
	t->origins = (uint32_t *)((char *)map + h->origins);
	t->n_origins = h->n_origins;
	t->dir = h->dir;
	t->n_sources = h->n_sources;
	t->skipped = h->skipped;
	memcpy(t->sources, h->sources, sizeof(t->sources));
	for (unsigned int l = 0; l < LAYER_MAX; l++) {
		const struct cache_layer *c = &h->layers[l];
		struct layer *ly = &t->layers[l];
		struct index *ix = &ly->index;
		bool wild = !layer_is_exact(l) && c->n;

		ly->patterns = c->n ? (struct pattern *)((char *)map + c->patterns) : NULL;
		ly->n = ly->cap = c->n;
		ly->dirty = false;
		ix->built = true;
		ix->ids = c->n ? (uint32_t *)((char *)map + c->ids) : NULL;
		ix->prefix = c->prefix_cap ? (struct slot *)((char *)map + c->prefix) : NULL;
		ix->prefix_cap = c->prefix_cap;
		ix->prefix_len_present = wild ? (uint8_t *)map + c->prefix_len_present : NULL;
		ix->max_prefix = c->max_prefix;
		ix->tri = c->tri_cap ? (struct slot *)((char *)map + c->tri) : NULL;
		ix->tri_cap = c->tri_cap;
		ix->exact = (struct hashtab){ .slots = c->exact_cap ? (struct hashtab_slot *)((char *)map + c->exact) : NULL,
					  .n = c->exact_n, .cap = c->exact_cap };
		ix->n_anchored = c->n_anchored;
		ix->n_floating = c->n_floating;
		ix->wild_first = c->wild_first;
		ix->exact_max_len = c->exact_max_len;
		ix->wild_first_anchored = c->wild_first_anchored;
		memcpy(ix->max_prefix_first, c->max_prefix_first, sizeof(ix->max_prefix_first));
		memcpy(ix->float_first, c->float_first, sizeof(ix->float_first));
		ix->tri_bloom = wild ? (uint64_t *)((char *)map + c->bloom) : NULL;
	}
	*ret = t;
	return 0;
}

int cache_map_fd(struct modalias_ctx *ctx, int fd, const char *dir, unsigned int flags,
		 struct modalias_table **ret, const char **why, char *whybuf, size_t whylen)
{
	const struct cache_header *h;
	struct check c = { .why = whybuf, .why_len = whylen };
	struct stat st;
	void *map;
	int r;

	*why = whybuf;
	whybuf[0] = '\0';
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return -EINVAL;
	}
	if ((uint64_t)st.st_size < sizeof(*h)) {
		*why = "not an index cache";
		return -EINVAL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	h = map;
	c.map = map;
	c.size = (uint64_t)st.st_size;
	if (memcmp(h->magic, CACHE_MAGIC, sizeof(CACHE_MAGIC)) != 0) {
		*why = "not an index cache";
		r = -EINVAL;
		goto fail;
	}
	if (h->version != CACHE_VERSION || h->bom != CACHE_BOM) {
		*why = "an index cache of another library version or machine";
		r = -EINVAL;
		goto fail;
	}
	r = -EINVAL;
	if (h->pad0)
		fail(&c, "header padding not zero");
	else if (h->file_size != c.size)
		fail(&c, "%llu bytes, its header says %llu", (unsigned long long)c.size,
		     (unsigned long long)h->file_size);
	else if (!(flags & CACHE_NO_CHECKSUM)) {
		uint32_t crc[3];

		cache_checksum((const char *)map + CACHE_CHECKED_FROM, (size_t)c.size - CACHE_CHECKED_FROM, crc);
		if (memcmp(crc, h->crc, sizeof(crc)) != 0)
			fail(&c, "checksum mismatch");
	}
	if (c.bad || !structure_ok(&c, h))
		goto fail;
	/* the sources it was built from must be unchanged */
	for (uint32_t i = 0; dir && i < h->n_sources; i++) {
		struct source now;

		r = table_source_stamp(dir, h->sources[i].name, &now);
		if (r < 0) {
			snprintf(whybuf, whylen, "%s/%s: %s", dir, h->sources[i].name, strerror(-r));
			goto fail;
		}
		if (memcmp(&now, &h->sources[i], sizeof(now)) != 0) {
			snprintf(whybuf, whylen, "%s/%s changed since it was written", dir, h->sources[i].name);
			r = -ESTALE;
			goto fail;
		}
	}
	r = table_from_map(ctx, map, (size_t)st.st_size, ret);
	if (r < 0)
		goto fail;
	return (int)(h->skipped > INT32_MAX ? INT32_MAX : h->skipped);
fail:
	munmap(map, (size_t)st.st_size);
	return r;
}

/* One line for a cache not used: damage is an error, an old or stale cache
 * only an info (it is rebuilt). */
static void log_rejected(struct modalias_ctx *ctx, const char *path, int r, const char *why, bool damaged)
{
	if (damaged)
		err(ctx, "%s: damaged index cache (%s)\n", path, why);
	else
		info(ctx, "%s: index cache not used: %s\n", path, why[0] ? why : strerror(-r));
}

static bool is_damage(int r, const char *why, const char *whybuf)
{
	/* the static reasons are an old version, not a cache, not a file */
	return r == -EINVAL && why == whybuf;
}

MODALIAS_EXPORT int modalias_table_new_from_cache(struct modalias_ctx *ctx, const char *path,
						  const char *dir, struct modalias_table **ret)
{
	struct trust_why tw = { "" };
	char whybuf[256];
	const char *why;
	int fd, r;

	if (!ctx || !path || !ret)
		return -EINVAL;
	fd = trust_open(path, O_RDONLY | O_NONBLOCK, TRUST_REGULAR, &tw);
	if (fd < 0) {
		if (fd != -ENOENT)
			err(ctx, "%s: index cache not used: %s\n", path, tw.text);
		return fd;
	}
	r = cache_map_fd(ctx, fd, dir, 0, ret, &why, whybuf, sizeof(whybuf));
	close(fd);
	if (r < 0)
		log_rejected(ctx, path, r, why, is_damage(r, why, whybuf));
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

	if (!t->mapping)
		return 0;
	/* hashtab_add() probes until a free slot */
	if (!hashtab_ok(&t->module_ids, t->pool.len, t->n_modules)) {
		err(t->ctx, "damaged index cache (module names: a slot out of range, or none free)\n");
		return -EINVAL;
	}
	c = *t;
	c.pool.buf = dup_or_null(t->pool.buf, t->pool.len, &oom);
	c.modules = dup_or_null(t->modules, t->n_modules * sizeof(*t->modules), &oom);
	c.module_ids.slots = dup_or_null(t->module_ids.slots, t->module_ids.cap * sizeof(struct hashtab_slot), &oom);
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
						    ly->index.exact.cap * sizeof(struct hashtab_slot), &oom);
		cl->index.tri_bloom = dup_or_null(ly->index.tri_bloom,
						  ly->index.tri_bloom ? TRI_BLOOM_WORDS * sizeof(uint64_t) : 0, &oom);
	}
	if (oom) {
		/* free what was copied; the table stays mapped */
		free(c.pool.buf);
		free(c.modules);
		free(c.module_ids.slots);
		free(c.origins);
		for (unsigned int l = 0; l < LAYER_MAX; l++) {
			free(c.layers[l].patterns);
			index_free(&c.layers[l].index);
		}
		return -ENOMEM;
	}
	munmap(t->mapping, t->mapping_size);
	c.mapping = NULL;
	c.mapping_size = 0;
	*t = c;
	return 0;
}

/* ---- the cached open ----------------------------------------------------- */

/* The cache directory, opened through the trust walk; a missing one is made
 * (and missing directories above it), each inside a parent that passed the
 * walk, then opened through the walk again. */
static int cache_dir_open(const char *path, unsigned int depth, struct trust_why *why)
{
	int fd = trust_open(path, O_PATH | O_DIRECTORY, TRUST_DIRECTORY | TRUST_FOLLOW, why);
	const char *base;
	char *parent = NULL;
	int pfd;

	if (fd != -ENOENT || depth >= 16 || !split_path(path, &parent, &base))
		return fd;
	if (!parent)
		return -ENOMEM;
	pfd = cache_dir_open(parent, depth + 1, why);
	free(parent);
	if (pfd < 0)
		return pfd;
	if (mkdirat(pfd, base, 0755) == 0) {
		/* not group-writable, whatever the umask: else it is not trusted */
		fchmodat(pfd, base, 0755, 0);
	} else if (errno != EEXIST) {
		int r = -errno;

		snprintf(why->text, sizeof(why->text), "%s: %s", path, strerror(-r));
		close(pfd);
		return r;
	}
	close(pfd);
	return trust_open(path, O_PATH | O_DIRECTORY, TRUST_DIRECTORY | TRUST_FOLLOW, why);
}

/* One cache per module directory, named after the directory as given (two
 * spellings of one directory only cost a second cache). */
static void cache_name(char *buf, size_t size, const char *dir)
{
	snprintf(buf, size, "modalias-%08x.idx", hash_bytes(dir, strlen(dir)));
}

MODALIAS_EXPORT int modalias_table_open(struct modalias_ctx *ctx, const char *dir,
					const char *cache_dir, struct modalias_table **ret)
{
	struct trust_why tw = { "" };
	char name[32], *dflt = NULL, *path = NULL, whybuf[256];
	const char *why;
	bool write = false, denied;
	int dirfd = -1, fd, r;

	if (!ctx || !ret)
		return -EINVAL;
	if (!dir) {
		r = table_default_dir(&dflt);
		if (r < 0)
			return r;
		dir = dflt;
	}
	cache_name(name, sizeof(name), dir);
	if (cache_dir && asprintf(&path, "%s/%s", cache_dir, name) < 0) {
		r = -ENOMEM;
		goto out;
	}
	if (cache_dir) {
		dirfd = cache_dir_open(cache_dir, 0, &tw);
		if (dirfd == -EACCES || dirfd == -EROFS || dirfd == -ENOENT)
			/* no cache here for us: it only costs time */
			info(ctx, "index cache directory %s not used: %s\n", cache_dir, tw.text);
		else if (dirfd < 0)
			err(ctx, "index cache directory %s not used: %s\n", cache_dir, tw.text);
	}
	if (dirfd >= 0) {
		write = true;
		fd = trust_openat(dirfd, cache_dir, name, O_RDONLY | O_NONBLOCK, TRUST_REGULAR, &tw);
		if (fd >= 0) {
			r = cache_map_fd(ctx, fd, dir, 0, ret, &why, whybuf, sizeof(whybuf));
			close(fd);
			if (r >= 0)
				goto out;
			log_rejected(ctx, path, r, why, is_damage(r, why, whybuf));
		} else if (fd == -EACCES) {
			info(ctx, "index cache not used: %s\n", tw.text);
			write = false;
		} else if (fd != -ENOENT) {
			/* never read; a new cache is renamed over it (not written through it) */
			err(ctx, "index cache not used: %s\n", tw.text);
			write = fd == -EPERM || fd == -ELOOP;
		}
	}
	r = modalias_table_new_from_directory(ctx, dir, ret);
	if (r >= 0 && write && save_at(*ret, dirfd, cache_dir, name, &denied) < 0 && denied)
		info(ctx, "%s/%s: not written: no write access\n", cache_dir, name);
out:
	if (dirfd >= 0)
		close(dirfd);
	free(path);
	free(dflt);
	return r;
}
