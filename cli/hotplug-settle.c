/*
 * cli/hotplug-settle.c - hotplug --settle[=SECONDS], as `udevadm settle`:
 * reads the kernel's uevent_seqnum, asks the daemon's control socket
 * (hotplug-control.c) to answer once it has handled every event up to it,
 * coldplug done and its queue empty, and waits for that answer at most
 * SECONDS (a daemon that does not listen yet, for as long).
 *
 * This file is a client; it may not touch the daemon's state.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "hotplug-agent.h"

int settle_run(void)
{
	const char *path = settings.control_path;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned long long seq = 0;
	gint64 end = g_get_monotonic_time() + (gint64)settings.settle * G_USEC_PER_SEC;
	char req[64], reply[32];
	int fd, n;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "hotplug: --control-socket=%s: too long\n", path);
		return CLI_EXIT_USAGE;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	/* a daemon started just before (hotplug --daemon --coldplug & hotplug
	 * --settle) may not listen yet: asked again until the time is up */
	for (;;) {
		fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		close(fd);
		fd = -1;
		if ((errno != ENOENT && errno != ECONNREFUSED) || g_get_monotonic_time() >= end)
			break;
		g_usleep(20000);
	}
	if (fd < 0) {
		fprintf(stderr, "hotplug: --settle: no daemon answers on %s: %s\n", path, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	kernel_seqnum(&seq);
	n = snprintf(req, sizeof(req), "%s%llu", HOTPLUG_SETTLE_REQUEST, seq);
	if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
		fprintf(stderr, "hotplug: --settle: %s: %s\n", path, strerror(errno));
		close(fd);
		return CLI_EXIT_FAIL;
	}
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		gint64 left = (end - g_get_monotonic_time()) / 1000;
		ssize_t got;

		if (left <= 0 || (n = poll(&p, 1, (int)left)) == 0) {
			fprintf(stderr, "hotplug: --settle: the daemon was still busy after %d s\n", settings.settle);
			close(fd);
			return CLI_EXIT_TIMEOUT;
		}
		if (n < 0 && errno == EINTR)
			continue;
		got = n < 0 ? -1 : recv(fd, reply, sizeof(reply) - 1, 0);
		close(fd);
		if (got == (ssize_t)strlen(HOTPLUG_SETTLE_REPLY) && memcmp(reply, HOTPLUG_SETTLE_REPLY, (size_t)got) == 0)
			return CLI_EXIT_OK;
		fprintf(stderr, "hotplug: --settle: the daemon went away before it settled\n");
		return CLI_EXIT_FAIL;
	}
}
