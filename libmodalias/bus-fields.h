/*
 * libmodalias - every bus's fields, declared once: for each field its name,
 * its tag in the modalias, its kind (hex, decimal, string, list), its width,
 * its flags (lower-case, optional, wildcard-free setter, …) and its help,
 * in the order the kernel writes them; and, from the same lists, a named
 * index for each field (USB_VENDOR, PCI_BASECLASS, INPUT_KEY, …).
 *
 * A list here is FOO_FIELDS(X): X(INDEX, F_KIND(name, tag, …)) a field.
 * buses.c turns each list into the bus's array of struct field_desc; the
 * builder and parser, the legacy-environment and sysfs readers name a field
 * by its index, never by a number (front ends and the map matcher by its
 * name, which is the one here).
 * Adding a bus: its list and its enum here, its row in buses.c's table.
 *
 * This header only declares: no code, no storage, and it includes no other
 * header of the library (bus-private.h includes it).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdint.h>

/* ---- what a field is -------------------------------------------------- */

enum field_kind {
	FK_HEX,      /* fixed-width hex number */
	FK_DEC,      /* decimal number */
	FK_STR,      /* one string */
	FK_HEXLIST,  /* list of hex numbers */
	FK_STRLIST,  /* list of strings */
};

enum field_flags {
	FF_LOWER = 1 << 0,    /* printed in lower-case hex; a string (a UUID): lower-cased when set */
	FF_OPTIONAL = 1 << 1, /* left out of the string, tag and all, when unset; "" unsets it (but FF_EMPTY_OK) */
	FF_VARWIDTH = 1 << 2, /* width is a minimum, the parser reads greedily */
	FF_SETTER = 1 << 3,   /* not in the string: setting it sets another field */
	FF_EMPTY_OK = 1 << 4, /* the empty string is a value */
	FF_SORTED = 1 << 5,   /* numeric list, kept ascending and unique */
	FF_CLASS = 1 << 6,    /* what kind of device it is (nearest.c compares these first) */
	FF_CLASS_TOP = 1 << 7, /* a class whose subclass and protocol follow (FF_CLASS too); its
				  value FF (vendor-specific) or 00 (none: USB's "see the
				  interfaces", PCI's "unclassified") names no kind */
	FF_OLD_OPTIONAL = 1 << 8, /* FF_OPTIONAL only in old kernels' strings: today's always
				     write it, so a device made to be built (modalias_dev_new())
				     starts with it at zero; a parsed one keeps it unset */
	FF_UPPER = 1 << 9,    /* a string (a GUID): upper-cased when set */
};

struct field_desc {
	const char *name;
	const char *tag;
	const char *help;
	uint64_t max; /* largest number (0: from width) */
	uint32_t min; /* smallest number */
	uint8_t kind;
	uint8_t width; /* hex digits; 0 for unpadded list items */
	uint16_t flags;
};

/* The kinds of field, as the lists below write them. */
#define F_HEXF(n, t, w, f, h) { .name = (n), .tag = (t), .kind = FK_HEX, .width = (w), .flags = (f), .help = (h) }
#define F_HEX(n, t, w, h) F_HEXF(n, t, w, 0, h)
#define F_DEC(n, t, m, h) { .name = (n), .tag = (t), .kind = FK_DEC, .max = (m), .help = (h) }
#define F_STR(n, t, f, h) { .name = (n), .tag = (t), .kind = FK_STR, .flags = (f), .help = (h) }
#define F_STRLIST(n, t, h) { .name = (n), .tag = (t), .kind = FK_STRLIST, .help = (h) }
/* a list of bit numbers or feature numbers; below mn: not in the list */
#define F_LIST(n, t, w, mn, h) { .name = (n), .tag = (t), .kind = FK_HEXLIST, .width = (w),     \
				 .flags = FF_SORTED, .max = UINT32_MAX, .min = (mn), .help = (h) }
/* a class byte; a byte that the class before it qualifies (subclass, protocol) */
#define F_CLASS(n, t, h) F_HEXF(n, t, 2, FF_CLASS | FF_CLASS_TOP, h)
#define F_SUBCLASS(n, t, h) F_HEXF(n, t, 2, FF_CLASS, h)
#define F_SETTER(n, h) { .name = (n), .tag = "", .kind = FK_STR, .flags = FF_SETTER | FF_EMPTY_OK, .help = (h) }

/* The named indexes of a list: enum { FOO_FIELDS(FIELD_INDEX) FOO_N_FIELDS }. */
#define FIELD_INDEX(index, desc) index,

