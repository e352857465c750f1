/*
 * The legacy map files read: parsing (module-init-tools' golden lines,
 * every trap, bad rows), the object's API, and the column kinds the
 * parser reads by and front ends ask for (modalias_map_type_field_kind).
 * Matching, file2alias patterns and tables are in test-maps-alias.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "test-maps.h"

/* ---- module-init-tools' golden lines (tests/test-depmod/04maps.sh) ---- */

static void test_golden(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_map *m;
	const char *s;

	m = load(ctx, "maps", "modules.pcimap", 0);
	g_assert_cmpint(modalias_map_get_type(m), ==, MODALIAS_MAP_PCI);
	g_assert_cmpstr(modalias_map_get_module(m, 0), ==, "pci_map-32");
	g_assert_cmpuint(modalias_map_get_line(m, 0), ==, 2);
	for (unsigned int c = 0; c < 6; c++)
		g_assert_cmpuint(field(m, 0, modalias_map_type_field_name(MODALIAS_MAP_PCI, c), 0), ==, c + 1);
	g_assert_cmpuint(field(m, 0, "driver_data", 0), ==, 0);
	modalias_map_unref(m);

	m = load(ctx, "maps", "modules.usbmap", 0);
	g_assert_cmpint(modalias_map_get_type(m), ==, MODALIAS_MAP_USB);
	for (unsigned int c = 0; c < 11; c++)
		g_assert_cmpuint(field(m, 0, modalias_map_type_field_name(MODALIAS_MAP_USB, c), 0), ==, c + 1);
	modalias_map_unref(m);

	m = load(ctx, "maps", "modules.ccwmap", 0);
	g_assert_cmpuint(field(m, 0, "match_flags", 0), ==, 0xf);
	g_assert_cmpuint(field(m, 0, "cu_type", 0), ==, 1);
	g_assert_cmpuint(field(m, 0, "cu_model", 0), ==, 3);
	g_assert_cmpuint(field(m, 0, "dev_type", 0), ==, 2);
	g_assert_cmpuint(field(m, 0, "dev_model", 0), ==, 4);
	modalias_map_unref(m);

	m = load(ctx, "maps", "modules.ieee1394map", 0);
	g_assert_cmpuint(field(m, 0, "match_flags", 0), ==, 0xc);
	g_assert_cmpuint(field(m, 0, "specifier_id", 0), ==, 0xa02d);
	g_assert_cmpuint(field(m, 0, "version", 0), ==, 0x010001);
	modalias_map_unref(m);

	m = load(ctx, "maps", "modules.isapnpmap", 0);
	g_assert_cmpint(modalias_map_get_count(m), ==, 2);
	g_assert_cmpuint(field(m, 0, "cardvendor", 0), ==, 0xffff);
	g_assert_cmpint(modalias_map_get_field_count(m, 0, "vendor"), ==, 1);
	g_assert_cmpuint(field(m, 0, "vendor", 0), ==, 0x630e);
	g_assert_cmpuint(field(m, 0, "function", 0), ==, 0x0001);
	g_assert_cmpuint(field(m, 1, "cardvendor", 0), ==, 0x9304);
	g_assert_cmpuint(field(m, 1, "carddevice", 0), ==, 0x5071);
	g_assert_cmpint(modalias_map_get_field_count(m, 1, "function"), ==, 2);
	g_assert_cmpuint(field(m, 1, "function", 1), ==, 0x5171);
	modalias_map_unref(m);

	m = load(ctx, "maps", "modules.inputmap", 0);
	g_assert_cmpstr(modalias_map_get_module(m, 0), ==, "input_map-32");
	g_assert_cmpuint(field(m, 0, "matchBits", 0), ==, 0x10);
	g_assert_cmpuint(field(m, 0, "evBits", 0), ==, 2);
	g_assert_cmpuint(field(m, 0, "swBits", 0), ==, 0); /* 14 numbers: no swBits */
	g_assert_cmpstr(modalias_map_get_module(m, 1), ==, "input_map_new-32");
	g_assert_cmpuint(field(m, 1, "matchBits", 0), ==, 0x1010);
	g_assert_cmpuint(field(m, 1, "swBits", 0), ==, 1);
	g_assert_cmpuint(field(m, 1, "driver_info", 0), ==, 0);
	modalias_map_unref(m);

	m = load(ctx, "maps", "modules.ofmap", 0);
	g_assert_cmpint(modalias_map_get_string(m, 0, "name", &s), ==, 0);
	g_assert_cmpstr(s, ==, "test_name_1");
	g_assert_cmpint(modalias_map_get_string(m, 0, "type", &s), ==, 0);
	g_assert_cmpstr(s, ==, "");
	g_assert_cmpint(modalias_map_get_string(m, 1, "type", &s), ==, 0);
	g_assert_cmpstr(s, ==, "test_type_3");
	g_assert_cmpint(modalias_map_get_string(m, 1, "compatible", &s), ==, 0);
	g_assert_cmpstr(s, ==, "test_compat_3");
	modalias_map_unref(m);
	g_assert_cmpstr(test_log_text(), ==, "");
	modalias_ctx_unref(ctx);
}

