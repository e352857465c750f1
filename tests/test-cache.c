/*
 * The index cache: a cached table answers as the text tables do; a stale,
 * damaged or forged cache is never used; a damaged one is rebuilt.
 *
 *  - round trip: every alias of the oracle's corpus (the 2,844 recorded
 *    uevent modaliases, every pattern of the Debian 6.1 modules.alias
 *    instantiated, builtin aliases, module names) answers the same, patterns
 *    and origins included, from the cache as from the text;
 *  - stale: each source file changed makes the cache rebuilt;
 *  - modprobe.d on a mapped table: the configuration's layers built on the
 *    heap, the module directory's left mapped, the answers the uncached
 *    table's;
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
 *  - trust (as root): a forged cache that maps the e1000 NIC to an
 *    attacker's module, in a directory of nobody's, owned by nobody, in a
 *    group-writable directory, below a directory of nobody's, or reached
 *    through a symlink, is ignored with one message and left as it was;
 *  - sweep: bytes of a real cache flipped (every header byte and offsets
 *    spread over the file, several bit patterns) and the file truncated at
 *    many lengths: no crash, no hang, every answer the uncached one.
 *    MODALIAS_CACHE_SWEEP=N flips N spread offsets with every pattern.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache-private.h"
#include "corpus.h"
#include "test-common.h"

#define NOBODY 65534
#define E1000E_ALIAS "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00"

static char *moddir;

/* Everything a lookup says: source, modules, builtin, patterns, origins. */
static char *answer(struct modalias_table *t, struct modalias_result *res, const char *alias)
{
	GString *s = g_string_new(NULL);
	int r = modalias_table_lookup(t, alias, res);

	if (r < 0) {
		g_string_printf(s, "error %d", r);
		return g_string_free(s, FALSE);
	}
	g_string_append(s, r ? modalias_result_get_source(res) : "-");
	for (int i = 0; i < r; i++) {
		g_string_append_printf(s, " %s%s", modalias_result_get_module(res, (unsigned int)i),
				       modalias_result_is_builtin(res, (unsigned int)i) ? "(builtin)" : "");
		for (unsigned int k = 0; k < modalias_result_get_pattern_count(res, (unsigned int)i); k++) {
			unsigned int line = 0;
			const char *o = modalias_result_get_pattern_origin(res, (unsigned int)i, k, &line);

			g_string_append_printf(s, " [%s %s:%u]", modalias_result_get_pattern(res, (unsigned int)i, k),
					       o, line);
		}
	}
	return g_string_free(s, FALSE);
}

static GPtrArray *corpus_load(void)
{
	g_autoptr(GPtrArray) events = uevents_load();
	g_autoptr(GPtrArray) real = g_ptr_array_new();
	unsigned int n_real, n_patterns;
	GPtrArray *corpus;

	for (guint i = 0; i < events->len; i++) {
		const char *m = uevent_get(g_ptr_array_index(events, i), "MODALIAS");
		if (m)
			g_ptr_array_add(real, (gpointer)m);
	}
	corpus = build_corpus(moddir, real, &n_real, &n_patterns);
	g_assert_cmpuint(n_real, ==, 2844);
	/* symbols, builtin names, nothing at all */
	g_ptr_array_add(corpus, g_strdup("symbol:drm_need_swiotlb"));
	g_ptr_array_add(corpus, g_strdup("usbcore"));
	g_ptr_array_add(corpus, g_strdup("xhci_hcd"));
	g_ptr_array_add(corpus, g_strdup("no:such-alias"));
	return corpus;
}

/* The answers of the uncached table, for every alias of QUERIES. */
static GPtrArray *answers_of(struct modalias_table *t, const GPtrArray *queries)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	struct modalias_result *res;

	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	for (guint i = 0; i < queries->len; i++)
		g_ptr_array_add(out, answer(t, res, g_ptr_array_index(queries, i)));
	modalias_result_unref(res);
	return out;
}

/* How many of QUERIES T answers otherwise than WANT. */
static bool quiet_mismatches; /* damage let through on purpose: answers may differ */

