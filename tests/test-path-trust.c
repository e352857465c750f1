/*
 * shared/path-trust.c: which paths a privileged process may act on.  Each
 * row builds a small tree in a private directory (as root, with parts owned
 * by "nobody", the hostile local user), opens one path and checks the
 * result and the message naming the refused component; the write_rows
 * do the same for write_file_replace() (shared/write-file.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path-trust.h"
#include "test-common.h"
#include "write-file.h"

#define NOBODY 65534

/* The tree a row starts from: each line "d PATH MODE [nobody]",
 * "f PATH MODE [nobody]" or "l PATH TARGET [nobody]", PATH relative to the
 * row's directory; "@" in a TARGET is that directory. */
struct trust_row {
	const char *name;
	const char *tree;
	const char *open;   /* relative to the row's directory, or absolute ("/…") */
	unsigned int flags;
	int oflags;
	int want;           /* 0: a descriptor */
	const char *why;    /* a part of the message, with "@" for the directory */
	bool needs_root;    /* makes files owned by nobody */
};

static const struct trust_row rows[] = {
	{ "plain-file", "d a 755\nf a/f 644", "a/f", TRUST_REGULAR, O_RDONLY, 0, NULL, false },
	{ "plain-dir", "d a 755\nd a/b 755", "a/b", TRUST_DIRECTORY, O_RDONLY | O_DIRECTORY, 0, NULL, false },
	{ "file-group-writable", "d a 755\nf a/f 664", "a/f", 0, O_RDONLY, -EPERM,
	  "@/a/f: writable by group or others", false },
	{ "dir-world-writable", "d a 757\nf a/f 644", "a/f", 0, O_RDONLY, -EPERM,
	  "@/a: writable by group or others", false },
	{ "last-dir-sticky-refused", "d a 1777", "a", TRUST_DIRECTORY, O_RDONLY | O_DIRECTORY, -EPERM,
	  "@/a: writable by group or others", false },
	{ "sticky-ancestor-allowed", "d a 1777\nd a/b 755\nf a/b/f 644", "a/b/f", 0, O_RDONLY, 0, NULL, false },
	{ "file-of-nobody", "d a 755\nf a/f 644 nobody", "a/f", 0, O_RDONLY, -EPERM,
	  "@/a/f: not owned by root", true },
	{ "dir-of-nobody", "d a 755 nobody\nd a/b 755\nf a/b/f 644", "a/b/f", 0, O_RDONLY, -EPERM,
	  "@/a: not owned by root", true },
	{ "last-symlink-refused", "d a 755\nf a/f 644\nl a/l f", "a/l", 0, O_RDONLY, -ELOOP,
	  "@/a/l: a symlink", false },
	{ "last-symlink-followed", "d a 755\nf a/f 644\nl a/l f", "a/l", TRUST_FOLLOW | TRUST_REGULAR,
	  O_RDONLY, 0, NULL, false },
	{ "symlink-to-untrusted-dir", "d a 755\nd evil 777\nf evil/f 755\nl a/l ../evil/f", "a/l",
	  TRUST_FOLLOW, O_RDONLY, -EPERM, "@/evil: writable by group or others", false },
	{ "absolute-symlink-checked", "d a 755\nd evil 755 nobody\nf evil/f 755\nl a/l @/evil/f", "a/l",
	  TRUST_FOLLOW, O_RDONLY, -EPERM, "@/evil: not owned by root", true },
	{ "dir-symlink-in-middle", "d a 755\nd real 755\nf real/f 644\nl a/d ../real", "a/d/f", 0,
	  O_RDONLY, 0, NULL, false },
	{ "symlink-of-nobody-in-sticky", "d t 1777\nd real 755\nf real/f 644\nl t/d ../real nobody", "t/d/f",
	  0, O_RDONLY, -EPERM, "@/t/d: a symlink made by another user in a shared directory", true },
	{ "symlink-of-nobody-in-group-sticky", "d t 1775\nd real 755\nf real/f 644\nl t/d ../real nobody",
	  "t/d/f", 0, O_RDONLY, -EPERM, "@/t/d: a symlink made by another user in a shared directory", true },
	{ "symlink-of-root-in-group-sticky", "d t 1775\nd real 755\nf real/f 644\nl t/d ../real", "t/d/f", 0,
	  O_RDONLY, 0, NULL, false },
	{ "symlink-loop", "d a 755\nl a/x y\nl a/y x", "a/x/f", 0, O_RDONLY, -ELOOP, "Too many levels", false },
	{ "dotdot-walked", "d a 755\nd b 755\nf b/f 644", "a/../b/f", 0, O_RDONLY, 0, NULL, false },
	{ "dotdot-above-root", "", "/../../../etc", TRUST_DIRECTORY, O_RDONLY | O_DIRECTORY, 0, NULL, false },
	{ "missing", "d a 755", "a/none", 0, O_RDONLY, -ENOENT, "@/a/none: No such file or directory", false },
	{ "file-in-middle", "d a 755\nf a/f 644", "a/f/g", 0, O_RDONLY, -ENOTDIR, "@/a/f: Not a directory", false },
	{ "not-regular", "d a 755\nd a/b 755", "a/b", TRUST_REGULAR, O_RDONLY, -EISDIR, "@/a/b: a directory", false },
	{ "fifo-not-regular", "d a 755\np a/p 644", "a/p", TRUST_REGULAR, O_RDONLY | O_NONBLOCK, -EINVAL,
	  "@/a/p: not a regular file", false },
};

