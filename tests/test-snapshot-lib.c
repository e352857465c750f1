/*
 * Snapshots through the public API: taken from the captured sysfs trees
 * they walk as the trees do and read back byte for byte; drivers, overrides
 * and loaded modules as sysfs says them; the walk order of an edited
 * document; every rejection of a bad document with its line and column;
 * bytes that are not UTF-8 kept; a captured tree's kernel unknown unless
 * said; the kernel log's failed firmware loads recorded and read back.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sys/stat.h>
#include <unistd.h>

#include "test-common.h"

/* "DEVPATH MODALIAS|-ERRNO" lines of a walk */
static int record(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	GString *out = data;
	char *s = NULL;

	if (dev)
		g_assert_cmpint(modalias_dev_format(dev, &s), ==, 0);
	g_string_append_printf(out, "%s %s%d\n", devpath, s ? s : "", err);
	free(s);
	return 0;
}

static char *write_temp(const char *text, size_t len)
{
	g_autoptr(GError) error = NULL;
	char *path = NULL;
	int fd = g_file_open_tmp("snapshot-XXXXXX.json", &path, &error);

	g_assert_no_error(error);
	g_assert_cmpint(write(fd, text, len), ==, (ssize_t)len);
	close(fd);
	return path;
}

static void test_sysfs_roundtrip(gconstpointer data)
{
	g_autofree char *root = g_test_build_filename(G_TEST_DIST, "data", "sysfs", (const char *)data, NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_snapshot *snap, *back;
	GString *walked = g_string_new(NULL), *replayed = g_string_new(NULL);
	g_autofree char *path = NULL;
	char *doc, *doc2;

	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, root), ==, 0);
	g_assert_cmpint(modalias_sysfs_foreach(ctx, record, walked), ==, 0);
	g_assert_cmpint(modalias_snapshot_new_from_sysfs(ctx, &snap), ==, 0);
	g_assert_cmpint(modalias_snapshot_foreach(snap, record, replayed), ==, 0);
	g_assert_cmpstr(replayed->str, ==, walked->str);
	g_assert_cmpuint(modalias_snapshot_get_n_devices(snap), >, 4);
	/* a captured tree: not the running kernel's, unknown */
	g_assert_null(modalias_snapshot_get_kernel(snap));
	g_assert_null(modalias_snapshot_get_arch(snap));
	g_assert_cmpint(modalias_snapshot_set_kernel(snap, "6.1.0-57-amd64", "x86_64"), ==, 0);

	g_assert_cmpint(modalias_snapshot_format(snap, &doc), ==, 0);
	path = write_temp(doc, strlen(doc));
	g_assert_cmpint(modalias_snapshot_new_from_file(ctx, path, &back), ==, 0);
	g_assert_cmpint(modalias_snapshot_format(back, &doc2), ==, 0);
	g_assert_cmpstr(doc2, ==, doc);
	g_assert_cmpstr(modalias_snapshot_get_kernel(back), ==, "6.1.0-57-amd64");
	g_assert_cmpstr(modalias_snapshot_get_arch(back), ==, "x86_64");
	/* a captured tree without /sys/module records no module state (its
	 * xhci_hcd is xhci_pci's driver): no "modules", taken or read back */
	g_assert_null(strstr(doc, "\"modules\""));
	g_assert_cmpint(modalias_snapshot_is_module_loaded(snap, "xhci_pci"), ==, -ENODATA);
	g_assert_cmpint(modalias_snapshot_is_module_loaded(back, "xhci_pci"), ==, -ENODATA);
	g_string_truncate(replayed, 0);
	g_assert_cmpint(modalias_snapshot_foreach(back, record, replayed), ==, 0);
	g_assert_cmpstr(replayed->str, ==, walked->str);
	g_assert_cmpstr(test_log_text(), ==, "");

	unlink(path);
	free(doc);
	free(doc2);
	modalias_snapshot_unref(back);
	modalias_snapshot_unref(snap);
	g_string_free(walked, TRUE);
	g_string_free(replayed, TRUE);
	modalias_ctx_unref(ctx);
}

