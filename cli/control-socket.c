/*
 * cli/control-socket.c - the control socket's place and words (see
 * control-socket.h).
 *
 * This code checks a path and formats and parses bytes; it may not read
 * a socket or log.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control-socket.h"

int control_socket_dir(const char *path, bool make, struct trust_parent *at, struct trust_why *why)
{
	struct trust_parent up;
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int r = trust_open_parent(path, 0, at, why);

	if (r != -ENOENT || !make || !slash || slash == path || (size_t)(slash - path) >= sizeof(dir))
		return r;
	/* the socket's directory is missing: made in its parent, if trusted */
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	r = trust_open_parent(dir, 0, &up, why);
	if (r < 0)
		return r;
	if (mkdirat(up.fd, up.name, 0755) == 0)
		fchmodat(up.fd, up.name, 0755, 0); /* whatever the umask */
	else if (errno != EEXIST)
		r = -errno;
	if (r < 0)
		snprintf(why->text, sizeof(why->text), "%s: %s", dir, strerror(-r));
	close(up.fd);
	return r < 0 ? r : trust_open_parent(path, 0, at, why);
}

size_t control_request_format(char *buf, unsigned long long seq)
{
	return (size_t)snprintf(buf, CONTROL_REQUEST_MAX, "%s%llu", CONTROL_SETTLE_REQUEST, seq);
}

bool control_request_parse(const char *buf, size_t len, unsigned long long *seq)
{
	size_t at = strlen(CONTROL_SETTLE_REQUEST);
	unsigned long long v = 0;

	if (len <= at || len - at > 20 || memcmp(buf, CONTROL_SETTLE_REQUEST, at) != 0)
		return false;
	for (; at < len; at++) {
		unsigned int d = (unsigned char)buf[at] - (unsigned int)'0';

		if (d > 9 || v > (~0ULL - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*seq = v;
	return true;
}
