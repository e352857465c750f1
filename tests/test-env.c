/*
 * The legacy hotplug environment: PRODUCT/TYPE/INTERFACE, PCI_ID, … of real
 * recorded kernel events, turned into a modalias and checked against the
 * MODALIAS the same kernel sent in the same event.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sys/stat.h>
#include <unistd.h>

#include "libmodalias-private.h"
#include "test-common.h"

/* The event's variables without MODALIAS: what a pre-2.6.12 agent saw. */
static GPtrArray *legacy_env(const struct uevent *ev)
{
	GPtrArray *env = g_ptr_array_new();

	for (guint i = 0; i + 1 < ev->env->len; i++) {
		const char *kv = g_ptr_array_index(ev->env, i);
		if (!g_str_has_prefix(kv, "MODALIAS="))
			g_ptr_array_add(env, (gpointer)kv);
	}
	g_ptr_array_add(env, NULL);
	return env;
}

/* What today's kernel would have sent for the recorded MODALIAS: the
 * recordings keep old kernels' spellings, which the library does not emit. */
static char *modernize(struct modalias_ctx *ctx, const char *recorded, const char *built)
{
	struct modalias_dev *dev;
	char *s;

	g_assert_cmpint(modalias_parse(ctx, recorded, &dev), ==, 0);
	if (strcmp(modalias_dev_get_bus(dev), "pci") == 0) {
		/* 2.6 kernels printed the interface byte lower-case */
		uint64_t v;
		g_assert_cmpint(modalias_dev_get_uint(dev, "interface", 0, &v), ==, 0);
		g_assert_cmpint(modalias_dev_set_uint(dev, "interface", v), ==, 0);
	} else if (strcmp(modalias_dev_get_bus(dev), "usb") == 0 &&
		   modalias_dev_get_count(dev, "bInterfaceNumber") == 0) {
		/* kernels before 3.x sent no interface number: take ours */
		struct modalias_dev *b;
		const char *in;
		g_assert_cmpint(modalias_parse(ctx, built, &b), ==, 0);
		if (modalias_dev_get(b, "bInterfaceNumber", 0, &in) == 0)
			g_assert_cmpint(modalias_dev_set(dev, "bInterfaceNumber", in), ==, 0);
		modalias_dev_unref(b);
	} else if (strcmp(modalias_dev_get_bus(dev), "of") == 0) {
		const char *t;
		/* old kernels wrote a missing type as <NULL>, today's as (null) */
		if (modalias_dev_get(dev, "type", 0, &t) == 0 && strcmp(t, "<NULL>") == 0)
			g_assert_cmpint(modalias_dev_unset(dev, "type"), ==, 0);
	}
	s = test_format(dev);
	modalias_dev_unref(dev);
	return s;
}

struct family {
	const char *subsystem;
	const char *needs; /* a variable every event of the family has */
	unsigned int min; /* how many real events the family must have at least */
};

static const struct family families[] = {
	{ "usb", "INTERFACE", 350 },
	{ "pci", "PCI_ID", 1150 },
	{ "serio", "SERIO_TYPE", 1 },
	{ "sdio", "SDIO_ID", 5 },
	{ "ccw", "CU_TYPE", 5 },
	{ "input", "EV", 150 },
};

