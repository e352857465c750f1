/*
 * tests/kmod-lookup: libkmod's answers, for the oracle test to compare
 * with a libkmod it does not link (Debian sid's libkmod 34, this program
 * run under sid's loader: tests/data/fetch-sid-kmod.sh).  Reads aliases
 * from stdin, each ended by a NUL byte; writes a line for each: the names
 * kmod_module_new_from_lookup() answers in its order, space-separated
 * (duplicates as libkmod gives them), or "error N".
 *
 * Built without the sanitizers (it runs under another C library), and
 * without GLib: libkmod and libc only.
 *
 * usage: kmod-lookup MODDIR < ALIASES
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>

#include <libkmod.h>

int main(int argc, char **argv)
{
	const char *no_config[] = { NULL };
	struct kmod_ctx *k;
	char *alias = NULL;
	size_t cap = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODDIR < ALIASES (each ended by a NUL byte)\n", argv[0]);
		return 2;
	}
	k = kmod_new(argv[1], no_config);
	if (!k) {
		fprintf(stderr, "%s: kmod_new(%s) failed\n", argv[0], argv[1]);
		return 2;
	}
	kmod_set_log_priority(k, 0);
	if (kmod_load_resources(k) < 0) {
		fprintf(stderr, "%s: cannot load the index files of %s\n", argv[0], argv[1]);
		return 2;
	}
	while (getdelim(&alias, &cap, '\0', stdin) > 0) {
		struct kmod_list *list = NULL, *l;
		int r = kmod_module_new_from_lookup(k, alias, &list);
		const char *sep = "";

		if (r < 0) {
			printf("error %d\n", r);
			continue;
		}
		kmod_list_foreach(l, list) {
			struct kmod_module *m = kmod_module_get_module(l);

			printf("%s%s", sep, kmod_module_get_name(m));
			sep = " ";
			kmod_module_unref(m);
		}
		putchar('\n');
		kmod_module_unref_list(list);
	}
	free(alias);
	kmod_unref(k);
	return fflush(stdout) != 0 || ferror(stdout) ? 3 : 0;
}
