/*
 * shared/json.h - JSON strings, written one way: the escaping behind every
 * --json output of the front ends and behind the snapshot files the library
 * writes, compiled into the library and into both front ends.
 *
 * A string is written as UTF-8; each byte that does not start a valid UTF-8
 * sequence (as shown.h's shown_code_point() decodes it, RFC 3629: no
 * overlong form, no surrogate, nothing past U+10FFFF), each control character and DEL, and each byte of a C1 control
 * (U+0080 … U+009F, which a terminal may obey), is written as "\u00XX", XX
 * its byte value; a character not seen that changes what is (shown.h's
 * terminal_control(): a bidirectional override, a zero-width character,
 * a line separator) as "\uXXXX", its code point (a surrogate pair past
 * U+FFFF), the same string to any JSON reader; '"' and '\' get a
 * backslash.  A reader that knows this
 * convention (the snapshot reader does) turns "\u0080" … "\u00ff" back into
 * those bytes, so that any byte string survives a round trip.
 *
 * These functions never print or exit.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stddef.h>

/* The longest escaped form of a LEN-byte string, quotes and NUL included */
#define JSON_QUOTED_MAX(len) ((len) * 6 + 3)

/* Writes S quoted and escaped into OUT, which holds
 * JSON_QUOTED_MAX(strlen(S)) bytes at least; returns the length written
 * (without the NUL that ends it). */
size_t json_quote(char *out, const char *s);
