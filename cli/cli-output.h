/*
 * cli/cli-output.h - what the front ends (modalias, hotplug) write on
 * standard output: every write checked, the one JSON string writer, and
 * the one escaping of strings shown to people.
 * Front-end code (in libcli): the library knows nothing of it.
 *
 * This code checks writes and escapes strings; it may not decide what a
 * command prints.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

#include "cli-exit.h" /* CLI_EXIT_WRITE: standard output cannot be written */

/*
 * First thing in main(): SIGPIPE is set to its default action and unblocked
 * (even when the caller left it ignored), so that writing to a closed pipe
 * ends the program quietly, killed by SIGPIPE (status 141 in the shell), as
 * coreutils do; and standard output is checked when the program exits, by
 * exit() or a return from main() alike (GLib's --help too): when it could
 * not be written, "PROG: write error: REASON" goes to standard error and
 * the exit status becomes CLI_EXIT_WRITE.
 */
void cli_output_init(const char *prog);

/* The glyphs a human output draws with: UTF-8 ones when the charset of the
 * locale's LC_CTYPE (the program's setlocale(LC_CTYPE, "")) is UTF-8, else
 * ASCII, as lsblk falls back: a tree's branches "|-", "`-" and "| " for
 * "├─", "└─" and "│ ", and "..." for "…" (ELLIPSIS_COLS columns). */
struct cli_glyphs {
	const char *branch, *last, *pipe, *ellipsis;
	size_t ellipsis_cols;
};
const struct cli_glyphs *cli_output_glyphs(void);

/* Flushes standard output now; when it cannot be written, ends the program
 * as above at once (output written line by line: the agent's dry run). */
void cli_output_flush(void);

/* Writes S, a whole output built in memory (JSON), to standard output;
 * when that fails, ends the program as above at once, with the reason. */
void cli_output_puts(const char *s);

/* The same as cli_output_flush(), but only when a write has already failed: cheap enough for
 * every line of a long output (no flush when all is well). */
void cli_output_check(void);

/*
 * Appends S to OUT as a JSON string (RFC 8259), quotes included: '"' and
 * '\' escaped, control characters (and DEL) as \u00XX; valid UTF-8 is
 * copied as it is, and each byte that is not part of a valid UTF-8
 * sequence (overlong forms, surrogates and code points past U+10FFFF are
 * not) is written \u00XX with its value, so the output is always valid
 * JSON whatever sysfs, a table or the command line held.  modalias(1)
 * documents it.
 */
void json_string(GString *out, const char *s);
/* json_string(), or null for a NULL S */
void json_string_or_null(GString *out, const char *s);

/*
 * S as it may be shown to people, on one line, escaped as shared/shown.h
 * says (the one rule, the library's default log's too): each control
 * character and DEL (C1 controls too) as C writes it (\n, \t, \r, \a, \b,
 * \f, \v, else \xNN), a backslash as \\, each byte that is not part of a
 * valid UTF-8 sequence as \xNN, as systemctl shows names, and (unlike
 * systemctl) the characters not seen that change what is, bidirectional
 * overrides, line separators, zero-width and other format characters (Cf,
 * Zl, Zp), as \u202e; S itself when none of them is in it.  Every string
 * that came from a file or the kernel (devpath, modalias, driver, module,
 * subsystem, file names) passes through it before it is printed for people
 * or in the agent's dry-run lines, and so does every message that quotes
 * one (the library's, GLib's, the agent's log), its own text included, so
 * that one device is always one line, no escape sequence reaches a
 * terminal and what is shown reads back one way; JSON keeps the exact
 * bytes (json_string()).  An escaped copy belongs to the calling thread
 * and lives until its CLI_SHOWN_KEPT-th next call: long enough for the
 * arguments of one printf().
 */
#define CLI_SHOWN_KEPT 8
const char *cli_shown(const char *s);
/* S as cli_shown() shows it, of its first MAX bytes only (a whole UTF-8
 * character kept or dropped), "…" after it when cut: an argument or a
 * line echoed in a message, which may be a 1 MiB line.  Kept as
 * cli_shown()'s copies are. */
const char *cli_echo(const char *s, size_t max);
/* The same, appended to OUT */
void cli_shown_append(GString *out, const char *s);
/* The same for LEN bytes at S that may hold NUL bytes (each shown \x00;
 * S[LEN] is a NUL) */
void cli_shown_append_len(GString *out, const char *s, size_t len);
/* "s" after a count other than one: "%u device%s", n, cli_plural(n) */
static inline const char *cli_plural(unsigned int n)
{
	return n == 1 ? "" : "s";
}
