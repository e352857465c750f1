/*
 * Alias tables: loading (good, bad and hostile input), kmod's source order,
 * names, symbols, builtins, configuration, explain data, memory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <libkmod.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libmodalias-private.h"
#include "table-private.h"
#include "test-common.h"
#include <glib/gstdio.h>

static char *debian_dir(void)
{
	return g_test_build_filename(G_TEST_DIST, "data", "linux-6.1.0-57-amd64", NULL);
}

/* "MOD1 MOD2 …" of a lookup, or "error N". */
static char *answer(struct modalias_table *t, const char *alias)
{
	struct modalias_result *res;
	GString *s = g_string_new(NULL);
	int r;

	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	r = modalias_table_lookup(t, alias, res);
	if (r < 0)
		g_string_printf(s, "error %d", r);
	for (unsigned int i = 0; r >= 0 && i < modalias_result_get_count(res); i++)
		g_string_append_printf(s, "%s%s", i ? " " : "", modalias_result_get_module(res, i));
	modalias_result_unref(res);
	return g_string_free(s, FALSE);
}

static void assert_answer(struct modalias_table *t, const char *alias, const char *want)
{
	g_autofree char *got = answer(t, alias);

	if (strcmp(got, want) != 0)
		g_error("'%s': wanted '%s', got '%s'", alias, want, got);
}

/* The default log (standard error, for a program that set no log
 * function) quotes modules.alias: its control characters (C1 too) are
 * shown as C writes them (\a, \xNN), so that none reaches a terminal, and
 * a backslash \\, so that the four characters "\x1b" read otherwise than
 * an ESC (shared/shown.h, as cli_shown()). */
static void test_default_log_escaped(void)
{
	static const char text[] = "alias pci:v*\\x1b\x1b]0;pwned\x07* m\n"
				   "alias usb:v* mod\xc2\x9b" "2J\x1b\n";
	struct modalias_ctx *ctx;
	struct modalias_table *t;

	if (!g_test_subprocess()) {
		g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
		g_test_trap_assert_passed();
		g_test_trap_assert_stderr("*test.alias:1: *pci:v*\\\\x1b\\x1b]0;pwned\\a*\n"
					  "*test.alias:2: *mod\\xc2\\x9b2J\\x1b*");
		g_test_trap_assert_stderr_unmatched("*\x1b*");
		g_test_trap_assert_stderr_unmatched("*\x07*");
		g_test_trap_assert_stderr_unmatched("*\xc2\x9b*");
		return;
	}
	g_assert_cmpint(modalias_ctx_new(&ctx), ==, 0);
	g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_buffer(t, "test.alias", text, sizeof(text) - 1), ==, 2);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
}

