/*
 * The index cache damaged: never believed beyond what is checked, and
 * rebuilt (the cache used as meant: test-cache.c).
 *
 *  - rejections: one row per check of the loader (magic, version, sizes,
 *    file size, checksum, each array out of bounds or misaligned, each index
 *    out of range, a capacity not a power of two), each resealed with a
 *    good checksum where the row is about the structure; and every array of
 *    the table's description (table-private.h) past the end of the file;
 *  - checked in use: damage the loader lets through because lookups check
 *    it where they read it (ids a gigabyte out, runs that never end, a
 *    chain that loops, slots past the arrays, tables without a free slot):
 *    every lookup ends inside the file; the module ids are checked when the
 *    table first changes;
 *  - sweep: bytes of a real cache flipped (every header byte and offsets
 *    spread over the file, several bit patterns) and the file truncated at
 *    many lengths: no crash, no hang, every answer the uncached one.
 *    MODALIAS_CACHE_SWEEP=N flips N spread offsets with every pattern.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "cache-test.h"

static char *moddir;
static bool quiet_mismatches; /* damage let through on purpose: answers may differ */

/* ---- rejections, one per check ------------------------------------------------ */

struct image {
	guint8 *b;
	gsize len;
	struct cache_header h; /* a copy, written back after the change */
};

static void *arr(struct image *im, uint64_t off)
{
	g_assert_cmpuint(off, <, im->len);
	return im->b + off;
}

static struct cache_layer *ly(struct image *im, enum layer_id l)
{
	return &im->h.layers[l];
}

