/*
 * cli/modalias-list-tree.c - the human output of modalias list
 * (modalias-list.h): its columns aligned, and cut with an ellipsis to fit
 * a terminal's width; the devices drawn as a tree, as lsblk draws disks
 * (in ASCII where the locale's charset is not UTF-8: cli_output_glyphs()).
 *
 * This file lays out rows that modalias-list.c collected; it may not read
 * sysfs or the module tables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <string.h>

#include "cli-columns.h"
#include "cli-output.h"
#include "modalias-list.h"

/* The columns of a line (SIZE_MAX: no limit, nothing is cut), and of each
 * column: the device (its devpath, or its branch of the tree), the
 * modalias, the driver bound, the modules and the device's name (the last
 * column, never padded; 0: left out) */
struct list_layout {
	size_t width, dev, alias, driver, modules, name;
};

/* A name column narrower than this is left out */
#define NAME_MIN 12

/*
 * The widths for rows whose widest columns are W's (HAS_MODULES: the
 * module column is there) in a line of WIDTH columns: all of each when that
 * fits; else the name gives way first: it takes what the others leave, or
 * when they do not fit either, a third of what the device column leaves,
 * and it is left out when that is under NAME_MIN columns; the driver column
 * takes at most a sixth of the line, the device column at most half of what
 * is left, the modalias what the widest modules leave of the rest but at
 * least half of it, and the modules what remains.
 */
static void layout(struct list_layout *l, size_t width, const struct list_layout *w, bool has_modules)
{
	size_t sep = has_modules ? 4 : 2, rest;
	/* everything but the name: the columns and the gaps between them */
	size_t fixed = w->dev + w->alias + w->driver + w->modules + sep + 2;

	*l = *w;
	l->width = width;
	if (width == SIZE_MAX || fixed + (w->name ? w->name + 2 : 0) <= width)
		return;
	l->name = 0;
	if (w->name && fixed + 2 + NAME_MIN <= width) {
		l->name = width - (fixed + 2);
		return;
	}
	l->driver = MIN(w->driver, MAX(width / 6, 1));
	width = width > l->driver + 2 + 1 ? width - l->driver - 2 : 1;
	l->dev = MIN(w->dev, MAX(width / 2, 1));
	rest = width > l->dev + sep + 2 ? width - l->dev - sep : 2;
	if (w->name && rest / 3 >= NAME_MIN + 2) {
		l->name = MIN(w->name, rest / 3 - 2);
		rest -= l->name + 2;
	}
	if (!has_modules) {
		l->alias = MIN(w->alias, rest);
		return;
	}
	l->alias = MIN(w->alias, MAX(rest > w->modules ? rest - w->modules : 0, (rest + 1) / 2));
	l->modules = rest - l->alias;
}

/* Ends LINE, whose device column (USED columns of it) is written, with
 * ROW's modalias, driver, modules and name (none: a tree node that has no
 * modalias), and writes it */
static void put_line(GString *line, size_t used, const struct list_row *row, const struct list_layout *l)
{
	bool name = row && row->name && l->name;

	if (row) {
		cli_column_gap(line, used, l->dev);
		if (l->width == SIZE_MAX) {
			/* no width: the modalias column is not padded to the
			 * longest (a cpu's, a thousand characters) */
			g_string_append_printf(line, "%s  %s", row->modalias, row->driver);
			if (row->modules)
				g_string_append_printf(line, "  %s", row->modules);
		} else {
			cli_column_gap(line, cli_append_cut(line, row->modalias, l->alias, false), l->alias);
			used = cli_append_cut(line, row->driver, l->driver, false);
			if (row->modules) {
				cli_column_gap(line, used, l->driver);
				used = cli_append_cut(line, row->modules, l->modules, false);
			}
			if (name)
				cli_column_gap(line, used, row->modules ? l->modules : l->driver);
		}
		if (name && l->width == SIZE_MAX)
			g_string_append_printf(line, "  %s", row->name);
		else if (name)
			cli_append_cut(line, row->name, l->name, false);
	}
	g_string_append_c(line, '\n');
	cli_output_puts(line->str);
	g_string_truncate(line, 0);
}

/* The widest modalias, driver, modules and name of ROW into W */
static void measure_row(const struct list_row *row, struct list_layout *w)
{
	w->alias = MAX(w->alias, cli_text_cols(row->modalias));
	w->driver = MAX(w->driver, cli_text_cols(row->driver));
	if (row->modules)
		w->modules = MAX(w->modules, cli_text_cols(row->modules));
	if (row->name)
		w->name = MAX(w->name, cli_text_cols(row->name));
}