/* ---- usb: drivers/usb/core/message.c usb_if_uevent() ------------------ */
#define USB_FIELDS(X)                                                                           \
	X(USB_VENDOR, F_HEX("idVendor", "v", 4, "vendor id (hex)"))                             \
	X(USB_PRODUCT, F_HEX("idProduct", "p", 4, "product id (hex)"))                          \
	X(USB_BCD_DEVICE, F_HEX("bcdDevice", "d", 4, "device release number (hex, BCD)"))       \
	X(USB_DEV_CLASS, F_CLASS("bDeviceClass", "dc", "device class (hex)"))                   \
	X(USB_DEV_SUBCLASS, F_SUBCLASS("bDeviceSubClass", "dsc", "device subclass (hex)"))      \
	X(USB_DEV_PROTOCOL, F_SUBCLASS("bDeviceProtocol", "dp", "device protocol (hex)"))       \
	X(USB_IF_CLASS, F_CLASS("bInterfaceClass", "ic", "interface class (hex)"))              \
	X(USB_IF_SUBCLASS, F_SUBCLASS("bInterfaceSubClass", "isc", "interface subclass (hex)")) \
	X(USB_IF_PROTOCOL, F_SUBCLASS("bInterfaceProtocol", "ip", "interface protocol (hex)"))  \
	X(USB_IF_NUMBER, F_HEXF("bInterfaceNumber", "in", 2, FF_OPTIONAL | FF_OLD_OPTIONAL,     \
				"interface number (hex; 00 unless given); empty: left out, as kernels before 3.x did"))
enum { USB_FIELDS(FIELD_INDEX) USB_N_FIELDS };

/* ---- pci: drivers/pci/pci-sysfs.c modalias_show() --------------------- */
#define PCI_FIELDS(X)                                                                           \
	X(PCI_VENDOR, F_HEX("vendor", "v", 8, "vendor id (hex)"))                               \
	X(PCI_DEVICE, F_HEX("device", "d", 8, "device id (hex)"))                               \
	X(PCI_SUBVENDOR, F_HEX("subvendor", "sv", 8, "subsystem vendor id (hex)"))              \
	X(PCI_SUBDEVICE, F_HEX("subdevice", "sd", 8, "subsystem device id (hex)"))              \
	X(PCI_BASECLASS, F_CLASS("baseclass", "bc", "base class, bits 23-16 of the class (hex)")) \
	X(PCI_SUBCLASS, F_SUBCLASS("subclass", "sc", "subclass, bits 15-8 of the class (hex)")) \
	X(PCI_INTERFACE, F_SUBCLASS("interface", "i", "programming interface, bits 7-0 of the class (hex)")) \
	X(PCI_CLASS, F_SETTER("class", "the 24-bit class code (hex): sets baseclass, subclass and interface"))
enum { PCI_FIELDS(FIELD_INDEX) PCI_N_FIELDS };
/* A device's own ids are 16-bit (struct pci_dev: PCI_ID, sysfs "vendor"),
 * written with 8 digits as the driver side's 32-bit pci_device_id. */
#define PCI_ID_MAX 0xffffu
/* The class code: 24 bits, its bytes baseclass, subclass and interface
 * from the highest (bus-private.h: pci_class_byte(), dev_put_pci_class()). */
#define PCI_CLASS_MAX 0xffffffu

/* ---- scsi: include/scsi/scsi_device.h SCSI_DEVICE_MODALIAS_FMT -------- */
#define SCSI_FIELDS(X)                                                                          \
	X(SCSI_TYPE, F_HEXF("type", "t-0x", 2, FF_LOWER, "peripheral device type (hex, written lower-case)"))
enum { SCSI_FIELDS(FIELD_INDEX) SCSI_N_FIELDS };

/* ---- ieee1394: drivers/firewire/core-device.c get_modalias() ---------- */
#define IEEE1394_FIELDS(X)                                                                      \
	X(IEEE1394_VENDOR_ID, F_HEX("vendor_id", "ven", 8, "vendor id (hex)"))                  \
	X(IEEE1394_MODEL_ID, F_HEX("model_id", "mo", 8, "model id (hex)"))                      \
	X(IEEE1394_SPECIFIER_ID, F_HEX("specifier_id", "sp", 8, "unit specifier id (hex)"))     \
	X(IEEE1394_VERSION, F_HEX("version", "ver", 8, "unit software version (hex)"))
enum { IEEE1394_FIELDS(FIELD_INDEX) IEEE1394_N_FIELDS };

