/* The public header alone, as strict C99: it must need nothing else. */
#include <libmodalias.h>

int main(void)
{
	struct modalias_ctx *ctx = NULL;

	if (modalias_ctx_new(&ctx) < 0)
		return 1;
	return modalias_ctx_unref(ctx) == NULL ? 0 : 1;
}
