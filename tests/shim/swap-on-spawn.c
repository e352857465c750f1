/*
 * The race between a check and an exec, made to happen (LD_PRELOAD, tests
 * only): when $SWAP_ON_SPAWN is "NEW:PATH", the first fork(), clone() or
 * posix_spawn() of the process renames NEW over PATH before it forks, the
 * moment after the hotplug agent checked a handler and before it runs it.
 * Later calls find NEW gone and change nothing (the handlers, preloaded
 * too, fork as they like).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void swap(void)
{
	const char *spec = getenv("SWAP_ON_SPAWN");
	const char *colon = spec ? strchr(spec, ':') : NULL;
	char from[4096];

	if (!colon || (size_t)(colon - spec) >= sizeof(from))
		return;
	memcpy(from, spec, (size_t)(colon - spec));
	from[colon - spec] = '\0';
	rename(from, colon + 1);
}

pid_t fork(void)
{
	pid_t (*real)(void) = (pid_t(*)(void))dlsym(RTLD_NEXT, "fork");

	swap();
	return real();
}

int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	int (*real)(int (*)(void *), void *, int, void *, ...) =
		(int (*)(int (*)(void *), void *, int, void *, ...))dlsym(RTLD_NEXT, "clone");
	pid_t *ptid, *ctid;
	void *tls;
	va_list ap;

	va_start(ap, arg);
	ptid = va_arg(ap, pid_t *);
	tls = va_arg(ap, void *);
	ctid = va_arg(ap, pid_t *);
	va_end(ap);
	swap();
	return real(fn, stack, flags, arg, ptid, tls, ctid);
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
		char *const argv[], char *const envp[])
{
	int (*real)(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
		    char *const[], char *const[]) =
		(int (*)(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
			 char *const[], char *const[]))dlsym(RTLD_NEXT, "posix_spawn");

	swap();
	return real(pid, path, fa, attr, argv, envp);
}