static void test_malformed(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t;
	GString *buf = g_string_new(NULL);

	g_string_append(buf, "# Aliases extracted from modules themselves.\n");
	g_string_append(buf, "\n   \n");
	g_string_append(buf, "alias usb:v1234p*d*dc*dsc*dp*ic*isc*ip*in* good-one\n");         /* 4 */
	g_string_append(buf, "alias usb:v1234p*d*dc*dsc*dp*ic*isc*ip*in* good-one\n");         /* 5: duplicate */
	g_string_append(buf, "alias\n");                                                       /* 6 */
	g_string_append(buf, "alias pci:v0000\n");                                             /* 7: truncated */
	g_string_append(buf, "alias pci:v[0-9* broken\n");                                     /* 8 */
	g_string_append(buf, "alias pci:v]* broken\n");                                        /* 9 */
	g_string_append(buf, "options foo bar=1\n");                                           /* 10 */
	g_string_append(buf, "alias a b c\n");                                                 /* 11: "a b" */
	g_string_append_len(buf, "alias nul\0x mod\n", 16);                                    /* 12 */
	g_string_append(buf, "alias platform:after-bad after_bad\n");                          /* 13 */
	g_string_append(buf, "alias long:");                                                   /* 14 */
	for (int i = 0; i < 65536; i++)
		g_string_append_c(buf, "0123456789abcdef"[i % 16]);
	g_string_append(buf, "* longmod\n");
	g_string_append(buf, "\talias\tspi:tabs\ttabbed\r\n");                                 /* 15 */
	g_string_append(buf, "alias mt8188 mt6359 soc card mt8188_mt6359\n");                  /* 16: arm64 6.12 */
	g_string_append(buf, "alias  two  spaces\tand\ta tab  spaced \r\n");                 /* 17 */
	g_string_append(buf, "alias dmi*:svn*LENOVO*: last-line-no-newline");                   /* 18 */

	g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_buffer(t, "test.alias", buf->str, buf->len), ==, 6);
	for (int line = 6; line <= 12; line++) {
		if (line == 11)
			continue;
		g_autofree char *where = g_strdup_printf("test.alias:%d:", line);
		if (!strstr(test_log_text(), where))
			g_error("no message for line %d in:\n%s", line, test_log_text());
	}
	g_assert_nonnull(strstr(test_log_text(), "test.alias:8: unbalanced brackets"));
	g_assert_nonnull(strstr(test_log_text(), "test.alias:12: NUL byte"));
	g_assert_nonnull(strstr(test_log_text(), "test.alias:7: missing module name"));
	g_assert_nonnull(strstr(test_log_text(), "test.alias:6: missing pattern and module"));
	g_assert_null(strstr(test_log_text(), "test.alias:11:"));
	g_assert_null(strstr(test_log_text(), "test.alias:16:"));
	g_assert_cmpint(modalias_table_get_pattern_count(t), ==, 9);
	/* depmod writes an alias with spaces as it is: the module is the last
	 * word, the pattern all before it, its inner white space kept */
	assert_answer(t, "a b", "c");
	assert_answer(t, "mt8188 mt6359 soc card", "mt8188_mt6359");
	assert_answer(t, "mt8188_mt6359 soc card", "");
	assert_answer(t, "mt8188  mt6359 soc card", "");
	assert_answer(t, "two  spaces\tand\ta tab", "spaced");
	/* good lines, before and after the bad ones, all answer */
	assert_answer(t, "usb:v1234p0001d0100dc00dsc00dp00ic03isc01ip01in00", "good_one");
	assert_answer(t, "platform:after-bad", "after_bad");
	assert_answer(t, "platform:after_bad", "after_bad");
	assert_answer(t, "spi:tabs", "tabbed");
	assert_answer(t, "dmi:bvnX:svnLENOVO:pnT480:", "last_line_no_newline");
	{
		GString *q = g_string_new("long:");
		for (int i = 0; i < 4000; i++)
			g_string_append_c(q, "0123456789abcdef"[i % 16]);
		/* kmod looks at 4095 bytes at most: the pattern wants 65536 */
		assert_answer(t, q->str, "");
		g_string_free(q, TRUE);
	}
	/* a missing file */
	g_assert_cmpint(modalias_table_load_file(t, "/nonexistent/modules.alias"), ==, -ENOENT);
	g_assert_nonnull(strstr(test_log_text(), "/nonexistent/modules.alias"));
	g_assert_cmpint(modalias_table_add(t, "x[", "m"), ==, -EINVAL);
	g_assert_cmpint(modalias_table_add(t, "", "m"), ==, -EINVAL);
	g_assert_cmpint(modalias_table_add(t, "x", ""), ==, -EINVAL);
	modalias_table_unref(t);
	g_string_free(buf, TRUE);
	modalias_ctx_unref(ctx);
}

