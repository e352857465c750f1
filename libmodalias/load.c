/*
 * libmodalias - loading modules through libkmod: a modalias is resolved
 * with the library's table, then every module it names is inserted with
 * its dependencies and softdeps by kmod_module_probe_insert_module(),
 * honouring modprobe.d blacklists as udev does, skipping builtin and live
 * modules, and reporting what happened to each module.  No name reaches
 * libkmod before it has passed module_name_check() (table.c), and no file
 * of the module directory before its kind is checked (kmod_file_check()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmod-dl.h"
#include "libmodalias-private.h"
#include "read-file.h"
#include "table-private.h"

struct modalias_loader {
	int refcount;
	struct modalias_ctx *ctx;
	struct kmod_ctx *kctx;
	char *dir;
	char **config; /* NULL: the system's; else NULL-terminated */
	bool system_config;
	struct modprobe_d_copy *config_copy; /* what libkmod reads of a named one */
	char **blacklist; /* our own, on top of modprobe.d */
	size_t n_blacklist;
};

/* ---- module names ---------------------------------------------------------- */

/* The check, logged at priority when the name is not one (echoed up to
 * its first control character: a newline would forge a log line). */
static int module_name_ok(const struct modalias_loader *l, const char *name, int priority)
{
	const char *why, *more;
	int r = module_name_check(name, SIZE_MAX, &why);
	size_t n = 0;

	if (r == 0)
		return 0;
	while (n < LOG_ECHO_MAX && name[n] && (unsigned char)name[n] >= 0x20 && name[n] != 0x7f)
		n++;
	more = name[n] ? "…" : "";
	if (r == -ENAMETOOLONG)
		modalias_log_cond(l->ctx, priority, "'%.*s%s' is not a module name: longer than %d bytes\n", (int)n,
				  name, more, NAME_MAX);
	else
		modalias_log_cond(l->ctx, priority, "'%.*s%s' is not a module name: %s\n", (int)n, name, more, why);
	return r;
}

/* ---- files libkmod opens itself ------------------------------------------------ */

/*
 * libkmod opens a module directory's files by their paths, as they are,
 * and blocking: the indexes (kmod_load_resources() maps them; when it
 * could not, every lookup opens them again), modules.builtin.modinfo (a
 * builtin module's modinfo) and each module's file (its modinfo, its
 * insertion).  A FIFO there hangs it (the agent with it), a device's
 * driver is asked to open, /dev/zero is read.  So each is checked first,
 * as the library's own reads check theirs (read_file_check(): a regular
 * file, of no kernel file system; none at all will do, libkmod goes
 * without it), and refused otherwise, named with what it is and
 * read_file()'s errno (-EINVAL: not a regular file).  modules.softdep and
 * modules.weakdep, which kmod_new() reads as configuration, are checked
 * with it (modprobe-d-copy.c).
 *
 * A check, then libkmod's open by path: a file swapped in between is
 * opened all the same.  This stops a FIFO or a device planted in the
 * directory; whoever can swap files in it at the right moment can as well
 * put a module there to be inserted, which no check of a kind stops.
 */
static const char *const kmod_files[] = {
	"modules.dep.bin",
	"modules.alias.bin",
	"modules.symbols.bin",
	"modules.builtin.alias.bin",
	"modules.builtin.bin",
	"modules.builtin.modinfo",
};

/* PATH, which libkmod will open: 0 when it is a regular file or none;
 * else the error, logged (an error of the path that libkmod's open would
 * meet too, a permission, a loop, is libkmod's to meet) */
static int kmod_file_check(struct modalias_loader *l, const char *path)
{
	const char *kind;
	int r = read_file_check(path, READ_FILE_NO_KERNEL_FS, &kind);

	if (r == -EINVAL && kind) {
		err(l->ctx, "cannot open %s: not a regular file (%s)\n", path, kind);
	} else if (r == -EINVAL || r == -EISDIR || r == -EMEDIUMTYPE || r == -ENOMEM) {
		char buf_why[64];
		const char *why = read_file_error(r, 0, buf_why, sizeof(buf_why));

		err(l->ctx, "cannot open %s: %s\n", path, why);
	} else {
		r = 0;
	}
	return r;
}