static unsigned int mismatches(struct modalias_table *t, const GPtrArray *queries, const GPtrArray *want)
{
	struct modalias_result *res;
	unsigned int bad = 0;

	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	for (guint i = 0; i < queries->len; i++) {
		g_autofree char *got = answer(t, res, g_ptr_array_index(queries, i));

		if (strcmp(got, g_ptr_array_index(want, i)) != 0 && bad++ < 3 && !quiet_mismatches)
			g_test_message("'%s': '%s', uncached '%s'", (char *)g_ptr_array_index(queries, i), got,
				       (char *)g_ptr_array_index(want, i));
	}
	modalias_result_unref(res);
	return bad;
}

/* What a shell command prints. */
static char *capture(const char *cmd)
{
	GString *out = g_string_new(NULL);
	FILE *p = popen(cmd, "r");
	char buf[4096];
	size_t n;

	g_assert_nonnull(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		g_string_append_len(out, buf, (gssize)n);
	g_assert_cmpint(pclose(p), ==, 0);
	return g_string_free(out, FALSE);
}

static void remove_tree(const char *dir)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);

	g_assert_cmpint(system(cmd), ==, 0);
}

static char *cache_file(const char *cache_dir, const char *dir)
{
	return g_strdup_printf("%s/modalias-%08x.idx", cache_dir, hash_bytes(dir, strlen(dir)));
}

static size_t log_lines(void)
{
	size_t n = 0;

	for (const char *p = test_log_text(); *p; p++)
		n += *p == '\n';
	return n;
}

/* ---- round trip ------------------------------------------------------------ */