static void test_family(gconstpointer data)
{
	const struct family *fam = data;
	g_autoptr(GPtrArray) events = uevents_load();
	struct modalias_ctx *ctx = test_ctx_new();
	unsigned int n = 0, modernized = 0, n32 = 0;

	/* no sysfs here: the interface number comes from DEVPATH */
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, "/nonexistent-sysfs"), ==, 0);
	for (guint i = 0; i < events->len; i++) {
		const struct uevent *ev = g_ptr_array_index(events, i);
		const char *sub = uevent_get(ev, "SUBSYSTEM"), *want = uevent_get(ev, "MODALIAS");
		g_autoptr(GPtrArray) env = NULL;
		g_autofree char *got = NULL, *modern = NULL;
		struct modalias_dev *dev;

		if (!sub || strcmp(sub, fam->subsystem) != 0 || !uevent_get(ev, fam->needs) || !want)
			continue;
		if (strcmp(fam->subsystem, "input") == 0 && !g_str_has_prefix(want, "input:"))
			continue;
		env = legacy_env(ev);
		if (modalias_dev_new_from_env(ctx, NULL, (const char *const *)env->pdata, &dev) < 0)
			g_error("%s (%s): no modalias from the legacy variables: %s", ev->source,
				want, test_log_text());
		got = test_format(dev);
		modalias_dev_unref(dev);
		if (strcmp(fam->subsystem, "input") == 0 && strcmp(got, want) != 0) {
			/* a 32-bit kernel's bitmaps (words of 8 digits at most) */
			g_assert_cmpint(modalias_ctx_set_word_bits(ctx, 32), ==, 0);
			g_assert_cmpint(modalias_dev_new_from_env(ctx, NULL, (const char *const *)env->pdata, &dev), ==, 0);
			g_assert_cmpint(modalias_ctx_set_word_bits(ctx, 0), ==, 0);
			g_free(got);
			got = test_format(dev);
			modalias_dev_unref(dev);
			if (strcmp(got, want) == 0)
				n32++;
		}
		modern = modernize(ctx, want, got);
		if (strcmp(modern, want) != 0)
			modernized++;
		if (strcmp(got, want) != 0 && strcmp(got, modern) != 0)
			g_error("%s: legacy variables give\n  %s\nthe kernel sent\n  %s", ev->source, got, want);
		n++;
	}
	g_test_message("%s: %u real events agree (%u in an old kernel's spelling, %u from 32-bit kernels)",
		       fam->subsystem, n, modernized, n32);
	g_assert_cmpuint(n, >=, fam->min);
	/* the PandaBoard's and the Raspberry Pi 2's: only as 32-bit words */
	if (strcmp(fam->subsystem, "input") == 0 && sizeof(long) == 8)
		g_assert_cmpuint(n32, >=, 6);
	modalias_ctx_unref(ctx);
}

/* A 32-bit machine's event (the PandaBoard's gpio-keys, KEY= of nine
 * words): its words do not tell their size; read as this machine's, said
 * at LOG_INFO, or as the size given (modalias_ctx_set_word_bits()) */
static void test_word_bits(void)
{
	g_autoptr(GPtrArray) events = uevents_load();
	struct modalias_ctx *ctx = test_ctx_new();
	const struct uevent *panda = NULL;
	g_autoptr(GPtrArray) env = NULL;
	g_autofree char *got = NULL, *got32 = NULL;
	struct modalias_dev *dev;

	for (guint i = 0; i < events->len && !panda; i++) {
		const struct uevent *ev = g_ptr_array_index(events, i);
		const char *key = uevent_get(ev, "KEY");

		if (strstr(ev->source, "PANDABOARD") && key && strcmp(key, "100000 0 0 0 0 0 0 0 0") == 0)
			panda = ev;
	}
	g_assert_nonnull(panda);
	g_assert_cmpstr(uevent_get(panda, "MODALIAS"), ==, "input:b0019v0001p0001e0100-e0,1,k114,ramlsfw");
	env = legacy_env(panda);
	modalias_ctx_set_log_priority(ctx, 6);
	g_assert_cmpint(modalias_dev_new_from_env(ctx, NULL, (const char *const *)env->pdata, &dev), ==, 0);
	got = test_format(dev);
	modalias_dev_unref(dev);
	if (sizeof(long) == 8)
		g_assert_cmpstr(got, ==, "input:b0019v0001p0001e0100-e0,1,k214,ramlsfw");
	g_assert_nonnull(strstr(test_log_text(), "variable KEY: words of 8 digits at most do not tell their size"));
	test_log_clear();
	g_assert_cmpint(modalias_ctx_set_word_bits(ctx, 32), ==, 0);
	g_assert_cmpint(modalias_dev_new_from_env(ctx, NULL, (const char *const *)env->pdata, &dev), ==, 0);
	got32 = test_format(dev);
	modalias_dev_unref(dev);
	g_assert_cmpstr(got32, ==, uevent_get(panda, "MODALIAS"));
	g_assert_cmpstr(test_log_text(), ==, ""); /* given: nothing assumed */
	modalias_ctx_unref(ctx);
}