static void m_magic(struct image *im) { im->h.magic[0] = 'X'; }
static void m_version(struct image *im) { im->h.version++; }
static void m_bom(struct image *im) { im->h.bom = 0x04030201u; }
static void m_pad0(struct image *im) { im->h.pad0 = 1; }
static void m_sizes(struct image *im) { im->h.sizes[0]++; }
static void m_file_size(struct image *im) { im->h.file_size += 8; }
static void m_checksum(struct image *im) { im->b[im->h.off[TABLE_ARRAY_POOL] + 100] ^= 0x20; }
static void m_pad1(struct image *im) { im->h.pad1 = 1; }
static void m_pool_past_end(struct image *im) { im->h.off[TABLE_ARRAY_POOL] = im->len; }
static void m_pool_misaligned(struct image *im) { im->h.off[TABLE_ARRAY_POOL] += 1; }
static void m_pool_len(struct image *im) { im->h.pool_len = im->len; }
static void m_pool_unterminated(struct image *im)
{
	((char *)arr(im, im->h.off[TABLE_ARRAY_POOL]))[im->h.pool_len - 1] = 'x';
}
static void m_dir(struct image *im) { im->h.dir = (uint32_t)im->h.pool_len; }
static void m_modules_count(struct image *im) { im->h.n_modules = UINT32_MAX; }
static void m_module_name(struct image *im)
{
	((struct module *)arr(im, im->h.off[TABLE_ARRAY_MODULES]))[7].name = (uint32_t)im->h.pool_len;
}
static void m_module_bool(struct image *im)
{
	((unsigned char *)arr(im, im->h.off[TABLE_ARRAY_MODULES]))[7 * sizeof(struct module) + offsetof(struct module, builtin)] = 2;
}
static void m_module_ids_cap(struct image *im) { im->h.module_ids_cap--; }
static void m_module_ids_value(struct image *im)
{
	struct hashtab_slot *s = arr(im, im->h.off[TABLE_ARRAY_MODULE_IDS]);

	for (uint32_t k = 0; k < im->h.module_ids_cap; k++)
		if (s[k].key) {
			s[k].value = im->h.n_modules;
			return;
		}
}
static void m_module_ids_n(struct image *im) { im->h.module_ids_n--; }
static void m_origin(struct image *im) { ((uint32_t *)arr(im, im->h.off[TABLE_ARRAY_ORIGINS]))[1] = (uint32_t)im->h.pool_len; }
static void m_n_sources(struct image *im) { im->h.n_sources = TABLE_SOURCES_MAX + 1; }
static void m_source_name(struct image *im) { strcpy(im->h.sources[1].name, "../../etc/shadow"); }
static void m_alias_patterns(struct image *im) { ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_PATTERNS] = im->len - 8; }
static void m_alias_ids(struct image *im) { ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_IDS] = im->len; }
static void m_alias_str(struct image *im)
{
	((struct pattern *)arr(im, ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_PATTERNS]))[100].str = (uint32_t)im->h.pool_len;
}
static void m_alias_module(struct image *im)
{
	((struct pattern *)arr(im, ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_PATTERNS]))[100].module = im->h.n_modules;
}
static void m_alias_id(struct image *im)
{
	uint32_t *ids = arr(im, ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_IDS]);

	for (uint32_t i = 0; i < ly(im, LAYER_ALIAS)->n; i++)
		ids[i] = ID_MASK | ID_LAST; /* a gigabyte past the patterns */
}
static void m_alias_last_run(struct image *im)
{
	uint32_t *ids = arr(im, ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_IDS]);

	for (uint32_t i = 0; i < ly(im, LAYER_ALIAS)->n; i++)
		ids[i] &= ~ID_LAST; /* no run ends */
}
static void m_alias_prefix_first(struct image *im)
{
	struct slot *s = arr(im, ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_PREFIX]);

	for (uint32_t k = 0; k < ly(im, LAYER_ALIAS)->prefix_cap; k++)
		if (s[k].key)
			s[k].first = 0x7fffffffu;
}
static void m_alias_prefix_cap(struct image *im) { ly(im, LAYER_ALIAS)->prefix_cap -= 1; }
static void m_alias_prefix_full(struct image *im)
{
	struct slot *s = arr(im, ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_PREFIX]);

	for (uint32_t k = 0; k < ly(im, LAYER_ALIAS)->prefix_cap; k++)
		if (!s[k].key)
			s[k] = (struct slot){ .key = 0x5eed0000u + k, .first = 0 };
}
static void m_alias_tri_first(struct image *im)
{
	struct slot *s = arr(im, ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_TRIGRAMS]);

	for (uint32_t k = 0; k < ly(im, LAYER_ALIAS)->tri_cap; k++)
		if (s[k].key)
			s[k].first = UINT32_MAX;
}
static void m_alias_max_prefix(struct image *im) { ly(im, LAYER_ALIAS)->max_prefix = (uint32_t)im->h.pool_len; }
static void m_alias_prefix_first_len(struct image *im)
{
	ly(im, LAYER_ALIAS)->max_prefix_first['p'] = (uint16_t)(ly(im, LAYER_ALIAS)->max_prefix + 1);
}
static void m_alias_present(struct image *im) { ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_PREFIX_LENGTHS] = im->len - 8; }
static void m_alias_bloom(struct image *im) { ly(im, LAYER_ALIAS)->off[LAYER_ARRAY_BLOOM] = im->len - 8; }
static void m_alias_exact(struct image *im) { ly(im, LAYER_ALIAS)->exact_cap = 16; }
static void m_symbol_chain_loop(struct image *im)
{
	uint32_t *ids = arr(im, ly(im, LAYER_SYMBOL)->off[LAYER_ARRAY_IDS]);

	for (uint32_t i = 0; i < ly(im, LAYER_SYMBOL)->n; i++)
		ids[i] = i; /* every chain a loop */
}
static void m_symbol_exact_value(struct image *im)
{
	struct hashtab_slot *s = arr(im, ly(im, LAYER_SYMBOL)->off[LAYER_ARRAY_EXACT]);

	for (uint32_t k = 0; k < ly(im, LAYER_SYMBOL)->exact_cap; k++)
		if (s[k].key)
			s[k].value = 0x7fffffffu;
}
static void m_symbol_exact_key(struct image *im)
{
	struct hashtab_slot *s = arr(im, ly(im, LAYER_SYMBOL)->off[LAYER_ARRAY_EXACT]);

	for (uint32_t k = 0; k < ly(im, LAYER_SYMBOL)->exact_cap; k++)
		if (s[k].key)
			s[k].key = UINT32_MAX;
}
static void m_symbol_exact_full(struct image *im)
{
	struct hashtab_slot *s = arr(im, ly(im, LAYER_SYMBOL)->off[LAYER_ARRAY_EXACT]);

	for (uint32_t k = 0; k < ly(im, LAYER_SYMBOL)->exact_cap; k++)
		if (!s[k].key)
			s[k] = (struct hashtab_slot){ .hash = 1, .key = 1, .value = 0 };
	ly(im, LAYER_SYMBOL)->exact_n = ly(im, LAYER_SYMBOL)->exact_cap;
}
static void m_symbol_exact_cap(struct image *im) { ly(im, LAYER_SYMBOL)->exact_cap = 48; }
static void m_symbol_prefix(struct image *im) { ly(im, LAYER_SYMBOL)->prefix_cap = 16; }
static void m_names_count(struct image *im) { ly(im, LAYER_NAME)->n = 0x40000000u; }

