/*
 * Loading modules through libkmod, against a stand-in kernel
 * (tests/shim/fake-kernel.so, preloaded: this program re-executes itself
 * with it) and the synthetic module tree of tests/data/load/: dependency
 * order, softdeps, blacklists, builtin, already loaded, failures, install
 * commands, dry runs identical to "modprobe -n -v", modules that do not
 * exist, and names that are not module names (never given to libkmod).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>
#include <utime.h>

#include "test-common.h"

#define FIXTURE_VERSION "9.9.9-test"

static char *fixture_root;   /* tests/data/load */
static char *moddir;         /* …/lib/modules/9.9.9-test */
static char *confdir;        /* …/modprobe.d */

struct record {
	GString *log;      /* "state module detail err\n" */
	GString *modprobe; /* the same, as modprobe -n -v prints it */
};

static const char *err_name(int err)
{
	switch (err) {
	case 0:
		return "";
	case -ENODEV:
		return " ENODEV";
	case -ENOENT:
		return " ENOENT";
	case -EINVAL:
		return " EINVAL";
	case -ENAMETOOLONG:
		return " ENAMETOOLONG";
	default:
		return " ERR";
	}
}

static void on_module(void *data, const char *module, const char *detail, const char *options,
		      enum modalias_load_state state, int err)
{
	struct record *rec = data;

	g_string_append_printf(rec->log, "%s %s%s%s%s\n", modalias_load_state_name(state), module,
			       *detail ? " " : "", detail, err_name(err));
	/* what modprobe -n -v prints */
	if (state == MODALIAS_LOAD_WOULD_INSERT)
		g_string_append_printf(rec->modprobe, "insmod %s %s\n", detail, options);
	else if (state == MODALIAS_LOAD_COMMAND)
		g_string_append_printf(rec->modprobe, "install %s %s\n", detail, options);
}

/* A fresh fake kernel: nothing loaded but what the test says. */
static char *fake_kernel(void)
{
	char *root = g_dir_make_tmp("modalias-kernel-XXXXXX", NULL);
	g_autofree char *sysmod = g_build_filename(root, "sys", "module", NULL);

	g_assert_cmpint(g_mkdir_with_parents(sysmod, 0755), ==, 0);
	g_setenv("FAKE_KERNEL_ROOT", root, TRUE);
	g_unsetenv("FAKE_KERNEL_FAIL");
	return root;
}

static char *inserted(const char *root)
{
	g_autofree char *path = g_build_filename(root, "inserted", NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return g_strdup("");
	return text;
}

struct env {
	struct modalias_ctx *ctx;
	struct modalias_table *table;
	struct modalias_loader *loader;
	char *kernel;
};

/* The fixture's modprobe.d and, when not NULL, one more file. */
static void env_setup_with(struct env *e, const char *extra_conf)
{
	const char *conf[] = { confdir, extra_conf, NULL };

	e->kernel = fake_kernel();
	e->ctx = test_ctx_new();
	g_assert_cmpint(modalias_table_new_from_directory(e->ctx, moddir, &e->table), ==, 0);
	g_assert_cmpint(modalias_table_load_config(e->table, conf), ==, 0);
	g_assert_cmpint(modalias_loader_new(e->ctx, moddir, conf, &e->loader), ==, 0);
}

static void env_setup(struct env *e)
{
	env_setup_with(e, NULL);
}

static void env_teardown(struct env *e)
{
	modalias_loader_unref(e->loader);
	modalias_table_unref(e->table);
	modalias_ctx_unref(e->ctx);
	test_rm_rf(e->kernel);
	g_free(e->kernel);
}

static char *load_as(struct env *e, const char *alias, unsigned int flags, int *ret, char **modprobe)
{
	struct record rec = { g_string_new(NULL), g_string_new(NULL) };

	*ret = modalias_loader_load(e->loader, e->table, alias, flags, on_module, &rec);
	if (modprobe)
		*modprobe = g_string_free(rec.modprobe, FALSE);
	else
		g_string_free(rec.modprobe, TRUE);
	return g_string_free(rec.log, FALSE);
}

static char *load(struct env *e, const char *alias, unsigned int flags, int *ret)
{
	return load_as(e, alias, flags, ret, NULL);
}

static char *path_of(const char *name)
{
	return g_build_filename(moddir, "kernel", "test", name, NULL);
}

static void test_dependencies(void)
{
	struct env e;
	g_autofree char *log = NULL, *again = NULL, *ins = NULL;
	g_autofree char *a = path_of("mod_a.ko"), *b = path_of("mod_b.ko"), *c = path_of("mod_c.ko");
	g_autofree char *want = g_strdup_printf("inserted mod_c %s\ninserted mod_b %s\ninserted mod_a %s\n", c, b, a);
	int r;

	env_setup(&e);
	log = load(&e, "test:dev:abc", 0, &r);
	g_assert_cmpint(r, ==, 3);
	g_assert_cmpstr(log, ==, want);
	ins = inserted(e.kernel);
	g_assert_cmpstr(ins, ==, "mod_c\nmod_b\nmod_a\n");
	/* the second time, it is there */
	again = load(&e, "test:dev:abc", 0, &r);
	g_assert_cmpint(r, ==, 0);
	g_assert_cmpstr(again, ==, "already loaded mod_a\n");
	env_teardown(&e);
}

static void test_softdeps_and_multi(void)
{
	struct env e;
	g_autofree char *log = NULL, *ins = NULL, *multi = NULL;
	int r;

	env_setup(&e);
	log = load(&e, "test:dev:soft", 0, &r);
	g_assert_cmpint(r, ==, 3);
	ins = inserted(e.kernel);
	g_assert_cmpstr(ins, ==, "mod_pre\nmod_soft\nmod_post\n");
	/* two modules for one alias, in modules.order order; ours blacklists one */
	g_assert_cmpint(modalias_loader_add_blacklist(e.loader, "mod-x"), ==, 0);
	multi = load(&e, "test:dev:multi", 0, &r);
	g_assert_true(g_str_has_suffix(multi, "mod_a.ko\nblacklisted mod_x\n"));
	g_assert_nonnull(strstr(multi, "inserted mod_c "));
	env_teardown(&e);
}

static void test_blacklist_live_builtin_command(void)
{
	struct env e;
	g_autofree char *black = NULL, *live = NULL, *builtin = NULL, *cmd = NULL, *ins = NULL;
	g_autofree char *livedir = NULL, *livestate = NULL;
	int r;

	env_setup(&e);
	livedir = g_build_filename(e.kernel, "sys", "module", "mod_live", NULL);
	livestate = g_build_filename(livedir, "initstate", NULL);
	g_assert_cmpint(g_mkdir_with_parents(livedir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(livestate, "live\n", -1, NULL));

	black = load(&e, "test:dev:black", 0, &r);
	g_assert_cmpint(r, ==, 0);
	g_assert_cmpstr(black, ==, "blacklisted mod_black\n");
	live = load(&e, "test:dev:live", 0, &r);
	g_assert_cmpstr(live, ==, "already loaded mod_live\n");
	builtin = load(&e, "test:dev:builtin", 0, &r);
	g_assert_cmpstr(builtin, ==, "builtin mod_builtin\n");
	cmd = load(&e, "test:dev:cmd", 0, &r);
	g_assert_cmpstr(cmd, ==, "install command mod_cmd /bin/true\n");
	ins = inserted(e.kernel);
	g_assert_cmpstr(ins, ==, "");
	env_teardown(&e);
}

static void test_failures(void)
{
	struct env e;
	g_autofree char *fail = NULL, *needs = NULL, *ins = NULL;
	g_autofree char *f = path_of("mod_fail.ko");
	g_autofree char *want = g_strdup_printf("failed mod_fail %s ENODEV\n", f);
	int r;

	env_setup(&e);
	g_setenv("FAKE_KERNEL_FAIL", "mod_fail:19", TRUE);
	fail = load(&e, "test:dev:fail", 0, &r);
	g_assert_cmpint(r, ==, -ENODEV);
	g_assert_cmpstr(fail, ==, want);
	/* a dependency that fails stops its dependent */
	needs = load(&e, "test:dev:needsfail", 0, &r);
	g_assert_cmpint(r, ==, -ENODEV);
	g_assert_cmpstr(needs, ==, want);
	ins = inserted(e.kernel);
	g_assert_cmpstr(ins, ==, "");
	env_teardown(&e);
}

/* A dry run says, module for module, what "modprobe -n -v" says. */
static void test_dry_run_like_modprobe(void)
{
	static const char *const aliases[] = {
		"test:dev:abc", "test:dev:soft", "test:dev:opt", "test:dev:multi", "test:dev:cmd",
		"test:dev:dash", "test:dev:needsfail", "test:dev:black", "test:dev:nothing",
	};
	struct env e;

	env_setup(&e);
	for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++) {
		g_autofree char *out = NULL, *errout = NULL, *log = NULL;
		const char *argv[] = { "modprobe", "-n", "-v", "-d", fixture_root, "-S", FIXTURE_VERSION, "-C", confdir,
				       aliases[i], NULL };
		g_autofree char *ours = NULL;
		int status, r;

		if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &errout,
				  &status, NULL))
			g_error("cannot run modprobe");
		log = load_as(&e, aliases[i], MODALIAS_LOAD_DRY_RUN, &r, &ours);
		g_assert_cmpint(r, >=, 0);
		if (strcmp(ours, out) != 0)
			g_error("%s: modprobe -n -v says\n%s\nlibmodalias says\n%s", aliases[i], out, ours);
	}
	{
		g_autofree char *ins = inserted(e.kernel);
		g_assert_cmpstr(ins, ==, "");
	}
	env_teardown(&e);
}

