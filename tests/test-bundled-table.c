/*
 * shared/bundled-table.h: the bundled table a front end falls back on is
 * the source tree's only when its modules.alias passes the trust walk: a
 * build tree of another user (a package built in /tmp or a home, the
 * installed copy missing) is never root's table, whose modules.dep would
 * name that user's modules for `modalias load` to insert.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test-common.h"

#define NOBODY 65534

static char source_dir[PATH_MAX];
#define BUNDLED_MODDIR "/nonexistent/libmodalias/linux-6.1.0-57-amd64"
#define SOURCE_MODDIR source_dir
#include "bundled-table.h"

struct row {
	const char *name;
	const char *chown_nobody; /* below the build tree, or NULL */
	const char *chmod;        /* below the build tree, or NULL */
	mode_t mode;
	bool no_alias;
	bool found;
	bool needs_root;
};

static const struct row rows[] = {
	{ "own-tree", NULL, NULL, 0, false, true, false },
	{ "another-users-tree", ".", NULL, 0, false, false, true },
	{ "another-users-table-dir", "tests/linux", NULL, 0, false, false, true },
	{ "another-users-modules-alias", "tests/linux/modules.alias", NULL, 0, false, false, true },
	{ "group-writable-tree", NULL, ".", 0775, false, false, false },
	{ "world-writable-modules-alias", NULL, "tests/linux/modules.alias", 0666, false, false, false },
	{ "no-modules-alias", NULL, NULL, 0, true, false, false },
};

static void test_row(gconstpointer data)
{
	const struct row *r = data;
	g_autofree char *tmp = g_dir_make_tmp("bundled-XXXXXX", NULL);
	g_autofree char *build = g_build_filename(tmp, "build", NULL);
	g_autofree char *table = g_build_filename(build, "tests", "linux", NULL);
	g_autofree char *alias = g_build_filename(table, "modules.alias", NULL);
	g_autofree char *cmd = NULL;
	const char *got;

	if (r->needs_root && geteuid() != 0) {
		g_test_skip("needs root: makes files owned by nobody");
		return;
	}
	g_assert_nonnull(tmp);
	g_assert_cmpint(chmod(tmp, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(table, 0755), ==, 0);
	g_assert_cmpint(chmod(build, 0755), ==, 0);
	if (!r->no_alias) {
		g_assert_true(g_file_set_contents(alias, "alias pci:v00008086d000010D3sv*sd*bc*sc*i* e1000e\n", -1, NULL));
		g_assert_cmpint(chmod(alias, 0644), ==, 0);
	}
	if (r->chown_nobody) {
		g_autofree char *p = g_build_filename(build, r->chown_nobody, NULL);
		g_assert_cmpint(chown(p, NOBODY, NOBODY), ==, 0);
	}
	if (r->chmod) {
		g_autofree char *p = g_build_filename(build, r->chmod, NULL);
		g_assert_cmpint(chmod(p, r->mode), ==, 0);
	}
	g_assert_cmpuint(strlen(table), <, sizeof(source_dir));
	strcpy(source_dir, table);
	got = bundled_table_dir();
	if (r->found)
		g_assert_cmpstr(got, ==, table);
	else
		g_assert_null(got);
	cmd = g_strdup_printf("rm -rf '%s'", tmp);
	g_assert_cmpint(system(cmd), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *path = g_strdup_printf("/bundled-table/%s", rows[i].name);
		g_test_add_data_func(path, &rows[i], test_row);
	}
	return g_test_run();
}
