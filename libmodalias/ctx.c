/*
 * libmodalias - the library context (reference count, log function and
 * priority, sysfs root) and the one place messages are formatted and
 * handed to the log function.  It may not print, nor depend on any other
 * library source.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ctx.h"
#include "macro.h"

struct modalias_ctx {
	int refcount;
	int log_priority;
	modalias_log_fn log_fn;
	void *log_data;
	char *sysfs_root;
	unsigned int word_bits; /* modalias_ctx_set_word_bits(); 0: not known */
};

/* The default log: the message on standard error, escaped as shown.h
 * says (one rule with the front ends' cli_shown()): it quotes
 * modules.alias, modprobe.d and sysfs, and no escape sequence of theirs
 * may reach a terminal, nor read as another string.  A backslash is shown
 * \\ too: a message may write none of its own. */
static void log_stderr(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
{
	char *msg = NULL, *shown;
	int n = vasprintf(&msg, format, args);
	bool newline = n > 0 && msg[n - 1] == '\n';

	if (n < 0)
		return;
	if (newline)
		msg[n - 1] = '\0';
	shown = malloc(SHOWN_MAX((size_t)n));
	if (shown) {
		shown_quote(shown, msg);
		fprintf(stderr, "libmodalias: %s%s", shown, newline ? "\n" : "");
	}
	free(shown);
	free(msg);
}

static int priority_from_string(const char *s)
{
	static const struct {
		const char *name;
		int prio;
	} names[] = {
		{ "err", LOG_ERR }, { "error", LOG_ERR }, { "warning", LOG_WARNING },
		{ "notice", LOG_NOTICE }, { "info", LOG_INFO }, { "debug", LOG_DEBUG },
	};
	char *end;
	long prio = strtol(s, &end, 10);

	if (end != s && *end == '\0' && prio >= 0 && prio <= LOG_DEBUG)
		return (int)prio;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcasecmp(s, names[i].name) == 0)
			return names[i].prio;
	return -EINVAL;
}

MODALIAS_EXPORT int modalias_ctx_new(struct modalias_ctx **ret)
{
	struct modalias_ctx *ctx;
	const char *env;

	if (!ret)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	ctx->log_fn = log_stderr;
	ctx->log_priority = LOG_ERR;
	ctx->sysfs_root = strdup("/sys");
	if (!ctx->sysfs_root) {
		free(ctx);
		return -ENOMEM;
	}
	env = secure_getenv("MODALIAS_LOG");
	if (env) {
		int prio = priority_from_string(env);
		if (prio >= 0)
			ctx->log_priority = prio;
		else
			err(ctx, "MODALIAS_LOG=%s is not a log priority, ignored\n", env);
	}
	*ret = ctx;
	return 0;
}

MODALIAS_EXPORT struct modalias_ctx *modalias_ctx_ref(struct modalias_ctx *ctx)
{
	if (ctx)
		REF_INC(ctx->refcount);
	return ctx;
}

MODALIAS_EXPORT struct modalias_ctx *modalias_ctx_unref(struct modalias_ctx *ctx)
{
	if (!ctx)
		return NULL;
	if (REF_DEC(ctx->refcount) > 0)
		return ctx;
	free(ctx->sysfs_root);
	free(ctx);
	return NULL;
}

MODALIAS_EXPORT void modalias_ctx_set_log_fn(struct modalias_ctx *ctx,
					     modalias_log_fn fn, void *data)
{
	if (!ctx)
		return;
	ctx->log_fn = fn;
	ctx->log_data = data;
}

MODALIAS_EXPORT int modalias_ctx_get_log_priority(const struct modalias_ctx *ctx)
{
	return ctx ? ctx->log_priority : -EINVAL;
}

MODALIAS_EXPORT void modalias_ctx_set_log_priority(struct modalias_ctx *ctx, int priority)
{
	if (ctx)
		ctx->log_priority = priority;
}

MODALIAS_EXPORT int modalias_ctx_set_sysfs_root(struct modalias_ctx *ctx, const char *path)
{
	char *copy;
	size_t len;

	if (!ctx || !path || !*path)
		return -EINVAL;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	/* "/tmp/sys/" and "/tmp/sys" are the same root */
	len = strlen(copy);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	free(ctx->sysfs_root);
	ctx->sysfs_root = copy;
	return 0;
}

MODALIAS_EXPORT const char *modalias_ctx_get_sysfs_root(const struct modalias_ctx *ctx)
{
	return ctx ? ctx->sysfs_root : NULL;
}

void modalias_log(const struct modalias_ctx *ctx, int priority, const char *file,
		  int line, const char *fn, const char *format, ...)
{
	va_list args;

	if (!ctx || !ctx->log_fn)
		return;
	va_start(args, format);
	ctx->log_fn(ctx->log_data, priority, file, line, fn, format, args);
	va_end(args);
}

unsigned int ctx_get_long_bits(const struct modalias_ctx *ctx)
{
	return ctx->word_bits ? ctx->word_bits : sizeof(long) * 8;
}

MODALIAS_EXPORT int modalias_ctx_set_word_bits(struct modalias_ctx *ctx, unsigned int bits)
{
	if (!ctx || (bits != 0 && bits != 32 && bits != 64))
		return -EINVAL;
	ctx->word_bits = bits;
	return 0;
}

MODALIAS_EXPORT int modalias_ctx_get_word_bits(const struct modalias_ctx *ctx)
{
	return ctx ? (int)ctx->word_bits : -EINVAL;
}
