/*
 * libmodalias - the buses: what each kernel bus writes in a device's
 * modalias, field by field (drivers/…, the device side of file2alias)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libmodalias-private.h"

#define HEX(n, t, w, h) { .name = (n), .tag = (t), .kind = FK_HEX, .width = (w), .help = (h) }
#define HEXF(n, t, w, f, h) { .name = (n), .tag = (t), .kind = FK_HEX, .width = (w), .flags = (f), .help = (h) }
#define DEC(n, t, h) { .name = (n), .tag = (t), .kind = FK_DEC, .max = UINT32_MAX, .help = (h) }
#define STR(n, t, f, h) { .name = (n), .tag = (t), .kind = FK_STR, .flags = (f), .help = (h) }
#define LIST(n, t, w, h) { .name = (n), .tag = (t), .kind = FK_HEXLIST, .width = (w), .flags = FF_SORTED, .max = UINT32_MAX, .help = (h) }
#define SETTER(n, h) { .name = (n), .tag = "", .kind = FK_STR, .flags = FF_SETTER | FF_EMPTY_OK, .help = (h) }
#define BUS(n, p, f, ...) { .name = (n), .prefix = (p), .fields = (f), .n_fields = ARRAY_SIZE(f), __VA_ARGS__ }

/* ---- usb: drivers/usb/core/message.c usb_if_uevent() ------------------ */
static const struct field_desc usb_fields[] = {
	HEX("idVendor", "v", 4, "vendor id (hex)"),
	HEX("idProduct", "p", 4, "product id (hex)"),
	HEX("bcdDevice", "d", 4, "device release number (hex, BCD)"),
	HEX("bDeviceClass", "dc", 2, "device class (hex)"),
	HEX("bDeviceSubClass", "dsc", 2, "device subclass (hex)"),
	HEX("bDeviceProtocol", "dp", 2, "device protocol (hex)"),
	HEX("bInterfaceClass", "ic", 2, "interface class (hex)"),
	HEX("bInterfaceSubClass", "isc", 2, "interface subclass (hex)"),
	HEX("bInterfaceProtocol", "ip", 2, "interface protocol (hex)"),
	HEXF("bInterfaceNumber", "in", 2, FF_OPTIONAL,
	     "interface number (hex); unset: left out, as kernels before 3.x did"),
};

/* ---- pci: drivers/pci/pci-sysfs.c modalias_show() --------------------- */
static const struct field_desc pci_fields[] = {
	HEX("vendor", "v", 8, "vendor id (hex)"),
	HEX("device", "d", 8, "device id (hex)"),
	HEX("subvendor", "sv", 8, "subsystem vendor id (hex)"),
	HEX("subdevice", "sd", 8, "subsystem device id (hex)"),
	HEX("baseclass", "bc", 2, "base class, bits 23-16 of the class (hex)"),
	HEX("subclass", "sc", 2, "subclass, bits 15-8 of the class (hex)"),
	HEX("interface", "i", 2, "programming interface, bits 7-0 of the class (hex)"),
	SETTER("class", "the 24-bit class code (hex): sets baseclass, subclass and interface"),
};

/* ---- scsi: include/scsi/scsi_device.h SCSI_DEVICE_MODALIAS_FMT -------- */
static const struct field_desc scsi_fields[] = {
	HEXF("type", "t-0x", 2, FF_LOWER, "peripheral device type (hex, written lower-case)"),
};

/* ---- ieee1394: drivers/firewire/core-device.c get_modalias() ---------- */
static const struct field_desc ieee1394_fields[] = {
	HEX("vendor_id", "ven", 8, "vendor id (hex)"),
	HEX("model_id", "mo", 8, "model id (hex)"),
	HEX("specifier_id", "sp", 8, "unit specifier id (hex)"),
	HEX("version", "ver", 8, "unit software version (hex)"),
};

/* ---- input: drivers/input/input.c input_print_modalias() -------------- */
enum { IN_BUSTYPE, IN_VENDOR, IN_PRODUCT, IN_VERSION, IN_EV, IN_KEY, IN_REL, IN_ABS,
       IN_MSC, IN_LED, IN_SND, IN_FF, IN_SW, IN_TRUNCATED };
#define INPUT_KEY_MIN_INTERESTING 0x71
static const struct field_desc input_fields[] = {
	HEX("bustype", "b", 4, "bus type (hex)"),
	HEX("vendor", "v", 4, "vendor id (hex)"),
	HEX("product", "p", 4, "product id (hex)"),
	HEX("version", "e", 4, "version (hex)"),
	LIST("ev", "e", 0, "event types: bit numbers (hex, comma-separated)"),
	{ .name = "key", .tag = "k", .kind = FK_HEXLIST, .flags = FF_SORTED, .max = UINT32_MAX,
	  .min = INPUT_KEY_MIN_INTERESTING,
	  .help = "keys from 0x71 (KEY_MIN_INTERESTING) up: bit numbers (hex, comma-separated)" },
	LIST("rel", "r", 0, "relative axes: bit numbers (hex)"),
	LIST("abs", "a", 0, "absolute axes: bit numbers (hex)"),
	LIST("msc", "m", 0, "misc events: bit numbers (hex)"),
	LIST("led", "l", 0, "leds: bit numbers (hex)"),
	LIST("snd", "s", 0, "sounds: bit numbers (hex)"),
	LIST("ff", "f", 0, "force feedback: bit numbers (hex)"),
	LIST("sw", "w", 0, "switches: bit numbers (hex)"),
	{ .name = "truncated", .tag = "", .kind = FK_DEC, .max = 1,
	  .help = "1 when the kernel cut the key list short to fit the uevent (\"+,\")" },
};

/* ---- serio: drivers/input/serio/serio.c serio_uevent() ---------------- */
static const struct field_desc serio_fields[] = {
	HEX("type", "ty", 2, "serio type (hex)"),
	HEX("proto", "pr", 2, "protocol (hex)"),
	HEX("id", "id", 2, "id (hex)"),
	HEX("extra", "ex", 2, "extra (hex)"),
};

