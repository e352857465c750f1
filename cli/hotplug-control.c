/*
 * cli/hotplug-control.c - the daemon's completion barrier: the control
 * socket that `hotplug --settle` asks (HOTPLUG_CONTROL_PATH, root's alone:
 * its directories checked (control-socket.h), the socket 0600, each peer's
 * credentials checked),
 * and systemd's READY=1 (the sd_notify datagram to $NOTIFY_SOCKET; no
 * libsystemd).  The daemon is settled when coldplug is done, its queue is
 * empty, and it has heard the kernel's events up to the SEQNUM the asker
 * read from /sys/kernel/uevent_seqnum (or waited CONTROL_SETTLE_GAP_MS for those
 * that never come to its socket: other network namespaces').
 *
 * This file answers "settled?"; it may not handle or order events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "control-socket.h"
#include "hotplug-agent.h"

#define CONTROL_CLIENTS_MAX 64

struct asker {
	int fd;                 /* -1: systemd's READY=1 */
	bool asked;             /* its request read */
	unsigned long long want; /* the kernel's SEQNUM when it asked, 0: none */
	gint64 since;
};

static int listen_fd = -1;
static ino_t listen_ino; /* the socket's inode: unlinked at the end only if still ours */
static GArray *askers; /* struct asker */
static bool coldplugged;

/* The socket's directory: made if missing, then it and every directory
 * above it root's (or ours) alone (control-socket.h) */
static bool control_dir_ok(const char *path)
{
	struct trust_why why = { "" };
	struct trust_parent at;

	if (control_socket_dir(path, true, &at, &why) < 0) {
		say(LOG_WARNING, "control socket %s: refused: %s: no --settle", path, why.text);
		return false;
	}
	close(at.fd);
	return true;
}