static void test_round_trip(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autoptr(GPtrArray) corpus = corpus_load();
	g_autoptr(GPtrArray) want = NULL;
	struct modalias_table *text, *cached;
	unsigned int n_found = 0;

	g_assert_cmpint(modalias_table_new_from_directory(ctx, moddir, &text), ==, 0);
	want = answers_of(text, corpus);
	/* the first open writes the cache, the second maps it */
	g_assert_cmpint(modalias_table_open(ctx, moddir, tmp, &cached), ==, 0);
	g_assert_null(cached->mapping);
	modalias_table_unref(cached);
	g_assert_cmpint(modalias_table_open(ctx, moddir, tmp, &cached), ==, 0);
	g_assert_nonnull(cached->mapping);
	g_assert_cmpuint(mismatches(cached, corpus, want), ==, 0);
	for (guint i = 0; i < want->len; i++)
		n_found += ((char *)g_ptr_array_index(want, i))[0] != '-';
	g_test_message("%u aliases, %u resolved, cached answers equal", corpus->len, n_found);
	g_assert_cmpuint(n_found, >, 20000);
	/* a mapped table that changes is copied first, and still answers */
	g_assert_cmpint(modalias_table_add(cached, "acme:x*", "acme"), ==, 0);
	g_assert_null(cached->mapping);
	g_assert_cmpuint(mismatches(cached, corpus, want), ==, 0);
	g_assert_cmpstr(test_log_text(), ==, "");
	modalias_table_unref(cached);
	modalias_table_unref(text);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* ---- stale sources ------------------------------------------------------------ */

static const char *const sources[] = {
	"modules.order", "modules.alias", "modules.dep", "modules.symbols", "modules.builtin", "modules.builtin.modinfo",
};

static char *copy_moddir(const char *to)
{
	g_autofree char *cmd = NULL;
	char *dir = g_build_filename(to, "m", NULL);

	g_assert_cmpint(mkdir(dir, 0755), ==, 0);
	for (size_t i = 0; i < G_N_ELEMENTS(sources); i++) {
		g_free(cmd);
		cmd = g_strdup_printf("cp '%s/%s' '%s/'", moddir, sources[i], dir);
		g_assert_cmpint(system(cmd), ==, 0);
	}
	return dir;
}

static void test_stale(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *cache = g_build_filename(tmp, "cache", NULL);
	g_autofree char *dir = copy_moddir(tmp);
	struct modalias_table *t;

	modalias_ctx_set_log_priority(ctx, LOG_INFO);
	g_assert_cmpint(modalias_table_open(ctx, dir, cache, &t), ==, 0);
	modalias_table_unref(t);
	for (size_t i = 0; i < G_N_ELEMENTS(sources); i++) {
		g_autofree char *path = g_build_filename(dir, sources[i], NULL);
		g_autofree char *want = g_strdup_printf("%s changed since it was written", path);
		FILE *f = fopen(path, "a");

		/* mapped while it is current */
		test_log_clear();
		g_assert_cmpint(modalias_table_open(ctx, dir, cache, &t), ==, 0);
		g_assert_nonnull(t->mapping);
		modalias_table_unref(t);
		/* one byte more: read from the text, the cache written again */
		g_assert_nonnull(f);
		fputs(strcmp(sources[i], "modules.builtin.modinfo") == 0 ? "" : "\n", f);
		fputc(strcmp(sources[i], "modules.builtin.modinfo") == 0 ? '\0' : '\n', f);
		fclose(f);
		test_log_clear();
		g_assert_cmpint(modalias_table_open(ctx, dir, cache, &t), ==, 0);
		g_assert_null(t->mapping);
		if (!strstr(test_log_text(), want))
			g_error("%s: wanted '%s' in '%s'", sources[i], want, test_log_text());
		g_assert_cmpuint(log_lines(), ==, 1);
		modalias_table_unref(t);
	}
	test_log_clear();
	g_assert_cmpint(modalias_table_open(ctx, dir, cache, &t), ==, 0);
	g_assert_nonnull(t->mapping);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* ---- malformed lines: counted the same from the cache ------------------------ */

static void test_skipped(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *dir = g_build_filename(tmp, "m", NULL);
	g_autofree char *alias = g_build_filename(dir, "modules.alias", NULL);
	g_autofree char *cache = g_build_filename(tmp, "cache", NULL);
	g_autofree char *path = NULL;
	struct modalias_table *t;

	g_assert_cmpint(mkdir(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(alias, "alias acpi*:PNP0C0A:* battery\nnot an alias\nalias x\n", -1, NULL));
	g_assert_cmpint(modalias_table_open(ctx, dir, cache, &t), ==, 2);
	g_assert_null(t->mapping);
	modalias_table_unref(t);
	g_assert_cmpint(modalias_table_open(ctx, dir, cache, &t), ==, 2);
	g_assert_nonnull(t->mapping);
	modalias_table_unref(t);
	path = cache_file(cache, dir);
	g_assert_cmpint(modalias_table_new_from_cache(ctx, path, dir, &t), ==, 2);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

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
	mismatches(t, sweep_queries, sweep_want);
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
	g_assert_cmpuint(mismatches(t, sweep_queries, sweep_want), ==, 0);
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

/* ---- modprobe.d on a mapped table ----------------------------------------------- */

/* Whether array I of T lies in T's mapping. */
static bool array_mapped(const struct modalias_table *t, unsigned int i)
{
	struct table_array a;
	uintptr_t p, start = (uintptr_t)t->mapping;

	table_array_get(t, i, &a);
	p = (uintptr_t)a.p;
	return t->mapping && a.p && p >= start && p - start < t->mapping_size;
}

/* A cached table given a modprobe.d configuration builds the configuration's
 * layers (aliases, commands, blacklist) and copies its own arrays (strings,
 * modules) to the heap; the big layers of the module directory stay mapped;
 * it answers as the uncached table given the same configuration, and as
 * that one again after a change that copies the rest.  A configuration with
 * nothing in it copies nothing. */
static void test_config_mapped(void)
{
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *conf = g_build_filename(tmp, "test.conf", NULL);
	g_autofree char *empty = g_build_filename(tmp, "empty.conf", NULL);
	const char *paths[] = { conf, NULL }, *empty_paths[] = { empty, NULL };
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *text, *cached;
	g_autoptr(GPtrArray) queries = g_ptr_array_new();
	g_autoptr(GPtrArray) want = NULL;
	unsigned int in_mapping = 0;

	g_assert_true(g_file_set_contents(conf, "alias pci:v00008086d000010D3* e1000-custom\nalias my-alias snd-dummy\n"
					  "blacklist pcspkr\ninstall pcspkr /bin/true\n", -1, NULL));
	g_assert_true(g_file_set_contents(empty, "options snd-pcsp index=-2\n", -1, NULL));
	for (guint i = 0; i < sweep_queries->len; i++)
		g_ptr_array_add(queries, g_ptr_array_index(sweep_queries, i));
	g_ptr_array_add(queries, (gpointer)"my-alias");
	g_ptr_array_add(queries, (gpointer)"pcspkr");
	g_assert_cmpint(modalias_table_open(ctx, moddir, tmp, &cached), ==, 0);
	modalias_table_unref(cached);
	g_assert_cmpint(modalias_table_open(ctx, moddir, tmp, &cached), ==, 0);
	g_assert_nonnull(cached->mapping);
	/* nothing to add: nothing copied */
	g_assert_cmpint(modalias_table_load_config(cached, empty_paths), ==, 0);
	for (unsigned int i = 0; i < ARRAY_MAX; i++) {
		struct table_array a;

		table_array_get(cached, i, &a);
		g_assert_true(!a.p || array_mapped(cached, i));
	}
	g_assert_cmpint(modalias_table_new_from_directory(ctx, moddir, &text), ==, 0);
	g_assert_cmpint(modalias_table_load_config(text, paths), ==, 0);
	g_assert_cmpint(modalias_table_load_config(cached, paths), ==, 0);
	want = answers_of(text, queries);
	g_assert_cmpuint(mismatches(cached, queries, want), ==, 0);
	g_assert_true(modalias_table_is_blacklisted(cached, "pcspkr"));
	g_assert_nonnull(cached->mapping);
	for (unsigned int i = 0; i < ARRAY_MAX; i++) {
		struct table_array a;
		bool copied;

		table_array_get(cached, i, &a);
		copied = a.layer == LAYER_MAX || a.layer == LAYER_CONFIG || a.layer == LAYER_COMMAND ||
			 a.layer == LAYER_BLACKLIST;
		if (a.p && array_mapped(cached, i) == copied)
			g_error("array %u (%s, layer %u): %s", i, a.name, a.layer,
				copied ? "left in the mapping" : "copied");
		in_mapping += !copied && a.p;
	}
	g_test_message("%u arrays of the module directory's layers left mapped", in_mapping);
	/* a change of a big layer copies the rest */
	g_assert_cmpint(modalias_table_add(text, "acme:x*", "acme"), ==, 0);
	g_assert_cmpint(modalias_table_add(cached, "acme:x*", "acme"), ==, 0);
	g_assert_null(cached->mapping);
	g_ptr_array_add(queries, (gpointer)"acme:xyz");
	g_ptr_array_unref(want);
	want = answers_of(text, queries);
	g_assert_cmpuint(mismatches(cached, queries, want), ==, 0);
	g_assert_cmpstr(test_log_text(), ==, "");
	modalias_table_unref(cached);
	modalias_table_unref(text);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* ---- trust: a forged cache ----------------------------------------------------- */

/* A cache that root would take for moddir's, but that sends the e1000
 * NIC to "evil": made from a doctored copy of the tables, with the real
 * tables' stamps (anyone may stat them), sealed with a good checksum.
 * Accepted where it is trusted (the control), so a refusal below is the
 * trust check and nothing else. */
static char *forge_cache(const char *tmp)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *dir = copy_moddir(tmp);
	g_autofree char *alias = g_build_filename(dir, "modules.alias", NULL);
	g_autofree char *text = NULL, *cmd = NULL;
	char *path = g_build_filename(tmp, "forged.idx", NULL);
	struct modalias_table *t;
	struct modalias_result *res;
	GString *doctored;

	g_assert_true(g_file_get_contents(alias, &text, NULL, NULL));
	doctored = g_string_new(text);
	g_string_replace(doctored, " e1000e\n", " evil\n", 0);
	g_assert_true(g_file_set_contents(alias, doctored->str, -1, NULL));
	g_string_free(doctored, TRUE);
	g_assert_cmpint(modalias_table_new_from_directory(ctx, dir, &t), ==, 0);
	for (uint32_t i = 0; i < t->n_sources; i++) {
		char name[sizeof(t->sources[i].name)];

		memcpy(name, t->sources[i].name, sizeof(name));
		g_assert_cmpint(table_source_stamp(moddir, name, &t->sources[i]), ==, 0);
	}
	g_assert_cmpint(modalias_table_save(t, path), ==, 0);
	modalias_table_unref(t);
	/* the control: trusted, it is believed */
	if (modalias_table_new_from_cache(ctx, path, moddir, &t) != 0)
		g_error("the forged cache is refused: %s", test_log_text());
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	g_assert_cmpint(modalias_table_lookup(t, E1000E_ALIAS, res), ==, 1);
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "evil");
	modalias_result_unref(res);
	modalias_table_unref(t);
	cmd = g_strdup_printf("rm -rf '%s'", dir);
	g_assert_cmpint(system(cmd), ==, 0);
	modalias_ctx_unref(ctx);
	return path;
}

struct trust_row {
	const char *name;
	const char *attack;
	/* shell commands run with $T the row's directory, $F the forged cache,
	 * $C the cache directory and $I the cache file's name in it */
	const char *setup;
	const char *why;       /* in the one message, $T for the directory */
	const char *unchanged; /* what must be as it was, relative to $T */
	bool replaced;         /* the forged entry is replaced by a good cache */
};

static const struct trust_row trust_rows[] = {
	{ "dir-of-nobody", "another user's cache directory holding their cache",
	  "mkdir $C && cp $F $C/$I && chown -R nobody:nogroup $C", "$T/c: not owned by root", "c", false },
	{ "file-of-nobody", "another user's cache file in root's directory",
	  "mkdir $C && cp $F $C/$I && chown nobody:nogroup $C/$I", "$T/c/$I: not owned by root", NULL, true },
	{ "dir-group-writable", "a group-writable cache directory",
	  "mkdir $C && chmod 775 $C && cp $F $C/$I", "$T/c: writable by group or others", "c", false },
	{ "dir-above-of-nobody", "a directory above the cache directory of another user's",
	  "mkdir -p $T/up/c && mv $T/up $T/u && chown nobody:nogroup $T/u && cp $F $T/u/c/$I && ln -s u/c $C",
	  "$T/u: not owned by root", "u", false },
	{ "file-world-writable", "a cache file anyone may write",
	  "mkdir $C && cp $F $C/$I && chmod 666 $C/$I", "$T/c/$I: writable by group or others", NULL, true },
	{ "symlink-to-forged", "the cache file a symlink to a forged cache (root's own)",
	  "mkdir $C && ln -s $F $C/$I", "$T/c/$I: a symlink", "forged.idx", true },
};

static void test_trust(gconstpointer data)
{
	const struct trust_row *row = data;
	g_autofree char *tmp = NULL, *forged = NULL, *cache = NULL, *name = NULL, *script = NULL;
	g_autofree char *why = NULL, *before = NULL, *after = NULL, *snap = NULL, *path = NULL;
	struct modalias_ctx *ctx;
	struct modalias_table *t;
	struct modalias_result *res;
	GString *w;

	if (geteuid() != 0) {
		g_test_skip("needs root, to give files to another user");
		return;
	}
	tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_assert_cmpint(chmod(tmp, 0755), ==, 0);
	forged = forge_cache(tmp);
	cache = g_build_filename(tmp, "c", NULL);
	path = cache_file(cache, moddir);
	name = g_path_get_basename(path);
	script = g_strdup_printf("set -e; T='%s' F='%s' C='%s' I='%s'; %s", tmp, forged, cache, name, row->setup);
	g_assert_cmpint(system(script), ==, 0);
	if (row->unchanged) {
		snap = g_strdup_printf("cd '%s' && find %s -exec ls -ldn --time-style=full-iso {} + && "
				       "find %s -type f -exec cksum {} +", tmp, row->unchanged, row->unchanged);
		before = capture(snap);
	}
	ctx = test_ctx_new();
	g_assert_cmpint(modalias_table_open(ctx, moddir, cache, &t), ==, 0);
	g_assert_null(t->mapping);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	g_assert_cmpint(modalias_table_lookup(t, E1000E_ALIAS, res), ==, 1);
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "e1000e");
	modalias_result_unref(res);
	modalias_table_unref(t);
	/* one message, naming what is not trusted and why */
	w = g_string_new(row->why);
	g_string_replace(w, "$T", tmp, 0);
	g_string_replace(w, "$I", name, 0);
	why = g_string_free(w, FALSE);
	if (!strstr(test_log_text(), why))
		g_error("%s: wanted '%s' in '%s'", row->name, why, test_log_text());
	g_assert_cmpuint(log_lines(), ==, 1);
	if (row->unchanged) {
		after = capture(snap);
		g_assert_cmpstr(after, ==, before);
	}
	/* replaced (renamed over) where the directory is root's, else left */
	test_log_clear();
	g_assert_cmpint(modalias_table_open(ctx, moddir, cache, &t), ==, 0);
	if (row->replaced) {
		g_assert_nonnull(t->mapping);
		g_assert_cmpstr(test_log_text(), ==, "");
	} else {
		g_assert_null(t->mapping);
		g_assert_cmpuint(log_lines(), ==, 1);
	}
	modalias_table_unref(t);
	/* nor is the forged file read through the other entry points */
	if (!row->replaced) {
		test_log_clear();
		g_assert_cmpint(modalias_table_new_from_cache(ctx, path, moddir, &t), ==, -EPERM);
		g_assert_true(strstr(test_log_text(), why));
	}
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* Untrusted directories are not written through modalias_table_save()
 * either, nor made inside an untrusted parent. */
static void test_save_trust(void)
{
	g_autofree char *tmp = NULL, *path = NULL, *sub = NULL, *cache = NULL;
	struct modalias_ctx *ctx;
	struct modalias_table *t;
	struct stat st;

	if (geteuid() != 0) {
		g_test_skip("needs root, to give files to another user");
		return;
	}
	tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_assert_cmpint(chmod(tmp, 0755), ==, 0);
	ctx = test_ctx_new();
	g_assert_cmpint(modalias_table_new_from_directory(ctx, moddir, &t), ==, 0);
	sub = g_build_filename(tmp, "w", NULL);
	g_assert_cmpint(mkdir(sub, 0777), ==, 0);
	g_assert_cmpint(chmod(sub, 0777), ==, 0);
	path = g_build_filename(sub, "x.idx", NULL);
	g_assert_cmpint(modalias_table_save(t, path), ==, -EPERM);
	g_assert_true(strstr(test_log_text(), "writable by group or others"));
	g_assert_cmpint(stat(path, &st), ==, -1);
	/* a missing cache directory is not made in an untrusted parent */
	test_log_clear();
	cache = g_build_filename(sub, "cache", NULL);
	modalias_table_unref(t);
	g_assert_cmpint(modalias_table_open(ctx, moddir, cache, &t), ==, 0);
	g_assert_cmpint(stat(cache, &st), ==, -1);
	g_assert_cmpuint(log_lines(), ==, 1);
	modalias_table_unref(t);
	/* made in a trusted one, not group-writable whatever the umask */
	test_log_clear();
	g_free(cache);
	cache = g_build_filename(tmp, "new", "cache", NULL);
	umask(002);
	g_assert_cmpint(modalias_table_open(ctx, moddir, cache, &t), ==, 0);
	umask(022);
	modalias_table_unref(t);
	g_assert_cmpstr(test_log_text(), ==, "");
	g_assert_cmpint(stat(cache, &st), ==, 0);
	g_assert_cmpuint(st.st_mode & 07777, ==, 0755);
	g_assert_cmpint(modalias_table_open(ctx, moddir, cache, &t), ==, 0);
	g_assert_nonnull(t->mapping);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* A user who is not root, with a cache directory of their own: not a word. */
static void test_user_quiet(void)
{
	g_autofree char *tmp = NULL, *home = NULL, *cache = NULL;

	if (geteuid() != 0) {
		g_test_skip("needs root, to become another user");
		return;
	}
	tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_assert_cmpint(chmod(tmp, 0755), ==, 0);
	home = g_build_filename(tmp, "home", NULL);
	g_assert_cmpint(mkdir(home, 0755), ==, 0);
	g_assert_cmpint(chown(home, NOBODY, NOBODY), ==, 0);
	cache = g_build_filename(home, ".cache", "modalias", NULL);
	{
		pid_t pid = fork();
		int status;

		g_assert_cmpint(pid, >=, 0);
		if (pid == 0) {
			struct modalias_ctx *ctx;
			struct modalias_table *t;
			int ok;

			if (setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
				_exit(3);
			ctx = test_ctx_new();
			modalias_ctx_set_log_priority(ctx, LOG_WARNING);
			ok = modalias_table_open(ctx, moddir, cache, &t) == 0 && !t->mapping;
			modalias_table_unref(t);
			ok = ok && modalias_table_open(ctx, moddir, cache, &t) == 0 && t->mapping;
			modalias_table_unref(t);
			ok = ok && test_log_text()[0] == '\0';
			if (!ok)
				fprintf(stderr, "log: %s\n", test_log_text());
			_exit(ok ? 0 : 1);
		}
		g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
		g_assert_true(WIFEXITED(status));
		g_assert_cmpint(WEXITSTATUS(status), ==, 0);
	}
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
		unsigned int bad = mismatches(t, sweep_queries, sweep_want);

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
			differ += mismatches(t, few_queries, few_want) != 0;
			/* a change copies the mapped arrays and rebuilds what changed
			 * (a few times: it costs a rebuild of the aliases' index) */
			if ((tried - rejected) % 128 == 1 || env) {
				/* refused only when the module ids, checked then, are damaged */
				int a = modalias_table_add(t, "acme:*", "acme");

				if (a == -EINVAL)
					g_assert_nonnull(strstr(test_log_text(), "damaged index cache (module names"));
				else
					g_assert_cmpint(a, ==, 0);
				g_assert_cmpuint(mismatches(t, few_queries, few_want), <=, few_queries->len);
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
	int r;

	g_test_init(&argc, &argv, NULL);
	moddir = g_test_build_filename(G_TEST_DIST, "data", "linux-6.1.0-57-amd64", NULL);
	/* the real cache, and the answers it must give */
	ctx = test_ctx_new();
	tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_assert_cmpint(modalias_table_open(ctx, moddir, tmp, &t), ==, 0);
	{
		g_autoptr(GPtrArray) events = uevents_load();
		gchar *data;
		gsize len;

		/* every 8th recorded modalias (some 350), and each source */
		sweep_queries = g_ptr_array_new_with_free_func(g_free);
		for (guint i = 0, n = 0; i < events->len; i++) {
			const char *m = uevent_get(g_ptr_array_index(events, i), "MODALIAS");
			if (m && n++ % 8 == 0)
				g_ptr_array_add(sweep_queries, g_strdup(m));
		}
		g_ptr_array_add(sweep_queries, g_strdup("hid:b0003g0001v0000046Dp0000C52B"));
		g_ptr_array_add(sweep_queries, g_strdup("acpi*:PNP0C0A:*"));
		g_ptr_array_add(sweep_queries, g_strdup("fs-squashfs"));
		g_ptr_array_add(sweep_queries, g_strdup("8139too"));
		g_ptr_array_add(sweep_queries, g_strdup(E1000E_ALIAS));
		g_ptr_array_add(sweep_queries, g_strdup("symbol:drm_need_swiotlb"));
		g_ptr_array_add(sweep_queries, g_strdup("usbcore"));
		sweep_want = answers_of(t, sweep_queries);
		cache = cache_file(tmp, moddir);
		g_assert_true(g_file_get_contents(cache, &data, &len, NULL));
		good_image = g_bytes_new_take(data, len);
	}
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);

	g_test_add_func("/cache/round-trip", test_round_trip);
	g_test_add_func("/cache/stale", test_stale);
	g_test_add_func("/cache/skipped-lines", test_skipped);
	g_test_add_func("/cache/config-on-mapped", test_config_mapped);
	for (size_t i = 0; i < G_N_ELEMENTS(reject_rows); i++) {
		g_autofree char *name = g_strdup_printf("/cache/reject/%s", reject_rows[i].name);

		g_test_add_data_func(name, &reject_rows[i], test_reject);
	}
	g_test_add_func("/cache/reject/every-array", test_reject_every_array);
	for (size_t i = 0; i < G_N_ELEMENTS(use_rows); i++) {
		g_autofree char *name = g_strdup_printf("/cache/checked-in-use/%s", use_rows[i].name);

		g_test_add_data_func(name, &use_rows[i], test_use);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(trust_rows); i++) {
		g_autofree char *name = g_strdup_printf("/cache/trust/%s", trust_rows[i].name);

		g_test_add_data_func(name, &trust_rows[i], test_trust);
	}
	g_test_add_func("/cache/trust/save-and-create", test_save_trust);
	g_test_add_func("/cache/trust/user-quiet", test_user_quiet);
	g_test_add_func("/cache/sweep", test_sweep);
	g_test_add_func("/cache/sweep-structure", test_sweep_structure);
	r = g_test_run();
	g_ptr_array_unref(sweep_queries);
	g_ptr_array_unref(sweep_want);
	g_bytes_unref(good_image);
	g_free(moddir);
	return r;
}
