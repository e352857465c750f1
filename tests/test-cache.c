/*
 * The index cache used as meant: a cached table answers as the text tables
 * do; a stale or forged cache is never used (damaged ones:
 * test-cache-damage.c).
 *
 *  - round trip: every alias of the oracle's corpus (the 2,844 recorded
 *    uevent modaliases, every pattern of the Debian 6.1 modules.alias
 *    instantiated, builtin aliases, module names) answers the same, patterns
 *    and origins included, from the cache as from the text;
 *  - stale: each source file changed makes the cache rebuilt;
 *  - prune: a cache written removes those of module directories gone or
 *    made again, and nothing else (not another version's, another byte
 *    order's, or a file cut short inside its header);
 *  - another directory: a cache is not used for a module directory other
 *    than the one it was built for, though its sources have the same
 *    inode numbers, sizes and times (hard links; two tmpfs mounts, in a
 *    mount namespace of its own) or its file the other's name;
 *  - modprobe.d on a mapped table: the configuration's layers built on the
 *    heap, the module directory's left mapped, the answers the uncached
 *    table's;
 *  - trust (as root): a forged cache that maps the e1000 NIC to an
 *    attacker's module, in a directory of nobody's, owned by nobody, in a
 *    group-writable directory, below a directory of nobody's, or reached
 *    through a symlink, is ignored with one message and left as it was.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache-test.h"
#include "corpus.h"

static char *moddir;

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
	g_assert_cmpuint(mismatches(cached, corpus, want, false), ==, 0);
	for (guint i = 0; i < want->len; i++)
		n_found += ((char *)g_ptr_array_index(want, i))[0] != '-';
	g_test_message("%u aliases, %u resolved, cached answers equal", corpus->len, n_found);
	g_assert_cmpuint(n_found, >, 20000);
	/* a mapped table that changes is copied first, and still answers */
	g_assert_cmpint(modalias_table_add(cached, "acme:x*", "acme"), ==, 0);
	g_assert_null(cached->mapping);
	g_assert_cmpuint(mismatches(cached, corpus, want, false), ==, 0);
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

/* ---- pruning ------------------------------------------------------------------- */

/* A module directory copied to TO/NAME/m */
static char *copy_moddir_in(const char *to, const char *name)
{
	g_autofree char *sub = g_build_filename(to, name, NULL);

	g_assert_cmpint(mkdir(sub, 0755), ==, 0);
	return copy_moddir(sub);
}

static void open_and_drop(struct modalias_ctx *ctx, const char *dir, const char *cache)
{
	struct modalias_table *t;

	g_assert_cmpint(modalias_table_open(ctx, dir, cache, &t), ==, 0);
	modalias_table_unref(t);
}

/* Once a cache is written, the caches of module directories that are gone
 * (A) or another directory now (B) are removed; one of a directory that
 * is (C), of a relative path (R), another file of a cache's name that is
 * no cache, and a symlink of a cache's name are left. */