static void put(const char *root, const char *rel, const char *text)
{
	g_autofree char *path = g_build_filename(root, rel, NULL);
	g_autofree char *dir = g_path_get_dirname(path);
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_file_set_contents(path, text, -1, &error);
	g_assert_no_error(error);
}

static void link_to(const char *root, const char *rel, const char *target)
{
	g_autofree char *path = g_build_filename(root, rel, NULL);

	g_assert_cmpint(symlink(target, path), ==, 0);
}

/* test_driver()'s tree as its snapshot says it: built in, a /sys/module
 * entry (not a link) without an initstate or a driver of the name ('_' or
 * '-') without a module link, as modalias_sysfs_is_module_builtin() says */
static void assert_builtins(const struct modalias_snapshot *snap)
{
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "builtin"), ==, 1);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "virtio_balloon"), ==, 1);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "virtio_pci"), ==, 1);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "virtio-pci"), ==, 1);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "8250"), ==, 0);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "going"), ==, 0);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "serial8250"), ==, 0);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "nosuch"), ==, 0);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "linked"), ==, 0);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, NULL), ==, -EINVAL);
}

static void test_driver(void)
{
	g_autofree char *root = g_dir_make_tmp("sysfs-XXXXXX", NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_snapshot *snap;
	const char *sd, *sm, *so;
	char *d, *m, *o;

	put(root, "devices/platform/serial8250/modalias", "platform:serial8250\n");
	put(root, "devices/platform/serial8250/uevent", "");
	put(root, "devices/platform/serial8250/driver_override", "vfio-platform\n");
	put(root, "bus/platform/drivers/serial8250/uevent", "");
	put(root, "module/8250/initstate", "live\n");
	put(root, "module/going/initstate", "going\n");
	put(root, "module/builtin/parameters/x", "1\n");
	link_to(root, "devices/platform/serial8250/driver", "../../../bus/platform/drivers/serial8250");
	link_to(root, "bus/platform/drivers/serial8250/module", "../../../../module/8250");
	put(root, "devices/platform/pcspkr/modalias", "platform:pcspkr\n");
	put(root, "devices/platform/pcspkr/uevent", "");
	put(root, "devices/platform/pcspkr/driver_override", "(null)\n");
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, root), ==, 0);

	g_assert_cmpint(modalias_sysfs_get_driver(ctx, "/devices/platform/serial8250", &d, &m, &o), ==, 0);
	g_assert_cmpstr(d, ==, "serial8250");
	g_assert_cmpstr(m, ==, "8250");
	g_assert_cmpstr(o, ==, "vfio-platform");
	free(d), free(m), free(o);
	g_assert_cmpint(modalias_sysfs_get_driver(ctx, "/devices/platform/pcspkr", &d, &m, &o), ==, 0);
	g_assert_null(d);
	g_assert_null(m);
	g_assert_null(o); /* "(null)": none set */
	g_assert_cmpint(modalias_sysfs_get_driver(ctx, "/devices/../../etc", &d, NULL, NULL), ==, -EINVAL);
	g_assert_cmpint(modalias_sysfs_is_module_loaded(ctx, "8250"), ==, 1);
	g_assert_cmpint(modalias_sysfs_is_module_loaded(ctx, "going"), ==, 0);
	g_assert_cmpint(modalias_sysfs_is_module_loaded(ctx, "builtin"), ==, 0);
	g_assert_cmpint(modalias_sysfs_is_module_loaded(ctx, "nosuch"), ==, 0);
	g_assert_cmpint(modalias_sysfs_is_module_loaded(ctx, "../module/8250"), ==, -EINVAL);
	/* the machine's own word on a built-in module: a directory without initstate */
	g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, "builtin"), ==, 1);
	g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, "8250"), ==, 0);
	g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, "nosuch"), ==, 0);
	g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, "../module/builtin"), ==, -EINVAL);
	/* a link is not followed: not an entry of the module's own */
	link_to(root, "module/linked", "builtin");
	g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, "linked"), ==, 0);
	/* ... or a driver of its name ('_' or '-') without a module link, as a
	 * built-in virtio_balloon that has no /sys/module entry; a loaded
	 * module's driver has one */
	put(root, "bus/virtio/drivers/virtio_balloon/uevent", "");
	put(root, "bus/pci/drivers/virtio-pci/uevent", "");
	g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, "virtio_balloon"), ==, 1);
	g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, "virtio_pci"), ==, 1);
	g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, "serial8250"), ==, 0);
	g_assert_cmpint(modalias_sysfs_is_module_loaded(ctx, "virtio_balloon"), ==, 0);
	/* no driver link and no capture's .driver: uevent's DRIVER= */
	put(root, "devices/platform/i8042/modalias", "platform:i8042\n");
	put(root, "devices/platform/i8042/uevent", "DRIVER=i8042\nMODALIAS=platform:i8042\n");
	g_assert_cmpint(modalias_sysfs_get_driver(ctx, "/devices/platform/i8042", &d, &m, &o), ==, 0);
	g_assert_cmpstr(d, ==, "i8042");
	g_assert_null(m);
	g_assert_null(o);
	free(d);

	/* the snapshot says the same */
	g_assert_cmpint(modalias_snapshot_new_from_sysfs(ctx, &snap), ==, 0);
	g_assert_cmpint(modalias_snapshot_get_driver(snap, "/devices/platform/serial8250", &sd, &sm, &so), ==, 0);
	g_assert_cmpstr(sd, ==, "serial8250");
	g_assert_cmpstr(sm, ==, "8250");
	g_assert_cmpstr(so, ==, "vfio-platform");
	g_assert_cmpint(modalias_snapshot_get_driver(snap, "/devices/platform/pcspkr", &sd, &sm, &so), ==, 0);
	g_assert_null(sd);
	g_assert_null(so);
	g_assert_cmpint(modalias_snapshot_get_driver(snap, "/devices/platform/nosuch", &sd, NULL, NULL), ==, -ENOENT);
	g_assert_cmpint(modalias_snapshot_is_module_loaded(snap, "8250"), ==, 1);
	g_assert_cmpint(modalias_snapshot_is_module_loaded(snap, "going"), ==, 0);
	g_assert_cmpint(modalias_snapshot_is_module_loaded(snap, "builtin"), ==, 0);
	assert_builtins(snap);
	{
		struct modalias_dev *dev;
		char *s;

		g_assert_cmpint(modalias_snapshot_get_dev(snap, "/devices/platform/pcspkr", &dev), ==, 0);
		g_assert_cmpint(modalias_dev_format(dev, &s), ==, 0);
		g_assert_cmpstr(s, ==, "platform:pcspkr");
		free(s);
		modalias_dev_unref(dev);
		g_assert_cmpint(modalias_snapshot_get_dev(snap, "/devices/platform", &dev), ==, -ENOENT);
	}
	/* written and read back, it says the same */
	{
		g_autofree char *path = NULL;
		struct modalias_snapshot *back;
		char *doc;

		g_assert_cmpint(modalias_snapshot_format(snap, &doc), ==, 0);
		g_assert_nonnull(strstr(doc, ",\n  \"builtin\": [\n    \"builtin\"\n  ],\n  \"builtin_drivers\": [\n"
					     "    \"virtio-pci\", \"virtio_balloon\"\n  ]"));
		path = write_temp(doc, strlen(doc));
		g_assert_cmpint(modalias_snapshot_new_from_file(ctx, path, &back), ==, 0);
		assert_builtins(back);
		modalias_snapshot_unref(back);
		unlink(path);
		free(doc);
	}
	modalias_snapshot_unref(snap);
	test_rm_rf(root);
	modalias_ctx_unref(ctx);
}

