/*
 * shared/write-file.h - writing a file a privileged process was named
 * (modalias snapshot -o): the one home of "where may this be written, and
 * how", as path-trust.h is of what may be read.
 *
 * The file is never written in place: a temporary file is made (O_EXCL,
 * never through a symlink) in the directory that holds it and renamed over
 * it, so a reader sees the old file or the new one, whole.  That directory
 * and every one above it pass the trust walk (path-trust.h); it may be
 * shared only when sticky (/tmp), where nobody else can swap or remove
 * root's files and a file already at the name must be root's or the
 * caller's (trust_openat()).  A symlink at the name is followed only when trust_open() would
 * follow it, and stays; what is at the name then must be nothing yet or a
 * regular file trusted as trust_open() trusts one: a FIFO, a device, a
 * socket or a directory is refused, never opened.
 *
 * These functions never print or exit; they return 0 or a negative errno
 * and say why in the caller's struct trust_why.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#include "path-trust.h"

/* PATH replaced by the LEN bytes of DATA, a new file of MODE (less the
 * umask), flushed to disk (fsync) before the rename.  Returns 0; -EPERM
 * for an untrusted directory, symlink or file on the way; -EINVAL for a
 * name that is not a regular file (WHY says what it is); -EISDIR; the
 * errno of what failed otherwise (nothing is left behind then). */
int write_file_replace(const char *path, const void *data, size_t len, mode_t mode, struct trust_why *why);

/* The LEN bytes of DATA written to FD whole (again after EINTR and a
 * short write): 0, or the errno of write() (-EIO when it wrote nothing) */
int write_all(int fd, const void *data, size_t len);

/* A name for a temporary file beside NAME, in BUF (SIZE bytes, NAME cut to
 * fit): ".NAME.XXXXXXXXXXXXXXXX", 64 random bits (getrandom(); the clock
 * and the pid when it has none), so that nobody can make the names first
 * and have the write give up (a shared sticky directory) */
void write_temp_name(char *buf, size_t size, const char *name);