/* The module directory's files that libkmod opens (kmod_files), in
 * KCTX's directory: 0, or the first error (each logged) */
static int kmod_files_check(struct modalias_loader *l, struct kmod_ctx *kctx)
{
	const char *dir = kmod_dl.kmod_get_dirname(kctx);
	int first = 0;

	if (!dir)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(kmod_files); i++) {
		char *path;
		int r;

		if (asprintf(&path, "%s/%s", dir, kmod_files[i]) < 0)
			return -ENOMEM;
		r = kmod_file_check(l, path);
		free(path);
		if (r < 0 && !first)
			first = r;
	}
	return first;
}

/* ---- the loader ---------------------------------------------------------------- */

/* libkmod's messages, as details: what failed comes back to the caller as
 * an errno, said in its words; libkmod's own lines ("ctx=0x… path=…
 * error=…" for a module file it cannot open) are logged at info at most
 * (a front end's -v) */
static void loader_log(void *data, int priority, const char *file, int line, const char *fn,
		       const char *format, va_list args)
{
	struct modalias_loader *l = data;
	char *msg = NULL;

	if (priority < LOG_INFO)
		priority = LOG_INFO;
	if (!log_enabled(l->ctx, priority) || vasprintf(&msg, format, args) < 0)
		return;
	modalias_log(l->ctx, priority, file, line, fn, "libkmod: %s", msg);
	free(msg);
}

static int loader_open_kmod(struct modalias_loader *l)
{
	int r = modprobe_d_kmod_new(l->ctx, l->dir, l->system_config ? NULL : (const char *const *)l->config,
				    &l->kctx, &l->config_copy);

	if (r < 0) {
		if (r == -ENOMEM)
			err(l->ctx, "libkmod cannot open %s\n", l->dir ? l->dir : "the module directory");
		return r;
	}
	kmod_dl.kmod_set_log_fn(l->kctx, loader_log, l);
	r = kmod_files_check(l, l->kctx);
	if (r < 0) {
		kmod_dl.kmod_unref(l->kctx);
		modprobe_d_copy_free(l->config_copy);
		l->kctx = NULL;
		l->config_copy = NULL;
		return r;
	}
	/* mmaps the indexes once; lookups would open them each time otherwise */
	if (kmod_dl.kmod_load_resources(l->kctx) < 0)
		info(l->ctx, "libkmod could not load the indexes of %s\n", l->dir ? l->dir : "the module directory");
	return 0;
}

MODALIAS_EXPORT int modalias_loader_new(struct modalias_ctx *ctx, const char *dir,
					const char *const *config_paths,
					struct modalias_loader **ret)
{
	struct modalias_loader *l;
	size_t n = 0;
	int r;

