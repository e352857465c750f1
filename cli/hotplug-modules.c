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
static pthread_mutex_t kmod_lock = PTHREAD_MUTEX_INITIALIZER; /* libkmod is not thread-safe */

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
static pthread_mutex_t loads_lock = PTHREAD_MUTEX_INITIALIZER;

/* cli_tables_open()'s reports, in the agent's log */
static void report_say(void *data, int priority, const char *message)
{
	say(priority, "%s", message);
}

/* As the CLI opens them, index cache included; a modprobe.d or an extra
 * table that cannot be read costs only itself. */
int modules_open(void)
{
	int r;

	if (!ctx) {
		if (modalias_ctx_new(&ctx) < 0)
			return -ENOMEM;
		modalias_ctx_set_log_fn(ctx, say_library, NULL);
	}
	if (!loads)
		loads = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	else
		g_hash_table_remove_all(loads); /* new tables: every module may be tried again */
	modalias_ctx_set_log_priority(ctx, settings.log_level);
	if (settings.sysfs)
		modalias_ctx_set_sysfs_root(ctx, settings.sysfs);
	cli_tables_close(&tables);
	r = cli_tables_open(ctx, &settings.tables, NULL, &config, CLI_TABLES_LOADER | CLI_TABLES_GO_ON, report_say, NULL,
			    &tables);
	if (r < 0)
		return r;
	modalias_table_prepare(tables.table);
	return 0;
}

void modules_close(void)
{
	cli_tables_close(&tables);
	modalias_ctx_unref(ctx);
	ctx = NULL;
	if (loads)
		g_hash_table_unref(loads);
	loads = NULL;
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

/* kmod's rule: '-' and '_' are one */
static bool same_module(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

static void on_module(void *data, const char *module, const char *detail, const char *options,
		      enum modalias_load_state state, int err)
{
	struct attempt *a = data;

	if (a && same_module(module, a->module)) {
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
		if (state == MODALIAS_LOAD_WOULD_INSERT)
			dry_line("load %s", module);
		else if (state == MODALIAS_LOAD_COMMAND)
			dry_line("install %s %s", module, detail);
		return;
	}
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

void modules_load_alias(const char *alias)
{
	struct modalias_result *res;
	int n;

	if (modalias_result_new(&res) < 0)
		return;
	n = modalias_table_lookup(tables.table, alias, res);
	if (n < 0)
		say(LOG_ERR, "'%s': cannot look it up: %s", alias, strerror(-n));
	for (int i = 0; i < n; i++) {
		const char *m = modalias_result_get_module(res, (unsigned int)i);
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
		pthread_mutex_unlock(&loads_lock);
		if (!mine)
			continue; /* loaded (or given up) for an earlier event */
		if (modalias_result_is_builtin(res, (unsigned int)i)) {
			say(LOG_DEBUG, "%s: builtin", m);
			a.state = MODALIAS_LOAD_BUILTIN;
		} else {
			int r;

			pthread_mutex_lock(&kmod_lock);
			r = modalias_loader_load_module(tables.loader, m, settings.dry_run ? MODALIAS_LOAD_DRY_RUN : 0, on_module,
							&a);
			pthread_mutex_unlock(&kmod_lock);
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
		pthread_cond_broadcast(&st->cond);
		pthread_mutex_unlock(&loads_lock);
	}
	modalias_result_unref(res);
}
