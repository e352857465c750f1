/*
 * modalias.conf: good files, typos (warned with file:line), bad values
 * (errors with file:line), unreadable and unsafe paths.  And what the
 * settings and the command line make of the module tables (cli-tables.c,
 * both front ends): the module directory, the cache directory, the
 * modprobe.d paths, and an open that fails whole or goes on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <sys/stat.h>
#include <sys/utsname.h>
#include <syslog.h>
#include <unistd.h>

#include "cli-config.h"
#include "cli-tables.h"
#include "test-common.h"

static char *tmpdir;

static char *write_conf(const char *name, const char *text)
{
	char *path = g_build_filename(tmpdir, name, NULL);

	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static void test_good(void)
{
	g_autofree char *table = write_conf("extra.alias", "alias acme:* acme\n");
	g_autofree char *text = g_strdup_printf("# settings\n[modules]\nroot=/\nversion=6.1.0-57-amd64\n"
						"blacklist=pcspkr;snd_pcsp\ntables=%s\ncache=\n\n[log]\nlevel=info\n\n"
						"[agent]\nmax-parallel=8\ncoldplug=resolve\n", table);
	g_autofree char *path = write_conf("good.conf", text);
	struct cli_config cfg;
	GString *warn = g_string_new(NULL);
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(chmod(table, 0644), ==, 0);
	g_assert_true(cli_config_load(path, &cfg, warn, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(warn->str, ==, "");
	g_assert_cmpstr(cfg.root, ==, "/");
	g_assert_cmpstr(cfg.version, ==, "6.1.0-57-amd64");
	g_assert_cmpuint(g_strv_length(cfg.blacklist), ==, 2);
	g_assert_cmpstr(cfg.blacklist[1], ==, "snd_pcsp");
	g_assert_cmpstr(cfg.tables[0], ==, table);
	g_assert_cmpstr(cfg.cache, ==, "");
	g_assert_cmpint(cfg.log_level, ==, 6);
	g_assert_cmpint(cfg.max_parallel, ==, 8);
	g_assert_cmpstr(cfg.coldplug, ==, "resolve");
	cli_config_clear(&cfg);
	g_string_free(warn, TRUE);
}

static void test_typos_warned(void)
{
	g_autofree char *path = write_conf("typo.conf", "[modules]\nrot=/\n\n[lgo]\nlevel=info\n[log]\nlevel=debug\n");
	struct cli_config cfg;
	GString *warn = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	g_autofree char *w1 = g_strdup_printf("%s:2: unknown key 'rot' in [modules], ignored", path);
	g_autofree char *w2 = g_strdup_printf("%s:4: unknown group [lgo], ignored", path);

	g_assert_true(cli_config_load(path, &cfg, warn, &error));
	g_assert_nonnull(strstr(warn->str, w1));
	g_assert_nonnull(strstr(warn->str, w2));
	g_assert_cmpint(cfg.log_level, ==, 7);
	cli_config_clear(&cfg);
	g_string_free(warn, TRUE);
}

struct bad {
	const char *text;
	const char *message; /* after "FILE:" */
};

static const struct bad bads[] = {
	{ "[log]\n\nlevel=loud\n", "3: [log] level: not err, warning" },
	{ "[modules]\nroot=relative/path\n", "2: [modules] root: not an absolute path" },
	{ "[modules]\n#c\nversion=a/b\n", "3: [modules] version: not a kernel version" },
	{ "[agent]\nmax-parallel=0\n", "2: [agent] max-parallel: not a number from 1 to 1024" },
	{ "[agent]\nmax-parallel=lots\n", "2: [agent] max-parallel" },
	{ "[agent]\ncoldplug=sometimes\n", "2: [agent] coldplug: neither 'trigger' nor 'resolve'" },
	{ "[modules]\ntables=/nonexistent/table\n", "2: [modules] tables: a table file that cannot be read" },
	{ "[modules]\ntables=@UNSAFE@\n", "2: [modules] tables: a table file writable by group or others" },
	/* GLib's parse errors, with the line number it does not give */
	{ "no group here\n", "1: Key file contains line" },
	{ "# a comment\nroot=/\n[modules]\n", "2: Key file does not start with a group" },
	{ "# modalias.conf\n\n[modules]\nroot=/\n[agent\ncoldplug=resolve\n", "5: Key file contains line" },
	{ "[modules]\nroot=/\n[log]\nlevel=info\nno equals sign", "5: Key file contains line" },
	{ "[log]\nlevel=info\n[bad]group]\n", "3: " },
	{ "[log]\nlevel=\xff\xfe\n", "2: " },
};

