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
#include <syslog.h>

#include "hotplug-agent.h"

static struct modalias_ctx *ctx;
static struct cli_tables tables;
static pthread_mutex_t kmod_lock = PTHREAD_MUTEX_INITIALIZER; /* libkmod is not thread-safe */

/* one load at a time per module, for the whole run */
struct module_load {
	bool loading;
	pthread_cond_t cond;
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

bool modules_ready(void)
{
	return tables.table != NULL;
}

static void on_module(void *data, const char *module, const char *detail, const char *options,
		      enum modalias_load_state state, int err)
{
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
		struct module_load *st;
		bool mine = false;

		pthread_mutex_lock(&loads_lock);
		st = g_hash_table_lookup(loads, m);
		if (!st) {
			st = g_new0(struct module_load, 1);
			pthread_cond_init(&st->cond, NULL);
			g_hash_table_insert(loads, g_strdup(m), st);
			st->loading = mine = true;
		}
		while (!mine && st->loading)
			pthread_cond_wait(&st->cond, &loads_lock);
		pthread_mutex_unlock(&loads_lock);
		if (!mine)
			continue; /* loaded (or tried) for an earlier event */
		if (modalias_result_is_builtin(res, (unsigned int)i)) {
			say(LOG_DEBUG, "%s: builtin", m);
		} else {
			pthread_mutex_lock(&kmod_lock);
			modalias_loader_load_module(tables.loader, m, settings.dry_run ? MODALIAS_LOAD_DRY_RUN : 0, on_module, NULL);
			pthread_mutex_unlock(&kmod_lock);
		}
		pthread_mutex_lock(&loads_lock);
		st->loading = false;
		pthread_cond_broadcast(&st->cond);
		pthread_mutex_unlock(&loads_lock);
	}
	modalias_result_unref(res);
}
