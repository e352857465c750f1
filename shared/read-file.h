/*
 * shared/read-file.h - reading a file whole, with a bound: the one helper
 * behind alias tables, modules.*map files, sysfs attributes and
 * modalias.conf, compiled into the library and into both front ends.
 *
 * Every read is bounded: a file that reports no size and never ends
 * (/proc/self/pagemap) stops at the caller's limit with -EFBIG.  Only a
 * regular file is read: its kind is checked on an O_PATH descriptor before
 * any open that has an effect (a FIFO's writer woken, a device's driver
 * asked), and the file is then opened through that descriptor
 * (/proc/self/fd), with O_NONBLOCK.
 *
 * These functions never print or exit; they return 0 or a negative errno.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

/* The limits, each documented where the file kind is (man pages,
 * libmodalias.h): */
/* modules.alias, modules.symbols, … and modules.*map files: 64 MiB (a
 * distribution's modules.alias is about 1.5 MiB) */
#define READ_FILE_TABLE_MAX ((size_t)64 << 20)
/* modalias.conf: 1 MiB */
#define READ_FILE_CONFIG_MAX ((size_t)1 << 20)
/* a sysfs attribute (the kernel's are a page at most; a uevent file with
 * a long MODALIAS a few): 64 KiB */
#define READ_FILE_ATTR_MAX ((size_t)64 << 10)
/* a snapshot file (modalias snapshot): 64 MiB (a machine with a thousand
 * devices writes about 200 KiB) */
#define READ_FILE_SNAPSHOT_MAX ((size_t)64 << 20)

enum {
	/* the null device (/dev/null, 1:3) will do too: an empty file;
	 * without this flag only a regular file is read */
	READ_FILE_NULL = 1u << 0,
	/* not a file of the kernel's own file systems (procfs, sysfs,
	 * debugfs, tracefs, securityfs), which may do something when read
	 * (/proc/kmsg hands over the kernel's messages, gone for syslog):
	 * -EMEDIUMTYPE, never opened for reading */
	READ_FILE_NO_KERNEL_FS = 1u << 1,
	/* PATH itself not a symbolic link (one on the way is followed):
	 * -ELOOP; but with READ_FILE_NULL, a link to the null device (a
	 * mask, as systemd's tools make them) reads as an empty file */
	READ_FILE_NO_LINK = 1u << 2,
};

/*
 * Reads PATH whole into *RET (malloc'ed, NUL-terminated; *LEN, when not
 * NULL, gets its length without that NUL: the file may hold NUL bytes).
 * Returns 0; -EFBIG when the file holds more than MAX bytes; -EISDIR for a
 * directory; -EINVAL for a file that is neither a regular file nor (with
 * READ_FILE_NULL) the null device, never opened for reading; -ESTALE when
 * the file was replaced between the check and the open (without /proc
 * only); -EAGAIN when a read would block; the errno of open() or read()
 * otherwise.  Nothing is returned on failure.
 */
int read_file(const char *path, size_t max, unsigned int flags, char **ret, size_t *len);

/*
 * What read_file() checks of PATH before it opens it, for a file another
 * reader opens by its path as it is (libkmod: a module directory's indexes,
 * each module's file): its kind (a regular file, or with READ_FILE_NULL the
 * null device), and its file system with READ_FILE_NO_KERNEL_FS; not its
 * size.  PATH is only opened O_PATH (no FIFO's writer woken, no device's
 * driver asked).  Returns 0, or read_file()'s error: -EISDIR, -EINVAL for a
 * file that is not a regular file, -EMEDIUMTYPE, -ELOOP, the errno of
 * open() (-ENOENT…).  For -EINVAL and -EISDIR, *KIND (when KIND is not
 * NULL) says what PATH is, as file_kind() does; NULL otherwise.  A check
 * only: whoever may replace PATH may do so between it and the reader's
 * open.
 */
int read_file_check(const char *path, unsigned int flags, const char **kind);

/* What a file of MODE is, for a message: "a FIFO", "a character device",
 * "a block device", "a socket", "a directory", "a regular file"… */
const char *file_kind(mode_t mode);

/*
 * What read_file()'s error R means, for a message "cannot read PATH: …":
 * "larger than 64 MiB" for -EFBIG (MAX being the limit given),
 * "not a regular file" for -EINVAL, "a kernel file (procfs, sysfs…):
 * reading may change it" for -EMEDIUMTYPE, strerror()
 * otherwise.  Writes into
 * BUF (SIZE bytes; 64 will do) and returns it.
 */
const char *read_file_error(int r, size_t max, char *buf, size_t size);
