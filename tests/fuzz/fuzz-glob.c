/* Fuzz target: the glob matcher against fnmatch(3).  PATTERN\0STRING. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "libmodalias-private.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *buf = malloc(size + 2), *pattern, *string;

	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = '\0';
	pattern = buf;
	string = buf + strlen(buf) + 1;
	if (string > buf + size)
		string = buf + size;
	if (!glob_needs_libc(pattern) && glob_match(pattern, string) != (fnmatch(pattern, string, 0) == 0))
		abort();
	free(buf);
	return 0;
}