/* Names that are not module names never reach libkmod: a 5000-byte one
 * smashed its stack (kmod_module_get_initstate() of kmod 30 writes past a
 * PATH_MAX buffer), and "/etc/passwd", "", "a/b" would insert; a module
 * that does not exist is "not found" (modprobe: "Module X not found"). */
static void test_module_names(void)
{
	static const struct {
		const char *name; /* NULL: len times 'x' */
		size_t len;
		int err;
	} rows[] = {
		{ NULL, 5000, -ENAMETOOLONG },
		{ NULL, PATH_MAX - 3, -ENAMETOOLONG },
		{ NULL, NAME_MAX + 1, -ENAMETOOLONG },
		{ "/etc/passwd", 0, -EINVAL },
		{ "a/b", 0, -EINVAL },
		{ "../mod_a", 0, -EINVAL },
		{ "", 0, -EINVAL },
		{ ".", 0, -EINVAL },
		{ ".ko", 0, -EINVAL },
		{ "mod_a\nlibmodalias: forged", 0, -EINVAL },
		{ "mod\x7f", 0, -EINVAL },
		{ NULL, NAME_MAX, -ENOENT }, /* a name, of no module */
		{ "nosuchmod", 0, -ENOENT },
	};
	struct env e;

	env_setup(&e);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *name = rows[i].name ? g_strdup(rows[i].name) : g_strnfill(rows[i].len, 'x');
		g_autofree char *want = NULL;

		for (unsigned int flags = 0; flags <= MODALIAS_LOAD_DRY_RUN; flags += MODALIAS_LOAD_DRY_RUN) {
			struct record rec = { g_string_new(NULL), g_string_new(NULL) };
			int r;

			test_log_clear();
			r = modalias_loader_load_module(e.loader, name, flags, on_module, &rec);
			g_assert_cmpint(r, ==, rows[i].err);
			if (rows[i].err == -ENOENT) {
				/* reported through the callback, as modprobe reports it */
				want = g_strdup_printf("not found %s ENOENT\n", name);
				g_assert_cmpstr(rec.log->str, ==, want);
				g_clear_pointer(&want, g_free);
			} else {
				/* refused before libkmod: nothing reported, the reason logged */
				g_assert_cmpstr(rec.log->str, ==, "");
				g_assert_nonnull(strstr(test_log_text(), "is not a module name"));
				g_assert_null(strchr(test_log_text(), '\x7f'));
			}
			g_string_free(rec.log, TRUE);
			g_string_free(rec.modprobe, TRUE);
		}
		/* every function taking a module name refuses the same */
		g_assert_cmpint(modalias_loader_add_blacklist(e.loader, name), ==,
				rows[i].err == -ENOENT ? 0 : rows[i].err);
	}
	{
		g_autofree char *ins = inserted(e.kernel);
		g_assert_cmpstr(ins, ==, "");
	}
	/* what libkmod takes as a module name still works */
	g_assert_cmpint(modalias_loader_load_module(e.loader, "mod-b", MODALIAS_LOAD_DRY_RUN, NULL, NULL), ==, 2);
	g_assert_cmpint(modalias_loader_load_module(e.loader, "mod_a.ko", MODALIAS_LOAD_DRY_RUN, NULL, NULL), ==, 3);
	g_assert_cmpint(modalias_loader_add_blacklist(e.loader, "mod-c.ko"), ==, 0);
	g_assert_cmpint(modalias_loader_load_module(e.loader, "mod_c", MODALIAS_LOAD_DRY_RUN, NULL, NULL), ==, 0);
	env_teardown(&e);
}

/* A modprobe.d alias to a module that does not exist: modprobe -n -v
 * prints nothing for it (its real run fails "could not insert"); the dry
 * run reports it "not found", never "would insert" with an empty path. */
