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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli-output.h"

static const char *prog_name = "modalias";

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

/* The length of the valid UTF-8 sequence at S (1 to 4), or 0 when the byte
 * there starts none: RFC 3629's table, so no overlong form, no surrogate,
 * nothing past U+10FFFF.  A NUL byte ends every test early. */
static size_t utf8_sequence(const unsigned char *s)
{
	unsigned char c = s[0], lo, hi;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		lo = c == 0xe0 ? 0xa0 : 0x80;
		hi = c == 0xed ? 0x9f : 0xbf;
		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf;
		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80 ? 4 : 0;
	}
	return 0;
}

void json_string(GString *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	g_string_append_c(out, '"');
	while (*s) {
		size_t n = utf8_sequence(s);

		if (n > 1) {
			g_string_append_len(out, (const char *)s, (gssize)n);
		} else if (n == 0 || *s < 0x20 || *s == 0x7f) {
			/* not UTF-8, or a control character: its byte value */
			g_string_append_printf(out, "\\u%04x", *s);
			n = 1;
		} else if (*s == '"' || *s == '\\') {
			g_string_append_c(out, '\\');
			g_string_append_c(out, (char)*s);
		} else {
			g_string_append_c(out, (char)*s);
		}
		s += n;
	}
	g_string_append_c(out, '"');
}
