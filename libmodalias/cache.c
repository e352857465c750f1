/*
 * libmodalias - the index cache: a table written to one file that a later
 * process maps instead of parsing text and building the index again, so
 * that a one-shot lookup costs little more than starting the process.
 *
 * The file holds the table's arrays as they are in memory (it is specific
 * to this library version and this machine's layout, which the header
 * records), the module directory it was built for (its path, device and
 * inode) and the device, inode, size and mtime of every source file it was
 * built from, so that a stale cache, or one of another directory, is
 * noticed and rebuilt.  Its layout is in cache-private.h.
 *
 * Nothing in it is believed: a cache is used only where shared/path-trust
 * allows (no other user could have written it or a directory above it),
 * and only after its checksum and a check of every offset, count and index
 * that is not checked where it is used (lookup.c, hashtab.c).  A damaged or
 * stale cache is rebuilt: a new file made in the checked directory, renamed
 * over it.  This file never follows a path twice: what was checked is the
 * descriptor that is used.
 *
 * It walks a table's arrays only through their description (table-private.h)
 * and builds tables only through table.c: it may not know how a table is
 * filled or an index built.
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
#include <sys/stat.h>
#include <unistd.h>

#include "cache-private.h"
#include "path-trust.h"
#include "write-file.h"

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

/* ---- the header's scalars --------------------------------------------------- */

/* The numbers of a table that are not arrays, and the header's field for
 * each: copied into the header when a cache is written, back into the
 * table when it is mapped. */
#define TABLE_SCALARS(X)                                                                                   \
	X(n_modules, t->n_modules) X(n_ordered, t->n_ordered) X(n_origins, t->n_origins) X(dir, t->dir)     \
	X(module_ids_n, t->module_ids.n) X(module_ids_cap, t->module_ids.cap) X(n_sources, t->n_sources)    \
	X(skipped, t->skipped) X(pool_len, t->pool.len) X(dir_dev, t->dir_id.dev) X(dir_ino, t->dir_id.ino)
#define LAYER_SCALARS(X)                                                                                   \
	X(n, ly->n) X(max_prefix, ix->max_prefix) X(prefix_cap, ix->prefix_cap) X(tri_cap, ix->tri_cap)     \
	X(exact_n, ix->exact.n) X(exact_cap, ix->exact.cap) X(n_anchored, ix->n_anchored)                   \
	X(n_floating, ix->n_floating) X(wild_first, ix->wild_first)                                          \
	X(wild_first_anchored, ix->wild_first_anchored) X(exact_max_len, ix->exact_max_len)

#define TO_HEADER(field, value) h->field = value;
#define TO_LAYER(field, value) c->field = value;
#define FROM_HEADER(field, value) value = h->field;
#define FROM_LAYER(field, value) value = c->field;

static void scalars_to_header(const struct modalias_table *t, struct cache_header *h)
{
	TABLE_SCALARS(TO_HEADER)
	memcpy(h->sources, t->sources, sizeof(h->sources));
	for (unsigned int l = 0; l < LAYER_MAX; l++) {
		const struct layer *ly = &t->layers[l];
		const struct index *ix = &ly->index;
		struct cache_layer *c = &h->layers[l];

		LAYER_SCALARS(TO_LAYER)
		memcpy(c->max_prefix_first, ix->max_prefix_first, sizeof(c->max_prefix_first));
		memcpy(c->float_first, ix->float_first, sizeof(c->float_first));
	}
}

/* The header's numbers into T, a table without arrays yet; what follows
 * from them (capacities) too. */
static void scalars_from_header(struct modalias_table *t, const struct cache_header *h)
{
	TABLE_SCALARS(FROM_HEADER)
	memcpy(t->sources, h->sources, sizeof(t->sources));
	t->cap_modules = t->n_modules;
	t->pool.cap = t->pool.len;
	for (unsigned int l = 0; l < LAYER_MAX; l++) {
		struct layer *ly = &t->layers[l];
		struct index *ix = &ly->index;
		const struct cache_layer *c = &h->layers[l];

		LAYER_SCALARS(FROM_LAYER)
		memcpy(ix->max_prefix_first, c->max_prefix_first, sizeof(ix->max_prefix_first));
		memcpy(ix->float_first, c->float_first, sizeof(ix->float_first));
		ly->cap = ly->n;
		ly->dirty = false;
		ix->built = true;
	}
}

/* Every array at a multiple of CACHE_ALIGN: aligned as its elements need. */
#define X(id, name, ptr, type, ...) _Static_assert(CACHE_ALIGN % _Alignof(type) == 0, "the alignment of " name);
TABLE_ARRAYS(X)
LAYER_ARRAYS(X)
#undef X

