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
	g_free(e); /* one block: event_parse() */
}

/* The variables of the message BUF, LEN bytes after its header: whole ones
 * ("KEY=VALUE", NUL-terminated) are counted, and each passed to FN. */
static unsigned int each_variable(const char *buf, size_t len, void (*fn)(void *, const char *), void *data)
{
	unsigned int n = 0;

	for (const char *p = buf + strlen(buf) + 1; p < buf + len; p += strlen(p) + 1) {
		if (!memchr(p, '\0', (size_t)(buf + len - p)))
			break;
		if (!strchr(p, '='))
			continue;
		if (fn)
			fn(data, p);
		n++;
	}
	return n;
}

struct taking {
	struct event *e;
	unsigned int n; /* variables taken */
};

static void take_variable(void *data, const char *var)
{
	struct taking *t = data;
	struct event *e = t->e;

	e->envp[t->n++] = (char *)var;
	/* the first of a repeated key counts (the kernel repeats none) */
	if (g_str_has_prefix(var, "DEVPATH=") && !e->devpath)
		e->devpath = (char *)var + 8;
	else if (g_str_has_prefix(var, "SUBSYSTEM=") && !e->subsystem)
		e->subsystem = (char *)var + 10;
}

/* Parses "ACTION@DEVPATH\0KEY=VALUE\0…"; NULL when it is not a kernel
 * uevent.  The event is one allocation: the struct, the variables'
 * pointers, and a copy of the message they point into (its size: the
 * message's length + 8 bytes a variable + 64). */
struct event *event_parse(const char *buf, size_t len)
{
	const char *at = memchr(buf, '@', len), *seq = NULL;
	unsigned int n;
	struct event *e;
	char *copy;

	if (!at || memchr(buf, '\0', len) < (const void *)at)
		return NULL; /* libudev's own messages start "libudev\0" */
	n = each_variable(buf, len, NULL, NULL);
	e = g_malloc0(sizeof(*e) + (n + 1) * sizeof(char *) + len + 1);
	e->envp = (char **)(e + 1);
	copy = (char *)(e->envp + n + 1);
	memcpy(copy, buf, len);
	copy[len] = '\0';
	each_variable(copy, len, take_variable, &(struct taking){ .e = e });
	for (char **v = e->envp; *v && !seq; v++)
		if (g_str_has_prefix(*v, "SEQNUM="))
			seq = *v + 7;
	if (!e->devpath || !e->subsystem || !seq) {
		event_free(e);
		return NULL;
	}
	e->seqnum = g_ascii_strtoull(seq, NULL, 10);
	return e;
}