/* ---- hid: drivers/hid/hid-core.c hid_uevent() ------------------------- */
static const struct field_desc hid_fields[] = {
	HEX("bus", "b", 4, "bus (hex)"),
	HEXF("group", "g", 4, FF_OPTIONAL, "group (hex); unset: left out, as old kernels did"),
	HEX("vendor", "v", 8, "vendor id (hex)"),
	HEX("product", "p", 8, "product id (hex)"),
};

/* ---- of: drivers/of/module.c of_modalias() ---------------------------- */
enum { OF_NAME, OF_TYPE, OF_COMPATIBLE };
static const struct field_desc of_fields[] = {
	STR("name", "N", FF_EMPTY_OK, "node name without the unit address"),
	STR("type", "T", FF_EMPTY_OK,
	    "device_type; unset: \"(null)\" (older kernels wrote \"<NULL>\")"),
	{ .name = "compatible", .tag = "C", .kind = FK_STRLIST,
	  .help = "compatible strings, one value each, in order" },
};

/* ---- acpi: drivers/acpi/device_sysfs.c create_pnp_modalias() ---------- */
static const struct field_desc acpi_fields[] = {
	{ .name = "id", .tag = "", .kind = FK_STRLIST,
	  .help = "hardware and compatible ids (_HID, _CID, _CLS), one value each" },
};

/* ---- buses that write one name: platform, i2c, spi, … ----------------- */
static const struct field_desc name_fields[] = {
	STR("name", "", 0, "device name"),
};
static const struct field_desc guid_fields[] = {
	STR("guid", "", 0, "GUID as the kernel writes it"),
};
static const struct field_desc uuid_fields[] = {
	STR("uuid", "", 0, "UUID as the kernel writes it"),
};
static const struct field_desc pnp_fields[] = {
	STR("id", "d", 0, "PNP id"),
};
static const struct field_desc eisa_fields[] = {
	STR("sig", "s", 0, "EISA signature"),
};

/* ---- numeric buses ---------------------------------------------------- */
static const struct field_desc virtio_fields[] = {
	HEX("device", "d", 8, "device id (hex)"),
	HEX("vendor", "v", 8, "vendor id (hex)"),
};
static const struct field_desc sdio_fields[] = {
	HEX("class", "c", 2, "standard interface class (hex)"),
	HEX("vendor", "v", 4, "vendor id (hex)"),
	HEX("device", "d", 4, "device id (hex)"),
};
enum { PCMCIA_HASH1 = 5, PCMCIA_PROD1 = 9 };
static const struct field_desc pcmcia_fields[] = {
	HEX("manf_id", "m", 4, "manufacturer id (hex)"),
	HEX("card_id", "c", 4, "card id (hex)"),
	HEX("func_id", "f", 2, "function id (hex)"),
	HEX("function", "fn", 2, "function number (hex)"),
	HEX("device_no", "pfn", 2, "device number (hex)"),
	HEX("prod_id_hash1", "pa", 8, "crc32 of product id string 1 (hex)"),
	HEX("prod_id_hash2", "pb", 8, "crc32 of product id string 2 (hex)"),
	HEX("prod_id_hash3", "pc", 8, "crc32 of product id string 3 (hex)"),
	HEX("prod_id_hash4", "pd", 8, "crc32 of product id string 4 (hex)"),
	SETTER("prod_id1", "product id string 1: sets prod_id_hash1"),
	SETTER("prod_id2", "product id string 2: sets prod_id_hash2"),
	SETTER("prod_id3", "product id string 3: sets prod_id_hash3"),
	SETTER("prod_id4", "product id string 4: sets prod_id_hash4"),
};
static const struct field_desc ccw_fields[] = {
	HEX("cu_type", "t", 4, "control unit type (hex)"),
	HEX("cu_model", "m", 2, "control unit model (hex)"),
	HEX("dev_type", "dt", 4, "device type (hex); 0 or unset: \"dtdm\""),
	HEX("dev_model", "dm", 2, "device model (hex)"),
};
static const struct field_desc mdio_fields[] = {
	HEX("phy_id", "", 8, "PHY id (hex), written as 32 binary digits"),
};
static const struct field_desc hdaudio_fields[] = {
	HEX("vendor_id", "v", 8, "vendor and device id (hex)"),
	HEX("rev_id", "r", 8, "revision id (hex)"),
	HEX("api_version", "a", 2, "api version (hex)"),
};
static const struct field_desc amba_fields[] = {
	HEX("periphid", "d", 8, "peripheral id (hex)"),
};
static const struct field_desc typec_fields[] = {
	HEX("svid", "id", 4, "standard or vendor id (hex)"),
	HEX("mode", "m", 2, "mode (hex)"),
};
static const struct field_desc ulpi_fields[] = {
	HEXF("vendor", "v", 4, FF_LOWER, "vendor id (hex, written lower-case)"),
	HEXF("product", "p", 4, FF_LOWER, "product id (hex, written lower-case)"),
};
static const struct field_desc sdw_fields[] = {
	HEX("mfg_id", "m", 4, "manufacturer id (hex)"),
	HEX("part_id", "p", 4, "part id (hex)"),
	HEX("sdw_version", "v", 2, "SoundWire version (hex)"),
	HEX("class_id", "c", 2, "class id (hex)"),
};
static const struct field_desc bcma_fields[] = {
	HEX("manuf", "m", 4, "manufacturer (hex)"),
	HEX("id", "id", 4, "core id (hex)"),
	HEX("rev", "rev", 2, "revision (hex)"),
	HEX("class", "cl", 2, "class (hex)"),
};
static const struct field_desc ssb_fields[] = {
	HEX("vendor", "v", 4, "vendor (hex)"),
	HEX("coreid", "id", 4, "core id (hex)"),
	HEX("revision", "rev", 2, "revision (hex)"),
};
static const struct field_desc css_fields[] = {
	HEXF("type", "t", 1, FF_VARWIDTH, "subchannel type (hex, unpadded)"),
};
static const struct field_desc ap_fields[] = {
	HEX("type", "t", 2, "device type (hex)"),
};
static const struct field_desc dec_type_fields[] = {
	DEC("type", "t", "device type (decimal)"),
};

