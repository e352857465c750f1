/*
 * shared/bundled-table.h - where the bundled Debian 6.1 table is, for the
 * front ends that fall back on it where no module directory is
 * (containers, CI): installed with the package (BUNDLED_MODDIR), or in the
 * source tree it was built in (SOURCE_MODDIR), the first whose
 * modules.alias passes the trust walk (path-trust.h): a build tree of
 * another user (a package built in /tmp or a home) is never root's table.
 * modalias (cli/modalias-setup.c) and the Python module's BUNDLED_TABLE
 * read it here.  Header only, over path-trust.c (compiled into both).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "path-trust.h"

/* The directory, or NULL when neither holds a modules.alias */
static inline const char *bundled_table_dir(void)
{
	static const char *const dirs[] = { BUNDLED_MODDIR, SOURCE_MODDIR };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char alias[4096];
		int fd;

		if (!dirs[i][0] || snprintf(alias, sizeof(alias), "%s/modules.alias", dirs[i]) >= (int)sizeof(alias))
			continue;
		fd = trust_open(alias, O_PATH, TRUST_REGULAR, NULL);
		if (fd >= 0) {
			close(fd);
			return dirs[i];
		}
	}
	return NULL;
}