/* The snapshot that DOC reads as, and its walk (record()'s lines) */
static struct modalias_snapshot *read_doc(const char *doc, char **walk)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *path = write_temp(doc, strlen(doc));
	struct modalias_snapshot *snap;
	GString *walked = g_string_new(NULL);

	g_assert_cmpint(modalias_snapshot_new_from_file(ctx, path, &snap), ==, 0);
	g_assert_cmpint(modalias_snapshot_foreach(snap, record, walked), ==, 0);
	unlink(path);
	modalias_ctx_unref(ctx); /* the snapshot holds its own reference */
	*walk = g_string_free(walked, FALSE);
	return snap;
}

/* An edited document's devices are walked as sysfs is: parents first,
 * siblings in byte order ("a" and its children before "a-x") */
static void test_order(void)
{
	g_autofree char *walk = NULL;
	struct modalias_snapshot *snap = read_doc(
		"{\"version\": 1, \"devices\": [\n"
		" {\"devpath\": \"/devices/a-x\", \"modalias\": \"platform:ax\"},\n"
		" {\"devpath\": \"/devices/a/b\", \"modalias\": \"platform:ab\"},\n"
		" {\"devpath\": \"/devices/a\", \"modalias\": \"platform:a\", \"future\": {\"x\": [1, 2.5e-3, true]}},\n"
		" {\"devpath\": \"/devices/0\", \"modalias\": null, \"errno\": 13, \"error\": \"Permission denied\"}\n"
		"], \"modules\": [\"z\", \"a\"], \"later\": null}\n", &walk);

	g_assert_cmpstr(walk, ==, "/devices/0 -13\n/devices/a platform:a0\n/devices/a/b platform:ab0\n/devices/a-x platform:ax0\n");
	g_assert_null(modalias_snapshot_get_kernel(snap));
	g_assert_cmpint(modalias_snapshot_is_module_loaded(snap, "a"), ==, 1);
	g_assert_cmpint(modalias_snapshot_is_module_loaded(snap, "z"), ==, 1);
	g_assert_cmpint(modalias_snapshot_is_module_loaded(snap, "m"), ==, 0);
	/* a document without "builtin" (written before it was) does not say */
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, "a"), ==, -ENODATA);
	modalias_snapshot_unref(snap);
}

