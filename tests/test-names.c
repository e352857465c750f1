/*
 * Device names through the public API: the captured q35 machine's devices
 * named from Debian's real pci.ids and usb.ids (as lspci and lsusb name
 * them); the format's corners on a small database; absent databases give
 * no names and no error; nothing is read before the first lookup.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <unistd.h>

#include "test-common.h"

struct names {
	const char *vendor, *device, *class;
	int n;
};

static struct names lookup(struct modalias_ctx *ctx, struct modalias_names *names, const char *modalias)
{
	struct modalias_dev *dev;
	struct names got;

	g_assert_cmpint(modalias_parse(ctx, modalias, &dev), ==, 0);
	got.n = modalias_names_lookup(names, dev, &got.vendor, &got.device, &got.class);
	modalias_dev_unref(dev);
	return got;
}

/* The devices of tests/data/sysfs/qemu-q35, with the system's databases */
static void test_system_databases(void)
{
	struct modalias_ctx *ctx;
	struct modalias_names *names;
	struct names n;

	if (access("/usr/share/misc/pci.ids", R_OK) != 0 || access("/usr/share/misc/usb.ids", R_OK) != 0) {
		g_test_skip("Debian's pci.ids and usb.ids are not installed (.ci/install-deps installs them)");
		return;
	}
	ctx = test_ctx_new();
	g_assert_cmpint(modalias_names_new(ctx, NULL, &names), ==, 0);
	/* qemu-q35's 0000:00:1f.2 */
	n = lookup(ctx, names, "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01");
	g_assert_cmpint(n.n, ==, 3);
	g_assert_cmpstr(n.vendor, ==, "Intel Corporation");
	g_assert_cmpstr(n.device, ==, "82801IR/IO/IH (ICH9R/DO/DH) 6 port SATA Controller [AHCI mode]");
	g_assert_cmpstr(n.class, ==, "SATA controller");
	/* its USB tablet's interface */
	n = lookup(ctx, names, "usb:v0627p0001d0000dc00dsc00dp00ic03isc00ip00in00");
	g_assert_cmpint(n.n, ==, 3);
	g_assert_cmpstr(n.vendor, ==, "Adomax Technology Co., Ltd");
	g_assert_cmpstr(n.device, ==, "QEMU Tablet");
	g_assert_cmpstr(n.class, ==, "Human Interface Device");
	/* the same ids in usb.ids and pci.ids are different vendors */
	g_assert_cmpint(modalias_names_lookup_ids(names, "usb", 0x1b36, 0x000d, &n.vendor, &n.device), ==, 1);
	g_assert_cmpstr(n.vendor, ==, "ViXS Systems, Inc.");
	g_assert_null(n.device);
	g_assert_cmpint(modalias_names_lookup_ids(names, "pci", 0x1b36, 0x000d, &n.vendor, &n.device), ==, 2);
	g_assert_cmpstr(n.vendor, ==, "Red Hat, Inc.");
	g_assert_cmpstr(n.device, ==, "QEMU XHCI Host Controller");
	/* a bus without a database */
	n = lookup(ctx, names, "virtio:d00000001v00001AF4");
	g_assert_cmpint(n.n, ==, 0);
	g_assert_null(n.vendor);
	g_assert_cmpstr(test_log_text(), ==, "");
	modalias_names_unref(names);
	modalias_ctx_unref(ctx);
}

static void put(const char *dir, const char *file, const char *text)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	g_autoptr(GError) error = NULL;

	g_assert_true(g_file_set_contents(path, text, -1, &error));
}

/* The format's corners; the files written after the object is made (it
 * reads nothing before the first lookup) */