/* ---- the traps of the formats ---- */

static void test_traps(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_map *m;
	const char *s;
	uint64_t v;

	/* inputmap: a long name glued to matchBits; multiword bitmaps */
	m = load(ctx, "maps", "modules.inputmap", 0);
	g_assert_cmpint(modalias_map_get_count(m), ==, 6);
	g_assert_cmpstr(modalias_map_get_module(m, 2), ==, "a_very_long_input_module");
	g_assert_cmpuint(field(m, 2, "matchBits", 0), ==, 0x30);
	g_assert_cmpint(modalias_map_get_field_count(m, 2, "keyBits"), ==, 4);
	g_assert_cmpuint(field(m, 2, "keyBits", 3), ==, 0x100000);
	g_assert_cmpuint(field(m, 2, "keyBits", 0), ==, 0); /* items from the highest word */
	g_assert_cmpint(modalias_map_set_word_bits(m, 32), ==, 0);
	{
		g_autofree char *a = aliases(m, 2, 0);
		g_assert_cmpstr(a, ==, "input:b*v*p*e*-e*1,*k*74,*r*a*m*l*s*f*w*");
	}
	g_assert_cmpint(modalias_map_set_word_bits(m, 64), ==, 0);
	{
		g_autofree char *a = aliases(m, 2, 0);
		g_assert_cmpstr(a, ==, "input:b*v*p*e*-e*1,*k*D4,*r*a*m*l*s*f*w*");
	}
	g_assert_cmpint(modalias_map_set_word_bits(m, 32), ==, 0);
	{
		g_autofree char *a0 = aliases(m, 0, 0), *a1 = aliases(m, 1, 0), *a3 = aliases(m, 3, 0),
				*a4 = aliases(m, 4, 0), *a5 = aliases(m, 5, 0);
		g_assert_cmpstr(a0, ==, "input:b*v*p*e*-e*1,*k*r*a*m*l*s*f*w*");
		g_assert_cmpstr(a1, ==, "input:b*v*p*e*-e*1,*k*r*a*m*l*s*f*w*0,*");
		g_assert_cmpstr(a3, ==, "input:b*v*p*e*-e*1,*k*120,*r*a*m*l*s*f*w*");
		g_assert_cmpstr(a4, ==, "input:b*v*p*e*-e*k*r*a*m*l*s*f*w*");
		g_assert_cmpstr(a5, ==, "input:b0010v001Fp0001e0100-e*12,*k*r*a*m*l*s*f*w*");
	}
	modalias_map_unref(m);
	/* a word wider than 32 bits tells 64-bit words */
	g_assert_cmpint(modalias_map_new_from_buffer(ctx, "x.inputmap",
		"m 0x20  0x0  0x0  0x0  0x0  0  2000000000000:0  0  0  0  0  0  0  0  0x0\n", 73, -1, &m), ==, 0);
	g_assert_cmpint(modalias_map_get_word_bits(m), ==, 64);
	{
		g_autofree char *a = aliases(m, 0, 0);
		g_assert_cmpstr(a, ==, "input:b*v*p*e*-e*k*71,*r*a*m*l*s*f*w*");
	}
	modalias_map_unref(m);

	/* isapnp: pairs and trailing spaces; ids back from the words */
	m = load(ctx, "maps", "modules.isapnpmap", 0);
	{
		g_autofree char *a0 = aliases(m, 0, 0), *a1 = aliases(m, 1, MODALIAS_MAP_DIALECT_2_6);
		g_assert_cmpstr(a0, ==, "pnp:dCSC0100* acpi*:CSC0100:*");
		g_assert_cmpstr(a1, ==, "pnp:dADS7150* pnp:dADS7151*");
	}
	modalias_map_unref(m);

	/* ofmap: "*", embedded spaces, an overlong module name */
	m = load(ctx, "maps", "modules.ofmap", 0);
	g_assert_cmpint(modalias_map_get_string(m, 2, "compatible", &s), ==, 0);
	g_assert_cmpstr(s, ==, "acme,chip with spaces");
	g_assert_cmpint(modalias_map_get_string(m, 3, "name", &s), ==, 0);
	g_assert_cmpstr(s, ==, "my node");
	g_assert_cmpint(modalias_map_get_string(m, 3, "type", &s), ==, 0);
	g_assert_cmpstr(s, ==, "serial port");
	g_assert_cmpstr(modalias_map_get_module(m, 4), ==, "a_module_name_longer_than_twenty");
	g_assert_cmpint(modalias_map_get_string(m, 4, "compatible", &s), ==, 0);
	g_assert_cmpstr(s, ==, "fsl,imx51-uart");
	g_assert_cmpint(modalias_map_get_field(m, 0, "name", 0, &v), ==, -EINVAL);
	{
		g_autofree char *a0 = aliases(m, 0, 0), *a1 = aliases(m, 1, 0), *a2 = aliases(m, 2, 0),
				*a3 = aliases(m, 3, 0), *a1old = aliases(m, 1, MODALIAS_MAP_DIALECT_2_6);
		g_assert_cmpstr(a0, ==, "of:Ntest_name_1T* of:Ntest_name_1T*C*");
		g_assert_cmpstr(a1, ==, "of:N*Ttest_type_3*Ctest_compat_3 of:N*Ttest_type_3*Ctest_compat_3C*");
		g_assert_cmpstr(a2, ==, "of:N*T*Cacme,chip_with_spaces of:N*T*Cacme,chip_with_spacesC*");
		g_assert_cmpstr(a3, ==, "of:Nmy_nodeTserial_port of:Nmy_nodeTserial_portC*");
		g_assert_cmpstr(a1old, ==, "of:N*Ttest_type_3*Ctest_compat_3*");
	}
	modalias_map_unref(m);

	/* serio: ANY, and the alias order ty pr id ex */
	m = load(ctx, "maps", "modules.seriomap", 0);
	{
		g_autofree char *a0 = aliases(m, 0, 0), *a1 = aliases(m, 1, 0), *a2 = aliases(m, 2, 0);
		g_assert_cmpstr(a0, ==, "serio:ty01pr*id*ex*");
		g_assert_cmpstr(a1, ==, "serio:ty06pr00id*ex*");
		g_assert_cmpstr(a2, ==, "serio:ty*pr*id*ex*");
	}
	modalias_map_unref(m);

	/* pci: ANY, whole-byte class masks, an odd mask gives nothing */
	m = load(ctx, "maps", "modules.pcimap", 0);
	{
		g_autofree char *a1 = aliases(m, 1, 0), *a2 = aliases(m, 2, 0), *a3 = aliases(m, 3, 0),
				*a4 = aliases(m, 4, 0);
		g_assert_cmpstr(a1, ==, "pci:v00008086d000010D3sv*sd*bc*sc*i*");
		g_assert_cmpstr(a2, ==, "pci:v*d*sv*sd*bc01sc06i01*");
		g_assert_cmpstr(a3, ==, "pci:v*d*sv*sd*bc0Csc03i*");
		g_assert_cmpstr(a4, ==, "");
	}
	modalias_map_unref(m);

	m = load(ctx, "maps", "modules.ieee1394map", 0);
	{
		g_autofree char *a0 = aliases(m, 0, 0);
		g_assert_cmpstr(a0, ==, "ieee1394:ven*mo*sp0000A02Dver00010001*");
	}
	modalias_map_unref(m);
	m = load(ctx, "maps", "modules.ccwmap", 0);
	{
		g_autofree char *a0 = aliases(m, 0, 0), *a1 = aliases(m, 1, 0);
		g_assert_cmpstr(a0, ==, "ccw:t0001m03dt0002dm04*");
		g_assert_cmpstr(a1, ==, "ccw:t3990mE9dt*dm*");
	}
	modalias_map_unref(m);

	/* a hotplug user map: comments, blank lines, no header; type from the name */
	m = load(ctx, "maps", "usb.usermap", 0);
	g_assert_cmpint(modalias_map_get_type(m), ==, MODALIAS_MAP_USB);
	g_assert_cmpint(modalias_map_get_count(m), ==, 3);
	g_assert_cmpuint(modalias_map_get_line(m, 0), ==, 6);
	g_assert_cmpuint(modalias_map_get_line(m, 1), ==, 9);
	{
		g_autofree char *a0 = aliases(m, 0, 0), *a2 = aliases(m, 2, 0);
		g_assert_cmpstr(a0, ==, "usb:v046DpC52Bd*dc*dsc*dp*ic*isc*ip*in*");
		g_assert_cmpstr(a2, ==, "usb:v1234p5678d0210dc*dsc*dp*ic*isc*ip*in* "
					"usb:v1234p5678d01[5-9]*dc*dsc*dp*ic*isc*ip*in* "
					"usb:v1234p5678d020*dc*dsc*dp*ic*isc*ip*in*");
	}
	modalias_map_unref(m);

	/* header-only (the real 2.6.35 files) and empty files */
	{
		static const char *const files[] = {
			"modules.pcimap", "modules.ieee1394map", "modules.ccwmap", "modules.isapnpmap",
			"modules.inputmap", "modules.ofmap", "modules.seriomap",
		};
		for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
			m = load(ctx, "linux-2.6.35.7-samsung", files[i], 0);
			g_assert_cmpint(modalias_map_get_count(m), ==, 0);
			g_assert_cmpint(modalias_map_get_type(m), ==, (int)(i < 1 ? 1 : i + 1));
			modalias_map_unref(m);
		}
	}
	g_assert_cmpint(modalias_map_new_from_buffer(ctx, "modules.ofmap", "", 0, -1, &m), ==, 0);
	g_assert_cmpint(modalias_map_get_type(m), ==, MODALIAS_MAP_OF);
	g_assert_cmpint(modalias_map_get_count(m), ==, 0);
	modalias_map_unref(m);
	g_assert_cmpint(modalias_map_new_from_buffer(ctx, "some.file", "x 0x1\n", 6, -1, &m), ==, -EINVAL);
	g_assert_nonnull(strstr(test_log_text(), "some.file: not a known map file"));
	modalias_ctx_unref(ctx);
}

