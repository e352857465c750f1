/*
 * cli/modalias-diff.c - modalias diff FROM TO: for each device under the
 * sysfs root, the modules kernel FROM's tables and kernel TO's answer (what
 * resolve answers on each, builtins included), and what a move from FROM to
 * TO does to it: same (the same modules, in any order), gained (no module
 * before; unless FROM has TO's built in: builtin), lost (none after, and a
 * module of FROM is gone from TO's tables), builtin (none after, but every
 * module of FROM is built into TO: a driver made =y, whose aliases the
 * kernel no longer records), unmatched (none after, but every module of
 * FROM is still in TO: its modalias no longer names them, as 6.12 loads
 * acpi_cpufreq through a platform device instead of the CPU's ACPI one),
 * changed, or none (no module on either side).  A module is built into a
 * kernel when its tables say so (modalias_table_is_module_builtin():
 * modules.builtin or modules.builtin.modinfo).  Exit 4 when a device that
 * had a module has none in TO and one is gone (lost), else 5 when one has
 * none but TO still has its modules (unmatched), so that an upgrade script
 * can gate on it and tell the two apart; 1 when there is no device at all.
 * On a terminal (or with --width) the lines are kept until every column's
 * width is known, then aligned and cut to the width (cli-columns.h), the
 * module lists the last to give way; a line whose lists do not fit shows
 * each side's own modules only (those the other side lacks), then how many
 * were left out and how many both have, so that what differs stays in
 * sight.
 *
 * This file compares answers; it may not load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli-columns.h"
#include "modalias-commands.h"

enum change { SAME, GAINED, LOST, BUILTIN, CHANGED, UNMATCHED, NO_MODULE, N_CHANGES };
static const char *const change_names[N_CHANGES] = { "same",	"gained",    "lost", "builtin",
						     "changed", "unmatched", "none" };

struct diff_state {
	struct modalias_ctx *ctx;
	struct modalias_table *from, *to;
	struct modalias_result *res;
	gboolean json, all;
	unsigned int devices, count[N_CHANGES], errors;
	GString *out;
	GPtrArray *rows; /* of struct diff_row: a width to fit; else NULL */
};

/* A side of a line, FROM's or TO's: its text as shown (escaped by
 * cli_shown()), and when it is a list of modules, those the other side
 * does not have (OWN, shown as the text shows them) and how many both
 * have (BOTH); OWN is NULL for a text that is no list ("(none)", …) */
struct diff_side {
	char *text;
	GPtrArray *own;
	unsigned int both;
};

/* A line of the human output kept until every column's width is known */
struct diff_row {
	const char *change;
	char *devpath, *modalias;
	struct diff_side from, to;
};

static void side_clear(struct diff_side *side)
{
	g_free(side->text);
	if (side->own)
		g_ptr_array_unref(side->own);
}

static void row_free(gpointer p)
{
	struct diff_row *row = p;

	g_free(row->devpath);
	g_free(row->modalias);
	side_clear(&row->from);
	side_clear(&row->to);
	g_free(row);
}

/* The modules TABLE answers for ALIAS, in resolve's (kmod's) order */
static GPtrArray *answer(struct diff_state *st, struct modalias_table *table, const char *alias)
{
	GPtrArray *mods = g_ptr_array_new_with_free_func(g_free);
	int n = modalias_table_lookup(table, alias, st->res);

	for (int i = 0; i < n; i++)
		g_ptr_array_add(mods, g_strdup(modalias_result_get_module(st->res, (unsigned int)i)));
	return mods;
}

/* Whether LIST names M */
static bool has_module(const GPtrArray *list, const char *m)
{
	for (guint i = 0; i < list->len; i++)
		if (strcmp(g_ptr_array_index(list, i), m) == 0)
			return true;
	return false;
}

/* Whether A and B name the same modules: which, not in which order (each
 * list holds a module once) */