static void test_missing_modules(void)
{
	static const struct {
		const char *alias;
		int dry_ret, ret;
		const char *dry_log, *log; /* "@" is the fixture's module directory */
	} rows[] = {
		{ "test:dev:missing", -ENOENT, -ENOENT, "not found nosuchmod ENOENT\n", "not found nosuchmod ENOENT\n" },
		/* a path is no module name: the table refuses the line as it reads
		 * the configuration, so nothing reaches the loader or libkmod */
		{ "test:dev:slash", 0, 0, "", "" },
		/* a softdep that is an alias to no module: kmod goes on without it */
		{ "test:dev:opt", 1, 1, "not found nosuchsoft ENOENT\nwould insert mod_opt @/kernel/test/mod_opt.ko\n",
		  "not found nosuchsoft ENOENT\ninserted mod_opt @/kernel/test/mod_opt.ko\n" },
	};
	g_autofree char *tmp = g_dir_make_tmp("modalias-conf-XXXXXX", NULL);
	g_autofree char *extra = g_build_filename(tmp, "missing.conf", NULL);
	struct env e;

	g_assert_true(g_file_set_contents(extra,
					  "alias test:dev:missing nosuchmod\n"
					  "alias test:dev:slash a/b\n"
					  /* (kmod drops a softdep it cannot look up: an alias to none) */
					  "alias softalias nosuchsoft\n"
					  "softdep mod_opt pre: softalias\n",
					  -1, NULL));
	env_setup_with(&e, extra);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		const char *argv[] = { "modprobe", "-n", "-v", "-d", fixture_root, "-S", FIXTURE_VERSION, "-C", confdir,
				       "-C", extra, rows[i].alias, NULL };
		g_autofree char *out = NULL, *errout = NULL, *ours = NULL, *dry = NULL, *real = NULL;
		g_autofree char *want_dry = NULL, *want = NULL;
		g_auto(GStrv) parts = NULL;
		int status, r;

		parts = g_strsplit(rows[i].dry_log, "@", -1);
		want_dry = g_strjoinv(moddir, parts);
		g_strfreev(g_steal_pointer(&parts));
		parts = g_strsplit(rows[i].log, "@", -1);
		want = g_strjoinv(moddir, parts);

		dry = load_as(&e, rows[i].alias, MODALIAS_LOAD_DRY_RUN, &r, &ours);
		g_assert_cmpint(r, ==, rows[i].dry_ret);
		g_assert_cmpstr(dry, ==, want_dry);
		if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &errout,
				  &status, NULL))
			g_error("cannot run modprobe");
		if (strcmp(ours, out) != 0)
			g_error("%s: modprobe -n -v says\n%s\nlibmodalias says\n%s", rows[i].alias, out, ours);
		real = load(&e, rows[i].alias, 0, &r);
		g_assert_cmpint(r, ==, rows[i].ret);
		g_assert_cmpstr(real, ==, want);
	}
	{
		g_autofree char *ins = inserted(e.kernel);
		g_assert_cmpstr(ins, ==, "mod_opt\n");
	}
	env_teardown(&e);
	test_rm_rf(tmp);
}

/* A failed insert is reported once: through the callback (state and errno),
 * which the caller logs; the library's own line for it is at LOG_INFO. */
struct log_count {
	unsigned int errors, infos; /* lines naming mod_fail, by priority */
};

static void count_log(void *data, int priority, const char *file, int line, const char *fn,
		      const char *format, va_list args)
{
	struct log_count *c = data;
	g_autofree char *msg = g_strdup_vprintf(format, args);

	if (!strstr(msg, "mod_fail"))
		return;
	if (priority <= LOG_WARNING)
		c->errors++;
	else if (priority == LOG_INFO)
		c->infos++;
}

static void test_failure_logged_once(void)
{
	struct log_count c = { 0 };
	struct env e;
	g_autofree char *log = NULL, *f = path_of("mod_fail.ko");
	g_autofree char *want = g_strdup_printf("failed mod_fail %s ENODEV\n", f);
	int r;

	env_setup(&e);
	modalias_ctx_set_log_fn(e.ctx, count_log, &c);
	modalias_ctx_set_log_priority(e.ctx, LOG_INFO);
	g_setenv("FAKE_KERNEL_FAIL", "mod_fail:19", TRUE);
	log = load(&e, "test:dev:fail", 0, &r);
	g_assert_cmpint(r, ==, -ENODEV);
	/* once for the caller to log … */
	g_assert_cmpstr(log, ==, want);
	/* … and not at error level by the library too */
	g_assert_cmpuint(c.errors, ==, 0);
	g_assert_cmpuint(c.infos, ==, 1);
	env_teardown(&e);
}

static void test_revalidate(void)
{
	/* on a copy: the fixture may be read-only (make distcheck) */
	g_autofree char *tmp = g_dir_make_tmp("modalias-moddir-XXXXXX", NULL);
	g_autofree char *copy = g_strdup_printf("cp -r '%s/.' '%s'", moddir, tmp);
	g_autofree char *bin = g_build_filename(tmp, "modules.dep.bin", NULL);
	struct utimbuf later = { .actime = time(NULL) + 100, .modtime = time(NULL) + 100 };
	const char *none[] = { NULL };
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_loader *loader;

	g_assert_cmpint(system(copy), ==, 0);
	g_assert_cmpint(modalias_loader_new(ctx, tmp, none, &loader), ==, 0);
	g_assert_cmpint(modalias_loader_revalidate(loader), ==, 0);
	g_assert_cmpint(utime(bin, &later), ==, 0);
	g_assert_cmpint(modalias_loader_revalidate(loader), ==, 1);
	g_assert_cmpint(modalias_loader_revalidate(loader), ==, 0);
	modalias_loader_unref(loader);
	modalias_ctx_unref(ctx);
	test_rm_rf(tmp);
}

/* TABLE answers test:dev:named with mod_a: the named configuration's alias was read */
static void assert_named_alias(struct modalias_table *table)
{
	struct modalias_result *res;

	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	g_assert_cmpint(modalias_table_lookup(table, "test:dev:named", res), ==, 1);
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "mod_a");
	modalias_result_unref(res);
}

/* NAME set back to SAVED, or unset when it had no value */
static void restore_env(const char *name, const char *saved)
{
	if (saved)
		g_setenv(name, saved, TRUE);
	else
		g_unsetenv(name);
}

/* A modprobe configuration named by the caller is read by the library
 * first and handed to libkmod as a checked copy: libkmod prints the first
 * word of a line it cannot parse, and the file's name, before any log
 * function can be set, and opens whatever it lists (a FIFO hangs it). */
struct named_config_row {
	const char *name;
	const char *file;    /* in the directory named */
	const char *text;    /* its text; NULL: see link / fifo */
	size_t len;          /* of text (it may hold NULs); 0: strlen */
	const char *link;    /* a symlink to this instead */
	bool fifo;
	int want;            /* of loader_new and table_load_config */
	const char *logged;  /* a line of the log (after the directory), or NULL */
};

