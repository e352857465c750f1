/*
 * cli/modalias-explain.c - modalias explain: why a device has the driver
 * it has, or none.  Where its modalias came from; which source, file:line
 * and pattern matched (the lookup's own account, as resolve --explain);
 * each module's state; the driver bound in sysfs and any driver_override,
 * with a plain sentence when they disagree; and when nothing matches, the
 * nearest patterns (modalias_table_find_nearest()); always a verdict
 * sentence.  A device is named by its devpath or its name (0000:00:03.0);
 * the exit status follows the verdict: a driver bound, or none though
 * every module that matches is in the kernel (0: nothing to do), none
 * bound though a module that matches is not in the kernel (4: load it, or
 * lift its blacklist), neither (1); of a bare modalias, whether a module
 * matches (0, 1).  A string that is neither a device nor a modalias
 * is an input error (2), said on standard error, with no report.
 *
 * This file looks up and prints; it may not load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modalias-commands.h"

/* At most this many nearest patterns are told */
#define NEAREST_MAX 8

struct near {
	char *module, *pattern, *claims, *differs;
	unsigned int matched;
};

struct nearest {
	GArray *items; /* struct near */
	unsigned int total;
};

static int on_near(void *data, const char *module, const char *pattern, const char *claims, const char *differs,
		   unsigned int matched)
{
	struct nearest *n = data;
	struct near it = { g_strdup(module), g_strdup(pattern), g_strdup(claims), g_strdup(differs), matched };

	n->total++;
	if (n->items->len < NEAREST_MAX)
		g_array_append_val(n->items, it);
	else {
		g_free(it.module);
		g_free(it.pattern);
		g_free(it.claims);
		g_free(it.differs);
	}
	return 0;
}

static void near_clear(void *p)
{
	struct near *it = p;

	g_free(it->module);
	g_free(it->pattern);
	g_free(it->claims);
	g_free(it->differs);
}

/* What is told of a module matched, asked once for every sentence and
 * line that tells it */
struct module_facts {
	const char *state;          /* cli_module_state() */
	const char *blacklisted_by; /* modalias_table_get_blacklist_origin(); NULL when not */
	unsigned int blacklisted_line; /* 0 when not known */
	char *blacklisted_where; /* the same for people (FILE:LINE), naming modalias.conf's
				  * blacklist= when it is that; NULL when not */
};

struct explain {
	const char *arg;
	char *devpath;       /* below the sysfs root, "/devices/…"; NULL for a bare modalias */
	char *devdir;        /* the full path (in a snapshot: "FILE: DEVPATH") */
	struct cli_devices dv;
	char *alias;
	const char *from;    /* where the modalias came from */
	char *from_path;
	char *driver, *driver_module, *override;
	struct modalias_dev *dev; /* the alias parsed, for field values */
	struct modalias_result *res;
	int n;               /* modules matched */
	struct module_facts *mods; /* n of them, as the result orders them */
	struct nearest near;
	int near_r;          /* modalias_table_find_nearest()'s answer */
	const char *driver_builtin; /* where the bound driver, or its module, is
				     * built in ("the kernel"; "these tables'
				     * kernel" when only foreign tables say so);
				     * NULL when not known to be */
	int wanting;         /* the first module matched that is not in the kernel
			      * (not loaded nor built in: loading it, or lifting
			      * its blacklist, is the action); -1 when none */
	GString *verdict;    /* the plain sentence */
};

/* Whether ARG is a modalias of a bus the library knows ("pci:…"): no
 * device is named so */
static bool is_bus_alias(const char *arg)
{
	const char *colon = strchr(arg, ':'), *bus;

	for (unsigned int i = 0; colon && (bus = modalias_bus_name(i)); i++)
		if (strlen(bus) == (size_t)(colon - arg) && strncmp(arg, bus, (size_t)(colon - arg)) == 0)
			return true;
	return false;
}

/* Whether ARG is shaped as a device's name rather than a modalias: it is
 * no known bus's, and the part before its first ':' (a modalias's bus)
 * starts with a digit or holds a character no bus's name has, a capital
 * (0000:00:03.0, 00:1f.3, 1-1:1.0, 0003:046D:C52B.0001, 0:0:0:0,
 * PNP0A03:00), or only numbers, ':' and '.' follow it (target0:0:0,
 * mmc0:0001:1, device:00).  The kernel's buses are named in lower case,
 * a letter first, and their aliases' fields are tagged. */