/* Bytes that are not UTF-8 come back as they were; real characters and
 * surrogate pairs decode to UTF-8; a trailing newline is dropped, as from
 * a sysfs file */
static void test_bytes(void)
{
	g_autofree char *walk = NULL;
	struct modalias_snapshot *snap = read_doc(
		"{\"version\": 1, \"devices\": ["
		"{\"devpath\": \"/devices/x\\u00ffy\", \"modalias\": \"platform:caf\\u00e9\"},"
		"{\"devpath\": \"/devices/z\", \"modalias\": \"platform:\\ud83d\\ude00\\u20ac\\n\"}]}", &walk);

	g_assert_cmpstr(walk, ==, "/devices/x\377y platform:caf\3510\n/devices/z platform:\360\237\230\200\342\202\2540\n");
	modalias_snapshot_unref(snap);
}

/* "DEVPATH FILE ERROR" lines */
static int record_failure(void *data, const char *devpath, const char *file, int error)
{
	g_string_append_printf(data, "%s %s %d\n", devpath ? devpath : "-", file, error);
	return 0;
}

/* The kernel log's failed firmware loads: none recorded is -ENODATA (and
 * no member written); recorded ones are written, read back in their
 * order, each pair once; an empty record is still a record */
static void test_firmware_failures(void)
{
	g_autofree char *walk = NULL;
	struct modalias_snapshot *snap = read_doc("{\"version\": 1, \"kernel\": null, \"devices\": []}", &walk);
	struct modalias_snapshot *back;
	g_autoptr(GString) got = g_string_new(NULL);
	char *doc = NULL;

	g_assert_cmpint(modalias_snapshot_foreach_firmware_failure(snap, record_failure, got), ==, -ENODATA);
	g_assert_cmpint(modalias_snapshot_format(snap, &doc), ==, 0);
	g_assert_null(strstr(doc, "firmware_failures"));
	free(doc);
	g_assert_cmpint(modalias_snapshot_add_firmware_failure(snap, NULL, NULL, 0), ==, 0);
	g_assert_cmpint(modalias_snapshot_foreach_firmware_failure(snap, record_failure, got), ==, 0);
	g_assert_cmpstr(got->str, ==, "");
	g_assert_cmpint(modalias_snapshot_format(snap, &doc), ==, 0);
	g_assert_nonnull(strstr(doc, "\"firmware_failures\": []"));
	free(doc);
	g_assert_cmpint(modalias_snapshot_add_firmware_failure(snap, "/devices/pci0000:00/0000:00:14.3",
							       "iwlwifi-QuZ-a0-hr-b0-72.ucode", -ENOENT), ==, 0);
	g_assert_cmpint(modalias_snapshot_add_firmware_failure(snap, NULL, "regulatory.db", -ENOENT), ==, 0);
	g_assert_cmpint(modalias_snapshot_add_firmware_failure(snap, "/devices/pci0000:00/0000:00:14.3",
							       "iwlwifi-QuZ-a0-hr-b0-72.ucode", -ENOENT), ==, 0);
	g_assert_cmpint(modalias_snapshot_add_firmware_failure(snap, "/sys/x", "a", -ENOENT), ==, -EINVAL);
	g_assert_cmpint(modalias_snapshot_add_firmware_failure(snap, "/devices/../x", "a", -ENOENT), ==, -EINVAL);
	g_assert_cmpint(modalias_snapshot_add_firmware_failure(snap, NULL, "", -ENOENT), ==, -EINVAL);
	g_assert_cmpint(modalias_snapshot_add_firmware_failure(snap, NULL, "a", 2), ==, -EINVAL);
	g_assert_cmpint(modalias_snapshot_format(snap, &doc), ==, 0);
	g_assert_nonnull(strstr(doc, "\n  \"firmware_failures\": [\n"
				     "    {\"devpath\": \"/devices/pci0000:00/0000:00:14.3\", \"file\": \"iwlwifi-QuZ-a0-hr-b0-72.ucode\", \"errno\": 2},\n"
				     "    {\"devpath\": null, \"file\": \"regulatory.db\", \"errno\": 2}\n  ]\n}\n"));
	modalias_snapshot_unref(snap);
	g_free(walk);
	back = read_doc(doc, &walk);
	g_assert_cmpint(modalias_snapshot_foreach_firmware_failure(back, record_failure, got), ==, 0);
	g_assert_cmpstr(got->str, ==, "/devices/pci0000:00/0000:00:14.3 iwlwifi-QuZ-a0-hr-b0-72.ucode -2\n- regulatory.db -2\n");
	free(doc);
	modalias_snapshot_unref(back);
	/* "errno" as the kernel log writes it ("error -2"): the same as 2;
	 * zero is none */
	g_free(walk);
	g_string_truncate(got, 0);
	back = read_doc("{\"version\": 1, \"devices\": [], \"firmware_failures\": [{\"devpath\": null, \"file\": \"a.fw\", "
			"\"errno\": -2}, {\"devpath\": null, \"file\": \"b.fw\", \"errno\": 22}]}", &walk);
	g_assert_cmpint(modalias_snapshot_foreach_firmware_failure(back, record_failure, got), ==, 0);
	g_assert_cmpstr(got->str, ==, "- a.fw -2\n- b.fw -22\n");
	g_assert_cmpint(modalias_snapshot_format(back, &doc), ==, 0);
	g_assert_nonnull(strstr(doc, "{\"devpath\": null, \"file\": \"a.fw\", \"errno\": 2}"));
	free(doc);
	modalias_snapshot_unref(back);
	/* null: no record of the kernel log, as without the member */
	g_free(walk);
	back = read_doc("{\"version\": 1, \"devices\": [], \"firmware_failures\": null}", &walk);
	g_assert_cmpint(modalias_snapshot_foreach_firmware_failure(back, record_failure, got), ==, -ENODATA);
	modalias_snapshot_unref(back);
}

