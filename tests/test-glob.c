/*
 * The glob matcher against fnmatch(3): 10^6 random pattern/string pairs
 * drawn from the alphabet of real modules.alias patterns, plus the corner
 * cases glibc treats in its own way.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fnmatch.h>

#include "libmodalias-private.h"
#include "test-common.h"

/* Every character of the Debian 6.1 modules.alias patterns, and the glob
 * metacharacters given more weight. */
static const char pattern_chars[] =
	"*0*1*?[]-!^\\*:v0123456789ABCDEFabcdefpdsciNTCmnortuwxyzlghkjqGHIJKLMOPQRSUVWXYZ_,.+/ ";
static const char string_chars[] = "0123456789ABCDEFabcdef:vpdscinNTC_,.[]*?\\-!^";

static char *random_string(GRand *rng, const char *chars, int max)
{
	int n = g_rand_int_range(rng, 0, max + 1);
	char *s = g_malloc(n + 1);
	int nchars = (int)strlen(chars);

	for (int i = 0; i < n; i++)
		s[i] = chars[g_rand_int_range(rng, 0, nchars)];
	s[n] = '\0';
	return s;
}

/* Mostly strings that have a chance to match: a pattern with its
 * metacharacters filled in, then maybe mutated. */
static char *related_string(GRand *rng, const char *p)
{
	GString *s = g_string_new(NULL);

	for (; *p; p++) {
		if (*p == '*') {
			int n = g_rand_int_range(rng, 0, 3);
			while (n--)
				g_string_append_c(s, string_chars[g_rand_int_range(rng, 0, sizeof(string_chars) - 1)]);
		} else if (*p == '?' || *p == '[') {
			g_string_append_c(s, string_chars[g_rand_int_range(rng, 0, sizeof(string_chars) - 1)]);
		} else if (*p != '\\') {
			g_string_append_c(s, *p);
		}
	}
	if (s->len && g_rand_boolean(rng))
		s->str[g_rand_int_range(rng, 0, (gint32)s->len)] =
			string_chars[g_rand_int_range(rng, 0, sizeof(string_chars) - 1)];
	return g_string_free(s, FALSE);
}

static void test_differential(void)
{
	GRand *rng = g_rand_new_with_seed(1234567);
	unsigned long pairs = 0, matches = 0, bad = 0;

	for (int i = 0; i < 250000; i++) {
		g_autofree char *p = random_string(rng, pattern_chars, 14);

		for (int k = 0; k < 4; k++) {
			g_autofree char *s = k < 2 ? related_string(rng, p) : random_string(rng, string_chars, 10);
			bool want = fnmatch(p, s, 0) == 0;
			bool got = glob_needs_libc(p) ? glob_match_libc(p, s) : glob_match(p, s);

			pairs++;
			matches += want;
			if (want != got && bad++ < 20)
				g_test_message("DISAGREE: pattern '%s' string '%s': fnmatch %d, ours %d", p, s, want, got);
		}
	}
	g_test_message("%lu pairs, %lu matches, %lu disagreements", pairs, matches, bad);
	g_assert_cmpuint(pairs, >=, 1000000);
	g_assert_cmpuint(matches, >, pairs / 20);
	g_assert_cmpuint(bad, ==, 0);
	g_rand_free(rng);
}

struct corner {
	const char *pattern, *string;
};

static const struct corner corners[] = {
	{ "abc\\", "abc\\" },   { "abc\\", "abc" },     { "[", "[" },          { "[a", "[a" },
	{ "[a", "a" },          { "[[a", "[[a" },       { "[a-", "[a-" },      { "[]]", "]" },
	{ "[]a]", "a" },        { "[!]]", "a" },        { "[!]", "[!]" },      { "[^a]", "b" },
	{ "[z-a]", "m" },       { "[a-z]", "m" },       { "[a-]", "-" },       { "[-a]", "-" },
	{ "[\\]]", "]" },       { "[\\", "[\\" },       { "*[", "a[" },        { "a*", "a" },
	{ "*a*b", "xaxb" },     { "?*?", "ab" },        { "?*?", "a" },        { "\\*", "*" },
	{ "[[:digit:]]", "5" }, { "[[:alpha:]x", "[:alpha:]x" }, { "[[.a.]]", "a" }, { "[[=a=]]", "a" },
	{ "pci:v*d*sv*sd*bc0Csc03i30*", "pci:v00008086d00001E31sv000017AAsd000021FBbc0Csc03i30" },
	{ "usb:v046DpC52Bd[0-1]*dc*dsc*dp*ic*isc*ip*in*", "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00" },
};

static void test_corners(void)
{
	for (size_t i = 0; i < G_N_ELEMENTS(corners); i++) {
		const struct corner *c = &corners[i];
		bool want = fnmatch(c->pattern, c->string, 0) == 0;
		bool got = glob_needs_libc(c->pattern) ? glob_match_libc(c->pattern, c->string) :
							glob_match(c->pattern, c->string);
		if (want != got)
			g_error("pattern '%s' string '%s': fnmatch %d, ours %d", c->pattern, c->string, want, got);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/glob/corners", test_corners);
	g_test_add_func("/glob/differential", test_differential);
	return g_test_run();
}