static void test_named_config_checked(void)
{
	static char big[(1 << 20) + 2];
	const struct named_config_row rows[] = {
		{ "good", "a.conf", "alias test:dev:named mod_a\n", 0, NULL, false, 0, NULL },
		{ "escape-first-word", "a.conf", "\033]0;pwned\007\033[31mEVIL x\nalias test:dev:named mod_a\n", 0, NULL,
		  false, -EBADMSG, "/a.conf line 1: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word: libkmod would print it as it is" },
		{ "c1-first-word", "a.conf", "# ok\n  \302\233" "31mEVIL x\n", 0, NULL, false, -EBADMSG,
		  "/a.conf line 2: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word: libkmod would print it as it is" },
		{ "crlf-blank-line", "a.conf", "alias test:dev:named mod_a\r\n\r\n", 0, NULL, false, -EBADMSG,
		  "/a.conf line 2: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word: libkmod would print it as it is" },
		/* lines as libkmod reads them: a backslash joins the next line on,
		 * whose '#' is then no comment */
		{ "continued-into-comment", "a.conf", "foo\\\n#\033]0;pwned\007 x\n", 0, NULL, false, -EBADMSG,
		  "/a.conf line 1: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word: libkmod would print it as it is" },
		{ "continued-c1", "a.conf", "# ok\n\302\\\n\233" "31mEVIL x\n", 0, NULL, false, -EBADMSG,
		  "/a.conf line 2: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word: libkmod would print it as it is" },
		{ "continued-comment", "a.conf", "#\\\n\033[31m x\nalias test:dev:named mod_a\n", 0, NULL, false, 0, NULL },
		{ "continued-blank", "a.conf", "alias\\\n test:dev:named mod_a \\\n\033[31m\n", 0, NULL, false, 0, NULL },
		/* never printed: the rest of a line libkmod parses */
		{ "escape-later-in-line", "a.conf", "alias test:dev:named mod_a \033[31m\n", 0, NULL, false, 0, NULL },
		{ "nul-byte", "a.conf", "alias test:dev:named mod_a\n\0x\n", 30, NULL, false, -EBADMSG,
		  "/a.conf line 2: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word: libkmod would print it as it is" },
		{ "escape-in-name", "\033[1m.conf", "alias test:dev:named mod_a\n", 0, NULL, false, -EBADMSG,
		  "/\033[1m.conf: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the file's name" },
		{ "fifo", "x.conf", NULL, 0, NULL, true, -EINVAL, "/x.conf: not a regular file" },
		/* a link, where another user may change the configuration, is not
		 * followed: it could name a file only this process may read (or
		 * a FIFO, /dev/zero, /proc/kmsg; test_named_config_trusted()
		 * follows them where nobody else can change them) */
		{ "link-to-fifo", "x.conf", NULL, 0, "fifo", false, -ELOOP, "/x.conf: a link where another user may change" },
		{ "link-to-zero", "x.conf", NULL, 0, "/dev/zero", false, -ELOOP, "/x.conf: a link where another user" },
		{ "link-to-proc", "x.conf", NULL, 0, "/proc/version", false, -ELOOP, "/x.conf: a link where another user" },
		{ "link-elsewhere", "x.conf", NULL, 0, "/etc/passwd", false, -ELOOP,
		  "/x.conf: a link where another user may change the configuration: not followed (only a link to "
		  "/dev/null, a mask, is; name the file it points to)" },
		/* but a masked file, as systemd's tools take it */
		{ "link-to-null", "x.conf", NULL, 0, "/dev/null", false, 0, NULL },
		{ "too-big", "big.conf", big, sizeof(big), NULL, false, -EFBIG, "/big.conf: larger than 1 MiB" },
		/* libkmod reads no directory in a directory */
		{ "directory", "d.conf", "", 0, NULL, false, 0, NULL },
		/* neither hidden files nor others than *.conf, *.alias */
		{ "not-conf", "a.txt", "\033[31mEVIL x\n", 0, NULL, false, 0, NULL },
	};
	g_autofree char *tmpdir = g_dir_make_tmp("modalias-tmpdir-XXXXXX", NULL);
	g_autofree char *saved_tmpdir = g_strdup(g_getenv("TMPDIR"));

	memset(big, '#', sizeof(big));
	big[sizeof(big) - 1] = '\n';
	g_setenv("TMPDIR", tmpdir, TRUE);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		const struct named_config_row *row = &rows[i];
		g_autofree char *dir = g_dir_make_tmp("modalias-named-XXXXXX", NULL);
		g_autofree char *path = g_build_filename(dir, row->file, NULL);
		const char *conf[] = { dir, NULL };
		struct modalias_ctx *ctx = test_ctx_new();
		struct modalias_loader *loader = NULL;
		struct modalias_table *table;
		g_autoptr(GDir) left = NULL;

		g_test_message("row %s", row->name);
		/* writable by others: not trusted, so copied */
		g_assert_cmpint(chmod(dir, 0777), ==, 0);
		if (row->fifo) {
			g_assert_cmpint(mkfifo(path, 0644), ==, 0);
		} else if (row->link) {
			g_autofree char *fifo = g_build_filename(dir, "fifo", NULL);
			g_assert_cmpint(mkfifo(fifo, 0644), ==, 0);
			g_assert_cmpint(symlink(row->link, path), ==, 0);
		} else if (strcmp(row->name, "directory") == 0) {
			g_assert_cmpint(mkdir(path, 0755), ==, 0);
		} else {
			g_assert_true(g_file_set_contents(path, row->text, row->len ? (gssize)row->len : -1, NULL));
		}
		g_assert_cmpint(modalias_loader_new(ctx, moddir, conf, &loader), ==, row->want);
		if (row->logged) {
			g_autofree char *want = g_strconcat(dir, row->logged, NULL);
			g_assert_nonnull(strstr(test_log_text(), want));
		}
		g_assert_cmpint(modalias_table_new_from_directory(ctx, moddir, &table), ==, 0);
		g_assert_cmpint(modalias_table_load_config(table, conf), ==, row->want);
		if (row->want == 0) {
			/* the copy is gone once libkmod has read it (nothing is
			 * left behind by a process killed outright), and libkmod
			 * sees its paths as it read them: nothing to read again */
			g_autoptr(GDir) d = g_dir_open(tmpdir, 0, NULL);

			g_assert_null(g_dir_read_name(d));
			g_assert_cmpint(modalias_loader_revalidate(loader), ==, 0);
			/* libkmod found the alias in it */
			if (strcmp(row->name, "good") == 0 || strcmp(row->name, "escape-later-in-line") == 0)
				assert_named_alias(table);
		}
		modalias_table_unref(table);
		modalias_loader_unref(loader);
		modalias_ctx_unref(ctx);
		/* and nothing was left since */
		left = g_dir_open(tmpdir, 0, NULL);
		g_assert_null(g_dir_read_name(left));
		test_rm_rf(dir);
	}
	/* a $TMPDIR the copy cannot be made in is named as such */
	{
		g_autofree char *missing = g_build_filename(tmpdir, "missing", NULL);
		g_autofree char *want = g_strconcat("cannot make a directory for the modprobe configuration in $TMPDIR, ",
						    missing, ": No such file or directory (set TMPDIR to a writable directory)",
						    NULL);
		g_autofree char *dir = g_dir_make_tmp("modalias-named-XXXXXX", NULL);
		g_autofree char *file = g_build_filename(dir, "a.conf", NULL);
		const char *conf[] = { dir, NULL };
		struct modalias_ctx *ctx = test_ctx_new();
		struct modalias_loader *loader = NULL;

		g_assert_true(g_file_set_contents(file, "alias test:dev:named mod_a\n", -1, NULL));
		g_assert_cmpint(chmod(dir, 0777), ==, 0); /* not trusted: copied */
		g_setenv("TMPDIR", missing, TRUE);
		g_assert_cmpint(modalias_loader_new(ctx, moddir, conf, &loader), ==, -ENOENT);
		g_assert_nonnull(strstr(test_log_text(), want));
		modalias_ctx_unref(ctx);
		test_rm_rf(dir);
	}
	restore_env("TMPDIR", saved_tmpdir);
	test_rm_rf(tmpdir);
}