static bool same_set(const GPtrArray *a, const GPtrArray *b)
{
	if (a->len != b->len)
		return false;
	for (guint i = 0; i < a->len; i++)
		if (!has_module(b, g_ptr_array_index(a, i)))
			return false;
	return true;
}

/* Where TABLE's kernel has module M: built in (modules.builtin, or only
 * modules.builtin.modinfo, as a bool option's driver), in modules.dep, or
 * not at all (a modprobe.d install command for a module is no module) */
enum presence { ABSENT, MODULE, BUILT_IN };

static enum presence presence(struct diff_state *st, struct modalias_table *table, const char *m)
{
	int n;
	const char *source;

	if (modalias_table_is_module_builtin(table, m) > 0)
		return BUILT_IN;
	n = modalias_table_lookup(table, m, st->res);
	source = modalias_result_get_source(st->res);
	for (int i = 0; i < n; i++) {
		if (strcmp(modalias_result_get_module(st->res, (unsigned int)i), m) != 0)
			continue;
		if (modalias_result_is_builtin(st->res, (unsigned int)i))
			return BUILT_IN;
		if (strcmp(source, "name") == 0)
			return MODULE;
	}
	return ABSENT;
}

/* The change FROM -> TO; in GONE FROM's modules TO does not have, in
 * FROM_BUILTIN TO's modules FROM does not name but has built in */
