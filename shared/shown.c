/*
 * shared/shown.c - strings shown to people, escaped one way (see shown.h).
 *
 * This file escapes; it may not allocate or know who shows the string.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdbool.h>
#include <stdio.h>

#include "shown.h"

/* Whether the character CP is not seen but changes what is: Unicode
 * 15.1's formats (Cf: bidirectional overrides and isolates reorder a line,
 * zero-width characters make two names look alike), the other default
 * ignorable code points (fillers shown blank: U+3164, U+115F, U+FFA0;
 * variation selectors; the combining grapheme joiner) and the separators
 * of lines and paragraphs (U+2028, U+2029: they end a line for some
 * readers).
 * A table, not the C library's or GLib's, so that the same bytes are shown
 * the same whatever they know. */
static bool unseen(unsigned long cp)
{
	static const struct {
		unsigned long lo, hi;
	} ranges[] = {
		{ 0xad, 0xad },         { 0x34f, 0x34f },       { 0x600, 0x605 },     { 0x61c, 0x61c },
		{ 0x6dd, 0x6dd },       { 0x70f, 0x70f },       { 0x890, 0x891 },     { 0x8e2, 0x8e2 },
		{ 0x115f, 0x1160 },     { 0x17b4, 0x17b5 },     { 0x180b, 0x180f },   { 0x200b, 0x200f },
		{ 0x2028, 0x202e },     { 0x2060, 0x206f },     { 0x3164, 0x3164 },   { 0xfe00, 0xfe0f },
		{ 0xfeff, 0xfeff },     { 0xffa0, 0xffa0 },     { 0xfff0, 0xfffb },   { 0x110bd, 0x110bd },
		{ 0x110cd, 0x110cd },   { 0x13430, 0x1343f },   { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a },
		{ 0xe0000, 0xe0fff },
	};

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]) && ranges[i].lo <= cp; i++)
		if (cp <= ranges[i].hi)
			return true;
	return false;
}

unsigned long shown_code_point(const char *s, size_t n, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t l = u[0] < 0x80 ? 1 : u[0] >= 0xc2 && u[0] <= 0xdf ? 2 : u[0] >= 0xe0 && u[0] <= 0xef ? 3 :
		   u[0] >= 0xf0 && u[0] <= 0xf4 ? 4 : 0;
	unsigned long cp;

	*len = 0;
	if (l == 0 || l > n)
		return 0;
	cp = l == 1 ? u[0] : u[0] & (0x7fu >> l);
	for (size_t i = 1; i < l; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if ((l == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (l == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	*len = l;
	return cp;
}

size_t terminal_control(const char *s, size_t n)
{
	size_t len;
	unsigned long cp = shown_code_point(s, n, &len);

	if (len == 0)
		return 1; /* no UTF-8 */
	if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || unseen(cp))
		return len;
	return 0;
}

size_t shown_plain(const char *s)
{
	size_t i = 0, len;

	/* a NUL ends the string: the 4 bytes asked for are never read past it */
	while (s[i] && s[i] != '\\' && !terminal_control(s + i, 4)) {
		shown_code_point(s + i, 4, &len);
		i += len;
	}
	return i;
}

/* The letter of C's escape in C (\n: 'n'), or 0 when it has none */
static char named_escape(unsigned char c)
{
	static const char from[] = "\a\b\t\n\v\f\r\\", to[] = "abtnvfr\\";

	for (size_t i = 0; i < sizeof(from) - 1; i++)
		if (c == (unsigned char)from[i])
			return to[i];
	return 0;
}

size_t shown_quote(char *out, const char *s)
{
	char *o = out;

	while (*s) {
		size_t k = shown_plain(s), len;
		unsigned long cp;

		for (size_t i = 0; i < k; i++)
			*o++ = *s++;
		if (!*s)
			break;
		k = *s == '\\' ? 1 : terminal_control(s, 4);
		cp = shown_code_point(s, 4, &len);
		if (len && cp > 0x9f && unseen(cp)) /* as C writes a universal character name */
			o += sprintf(o, cp > 0xffff ? "\\U%08lx" : "\\u%04lx", cp);
		else if (named_escape((unsigned char)*s))
			o += sprintf(o, "\\%c", named_escape((unsigned char)*s));
		else
			for (size_t i = 0; i < k; i++)
				o += sprintf(o, "\\x%02x", (unsigned char)s[i]);
		s += k;
	}
	*o = '\0';
	return (size_t)(o - out);
}