static char *expand(const char *s, const char *dir)
{
	g_auto(GStrv) parts = g_strsplit(s, "@", -1);

	return g_strjoinv(dir, parts);
}

static void build_tree(const char *dir, const char *tree)
{
	g_auto(GStrv) lines = g_strsplit(tree, "\n", -1);

	for (char **l = lines; *l && **l; l++) {
		g_auto(GStrv) w = g_strsplit(*l, " ", -1);
		g_autofree char *path = g_build_filename(dir, w[1], NULL);
		bool nobody = w[3] && strcmp(w[3], "nobody") == 0;
		unsigned int mode = (unsigned int)strtoul(w[2], NULL, 8);

		switch (w[0][0]) {
		case 'd':
			g_assert_cmpint(mkdir(path, 0700), ==, 0);
			g_assert_cmpint(chmod(path, mode), ==, 0);
			break;
		case 'f':
			g_assert_true(g_file_set_contents(path, "x\n", -1, NULL));
			g_assert_cmpint(chmod(path, mode), ==, 0);
			break;
		case 'p':
			g_assert_cmpint(mkfifo(path, mode), ==, 0);
			g_assert_cmpint(chmod(path, mode), ==, 0);
			break;
		case 'l': {
			g_autofree char *target = expand(w[2], dir);

			g_assert_cmpint(symlink(target, path), ==, 0);
			break;
		}
		default:
			g_assert_not_reached();
		}
		if (nobody)
			g_assert_cmpint(lchown(path, NOBODY, NOBODY), ==, 0);
	}
}

static void remove_tree(const char *dir)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);

	g_assert_cmpint(system(cmd), ==, 0);
}

static void test_row(gconstpointer data)
{
	const struct trust_row *row = data;
	g_autofree char *dir = g_dir_make_tmp("trust-XXXXXX", NULL);
	g_autofree char *path = NULL, *want_why = NULL;
	struct trust_why why = { { 0 } };
	int fd;

	if (row->needs_root && geteuid() != 0) {
		g_test_skip("needs root, to give files to another user");
		return;
	}
	g_assert_nonnull(dir);
	build_tree(dir, row->tree);
	path = row->open[0] == '/' ? g_strdup(row->open) : g_build_filename(dir, row->open, NULL);
	fd = trust_open(path, row->oflags, row->flags, &why);
	if (row->want == 0) {
		if (fd < 0)
			g_error("%s: %s", row->name, why.text);
		close(fd);
	} else {
		g_assert_cmpint(fd, ==, row->want);
		want_why = expand(row->why, dir);
		if (!strstr(why.text, want_why))
			g_error("%s: wanted '%s' in '%s'", row->name, want_why, why.text);
	}
	remove_tree(dir);
}

