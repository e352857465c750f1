/*
 * cli/uevent.c - kernel uevent messages parsed (uevent.h).
 *
 * This file parses bytes; it may not read a socket or log.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include <glib.h>

#include "uevent.h"

void event_free(struct event *e)
{
	g_free(e->devpath);
	g_free(e->subsystem);
	g_strfreev(e->envp);
	g_free(e);
}

/* Parses "ACTION@DEVPATH\0KEY=VALUE\0…"; NULL when it is not a kernel uevent. */
struct event *event_parse(const char *buf, size_t len)
{
	struct event *e;
	GPtrArray *env;
	const char *at = memchr(buf, '@', len), *p;
	const char *seq = NULL;

	if (!at || memchr(buf, '\0', len) < (const void *)at)
		return NULL; /* libudev's own messages start "libudev\0" */
	e = g_new0(struct event, 1);
	env = g_ptr_array_new();
	for (p = buf + strlen(buf) + 1; p < buf + len; p += strlen(p) + 1) {
		if (!memchr(p, '\0', (size_t)(buf + len - p)))
			break;
		if (!strchr(p, '='))
			continue;
		g_ptr_array_add(env, g_strdup(p));
		/* the first of a repeated key counts (the kernel repeats none) */
		if (g_str_has_prefix(p, "DEVPATH=") && !e->devpath)
			e->devpath = g_strdup(p + 8);
		else if (g_str_has_prefix(p, "SUBSYSTEM=") && !e->subsystem)
			e->subsystem = g_strdup(p + 10);
		else if (g_str_has_prefix(p, "SEQNUM=") && !seq)
			seq = p + 7;
	}
	g_ptr_array_add(env, NULL);
	e->envp = (char **)g_ptr_array_free(env, FALSE);
	if (!e->devpath || !e->subsystem || !seq) {
		event_free(e);
		return NULL;
	}
	e->seqnum = g_ascii_strtoull(seq, NULL, 10);
	return e;
}

