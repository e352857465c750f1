/*
 * cli/modalias-state.c - a module's state as the system stands (loaded,
 * builtin, blacklisted, available) and the driver bound to a device: what
 * list and explain both print, told one way.
 *
 * This file reads sysfs attributes; it may not print or load a module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modalias-commands.h"
#include "read-file.h"

const char *module_state(struct modalias_ctx *ctx, struct modalias_table *table, const struct modalias_result *res,
			 unsigned int i)
{
	const char *m = modalias_result_get_module(res, i);
	g_autofree char *sysmod = g_build_filename(modalias_ctx_get_sysfs_root(ctx), "module", m, "initstate", NULL);
	g_autofree char *state = NULL;

	if (modalias_result_is_builtin(res, i))
		return "builtin";
	/* a sysfs attribute: bounded, and a FIFO there cannot block */
	if (read_file(sysmod, READ_FILE_ATTR_MAX, 0, &state, NULL) == 0 && g_str_has_prefix(state, "live"))
		return "loaded";
	if (modalias_table_is_blacklisted(table, m))
		return "blacklisted";
	return "available";
}

/* The last component of the link LINK, or NULL */
static char *link_base(const char *link)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(link, buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return g_path_get_basename(buf);
}

char *device_driver(const char *devdir)
{
	g_autofree char *link = g_build_filename(devdir, "driver", NULL);
	g_autofree char *record = g_build_filename(devdir, ".driver", NULL);
	char *name = link_base(link);

	/* a sysfs capture records the link's target in .driver (tests/data/README.md) */
	if (!name && read_file(record, READ_FILE_ATTR_MAX, 0, &name, NULL) == 0)
		g_strchomp(name);
	if (name && !*name) {
		g_free(name);
		name = NULL;
	}
	return name;
}

char *device_driver_module(const char *devdir)
{
	g_autofree char *link = g_build_filename(devdir, "driver", "module", NULL);

	return link_base(link);
}

char *device_driver_override(const char *devdir)
{
	g_autofree char *path = g_build_filename(devdir, "driver_override", NULL);
	char *v = NULL;

	if (read_file(path, READ_FILE_ATTR_MAX, 0, &v, NULL) < 0)
		return NULL;
	g_strchomp(v);
	/* the kernel prints "(null)" when none is set */
	if (!*v || strcmp(v, "(null)") == 0) {
		g_free(v);
		return NULL;
	}
	return v;
}