int control_open(bool coldplug_pending)
{
	const char *path = settings.control_path;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	askers = g_array_new(FALSE, FALSE, sizeof(struct asker));
	coldplugged = !coldplug_pending;
	if (getenv("NOTIFY_SOCKET"))
		g_array_append_val(askers, ((struct asker){ .fd = -1, .asked = true, .since = g_get_monotonic_time() }));
	if (strlen(path) >= sizeof(sa.sun_path) || !control_dir_ok(path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	/* a stale socket of an earlier run is replaced (never another kind of
	 * file, nor the socket of a daemon that still answers) */
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
		int probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		bool live = probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof(sa)) == 0;

		if (probe >= 0)
			close(probe);
		if (live) {
			say(LOG_WARNING, "control socket %s: another daemon answers there: no --settle for this one", path);
			return -1;
		}
		unlink(path);
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || chmod(path, 0600) < 0 || listen(fd, 16) < 0) {
		say(LOG_WARNING, "control socket %s: %s: no --settle", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	listen_fd = fd;
	listen_ino = lstat(path, &st) == 0 ? st.st_ino : 0;
	return fd;
}

void control_coldplug_done(void)
{
	unsigned long long seq = 0;

	coldplugged = true;
	/* READY=1 once the events coldplug caused have been heard too */
	if (settings.netlink_group == 1 && kernel_seqnum(&seq))
		for (guint i = 0; i < askers->len; i++)
			if (g_array_index(askers, struct asker, i).fd < 0)
				g_array_index(askers, struct asker, i).want = seq;
}

/* systemd's notification: one datagram to $NOTIFY_SOCKET ('@': abstract) */
static void notify_ready(void)
{
	const char *where = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = where ? strlen(where) : 0;
	int fd;

	if (!len || len >= sizeof(sa.sun_path) || (where[0] != '/' && where[0] != '@')) {
		say(LOG_WARNING, "NOTIFY_SOCKET: not a socket path");
		return;
	}
	memcpy(sa.sun_path, where, len);
	if (where[0] == '@')
		sa.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || sendto(fd, "READY=1", 7, MSG_NOSIGNAL, (struct sockaddr *)&sa,
			     (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) < 0)
		say(LOG_WARNING, "NOTIFY_SOCKET %s: %s", where, strerror(errno));
	else
		say(LOG_INFO, "ready (coldplug done, queue empty): told systemd");
	if (fd >= 0)
		close(fd);
}

static void asker_drop(guint i)
{
	struct asker *a = &g_array_index(askers, struct asker, i);

	if (a->fd >= 0)
		close(a->fd);
	g_array_remove_index_fast(askers, i);
}

/* A new asker: root's (or ours) alone, at most CONTROL_CLIENTS_MAX */
static void control_accept(void)
{
	int fd;

	while ((fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
		struct ucred cred;
		socklen_t len = sizeof(cred);

		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
		    (cred.uid != 0 && cred.uid != geteuid()) || askers->len >= CONTROL_CLIENTS_MAX) {
			close(fd);
			continue;
		}
		g_array_append_val(askers, ((struct asker){ .fd = fd, .since = g_get_monotonic_time() }));
	}
}

/* Its request: "settle SEQNUM" */
static bool asker_read(struct asker *a)
{
	char buf[CONTROL_REQUEST_MAX];
	ssize_t n = recv(a->fd, buf, sizeof(buf), 0);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return true;
	if (n <= 0 || !control_request_parse(buf, (size_t)n, &a->want))
		return false; /* gone, or not a request */
	a->asked = true;
	a->since = g_get_monotonic_time();
	return true;
}

unsigned int control_pollfds(struct pollfd *pfd, unsigned int max)
{
	unsigned int n = 0;

	if (listen_fd >= 0 && n < max)
		pfd[n++] = (struct pollfd){ .fd = listen_fd, .events = POLLIN };
	for (guint i = 0; askers && i < askers->len && n < max; i++) {
		struct asker *a = &g_array_index(askers, struct asker, i);
		if (a->fd >= 0 && !a->asked)
			pfd[n++] = (struct pollfd){ .fd = a->fd, .events = POLLIN };
	}
	return n;
}

void control_ready(const struct pollfd *pfd, unsigned int n)
{
	for (unsigned int k = 0; k < n; k++) {
		if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		if (pfd[k].fd == listen_fd) {
			control_accept();
			continue;
		}
		for (guint i = 0; i < askers->len; i++) {
			struct asker *a = &g_array_index(askers, struct asker, i);
			if (a->fd == pfd[k].fd) {
				if (!asker_read(a))
					asker_drop(i);
				break;
			}
		}
	}
}

int control_answer(void)
{
	gint64 now = g_get_monotonic_time();
	int next = -1;

	/* nor while its tables are closed (a reload failed): events wait */
	if (!askers || !coldplugged || !queue_empty() || !modules_ready())
		return -1;
	for (guint i = askers->len; i-- > 0;) {
		struct asker *a = &g_array_index(askers, struct asker, i);
		gint64 waited = (now - a->since) / 1000;

		if (!a->asked)
			continue;
		if (a->want > queue_seq_heard() && waited < CONTROL_SETTLE_GAP_MS) {
			int left = (int)(CONTROL_SETTLE_GAP_MS - waited);
			next = poll_sooner(next, left);
			continue;
		}
		if (a->fd < 0)
			notify_ready();
		else if (send(a->fd, CONTROL_SETTLE_REPLY, strlen(CONTROL_SETTLE_REPLY), MSG_NOSIGNAL) < 0)
			say(LOG_DEBUG, "settle: %s", strerror(errno));
		asker_drop(i);
	}
	return next;
}

void control_close(void)
{
	while (askers && askers->len)
		asker_drop(askers->len - 1);
	if (askers)
		g_array_free(askers, TRUE);
	askers = NULL;
	if (listen_fd >= 0) {
		struct stat st;

		if (lstat(settings.control_path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_ino == listen_ino)
			unlink(settings.control_path);
		close(listen_fd);
	}
	listen_fd = -1;
}