static void test_queries(void)
{
	g_autofree char *dir = debian_dir();
	const char *none[] = { NULL };
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t;
	struct modalias_result *res;
	unsigned int line = 0;

	g_assert_cmpint(modalias_table_new_from_directory(ctx, dir, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_config(t, none), ==, 0);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);

	/* a module name is itself, whatever its spelling */
	g_assert_cmpint(modalias_table_lookup(t, "snd-hda-intel", res), ==, 1);
	g_assert_cmpstr(modalias_result_get_source(res), ==, "name");
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "snd_hda_intel");
	/* symbols */
	g_assert_cmpint(modalias_table_lookup(t, "symbol:drm_need_swiotlb", res), ==, 1);
	g_assert_cmpstr(modalias_result_get_source(res), ==, "symbol");
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "drm");
	/* builtin aliases and builtin names */
	g_assert_cmpint(modalias_table_lookup(t, "crypto-md5", res), ==, 1);
	g_assert_cmpstr(modalias_result_get_source(res), ==, "builtin-alias");
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "md5");
	g_assert_true(modalias_result_is_builtin(res, 0));
	g_assert_cmpint(modalias_table_lookup(t, "iosf_mbi", res), ==, 1);
	g_assert_cmpstr(modalias_result_get_source(res), ==, "builtin");
	g_assert_true(modalias_result_is_builtin(res, 0));
	/* a module matched by three patterns is reported once, with all three */
	g_assert_cmpint(modalias_table_lookup(t, "cpu:type:x86,ven0002fam001Amod0002:feature:,0089,009C,0125", res), ==, 3);
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "sha1_ssse3");
	g_assert_cmpuint(modalias_result_get_pattern_count(res, 0), ==, 3);
	g_assert_cmpstr(modalias_result_get_pattern(res, 0, 0), ==, "cpu:type:x86,ven*fam*mod*:feature:*0089*");
	g_assert_true(g_str_has_suffix(modalias_result_get_pattern_origin(res, 0, 0, &line), "modules.alias"));
	g_assert_cmpuint(line, >, 1);
	g_assert_false(modalias_result_is_builtin(res, 0));
	/* several modules, in modules.order order */
	g_assert_cmpint(modalias_table_lookup(t, "hid:b0003g0001v0000046Dp0000C52B", res), ==, 2);
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "hid_generic");
	g_assert_cmpstr(modalias_result_get_module(res, 1), ==, "hid_logitech_dj");
	/* nothing */
	g_assert_cmpint(modalias_table_lookup(t, "pci:v0000FFFFd0000FFFF", res), ==, 0);
	g_assert_null(modalias_result_get_source(res));
	g_assert_null(modalias_result_get_module(res, 0));
	/* malformed queries */
	g_assert_cmpint(modalias_table_lookup(t, "pci:v[0000", res), ==, -EINVAL);
	g_assert_nonnull(strstr(test_log_text(), "unbalanced brackets"));
	g_assert_cmpint(modalias_table_lookup(t, "pci:v]", res), ==, -EINVAL);
	/* a pattern added later is found: the index follows */
	g_assert_cmpint(modalias_table_add(t, "pci:v0000FFFF*", "my-driver"), ==, 0);
	g_assert_cmpint(modalias_table_lookup(t, "pci:v0000FFFFd0000FFFF", res), ==, 1);
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "my_driver");
	g_assert_cmpstr(modalias_result_get_pattern_origin(res, 0, 0, &line), ==, "(added)");

	modalias_result_unref(res);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
}

/* kmod tries builtin module names before the builtin modules' aliases:
 * 6.12's crc64-rocksoft is both (lib/crc64-rocksoft.ko is builtin, and
 * crc64_rocksoft_generic has the alias crc64-rocksoft). */
static void test_lookup_order(void)
{
	g_autofree char *dir = g_test_build_filename(G_TEST_DIST, "data", "linux-6.12.118+deb12-amd64", NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t;
	struct modalias_result *res;
	GString *q = g_string_new("acpi:PNP0C0A:");

	g_assert_cmpint(modalias_table_new_from_directory(ctx, dir, &t), ==, 0);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	g_assert_cmpint(modalias_table_lookup(t, "crc64-rocksoft", res), ==, 1);
	g_assert_cmpstr(modalias_result_get_source(res), ==, "builtin");
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "crc64_rocksoft");
	g_assert_true(modalias_result_is_builtin(res, 0));
	g_assert_cmpint(modalias_table_lookup(t, "crypto-crc64-rocksoft", res), ==, 1);
	g_assert_cmpstr(modalias_result_get_source(res), ==, "builtin-alias");
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "crc64_rocksoft_generic");

	/* kmod's 4096-byte key: "battery\" and the alias and a NUL */
	while (q->len < 4096 - 2 - strlen("battery"))
		g_string_append_c(q, 'X');
	g_assert_cmpint(modalias_table_lookup(t, q->str, res), ==, 1);
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "battery");
	g_string_append_c(q, 'X');
	test_log_clear();
	g_assert_cmpint(modalias_table_lookup(t, q->str, res), ==, -ENAMETOOLONG);
	g_assert_cmpuint(modalias_result_get_count(res), ==, 0);
	g_assert_nonnull(strstr(test_log_text(), "(4088 bytes) is too long for kmod: with the module name 'battery'"));
	/* a longer one is cut at 4095 bytes first: still no answer */
	for (int i = 0; i < 10000; i++)
		g_string_append_c(q, 'X');
	g_assert_cmpint(modalias_table_lookup(t, q->str, res), ==, -ENAMETOOLONG);
	/* where nothing matches, nothing is too long */
	q->str[0] = 'z';
	g_assert_cmpint(modalias_table_lookup(t, q->str, res), ==, 0);
	/* a bracket that straddles the cut is kept whole, as kmod does */
	g_string_truncate(q, 4090);
	g_string_append(q, "[abcdefgh]XXXX");
	g_assert_cmpint(modalias_table_lookup(t, q->str, res), ==, 0);
	g_string_truncate(q, 4090);
	g_string_append(q, "[abcdefghXXXX");
	g_assert_cmpint(modalias_table_lookup(t, q->str, res), ==, -EINVAL);

	g_string_free(q, TRUE);
	modalias_result_unref(res);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
}

