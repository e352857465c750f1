/*
 * shared/json.c - JSON strings, escaped one way (see json.h).
 *
 * This file escapes; it may not allocate or know any document's shape.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include "json.h"
#include "shown.h"

/* "\uXXXX" of the UTF-16 unit U into O */
static char *put_u(char *o, unsigned long u)
{
	static const char hex[] = "0123456789abcdef";

	*o++ = '\\';
	*o++ = 'u';
	for (int shift = 12; shift >= 0; shift -= 4)
		*o++ = hex[(u >> shift) & 15];
	return o;
}

size_t json_quote(char *out, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	char *o = out;

	*o++ = '"';
	while (*s) {
		/* the length of the valid UTF-8 character here, 0 when none
		 * starts here (shown.h's decoder: a NUL ends its test early) */
		size_t n;
		unsigned long cp = shown_code_point((const char *)s, 4, &n);

		/* a C1 control (U+0080 … U+009F: CSI is U+009B), which a
		 * terminal may obey, as its two bytes */
		if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
			n = 0;
		if (n > 2 && terminal_control((const char *)s, n) == n) {
			/* not seen but changes what is (a bidirectional override,
			 * a zero-width character: shown.h): as its code point, the
			 * same string to any reader */
			if (cp >= 0x10000) {
				o = put_u(o, 0xd800 + ((cp - 0x10000) >> 10));
				o = put_u(o, 0xdc00 + ((cp - 0x10000) & 0x3ff));
			} else {
				o = put_u(o, cp);
			}
		} else if (n > 1) {
			for (size_t i = 0; i < n; i++)
				*o++ = (char)s[i];
		} else if (n == 0 || *s < 0x20 || *s == 0x7f) {
			/* not UTF-8, or a control character: its byte value */
			*o++ = '\\';
			*o++ = 'u';
			*o++ = '0';
			*o++ = '0';
			*o++ = hex[*s >> 4];
			*o++ = hex[*s & 15];
			n = 1;
		} else {
			if (*s == '"' || *s == '\\')
				*o++ = '\\';
			*o++ = (char)*s;
		}
		s += n;
	}
	*o++ = '"';
	*o = '\0';
	return (size_t)(o - out);
}
