/*
 * The legacy map files against modules.alias: file2alias patterns (the
 * bcdDevice range vectors, the real 2.6.35 usbmap against its own
 * modules.alias), matching (agreeing with alias matching of the same
 * kernel, every bus), alias tables from maps and maps from alias tables.
 * Reading maps is tested in test-maps.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "libmodalias-private.h"
#include "test-maps.h"

/* ---- USB bcdDevice ranges: the reference's vectors ---- */

static void test_bcd_ranges(void)
{
	static const struct {
		unsigned int flags, lo, hi;
		const char *want; /* the d parts, in order */
	} cases[] = {
		{ 0x3, 0, 0, "d*" },
		{ 0xf, 0x0100, 0x0100, "d0100" },
		{ 0xf, 0x0000, 0x9999, "d*" },
		{ 0xf, 0x0000, 0xffff, "d*" },
		{ 0xf, 0x0100, 0x0205, "d020[0-5] d01*" },
		{ 0xf, 0x0150, 0x0210, "d0210 d01[5-9]* d020*" },
		{ 0xf, 0x0005, 0x0014, "d000[5-9] d001[0-4]" },
		{ 0x7, 0x0110, 0, "d01[1-9]* d0[2-9]* d[1-9]*" },
		{ 0xb, 0, 0x0109, "d010* d00*" },
		{ 0xf, 0x0000, 0x0102, "d010[0-2] d00*" },
		{ 0xf, 0x0A00, 0x0BFF, "d0[A-B]*" },
		{ 0xf, 0x0009, 0x000A, "d000[9A]" },
		{ 0xf, 0x0090, 0x00AF, "d00[9A]*" },
		{ 0xf, 0x0200, 0x0299, "d02*" },
		{ 0xf, 0x0100, 0x0109, "d010" }, /* the kernel's own: no '*' after 3 fixed digits */
		{ 0xf, 0x0005, 0x000C, "d000[5-9A-C]" },
		{ 0xf, 0x0300, 0x0200, "" },    /* lo > hi: nothing */
	};
	struct modalias_ctx *ctx = test_ctx_new();

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *row = g_strdup_printf("m 0x%x 0x1234 0x5678 0x%x 0x%x 0x0 0x0 0x0 0x0 0x0 0x0 0x0",
						       cases[i].flags, cases[i].lo, cases[i].hi);
		struct modalias_map *m;
		GString *got = g_string_new(NULL);
		char **v;
		int n;

		g_assert_cmpint(modalias_map_new_from_buffer(ctx, NULL, row, strlen(row), MODALIAS_MAP_USB, &m), ==, 0);
		n = modalias_map_get_aliases(m, 0, 0, &v);
		for (int k = 0; k < n; k++) {
			const char *d = v[k] + strlen("usb:v1234p5678");
			const char *dc = strstr(d, "dc*dsc*dp*ic*isc*ip*in*");
			g_assert_nonnull(dc);
			g_assert_cmpstr(dc, ==, "dc*dsc*dp*ic*isc*ip*in*");
			g_string_append_printf(got, "%s%.*s", k ? " " : "", (int)(dc - d), d);
			free(v[k]);
		}
		free(v);
		if (strcmp(got->str, cases[i].want) != 0)
			g_error("lo %04X hi %04X flags %x: wanted '%s', got '%s'", cases[i].lo, cases[i].hi,
				cases[i].flags, cases[i].want, got->str);
		g_string_free(got, TRUE);
		modalias_map_unref(m);
	}
	/* placeholder entries give no alias; the 2.6 dialect has no "in" */
	{
		struct modalias_map *m;
		const char *rows = "visor 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0\n"
				   "cls 0x80 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x8 0x0 0x0 0x0\n";
		g_assert_cmpint(modalias_map_new_from_buffer(ctx, NULL, rows, strlen(rows), MODALIAS_MAP_USB, &m), ==, 0);
		g_autofree char *a0 = aliases(m, 0, 0), *a1 = aliases(m, 1, MODALIAS_MAP_DIALECT_2_6);
		g_assert_cmpstr(a0, ==, "");
		g_assert_cmpstr(a1, ==, "usb:v*p*d*dc*dsc*dp*ic08isc*ip*");
		modalias_map_unref(m);
	}
	modalias_ctx_unref(ctx);
}

/* ---- the real 2.6.35 usbmap against its own modules.alias ---- */