/* arm64 6.12's aliases with spaces and the lookup order, the same from
 * the text and from the index cache written and mapped back. */
static void test_spaces_cached(void)
{
	g_autofree char *dir = g_test_build_filename(G_TEST_DIST, "data", "linux-6.12.118+deb12-arm64", NULL);
	g_autofree char *cache = g_dir_make_tmp("modalias-cache-XXXXXX", NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t;

	for (int round = 0; round < 3; round++) {
		/* 0: from the text, 1: from it and the cache written, 2: mapped */
		g_assert_cmpint(round == 0 ? modalias_table_new_from_directory(ctx, dir, &t) :
					     modalias_table_open(ctx, dir, cache, &t), ==, 0);
		assert_answer(t, "mt8188 mt6359 soc card", "mt8188_mt6359");
		assert_answer(t, "mt8186-mt6366 soc card", "mt8186_mt6366");
		assert_answer(t, "platform: mt8365_mt6357", "mt8365_mt6357");
		assert_answer(t, "crc64-rocksoft", "crc64_rocksoft");
		modalias_table_unref(t);
	}
	{
		g_autoptr(GDir) d = g_dir_open(cache, 0, NULL);
		const char *f;
		int n = 0;
		while ((f = g_dir_read_name(d))) {
			g_autofree char *path = g_build_filename(cache, f, NULL);
			g_assert_true(g_str_has_suffix(f, ".idx"));
			unlink(path);
			n++;
		}
		g_assert_cmpint(n, ==, 1); /* round 2 mapped what round 1 wrote */
	}
	rmdir(cache);
	modalias_ctx_unref(ctx);
}

/* A driver of a bool option is built in with no line in modules.builtin:
 * 6.12's shpchp is named only by modules.builtin.modinfo (shpchp.parm=…,
 * no alias).  The table says it is built in, read from the text or from
 * its cache; a lookup of the name still answers as kmod does (nothing),
 * and a module a modprobe.d alias names is reported built in. */
static void test_builtin_modinfo(void)
{
	g_autofree char *dir = g_test_build_filename(G_TEST_DIST, "data", "linux-6.12.118+deb12-amd64", NULL);
	g_autofree char *tmp = g_dir_make_tmp("modalias-builtin-XXXXXX", NULL);
	g_autofree char *conf = g_build_filename(tmp, "shpchp.conf", NULL);
	const char *paths[] = { conf, NULL };
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_result *res;
	struct modalias_table *t;

	g_assert_true(g_file_set_contents(conf, "alias pci:v00001B36d00000001* shpchp\n", -1, NULL));
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	for (int round = 0; round < 3; round++) {
		/* 0: from the text, 1: from it and the cache written, 2: mapped */
		g_assert_cmpint(round == 0 ? modalias_table_new_from_directory(ctx, dir, &t) :
					     modalias_table_open(ctx, dir, tmp, &t), ==, 0);
		g_assert_cmpint(modalias_table_is_module_builtin(t, "shpchp"), ==, 1);
		g_assert_cmpint(modalias_table_is_module_builtin(t, "crc64-rocksoft"), ==, 1); /* modules.builtin */
		g_assert_cmpint(modalias_table_is_module_builtin(t, "md5"), ==, 1);            /* a builtin alias */
		g_assert_cmpint(modalias_table_is_module_builtin(t, "e1000e"), ==, 0);         /* a module */
		g_assert_cmpint(modalias_table_is_module_builtin(t, "no_such_module"), ==, 0);
		g_assert_cmpint(modalias_table_is_module_builtin(t, ""), ==, -EINVAL);
		g_assert_cmpint(modalias_table_is_module_builtin(NULL, "shpchp"), ==, -EINVAL);
		g_assert_cmpint(modalias_table_lookup(t, "shpchp", res), ==, 0);
		g_assert_cmpint(modalias_table_load_config(t, paths), ==, 0);
		g_assert_cmpint(modalias_table_lookup(t, "pci:v00001B36d00000001sv00000000sd00000000bc06sc04i00", res), ==, 1);
		g_assert_cmpstr(modalias_result_get_source(res), ==, "config");
		g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "shpchp");
		g_assert_true(modalias_result_is_builtin(res, 0));
		modalias_table_unref(t);
	}
	modalias_result_unref(res);
	{
		g_autoptr(GDir) d = g_dir_open(tmp, 0, NULL);
		const char *f;
		while ((f = g_dir_read_name(d))) {
			g_autofree char *path = g_build_filename(tmp, f, NULL);
			unlink(path);
		}
	}
	rmdir(tmp);
	modalias_ctx_unref(ctx);
}

