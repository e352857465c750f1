/*
 * cli/modalias-diff.c - modalias diff FROM TO: for each device under the
 * sysfs root, the modules kernel FROM's tables and kernel TO's answer (what
 * resolve answers on each, builtins included), and what a move from FROM to
 * TO does to it: same (the same modules, in any order), gained (no module
 * before), lost (none after), builtin (none after, but every module of FROM
 * is built into TO: a driver made =y, whose aliases the kernel no longer
 * records) or changed.  Exit 1 when a device loses its driver, so that an
 * upgrade script can gate on it.
 *
 * This file compares answers; it may not load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modalias-commands.h"

enum change { SAME, GAINED, LOST, BUILTIN, CHANGED, N_CHANGES };
static const char *const change_names[N_CHANGES] = { "same", "gained", "lost", "builtin", "changed" };

struct diff_state {
	struct modalias_ctx *ctx;
	struct modalias_table *from, *to;
	struct modalias_result *res;
	gboolean json, all;
	unsigned int devices, count[N_CHANGES], errors;
	GString *out;
};

/* The modules TABLE answers for ALIAS, in resolve's (kmod's) order */
static GPtrArray *answer(struct diff_state *st, struct modalias_table *table, const char *alias)
{
	GPtrArray *mods = g_ptr_array_new_with_free_func(g_free);
	int n = modalias_table_lookup(table, alias, st->res);

	for (int i = 0; i < n; i++)
		g_ptr_array_add(mods, g_strdup(modalias_result_get_module(st->res, (unsigned int)i)));
	return mods;
}

/* Whether A and B name the same modules: which, not in which order (each
 * list holds a module once) */
static bool same_set(const GPtrArray *a, const GPtrArray *b)
{
	if (a->len != b->len)
		return false;
	for (guint i = 0; i < a->len; i++) {
		guint j = 0;

		while (j < b->len && strcmp(g_ptr_array_index(a, i), g_ptr_array_index(b, j)) != 0)
			j++;
		if (j == b->len)
			return false;
	}
	return true;
}

/* Whether module M is built into TABLE's kernel (modules.builtin names it) */
static bool built_in(struct diff_state *st, struct modalias_table *table, const char *m)
{
	int n = modalias_table_lookup(table, m, st->res);

	for (int i = 0; i < n; i++)
		if (modalias_result_is_builtin(st->res, (unsigned int)i) &&
		    strcmp(modalias_result_get_module(st->res, (unsigned int)i), m) == 0)
			return true;
	return false;
}

static enum change classify(struct diff_state *st, const GPtrArray *from, const GPtrArray *to)
{
	if (same_set(from, to))
		return SAME;
	if (from->len == 0)
		return GAINED;
	if (to->len > 0)
		return CHANGED;
	for (guint i = 0; i < from->len; i++)
		if (!built_in(st, st->to, g_ptr_array_index(from, i)))
			return LOST;
	return BUILTIN;
}

static void json_list(GString *out, const GPtrArray *mods)
{
	g_string_append_c(out, '[');
	for (guint i = 0; i < mods->len; i++) {
		if (i)
			g_string_append(out, ", ");
		json_string(out, g_ptr_array_index(mods, i));
	}
	g_string_append_c(out, ']');
}

static void text_list(const GPtrArray *mods)
{
	if (!mods->len)
		fputs("(none)", stdout);
	for (guint i = 0; i < mods->len; i++)
		printf(i ? " %s" : "%s", cli_shown(g_ptr_array_index(mods, i)));
}

static int diff_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct diff_state *st = data;
	g_autoptr(GPtrArray) from = NULL, to = NULL;
	enum change c;
	char *alias;

	if (err < 0 || modalias_dev_format(dev, &alias) < 0) {
		fprintf(stderr, "modalias diff: %s: cannot read its modalias: %s\n", cli_shown(devpath),
			strerror(err < 0 ? -err : ENOMEM));
		st->errors++;
		return 0;
	}
	from = answer(st, st->from, alias);
	to = answer(st, st->to, alias);
	c = classify(st, from, to);
	st->devices++;
	st->count[c]++;
	if ((c == SAME && !st->all) || (c == SAME && from->len == 0)) {
		free(alias);
		return 0;
	}
	if (st->json) {
		g_string_append(st->out, st->out->len > 1 ? ",\n  {\"devpath\": " : "\n  {\"devpath\": ");
		json_string(st->out, devpath);
		g_string_append(st->out, ", \"modalias\": ");
		json_string(st->out, alias);
		dev_names_json(st->out, st->ctx, dev);
		g_string_append(st->out, ", \"from\": ");
		json_list(st->out, from);
		g_string_append(st->out, ", \"to\": ");
		json_list(st->out, to);
		g_string_append_printf(st->out, ", \"change\": \"%s\"}", change_names[c]);
	} else {
		printf("%s\t%s\t%s\t", change_names[c], cli_shown(devpath), cli_shown(alias));
		text_list(from);
		fputs(" -> ", stdout);
		text_list(to);
		putchar('\n');
		cli_output_check();
	}
	free(alias);
	return 0;
}

