/*
 * cli/hotplug-netlink.c - the kernel's uevents: the NETLINK_KOBJECT_UEVENT
 * socket (a large receive buffer, credentials passed) and one message read
 * from it, the kernel's only unless told, parsed by uevent.c; and the
 * kernel's count of the uevents it sent (kernel/uevent_seqnum).
 *
 * This file reads messages; it may not queue or handle them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <syslog.h>
#include <unistd.h>

#include "hotplug-agent.h"
#include "read-file.h"

int netlink_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1u << (settings.netlink_group - 1) };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
	/* the events beyond the daemon's queue limit wait here (truesize: a
	 * 2 KiB uevent takes about 4 KiB of the buffer) */
	int size = settings.queue_limit * HOTPLUG_QUEUE_SOCKET_BYTES, one = 1;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

/* Only the kernel's: sender pid 0, uid 0 */
struct event *netlink_receive(int fd, bool *overflow)
{
	char buf[16384], cbuf[CMSG_SPACE(sizeof(struct ucred))];
	struct sockaddr_nl sa;
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) - 1 };
	struct msghdr mh = { .msg_name = &sa, .msg_namelen = sizeof(sa), .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	struct ucred *cred = NULL;
	ssize_t n = recvmsg(fd, &mh, 0);

	*overflow = false;
	if (n < 0) {
		*overflow = errno == ENOBUFS;
		return NULL;
	}
	buf[n] = '\0';
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_CREDENTIALS)
			cred = (struct ucred *)CMSG_DATA(cm);
	if (!settings.trust_any_sender && (sa.nl_pid != 0 || !cred || cred->uid != 0)) {
		say(LOG_DEBUG, "message from pid %u ignored: not the kernel", sa.nl_pid);
		return NULL;
	}
	return event_parse(buf, (size_t)n);
}

bool kernel_seqnum(unsigned long long *seq)
{
	g_autofree char *path = g_build_filename(settings.sysfs ? settings.sysfs : "/sys", "kernel", "uevent_seqnum", NULL);
	g_autofree char *text = NULL;

	if (read_file(path, READ_FILE_ATTR_MAX, 0, &text, NULL) < 0)
		return false;
	*seq = g_ascii_strtoull(text, NULL, 10);
	return true;
}