/* ---- input: drivers/input/input.c input_print_modalias() -------------- */
#define INPUT_KEY_MIN_INTERESTING 0x71
#define INPUT_FIELDS(X)                                                                         \
	X(INPUT_BUSTYPE, F_HEX("bustype", "b", 4, "bus type (hex)"))                            \
	X(INPUT_VENDOR, F_HEX("vendor", "v", 4, "vendor id (hex)"))                             \
	X(INPUT_PRODUCT, F_HEX("product", "p", 4, "product id (hex)"))                          \
	X(INPUT_VERSION, F_HEX("version", "e", 4, "version (hex)"))                             \
	X(INPUT_EV, F_LIST("ev", "e", 0, 0, "event types: bit numbers (hex, comma-separated)")) \
	X(INPUT_KEY, F_LIST("key", "k", 0, INPUT_KEY_MIN_INTERESTING,                           \
			    "keys from 0x71 (KEY_MIN_INTERESTING) up: bit numbers (hex, comma-separated)")) \
	X(INPUT_REL, F_LIST("rel", "r", 0, 0, "relative axes: bit numbers (hex)"))              \
	X(INPUT_ABS, F_LIST("abs", "a", 0, 0, "absolute axes: bit numbers (hex)"))              \
	X(INPUT_MSC, F_LIST("msc", "m", 0, 0, "misc events: bit numbers (hex)"))                \
	X(INPUT_LED, F_LIST("led", "l", 0, 0, "leds: bit numbers (hex)"))                       \
	X(INPUT_SND, F_LIST("snd", "s", 0, 0, "sounds: bit numbers (hex)"))                     \
	X(INPUT_FF, F_LIST("ff", "f", 0, 0, "force feedback: bit numbers (hex)"))               \
	X(INPUT_SW, F_LIST("sw", "w", 0, 0, "switches: bit numbers (hex)"))                     \
	X(INPUT_TRUNCATED, F_DEC("truncated", "", 1,                                            \
				 "1 when the kernel cut the key list short to fit the uevent (\"+,\")"))
enum { INPUT_FIELDS(FIELD_INDEX) INPUT_N_FIELDS };
/* INPUT_EV … INPUT_SW: the capability bitmaps, each written "-" and then
 * tag, bits, in this order; each also a uevent variable (EV=, KEY=, …: the
 * name upper-cased) and a sysfs file (capabilities/ev, …). */
#define INPUT_FIRST_BITMAP INPUT_EV
#define INPUT_LAST_BITMAP INPUT_SW

/* ---- serio: drivers/input/serio/serio.c serio_uevent() ---------------- */
#define SERIO_FIELDS(X)                                                                         \
	X(SERIO_TYPE, F_HEX("type", "ty", 2, "serio type (hex)"))                               \
	X(SERIO_PROTO, F_HEX("proto", "pr", 2, "protocol (hex)"))                               \
	X(SERIO_ID, F_HEX("id", "id", 2, "id (hex)"))                                           \
	X(SERIO_EXTRA, F_HEX("extra", "ex", 2, "extra (hex)"))
enum { SERIO_FIELDS(FIELD_INDEX) SERIO_N_FIELDS };

/* ---- hid: drivers/hid/hid-core.c hid_uevent() ------------------------- */
#define HID_FIELDS(X)                                                                           \
	X(HID_BUS, F_HEX("bus", "b", 4, "bus (hex)"))                                           \
	X(HID_GROUP, F_HEXF("group", "g", 4, FF_OPTIONAL | FF_OLD_OPTIONAL,                     \
			    "group (hex; 0000 unless given); empty: left out, as old kernels did")) \
	X(HID_VENDOR, F_HEX("vendor", "v", 8, "vendor id (hex)"))                               \
	X(HID_PRODUCT, F_HEX("product", "p", 8, "product id (hex)"))
enum { HID_FIELDS(FIELD_INDEX) HID_N_FIELDS };

/* ---- of: drivers/of/module.c of_modalias() ---------------------------- */
#define OF_FIELDS(X)                                                                            \
	X(OF_NAME, F_STR("name", "N", FF_EMPTY_OK, "node name without the unit address"))       \
	X(OF_TYPE, F_STR("type", "T", FF_EMPTY_OK,                                              \
			 "device_type; unset: \"(null)\" (older kernels wrote \"<NULL>\")"))    \
	X(OF_COMPATIBLE, F_STRLIST("compatible", "C", "compatible strings, one value each, in order"))
enum { OF_FIELDS(FIELD_INDEX) OF_N_FIELDS };

/* ---- acpi: drivers/acpi/device_sysfs.c create_pnp_modalias() ---------- */
#define ACPI_FIELDS(X)                                                                          \
	X(ACPI_ID, F_STRLIST("id", "", "hardware and compatible ids (_HID, _CID, _CLS), one value each"))
