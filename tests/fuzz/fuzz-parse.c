/* Fuzz target: modalias_parse(); what parses must format back unchanged. */
#include <stdlib.h>
#include <string.h>

#include "libmodalias.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct modalias_ctx *ctx;
	struct modalias_dev *dev;
	char *s = malloc(size + 1), *back;
	size_t len;

	if (!ctx) {
		modalias_ctx_new(&ctx);
		modalias_ctx_set_log_fn(ctx, NULL, NULL);
	}
	memcpy(s, data, size);
	s[size] = '\0';
	len = strlen(s);
	if (modalias_parse(ctx, s, &dev) == 0) {
		if (modalias_dev_format(dev, &back) != 0)
			abort();
		if (len && s[len - 1] == '\n')
			s[--len] = '\0';
		if (strcmp(back, s) != 0)
			abort(); /* format(parse(s)) == s */
		free(back);
		modalias_dev_unref(dev);
	}
	free(s);
	return 0;
}