static void test_prune(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *cache = g_build_filename(tmp, "cache", NULL);
	g_autofree char *a = copy_moddir_in(tmp, "a"), *b = copy_moddir_in(tmp, "b"), *c = copy_moddir_in(tmp, "c");
	g_autofree char *r = copy_moddir_in(tmp, "r"), *d = copy_moddir_in(tmp, "d");
	g_autofree char *ca = cache_file(cache, a), *cb = cache_file(cache, b), *cc = cache_file(cache, c);
	g_autofree char *cr = cache_file(cache, "r/m"), *cd = cache_file(cache, d);
	g_autofree char *other = g_build_filename(cache, "modalias-0000000000000000000000000000000000000000000000000000000000000000.idx", NULL);
	g_autofree char *link = g_build_filename(cache, "modalias-1111111111111111111111111111111111111111111111111111111111111111.idx", NULL);
	g_autofree char *cwd = g_get_current_dir(), *rm_b = NULL;

	open_and_drop(ctx, a, cache);
	open_and_drop(ctx, b, cache);
	open_and_drop(ctx, c, cache);
	g_assert_cmpint(chdir(tmp), ==, 0);
	open_and_drop(ctx, "r/m", cache);
	g_assert_cmpint(chdir(cwd), ==, 0);
	g_assert_true(g_file_set_contents(other, "not a cache", -1, NULL));
	g_assert_cmpint(symlink(ca, link), ==, 0);
	/* A gone, B made again (another inode: the new one is made while the
	 * old one, moved aside, still holds its inode, which a file system
	 * would otherwise give again), R's relative path gone from here */
	remove_tree(a);
	rm_b = g_build_filename(tmp, "b-old", NULL);
	{
		g_autofree char *old_b = g_build_filename(tmp, "b", NULL);
		g_assert_cmpint(rename(old_b, rm_b), ==, 0);
	}
	g_free(copy_moddir_in(tmp, "b"));
	remove_tree(rm_b);
	modalias_ctx_set_log_priority(ctx, LOG_INFO);
	test_log_clear();
	open_and_drop(ctx, d, cache);
	g_assert_nonnull(strstr(test_log_text(), ": 2 index caches of module directories that are gone removed"));
	g_assert_false(g_file_test(ca, G_FILE_TEST_EXISTS));
	g_assert_false(g_file_test(cb, G_FILE_TEST_EXISTS));
	g_assert_true(g_file_test(cc, G_FILE_TEST_IS_REGULAR));
	g_assert_true(g_file_test(cr, G_FILE_TEST_IS_REGULAR));
	g_assert_true(g_file_test(cd, G_FILE_TEST_IS_REGULAR));
	g_assert_true(g_file_test(other, G_FILE_TEST_IS_REGULAR));
	g_assert_true(g_file_test(link, G_FILE_TEST_IS_SYMLINK));
	/* a cache found current writes nothing, and removes nothing */
	test_log_clear();
	open_and_drop(ctx, c, cache);
	g_assert_null(strstr(test_log_text(), "removed"));
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* A gone directory's file of a cache's name is removed only when its
 * header is this version's, as the loader reads it
 * (cache_header_why_not()): another version's, another byte order's and
 * one cut short inside its header are left; the one left as written goes. */
static void test_prune_foreign(void)
{
	static const char *const names[] = { "plain", "version", "byte-order", "short" };
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *cache = g_build_filename(tmp, "cache", NULL);
	g_autofree char *keep = copy_moddir_in(tmp, "keep");
	char *files[G_N_ELEMENTS(names)];

	/* all written before any directory goes: each write prunes */
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *dir = copy_moddir_in(tmp, names[i]);

		open_and_drop(ctx, dir, cache);
		files[i] = cache_file(cache, dir);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *top = g_build_filename(tmp, names[i], NULL);
		uint32_t version = CACHE_VERSION + 1, bom = 0x04030201u;
		int fd = open(files[i], O_WRONLY | O_CLOEXEC);

		g_assert_cmpint(fd, >=, 0);
		if (i == 1)
			g_assert_cmpint(pwrite(fd, &version, sizeof(version), offsetof(struct cache_header, version)), ==,
					sizeof(version));
		else if (i == 2)
			g_assert_cmpint(pwrite(fd, &bom, sizeof(bom), offsetof(struct cache_header, bom)), ==, sizeof(bom));
		else if (i == 3)
			g_assert_cmpint(ftruncate(fd, sizeof(struct cache_header) - 1), ==, 0);
		close(fd);
		remove_tree(top);
	}
	modalias_ctx_set_log_priority(ctx, LOG_INFO);
	test_log_clear();
	open_and_drop(ctx, keep, cache);
	if (!strstr(test_log_text(), ": 1 index caches of module directories that are gone removed"))
		g_error("log: %s", test_log_text());
	g_assert_false(g_file_test(files[0], G_FILE_TEST_EXISTS));
	for (size_t i = 1; i < G_N_ELEMENTS(names); i++) {
		if (!g_file_test(files[i], G_FILE_TEST_IS_REGULAR))
			g_error("%s: removed", names[i]);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		g_free(files[i]);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
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
		g_autofree char *want = g_strdup_printf("%s changed since it was read", path);
		FILE *f = fopen(path, "a");

		struct modalias_table *before;

		/* mapped while it is current; and current, as a long-running
		 * program asks (modalias_table_is_current) */
		test_log_clear();
		g_assert_cmpint(modalias_table_open(ctx, dir, cache, &before), ==, 0);
		g_assert_nonnull(before->mapping);
		test_log_clear();
		g_assert_cmpint(modalias_table_is_current(before), ==, 1);
		g_assert_cmpstr(test_log_text(), ==, "");
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
		/* the table opened before is no longer current, and says why; the
		 * one read now is */
		test_log_clear();
		g_assert_cmpint(modalias_table_is_current(before), ==, 0);
		if (!strstr(test_log_text(), want))
			g_error("%s: wanted '%s' in '%s'", sources[i], want, test_log_text());
		g_assert_cmpint(modalias_table_is_current(t), ==, 1);
		modalias_table_unref(before);
		modalias_table_unref(t);
	}
	test_log_clear();
	g_assert_cmpint(modalias_table_open(ctx, dir, cache, &t), ==, 0);
	g_assert_nonnull(t->mapping);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* ---- a cache of another module directory ------------------------------------------ */

/* The one file in DIR (a cache directory holding one cache) */
static char *only_file(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name = d ? g_dir_read_name(d) : NULL;

	g_assert_nonnull(name);
	g_assert_null(g_dir_read_name(d));
	return g_build_filename(dir, name, NULL);
}

/* What T answers for e1000e's alias */
static char *e1000e_answer(struct modalias_table *t)
{
	struct modalias_result *res;
	char *s;

	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	s = answer(t, res, E1000E_ALIAS);
	modalias_result_unref(res);
	return s;
}

/* Two module directories whose sources are the same files (hard links:
 * the same device, inode, size and time), the second one's cache name
 * given to the first one's cache (a second name of a path, as a 32-bit
 * hash gave away): the cache says which directory it was built for, and
 * is not used for the other. */
static void test_other_path(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	g_autofree char *a = copy_moddir(tmp), *b = g_build_filename(tmp, "b", NULL);
	g_autofree char *ca = g_build_filename(tmp, "ca", NULL), *cb = g_build_filename(tmp, "cb", NULL);
	g_autofree char *cmd = g_strdup_printf("mkdir '%s' && ln '%s'/* '%s'/", b, a, b);
	g_autofree char *fa = NULL, *fb = NULL, *want = NULL;
	struct modalias_table *t;

	g_assert_cmpint(system(cmd), ==, 0);
	modalias_ctx_set_log_priority(ctx, LOG_INFO);
	g_assert_cmpint(modalias_table_open(ctx, a, ca, &t), ==, 0);
	modalias_table_unref(t);
	g_assert_cmpint(modalias_table_open(ctx, b, cb, &t), ==, 0);
	modalias_table_unref(t);
	fa = only_file(ca);
	fb = only_file(cb);
	g_assert_cmpint(rename(fa, fb), ==, 0);
	test_log_clear();
	g_assert_cmpint(modalias_table_open(ctx, b, cb, &t), ==, 0);
	g_assert_null(t->mapping);
	want = g_strdup_printf("%s: index cache not used: built for another module directory, %s\n", fb, a);
	if (!strstr(test_log_text(), want))
		g_error("wanted '%s' in '%s'", want, test_log_text());
	modalias_table_unref(t);
	/* rebuilt for b: used from now on */
	test_log_clear();
	g_assert_cmpint(modalias_table_open(ctx, b, cb, &t), ==, 0);
	g_assert_nonnull(t->mapping);
	modalias_table_unref(t);
	/* and refused through modalias_table_new_from_cache() alike */
	g_assert_cmpint(modalias_table_new_from_cache(ctx, fb, a, &t), ==, -ESTALE);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* A test that mounts runs again as a subprocess (root only), in a mount
 * namespace of its own: true there; in the test itself, false once the
 * subprocess passed (or the test is skipped). */
static bool in_own_mount_namespace(void)
{
	if (!g_test_subprocess()) {
		if (geteuid() != 0) {
			g_test_skip("needs root, to mount");
			return false;
		}
		g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
		g_test_trap_assert_passed();
		return false;
	}
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		g_test_skip("no mount namespace of our own");
		return false;
	}
	return true;
}

/* The attack: two tmpfs mounts, their modules.alias made alike (the same
 * inode number, size and time; the sources absent besides), the first
 * one's sending e1000e's alias to floppy, mounted in turn at one path.
 * The cache built from the first must not answer for the second: the
 * directory and its sources are on another device.  In a mount namespace
 * of its own (a subprocess). */
static void test_other_mount(void)
{
	g_autofree char *tmp = NULL, *text = NULL, *cmd = NULL;
	g_autofree char *a = NULL, *b = NULL, *m = NULL, *cache = NULL, *want = NULL, *got = NULL;
	const struct timespec when[2] = { { 1700000000, 123456789 }, { 1700000000, 123456789 } };
	struct modalias_ctx *ctx;
	struct modalias_table *t;
	struct stat sa, sb;
	GString *evil;

	if (!in_own_mount_namespace())
		return;
	tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	a = g_build_filename(tmp, "a", NULL);
	b = g_build_filename(tmp, "b", NULL);
	m = g_build_filename(tmp, "m", NULL);
	cache = g_build_filename(tmp, "cache", NULL);
	g_assert_cmpint(mkdir(a, 0755) | mkdir(b, 0755) | mkdir(m, 0755), ==, 0);
	cmd = g_build_filename(moddir, "modules.alias", NULL);
	g_assert_true(g_file_get_contents(cmd, &text, NULL, NULL));
	evil = g_string_new(text);
	g_assert_cmpuint(g_string_replace(evil, " e1000e\n", " floppy\n", 0), >, 100);
	for (int i = 0; i < 2; i++) {
		const char *dir = i ? b : a;
		g_autofree char *alias = g_build_filename(dir, "modules.alias", NULL);

		g_assert_cmpint(mount("tmpfs", dir, "tmpfs", 0, "mode=0755"), ==, 0);
		g_assert_true(g_file_set_contents(alias, i ? text : evil->str, -1, NULL));
		g_assert_cmpint(utimensat(AT_FDCWD, alias, when, 0), ==, 0);
		g_assert_cmpint(stat(alias, i ? &sb : &sa), ==, 0);
	}
	g_string_free(evil, TRUE);
	/* alike but for the device */
	g_assert_cmpuint(sa.st_ino, ==, sb.st_ino);
	g_assert_cmpint(sa.st_size, ==, sb.st_size);
	g_assert_cmpint(sa.st_mtim.tv_nsec, ==, sb.st_mtim.tv_nsec);
	g_assert_cmpuint(sa.st_dev, !=, sb.st_dev);

	ctx = test_ctx_new();
	modalias_ctx_set_log_priority(ctx, LOG_INFO);
	g_assert_cmpint(mount(a, m, NULL, MS_BIND, NULL), ==, 0);
	g_assert_cmpint(modalias_table_open(ctx, m, cache, &t), ==, 0);
	got = e1000e_answer(t);
	g_assert_true(g_str_has_prefix(got, "alias floppy "));
	modalias_table_unref(t);
	g_assert_cmpint(umount(m), ==, 0);
	g_assert_cmpint(mount(b, m, NULL, MS_BIND, NULL), ==, 0);
	test_log_clear();
	g_assert_cmpint(modalias_table_open(ctx, m, cache, &t), ==, 0);
	g_free(got);
	got = e1000e_answer(t);
	g_assert_true(g_str_has_prefix(got, "alias e1000e "));
	g_assert_null(t->mapping);
	want = g_strdup_printf("index cache not used: %s is another directory than the one it was built from\n", m);
	if (!strstr(test_log_text(), want))
		g_error("wanted '%s' in '%s'", want, test_log_text());
	modalias_table_unref(t);
	/* rebuilt: the second directory's, mapped next time */
	g_assert_cmpint(modalias_table_open(ctx, m, cache, &t), ==, 0);
	g_assert_nonnull(t->mapping);
	g_free(got);
	got = e1000e_answer(t);
	g_assert_true(g_str_has_prefix(got, "alias e1000e "));
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	g_assert_cmpint(umount(m) | umount(a) | umount(b), ==, 0);
	remove_tree(tmp);
}

/* Another tmpfs mounted at the same path after the first is unmounted: the
 * kernel gives it the first one's device number again, its root and its
 * first file the same inode numbers, and a user who may write there sets
 * size and time alike.  Only the change time (which no user sets) tells
 * them apart: the first one's cache is not used for the second.  In a
 * mount namespace of its own (a subprocess). */
static void test_reused_device(void)
{
	g_autofree char *tmp = NULL, *text = NULL, *src = NULL, *m = NULL, *cache = NULL, *alias = NULL;
	const struct timespec when[2] = { { 1700000000, 123456789 }, { 1700000000, 123456789 } };
	struct modalias_ctx *ctx;
	struct modalias_table *t;
	struct stat st[2];
	GString *evil;

	if (!in_own_mount_namespace())
		return;
	tmp = g_dir_make_tmp("cache-XXXXXX", NULL);
	m = g_build_filename(tmp, "m", NULL);
	cache = g_build_filename(tmp, "cache", NULL);
	alias = g_build_filename(m, "modules.alias", NULL);
	g_assert_cmpint(mkdir(m, 0755), ==, 0);
	src = g_build_filename(moddir, "modules.alias", NULL);
	g_assert_true(g_file_get_contents(src, &text, NULL, NULL));
	evil = g_string_new(text);
	g_assert_cmpuint(g_string_replace(evil, " e1000e\n", " floppy\n", 0), >, 100);
	ctx = test_ctx_new();
	for (int i = 0; i < 2; i++) {
		g_autofree char *got = NULL;

		g_assert_cmpint(mount("tmpfs", m, "tmpfs", 0, "mode=0755"), ==, 0);
		g_assert_true(g_file_set_contents(alias, i ? text : evil->str, -1, NULL));
		g_assert_cmpint(utimensat(AT_FDCWD, alias, when, 0), ==, 0);
		g_assert_cmpint(stat(alias, &st[i]), ==, 0);
		if (i && (st[0].st_dev != st[1].st_dev || st[0].st_ino != st[1].st_ino)) {
			g_test_skip("the kernel gave the second tmpfs another device or inode");
			break;
		}
		g_assert_cmpint(modalias_table_open(ctx, m, cache, &t), ==, 0);
		got = e1000e_answer(t);
		g_assert_true(g_str_has_prefix(got, i ? "alias e1000e " : "alias floppy "));
		modalias_table_unref(t);
		g_assert_cmpint(umount(m), ==, 0);
		/* the change times differ, whatever the clock's resolution */
		g_usleep(20000);
	}
	g_string_free(evil, TRUE);
	modalias_ctx_unref(ctx);
	remove_tree(tmp);
}

/* The SHA-256 of every length from 0 to 300 bytes (one block, the padding in
 * a block of its own at 56..63 bytes, two and more blocks), as GLib's. */
static void test_name_lengths(void)
{
	unsigned char buf[301];
	char name[CACHE_NAME_MAX];

	for (size_t len = 0; len < sizeof(buf); len++) {
		g_autofree char *md = NULL, *want = NULL;

		for (size_t i = 0; i < len; i++)
			buf[i] = (unsigned char)(1 + (i * 131 + len * 7) % 255); /* no NUL: a path */
		buf[len] = '\0';
		md = g_compute_checksum_for_data(G_CHECKSUM_SHA256, buf, len);
		want = g_strdup_printf("modalias-%s.idx", md);
		cache_file_name(name, sizeof(name), (const char *)buf);
		g_assert_cmpstr(name, ==, want);
	}
}

/* The cache's name: the SHA-256 of the directory's path (FIPS 180-4's
 * examples: one block, the padding in a second block, many blocks). */
static void test_name(void)
{
	static const struct {
		const char *in;
		const char *md;
	} rows[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	g_autofree char *million = g_strnfill(1000000, 'a');
	char name[CACHE_NAME_MAX];

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *want = g_strdup_printf("modalias-%s.idx", rows[i].md);

		cache_file_name(name, sizeof(name), rows[i].in);
		g_assert_cmpstr(name, ==, want);
	}
	cache_file_name(name, sizeof(name), million);
	g_assert_cmpstr(name, ==, "modalias-cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0.idx");
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
	g_autoptr(GPtrArray) sample = sample_queries(), queries = g_ptr_array_new();
	g_autoptr(GPtrArray) want = NULL;
	unsigned int in_mapping = 0;

	g_assert_true(g_file_set_contents(conf, "alias pci:v00008086d000010D3* e1000-custom\nalias my-alias snd-dummy\n"
					  "blacklist pcspkr\ninstall pcspkr /bin/true\n", -1, NULL));
	g_assert_true(g_file_set_contents(empty, "options snd-pcsp index=-2\n", -1, NULL));
	for (guint i = 0; i < sample->len; i++)
		g_ptr_array_add(queries, g_ptr_array_index(sample, i));
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
	g_assert_cmpuint(mismatches(cached, queries, want, false), ==, 0);
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
	g_assert_cmpuint(mismatches(cached, queries, want, false), ==, 0);
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
	/* and moddir's own path, device and inode */
	t->dir = strpool_add(&t->pool, moddir, strlen(moddir));
	table_dir_stamp(moddir, &t->dir_id);
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
			struct modalias_table *t = NULL;
			int ok;

			if (setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
				_exit(3);
			/* a checkout below a directory closed to others (a
			 * clone in a 0700 mktemp -d): nobody cannot read the
			 * fixture, and the test cannot be made */
			if (access(moddir, R_OK | X_OK) < 0)
				_exit(77);
			ctx = test_ctx_new();
			modalias_ctx_set_log_priority(ctx, LOG_WARNING);
			/* a table not opened is not there to free */
			ok = modalias_table_open(ctx, moddir, cache, &t) == 0 && !t->mapping;
			if (ok)
				modalias_table_unref(t);
			t = NULL;
			ok = ok && modalias_table_open(ctx, moddir, cache, &t) == 0 && t->mapping;
			if (ok)
				modalias_table_unref(t);
			ok = ok && test_log_text()[0] == '\0';
			if (!ok)
				fprintf(stderr, "log: %s\n", test_log_text());
			_exit(ok ? 0 : 1);
		}
		g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
		g_assert_true(WIFEXITED(status));
		if (WEXITSTATUS(status) == 77) {
			g_autofree char *why = g_strdup_printf(
				"nobody may not read %s (is the checkout below a directory closed to others, "
				"as a 0700 mktemp -d?)", moddir);
			g_test_skip(why);
		} else {
			g_assert_cmpint(WEXITSTATUS(status), ==, 0);
		}
	}
	remove_tree(tmp);
}

