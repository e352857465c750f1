/* Fuzz target: kernel uevent messages as the agent receives them. */
#include <stdlib.h>
#include <string.h>

#include "uevent.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* the agent NUL-terminates what it receives */
	char *buf = malloc(size + 1);
	struct event *e;

	memcpy(buf, data, size);
	buf[size] = '\0';
	e = event_parse(buf, size);
	if (e) {
		if (!e->devpath || !e->subsystem || !e->envp)
			abort();
		event_free(e);
	}
	free(buf);
	return 0;
}
