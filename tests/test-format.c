/*
 * Building modaliases from IDs: golden strings, each one a real device's
 * sysfs modalias or uevent MODALIAS (the source is named in each row).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "test-common.h"

#define UEV "tests/data/uevents/uevents.txt"

struct golden {
	const char *name;
	const char *bus;
	const char *fields[16]; /* "FIELD=VALUE", added in order */
	const char *expected;
	const char *source;
};

static const struct golden goldens[] = {
	{ "usb/interface", "usb",
	  { "idVendor=1d6b", "idProduct=0002", "bcdDevice=0313", "bDeviceClass=09",
	    "bDeviceSubClass=00", "bDeviceProtocol=01", "bInterfaceClass=09",
	    "bInterfaceSubClass=00", "bInterfaceProtocol=00", "bInterfaceNumber=00" },
	  "usb:v1D6Bp0002d0313dc09dsc00dp01ic09isc00ip00in00", UEV " (HP_400_G2)" },
	{ "usb/interface-0a", "usb",
	  { "idVendor=0x0bdb", "idProduct=0x1926", "bcdDevice=0", "bDeviceClass=0",
	    "bDeviceSubClass=0", "bDeviceProtocol=0", "bInterfaceClass=0a",
	    "bInterfaceSubClass=0", "bInterfaceProtocol=0", "bInterfaceNumber=0a" },
	  "usb:v0BDBp1926d0000dc00dsc00dp00ic0Aisc00ip00in0A", UEV " (LENOVO_T430S)" },
	/* today's kernels always write the interface number: 00 unless given */
	{ "usb/in-unless-given", "usb",
	  { "idVendor=0bda", "idProduct=8153", "bcdDevice=3100", "bInterfaceClass=ff", "bInterfaceSubClass=ff" },
	  "usb:v0BDAp8153d3100dc00dsc00dp00icFFiscFFip00in00", UEV },
	/* an empty value leaves it out, as kernels before 3.x did */
	{ "usb/pre-3.x-no-in", "usb",
	  { "idVendor=1d6b", "idProduct=2", "bcdDevice=305", "bDeviceClass=9",
	    "bDeviceSubClass=0", "bDeviceProtocol=1", "bInterfaceClass=9",
	    "bInterfaceSubClass=0", "bInterfaceProtocol=0", "bInterfaceNumber=" },
	  "usb:v1D6Bp0002d0305dc09dsc00dp01ic09isc00ip00", UEV " (a pre-3.x kernel)" },
	{ "pci/virtio-net", "pci",
	  { "vendor=1af4", "device=1041", "subvendor=1af4", "subdevice=1041", "class=0x020000" },
	  "pci:v00001AF4d00001041sv00001AF4sd00001041bc02sc00i00", "this machine's /sys (virtio-net)" },
	{ "pci/fields", "pci",
	  { "vendor=8086", "device=0d57", "subvendor=0", "subdevice=0", "baseclass=06",
	    "subclass=00", "interface=00" },
	  "pci:v00008086d00000D57sv00000000sd00000000bc06sc00i00", "this machine's /sys (host bridge)" },
	{ "scsi/cdrom", "scsi", { "type=5" }, "scsi:t-0x05", UEV },
	{ "scsi/enclosure", "scsi", { "type=0c" }, "scsi:t-0x0c", UEV },
	{ "ieee1394/fw66", "ieee1394",
	  { "vendor_id=0x002327", "model_id=0x020002", "specifier_id=0x00a02d", "version=0x010001" },
	  "ieee1394:ven00002327mo00020002sp0000A02Dver00010001",
	  "sysfs dump of a ToneWeal FW66 in kernel commit 50ebe56222bf (ALSA: bebob)" },
	{ "input/power-button", "input",
	  { "bustype=19", "vendor=0", "product=1", "version=0", "ev=0,1", "key=74" },
	  "input:b0019v0000p0001e0000-e0,1,k74,ramlsfw", "drivers/input/input.c example, " UEV },
	{ "input/empty-groups", "input",
	  { "bustype=0019", "vendor=0001", "product=0001", "version=0100", "ev=0", "ev=1" },
	  "input:b0019v0001p0001e0100-e0,1,kramlsfw", UEV },
	{ "input/keyboard-bits", "input",
	  { "bustype=19", "vendor=0", "product=0", "version=0", "ev=4,1,0", "key=F0,E3,94,73,72,71,E0,E1",
	    "msc=4" },
	  "input:b0019v0000p0000e0000-e0,1,4,k71,72,73,94,E0,E1,E3,F0,ram4,lsfw", UEV },
	{ "input/truncated", "input",
	  { "bustype=3", "vendor=46d", "product=c52b", "version=111", "ev=0,1,2,3,4,11,14",
	    "key=71,72,73,74,78,7A,7B,7C", "truncated=1" },
	  "input:b0003v046DpC52Be0111-e0,1,2,3,4,11,14,k71,72,73,74,78,7A,7B,7C,+,ramlsfw",
	  "the kernel's truncated form (drivers/input/input.c, 2024)" },
	{ "serio/psmouse", "serio", { "type=05", "proto=00", "id=00", "extra=00" },
	  "serio:ty05pr00id00ex00", UEV },
	{ "hid/with-group", "hid", { "bus=3", "group=1", "vendor=0461", "product=4d22" },
	  "hid:b0003g0001v00000461p00004D22", UEV },
	{ "hid/group-unless-given", "hid", { "bus=3", "vendor=46d", "product=c52b" },
	  "hid:b0003g0000v0000046Dp0000C52B", UEV },
	{ "hid/old-no-group", "hid", { "bus=3", "group=", "vendor=0461", "product=4d80" },
	  "hid:b0003v00000461p00004D80", UEV " (an old kernel)" },
	{ "of/null-type", "of", { "name=optee", "compatible=linaro,optee-tz" },
	  "of:NopteeT(null)Clinaro,optee-tz", UEV },
	{ "of/old-NULL-two-compatibles", "of",
	  { "name=timer", "type=<NULL>", "compatible=arm,cortex-a9-twd-timer", "compatible=arm,smp-twd" },
	  "of:NtimerT<NULL>Carm,cortex-a9-twd-timerCarm,smp-twd", UEV },
	{ "of/type", "of", { "name=serial", "type=serial", "compatible=ibm,opal-console-raw" },
	  "of:NserialTserialCibm,opal-console-raw", UEV },
	{ "of/acpi-empty-type", "of", { "name=crfp", "type=", "compatible=google,cros-ec-uart" },
	  "of:NcrfpTCgoogle,cros-ec-uart", UEV " (an ACPI PRP0001 device)" },
	{ "acpi/two-ids", "acpi", { "id=PNP0A08", "id=PNP0A03" }, "acpi:PNP0A08:PNP0A03:",
	  "this machine's /sys" },
	{ "acpi/one-id", "acpi", { "id=PNP0501" }, "acpi:PNP0501:", "this machine's /sys" },
	{ "platform", "platform", { "name=serial8250" }, "platform:serial8250", "this machine's /sys" },
	{ "i2c", "i2c", { "name=24c02" }, "i2c:24c02", UEV },
	{ "spi", "spi", { "name=spi-nor" }, "spi:spi-nor", UEV },
	{ "auxiliary", "auxiliary", { "name=mlx5_core.eth" }, "auxiliary:mlx5_core.eth", UEV },
	{ "wmi", "wmi", { "guid=05901221-D566-11D1-B2F0-00A0C9062910" },
	  "wmi:05901221-D566-11D1-B2F0-00A0C9062910", UEV },
	/* GUIDs given in either case are written in their bus's ("%pUL", "%pUb") */
	{ "wmi/lower-case-given", "wmi", { "guid=05901221-d566-11d1-b2f0-00a0c9062910" },
	  "wmi:05901221-D566-11D1-B2F0-00A0C9062910", UEV },
	{ "virtio/balloon", "virtio", { "device=5", "vendor=1af4" }, "virtio:d00000005v00001AF4",
	  "this machine's /sys" },
	{ "sdio", "sdio", { "class=0", "vendor=41b", "device=9330" }, "sdio:c00v041Bd9330", UEV },
	{ "pcmcia/prod-ids", "pcmcia",
	  { "manf_id=0", "card_id=0", "func_id=0", "function=0", "device_no=0", "prod_id1=CNF   ",
	    "prod_id2=CD-ROM", "prod_id3=I2" },
	  "pcmcia:m0000c0000f00fn00pfn00pa46D7DB81pb66536591pcE96CA5CCpd00000000",
	  "sysfs of a CNF Cardport CD-ROM (Ubuntu forums, 2009; lspcmcia shows the same hashes)" },
	{ "ccw/with-device", "ccw", { "cu_type=3990", "cu_model=e9", "dev_type=3390", "dev_model=0c" },
	  "ccw:t3990mE9dt3390dm0C", UEV },
	{ "ccw/no-device", "ccw", { "cu_type=3215", "cu_model=0" }, "ccw:t3215m00dtdm", UEV },
	{ "ccw/zero-device", "ccw", { "cu_type=2540", "cu_model=0", "dev_type=0", "dev_model=0" },
	  "ccw:t2540m00dtdm", UEV },
	{ "mdio", "mdio", { "phy_id=0x00221513" }, "mdio:00000000001000100001010100010011",
	  "netdev mail 'net: phy: generate PHY mdio modalias' (R. King, 2021)" },
	{ "dmi", "dmi",
	  { "bios_vendor=Dell Inc.", "bios_version=0.4.7", "bios_date=11/14/2017",
	    "sys_vendor=Dell Inc.", "product_name=Latitude 3590", "product_version=",
	    "board_vendor=Dell Inc.", "board_name=0JK2G3", "board_version=X01",
	    "chassis_vendor=Dell Inc.", "chassis_type=10", "chassis_version=" },
	  "dmi:bvnDellInc.:bvr0.4.7:bd11/14/2017:svnDellInc.:pnLatitude3590:pvr:rvnDellInc.:rn0JK2G3:rvrX01:cvnDellInc.:ct10:cvr:",
	  UEV },
	{ "dmi/sku-pfa", "dmi",
	  { "bios_vendor=American Megatrends Inc.", "bios_version=1.32", "bios_date=11/03/2025",
	    "bios_release=1.32", "sys_vendor=NVIDIA", "product_name=DGXA100 920-23687-2530-000",
	    "product_version=v1.0", "board_vendor=NVIDIA", "board_name=DGXA100",
	    "board_version=555.06901.0010", "chassis_vendor=NVIDIA", "chassis_type=23",
	    "chassis_version=920-23687-2530-000", "product_sku=Default string", "product_family=DGX" },
	  "dmi:bvnAmericanMegatrendsInc.:bvr1.32:bd11/03/2025:br1.32:svnNVIDIA:pnDGXA100920-23687-2530-000:pvrv1.0:rvnNVIDIA:rnDGXA100:rvr555.06901.0010:cvnNVIDIA:ct23:cvr920-23687-2530-000:skuDefaultstring:pfaDGX:",
	  UEV },
	{ "cpu/aarch64", "cpu", { "arch=aarch64", "feature=0,1,2,3,4,5,6,7,b" },
	  "cpu:type:aarch64:feature:,0000,0001,0002,0003,0004,0005,0006,0007,000B", UEV },
	{ "cpu/x86", "cpu",
	  { "arch=x86", "vendor=0", "family=6", "model=8e", "feature=0,1,2,3,4,5,6,7,8,9,b,c,d,e,f,10,11,13,15,16" },
	  "cpu:type:x86,ven0000fam0006mod008E:feature:,0000,0001,0002,0003,0004,0005,0006,0007,0008,0009,000B,000C,000D,000E,000F,0010,0011,0013,0015,0016",
	  UEV " (first 20 features)" },
	{ "x86cpu", "x86cpu", { "vendor=0", "family=6", "model=2d", "feature=0,1,2,3" },
	  "x86cpu:vendor:0000:family:0006:model:002D:feature:,0000,0001,0002,0003",
	  UEV " (an old kernel; first features)" },
	{ "hdaudio", "hdaudio", { "vendor_id=10ec0256", "rev_id=00100002", "api_version=1" },
	  "hdaudio:v10EC0256r00100002a01", UEV },
	{ "amba", "amba", { "periphid=00041320" }, "amba:d00041320", UEV },
	{ "typec", "typec", { "svid=413c", "mode=1" }, "typec:id413Cm01", UEV },
	{ "ulpi/lower-case", "ulpi", { "vendor=0", "product=0" }, "ulpi:v0000p0000", UEV },
	{ "sdw", "sdw", { "mfg_id=1fa", "part_id=4243", "sdw_version=3", "class_id=1" },
	  "sdw:m01FAp4243v03c01", UEV },
	{ "bcma", "bcma", { "manuf=4bf", "id=812", "rev=18", "class=0" }, "bcma:m04BFid0812rev18cl00", UEV },
	{ "css", "css", { "type=0" }, "css:t0", UEV },
	{ "nd/decimal", "nd", { "type=2" }, "nd:t2", UEV },
	{ "mei/empty-name", "mei", { "name=", "uuid=01e88543-8050-4380-9d6f-4f9cec704917", "version=1" },
	  "mei::01e88543-8050-4380-9d6f-4f9cec704917:01:", UEV },
	{ "vio", "vio", { "type=network", "compatible=IBM,l-lan" }, "vio:TnetworkSIBM,l-lan", UEV },
	{ "tee", "tee", { "uuid=ab7a617c-b8e7-4d8f-8301-d09b61036b64" },
	  "tee:ab7a617c-b8e7-4d8f-8301-d09b61036b64", UEV },
	{ "tee/upper-case-given", "tee", { "uuid=AB7A617C-B8E7-4D8F-8301-D09B61036B64" },
	  "tee:ab7a617c-b8e7-4d8f-8301-d09b61036b64", UEV },
	{ "mei/upper-case-given", "mei", { "name=", "uuid=01E88543-8050-4380-9D6F-4F9CEC704917", "version=1" },
	  "mei::01e88543-8050-4380-9d6f-4f9cec704917:01:", UEV },
	{ "pnp", "pnp", { "id=PNP0b00" }, "pnp:dPNP0b00", UEV },
	/* the buses of file2alias.c (6.12) with named fields: no recorded device
	 * string; each is the driver's format string (Linux 6.12), and where a
	 * 6.12 table has an alias for it, IDs it matches (test-oracle checks) */
	{ "of/capital-type", "of", { "name=foo", "type=B", "compatible=vendor,dev" },
	  "of:NfooTBCvendor,dev", "drivers/of/module.c of_modalias(): any character in a type" },
	{ "of/empty-name", "of", { "name=", "compatible=simple-audio-card" },
	  "of:NT(null)Csimple-audio-card", "drivers/of/module.c of_modalias(): an empty name" },
	{ "vfio_pci", "vfio_pci",
	  { "vendor=10de", "device=1db6", "subvendor=10de", "subdevice=1212", "class=030200" },
	  "vfio_pci:v000010DEd00001DB6sv000010DEsd00001212bc03sc02i00",
	  "file2alias.c do_pci_entry()'s vfio_pci: form; matches 6.12's vfio_pci:v*d*… (vfio_pci)" },
	{ "parisc", "parisc", { "hw_type=a", "hversion=70", "hversion_rev=0", "sversion=8c" },
	  "parisc:t0Ahv0070rev00sv0000008C", "arch/parisc/kernel/drivers.c make_modalias()" },
	{ "i3c/random-pid", "i3c", { "dcr=63", "manuf_id=102" }, "i3c:dcr63manuf0102",
	  "drivers/i3c/master.c i3c_device_uevent(), a random provisioned id" },
	{ "i3c/pid", "i3c", { "dcr=63", "manuf_id=102", "part_id=1", "extra_info=0" },
	  "i3c:dcr63manuf0102part0001ext0000", "drivers/i3c/master.c i3c_device_uevent()" },
	{ "slim", "slim", { "manf_id=217", "prod_code=1a0", "dev_index=1", "instance=0" },
	  "slim:217:1a0:1:0",
	  "drivers/slimbus/core.c (the device name); matches arm64 6.12's slim:217:1a0:* (snd_soc_wcd9335)" },
	{ "zorro", "zorro", { "id=02020100" }, "zorro:i02020100", "ZORRO_DEVICE_MODALIAS_FMT" },
	{ "ipack", "ipack", { "format=1", "vendor=f0", "device=22" }, "ipack:f01v000000F0d00000022",
	  "drivers/ipack/ipack.c ipack_uevent()" },
	{ "mipscdmm", "mipscdmm", { "type=23" }, "mipscdmm:t23", "drivers/bus/mips_cdmm.c" },
	{ "rapidio", "rapidio", { "vid=38", "did=375", "asm_vid=0", "asm_did=0" },
	  "rapidio:v0038d0375av0000ad0000", "drivers/rapidio/rio-driver.c rio_uevent()" },
	{ "fsl-mc", "fsl-mc", { "vendor=1957", "obj_type=dpni" }, "fsl-mc:v00001957ddpni",
	  "drivers/bus/fsl-mc/fsl-mc-bus.c; matches arm64 6.12's alias (fsl_dpaa2_eth)" },
	{ "tbsvc", "tbsvc",
	  { "protocol_key=network", "protocol_id=1", "protocol_version=1", "protocol_revision=1" },
	  "tbsvc:knetworkp00000001v00000001r00000001",
	  "drivers/thunderbolt/xdomain.c get_modalias(); matches amd64 6.12's alias (thunderbolt_net)" },
	{ "ssam", "ssam", { "domain=1", "category=2", "target=2", "instance=1", "function=0" },
	  "ssam:d01c02t02i01f00",
	  "drivers/platform/surface/aggregator/bus.c; matches amd64 6.12's alias (surface_battery)" },
	{ "dfl", "dfl", { "type=0", "feature_id=14" }, "dfl:t0000f0014", "drivers/fpga/dfl.c dfl_bus_uevent()" },
	{ "ishtp", "ishtp", { "guid=33AECD58-B679-4E54-9BD9-A04D34F0C226" },
	  "ishtp:{33AECD58-B679-4E54-9BD9-A04D34F0C226}",
	  "drivers/hid/intel-ish-hid/ishtp/bus.c (\"{%pUL}\"); matches amd64 6.12's alias (intel_ishtp_hid)" },
	{ "vmbus/upper-case-given", "vmbus", { "guid=635161F83EDFC546913FF2D2F965ED0E" },
	  "vmbus:635161f83edfc546913ff2d2f965ed0e",
	  "drivers/hv/vmbus_drv.c vmbus_uevent() (\"%*phN\"); matches 6.12's alias (hv_netvsc)" },
	{ "ishtp/lower-case-given", "ishtp", { "guid=33aecd58-b679-4e54-9bd9-a04d34f0c226" },
	  "ishtp:{33AECD58-B679-4E54-9BD9-A04D34F0C226}", "drivers/hid/intel-ish-hid/ishtp/bus.c (\"{%pUL}\")" },
	{ "cdx", "cdx", { "vendor=10ee", "device=8084", "subvendor=0", "subdevice=0", "class=0" },
	  "cdx:v10EEd8084sv0000sd0000c000000", "drivers/cdx/cdx.c modalias_show()" },
	{ "vfio_cdx", "vfio_cdx", { "vendor=10ee", "device=8084", "subvendor=0", "subdevice=0", "class=0" },
	  "vfio_cdx:v10EEd8084sv0000sd0000c000000", "file2alias.c do_cdx_entry()'s vfio_cdx: form" },
	{ "coreboot", "coreboot", { "tag=17" }, "coreboot:t00000017",
	  "drivers/firmware/google/coreboot_table.c; matches 6.12's alias (memconsole_coreboot)" },
};

