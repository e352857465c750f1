/* Fuzz target: alias tables from text, and lookups of what they hold. */
#include <stdlib.h>
#include <string.h>

#include "libmodalias.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct modalias_ctx *ctx;
	static const char *const queries[] = {
		"pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00", "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00",
		"of:NethernetT(null)Csnps,dwmac", "acpi:PNP0C0A:", "dmi:bvnX:svnLENOVO:pnT480:", "e1000e", "",
	};
	struct modalias_table *t;
	struct modalias_result *res;
	char *q;

	if (!ctx) {
		modalias_ctx_new(&ctx);
		modalias_ctx_set_log_fn(ctx, NULL, NULL);
	}
	if (modalias_table_new(ctx, &t) < 0)
		return 0;
	modalias_table_load_buffer(t, "fuzz", (const char *)data, size);
	modalias_result_new(&res);
	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
		modalias_table_lookup(t, queries[i], res);
	/* the input itself, as a query */
	q = malloc(size + 1);
	memcpy(q, data, size);
	q[size] = '\0';
	modalias_table_lookup(t, q, res);
	for (unsigned int i = 0; i < modalias_result_get_count(res); i++)
		for (unsigned int k = 0; k < modalias_result_get_pattern_count(res, i); k++)
			if (!modalias_result_get_pattern(res, i, k))
				abort();
	free(q);
	modalias_result_unref(res);
	modalias_table_unref(t);
	return 0;
}