static void test_db_format(void)
{
	g_autofree char *dir = g_dir_make_tmp("names-XXXXXX", NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_names *names;
	struct names n;

	g_assert_cmpint(modalias_names_new(ctx, dir, &names), ==, 0);
	put(dir, "usb.ids",
	    "# usb.ids\r\n"
	    "1234  Second Vendor  \r\n"
	    "# a comment inside a vendor's block\n"
	    "\t0001  Widget\r\n"
	    "\t\t00  an interface line, not a device\r\n"
	    "0abc  First Vendor\n"
	    "\tbeef  Gadget\n"
	    "C 03  Human Interface Device\n"
	    "\t01  Boot Interface Subclass\n"
	    "HID 22  Report\n"
	    "\t0002  not Gadget's sibling\n");
	put(dir, "pci.ids", "8086  Intel\n\t2922  SATA thing\nC 01  Mass storage controller\n\t06  SATA controller\n");

	g_assert_cmpint(modalias_names_lookup_ids(names, "usb", 0x1234, 1, &n.vendor, &n.device), ==, 2);
	g_assert_cmpstr(n.vendor, ==, "Second Vendor");
	g_assert_cmpstr(n.device, ==, "Widget");
	/* a line two tabs deep is no device; a section after the vendor ends it */
	g_assert_cmpint(modalias_names_lookup_ids(names, "usb", 0x1234, 0, &n.vendor, &n.device), ==, 1);
	g_assert_null(n.device);
	g_assert_cmpint(modalias_names_lookup_ids(names, "usb", 0x0abc, 2, NULL, &n.device), ==, 1);
	g_assert_null(n.device);
	g_assert_cmpint(modalias_names_lookup_ids(names, "usb", 0x0abc, 0xbeef, NULL, &n.device), ==, 2);
	g_assert_cmpstr(n.device, ==, "Gadget");
	g_assert_cmpint(modalias_names_lookup_ids(names, "usb", 0x5555, 1, &n.vendor, &n.device), ==, 0);
	g_assert_null(n.vendor);

	/* usb: the interface's class, the device's when the interface's is 00 */
	n = lookup(ctx, names, "usb:v0ABCpBEEFd0000dc03dsc00dp00ic00isc00ip00in00");
	g_assert_cmpint(n.n, ==, 3);
	g_assert_cmpstr(n.class, ==, "Human Interface Device");
	n = lookup(ctx, names, "usb:v0ABCpBEEFd0000dc00dsc00dp00ic00isc00ip00in00");
	g_assert_cmpint(n.n, ==, 2);
	g_assert_null(n.class);
	/* pci: the subclass's name, else the class's */
	n = lookup(ctx, names, "pci:v00008086d00002922sv00000000sd00000000bc01sc06i01");
	g_assert_cmpint(n.n, ==, 3);
	g_assert_cmpstr(n.device, ==, "SATA thing");
	g_assert_cmpstr(n.class, ==, "SATA controller");
	n = lookup(ctx, names, "pci:v00008086d00002923sv00000000sd00000000bc01sc07i00");
	g_assert_cmpint(n.n, ==, 2);
	g_assert_cmpstr(n.class, ==, "Mass storage controller");
	g_assert_cmpstr(test_log_text(), ==, "");

	modalias_names_unref(names);
	test_rm_rf(dir);
	modalias_ctx_unref(ctx);
}

/* No database: no names, no error, nothing logged */
static void test_absent(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_names *names, *again;
	struct names n;

	g_assert_cmpint(modalias_names_new(ctx, "/nonexistent", &names), ==, 0);
	n = lookup(ctx, names, "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01");
	g_assert_cmpint(n.n, ==, 0);
	g_assert_null(n.vendor);
	g_assert_null(n.device);
	g_assert_null(n.class);
	g_assert_cmpint(modalias_names_lookup_ids(names, "usb", 0x0627, 1, NULL, NULL), ==, 0);
	g_assert_cmpint(modalias_names_lookup_ids(names, NULL, 0, 0, NULL, NULL), ==, -EINVAL);
	g_assert_cmpint(modalias_names_new(NULL, NULL, &names), ==, -EINVAL);
	g_assert_cmpstr(test_log_text(), ==, "");
	again = modalias_names_ref(names);
	g_assert_true(modalias_names_unref(again) == names);
	g_assert_null(modalias_names_unref(names));
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/names/system-databases", test_system_databases);
	g_test_add_func("/names/format", test_db_format);
	g_test_add_func("/names/absent", test_absent);
	return g_test_run();
}
