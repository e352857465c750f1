/* Fuzz target: the index cache loader.  The input is a cache file, mapped
 * from a memfd as a real one is; the checksum is skipped (CACHE_NO_CHECKSUM)
 * so that the fuzzer reaches the checks of the structure behind it.  What
 * the loader takes must be safe to look up in, to copy and to change. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cache-private.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct modalias_ctx *ctx;
	static const char *const queries[] = {
		"pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00", "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00",
		"hid:b0003g0001v0000046Dp0000C52B", "of:NethernetT(null)Csnps,dwmac", "acpi:PNP0C0A:",
		"dmi:bvnX:svnLENOVO:pnT480:", "e1000e", "symbol:drm_need_swiotlb", "usbcore", "", "a",
	};
	struct modalias_table *t;
	struct modalias_result *res;
	const char *why;
	char whybuf[256];
	size_t bytes;
	int fd, r;

	if (!ctx) {
		modalias_ctx_new(&ctx);
		modalias_ctx_set_log_fn(ctx, NULL, NULL);
	}
	fd = memfd_create("fuzz-cache", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	r = cache_map_fd(ctx, fd, NULL, CACHE_NO_CHECKSUM, &t, &why, whybuf, sizeof(whybuf));
	close(fd);
	if (r < 0) {
		if (!why || strlen(why) >= sizeof(whybuf))
			abort();
		return 0;
	}
	modalias_result_new(&res);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
			int n = modalias_table_lookup(t, queries[i], res);

			for (int m = 0; m < n; m++) {
				unsigned int line;

				if (!modalias_result_get_module(res, (unsigned int)m))
					abort();
				for (unsigned int k = 0; k < modalias_result_get_pattern_count(res, (unsigned int)m); k++)
					if (!modalias_result_get_pattern(res, (unsigned int)m, k) ||
					    !modalias_result_get_pattern_origin(res, (unsigned int)m, k, &line))
						abort();
			}
		}
		modalias_table_is_blacklisted(t, "e1000e");
		modalias_table_get_memory(t, &bytes);
		/* then changed: the mapped arrays are copied, the layer rebuilt */
		if (pass == 0 && modalias_table_add(t, "pci:v00008086d*", "fuzzmod") < 0)
			break;
		modalias_table_add_blacklist(t, "fuzzmod");
	}
	modalias_result_unref(res);
	modalias_table_unref(t);
	return 0;
}
