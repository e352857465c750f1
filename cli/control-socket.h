/*
 * cli/control-socket.h - the daemon's control socket as both ends see it
 * (hotplug-control.c listens, hotplug-settle.c asks): where it may be, and
 * its words, one request "settle SEQNUM" and one reply "settled".  Shared
 * with the request parser's fuzz target.
 *
 * This code checks a path and formats and parses bytes; it may not read
 * a socket or log.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "path-trust.h"

#define CONTROL_SETTLE_REQUEST "settle "
#define CONTROL_SETTLE_REPLY "settled"
#define CONTROL_REQUEST_MAX 64 /* a request's bytes, at most ("settle " and 20 digits) */
/* A settled daemon waits this long for the kernel's events up to the
 * asker's SEQNUM that never reach its socket (other network namespaces')
 * before it answers */
#define CONTROL_SETTLE_GAP_MS 100
/* How long --settle=0 ("only ask") waits for the answer: a settled daemon
 * gives it within its gap; the rest covers a loaded machine */
#define CONTROL_ASK_MS (CONTROL_SETTLE_GAP_MS + 400)

/* The directory that holds the socket PATH: it and every directory above
 * it pass the trust walk (shared/path-trust.h: root's or ours, nobody
 * else's to write, not even sticky), so nobody else can have put or swapped
 * a socket there; MAKE: made (0755) when missing, in a parent that passes
 * it.  A symlink at PATH is refused (-ELOOP).  Returns 0 and *AT (the
 * caller closes AT->fd); a negative errno, WHY saying why. */
int control_socket_dir(const char *path, bool make, struct trust_parent *at, struct trust_why *why);

/* "settle SEQNUM" into BUF (CONTROL_REQUEST_MAX bytes): its length */
size_t control_request_format(char *buf, unsigned long long seq);

/* LEN bytes from an asker (any bytes): true when they are a request,
 * "settle " and the decimal SEQNUM (0 to 2^64-1, 20 digits at most) and
 * nothing else, its SEQNUM in *SEQ. */
bool control_request_parse(const char *buf, size_t len, unsigned long long *seq);