/* A relative path: the working directory's own ancestors are walked too. */
static void test_relative(void)
{
	g_autofree char *dir = g_dir_make_tmp("trust-XXXXXX", NULL);
	g_autofree char *old = g_get_current_dir();
	struct trust_why why;
	int fd;

	build_tree(dir, "d a 755\nf a/f 644\nd w 777\nf w/f 644");
	g_assert_cmpint(chdir(dir), ==, 0);
	fd = trust_open("a/f", O_RDONLY, 0, &why);
	g_assert_cmpint(fd, >=, 0);
	close(fd);
	g_assert_cmpint(chdir("w"), ==, 0);
	g_assert_cmpint(trust_open("f", O_RDONLY, 0, &why), ==, -EPERM);
	g_assert_true(g_str_has_suffix(why.text, "/w: writable by group or others"));
	g_assert_cmpint(chdir(old), ==, 0);
	remove_tree(dir);
}

/* trust_openat: a name inside a checked directory; never a symlink. */
static void test_openat(void)
{
	g_autofree char *dir = g_dir_make_tmp("trust-XXXXXX", NULL);
	struct trust_why why;
	int dfd, fd;

	build_tree(dir, "f f 644\nf g 666\nl l f");
	dfd = trust_open(dir, O_PATH | O_DIRECTORY, TRUST_DIRECTORY, &why);
	g_assert_cmpint(dfd, >=, 0);
	fd = trust_openat(dfd, dir, "f", O_RDONLY, TRUST_REGULAR, &why);
	g_assert_cmpint(fd, >=, 0);
	close(fd);
	g_assert_cmpint(trust_openat(dfd, dir, "g", O_RDONLY, 0, &why), ==, -EPERM);
	g_assert_true(g_str_has_suffix(why.text, "/g: writable by group or others"));
	g_assert_cmpint(trust_openat(dfd, dir, "l", O_RDONLY, TRUST_FOLLOW, &why), ==, -ELOOP);
	g_assert_cmpint(trust_openat(dfd, dir, "../f", O_RDONLY, 0, &why), ==, -EINVAL);
	g_assert_cmpint(trust_openat(dfd, dir, "..", O_RDONLY, 0, &why), ==, -EINVAL);
	close(dfd);
	remove_tree(dir);
}

/* write_file_replace() (shared/write-file.c): each row a tree, a path
 * written, and where the bytes land (or the refusal, the tree unchanged). */
struct write_row {
	const char *name;
	const char *tree;
	const char *path;    /* relative to the row's directory */
	int want;
	const char *lands;   /* the file that then holds the bytes (want 0) */
	const char *why;     /* a part of the message (want < 0), "@": the directory */
	bool needs_root;
};

static const struct write_row write_rows[] = {
	{ "new-file", "d a 755", "a/f", 0, "a/f", NULL, false },
	{ "replaces-file", "d a 755\nf a/f 600", "a/f", 0, "a/f", NULL, false },
	{ "root-symlink-followed", "d a 755\nd b 755\nf b/f 644\nl a/l ../b/f", "a/l", 0, "b/f", NULL, false },
	{ "dangling-root-symlink-followed", "d a 755\nd b 755\nl a/l ../b/new", "a/l", 0, "b/new", NULL, false },
	{ "nobody-symlink-in-sticky", "d t 1777\nf secret 600\nl t/l ../secret nobody", "t/l", -EPERM, NULL,
	  "@/t/l: a symlink made by another user in a shared directory", true },
	{ "nobody-symlink-in-group-sticky", "d t 1775\nf secret 600\nl t/l ../secret nobody", "t/l", -EPERM, NULL,
	  "@/t/l: a symlink made by another user in a shared directory", true },
	/* /tmp: a new file made there and renamed will do; another user's file
	 * at the name is never replaced; a shared directory that is not
	 * sticky is never written to */
	{ "sticky-dir-new-file", "d t 1777", "t/f", 0, "t/f", NULL, false },
	{ "sticky-dir-replaces-own", "d t 1777\nf t/f 600", "t/f", 0, "t/f", NULL, false },
	{ "sticky-dir-file-of-nobody-refused", "d t 1777\nf t/f 644 nobody", "t/f", -EPERM, NULL,
	  "@/t/f: not owned by root", true },
	{ "shared-dir-refused", "d t 777", "t/f", -EPERM, NULL, "@/t: writable by group or others", false },
	{ "fifo-refused", "d a 755\np a/p 644", "a/p", -EINVAL, NULL, "not a regular file", false },
	{ "dir-refused", "d a 755\nd a/d 755", "a/d", -EISDIR, NULL, "a directory", false },
	{ "file-of-nobody-refused", "d a 755\nf a/f 644 nobody", "a/f", -EPERM, NULL, "@/a/f: not owned by root", true },
	{ "dir-of-nobody-refused", "d a 755 nobody", "a/f", -EPERM, NULL, "@/a: not owned by root", true },
	{ "missing-dir", "", "a/f", -ENOENT, NULL, "@/a: No such file or directory", false },
};