/* ---- bad rows: exact messages, later rows still read ---- */

static void test_bad_rows(void)
{
	static const struct {
		int type;
		const char *row;
		const char *message;
	} cases[] = {
		{ MODALIAS_MAP_USB, "trunc                0x0003      0x046d   0xc52b",
		  "bad:2:49: 4 columns, expected 13 (module and 12 numbers), row skipped\n" },
		{ MODALIAS_MAP_USB, "nonhex               0x0003      0x04zz   0xc52b    0x0000       0x0000       0x00         0x00            0x00            0x00            0x00               0x00               0x0",
		  "bad:2:34: idVendor: '0x04zz' is not a hexadecimal number, row skipped\n" },
		{ MODALIAS_MAP_USB, "overflow             0x0003      0x10000  0xc52b    0x0000       0x0000       0x00         0x00            0x00            0x00            0x00               0x00               0x0",
		  "bad:2:34: idVendor: '0x10000' is out of range (16 bits at most), row skipped\n" },
		{ MODALIAS_MAP_USB, "noprefix             0x0003      046d     0xc52b    0x0000       0x0000       0x00         0x00            0x00            0x00            0x00               0x00               0x0",
		  "bad:2:34: idVendor: '046d' is not a 0x-prefixed hexadecimal number, row skipped\n" },
		{ MODALIAS_MAP_PCI, "toomany              0x00008086 0x000010d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0 0x0",
		  "bad:2:92: 9 columns, expected 8 (module and 7 numbers), row skipped\n" },
		{ MODALIAS_MAP_PCI, "wide                 0x100008086 0x000010d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0",
		  "bad:2:22: vendor: '0x100008086' is out of range (32 bits at most), row skipped\n" },
		{ MODALIAS_MAP_SERIO, "serio                0x100 0xff  0xff 0xff",
		  "bad:2:22: type: '0x100' is out of range (8 bits at most), row skipped\n" },
		{ MODALIAS_MAP_INPUT, "short               0x10  0x0  0x0  0x0  0x0  2  0  0",
		  "bad:2:54: 9 columns, expected 15 or 16 (module, matchBits … driver_info, swBits optional), row skipped\n" },
		{ MODALIAS_MAP_INPUT, "badbits             0x10  0x0  0x0  0x0  0x0  2:x  0  0  0  0  0  0  0  0x0",
		  "bad:2:49: evBits: '2:x' is not a bitmap (hexadecimal words separated by ':'), row skipped\n" },
		{ MODALIAS_MAP_ISAPNP, "pnp                  0xffff     0xffff     0x00000000  0x630e",
		  "bad:2:62: 5 columns, expected module, cardvendor, carddevice, driver_data and (vendor, function) pairs, row skipped\n" },
		{ MODALIAS_MAP_OF, "of                   name",
		  "bad:2:26: 2 columns, expected 4 (module, name, type, compatible), row skipped\n" },
		{ MODALIAS_MAP_CCW, "ccw                  0x0003      0x3990  0x1e9      0x0000  0x00",
		  "bad:2:42: cu_model: '0x1e9' is out of range (8 bits at most), row skipped\n" },
		/* the module column: a name kmod would take (no '/', no control character) */
		{ MODALIAS_MAP_PCI, "a/b                  0x00008086 0x000010d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0",
		  "bad:2:1: module: 'a/b' is not a module name: it has a '/', row skipped\n" },
		{ MODALIAS_MAP_OF, "../of                timer * arm,smp-twd",
		  "bad:2:1: module: '../of' is not a module name: empty (kmod's names end at the first '.'), row skipped\n" },
	};
	static const char *const good[] = {
		[MODALIAS_MAP_USB] = "good 0x0003 0x046d 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0",
		[MODALIAS_MAP_PCI] = "good 0x8086 0x10d3 0xffffffff 0xffffffff 0x0 0x0 0x0",
		[MODALIAS_MAP_IEEE1394] = "good 0x1 0x1 0x0 0x0 0x0",
		[MODALIAS_MAP_CCW] = "good 0x1 0x3990 0x0 0x0 0x0",
		[MODALIAS_MAP_ISAPNP] = "good 0xffff 0xffff 0x0 0x630e 0x0001",
		[MODALIAS_MAP_INPUT] = "good 0x10 0x0 0x0 0x0 0x0 2 0 0 0 0 0 0 0 0x0",
		[MODALIAS_MAP_OF] = "good * * foo,bar",
		[MODALIAS_MAP_SERIO] = "good 0x01 0xff 0xff 0xff",
	};
	struct modalias_ctx *ctx = test_ctx_new();

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *buf = g_strdup_printf("# header\n%s\n%s\n", cases[i].row, good[cases[i].type]);
		struct modalias_map *m = NULL;

		test_log_clear();
		g_assert_cmpint(modalias_map_new_from_buffer(ctx, "bad", buf, strlen(buf), cases[i].type, &m), ==, 1);
		if (strcmp(test_log_text(), cases[i].message) != 0)
			g_error("case %zu: wanted\n%sgot\n%s", i, cases[i].message, test_log_text());
		g_assert_cmpint(modalias_map_get_count(m), ==, 1);
		g_assert_cmpstr(modalias_map_get_module(m, 0), ==, "good");
		g_assert_cmpuint(modalias_map_get_line(m, 0), ==, 3);
		modalias_map_unref(m);
	}
	/* a NUL byte, and hostile bulk: no crash, counts right */
	{
		struct modalias_map *m;
		GString *b = g_string_new("# usb module\n");

		g_string_append_len(b, "nul 0x0\0003\n", sizeof("nul 0x0\0003\n") - 1);
		for (int k = 0; k < 1000; k++)
			g_string_append(b, "0x0x0x 0x 0x:: ::: \t\r\n");
		g_string_append(b, "last 0x3 0x1 0x2 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0");
		test_log_clear();
		g_assert_cmpint(modalias_map_new_from_buffer(ctx, "hostile", b->str, b->len, -1, &m), ==, 1001);
		g_assert_nonnull(strstr(test_log_text(), "hostile:2:8: NUL byte in the row, row skipped\n"));
		g_assert_cmpint(modalias_map_get_count(m), ==, 1);
		g_assert_cmpuint(modalias_map_get_line(m, 0), ==, 1003);
		modalias_map_unref(m);
		g_string_free(b, TRUE);
	}
	modalias_ctx_unref(ctx);
}