static bool is_name_shaped(const char *arg)
{
	const char *colon = strchr(arg, ':');

	if (!colon || colon == arg || !colon[1] || is_bus_alias(arg))
		return false;
	if (g_ascii_isdigit(arg[0]))
		return true;
	for (const char *p = arg; p < colon; p++)
		if (!g_ascii_islower(*p) && !g_ascii_isdigit(*p) && *p != '_' && *p != '-')
			return true;
	for (const char *p = colon + 1; *p; p++)
		if (!g_ascii_isdigit(*p) && *p != ':' && *p != '.')
			return false;
	return true;
}

/* A string given on the command line that names no device, that no alias
 * pattern matches, and that is no modalias: the library cannot read it as
 * one (no "bus:", or a known bus's fields malformed), or it is shaped as a
 * device's name (is_name_shaped()): a typo, an input error, not a device
 * without a driver */
static bool not_a_modalias(const struct explain *e)
{
	return !e->devpath && e->n == 0 && (!e->dev || is_name_shaped(e->arg));
}

/* Whether the module NAME ('-' and '_' alike) is module I of the result */
static bool is_module(const struct modalias_result *res, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (cli_same_module(modalias_result_get_module(res, (unsigned int)i), name))
			return true;
	return false;
}

/* A field's value in the alias, "?" when unset */
static const char *field_value(const struct explain *e, const char *field)
{
	const char *v = NULL;

	if (!e->dev || !field || modalias_dev_get(e->dev, field, 0, &v) < 0)
		return "?";
	return v;
}

/* Each module's state and where it is blacklisted, asked once, after the
 * lookup and the driver bound are known */
static void ask_modules(struct explain *e, const struct cli_tables *tables)
{
	e->mods = g_new0(struct module_facts, (gsize)e->n);
	e->wanting = -1;
	for (int i = 0; i < e->n; i++) {
		unsigned int mi = (unsigned int)i;
		struct module_facts *f = &e->mods[i];

		f->state = cli_module_state(&e->dv, tables, e->res, mi, e->driver, e->driver_module);
		if (e->wanting < 0 && strcmp(f->state, "loaded") != 0 && strcmp(f->state, "builtin") != 0)
			e->wanting = i;
		f->blacklisted_by = modalias_table_get_blacklist_origin(tables->table, modalias_result_get_module(e->res, mi),
									 &f->blacklisted_line);
		if (!f->blacklisted_by)
			continue;
		{
			/* modalias.conf's own blacklist= (cli-tables.c), not modprobe.d */
			bool settings = config.path && strcmp(f->blacklisted_by, config.path) == 0;
			g_autofree char *at = f->blacklisted_line ? g_strdup_printf("%s:%u", cli_shown(f->blacklisted_by),
										   f->blacklisted_line)
								    : g_strdup(cli_shown(f->blacklisted_by));

			f->blacklisted_where = settings ? g_strdup_printf("the [modules] blacklist= of modalias.conf %s", at)
							: g_steal_pointer(&at);
		}
	}
}

/* Whether the bound driver, or its module ('-' and '_' alike: virtio-pci
 * is virtio_pci), is built in: the machine's record first, then the
 * tables' (modules.builtin, modules.builtin.modinfo), theirs another
 * kernel's when they are foreign */
static void ask_driver_builtin(struct explain *e, const struct cli_tables *tables)
{
	const char *names[] = { e->driver_module, e->driver };

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		if (names[i] && cli_devices_is_module_builtin(&e->dv, names[i])) {
			e->driver_builtin = "the kernel";
			return;
		}
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		if (names[i] && modalias_table_is_module_builtin(tables->table, names[i]) > 0) {
			e->driver_builtin = tables->foreign ? "these tables' kernel" : "the kernel";
			return;
		}
}