static void test_golden(gconstpointer data)
{
	const struct golden *g = data;
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev, *back;
	g_autofree char *s = NULL, *s2 = NULL;

	g_test_message("source: %s", g->source);
	g_assert_cmpint(modalias_dev_new(ctx, g->bus, &dev), ==, 0);
	for (size_t i = 0; i < G_N_ELEMENTS(g->fields) && g->fields[i]; i++) {
		g_autofree char *f = g_strdup(g->fields[i]);
		char *eq = strchr(f, '=');
		g_assert_nonnull(eq);
		*eq = '\0';
		if (modalias_dev_add(dev, f, eq + 1) < 0)
			g_error("%s: cannot add %s: %s", g->name, g->fields[i], test_log_text());
	}
	s = test_format(dev);
	g_assert_cmpstr(s, ==, g->expected);
	/* and the string takes apart into the same fields */
	g_assert_cmpint(modalias_parse(ctx, s, &back), ==, 0);
	s2 = test_format(back);
	g_assert_cmpstr(s2, ==, g->expected);
	g_assert_cmpstr(modalias_dev_get_bus(back), ==, g->bus);
	modalias_dev_unref(back);
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

/* Every bus in the table is covered by a golden row. */
static void test_every_bus_has_golden(void)
{
	const char *bus;

	for (unsigned int i = 0; (bus = modalias_bus_name(i)); i++) {
		bool found = false;
		static const char *const no_real_string[] = {
			/* buses whose devices we have no real string of: covered by parse tests */
			"rpmsg", "mhi", "mhi_ep", "vchiq", "serdev", "mmc", "eisa", "ssb", "ap", "idxd",
		};
		for (size_t k = 0; k < G_N_ELEMENTS(goldens); k++)
			if (strcmp(goldens[k].bus, bus) == 0)
				found = true;
		for (size_t k = 0; k < G_N_ELEMENTS(no_real_string); k++)
			if (strcmp(no_real_string[k], bus) == 0)
				found = true;
		if (!found)
			g_error("bus %s has no golden test", bus);
	}
}

/* ---- bad input --------------------------------------------------------- */

struct bad_set {
	const char *bus, *field, *value;
	int err;
	const char *log; /* the message must name this */
};

static const struct bad_set bad_sets[] = {
	{ "usb", "idVendor", "12345", -ERANGE, "idVendor" },
	{ "usb", "idVendor", "xyz", -EINVAL, "not a hexadecimal number" },
	{ "usb", "idVendor", "", -EINVAL, "idVendor" },
	{ "usb", "idVendor", "0x", -EINVAL, "idVendor" },
	{ "usb", "bInterfaceClass", "100", -ERANGE, "out of range" },
	{ "usb", "nosuchfield", "1", -ENOENT, "unknown field 'nosuchfield' of bus usb" },
	{ "pci", "class", "1000000", -ERANGE, "class" },
	{ "pci", "vendor", "ffffffffffffffffff", -ERANGE, "vendor" },
	{ "scsi", "type", "-1", -EINVAL, "type" },
	{ "input", "ev", "0,,1", -EINVAL, "ev" },
	{ "input", "key", "zz", -EINVAL, "key" },
	{ "nd", "type", "1a", -EINVAL, "decimal" },
	{ "platform", "name", "", -EINVAL, "name" },
	{ "platform", "name", "bad\nname", -EINVAL, "name" },
	{ "mdio", "phy_id", "100000000", -ERANGE, "phy_id" },
};

static void test_bad_set(gconstpointer data)
{
	const struct bad_set *b = data;
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev;

	g_assert_cmpint(modalias_dev_new(ctx, b->bus, &dev), ==, 0);
	g_assert_cmpint(modalias_dev_set(dev, b->field, b->value), ==, b->err);
	g_assert_nonnull(strstr(test_log_text(), b->log));
	/* nothing was set */
	if (b->err != -ENOENT)
		g_assert_cmpint(modalias_dev_get_count(dev, b->field), ==, 0);
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

static void test_api_misuse(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev;
	const char *v;
	uint64_t u;
	char *s;

	g_assert_cmpint(modalias_dev_new(ctx, "nosuchbus", &dev), ==, -ENOENT);
	g_assert_cmpint(modalias_dev_new(NULL, "usb", &dev), ==, -EINVAL);
	g_assert_cmpint(modalias_dev_new(ctx, NULL, &dev), ==, -EINVAL);
	g_assert_cmpint(modalias_dev_format(NULL, &s), ==, -EINVAL);
	g_assert_null(modalias_dev_unref(NULL));
	g_assert_null(modalias_ctx_unref(NULL));
	g_assert_cmpint(modalias_dev_new(ctx, "usb", &dev), ==, 0);
	g_assert_cmpint(modalias_dev_get(dev, "idVendor", 0, &v), ==, -ENOENT);
	g_assert_cmpint(modalias_dev_set_uint(dev, "idVendor", 0x10000), ==, -ERANGE);
	g_assert_cmpint(modalias_dev_set_uint(dev, "idVendor", 0x46d), ==, 0);
	g_assert_cmpint(modalias_dev_get(dev, "idVendor", 0, &v), ==, 0);
	g_assert_cmpstr(v, ==, "046D");
	g_assert_cmpint(modalias_dev_get(dev, "idVendor", 1, &v), ==, -ERANGE);
	g_assert_cmpint(modalias_dev_get_uint(dev, "idVendor", 0, &u), ==, 0);
	g_assert_cmpuint(u, ==, 0x46d);
	g_assert_cmpint(modalias_dev_set(dev, "bInterfaceNumber", "*"), ==, 0);
	g_assert_cmpint(modalias_dev_get_uint(dev, "bInterfaceNumber", 0, &u), ==, -EDOM);
	g_assert_cmpint(modalias_dev_unset(dev, "bInterfaceNumber"), ==, 0);
	g_assert_cmpint(modalias_dev_get_count(dev, "bInterfaceNumber"), ==, 0);
	g_assert_cmpint(modalias_dev_get_count(dev, "nosuch"), ==, -ENOENT);
	/* unset fields are zero */
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "usb:v046Dp0000d0000dc00dsc00dp00ic00isc00ip00");
	free(s);
	/* a ref keeps it alive */
	g_assert_true(modalias_dev_ref(dev) == dev);
	g_assert_true(modalias_dev_unref(dev) == dev);
	g_assert_null(modalias_dev_unref(dev));
	g_assert_true(modalias_ctx_ref(ctx) == ctx);
	g_assert_true(modalias_ctx_unref(ctx) == ctx);
	g_assert_null(modalias_ctx_unref(ctx));
}

static void test_setters(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev;
	g_autofree char *s = NULL, *s2 = NULL;

	/* list fields: set replaces, add appends and keeps bits ascending, unique */
	g_assert_cmpint(modalias_dev_new(ctx, "input", &dev), ==, 0);
	g_assert_cmpint(modalias_dev_set(dev, "ev", "3,1"), ==, 0);
	g_assert_cmpint(modalias_dev_add(dev, "ev", "1,0"), ==, 0);
	g_assert_cmpint(modalias_dev_get_count(dev, "ev"), ==, 3);
	/* key bits below 0x71 (KEY_MIN_INTERESTING) are never in a modalias */
	g_assert_cmpint(modalias_dev_add(dev, "key", "1e"), ==, -ERANGE);
	g_assert_nonnull(strstr(test_log_text(), "key"));
	g_assert_cmpint(modalias_dev_add(dev, "key", "71"), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "input:b0000v0000p0000e0000-e0,1,3,k71,ramlsfw");
	g_assert_cmpint(modalias_dev_set(dev, "ev", "5"), ==, 0);
	s2 = test_format(dev);
	g_assert_cmpstr(s2, ==, "input:b0000v0000p0000e0000-e5,k71,ramlsfw");
	modalias_dev_unref(dev);

	/* dmi: the kernel's filter drops spaces and ':' */
	g_assert_cmpint(modalias_dev_new(ctx, "dmi", &dev), ==, 0);
	g_assert_cmpint(modalias_dev_set(dev, "sys_vendor", "LENOVO : Corp"), ==, 0);
	g_free(s);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "dmi:svnLENOVOCorp:");
	modalias_dev_unref(dev);

	/* of: white space in a compatible becomes '_' */
	g_assert_cmpint(modalias_dev_new(ctx, "of", &dev), ==, 0);
	g_assert_cmpint(modalias_dev_set(dev, "name", "foo"), ==, 0);
	g_assert_cmpint(modalias_dev_add(dev, "compatible", "acme,a b"), ==, 0);
	g_free(s);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "of:NfooT(null)Cacme,a_b");
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

