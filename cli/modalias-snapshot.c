/*
 * cli/modalias-snapshot.c - modalias snapshot: the devices of the sysfs
 * root (or of another snapshot, rewritten) as a portable, versioned JSON
 * document (libmodalias's modalias_snapshot_format()), on standard output
 * or into a file replaced atomically, for list, diff, firmware, explain
 * and the agent's dry run to answer offline with --snapshot.
 *
 * This file takes and writes a snapshot; it may not look anything up.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modalias-commands.h"

/* DOC into PATH: a regular file (or none yet) is replaced whole, by a
 * temporary file renamed over it, so that no reader ever sees half a
 * snapshot; a device or a FIFO (/dev/null, /dev/stdout, a pipe) is written
 * in place, never replaced.  A symbolic link is followed, and stays. */
static bool write_output(const char *path, const char *doc, GError **error)
{
	char *real = realpath(path, NULL);
	const char *target = real ? real : path;
	size_t len = strlen(doc), done = 0;
	struct stat st;
	bool ok = true;
	int fd;

	if (stat(target, &st) < 0 || S_ISREG(st.st_mode)) {
		ok = g_file_set_contents_full(target, doc, (gssize)len, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
		free(real);
		return ok;
	}
	fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	while (fd >= 0 && done < len) {
		ssize_t n = write(fd, doc + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (fd < 0 || done < len || close(fd) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "cannot write %s: %s", target,
			    g_strerror(errno));
		if (fd >= 0 && done < len)
			close(fd);
		ok = false;
	}
	free(real);
	return ok;
}

static int count_errors(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	unsigned int *errors = data;

	*errors += err < 0;
	return 0;
}

int cmd_snapshot(int argc, char **argv)
{
	struct device_source src = { NULL };
	g_autofree char *output = NULL;
	const GOptionEntry entries[] = {
		DEVICE_OPTION_ENTRIES(src),
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "Write the snapshot to FILE (a file is replaced at once, never half-written) instead of standard output",
		  "FILE" },
		{ NULL }
	};
	struct modalias_snapshot *snap = NULL;
	g_autoptr(GError) error = NULL;
	unsigned int errors = 0, n = 0;
	struct cli_devices dv;
	struct modalias_ctx *ctx;
	char *doc = NULL;
	int r;

	parse_options("snapshot", "",
		      "Write the devices under the sysfs root as a snapshot: a JSON document (version 1)\n"
		      "of each device's devpath, subsystem, modalias, bound driver and driver_override,\n"
		      "and the modules loaded, with the kernel release and architecture, for list, diff,\n"
		      "firmware, explain and hotplug --dry-run --coldplug to read with --snapshot FILE.\n"
		      "Exit status: 0 written, 1 no device found (written all the same), 2 usage or input\n"
		      "error (a device whose modalias cannot be read is recorded with its error, and\n"
		      "counts), 3 write error.",
		      entries, &argc, &argv);
	if (argc > 1) {
		device_source_clear(&src);
		return usage_error("snapshot", "unexpected argument '%.*s'", ECHO(argv[1]));
	}
	ctx = open_devices(&src, "snapshot", &dv);
	if (dv.snap) {
		snap = modalias_snapshot_ref(dv.snap);
		r = 0;
	} else {
		r = modalias_snapshot_new_from_sysfs(ctx, &snap);
	}
	if (r < 0) {
		fprintf(stderr, "modalias snapshot: cannot read the devices of %s: %s\n", modalias_ctx_get_sysfs_root(ctx),
			strerror(-r));
		goto out;
	}
	if ((r = modalias_snapshot_format(snap, &doc)) < 0) {
		fprintf(stderr, "modalias snapshot: %s\n", strerror(-r));
		goto out;
	}
	modalias_snapshot_foreach(snap, count_errors, &errors);
	n = modalias_snapshot_get_n_devices(snap);
	if (output && strcmp(output, "-") != 0) {
		if (!write_output(output, doc, &error)) {
			fprintf(stderr, "modalias snapshot: %s\n", error->message);
			r = -EIO;
			goto out;
		}
	} else {
		cli_output_puts(doc);
	}
	if (errors)
		fprintf(stderr, "%u devices, %u of them recorded with the error that kept their modalias unread\n", n,
			errors);
	else
		fprintf(stderr, "%u devices\n", n);
out:
	free(doc);
	modalias_snapshot_unref(snap);
	cli_devices_close(&dv);
	modalias_ctx_unref(ctx);
	return r < 0 ? CLI_EXIT_USAGE : cli_exit_status(errors > 0, n > 0);
}
