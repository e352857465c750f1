/*
 * cli/modalias-state.c - a module's state as the system (or its snapshot)
 * stands: loaded, builtin, blacklisted, available (not-loaded, from a table
 * of another kernel); what list and explain both print, told one way.
 *
 * This file asks; it may not print or load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "modalias-commands.h"

const char *module_state(const struct cli_devices *dv, const struct cli_tables *tables,
			 const struct modalias_result *res, unsigned int i, const char *driver,
			 const char *driver_module)
{
	const char *m = modalias_result_get_module(res, i);

	/* the machine's own word first; a foreign table's modules.builtin is
	 * another kernel's */
	if (cli_devices_is_module_loaded(dv, m))
		return "loaded";
	if (cli_devices_is_module_builtin(dv, m) || (!tables->foreign && modalias_result_is_builtin(res, i)))
		return "builtin";
	/* the device's own driver is the module's and bound: its code is in
	 * the machine's kernel, whatever a record that says nothing of it
	 * (a captured tree without /sys/module; a built-in one is told
	 * above, where the machine has a record) */
	if ((driver_module && cli_same_module(driver_module, m)) || (driver && cli_same_module(driver, m)))
		return "loaded";
	if (modalias_table_is_blacklisted(tables->table, m))
		return "blacklisted";
	return tables->foreign ? "not-loaded" : "available";
}

void print_weakdeps(struct modalias_table *table, const char *module)
{
	const char *const *deps = NULL;
	g_autofree char *joined = NULL;

	if (modalias_table_get_weakdeps(table, module, &deps) <= 0)
		return;
	joined = g_strjoinv(" ", (char **)deps);
	printf("    weak dependencies: %s (not loaded with it)\n", cli_shown(joined));
}
