/* Fuzz target: the map-file parsers (first byte: the type), aliases, matching. */
#include <stdlib.h>
#include <string.h>

#include "libmodalias.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct modalias_ctx *ctx;
	static struct modalias_dev *usb;
	struct modalias_map *map;
	int type;

	if (!ctx) {
		modalias_ctx_new(&ctx);
		modalias_ctx_set_log_fn(ctx, NULL, NULL);
		modalias_parse(ctx, "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00", &usb);
	}
	if (size < 1)
		return 0;
	type = data[0] % 9 == 8 ? -1 : data[0] % 9;
	if (modalias_map_new_from_buffer(ctx, "fuzz.map", (const char *)data + 1, size - 1, type, &map) < 0)
		return 0;
	for (int i = 0; i < modalias_map_get_count(map) && i < 64; i++) {
		char **aliases = NULL;
		if (modalias_map_get_aliases(map, (unsigned int)i, 0, &aliases) >= 0 && aliases) {
			for (char **a = aliases; *a; a++)
				free(*a);
			free(aliases);
		}
	}
	{
		unsigned int index;
		for (unsigned int start = 0; modalias_map_match(map, usb, start, &index) > 0; start = index + 1)
			;
	}
	modalias_map_unref(map);
	return 0;
}