enum { ACPI_FIELDS(FIELD_INDEX) ACPI_N_FIELDS };

/* ---- buses that write one name: platform, i2c, spi, … ----------------- */
#define NAME_FIELDS(X) X(NAME_NAME, F_STR("name", "", 0, "device name"))
enum { NAME_FIELDS(FIELD_INDEX) NAME_N_FIELDS };
/* drivers/platform/x86/wmi.c wmi_dev_uevent(): "wmi:%pUL" */
#define WMI_FIELDS(X) X(WMI_GUID, F_STR("guid", "", FF_UPPER, "GUID with dashes (written upper-case)"))
enum { WMI_FIELDS(FIELD_INDEX) WMI_N_FIELDS };
/* drivers/hv/vmbus_drv.c vmbus_uevent(): "vmbus:%*phN", the 16 bytes */
#define VMBUS_FIELDS(X) X(VMBUS_GUID, F_STR("guid", "", FF_LOWER, "GUID as 32 hex digits, no dashes (written lower-case)"))
enum { VMBUS_FIELDS(FIELD_INDEX) VMBUS_N_FIELDS };
/* drivers/tee/tee_core.c tee_client_device_uevent(): "tee:%pUb" */
#define UUID_FIELDS(X) X(UUID_UUID, F_STR("uuid", "", FF_LOWER, "UUID with dashes (written lower-case)"))
enum { UUID_FIELDS(FIELD_INDEX) UUID_N_FIELDS };
#define PNP_FIELDS(X) X(PNP_ID, F_STR("id", "d", 0, "PNP id"))
enum { PNP_FIELDS(FIELD_INDEX) PNP_N_FIELDS };
#define EISA_FIELDS(X) X(EISA_SIG, F_STR("sig", "s", 0, "EISA signature"))
enum { EISA_FIELDS(FIELD_INDEX) EISA_N_FIELDS };

/* ---- numeric buses ---------------------------------------------------- */
#define VIRTIO_FIELDS(X)                                                                        \
	X(VIRTIO_DEVICE, F_HEX("device", "d", 8, "device id (hex)"))                            \
	X(VIRTIO_VENDOR, F_HEX("vendor", "v", 8, "vendor id (hex)"))
enum { VIRTIO_FIELDS(FIELD_INDEX) VIRTIO_N_FIELDS };

#define SDIO_FIELDS(X)                                                                          \
	X(SDIO_CLASS, F_CLASS("class", "c", "standard interface class (hex)"))                  \
	X(SDIO_VENDOR, F_HEX("vendor", "v", 4, "vendor id (hex)"))                              \
	X(SDIO_DEVICE, F_HEX("device", "d", 4, "device id (hex)"))
enum { SDIO_FIELDS(FIELD_INDEX) SDIO_N_FIELDS };

/* the product-id strings set their hashes: PCMCIA_PROD_ID1 + i sets
 * PCMCIA_PROD_ID_HASH1 + i */
#define PCMCIA_FIELDS(X)                                                                        \
	X(PCMCIA_MANF_ID, F_HEX("manf_id", "m", 4, "manufacturer id (hex)"))                    \
	X(PCMCIA_CARD_ID, F_HEX("card_id", "c", 4, "card id (hex)"))                            \
	X(PCMCIA_FUNC_ID, F_HEX("func_id", "f", 2, "function id (hex)"))                        \
	X(PCMCIA_FUNCTION, F_HEX("function", "fn", 2, "function number (hex)"))                 \
	X(PCMCIA_DEVICE_NO, F_HEX("device_no", "pfn", 2, "device number (hex)"))                \
	X(PCMCIA_PROD_ID_HASH1, F_HEX("prod_id_hash1", "pa", 8, "crc32 of product id string 1 (hex)")) \
	X(PCMCIA_PROD_ID_HASH2, F_HEX("prod_id_hash2", "pb", 8, "crc32 of product id string 2 (hex)")) \
	X(PCMCIA_PROD_ID_HASH3, F_HEX("prod_id_hash3", "pc", 8, "crc32 of product id string 3 (hex)")) \
	X(PCMCIA_PROD_ID_HASH4, F_HEX("prod_id_hash4", "pd", 8, "crc32 of product id string 4 (hex)")) \
	X(PCMCIA_PROD_ID1, F_SETTER("prod_id1", "product id string 1: sets prod_id_hash1"))     \
	X(PCMCIA_PROD_ID2, F_SETTER("prod_id2", "product id string 2: sets prod_id_hash2"))     \
	X(PCMCIA_PROD_ID3, F_SETTER("prod_id3", "product id string 3: sets prod_id_hash3"))     \
	X(PCMCIA_PROD_ID4, F_SETTER("prod_id4", "product id string 4: sets prod_id_hash4"))
