/*
 * cli/cli-state.h - a module's state as the machine (or its snapshot)
 * stands: what modalias list and explain print for it, and what the
 * agent's dry run tells of it instead of loading it, told one way.
 *
 * This code asks; it may not print or load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cli-devices.h"
#include "cli-tables.h"
#include "libmodalias.h"

/* Module I of RES for a device whose bound driver is DRIVER (its module
 * DRIVER_MODULE; either NULL): "loaded" (DV's machine says so, or DRIVER
 * is bound under the module's name where the machine's record says
 * nothing of it: a captured tree without /sys/module), "builtin" (the
 * machine says so, or TABLES' modules.builtin when they are its kernel's),
 * "blacklisted" (TABLES' modprobe.d), "unknown" where DV's record says
 * nothing of modules (a captured tree without /sys/module), else
 * "available", or "not-loaded" when TABLES are not its kernel's (foreign:
 * whether it has the module is not known) */
const char *cli_module_state(const struct cli_devices *dv, const struct cli_tables *tables,
			     const struct modalias_result *res, unsigned int i, const char *driver,
			     const char *driver_module);