static char *norm_module(const char *m)
{
	char *s = g_strdup(m);
	for (char *p = s; *p; p++)
		if (*p == '-')
			*p = '_';
	return s;
}

static void test_real_usbmap(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_map *m = load(ctx, "linux-2.6.35.7-samsung", "modules.usbmap", 0);
	g_autofree char *apath = data_path("linux-2.6.35.7-samsung", "modules.alias");
	g_autofree char *text = NULL;
	GHashTable *want = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTable *got = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTableIter it;
	gpointer key, value;
	unsigned int n_want = 0, n_got = 0, modules = 0;
	char **lines;

	g_assert_cmpint(modalias_map_get_count(m), ==, 1395);
	g_assert_true(g_file_get_contents(apath, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		char **f;
		GString *s;

		if (!g_str_has_prefix(*l, "alias usb:"))
			continue;
		f = g_strsplit(*l, " ", 3);
		s = g_hash_table_lookup(want, f[2]);
		if (!s) {
			s = g_string_new(NULL);
			g_hash_table_insert(want, g_strdup(f[2]), s);
		}
		g_string_append_printf(s, "%s\n", f[1]);
		n_want++;
		g_strfreev(f);
	}
	g_strfreev(lines);
	for (int i = 0; i < modalias_map_get_count(m); i++) {
		g_autofree char *mod = norm_module(modalias_map_get_module(m, (unsigned int)i));
		GString *s = g_hash_table_lookup(got, mod);
		char **v;
		int n = modalias_map_get_aliases(m, (unsigned int)i, MODALIAS_MAP_DIALECT_2_6, &v);

		g_assert_cmpint(n, >=, 1);
		if (!s) {
			s = g_string_new(NULL);
			g_hash_table_insert(got, g_strdup(mod), s);
		}
		/* module-init-tools' depmod wrote each module's aliases in the
		 * reverse of its table's order: an entry's block goes first */
		{
			GString *block = g_string_new(NULL);
			for (int k = 0; k < n; k++) {
				g_string_append_printf(block, "%s\n", v[k]);
				free(v[k]);
				n_got++;
			}
			g_string_prepend(s, block->str);
			g_string_free(block, TRUE);
		}
		free(v);
	}
	/* module by module, in order (so also as multisets) */
	g_assert_cmpuint(g_hash_table_size(got), ==, g_hash_table_size(want));
	g_hash_table_iter_init(&it, want);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		GString *g = g_hash_table_lookup(got, key);
		g_assert_nonnull(g);
		if (strcmp(g->str, ((GString *)value)->str) != 0)
			g_error("%s: modules.alias has\n%s\nthe map gives\n%s", (char *)key,
				((GString *)value)->str, g->str);
		modules++;
	}
	g_test_message("usbmap: %d entries, %u patterns, %u modules, identical to modules.alias (%u usb: lines)",
		       modalias_map_get_count(m), n_got, modules, n_want);
	g_assert_cmpuint(n_got, ==, n_want);
	g_assert_cmpuint(n_got, ==, 1395);
	g_hash_table_iter_init(&it, want);
	while (g_hash_table_iter_next(&it, &key, &value))
		g_string_free(value, TRUE);
	g_hash_table_iter_init(&it, got);
	while (g_hash_table_iter_next(&it, &key, &value))
		g_string_free(value, TRUE);
	g_hash_table_unref(want);
	g_hash_table_unref(got);
	modalias_map_unref(m);
	modalias_ctx_unref(ctx);
}

static int cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The modules a map matches for a device, in map order, each once. */
static char *map_modules(const struct modalias_map *m, const struct modalias_dev *dev)
{
	GString *s = g_string_new(NULL);
	unsigned int i = 0, start = 0;
	GPtrArray *seen = g_ptr_array_new_with_free_func(g_free);

	while (modalias_map_match(m, dev, start, &i) == 1) {
		g_autofree char *mod = norm_module(modalias_map_get_module(m, i));
		gboolean dup = FALSE;
		for (guint k = 0; k < seen->len; k++)
			dup |= strcmp(g_ptr_array_index(seen, k), mod) == 0;
		if (!dup)
			g_ptr_array_add(seen, g_strdup(mod));
		start = i + 1;
	}
	g_ptr_array_sort(seen, cmp_strp);
	for (guint k = 0; k < seen->len; k++)
		g_string_append_printf(s, "%s%s", k ? " " : "", *(char **)&seen->pdata[k]);
	g_ptr_array_unref(seen);
	return g_string_free(s, FALSE);
}

