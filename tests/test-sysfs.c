/*
 * Devices from sysfs trees captured on real machines (tests/data/sysfs/):
 * the modalias attribute, the uevent file, the rebuild from id attributes,
 * and the walk over every device.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sys/stat.h>
#include <unistd.h>

#include "libmodalias-private.h"
#include "test-common.h"

static char *sysfs_root(const char *capture)
{
	return g_test_build_filename(G_TEST_DIST, "data", "sysfs", capture, NULL);
}

static int cmp_strptr(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every device directory of a capture that has a modalias file, found with
 * GLib, independently of the library: devpath → modalias. */
static void collect(const char *root, const char *devpath, GHashTable *out, GPtrArray *order)
{
	g_autofree char *dir = g_strconcat(root, devpath, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);
		if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
			g_ptr_array_add(names, g_strdup(name));
	}
	g_dir_close(d);
	g_ptr_array_sort(names, cmp_strptr);
	for (guint i = 0; i < names->len; i++) {
		g_autofree char *sub = g_strconcat(devpath, "/", (char *)g_ptr_array_index(names, i), NULL);
		g_autofree char *mf = g_strconcat(root, sub, "/modalias", NULL);
		g_autofree char *text = NULL;

		if (g_file_get_contents(mf, &text, NULL, NULL)) {
			g_strchomp(text);
			g_hash_table_insert(out, g_strdup(sub), g_steal_pointer(&text));
			g_ptr_array_add(order, g_strdup(sub));
		}
		collect(root, sub, out, order);
	}
}

struct walked {
	GPtrArray *devpaths;
	GHashTable *modalias;
	unsigned int errors;
};

static int walk_cb(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct walked *w = data;

	if (err < 0) {
		w->errors++;
		return 0;
	}
	g_ptr_array_add(w->devpaths, g_strdup(devpath));
	g_hash_table_insert(w->modalias, g_strdup(devpath), test_format(dev));
	return 0;
}

struct capture {
	const char *name;
	unsigned int min_devices;
	/* buses that the rebuild from id attributes must have been checked on */
	const char *rebuilt[8];
};

static const struct capture captures[] = {
	{ "host-vm", 20, { "pci", "virtio", NULL } },
	{ "qemu-q35", 40, { "pci", "usb", "input", "serio", "scsi", NULL } },
};

static void test_capture(gconstpointer data)
{
	const struct capture *cap = data;
	g_autofree char *root = sysfs_root(cap->name);
	g_autoptr(GHashTable) want = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) rebuilt = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	struct walked w = {
		.devpaths = g_ptr_array_new_with_free_func(g_free),
		.modalias = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, free),
	};
	struct modalias_ctx *ctx = test_ctx_new();
	GHashTableIter it;
	gpointer k, v;

	g_assert_true(g_file_test(root, G_FILE_TEST_IS_DIR));
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, root), ==, 0);
	collect(root, "/devices", want, order);
	g_test_message("%s: %u devices with a modalias file", cap->name, g_hash_table_size(want));
	g_assert_cmpuint(g_hash_table_size(want), >=, cap->min_devices);

	/* one device at a time */
	g_hash_table_iter_init(&it, want);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct modalias_dev *dev;
		g_autofree char *dir = g_strconcat(root, (char *)k, NULL);
		char *s;
		int r;

		if (modalias_dev_new_from_sysfs(ctx, k, &dev) < 0)
			g_error("%s%s: %s", root, (char *)k, test_log_text());
		s = test_format(dev);
		g_assert_cmpstr(s, ==, v);
		free(s);
		modalias_dev_unref(dev);
		/* the same string from the id attributes, where the bus has them */
		r = sysfs_rebuild(ctx, dir, &dev);
		if (r == -ENODATA)
			continue;
		if (r < 0)
			g_error("%s: rebuild failed: %s", dir, test_log_text());
		s = test_format(dev);
		if (strcmp(s, v) != 0)
			g_error("%s: id attributes give %s, modalias is %s", dir, s, (char *)v);
		g_hash_table_add(rebuilt, g_strdup(modalias_dev_get_bus(dev)));
		free(s);
		modalias_dev_unref(dev);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(cap->rebuilt) && cap->rebuilt[i]; i++)
		if (!g_hash_table_contains(rebuilt, cap->rebuilt[i]))
			g_error("%s: no %s device was rebuilt from its id attributes", cap->name, cap->rebuilt[i]);

	/* the walk: every device with a modalias file, parents first, sorted */
	g_assert_cmpint(modalias_sysfs_foreach(ctx, walk_cb, &w), ==, 0);
	g_assert_cmpuint(w.errors, ==, 0);
	for (guint i = 0; i < order->len; i++) {
		const char *dp = g_ptr_array_index(order, i);
		g_assert_true(g_hash_table_contains(w.modalias, dp));
		g_assert_cmpstr(g_hash_table_lookup(w.modalias, dp), ==, g_hash_table_lookup(want, dp));
	}
	/* devices the walk found beyond those: a MODALIAS in their uevent */
	for (guint i = 0; i < w.devpaths->len; i++) {
		const char *dp = g_ptr_array_index(w.devpaths, i);
		if (i > 0)
			g_assert_cmpint(strcmp(g_ptr_array_index(w.devpaths, i - 1), dp), <, 0);
		if (!g_hash_table_contains(want, dp)) {
			g_autofree char *uevent = NULL, *path = g_strconcat(root, dp, "/uevent", NULL);
			g_assert_true(g_file_get_contents(path, &uevent, NULL, NULL));
			g_assert_nonnull(strstr(uevent, "MODALIAS="));
		}
	}
	g_ptr_array_unref(w.devpaths);
	g_hash_table_unref(w.modalias);
	modalias_ctx_unref(ctx);
}


