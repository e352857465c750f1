/*
 * shared/bundled-table.h - where the bundled Debian 6.1 table is, for the
 * front ends that fall back on it where no module directory is
 * (containers, CI): installed with the package (BUNDLED_MODDIR), or in the
 * source tree it was built in (SOURCE_MODDIR), the first that holds a
 * modules.alias.  modalias (cli/modalias-setup.c) and the Python module's
 * BUNDLED_TABLE read it here.  Header only: the Python module includes the
 * public header and this, nothing else of the tree.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdio.h>
#include <sys/stat.h>

/* The directory, or NULL when neither holds a modules.alias */
static inline const char *bundled_table_dir(void)
{
	static const char *const dirs[] = { BUNDLED_MODDIR, SOURCE_MODDIR };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char alias[4096];
		struct stat st;

		if (snprintf(alias, sizeof(alias), "%s/modules.alias", dirs[i]) < (int)sizeof(alias) &&
		    stat(alias, &st) == 0 && S_ISREG(st.st_mode))
			return dirs[i];
	}
	return NULL;
}