static void m_module_ids_full(struct image *im)
{
	struct hashtab_slot *s = arr(im, im->h.off[TABLE_ARRAY_MODULE_IDS]);

	for (uint32_t k = 0; k < im->h.module_ids_cap; k++)
		if (!s[k].key)
			s[k] = (struct hashtab_slot){ .hash = 1, .key = 1, .value = 0 };
}

struct reject_row {
	const char *name;
	void (*mutate)(struct image *im);
	bool reseal; /* a good checksum over the change: the structure is what is tested */
	const char *why;
	bool damage; /* logged as an error (else: an old or foreign cache, info) */
};

/* Damage the loader lets through because what it touches is checked where
 * it is used: lookups stay in bounds and end (a chain that loops, runs that
 * never end, slots pointing past the arrays, tables without a free slot),
 * and the module ids are checked when the table first changes. */
struct use_row {
	const char *name;
	void (*mutate)(struct image *im);
	const char *change_why; /* modalias_table_add() refuses the table, saying this */
};

static const struct use_row use_rows[] = {
	{ "aliases-id", m_alias_id, NULL },
	{ "aliases-last-run", m_alias_last_run, NULL },
	{ "aliases-prefix-slot", m_alias_prefix_first, NULL },
	{ "aliases-prefix-full", m_alias_prefix_full, NULL },
	{ "aliases-trigram-slot", m_alias_tri_first, NULL },
	{ "symbols-chain-cycle", m_symbol_chain_loop, NULL },
	{ "symbols-slot-value", m_symbol_exact_value, NULL },
	{ "symbols-slot-key", m_symbol_exact_key, NULL },
	{ "symbols-no-free-slot", m_symbol_exact_full, NULL },
	{ "module-names-value", m_module_ids_value, "damaged index cache (module names" },
	{ "module-names-full", m_module_ids_full, "damaged index cache (module names" },
};

static const struct reject_row reject_rows[] = {
	{ "magic", m_magic, false, "not an index cache", false },
	{ "version", m_version, false, "another library version", false },
	{ "byte-order", m_bom, false, "another library version", false },
	{ "header-padding", m_pad0, false, "header padding not zero", true },
	{ "checksum", m_checksum, false, "checksum mismatch", true },
	{ "file-size", m_file_size, true, "its header says", true },
	{ "record-sizes", m_sizes, true, "sizes of its records", true },
	{ "header-padding-covered", m_pad1, true, "header padding not zero", true },
	{ "pool-past-end", m_pool_past_end, true, "string pool", true },
	{ "pool-misaligned", m_pool_misaligned, true, "string pool", true },
	{ "pool-length", m_pool_len, true, "string pool", true },
	{ "pool-unterminated", m_pool_unterminated, true, "string pool: not NUL-delimited", true },
	{ "module-directory", m_dir, true, "module directory out of range", true },
	{ "modules-count", m_modules_count, true, "modules:", true },
	{ "module-name", m_module_name, true, "a module out of range", true },
	{ "module-builtin-not-bool", m_module_bool, true, "a module out of range", true },
	{ "module-names-capacity", m_module_ids_cap, true, "module names:", true },
	{ "module-names-count", m_module_ids_n, true, "module names:", true },
	{ "origin", m_origin, true, "an origin out of range", true },
	{ "sources-count", m_n_sources, true, "source files", true },
	{ "source-name", m_source_name, true, "source 1: not a file name", true },
	{ "aliases-patterns-past-end", m_alias_patterns, true, "aliases:", true },
	{ "aliases-ids-past-end", m_alias_ids, true, "aliases:", true },
	{ "aliases-pattern-string", m_alias_str, true, "aliases: a pattern out of range", true },
	{ "aliases-pattern-module", m_alias_module, true, "aliases: a pattern out of range", true },
	{ "aliases-prefix-capacity", m_alias_prefix_cap, true, "not a power of two", true },
	{ "aliases-longest-prefix", m_alias_max_prefix, true, "aliases: longest prefix", true },
	{ "aliases-prefix-by-byte", m_alias_prefix_first_len, true, "aliases: prefix length of byte 112", true },
	{ "aliases-prefix-lengths-past-end", m_alias_present, true, "aliases:", true },
	{ "aliases-bloom-past-end", m_alias_bloom, true, "aliases:", true },
	{ "aliases-exact-slots", m_alias_exact, true, "aliases: exact slots in a wild layer", true },
	{ "symbols-capacity", m_symbol_exact_cap, true, "symbols:", true },
	{ "symbols-prefix-slots", m_symbol_prefix, true, "symbols: prefix or trigram slots", true },
	{ "names-count", m_names_count, true, "names:", true },
};