/* The legacy environment of every captured device: its uevent file (less
 * MODALIAS), DEVPATH, SUBSYSTEM (the capture's .subsystem note), with the
 * capture as sysfs root, so usb reads bInterfaceNumber and scsi reads type
 * from it; the result must be the device's modalias file. */
static void test_capture_env(gconstpointer data)
{
	const struct capture *cap = data;
	g_autofree char *root = sysfs_root(cap->name);
	g_autoptr(GHashTable) want = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	struct modalias_ctx *ctx = test_ctx_new();
	unsigned int n = 0;

	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, root), ==, 0);
	collect(root, "/devices", want, order);
	for (guint i = 0; i < order->len; i++) {
		const char *devpath = g_ptr_array_index(order, i);
		g_autofree char *uevent_path = g_strconcat(root, devpath, "/uevent", NULL);
		g_autofree char *sub_path = g_strconcat(root, devpath, "/.subsystem", NULL);
		g_autofree char *uevent = NULL, *sub = NULL, *got = NULL;
		g_autoptr(GPtrArray) env = g_ptr_array_new_with_free_func(g_free);
		struct modalias_dev *dev;
		g_auto(GStrv) lines = NULL;

		if (!g_file_get_contents(uevent_path, &uevent, NULL, NULL) ||
		    !g_file_get_contents(sub_path, &sub, NULL, NULL))
			continue;
		g_strchomp(sub);
		if (strcmp(sub, "usb") && strcmp(sub, "pci") && strcmp(sub, "scsi") && strcmp(sub, "serio") &&
		    strcmp(sub, "input"))
			continue;
		lines = g_strsplit(uevent, "\n", -1);
		for (char **l = lines; *l; l++)
			if (**l && !g_str_has_prefix(*l, "MODALIAS="))
				g_ptr_array_add(env, g_strdup(*l));
		g_ptr_array_add(env, g_strconcat("DEVPATH=", devpath, NULL));
		g_ptr_array_add(env, NULL);
		if (modalias_dev_new_from_env(ctx, sub, (const char *const *)env->pdata, &dev) < 0)
			g_error("%s%s (%s): %s", root, devpath, sub, test_log_text());
		got = test_format(dev);
		modalias_dev_unref(dev);
		if (strcmp(got, g_hash_table_lookup(want, devpath)) != 0)
			g_error("%s%s: the legacy variables give %s, the modalias file says %s", root, devpath,
				got, (char *)g_hash_table_lookup(want, devpath));
		g_hash_table_add(seen, (gpointer)g_intern_string(sub));
		n++;
	}
	g_test_message("%s: %u devices agree", cap->name, n);
	for (size_t i = 0; i < G_N_ELEMENTS(cap->rebuilt) && cap->rebuilt[i]; i++)
		if (strcmp(cap->rebuilt[i], "virtio") != 0 && !g_hash_table_contains(seen, g_intern_string(cap->rebuilt[i])))
			g_error("%s: no %s device checked", cap->name, cap->rebuilt[i]);
	modalias_ctx_unref(ctx);
}

/* ---- hand-made trees for the error paths -------------------------------- */

static char *make_tree(void)
{
	g_autoptr(GError) error = NULL;
	char *root = g_dir_make_tmp("modalias-sysfs-XXXXXX", &error);

	g_assert_no_error(error);
	return root;
}

static void put(const char *root, const char *rel, const char *content)
{
	g_autofree char *path = g_build_filename(root, rel, NULL);
	g_autofree char *dir = g_path_get_dirname(path);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(path, content, -1, NULL));
}

static void rm_rf(const char *path)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", path);
	g_assert_cmpint(system(cmd), ==, 0);
}

