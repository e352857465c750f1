/* bench/kmod-batch.c: the libkmod yardstick of the batch benchmark: reads one
 * modalias a line on stdin, looks each up with kmod_module_new_from_lookup in
 * the module directory given, prints "ALIAS MODULE" for every answer (as
 * `modalias resolve -` does). A whole process, start-up included; it only
 * reads the tables and stdin and writes stdout.
 *
 * usage: kmod-batch MODDIR < ids.modalias */
#include <stdio.h>
#include <string.h>
#include <libkmod.h>

int main(int argc, char **argv)
{
	const char *none[] = { NULL };
	struct kmod_ctx *k;
	char line[4096];

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODDIR < MODALIASES\n", argv[0]);
		return 2;
	}
	k = kmod_new(argv[1], none);
	if (!k || kmod_load_resources(k) < 0) {
		fprintf(stderr, "%s: cannot load the tables of %s\n", argv[0], argv[1]);
		return 2;
	}
	kmod_set_log_priority(k, 0);
	while (fgets(line, sizeof(line), stdin)) {
		struct kmod_list *list = NULL, *l;
		line[strcspn(line, "\n")] = '\0';
		if (!*line || kmod_module_new_from_lookup(k, line, &list) < 0)
			continue;
		kmod_list_foreach(l, list) {
			struct kmod_module *m = kmod_module_get_module(l);
			printf("%s %s\n", line, kmod_module_get_name(m));
			kmod_module_unref(m);
		}
		kmod_module_unref_list(list);
	}
	kmod_unref(k);
	return ferror(stdout) ? 3 : 0;
}