static GBytes *good_image; /* the real cache of moddir */
static GPtrArray *sweep_queries, *sweep_want;

static void write_file(const char *path, const void *data, gsize len)
{
	g_autoptr(GError) error = NULL;

	unlink(path);
	if (!g_file_set_contents_full(path, data, (gssize)len, G_FILE_SET_CONTENTS_NONE, 0644, &error))
		g_error("%s", error->message);
}

/* The real cache changed by MUTATE, its checksum made good again or not. */
static void image_make(struct image *im, void (*mutate)(struct image *im), bool reseal)
{
	gsize len;
	const guint8 *good = g_bytes_get_data(good_image, &len);

	im->b = g_memdup2(good, len);
	im->len = len;
	memcpy(&im->h, im->b, sizeof(im->h));
	mutate(im);
	memcpy(im->b, &im->h, sizeof(im->h));
	if (reseal) {
		cache_checksum(im->b + CACHE_CHECKED_FROM, im->len - CACHE_CHECKED_FROM, im->h.crc);
		memcpy(im->b, &im->h, sizeof(im->h));
	}
}

static void on_alarm(int sig);

static void test_use(gconstpointer data)
{
	const struct use_row *row = data;
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *path = NULL;
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t = NULL;
	struct modalias_result *res;
	struct image im;

	image_make(&im, row->mutate, true);
	quiet_mismatches = true; /* answers may differ: only crashes and hangs fail */
	path = cache_file(tmp, moddir);
	write_file(path, im.b, im.len);
	g_assert_cmpint(modalias_table_new_from_cache(ctx, path, moddir, &t), ==, 0);
	g_assert_cmpstr(test_log_text(), ==, "");
	/* every lookup ends, inside the mapping (ASan would say otherwise) */
	signal(SIGALRM, on_alarm);
	alarm(20);
	mismatches(t, sweep_queries, sweep_want, quiet_mismatches);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	g_assert_false(modalias_table_is_blacklisted(t, "e1000e"));
	modalias_result_unref(res);
	alarm(0);
	quiet_mismatches = false;
	if (row->change_why) {
		g_assert_cmpint(modalias_table_add(t, "acme:*", "acme"), ==, -EINVAL);
		if (!strstr(test_log_text(), row->change_why))
			g_error("%s: wanted '%s' in '%s'", row->name, row->change_why, test_log_text());
	} else {
		g_assert_cmpint(modalias_table_add(t, "acme:*", "acme"), ==, 0);
	}
	modalias_table_unref(t);
	g_free(im.b);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

static void test_reject(gconstpointer data)
{
	const struct reject_row *row = data;
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *path = NULL, *got = NULL;
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t = NULL;
	struct image im;
	gsize len;
	const guint8 *good = g_bytes_get_data(good_image, &len);

	image_make(&im, row->mutate, row->reseal);
	/* the loader: refused, one line saying why */
	modalias_ctx_set_log_priority(ctx, LOG_INFO);
	path = cache_file(tmp, moddir);
	write_file(path, im.b, im.len);
	g_assert_cmpint(modalias_table_new_from_cache(ctx, path, moddir, &t), ==, -EINVAL);
	if (!strstr(test_log_text(), row->why))
		g_error("%s: wanted '%s' in '%s'", row->name, row->why, test_log_text());
	g_assert_cmpuint(log_lines(), ==, 1);
	g_assert_cmpint(test_log_worst, ==, row->damage ? LOG_ERR : LOG_INFO);
	/* the cached open: answers from the text, the cache written anew */
	test_log_clear();
	g_assert_cmpint(modalias_table_open(ctx, moddir, tmp, &t), ==, 0);
	g_assert_null(t->mapping);
	g_assert_cmpuint(mismatches(t, sweep_queries, sweep_want, quiet_mismatches), ==, 0);
	g_assert_cmpuint(log_lines(), ==, 1);
	modalias_table_unref(t);
	g_assert_true(g_file_get_contents(path, &got, &len, NULL));
	g_assert_cmpmem(got, len, good, g_bytes_get_size(good_image));
	g_free(im.b);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* Every array of the description (table-private.h), its offset past the
 * end of the file: refused, the message naming the array.  The loader's
 * bounds check is one walk over the description: an array added to it is
 * checked, in every layer, whether the layer has it or not. */
static unsigned int every_array_at;

static void m_array_offset(struct image *im)
{
	unsigned int i = every_array_at;

	if (i < TABLE_ARRAY_MAX)
		im->h.off[i] = im->len + CACHE_ALIGN;
	else
		im->h.layers[(i - TABLE_ARRAY_MAX) / LAYER_ARRAY_MAX].off[(i - TABLE_ARRAY_MAX) % LAYER_ARRAY_MAX] =
			im->len + CACHE_ALIGN;
}

static void test_reject_every_array(void)
{
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *path = cache_file(tmp, moddir);
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *names;

	g_assert_cmpint(modalias_table_new(ctx, &names), ==, 0);
	for (every_array_at = 0; every_array_at < ARRAY_MAX; every_array_at++) {
		g_autofree char *want = NULL;
		struct modalias_table *t = NULL;
		struct table_array a;
		struct image im;

		table_array_get(names, every_array_at, &a);
		want = g_strdup_printf(a.layer == LAYER_MAX ? "damaged index cache (%s: " : ": %s: ", a.name);
		image_make(&im, m_array_offset, true);
		write_file(path, im.b, im.len);
		test_log_clear();
		g_assert_cmpint(modalias_table_new_from_cache(ctx, path, moddir, &t), ==, -EINVAL);
		if (!strstr(test_log_text(), want) || !strstr(test_log_text(), "past the end of the file"))
			g_error("array %u (%s, layer %u): wanted '%s' in '%s'", every_array_at, a.name, a.layer, want,
				test_log_text());
		g_free(im.b);
	}
	g_test_message("%u arrays, each refused past the end of the file", ARRAY_MAX);
	modalias_table_unref(names);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* ---- the sweep: flips and truncations of a real cache ------------------------------ */

static volatile sig_atomic_t sweep_at = -1;

static void on_alarm(int sig)
{
	char msg[160];
	int n = snprintf(msg, sizeof(msg), "Bail out! hang: a load of the cache or a lookup in it still ran after 20 s (offset %ld)\n",
			 (long)sweep_at);

	if (write(STDOUT_FILENO, msg, (size_t)n) < 0) {
		/* nothing more to do */
	}
	_exit(1);
}

struct sweep {
	unsigned int tried, rejected, accepted, wrong;
};

/* Loads the cache at PATH (its bytes now changed) and checks what it
 * answers when it is taken. */
static void sweep_one(struct modalias_ctx *ctx, const char *path, long at, struct sweep *s)
{
	struct modalias_table *t;
	int r;

	sweep_at = at;
	alarm(20);
	r = modalias_table_new_from_cache(ctx, path, moddir, &t);
	s->tried++;
	if (r < 0) {
		s->rejected++;
	} else {
		unsigned int bad = mismatches(t, sweep_queries, sweep_want, quiet_mismatches);

		s->accepted++;
		if (bad) {
			g_test_message("offset %ld: accepted, %u answers differ", at, bad);
			s->wrong++;
		}
		modalias_table_unref(t);
	}
	alarm(0);
	test_log_clear();
}

static void test_sweep(void)
{
	static const guint8 masks[] = { 0x01, 0x80, 0xff, 0x10, 0x5a };
	const char *env = g_getenv("MODALIAS_CACHE_SWEEP");
	unsigned int spread = env ? (unsigned int)strtoul(env, NULL, 10) : 1500;
	unsigned int n_masks = env ? G_N_ELEMENTS(masks) : 1;
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(tmp, "sweep.idx", NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	struct sweep flips = { 0 }, cuts = { 0 };
	gsize len;
	const guint8 *good = g_bytes_get_data(good_image, &len);
	GRand *rng = g_rand_new_with_seed(20261204);
	int fd;

	signal(SIGALRM, on_alarm);
	write_file(path, good, len);
	fd = open(path, O_WRONLY);
	g_assert_cmpint(fd, >=, 0);
	/* every header byte (each with one of the patterns in turn, or with
	 * every pattern in a big sweep), then offsets spread over the file */
	for (unsigned int i = 0; i < sizeof(struct cache_header) + spread; i++) {
		long at = i < sizeof(struct cache_header) ? (long)i :
			  (long)sizeof(struct cache_header) + g_rand_int_range(rng, 0, (gint32)(len - sizeof(struct cache_header)));

		for (unsigned int m = 0; m < n_masks; m++) {
			guint8 b = good[at] ^ masks[n_masks == 1 ? i % G_N_ELEMENTS(masks) : m];

			g_assert_cmpint(pwrite(fd, &b, 1, at), ==, 1);
			sweep_one(ctx, path, at, &flips);
			g_assert_cmpint(pwrite(fd, &good[at], 1, at), ==, 1);
		}
	}
	/* truncated: at every length up to the header's end and after, some */
	for (unsigned int i = 0; i < 300; i++) {
		off_t at = i < 100 ? (off_t)(i * sizeof(struct cache_header) / 100) :
			   (off_t)g_rand_int_range(rng, 0, (gint32)len);

		g_assert_cmpint(ftruncate(fd, at), ==, 0);
		sweep_one(ctx, path, (long)at, &cuts);
		g_assert_cmpint(pwrite(fd, good + at, len - (gsize)at, at), ==, (ssize_t)(len - (gsize)at));
	}
	close(fd);
	g_test_message("flips: %u tried (%u masks), %u rejected, %u accepted, %u answered otherwise; "
		       "truncations: %u tried, %u rejected, %u accepted, %u answered otherwise; 0 crashes, 0 hangs",
		       flips.tried, n_masks, flips.rejected, flips.accepted, flips.wrong, cuts.tried, cuts.rejected,
		       cuts.accepted, cuts.wrong);
	g_assert_cmpuint(flips.wrong + cuts.wrong, ==, 0);
	g_assert_cmpuint(cuts.accepted, ==, 0);
	g_rand_free(rng);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* The same flips with the checksum skipped (as the fuzz target does): the
 * checks of the structure alone keep every lookup inside the file and
 * every walk finite.  A flip inside a string may change an answer here:
 * only crashes and hangs fail. */
static void test_sweep_structure(void)
{
	const char *env = g_getenv("MODALIAS_CACHE_SWEEP");
	unsigned int spread = env ? (unsigned int)strtoul(env, NULL, 10) : 500;
	unsigned int step = env ? 1 : 4; /* header bytes: all in a big sweep, else every 4th */
	gsize len;
	const guint8 *good = g_bytes_get_data(good_image, &len);
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(tmp, "sweep.idx", NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	GRand *rng = g_rand_new_with_seed(20261205);
	g_autoptr(GPtrArray) few_queries = g_ptr_array_new(), few_want = g_ptr_array_new();
	unsigned int tried = 0, rejected = 0, differ = 0;
	int fd;

	signal(SIGALRM, on_alarm);
	quiet_mismatches = true;
	/* every 4th of the sweep's queries: each accepted flip is looked up in */
	for (guint i = 0; i < sweep_queries->len; i += 4) {
		g_ptr_array_add(few_queries, g_ptr_array_index(sweep_queries, i));
		g_ptr_array_add(few_want, g_ptr_array_index(sweep_want, i));
	}
	write_file(path, good, len);
	fd = open(path, O_RDWR);
	g_assert_cmpint(fd, >=, 0);
	for (unsigned int i = 0; i < sizeof(struct cache_header) + spread; i += i < sizeof(struct cache_header) ? step : 1) {
		long at = i < sizeof(struct cache_header) ? (long)i :
			  (long)sizeof(struct cache_header) + g_rand_int_range(rng, 0, (gint32)(len - sizeof(struct cache_header)));
		guint8 b = good[at] ^ (guint8)(1u << (i % 8));
		struct modalias_table *t;
		const char *why;
		char whybuf[256];
		int r;

		g_assert_cmpint(pwrite(fd, &b, 1, at), ==, 1);
		sweep_at = at;
		alarm(20);
		r = cache_map_fd(ctx, fd, moddir, CACHE_NO_CHECKSUM, &t, &why, whybuf, sizeof(whybuf));
		tried++;
		if (r < 0) {
			rejected++;
		} else {
			differ += mismatches(t, few_queries, few_want, quiet_mismatches) != 0;
			/* a change copies the mapped arrays and rebuilds what changed
			 * (a few times: it costs a rebuild of the aliases' index) */
			if ((tried - rejected) % 128 == 1 || env) {
				/* refused only when the module ids, checked then, are damaged */
				int a = modalias_table_add(t, "acme:*", "acme");

				if (a == -EINVAL)
					g_assert_nonnull(strstr(test_log_text(), "damaged index cache (module names"));
				else
					g_assert_cmpint(a, ==, 0);
				g_assert_cmpuint(mismatches(t, few_queries, few_want, quiet_mismatches), <=, few_queries->len);
			}
			modalias_table_unref(t);
		}
		alarm(0);
		test_log_clear();
		g_assert_cmpint(pwrite(fd, &good[at], 1, at), ==, 1);
	}
	close(fd);
	quiet_mismatches = false;
	g_test_message("structure only: %u flips, %u rejected, %u accepted (%u of them answering otherwise: "
		       "flips inside strings); 0 crashes, 0 hangs",
		       tried, rejected, tried - rejected, differ);
	g_rand_free(rng);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

int main(int argc, char **argv)
{
	g_autofree char *tmp = NULL, *cache = NULL;
	struct modalias_ctx *ctx;
	struct modalias_table *t;
	gchar *data;
	gsize len;
	int r;

	g_test_init(&argc, &argv, NULL);
	moddir = g_test_build_filename(G_TEST_DIST, "data", "linux-6.1.0-57-amd64", NULL);
	/* the real cache, and the answers it must give */
	ctx = test_ctx_new();
	tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_assert_cmpint(modalias_table_open(ctx, moddir, tmp, &t), ==, 0);
	sweep_queries = sample_queries();
	sweep_want = answers_of(t, sweep_queries);
	cache = cache_file(tmp, moddir);
	g_assert_true(g_file_get_contents(cache, &data, &len, NULL));
	good_image = g_bytes_new_take(data, len);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);

	for (size_t i = 0; i < G_N_ELEMENTS(reject_rows); i++) {
		g_autofree char *name = g_strdup_printf("/cache/reject/%s", reject_rows[i].name);

		g_test_add_data_func(name, &reject_rows[i], test_reject);
	}
	g_test_add_func("/cache/reject/every-array", test_reject_every_array);
	for (size_t i = 0; i < G_N_ELEMENTS(use_rows); i++) {
		g_autofree char *name = g_strdup_printf("/cache/checked-in-use/%s", use_rows[i].name);

		g_test_add_data_func(name, &use_rows[i], test_use);
	}
	g_test_add_func("/cache/sweep", test_sweep);
	g_test_add_func("/cache/sweep-structure", test_sweep_structure);
	r = g_test_run();
	g_ptr_array_unref(sweep_queries);
	g_ptr_array_unref(sweep_want);
	g_bytes_unref(good_image);
	g_free(moddir);
	return r;
}