enum { PCMCIA_FIELDS(FIELD_INDEX) PCMCIA_N_FIELDS };

#define CCW_FIELDS(X)                                                                           \
	X(CCW_CU_TYPE, F_HEX("cu_type", "t", 4, "control unit type (hex)"))                     \
	X(CCW_CU_MODEL, F_HEX("cu_model", "m", 2, "control unit model (hex)"))                  \
	X(CCW_DEV_TYPE, F_HEX("dev_type", "dt", 4, "device type (hex); 0 or unset: \"dtdm\""))  \
	X(CCW_DEV_MODEL, F_HEX("dev_model", "dm", 2, "device model (hex)"))
enum { CCW_FIELDS(FIELD_INDEX) CCW_N_FIELDS };

#define MDIO_FIELDS(X) X(MDIO_PHY_ID, F_HEX("phy_id", "", 8, "PHY id (hex), written as 32 binary digits"))
enum { MDIO_FIELDS(FIELD_INDEX) MDIO_N_FIELDS };

#define HDAUDIO_FIELDS(X)                                                                       \
	X(HDAUDIO_VENDOR_ID, F_HEX("vendor_id", "v", 8, "vendor and device id (hex)"))          \
	X(HDAUDIO_REV_ID, F_HEX("rev_id", "r", 8, "revision id (hex)"))                         \
	X(HDAUDIO_API_VERSION, F_HEX("api_version", "a", 2, "api version (hex)"))
enum { HDAUDIO_FIELDS(FIELD_INDEX) HDAUDIO_N_FIELDS };

#define AMBA_FIELDS(X) X(AMBA_PERIPHID, F_HEX("periphid", "d", 8, "peripheral id (hex)"))
enum { AMBA_FIELDS(FIELD_INDEX) AMBA_N_FIELDS };

#define TYPEC_FIELDS(X)                                                                         \
	X(TYPEC_SVID, F_HEX("svid", "id", 4, "standard or vendor id (hex)"))                    \
	X(TYPEC_MODE, F_HEX("mode", "m", 2, "mode (hex)"))
enum { TYPEC_FIELDS(FIELD_INDEX) TYPEC_N_FIELDS };

#define ULPI_FIELDS(X)                                                                          \
	X(ULPI_VENDOR, F_HEXF("vendor", "v", 4, FF_LOWER, "vendor id (hex, written lower-case)")) \
	X(ULPI_PRODUCT, F_HEXF("product", "p", 4, FF_LOWER, "product id (hex, written lower-case)"))
enum { ULPI_FIELDS(FIELD_INDEX) ULPI_N_FIELDS };

#define SDW_FIELDS(X)                                                                           \
	X(SDW_MFG_ID, F_HEX("mfg_id", "m", 4, "manufacturer id (hex)"))                         \
	X(SDW_PART_ID, F_HEX("part_id", "p", 4, "part id (hex)"))                               \
	X(SDW_VERSION, F_HEX("sdw_version", "v", 2, "SoundWire version (hex)"))                 \
	X(SDW_CLASS_ID, F_HEX("class_id", "c", 2, "class id (hex)"))
enum { SDW_FIELDS(FIELD_INDEX) SDW_N_FIELDS };

#define BCMA_FIELDS(X)                                                                          \
	X(BCMA_MANUF, F_HEX("manuf", "m", 4, "manufacturer (hex)"))                             \
	X(BCMA_ID, F_HEX("id", "id", 4, "core id (hex)"))                                       \
	X(BCMA_REV, F_HEX("rev", "rev", 2, "revision (hex)"))                                   \
	X(BCMA_CLASS, F_HEX("class", "cl", 2, "class (hex)"))
enum { BCMA_FIELDS(FIELD_INDEX) BCMA_N_FIELDS };

#define SSB_FIELDS(X)                                                                           \
	X(SSB_VENDOR, F_HEX("vendor", "v", 4, "vendor (hex)"))                                  \
	X(SSB_COREID, F_HEX("coreid", "id", 4, "core id (hex)"))                                \
	X(SSB_REVISION, F_HEX("revision", "rev", 2, "revision (hex)"))
enum { SSB_FIELDS(FIELD_INDEX) SSB_N_FIELDS };

#define CSS_FIELDS(X) X(CSS_TYPE, F_HEXF("type", "t", 1, FF_VARWIDTH, "subchannel type (hex, unpadded)"))
enum { CSS_FIELDS(FIELD_INDEX) CSS_N_FIELDS };