static void test_bad(gconstpointer data)
{
	const struct bad *b = data;
	g_autofree char *unsafe = write_conf("unsafe.alias", "alias x y\n");
	g_auto(GStrv) parts = g_strsplit(b->text, "@UNSAFE@", -1);
	g_autofree char *text = g_strjoinv(unsafe, parts);
	g_autofree char *path = write_conf("bad.conf", text);
	g_autofree char *want = g_strdup_printf("%s:%s", path, b->message);
	struct cli_config cfg;
	GString *warn = g_string_new(NULL);
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(chmod(unsafe, 0666), ==, 0);
	g_assert_false(cli_config_load(path, &cfg, warn, &error));
	g_assert_nonnull(error);
	if (!g_str_has_prefix(error->message, want))
		g_error("'%s' does not start with '%s'", error->message, want);
	cli_config_clear(&cfg);
	g_string_free(warn, TRUE);
}

static void test_missing(void)
{
	struct cli_config cfg;
	GString *warn = g_string_new(NULL);
	g_autoptr(GError) error = NULL;

	/* a file named on the command line must exist */
	g_assert_false(cli_config_load("/nonexistent/modalias.conf", &cfg, warn, &error));
	g_assert_nonnull(strstr(error->message, "/nonexistent/modalias.conf"));
	cli_config_clear(&cfg);
	g_string_free(warn, TRUE);
}

/* ---- cli-tables: where the module tables come from ----------------------- */

struct dir_case {
	const char *root, *version, *moddir;          /* -d, -S, -m */
	const char *cfg_root, *cfg_version, *cfg_dir; /* [modules] root=, version=, directory= */
	const char *want;                             /* @REL@: uname -r */
	bool named;
};

static const struct dir_case dir_cases[] = {
	{ NULL, NULL, NULL, NULL, NULL, NULL, "/lib/modules/@REL@", false },
	{ "/r", NULL, NULL, NULL, NULL, NULL, "/r/lib/modules/@REL@", true },
	{ NULL, "6.1", NULL, NULL, NULL, NULL, "/lib/modules/6.1", true },
	{ "/r", "6.1", "/m", NULL, NULL, NULL, "/m", true },
	{ NULL, NULL, NULL, NULL, NULL, "/conf/dir", "/conf/dir", true },
	/* -d or -S: directory= no longer applies, -m still wins */
	{ NULL, "6.1", NULL, NULL, NULL, "/conf/dir", "/lib/modules/6.1", true },
	{ NULL, NULL, "/m", NULL, NULL, "/conf/dir", "/m", true },
	{ NULL, NULL, NULL, "/cr", "6.12", NULL, "/cr/lib/modules/6.12", true },
	{ "/r", NULL, NULL, "/cr", "6.12", NULL, "/r/lib/modules/6.12", true },
};

static void test_module_dir(gconstpointer data)
{
	const struct dir_case *c = data;
	struct cli_tables_spec spec = { (char *)c->root, (char *)c->version, (char *)c->moddir, NULL, FALSE };
	struct cli_config cfg = { .root = (char *)c->cfg_root, .version = (char *)c->cfg_version,
				  .directory = (char *)c->cfg_dir };
	struct utsname u;
	g_autofree char *got = cli_module_dir(&spec, &cfg);
	g_auto(GStrv) parts = g_strsplit(c->want, "@REL@", -1);
	g_autofree char *want = NULL;

	g_assert_cmpint(uname(&u), ==, 0);
	want = g_strjoinv(u.release, parts);
	g_assert_cmpstr(got, ==, want);
	g_assert_cmpint(cli_module_dir_named(&spec, &cfg), ==, c->named);
}

struct cache_case {
	gboolean no_cache;
	const char *cfg_cache; /* cache= */
	const char *env;       /* $MODALIAS_CACHE_DIR, NULL: unset */
	const char *want;      /* @DEFAULT@: root's or the user's */
};

static const struct cache_case cache_cases[] = {
	{ TRUE, "/c", "/e", NULL },
	{ FALSE, "/c", "/e", "/c" },
	{ FALSE, "", "/e", NULL },
	{ FALSE, NULL, "/e", "/e" },
	{ FALSE, NULL, "", NULL },
	{ FALSE, NULL, NULL, "@DEFAULT@" },
};

static void test_cache_dir(gconstpointer data)
{
	const struct cache_case *c = data;
	struct cli_tables_spec spec = { .no_cache = c->no_cache };
	struct cli_config cfg = { .cache = (char *)c->cfg_cache };
	g_autofree char *saved = g_strdup(g_getenv("MODALIAS_CACHE_DIR"));
	g_autofree char *dflt = geteuid() == 0 ? g_strdup("/var/cache/modalias")
					       : g_build_filename(g_get_user_cache_dir(), "modalias", NULL);
	g_autofree char *got = NULL;

	if (c->env)
		g_setenv("MODALIAS_CACHE_DIR", c->env, TRUE);
	else
		g_unsetenv("MODALIAS_CACHE_DIR");
	got = cli_cache_dir(&spec, &cfg);
	if (saved)
		g_setenv("MODALIAS_CACHE_DIR", saved, TRUE);
	else
		g_unsetenv("MODALIAS_CACHE_DIR");
	g_assert_cmpstr(got, ==, g_strcmp0(c->want, "@DEFAULT@") == 0 ? dflt : c->want);
}