static void test_api(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_map *m = load(ctx, "maps", "modules.seriomap", 0);
	uint64_t v;
	const char *s;

	g_assert_true(modalias_map_ref(m) == m);
	g_assert_true(modalias_map_unref(m) == m);
	g_assert_cmpstr(modalias_map_type_name(MODALIAS_MAP_ISAPNP), ==, "isapnp");
	g_assert_null(modalias_map_type_name(8));
	g_assert_null(modalias_map_type_name(-1));
	for (int t = 0; modalias_map_type_name(t); t++)
		g_assert_cmpint(modalias_map_type_from_name(modalias_map_type_name(t)), ==, t);
	g_assert_cmpint(modalias_map_type_from_name("isapnp"), ==, MODALIAS_MAP_ISAPNP);
	g_assert_cmpint(modalias_map_type_from_name("usbmap"), ==, -EINVAL);
	g_assert_cmpint(modalias_map_type_from_name("USB"), ==, -EINVAL);
	g_assert_cmpint(modalias_map_type_from_name(""), ==, -EINVAL);
	g_assert_cmpint(modalias_map_type_from_name(NULL), ==, -EINVAL);
	g_assert_cmpstr(modalias_map_type_field_name(MODALIAS_MAP_SERIO, 3), ==, "proto");
	g_assert_null(modalias_map_type_field_name(MODALIAS_MAP_SERIO, 4));
	g_assert_cmpint(modalias_map_get_field(m, 0, "colour", 0, &v), ==, -ENOENT);
	g_assert_cmpint(modalias_map_get_field(m, 9, "type", 0, &v), ==, -ERANGE);
	g_assert_cmpint(modalias_map_get_field(m, 0, "type", 1, &v), ==, -ERANGE);
	g_assert_cmpint(modalias_map_get_string(m, 0, "type", &s), ==, -EINVAL);
	g_assert_null(modalias_map_get_module(m, 9));
	g_assert_cmpuint(modalias_map_get_line(m, 9), ==, 0);
	g_assert_cmpint(modalias_map_set_word_bits(m, 16), ==, -EINVAL);
	g_assert_cmpint(modalias_map_new_from_file(ctx, "/nonexistent/modules.usbmap", -1, &m), ==, -ENOENT);
	g_assert_nonnull(strstr(test_log_text(), "/nonexistent/modules.usbmap"));
	g_assert_cmpint(modalias_map_new_from_buffer(ctx, NULL, "", 0, 9, &m), ==, -EINVAL);
	g_assert_null(modalias_map_unref(m));
	modalias_ctx_unref(ctx);
}

