/*
 * libmodalias/snapshot-private.h - a snapshot's insides, shared by the
 * object (snapshot.c: built, taken from sysfs, written, asked) and its
 * reader (snapshot-read.c: a snapshot file parsed, built through
 * snapshot.c).  It may declare nothing those two files do not define.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "libmodalias.h"

/* The version of the document written and the only one read */
#define SNAPSHOT_VERSION 1

/* One device, every string malloc'ed or NULL */
struct snap_device {
	char *devpath;
	char *subsystem;
	char *modalias; /* NULL when err is set */
	char *driver;
	char *driver_module;
	char *driver_override;
	int err; /* 0, or the errno its modalias could not be read with */
};

/* A firmware load the kernel log says failed */
struct snap_fw_failure {
	char *devpath; /* NULL: the log line names no device */
	char *file;
	int err; /* the positive errno */
};

/* A set of names: sorted once snapshot_finish() has run */
struct snap_names {
	char **v;
	size_t n, cap;
};

struct modalias_snapshot {
	int refcount;
	struct modalias_ctx *ctx;
	char *kernel, *arch; /* NULL: unknown */
	struct snap_device *devices;
	size_t n_devices, cap_devices;
	struct snap_names modules; /* the loaded ones */
	/* what the kernel showed built in: each /sys/module entry without an
	 * initstate ("builtin"), each driver without a module link
	 * ("builtin_drivers": its name may be a built-in module's, '_'
	 * written '-'); known when taken from a sysfs that has either, or
	 * read from a document that has them */
	struct snap_names builtin_modules;
	struct snap_names builtin_drivers;
	bool builtins_known;
	/* "modules" is a record: taken from a sysfs that has /sys/module, or
	 * read from a document that has the member (a captured tree without
	 * /sys/module cannot say a module is not loaded) */
	bool modules_known;
	struct snap_fw_failure *fw_failures; /* in the kernel log's order */
	size_t n_fw_failures, cap_fw_failures;
	bool kernel_log; /* the kernel log was read: fw_failures is its record */
};

struct modalias_snapshot *snapshot_alloc(struct modalias_ctx *ctx);
/* Takes D's strings over (D is left zeroed); -ENOMEM */
int snapshot_add_device(struct modalias_snapshot *snap, struct snap_device *d);
/* Takes NAME over, into SET (one of a snapshot's snap_names); -ENOMEM */
int snapshot_add_name(struct snap_names *set, char *name);
/* Sorts devices as sysfs is walked (parents first, siblings in byte order)
 * and the names of each set by name; the devpath or name of the first
 * device or name found twice in its set (*MEMBER: the document's member
 * that holds it), or NULL */
const char *snapshot_finish(struct modalias_snapshot *snap, const char **member);
void snap_device_clear(struct snap_device *d);

/* Parses a snapshot document of LEN bytes, followed by a NUL byte (NAME
 * in messages); -EBADMSG
 * with "NAME:LINE:COLUMN: reason" logged, -EPROTONOSUPPORT, -ENOMEM */
int snapshot_parse(struct modalias_ctx *ctx, const char *name, const char *text, size_t len,
		   struct modalias_snapshot **ret);