#define AP_FIELDS(X) X(AP_TYPE, F_HEX("type", "t", 2, "device type (hex)"))
enum { AP_FIELDS(FIELD_INDEX) AP_N_FIELDS };

/* nd, idxd */
#define DECTYPE_FIELDS(X) X(DECTYPE_TYPE, F_DEC("type", "t", UINT32_MAX, "device type (decimal)"))
enum { DECTYPE_FIELDS(FIELD_INDEX) DECTYPE_N_FIELDS };

/* ---- mei: drivers/misc/mei/bus.c mei_cl_device_uevent() --------------- */
#define MEI_FIELDS(X)                                                                           \
	X(MEI_NAME, F_STR("name", "", FF_EMPTY_OK, "client name (may be empty)"))               \
	X(MEI_UUID, F_STR("uuid", "", FF_LOWER, "client UUID (written lower-case)"))            \
	X(MEI_VERSION, F_HEX("version", "", 2, "client protocol version (hex)"))
enum { MEI_FIELDS(FIELD_INDEX) MEI_N_FIELDS };

/* ---- vio: arch/powerpc/platforms/pseries/vio.c ------------------------ */
#define VIO_FIELDS(X)                                                                           \
	X(VIO_TYPE, F_STR("type", "T", 0, "device_type"))                                       \
	X(VIO_COMPATIBLE, F_STR("compatible", "S", 0, "first compatible string"))
enum { VIO_FIELDS(FIELD_INDEX) VIO_N_FIELDS };

/* ---- dmi: drivers/firmware/dmi-id.c get_modalias() -------------------- */
#define F_DMI(n, t) F_STR(n, t, FF_OPTIONAL | FF_EMPTY_OK, "DMI " n " (spaces, control characters and ':' dropped)")
#define DMI_FIELDS(X)                                                                           \
	X(DMI_BIOS_VENDOR, F_DMI("bios_vendor", "bvn"))                                         \
	X(DMI_BIOS_VERSION, F_DMI("bios_version", "bvr"))                                       \
	X(DMI_BIOS_DATE, F_DMI("bios_date", "bd"))                                              \
	X(DMI_BIOS_RELEASE, F_DMI("bios_release", "br"))                                        \
	X(DMI_EC_FIRMWARE_RELEASE, F_DMI("ec_firmware_release", "efr"))                         \
	X(DMI_SYS_VENDOR, F_DMI("sys_vendor", "svn"))                                           \
	X(DMI_PRODUCT_NAME, F_DMI("product_name", "pn"))                                        \
	X(DMI_PRODUCT_VERSION, F_DMI("product_version", "pvr"))                                 \
	X(DMI_BOARD_VENDOR, F_DMI("board_vendor", "rvn"))                                       \
	X(DMI_BOARD_NAME, F_DMI("board_name", "rn"))                                            \
	X(DMI_BOARD_VERSION, F_DMI("board_version", "rvr"))                                     \
	X(DMI_CHASSIS_VENDOR, F_DMI("chassis_vendor", "cvn"))                                   \
	X(DMI_CHASSIS_TYPE, F_DMI("chassis_type", "ct"))                                        \
	X(DMI_CHASSIS_VERSION, F_DMI("chassis_version", "cvr"))                                 \
	X(DMI_PRODUCT_SKU, F_DMI("product_sku", "sku"))                                         \
	X(DMI_PRODUCT_FAMILY, F_DMI("product_family", "pfa"))
enum { DMI_FIELDS(FIELD_INDEX) DMI_N_FIELDS };

/* ---- cpu: drivers/base/cpu.c print_cpu_modalias(), and x86cpu ---------- */
#define CPU_FIELDS(X)                                                                           \
	X(CPU_ARCH, F_STR("arch", "", 0, "CPU type (x86, aarch64, power8, …)"))                 \
	X(CPU_VENDOR, F_HEXF("vendor", "ven", 4, FF_OPTIONAL, "x86 vendor (hex)"))              \
	X(CPU_FAMILY, F_HEXF("family", "fam", 4, FF_OPTIONAL, "x86 family (hex)"))              \
	X(CPU_MODEL, F_HEXF("model", "mod", 4, FF_OPTIONAL, "x86 model (hex)"))                 \
	X(CPU_FEATURE, F_LIST("feature", "", 4, 0, "feature bits (hex, comma-separated)"))
enum { CPU_FIELDS(FIELD_INDEX) CPU_N_FIELDS };

#define X86CPU_FIELDS(X)                                                                        \
	X(X86CPU_VENDOR, F_HEX("vendor", "vendor:", 4, "vendor (hex)"))                         \
	X(X86CPU_FAMILY, F_HEX("family", ":family:", 4, "family (hex)"))                        \
	X(X86CPU_MODEL, F_HEX("model", ":model:", 4, "model (hex)"))                            \
	X(X86CPU_FEATURE, F_LIST("feature", "", 4, 0, "feature bits (hex, comma-separated)"))
