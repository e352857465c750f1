/*
 * cli/cli-output.c - checked standard output, JSON strings and strings
 * shown to people, for both front ends (cli-output.h).
 *
 * This file holds how output fails and how a string becomes JSON or safe
 * for a terminal; it may not decide what a command prints.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli-output.h"
#include "json.h"
#include "shown.h"

static const char *prog_name = "modalias";

const struct cli_glyphs *cli_output_glyphs(void)
{
	static const struct cli_glyphs utf8 = { "├─", "└─", "│ ", "…", 1 };
	static const struct cli_glyphs ascii = { "|-", "`-", "| ", "...", 3 };

	return strcmp(nl_langinfo(CODESET), "UTF-8") == 0 ? &utf8 : &ascii;
}

/* Standard output cannot be written: errno E (0: not known). */
G_NORETURN static void write_failed(int e)
{
	if (e == EPIPE) {
		/* the reader went away: end as a program killed by SIGPIPE
		 * does, quietly (only reached when the signal did not kill the
		 * process at the write) */
		sigset_t pipe;

		sigemptyset(&pipe);
		sigaddset(&pipe, SIGPIPE);
		signal(SIGPIPE, SIG_DFL);
		pthread_sigmask(SIG_UNBLOCK, &pipe, NULL);
		raise(SIGPIPE);
	}
	if (e)
		fprintf(stderr, "%s: write error: %s\n", prog_name, strerror(e));
	else
		fprintf(stderr, "%s: write error\n", prog_name);
	/* _exit: from an atexit() handler or another thread, exit() is not
	 * to be called again */
	_exit(CLI_EXIT_WRITE);
}

void cli_output_flush(void)
{
	errno = 0;
	/* glibc keeps what it could not write: flushing again after an
	 * earlier failure fails again, with its errno */
	if (fflush(stdout) != 0 || ferror(stdout))
		write_failed(errno);
}

void cli_output_puts(const char *s)
{
	/* a large buffer is written through at once: its errno is the
	 * failure's, which a later flush would no longer know */
	errno = 0;
	if (fputs(s, stdout) == EOF)
		write_failed(errno);
}

void cli_output_check(void)
{
	if (ferror(stdout))
		cli_output_flush();
}

static void check_at_exit(void)
{
	cli_output_flush();
	/* closing reports what only close() finds (NFS); a standard output
	 * that was never open and never written to is no error */
	errno = 0;
	if (fclose(stdout) != 0 && errno != EBADF)
		write_failed(errno);
}

/* g_print() (GOption's --help): its own fflush() would lose the errno of a
 * failure (glibc then drops what it could not write), so it is checked here */
static void print_checked(const char *s)
{
	fputs(s, stdout);
	cli_output_flush();
}

void cli_output_init(const char *prog)
{
	sigset_t pipe;

	prog_name = prog;
	g_set_print_handler(print_checked);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_UNBLOCK, &pipe, NULL);
	atexit(check_at_exit);
}

void json_string(GString *out, const char *str)
{
	size_t len = strlen(str), old = out->len;

	g_string_set_size(out, old + JSON_QUOTED_MAX(len));
	g_string_truncate(out, old + json_quote(out->str + old, str));
}

void json_string_or_null(GString *out, const char *str)
{
	if (str)
		json_string(out, str);
	else
		g_string_append(out, "null");
}

void cli_shown_append(GString *out, const char *s)
{
	size_t old = out->len;

	g_string_set_size(out, old + SHOWN_MAX(strlen(s)));
	g_string_truncate(out, old + shown_quote(out->str + old, s));
}

void cli_shown_append_len(GString *out, const char *s, size_t len)
{
	const char *end = s + len;

	for (;;) {
		cli_shown_append(out, s); /* up to the next NUL */
		s += strlen(s);
		if (s >= end)
			break;
		g_string_append(out, "\\x00");
		s++;
	}
}

/* An escaped copy per call, CLI_SHOWN_KEPT of them per thread (freed when
 * the thread ends) */
struct shown_kept {
	GString *s[CLI_SHOWN_KEPT];
	unsigned int next;
};

static void shown_kept_free(gpointer p)
{
	struct shown_kept *k = p;

	for (unsigned int i = 0; i < CLI_SHOWN_KEPT; i++)
		if (k->s[i])
			g_string_free(k->s[i], TRUE);
	g_free(k);
}

static GPrivate shown_key = G_PRIVATE_INIT(shown_kept_free);

/* The calling thread's next kept copy, emptied */
static GString *shown_next(void)
{
	struct shown_kept *k = g_private_get(&shown_key);
	GString *out;

	if (!k) {
		k = g_new0(struct shown_kept, 1);
		g_private_set(&shown_key, k);
	}
	if (!k->s[k->next])
		k->s[k->next] = g_string_new(NULL);
	out = k->s[k->next];
	k->next = (k->next + 1) % CLI_SHOWN_KEPT;
	g_string_truncate(out, 0);
	return out;
}

const char *cli_shown(const char *s)
{
	GString *out;
	const char *p;

	p = s + shown_plain(s);
	if (!*p)
		return s;
	out = shown_next();
	g_string_append_len(out, s, p - s);
	cli_shown_append(out, p);
	return out->str;
}

const char *cli_echo(const char *s, size_t max)
{
	size_t cut = strnlen(s, max + 1);
	g_autofree char *head = NULL;
	GString *out;

	if (cut <= max)
		return cli_shown(s);
	/* not inside a UTF-8 character: back over its continuation bytes */
	cut = max;
	for (int i = 0; i < 3 && cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80; i++)
		cut--;
	head = g_strndup(s, cut);
	out = shown_next();
	cli_shown_append(out, head);
	g_string_append(out, "…");
	return out->str;
}