/* ---- the column kinds (modalias_map_type_field_kind) ---- */

/* Every column that is not one number; the same names are numbers in other
 * types (input's vendor, isapnp's vendor; input's matchBits ends in "Bits"
 * and is no bitmap): a front end cannot tell a kind from a name. */
static const struct {
	int type;
	const char *field;
	int kind;
} field_kinds[] = {
	{ MODALIAS_MAP_ISAPNP, "vendor", MODALIAS_MAP_FIELD_LIST },
	{ MODALIAS_MAP_ISAPNP, "function", MODALIAS_MAP_FIELD_LIST },
	{ MODALIAS_MAP_INPUT, "evBits", MODALIAS_MAP_FIELD_BITMAP },
	{ MODALIAS_MAP_INPUT, "keyBits", MODALIAS_MAP_FIELD_BITMAP },
	{ MODALIAS_MAP_INPUT, "relBits", MODALIAS_MAP_FIELD_BITMAP },
	{ MODALIAS_MAP_INPUT, "absBits", MODALIAS_MAP_FIELD_BITMAP },
	{ MODALIAS_MAP_INPUT, "mscBits", MODALIAS_MAP_FIELD_BITMAP },
	{ MODALIAS_MAP_INPUT, "ledBits", MODALIAS_MAP_FIELD_BITMAP },
	{ MODALIAS_MAP_INPUT, "sndBits", MODALIAS_MAP_FIELD_BITMAP },
	{ MODALIAS_MAP_INPUT, "ffBits", MODALIAS_MAP_FIELD_BITMAP },
	{ MODALIAS_MAP_INPUT, "swBits", MODALIAS_MAP_FIELD_BITMAP },
	{ MODALIAS_MAP_OF, "name", MODALIAS_MAP_FIELD_STRING },
	{ MODALIAS_MAP_OF, "type", MODALIAS_MAP_FIELD_STRING },
	{ MODALIAS_MAP_OF, "compatible", MODALIAS_MAP_FIELD_STRING },
};