/* modprobe.d: the first source with a match wins, exactly as in kmod. */
static void test_config(void)
{
	g_autofree char *dir = debian_dir();
	g_autofree char *tmp = g_dir_make_tmp("modalias-conf-XXXXXX", NULL);
	g_autofree char *conf = g_build_filename(tmp, "test.conf", NULL);
	const char *paths[] = { conf, NULL };
	static const char *const aliases[] = {
		"pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00", /* e1000e, overridden */
		"pci:v000010ECd00008168sv00001043sd00008432bc02sc00i00", /* r8169, turned off */
		"usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00",     /* untouched */
		"my-alias",
		"e1000e",
		"pcspkr",
	};
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t;
	struct kmod_ctx *kctx;

	g_assert_true(g_file_set_contents(conf,
		"# a real-looking modprobe.d file\n"
		"alias pci:v00008086d000010D3* e1000-custom\n"
		"alias pci:v000010ECd00008168* off\n"
		"alias my-alias snd-dummy\n"
		"blacklist pcspkr\n"
		"install pcspkr /bin/true\n", -1, NULL));
	g_assert_cmpint(modalias_table_new_from_directory(ctx, dir, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_config(t, paths), ==, 0);
	kctx = kmod_new(dir, paths);
	g_assert_nonnull(kctx);
	kmod_load_resources(kctx);
	for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++) {
		struct kmod_list *list = NULL, *l;
		GString *want = g_string_new(NULL);
		g_autofree char *got = answer(t, aliases[i]);

		g_assert_cmpint(kmod_module_new_from_lookup(kctx, aliases[i], &list), >=, 0);
		kmod_list_foreach(l, list) {
			struct kmod_module *m = kmod_module_get_module(l);
			if (!strstr(want->str, kmod_module_get_name(m)))
				g_string_append_printf(want, "%s%s", want->len ? " " : "", kmod_module_get_name(m));
			kmod_module_unref(m);
		}
		kmod_module_unref_list(list);
		if (strcmp(want->str, got) != 0)
			g_error("'%s': kmod '%s', libmodalias '%s'", aliases[i], want->str, got);
		g_string_free(want, TRUE);
	}
	assert_answer(t, aliases[0], "e1000_custom");
	assert_answer(t, aliases[1], "off");
	kmod_unref(kctx);
	modalias_table_unref(t);
	unlink(conf);
	rmdir(tmp);
	modalias_ctx_unref(ctx);
}

/* The index stays within 1.5 times the text table it was built from. */
static void test_memory(void)
{
	g_autofree char *dir = debian_dir();
	g_autofree char *path = g_build_filename(dir, "modules.alias", NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t;
	size_t bytes = 0;
	struct stat st;

	g_assert_cmpint(stat(path, &st), ==, 0);
	g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_file(t, path), ==, 0);
	g_assert_cmpint(modalias_table_prepare(t), ==, 0);
	g_assert_cmpint(modalias_table_get_memory(t, &bytes), ==, 0);
	g_test_message("modules.alias: %lld bytes of text, %zu bytes of table (%.2fx)",
		       (long long)st.st_size, bytes, (double)bytes / (double)st.st_size);
	g_assert_cmpuint(bytes, <=, (size_t)st.st_size * 3 / 2);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
}

static void test_directory_errors(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_table *t = NULL;

	g_assert_cmpint(modalias_table_new_from_directory(ctx, "/nonexistent-moddir", &t), ==, -ENOENT);
	g_assert_null(t);
	g_assert_nonnull(strstr(test_log_text(), "/nonexistent-moddir/modules.alias"));
	g_assert_cmpint(modalias_table_new_from_directory(NULL, "/x", &t), ==, -EINVAL);
	modalias_ctx_unref(ctx);
}

/* "MODULE PATTERN CLAIMS DIFFERS MATCHED;…" of modalias_table_find_nearest() */
static int collect_near(void *data, const char *module, const char *pattern, const char *claims, const char *differs,
			unsigned int matched)
{
	g_string_append_printf(data, "%s %s %s %s %u;", module, pattern, claims, differs, matched);
	return 0;
}