static void test_errors(void)
{
	g_autofree char *root = make_tree();
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev = NULL;
	g_autofree char *dirattr = g_build_filename(root, "devices", "isdir", "modalias", NULL);
	char *s;

	put(root, "devices/good/modalias", "platform:pcspkr\n");
	put(root, "devices/good/uevent", "DRIVER=pcspkr\nMODALIAS=platform:pcspkr\n");
	put(root, "devices/bad/modalias", "usb:vZZZZ\n");
	put(root, "devices/bad/uevent", "\n");
	put(root, "devices/none/uevent", "DEVTYPE=thing\n");
	put(root, "devices/fromuevent/uevent", "DRIVER=x\nMODALIAS=acpi:PNP0C0A:\n");
	put(root, "devices/isdir/uevent", "\n");
	g_assert_cmpint(g_mkdir_with_parents(dirattr, 0755), ==, 0);
	put(root, "devices/pcidev/uevent", "\n");
	put(root, "devices/pcidev/vendor", "0x8086\n");
	put(root, "devices/pcidev/device", "0x1e31\n");
	put(root, "devices/pcidev/subsystem_vendor", "0x17aa\n");
	put(root, "devices/pcidev/subsystem_device", "0x21fb\n");
	put(root, "devices/pcidev/class", "0x0c0330\n");
	put(root, "devices/badpci/uevent", "\n");
	put(root, "devices/badpci/vendor", "0x8086\n");
	put(root, "devices/badpci/device", "0x1e31z\n");
	put(root, "devices/badpci/subsystem_vendor", "0x17aa\n");
	put(root, "devices/badpci/subsystem_device", "0x21fb\n");
	put(root, "devices/badpci/class", "0x0c0330\n");
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, root), ==, 0);

	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "/devices/good", &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "platform:pcspkr");
	free(s);
	modalias_dev_unref(dev);
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "/devices/fromuevent", &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "acpi:PNP0C0A:");
	free(s);
	modalias_dev_unref(dev);
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "/devices/pcidev", &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "pci:v00008086d00001E31sv000017AAsd000021FBbc0Csc03i30");
	free(s);
	modalias_dev_unref(dev);

	dev = NULL;
	test_log_clear();
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "/devices/bad", &dev), ==, -EINVAL);
	g_assert_nonnull(strstr(test_log_text(), "bad/modalias"));
	test_log_clear();
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "/devices/badpci", &dev), ==, -EINVAL);
	g_assert_nonnull(strstr(test_log_text(), "badpci/device"));
	test_log_clear();
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "/devices/isdir", &dev), ==, -EISDIR);
	g_assert_nonnull(strstr(test_log_text(), "isdir/modalias"));
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "/devices/none", &dev), ==, -ENODATA);
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "/devices/missing", &dev), ==, -ENOENT);
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "/devices/../../etc", &dev), ==, -EINVAL);
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, "devices/good", &dev), ==, -EINVAL);
	g_assert_cmpint(modalias_dev_new_from_sysfs(ctx, NULL, &dev), ==, -EINVAL);
	g_assert_null(dev);
	rm_rf(root);
	modalias_ctx_unref(ctx);
}

struct stopper {
	unsigned int seen, errors;
	GString *order;
};

static int stop_after_two(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	struct stopper *st = data;

	if (err < 0) {
		st->errors++;
		return 0;
	}
	g_string_append_printf(st->order, "%s ", devpath);
	return ++st->seen == 2 ? 42 : 0;
}

static void test_walk(void)
{
	g_autofree char *root = make_tree();
	g_autofree char *link = g_build_filename(root, "devices", "b", "loop", NULL);
	struct modalias_ctx *ctx = test_ctx_new();
	struct stopper st = { .order = g_string_new(NULL) };

	put(root, "devices/b/uevent", "\n");
	put(root, "devices/b/modalias", "platform:b\n");
	put(root, "devices/a/uevent", "\n");
	put(root, "devices/a/modalias", "platform:a\n");
	put(root, "devices/a/child/uevent", "\n");
	put(root, "devices/a/child/modalias", "platform:child\n");
	put(root, "devices/a/nodev/uevent", "\n");
	put(root, "devices/c/uevent", "\n");
	put(root, "devices/c/modalias", "usb:broken\n");
	/* a symlink loop back to the top is not followed */
	g_assert_cmpint(symlink("..", link), ==, 0);
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, root), ==, 0);

	g_assert_cmpint(modalias_sysfs_foreach(ctx, stop_after_two, &st), ==, 42);
	g_assert_cmpstr(st.order->str, ==, "/devices/a /devices/a/child ");
	st.seen = 0;
	g_string_truncate(st.order, 0);
	st.seen = 100;
	g_assert_cmpint(modalias_sysfs_foreach(ctx, stop_after_two, &st), ==, 0);
	g_assert_cmpstr(st.order->str, ==, "/devices/a /devices/a/child /devices/b ");
	/* the broken one is reported, not skipped */
	g_assert_cmpuint(st.errors, ==, 1);

	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, "/nonexistent-sysfs"), ==, 0);
	g_assert_cmpint(modalias_sysfs_foreach(ctx, stop_after_two, &st), ==, -ENOENT);
	g_assert_nonnull(strstr(test_log_text(), "/nonexistent-sysfs/devices"));
	g_string_free(st.order, TRUE);
	rm_rf(root);
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(captures); i++) {
		g_autofree char *path = g_strdup_printf("/sysfs/capture/%s", captures[i].name);
		g_test_add_data_func(path, &captures[i], test_capture);
		g_free(path);
		path = g_strdup_printf("/sysfs/capture-env/%s", captures[i].name);
		g_test_add_data_func(path, &captures[i], test_capture_env);
	}
	g_test_add_func("/sysfs/errors", test_errors);
	g_test_add_func("/sysfs/walk", test_walk);
	return g_test_run();
}
