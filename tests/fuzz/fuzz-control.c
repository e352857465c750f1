/* Fuzz target: what an asker sends the daemon's control socket.  A request
 * is "settle " and a SEQNUM and nothing else; what parses must format back
 * to the same bytes (one spelling per request). */
#include <stdlib.h>
#include <string.h>

#include "control-socket.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* the daemon reads at most CONTROL_REQUEST_MAX bytes, not terminated */
	size_t n = size < CONTROL_REQUEST_MAX ? size : CONTROL_REQUEST_MAX;
	char *buf = malloc(n ? n : 1), again[CONTROL_REQUEST_MAX];
	unsigned long long seq;

	memcpy(buf, data, n);
	if (control_request_parse(buf, n, &seq)) {
		size_t len = control_request_format(again, seq);

		/* leading zeros are the one other spelling of a number */
		if (len > n || memcmp(again, buf, strlen(CONTROL_SETTLE_REQUEST)) != 0)
			abort();
		if (len == n && memcmp(again, buf, n) != 0)
			abort();
	}
	free(buf);
	return 0;
}
