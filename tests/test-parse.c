/*
 * Taking modaliases apart: every MODALIAS of 2,800+ real kernel events
 * parses and formats back byte for byte; named fields; malformed input.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "test-common.h"

/* Recorded strings that no kernel writes (damaged in the recording): each
 * must be rejected, and is listed here so that nothing is skipped quietly. */
static const char *const damaged[] = {
	"acpi:LNXCPU:q", /* DELL_POWEREDGE_R820_NVME.txt: a stray 'q' after the last ':' */
};

static bool is_damaged(const char *m)
{
	for (size_t i = 0; i < G_N_ELEMENTS(damaged); i++)
		if (strcmp(m, damaged[i]) == 0)
			return true;
	return false;
}

static void test_real_roundtrip(void)
{
	g_autoptr(GPtrArray) events = uevents_load();
	struct modalias_ctx *ctx = test_ctx_new();
	unsigned int ok = 0, rejected = 0, unknown = 0;

	for (guint i = 0; i < events->len; i++) {
		const struct uevent *ev = g_ptr_array_index(events, i);
		const char *m = uevent_get(ev, "MODALIAS");
		struct modalias_dev *dev;
		char *s;
		int r;

		if (!m)
			continue;
		r = modalias_parse(ctx, m, &dev);
		if (is_damaged(m)) {
			g_assert_cmpint(r, ==, -EINVAL);
			rejected++;
			continue;
		}
		if (r < 0)
			g_error("%s: %s does not parse: %s", ev->source, m, test_log_text());
		s = test_format(dev);
		if (strcmp(s, m) != 0)
			g_error("%s: %s formats back as %s", ev->source, m, s);
		if (!modalias_bus_field_name(modalias_dev_get_bus(dev), 0))
			unknown++;
		free(s);
		modalias_dev_unref(dev);
		ok++;
	}
	g_test_message("%u real modaliases round-trip, %u damaged ones rejected, %u of unknown buses",
		       ok, rejected, unknown);
	g_assert_cmpuint(ok, >, 2800);
	g_assert_cmpuint(rejected, ==, G_N_ELEMENTS(damaged));
	modalias_ctx_unref(ctx);
}

struct named {
	const char *modalias;
	const char *fields[12]; /* "FIELD=VALUE" (a list field once per value) */
};