/* ---- mei: drivers/misc/mei/bus.c mei_cl_device_uevent() --------------- */
static const struct field_desc mei_fields[] = {
	STR("name", "", FF_EMPTY_OK, "client name (may be empty)"),
	STR("uuid", "", 0, "client UUID, lower-case"),
	HEX("version", "", 2, "client protocol version (hex)"),
};

/* ---- vio: arch/powerpc/platforms/pseries/vio.c ------------------------ */
static const struct field_desc vio_fields[] = {
	STR("type", "T", 0, "device_type"),
	STR("compatible", "S", 0, "first compatible string"),
};

/* ---- dmi: drivers/firmware/dmi-id.c get_modalias() -------------------- */
#define DMI(n, t) STR(n, t, FF_OPTIONAL | FF_EMPTY_OK, "DMI " n " (spaces, control characters and ':' dropped)")
static const struct field_desc dmi_fields[] = {
	DMI("bios_vendor", "bvn"), DMI("bios_version", "bvr"), DMI("bios_date", "bd"),
	DMI("bios_release", "br"), DMI("ec_firmware_release", "efr"),
	DMI("sys_vendor", "svn"), DMI("product_name", "pn"), DMI("product_version", "pvr"),
	DMI("board_vendor", "rvn"), DMI("board_name", "rn"), DMI("board_version", "rvr"),
	DMI("chassis_vendor", "cvn"), DMI("chassis_type", "ct"), DMI("chassis_version", "cvr"),
	DMI("product_sku", "sku"), DMI("product_family", "pfa"),
};

/* ---- cpu: drivers/base/cpu.c print_cpu_modalias(), and x86cpu ---------- */
enum { CPU_ARCH, CPU_VENDOR, CPU_FAMILY, CPU_MODEL, CPU_FEATURE };
static const struct field_desc cpu_fields[] = {
	STR("arch", "", 0, "CPU type (x86, aarch64, power8, …)"),
	HEXF("vendor", "ven", 4, FF_OPTIONAL, "x86 vendor (hex)"),
	HEXF("family", "fam", 4, FF_OPTIONAL, "x86 family (hex)"),
	HEXF("model", "mod", 4, FF_OPTIONAL, "x86 model (hex)"),
	LIST("feature", "", 4, "feature bits (hex, comma-separated)"),
};
enum { X86_VENDOR, X86_FAMILY, X86_MODEL, X86_FEATURE };
static const struct field_desc x86cpu_fields[] = {
	HEX("vendor", "vendor:", 4, "vendor (hex)"),
	HEX("family", ":family:", 4, "family (hex)"),
	HEX("model", ":model:", 4, "model (hex)"),
	LIST("feature", "", 4, "feature bits (hex, comma-separated)"),
};

/* ---- the buses of scripts/mod/file2alias.c (Linux 6.12) that the kernel
 * writes with named fields; the field names are mod_devicetable.h's, the
 * strings each bus's uevent/modalias_show() ones ---------------------------- */

/* arch/parisc/kernel/drivers.c make_modalias() */
static const struct field_desc parisc_fields[] = {
	HEX("hw_type", "t", 2, "hardware type (hex)"),
	HEX("hversion", "hv", 4, "hardware version (hex)"),
	HEX("hversion_rev", "rev", 2, "hardware version revision (hex)"),
	HEX("sversion", "sv", 8, "software version (hex)"),
};
/* drivers/i3c/master.c i3c_device_uevent() */
enum { I3C_DCR, I3C_MANUF, I3C_PART, I3C_EXT };
static const struct field_desc i3c_fields[] = {
	HEX("dcr", "dcr", 2, "device characteristics register (hex)"),
	HEX("manuf_id", "manuf", 4, "manufacturer id of the provisioned id (hex)"),
	HEXF("part_id", "part", 4, FF_OPTIONAL,
	     "part id (hex); part_id and extra_info unset: both left out, as for a random provisioned id"),
	HEXF("extra_info", "ext", 4, FF_OPTIONAL, "extra info (hex), written with part_id"),
};
/* drivers/slimbus/core.c slim_device_uevent(): the device's name, "%x:%x:%x:%x" */
#define SLIM(n, t, h) { .name = (n), .tag = (t), .kind = FK_HEX, .width = 1, \
			.flags = FF_LOWER | FF_VARWIDTH, .max = 0xffff, .help = (h) }