/* The plain sentence: what the aliases say against what sysfs shows */
static void judge(struct explain *e)
{
	GString *v = e->verdict;
	bool bound_matches = e->driver && (is_module(e->res, e->n, e->driver) || is_module(e->res, e->n, e->driver_module));

	if (e->override && e->driver && strcmp(e->override, e->driver) != 0)
		g_string_append_printf(v, "driver_override asks for %s, but %s is bound. ", e->override, e->driver);
	else if (e->override)
		g_string_append_printf(v, "driver_override=%s: only that driver may bind, whatever the aliases say. ",
				       e->override);
	if (!e->devpath) {
		if (e->n > 0) {
			const char *m = modalias_result_get_module(e->res, 0);
			const struct module_facts *f = &e->mods[0];

			g_string_append_printf(v, "%s matches this modalias%s", m, e->n > 1 ? ", and others" : "");
			if (strcmp(f->state, "blacklisted") == 0 && f->blacklisted_where)
				g_string_append_printf(v, ", but is blacklisted by %s (not loaded for it by its alias)",
						       f->blacklisted_where);
			g_string_append(v, ". ");
		}
		else
			g_string_append(v, "No module matches this modalias. ");
		g_string_truncate(v, v->len - 1);
		return;
	}
	if (e->driver && bound_matches)
		g_string_append_printf(v, "%s is bound, as the aliases say. ", e->driver);
	else if (e->driver && e->n <= 0 && e->driver_builtin) {
		g_string_append(v, e->driver);
		if (e->driver_module && !cli_same_module(e->driver_module, e->driver))
			g_string_append_printf(v, " (module %s)", e->driver_module);
		g_string_append_printf(v, " is bound: it is built into %s, and these tables record no alias of it "
					  "(modules.alias lists loadable modules' only; a built-in driver matches by its own "
					  "id table, or by name). ",
				       e->driver_builtin);
	} else if (e->driver && e->n <= 0)
		g_string_append_printf(v, "%s is bound although no alias pattern names a module for this device "
					  "(driver_override, new_id, or a driver that matches by other means). ",
				       e->driver);
	else if (e->driver && !bound_matches && e->driver_module)
		g_string_append_printf(v, "%s (module %s) is bound, but the aliases name %s%s. ", e->driver,
				       e->driver_module, modalias_result_get_module(e->res, 0), e->n > 1 ? " and others" : "");
	else if (e->driver && !bound_matches)
		g_string_append_printf(v, "%s is bound, but the aliases name %s%s (a driver may be named otherwise "
					  "than its module; no driver/module link here tells which module it is in). ",
				       e->driver, modalias_result_get_module(e->res, 0), e->n > 1 ? " and others" : "");
	else if (!e->driver && e->n > 0 && e->wanting < 0) {
		/* every module that matches is in the kernel: nothing to load */
		const struct module_facts *f = &e->mods[0];

		if (e->n > 1)
			g_string_append_printf(v, "No driver is bound although %s and the other modules that match are in the "
						  "kernel (loaded or built in): ", modalias_result_get_module(e->res, 0));
		else
			g_string_append_printf(v, "No driver is bound although %s matches and is %s: ",
					       modalias_result_get_module(e->res, 0), f->state);
		g_string_append(v, "a module may serve a device without binding it (an input handler, a cpu feature "
				   "module, the driver of an ACPI node's physical device), or it did not bind (it may "
				   "have refused the device). ");
	} else if (!e->driver && e->n > 0) {
		/* the first module that is not in the kernel: what to load, or
		 * whose blacklist to lift */
		const char *m = modalias_result_get_module(e->res, (unsigned int)e->wanting);
		const struct module_facts *f = &e->mods[e->wanting];
		const char *st = f->state;

		if (strcmp(st, "blacklisted") == 0 && f->blacklisted_where)
			g_string_append_printf(v, "No driver is bound: %s matches but is blacklisted by %s. ", m,
					       f->blacklisted_where);
		else if (strcmp(st, "blacklisted") == 0)
			g_string_append_printf(v, "No driver is bound: %s matches but is blacklisted. ", m);
		else if (strcmp(st, "available") == 0)
			g_string_append_printf(v, "No driver is bound: %s matches but is not loaded. ", m);
		else if (strcmp(st, "not-loaded") == 0)
			g_string_append_printf(v, "No driver is bound: %s matches in these tables and is not loaded; whether "
						  "the machine's kernel has it, tables of another kernel cannot tell. ", m);
		else /* unknown */
			g_string_append_printf(v, "No driver is bound: %s matches; whether it is loaded is not recorded "
						  "(a captured tree without /sys/module, or a snapshot of one). ", m);
	} else if (!e->driver) {
		g_string_append(v, "No driver is bound, and no module matches this device. ");
	}
	if (v->len)
		g_string_truncate(v, v->len - 1);
}

