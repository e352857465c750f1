// The public header from C++: extern "C" and no C-only constructs.
#include <libmodalias.h>

int main()
{
	struct modalias_ctx *ctx = nullptr;

	if (modalias_ctx_new(&ctx) < 0)
		return 1;
	return modalias_ctx_unref(ctx) == nullptr ? 0 : 1;
}