static const struct field_desc slim_fields[] = {
	SLIM("manf_id", "", "manufacturer id (hex, lower-case, unpadded)"),
	SLIM("prod_code", ":", "product code (hex, lower-case, unpadded)"),
	SLIM("dev_index", ":", "device index (hex, lower-case, unpadded)"),
	SLIM("instance", ":", "instance (hex, lower-case, unpadded)"),
};
/* drivers/zorro/zorro-driver.c: ZORRO_DEVICE_MODALIAS_FMT */
static const struct field_desc zorro_fields[] = {
	HEX("id", "i", 8, "device id (hex)"),
};
/* drivers/ipack/ipack.c ipack_uevent() */
static const struct field_desc ipack_fields[] = {
	HEX("format", "f", 2, "id format (hex)"),
	HEX("vendor", "v", 8, "vendor id (hex)"),
	HEX("device", "d", 8, "device id (hex)"),
};
/* drivers/bus/mips_cdmm.c mips_cdmm_uevent() */
static const struct field_desc mipscdmm_fields[] = {
	HEX("type", "t", 2, "device type (hex)"),
};
/* drivers/rapidio/rio-driver.c rio_uevent() */
static const struct field_desc rapidio_fields[] = {
	HEX("vid", "v", 4, "vendor id (hex)"),
	HEX("did", "d", 4, "device id (hex)"),
	HEX("asm_vid", "av", 4, "assembly vendor id (hex)"),
	HEX("asm_did", "ad", 4, "assembly device id (hex)"),
};
/* drivers/bus/fsl-mc/fsl-mc-bus.c fsl_mc_bus_uevent() */
static const struct field_desc fsl_mc_fields[] = {
	HEX("vendor", "v", 8, "vendor id (hex; a 16-bit id written with 8 digits)"),
	STR("obj_type", "d", 0, "object type (dpni, dprtc, …)"),
};
/* drivers/thunderbolt/xdomain.c get_modalias() */
enum { TBSVC_KEY, TBSVC_ID };
static const struct field_desc tbsvc_fields[] = {
	STR("protocol_key", "k", 0, "protocol key (up to 8 characters)"),
	HEX("protocol_id", "p", 8, "protocol id (hex)"),
	HEX("protocol_version", "v", 8, "protocol version (hex)"),
	HEX("protocol_revision", "r", 8, "protocol revision (hex)"),
};
/* drivers/platform/surface/aggregator/bus.c ssam_device_uevent() */
static const struct field_desc ssam_fields[] = {
	HEX("domain", "d", 2, "domain (hex)"),
	HEX("category", "c", 2, "target category (hex)"),
	HEX("target", "t", 2, "target id (hex)"),
	HEX("instance", "i", 2, "instance id (hex)"),
	HEX("function", "f", 2, "function id (hex)"),
};
/* drivers/fpga/dfl.c dfl_bus_uevent() */
static const struct field_desc dfl_fields[] = {
	HEX("type", "t", 4, "feature type (hex)"),
	HEX("feature_id", "f", 4, "feature id (hex)"),
};
/* drivers/hid/intel-ish-hid/ishtp/bus.c: the device's name, "{%pUL}" */
static const struct field_desc ishtp_fields[] = {
	STR("guid", "", 0, "client GUID, upper-case, without the braces"),
};
/* drivers/cdx/cdx.c modalias_show() (also the vfio_cdx: form of its aliases) */
static const struct field_desc cdx_fields[] = {
	HEX("vendor", "v", 4, "vendor id (hex)"),
	HEX("device", "d", 4, "device id (hex)"),
	HEX("subvendor", "sv", 4, "subsystem vendor id (hex)"),
	HEX("subdevice", "sd", 4, "subsystem device id (hex)"),
	HEX("class", "c", 6, "class (hex)"),
};
/* drivers/firmware/google/coreboot_table.c coreboot_bus_uevent() */
static const struct field_desc coreboot_fields[] = {
	HEX("tag", "t", 8, "coreboot table entry tag (hex)"),
};

static const struct field_desc raw_fields[] = {
	STR("raw", "", FF_EMPTY_OK, "everything after the bus prefix"),
};

/* ======================================================================= */

static int expect(const struct modalias_dev *dev, const char *s, size_t len, size_t *pos,
		  const char *lit, const char *field)
{
	size_t n = strlen(lit);

	if (len - *pos < n || memcmp(s + *pos, lit, n) != 0)
		return parse_error(dev, field, *pos, "unexpected characters");
	*pos += n;
	return 0;
}

static bool upper_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
}

/* A run of "X," items (input bitmaps) or ",XXXX" items (cpu features),
 * strictly ascending, as the kernel walks the bits. */
static int parse_numlist(struct modalias_dev *dev, unsigned int f, const char *s,
			 size_t len, size_t *pos, bool leading_comma)
{
	const struct field_desc *fd = &dev->bus->fields[f];
	bool first = true;
	uint64_t last = 0;

	for (;;) {
		size_t start = *pos + (leading_comma ? 1 : 0), n = 0;
		uint64_t num;
		int r;

		if (leading_comma && (start > len || s[*pos] != ','))
			return 0;
		while (start + n < len && upper_hex(s[start + n]))
			n++;
		if (n == 0) {
			if (leading_comma)
				return parse_error(dev, fd->name, start, "hexadecimal digits missing");
			return 0;
		}
		if (fd->width && n != fd->width)
			return parse_error(dev, fd->name, start, "wrong number of digits");
		if (!fd->width && n > 1 && s[start] == '0')
			return parse_error(dev, fd->name, start, "leading zero");
		if (!leading_comma && (start + n >= len || s[start + n] != ','))
			return parse_error(dev, fd->name, start + n, "',' missing");
		r = parse_hex(s + start, n, UINT32_MAX, &num);
		if (r < 0)
			return parse_error(dev, fd->name, start, "number too large");
		if (!first && num <= last)
			return parse_error(dev, fd->name, start, "bits out of order");
		r = dev_put_num(dev, f, num, true);
		if (r == -ERANGE)
			return parse_error(dev, fd->name, start, "bit out of range");
		if (r < 0)
			return r;
		first = false;
		last = num;
		*pos = start + n + (leading_comma ? 0 : 1);
	}
}

static void format_numlist(const struct modalias_dev *dev, unsigned int f,
			   struct strbuf *sb, bool leading_comma)
{
	const struct fval *v = dev_val(dev, f);

	for (unsigned int i = 0; i < v->n; i++) {
		if (leading_comma)
			strbuf_putc(sb, ',');
		strbuf_puts(sb, v->items[i].text);
		if (!leading_comma)
			strbuf_putc(sb, ',');
	}
}

/* ---- input ------------------------------------------------------------ */

static int input_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	int r = dev_format_generic(dev, sb, IN_BUSTYPE, IN_EV);

	if (r < 0)
		return r;
	strbuf_putc(sb, '-');
	for (unsigned int f = IN_EV; f <= IN_SW; f++) {
		strbuf_puts(sb, dev->bus->fields[f].tag);
		format_numlist(dev, f, sb, false);
		if (f == IN_KEY && strcmp(dev_text(dev, IN_TRUNCATED, "0"), "1") == 0)
			strbuf_puts(sb, "+,");
	}
	return sb->oom ? -ENOMEM : 0;
}

static int input_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;
	int r;

	r = dev_parse_generic(dev, s, len, IN_BUSTYPE, IN_EV, &pos);
	if (r < 0)
		return r;
	r = expect(dev, s, len, &pos, "-", NULL);
	for (unsigned int f = IN_EV; r == 0 && f <= IN_SW; f++) {
		r = expect(dev, s, len, &pos, dev->bus->fields[f].tag, dev->bus->fields[f].name);
		if (r == 0)
			r = parse_numlist(dev, f, s, len, &pos, false);
		if (r == 0 && f == IN_KEY && len - pos >= 2 && memcmp(s + pos, "+,", 2) == 0) {
			r = dev_put_num(dev, IN_TRUNCATED, 1, false);
			pos += 2;
		}
	}
	if (r == 0 && pos != len)
		r = parse_error(dev, NULL, pos, "trailing characters");
	return r;
}

