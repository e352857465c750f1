/*
 * cli/cli-kmsg.h - the firmware loads the kernel log says failed: the
 * records of /dev/kmsg, each tied to the device its line names.
 *
 * This code reads the log; it may not print.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "libmodalias.h"

/* The kernel log of the machine whose sysfs root is SYSFS_ROOT: /dev/kmsg
 * for /sys, NULL for any other root (a captured tree: its machine's log is
 * not here); whatever the root, the file of /dev/kmsg records that
 * $MODALIAS_KMSG names (the tests' kernel log; not documented for users) */
const char *cli_kmsg_path(const char *sysfs_root);

/* Calls FN for every failed firmware load in the kernel log at PATH, in
 * the log's order: the lines "Direct firmware load for FILE failed with
 * error -N" and "firmware: failed to load FILE (-N)" (Debian's), with the
 * device the record names (its DEVICE= field, else the "DRIVER DEVNAME: "
 * of dev_printk()), found under CTX's sysfs root through its bus/, class/
 * and dev/ links, NULL when none is found.  The log is read without
 * blocking, at most 32 MiB of it.  0, what FN returned when it stopped, or
 * the negative errno of opening or reading PATH. */
int cli_kmsg_foreach_firmware_failure(struct modalias_ctx *ctx, const char *path, modalias_firmware_failure_fn fn,
				      void *data);
