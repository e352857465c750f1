/*
 * modalias.conf: good files, typos (warned with file:line), bad values
 * (errors with file:line), unreadable and unsafe paths.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <sys/stat.h>
#include <unistd.h>

#include "cli-config.h"
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
	r = g_test_run();
	{
		g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			r = 1;
	}
	return r;
}