static void print_human(const struct explain *e, struct modalias_ctx *ctx, const struct cli_tables *tables)
{
	if (e->devpath)
		printf("device:   %s\n", cli_shown(e->devpath));
	printf("modalias: %s\n", cli_shown(e->alias));
	if (e->from_path)
		printf("  from %s %s\n", e->from, cli_shown(e->from_path));
	else
		printf("  from %s\n", e->from);
	{
		g_autofree char *name = dev_name_text(ctx, e->dev);

		if (name)
			printf("name:     %s\n", name);
	}
	if (e->n > 0)
		printf("match:    %s\n", modalias_result_get_source(e->res));
	else
		printf("match:    none\n");
	for (int i = 0; i < e->n; i++) {
		unsigned int mi = (unsigned int)i;

		const char *state = e->mods[i].state;
		/* where, when that is its state (a module loaded all the same is
		 * told loaded; --json tells where it is blacklisted) */
		const char *bl = strcmp(state, "blacklisted") == 0 ? e->mods[i].blacklisted_where : NULL;

		if (bl)
			printf("  %s: %s (%s)\n", cli_shown(modalias_result_get_module(e->res, mi)), state, bl);
		else
			printf("  %s: %s\n", cli_shown(modalias_result_get_module(e->res, mi)), state);
		for (unsigned int k = 0; k < modalias_result_get_pattern_count(e->res, mi); k++) {
			unsigned int line = 0;
			const char *origin = modalias_result_get_pattern_origin(e->res, mi, k, &line);

			if (line)
				printf("    %s  (%s:%u)\n", cli_shown(modalias_result_get_pattern(e->res, mi, k)),
				       cli_shown(origin), line);
			else
				printf("    %s  (%s)\n", cli_shown(modalias_result_get_pattern(e->res, mi, k)), cli_shown(origin));
		}
		print_weakdeps(tables->table, modalias_result_get_module(e->res, mi));
	}
	if (e->n <= 0) {
		if (e->near_r == -EOPNOTSUPP)
			printf("nearest:  (not told for %s aliases)\n", e->dev ? modalias_dev_get_bus(e->dev) : "these");
		else if (e->near.items->len == 0)
			printf("nearest:  no pattern of this bus names a field that matches\n");
		for (guint i = 0; i < e->near.items->len; i++) {
			const struct near *it = &g_array_index(e->near.items, struct near, i);
			const struct near *prev = i ? &g_array_index(e->near.items, struct near, i - 1) : NULL;

			/* one sentence for a module's run of patterns */
			if (!prev || strcmp(prev->module, it->module) != 0 || strcmp(prev->claims, it->claims) != 0 ||
			    strcmp(prev->differs, it->differs) != 0)
				printf("%s %s claims %s %s but not %s %s\n", i ? "         " : "nearest: ", cli_shown(it->module),
				       it->claims, cli_shown(field_value(e, it->claims)), it->differs,
				       cli_shown(field_value(e, it->differs)));
			printf("           %s\n", cli_shown(it->pattern));
		}
		if (e->near.total > e->near.items->len)
			printf("           %s and %u more\n", cli_output_glyphs()->ellipsis,
			       e->near.total - e->near.items->len);
	}
	if (e->devpath) {
		printf("bound:    %s\n", e->driver ? cli_shown(e->driver) : "none");
		if (e->override)
			printf("driver_override: %s\n", cli_shown(e->override));
	}
	printf("%s\n", cli_shown(e->verdict->str));
}

/* "driver": …, "driver_override": … of E, as both JSON objects write them */
static void json_bound(GString *j, const struct explain *e)
{
	g_string_append(j, "\"driver\": ");
	json_string_or_null(j, e->driver);
	g_string_append(j, ", \"driver_override\": ");
	json_string_or_null(j, e->override);
}