/* The offset of array I (table-private.h), and where the header keeps it. */
static uint64_t *offset_at(struct cache_header *h, unsigned int i)
{
	if (i < TABLE_ARRAY_MAX)
		return &h->off[i];
	i -= TABLE_ARRAY_MAX;
	return &h->layers[i / LAYER_ARRAY_MAX].off[i % LAYER_ARRAY_MAX];
}

static uint64_t offset_of(const struct cache_header *h, unsigned int i)
{
	if (i < TABLE_ARRAY_MAX)
		return h->off[i];
	i -= TABLE_ARRAY_MAX;
	return h->layers[i / LAYER_ARRAY_MAX].off[i % LAYER_ARRAY_MAX];
}

/* ---- writing ------------------------------------------------------------ */

/* The file is built in memory, then written at once: its checksum covers
 * it whole. */
static uint64_t put(struct strbuf *img, const void *data, size_t len)
{
	static const char zeros[CACHE_ALIGN];
	uint64_t off;

	strbuf_putn(img, zeros, (CACHE_ALIGN - img->len % CACHE_ALIGN) % CACHE_ALIGN);
	off = img->len;
	if (len)
		strbuf_putn(img, data, len);
	return off;
}

static int build_image(const struct modalias_table *t, struct strbuf *img)
{
	struct cache_header h;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, sizeof(CACHE_MAGIC));
	h.version = CACHE_VERSION;
	h.bom = CACHE_BOM;
	header_sizes(h.sizes);
	scalars_to_header(t, &h);
	put(img, &h, sizeof(h)); /* again at the end, with the offsets */
	for (unsigned int i = 0; i < ARRAY_MAX; i++) {
		struct table_array a;

		table_array_get(t, i, &a);
		if (!a.p && a.count)
			return -EINVAL; /* an index not built: the file would be refused */
		*offset_at(&h, i) = put(img, a.p, a.count * a.size);
	}
	if (img->oom)
		return -ENOMEM;
	h.file_size = img->len;
	memcpy(img->buf, &h, sizeof(h));
	cache_checksum(img->buf + CACHE_CHECKED_FROM, img->len - CACHE_CHECKED_FROM, h.crc);
	memcpy(img->buf, &h, sizeof(h));
	return 0;
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
		write_temp_name(tmp, sizeof(tmp), name);
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

/* ---- checking a cache ----------------------------------------------------- */

/* What a check found wrong, for the one message: "damaged index cache
 * (WHY)". */
