/* Fuzz target: the legacy environment.  Lines: SUBSYSTEM, then NAME=value. */
#include <stdlib.h>
#include <string.h>

#include "libmodalias.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct modalias_ctx *ctx;
	char *text = malloc(size + 1), *save = NULL, *line, *subsystem;
	const char *envp[64];
	size_t n = 0;
	struct modalias_dev *dev;

	if (!ctx) {
		modalias_ctx_new(&ctx);
		modalias_ctx_set_log_fn(ctx, NULL, NULL);
		modalias_ctx_set_sysfs_root(ctx, "/nonexistent-sysfs");
	}
	memcpy(text, data, size);
	text[size] = '\0';
	subsystem = strtok_r(text, "\n", &save);
	while ((line = strtok_r(NULL, "\n", &save)) && n < 63)
		envp[n++] = line;
	envp[n] = NULL;
	if (modalias_dev_new_from_env(ctx, subsystem, envp, &dev) == 0) {
		char *s;
		if (modalias_dev_format(dev, &s) == 0)
			free(s);
		modalias_dev_unref(dev);
	}
	free(text);
	return 0;
}