/* A named configuration as trusted as the system's (this user's, nobody
 * else may write it or a directory above it) is checked the same, but
 * handed to libkmod as it is: no copy, so no writable $TMPDIR needed (early
 * in a boot /tmp may be read-only); one a user may write is copied. */
static void test_named_config_trusted(void)
{
	g_autofree char *tmpdir = g_dir_make_tmp("modalias-tmpdir-XXXXXX", NULL);
	g_autofree char *missing = g_build_filename(tmpdir, "missing", NULL);
	g_autofree char *saved_tmpdir = g_strdup(g_getenv("TMPDIR"));
	g_autofree char *dir = g_dir_make_tmp("modalias-named-XXXXXX", NULL);
	g_autofree char *file = g_build_filename(dir, "a.conf", NULL);
	g_autofree char *target = g_build_filename(dir, "target", NULL);
	const char *conf[] = { dir, NULL };
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_loader *loader = NULL;
	struct modalias_table *table;

	g_assert_cmpint(chmod(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(file, "alias test:dev:named mod_a\n", -1, NULL));
	g_assert_cmpint(chmod(file, 0644), ==, 0);
	/* no $TMPDIR to copy into: not needed */
	g_setenv("TMPDIR", missing, TRUE);
	g_assert_cmpint(modalias_loader_new(ctx, moddir, conf, &loader), ==, 0);
	g_assert_cmpint(modalias_table_new_from_directory(ctx, moddir, &table), ==, 0);
	g_assert_cmpint(modalias_table_load_config(table, conf), ==, 0);
	assert_named_alias(table);
	modalias_table_unref(table);
	modalias_loader_unref(loader);
	/* checked all the same */
	g_assert_true(g_file_set_contents(file, "\033[31mEVIL x\n", -1, NULL));
	g_assert_cmpint(modalias_loader_new(ctx, moddir, conf, &loader), ==, -EBADMSG);
	/* a link is followed (nobody else can change it), and what it names checked */
	g_assert_true(g_file_set_contents(target, "alias test:dev:named mod_a\n", -1, NULL));
	g_assert_cmpint(chmod(target, 0644), ==, 0);
	for (size_t i = 0; i < 2; i++) {
		const struct {
			const char *target;
			int want;
		} links[] = { { "/proc/version", -EMEDIUMTYPE }, { target, 0 } };

		g_assert_cmpint(unlink(file), ==, 0);
		g_assert_cmpint(symlink(links[i].target, file), ==, 0);
		g_assert_cmpint(modalias_loader_new(ctx, moddir, conf, &loader), ==, links[i].want);
		modalias_loader_unref(links[i].want == 0 ? loader : NULL);
	}
	g_assert_cmpint(unlink(file), ==, 0);
	/* a file others may write: copied, so $TMPDIR is needed */
	g_assert_true(g_file_set_contents(file, "alias test:dev:named mod_a\n", -1, NULL));
	g_assert_cmpint(chmod(file, 0666), ==, 0);
	g_assert_cmpint(modalias_loader_new(ctx, moddir, conf, &loader), ==, -ENOENT);
	modalias_ctx_unref(ctx);
	restore_env("TMPDIR", saved_tmpdir);
	test_rm_rf(dir);
	test_rm_rf(tmpdir);
}

/* A file named as a path is read whatever its name, as libkmod reads it:
 * in a directory, only *.conf and *.alias files that are not hidden are. */
static void test_named_config_single_file(void)
{
	const char *const names[] = { "local", ".local.conf", "a.conf" };
	g_autofree char *tmpdir = g_dir_make_tmp("modalias-tmpdir-XXXXXX", NULL);
	g_autofree char *saved_tmpdir = g_strdup(g_getenv("TMPDIR"));

	g_setenv("TMPDIR", tmpdir, TRUE);
	for (size_t i = 0; i < G_N_ELEMENTS(names) * 2; i++) {
		g_autofree char *dir = g_dir_make_tmp("modalias-named-XXXXXX", NULL);
		g_autofree char *file = g_build_filename(dir, names[i / 2], NULL);
		g_autofree char *later = g_build_filename(dir, "zzz.conf", NULL);
		const char *conf[] = { file, later, NULL };
		struct record rec = { g_string_new(NULL), g_string_new(NULL) };
		struct modalias_ctx *ctx = test_ctx_new();
		struct modalias_loader *loader;
		struct modalias_table *table;
		g_autoptr(GDir) left = NULL;

		g_test_message("file %s, %s", names[i / 2], i % 2 ? "copied" : "trusted");
		g_assert_true(g_file_set_contents(file, "alias test:dev:named mod_a\nblacklist mod_b\noptions mod_opt o=1\n",
						  -1, NULL));
		g_assert_true(g_file_set_contents(later, "options mod_opt o=2\n", -1, NULL));
		/* writable by others: copied */
		if (i % 2)
			g_assert_cmpint(chmod(dir, 0777), ==, 0);
		g_assert_cmpint(modalias_table_new_from_directory(ctx, moddir, &table), ==, 0);
		g_assert_cmpint(modalias_table_load_config(table, conf), ==, 0);
		assert_named_alias(table);
		g_assert_true(modalias_table_is_blacklisted(table, "mod_b"));
		g_assert_cmpint(modalias_loader_new(ctx, moddir, conf, &loader), ==, 0);
		g_assert_cmpint(modalias_loader_revalidate(loader), ==, 0);
		/* each file read once, in libkmod's order (by name), copied or not */
		g_assert_cmpint(modalias_loader_load_module(loader, "mod_opt", MODALIAS_LOAD_DRY_RUN, on_module, &rec), ==, 1);
		g_assert_true(g_str_has_suffix(rec.modprobe->str, "/mod_opt.ko o=1 o=2 \n"));
		modalias_loader_unref(loader);
		modalias_table_unref(table);
		modalias_ctx_unref(ctx);
		/* the copy gone with them */
		left = g_dir_open(tmpdir, 0, NULL);
		g_assert_null(g_dir_read_name(left));
		g_string_free(rec.log, TRUE);
		g_string_free(rec.modprobe, TRUE);
		test_rm_rf(dir);
	}
	restore_env("TMPDIR", saved_tmpdir);
	test_rm_rf(tmpdir);
}

/* A module directory's modules.softdep (and modules.weakdep), which
 * libkmod reads inside kmod_new() with the configuration, is checked as a
 * modprobe.d file: with a named configuration and with the system's. */
static void test_moddir_softdep_checked(void)
{
	const char *const none[] = { NULL };
	g_autofree char *big = g_strnfill((64 << 20) + 1, '#');

	for (int fifo = 0; fifo < 2; fifo++) {
		g_autofree char *dir = g_dir_make_tmp("modalias-moddir-XXXXXX", NULL);
		g_autofree char *softdep = g_build_filename(dir, "modules.softdep", NULL);
		g_autofree char *want = g_strconcat(dir, fifo ? "/modules.softdep: not a regular file"
							      : "/modules.softdep line 2: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word",
						    NULL);
		struct modalias_ctx *ctx = test_ctx_new();
		struct modalias_loader *loader = NULL;

		if (fifo)
			g_assert_cmpint(mkfifo(softdep, 0644), ==, 0);
		else
			g_assert_true(g_file_set_contents(softdep, "# x\n\033]0;pwned\007 x\n", -1, NULL));
		g_assert_cmpint(modalias_loader_new(ctx, dir, none, &loader), ==, fifo ? -EINVAL : -EBADMSG);
		g_assert_nonnull(strstr(test_log_text(), want));
		g_assert_null(loader);
		modalias_ctx_unref(ctx);
		/* nor is one past the bound, whatever its first line */
		if (!fifo) {
			g_autofree char *text = g_strconcat("\033]0;pwned\007 x\n", big, NULL);
			g_autofree char *too_big = g_strconcat(dir, "/modules.softdep: larger than 64 MiB", NULL);

			ctx = test_ctx_new();
			g_assert_true(g_file_set_contents(softdep, text, -1, NULL));
			g_assert_cmpint(modalias_loader_new(ctx, dir, none, &loader), ==, -EFBIG);
			g_assert_nonnull(strstr(test_log_text(), too_big));
			modalias_ctx_unref(ctx);
		}
		/* a softdep as depmod writes it will do */
		if (!fifo) {
			ctx = test_ctx_new();
			g_assert_true(g_file_set_contents(softdep, "# x\nsoftdep mod_a pre: mod_b\n", -1, NULL));
			g_assert_cmpint(modalias_loader_new(ctx, dir, none, &loader), ==, 0);
			modalias_loader_unref(loader);
			modalias_ctx_unref(ctx);
		}
		test_rm_rf(dir);
	}
	/* modules.weakdep, which kmod >= 33 reads as modules.softdep */
	{
		g_autofree char *dir = g_dir_make_tmp("modalias-moddir-XXXXXX", NULL);
		g_autofree char *weakdep = g_build_filename(dir, "modules.weakdep", NULL);
		g_autofree char *want = g_strconcat(weakdep, ": not a regular file", NULL);
		struct modalias_ctx *ctx = test_ctx_new();
		struct modalias_loader *loader = NULL;

		g_assert_cmpint(mkfifo(weakdep, 0644), ==, 0);
		alarm(10);
		g_assert_cmpint(modalias_loader_new(ctx, dir, none, &loader), ==, -EINVAL);
		alarm(0);
		g_assert_nonnull(strstr(test_log_text(), want));
		g_assert_null(loader);
		modalias_ctx_unref(ctx);
		test_rm_rf(dir);
	}
}

/* A named configuration: libkmod reads a copy; its originals' changes are
 * what makes the loader read it again. */
static void test_named_config_revalidate(void)
{
	g_autofree char *dir = g_dir_make_tmp("modalias-named-XXXXXX", NULL);
	g_autofree char *file = g_build_filename(dir, "a.conf", NULL);
	g_autofree char *bad = g_build_filename(dir, "b.conf", NULL);
	struct record rec = { g_string_new(NULL), g_string_new(NULL) };
	struct utimbuf later = { .actime = time(NULL) + 100, .modtime = time(NULL) + 100 };
	const char *conf[] = { dir, NULL };
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_loader *loader;

	g_assert_true(g_file_set_contents(file, "alias test:dev:named mod_a\n", -1, NULL));
	g_assert_cmpint(modalias_loader_new(ctx, moddir, conf, &loader), ==, 0);
	g_assert_cmpint(modalias_loader_revalidate(loader), ==, 0);
	g_assert_cmpint(utime(dir, &later), ==, 0);
	g_assert_cmpint(modalias_loader_revalidate(loader), ==, 1);
	g_assert_cmpint(modalias_loader_revalidate(loader), ==, 0);
	/* a configuration that now fails its check: refused, and the loader
	 * goes on with what it had read */
	g_assert_true(g_file_set_contents(bad, "\033[31m x\n", -1, NULL));
	g_assert_cmpint(modalias_loader_revalidate(loader), ==, -EBADMSG);
	g_assert_cmpint(modalias_loader_load_module(loader, "mod_opt", MODALIAS_LOAD_DRY_RUN, on_module, &rec), ==, 1);
	g_assert_true(g_str_has_prefix(rec.log->str, "would insert mod_opt "));
	g_assert_cmpint(modalias_loader_revalidate(loader), ==, -EBADMSG);
	g_assert_cmpint(unlink(bad), ==, 0);
	g_assert_cmpint(modalias_loader_revalidate(loader), ==, 1);
	modalias_loader_unref(loader);
	g_string_free(rec.log, TRUE);
	g_string_free(rec.modprobe, TRUE);
	modalias_ctx_unref(ctx);
	test_rm_rf(dir);
}

/* "MODULE=VALUE;…" (or "MODULE:error N;") of modalias_loader_get_modinfo() */
static int collect_modinfo(void *data, const char *module, const char *value, int err)
{
	if (err < 0)
		g_string_append_printf(data, "%s:error %d;", module, err);
	else
		g_string_append_printf(data, "%s=%s;", module, value);
	return 0;
}

static void test_modinfo(void)
{
	static const struct {
		const char *kernel, *module, *key;
		unsigned int flags;
		int ret;
		const char *want;
	} cases[] = {
		/* Debian 6.1's kvm_amd declares no firmware; its dependency ccp
		 * does (modinfo -F firmware ccp.ko: the real .modinfo kept in the
		 * fixture, tests/data/firmware/README.md) */
		{ "linux-6.1.0-57-amd64+modinfo", "kvm_amd", "firmware", 0, 0, "" },
		{ "linux-6.1.0-57-amd64+modinfo", "kvm-amd", "firmware", MODALIAS_MODINFO_DEPENDENCIES, 3,
		  "ccp=amd/amd_sev_fam19h_model0xh.sbin;ccp=amd/amd_sev_fam17h_model3xh.sbin;"
		  "ccp=amd/amd_sev_fam17h_model0xh.sbin;" },
		/* a builtin: modules.builtin.modinfo */
		{ "linux-6.1.0-57-amd64+modinfo", "iosf_mbi", "description", 0, 1,
		  "iosf_mbi=IOSF Mailbox Interface accessor;" },
		/* no .ko files in 6.12's fixture: the module is told with its error */
		{ "linux-6.12.118+deb12-amd64", "e1000e", "firmware", 0, 0, "e1000e:error -2;" },
		/* not a module name */
		{ "linux-6.1.0-57-amd64", "../e1000e", "firmware", 0, -EINVAL, "" },
		{ "linux-6.1.0-57-amd64", "e1000e", "firmware", 1u << 7, -EINVAL, "" },
	};
	const char *none[] = { NULL };
	struct modalias_ctx *ctx = test_ctx_new();

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *rel = g_test_build_filename(G_TEST_DIST, "data", cases[i].kernel, NULL);
		g_autofree char *dir = g_canonicalize_filename(rel, NULL);
		struct modalias_loader *loader;
		GString *got = g_string_new(NULL);

		g_assert_cmpint(modalias_loader_new(ctx, dir, none, &loader), ==, 0);
		g_assert_cmpint(modalias_loader_get_modinfo(loader, cases[i].module, cases[i].key, cases[i].flags,
							    collect_modinfo, got), ==, cases[i].ret);
		g_assert_cmpstr(got->str, ==, cases[i].want);
		g_string_free(got, TRUE);
		modalias_loader_unref(loader);
	}
	modalias_ctx_unref(ctx);
}

