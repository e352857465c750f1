/*
 * cli/cli-output.c - checked standard output and JSON strings, for both
 * front ends (cli-output.h).
 *
 * This file holds how output fails and how a string becomes JSON; it may
 * not decide what a command prints.
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
