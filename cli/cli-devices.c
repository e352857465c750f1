/*
 * cli/cli-devices.c - the devices of the sysfs root or of a snapshot file,
 * asked one way (see cli-devices.h).
 *
 * This file picks the source; it may not print a command's output.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "cli-devices.h"
#include "cli-kmsg.h"
#include "cli-tables.h"

int cli_devices_open(struct cli_devices *dv, struct modalias_ctx *ctx, const char *snapshot)
{
	g_autofree char *modules = g_build_filename(modalias_ctx_get_sysfs_root(ctx), "module", NULL);

	int r = 0;

	dv->ctx = ctx;
	dv->snap = NULL;
	if (snapshot)
		r = modalias_snapshot_new_from_file(ctx, snapshot, &dv->snap);
	/* a module name that is none of the kernel's: only the record is asked */
	dv->modules_known = dv->snap ? modalias_snapshot_is_module_loaded(dv->snap, "x") != -ENODATA
				     : g_file_test(modules, G_FILE_TEST_IS_DIR);
	return r;
}

const char *cli_devices_error(int r)
{
	if (r == -EINVAL)
		return "not a regular file"; /* never opened (see above) */
	return r == -EBADMSG || r == -EPROTONOSUPPORT ? "not a snapshot this program reads (see above)" : strerror(-r);
}

void cli_devices_close(struct cli_devices *dv)
{
	dv->snap = modalias_snapshot_unref(dv->snap);
}

int cli_devices_foreach(const struct cli_devices *dv, modalias_sysfs_fn fn, void *data)
{
	return dv->snap ? modalias_snapshot_foreach(dv->snap, fn, data) : modalias_sysfs_foreach(dv->ctx, fn, data);
}

int cli_devices_get_dev(const struct cli_devices *dv, const char *devpath, struct modalias_dev **ret)
{
	return dv->snap ? modalias_snapshot_get_dev(dv->snap, devpath, ret)
			: modalias_dev_new_from_sysfs(dv->ctx, devpath, ret);
}

int cli_devices_get_driver(const struct cli_devices *dv, const char *devpath, char **driver, char **driver_module,
			   char **driver_override)
{
	const char *d = NULL, *m = NULL, *o = NULL;
	char *sd = NULL, *sm = NULL, *so = NULL;
	int r;

	if (dv->snap) {
		r = modalias_snapshot_get_driver(dv->snap, devpath, &d, driver_module ? &m : NULL,
						 driver_override ? &o : NULL);
	} else {
		r = modalias_sysfs_get_driver(dv->ctx, devpath, &sd, driver_module ? &sm : NULL,
					      driver_override ? &so : NULL);
		d = sd;
		m = sm;
		o = so;
	}
	*driver = r < 0 ? NULL : g_strdup(d);
	if (driver_module)
		*driver_module = r < 0 ? NULL : g_strdup(m);
	if (driver_override)
		*driver_override = r < 0 ? NULL : g_strdup(o);
	free(sd);
	free(sm);
	free(so);
	return r;
}

bool cli_devices_is_module_loaded(const struct cli_devices *dv, const char *module)
{
	return (dv->snap ? modalias_snapshot_is_module_loaded(dv->snap, module)
			 : modalias_sysfs_is_module_loaded(dv->ctx, module)) > 0;
}

bool cli_devices_is_module_builtin(const struct cli_devices *dv, const char *module)
{
	return (dv->snap ? modalias_snapshot_is_module_builtin(dv->snap, module)
			 : modalias_sysfs_is_module_builtin(dv->ctx, module)) > 0;
}

const char *cli_devices_kernel(const struct cli_devices *dv)
{
	if (dv->snap)
		return modalias_snapshot_get_kernel(dv->snap);
	if (strcmp(modalias_ctx_get_sysfs_root(dv->ctx), "/sys") != 0 || !cli_uname())
		return NULL;
	return cli_uname()->release;
}


const char *cli_devices_kernel_log(const struct cli_devices *dv)
{
	return dv->snap ? NULL : cli_kmsg_path(modalias_ctx_get_sysfs_root(dv->ctx));
}

int cli_devices_foreach_firmware_failure(const struct cli_devices *dv, modalias_firmware_failure_fn fn, void *data)
{
	const char *log = cli_devices_kernel_log(dv);

	if (dv->snap)
		return modalias_snapshot_foreach_firmware_failure(dv->snap, fn, data);
	return log ? cli_kmsg_foreach_firmware_failure(dv->ctx, log, fn, data) : -ENODATA;
}
