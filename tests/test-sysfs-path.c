/*
 * modalias_sysfs_devpath(): the device a path below the sysfs root leads
 * to.  The captures keep no links (tests/data/README.md), so the test
 * copies qemu-q35's devices/ into a private directory as ROOT/sys and
 * gives it the links the kernel makes (bus/, class/, dev/, a device's
 * "device"), and hostile ones: links out of the root, out and back in,
 * absolute, in a loop, a chain one link too long, a FIFO and a file where
 * a directory is walked into.  Each row resolves one path; a device found
 * is read back (modalias_dev_new_from_sysfs()) and must give the modalias
 * the capture recorded for it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sys/stat.h>
#include <unistd.h>

#include "test-common.h"

#define CAPTURE "qemu-q35"
#define XHCI "/devices/pci0000:00/0000:00:03.0"

/* One line a node below the test's directory: "l PATH TARGET" (a link,
 * "@" in TARGET is the directory itself), "d PATH", "p PATH" (a FIFO) */
static const char tree[] =
	/* as the kernel makes them */
	"l sys/bus/pci/devices/0000:00:03.0 ../../../devices/pci0000:00/0000:00:03.0\n"
	"d sys/bus/pci/drivers/xhci_hcd\n"
	"l sys/bus/pci/drivers/xhci_hcd/0000:00:03.0 ../../../../devices/pci0000:00/0000:00:03.0\n"
	"l sys/devices/pci0000:00/0000:00:03.0/subsystem ../../../bus/pci\n"
	"l sys/class/net/eth0 ../../devices/pci0000:00/0000:00:02.0/net/eth0\n"
	"l sys/devices/pci0000:00/0000:00:02.0/net/eth0/device ../../../0000:00:02.0\n"
	"l sys/class/input/input0 ../../devices/platform/i8042/serio0/input/input0\n"
	"l sys/dev/char/13:64 ../../devices/platform/i8042/serio0/input/input0/event0\n"
	/* hostile */
	"d outside/devices/a\n"
	"l sys/bus/pci/devices/0000:00:09.0 ../../../../outside/devices/a\n"
	"l sys/bus/pci/devices/0000:00:0a.0 ../../../../outside/../sys/devices/pci0000:00/0000:00:03.0\n"
	"l sys/class/abs/xhci @/sys/devices/pci0000:00/0000:00:03.0\n"
	"l sys/class/up/root ../../..\n"
	"l sys/class/loop/a b\n"
	"l sys/class/loop/b a\n"
	"l sys/class/loop/self self/x\n"
	"l sys/class/net/eth9 ../../devices/virtual/net/eth9\n"
	"p sys/devices/pci0000:00/fifo\n"
	"l sys/class/fifo/f ../../devices/pci0000:00/fifo\n";

/* class/chain/cN -> cN+1, c40 -> the xhci controller: c1 is 40 links
 * away from it, the bound; c0 one more */
#define CHAIN 40
/* class/yoyo/yN -> "../yoyo/" YOYO times, then yN+1; the last to the xhci
 * controller: each link costs 2 * YOYO directories entered (each ".."
 * walked again from the root), y0 more than the bound of 4096, y3 fewer */
#define YOYO 480
#define YOYO_LINKS 5

struct row {
	const char *path;
	int want;
	const char *devpath; /* when want is 0 */
};

static const struct row rows[] = {
	{ "bus/pci/devices/0000:00:03.0", 0, XHCI },
	{ "/bus/pci/devices/0000:00:03.0/", 0, XHCI },
	{ "bus/pci/drivers/xhci_hcd/0000:00:03.0", 0, XHCI },
	{ "class/net/eth0", 0, "/devices/pci0000:00/0000:00:02.0/net/eth0" },
	{ "class/net/eth0/device", 0, "/devices/pci0000:00/0000:00:02.0" },
	{ "class/input/input0", 0, "/devices/platform/i8042/serio0/input/input0" },
	{ "dev/char/13:64", 0, "/devices/platform/i8042/serio0/input/input0/event0" },
	{ XHCI, 0, XHCI },
	{ "devices/pci0000:00/./0000:00:03.0//", 0, XHCI },
	{ "devices/../bus/pci/devices/0000:00:03.0", 0, XHCI },
	{ "class/chain/c1", 0, XHCI },
	{ "class/yoyo/y3", 0, XHCI },
	/* inside the root, but no device */
	{ "bus/pci", -ENODEV, NULL },
	{ "bus/pci/drivers/xhci_hcd", -ENODEV, NULL },
	{ XHCI "/subsystem", -ENODEV, NULL },
	{ "devices", -ENODEV, NULL },
	{ "", -ENODEV, NULL },
	/* out of the root, even when back in it */
	{ "bus/pci/devices/0000:00:09.0", -EXDEV, NULL },
	{ "bus/pci/devices/0000:00:0a.0", -EXDEV, NULL },
	{ "../sys" XHCI, -EXDEV, NULL },
	{ "devices/../.." XHCI, -EXDEV, NULL },
	{ "class/abs/xhci", -EXDEV, NULL },
	{ "class/up/root", -EXDEV, NULL },
	/* loops, and one link more than the bound */
	{ "class/loop/a", -ELOOP, NULL },
	{ "class/loop/self", -ELOOP, NULL },
	{ "class/chain/c0", -ELOOP, NULL },
	{ "class/yoyo/y0", -ELOOP, NULL },
	/* not there; not a directory */
	{ "class/net/eth8", -ENOENT, NULL },
	{ "class/net/eth9", -ENOENT, NULL },
	{ "/devices/nosuch", -ENOENT, NULL },
	{ XHCI "/modalias", -ENOTDIR, NULL },
	{ XHCI "/modalias/x", -ENOTDIR, NULL },
	{ "devices/pci0000:00/fifo/x", -ENOTDIR, NULL },
	{ "class/fifo/f", -ENOTDIR, NULL },
};

