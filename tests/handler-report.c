/*
 * A hotplug.d handler that tells how it was started (tests only): one line
 * appended to $HANDLER_REPORT,
 *   NAME argv0=… argv1=… SigBlk=… SigIgn=… pgrp=own|shared fds=0:TARGET,1:…
 * NAME is "binary" when it is the handler itself (hotplug runs it as
 * "PATH SUBSYSTEM"), or the first of three arguments "NAME ARGV0 ARGV1" when
 * a shell-script handler execs it with its own ($0, $1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void status_field(FILE *out, const char *name)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	size_t len = strlen(name);

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, name, len) == 0 && line[len] == ':') {
			char *v = line + len + 1;
			v[strcspn(v, "\n")] = '\0';
			fprintf(out, " %s=%s", name, v + strspn(v, " \t"));
		}
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	const char *path = getenv("HANDLER_REPORT");
	bool script = argc == 4;
	char **args = script ? argv + 1 : argv;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	FILE *out;
	int n = 0;

	if (!path || !(out = fopen(path, "a")))
		return 1;
	fprintf(out, "%s argv0=%s argv1=%s", script ? args[0] : "binary", args[script], args[script + 1] ? args[script + 1] : "");
	status_field(out, "SigBlk");
	status_field(out, "SigIgn");
	fprintf(out, " pgrp=%s fds=", getpgrp() == getpid() ? "own" : "shared");
	while (d && (de = readdir(d))) {
		char link[64], target[PATH_MAX];
		ssize_t len;
		int fd = atoi(de->d_name);

		if (de->d_name[0] == '.' || fd == dirfd(d) || fd == fileno(out))
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		len = readlink(link, target, sizeof(target) - 1);
		target[len < 0 ? 0 : len] = '\0';
		fprintf(out, "%s%d:%s", n++ ? "," : "", fd, target);
	}
	if (d)
		closedir(d);
	fputc('\n', out);
	return fclose(out) == 0 ? 0 : 1;
}