/* ---- of --------------------------------------------------------------- */

static int of_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	const struct fval *c = dev_val(dev, OF_COMPATIBLE);

	strbuf_putc(sb, 'N');
	strbuf_puts(sb, dev_text(dev, OF_NAME, ""));
	strbuf_putc(sb, 'T');
	strbuf_puts(sb, dev_text(dev, OF_TYPE, "(null)"));
	for (unsigned int i = 0; i < c->n; i++) {
		strbuf_putc(sb, 'C');
		/* the kernel turns white space in compatibles into '_' */
		for (const char *p = c->items[i].text; *p; p++)
			strbuf_putc(sb, isspace((unsigned char)*p) ? '_' : *p);
	}
	return sb->oom ? -ENOMEM : 0;
}

/* Whether a compatible starts at p: a 'C' followed by a lower-case letter
 * (vendor prefixes are lower case), or by a digit or an upper-case letter
 * when a ',' comes before the next 'C' ("CSUNW,hme"), so that the 'C' of
 * "nxp,PCF8563" or "fsl,MPC8572DS" stays inside its compatible; or a final
 * 'C' (an empty compatible).  of_parse() applies the same rule. */
static bool of_compat_split(const char *s, size_t len, size_t p)
{
	unsigned char c;

	if (s[p] != 'C')
		return false;
	if (p + 1 == len)
		return true; /* an empty compatible */
	c = (unsigned char)s[p + 1];
	if (islower(c))
		return true;
	if (!isdigit(c) && !isupper(c))
		return false;
	for (size_t q = p + 1; q < len && s[q] != 'C'; q++)
		if (s[q] == ',')
			return true;
	return false;
}

/* How much a type looks like one the kernel writes: "(null)" (or the
 * older "<NULL>") when the node has no device_type, empty for ACPI's
 * PRP0001 devices, else a device_type ("serial", "cpu", "pci"). */
static int of_type_score(const char *t, size_t n, size_t n_odd)
{
	if (n == 6 && (memcmp(t, "(null)", 6) == 0 || memcmp(t, "<NULL>", 6) == 0))
		return 3;
	if (n == 0)
		return 2;
	return n_odd == 0 ? 1 : 0;
}

static bool of_type_odd(char c)
{
	return !islower((unsigned char)c) && !isdigit((unsigned char)c) && !strchr("-_,.+", c);
}

/* of:N<name>T<type>C<compatible>C<compatible>…, where the kernel puts any
 * character in the name and the type (drivers/of/module.c of_modalias()),
 * so the split is chosen: the type runs from a 'T' to the first
 * compatible (or the end), and of the 'T's the one whose type looks most
 * like a type (of_type_score()) is taken, the leftmost of equals.  One
 * pass from the right: linear in the length. */
static int of_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t t = 0, c = len, next_split = len, n_odd = 0, pos;
	int best = -1, r;
	bool comma = false;

	if (len == 0 || s[0] != 'N')
		return parse_error(dev, "name", 0, "'N' missing");
	for (size_t i = len; i-- > 1;) {
		/* is i a 'T' whose type is s[i+1, next_split)? */
		if (s[i] == 'T') {
			int score = of_type_score(s + i + 1, next_split - i - 1, n_odd);
			if (score >= best) {
				best = score;
				t = i;
				c = next_split;
			}
		}
		/* then s[i] as part of a type that starts further left */
		if (s[i] == 'C' && (i + 1 == len || islower((unsigned char)s[i + 1]) ||
		     ((isdigit((unsigned char)s[i + 1]) || isupper((unsigned char)s[i + 1])) && comma))) {
			next_split = i;
			n_odd = 0;
		} else {
			n_odd += of_type_odd(s[i]);
		}
		if (s[i] == 'C')
			comma = false;
		else if (s[i] == ',')
			comma = true;
	}
	if (best < 0)
		return parse_error(dev, "type", len, "'T' missing");
	if ((r = dev_put_text(dev, OF_NAME, s + 1, t - 1, false)) < 0 ||
	    (r = dev_put_text(dev, OF_TYPE, s + t + 1, c - t - 1, false)) < 0)
		return r;
	pos = c;
	while (pos < len) {
		size_t end = pos + 1;

		while (end < len && !of_compat_split(s, len, end))
			end++;
		/* the kernel writes white space in compatibles as '_' */
		for (size_t i = pos + 1; i < end; i++)
			if (isspace((unsigned char)s[i]))
				return parse_error(dev, "compatible", i, "white space");
		r = dev_put_text(dev, OF_COMPATIBLE, s + pos + 1, end - pos - 1, true);
		if (r < 0)
			return r;
		pos = end;
	}
	return 0;
}

/* ---- acpi ------------------------------------------------------------- */

static int acpi_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	const struct fval *v = dev_val(dev, 0);

	for (unsigned int i = 0; i < v->n; i++) {
		strbuf_puts(sb, v->items[i].text);
		strbuf_putc(sb, ':');
	}
	return sb->oom ? -ENOMEM : 0;
}

static int acpi_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;

	if (len == 0)
		return parse_error(dev, "id", 0, "no id");
	while (pos < len) {
		const char *colon = memchr(s + pos, ':', len - pos);
		int r;

		if (!colon)
			return parse_error(dev, "id", len, "':' missing after the id");
		if (colon == s + pos)
			return parse_error(dev, "id", pos, "empty id");
		r = dev_put_text(dev, 0, s + pos, (size_t)(colon - s - pos), true);
		if (r < 0)
			return r;
		pos = (size_t)(colon - s) + 1;
	}
	return 0;
}

/* ---- dmi -------------------------------------------------------------- */

