/* Fuzz target: modalias.conf through GKeyFile. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli-config.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	int fd = memfd_create("modalias.conf", MFD_CLOEXEC);
	char path[64];
	struct cli_config cfg;
	GString *warn = g_string_new(NULL);
	GError *error = NULL;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	cli_config_load(path, &cfg, warn, &error);
	cli_config_clear(&cfg);
	g_clear_error(&error);
	g_string_free(warn, TRUE);
	close(fd);
	return 0;
}
