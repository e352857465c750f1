/*
 * The boot benchmark's uevent recorder (tests/qemu/boot-bench.sh; built
 * static, run in the guest from the first lines of /init): every uevent
 * the kernel sends, one line each on standard output,
 *
 *   UPTIME ACTION DEVPATH [MODALIAS]
 *
 * UPTIME in seconds (/proc/uptime's clock, CLOCK_BOOTTIME).  A device's
 * add with its MODALIAS is when it appeared; a module's own add
 * (DEVPATH /module/NAME) comes when its init has returned: when it went
 * live.  First, once listening, the devices already there,
 *
 *   UPTIME present DEVPATH [MODALIAS]
 *
 * (a replayed add, udevadm trigger's, is no appearance).  It only listens
 * and reads: nothing it does reaches the managers measured.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double boottime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void stamp(void)
{
	printf("%.3f", boottime());
}

/* The devices under PATH (a directory of /sys/devices, LEN its length):
 * those with a uevent file, and their modalias */
static void present(char *path, size_t len)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char alias[4096] = "";
		ssize_t n;
		int fd;

		if (de->d_type != DT_DIR || de->d_name[0] == '.' || len + strlen(de->d_name) + 16 > 4096)
			continue;
		snprintf(path + len, 4096 - len, "/%s/uevent", de->d_name);
		if (access(path, F_OK) == 0) {
			snprintf(path + len, 4096 - len, "/%s/modalias", de->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			n = fd < 0 ? 0 : read(fd, alias, sizeof(alias) - 1);
			if (fd >= 0)
				close(fd);
			alias[n > 0 ? n : 0] = '\0';
			alias[strcspn(alias, "\n")] = '\0';
			path[len] = '\0';
			stamp();
			printf(" present %s/%s%s%s\n", path + 4, de->d_name, *alias ? " " : "", alias);
		}
		snprintf(path + len, 4096 - len, "/%s", de->d_name);
		present(path, strlen(path));
		path[len] = '\0';
	}
	closedir(d);
}

int main(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	int size = 16 * 1024 * 1024;
	char buf[16384];
	int one = 1;
	double offset; /* CLOCK_REALTIME less CLOCK_BOOTTIME */
	struct timespec rt;

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("uevent-log");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	/* when the kernel queued it, not when it was read: the walk below
	 * may hold the reading back */
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	clock_gettime(CLOCK_REALTIME, &rt);
	offset = (double)rt.tv_sec + (double)rt.tv_nsec / 1e9 - boottime();
	setvbuf(stdout, NULL, _IOLBF, 0);
	{
		char path[4096] = "/sys/devices";
		present(path, strlen(path));
	}
	for (;;) {
		char cbuf[CMSG_SPACE(sizeof(struct timespec))];
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) - 1 };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		ssize_t n = recvmsg(fd, &mh, 0);
		const char *action = NULL, *devpath = NULL, *alias = NULL;
		double when = -1;

		if (n <= 0)
			continue;
		buf[n] = '\0';
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS) {
				struct timespec ts;

				memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
				when = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - offset;
			}
		for (char *p = buf + strlen(buf) + 1; p < buf + n; p += strlen(p) + 1)
			if (strncmp(p, "ACTION=", 7) == 0)
				action = p + 7;
			else if (strncmp(p, "DEVPATH=", 8) == 0)
				devpath = p + 8;
			else if (strncmp(p, "MODALIAS=", 9) == 0)
				alias = p + 9;
		if (action && devpath && strspn(action, "abcdefghijklmnopqrstuvwxyz") == strlen(action))
			printf("%.3f %s %s%s%s\n", when < 0 ? boottime() : when, action, devpath, alias ? " " : "",
			       alias ? alias : "");
	}
}