/* A copy of the fixture's module directory (made to be spoilt), and its
 * FILE replaced by KIND: 'p' a FIFO nobody writes, 'z' a link to
 * /dev/zero, 'd' a directory, '-' nothing */
static char *spoilt_copy(const char *file, char kind)
{
	char *tmp = g_dir_make_tmp("modalias-moddir-XXXXXX", NULL);
	g_autofree char *copy = g_strdup_printf("cp -r '%s/.' '%s'", moddir, tmp);
	g_autofree char *path = g_build_filename(tmp, file, NULL);

	g_assert_cmpint(system(copy), ==, 0);
	g_assert_cmpint(unlink(path), ==, 0);
	if (kind == 'p')
		g_assert_cmpint(mkfifo(path, 0644), ==, 0);
	else if (kind == 'z')
		g_assert_cmpint(symlink("/dev/zero", path), ==, 0);
	else if (kind == 'd')
		g_assert_cmpint(mkdir(path, 0755), ==, 0);
	return tmp;
}

static const char *kind_said(char kind)
{
	return kind == 'p' ? "not a regular file (a FIFO)" : kind == 'z' ? "not a regular file (a character device)"
							      : "Is a directory";
}

/* A FIFO must not hang the test: SIGALRM ends it (a failure) */
#define HANG_LIMIT 10