static const struct bad {
	const char *doc;
	int error;
	const char *where; /* the message's "FILE:LINE:COLUMN: …" after the file name */
} bad[] = {
	{ "", -EBADMSG, ":1:1: the file ends too early (cut short?): an object expected" },
	{ "[]", -EBADMSG, ":1:1: an object expected" },
	{ "{\"version\": 1}", -EBADMSG, ":1:1: no \"devices\"" },
	{ "{\"version\": 3, \"devices\": []}", -EPROTONOSUPPORT, ":1:13: a snapshot version" },
	{ "{\"version\": 1.5, \"devices\": []}", -EBADMSG, ":1:13: a number out of range" },
	{ "{\"version\": \"1\", \"devices\": []}", -EBADMSG, ":1:13: a number expected" },
	{ "{\"version\": 1, \"devices\": [], }", -EBADMSG, ":1:31: a string expected" },
	{ "{\"version\": 1,\n\"devices\": [{\"devpath\": 7}]}", -EBADMSG, ":2:25: a string expected" },
	{ "{\"version\": 1, \"devices\": [{\"devpath\": \"/devices/a\", \"devpath\": \"/devices/b\"}]}", -EBADMSG,
	  ":1:54: a member given twice" },
	{ "{\"version\": 1, \"devices\": [{\"devpath\": \"/devices/a\", \"modalias\": \"platform:\\x\"}]}", -EBADMSG,
	  ":1:76: an unknown escape" },
	{ "{\"version\": 1, \"devices\": [{\"devpath\": \"/devices/a\", \"modalias\": \"platform:\\u12\"}]}", -EBADMSG,
	  ":1:76: a unicode escape needs four hex digits" },
	{ "{\"version\": 1, \"devices\": [{\"devpath\": \"/devices/a\", \"modalias\": \"a\tb\"}]}", -EBADMSG,
	  ":1:68: a control character" },
	{ "{\"version\": 1, \"devices\": [{\"devpath\": \"/devices/a\", \"modalias\": \"platform:\\udc00\"}]}", -EBADMSG,
	  ":1:76: a low surrogate alone" },
	{ "{\"version\": 1, \"devices\": [{\"devpath\": \"/devices/a\", \"errno\": 5, \"modalias\": \"platform:a\"}]}",
	  -EBADMSG, ":1:28: a device with both a modalias and an errno" },
	{ "{\"version\": 1, \"devices\": [{\"devpath\": \"/devices/a\", \"modalias\": \"platform:a\"}], \"modules\": [\"\"]}",
	  -EBADMSG, ":1:94: not a module name" },
	{ "{\"version\": 1, \"devices\": [], \"x\": tru}", -EBADMSG, ":1:36: a value expected" },
	{ "{\"version\": 1, \"devices\": [], \"builtin\": [\"a/b\"]}", -EBADMSG, ":1:43: not a module name" },
	{ "{\"version\": 1, \"devices\": [], \"builtin\": [], \"builtin\": []}", -EBADMSG, ":1:46: a member given twice" },
	{ "{\"version\": 1, \"devices\": [], \"builtin\": [\"a\", \"a\"]}", -EBADMSG, ": 'a' is listed twice in \"builtin\"" },
	{ "{\"version\": 1, \"devices\": [], \"builtin_drivers\": [\"a-b\", \"a-b\"]}", -EBADMSG,
	  ": 'a-b' is listed twice in \"builtin_drivers\"" },
	{ "{\"version\": 1, \"devices\": [], \"modules\": [], \"modules\": []}", -EBADMSG, ":1:46: a member given twice" },
	{ "{\"version\": 1, \"devices\": [], \"firmware_failures\": [{\"devpath\": null, \"errno\": 2}]}", -EBADMSG,
	  ":1:53: a firmware failure needs its \"file\" and \"errno\"" },
	{ "{\"version\": 1, \"devices\": [], \"firmware_failures\": [{\"devpath\": \"/sys/a\", \"file\": \"f\", \"errno\": 2}]}",
	  -EBADMSG, ":1:53: the devpath is not a path below /devices" },
	{ "{\"version\": 1, \"devices\": [], \"firmware_failures\": [{\"file\": \"f\", \"errno\": 0}]}", -EBADMSG,
	  ":1:76: a number out of range" },
	{ "{\"version\": 1, \"devices\": [], \"firmware_failures\": [{\"file\": \"f\", \"errno\": -4096}]}", -EBADMSG,
	  ":1:76: a number out of range" },
};