static const struct named nameds[] = {
	{ "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00",
	  { "idVendor=046D", "idProduct=C52B", "bcdDevice=1200", "bInterfaceClass=03",
	    "bInterfaceNumber=00" } },
	{ "pci:v00008086d000027C0sv0000103Csd00003666bc01sc01i8a",
	  { "vendor=00008086", "device=000027C0", "baseclass=01", "subclass=01", "interface=8a" } },
	{ "scsi:t-0x0e", { "type=0e" } },
	{ "of:Ni2c-busT<NULL>Cibm,power8-i2c-portCibm,opal-i2c",
	  { "name=i2c-bus", "type=<NULL>", "compatible=ibm,power8-i2c-port", "compatible=ibm,opal-i2c" } },
	{ "of:NrtcT(null)Cnxp,PCF8563", { "name=rtc", "type=(null)", "compatible=nxp,PCF8563" } },
	/* of: as the kernel writes it: any character in the name and the type */
	{ "of:NfooTBCvendor,dev", { "name=foo", "type=B", "compatible=vendor,dev" } },
	{ "of:NSOUNDTSoundCsimple-audio-card", { "name=SOUND", "type=Sound", "compatible=simple-audio-card" } },
	{ "of:NT(null)Csimple-audio-card", { "name=", "type=(null)", "compatible=simple-audio-card" } },
	{ "of:NTCgoogle,cros-ec-uart", { "name=", "type=", "compatible=google,cros-ec-uart" } },
	{ "of:NsTaTusT(null)Cacme,x", { "name=sTaTus", "type=(null)", "compatible=acme,x" } },
	{ "of:NtxTserialCSUNW,hme", { "name=tx", "type=serial", "compatible=SUNW,hme" } },
	{ "of:Na b:cT<x> yCacme,x", { "name=a b:c", "type=<x> y", "compatible=acme,x" } },
	{ "of:NsocT(null)Cfsl,MPC8572DSCfsl,mpc8572",
	  { "name=soc", "type=(null)", "compatible=fsl,MPC8572DS", "compatible=fsl,mpc8572" } },
	{ "of:NfooT", { "name=foo", "type=" } },
	{ "of:NfooT(null)C", { "name=foo", "type=(null)", "compatible=" } },
	/* the buses of file2alias.c (6.12) with named fields */
	{ "vfio_pci:v000010DEd00001DB6sv000010DEsd00001212bc03sc02i00",
	  { "vendor=000010DE", "device=00001DB6", "baseclass=03", "interface=00" } },
	{ "parisc:t0Ahv0070rev00sv0000008C", { "hw_type=0A", "hversion=0070", "hversion_rev=00", "sversion=0000008C" } },
	{ "i3c:dcr63manuf0102part0001ext0000", { "dcr=63", "manuf_id=0102", "part_id=0001", "extra_info=0000" } },
	{ "slim:217:1a0:1:0", { "manf_id=217", "prod_code=1a0", "dev_index=1", "instance=0" } },
	{ "zorro:i02020100", { "id=02020100" } },
	{ "ipack:f01v000000F0d00000022", { "format=01", "vendor=000000F0", "device=00000022" } },
	{ "mipscdmm:t23", { "type=23" } },
	{ "rapidio:v0038d0375av0000ad0000", { "vid=0038", "did=0375", "asm_vid=0000", "asm_did=0000" } },
	{ "fsl-mc:v00001957ddpni", { "vendor=00001957", "obj_type=dpni" } },
	{ "tbsvc:knetworkp00000001v00000001r00000001",
	  { "protocol_key=network", "protocol_id=00000001", "protocol_version=00000001",
	    "protocol_revision=00000001" } },
	{ "tbsvc:kp0000p00000001v00000001r00000001", { "protocol_key=p0000" } },
	{ "ssam:d01c02t02i01f00", { "domain=01", "category=02", "target=02", "instance=01", "function=00" } },
	{ "dfl:t0000f0014", { "type=0000", "feature_id=0014" } },
	{ "ishtp:{33AECD58-B679-4E54-9BD9-A04D34F0C226}", { "guid=33AECD58-B679-4E54-9BD9-A04D34F0C226" } },
	{ "cdx:v10EEd8084sv0000sd0000c000000", { "vendor=10EE", "class=000000" } },
	{ "vfio_cdx:v10EEd8084sv0000sd0000c000000", { "vendor=10EE", "device=8084" } },
	{ "coreboot:t00000017", { "tag=00000017" } },
	{ "acpi:VMGENCTR:VM_GEN_COUNTER:", { "id=VMGENCTR", "id=VM_GEN_COUNTER" } },
	{ "input:b0019v0000p0000e0000-e0,1,4,k71,72,73,94,E0,E1,E3,F0,ram4,lsfw",
	  { "bustype=0019", "ev=0", "ev=1", "ev=4", "key=71", "msc=4" } },
	{ "input:b0003v046DpC52Be0111-e0,1,k71,72,+,ramlsfw", { "key=71", "key=72", "truncated=1" } },
	{ "dmi:bvnHP:bvrV83Ver.01.03.02:bd09/20/2023:br3.2:efr96.36:svnHP:pn:pvr:sku805K7AA#ABA:",
	  { "bios_vendor=HP", "ec_firmware_release=96.36", "product_name=", "product_sku=805K7AA#ABA" } },
	{ "cpu:type:x86,ven0002fam001Amod0002:feature:,0000,02AC",
	  { "arch=x86", "vendor=0002", "family=001A", "model=0002", "feature=0000", "feature=02AC" } },
	{ "cpu:type:power8:feature:,0001,0006", { "arch=power8", "feature=0001" } },
	{ "x86cpu:vendor:0000:family:0006:model:002D:feature:,0000", { "model=002D", "feature=0000" } },
	{ "ccw:t3215m00dtdm", { "cu_type=3215", "cu_model=00" } },
	{ "mdio:00000000001000100001010100010011", { "phy_id=00221513" } },
	{ "mei::01e88543-8050-4380-9d6f-4f9cec704917:01:", { "name=", "version=01" } },
	{ "usb:v1D6Bp0002d0206dc09dsc00dp00ic*isc*ip*", /* the 2005 kernel's device string */
	  { "idVendor=1D6B", "bInterfaceClass=*", "bInterfaceProtocol=*" } },
	{ "hid:b0003v00000461p00004D80", { "bus=0003", "vendor=00000461" } },
	{ "nosuchbus:whatever:else", { "raw=whatever:else" } },
};

