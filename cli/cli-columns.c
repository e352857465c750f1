/*
 * cli/cli-columns.c - the columns of a human output cut to a terminal's
 * width (cli-columns.h).
 *
 * This code measures and cuts strings; it may not decide what a command
 * prints nor how wide its columns are.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli-columns.h"
#include "cli-output.h"

size_t cli_terminal_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (env && *env >= '1' && *env <= '9') {
		unsigned long n;

		errno = 0;
		n = strtoul(env, &end, 10);
		if (!*end && !errno && n <= INT_MAX)
			return n;
	}
	return 80;
}

/* The columns the character at S takes (a byte that starts no UTF-8
 * sequence: one), its length in *LEN */
static size_t char_cols(const char *s, size_t *len)
{
	gunichar c = g_utf8_get_char_validated(s, -1);

	if (c == (gunichar)-1 || c == (gunichar)-2) {
		*len = 1;
		return 1;
	}
	*len = (size_t)(g_utf8_next_char(s) - s);
	return g_unichar_iszerowidth(c) ? 0 : g_unichar_iswide(c) ? 2 : 1;
}

size_t cli_text_cols(const char *s)
{
	size_t n = 0, len;

	for (; *s; s += len)
		n += char_cols(s, &len);
	return n;
}

/* The ellipsis in at most W columns (ASCII's "..." may be cut to "." or
 * ".."); returns the columns used */
static size_t put_ellipsis(GString *out, size_t w)
{
	const struct cli_glyphs *g = cli_output_glyphs();

	if (g->ellipsis_cols <= w) {
		g_string_append(out, g->ellipsis);
		return g->ellipsis_cols;
	}
	g_string_append_len(out, "...", (gssize)w); /* ASCII's, narrower than 3 */
	return w;
}

size_t cli_append_cut(GString *out, const char *s, size_t w, bool front)
{
	size_t n = cli_text_cols(s), len, c, e = MIN(cli_output_glyphs()->ellipsis_cols, w);

	if (n <= w) {
		g_string_append(out, s);
		return n;
	}
	if (front) {
		put_ellipsis(out, w);
		for (; n > w - e; s += len)
			n -= char_cols(s, &len);
		g_string_append(out, s);
		return n + e;
	}
	for (n = 0; *s; s += len, n += c) {
		c = char_cols(s, &len);
		if (n + c > w - e)
			break;
		g_string_append_len(out, s, (gssize)len);
	}
	return n + put_ellipsis(out, w);
}

void cli_column_gap(GString *out, size_t used, size_t w)
{
	for (size_t i = used; i < w; i++)
		g_string_append_c(out, ' ');
	g_string_append(out, "  ");
}