static char *table_modules(struct modalias_table *t, struct modalias_result *res, const char *alias)
{
	GPtrArray *mods = g_ptr_array_new();
	GString *s = g_string_new(NULL);
	int n = modalias_table_lookup(t, alias, res);

	g_assert_cmpint(n, >=, 0);
	for (int i = 0; i < n; i++)
		g_ptr_array_add(mods, (gpointer)modalias_result_get_module(res, (unsigned int)i));
	g_ptr_array_sort(mods, cmp_strp);
	for (guint k = 0; k < mods->len; k++)
		g_string_append_printf(s, "%s%s", k ? " " : "", (char *)mods->pdata[k]);
	g_ptr_array_unref(mods);
	return g_string_free(s, FALSE);
}

/* Map semantics against alias matching of the same kernel's modules.alias. */
static void test_match_agreement(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_map *m = load(ctx, "linux-2.6.35.7-samsung", "modules.usbmap", 0);
	g_autofree char *apath = data_path("linux-2.6.35.7-samsung", "modules.alias");
	g_autoptr(GPtrArray) events = uevents_load();
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	struct modalias_table *t, *tm;
	struct modalias_result *res;
	unsigned int agree = 0, differ = 0, matched = 0, agree_maps = 0;

	g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_file(t, apath), ==, 0);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	/* from every entry: its lo, its hi, one inside, one past each end; old
	 * (no "in") and new device strings */
	for (int i = 0; i < modalias_map_get_count(m); i++) {
		uint64_t fl = field(m, (unsigned int)i, "match_flags", 0);
		uint64_t lo = fl & 4 ? field(m, (unsigned int)i, "bcdDevice_lo", 0) : 0x0100;
		uint64_t hi = fl & 8 ? field(m, (unsigned int)i, "bcdDevice_hi", 0) : 0x0100;
		uint64_t bcds[] = { lo, hi, (lo + hi) / 2, lo ? lo - 1 : 0x9999, hi + 1 };

		for (size_t b = 0; b < G_N_ELEMENTS(bcds); b++)
			for (int in = 0; in < 2; in++) {
				g_autofree char *s = g_strdup_printf(
					"usb:v%04Xp%04Xd%04Xdc%02Xdsc%02Xdp%02Xic%02Xisc%02Xip%02X%s",
					(unsigned int)field(m, (unsigned int)i, "idVendor", 0),
					(unsigned int)field(m, (unsigned int)i, "idProduct", 0),
					(unsigned int)(bcds[b] & 0xffff),
					(unsigned int)field(m, (unsigned int)i, "bDeviceClass", 0),
					(unsigned int)field(m, (unsigned int)i, "bDeviceSubClass", 0),
					(unsigned int)field(m, (unsigned int)i, "bDeviceProtocol", 0),
					(unsigned int)field(m, (unsigned int)i, "bInterfaceClass", 0),
					(unsigned int)field(m, (unsigned int)i, "bInterfaceSubClass", 0),
					(unsigned int)field(m, (unsigned int)i, "bInterfaceProtocol", 0),
					in ? "in00" : "");
				g_ptr_array_add(ids, g_strdup(s));
			}
	}
	for (guint i = 0; i < events->len; i++) {
		const char *ma = uevent_get(g_ptr_array_index(events, i), "MODALIAS");
		if (ma && g_str_has_prefix(ma, "usb:"))
			g_ptr_array_add(ids, g_strdup(ma));
	}
	g_assert_cmpint(modalias_table_new(ctx, &tm), ==, 0);
	g_assert_cmpint(modalias_table_load_map(tm, m, MODALIAS_MAP_DIALECT_2_6), ==, 0);
	g_assert_cmpint(modalias_table_get_pattern_count(tm), ==, 1395);
	for (guint i = 0; i < ids->len; i++) {
		const char *id = g_ptr_array_index(ids, i);
		struct modalias_dev *dev;
		g_autofree char *a = NULL, *b = NULL, *c = NULL;

		g_assert_cmpint(modalias_parse(ctx, id, &dev), ==, 0);
		a = map_modules(m, dev);
		b = table_modules(t, res, id);
		c = table_modules(tm, res, id);
		agree_maps += strcmp(b, c) == 0;
		if (strcmp(a, b) == 0) {
			agree++;
		} else {
			/* the one known difference: the kernel's own alias for
			 * snd-usb-audio's 0763:1031 range 0100-0109 is
			 * "d010dc*", which no 4-digit bcdDevice matches */
			g_assert_true(g_str_has_prefix(id, "usb:v0763p1031d010"));
			g_assert_cmpstr(a, ==, "snd_usb_audio");
			g_assert_cmpstr(b, ==, "");
			differ++;
		}
		matched += *a != '\0';
		modalias_dev_unref(dev);
	}
	g_test_message("%u USB ids: map and alias matching agree on %u (%u match a module), differ on %u "
		       "(all 0763:1031 d0100-d0109, the kernel's own d010dc* pattern); "
		       "the map-loaded table agrees with modules.alias on %u",
		       ids->len, agree, matched, differ, agree_maps);
	g_assert_cmpuint(agree_maps, ==, ids->len);
	g_assert_cmpuint(differ, <=, 6);
	g_assert_cmpuint(agree + differ, ==, ids->len);
	g_assert_cmpuint(ids->len, >, 14000);
	modalias_result_unref(res);
	modalias_table_unref(t);
	modalias_table_unref(tm);
	g_ptr_array_unref(ids);
	modalias_map_unref(m);
	modalias_ctx_unref(ctx);
}