static void print_json(const struct explain *e, struct modalias_ctx *ctx, const struct cli_tables *tables)
{
	GString *j = g_string_new("{\"devpath\": ");

	json_string_or_null(j, e->devpath);
	g_string_append(j, ", \"modalias\": ");
	json_string(j, e->alias);
	dev_names_json(j, ctx, e->dev);
	g_string_append(j, ", \"from\": ");
	json_string(j, e->from);
	g_string_append(j, ", \"from_path\": ");
	json_string_or_null(j, e->from_path);
	g_string_append(j, ",\n \"source\": ");
	json_string_or_null(j, e->n > 0 ? modalias_result_get_source(e->res) : NULL);
	g_string_append(j, ", \"modules\": [");
	for (int i = 0; i < e->n; i++) {
		unsigned int mi = (unsigned int)i;

		g_string_append(j, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
		json_string(j, modalias_result_get_module(e->res, mi));
		g_string_append(j, ", \"state\": ");
		json_string(j, e->mods[i].state);
		if (e->mods[i].blacklisted_by) {
			g_string_append(j, ", \"blacklisted_by\": {\"file\": ");
			json_string(j, e->mods[i].blacklisted_by);
			g_string_append_printf(j, ", \"line\": %u}", e->mods[i].blacklisted_line);
		}
		g_string_append(j, ", \"patterns\": [");
		for (unsigned int k = 0; k < modalias_result_get_pattern_count(e->res, mi); k++) {
			unsigned int line = 0;
			const char *origin = modalias_result_get_pattern_origin(e->res, mi, k, &line);

			g_string_append(j, k ? ", {\"pattern\": " : "{\"pattern\": ");
			json_string(j, modalias_result_get_pattern(e->res, mi, k));
			g_string_append(j, ", \"file\": ");
			json_string(j, origin ? origin : "");
			g_string_append_printf(j, ", \"line\": %u}", line);
		}
		g_string_append(j, "]");
		{
			const char *const *weak = NULL;
			if (modalias_table_get_weakdeps(tables->table, modalias_result_get_module(e->res, mi), &weak) > 0) {
				g_string_append(j, ", \"weakdeps\": [");
				for (size_t w = 0; weak[w]; w++) {
					g_string_append(j, w ? ", " : "");
					json_string(j, weak[w]);
				}
				g_string_append(j, "]");
			}
		}
		g_string_append(j, "}");
	}
	g_string_append(j, "],\n ");
	json_bound(j, e);
	g_string_append(j, ", \"verdict\": ");
	json_string(j, e->verdict->str);
	g_string_append(j, ",\n \"nearest\": [");
	for (guint i = 0; i < e->near.items->len; i++) {
		const struct near *it = &g_array_index(e->near.items, struct near, i);

		g_string_append(j, i ? ",\n  {\"module\": " : "\n  {\"module\": ");
		json_string(j, it->module);
		g_string_append(j, ", \"pattern\": ");
		json_string(j, it->pattern);
		g_string_append(j, ", \"claims\": ");
		json_string(j, it->claims);
		g_string_append(j, ", \"differs\": ");
		json_string(j, it->differs);
		g_string_append(j, "}");
	}
	g_string_append_printf(j, "], \"nearest_total\": %u}\n", e->near.total);
	cli_output_puts(j->str);
	g_string_free(j, TRUE);
}

/* The one object of a device without a modalias (a class device): its
 * devpath and driver, "modalias": null, nothing matched, and "above",
 * the devpath of the nearest device above it that has one (the one to
 * explain), or null */
static void print_json_unaliased(const struct explain *e, const char *above)
{
	GString *j = g_string_new("{\"devpath\": ");
	g_autoptr(GString) verdict = g_string_new(NULL);

	if (e->driver)
		g_string_append_printf(verdict, "The device has no modalias: %s is bound", e->driver);
	else
		g_string_append(verdict, "The device has no modalias, and no driver is bound");
	if (above)
		g_string_append_printf(verdict, "; the device above it that has one is %s, the one to explain", above);
	g_string_append_c(verdict, '.');
	json_string(j, e->devpath);
	g_string_append(j, ", \"modalias\": null, \"from\": null, \"from_path\": null,\n \"source\": null, \"modules\": [],\n ");
	json_bound(j, e);
	g_string_append(j, ", \"verdict\": ");
	json_string(j, verdict->str);
	g_string_append(j, ", \"above\": ");
	json_string_or_null(j, above);
	g_string_append(j, ",\n \"nearest\": [], \"nearest_total\": 0}\n");
	cli_output_puts(j->str);
	g_string_free(j, TRUE);
}

/* Where the kernel's modalias of DEVDIR is: the library reads the
 * "modalias" attribute, else uevent's MODALIAS=, else rebuilds it from the
 * id attributes (modalias_dev_new_from_sysfs()) */
static void modalias_origin(struct explain *e)
{
	g_autofree char *attr = g_build_filename(e->devdir, "modalias", NULL);
	g_autofree char *uevent = g_build_filename(e->devdir, "uevent", NULL);
	g_autofree char *text = NULL;

	if (access(attr, F_OK) == 0) {
		e->from = "the attribute";
		e->from_path = g_steal_pointer(&attr);
	} else if (g_file_get_contents(uevent, &text, NULL, NULL) && strstr(text, "MODALIAS=")) {
		e->from = "the MODALIAS line of";
		e->from_path = g_steal_pointer(&uevent);
	} else {
		e->from = "its id attributes (rebuilt) in";
		e->from_path = g_strdup(e->devdir);
	}
}

/* Whether ARG is a path below the sysfs root rather than a name or a
 * modalias: it starts with '/' (a devpath, or a path with the root), or
 * with one of the root's directories that lead to devices */
static bool is_sysfs_path(const char *arg)
{
	static const char *const tops[] = { "devices/", "bus/", "class/", "block/", "dev/" };

	if (arg[0] == '/')
		return true;
	for (size_t i = 0; i < G_N_ELEMENTS(tops); i++)
		if (g_str_has_prefix(arg, tops[i]))
			return true;
	return false;
}

/* The devpath ("/devices/…") of the device ARG leads to: ARG is a path
 * below the sysfs root of CTX, with or without the root or the leading
 * '/'.  Of the sysfs root, its links followed inside it
 * (modalias_sysfs_devpath()): a bus's or class's link is its device's
 * devpath; a devpath that is not there is taken as it is (reading it says
 * why).  Of a snapshot, which records no links, a devpath only.  NULL and
 * a message when ARG leads to no device. */
static char *devpath_of(struct modalias_ctx *ctx, const char *given, const char *snapshot)
{
	const char *root = modalias_ctx_get_sysfs_root(ctx), *arg = given;
	size_t rl = strlen(root);
	g_autofree char *rel = NULL, *full = NULL;
	char *devpath = NULL;
	int r;

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (strncmp(arg, root, rl) == 0 && arg[rl] == '/')
		arg += rl;
	rel = arg[0] == '/' ? g_strdup(arg) : g_strconcat("/", arg, NULL);
	r = snapshot ? -ENOENT : modalias_sysfs_devpath(ctx, rel, &devpath);
	if (r == 0)
		return devpath;
	if (r == -ENOENT && g_str_has_prefix(rel, "/devices/"))
		return g_steal_pointer(&rel);
	if (snapshot) {
		fprintf(stderr, "modalias explain: %s: a snapshot records no bus/ or class/ links to follow: give the "
			"device's devpath (/devices/%s, as modalias list --snapshot %s prints it) or its name\n",
			ECHO(given), cli_output_glyphs()->ellipsis, cli_shown(snapshot));
		return NULL;
	}
	full = g_build_filename(root, rel, NULL);
	if (r == -ENOENT)
		fprintf(stderr, "modalias explain: %s: %s\n", cli_shown(full), strerror(ENOENT));
	else {
		g_autofree char *why = r == -ENODEV ? g_strdup("") : g_strdup_printf(" (%s)",
			r == -EXDEV ? "it leads out of the sysfs root" : strerror(-r));

		fprintf(stderr, "modalias explain: %s leads to no device below %s/devices%s: give a device's path there, "
			"a link to one (bus/*/devices/, class/) or its name\n", cli_shown(full), cli_shown(root), why);
	}
	return NULL;
}

struct named {
	const char *name;
	GPtrArray *devpaths; /* of the devices so named */
};

static int find_named(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct named *nm = data;
	const char *slash = strrchr(devpath, '/');

	if (strcmp(slash ? slash + 1 : devpath, nm->name) == 0)
		g_ptr_array_add(nm->devpaths, g_strdup(devpath));
	return 0;
}

/* The devpath of the device named NAME (the last component of its devpath,
 * as list --tree shows it: 0000:00:03.0, 1-1:1.0, virtio0) under the sysfs
 * root or in the snapshot; NULL when none is (NAME is then a modalias, or
 * an input error: the caller says which).  Several: an error listing them,
 * *err set. */
static char *devpath_named(const struct cli_devices *dv, const char *name, const char *where, bool *err)
{
	struct named nm = { name, g_ptr_array_new_with_free_func(g_free) };
	char *devpath = NULL;

	*err = false;
	if (strchr(name, '/') || is_bus_alias(name)) {
		g_ptr_array_unref(nm.devpaths);
		return NULL;
	}
	cli_devices_foreach(dv, find_named, &nm); /* unreadable: no device is so named */
	if (nm.devpaths->len == 1) {
		devpath = g_strdup(g_ptr_array_index(nm.devpaths, 0));
	} else if (nm.devpaths->len > 1) {
		g_autofree char *all = NULL;

		g_ptr_array_add(nm.devpaths, NULL);
		all = g_strjoinv(", ", (char **)nm.devpaths->pdata);
		fprintf(stderr, "modalias explain: '%s' names %u devices in %s: %s; give the devpath of one\n",
			ECHO(name), nm.devpaths->len - 1, cli_shown(where), cli_shown(all));
		*err = true;
	}
	g_ptr_array_unref(nm.devpaths);
	return devpath;
}

/* The devpath of the nearest device above DEVPATH that has a modalias (a
 * class device's: /sys/class/net/eth0's network card), below /devices;
 * NULL when none has */
static char *devpath_above(const struct cli_devices *dv, const char *devpath)
{
	g_autofree char *p = g_strdup(devpath);
	char *slash;

	while ((slash = strrchr(p, '/')) && (size_t)(slash - p) > strlen("/devices")) {
		struct modalias_dev *dev = NULL;

		*slash = '\0';
		if (cli_devices_get_dev(dv, p, &dev) == 0) {
			modalias_dev_unref(dev);
			return g_steal_pointer(&p);
		}
	}
	return NULL;
}

int cmd_explain(int argc, char **argv)
{
	struct device_source src = { NULL };
	struct cli_tables_spec spec = { NULL };
	struct cli_tables tables = { NULL };
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		DEVICE_OPTION_ENTRIES(src),
		TABLE_OPTION_ENTRIES(spec),
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &json,
		  "Print one JSON object {devpath, modalias, vendor_name, device_name, class_name, from, "
		  "from_path, source, modules, driver, driver_override, verdict, nearest}; of a device without "
		  "a modalias, modalias null and above, the device above it that has one", NULL },
		QUIET_OPTION_ENTRY,
		{ NULL }
	};
	struct explain e = { 0 };
	g_autofree char *snapshot = NULL, *where = NULL;
	struct modalias_ctx *ctx;
	int r, ret = CLI_EXIT_FOUND;
	bool as_name;

	parse_options("explain", "DEVPATH | DEVICE | MODALIAS",
		      "Say why a device has the driver it has, or none: where its modalias comes from,\n"
		      "which source, file:line and pattern match it, each module's state, the driver\n"
		      "bound in sysfs and any driver_override, and a verdict sentence; when nothing\n"
		      "matches, the nearest patterns of its bus (of its class first) and the first\n"
		      "field that differs.  DEVPATH is a path below the sysfs root, with or without it,\n"
		      "that starts with '/', 'devices/', 'bus/', 'class/', 'block/' or 'dev/': the\n"
		      "device its links lead to inside the root (/sys/bus/pci/devices/0000:00:03.0,\n"
		      "/sys/class/net/eth0), shown by its devpath; in a snapshot, which records no\n"
		      "links, a devpath (/devices/...).  DEVICE is a device's name, the last component\n"
		      "of its devpath (0000:00:03.0, 1-1:1.0, virtio0), looked for there; anything\n"
		      "else is a modalias.  A string that names no device and that no pattern matches,\n"
		      "when it is no modalias (no \"bus:\", a known bus's fields malformed) or is shaped\n"
		      "as a device's name (a digit or a capital before its first ':', 0000:00:99.0,\n"
		      "1-9:1.0; or only numbers after it), is an input error: no report.\n"
		      "Exit status: 0 a driver is bound to the device, or none is though every module\n"
		      "that matches is in the kernel, loaded or built in (nothing to load: an input\n"
		      "handler, a cpu feature module serve devices without binding them; a driver\n"
		      "may have refused the device; of a MODALIAS: a module matches), 4 none is bound\n"
		      "and a module that matches is not in the kernel (not loaded, blacklisted, or\n"
		      "not known to be loaded: load it, or lift its blacklist), 1 none is bound and\n"
		      "no module matches (of a MODALIAS: none matches; a device without a modalias,\n"
		      "nothing bound), 2 usage or input error (no such device; a DEVICE that names\n"
		      "several devices), 3 write error.",
		      entries, &argc, &argv);
	if (argc != 2) {
		cli_tables_spec_clear(&spec);
		device_source_clear(&src);
		return argc < 2 ? usage_error("explain", "a DEVPATH, a DEVICE or a MODALIAS is needed")
				: usage_error("explain", "unexpected argument '%s'", ECHO(argv[2]));
	}
	snapshot = g_strdup(src.snapshot);
	ctx = open_devices(&src, "explain", &e.dv);
	e.arg = argv[1];
	e.verdict = g_string_new(NULL);
	e.near.items = g_array_new(FALSE, TRUE, sizeof(struct near));
	g_array_set_clear_func(e.near.items, near_clear);
	r = open_machine_tables(ctx, &e.dv, &spec, "explain", 0, &tables);
	cli_tables_spec_clear(&spec);
	if (r < 0 || modalias_result_new(&e.res) < 0) {
		ret = CLI_EXIT_USAGE;
		goto out;
	}
	if (is_sysfs_path(e.arg)) {
		e.devpath = devpath_of(ctx, e.arg, snapshot);
		if (!e.devpath) {
			ret = CLI_EXIT_USAGE;
			goto out;
		}
	} else {
		bool several;

		where = snapshot ? g_strdup(snapshot) : g_build_filename(modalias_ctx_get_sysfs_root(ctx), "devices", NULL);
		e.devpath = devpath_named(&e.dv, e.arg, where, &several);
		if (several) {
			ret = CLI_EXIT_USAGE;
			goto out;
		}
	}
	if (e.devpath) {
		struct modalias_dev *dev = NULL;

		e.devdir = snapshot ? g_strdup_printf("%s: %s", snapshot, e.devpath)
				    : g_build_filename(modalias_ctx_get_sysfs_root(ctx), e.devpath, NULL);
		r = cli_devices_get_dev(&e.dv, e.devpath, &dev);
		if (r == -ENODATA) {
			/* no alias to explain; whether a driver is bound is still the answer */
			g_autofree char *above = devpath_above(&e.dv, e.devpath);

			cli_devices_get_driver(&e.dv, e.devpath, &e.driver, &e.driver_module, &e.override);
			fprintf(stderr, "modalias explain: %s: the device has no modalias; bound: %s", cli_shown(e.devdir),
				e.driver ? cli_shown(e.driver) : "none");
			if (above)
				fprintf(stderr, "; the device above it that has one: %s", cli_shown(above));
			fputc('\n', stderr);
			if (json)
				print_json_unaliased(&e, above);
			ret = e.driver ? CLI_EXIT_FOUND : CLI_EXIT_NOTHING;
			goto out;
		} else if (r < 0) {
			fprintf(stderr, "modalias explain: %s: %s\n", cli_shown(e.devdir),
				r == -ENOENT && snapshot ? "no such device in the snapshot" : strerror(-r));
			ret = CLI_EXIT_USAGE;
			goto out;
		}
		r = modalias_dev_format(dev, &e.alias);
		modalias_dev_unref(dev);
		if (r < 0) {
			fprintf(stderr, "modalias explain: %s: cannot write its modalias: %s\n", cli_shown(e.devdir), strerror(-r));
			ret = CLI_EXIT_USAGE;
			goto out;
		}
		if (snapshot) {
			e.from = "the snapshot";
			e.from_path = g_strdup(snapshot);
		} else {
			modalias_origin(&e);
		}
		cli_devices_get_driver(&e.dv, e.devpath, &e.driver, &e.driver_module, &e.override);
	} else {
		e.alias = strdup(e.arg);
		e.from = "the command line";
	}
	if (!e.alias) {
		fprintf(stderr, "modalias explain: %s\n", strerror(ENOMEM));
		ret = CLI_EXIT_USAGE;
		goto out;
	}
	/* for field values in the nearest sentences; an alias of no known bus
	 * has none; a string without a ':' is none (said below, once) */
	{
		struct modalias_dev *parsed = NULL;

		if (strchr(e.alias, ':') && modalias_parse(ctx, e.alias, &parsed) >= 0)
			e.dev = parsed;
	}
	e.n = modalias_table_lookup(tables.table, e.alias, e.res);
	if (e.n < 0) {
		fprintf(stderr, "modalias explain: cannot look '%s' up: %s\n", ECHO(e.alias), strerror(-e.n));
		ret = CLI_EXIT_USAGE;
		goto out;
	}
	/* a name looked for, not found (devpath_named()) */
	as_name = where && !e.devpath && !strchr(e.arg, '/') && !is_bus_alias(e.arg);
	if (not_a_modalias(&e)) {
		/* an input error: the error, no report */
		const char *give = "give a device's devpath, sysfs path or name (as modalias list --tree shows it), "
				   "or a modalias as the kernel writes it (modalias build)";

		if (as_name)
			fprintf(stderr, "modalias explain: no such device: '%s' (no device that has a modalias is so "
				"named in %s), and no modalias: %s\n", ECHO(e.arg), cli_shown(where), give);
		else
			fprintf(stderr, "modalias explain: '%s' is no modalias a kernel writes: %s\n", ECHO(e.arg), give);
		ret = CLI_EXIT_USAGE;
		goto out;
	}
	if (as_name && !quiet)
		fprintf(stderr, "modalias explain: no device that has a modalias is named '%s' in %s: it is taken as a "
			"modalias\n", ECHO(e.arg), cli_shown(where));
	if (e.n == 0)
		e.near_r = modalias_table_find_nearest(tables.table, e.alias, on_near, &e.near);
	ask_modules(&e, &tables);
	if (e.driver && e.n == 0)
		ask_driver_builtin(&e, &tables);
	judge(&e);
	if (json)
		print_json(&e, ctx, &tables);
	else
		print_human(&e, ctx, &tables);
	/* as the verdict: a device's driver bound, or every module that
	 * matches in the kernel (nothing to load); none bound though a module
	 * that matches is not in the kernel; neither; a bare modalias's module */
	if (e.driver || (e.n > 0 && (!e.devpath || e.wanting < 0)))
		ret = CLI_EXIT_FOUND;
	else
		ret = e.n > 0 ? CLI_EXIT_UNBOUND : CLI_EXIT_NOTHING;
out:
	g_free(e.devpath);
	g_free(e.devdir);
	free(e.alias);
	g_free(e.from_path);
	g_free(e.driver);
	g_free(e.driver_module);
	g_free(e.override);
	modalias_dev_unref(e.dev);
	g_array_unref(e.near.items);
	g_string_free(e.verdict, TRUE);
	for (int i = 0; e.mods && i < e.n; i++)
		g_free(e.mods[i].blacklisted_where);
	g_free(e.mods);
	modalias_result_unref(e.res);
	cli_tables_close(&tables);
	cli_devices_close(&e.dv);
	modalias_ctx_unref(ctx);
	return ret;
}