struct check {
	const unsigned char *mem; /* the file, mapped */
	uint64_t size;
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

static const void *at(const struct check *c, uint64_t off)
{
	return c->mem + off;
}

static const char *const layer_names[LAYER_MAX] = {
	"config", "names", "symbols", "commands", "aliases", "builtin aliases", "builtin names", "blacklist",
};

/* A table that lookups probe: its capacity a power of two.  What its slots
 * hold is checked where it is used (lookup.c, hashtab.c): a probe stops
 * after CAP slots, a run of ids at the end of the array, a chain after N
 * steps, a slot's string offset and pattern number are compared with the
 * pool and the layer. */
static bool capacity_ok(struct check *c, const char *what, uint32_t cap)
{
	if (cap & (cap - 1))
		return fail(c, "%s: %u slots, not a power of two", what, cap);
	return true;
}

/* The numbers of a layer that lookups follow, before its arrays are. */
static bool layer_numbers_ok(struct check *c, unsigned int l, const struct cache_layer *cl, uint64_t pool_len)
{
	const char *what = layer_names[l];

	if (layer_is_exact(l)) {
		if (cl->prefix_cap || cl->tri_cap)
			return fail(c, "%s: prefix or trigram slots in an exact layer", what);
	} else if (cl->exact_cap) {
		return fail(c, "%s: exact slots in a wild layer", what);
	}
	if (!capacity_ok(c, what, cl->prefix_cap) || !capacity_ok(c, what, cl->tri_cap) ||
	    !capacity_ok(c, what, cl->exact_cap))
		return false;
	if (layer_is_exact(l) || !cl->n)
		return true; /* an empty layer: lookups skip it */
	if (!cl->prefix_cap)
		return fail(c, "%s: no prefix slots", what);
	/* a lookup walks the prefix lengths up to the longest of its first byte */
	if (cl->max_prefix >= pool_len)
		return fail(c, "%s: longest prefix %u out of range", what, cl->max_prefix);
	for (unsigned int b = 0; b < 256; b++)
		if (cl->max_prefix_first[b] > cl->max_prefix)
			return fail(c, "%s: prefix length of byte %u out of range", what, b);
	return true;
}

/* The header's numbers: record sizes, the string pool's length, the module
 * directory, the sources, each layer's. */
static bool numbers_ok(struct check *c, const struct cache_header *h)
{
	uint32_t sizes[5];

	header_sizes(sizes);
	if (memcmp(h->sizes, sizes, sizeof(sizes)) != 0)
		return fail(c, "the sizes of its records differ from this build's");
	if (h->pad1)
		return fail(c, "header padding not zero");
	if (h->pool_len == 0 || h->pool_len > UINT32_MAX)
		return fail(c, "string pool: %llu bytes", (unsigned long long)h->pool_len);
	if (h->dir >= h->pool_len)
		return fail(c, "module directory out of range");
	if (h->n_sources > TABLE_SOURCES_MAX)
		return fail(c, "%u source files", h->n_sources);
	for (uint32_t i = 0; i < h->n_sources; i++) {
		const char *name = h->sources[i].name;
		size_t len = strnlen(name, sizeof(h->sources[i].name));

		if (len == 0 || len == sizeof(h->sources[i].name) || memchr(name, '/', len) || name[0] == '.')
			return fail(c, "source %u: not a file name", i);
	}
	for (unsigned int l = 0; l < LAYER_MAX; l++)
		if (!layer_numbers_ok(c, l, &h->layers[l], h->pool_len))
			return false;
	return true;
}

/* Every array of T (whose numbers are the header's) inside the file and
 * aligned as the writer aligns it: the one walk that the description makes
 * complete. */
static bool arrays_ok(struct check *c, const struct cache_header *h, const struct modalias_table *t)
{
	for (unsigned int i = 0; i < ARRAY_MAX; i++) {
		struct table_array a;
		uint64_t off = offset_of(h, i), len;

		table_array_get(t, i, &a);
		len = a.count * a.size; /* count ≤ 2^32, size < 2^10: no overflow */
		if (off % CACHE_ALIGN == 0 && off <= c->size && len <= c->size - off)
			continue;
		if (a.layer == LAYER_MAX)
			return fail(c, "%s: %llu bytes at %llu, past the end of the file or misaligned", a.name,
				    (unsigned long long)len, (unsigned long long)off);
		return fail(c, "%s: %s: %llu bytes at %llu, past the end of the file or misaligned",
			    layer_names[a.layer], a.name, (unsigned long long)len, (unsigned long long)off);
	}
	return true;
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

/* What the arrays hold, where users of the table follow it without a check
 * of their own: the pool's strings, modules' names, origins, patterns'
 * strings and modules; and the module ids' numbers (their slots are
 * checked by table_own(): only a change of the table walks them).  What
 * only lookups follow (the slots of the index tables, runs and chains of
 * ids) is checked where it is read, in lookup.c: there every probe, run and
 * chain is bounded. */
static bool contents_ok(struct check *c, const struct cache_header *h)
{
	const unsigned char *pool = at(c, h->off[TABLE_ARRAY_POOL]);
	const uint32_t *origins = at(c, h->off[TABLE_ARRAY_ORIGINS]);
	uint32_t bad = 0;

	if (pool[0] != '\0' || pool[h->pool_len - 1] != '\0')
		return fail(c, "string pool: not NUL-delimited");
	for (uint32_t i = 0; i < h->n_modules; i++) {
		const unsigned char *m = at(c, h->off[TABLE_ARRAY_MODULES] + (uint64_t)i * sizeof(struct module));
		uint32_t name;

		/* read as bytes: a bool holding 2 may not even be loaded */
		memcpy(&name, m + offsetof(struct module, name), sizeof(name));
		bad |= (name >= h->pool_len) | (m[offsetof(struct module, builtin)] > 1);
	}
	if (bad)
		return fail(c, "a module out of range");
	if (h->module_ids_n != h->n_modules || (h->module_ids_cap & (h->module_ids_cap - 1)) ||
	    (uint64_t)h->module_ids_n * 2 > h->module_ids_cap)
		return fail(c, "module names: %u in %u slots, for %u modules", h->module_ids_n, h->module_ids_cap,
			    h->n_modules);
	for (uint32_t i = 0; i < h->n_origins; i++)
		bad |= origins[i] >= h->pool_len;
	if (bad)
		return fail(c, "an origin out of range");
	for (unsigned int l = 0; l < LAYER_MAX; l++) {
		const struct cache_layer *cl = &h->layers[l];

		/* what every user of a pattern follows: its string, its module */
		if (!patterns_in_range(at(c, cl->off[LAYER_ARRAY_PATTERNS]), cl->n, (uint32_t)h->pool_len, h->n_modules))
			return fail(c, "%s: a pattern out of range", layer_names[l]);
	}
	return true;
}

const char *cache_header_why_not(const struct cache_header *h, uint64_t size)
{
	if (!h || size < sizeof(*h) || memcmp(h->magic, CACHE_MAGIC, sizeof(CACHE_MAGIC)) != 0)
		return "not an index cache";
	if (h->version != CACHE_VERSION || h->bom != CACHE_BOM)
		return "an index cache of another library version or machine";
	return NULL;
}

int cache_map_fd(struct modalias_ctx *ctx, int fd, const char *dir, unsigned int flags,
		 struct modalias_table **ret, const char **why, char *whybuf, size_t whylen)
{
	const struct cache_header *h;
	const char *foreign;
	struct check c = { .why = whybuf, .why_len = whylen };
	struct modalias_table *t = NULL;
	struct stat st;
	void *mem;
	int r;

	*why = whybuf;
	whybuf[0] = '\0';
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return -EINVAL;
	}
	if ((uint64_t)st.st_size < sizeof(*h)) { /* not mapped: its header is not there to read */
		*why = cache_header_why_not(NULL, (uint64_t)st.st_size);
		return -EINVAL;
	}
	mem = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (mem == MAP_FAILED)
		return -errno;
	/* Every page is read (the checksum) by every process that maps a
	 * cache.  Asked for huge pages, a kernel that keeps large folios in
	 * the page cache fills it with 2 MiB ones when a cache is read from
	 * disk, and each process maps them with a fault or two instead of one
	 * per 64 KiB (a one-shot lookup 1.5 → 1.1 ms on Linux 6.18).  A hint:
	 * where it is not supported nothing changes. */
#ifdef MADV_HUGEPAGE
	(void)madvise(mem, (size_t)st.st_size, MADV_HUGEPAGE);
#endif
	h = mem;
	c.mem = mem;
	c.size = (uint64_t)st.st_size;
	foreign = cache_header_why_not(h, c.size);
	if (foreign) {
		*why = foreign;
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

		cache_checksum((const char *)mem + CACHE_CHECKED_FROM, (size_t)c.size - CACHE_CHECKED_FROM, crc);
		if (memcmp(crc, h->crc, sizeof(crc)) != 0)
			fail(&c, "checksum mismatch");
	}
	if (c.bad || !numbers_ok(&c, h))
		goto fail;
	/* a table with the header's numbers and no arrays yet: the description
	 * says from them how long each array is */
	r = modalias_table_new(ctx, &t);
	if (r < 0)
		goto fail;
	table_arrays_release(t);
	scalars_from_header(t, h);
	r = -EINVAL;
	if (!arrays_ok(&c, h, t) || !contents_ok(&c, h))
		goto fail;
	/* built for DIR (the same path, the same directory now) from its
	 * sources as they are now: a cache of another directory whose files
	 * have the same names, sizes and times is not this one's */
	if (dir) {
		r = table_dir_check(dir, (const char *)mem + h->off[TABLE_ARRAY_POOL] + h->dir, &t->dir_id, whybuf, whylen);
		if (r == 0)
			r = table_sources_check(dir, h->sources, h->n_sources, whybuf, whylen);
		if (r < 0)
			goto fail;
	}
	/* the checked arrays are the table's */
	for (unsigned int i = 0; i < ARRAY_MAX; i++) {
		struct table_array a;

		table_array_get(t, i, &a);
		table_array_set(t, i, a.count ? (char *)mem + offset_of(h, i) : NULL);
	}
	t->mapping = mem;
	t->mapping_size = (size_t)st.st_size;
	*ret = t;
	return (int)(h->skipped > INT32_MAX ? INT32_MAX : h->skipped);
fail:
	modalias_table_unref(t);
	munmap(mem, (size_t)st.st_size);
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

void cache_file_name(char *buf, size_t size, const char *dir)
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[32];
	char hex[2 * sizeof(md) + 1];

	sha256(dir, strlen(dir), md);
	for (size_t i = 0; i < sizeof(md); i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 0xf];
	}
	hex[2 * sizeof(md)] = '\0';
	snprintf(buf, size, "modalias-%s.idx", hex);
}

MODALIAS_EXPORT int modalias_table_open(struct modalias_ctx *ctx, const char *dir,
					const char *cache_dir, struct modalias_table **ret)
{
	struct trust_why tw = { "" };
	char name[CACHE_NAME_MAX], *dflt = NULL, *path = NULL, whybuf[256];
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
	cache_file_name(name, sizeof(name), dir);
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
			if (r >= 0) {
				/* at info: a front end's verbose log tells a cached run from a parse */
				info(ctx, "%s: the tables of %s, from this index cache\n", path, dir);
				goto out;
			}
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
	if (r >= 0 && write) {
		if (save_at(*ret, dirfd, cache_dir, name, &denied) == 0)
			cache_prune(ctx, dirfd, cache_dir, name);
		else if (denied)
			info(ctx, "%s/%s: not written: no write access\n", cache_dir, name);
	}
out:
	if (dirfd >= 0)
		close(dirfd);
	free(path);
	free(dflt);
	return r;
}