static void test_bad(void)
{
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		struct modalias_ctx *ctx = test_ctx_new();
		g_autofree char *path = write_temp(bad[i].doc, strlen(bad[i].doc));
		g_autofree char *want = g_strconcat(path, bad[i].where, NULL);
		struct modalias_snapshot *snap = NULL;

		g_test_message("%s", bad[i].doc);
		g_assert_cmpint(modalias_snapshot_new_from_file(ctx, path, &snap), ==, bad[i].error);
		g_assert_null(snap);
		g_assert_nonnull(strstr(test_log_text(), want));
		unlink(path);
		modalias_ctx_unref(ctx);
	}
}

/* NAME's answers from SNAP and BACK (it written and read back) are what
 * sysfs says; 1 when built in */
static int builtin_as_sysfs(struct modalias_ctx *ctx, const struct modalias_snapshot *snap,
			    const struct modalias_snapshot *back, const char *name)
{
	int want = modalias_sysfs_is_module_builtin(ctx, name);

	g_assert_cmpint(want, >=, 0);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, name), ==, want);
	g_assert_cmpint(modalias_snapshot_is_module_builtin(back, name), ==, want);
	return want;
}

/* Small trees where the live call and a snapshot could part: every name
 * asked of both, and of the snapshot written and read back, and a name no
 * module can have refused by all three */