static int expected_kind(int type, const char *field)
{
	for (size_t i = 0; i < G_N_ELEMENTS(field_kinds); i++)
		if (field_kinds[i].type == type && strcmp(field_kinds[i].field, field) == 0)
			return field_kinds[i].kind;
	return MODALIAS_MAP_FIELD_NUMBER;
}

/* A row's column as a front end shows it, knowing only the kind: a bitmap
 * highest word first, ':'-separated, as the file writes it. */
static char *render(const struct modalias_map *m, unsigned int i, const char *f, int kind)
{
	int n = modalias_map_get_field_count(m, i, f);
	GString *s = g_string_new(NULL);
	const char *str;

	g_assert_cmpint(n, >=, 0);
	if (kind == MODALIAS_MAP_FIELD_STRING) {
		g_assert_cmpint(modalias_map_get_string(m, i, f, &str), ==, 0);
		g_string_append(s, *str ? str : "*");
		return g_string_free(s, FALSE);
	}
	for (int k = 0; k < n; k++) {
		unsigned int item = kind == MODALIAS_MAP_FIELD_BITMAP ? (unsigned int)(n - 1 - k) : (unsigned int)k;

		g_string_append_printf(s, kind == MODALIAS_MAP_FIELD_BITMAP ? "%s%llx" : "%s0x%llx",
				       k ? (kind == MODALIAS_MAP_FIELD_BITMAP ? ":" : ",") : "",
				       (unsigned long long)field(m, i, f, item));
	}
	return g_string_free(s, FALSE);
}

