/*
 * cli/cli-state.c - a module's state as the machine (or its snapshot)
 * stands (see cli-state.h).
 *
 * This file asks; it may not print or load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cli-state.h"

const char *cli_module_state(const struct cli_devices *dv, const struct cli_tables *tables,
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
	/* a record that says nothing of modules cannot say it is not loaded
	 * (a captured tree without /sys/module: xhci_pci under its driver
	 * xhci_hcd, usbcore under hub) */
	if (!dv->modules_known)
		return "unknown";
	return tables->foreign ? "not-loaded" : "available";
}
