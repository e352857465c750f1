/*
 * libmodalias/ctx.h - the library context's internals that other sources
 * use: logging through the context's log function (err/info/dbg and the
 * echo bounds for quoting outside input) and the bitmap word size.
 * Defined in ctx.c; it may declare nothing ctx.c does not define.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdbool.h>
#include <string.h>
#include <syslog.h>

#include "libmodalias.h"
#include "macro.h"

void modalias_log(const struct modalias_ctx *ctx, int priority, const char *file,
		  int line, const char *fn, const char *format, ...) _printf_(6, 7);

static inline bool log_enabled(const struct modalias_ctx *ctx, int priority)
{
	return ctx && modalias_ctx_get_log_priority(ctx) >= priority;
}

#define modalias_log_cond(ctx, prio, ...)                                        \
	do {                                                                     \
		if (log_enabled(ctx, prio))                                      \
			modalias_log(ctx, prio, __FILE__, __LINE__, __func__,    \
				     __VA_ARGS__);                               \
	} while (0)

#ifdef ENABLE_DEBUG
#define dbg(ctx, ...) modalias_log_cond(ctx, LOG_DEBUG, __VA_ARGS__)
#else
#define dbg(ctx, ...)                                                            \
	do {                                                                     \
		if (0)                                                           \
			modalias_log(ctx, LOG_DEBUG, "", 0, "", __VA_ARGS__);    \
	} while (0)
#endif
#define info(ctx, ...) modalias_log_cond(ctx, LOG_INFO, __VA_ARGS__)
#define err(ctx, ...) modalias_log_cond(ctx, LOG_ERR, __VA_ARGS__)

/* A caller's or a file's string in a message, for "%.*s": the first
 * LOG_ECHO_MAX bytes of it will do (a value may be as long as the
 * environment, a map row as long as the file). */
#define LOG_ECHO_MAX 200
#define LOG_ECHO(s) (int)strnlen((s), LOG_ECHO_MAX), (s)
/* the same for a string of len bytes, not NUL-terminated */
#define LOG_ECHO_LEN(s, len) (int)((len) > LOG_ECHO_MAX ? LOG_ECHO_MAX : (len)), (s)

/* The word size of the kernel whose bitmaps (input capabilities, uevent
 * EV=/KEY=…) are read: that of this process's long unless a test says. */
unsigned int ctx_get_long_bits(const struct modalias_ctx *ctx);
void ctx_set_long_bits(struct modalias_ctx *ctx, unsigned int bits);

/* What a terminal takes as a control, or shows otherwise than it is, at
 * S (N bytes there, N > 0): its length (1: C0 or DEL, or a byte that is
 * no UTF-8; 2: a C1 as UTF-8 writes it; 3: a character that turns or hides
 * text, the bidirectional overrides and isolates, zero-width characters,
 * line and paragraph separators, U+FEFF), 0 for anything else.  The
 * default log shows them \xNN (ctx.c); a copied modprobe.d may not hold
 * them where libkmod prints (modprobe-d-copy.c). */
static inline size_t terminal_control(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = u[0] >= 0xc2 && u[0] <= 0xdf ? 2 : u[0] >= 0xe0 && u[0] <= 0xef ? 3 : u[0] >= 0xf0 && u[0] <= 0xf4 ? 4 : 0;
	unsigned long cp;

	if (u[0] < 0x20 || u[0] == 0x7f)
		return 1;
	if (u[0] < 0x80)
		return 0;
	if (len == 0 || len > n)
		return 1;
	cp = u[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 1;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 1; /* overlong, a surrogate, past U+10FFFF: no character */
	if (cp <= 0x9f || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff)
		return len;
	return 0;
}