struct builtin_tree {
	const char *name;
	const char *dirs[3];     /* made below the root, with devices/ */
	const char *links[2][2]; /* a link below the root, and its target */
	const char *ask[3];
	bool unknown; /* neither module/ nor bus/ to ask: the snapshot does not say */
};

static const struct builtin_tree builtin_trees[] = {
	/* a module entry's name is the module's: no '-' spelling for it */
	{ "dashed-module-entry", { "module/mod-a" }, { { NULL } }, { "mod_a", "mod-a" } },
	/* links on the way are followed (SYSFS_ROOT/bus itself is not) */
	{ "module-a-link", { "elsewhere/mod_a" }, { { "module", "elsewhere" } }, { "mod_a" } },
	{ "drivers-a-link", { "bus/pci", "elsewhere/mod_a" }, { { "bus/pci/drivers", "../../elsewhere" } }, { "mod_a" } },
	{ "bus-a-link", { "bus", "elsewhere/drivers/mod_a" }, { { "bus/pci", "../elsewhere" } }, { "mod_a" } },
	{ "root-bus-a-link", { "elsewhere/pci/drivers/mod_a" }, { { "bus", "elsewhere" } }, { "mod_a" }, true },
	/* ... the entry itself is not */
	{ "entry-a-link", { "module/real", "bus/pci/drivers/drv" },
	  { { "module/linked", "real" }, { "bus/pci/drivers/drv-linked", "drv" } }, { "linked", "drv_linked", "real" } },
};

static void test_builtins_as_sysfs(gconstpointer data)
{
	const struct builtin_tree *tree = data;
	const char *const invalid[] = { "", "a/b", "\x1b[2J", ".hidden" };
	g_autofree char *root = g_dir_make_tmp("sysfs-XXXXXX", NULL);
	g_autofree char *devices = g_build_filename(root, "devices", NULL);
	g_autofree char *path = NULL, *long_name = g_strnfill(300, 'a');
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_snapshot *snap, *back;
	char *doc;

	g_assert_cmpint(g_mkdir_with_parents(devices, 0755), ==, 0);
	for (size_t i = 0; i < G_N_ELEMENTS(tree->dirs) && tree->dirs[i]; i++) {
		g_autofree char *dir = g_build_filename(root, tree->dirs[i], NULL);

		g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(tree->links) && tree->links[i][0]; i++)
		link_to(root, tree->links[i][0], tree->links[i][1]);
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, root), ==, 0);
	g_assert_cmpint(modalias_snapshot_new_from_sysfs(ctx, &snap), ==, 0);
	g_assert_cmpint(modalias_snapshot_format(snap, &doc), ==, 0);
	path = write_temp(doc, strlen(doc));
	g_assert_cmpint(modalias_snapshot_new_from_file(ctx, path, &back), ==, 0);
	for (size_t i = 0; i < G_N_ELEMENTS(tree->ask) && tree->ask[i]; i++) {
		g_test_message("%s: %s", tree->name, tree->ask[i]);
		if (!tree->unknown) {
			builtin_as_sysfs(ctx, snap, back, tree->ask[i]);
			continue;
		}
		g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, tree->ask[i]), ==, 0);
		g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, tree->ask[i]), ==, -ENODATA);
		g_assert_cmpint(modalias_snapshot_is_module_builtin(back, tree->ask[i]), ==, -ENODATA);
	}
	for (size_t i = 0; i <= G_N_ELEMENTS(invalid); i++) {
		const char *name = i < G_N_ELEMENTS(invalid) ? invalid[i] : long_name;

		g_assert_cmpint(modalias_sysfs_is_module_builtin(ctx, name), ==, -EINVAL);
		g_assert_cmpint(modalias_snapshot_is_module_builtin(snap, name), ==, -EINVAL);
		g_assert_cmpint(modalias_snapshot_is_module_loaded(snap, name), ==, -EINVAL);
	}
	unlink(path);
	free(doc);
	modalias_snapshot_unref(back);
	modalias_snapshot_unref(snap);
	test_rm_rf(root);
	modalias_ctx_unref(ctx);
}

