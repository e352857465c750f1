/*
 * cache-forge FILE FROM TO: what a hostile user does to an index cache he
 * may write — every string FROM of its pool becomes TO (as long), and the
 * checksum is made good again, so that only the trust check stands
 * between the forged file and root (tests/bad-input rows cache-*-forged).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache-private.h"

int main(int argc, char **argv)
{
	struct cache_header h;
	struct stat st;
	unsigned char *b;
	size_t from_len, n = 0;
	int fd;

	if (argc != 4 || (from_len = strlen(argv[2])) != strlen(argv[3]) || !from_len) {
		fprintf(stderr, "usage: cache-forge FILE FROM TO (as long as FROM)\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || fstat(fd, &st) < 0 || (size_t)st.st_size < sizeof(h)) {
		perror(argv[1]);
		return 1;
	}
	b = malloc((size_t)st.st_size);
	if (!b || pread(fd, b, (size_t)st.st_size, 0) != st.st_size)
		return 1;
	memcpy(&h, b, sizeof(h));
	for (size_t i = h.off[TABLE_ARRAY_POOL] + 1; i + from_len < h.off[TABLE_ARRAY_POOL] + h.pool_len; i++)
		if (b[i - 1] == '\0' && memcmp(b + i, argv[2], from_len + 1) == 0) {
			memcpy(b + i, argv[3], from_len);
			n++;
		}
	cache_checksum(b + CACHE_CHECKED_FROM, (size_t)st.st_size - CACHE_CHECKED_FROM, h.crc);
	memcpy(b, &h, sizeof(h));
	if (pwrite(fd, b, (size_t)st.st_size, 0) != st.st_size || close(fd) < 0)
		return 1;
	printf("%zu strings changed\n", n);
	free(b);
	return n ? 0 : 1;
}