static void test_modprobe_paths(void)
{
	char *conf_d[] = { (char *)"/etc/a.d", (char *)"/etc/b.conf", NULL };
	struct cli_config none_set = { 0 }, set = { .modprobe_d = conf_d };
	struct cli_tables_spec given = { .modprobe_d = (char *)"/x.conf" }, null = { .modprobe_d = (char *)"/dev/null" },
			       dflt = { 0 };
	const char *buf[2], *const *p;
	bool none;

	p = cli_modprobe_paths(&given, &set, buf, &none);
	g_assert_true(p && !g_strcmp0(p[0], "/x.conf") && !p[1] && !none);
	p = cli_modprobe_paths(&null, &set, buf, &none);
	g_assert_true(none);
	p = cli_modprobe_paths(&dflt, &set, buf, &none);
	g_assert_true(p == (const char *const *)conf_d && !none);
	p = cli_modprobe_paths(&dflt, &none_set, buf, &none);
	g_assert_true(!p && !none);
}

static void report_collect(void *data, int priority, const char *message)
{
	g_string_append_printf(data, "%d %s\n", priority, message);
}

/* A tables= file that cannot be read fails the whole (modalias), or is
 * reported and the rest used (the agent); the cache policy applies. */
static void test_tables_open(void)
{
	g_autofree char *dir = g_test_build_filename(G_TEST_DIST, "data", "linux-6.1.0-57-amd64", NULL);
	g_autofree char *cache = g_build_filename(tmpdir, "cache", NULL);
	char *tables[] = { (char *)"/nonexistent/t.alias", NULL }, *blacklist[] = { (char *)"pcspkr", NULL };
	struct cli_config cfg = { .path = (char *)"/etc/x.conf", .tables = tables, .blacklist = blacklist, .cache = cache };
	struct cli_tables_spec spec = { .moddir = dir, .modprobe_d = (char *)"/dev/null", .no_cache = TRUE };
	struct modalias_ctx *ctx = test_ctx_new();
	GString *said = g_string_new(NULL);
	g_autofree char *want = g_strdup_printf("%d /etc/x.conf: [modules] tables: a table file that cannot be read "
						"(/nonexistent/t.alias: No such file or directory)\n", LOG_ERR);
	g_autofree char *want_on = g_strdup_printf("%d /etc/x.conf: [modules] tables: a table file that cannot be read "
						   "(/nonexistent/t.alias: No such file or directory): not used\n", LOG_ERR);
	struct cli_tables t;
	struct modalias_result *res;

	g_assert_cmpint(cli_tables_open(ctx, &spec, NULL, &cfg, 0, report_collect, said, &t), ==, -ENOENT);
	g_assert_cmpstr(said->str, ==, want);
	g_assert_null(t.table);
	g_assert_null(t.dir);

	spec.no_cache = FALSE;
	for (int run = 0; run < 2; run++) {
		g_string_truncate(said, 0);
		test_log_clear();
		modalias_ctx_set_log_priority(ctx, LOG_INFO);
		g_assert_cmpint(cli_tables_open(ctx, &spec, NULL, &cfg, CLI_TABLES_GO_ON, report_collect, said, &t), ==, 0);
		g_assert_cmpstr(said->str, ==, want_on);
		g_assert_cmpstr(t.dir, ==, dir);
		g_assert_nonnull(t.table);
		g_assert_null(t.loader);
		g_assert_true(modalias_table_is_blacklisted(t.table, "pcspkr"));
		g_assert_cmpint(modalias_result_new(&res), ==, 0);
		g_assert_cmpint(modalias_table_lookup(t.table, "platform:pcspkr", res), ==, 1);
		g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "pcspkr");
		modalias_result_unref(res);
		/* the first parses the text and writes the cache; the second reads it */
		g_assert_cmpint(strstr(test_log_text(), "from this index cache") != NULL, ==, run == 1);
		cli_tables_close(&t);
	}
	g_string_free(said, TRUE);
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	int r;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("modalias-conf-XXXXXX", NULL);
	g_test_add_func("/config/good", test_good);
	g_test_add_func("/config/typos", test_typos_warned);
	g_test_add_func("/config/missing", test_missing);
	for (size_t i = 0; i < G_N_ELEMENTS(bads); i++) {
		g_autofree char *p = g_strdup_printf("/config/bad/%zu", i);
		g_test_add_data_func(p, &bads[i], test_bad);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(dir_cases); i++) {
		g_autofree char *p = g_strdup_printf("/tables/module-dir/%zu", i);
		g_test_add_data_func(p, &dir_cases[i], test_module_dir);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(cache_cases); i++) {
		g_autofree char *p = g_strdup_printf("/tables/cache-dir/%zu", i);
		g_test_add_data_func(p, &cache_cases[i], test_cache_dir);
	}
	g_test_add_func("/tables/modprobe-paths", test_modprobe_paths);
	g_test_add_func("/tables/open", test_tables_open);
	r = g_test_run();
	{
		g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			r = 1;
	}
	return r;
}
