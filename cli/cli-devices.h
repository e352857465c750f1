/*
 * cli/cli-devices.h - where a front end's devices come from: the sysfs
 * root of its library context (--sysfs), or a snapshot file (--snapshot),
 * asked the same way, so that every command that reads devices (modalias
 * list, diff, firmware, explain; hotplug --dry-run --coldplug) answers a
 * snapshot as it answers the machine it was taken on.
 *
 * This code picks the source; it may not print a command's output.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdbool.h>

#include "libmodalias.h"

struct cli_devices {
	struct modalias_ctx *ctx;        /* borrowed */
	struct modalias_snapshot *snap;  /* NULL: the sysfs root */
	bool modules_known;              /* the record says which modules are in the
					  * kernel: a snapshot, or a sysfs root with a
					  * module directory (a captured tree may have none) */
};

/* Devices of CTX's sysfs root, or (SNAPSHOT not NULL) of that snapshot
 * file.  0, or the library's negative errno (the file, line and column of
 * the error logged through CTX). */
int cli_devices_open(struct cli_devices *dv, struct modalias_ctx *ctx, const char *snapshot);
void cli_devices_close(struct cli_devices *dv);

/* Why cli_devices_open() failed with R, for "cannot use the snapshot FILE:
 * …": for a file that is not a snapshot, the library has logged where */
const char *cli_devices_error(int r);

/* modalias_sysfs_foreach() or modalias_snapshot_foreach() */
int cli_devices_foreach(const struct cli_devices *dv, modalias_sysfs_fn fn, void *data);

/* The device at DEVPATH: modalias_dev_new_from_sysfs() or
 * modalias_snapshot_get_dev() (-ENOENT: no such device) */
int cli_devices_get_dev(const struct cli_devices *dv, const char *devpath, struct modalias_dev **ret);

/* The driver bound to DEVPATH, its module and the driver_override (those
 * two not asked for when NULL), each g_free()d by the caller, NULL when
 * none */
int cli_devices_get_driver(const struct cli_devices *dv, const char *devpath, char **driver, char **driver_module,
			   char **driver_override);

/* Whether MODULE is (was, for a snapshot) loaded */
bool cli_devices_is_module_loaded(const struct cli_devices *dv, const char *module);

/* Whether the machine says MODULE is built into its kernel (sysfs: its
 * /sys/module directory without initstate; a snapshot does not say) */
bool cli_devices_is_module_builtin(const struct cli_devices *dv, const char *module);

/* The kernel release of the machine whose devices these are: the
 * snapshot's, this machine's (uname) for the sysfs root /sys; NULL when
 * not known (another sysfs root: a copy of some machine's) */
const char *cli_devices_kernel(const struct cli_devices *dv);

/* The kernel log of the devices' machine (cli_kmsg_path() of the sysfs
 * root), NULL for a snapshot */
const char *cli_devices_kernel_log(const struct cli_devices *dv);

/* The firmware loads the kernel log says failed: a snapshot's record
 * (modalias_snapshot_foreach_firmware_failure()), or those of
 * cli_devices_kernel_log() (cli_kmsg_foreach_firmware_failure());
 * -ENODATA when there is no log to read (a captured tree, a snapshot
 * without its record), the negative errno of reading the log */
int cli_devices_foreach_firmware_failure(const struct cli_devices *dv, modalias_firmware_failure_fn fn, void *data);