/* libkmod opens the module directory's index files and
 * modules.builtin.modinfo itself, by path, blocking: each is checked
 * first, as modules.alias is (a FIFO hung kmod_load_resources() in open(),
 * and with it modalias load and the agent), when the loader is made, when
 * it is revalidated, and before each lookup (libkmod opens an index it
 * could not map at every lookup). */
static void test_kmod_files_checked(void)
{
	static const char *const files[] = {
		"modules.dep.bin", "modules.alias.bin", "modules.symbols.bin", "modules.builtin.alias.bin",
		"modules.builtin.bin", "modules.builtin.modinfo",
	};
	static const char kinds[] = { 'p', 'z', 'd' };
	const char *none[] = { NULL };

	for (size_t i = 0; i < G_N_ELEMENTS(files) * G_N_ELEMENTS(kinds); i++) {
		const char *file = files[i / G_N_ELEMENTS(kinds)];
		char kind = kinds[i % G_N_ELEMENTS(kinds)];
		g_autofree char *dir = spoilt_copy(file, kind);
		g_autofree char *want = g_strdup_printf("cannot open %s/%s: %s", dir, file, kind_said(kind));
		struct modalias_ctx *ctx = test_ctx_new();
		struct modalias_loader *loader = NULL;

		g_test_message("%s: %c", file, kind);
		alarm(HANG_LIMIT);
		g_assert_cmpint(modalias_loader_new(ctx, dir, none, &loader), ==, kind == 'd' ? -EISDIR : -EINVAL);
		alarm(0);
		g_assert_null(loader);
		g_assert_nonnull(strstr(test_log_text(), want));
		modalias_ctx_unref(ctx);
		test_rm_rf(dir);
	}
	/* one made a FIFO after the loader was made: its revalidation
	 * refuses it (the loader keeps what it had read), and so does each
	 * lookup */
	for (int mapped = 0; mapped < 2; mapped++) {
		g_autofree char *dir = spoilt_copy("modules.dep.bin", '-');
		g_autofree char *bin = g_build_filename(dir, "modules.dep.bin", NULL);
		g_autofree char *text = g_build_filename(moddir, "modules.dep.bin", NULL);
		g_autofree char *want = g_strdup_printf("cannot open %s: not a regular file (a FIFO)", bin);
		struct modalias_ctx *ctx = test_ctx_new();
		struct modalias_loader *loader = NULL;
		GString *got = g_string_new(NULL);

		/* without modules.dep.bin, libkmod maps no index and opens them at each lookup */
		if (mapped) {
			g_autofree char *copy = g_strdup_printf("cp '%s' '%s'", text, bin);
			g_assert_cmpint(system(copy), ==, 0);
		}
		g_assert_cmpint(modalias_loader_new(ctx, dir, none, &loader), ==, 0);
		if (mapped)
			g_assert_cmpint(unlink(bin), ==, 0);
		g_assert_cmpint(mkfifo(bin, 0644), ==, 0);
		alarm(HANG_LIMIT);
		if (mapped)
			g_assert_cmpint(modalias_loader_revalidate(loader), ==, -EINVAL);
		g_assert_cmpint(modalias_loader_load_module(loader, "mod_a", MODALIAS_LOAD_DRY_RUN, NULL, NULL), ==, -EINVAL);
		g_assert_cmpint(modalias_loader_get_modinfo(loader, "mod_a", "alias", 0, collect_modinfo, got), ==, -EINVAL);
		alarm(0);
		g_assert_cmpstr(got->str, ==, "");
		g_string_free(got, TRUE);
		g_assert_nonnull(strstr(test_log_text(), want));
		modalias_loader_unref(loader);
		modalias_ctx_unref(ctx);
		test_rm_rf(dir);
	}
}