void list_print_columns(GPtrArray *rows, size_t width, bool has_modules)
{
	g_autoptr(GString) line = g_string_new(NULL);
	struct list_layout w = { 0 }, l;

	for (guint i = 0; i < rows->len; i++) {
		const struct list_row *row = g_ptr_array_index(rows, i);

		w.dev = MAX(w.dev, cli_text_cols(row->devpath));
		measure_row(row, &w);
	}
	layout(&l, width, &w, has_modules);
	for (guint i = 0; i < rows->len; i++) {
		const struct list_row *row = g_ptr_array_index(rows, i);

		put_line(line, cli_append_cut(line, row->devpath, l.dev, true), row, &l);
	}
}

/* A node of the tree: one devpath component, its device if it has a
 * modalias, its children in the walk's order (byte order) */
struct tree_node {
	const struct list_row *row;
	struct tree_node *child, *last, *next;
	char name[];
};

static bool named(const struct tree_node *n, const char *name, size_t len)
{
	return strncmp(n->name, name, len) == 0 && n->name[len] == '\0';
}

/* The child NAME (LEN bytes) of PARENT, made when new into NODES */
static struct tree_node *tree_child(struct tree_node *parent, const char *name, size_t len, GPtrArray *nodes)
{
	struct tree_node *c;

	/* the walk gives a node's descendants one after the other: its
	 * last child is nearly always the one */
	if (parent->last && named(parent->last, name, len))
		return parent->last;
	for (c = parent->child; c; c = c->next)
		if (named(c, name, len))
			return c;
	c = g_malloc0(sizeof(*c) + len + 1);
	memcpy(c->name, name, len);
	g_ptr_array_add(nodes, c);
	if (parent->last)
		parent->last->next = c;
	else
		parent->child = c;
	parent->last = c;
	return c;
}

/* Depth D's node N and its subtree: the widest device column (branches and
 * name) and the widest modalias, driver and modules into W */
static void tree_measure(const struct tree_node *n, size_t d, struct list_layout *w)
{
	for (; n; n = n->next) {
		w->dev = MAX(w->dev, 2 * d + cli_text_cols(n->name));
		if (n->row)
			measure_row(n->row, w);
		tree_measure(n->child, d + 1, w);
	}
}

/* The nodes from N on (siblings, at depth D) each on a line after PREFIX
 * (their ancestors' "│ " or "  ", from depth 1 on) and a branch (the roots
 * have none), and their subtrees */
static void tree_print(const struct tree_node *n, size_t d, GString *prefix, GString *line,
		       const struct list_layout *l)
{
	const struct cli_glyphs *g = cli_output_glyphs();
	size_t plen = prefix->len;

	for (; n; n = n->next) {
		size_t used = 2 * d;

		if (d)
			g_string_append_printf(line, "%s%s", prefix->str, n->next ? g->branch : g->last);
		used += cli_append_cut(line, n->name, l->dev > used ? l->dev - used : 1, false);
		put_line(line, used, n->row, l);
		if (!n->child)
			continue;
		if (d)
			g_string_append(prefix, n->next ? g->pipe : "  ");
		tree_print(n->child, d + 1, prefix, line, l);
		g_string_truncate(prefix, plen);
	}
}

void list_print_tree(GPtrArray *rows, size_t width, bool has_modules)
{
	g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GString) prefix = g_string_new(NULL);
	g_autoptr(GString) line = g_string_new(NULL);
	struct tree_node top = { NULL };
	struct list_layout w = { 0 }, l;

	for (guint i = 0; i < rows->len; i++) {
		const struct list_row *row = g_ptr_array_index(rows, i);
		const char *p = row->devpath;
		struct tree_node *n = &top;
		size_t len;

		if (g_str_has_prefix(p, "/devices/"))
			p += strlen("/devices/");
		for (; *p; p += len) {
			p += strspn(p, "/");
			len = strcspn(p, "/");
			if (len)
				n = tree_child(n, p, len, nodes);
		}
		if (n == &top) /* no component: a root of its own */
			n = tree_child(&top, row->devpath, strlen(row->devpath), nodes);
		n->row = row;
	}
	tree_measure(top.child, 0, &w);
	layout(&l, width, &w, has_modules);
	tree_print(top.child, 0, prefix, line, &l);
}