static char *top; /* the test's directory; the sysfs root is TOP/sys */

static void make_node(const char *line)
{
	g_auto(GStrv) f = g_strsplit(line, " ", 3);
	g_autofree char *path = g_build_filename(top, f[1], NULL);
	g_autofree char *dir = g_path_get_dirname(path);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	if (f[0][0] == 'd') {
		g_assert_cmpint(g_mkdir_with_parents(path, 0755), ==, 0);
	} else if (f[0][0] == 'p') {
		g_assert_cmpint(mkfifo(path, 0644), ==, 0);
	} else {
		g_auto(GStrv) parts = g_strsplit(f[2], "@", -1);
		g_autofree char *target = g_strjoinv(top, parts);

		g_assert_cmpint(symlink(target, path), ==, 0);
	}
}

static void make_tree(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *capture = g_test_build_filename(G_TEST_DIST, "data", "sysfs", CAPTURE, "devices", NULL);
	g_autofree char *sys = NULL, *cmd = NULL;
	g_auto(GStrv) lines = g_strsplit(tree, "\n", -1);

	top = g_dir_make_tmp("modalias-sysfs-path-XXXXXX", &error);
	g_assert_no_error(error);
	sys = g_build_filename(top, "sys", NULL);
	g_assert_cmpint(g_mkdir_with_parents(sys, 0755), ==, 0);
	cmd = g_strdup_printf("cp -R '%s' '%s/'", capture, sys);
	g_assert_cmpint(system(cmd), ==, 0);
	for (char **l = lines; *l; l++)
		if (**l)
			make_node(*l);
	for (int i = 0; i <= CHAIN; i++) {
		g_autofree char *line = i < CHAIN ? g_strdup_printf("l sys/class/chain/c%d c%d", i, i + 1)
						  : g_strdup_printf("l sys/class/chain/c%d ../..%s", i, XHCI);
		make_node(line);
	}
	for (int i = 0; i < YOYO_LINKS; i++) {
		g_autoptr(GString) line = g_string_new(NULL);

		g_string_printf(line, "l sys/class/yoyo/y%d ", i);
		for (int k = 0; k < YOYO; k++)
			g_string_append(line, "../yoyo/");
		if (i + 1 < YOYO_LINKS)
			g_string_append_printf(line, "y%d", i + 1);
		else
			g_string_append(line, "../.." XHCI);
		make_node(line->str);
	}
}

/* The modalias the capture recorded for DEVPATH, or NULL when none */
static char *captured_modalias(const char *devpath)
{
	g_autofree char *path = g_test_build_filename(G_TEST_DIST, "data", "sysfs", CAPTURE, devpath, "modalias", NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	g_strchomp(text);
	return text;
}

static void test_row(gconstpointer data)
{
	const struct row *row = data;
	g_autofree char *sys = g_build_filename(top, "sys", NULL), *want_alias = NULL, *alias = NULL;
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev = NULL;
	char *devpath = NULL;
	int r;

	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, sys), ==, 0);
	r = modalias_sysfs_devpath(ctx, row->path, &devpath);
	g_assert_cmpstr(r == 0 ? "0" : g_strerror(-r), ==, row->want == 0 ? "0" : g_strerror(-row->want));
	g_assert_cmpstr(devpath, ==, row->devpath);
	g_assert_cmpstr(test_log_text(), ==, "");
	if (devpath) {
		/* the devpath is the device's: it reads as the capture says */
		want_alias = captured_modalias(devpath);
		r = modalias_dev_new_from_sysfs(ctx, devpath, &dev);
		if (want_alias) {
			g_assert_cmpint(r, ==, 0);
			alias = test_format(dev);
			g_assert_cmpstr(alias, ==, want_alias);
		} else {
			g_assert_cmpint(r, ==, -ENODATA);
		}
		modalias_dev_unref(dev);
	}
	free(devpath);
	modalias_ctx_unref(ctx);
}

static void test_arguments(void)
{
	g_autofree char *sys = g_build_filename(top, "sys", NULL), *slash = g_strconcat(sys, "/", NULL);
	g_autofree char *gone = g_build_filename(top, "nosuch", NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	char *devpath = NULL;

	g_assert_cmpint(modalias_sysfs_devpath(NULL, XHCI, &devpath), ==, -EINVAL);
	g_assert_cmpint(modalias_sysfs_devpath(ctx, NULL, &devpath), ==, -EINVAL);
	g_assert_cmpint(modalias_sysfs_devpath(ctx, XHCI, NULL), ==, -EINVAL);
	g_assert_null(devpath);
	/* the root with a trailing '/' is the same root */
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, slash), ==, 0);
	g_assert_cmpint(modalias_sysfs_devpath(ctx, "class/net/eth0/device", &devpath), ==, 0);
	g_assert_cmpstr(devpath, ==, "/devices/pci0000:00/0000:00:02.0");
	free(devpath);
	devpath = NULL;
	/* the root's own error */
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, gone), ==, 0);
	g_assert_cmpint(modalias_sysfs_devpath(ctx, XHCI, &devpath), ==, -ENOENT);
	g_assert_null(devpath);
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	int r;

	g_test_init(&argc, &argv, NULL);
	make_tree();
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *shown = g_strdelimit(g_strdup(rows[i].path[0] ? rows[i].path : "(empty)"), "/", '|');
		g_autofree char *name = g_strdup_printf("/sysfs-path/%02zu %s", i, shown);
		g_test_add_data_func(name, &rows[i], test_row);
	}
	g_test_add_func("/sysfs-path/arguments", test_arguments);
	r = g_test_run();
	test_rm_rf(top);
	g_free(top);
	return r;
}
