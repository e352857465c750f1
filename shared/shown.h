/*
 * shared/shown.h - strings shown to people, escaped one way: the rule
 * behind the front ends' cli_shown() and behind every log line (the
 * library's default log, modalias's and hotplug's, the Python bindings'),
 * compiled into the library, both front ends and the bindings.
 *
 * What a terminal takes as a control, or shows otherwise than it is
 * (terminal_control()), is escaped as C writes it: \a \b \t \n \v \f \r,
 * a character not seen that changes what is as \u202e (\U000e0001 past
 * U+FFFF), any other byte as \xNN, each byte of a C1 control and each
 * byte that is no UTF-8 too; and a backslash is shown \\, so that what is
 * shown reads back one way only: a name holding the four characters
 * "\x1b" is shown "\\x1b", an ESC "\x1b".  Valid UTF-8 text is kept as it
 * is; a Latin-1 byte, which is no UTF-8, is shown \xNN.
 *
 * These functions never print, allocate or exit.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stddef.h>

/* What a terminal takes as a control, or shows otherwise than it is, at
 * S (N bytes there, N > 0): its length (1: C0 or DEL, or a byte that is
 * no UTF-8; 2: a C1 as UTF-8 writes it; 3 or 4: a character not seen that
 * changes what is, the formats (Unicode's Cf: bidirectional overrides and
 * isolates, zero-width characters, U+FEFF, tags) and the separators of
 * lines and paragraphs), 0 for anything else.  A backslash is no control:
 * only the escaping below shows it otherwise. */
size_t terminal_control(const char *s, size_t n);

/* The code point of the valid UTF-8 character at S (N bytes there, N > 0)
 * and its length in *LEN; *LEN is 0 when the bytes there start none
 * (overlong forms, surrogates and code points past U+10FFFF are none) */
unsigned long shown_code_point(const char *s, size_t n, size_t *len);

/* The length of the start of S that is shown as it is (strlen(S) when all
 * of it is) */
size_t shown_plain(const char *s);

/* The longest escaped form of a LEN-byte string, its NUL included */
#define SHOWN_MAX(len) ((len) * 4 + 1)

/* Writes S escaped into OUT, which holds SHOWN_MAX(strlen(S)) bytes at
 * least; returns the length written (without the NUL that ends it). */
size_t shown_quote(char *out, const char *s);