/* OF events: OF_NAME, OF_TYPE, OF_COMPATIBLE_N/_n against MODALIAS. */
static void test_of(void)
{
	g_autoptr(GPtrArray) events = uevents_load();
	struct modalias_ctx *ctx = test_ctx_new();
	unsigned int n = 0;

	for (guint i = 0; i < events->len; i++) {
		const struct uevent *ev = g_ptr_array_index(events, i);
		const char *want = uevent_get(ev, "MODALIAS");
		g_autoptr(GPtrArray) env = NULL;
		g_autofree char *got = NULL, *modern = NULL;
		struct modalias_dev *dev;

		if (!uevent_get(ev, "OF_NAME") || !want || !g_str_has_prefix(want, "of:"))
			continue;
		env = legacy_env(ev);
		/* the OF variables of the event's own subsystem: platform, i2c, mdio_bus, … */
		if (modalias_dev_new_from_env(ctx, NULL, (const char *const *)env->pdata, &dev) < 0)
			g_error("%s (%s): no modalias from the OF variables: %s", ev->source, want, test_log_text());
		got = test_format(dev);
		modalias_dev_unref(dev);
		modern = modernize(ctx, want, got);
		if (strcmp(got, want) != 0 && strcmp(got, modern) != 0)
			g_error("%s: OF variables give %s, the kernel sent %s", ev->source, got, want);
		n++;
	}
	g_test_message("of: %u real events agree", n);
	g_assert_cmpuint(n, >=, 250);
	modalias_ctx_unref(ctx);
}

/* Every device with a devicetree node has the OF variables in its events,
 * but only some buses write of: strings: a spi, vio, amba or cpu event
 * without its MODALIAS has none (an of: string made of its variables was
 * one its kernel never wrote, and loaded nothing). */
static void test_of_not_written(void)
{
	g_autoptr(GPtrArray) events = uevents_load();
	g_autoptr(GHashTable) counts = g_hash_table_new(g_str_hash, g_str_equal);
	struct modalias_ctx *ctx = test_ctx_new();

	modalias_ctx_set_log_priority(ctx, LOG_DEBUG);
	for (guint i = 0; i < events->len; i++) {
		const struct uevent *ev = g_ptr_array_index(events, i);
		const char *want = uevent_get(ev, "MODALIAS"), *sub = uevent_get(ev, "SUBSYSTEM");
		g_autoptr(GPtrArray) env = NULL;
		g_autofree char *got = NULL;
		struct modalias_dev *dev = NULL;
		int r;

		/* usb and pci: their own legacy variables (test_family) */
		if (!uevent_get(ev, "OF_NAME") || !want || g_str_has_prefix(want, "of:") || !sub ||
		    strcmp(sub, "usb") == 0 || strcmp(sub, "pci") == 0)
			continue;
		env = legacy_env(ev);
		test_log_clear();
		r = modalias_dev_new_from_env(ctx, NULL, (const char *const *)env->pdata, &dev);
		if (strcmp(sub, "i2c") == 0) {
			/* kernels before 4.18 wrote i2c: for a node's device, today's of: */
			g_assert_cmpint(r, ==, 0);
			got = test_format(dev);
			g_assert_true(g_str_has_prefix(got, "of:"));
			modalias_dev_unref(dev);
		} else if (r != -ENOENT) {
			got = r == 0 ? test_format(dev) : NULL;
			g_error("%s: %s event without MODALIAS gives %d %s; the kernel sent %s", ev->source, sub, r,
				got ? got : "", want);
		} else {
			g_assert_nonnull(strstr(test_log_text(), "OF_ variables are not its modalias"));
		}
		g_hash_table_insert(counts, (gpointer)sub,
				    GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(counts, sub)) + 1));
	}
	g_test_message("spi %u, vio %u, amba %u, cpu %u events with OF variables and their own modalias",
		       GPOINTER_TO_UINT(g_hash_table_lookup(counts, "spi")),
		       GPOINTER_TO_UINT(g_hash_table_lookup(counts, "vio")),
		       GPOINTER_TO_UINT(g_hash_table_lookup(counts, "amba")),
		       GPOINTER_TO_UINT(g_hash_table_lookup(counts, "cpu")));
	g_assert_cmpuint(GPOINTER_TO_UINT(g_hash_table_lookup(counts, "spi")), >=, 6);
	g_assert_cmpuint(GPOINTER_TO_UINT(g_hash_table_lookup(counts, "vio")), >=, 5);
	modalias_ctx_unref(ctx);
}

