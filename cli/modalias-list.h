/*
 * cli/modalias-list.h - what the two files of modalias list share: the
 * devices kept for the human output (modalias-list.c walks sysfs and
 * collects them) and the drawing of that output (modalias-list-tree.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>

/* A device of the human output (a terminal, --width, --tree), kept until
 * every column's width is known */
struct list_row {
	char *devpath;
	char *modalias;
	char *driver;  /* the driver bound, "-" when none */
	char *modules; /* "MODULE:STATE …" or "none"; NULL: no module column */
	char *name;    /* "VENDOR DEVICE (CLASS)" (dev_name_text()), or NULL */
};

/*
 * ROWS (of struct list_row) one a line: DEVPATH MODALIAS DRIVER MODULES NAME
 * aligned in columns two spaces apart, within WIDTH columns when everything
 * does not fit: the name gives way first (what the others leave, or a third
 * of what the devpath leaves, or nothing under 12 columns), the driver
 * column then takes at most a sixth of the line, the devpath column at most
 * half of what is left (a longer devpath loses its start to an ellipsis),
 * the modalias what the widest modules leave of the rest but at least half
 * of it, the modules what remains (each cut with an ellipsis at its end).
 * HAS_MODULES: the rows have a module column.
 */
void list_print_columns(GPtrArray *rows, size_t width, bool has_modules);

/*
 * ROWS (parents first, in byte order) as a tree, the roots the components
 * below /devices and each child below its parent after a branch ("├─",
 * "└─", "│ "): each device by its last devpath component, then its
 * modalias, driver and modules, a parent that has no modalias by its name
 * alone;
 * the names' column aligned and the rest cut as above to WIDTH columns
 * (SIZE_MAX: none; the modalias column is then not padded either).
 */
void list_print_tree(GPtrArray *rows, size_t width, bool has_modules);