/* A device made to be built starts as today's kernels write it: the
 * fields only old kernels left out (USB's interface number, HID's group)
 * are zero unless given, and an empty value leaves them out; a string
 * parsed without them keeps them out (test-parse). */
static void test_today(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev;
	const char *v;
	char *s;

	g_assert_cmpint(modalias_dev_new(ctx, "usb", &dev), ==, 0);
	g_assert_cmpint(modalias_dev_get(dev, "bInterfaceNumber", 0, &v), ==, 0);
	g_assert_cmpstr(v, ==, "00");
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "usb:v0000p0000d0000dc00dsc00dp00ic00isc00ip00in00");
	free(s);
	g_assert_cmpint(modalias_dev_set(dev, "bInterfaceNumber", ""), ==, 0);
	g_assert_cmpint(modalias_dev_get_count(dev, "bInterfaceNumber"), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "usb:v0000p0000d0000dc00dsc00dp00ic00isc00ip00");
	free(s);
	/* a field the kernel always writes is not left out */
	g_assert_cmpint(modalias_dev_set(dev, "idVendor", ""), ==, -EINVAL);
	modalias_dev_unref(dev);

	g_assert_cmpint(modalias_dev_new(ctx, "hid", &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "hid:b0000g0000v00000000p00000000");
	free(s);
	g_assert_cmpint(modalias_dev_add(dev, "group", ""), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "hid:b0000v00000000p00000000");
	free(s);
	modalias_dev_unref(dev);

	/* where empty is a value (a DMI field), it is one */
	g_assert_cmpint(modalias_dev_new(ctx, "dmi", &dev), ==, 0);
	g_assert_cmpint(modalias_dev_set(dev, "product_version", ""), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "dmi:pvr:");
	free(s);
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

/* A cpu modalias of several KiB: no fixed buffer anywhere. */
static void test_long_cpu(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev, *back;
	g_autofree char *s = NULL, *s2 = NULL;

	g_assert_cmpint(modalias_dev_new(ctx, "cpu", &dev), ==, 0);
	g_assert_cmpint(modalias_dev_set(dev, "arch", "x86"), ==, 0);
	g_assert_cmpint(modalias_dev_set_uint(dev, "vendor", 0), ==, 0);
	for (unsigned int i = 0; i < 2000; i += 2) {
		char bit[16];
		snprintf(bit, sizeof(bit), "%x", i);
		g_assert_cmpint(modalias_dev_add(dev, "feature", bit), ==, 0);
	}
	s = test_format(dev);
	g_assert_cmpuint(strlen(s), >, 4000);
	g_assert_true(g_str_has_prefix(s, "cpu:type:x86,ven0000fam0000mod0000:feature:,0000,0002,"));
	g_assert_true(g_str_has_suffix(s, ",07CC,07CE"));
	g_assert_cmpint(modalias_parse(ctx, s, &back), ==, 0);
	s2 = test_format(back);
	g_assert_cmpstr(s, ==, s2);
	g_assert_cmpint(modalias_dev_get_count(back, "feature"), ==, 1000);
	modalias_dev_unref(back);
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

/* Every function that takes a field name says "unknown field 'X' of bus
 * Y" for one the bus does not have (not ENOENT's "No such file or
 * directory" in the front ends); an unset field is -ENOENT, quietly. */
/* Which fields hold lists: the buses' own declarations, asked through the
 * API (front ends used to guess from the help text). */
static void test_field_is_list(void)
{
	static const struct {
		const char *bus, *field;
		int want;
	} rows[] = {
		{ "input", "key", 1 },     { "input", "ev", 1 },       { "input", "bustype", 0 },
		{ "input", "truncated", 0 }, { "of", "compatible", 1 }, { "of", "name", 0 },
		{ "acpi", "id", 1 },       { "cpu", "feature", 1 },    { "cpu", "arch", 0 },
		{ "usb", "idVendor", 0 },  { "pci", "class", 0 },      { "dmi", "bios_vendor", 0 },
		{ "usb", "nosuch", -ENOENT }, { "nosuchbus", "x", -ENOENT },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		int r = modalias_bus_field_is_list(rows[i].bus, rows[i].field);

		if (r != rows[i].want)
			g_error("%s %s: %d, wanted %d", rows[i].bus, rows[i].field, r, rows[i].want);
	}
	g_assert_cmpint(modalias_bus_field_is_list(NULL, "x"), ==, -EINVAL);
	g_assert_cmpint(modalias_bus_field_is_list("usb", NULL), ==, -EINVAL);
	/* every list field of every bus takes modalias_dev_add() */
	for (unsigned int b = 0; modalias_bus_name(b); b++) {
		const char *bus = modalias_bus_name(b), *f;

		for (unsigned int i = 0; (f = modalias_bus_field_name(bus, i)); i++)
			g_assert_cmpint(modalias_bus_field_is_list(bus, f), >=, 0);
	}
}

static void test_unknown_field(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev;
	const char *v;
	uint64_t u;
	int r;

	g_assert_cmpint(modalias_dev_new(ctx, "usb", &dev), ==, 0);
	for (int call = 0; call < 7; call++) {
		test_log_clear();
		r = call == 0 ? modalias_dev_set(dev, "nosuch", "1") :
		    call == 1 ? modalias_dev_add(dev, "nosuch", "1") :
		    call == 2 ? modalias_dev_set_uint(dev, "nosuch", 1) :
		    call == 3 ? modalias_dev_unset(dev, "nosuch") :
		    call == 4 ? modalias_dev_get_count(dev, "nosuch") :
		    call == 5 ? modalias_dev_get(dev, "nosuch", 0, &v) :
				modalias_dev_get_uint(dev, "nosuch", 0, &u);
		g_assert_cmpint(r, ==, -ENOENT);
		g_assert_cmpstr(test_log_text(), ==, "unknown field 'nosuch' of bus usb\n");
	}
	test_log_clear();
	g_assert_cmpint(modalias_dev_get(dev, "idVendor", 0, &v), ==, -ENOENT);
	g_assert_cmpint(modalias_dev_get_uint(dev, "idVendor", 0, &u), ==, -ENOENT);
	g_assert_cmpstr(test_log_text(), ==, "");
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

/* Devices of one context made and released in several threads at once (the
 * agent's workers do): the context's count of references stays exact.  With
 * a plain counter, lost updates free the context early or never. */
#define SHARED_CTX_THREADS 4
#define SHARED_CTX_ROUNDS 200000

static gpointer make_devices(gpointer data)
{
	struct modalias_ctx *ctx = data;

	for (int i = 0; i < SHARED_CTX_ROUNDS; i++) {
		struct modalias_dev *dev = NULL;
		g_assert_cmpint(modalias_dev_new(ctx, "usb", &dev), ==, 0);
		modalias_dev_unref(dev);
	}
	return NULL;
}

static void test_shared_ctx(void)
{
	struct modalias_ctx *ctx = NULL;
	GThread *threads[SHARED_CTX_THREADS];

	g_assert_cmpint(modalias_ctx_new(&ctx), ==, 0);
	modalias_ctx_ref(ctx);
	for (int i = 0; i < SHARED_CTX_THREADS; i++)
		threads[i] = g_thread_new("devices", make_devices, ctx);
	for (int i = 0; i < SHARED_CTX_THREADS; i++)
		g_thread_join(threads[i]);
	/* two references left: the first release keeps it, the second frees it */
	g_assert_nonnull(modalias_ctx_unref(ctx));
	g_assert_null(modalias_ctx_unref(ctx));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree char *path = g_strdup_printf("/format/golden/%s", goldens[i].name);
		g_test_add_data_func(path, &goldens[i], test_golden);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(bad_sets); i++) {
		g_autofree char *path = g_strdup_printf("/format/bad/%s/%s/%zu", bad_sets[i].bus,
							bad_sets[i].field, i);
		g_test_add_data_func(path, &bad_sets[i], test_bad_set);
	}
	g_test_add_func("/format/every-bus", test_every_bus_has_golden);
	g_test_add_func("/format/api", test_api_misuse);
	g_test_add_func("/format/setters", test_setters);
	g_test_add_func("/format/today", test_today);
	g_test_add_func("/format/long-cpu", test_long_cpu);
	g_test_add_func("/format/unknown-field", test_unknown_field);
	g_test_add_func("/format/field-is-list", test_field_is_list);
	g_test_add_func("/format/shared-ctx", test_shared_ctx);
	return g_test_run();
}