int main(int argc, char **argv)
{
	int r;

	g_test_init(&argc, &argv, NULL);
	moddir = g_test_build_filename(G_TEST_DIST, "data", "linux-6.1.0-57-amd64", NULL);
	g_test_add_func("/cache/round-trip", test_round_trip);
	g_test_add_func("/cache/stale", test_stale);
	g_test_add_func("/cache/prune", test_prune);
	g_test_add_func("/cache/prune/foreign", test_prune_foreign);
	g_test_add_func("/cache/name", test_name);
	g_test_add_func("/cache/other-directory/path", test_other_path);
	g_test_add_func("/cache/other-directory/mount", test_other_mount);
	g_test_add_func("/cache/other-directory/reused-device", test_reused_device);
	g_test_add_func("/cache/name-lengths", test_name_lengths);
	g_test_add_func("/cache/skipped-lines", test_skipped);
	g_test_add_func("/cache/config-on-mapped", test_config_mapped);
	for (size_t i = 0; i < G_N_ELEMENTS(trust_rows); i++) {
		g_autofree char *name = g_strdup_printf("/cache/trust/%s", trust_rows[i].name);

		g_test_add_data_func(name, &trust_rows[i], test_trust);
	}
	g_test_add_func("/cache/trust/save-and-create", test_save_trust);
	g_test_add_func("/cache/trust/user-quiet", test_user_quiet);
	r = g_test_run();
	g_free(moddir);
	return r;
}
