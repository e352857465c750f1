/*
 * cli/modalias-names.c - a device's names (vendor, device, class) as the
 * commands print them (list, explain, diff): the library's names object
 * (pci.ids, usb.ids), made on the first call, so that a command that prints
 * no name reads no database.
 *
 * This file names devices; it may not decide where a command puts a name.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include "modalias-commands.h"

/* The names of DEV, NULL each when the databases have none (or the names
 * object cannot be made: no names then, as without databases) */
static void dev_names(struct modalias_ctx *ctx, const struct modalias_dev *dev, const char **vendor,
		      const char **device, const char **cls)
{
	static struct modalias_names *names;
	static bool tried;

	*vendor = *device = *cls = NULL;
	if (!tried) {
		/* $MODALIAS_IDS_DIR: another directory of pci.ids and usb.ids */
		const char *dir = g_getenv("MODALIAS_IDS_DIR");

		tried = true;
		if (modalias_names_new(ctx, dir && *dir ? dir : NULL, &names) < 0)
			names = NULL;
	}
	if (names && dev)
		modalias_names_lookup(names, dev, vendor, device, cls);
}

char *dev_name_text(struct modalias_ctx *ctx, const struct modalias_dev *dev)
{
	const char *vendor, *device, *cls;
	GString *s = g_string_new(NULL);

	dev_names(ctx, dev, &vendor, &device, &cls);
	if (vendor)
		cli_shown_append(s, vendor);
	if (device) {
		if (s->len)
			g_string_append_c(s, ' ');
		cli_shown_append(s, device);
	}
	if (cls) {
		bool paren = s->len > 0;

		g_string_append(s, paren ? " (" : "");
		cli_shown_append(s, cls);
		g_string_append(s, paren ? ")" : "");
	}
	return g_string_free(s, !s->len);
}

void dev_names_json(GString *j, struct modalias_ctx *ctx, const struct modalias_dev *dev)
{
	const char *name[3];
	static const char *const member[3] = { "vendor_name", "device_name", "class_name" };

	dev_names(ctx, dev, &name[0], &name[1], &name[2]);
	for (size_t i = 0; i < G_N_ELEMENTS(name); i++) {
		if (!name[i])
			continue;
		g_string_append_printf(j, ", \"%s\": ", member[i]);
		json_string(j, name[i]);
	}
}