/* libkmod opens a module's .ko to read its modinfo and to insert it: each
 * module a load (or dry run) would insert, dependencies and softdeps
 * included, and each whose modinfo is asked, is checked first; a FIFO hung
 * modalias firmware and a load.  Nothing is inserted when one is refused. */
static void test_module_files_checked(void)
{
	static const struct {
		const char *alias, *file, *module;
	} rows[] = {
		{ "test:dev:abc", "mod_a.ko", "mod_a" },   /* the module */
		{ "test:dev:abc", "mod_b.ko", "mod_b" },   /* a dependency */
		{ "test:dev:soft", "mod_pre.ko", "mod_pre" }, /* a softdep */
	};
	static const char kinds[] = { 'p', 'z', 'd' };

	for (size_t i = 0; i < G_N_ELEMENTS(rows) * G_N_ELEMENTS(kinds); i++) {
		const char *file = rows[i / G_N_ELEMENTS(kinds)].file, *module = rows[i / G_N_ELEMENTS(kinds)].module;
		const char *alias = rows[i / G_N_ELEMENTS(kinds)].alias;
		char kind = kinds[i % G_N_ELEMENTS(kinds)];
		int want_r = kind == 'd' ? -EISDIR : -EINVAL;
		g_autofree char *rel = g_build_filename("kernel", "test", file, NULL);
		g_autofree char *dir = spoilt_copy(rel, kind);
		g_autofree char *path = g_build_filename(dir, rel, NULL);
		g_autofree char *want = g_strdup_printf("cannot open %s: %s", path, kind_said(kind));
		g_autofree char *want_log = g_strdup_printf("failed %s %s %s\n", module, path, kind == 'd' ? "ERR" : "EINVAL");
		g_autofree char *want_info = g_strdup_printf("%s:error %d;", module, want_r);
		struct env e;

		g_test_message("%s: %c", file, kind);
		e.kernel = fake_kernel();
		e.ctx = test_ctx_new();
		g_assert_cmpint(modalias_table_new_from_directory(e.ctx, dir, &e.table), ==, 0);
		g_assert_cmpint(modalias_table_load_config(e.table, (const char *[]){ confdir, NULL }), ==, 0);
		g_assert_cmpint(modalias_loader_new(e.ctx, dir, (const char *[]){ confdir, NULL }, &e.loader), ==, 0);
		for (unsigned int flags = 0; flags <= MODALIAS_LOAD_DRY_RUN; flags += MODALIAS_LOAD_DRY_RUN) {
			g_autofree char *log = NULL, *ins = NULL;
			int r;

			test_log_clear();
			alarm(HANG_LIMIT);
			log = load(&e, alias, flags, &r);
			alarm(0);
			g_assert_cmpint(r, ==, want_r);
			g_assert_cmpstr(log, ==, want_log);
			g_assert_nonnull(strstr(test_log_text(), want));
			ins = inserted(e.kernel);
			g_assert_cmpstr(ins, ==, "");
		}
		if (strcmp(alias, "test:dev:abc") == 0) {
			GString *got = g_string_new(NULL);

			alarm(HANG_LIMIT);
			g_assert_cmpint(modalias_loader_get_modinfo(e.loader, "mod_a", "name", MODALIAS_MODINFO_DEPENDENCIES,
								    collect_modinfo, got), >=, 0);
			alarm(0);
			g_assert_nonnull(strstr(got->str, want_info));
			g_string_free(got, TRUE);
		}
		env_teardown(&e);
		test_rm_rf(dir);
	}
}

int main(int argc, char **argv)
{
	const char *preload = g_getenv("LD_PRELOAD");

	if (!preload || !strstr(preload, "fake-kernel")) {
		/* the stand-in kernel must be in place before anything runs */
		g_autofree char *dir = g_path_get_dirname(argv[0]);
		g_autofree char *shim = g_build_filename(dir, "shim", ".libs", "fake-kernel.so", NULL);

		if (!g_file_test(shim, G_FILE_TEST_EXISTS))
			g_error("%s is missing", shim);
		g_setenv("LD_PRELOAD", shim, TRUE);
		execv("/proc/self/exe", argv);
		g_error("cannot re-execute %s", argv[0]);
	}
	g_test_init(&argc, &argv, NULL);
	{
		/* absolute, as libkmod makes module paths */
		g_autofree char *rel = g_test_build_filename(G_TEST_DIST, "data", "load", NULL);
		fixture_root = g_canonicalize_filename(rel, NULL);
	}
	moddir = g_build_filename(fixture_root, "lib", "modules", FIXTURE_VERSION, NULL);
	confdir = g_build_filename(fixture_root, "modprobe.d", NULL);
	g_test_add_func("/load/dependencies", test_dependencies);
	g_test_add_func("/load/softdeps-multi", test_softdeps_and_multi);
	g_test_add_func("/load/blacklist-live-builtin-command", test_blacklist_live_builtin_command);
	g_test_add_func("/load/failures", test_failures);
	g_test_add_func("/load/dry-run-like-modprobe", test_dry_run_like_modprobe);
	g_test_add_func("/load/revalidate", test_revalidate);
	g_test_add_func("/load/named-config-checked", test_named_config_checked);
	g_test_add_func("/load/named-config-single-file", test_named_config_single_file);
	g_test_add_func("/load/moddir-softdep-checked", test_moddir_softdep_checked);
	g_test_add_func("/load/named-config-revalidate", test_named_config_revalidate);
	g_test_add_func("/load/named-config-trusted", test_named_config_trusted);
	g_test_add_func("/load/module-names", test_module_names);
	g_test_add_func("/load/missing-modules", test_missing_modules);
	g_test_add_func("/load/failure-logged-once", test_failure_logged_once);
	g_test_add_func("/load/modinfo", test_modinfo);
	g_test_add_func("/load/kmod-files-checked", test_kmod_files_checked);
	g_test_add_func("/load/module-files-checked", test_module_files_checked);
	return g_test_run();
}
