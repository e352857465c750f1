/*
 * make bench: the floor.  A C program that does nothing, linked as the
 * agent and modalias are (dynamically, against the same C library), so
 * that the benchmarks can say what starting any program costs on the
 * machine they run on: no helper or one-shot lookup can cost less.
 *
 * floor SUBSYSTEM HANDLER...: the least a multiplexer can do, each
 * HANDLER run in turn as HANDLER SUBSYSTEM by posix_spawn() (no listing,
 * no check, no clean start) and waited for: no helper running these
 * handlers can cost less.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		char *args[] = { argv[i], argv[1], NULL };
		pid_t pid;

		if (posix_spawn(&pid, argv[i], NULL, NULL, args, environ) != 0)
			return 1;
		while (waitpid(pid, NULL, 0) < 0)
			;
	}
	return 0;
}