static int stop_near(void *data, const char *module, const char *pattern, const char *claims, const char *differs,
		     unsigned int matched)
{
	(void)data, (void)module, (void)pattern, (void)claims, (void)differs, (void)matched;
	return 1;
}

static void test_nearest(void)
{
	static const struct {
		const char *alias;
		int ret;
		const char *want;
	} cases[] = {
		/* Realtek's USB ethernet 0BDA:8157 (a vendor-specific interface,
		 * FF) is not in 6.1's r8152: of the claims on vendor 0BDA, the 5 of
		 * any interface class whose product starts "815" (grep
		 * '^alias usb:v0BDAp815' modules.alias); cdc_ether's and
		 * r8153_ecm's name interface class 02 and are not near, and
		 * ax88179's icFFiscFFip00 is no claim on the kind of device */
		{ "usb:v0BDAp8157d3000dcFFdsc00dp00icFFiscFFip00in00", 5, NULL },
		/* the QEMU host bridge 8086:29C0 (class 06 00): the one pattern of
		 * bridges of any maker (yenta_socket's CardBus bridges, 06 07),
		 * not its patterns that name other makers (Ricoh, TI…), never
		 * Intel's 29C2 (i915, a display) or 29C4 (mei_me) of another class */
		{ "pci:v00008086d000029C0sv00001AF4sd00001100bc06sc00i00", 1, NULL },
		/* a USB controller of an unknown interface 50: the four host
		 * controller drivers and thunderbolt name its class and subclass
		 * for any maker; net2280's patterns name their makers */
		{ "pci:v0000FFFEd00000001sv00000000sd00000000bc0Csc03i50", 5, NULL },
		/* Realtek's RTL8126 (10EC:8126), new after 6.1: its maker's
		 * drivers (r8169's 8125, 8129; 8139too's 8129), not another
		 * maker's that names the class (qlcnic) */
		{ "pci:v000010ECd00008126sv000010ECsd00000123bc02sc00i00", 3, NULL },
		/* a vendor nobody claims, a class nobody claims: nothing near */
		{ "pci:v0000FFFEd00000001sv00000000sd00000000bc13sc00i01", 0, "" },
		/* a network card of a vendor nobody claims: the network drivers
		 * that name its class 02 00 (every one names another maker) */
		{ "pci:v0000FFFEd00000001sv00000000sd00000000bc02sc00i01", 55, NULL },
		/* the same with device class 00 ("see the interfaces", as
		 * most USB devices say): no claim on the kind either, the same
		 * 5, not pegasus's one pattern that names dc00 */
		{ "usb:v0BDAp8157d3000dc00dsc00dp00icFFiscFFip00in00", 5, NULL },
		/* a bus of its own form */
		{ "acpi:PNP0C0A:", -EOPNOTSUPP, "" },
		{ "dmi:bvnX:", -EOPNOTSUPP, "" },
		/* not of its bus's form */
		{ "pci:v0000", -EOPNOTSUPP, "" },
		/* an alias that matches: the pattern that matches is not near, its
		 * maker's neighbours of class 02 00 are (checked below) */
		{ "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00", -1, NULL },
	};
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *dir = debian_dir();
	struct modalias_table *t;

	g_assert_cmpint(modalias_table_new_from_directory(ctx, dir, &t), ==, 0);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		GString *got = g_string_new(NULL);
		int r = modalias_table_find_nearest(t, cases[i].alias, collect_near, got);

		if (cases[i].ret == -1)
			g_assert_cmpint(r, >, 0);
		else
			g_assert_cmpint(r, ==, cases[i].ret);
		if (cases[i].want)
			g_assert_cmpstr(got->str, ==, cases[i].want);
		if (i == 0 || i == 6) {
			/* r8152's own claims are among them, told by their first field */
			g_assert_nonnull(strstr(got->str, "r8152 usb:v0BDAp8156d*dc*dsc*dp*ic*isc*ip*in* idVendor idProduct 1;"));
			g_assert_null(strstr(got->str, "rndis"));
			g_assert_null(strstr(got->str, "cdc_ether"));
			g_assert_null(strstr(got->str, "ax88179"));
		}
		if (i == 1) {
			g_assert_true(g_str_has_prefix(got->str, "yenta_socket pci:v*d*sv*sd*bc06sc07i00* baseclass subclass 1;"));
			g_assert_null(strstr(got->str, "i915"));
			g_assert_null(strstr(got->str, "mei_me"));
		}
		if (i == 3) {
			g_assert_nonnull(strstr(got->str, "r8169 pci:v000010ECd00008125sv*sd*bc*sc*i* vendor device 1;"));
			g_assert_null(strstr(got->str, "qlcnic"));
		}
		if (i == 5)
			g_assert_true(g_str_has_prefix(got->str, "acenic pci:v000010A9d00000009sv*sd*bc02sc00i* subclass vendor 2;"));
		if (i == 2) {
			g_assert_nonnull(strstr(got->str, "xhci_pci pci:v*d*sv*sd*bc0Csc03i30* subclass interface 2;"));
			g_assert_nonnull(strstr(got->str, "thunderbolt pci:v*d*sv*sd*bc0Csc03i40* subclass interface 2;"));
		}
		if (i == G_N_ELEMENTS(cases) - 1) {
			/* its maker's network controllers (e100's names class 02
			 * 00 and Intel), not another maker's (qlcnic's QLogic) */
			g_assert_null(strstr(got->str, "pci:v00008086d000010D3sv*sd*bc*sc*i*"));
			g_assert_nonnull(strstr(got->str, "e100 pci:v00008086d00001092sv*sd*bc02sc00i* vendor device 3;"));
			g_assert_null(strstr(got->str, "qlcnic"));
		}
		g_string_free(got, TRUE);
	}
	/* the walk stops when asked */
	{
		GString *got = g_string_new(NULL);
		g_assert_cmpint(modalias_table_find_nearest(t, cases[0].alias, stop_near, got), ==, 1);
		g_string_free(got, TRUE);
	}
	g_assert_cmpint(modalias_table_find_nearest(NULL, cases[0].alias, collect_near, NULL), ==, -EINVAL);
	g_assert_cmpint(modalias_table_find_nearest(t, NULL, collect_near, NULL), ==, -EINVAL);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
}