static enum change classify(struct diff_state *st, const GPtrArray *from, const GPtrArray *to, GPtrArray *gone,
			    GPtrArray *from_builtin)
{
	bool all_built_in = true;

	if (same_set(from, to))
		return from->len ? SAME : NO_MODULE;
	for (guint i = 0; i < to->len; i++)
		if (!has_module(from, g_ptr_array_index(to, i)) &&
		    presence(st, st->from, g_ptr_array_index(to, i)) == BUILT_IN)
			g_ptr_array_add(from_builtin, g_ptr_array_index(to, i));
	/* built into FROM, whose aliases it does not record: no gain */
	if (from->len == 0)
		return from_builtin->len == to->len ? BUILTIN : GAINED;
	for (guint i = 0; i < from->len; i++) {
		enum presence p = presence(st, st->to, g_ptr_array_index(from, i));

		if (p == ABSENT)
			g_ptr_array_add(gone, g_ptr_array_index(from, i));
		all_built_in = all_built_in && p == BUILT_IN;
	}
	if (to->len > 0)
		return CHANGED;
	if (gone->len)
		return LOST;
	return all_built_in ? BUILTIN : UNMATCHED;
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

/* MODS shown for people, one space apart, "(none)" when empty */
static char *text_list(const GPtrArray *mods)
{
	GString *s = g_string_new(mods->len ? NULL : "(none)");

	for (guint i = 0; i < mods->len; i++) {
		if (i)
			g_string_append_c(s, ' ');
		cli_shown_append(s, g_ptr_array_index(mods, i));
	}
	return g_string_free(s, FALSE);
}

/* FROM's modules shown for people: FROM's list, "(none; built in)" for
 * one whose TO modules FROM has built in */
static char *text_from(enum change c, const GPtrArray *from)
{
	return c == BUILTIN && from->len == 0 ? g_strdup("(none; built in)") : text_list(from);
}

/* TO's modules shown for people: TO's list, and when a device that had
 * modules has none, why: "(none; still in TO)" when TO has every one of
 * them, "(none; gone: M ...)" when it has some of them only */
static char *text_to(enum change c, const GPtrArray *from, const GPtrArray *to, const GPtrArray *gone)
{
	GString *s;

	if (c == UNMATCHED)
		return g_strdup("(none; still in TO)");
	if (c != LOST || gone->len == from->len)
		return text_list(to);
	s = g_string_new("(none; gone:");
	for (guint i = 0; i < gone->len; i++) {
		g_string_append_c(s, ' ');
		cli_shown_append(s, g_ptr_array_index(gone, i));
	}
	g_string_append_c(s, ')');
	return g_string_free(s, FALSE);
}

/* The widths of the columns: the change, the devpath, the modalias, FROM's
 * modules and TO's (the last column, never padded) */
struct diff_layout {
	size_t change, dev, alias, from, to;
};

/* The gaps of a line: two spaces between columns, " -> " before TO's */
#define DIFF_GAPS (2 + 2 + 2 + 4)

/*
 * The widths for rows whose widest columns are W's in a line of WIDTH
 * columns: all of each when that fits; else the change keeps its own, the
 * module lists take what they need of the rest but leave the devpath a
 * quarter and the modalias an eighth (less when they are narrower; SHORT,
 * for lists shown short, whose every word differs: an eighth and a
 * sixteenth), FROM's what TO's leave but at least half; the devpath then
 * takes what the modalias leaves of the remainder but at least its share
 * (SHORT: all but the modalias's share, the devpath naming the device),
 * and the modalias what remains.
 */
static void diff_layout(struct diff_layout *l, size_t width, const struct diff_layout *w, bool short_lists)
{
	size_t rest, dev, alias, mods, left;

	*l = *w;
	if (w->change + w->dev + w->alias + w->from + w->to + DIFF_GAPS <= width)
		return;
	rest = width > w->change + DIFF_GAPS + 4 ? width - w->change - DIFF_GAPS : 4;
	dev = MIN(w->dev, MAX(rest / (short_lists ? 8 : 4), 1));
	alias = MIN(w->alias, MAX(rest / (short_lists ? 16 : 8), 1));
	left = dev + alias; /* kept for the devpath and the modalias */
	mods = MIN(w->from + w->to, rest > left + 2 ? rest - left : 2);
	l->from = MAX(MIN(w->from, MAX(mods > w->to ? mods - w->to : 0, mods / 2)), 1);
	l->to = MAX(MIN(w->to, mods > l->from ? mods - l->from : 1), 1);
	left = rest > l->from + l->to + 2 ? rest - l->from - l->to : 2;
	if (short_lists)
		dev = MAX(dev, left > alias ? left - alias : 1);
	l->dev = MIN(w->dev, MAX(left > w->alias ? left - w->alias : 0, dev));
	l->alias = MAX(MIN(w->alias, left > l->dev ? left - l->dev : 1), 1);
}

/* SIDE's own modules, the first K of them, then in parentheses how many
 * more it has ("+N more") and how many both sides have ("N in both"):
 * "sha1_ssse3 sha256_ssse3 (+6 more, 4 in both)" */
static char *side_short(const struct diff_side *side, guint k)
{
	GString *s = g_string_new(NULL);
	guint more = side->own->len - k;

	for (guint i = 0; i < k; i++)
		g_string_append_printf(s, "%s%s", i ? " " : "", (const char *)g_ptr_array_index(side->own, i));
	if (more || side->both) {
		g_string_append(s, k ? " (" : "(");
		if (more)
			g_string_append_printf(s, "+%u more%s", more, side->both ? ", " : "");
		if (side->both)
			g_string_append_printf(s, "%u in both", side->both);
		g_string_append_c(s, ')');
	}
	return g_string_free(s, FALSE);
}

/* The columns SIDE takes on a line whose lists are shown short: its own
 * modules whole (a text that is no list: itself) */
static size_t side_short_cols(const struct diff_side *side)
{
	g_autofree char *s = NULL;

	if (!side->own)
		return cli_text_cols(side->text);
	s = side_short(side, side->own->len);
	return cli_text_cols(s);
}

/* SIDE in W columns, shown short: as many of its own modules as fit,
 * whole, and the count of the rest (none fit: its start cut with an
 * ellipsis); returns the columns used */
static size_t append_side_short(GString *line, const struct diff_side *side, size_t w)
{
	g_autofree char *all = NULL;

	if (!side->own)
		return cli_append_cut(line, side->text, w, false);
	for (guint k = side->own->len + 1; k-- > 0;) {
		g_autofree char *s = side_short(side, k);
		size_t cols = cli_text_cols(s);

		if (cols <= w) {
			g_string_append(line, s);
			return cols;
		}
	}
	all = side_short(side, side->own->len);
	return cli_append_cut(line, all, w, false);
}

/* Whether ROW's module lists fit columns of L whole */
static bool lists_fit(const struct diff_row *row, const struct diff_layout *l)
{
	return cli_text_cols(row->from.text) <= l->from && cli_text_cols(row->to.text) <= l->to;
}

/* ROW's module lists in columns FROM_W and TO_W, " -> " between them:
 * whole when both fit, else each side's own modules first, so that what
 * differs stays in sight (else "aesni_intel s… -> aesni_intel k…") */
static void append_lists(GString *line, const struct diff_row *row, const struct diff_layout *l)
{
	size_t used;

	if (lists_fit(row, l)) {
		g_string_append(line, row->from.text);
		used = cli_text_cols(row->from.text);
	} else {
		used = append_side_short(line, &row->from, l->from);
	}
	for (; used < l->from; used++)
		g_string_append_c(line, ' ');
	g_string_append(line, " -> ");
	if (lists_fit(row, l))
		g_string_append(line, row->to.text);
	else
		append_side_short(line, &row->to, l->to);
}

/* ROWS aligned in columns, cut to WIDTH columns when they do not fit: laid
 * out for their whole lists; when some do not fit, again for those shown
 * short */
static void diff_print_columns(GPtrArray *rows, size_t width)
{
	g_autoptr(GString) line = g_string_new(NULL);
	struct diff_layout w = { 0 }, l, ws = { 0 };
	bool all_fit = true;

	for (guint i = 0; i < rows->len; i++) {
		const struct diff_row *row = g_ptr_array_index(rows, i);

		w.change = MAX(w.change, strlen(row->change));
		w.dev = MAX(w.dev, cli_text_cols(row->devpath));
		w.alias = MAX(w.alias, cli_text_cols(row->modalias));
		w.from = MAX(w.from, cli_text_cols(row->from.text));
		w.to = MAX(w.to, cli_text_cols(row->to.text));
	}
	diff_layout(&l, width, &w, false);
	ws = w;
	ws.from = ws.to = 0;
	for (guint i = 0; i < rows->len; i++) {
		const struct diff_row *row = g_ptr_array_index(rows, i);
		bool fit = lists_fit(row, &l);

		all_fit = all_fit && fit;
		ws.from = MAX(ws.from, fit ? cli_text_cols(row->from.text) : side_short_cols(&row->from));
		ws.to = MAX(ws.to, fit ? cli_text_cols(row->to.text) : side_short_cols(&row->to));
	}
	if (!all_fit)
		diff_layout(&l, width, &ws, true);
	for (guint i = 0; i < rows->len; i++) {
		const struct diff_row *row = g_ptr_array_index(rows, i);

		g_string_append(line, row->change);
		cli_column_gap(line, strlen(row->change), l.change);
		cli_column_gap(line, cli_append_cut(line, row->devpath, l.dev, true), l.dev);
		cli_column_gap(line, cli_append_cut(line, row->modalias, l.alias, false), l.alias);
		append_lists(line, row, &l);
		g_string_append_c(line, '\n');
		cli_output_puts(line->str);
		g_string_truncate(line, 0);
	}
}

/* A side of a line: TEXT (taken), and when MODS has modules, those OTHER
 * does not have and how many both have */
static void side_fill(struct diff_side *side, char *text, const GPtrArray *mods, const GPtrArray *other)
{
	*side = (struct diff_side){ text, NULL, 0 };
	if (!mods->len)
		return;
	side->own = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < mods->len; i++) {
		const char *m = g_ptr_array_index(mods, i);

		if (has_module(other, m))
			side->both++;
		else
			g_ptr_array_add(side->own, g_strdup(cli_shown(m)));
	}
}

