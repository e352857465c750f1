/*
 * cli/hotplug-modules.c - the agent's library objects and its module
 * loading: the context, the tables and libkmod's loader opened by libcli
 * as the CLI opens them (index cache included), and each module loaded
 * once for the whole run, whichever events want it.
 *
 * This file loads modules; it may not run a handler or know where an
 * event came from.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <stdio.h>
#include <syslog.h>
#include <unistd.h>

#include "hotplug-agent.h"

static struct modalias_ctx *ctx;
static struct cli_tables tables;
/* What a dry run asks whether a module is in the kernel already: the
 * devices being walked (modules_set_devices(): a snapshot's, a captured
 * tree's), else those of the sysfs root */
static struct cli_devices sysfs_devices;
static const struct cli_devices *walked;
/* libkmod's contexts are not thread-safe: each load takes a loader of its
 * own from this pool (up to the online CPUs, made as libcli makes the
 * tables' one), so that unrelated modules are inserted at once.
 * libkmod inserts a module's dependencies and softdeps first, in the same
 * thread; a module wanted by two events is loaded by one of them (loads,
 * below), and the kernel makes a second insertion of a shared dependency
 * still coming wait for the first.  The pool is emptied only when no event
 * runs (modules_open(), modules_close()). */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cond = PTHREAD_COND_INITIALIZER;
static GPtrArray *pool_free; /* struct modalias_loader *, not in use */
static GPtrArray *pool_all;  /* every loader made here (owns them) */
static pthread_mutex_t kmod_lock = PTHREAD_MUTEX_INITIALIZER; /* the tables' loader, when the pool has none */

/* A module that fails to load is tried again on the next events that want
 * it, this many times in all (hotplug(8)). */
#define LOAD_ATTEMPTS 3

/* one load at a time per module, for the whole run, and how the last went */
struct module_load {
	bool loading;
	bool tried;                       /* last holds the last attempt's outcome */
	enum modalias_load_state last;
	unsigned int failures;
	pthread_cond_t cond;
};

/* What an attempt reported for the module it was made for (its
 * dependencies are reported through on_module too). */
struct attempt {
	const char *module;
	enum modalias_load_state state;
	bool reported;
};

static GHashTable *loads; /* name → struct module_load */
/* names a device's modalias named, loaded → 1 + the depth of the shallowest
 * such device's path ('/'s: a controller before the devices behind it) */
static GHashTable *wanted;
static void (*inserted_fn)(const char *module); /* modules_on_insert() */
static pthread_mutex_t loads_lock = PTHREAD_MUTEX_INITIALIZER;

static void loader_free(gpointer l)
{
	modalias_loader_unref(l);
}

static void pool_clear(void)
{
	if (pool_free)
		g_ptr_array_set_size(pool_free, 0);
	if (pool_all)
		g_ptr_array_set_size(pool_all, 0);
}

/* Insertions at once: the online CPUs (an insertion is the kernel's CPU
 * work: decompress, relocate, init), at most settings.max_parallel */
static guint pool_size(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return (guint)MAX(1, MIN(cpus > 0 ? cpus : 1, settings.max_parallel));
}

/* A loader of the thread's own, or NULL when none can be made (then the
 * tables' one, under kmod_lock) */
static struct modalias_loader *pool_get(void)
{
	struct modalias_loader *l = NULL;

	pthread_mutex_lock(&pool_lock);
	if (!pool_all) {
		pool_free = g_ptr_array_new();
		pool_all = g_ptr_array_new_with_free_func(loader_free);
	}
	while (!l) {
		if (pool_free->len > 0) {
			l = g_ptr_array_steal_index_fast(pool_free, pool_free->len - 1);
		} else if (pool_all->len < pool_size()) {
			/* checked again: the loader reads modprobe.d now, not when
			 * the tables opened (refused: the tables' own loader) */
			if (cli_tables_trusted(&settings.tables, &config, tables.dir, NULL, NULL) < 0 ||
			    cli_loader_new(ctx, &settings.tables, &config, tables.dir, &l) < 0)
				break;
			g_ptr_array_add(pool_all, l);
		} else {
			pthread_cond_wait(&pool_cond, &pool_lock);
		}
	}
	pthread_mutex_unlock(&pool_lock);
	return l;
}