static int dmi_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	for (unsigned int f = 0; f < dev->bus->n_fields; f++) {
		if (!dev_isset(dev, f))
			continue;
		strbuf_puts(sb, dev->bus->fields[f].tag);
		/* dmi-id.c ascii_filter(): printable, no space, no ':' */
		for (const char *p = dev_text(dev, f, ""); *p; p++)
			if (*p > ' ' && *p < 127 && *p != ':')
				strbuf_putc(sb, *p);
		strbuf_putc(sb, ':');
	}
	return sb->oom ? -ENOMEM : 0;
}

static int dmi_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;
	unsigned int f = 0;

	while (pos < len) {
		const char *colon = memchr(s + pos, ':', len - pos);
		size_t seg;
		int r;

		if (!colon)
			return parse_error(dev, NULL, len, "':' missing at the end");
		seg = (size_t)(colon - s) - pos;
		for (; f < dev->bus->n_fields; f++) {
			size_t tl = strlen(dev->bus->fields[f].tag);
			if (seg >= tl && memcmp(s + pos, dev->bus->fields[f].tag, tl) == 0)
				break;
		}
		if (f == dev->bus->n_fields)
			return parse_error(dev, NULL, pos, "unknown or out-of-order field");
		r = dev_put_text(dev, f, s + pos + strlen(dev->bus->fields[f].tag),
				 seg - strlen(dev->bus->fields[f].tag), false);
		if (r < 0)
			return r;
		/* what the kernel's filter drops cannot be in its string */
		for (size_t i = pos; i < pos + seg; i++)
			if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 127)
				return parse_error(dev, dev->bus->fields[f].name, i,
						   "space or non-ASCII byte in value");
		f++;
		pos += seg + 1;
	}
	return 0;
}

/* ---- cpu and x86cpu --------------------------------------------------- */

static int cpu_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	strbuf_puts(sb, dev_text(dev, CPU_ARCH, "x86"));
	if (dev_isset(dev, CPU_VENDOR) || dev_isset(dev, CPU_FAMILY) || dev_isset(dev, CPU_MODEL)) {
		strbuf_putc(sb, ',');
		strbuf_printf(sb, "ven%sfam%smod%s", dev_text(dev, CPU_VENDOR, "0000"),
			      dev_text(dev, CPU_FAMILY, "0000"), dev_text(dev, CPU_MODEL, "0000"));
	}
	strbuf_puts(sb, ":feature:");
	format_numlist(dev, CPU_FEATURE, sb, true);
	return sb->oom ? -ENOMEM : 0;
}

static int cpu_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	const char *feat = memmem(s, len, ":feature:", 9);
	size_t tlen, pos, used;
	const char *comma;
	int r;

	if (!feat)
		return parse_error(dev, "feature", len, "\":feature:\" missing");
	tlen = (size_t)(feat - s);
	comma = memchr(s, ',', tlen);
	if ((comma ? comma : feat) == s)
		return parse_error(dev, "arch", 0, "empty");
	r = dev_put_text(dev, CPU_ARCH, s, (size_t)((comma ? comma : feat) - s), false);
	if (r < 0)
		return r;
	if (comma) {
		size_t off = (size_t)(comma - s) + 1;
		r = dev_parse_generic(dev, comma + 1, tlen - off, CPU_VENDOR, CPU_FEATURE, &used);
		if (r < 0)
			return r;
		if (used != tlen - off || !dev_isset(dev, CPU_VENDOR) || !dev_isset(dev, CPU_FAMILY) ||
		    !dev_isset(dev, CPU_MODEL))
			return parse_error(dev, "vendor", off, "not of the form venXXXXfamXXXXmodXXXX");
	}
	pos = tlen + 9;
	r = parse_numlist(dev, CPU_FEATURE, s, len, &pos, true);
	if (r == 0 && pos != len)
		r = parse_error(dev, "feature", pos, "trailing characters");
	return r;
}

static int x86cpu_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	int r = dev_format_generic(dev, sb, X86_VENDOR, X86_FEATURE);

	if (r < 0)
		return r;
	strbuf_puts(sb, ":feature:");
	format_numlist(dev, X86_FEATURE, sb, true);
	return sb->oom ? -ENOMEM : 0;
}

static int x86cpu_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;
	int r;

	r = dev_parse_generic(dev, s, len, X86_VENDOR, X86_FEATURE, &pos);
	if (r == 0)
		r = expect(dev, s, len, &pos, ":feature:", "feature");
	if (r == 0)
		r = parse_numlist(dev, X86_FEATURE, s, len, &pos, true);
	if (r == 0 && pos != len)
		r = parse_error(dev, "feature", pos, "trailing characters");
	return r;
}

/* ---- ccw: drivers/s390/cio/device.c snprint_alias() ------------------- */

static int ccw_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	int r = dev_format_generic(dev, sb, 0, 2);

	if (r < 0)
		return r;
	if (dev_isset(dev, 2) && strspn(dev_text(dev, 2, ""), "0") != strlen(dev_text(dev, 2, "")))
		return dev_format_generic(dev, sb, 2, 4);
	strbuf_puts(sb, "dtdm");
	return sb->oom ? -ENOMEM : 0;
}

static int ccw_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0, used = 0;
	int r = dev_parse_generic(dev, s, len, 0, 2, &pos);

	if (r < 0)
		return r;
	if (len - pos == 4 && memcmp(s + pos, "dtdm", 4) == 0)
		return 0;
	r = dev_parse_generic(dev, s + pos, len - pos, 2, 4, &used);
	if (r == 0 && pos + used != len)
		r = parse_error(dev, NULL, pos + used, "trailing characters");
	if (r == 0 && strspn(dev_text(dev, 2, ""), "0") == 4)
		r = parse_error(dev, "dev_type", pos, "a zero device type is written \"dtdm\"");
	return r;
}

/* ---- mdio: MDIO_ID_FMT, 32 binary digits, most significant first ------ */

static int mdio_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	uint64_t id = dev_isset(dev, 0) ? dev_val(dev, 0)->items[0].num : 0;

	for (int b = 31; b >= 0; b--)
		strbuf_putc(sb, (id >> b) & 1 ? '1' : '0');
	return sb->oom ? -ENOMEM : 0;
}