/* FROM or TO: a module directory (anything with a '/') or a kernel
 * version under -d ROOT */
static void spec_for(struct cli_tables_spec *out, const struct cli_tables_spec *base, const char *kernel)
{
	*out = (struct cli_tables_spec){ .root = base->root, .modprobe_d = base->modprobe_d, .no_cache = base->no_cache };
	if (strchr(kernel, '/'))
		out->moddir = (char *)kernel;
	else
		out->version = (char *)kernel;
}

int cmd_diff(int argc, char **argv)
{
	struct device_source src = { NULL };
	struct cli_devices dv;
	struct cli_tables_spec spec = { NULL }, from_spec, to_spec;
	struct cli_tables from = { NULL }, to = { NULL };
	struct diff_state st = { 0 };
	const GOptionEntry entries[] = {
		DEVICE_OPTION_ENTRIES(src),
		{ "dirname", 'd', 0, G_OPTION_ARG_FILENAME, &spec.root,
		  "FROM and TO given as versions are in DIR/lib/modules (default /)", "DIR" },
		{ "config", 'C', 0, G_OPTION_ARG_FILENAME, &spec.modprobe_d,
		  "modprobe.d file or directory to read instead of the system's (/dev/null: none)", "FILE" },
		{ "no-cache", 0, 0, G_OPTION_ARG_NONE, &spec.no_cache,
		  "Neither read nor write the index cache ($MODALIAS_CACHE_DIR)", NULL },
		{ "all", 'a', 0, G_OPTION_ARG_NONE, &st.all, "Print the devices that stay the same too", NULL },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &st.json,
		  "Print a JSON array of {devpath, modalias, vendor_name, device_name, class_name, from: [...], "
		  "to: [...], change}", NULL },
		QUIET_OPTION_ENTRY,
		{ NULL }
	};
	struct modalias_ctx *ctx;
	int r = -1;

	parse_options("diff", "FROM TO",
		      "For each device under the sysfs root (or in a snapshot), the modules kernel FROM\n"
		      "and kernel TO would load (a version under -d ROOT, or a module directory:\n"
		      "anything with a '/'), and the change: same, gained, lost, builtin (built into\n"
		      "TO) or changed.  Prints CHANGE<TAB>DEVPATH<TAB>MODALIAS<TAB>FROM -> TO for each\n"
		      "device that changes, then a summary on standard error.\n"
		      "Exit status: 0 no device loses its driver, 1 one does (or there is no device),\n"
		      "2 usage or input error, 3 write error.",
		      entries, &argc, &argv);
	if (argc != 3) {
		if (argc < 3)
			fprintf(stderr, "modalias diff: FROM and TO are needed\n");
		else
			fprintf(stderr, "modalias diff: unexpected argument '%.*s'\n", ECHO(argv[3]));
		cli_tables_spec_clear(&spec);
		device_source_clear(&src);
		return CLI_EXIT_USAGE;
	}
	ctx = open_devices(&src, "diff", &dv);
	st.ctx = ctx;
	spec_for(&from_spec, &spec, argv[1]);
	spec_for(&to_spec, &spec, argv[2]);
	if (open_tables(ctx, &from_spec, "diff", 0, &from) < 0 || open_tables(ctx, &to_spec, "diff", 0, &to) < 0 ||
	    modalias_result_new(&st.res) < 0)
		goto out;
	st.from = from.table;
	st.to = to.table;
	st.out = g_string_new("[");
	r = cli_devices_foreach(&dv, diff_one, &st);
	if (st.json) {
		g_string_append(st.out, st.out->len > 1 ? "\n]\n" : "]\n");
		cli_output_puts(st.out->str);
	}
	if (r < 0)
		fprintf(stderr, "modalias diff: cannot walk the devices: %s\n", strerror(-r));
	else if (!quiet)
		fprintf(stderr, "%u devices: %u same, %u gained, %u lost, %u built in, %u changed\n", st.devices,
			st.count[SAME], st.count[GAINED], st.count[LOST], st.count[BUILTIN], st.count[CHANGED]);
	g_string_free(st.out, TRUE);
out:
	modalias_result_unref(st.res);
	cli_tables_close(&from);
	cli_tables_close(&to);
	cli_tables_spec_clear(&spec);
	cli_devices_close(&dv);
	modalias_ctx_unref(ctx);
	if (r < 0 || st.errors)
		return CLI_EXIT_USAGE;
	return st.count[LOST] || !st.devices ? CLI_EXIT_NOTHING : CLI_EXIT_OK;
}
