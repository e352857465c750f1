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
#include "shown.h" /* terminal_control(): the default log escapes, a copied modprobe.d refuses */

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
 * EV=/KEY=…) are read: modalias_ctx_set_word_bits()'s, else that of this
 * process's long (modalias_ctx_get_word_bits() says 0 then: assumed). */
unsigned int ctx_get_long_bits(const struct modalias_ctx *ctx);