enum { X86CPU_FIELDS(FIELD_INDEX) X86CPU_N_FIELDS };

/* ---- the buses of scripts/mod/file2alias.c (Linux 6.12) that the kernel
 * writes with named fields; the field names are mod_devicetable.h's, the
 * strings each bus's uevent/modalias_show() ones ---------------------------- */

/* arch/parisc/kernel/drivers.c make_modalias() */
#define PARISC_FIELDS(X)                                                                        \
	X(PARISC_HW_TYPE, F_HEX("hw_type", "t", 2, "hardware type (hex)"))                      \
	X(PARISC_HVERSION, F_HEX("hversion", "hv", 4, "hardware version (hex)"))                \
	X(PARISC_HVERSION_REV, F_HEX("hversion_rev", "rev", 2, "hardware version revision (hex)")) \
	X(PARISC_SVERSION, F_HEX("sversion", "sv", 8, "software version (hex)"))
enum { PARISC_FIELDS(FIELD_INDEX) PARISC_N_FIELDS };

/* drivers/i3c/master.c i3c_device_uevent() */
#define I3C_FIELDS(X)                                                                           \
	X(I3C_DCR, F_HEX("dcr", "dcr", 2, "device characteristics register (hex)"))             \
	X(I3C_MANUF, F_HEX("manuf_id", "manuf", 4, "manufacturer id of the provisioned id (hex)")) \
	X(I3C_PART, F_HEXF("part_id", "part", 4, FF_OPTIONAL,                                   \
			   "part id (hex); part_id and extra_info unset: both left out, as for a random provisioned id")) \
	X(I3C_EXT, F_HEXF("extra_info", "ext", 4, FF_OPTIONAL, "extra info (hex), written with part_id"))
enum { I3C_FIELDS(FIELD_INDEX) I3C_N_FIELDS };

/* drivers/slimbus/core.c slim_device_uevent(): the device's name, "%x:%x:%x:%x" */
#define F_SLIM(n, t, h) { .name = (n), .tag = (t), .kind = FK_HEX, .width = 1,                  \
			  .flags = FF_LOWER | FF_VARWIDTH, .max = 0xffff, .help = (h) }
#define SLIM_FIELDS(X)                                                                          \
	X(SLIM_MANF_ID, F_SLIM("manf_id", "", "manufacturer id (hex, lower-case, unpadded)"))   \
	X(SLIM_PROD_CODE, F_SLIM("prod_code", ":", "product code (hex, lower-case, unpadded)")) \
	X(SLIM_DEV_INDEX, F_SLIM("dev_index", ":", "device index (hex, lower-case, unpadded)")) \
	X(SLIM_INSTANCE, F_SLIM("instance", ":", "instance (hex, lower-case, unpadded)"))
enum { SLIM_FIELDS(FIELD_INDEX) SLIM_N_FIELDS };

/* drivers/zorro/zorro-driver.c: ZORRO_DEVICE_MODALIAS_FMT */
#define ZORRO_FIELDS(X) X(ZORRO_ID, F_HEX("id", "i", 8, "device id (hex)"))
enum { ZORRO_FIELDS(FIELD_INDEX) ZORRO_N_FIELDS };

/* drivers/ipack/ipack.c ipack_uevent() */
#define IPACK_FIELDS(X)                                                                         \
	X(IPACK_FORMAT, F_HEX("format", "f", 2, "id format (hex)"))                             \
	X(IPACK_VENDOR, F_HEX("vendor", "v", 8, "vendor id (hex)"))                             \
	X(IPACK_DEVICE, F_HEX("device", "d", 8, "device id (hex)"))
enum { IPACK_FIELDS(FIELD_INDEX) IPACK_N_FIELDS };

/* drivers/bus/mips_cdmm.c mips_cdmm_uevent() */
#define MIPSCDMM_FIELDS(X) X(MIPSCDMM_TYPE, F_HEX("type", "t", 2, "device type (hex)"))
enum { MIPSCDMM_FIELDS(FIELD_INDEX) MIPSCDMM_N_FIELDS };

/* drivers/rapidio/rio-driver.c rio_uevent() */
#define RAPIDIO_FIELDS(X)                                                                       \
	X(RAPIDIO_VID, F_HEX("vid", "v", 4, "vendor id (hex)"))                                 \
	X(RAPIDIO_DID, F_HEX("did", "d", 4, "device id (hex)"))                                 \
	X(RAPIDIO_ASM_VID, F_HEX("asm_vid", "av", 4, "assembly vendor id (hex)"))               \
	X(RAPIDIO_ASM_DID, F_HEX("asm_did", "ad", 4, "assembly device id (hex)"))