static void pool_put(struct modalias_loader *l)
{
	pthread_mutex_lock(&pool_lock);
	g_ptr_array_add(pool_free, l);
	pthread_cond_signal(&pool_cond);
	pthread_mutex_unlock(&pool_lock);
}

/* cli_tables_open()'s reports, in the agent's log */
static void report_say(void *data, int priority, const char *message)
{
	say(priority, "%s", message);
}

int modules_open_ctx(void)
{
	if (!ctx) {
		if (modalias_ctx_new(&ctx) < 0)
			return -ENOMEM;
		modalias_ctx_set_log_fn(ctx, say_library, NULL);
	}
	modalias_ctx_set_log_priority(ctx, settings.log_level);
	if (settings.sysfs)
		modalias_ctx_set_sysfs_root(ctx, settings.sysfs);
	return 0;
}

/* As the CLI opens them, index cache included; an extra table that cannot
 * be read, or is refused, costs only itself.  Root acts on them: the
 * module directory and the modprobe.d paths modalias.conf names must pass
 * the trust walk (CLI_TABLES_TRUSTED), else no tables at all (a modprobe.d
 * left out would drop its blacklists); the command line's are root's own
 * choice, as modprobe's -d and -C. */
int modules_open(void)
{
	int r = modules_open_ctx();

	if (r < 0)
		return r;
	if (!loads) {
		loads = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
		wanted = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	} else {
		g_hash_table_remove_all(loads); /* new tables: every module may be tried again */
	}
	cli_devices_open(&sysfs_devices, ctx, NULL); /* no snapshot: nothing to fail */
	pool_clear();
	cli_tables_close(&tables);
	r = cli_tables_open(ctx, &settings.tables, NULL, &config,
			    CLI_TABLES_LOADER | CLI_TABLES_GO_ON | CLI_TABLES_TRUSTED, report_say, NULL, &tables);
	if (r < 0)
		return r;
	modalias_table_prepare(tables.table);
	return 0;
}

void modules_close(void)
{
	pool_clear();
	cli_tables_close(&tables);
	cli_devices_close(&sysfs_devices);
	modalias_ctx_unref(ctx);
	ctx = NULL;
	if (loads)
		g_hash_table_unref(loads);
	if (wanted)
		g_hash_table_unref(wanted);
	loads = wanted = NULL;
}

struct modalias_ctx *modules_ctx(void)
{
	return ctx;
}

bool modules_stale(void)
{
	return tables.table && modalias_table_is_current(tables.table) == 0;
}

bool modules_ready(void)
{
	return tables.table != NULL;
}

/* A dry run's line for MODULE, what would happen to it: inserted ("load
 * M"), an install command run ("install M COMMAND"), or nothing, as it is
 * in the kernel ("loaded M", "builtin M") or blacklisted ("blacklisted M") */
static void dry_module(const char *module, const char *detail, enum modalias_load_state state)
{
	static const char *const verbs[] = {
		[MODALIAS_LOAD_WOULD_INSERT] = "load",
		[MODALIAS_LOAD_LIVE] = "loaded",
		[MODALIAS_LOAD_BUILTIN] = "builtin",
		[MODALIAS_LOAD_BLACKLISTED] = "blacklisted",
	};

	if (state == MODALIAS_LOAD_COMMAND)
		dry_line("install %s %s", cli_shown(module), cli_shown(detail));
	else if ((unsigned int)state < G_N_ELEMENTS(verbs) && verbs[state])
		dry_line("%s %s", verbs[state], cli_shown(module));
}

static void on_module(void *data, const char *module, const char *detail, const char *options,
		      enum modalias_load_state state, int err)
{
	struct attempt *a = data;

	if (a && cli_same_module(module, a->module)) {
		a->state = state;
		a->reported = true;
	}
	/* the library reports these through here alone: logged once, as errors
	 * (a dry run's missing module too) */
	if (state == MODALIAS_LOAD_FAILED || state == MODALIAS_LOAD_NOT_FOUND) {
		say(LOG_ERR, "%s: %s (%s)", module, modalias_load_state_name(state), strerror(-err));
		return;
	}
	if (settings.dry_run) {
		dry_module(module, detail, state);
		return;
	}
	if (state == MODALIAS_LOAD_INSERTED && inserted_fn)
		inserted_fn(module);
	if (state == MODALIAS_LOAD_INSERTED || state == MODALIAS_LOAD_COMMAND)
		say(LOG_INFO, "%s %s", modalias_load_state_name(state), module);
	else
		say(LOG_DEBUG, "%s: %s", module, modalias_load_state_name(state));
}

