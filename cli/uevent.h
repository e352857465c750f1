/*
 * cli/uevent.h - kernel uevent messages (NETLINK_KOBJECT_UEVENT):
 * "ACTION@DEVPATH\0" and "KEY=VALUE\0" pairs into a struct event.  Shared
 * by the hotplug agent and its fuzz target.
 *
 * This code parses bytes; it may not read a socket or log.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct event {
	unsigned long long seqnum;
	char *devpath;
	char *subsystem;
	char **envp;
	bool running; /* the daemon's queue: a worker has it */
	bool coldplug; /* the daemon's queue: a device coldplug found: its modules, no handler */
	bool preload;  /* the daemon's queue: a module of --preload (DEVPATH /module/NAME) */
	void *link;   /* the daemon's queue: its place (a GList node) */
	long long heard; /* the one-shot's ear: when it was read (monotonic µs) */
};

/* Parses one message; NULL when it is not a kernel uevent (libudev's own
 * messages, missing DEVPATH/SUBSYSTEM/SEQNUM, garbage). */
struct event *event_parse(const char *buf, size_t len);
void event_free(struct event *e);