static int mdio_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	uint64_t id = 0;

	if (len != 32)
		return parse_error(dev, "phy_id", 0, "not 32 binary digits");
	for (size_t i = 0; i < 32; i++) {
		if (s[i] != '0' && s[i] != '1')
			return parse_error(dev, "phy_id", i, "not a binary digit");
		id = (id << 1) | (uint64_t)(s[i] - '0');
	}
	return dev_put_num(dev, 0, id, false);
}

/* ---- mei: name:uuid:version: ------------------------------------------ */

static int mei_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	strbuf_printf(sb, "%s:%s:%s:", dev_text(dev, 0, ""), dev_text(dev, 1, ""),
		      dev_text(dev, 2, "00"));
	return sb->oom ? -ENOMEM : 0;
}

static int mei_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	const char *c1 = memchr(s, ':', len), *c2, *c3;
	uint64_t v;
	int r;

	if (!c1 || !(c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s))) ||
	    !(c3 = memchr(c2 + 1, ':', len - (size_t)(c2 + 1 - s))) || c3 != s + len - 1)
		return parse_error(dev, NULL, 0, "not of the form name:uuid:version:");
	if (c2 == c1 + 1)
		return parse_error(dev, "uuid", (size_t)(c1 + 1 - s), "empty");
	if (c3 - c2 - 1 != 2 || parse_hex(c2 + 1, 2, 0xff, &v) < 0 || c2[1] == 'x')
		return parse_error(dev, "version", (size_t)(c2 + 1 - s), "not two hexadecimal digits");
	if ((r = dev_put_text(dev, 0, s, (size_t)(c1 - s), false)) < 0 ||
	    (r = dev_put_text(dev, 1, c1 + 1, (size_t)(c2 - c1 - 1), false)) < 0 ||
	    (r = dev_put_text(dev, 2, c2 + 1, 2, false)) < 0)
		return r;
	dev->values[2].items[0].num = v;
	return 0;
}

/* ---- vio: T<type>S<compatible> ---------------------------------------- */

static int vio_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	strbuf_printf(sb, "T%sS%s", dev_text(dev, 0, ""), dev_text(dev, 1, ""));
	return sb->oom ? -ENOMEM : 0;
}

static int vio_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	const char *sep;
	int r;

	if (len == 0 || s[0] != 'T')
		return parse_error(dev, "type", 0, "'T' missing");
	sep = memchr(s + 1, 'S', len - 1);
	if (!sep)
		return parse_error(dev, "compatible", len, "'S' missing");
	if ((r = dev_put_text(dev, 0, s + 1, (size_t)(sep - s - 1), false)) < 0)
		return r;
	return dev_put_text(dev, 1, sep + 1, len - (size_t)(sep + 1 - s), false);
}

/* ---- i3c: part and ext both, or neither ---------------------------------- */

static int i3c_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	int r = dev_format_generic(dev, sb, I3C_DCR, I3C_PART);

	if (r < 0 || (!dev_isset(dev, I3C_PART) && !dev_isset(dev, I3C_EXT)))
		return r;
	strbuf_printf(sb, "part%sext%s", dev_text(dev, I3C_PART, "0000"), dev_text(dev, I3C_EXT, "0000"));
	return sb->oom ? -ENOMEM : 0;
}

static int i3c_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	size_t pos = 0;
	int r = dev_parse_generic(dev, s, len, I3C_DCR, I3C_EXT + 1, &pos);

	if (r == 0 && dev_isset(dev, I3C_PART) != dev_isset(dev, I3C_EXT))
		r = parse_error(dev, dev_isset(dev, I3C_PART) ? "extra_info" : "part_id", pos,
				"written with part_id and extra_info both, or neither");
	if (r == 0 && pos != len)
		r = parse_error(dev, NULL, pos, "trailing characters");
	return r;
}

/* ---- tbsvc: k<key>p<8 hex>v<8 hex>r<8 hex> -------------------------------- */

static int tbsvc_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	const size_t tail = (size_t)3 * (1 + 8); /* p…v…r… */
	size_t used = 0;
	int r;

	if (len == 0 || s[0] != 'k')
		return parse_error(dev, "protocol_key", 0, "'k' missing");
	if (len < 2 + tail)
		return parse_error(dev, "protocol_key", 1, "too short for k<key>p<id>v<version>r<revision>");
	if (s[len - tail] != 'p')
		return parse_error(dev, "protocol_id", len - tail,
				   "not of the form p<8 hex digits>v<8 hex digits>r<8 hex digits> at the end");
	r = dev_put_text(dev, TBSVC_KEY, s + 1, len - 1 - tail, false);
	if (r == 0)
		r = dev_parse_generic(dev, s + len - tail, tail, TBSVC_ID, dev->bus->n_fields, &used);
	if (r == 0 && used != tail)
		r = parse_error(dev, NULL, len - tail + used, "trailing characters");
	return r;
}

/* ---- ishtp: {GUID} -------------------------------------------------------- */

static int ishtp_format(const struct modalias_dev *dev, struct strbuf *sb)
{
	strbuf_printf(sb, "{%s}", dev_text(dev, 0, ""));
	return sb->oom ? -ENOMEM : 0;
}

static int ishtp_parse(struct modalias_dev *dev, const char *s, size_t len)
{
	if (len < 3 || s[0] != '{' || s[len - 1] != '}')
		return parse_error(dev, "guid", 0, "not of the form {GUID}");
	return dev_put_text(dev, 0, s + 1, len - 2, false);
}

/* ---- setters ---------------------------------------------------------- */

static int pci_set_special(struct modalias_dev *dev, unsigned int field, const char *value)
{
	uint64_t cls;
	int r = parse_hex(value, strlen(value), 0xffffff, &cls);

	if (r < 0)
		return r;
	if ((r = dev_put_num(dev, 4, (cls >> 16) & 0xff, false)) < 0 ||
	    (r = dev_put_num(dev, 5, (cls >> 8) & 0xff, false)) < 0)
		return r;
	return dev_put_num(dev, 6, cls & 0xff, false);
}