/* Whether module M is in the kernel now: kmod's test, /sys/module/M (a
 * module removed with rmmod is gone from there) */
static bool module_live(const char *m)
{
	char path[4200];

	snprintf(path, sizeof(path), "/sys/module/%s", m);
	for (char *p = path + strlen("/sys/module/"); *p; p++)
		if (*p == '-')
			*p = '_';
	return access(path, F_OK) == 0;
}

/* Whether an earlier attempt, ST, leaves module M to be loaded again: it
 * was removed since (rmmod), or it failed fewer than LOAD_ATTEMPTS times. */
static bool load_again(const struct module_load *st, const char *m)
{
	if (!st->tried)
		return true;
	switch (st->last) {
	case MODALIAS_LOAD_INSERTED:
	case MODALIAS_LOAD_LIVE:
		if (settings.dry_run || module_live(m))
			return false;
		say(LOG_INFO, "%s: no longer loaded (removed?): loading it again", m);
		return true;
	case MODALIAS_LOAD_FAILED:
	case MODALIAS_LOAD_NOT_FOUND:
		if (st->failures < LOAD_ATTEMPTS)
			return true;
		if (st->failures == LOAD_ATTEMPTS)
			say(LOG_DEBUG, "%s: failed %u times: not tried again", m, st->failures);
		return false;
	default: /* a dry run's, an install command, blacklisted, builtin */
		return false;
	}
}

void modules_on_insert(void (*fn)(const char *module))
{
	inserted_fn = fn;
}

/* M, whose last attempt is ST, wanted by a device at DEPTH (1 + its path's
 * depth; 0: none): counted once it is loaded, the shallowest device kept
 * (under loads_lock) */
static void want_loaded(const struct module_load *st, const char *m, guint depth)
{
	guint had;

	if (!depth || !st->tried || (st->last != MODALIAS_LOAD_INSERTED && st->last != MODALIAS_LOAD_LIVE))
		return;
	had = GPOINTER_TO_UINT(g_hash_table_lookup(wanted, m));
	if (!had || depth < had)
		g_hash_table_insert(wanted, g_strdup(m), GUINT_TO_POINTER(depth));
}

/* Loads module M once, as modules_load_alias() says, unless KNOWN says it
 * is in the kernel already (MODALIAS_LOAD_BUILTIN, MODALIAS_LOAD_LIVE;
 * else MODALIAS_LOAD_INSERTED: to be loaded); one a device at DEPTH wanted
 * (1 + the depth of its path; 0: no device, a name) is counted as wanted
 * when it ends up loaded, whoever loaded it. */
static void load_one(const char *m, enum modalias_load_state known, guint depth)
{
	struct attempt a = { .module = m, .state = MODALIAS_LOAD_INSERTED };
	struct module_load *st;
	bool mine = false;

	pthread_mutex_lock(&loads_lock);
	st = g_hash_table_lookup(loads, m);
	if (!st) {
		st = g_new0(struct module_load, 1);
		pthread_cond_init(&st->cond, NULL);
		g_hash_table_insert(loads, g_strdup(m), st);
	}
	/* a second event for a module being loaded waits for that result */
	while (st->loading)
		pthread_cond_wait(&st->cond, &loads_lock);
	if (load_again(st, m))
		st->loading = mine = true;
	else
		want_loaded(st, m, depth); /* loaded for an earlier event */
	pthread_mutex_unlock(&loads_lock);
	if (!mine)
		return; /* loaded (or given up) for an earlier event */
	if (known == MODALIAS_LOAD_BUILTIN || known == MODALIAS_LOAD_LIVE) {
		say(LOG_DEBUG, "%s: %s", m, modalias_load_state_name(known));
		a.state = known;
		if (settings.dry_run)
			dry_module(m, "", known);
	} else {
		unsigned int flags = settings.dry_run ? MODALIAS_LOAD_DRY_RUN : 0;
		struct modalias_loader *l = pool_get();
		int r;

		if (l) {
			r = modalias_loader_load_module(l, m, flags, on_module, &a);
			pool_put(l);
		} else {
			pthread_mutex_lock(&kmod_lock);
			r = modalias_loader_load_module(tables.loader, m, flags, on_module, &a);
			pthread_mutex_unlock(&kmod_lock);
		}
		if (r < 0 && !a.reported) {
			say(LOG_ERR, "%s: cannot be loaded: %s", m, strerror(-r));
			a.state = MODALIAS_LOAD_FAILED;
		}
	}
	pthread_mutex_lock(&loads_lock);
	st->loading = false;
	st->tried = true;
	st->last = a.state;
	if (a.state == MODALIAS_LOAD_FAILED || a.state == MODALIAS_LOAD_NOT_FOUND)
		st->failures++;
	want_loaded(st, m, depth);
	pthread_cond_broadcast(&st->cond);
	pthread_mutex_unlock(&loads_lock);
}

