/*
 * cli/hotplug-settle.c - hotplug --settle[=SECONDS], as `udevadm settle`:
 * reads the kernel's uevent_seqnum, asks the daemon's control socket
 * (hotplug-control.c) to answer once it has handled every event up to it,
 * coldplug done and its queue empty, and waits for that answer at most
 * SECONDS (a daemon that does not listen yet, for as long; 0: only ask,
 * the answer waited for as long as a settled daemon takes to give it,
 * CONTROL_ASK_MS).  Only a socket
 * whose directories pass the trust walk is asked, and only root (or we)
 * listening there is believed (SO_PEERCRED).
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

#include "control-socket.h"
#include "hotplug-agent.h"

/* The daemon at PATH, connected when the walk to it is trusted (then only
 * root or we can have made the socket); -ENOENT/-ECONNREFUSED while it
 * does not listen yet. */
static int settle_connect(const char *path, const struct sockaddr_un *sa, struct trust_why *why)
{
	struct trust_parent at;
	int fd, r;

	r = control_socket_dir(path, false, &at, why);
	if (r < 0)
		return r;
	close(at.fd);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) < 0) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		snprintf(why->text, sizeof(why->text), "%s", strerror(-r));
		return r;
	}
	return fd;
}

/* Whoever listens on FD is root or us: anyone else's answer is not believed */
static bool settle_peer_trusted(int fd, const char *path)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		fprintf(stderr, "hotplug: --settle: %s: who listens there: %s\n", cli_shown(path), strerror(errno));
		return false;
	}
	if (cred.uid != 0 && cred.uid != geteuid()) {
		fprintf(stderr, "hotplug: --settle: %s: answered by uid %u, not root: not believed\n", cli_shown(path),
			(unsigned int)cred.uid);
		return false;
	}
	return true;
}

int settle_run(void)
{
	const char *path = settings.control_path;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct trust_why why = { "" };
	unsigned long long seq = 0;
	gint64 end = g_get_monotonic_time() + (gint64)settings.settle * G_USEC_PER_SEC;
	char req[CONTROL_REQUEST_MAX], reply[32];
	size_t len;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "hotplug: --control-socket=%s: too long\n", cli_shown(path));
		return CLI_EXIT_USAGE;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	/* a daemon started just before (hotplug --daemon --coldplug & hotplug
	 * --settle) may not listen yet, nor have made its directory: asked
	 * again until the time is up */
	while ((fd = settle_connect(path, &sa, &why)) == -ENOENT || fd == -ECONNREFUSED) {
		if (g_get_monotonic_time() >= end)
			break;
		g_usleep(20000);
	}
	if (fd == -EPERM || fd == -ELOOP || fd == -ENOTDIR) {
		fprintf(stderr, "hotplug: --settle: %s: refused: %s\n", cli_shown(path), cli_shown(why.text));
		return CLI_EXIT_USAGE;
	}
	if (fd < 0) {
		fprintf(stderr, "hotplug: --settle: no daemon answers on %s: %s\n", cli_shown(path), cli_shown(why.text));
		return CLI_EXIT_FAIL;
	}
	if (!settle_peer_trusted(fd, path)) {
		close(fd);
		return CLI_EXIT_FAIL;
	}
	kernel_seqnum(&seq);
	len = control_request_format(req, seq);
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
		fprintf(stderr, "hotplug: --settle: %s: %s\n", cli_shown(path), strerror(errno));
		close(fd);
		return CLI_EXIT_FAIL;
	}
	/* 0 asks: a settled daemon answers within its gap, not at once */
	if (settings.settle == 0)
		end = g_get_monotonic_time() + (gint64)CONTROL_ASK_MS * 1000;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		gint64 left = (end - g_get_monotonic_time()) / 1000;
		ssize_t got;
		int n = 0;

		if (left <= 0 || (n = poll(&p, 1, (int)left)) == 0) {
			if (settings.settle == 0)
				fprintf(stderr, "hotplug: --settle=0: the daemon is busy (not settled)\n");
			else
				fprintf(stderr, "hotplug: --settle: the daemon was still busy after %d s\n", settings.settle);
			close(fd);
			return CLI_EXIT_TIMEOUT;
		}
		if (n < 0 && errno == EINTR)
			continue;
		got = n < 0 ? -1 : recv(fd, reply, sizeof(reply) - 1, 0);
		close(fd);
		if (got == (ssize_t)strlen(CONTROL_SETTLE_REPLY) && memcmp(reply, CONTROL_SETTLE_REPLY, (size_t)got) == 0)
			return CLI_EXIT_OK;
		fprintf(stderr, "hotplug: --settle: the daemon went away before it settled\n");
		return CLI_EXIT_FAIL;
	}
}