static void test_named(gconstpointer data)
{
	const struct named *n = data;
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev;
	g_autofree char *s = NULL;

	if (modalias_parse(ctx, n->modalias, &dev) < 0)
		g_error("%s: %s", n->modalias, test_log_text());
	for (size_t i = 0; i < G_N_ELEMENTS(n->fields) && n->fields[i]; i++) {
		g_auto(GStrv) kv = g_strsplit(n->fields[i], "=", 2);
		int count = modalias_dev_get_count(dev, kv[0]);
		bool found = false;

		g_assert_cmpint(count, >, 0);
		for (int k = 0; k < count; k++) {
			const char *v;
			g_assert_cmpint(modalias_dev_get(dev, kv[0], (unsigned int)k, &v), ==, 0);
			if (strcmp(v, kv[1]) == 0)
				found = true;
		}
		if (!found)
			g_error("%s: no %s", n->modalias, n->fields[i]);
	}
	s = test_format(dev);
	g_assert_cmpstr(s, ==, n->modalias);
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

static void test_unset_optional(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev;

	/* the pre-3.x USB string has no interface number, the old HID no group */
	g_assert_cmpint(modalias_parse(ctx, "usb:v1D6Bp0002d0305dc09dsc00dp01ic09isc00ip00", &dev), ==, 0);
	g_assert_cmpint(modalias_dev_get_count(dev, "bInterfaceNumber"), ==, 0);
	modalias_dev_unref(dev);
	g_assert_cmpint(modalias_parse(ctx, "hid:b0003v00000461p00004D80", &dev), ==, 0);
	g_assert_cmpint(modalias_dev_get_count(dev, "group"), ==, 0);
	modalias_dev_unref(dev);
	/* a trailing newline, as read from sysfs, is allowed */
	g_assert_cmpint(modalias_parse(ctx, "platform:pcspkr\n", &dev), ==, 0);
	g_assert_cmpstr(modalias_dev_get_bus(dev), ==, "platform");
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

struct bad {
	const char *modalias;
	const char *log;
};

static const struct bad bads[] = {
	{ "", "no \"bus:\" prefix" },
	{ "nocolon", "no \"bus:\" prefix" },
	{ ":nobus", "no \"bus:\" prefix" },
	{ "usb:v046DpC52", "idProduct" },
	{ "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in0", "bInterfaceNumber" },
	{ "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00x", "trailing characters" },
	{ "usb:vZZZZpC52Bd1200dc00dsc00dp00ic03isc01ip01in00", "idVendor" },
	{ "pci:v00008086d000027C0sv0000103Csd00003666bc01sc01", "interface" },
	{ "pci:v8086d27C0sv103Csd3666bc01sc01i8a", "field device at offset 9: tag missing" },
	{ "scsi:t-0x0", "type" },
	{ "scsi:t-0x0E", "type" },
	{ "input:b0019v0000p0000e0000-e1,0,kramlsfw", "out of order" },
	{ "input:b0019v0000p0000e0000-e0,1,k1E,ramlsfw", "key" },
	{ "input:b0019v0000p0000e0000-e0,1kramlsfw", "','" },
	{ "input:b0019v0000p0000e0000-e0,1,kramlsf", "sw" },
	{ "input:b0019v0000p0000e0000e0,1,kramlsfw", "unexpected" },
	{ "of:", "name" },
	{ "of:Nfoo", "'T' missing" },
	{ "of:NfooT(null)Cacme,a b", "white space" },
	{ "i3c:dcr63manuf0102part0001", "part_id and extra_info both" },
	{ "i3c:dcr63manuf0102ext0000", "part_id and extra_info both" },
	{ "slim:217:1A0:0:1", "dev_index" },
	{ "slim:217", "prod_code" },
	{ "tbsvc:p00000001v00000001r00000001", "'k' missing" },
	{ "tbsvc:knetp00000001v00000001r0000001", "field protocol_id at offset 3: not of the form" },
	{ "tbsvc:kp00000001v00000001r0000001", "too short" },
	{ "tbsvc:knetworkp00000001v00000001r0000000G", "protocol_revision" },
	{ "ishtp:33AECD58-B679-4E54-9BD9-A04D34F0C226", "{GUID}" },
	{ "ssam:d01c02t02i01", "function" },
	{ "fsl-mc:v1957ddpni", "vendor" },
	{ "acpi:", "no id" },
	{ "acpi:PNP0A08", "':' missing" },
	{ "acpi:PNP0A08::", "empty id" },
	{ "dmi:bvnX", "':' missing" },
	{ "dmi:xyzX:", "unknown or out-of-order" },
	{ "dmi:svnA:bvnB:", "unknown or out-of-order" },
	{ "cpu:type:x86:features:,0000", "\":feature:\" missing" },
	{ "cpu:type:x86:feature:,000", "wrong number of digits" },
	{ "cpu:type:x86:feature:,0001,0000", "out of order" },
	{ "cpu:type:x86,ven0000:feature:", "venXXXXfamXXXXmodXXXX" },
	{ "ccw:t3990mE9dt0000dm00", "dtdm" },
	{ "mdio:0101", "32 binary digits" },
	{ "mdio:0000000000100010000101010001001X", "binary digit" },
	{ "mei:name:uuid:1:", "version" },
	{ "platform:", "empty" },
	{ "nd:t01", "leading zero" },
	{ "platform:a\tb", "control character" },
};

static void test_bad(gconstpointer data)
{
	const struct bad *b = data;
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev = (struct modalias_dev *)0x1;

	g_assert_cmpint(modalias_parse(ctx, b->modalias, &dev), ==, -EINVAL);
	/* the out-parameter is left alone on failure */
	g_assert_true(dev == (struct modalias_dev *)0x1);
	if (!strstr(test_log_text(), b->log))
		g_error("'%s': log '%s' does not name '%s'", b->modalias, test_log_text(), b->log);
	modalias_ctx_unref(ctx);
}

/* A 1 MiB modalias of an unknown bus and a long junk string: no crash, no
 * limit, a clean answer. */
static void test_huge(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	GString *big = g_string_new("weird:");
	struct modalias_dev *dev;
	char *s;

	for (int i = 0; i < (1 << 20); i++)
		g_string_append_c(big, "abc:*[]"[i % 7]);
	g_assert_cmpint(modalias_parse(ctx, big->str, &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, big->str);
	free(s);
	modalias_dev_unref(dev);
	g_string_assign(big, "usb:");
	for (int i = 0; i < (1 << 16); i++)
		g_string_append_c(big, 'v');
	g_assert_cmpint(modalias_parse(ctx, big->str, &dev), ==, -EINVAL);
	g_string_free(big, TRUE);
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/parse/real-roundtrip", test_real_roundtrip);
	for (size_t i = 0; i < G_N_ELEMENTS(nameds); i++) {
		g_autofree char *path = g_strdup_printf("/parse/named/%zu", i);
		g_test_add_data_func(path, &nameds[i], test_named);
	}
	g_test_add_func("/parse/unset-optional", test_unset_optional);
	for (size_t i = 0; i < G_N_ELEMENTS(bads); i++) {
		g_autofree char *path = g_strdup_printf("/parse/bad/%zu", i);
		g_test_add_data_func(path, &bads[i], test_bad);
	}
	g_test_add_func("/parse/huge", test_huge);
	return g_test_run();
}