static void test_field_kinds(void)
{
	static const char *const files[][2] = {
		{ "maps", "modules.usbmap" }, { "maps", "modules.pcimap" },
		{ "maps", "modules.ieee1394map" }, { "maps", "modules.ccwmap" },
		{ "maps", "modules.isapnpmap" }, { "maps", "modules.inputmap" },
		{ "maps", "modules.ofmap" }, { "maps", "modules.seriomap" },
		{ "maps", "usb.usermap" }, { "linux-2.6.35.7-samsung", "modules.inputmap" },
		{ "linux-2.6.35.7-samsung", "modules.usbmap" },
	};
	struct modalias_ctx *ctx = test_ctx_new();
	unsigned int bitmaps_seen = 0, lists_seen = 0;
	const char *f;

	/* every column of every type, against the table above */
	for (size_t k = 0; k < G_N_ELEMENTS(field_kinds); k++)
		g_assert_cmpint(modalias_map_type_field_kind(field_kinds[k].type, field_kinds[k].field), ==,
				field_kinds[k].kind);
	for (int t = 0; modalias_map_type_name(t); t++)
		for (unsigned int c = 0; (f = modalias_map_type_field_name(t, c)); c++)
			g_assert_cmpint(modalias_map_type_field_kind(t, f), ==, expected_kind(t, f));
	g_assert_cmpint(modalias_map_type_field_kind(MODALIAS_MAP_INPUT, "matchBits"), ==, MODALIAS_MAP_FIELD_NUMBER);
	g_assert_cmpint(modalias_map_type_field_kind(MODALIAS_MAP_INPUT, "vendor"), ==, MODALIAS_MAP_FIELD_NUMBER);
	/* what it refuses */
	g_assert_cmpint(modalias_map_type_field_kind(MODALIAS_MAP_PCI, "idVendor"), ==, -ENOENT);
	g_assert_cmpint(modalias_map_type_field_kind(MODALIAS_MAP_INPUT, "evbits"), ==, -ENOENT);
	g_assert_cmpint(modalias_map_type_field_kind(MODALIAS_MAP_INPUT, "ev"), ==, -ENOENT);
	g_assert_cmpint(modalias_map_type_field_kind(MODALIAS_MAP_OF, ""), ==, -ENOENT);
	g_assert_cmpint(modalias_map_type_field_kind(MODALIAS_MAP_OF, NULL), ==, -EINVAL);
	g_assert_cmpint(modalias_map_type_field_kind(8, "name"), ==, -EINVAL);
	g_assert_cmpint(modalias_map_type_field_kind(-1, "name"), ==, -EINVAL);

	/* the kind is how the rows read: shown by it alone, every bitmap is
	 * the file's own token (highest word first), a list has as many items
	 * as the row has pairs, a number one item, a string no number */
	for (size_t k = 0; k < G_N_ELEMENTS(files); k++) {
		g_autofree char *path = data_path(files[k][0], files[k][1]), *text = NULL;
		struct modalias_map *m = load(ctx, files[k][0], files[k][1], 0);
		int type = modalias_map_get_type(m);
		g_auto(GStrv) lines = NULL;

		g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
		lines = g_strsplit(text, "\n", -1);
		for (unsigned int i = 0; i < (unsigned int)modalias_map_get_count(m); i++) {
			g_auto(GStrv) tokens = g_strsplit_set(lines[modalias_map_get_line(m, i) - 1], " \t", -1);
			uint64_t v;

			for (unsigned int c = 0; (f = modalias_map_type_field_name(type, c)); c++) {
				int kind = modalias_map_type_field_kind(type, f);
				int n = modalias_map_get_field_count(m, i, f);
				g_autofree char *shown = render(m, i, f, kind);

				switch (kind) {
				case MODALIAS_MAP_FIELD_NUMBER:
					g_assert_cmpint(n, ==, 1);
					break;
				case MODALIAS_MAP_FIELD_STRING:
					g_assert_cmpint(modalias_map_get_field(m, i, f, 0, &v), ==, -EINVAL);
					break;
				case MODALIAS_MAP_FIELD_BITMAP:
					/* rows of 14 numbers have no swBits: a zero one */
					if (!g_strv_contains((const char *const *)tokens, shown))
						g_assert_cmpstr(f, ==, "swBits");
					bitmaps_seen += n > 1;
					break;
				case MODALIAS_MAP_FIELD_LIST:
					g_assert_cmpint(n, ==, modalias_map_get_field_count(m, i, "vendor"));
					lists_seen += n > 1;
					break;
				default:
					g_assert_not_reached();
				}
			}
		}
		modalias_map_unref(m);
	}
	/* multi-word bitmaps and multi-id rows were there to be read */
	g_assert_cmpuint(bitmaps_seen, >, 0);
	g_assert_cmpuint(lists_seen, >, 0);
	modalias_ctx_unref(ctx);
}

/* The rows file2alias makes no pattern of: each said, with its line, its
 * module and why (the fixture's pcimap: two class masks not of whole
 * bytes, which --match still matches), and counted by
 * modalias_table_load_map() */