static void test_write_row(gconstpointer data)
{
	const struct write_row *row = data;
	g_autofree char *dir = g_dir_make_tmp("trust-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, row->path, NULL);
	g_autofree char *cmd = g_strdup_printf("find '%s' -name '.*' | grep -q .", dir);
	g_autofree char *before = NULL, *after = NULL, *list = g_strdup_printf("ls -lR '%s'", dir);
	struct trust_why why = { { 0 } };
	int r;

	if (row->needs_root && geteuid() != 0) {
		g_test_skip("needs root, to give files to another user");
		return;
	}
	build_tree(dir, row->tree);
	g_assert_true(g_spawn_command_line_sync(list, &before, NULL, NULL, NULL));
	r = write_file_replace(path, "new\n", 4, 0644, &why);
	g_assert_cmpint(r, ==, row->want);
	if (r == 0) {
		g_autofree char *lands = g_build_filename(dir, row->lands, NULL), *got = NULL;
		struct stat st;

		g_assert_true(g_file_get_contents(lands, &got, NULL, NULL));
		g_assert_cmpstr(got, ==, "new\n");
		g_assert_cmpint(lstat(path, &st), ==, 0);
		/* a symlink stays one */
		g_assert_true(S_ISLNK(st.st_mode) == (strcmp(row->path, row->lands) != 0));
	} else {
		g_autofree char *want_why = expand(row->why, dir);

		if (!strstr(why.text, want_why))
			g_error("%s: wanted '%s' in '%s'", row->name, want_why, why.text);
		/* nothing changed, not even a time */
		g_assert_true(g_spawn_command_line_sync(list, &after, NULL, NULL, NULL));
		g_assert_cmpstr(after, ==, before);
	}
	/* no temporary file left */
	g_assert_cmpint(system(cmd), !=, 0);
	remove_tree(dir);
}

/* The temporary file's name cannot be foretold: names another user made
 * first in a shared directory (the old ".NAME.PID-N", N up to 999, for
 * this very process) do not make the write give up. */
static void test_write_names_taken(void)
{
	g_autofree char *dir = g_dir_make_tmp("trust-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "f", NULL), *got = NULL;
	struct trust_why why = { { 0 } };
	char name[64];

	g_assert_cmpint(chmod(dir, 01777), ==, 0);
	for (int i = 0; i < 1000; i++) {
		g_autofree char *taken = NULL;

		snprintf(name, sizeof(name), ".f.%ld-%d", (long)getpid(), i);
		taken = g_build_filename(dir, name, NULL);
		g_assert_true(g_file_set_contents(taken, "", 0, NULL));
	}
	g_assert_cmpint(write_file_replace(path, "new\n", 4, 0644, &why), ==, 0);
	g_assert_true(g_file_get_contents(path, &got, NULL, NULL));
	g_assert_cmpstr(got, ==, "new\n");
	/* the names taken are left; no temporary file of ours beside them */
	{
		g_autofree char *cmd = g_strdup_printf("test $(find '%s' -name '.f.*' | wc -l) -eq 1000", dir);

		g_assert_cmpint(system(cmd), ==, 0);
	}
	remove_tree(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *name = g_strdup_printf("/path-trust/%s", rows[i].name);

		g_test_add_data_func(name, &rows[i], test_row);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(write_rows); i++) {
		g_autofree char *name = g_strdup_printf("/write-file/%s", write_rows[i].name);

		g_test_add_data_func(name, &write_rows[i], test_write_row);
	}
	g_test_add_func("/path-trust/relative", test_relative);
	g_test_add_func("/path-trust/openat", test_openat);
	g_test_add_func("/write-file/names-taken", test_write_names_taken);
	return g_test_run();
}