static int diff_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct diff_state *st = data;
	g_autoptr(GPtrArray) from = NULL, to = NULL, gone = NULL, from_builtin = NULL;
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
	gone = g_ptr_array_new();         /* FROM's strings */
	from_builtin = g_ptr_array_new(); /* TO's */
	c = classify(st, from, to, gone, from_builtin);
	st->devices++;
	st->count[c]++;
	if ((c == SAME && !st->all) || c == NO_MODULE) {
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
		g_string_append_printf(st->out, ", \"change\": \"%s\", \"gone\": ", change_names[c]);
		json_list(st->out, gone);
		g_string_append(st->out, ", \"from_builtin\": ");
		json_list(st->out, from_builtin);
		g_string_append_c(st->out, '}');
	} else if (st->rows) {
		struct diff_row *row = g_new(struct diff_row, 1);

		row->change = change_names[c];
		row->devpath = g_strdup(cli_shown(devpath));
		row->modalias = g_strdup(cli_shown(alias));
		side_fill(&row->from, text_from(c, from), from, to);
		side_fill(&row->to, text_to(c, from, to, gone), to, from);
		g_ptr_array_add(st->rows, row);
	} else {
		g_autofree char *f = text_from(c, from), *t = text_to(c, from, to, gone);

		printf("%s\t%s\t%s\t%s -> %s\n", change_names[c], cli_shown(devpath), cli_shown(alias), f, t);
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

/* Whether the module directory of SPEC, kernel WHICH (FROM or TO) given as
 * ARG, has a modules.alias; when it has none, says so in diff's own terms
 * (the general hint names -m and -S, which diff does not take) */
static bool tables_there(const struct cli_tables_spec *spec, const char *which, const char *arg)
{
	g_autofree char *dir = cli_module_dir(spec, &config);
	g_autofree char *alias = g_build_filename(dir, "modules.alias", NULL);
	struct stat sb;

	if (stat(alias, &sb) == 0 || (errno != ENOENT && errno != ENOTDIR))
		return true; /* another error: the library names it */
	fprintf(stderr, "modalias diff: %s '%s': no module tables in %s (no modules.alias): give a module "
			"directory (anything with a '/', as /lib/modules/VERSION), or a kernel version under "
			"-d ROOT (ROOT/lib/modules/VERSION, / by default)\n",
		which, ECHO(arg), cli_shown(dir));
	return false;
}

int cmd_diff(int argc, char **argv)
{
	struct device_source src = { NULL };
	struct cli_devices dv;
	struct cli_tables_spec spec = { NULL }, from_spec, to_spec;
	struct cli_tables from = { NULL }, to = { NULL };
	struct diff_state st = { 0 };
	size_t width;
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
		  "to: [...], change, gone: [...], from_builtin: [...]}", NULL },
		WIDTH_OPTION_ENTRY("them"),
		QUIET_OPTION_ENTRY,
		{ NULL }
	};
	struct modalias_ctx *ctx;
	g_autofree char *snapshot = NULL;
	int r = -1;

	parse_options("diff", "FROM TO",
		      "For each device under the sysfs root (or in a snapshot), the modules kernel FROM\n"
		      "and kernel TO would load (a version under -d ROOT, or a module directory:\n"
		      "anything with a '/'), and the change: same, gained, lost (none in TO, and a\n"
		      "module of FROM is gone from TO: \"(none; gone: M...)\" when some remain),\n"
		      "builtin (built into TO, or into FROM: \"(none; built in)\", aliases not\n"
		      "recorded), unmatched (none in TO, but TO still has every module\n"
		      "of FROM: \"(none; still in TO)\", as when TO loads them through another\n"
		      "device) or changed.  Prints CHANGE<TAB>DEVPATH<TAB>MODALIAS<TAB>FROM -> TO for\n"
		      "each device that changes, then a summary on standard error (the devices with\n"
		      "no module in either kernel counted apart).\n"
		      "On a terminal the columns are aligned and cut with '…' so that each line fits\n"
		      "its width (else $COLUMNS, else 80), the module lists the last to give way;\n"
		      "lists that do not fit show each side's own modules only, those the other side\n"
		      "lacks, then \"(+N more, M in both)\": the own modules left out, the modules both\n"
		      "have.  --width=N does so for N columns wherever the output goes.\n"
		      "Exit status: 0 every device that had a module in FROM has one in TO, 1 no\n"
		      "device at all (said on standard error), 2 usage or input error, 3 write error,\n"
		      "4 a device loses its module, gone from TO (lost), 5 a device has no module in\n"
		      "TO though TO still has its modules (unmatched), none lost.",
		      entries, &argc, &argv);
	if (argc != 3 || (st.json && width_option)) {
		if (argc < 3)
			usage_error("diff", "FROM and TO are needed");
		else if (argc > 3)
			usage_error("diff", "unexpected argument '%s'", ECHO(argv[3]));
		else
			usage_error("diff", "--width and --json cannot be used together");
		cli_tables_spec_clear(&spec);
		device_source_clear(&src);
		return CLI_EXIT_USAGE;
	}
	width = width_option ? width_option : cli_terminal_width();
	if (!st.json && width)
		st.rows = g_ptr_array_new_with_free_func(row_free);
	snapshot = g_strdup(src.snapshot);
	ctx = open_devices(&src, "diff", &dv);
	st.ctx = ctx;
	spec_for(&from_spec, &spec, argv[1]);
	spec_for(&to_spec, &spec, argv[2]);
	if (!tables_there(&from_spec, "FROM", argv[1]) || !tables_there(&to_spec, "TO", argv[2]) ||
	    open_tables(ctx, &from_spec, "diff", 0, &from) < 0 || open_tables(ctx, &to_spec, "diff", 0, &to) < 0 ||
	    modalias_result_new(&st.res) < 0)
		goto out;
	if (!quiet)
		warn_arch_pair("diff", from.dir, to.dir);
	st.from = from.table;
	st.to = to.table;
	st.out = g_string_new("[");
	r = cli_devices_foreach(&dv, diff_one, &st);
	if (st.json) {
		g_string_append(st.out, st.out->len > 1 ? "\n]\n" : "]\n");
		cli_output_puts(st.out->str);
	} else if (st.rows) {
		diff_print_columns(st.rows, width);
	}
	if (r < 0)
		fprintf(stderr, "modalias diff: cannot walk the devices: %s\n", strerror(-r));
	else if (!st.devices && !st.errors)
		/* an input problem, said even with -q: a wrong --sysfs or an empty
		 * snapshot must not pass for a clean bill */
		fprintf(stderr, "modalias diff: no device with a modalias in %s%s: nothing to compare\n",
			snapshot ? "the snapshot " : "",
			cli_shown(snapshot ? snapshot : modalias_ctx_get_sysfs_root(ctx)));
	else if (!quiet)
		fprintf(stderr,
			"%u device%s: %u same, %u gained, %u lost, %u built in, %u changed, %u unmatched, "
			"%u without a module in either\n",
			st.devices, cli_plural(st.devices), st.count[SAME], st.count[GAINED], st.count[LOST],
			st.count[BUILTIN], st.count[CHANGED], st.count[UNMATCHED], st.count[NO_MODULE]);
	g_string_free(st.out, TRUE);
out:
	if (st.rows)
		g_ptr_array_unref(st.rows);
	modalias_result_unref(st.res);
	cli_tables_close(&from);
	cli_tables_close(&to);
	cli_tables_spec_clear(&spec);
	cli_devices_close(&dv);
	modalias_ctx_unref(ctx);
	if (r < 0 || st.errors)
		return CLI_EXIT_USAGE;
	if (!st.devices)
		return CLI_EXIT_NOTHING;
	/* unmatched fails the gate too, with its own status: the tables cannot
	 * tell a module TO loads through another device from a driver that
	 * dropped this one */
	return st.count[LOST] ? CLI_EXIT_LOST : st.count[UNMATCHED] ? CLI_EXIT_UNMATCHED : CLI_EXIT_OK;
}