static void test_blacklist_origin(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *dir = g_dir_make_tmp("modalias-modprobe-d-XXXXXX", NULL);
	g_autofree char *a = g_build_filename(dir, "a.conf", NULL);
	g_autofree char *b = g_build_filename(dir, "b.conf", NULL);
	g_autofree char *hidden = g_build_filename(dir, ".h.conf", NULL);
	const char *paths[] = { dir, NULL };
	struct modalias_table *t;
	unsigned int line = 99;

	/* libkmod reads a.conf before b.conf: the first line that says it wins;
	 * a hidden file is not read */
	g_assert_true(g_file_set_contents(hidden, "blacklist hidden_one\n", -1, NULL));
	g_assert_true(g_file_set_contents(a, "# a\n\n  blacklist  snd-pcsp  \nblacklist pcspkr\n", -1, NULL));
	g_assert_true(g_file_set_contents(b, "blacklist snd_pcsp\noptions x y=1\nblacklist bochs\n", -1, NULL));
	g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_config(t, paths), ==, 0);
	g_assert_cmpstr(modalias_table_get_blacklist_origin(t, "snd_pcsp", &line), ==, a);
	g_assert_cmpuint(line, ==, 3);
	g_assert_cmpstr(modalias_table_get_blacklist_origin(t, "pcspkr", &line), ==, a);
	g_assert_cmpuint(line, ==, 4);
	g_assert_cmpstr(modalias_table_get_blacklist_origin(t, "bochs", &line), ==, b);
	g_assert_cmpuint(line, ==, 3);
	g_assert_null(modalias_table_get_blacklist_origin(t, "hidden_one", &line));
	g_assert_cmpuint(line, ==, 0);
	g_assert_null(modalias_table_get_blacklist_origin(t, "e1000e", NULL));
	/* a blacklist of the program's own: where it says so, or "(added)" */
	g_assert_cmpint(modalias_table_add_blacklist_from(t, "e1000e", "/etc/modalias.conf", 7), ==, 0);
	g_assert_cmpint(modalias_table_add_blacklist_from(t, "igb", NULL, 5), ==, 0);
	g_assert_cmpint(modalias_table_add_blacklist_from(t, "ixgbe", "", 5), ==, 0);
	g_assert_cmpint(modalias_table_add_blacklist_from(t, "", "/etc/modalias.conf", 1), ==, -EINVAL);
	g_assert_cmpint(modalias_table_add_blacklist_from(NULL, "x", "/etc/modalias.conf", 1), ==, -EINVAL);
	g_assert_cmpint(modalias_table_add_blacklist(t, "r8169"), ==, 0);
	g_assert_cmpstr(modalias_table_get_blacklist_origin(t, "e1000e", &line), ==, "/etc/modalias.conf");
	g_assert_cmpuint(line, ==, 7);
	g_assert_true(modalias_table_is_blacklisted(t, "e1000e"));
	g_assert_cmpstr(modalias_table_get_blacklist_origin(t, "igb", &line), ==, "(added)");
	g_assert_cmpuint(line, ==, 0);
	g_assert_cmpstr(modalias_table_get_blacklist_origin(t, "ixgbe", &line), ==, "(added)");
	g_assert_cmpuint(line, ==, 0);
	g_assert_cmpstr(modalias_table_get_blacklist_origin(t, "r8169", &line), ==, "(added)");
	g_assert_cmpuint(line, ==, 0);
	/* the modprobe.d ones as they were */
	g_assert_cmpstr(modalias_table_get_blacklist_origin(t, "bochs", &line), ==, b);
	g_assert_cmpuint(line, ==, 3);
	modalias_table_unref(t);
	modalias_ctx_unref(ctx);
	g_unlink(a);
	g_unlink(b);
	g_unlink(hidden);
	g_rmdir(dir);
}