/* ---- matching on the other buses ---- */

static struct modalias_dev *dev_of(struct modalias_ctx *ctx, const char *alias)
{
	struct modalias_dev *dev;

	g_assert_cmpint(modalias_parse(ctx, alias, &dev), ==, 0);
	return dev;
}

static void test_match_buses(void)
{
	static const struct {
		const char *map, *device, *want;
	} cases[] = {
		{ "modules.pcimap", "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00", "e1000e" },
		{ "modules.pcimap", "pci:v00001B4Bd00009172sv00001B4Bsd00009172bc01sc06i01", "ahci" },
		{ "modules.pcimap", "pci:v00008086d00001E26sv000017AAsd000021FBbc0Csc03i20", "ehci_hcd odd_mask" },
		{ "modules.pcimap", "pci:v00008086d00001E31sv000017AAsd000021FBbc0Csc03i30", "ehci_hcd odd_mask" },
		{ "modules.pcimap", "pci:v000010ECd00008168sv00001043sd00008432bc02sc00i00", "" },
		{ "modules.ieee1394map", "ieee1394:ven00001287mo00000001sp00000000ver00000000", "firedtv" },
		{ "modules.ieee1394map", "ieee1394:ven0000ABCDmo00000000sp0000A02Dver00010001", "ieee1394_map_32" },
		{ "modules.ccwmap", "ccw:t3990mE9dt3390dm0A", "dasd_eckd_mod" },
		{ "modules.ccwmap", "ccw:t0001m03dt0002dm04", "ccw_map_32" },
		{ "modules.ccwmap", "ccw:t0001m03dtdm", "" },
		{ "modules.seriomap", "serio:ty06pr00id00ex00", "atkbd serio_raw" },
		{ "modules.seriomap", "serio:ty01pr00id00ex00", "psmouse serio_raw" },
		{ "modules.inputmap", "input:b0019v0000p0001e0000-e0,1,k74,ramlsfw", "a_very_long_input_module evbug input_map_32" },
		{ "modules.inputmap", "input:b0003v046DpC52Be0111-e0,1,2,k120,ramlsfw", "evbug input_map_32 joydev" },
		{ "modules.inputmap", "input:b0010v001Fp0001e0100-e0,12,kramls1,2,fw", "evbug pcspkr" },
		{ "modules.inputmap", "input:b0019v0000p0005e0000-e0,1,5,kramlsfw0,", "evbug input_map_32 input_map_new_32" },
		{ "modules.ofmap", "of:Ntest_name_1T(null)", "of_map_32" },
		{ "modules.ofmap", "of:NfooTtest_type_3Cbar,bazCtest_compat_3", "of_map_32" },
		{ "modules.ofmap", "of:Nuart1T(null)CFSL,IMX51-UART", "a_module_name_longer_than_twenty" },
		{ "modules.ofmap", "of:NxTtest_type_3Cother", "" },
	};
	struct modalias_ctx *ctx = test_ctx_new();

	g_assert_cmpint(modalias_ctx_set_word_bits(ctx, 32), ==, 0);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct modalias_map *m = load(ctx, "maps", cases[i].map, 0);
		struct modalias_dev *dev = dev_of(ctx, cases[i].device);
		g_autofree char *got = map_modules(m, dev);

		if (strcmp(got, cases[i].want) != 0)
			g_error("%s %s: wanted '%s', got '%s'", cases[i].map, cases[i].device, cases[i].want, got);
		modalias_dev_unref(dev);
		modalias_map_unref(m);
	}
	/* isapnp: by PNP id */
	{
		struct modalias_map *m = load(ctx, "maps", "modules.isapnpmap", 0);
		struct modalias_dev *dev;
		unsigned int idx;

		g_assert_cmpint(modalias_dev_new(ctx, "pnp", &dev), ==, 0);
		g_assert_cmpint(modalias_dev_set(dev, "id", "CSC0100"), ==, 0);
		g_assert_cmpint(modalias_map_match(m, dev, 0, &idx), ==, 1);
		g_assert_cmpuint(idx, ==, 0);
		g_assert_cmpint(modalias_dev_set(dev, "id", "ADS7150"), ==, 0);
		g_assert_cmpint(modalias_map_match(m, dev, 0, &idx), ==, 1);
		g_assert_cmpuint(idx, ==, 1);
		g_assert_cmpint(modalias_dev_set(dev, "id", "PNP0c01"), ==, 0);
		g_assert_cmpint(modalias_map_match(m, dev, 0, &idx), ==, 0);
		modalias_dev_unref(dev);
		/* a device of another bus */
		dev = dev_of(ctx, "serio:ty01pr00id00ex00");
		g_assert_cmpint(modalias_map_match(m, dev, 0, &idx), ==, -EINVAL);
		g_assert_nonnull(strstr(test_log_text(), "a isapnp map matches pnp devices, not serio devices"));
		modalias_dev_unref(dev);
		modalias_map_unref(m);
	}
	modalias_ctx_unref(ctx);
}

