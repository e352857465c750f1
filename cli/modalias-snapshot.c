/*
 * cli/modalias-snapshot.c - modalias snapshot: the devices of the sysfs
 * root (or of another snapshot, rewritten) as a portable, versioned JSON
 * document (libmodalias's modalias_snapshot_format()), on standard output
 * or into a file replaced atomically (shared/write-file.h), for list, diff, firmware, explain
 * and the agent's dry run to answer offline with --snapshot.
 *
 * This file takes and writes a snapshot; it may not look anything up.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modalias-commands.h"
#include "write-file.h"

static int record_failure(void *data, const char *devpath, const char *file, int error)
{
	return modalias_snapshot_add_firmware_failure(data, devpath, file, error);
}

/* The kernel log's failed firmware loads into SNAP, taken from DV's
 * machine: 0, or a negative errno with the reason printed */
static int record_kernel_log(const struct cli_devices *dv, struct modalias_snapshot *snap)
{
	const char *log = cli_devices_kernel_log(dv);
	int r;

	if (!log)
		return 0; /* a captured tree: its machine's log is not here */
	r = cli_devices_foreach_firmware_failure(dv, record_failure, snap);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		fprintf(stderr, "modalias snapshot: %s cannot be read (%s): the snapshot holds no record of failed firmware loads\n",
			cli_shown(log), strerror(-r));
		return 0;
	}
	return modalias_snapshot_add_firmware_failure(snap, NULL, NULL, 0);
}

static int count_errors(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	unsigned int *errors = data;

	*errors += err < 0;
	return 0;
}

/* As uname -m names a machine: letters, digits, '_' and '-', at most 64 */
static bool arch_name_ok(const char *arch)
{
	size_t n = strlen(arch);

	if (n == 0 || n > 64)
		return false;
	for (const char *p = arch; *p; p++)
		if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-')
			return false;
	return true;
}

int cmd_snapshot(int argc, char **argv)
{
	struct device_source src = { NULL };
	g_autofree char *output = NULL, *kernel = NULL, *arch = NULL;
	const GOptionEntry entries[] = {
		DEVICE_OPTION_ENTRIES(src),
		{ "kernel", 0, 0, G_OPTION_ARG_STRING, &kernel,
		  "The kernel release of the machine the devices are of (default: uname -r for /sys, else unknown)",
		  "VERSION" },
		{ "arch", 0, 0, G_OPTION_ARG_STRING, &arch,
		  "That machine's architecture, as uname -m says it (default: uname -m for /sys, else unknown)", "ARCH" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "Write the snapshot to FILE (a regular file, replaced at once, never half-written) instead of standard output (-)",
		  "FILE" },
		QUIET_OPTION_ENTRY,
		{ NULL }
	};
	struct modalias_snapshot *snap = NULL;
	unsigned int errors = 0, n = 0;
	struct cli_devices dv;
	struct modalias_ctx *ctx;
	char *doc = NULL;
	int r;

	parse_options("snapshot", "",
		      "Write the devices under the sysfs root as a snapshot: a JSON document (version 1)\n"
		      "of each device's devpath, subsystem, modalias, bound driver and driver_override,\n"
		      "the modules loaded and the firmware loads the kernel log says failed, with the\n"
		      "kernel release and architecture (this machine's for /sys; for a captured tree\n"
		      "--kernel and --arch, else unknown), for list, diff, firmware, explain and\n"
		      "hotplug --dry-run --coldplug to read with --snapshot FILE; then the devices\n"
		      "counted on standard error (not with -q, which prints nothing: with -o FILE,\n"
		      "the file is written all the same).\n"
		      "Exit status: 0 written, 1 no device found (written all the same), 2 usage or input\n"
		      "error (a device whose modalias cannot be read is recorded with its error, and\n"
		      "counts), 3 write error.",
		      entries, &argc, &argv);
	if (argc > 1) {
		device_source_clear(&src);
		return usage_error("snapshot", "unexpected argument '%s'", ECHO(argv[1]));
	}
	if (output && !*output) {
		device_source_clear(&src);
		return usage_error("snapshot", "-o needs a FILE; - for standard output");
	}
	if (arch && !arch_name_ok(arch)) {
		device_source_clear(&src);
		return usage_error("snapshot", "--arch '%s' is not a machine name as uname -m gives one (x86_64, aarch64, …)",
				   ECHO(arch));
	}
	if (kernel && !kernel_release_ok(kernel)) {
		device_source_clear(&src);
		return usage_error("snapshot", "--kernel '%s' is not a kernel release (a directory name of /lib/modules)",
				   ECHO(kernel));
	}
	ctx = open_devices(&src, "snapshot", &dv);
	if (dv.snap) {
		snap = modalias_snapshot_ref(dv.snap);
		r = 0;
	} else {
		r = modalias_snapshot_new_from_sysfs(ctx, &snap);
		if (r == 0)
			r = record_kernel_log(&dv, snap);
	}
	if (r < 0) {
		fprintf(stderr, "modalias snapshot: cannot read the devices of %s: %s\n", cli_shown(modalias_ctx_get_sysfs_root(ctx)),
			strerror(-r));
		goto out;
	}
	if ((kernel || arch) && (r = modalias_snapshot_set_kernel(snap, kernel ? kernel : modalias_snapshot_get_kernel(snap),
								  arch ? arch : modalias_snapshot_get_arch(snap))) < 0) {
		fprintf(stderr, "modalias snapshot: %s\n", strerror(-r));
		goto out;
	}
	if ((r = modalias_snapshot_format(snap, &doc)) < 0) {
		fprintf(stderr, "modalias snapshot: %s\n", strerror(-r));
		goto out;
	}
	modalias_snapshot_foreach(snap, count_errors, &errors);
	n = modalias_snapshot_get_n_devices(snap);
	if (output && strcmp(output, "-") != 0) {
		/* replaced whole, in a directory only root or we can write to;
		 * never written into a FIFO or a device: "-o -" is standard output */
		struct trust_why why = { "" };

		r = write_file_replace(output, doc, strlen(doc), 0644, &why);
		if (r < 0) {
			fprintf(stderr, "modalias snapshot: cannot write %s: %s%s\n", cli_shown(output), cli_shown(why.text),
				r == -EINVAL ? " (-o - writes to standard output)" : "");
			goto out;
		}
	} else {
		cli_output_puts(doc);
	}
	if (errors && !quiet)
		fprintf(stderr, "%u device%s, %u of them recorded with the error that kept their modalias unread\n", n,
			cli_plural(n), errors);
	else if (!quiet)
		fprintf(stderr, "%u device%s\n", n, cli_plural(n));
out:
	free(doc);
	modalias_snapshot_unref(snap);
	cli_devices_close(&dv);
	modalias_ctx_unref(ctx);
	return r < 0 ? CLI_EXIT_USAGE : cli_exit_status(errors > 0, n > 0);
}