static void test_modalias_wins(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	const char *env[] = { "SUBSYSTEM=usb", "PRODUCT=46d/c52b/1200", "TYPE=0/0/0",
			      "INTERFACE=3/1/1", "MODALIAS=usb:v1111p2222d0001dc00dsc00dp00ic03isc01ip01in00",
			      NULL };
	struct modalias_dev *dev;
	g_autofree char *s = NULL;

	g_assert_cmpint(modalias_dev_new_from_env(ctx, NULL, env, &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "usb:v1111p2222d0001dc00dsc00dp00ic03isc01ip01in00");
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

static void test_usb_device_event(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	/* a device, not an interface: hotplug-ng's wildcard classes */
	const char *env[] = { "PRODUCT=46d/c52b/1200", "TYPE=0/0/0", "DEVPATH=/devices/pci0000:00/usb1/1-1", NULL };
	struct modalias_dev *dev;
	g_autofree char *s = NULL;

	g_assert_cmpint(modalias_dev_new_from_env(ctx, "usb", env, &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "usb:v046DpC52Bd1200dc00dsc00dp00ic*isc*ip*in*");
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
}

/* With a sysfs root, bInterfaceNumber comes from $SYSFS$DEVPATH, and wins
 * over the DEVPATH name. */
static void test_usb_interface_from_sysfs(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *root = g_dir_make_tmp("modalias-env-XXXXXX", NULL);
	g_autofree char *dir = g_build_filename(root, "devices", "usb1", "1-1", "1-1:1.3", NULL);
	g_autofree char *file = g_build_filename(dir, "bInterfaceNumber", NULL);
	const char *env[] = { "PRODUCT=46d/c52b/1200", "TYPE=0/0/0", "INTERFACE=3/1/2",
			      "DEVPATH=/devices/usb1/1-1/1-1:1.3", NULL };
	const char *nowhere[] = { "PRODUCT=46d/c52b/1200", "TYPE=0/0/0", "INTERFACE=3/1/2",
				  "DEVPATH=/devices/usb1/1-1/odd-name", NULL };
	struct modalias_dev *dev;
	char *s;

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(file, "05\n", -1, NULL));
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, root), ==, 0);
	g_assert_cmpint(modalias_dev_new_from_env(ctx, "usb", env, &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip02in05");
	free(s);
	modalias_dev_unref(dev);
	/* unreadable: a garbage file is an error naming it */
	g_assert_true(g_file_set_contents(file, "zz\n", -1, NULL));
	g_assert_cmpint(modalias_dev_new_from_env(ctx, "usb", env, &dev), ==, -EINVAL);
	g_assert_nonnull(strstr(test_log_text(), "bInterfaceNumber"));
	/* neither sysfs nor a ":C.I" name: a wildcard */
	g_assert_cmpint(modalias_dev_new_from_env(ctx, "usb", nowhere, &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip02in*");
	free(s);
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
	test_rm_rf(root);
}

static void test_scsi_and_ieee1394(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autofree char *root = g_dir_make_tmp("modalias-env-XXXXXX", NULL);
	g_autofree char *dir = g_build_filename(root, "devices", "host0", "target0:0:0", "0:0:0:0", NULL);
	g_autofree char *file = g_build_filename(dir, "type", NULL);
	const char *scsi[] = { "DEVPATH=/devices/host0/target0:0:0/0:0:0:0", NULL };
	const char *scsi_dev[] = { "DEVPATH=/devices/host0/target0:0:0/0:0:0:0", "DEVTYPE=scsi_device", NULL };
	/* the old ieee1394 stack's variables: %06x */
	const char *fw[] = { "VENDOR_ID=002327", "MODEL_ID=020002", "SPECIFIER_ID=00a02d", "VERSION=010001", NULL };
	struct modalias_dev *dev;
	char *s;

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(file, "14\n", -1, NULL));
	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, root), ==, 0);
	g_assert_cmpint(modalias_dev_new_from_env(ctx, "scsi", scsi, &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "scsi:t-0x0e"); /* sysfs type is decimal: 14 = TYPE_RBC */
	free(s);
	modalias_dev_unref(dev);
	g_assert_cmpint(modalias_dev_new_from_env(ctx, "scsi", scsi_dev, &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "scsi:t-0x0e");
	free(s);
	modalias_dev_unref(dev);
	g_assert_cmpint(unlink(file), ==, 0);
	modalias_ctx_set_log_priority(ctx, LOG_INFO);
	g_assert_cmpint(modalias_dev_new_from_env(ctx, "scsi", scsi, &dev), ==, -ENOENT);
	g_assert_nonnull(strstr(test_log_text(), "0:0:0:0/type: not a SCSI device"));
	g_assert_cmpint(test_log_worst, ==, LOG_INFO);
	modalias_ctx_set_log_priority(ctx, LOG_ERR);

	g_assert_cmpint(modalias_dev_new_from_env(ctx, "ieee1394", fw, &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "ieee1394:ven00002327mo00020002sp0000A02Dver00010001");
	free(s);
	modalias_dev_unref(dev);
	modalias_ctx_unref(ctx);
	test_rm_rf(root);
}

struct bad_env {
	const char *subsystem;
	const char *env[8];
	int err;
	const char *log;
	int priority; /* the message's: LOG_INFO for an event of no such device */
};

static const struct bad_env bad_envs[] = {
	{ "usb", { "TYPE=0/0/0", NULL }, -ENOENT, "PRODUCT is not set", LOG_INFO },
	{ "usb", { "PRODUCT=46d/c52b/1200", NULL }, -ENOENT, "TYPE is not set", LOG_ERR },
	{ "usb", { "PRODUCT=46d/c52b", "TYPE=0/0/0", NULL }, -EINVAL, "PRODUCT='46d/c52b' has too few fields", LOG_ERR },
	{ "usb", { "PRODUCT=46d/c52b/1/2", "TYPE=0/0/0", NULL }, -EINVAL, "too many fields", LOG_ERR },
	{ "usb", { "PRODUCT=46dx/c52b/1200", "TYPE=0/0/0", NULL }, -EINVAL, "PRODUCT='46dx/c52b/1200'", LOG_ERR },
	{ "usb", { "PRODUCT=10000/c52b/1200", "TYPE=0/0/0", NULL }, -ERANGE, "overflows", LOG_ERR },
	{ "usb", { "PRODUCT=46d/c52b/1200", "TYPE=0/0/256", NULL }, -ERANGE, "TYPE='0/0/256'", LOG_ERR },
	{ "usb", { "PRODUCT=46d/c52b/1200", "TYPE=0/0/a", NULL }, -EINVAL, "TYPE='0/0/a'", LOG_ERR },
	{ "usb", { "PRODUCT=46d/c52b/1200", "TYPE=0/0/0", "INTERFACE=3//1", NULL }, -EINVAL, "INTERFACE", LOG_ERR },
	{ "pci", { "PCI_ID=8086:1E31", "PCI_SUBSYS_ID=17AA:21FB", NULL }, -ENOENT, "PCI_CLASS is not set", LOG_ERR },
	{ "pci", { "PCI_ID=8086", "PCI_SUBSYS_ID=17AA:21FB", "PCI_CLASS=C0330", NULL }, -EINVAL, "PCI_ID='8086'", LOG_ERR },
	{ "pci", { "PCI_ID=8086:1E31", "PCI_SUBSYS_ID=17AA:21FB", "PCI_CLASS=1000000", NULL }, -ERANGE, "PCI_CLASS", LOG_ERR },
	{ "ieee1394", { "VENDOR_ID=002327", "SPECIFIER_ID=00a02d", "VERSION=010001", NULL }, -ENOENT, "MODEL_ID", LOG_ERR },
	{ "ieee1394", { "VENDOR_ID=100000000", "MODEL_ID=0", "SPECIFIER_ID=00a02d", "VERSION=010001", NULL }, -ERANGE, "VENDOR_ID", LOG_ERR },
	{ "scsi", { "ACTION=add", NULL }, -ENOENT, "DEVPATH is not set", LOG_ERR },
	{ "scsi", { "DEVPATH=devices/relative", NULL }, -EINVAL, "DEVPATH", LOG_ERR },
	{ "scsi", { "DEVPATH=/devices/../../etc", NULL }, -EINVAL, "DEVPATH", LOG_ERR },
	{ "input", { "PRODUCT=3/46d/c52b", NULL }, -EINVAL, "PRODUCT", LOG_ERR },
	{ "input", { "PRODUCT=3/46d/c52b/111", "KEY=xyz", NULL }, -EINVAL, "KEY='xyz'", LOG_ERR },
	{ NULL, { "ACTION=add", NULL }, -ENOENT, "neither MODALIAS nor SUBSYSTEM", LOG_ERR },
	{ "block", { "ACTION=add", NULL }, -ENOENT, "no legacy variables", LOG_INFO },
	{ "usb", { "MODALIAS=usb:broken", NULL }, -EINVAL, "idVendor", LOG_ERR },
	/* none of the family: no device with a modalias, which is no error */
	{ "input", { "DEVNAME=input/event3", NULL }, -ENOENT, "PRODUCT is not set", LOG_INFO },
	{ "pci", { "PCI_SLOT_NAME=0000:00:1f.3", NULL }, -ENOENT, "PCI_ID is not set", LOG_INFO },
	{ "serio", { "DRIVER=atkbd", NULL }, -ENOENT, "SERIO_TYPE is not set", LOG_INFO },
	{ "sdio", { "ACTION=add", NULL }, -ENOENT, "SDIO_CLASS is not set", LOG_INFO },
	{ "scsi", { "DEVPATH=/devices/pci0000:00/0000:00:01.1/ata1/host0", "DEVTYPE=scsi_host", NULL },
	  -ENOENT, "DEVTYPE=scsi_host is not a scsi_device", LOG_INFO },
	{ "scsi", { "DEVPATH=/devices/pci0000:00/0000:00:01.1/ata1/host0/target0:0:0", NULL },
	  -ENOENT, "target0:0:0/type: not a SCSI device", LOG_INFO },
	/* the OF variables of a bus that writes no of: string; of a bus that
	 * does, without OF_NAME; asked for by name, without OF_NAME */
	{ "spi", { "OF_NAME=mram", "OF_COMPATIBLE_0=everspin,mr25h40", "OF_COMPATIBLE_N=1", NULL }, -ENOENT,
	  "spi event: no MODALIAS, and its OF_ variables are not its modalias", LOG_INFO },
	{ "vio", { "OF_NAME=l-lan", "OF_TYPE=network", "OF_COMPATIBLE_0=IBM,l-lan", "OF_COMPATIBLE_N=1", NULL },
	  -ENOENT, "vio event: no MODALIAS, and its OF_ variables are not its modalias", LOG_INFO },
	{ "platform", { "DRIVER=serial8250", NULL }, -ENOENT, "OF_NAME is not set", LOG_INFO },
	{ "of", { "OF_TYPE=serial", NULL }, -ENOENT, "OF_NAME is not set", LOG_ERR },
	{ "i2c", { "OF_NAME=rtc", "OF_COMPATIBLE_N=2", "OF_COMPATIBLE_0=nxp,pca85073a", NULL }, -ENOENT,
	  "OF_COMPATIBLE_1 is not set", LOG_ERR },
	/* some of it: a broken event */
	{ "sdio", { "SDIO_CLASS=07", NULL }, -ENOENT, "SDIO_ID is not set", LOG_ERR },
	{ "serio", { "SERIO_TYPE=01", "SERIO_PROTO=00", "SERIO_EXTRA=00", NULL }, -ENOENT, "SERIO_ID is not set", LOG_ERR },
};

static void test_bad_env(gconstpointer data)
{
	const struct bad_env *b = data;
	struct modalias_ctx *ctx = test_ctx_new();
	struct modalias_dev *dev = NULL;

	g_assert_cmpint(modalias_ctx_set_sysfs_root(ctx, "/nonexistent-sysfs"), ==, 0);
	modalias_ctx_set_log_priority(ctx, LOG_DEBUG);
	g_assert_cmpint(modalias_dev_new_from_env(ctx, b->subsystem, b->env, &dev), ==, b->err);
	g_assert_null(dev);
	if (!strstr(test_log_text(), b->log))
		g_error("log '%s' does not name '%s'", test_log_text(), b->log);
	if (test_log_worst != b->priority)
		g_error("'%s' logged at priority %d, not %d", b->log, test_log_worst, b->priority);
	modalias_ctx_unref(ctx);
}

static const char *lookup_fn(void *data, const char *name)
{
	GHashTable *vars = data;
	return g_hash_table_lookup(vars, name);
}

static void test_callback(void)
{
	struct modalias_ctx *ctx = test_ctx_new();
	g_autoptr(GHashTable) vars = g_hash_table_new(g_str_hash, g_str_equal);
	struct modalias_dev *dev;
	g_autofree char *s = NULL;

	/* a real event: LENOVO_T430S's 8086:1E31 xHCI controller */
	static const char *const kv[][2] = {
		{ "SUBSYSTEM", "pci" }, { "PCI_ID", "8086:1E31" },
		{ "PCI_SUBSYS_ID", "17AA:21FB" }, { "PCI_CLASS", "C0330" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(kv); i++)
		g_hash_table_insert(vars, (gpointer)kv[i][0], (gpointer)kv[i][1]);
	g_assert_cmpint(modalias_dev_new_from_env_fn(ctx, NULL, lookup_fn, vars, &dev), ==, 0);
	s = test_format(dev);
	g_assert_cmpstr(s, ==, "pci:v00008086d00001E31sv000017AAsd000021FBbc0Csc03i30");
	modalias_dev_unref(dev);
	g_assert_cmpint(modalias_dev_new_from_env_fn(ctx, NULL, NULL, vars, &dev), ==, -EINVAL);
	g_assert_cmpint(modalias_dev_new_from_env(ctx, NULL, NULL, &dev), ==, -EINVAL);
	modalias_ctx_unref(ctx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(families); i++) {
		g_autofree char *path = g_strdup_printf("/env/real/%s", families[i].subsystem);
		g_test_add_data_func(path, &families[i], test_family);
	}
	g_test_add_func("/env/real/of", test_of);
	g_test_add_func("/env/word-bits", test_word_bits);
	g_test_add_func("/env/real/of-not-written", test_of_not_written);
	g_test_add_func("/env/modalias-wins", test_modalias_wins);
	g_test_add_func("/env/usb/device-event", test_usb_device_event);
	g_test_add_func("/env/usb/interface-from-sysfs", test_usb_interface_from_sysfs);
	g_test_add_func("/env/scsi-ieee1394", test_scsi_and_ieee1394);
	g_test_add_func("/env/callback", test_callback);
	for (size_t i = 0; i < G_N_ELEMENTS(bad_envs); i++) {
		g_autofree char *path = g_strdup_printf("/env/bad/%zu", i);
		g_test_add_data_func(path, &bad_envs[i], test_bad_env);
	}
	return g_test_run();
}
