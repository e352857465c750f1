/*
 * make bench: the hotplug agent's kernel-helper mode against the original
 * bash /sbin/hotplug multiplexer, on the same hotplug.d trees (empty, and
 * three handlers), paired runs: median wall and peak RSS; and FLOOR, a
 * program that does nothing, in the agent's place (the least any helper
 * can cost on this machine), and that same program running the three
 * handlers in turn by posix_spawn(), no listing, no check (the least any
 * helper running them can cost).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Runs argv with envp; wall time in µs, *rss the child's peak RSS in KiB. */
static double run(char *const argv[], char *const envp[], long *rss)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	double t0, t1;
	pid_t pid;
	int status;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	t0 = now_us();
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, envp) != 0) {
		perror(argv[0]);
		exit(1);
	}
	wait4(pid, &status, 0, &ru);
	t1 = now_us();
	posix_spawn_file_actions_destroy(&fa);
	/* the agent exits 0, the bash loop 1: anything else did not run */
	if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
		fprintf(stderr, "%s failed (status %d)\n", argv[0], status);
		exit(1);
	}
	*rss = ru.ru_maxrss;
	return t1 - t0;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0 || chmod(path, mode) != 0) {
		perror(path);
		exit(1);
	}
}

/* Medians of N paired runs (A B, B A, …) of A and B with ENVP, in µs, the
 * quartiles of the N ratios A/B of a pair (the spread: a loaded machine
 * widens it), and the largest peak RSS of each, in KiB. */
struct pair {
	double a, b;
	double q1, q3;
	long rss_a, rss_b;
};

static struct pair paired(char *const a_argv[], char *const b_argv[], char *const envp[], int n)
{
	double *a = calloc((size_t)n, sizeof(double)), *b = calloc((size_t)n, sizeof(double));
	double *ratio = calloc((size_t)n, sizeof(double));
	struct pair p = { 0 };
	long r;

	if (!a || !b || !ratio) {
		perror("calloc");
		exit(1);
	}
	run(a_argv, envp, &r); /* warm-up, not counted */
	run(b_argv, envp, &r);
	for (int i = 0; i < n; i++) {
		if (i % 2) {
			a[i] = run(a_argv, envp, &r);
			p.rss_a = r > p.rss_a ? r : p.rss_a;
			b[i] = run(b_argv, envp, &r);
			p.rss_b = r > p.rss_b ? r : p.rss_b;
		} else {
			b[i] = run(b_argv, envp, &r);
			p.rss_b = r > p.rss_b ? r : p.rss_b;
			a[i] = run(a_argv, envp, &r);
			p.rss_a = r > p.rss_a ? r : p.rss_a;
		}
	}
	for (int i = 0; i < n; i++)
		ratio[i] = a[i] / b[i];
	qsort(a, (size_t)n, sizeof(double), cmp);
	qsort(b, (size_t)n, sizeof(double), cmp);
	qsort(ratio, (size_t)n, sizeof(double), cmp);
	p.a = a[n / 2];
	p.b = b[n / 2];
	p.q1 = ratio[n / 4];
	p.q3 = ratio[3 * n / 4];
	free(a);
	free(b);
	free(ratio);
	return p;
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/bench-hotplug-XXXXXX", path[8192], script[4096], dirvar[4200];
	const char *agent = argc > 1 ? argv[1] : NULL, *floor_prog = argc > 3 ? argv[3] : NULL;
	int n = argc > 2 ? atoi(argv[2]) : 300;

	if (!agent || n < 10) {
		fprintf(stderr, "usage: bench-hotplug AGENT [RUNS [FLOOR]]\n");
		return 2;
	}
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	/* the bash multiplexer: each $1 handler, then each default one, if a
	 * regular executable file, with argv (path, $1); exit 1 */
	snprintf(script, sizeof(script), "%s/hotplug.sh", tmp);
	write_file(script,
		   "#!/bin/bash\n"
		   "DIR=\"$HOTPLUG_DIR\"\n"
		   "for I in \"${DIR}/$1/\"*.hotplug \"${DIR}/default/\"*.hotplug ; do\n"
		   "\tif [ -f \"$I\" ] && [ -x \"$I\" ]; then \"$I\" \"$1\" ; fi\n"
		   "done\n"
		   "exit 1\n", 0755);
	printf("hotplug helper mode against the bash /sbin/hotplug loop, %d paired runs (ACTION=change)\n\n", n);
	printf("%-14s %12s %12s %8s %13s %12s %12s\n", "tree", "agent ms", "bash ms", "ratio", "pairs' Q1-Q3",
	       "agent KiB", "bash KiB");
	for (int tree = 0; tree < 2; tree++) {
		char hp[4096], hpopt[4300], ldpath[4200], handlers[3][4200];
		const char *ld = getenv("LD_LIBRARY_PATH");
		struct pair p;

		snprintf(hp, sizeof(hp), "%s/tree%d", tmp, tree);
		mkdir(hp, 0755);
		snprintf(path, sizeof(path), "%s/net", hp);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/default", hp);
		mkdir(path, 0755);
		if (tree == 1) {
			const char *names[] = { "net/10-first.hotplug", "net/20-second.hotplug", "default/50-log.hotplug" };
			for (int i = 0; i < 3; i++) {
				snprintf(handlers[i], sizeof(handlers[i]), "%s/%s", hp, names[i]);
				write_file(handlers[i], "#!/bin/sh\nexit 0\n", 0755);
			}
		}
		snprintf(dirvar, sizeof(dirvar), "HOTPLUG_DIR=%s", hp);
		snprintf(ldpath, sizeof(ldpath), "LD_LIBRARY_PATH=%s", ld ? ld : "");
		snprintf(hpopt, sizeof(hpopt), "--hotplug-dir=%s", hp);
		{
			char *envp[] = { (char *)"ACTION=change", (char *)"DEVPATH=/devices/virtual/net/lo",
					 (char *)"SUBSYSTEM=net", (char *)"SEQNUM=1", dirvar, (char *)"PATH=/usr/bin:/bin",
					 ldpath, NULL };
			char *ours[] = { (char *)agent, hpopt, (char *)"net", NULL };
			char *theirs[] = { (char *)"/bin/bash", script, (char *)"net", NULL };
			char *nothing[] = { (char *)floor_prog, NULL };
			char *just_run[] = { (char *)floor_prog, (char *)"net", handlers[0], handlers[1], handlers[2], NULL };

			p = paired(ours, theirs, envp, n);
			printf("%-14s %12.2f %12.2f %7.2fx %7.2f-%.2f %12ld %12ld\n", tree ? "three handlers" : "empty",
			       p.a / 1000, p.b / 1000, p.a / p.b, p.q1, p.q3, p.rss_a, p.rss_b);
			/* what starting any program costs: the same runs, a
			 * program that does nothing in the agent's place */
			if (floor_prog) {
				p = paired(tree ? just_run : nothing, theirs, envp, n);
				printf("%-14s %12.2f %12.2f %7.2fx %7.2f-%.2f %12ld %12ld\n", tree ? "floor, three" : "floor",
				       p.a / 1000, p.b / 1000, p.a / p.b, p.q1, p.q3, p.rss_a, p.rss_b);
			}
		}
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	return system(path) == 0 ? 0 : 1;
}