static int pcmcia_set_special(struct modalias_dev *dev, unsigned int field, const char *value)
{
	return dev_put_num(dev, PCMCIA_HASH1 + (field - PCMCIA_PROD1),
			   pcmcia_crc32(value, strlen(value)), false);
}

/* ======================================================================= */

static const struct bus_desc buses[] = {
	BUS("usb", "usb:", usb_fields),
	BUS("pci", "pci:", pci_fields, .set_special = pci_set_special),
	BUS("scsi", "scsi:", scsi_fields),
	BUS("ieee1394", "ieee1394:", ieee1394_fields),
	BUS("input", "input:", input_fields, .format = input_format, .parse = input_parse),
	BUS("serio", "serio:", serio_fields),
	BUS("hid", "hid:", hid_fields),
	BUS("of", "of:", of_fields, .format = of_format, .parse = of_parse),
	BUS("acpi", "acpi:", acpi_fields, .format = acpi_format, .parse = acpi_parse),
	BUS("platform", "platform:", name_fields),
	BUS("i2c", "i2c:", name_fields),
	BUS("spi", "spi:", name_fields),
	BUS("rpmsg", "rpmsg:", name_fields),
	BUS("auxiliary", "auxiliary:", name_fields),
	BUS("mhi", "mhi:", name_fields),
	BUS("mhi_ep", "mhi_ep:", name_fields),
	BUS("vchiq", "vchiq:", name_fields),
	BUS("serdev", "serdev:", name_fields),
	BUS("mmc", "mmc:", name_fields),
	BUS("wmi", "wmi:", guid_fields),
	BUS("vmbus", "vmbus:", guid_fields),
	BUS("tee", "tee:", uuid_fields),
	BUS("pnp", "pnp:", pnp_fields),
	BUS("eisa", "eisa:", eisa_fields),
	BUS("virtio", "virtio:", virtio_fields),
	BUS("sdio", "sdio:", sdio_fields),
	BUS("pcmcia", "pcmcia:", pcmcia_fields, .set_special = pcmcia_set_special),
	BUS("ccw", "ccw:", ccw_fields, .format = ccw_format, .parse = ccw_parse),
	BUS("mdio", "mdio:", mdio_fields, .format = mdio_format, .parse = mdio_parse),
	BUS("dmi", "dmi:", dmi_fields, .format = dmi_format, .parse = dmi_parse),
	BUS("cpu", "cpu:type:", cpu_fields, .format = cpu_format, .parse = cpu_parse),
	BUS("x86cpu", "x86cpu:", x86cpu_fields, .format = x86cpu_format, .parse = x86cpu_parse),
	BUS("hdaudio", "hdaudio:", hdaudio_fields),
	BUS("amba", "amba:", amba_fields),
	BUS("typec", "typec:", typec_fields),
	BUS("ulpi", "ulpi:", ulpi_fields),
	BUS("sdw", "sdw:", sdw_fields),
	BUS("bcma", "bcma:", bcma_fields),
	BUS("ssb", "ssb:", ssb_fields),
	BUS("css", "css:", css_fields),
	BUS("ap", "ap:", ap_fields),
	BUS("nd", "nd:", dec_type_fields),
	BUS("idxd", "idxd:", dec_type_fields),
	BUS("mei", "mei:", mei_fields, .format = mei_format, .parse = mei_parse),
	BUS("vio", "vio:", vio_fields, .format = vio_format, .parse = vio_parse),
	BUS("vfio_pci", "vfio_pci:", pci_fields, .set_special = pci_set_special),
	BUS("parisc", "parisc:", parisc_fields),
	BUS("i3c", "i3c:", i3c_fields, .format = i3c_format, .parse = i3c_parse),
	BUS("slim", "slim:", slim_fields),
	BUS("zorro", "zorro:", zorro_fields),
	BUS("ipack", "ipack:", ipack_fields),
	BUS("mipscdmm", "mipscdmm:", mipscdmm_fields),
	BUS("rapidio", "rapidio:", rapidio_fields),
	BUS("fsl-mc", "fsl-mc:", fsl_mc_fields),
	BUS("tbsvc", "tbsvc:", tbsvc_fields, .parse = tbsvc_parse),
	BUS("ssam", "ssam:", ssam_fields),
	BUS("dfl", "dfl:", dfl_fields),
	BUS("ishtp", "ishtp:", ishtp_fields, .format = ishtp_format, .parse = ishtp_parse),
	BUS("cdx", "cdx:", cdx_fields),
	BUS("vfio_cdx", "vfio_cdx:", cdx_fields),
	BUS("coreboot", "coreboot:", coreboot_fields),
};

const struct bus_desc bus_unknown = BUS("", ":", raw_fields);

const struct bus_desc *bus_find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(buses); i++)
		if (strlen(buses[i].name) == len && memcmp(buses[i].name, name, len) == 0)
			return &buses[i];
	return NULL;
}

MODALIAS_EXPORT const char *modalias_bus_name(unsigned int index)
{
	return index < ARRAY_SIZE(buses) ? buses[index].name : NULL;
}

MODALIAS_EXPORT const char *modalias_bus_field_name(const char *bus, unsigned int index)
{
	const struct bus_desc *b = bus ? bus_find(bus, strlen(bus)) : NULL;

	return b && index < b->n_fields ? b->fields[index].name : NULL;
}

MODALIAS_EXPORT int modalias_bus_field_is_list(const char *bus, const char *field)
{
	const struct bus_desc *b;
	int f;

	if (!bus || !field)
		return -EINVAL;
	b = bus_find(bus, strlen(bus));
	f = b ? field_index(b, field) : -1;
	if (f < 0)
		return -ENOENT;
	return b->fields[f].kind == FK_HEXLIST || b->fields[f].kind == FK_STRLIST;
}

MODALIAS_EXPORT const char *modalias_bus_field_help(const char *bus, const char *field)
{
	const struct bus_desc *b = bus ? bus_find(bus, strlen(bus)) : NULL;
	int f;

	if (!b || !field)
		return NULL;
	f = field_index(b, field);
	return f < 0 ? NULL : b->fields[f].help;
}