enum { RAPIDIO_FIELDS(FIELD_INDEX) RAPIDIO_N_FIELDS };

/* drivers/bus/fsl-mc/fsl-mc-bus.c fsl_mc_bus_uevent() */
#define FSL_MC_FIELDS(X)                                                                        \
	X(FSL_MC_VENDOR, F_HEX("vendor", "v", 8, "vendor id (hex; a 16-bit id written with 8 digits)")) \
	X(FSL_MC_OBJ_TYPE, F_STR("obj_type", "d", 0, "object type (dpni, dprtc, …)"))
enum { FSL_MC_FIELDS(FIELD_INDEX) FSL_MC_N_FIELDS };

/* drivers/thunderbolt/xdomain.c get_modalias() */
#define TBSVC_FIELDS(X)                                                                         \
	X(TBSVC_KEY, F_STR("protocol_key", "k", 0, "protocol key (up to 8 characters)"))        \
	X(TBSVC_ID, F_HEX("protocol_id", "p", 8, "protocol id (hex)"))                          \
	X(TBSVC_VERSION, F_HEX("protocol_version", "v", 8, "protocol version (hex)"))           \
	X(TBSVC_REVISION, F_HEX("protocol_revision", "r", 8, "protocol revision (hex)"))
enum { TBSVC_FIELDS(FIELD_INDEX) TBSVC_N_FIELDS };

/* drivers/platform/surface/aggregator/bus.c ssam_device_uevent() */
#define SSAM_FIELDS(X)                                                                          \
	X(SSAM_DOMAIN, F_HEX("domain", "d", 2, "domain (hex)"))                                 \
	X(SSAM_CATEGORY, F_HEX("category", "c", 2, "target category (hex)"))                    \
	X(SSAM_TARGET, F_HEX("target", "t", 2, "target id (hex)"))                              \
	X(SSAM_INSTANCE, F_HEX("instance", "i", 2, "instance id (hex)"))                        \
	X(SSAM_FUNCTION, F_HEX("function", "f", 2, "function id (hex)"))
enum { SSAM_FIELDS(FIELD_INDEX) SSAM_N_FIELDS };

/* drivers/fpga/dfl.c dfl_bus_uevent() */
#define DFL_FIELDS(X)                                                                           \
	X(DFL_TYPE, F_HEX("type", "t", 4, "feature type (hex)"))                                \
	X(DFL_FEATURE_ID, F_HEX("feature_id", "f", 4, "feature id (hex)"))
enum { DFL_FIELDS(FIELD_INDEX) DFL_N_FIELDS };

/* drivers/hid/intel-ish-hid/ishtp/bus.c: the device's name, "{%pUL}" */
#define ISHTP_FIELDS(X) X(ISHTP_GUID, F_STR("guid", "", FF_UPPER, "client GUID without the braces (written upper-case)"))
enum { ISHTP_FIELDS(FIELD_INDEX) ISHTP_N_FIELDS };

/* drivers/cdx/cdx.c modalias_show() (also the vfio_cdx: form of its aliases) */
#define CDX_FIELDS(X)                                                                           \
	X(CDX_VENDOR, F_HEX("vendor", "v", 4, "vendor id (hex)"))                               \
	X(CDX_DEVICE, F_HEX("device", "d", 4, "device id (hex)"))                               \
	X(CDX_SUBVENDOR, F_HEX("subvendor", "sv", 4, "subsystem vendor id (hex)"))              \
	X(CDX_SUBDEVICE, F_HEX("subdevice", "sd", 4, "subsystem device id (hex)"))              \
	X(CDX_CLASS, F_HEX("class", "c", 6, "class (hex)"))
enum { CDX_FIELDS(FIELD_INDEX) CDX_N_FIELDS };

/* drivers/firmware/google/coreboot_table.c coreboot_bus_uevent() */
#define COREBOOT_FIELDS(X) X(COREBOOT_TAG, F_HEX("tag", "t", 8, "coreboot table entry tag (hex)"))
enum { COREBOOT_FIELDS(FIELD_INDEX) COREBOOT_N_FIELDS };

/* ---- any other bus: the text after "bus:" as it is --------------------- */
#define RAW_FIELDS(X) X(RAW_TEXT, F_STR("raw", "", FF_EMPTY_OK, "everything after the bus prefix"))
enum { RAW_FIELDS(FIELD_INDEX) RAW_N_FIELDS };