void modules_set_devices(const struct cli_devices *dv)
{
	walked = dv;
}

static const struct cli_devices *dry_devices(void)
{
	return walked ? walked : &sysfs_devices;
}

/* Module I of RES, for a device bound to DRIVER of DRIVER_MODULE (either
 * NULL): built in as the table says; for a dry run, built in or loaded as
 * the devices' machine says (cli_module_state(); a real run's loader asks
 * the kernel itself) */
static enum modalias_load_state known_state(const struct modalias_result *res, unsigned int i, const char *driver,
					    const char *driver_module)
{
	const char *st;

	if (!settings.dry_run)
		return modalias_result_is_builtin(res, i) ? MODALIAS_LOAD_BUILTIN : MODALIAS_LOAD_INSERTED;
	st = cli_module_state(dry_devices(), &tables, res, i, driver, driver_module);
	if (strcmp(st, "builtin") == 0)
		return MODALIAS_LOAD_BUILTIN;
	return strcmp(st, "loaded") == 0 ? MODALIAS_LOAD_LIVE : MODALIAS_LOAD_INSERTED;
}

void modules_load_alias(const char *devpath, const char *alias)
{
	g_autofree char *driver = NULL, *driver_module = NULL;
	struct modalias_result *res;
	guint depth = 1;
	int n;

	for (const char *p = devpath ? devpath : ""; *p; p++)
		depth += *p == '/';
	if (modalias_result_new(&res) < 0)
		return;
	n = modalias_table_lookup(tables.table, alias, res);
	if (n < 0)
		say(LOG_ERR, "'%s': cannot look it up: %s", alias, strerror(-n));
	/* a dry run tells a module the device's bound driver is as loaded */
	if (n > 0 && settings.dry_run && devpath)
		cli_devices_get_driver(dry_devices(), devpath, &driver, &driver_module, NULL);
	for (int i = 0; i < n; i++)
		load_one(modalias_result_get_module(res, (unsigned int)i),
			 known_state(res, (unsigned int)i, driver, driver_module), depth);
	modalias_result_unref(res);
}

void modules_load_name(const char *module)
{
	load_one(module, MODALIAS_LOAD_INSERTED, 0);
}

struct wanted_one {
	char *name;
	guint depth;
};

/* the shallowest devices' modules first, then by name */
static gint wanted_cmp(gconstpointer a, gconstpointer b)
{
	const struct wanted_one *x = a, *y = b;

	return x->depth != y->depth ? (x->depth < y->depth ? -1 : 1) : strcmp(x->name, y->name);
}

GPtrArray *modules_wanted(void)
{
	g_autoptr(GArray) all = g_array_new(FALSE, FALSE, sizeof(struct wanted_one));
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter it;
	gpointer name, depth;

	pthread_mutex_lock(&loads_lock);
	g_hash_table_iter_init(&it, wanted);
	while (g_hash_table_iter_next(&it, &name, &depth))
		g_array_append_val(all, ((struct wanted_one){ g_strdup(name), GPOINTER_TO_UINT(depth) }));
	pthread_mutex_unlock(&loads_lock);
	g_array_sort(all, wanted_cmp);
	for (guint i = 0; i < all->len; i++)
		g_ptr_array_add(names, g_array_index(all, struct wanted_one, i).name);
	return names;
}

const char *modules_dir(void)
{
	return tables.dir ? tables.dir : "";
}
