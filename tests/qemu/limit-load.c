/*
 * The boot benchmark's limit (tests/qemu/boot-bench.sh; built static, run
 * in the guest from the first lines of /init): a loader that already knows
 * the answer.  PLAN has a line for each module to insert,
 *
 *   NAME PATH [DEPENDENCY ...]
 *
 * (the dependencies by name, from modules.dep); every module is inserted
 * by a thread of its own, all started at once, each as soon as the
 * insertions of its dependencies have returned.  No lookup, no process per
 * module: nothing stands between the kernel and the insertions but their
 * order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_MODULES 512
#define MAX_DEPS 32

struct module {
	char name[64], path[512];
	int deps[MAX_DEPS], ndeps;
	int done; /* its insertion returned */
};

static struct module mods[MAX_MODULES];
static int nmods;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

static int find(const char *name)
{
	for (int i = 0; i < nmods; i++)
		if (strcmp(mods[i].name, name) == 0)
			return i;
	return -1;
}

static void *insert(void *data)
{
	struct module *m = data;
	int fd;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < m->ndeps; i++)
		while (!mods[m->deps[i]].done)
			pthread_cond_wait(&changed, &lock);
	pthread_mutex_unlock(&lock);
	fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) < 0 && errno != EEXIST))
		fprintf(stderr, "limit-load: %s: %s\n", m->path, strerror(errno));
	if (fd >= 0)
		close(fd);
	pthread_mutex_lock(&lock);
	m->done = 1;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	static char deps[MAX_MODULES][2048];
	pthread_t t[MAX_MODULES];
	char line[4096];
	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;

	if (!f) {
		fprintf(stderr, "usage: limit-load PLAN\n");
		return 2;
	}
	while (nmods < MAX_MODULES && fgets(line, sizeof(line), f)) {
		char *rest = NULL;

		if (sscanf(line, "%63s %511s", mods[nmods].name, mods[nmods].path) != 2)
			continue;
		rest = strstr(line, mods[nmods].path) + strlen(mods[nmods].path);
		snprintf(deps[nmods], sizeof(deps[nmods]), "%s", rest);
		nmods++;
	}
	fclose(f);
	/* dependencies outside the plan are not waited for */
	for (int i = 0; i < nmods; i++)
		for (char *save = NULL, *d = strtok_r(deps[i], " \t\n", &save); d; d = strtok_r(NULL, " \t\n", &save)) {
			int k = find(d);

			if (k >= 0 && k != i && mods[i].ndeps < MAX_DEPS)
				mods[i].deps[mods[i].ndeps++] = k;
		}
	for (int i = 0; i < nmods; i++)
		if (pthread_create(&t[i], NULL, insert, &mods[i]) != 0) {
			perror("limit-load");
			return 1;
		}
	for (int i = 0; i < nmods; i++)
		pthread_join(t[i], NULL);
	return 0;
}