	if (!ctx || !ret)
		return -EINVAL;
	r = kmod_dl_open();
	if (r < 0) {
		err(ctx, "cannot load %s: modules cannot be loaded\n", KMOD_SONAME);
		return r;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->refcount = 1;
	l->ctx = modalias_ctx_ref(ctx);
	l->system_config = config_paths == NULL;
	if (config_paths)
		while (config_paths[n])
			n++;
	l->config = calloc(n + 1, sizeof(*l->config));
	if (dir)
		l->dir = strdup(dir);
	if (!l->config || (dir && !l->dir))
		goto oom;
	for (size_t i = 0; i < n; i++)
		if (!(l->config[i] = strdup(config_paths[i])))
			goto oom;
	r = loader_open_kmod(l);
	if (r < 0) {
		modalias_loader_unref(l);
		return r;
	}
	*ret = l;
	return 0;
oom:
	modalias_loader_unref(l);
	return -ENOMEM;
}

MODALIAS_EXPORT struct modalias_loader *modalias_loader_ref(struct modalias_loader *l)
{
	if (l)
		REF_INC(l->refcount);
	return l;
}

MODALIAS_EXPORT struct modalias_loader *modalias_loader_unref(struct modalias_loader *l)
{
	if (!l)
		return NULL;
	if (REF_DEC(l->refcount) > 0)
		return l;
	if (l->kctx)
		kmod_dl.kmod_unref(l->kctx);
	modprobe_d_copy_free(l->config_copy);
	for (size_t i = 0; l->config && l->config[i]; i++)
		free(l->config[i]);
	free(l->config);
	for (size_t i = 0; i < l->n_blacklist; i++)
		free(l->blacklist[i]);
	free(l->blacklist);
	free(l->dir);
	modalias_ctx_unref(l->ctx);
	free(l);
	return NULL;
}

MODALIAS_EXPORT int modalias_loader_add_blacklist(struct modalias_loader *l, const char *module)
{
	char **n;
	char *name;
	int r;

	if (!l || !module)
		return -EINVAL;
	r = module_name_ok(l, module, LOG_ERR);
	if (r < 0)
		return r;
	name = strdup(module);
	n = name ? realloc(l->blacklist, (l->n_blacklist + 1) * sizeof(*n)) : NULL;
	if (!n) {
		free(name);
		return -ENOMEM;
	}
	/* as libkmod names modules */
	name[strcspn(name, ".")] = '\0';
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	l->blacklist = n;
	l->blacklist[l->n_blacklist++] = name;
	return 0;
}

MODALIAS_EXPORT int modalias_loader_revalidate(struct modalias_loader *l)
{
	struct kmod_ctx *old;
	struct modprobe_d_copy *old_copy;
	int r;

	if (!l)
		return -EINVAL;
	/* a named configuration: libkmod reads a copy, its originals are stamped here */
	if (!modprobe_d_copy_stale(l->config_copy) && kmod_dl.kmod_validate_resources(l->kctx) == KMOD_RESOURCES_OK)
		return 0;
	info(l->ctx, "module indexes or configuration changed: reloading\n");
	/* what was read stays until its successor is: a configuration that
	 * fails its check now (logged) leaves the loader loading as before */
	old = l->kctx;
	old_copy = l->config_copy;
	r = loader_open_kmod(l);
	if (r < 0) {
		l->kctx = old;
		l->config_copy = old_copy;
		return r;
	}
	kmod_dl.kmod_unref(old);
	modprobe_d_copy_free(old_copy);
	return 1;
}

MODALIAS_EXPORT const char *modalias_load_state_name(enum modalias_load_state state)
{
	static const char *const names[] = {
		[MODALIAS_LOAD_INSERTED] = "inserted",
		[MODALIAS_LOAD_WOULD_INSERT] = "would insert",
		[MODALIAS_LOAD_COMMAND] = "install command",
		[MODALIAS_LOAD_LIVE] = "already loaded",
		[MODALIAS_LOAD_BUILTIN] = "builtin",
		[MODALIAS_LOAD_BLACKLISTED] = "blacklisted",
		[MODALIAS_LOAD_FAILED] = "failed",
		[MODALIAS_LOAD_NOT_FOUND] = "not found",
	};

	return (unsigned int)state < ARRAY_SIZE(names) ? names[state] : NULL;
}

/* ---- one module ------------------------------------------------------------ */

struct action {
	char *name;
	char *detail;
	char *options;
	bool install;
	bool missing; /* neither a file nor an install command: no such module */
};

struct op {
	struct action *actions;
	size_t n, cap;
	bool oom;
};

/* kmod's print_action has no user data: the operation in progress is
 * per thread. */
static __thread struct op *current_op;

static void record_action(struct kmod_module *m, bool install, const char *options)
{
	struct op *op = current_op;
	const char *name = kmod_dl.kmod_module_get_name(m);
	const char *detail = install ? kmod_dl.kmod_module_get_install_commands(m) : kmod_dl.kmod_module_get_path(m);
	struct action *a;

	if (!op || op->oom)
		return;
	if (op->n == op->cap) {
		size_t cap = op->cap ? op->cap * 2 : 8;
		struct action *n = realloc(op->actions, cap * sizeof(*n));
		if (!n) {
			op->oom = true;
			return;
		}
		op->actions = n;
		op->cap = cap;
	}
	a = &op->actions[op->n];
	a->name = strdup(name ? name : "");
	a->detail = strdup(detail ? detail : "");
	a->options = strdup(options ? options : "");
	a->install = install;
	a->missing = !install && !detail;
	if (!a->name || !a->detail || !a->options) {
		free(a->name);
		free(a->detail);
		free(a->options);
		op->oom = true;
		return;
	}
	op->n++;
}

static void op_clear(struct op *op)
{
	for (size_t i = 0; i < op->n; i++) {
		free(op->actions[i].name);
		free(op->actions[i].detail);
		free(op->actions[i].options);
	}
	free(op->actions);
	memset(op, 0, sizeof(*op));
}

static bool our_blacklist(const struct modalias_loader *l, const char *name)
{
	for (size_t i = 0; i < l->n_blacklist; i++)
		if (strcmp(l->blacklist[i], name) == 0)
			return true;
	return false;
}

/* A module of which libkmod knows neither a file nor an install command. */
static void report_not_found(struct modalias_loader *l, const char *module, modalias_load_fn fn, void *data)
{
	info(l->ctx, "%s: module not found in %s\n", module, l->dir ? l->dir : "the module directory");
	if (fn)
		fn(data, module, "", "", MODALIAS_LOAD_NOT_FOUND, -ENOENT);
}

/* kmod's probe of MOD with FLAGS, each module it goes to recorded in OP
 * (emptied first; op->oom when it could not be): its return */
static int probe(struct kmod_module *mod, unsigned int flags, struct op *op)
{
	int r;

	op_clear(op);
	current_op = op;
	r = kmod_dl.kmod_module_probe_insert_module(mod, flags, NULL, NULL, NULL, record_action);
	current_op = NULL;
	return r;
}

/* The file of each module OP would insert, checked before libkmod opens it
 * (kmod_file_check()): 0, or the first error, each refused module reported
 * failed to FN */
static int check_module_files(struct modalias_loader *l, const struct op *op, modalias_load_fn fn, void *data)
{
	int first = 0;

	for (size_t i = 0; i < op->n; i++) {
		const struct action *a = &op->actions[i];
		int r;

		if (a->install || a->missing)
			continue;
		r = kmod_file_check(l, a->detail);
		if (r < 0 && fn)
			fn(data, a->name, a->detail, a->options, MODALIAS_LOAD_FAILED, r);
		if (r < 0 && !first)
			first = r;
	}
	return first;
}

MODALIAS_EXPORT int modalias_loader_load_module(struct modalias_loader *l, const char *module,
						unsigned int flags, modalias_load_fn fn, void *data)
{
	struct kmod_module *mod = NULL;
	struct op op = { 0 };
	bool dry = flags & MODALIAS_LOAD_DRY_RUN;
	int r, state, done = 0;

	if (!l || !module)
		return -EINVAL;
	/* libkmod copies names into fixed buffers: only names reach it */
	r = module_name_ok(l, module, LOG_ERR);
	if (r < 0)
		return r;
	/* libkmod opens the indexes it could not map at each lookup */
	r = kmod_files_check(l, l->kctx);
	if (r < 0)
		return r;
	r = kmod_dl.kmod_module_new_from_name(l->kctx, module, &mod);
	if (r < 0) {
		err(l->ctx, "%.*s: %s\n", LOG_ECHO(module), strerror(-r));
		return r;
	}
	module = kmod_dl.kmod_module_get_name(mod);
	state = kmod_dl.kmod_module_get_initstate(mod);
	if (state == KMOD_MODULE_BUILTIN || state == KMOD_MODULE_LIVE) {
		if (fn)
			fn(data, module, "", "", state == KMOD_MODULE_BUILTIN ? MODALIAS_LOAD_BUILTIN : MODALIAS_LOAD_LIVE, 0);
		kmod_dl.kmod_module_unref(mod);
		return 0;
	}
	if (!kmod_dl.kmod_module_get_path(mod) && !kmod_dl.kmod_module_get_install_commands(mod)) {
		/* modprobe: "Module X not found in directory D" */
		report_not_found(l, module, fn, data);
		kmod_dl.kmod_module_unref(mod);
		return -ENOENT;
	}
	if (our_blacklist(l, module)) {
		if (fn)
			fn(data, module, "", "", MODALIAS_LOAD_BLACKLISTED, 0);
		kmod_dl.kmod_module_unref(mod);
		return 0;
	}
	/* a dry run first, whatever FLAGS: what it would insert, each file
	 * checked before libkmod opens one (nothing is inserted when one is
	 * refused); then, to insert, kmod's probe again (its list is that of
	 * the dry run unless the kernel's modules changed in between) */
	r = probe(mod, KMOD_PROBE_APPLY_BLACKLIST | KMOD_PROBE_DRY_RUN, &op);
	if (!op.oom) {
		int bad = check_module_files(l, &op, fn, data);

		if (bad < 0) {
			op_clear(&op);
			kmod_dl.kmod_module_unref(mod);
			return bad;
		}
		if (!dry)
			r = probe(mod, KMOD_PROBE_APPLY_BLACKLIST, &op);
	}
	if (op.oom) {
		op_clear(&op);
		kmod_dl.kmod_module_unref(mod);
		return -ENOMEM;
	}
	if (r == KMOD_PROBE_APPLY_BLACKLIST) {
		if (fn)
			fn(data, module, "", "", MODALIAS_LOAD_BLACKLISTED, 0);
		r = 0;
	} else {
		for (size_t i = 0; i < op.n; i++) {
			const struct action *a = &op.actions[i];
			enum modalias_load_state st;
			int e = 0;

			if (a->missing) {
				/* a softdep that is a modprobe.d alias to no module
				 * (kmod goes on without it) */
				report_not_found(l, a->name, fn, data);
				continue;
			} else if (dry) {
				st = a->install ? MODALIAS_LOAD_COMMAND : MODALIAS_LOAD_WOULD_INSERT;
			} else if (r < 0 && i + 1 == op.n) {
				/* the one being inserted when it stopped */
				st = MODALIAS_LOAD_FAILED;
				e = r;
			} else {
				/* kmod ignores softdeps' failures: ask the kernel */
				struct kmod_module *m = NULL;
				int s = -ENOENT;

				if (kmod_dl.kmod_module_new_from_name(l->kctx, a->name, &m) == 0) {
					s = kmod_dl.kmod_module_get_initstate(m);
					kmod_dl.kmod_module_unref(m);
				}
				if (a->install || s == KMOD_MODULE_LIVE || s == KMOD_MODULE_COMING) {
					st = a->install ? MODALIAS_LOAD_COMMAND : MODALIAS_LOAD_INSERTED;
				} else {
					st = MODALIAS_LOAD_FAILED;
					e = -EIO;
				}
			}
			/* the caller hears of a failure through fn, and reports it:
			 * logged here for those who asked for details only */
			if (st == MODALIAS_LOAD_FAILED)
				info(l->ctx, "%s: cannot insert %s: %s\n", a->name, a->detail, strerror(-e));
			else
				done++;
			if (fn)
				fn(data, a->name, a->detail, a->options, st, e);
		}
		if (r == 0 && op.n == 0 && fn)
			/* probe found it loaded after all (a race with another loader) */
			fn(data, module, "", "", MODALIAS_LOAD_LIVE, 0);
	}
	op_clear(&op);
	kmod_dl.kmod_module_unref(mod);
	return r < 0 ? r : done;
}

MODALIAS_EXPORT int modalias_loader_load(struct modalias_loader *l, struct modalias_table *table,
					 const char *alias, unsigned int flags, modalias_load_fn fn,
					 void *data)
{
	struct modalias_result *res;
	int r, n, total = 0, first_err = 0;

	if (!l || !table || !alias)
		return -EINVAL;
	r = modalias_result_new(&res);
	if (r < 0)
		return r;
	n = modalias_table_lookup(table, alias, res);
	if (n < 0) {
		modalias_result_unref(res);
		return n;
	}
	if (n == 0)
		dbg(l->ctx, "%.*s: no module\n", LOG_ECHO(alias));
	for (int i = 0; i < n; i++) {
		const char *m = modalias_result_get_module(res, (unsigned int)i);

		if (modalias_result_is_builtin(res, (unsigned int)i)) {
			if (fn)
				fn(data, m, "", "", MODALIAS_LOAD_BUILTIN, 0);
			continue;
		}
		/* a name from the table (a modprobe.d alias may name anything):
		 * one that cannot be a module's is one that is not found */
		r = module_name_ok(l, m, LOG_INFO);
		if (r < 0) {
			if (fn)
				fn(data, m, "", "", MODALIAS_LOAD_NOT_FOUND, r);
		} else {
			r = modalias_loader_load_module(l, m, flags, fn, data);
		}
		if (r < 0 && !first_err)
			first_err = r;
		else if (r > 0)
			total += r;
	}
	modalias_result_unref(res);
	return first_err ? first_err : total;
}

/* ---- what a module declares (modinfo) ------------------------------------------ */

/* Every value of KEY that module M declares, to FN; the number told, or
 * a negative errno (-ENOENT: no modinfo to read, e.g. no .ko file; -EINVAL:
 * a .ko that is not a regular file, never opened). */
static int module_info(struct modalias_loader *l, struct kmod_module *m, const char *key,
		       modalias_modinfo_fn fn, void *data, bool *stop)
{
	struct kmod_list *info = NULL, *it;
	const char *path = kmod_dl.kmod_module_get_path(m);
	int r, n = 0;

	/* libkmod opens it (a builtin's modinfo is modules.builtin.modinfo's) */
	if (path && (r = kmod_file_check(l, path)) < 0)
		return r;
	r = kmod_dl.kmod_module_get_info(m, &info);
	if (r < 0) {
		dbg(l->ctx, "no modinfo for %s: %s\n", kmod_dl.kmod_module_get_name(m), strerror(-r));
		return r;
	}
	for (it = info; it && !*stop; it = kmod_dl.kmod_list_next(info, it)) {
		if (strcmp(kmod_dl.kmod_module_info_get_key(it), key) != 0)
			continue;
		n++;
		*stop = fn(data, kmod_dl.kmod_module_get_name(m), kmod_dl.kmod_module_info_get_value(it), 0) != 0;
	}
	kmod_dl.kmod_module_info_free_list(info);
	return n;
}

MODALIAS_EXPORT int modalias_loader_get_modinfo(struct modalias_loader *l, const char *module, const char *key,
						unsigned int flags, modalias_modinfo_fn fn, void *data)
{
	struct kmod_module *m = NULL;
	struct kmod_list *deps = NULL, *it;
	bool stop = false;
	int r, n;

	if (!l || !module || !key || !fn || (flags & ~MODALIAS_MODINFO_DEPENDENCIES))
		return -EINVAL;
	if ((r = module_name_ok(l, module, LOG_ERR)) < 0)
		return r;
	/* libkmod opens the indexes it could not map at each lookup */
	if ((r = kmod_files_check(l, l->kctx)) < 0)
		return r;
	r = kmod_dl.kmod_module_new_from_name(l->kctx, module, &m);
	if (r < 0)
		return r;
	n = module_info(l, m, key, fn, data, &stop);
	if (n < 0) {
		stop = fn(data, kmod_dl.kmod_module_get_name(m), NULL, n) != 0;
		n = 0;
	}
	if (flags & MODALIAS_MODINFO_DEPENDENCIES)
		deps = kmod_dl.kmod_module_get_dependencies(m);
	for (it = deps; it && !stop; it = kmod_dl.kmod_list_next(deps, it)) {
		struct kmod_module *d = kmod_dl.kmod_module_get_module(it);

		r = module_info(l, d, key, fn, data, &stop);
		if (r < 0)
			stop = fn(data, kmod_dl.kmod_module_get_name(d), NULL, r) != 0;
		else
			n += r;
		kmod_dl.kmod_module_unref(d);
	}
	if (deps)
		kmod_dl.kmod_module_unref_list(deps);
	kmod_dl.kmod_module_unref(m);
	return n;
}
