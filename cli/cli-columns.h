/*
 * cli/cli-columns.h - the columns of a human output cut to a terminal's
 * width (modalias list, modalias diff): the width to fit, the columns a
 * string takes, a string cut with an ellipsis (cli_output_glyphs()'s), the
 * gap between two columns.  Strings are measured as they are printed:
 * escaped by cli_shown() first.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include <glib.h>

/* The width of the terminal on standard output (TIOCGWINSZ, else $COLUMNS,
 * else 80), or 0 when standard output is no terminal */
size_t cli_terminal_width(void);

/* The narrowest line --width may ask for: the columns of modalias list
 * (four, two spaces apart) and of modalias diff (its change word, " -> ")
 * each keep at least a character there, and every line fits (a tree's
 * branches are never cut: a deep one may still be wider) */
#define CLI_WIDTH_MIN 30
/* the same, written in a help string (a literal: cppcheck reads no G_STRINGIFY in an initializer) */
#define CLI_WIDTH_MIN_TEXT "30"

/* The columns S takes on a terminal (a wide character two, a zero-width
 * one none, a byte that starts no UTF-8 sequence one) */
size_t cli_text_cols(const char *s);

/* Appends S to OUT in at most W columns (at least 1): whole when it fits,
 * else cut with an ellipsis at its end (FRONT: at its start, keeping its
 * end, as a devpath's end names the device); returns the columns used */
size_t cli_append_cut(GString *out, const char *s, size_t w, bool front);

/* Spaces from column USED to column W, then the two between columns (a
 * cell wider than its column still gets those) */
void cli_column_gap(GString *out, size_t used, size_t w);