/* ---- alias tables from maps, maps from alias tables ---- */

static void test_table(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_map *m = load(ctx, "maps", "usb.usermap", 0);
	struct modalias_table *t;
	struct modalias_result *res;
	unsigned int line = 0;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
	g_assert_cmpint(modalias_table_load_map(t, m, 0), ==, 0);
	g_assert_cmpint(modalias_table_get_pattern_count(t), ==, 5);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	g_assert_cmpint(modalias_table_lookup(t, "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00", res), ==, 1);
	g_assert_cmpstr(modalias_result_get_module(res, 0), ==, "usbhid");
	g_assert_true(g_str_has_suffix(modalias_result_get_pattern_origin(res, 0, 0, &line), "maps/usb.usermap"));
	g_assert_cmpuint(line, ==, 6);
	g_assert_cmpint(modalias_table_lookup(t, "usb:v1234p5678d0155dc00dsc00dp00ic00isc00ip00in00", res), ==, 1);
	g_assert_cmpint(modalias_table_lookup(t, "usb:v1234p5678d0211dc00dsc00dp00ic00isc00ip00in00", res), ==, 0);
	/* back to a map: the bracket patterns cannot be written */
	g_assert_cmpint(modalias_table_add(t, "usb:v*p*d*dc*dsc*dp*ic*isc*ip*in02*", "ifnum"), ==, 0);
	f = open_memstream(&out, &len);
	g_assert_cmpint(modalias_table_write_map(t, MODALIAS_MAP_USB, f), ==, 2);
	fclose(f);
	g_assert_cmpstr(out, ==,
		"# usb module         match_flags idVendor idProduct bcdDevice_lo bcdDevice_hi bDeviceClass bDeviceSubClass bDeviceProtocol bInterfaceClass bInterfaceSubClass bInterfaceProtocol driver_info\n"
		"usbhid               0x0003      0x046d   0xc52b    0x0000       0x0000       0x00         0x00            0x00            0x00            0x00               0x00               0x0\n"
		"usb_storage          0x0380      0x0000   0x0000    0x0000       0x0000       0x00         0x00            0x00            0x08            0x06               0x50               0x0\n"
		"ranged               0x000f      0x1234   0x5678    0x0210       0x0210       0x00         0x00            0x00            0x00            0x00               0x00               0x0\n"
		"ranged               0x000f      0x1234   0x5678    0x0200       0x020f       0x00         0x00            0x00            0x00            0x00               0x00               0x0\n");
	free(out);
	modalias_table_unref(t);
	modalias_map_unref(m);

	/* the real usbmap → aliases → usbmap gives the same rows (names aside) */
	{
		g_autofree char *path = data_path("linux-2.6.35.7-samsung", "modules.usbmap");
		g_autofree char *orig = NULL;
		GString *want = g_string_new(NULL);
		char **lines;

		m = load(ctx, "linux-2.6.35.7-samsung", "modules.usbmap", 0);
		g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
		g_assert_cmpint(modalias_table_load_map(t, m, MODALIAS_MAP_DIALECT_2_6), ==, 0);
		f = open_memstream(&out, &len);
		/* the kernel's "d010dc*" (the 0100-0109 range) is no map row */
		g_assert_cmpint(modalias_table_write_map(t, MODALIAS_MAP_USB, f), ==, 1);
		fclose(f);
		g_assert_true(g_file_get_contents(path, &orig, NULL, NULL));
		lines = g_strsplit(orig, "\n", -1);
		for (char **l = lines; *l && **l; l++) {
			char *sp = strchr(*l, ' ');
			for (char *p = *l; p < sp; p++)
				if (*p == '-')
					*p = '_';
			GString *row = g_string_new(*l);

			/* three rows carry an interface class their match_flags do
			 * not use: the pattern (and so the map written back) has 0 */
			if (strstr(*l, "0x0003      0x041e   0x3f0"))
				g_string_replace(row, "0x01            0x00               0x00               0x0",
						 "0x00            0x00               0x00               0x0", 1);
			if (!strstr(*l, "0x0763   0x1031"))
				g_string_append_printf(want, "%s\n", row->str);
			g_string_free(row, TRUE);
		}
		g_strfreev(lines);
		if (strcmp(out, want->str) != 0) {
			g_file_set_contents("/tmp/maps-out", out, -1, NULL);
			g_file_set_contents("/tmp/maps-want", want->str, -1, NULL);
			g_error("the usbmap written back differs (see /tmp/maps-out, /tmp/maps-want)");
		}
		g_string_free(want, TRUE);
		free(out);
		modalias_table_unref(t);
		modalias_map_unref(m);
	}
	/* other buses */
	{
		static const struct {
			const char *file;
			int type;
		} maps[] = {
			{ "modules.pcimap", MODALIAS_MAP_PCI }, { "modules.ieee1394map", MODALIAS_MAP_IEEE1394 },
			{ "modules.ccwmap", MODALIAS_MAP_CCW }, { "modules.seriomap", MODALIAS_MAP_SERIO },
			{ "modules.ofmap", MODALIAS_MAP_OF },
		};
		for (size_t i = 0; i < G_N_ELEMENTS(maps); i++) {
			struct modalias_map *back;
			int n;

			m = load(ctx, "maps", maps[i].file, 0);
			g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
			n = modalias_table_load_map(t, m, 0);
			g_assert_cmpint(n, ==, maps[i].type == MODALIAS_MAP_PCI ? 2 : 0); /* masks 0x06, 0xfff000 */
			f = open_memstream(&out, &len);
			g_assert_cmpint(modalias_table_write_map(t, maps[i].type, f), ==, 0);
			fclose(f);
			/* what is written reads back, and gives the same patterns */
			g_assert_cmpint(modalias_map_new_from_buffer(ctx, "back", out, len, -1, &back), ==, 0);
			g_assert_cmpint(modalias_map_get_type(back), ==, maps[i].type);
			g_assert_cmpint(modalias_map_get_count(back), ==, modalias_map_get_count(m) - n);
			for (int k = 0, j = 0; k < modalias_map_get_count(m); k++) {
				g_autofree char *a = aliases(m, (unsigned int)k, 0), *b = NULL;
				if (!*a)
					continue;
				b = aliases(back, (unsigned int)j++, 0);
				/* the table keeps patterns normalised: '-' is '_' */
				g_strdelimit(a, "-", '_');
				g_assert_cmpstr(a, ==, b);
			}
			modalias_map_unref(back);
			free(out);
			modalias_table_unref(t);
			modalias_map_unref(m);
		}
	}
	g_assert_cmpint(modalias_table_new(ctx, &t), ==, 0);
	g_assert_cmpint(modalias_table_write_map(t, MODALIAS_MAP_INPUT, stdout), ==, -EOPNOTSUPP);
	modalias_table_unref(t);
	modalias_result_unref(res);
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/maps/bcd-ranges", test_bcd_ranges);
	g_test_add_func("/maps/real-usbmap", test_real_usbmap);
	g_test_add_func("/maps/match-agreement", test_match_agreement);
	g_test_add_func("/maps/match-buses", test_match_buses);
	g_test_add_func("/maps/table", test_table);
	return g_test_run();
}
