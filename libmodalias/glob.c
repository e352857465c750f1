/*
 * libmodalias - the glob matcher: fnmatch(pattern, string, 0) in the C
 * locale, byte by byte, with glibc's treatment of the odd corners
 * (unterminated brackets, trailing backslashes, ']' first in a bracket,
 * reversed ranges).  Brackets holding POSIX classes, equivalence classes
 * or collating symbols ("[[:", "[[=", "[[.") are left to fnmatch(3).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fnmatch.h>
#include <string.h>

#include "libmodalias-private.h"

enum bracket { B_NOMATCH, B_MATCH, B_LITERAL };

/* Matches the byte c against the bracket expression at p (just after '[').
 * On B_MATCH/B_NOMATCH *next is past the closing ']'. */
static enum bracket bracket(const char *p, unsigned char c, const char **next)
{
	bool negate = false, matched = false;
	unsigned char m;

	if (*p == '!' || *p == '^') {
		negate = true;
		p++;
	}
	m = (unsigned char)*p++;
	for (;;) {
		unsigned char lo;

		if (m == '\\') {
			if (*p == '\0')
				return B_NOMATCH;
			m = (unsigned char)*p++;
		} else if (m == '\0') {
			/* unterminated: the '[' is an ordinary character */
			return B_LITERAL;
		}
		/* m is a member, maybe the start of a range */
		if (!(*p == '-' && p[1] != '\0' && p[1] != ']') && m == c) {
			matched = true;
			break;
		}
		lo = m;
		m = (unsigned char)*p++;
		if (m == '-' && *p != ']') {
			unsigned char hi = (unsigned char)*p++;

			if (hi == '\\')
				hi = (unsigned char)*p++;
			if (hi == '\0')
				return B_NOMATCH;
			if (lo <= c && c <= hi) {
				matched = true;
				break;
			}
			m = (unsigned char)*p++;
		}
		if (m == ']')
			break;
	}
	if (matched) {
		/* skip what is left of the bracket */
		unsigned char k;
		do {
			k = (unsigned char)*p++;
			if (k == '\0')
				return B_LITERAL; /* glibc 2.36: unterminated after all */
			if (k == '\\') {
				if (*p == '\0')
					return B_NOMATCH;
				p++;
			}
		} while (k != ']');
	}
	*next = p;
	return matched != negate ? B_MATCH : B_NOMATCH;
}

bool glob_needs_libc(const char *pattern)
{
	/* conservative: such a sequence anywhere sends the pattern to libc */
	return strstr(pattern, "[:") || strstr(pattern, "[=") || strstr(pattern, "[.");
}

bool glob_match(const char *p, const char *s)
{
	const char *star_p = NULL, *star_s = NULL;

	for (;;) {
		const char *next;
		bool ok;

		if (*p == '*') {
			while (*p == '*' || *p == '?') {
				if (*p == '?') {
					if (*s == '\0')
						return false;
					s++;
				}
				p++;
			}
			if (*p == '\0')
				return true;
			star_p = p;
			star_s = s;
			continue;
		}
		if (*p == '\0') {
			if (*s == '\0')
				return true;
			ok = false;
		} else if (*s == '\0') {
			return false;
		} else {
			switch (*p) {
			case '?':
				ok = true;
				next = p + 1;
				break;
			case '\\':
				if (p[1] == '\0')
					return false; /* a trailing backslash never matches */
				ok = p[1] == *s;
				next = p + 2;
				break;
			case '[':
				switch (bracket(p + 1, (unsigned char)*s, &next)) {
				case B_MATCH:
					ok = true;
					break;
				case B_NOMATCH:
					ok = false;
					break;
				default:
					ok = *s == '[';
					next = p + 1;
				}
				break;
			default:
				ok = *p == *s;
				next = p + 1;
			}
		}
		if (ok) {
			p = next;
			s++;
			continue;
		}
		/* backtrack: the last '*' takes one more character */
		if (!star_p || *star_s == '\0')
			return false;
		star_s++;
		if (*star_s == '\0')
			return false;
		p = star_p;
		s = star_s;
	}
}

bool glob_match_libc(const char *pattern, const char *s)
{
	return fnmatch(pattern, s, 0) == 0;
}
