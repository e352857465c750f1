/*
 * cli/cli-output.c: json_string(), the one JSON string writer of every
 * --json output.  Each row is a C string and its JSON text, exactly; every
 * text must also be valid UTF-8 without a raw control character, as a
 * strict JSON parser wants (test-cli.sh reads real outputs back with one).
 * And cli_shown(), the escaping of strings shown to people: each row a C
 * string and what is shown, exactly, valid UTF-8 without a control
 * character; the string itself when nothing is escaped; the copies of one
 * thread kept for CLI_SHOWN_KEPT calls (test-hostile-output.sh: the
 * commands that use it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cli-output.h"
#include "test-common.h"

struct json_row {
	const char *name;
	const char *in;
	const char *want;
};

static const struct json_row rows[] = {
	{ "plain", "pci:v00008086d*", "\"pci:v00008086d*\"" },
	{ "empty", "", "\"\"" },
	{ "quote-backslash", "dmi:bvn\"q\"\\b", "\"dmi:bvn\\\"q\\\"\\\\b\"" },
	{ "controls", "a\tb\nc\001d\037e\177f", "\"a\\u0009b\\u000ac\\u0001d\\u001fe\\u007ff\"" },
	{ "utf8-two", "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
	{ "utf8-three", "\xe2\x82\xac", "\"\xe2\x82\xac\"" },
	{ "utf8-four", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
	{ "utf8-lowest-three", "\xe0\xa0\x80", "\"\xe0\xa0\x80\"" },
	{ "utf8-last-before-surrogates", "\xed\x9f\xbf", "\"\xed\x9f\xbf\"" },
	{ "utf8-highest", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },
	{ "lone-byte", "a\xff" "b", "\"a\\u00ffb\"" },
	{ "lone-continuation", "\x80", "\"\\u0080\"" },
	{ "overlong-two", "\xc0\x80", "\"\\u00c0\\u0080\"" },
	{ "overlong-two-c1", "\xc1\xbf", "\"\\u00c1\\u00bf\"" },
	{ "overlong-three", "\xe0\x9f\xbf", "\"\\u00e0\\u009f\\u00bf\"" },
	{ "overlong-four", "\xf0\x8f\xbf\xbf", "\"\\u00f0\\u008f\\u00bf\\u00bf\"" },
	{ "surrogate", "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" },
	{ "past-10ffff", "\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"" },
	{ "f5-never", "\xf5\x80\x80\x80", "\"\\u00f5\\u0080\\u0080\\u0080\"" },
	{ "truncated-at-end", "\xe2\x82", "\"\\u00e2\\u0082\"" },
	{ "truncated-four-at-end", "x\xf0\x9f\x98", "\"x\\u00f0\\u009f\\u0098\"" },
	{ "truncated-then-ascii", "\xc3" "a", "\"\\u00c3a\"" },
	{ "invalid-then-valid", "\xfe\xc3\xa9", "\"\\u00fe\xc3\xa9\"" },
	{ "utf8-first-four", "\xf0\x90\x80\x80", "\"\xf0\x90\x80\x80\"" },
	{ "utf8-first-after-surrogates", "\xee\x80\x80", "\"\xee\x80\x80\"" },
	{ "overlong-three-lowest", "\xe0\x80\x80", "\"\\u00e0\\u0080\\u0080\"" },
	{ "surrogate-last", "\xed\xbf\xbf", "\"\\u00ed\\u00bf\\u00bf\"" },
	{ "surrogate-pair-as-utf8", "\xed\xa0\xbd\xed\xb8\x80",
	  "\"\\u00ed\\u00a0\\u00bd\\u00ed\\u00b8\\u0080\"" },
	{ "past-10ffff-f7", "\xf7\xbf\xbf\xbf", "\"\\u00f7\\u00bf\\u00bf\\u00bf\"" },
	{ "five-byte-form", "\xf8\x88\x80\x80\x80", "\"\\u00f8\\u0088\\u0080\\u0080\\u0080\"" },
	{ "truncated-three-then-ascii", "\xe2\x82" "a", "\"\\u00e2\\u0082a\"" },
	{ "truncated-four-then-ascii", "\xf0\x9f\x98" "(", "\"\\u00f0\\u009f\\u0098(\"" },
	{ "lead-then-lead", "\xc3\xc3\xa9", "\"\\u00c3\xc3\xa9\"" },
	/* C1 controls (U+0080 … U+009F; U+009B is CSI) as their bytes, not as
	 * UTF-8 a terminal obeys; U+00A0 is the first that is not one */
	{ "c1-csi", "\xc2\x9b" "2J", "\"\\u00c2\\u009b2J\"" },
	{ "c1-first-last", "\xc2\x80\xc2\x9f", "\"\\u00c2\\u0080\\u00c2\\u009f\"" },
	{ "after-c1", "\xc2\xa0", "\"\xc2\xa0\"" },
	/* not seen, but they change what is (a terminal reorders a line of
	 * JSON too): as the code point, the same string to a reader */
	{ "bidi-override", "a\xe2\x80\xae" "b", "\"a\\u202eb\"" },
	{ "line-separator", "\xe2\x80\xa8", "\"\\u2028\"" },
	{ "tag-beyond-bmp", "x\xf3\xa0\x80\x81", "\"x\\udb40\\udc01\"" },
	{ "hangul-filler", "e1000e\xe3\x85\xa4", "\"e1000e\\u3164\"" },
};

