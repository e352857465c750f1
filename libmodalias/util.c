/*
 * libmodalias - small helpers: growable strings, number parsing, files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libmodalias-private.h"
#include "read-file.h"

void strbuf_init(struct strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

bool strbuf_reserve(struct strbuf *sb, size_t extra)
{
	size_t want;
	char *n;

	if (sb->oom)
		return false;
	if (sb->len + extra + 1 <= sb->cap)
		return true;
	want = sb->cap ? sb->cap : 64;
	while (want < sb->len + extra + 1)
		want *= 2;
	n = realloc(sb->buf, want);
	if (!n) {
		sb->oom = true;
		return false;
	}
	sb->buf = n;
	sb->cap = want;
	return true;
}

void strbuf_putn(struct strbuf *sb, const char *s, size_t n)
{
	if (!strbuf_reserve(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_putn(sb, s, strlen(s));
}

void strbuf_putc(struct strbuf *sb, char c)
{
	strbuf_putn(sb, &c, 1);
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap, aq;
	int n;

	va_start(ap, fmt);
	va_copy(aq, ap);
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): aq is va_copy()'s, one line up */
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n >= 0 && strbuf_reserve(sb, (size_t)n)) {
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
		sb->len += (size_t)n;
	}
	va_end(ap);
}

int strbuf_steal(struct strbuf *sb, char **ret)
{
	if (sb->oom || !strbuf_reserve(sb, 0)) {
		strbuf_release(sb);
		return -ENOMEM;
	}
	*ret = sb->buf;
	strbuf_init(sb);
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int parse_hex(const char *s, size_t len, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;
	bool overflow = false;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		int d = hexval(s[i]);
		if (d < 0)
			return -EINVAL;
		if (v > (UINT64_MAX >> 4))
			overflow = true;
		v = (v << 4) | (uint64_t)d;
	}
	if (overflow || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_dec(const char *s, size_t len, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;
	bool overflow = false;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - 9) / 10)
			overflow = true;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (overflow || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

bool devpath_is_safe(const char *devpath)
{
	size_t len = devpath ? strlen(devpath) : 0;

	return len && devpath[0] == '/' && len < PATH_MAX && !strstr(devpath, "/../") &&
	       !(len >= 3 && strcmp(devpath + len - 3, "/..") == 0);
}

int read_text_file(const char *path, char **ret, size_t max)
{
	char *buf;
	size_t len;
	int r = read_file(path, max, 0, &buf, &len);

	if (r < 0)
		return r;
	if (memchr(buf, '\0', len)) {
		free(buf);
		return -EBADMSG;
	}
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	*ret = buf;
	return 0;
}

uint32_t pcmcia_crc32(const char *s, size_t len)
{
	/* reflected CRC-32 (polynomial 0xEDB88320), seed 0, no final xor:
	 * what the kernel's crc32(0, …) computes for PCMCIA product ids */
	uint32_t crc = 0;

	for (size_t i = 0; i < len; i++) {
		crc ^= (unsigned char)s[i];
		for (int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1u));
	}
	return crc;
}