static void test_no_alias(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_map *m = load(ctx, "maps", "modules.pcimap", 0);
	struct modalias_table *t;
	unsigned int none = 0;

	for (int i = 0; i < modalias_map_get_count(m); i++) {
		g_autofree char *a = aliases(m, (unsigned int)i, 0);
		none += *a == '\0';
	}
	g_assert_cmpuint(none, ==, 2);
	g_assert_nonnull(strstr(test_log_text(), "modules.pcimap:2: pci_map-32: class_mask 0x00000006 has a byte "
						 "neither 00 nor ff"));
	g_assert_nonnull(strstr(test_log_text(), "modules.pcimap:6: odd-mask: class_mask 0x00fff000"));
	test_log_clear();
	g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_map(t, m, 0), ==, 2);
	g_assert_nonnull(strstr(test_log_text(), ":6: odd-mask: class_mask"));
	modalias_table_unref(t);
	modalias_map_unref(m);
	/* usb: a range of no device (said at LOG_ERR), a placeholder (LOG_INFO:
	 * file2alias skips it without a word) */
	test_log_clear();
	modalias_ctx_set_log_priority(ctx, 6);
	{
		const char *rows = "r 0x000f 0x1234 0x5678 0x0210 0x0150 0x0 0x0 0x0 0x0 0x0 0x0 0x0\n"
				   "v 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0\n";

		g_assert_cmpint(modalias_map_new_from_buffer(ctx, "x.usbmap", rows, strlen(rows), -1, &m), ==, 0);
	}
	{
		g_autofree char *a0 = aliases(m, 0, 0), *a1 = aliases(m, 1, 0);
		g_assert_cmpstr(a0, ==, "");
		g_assert_cmpstr(a1, ==, "");
	}
	g_assert_nonnull(strstr(test_log_text(), "x.usbmap:1: r: bcdDevice_lo 0x0210 is above bcdDevice_hi 0x0150"));
	g_assert_nonnull(strstr(test_log_text(), "x.usbmap:2: v: a placeholder row"));
	modalias_map_unref(m);
	modalias_ctx_unref(ctx);
}

/* modalias_ctx_set_word_bits(): the word size of a map's bitmaps where the
 * file does not tell (the fixture's 32-bit inputmap), said when assumed */
static void test_ctx_word_bits(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_map *m;

	g_assert_cmpint(modalias_ctx_get_word_bits(ctx), ==, 0);
	g_assert_cmpint(modalias_ctx_set_word_bits(ctx, 16), ==, -EINVAL);
	g_assert_cmpint(modalias_ctx_set_word_bits(NULL, 32), ==, -EINVAL);
	g_assert_cmpint(modalias_ctx_get_word_bits(NULL), ==, -EINVAL);
	g_assert_cmpint(modalias_ctx_set_word_bits(ctx, 32), ==, 0);
	g_assert_cmpint(modalias_ctx_get_word_bits(ctx), ==, 32);
	m = load(ctx, "maps", "modules.inputmap", 0);
	g_assert_cmpint(modalias_map_get_word_bits(m), ==, 32);
	{
		g_autofree char *a = aliases(m, 3, 0);
		g_assert_cmpstr(a, ==, "input:b*v*p*e*-e*1,*k*120,*r*a*m*l*s*f*w*");
	}
	modalias_map_unref(m);
	g_assert_cmpint(modalias_ctx_set_word_bits(ctx, 64), ==, 0);
	m = load(ctx, "maps", "modules.inputmap", 0);
	{
		g_autofree char *a = aliases(m, 3, 0);
		g_assert_cmpstr(a, ==, "input:b*v*p*e*-e*1,*k*240,*r*a*m*l*s*f*w*");
	}
	modalias_map_unref(m);
	/* not given: this machine's, said at LOG_INFO */
	g_assert_cmpint(modalias_ctx_set_word_bits(ctx, 0), ==, 0);
	modalias_ctx_set_log_priority(ctx, 6);
	test_log_clear();
	m = load(ctx, "maps", "modules.inputmap", 0);
	g_assert_cmpint(modalias_map_get_word_bits(m), ==, (int)(sizeof(long) * 8));
	g_assert_nonnull(strstr(test_log_text(), "modules.inputmap: bitmap words of 8 digits at most do not tell "
						 "their size: read as"));
	modalias_map_unref(m);
	/* a word wider than 32 bits: 64, whatever is given (said) */
	g_assert_cmpint(modalias_ctx_set_word_bits(ctx, 32), ==, 0);
	test_log_clear();
	g_assert_cmpint(modalias_map_new_from_buffer(ctx, "x.inputmap",
		"m 0x20  0x0  0x0  0x0  0x0  0  2000000000000:0  0  0  0  0  0  0  0  0x0\n", 73, -1, &m), ==, 0);
	g_assert_cmpint(modalias_map_get_word_bits(m), ==, 64);
	g_assert_nonnull(strstr(test_log_text(), "x.inputmap:1: m: a bitmap word wider than 32 bits"));
	modalias_map_unref(m);
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/maps/no-alias", test_no_alias);
	g_test_add_func("/maps/ctx-word-bits", test_ctx_word_bits);
	g_test_add_func("/maps/golden", test_golden);
	g_test_add_func("/maps/traps", test_traps);
	g_test_add_func("/maps/bad-rows", test_bad_rows);
	g_test_add_func("/maps/api", test_api);
	g_test_add_func("/maps/field-kinds", test_field_kinds);
	return g_test_run();
}