static void test_row(gconstpointer data)
{
	const struct json_row *row = data;
	g_autoptr(GString) out = g_string_new("[");

	json_string(out, row->in);
	g_assert_cmpstr(out->str + 1, ==, row->want);
	/* appended, not replaced */
	g_assert_cmpint(out->str[0], ==, '[');
	g_assert_true(g_utf8_validate(out->str, (gssize)out->len, NULL));
	for (gsize i = 0; i < out->len; i++)
		g_assert_cmpint((unsigned char)out->str[i], >=, 0x20);
}

static const struct json_row shown_rows[] = {
	{ "plain", "/devices/pci0000:00/0000:00:02.0", "/devices/pci0000:00/0000:00:02.0" },
	{ "empty", "", "" },
	{ "named", "a\ab\bc\td\ne\vf\fg\rh", "a\\ab\\bc\\td\\ne\\vf\\fg\\rh" },
	{ "escape-sequences", "\x1b]0;pwned\x07\x1b[2Jevil", "\\x1b]0;pwned\\a\\x1b[2Jevil" },
	{ "other-controls", "\001\037\177", "\\x01\\x1f\\x7f" },
	{ "backslash", "a\\nb", "a\\\\nb" },
	{ "quotes-kept", "\"'", "\"'" },
	{ "utf8-kept", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
	{ "c1-control", "a\xc2\x9b" "2J", "a\\xc2\\x9b" "2J" },
	{ "c1-last-kept-next", "\xc2\x9f\xc2\xa0", "\\xc2\\x9f\xc2\xa0" },
	{ "lone-byte", "bad\xff" "dev", "bad\\xff" "dev" },
	{ "lone-csi", "\x9b" "31m", "\\x9b" "31m" },
	{ "overlong", "\xc0\x8a", "\\xc0\\x8a" },
	{ "truncated-at-end", "x\xe2\x82", "x\\xe2\\x82" },
	/* not seen, but they change what is: reordered, split, alike */
	{ "bidi-override", "evil\xe2\x80\xae" "gpj.exe", "evil\\u202egpj.exe" },
	{ "bidi-isolate", "\xe2\x81\xa6" "e1000e\xe2\x81\xa9", "\\u2066e1000e\\u2069" },
	{ "line-separator", "a\xe2\x80\xa8" "b\xe2\x80\xa9", "a\\u2028b\\u2029" },
	{ "zero-width", "e1\xe2\x80\x8b" "000e", "e1\\u200b000e" },
	{ "tag-beyond-bmp", "x\xf3\xa0\x80\x81", "x\\U000e0001" },
	{ "soft-hyphen", "e1000\xc2\xad" "e", "e1000\\u00ad" "e" },
	/* default ignorable, shown blank or not at all: two names alike */
	{ "hangul-filler", "W\xe3\x85\xa4X", "W\\u3164X" },
	{ "variation-selector", "Y\xef\xb8\x8fZ", "Y\\ufe0fZ" },
	{ "variation-selector-supplement", "Y\xf3\xa0\x84\x80Z", "Y\\U000e0100Z" },
	{ "grapheme-joiner", "a\xcd\x8f" "b", "a\\u034f" "b" },
	{ "backslash-escape-or-esc", "\\x1b\x1b", "\\\\x1b\\x1b" },
};

static void test_shown(gconstpointer data)
{
	const struct json_row *row = data;
	const char *shown = cli_shown(row->in);
	g_autoptr(GString) out = g_string_new("[");

	g_assert_cmpstr(shown, ==, row->want);
	g_assert_true(strcmp(row->in, row->want) != 0 || shown == row->in);
	g_assert_true(g_utf8_validate(shown, -1, NULL));
	for (const char *p = shown; *p; p++)
		g_assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
	cli_shown_append(out, row->in);
	g_assert_cmpstr(out->str + 1, ==, row->want);
}

/* bytes with NULs (a line read whole): each NUL shown \x00, a NUL at the
 * end too; a message escaped as any string, its backslashes too, so that
 * the four characters "\x1b" a file wrote read otherwise than an ESC */
static void test_shown_len_message(void)
{
	static const char line[] = "pci:v0000\0" "8086\x1b\0";
	g_autoptr(GString) out = g_string_new(NULL);

	cli_shown_append_len(out, line, sizeof(line) - 1);
	g_assert_cmpstr(out->str, ==, "pci:v0000\\x008086\\x1b\\x00");
	g_string_truncate(out, 0);
	cli_shown_append_len(out, "abc", 3);
	g_assert_cmpstr(out->str, ==, "abc");
	g_string_truncate(out, 0);
	cli_shown_append(out, "m.conf:1: no module '\\x1b[2J', '\x1b[2J\xe2\x80\xae'");
	g_assert_cmpstr(out->str, ==, "m.conf:1: no module '\\\\x1b[2J', '\\x1b[2J\\u202e'");
}

/* an argument echoed: escaped, its first MAX bytes, never half a UTF-8
 * character, "…" when cut */
static void test_echo(void)
{
	static const struct {
		const char *in;
		size_t max;
		const char *want;
	} echo_rows[] = {
		{ "abc", 3, "abc" },
		{ "abcd", 3, "abc…" },
		{ "a\x1b[2J", 3, "a\\x1b[…" },
		{ "ab\xc3\xa9", 3, "ab…" },             /* é cut: dropped whole */
		{ "ab\xc3\xa9", 4, "ab\xc3\xa9" },
		{ "a\xe2\x80\xaez", 3, "a…" },         /* U+202E cut: dropped */
		{ "a\xe2\x80\xaez", 4, "a\\u202e…" }, /* kept: escaped */
		{ "\xff\xfe", 1, "\\xff…" },          /* not UTF-8: a byte a byte */
		{ "", 0, "" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(echo_rows); i++)
		g_assert_cmpstr(cli_echo(echo_rows[i].in, echo_rows[i].max), ==, echo_rows[i].want);
}

/* one printf()'s arguments: CLI_SHOWN_KEPT escaped copies at once */
static void test_shown_kept(void)
{
	const char *kept[CLI_SHOWN_KEPT];

	for (unsigned int i = 0; i < CLI_SHOWN_KEPT; i++) {
		g_autofree char *in = g_strdup_printf("%u\n", i);

		kept[i] = cli_shown(in);
	}
	for (unsigned int i = 0; i < CLI_SHOWN_KEPT; i++) {
		g_autofree char *want = g_strdup_printf("%u\\n", i);

		g_assert_cmpstr(kept[i], ==, want);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *name = g_strdup_printf("/json-string/%s", rows[i].name);
		g_test_add_data_func(name, &rows[i], test_row);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(shown_rows); i++) {
		g_autofree char *name = g_strdup_printf("/shown/%s", shown_rows[i].name);
		g_test_add_data_func(name, &shown_rows[i], test_shown);
	}
	g_test_add_func("/shown/kept", test_shown_kept);
	g_test_add_func("/shown/len-and-message", test_shown_len_message);
	g_test_add_func("/shown/echo", test_echo);
	return g_test_run();
}