/* modules.weakdep (kmod >= 33's depmod): the load fixture's, written by
 * kmod 34's depmod from mod_weak's MODULE_WEAKDEP; none on the tables of
 * depmod 30; an unreadable file is an error, named */
static void test_weakdeps(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *load = g_test_build_filename(G_TEST_DIST, "data", "load", "lib", "modules", "9.9.9-test", NULL);
	g_autofree char *old = g_test_build_filename(G_TEST_DIST, "data", "linux-6.1.0-57-amd64", NULL);
	g_autofree char *tmp = g_dir_make_tmp("modalias-weakdep-XXXXXX", NULL);
	g_autofree char *alias = g_build_filename(tmp, "modules.alias", NULL);
	g_autofree char *weak = g_build_filename(tmp, "modules.weakdep", NULL);
	const char *const *deps = NULL;
	struct modalias_table *t;

	g_assert_cmpint(modalias_table_new_from_directory(ctx, load, &t), ==, 0);
	g_assert_cmpint(modalias_table_get_weakdeps(t, "mod_weak", &deps), ==, 1);
	g_assert_cmpstr(deps[0], ==, "mod_weakling");
	g_assert_null(deps[1]);
	g_assert_cmpint(modalias_table_get_weakdeps(t, "mod-weak", &deps), ==, 1);
	g_assert_cmpint(modalias_table_get_weakdeps(t, "mod_weakling", &deps), ==, 0);
	g_assert_null(deps[0]);
	g_assert_cmpint(modalias_table_get_weakdeps(t, "mod_a", &deps), ==, 0);
	g_assert_cmpint(modalias_table_get_weakdeps(t, NULL, &deps), ==, -EINVAL);
	modalias_table_unref(t);

	g_assert_cmpint(modalias_table_new_from_directory(ctx, old, &t), ==, 0);
	g_assert_cmpint(modalias_table_get_weakdeps(t, "snd_hda_intel", &deps), ==, 0);
	modalias_table_unref(t);

	g_assert_true(g_file_set_contents(alias, "alias test:x mod_x\n", -1, NULL));
	g_assert_cmpint(g_mkdir(weak, 0755), ==, 0);
	g_assert_cmpint(modalias_table_new_from_directory(ctx, tmp, &t), >=, 0);
	test_log_clear();
	g_assert_cmpint(modalias_table_get_weakdeps(t, "mod_x", &deps), <, 0);
	g_assert_nonnull(strstr(test_log_text(), weak));
	modalias_table_unref(t);
	test_rm_rf(tmp);
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/table/malformed", test_malformed);
	g_test_add_func("/table/default-log-escaped", test_default_log_escaped);
	g_test_add_func("/table/queries", test_queries);
	g_test_add_func("/table/config", test_config);
	g_test_add_func("/table/lookup-order", test_lookup_order);
	g_test_add_func("/table/builtin-modinfo", test_builtin_modinfo);
	g_test_add_func("/table/spaces-cached", test_spaces_cached);
	g_test_add_func("/table/memory", test_memory);
	g_test_add_func("/table/directory-errors", test_directory_errors);
	g_test_add_func("/table/nearest", test_nearest);
	g_test_add_func("/table/blacklist-origin", test_blacklist_origin);
	g_test_add_func("/table/weakdeps", test_weakdeps);
	return g_test_run();
}