/* This machine's /sys: every module entry and driver name (and a driver's
 * '-' written '_') is built in for its snapshot, and for the snapshot
 * written and read back, exactly when sysfs says so */
static void test_builtins_this_machine(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_snapshot *snap, *back;
	g_autoptr(GDir) modules = g_dir_open("/sys/module", 0, NULL);
	g_autoptr(GDir) buses = g_dir_open("/sys/bus", 0, NULL);
	g_autofree char *path = NULL;
	unsigned int names = 0, builtin = 0;
	const char *name, *bus;
	char *doc;

	if (!modules || !buses) {
		g_test_skip("no /sys/module or /sys/bus here");
		modalias_ctx_unref(ctx);
		return;
	}
	g_assert_cmpint(modalias_snapshot_new_from_sysfs(ctx, &snap), ==, 0);
	g_assert_cmpint(modalias_snapshot_format(snap, &doc), ==, 0);
	path = write_temp(doc, strlen(doc));
	g_assert_cmpint(modalias_snapshot_new_from_file(ctx, path, &back), ==, 0);
	while ((name = g_dir_read_name(modules))) {
		builtin += (unsigned int)builtin_as_sysfs(ctx, snap, back, name);
		names++;
	}
	while ((bus = g_dir_read_name(buses))) {
		g_autofree char *drivers = g_build_filename("/sys/bus", bus, "drivers", NULL);
		g_autoptr(GDir) d = g_dir_open(drivers, 0, NULL);

		while (d && (name = g_dir_read_name(d))) {
			g_autofree char *underscored = g_strdelimit(g_strdup(name), "-", '_');

			if (strchr(name, '/') || !*name)
				continue;
			builtin += (unsigned int)builtin_as_sysfs(ctx, snap, back, name);
			builtin += (unsigned int)builtin_as_sysfs(ctx, snap, back, underscored);
			names += 2;
		}
	}
	g_test_message("%u names asked, %u built in", names, builtin);
	/* a kernel always has built-in parts with a /sys/module entry (printk, kernel) */
	g_assert_cmpuint(builtin, >, 0);
	g_assert_cmpstr(test_log_text(), ==, "");
	unlink(path);
	free(doc);
	modalias_snapshot_unref(back);
	modalias_snapshot_unref(snap);
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_data_func("/snapshot/sysfs/qemu-q35", "qemu-q35", test_sysfs_roundtrip);
	g_test_add_data_func("/snapshot/sysfs/host-vm", "host-vm", test_sysfs_roundtrip);
	g_test_add_data_func("/snapshot/sysfs/kernel-upgrade", "kernel-upgrade", test_sysfs_roundtrip);
	g_test_add_func("/snapshot/driver", test_driver);
	g_test_add_func("/snapshot/builtins-this-machine", test_builtins_this_machine);
	for (size_t i = 0; i < G_N_ELEMENTS(builtin_trees); i++) {
		g_autofree char *name = g_strconcat("/snapshot/builtins-as-sysfs/", builtin_trees[i].name, NULL);

		g_test_add_data_func(name, &builtin_trees[i], test_builtins_as_sysfs);
	}
	g_test_add_func("/snapshot/order", test_order);
	g_test_add_func("/snapshot/bytes", test_bytes);
	g_test_add_func("/snapshot/bad", test_bad);
	g_test_add_func("/snapshot/firmware-failures", test_firmware_failures);
	return g_test_run();
}
