/*
 * cli/modalias-state.c - what list, resolve and explain print of a module
 * besides its state (libcli's cli_module_state()): its weak dependencies.
 *
 * This file prints; it may not load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "modalias-commands.h"

void print_weakdeps(struct modalias_table *table, const char *module)
{
	const char *const *deps = NULL;
	g_autofree char *joined = NULL;

	if (modalias_table_get_weakdeps(table, module, &deps) <= 0)
		return;
	joined = g_strjoinv(" ", (char **)deps);
	printf("    weak dependencies: %s (not loaded with it)\n", cli_shown(joined));
}
