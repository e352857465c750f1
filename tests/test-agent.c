/*
 * The hotplug agent's daemon: a burst of 10,000 synthetic netlink uevents
 * (adds and removes interleaved, SEQNUMs out of order, many devices sharing
 * few modules) on a private netlink group, in dry-run: none lost, each
 * module loaded once, events of one device (and its parents and children)
 * in SEQNUM order; a non-kernel sender ignored; a real kernel event.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <fcntl.h>
#include <linux/netlink.h>
#include <sched.h>
#include <signal.h>
#include <glib/gstdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-common.h"

#define GROUP 8

static const char *agent;
static int host_ns = -1; /* the host's network namespace, while we are in our own */
static char *moddir;

struct daemon {
	GPid pid;
	int out;
	GString *buf;
};

/* In the child, after GLib's own redirections: the log joins the output. */
static void stderr_to_stdout(gpointer data)
{
	dup2(1, 2);
}

/* The daemon on netlink group `group`, in dry-run with no handlers unless
 * hotplug_dir is given (then for real: handlers run, modules would load). */
static void daemon_start(struct daemon *d, bool trust, int group, const char *hotplug_dir)
{
	g_autofree char *grp = g_strdup_printf("--netlink-group=%d", group);
	const char *argv[16] = { agent, "--daemon", "--moddir", moddir, "-C", "/dev/null", "--max-parallel", "4", grp };
	int i = 9;
	g_autoptr(GError) error = NULL;

	argv[i++] = "--hotplug-dir";
	argv[i++] = hotplug_dir ? hotplug_dir : "/nonexistent";
	argv[i++] = hotplug_dir ? "--log-level=info" : "--dry-run";
	if (trust)
		argv[i++] = "--trust-any-sender";
	argv[i] = NULL;
	d->buf = g_string_new(NULL);
	if (!g_spawn_async_with_pipes(NULL, (char **)argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
				      hotplug_dir ? stderr_to_stdout : NULL, NULL, &d->pid, NULL, &d->out, NULL, &error))
		g_error("%s", error->message);
}

/* Reads the daemon's output until pred says enough, or the timeout. */
static bool daemon_read_until(struct daemon *d, bool (*pred)(const GString *, gpointer), gpointer data, int seconds)
{
	gint64 end = g_get_monotonic_time() + (gint64)seconds * G_USEC_PER_SEC;

	while (!pred(d->buf, data)) {
		char chunk[65536];
		GPollFD p = { .fd = d->out, .events = G_IO_IN };
		gint64 left = end - g_get_monotonic_time();
		ssize_t n;

		if (left <= 0 || g_poll(&p, 1, (int)(left / 1000)) <= 0)
			return false;
		n = read(d->out, chunk, sizeof(chunk));
		if (n <= 0)
			return pred(d->buf, data);
		g_string_append_len(d->buf, chunk, n);
	}
	return true;
}

/* SIGTERM; the exit status; *output gets everything it printed.  A daemon
 * that has not exited 60 s after SIGTERM is killed and the test fails. */
static int daemon_stop(struct daemon *d, char **output)
{
	gint64 end = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;
	int status;
	char chunk[65536];

	kill(d->pid, SIGTERM);
	for (;;) {
		GPollFD p = { .fd = d->out, .events = G_IO_IN };
		gint64 left = end - g_get_monotonic_time();
		ssize_t n;

		if (left <= 0 || g_poll(&p, 1, (int)(left / 1000)) <= 0) {
			kill(d->pid, SIGKILL);
			waitpid(d->pid, &status, 0);
			g_error("the daemon did not stop within 60 s of SIGTERM; it printed:\n%s", d->buf->str);
		}
		n = read(d->out, chunk, sizeof(chunk));
		if (n <= 0)
			break;
		g_string_append_len(d->buf, chunk, n);
	}
	waitpid(d->pid, &status, 0);
	g_spawn_close_pid(d->pid);
	close(d->out);
	if (output)
		*output = g_string_free(d->buf, FALSE);
	else
		g_string_free(d->buf, TRUE);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool related(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), l = MIN(la, lb);

	return strncmp(a, b, l) == 0 && (la == lb || (la < lb ? b[la] : a[lb]) == '/');
}

static bool has_line(const GString *buf, gpointer line)
{
	g_autofree char *want = g_strdup_printf("\n%s\n", (char *)line);
	g_autofree char *text = g_strconcat("\n", buf->str, NULL);
	return strstr(text, want) != NULL;
}

static int nl_sender(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), ==, 0);
	return fd;
}

static void nl_send(int fd, int group, const char *action, const char *devpath, unsigned long seq,
		    const char *modalias)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_groups = 1u << (group - 1) };
	GString *m = g_string_new(NULL);

	g_string_append_printf(m, "%s@%s", action, devpath);
	g_string_append_c(m, '\0');
	g_string_append_printf(m, "ACTION=%s", action);
	g_string_append_c(m, '\0');
	g_string_append_printf(m, "DEVPATH=%s", devpath);
	g_string_append_c(m, '\0');
	g_string_append(m, "SUBSYSTEM=modalias-test");
	g_string_append_c(m, '\0');
	g_string_append_printf(m, "SEQNUM=%lu", seq);
	g_string_append_c(m, '\0');
	if (modalias) {
		g_string_append_printf(m, "MODALIAS=%s", modalias);
		g_string_append_c(m, '\0');
	}
	while (sendto(fd, m->str, m->len, 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		if (errno != ENOBUFS && errno != EAGAIN)
			g_error("sendto: %s", g_strerror(errno));
		g_usleep(1000);
	}
	g_string_free(m, TRUE);
}

/* The resident set of a process, in KiB (VmRSS). */
static unsigned long rss_kib(GPid pid)
{
	g_autofree char *path = g_strdup_printf("/proc/%d/status", (int)pid), *text = NULL;
	const char *p;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	p = strstr(text, "\nVmRSS:");
	g_assert_nonnull(p);
	return strtoul(p + 8, NULL, 10);
}

struct count {
	unsigned int want;
};

static bool enough_events(const GString *buf, gpointer data)
{
	struct count *c = data;
	unsigned int n = 0;

	for (const char *p = buf->str; (p = strstr(p, "event ")); p++)
		if (p == buf->str || p[-1] == '\n')
			n++;
	return n >= c->want;
}

static const char *const modaliases[] = {
	"pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00", /* e1000e */
	"virtio:d00000001v00001AF4",                             /* virtio_net */
	"usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00",     /* usbhid */
	"hid:b0003g0001v0000046Dp0000C52B",                      /* hid_generic, hid_logitech_dj */
	"platform:pcspkr",                                       /* pcspkr */
	"acpi:PNP0C0A:",                                         /* battery */
	"nosuch:thing",                                          /* nothing */
};

static void test_storm(void)
{
	struct daemon d;
	struct count c = { 0 };
	int fd = nl_sender();
	GRand *rng = g_rand_new_with_seed(7);
	g_auto(GStrv) lines = NULL;
	g_autofree char *output = NULL;
	g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_autoptr(GHashTable) loaded = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GHashTable) trees = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							     (GDestroyNotify)g_ptr_array_unref);
	unsigned long order[10000], rss[5];
	unsigned int events = 0;

	daemon_start(&d, true, GROUP, NULL);
	g_assert_true(daemon_read_until(&d, has_line, (gpointer) "ready", 30));
	/* SEQNUMs 1..10000, sent in an order shuffled within windows of 16 */
	for (unsigned int i = 0; i < 10000; i++)
		order[i] = i + 1;
	for (unsigned int w = 0; w < 10000; w += 16)
		for (unsigned int i = w; i < w + 16 && i < 10000; i++) {
			unsigned int j = w + (unsigned int)g_rand_int_range(rng, 0, (gint32)MIN(16, 10000 - w));
			unsigned long t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
	/* in five rounds of 2,000 (whole windows), each handled before the
	 * next is sent: the daemon's memory after each must stay flat */
	for (unsigned int round = 0; round < 5; round++) {
		for (unsigned int i = round * 2000; i < (round + 1) * 2000; i++) {
			unsigned long seq = order[i];
			/* 500 parents with 4 children each: related events share a device tree */
			unsigned int dev = (unsigned int)(seq % 2500);
			g_autofree char *devpath = dev % 5 ? g_strdup_printf("/devices/virtual/mtest/p%u/c%u", dev / 5, dev % 5)
							   : g_strdup_printf("/devices/virtual/mtest/p%u", dev / 5);
			bool add = (seq / 2500) % 2 == 0;
			nl_send(fd, GROUP, add ? "add" : "remove", devpath, seq,
				add ? modaliases[seq % G_N_ELEMENTS(modaliases)] : NULL);
		}
		c.want = (round + 1) * 2000;
		if (!daemon_read_until(&d, enough_events, &c, 180))
			g_test_message("timed out waiting for the events of round %u", round + 1);
		rss[round] = rss_kib(d.pid);
	}
	g_test_message("daemon RSS after each 2,000 events: %lu %lu %lu %lu %lu KiB", rss[0], rss[1], rss[2], rss[3],
		       rss[4]);
#ifndef __SANITIZE_ADDRESS__
	/* flat: the last three rounds add less than 64 bytes an event */
	g_assert_cmpuint(rss[4], <=, rss[1] + 6000 * 64 / 1024);
#else
	/* ASan keeps freed memory in quarantine: the plain build checks this */
	g_test_message("memory not checked under AddressSanitizer (its quarantine grows by design)");
#endif
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	close(fd);
	g_rand_free(rng);

	lines = g_strsplit(output, "\n", -1);
	for (char **l = lines; *l; l++) {
		g_auto(GStrv) f = g_strsplit(*l, " ", 5);
		if (g_str_has_prefix(*l, "event ") && g_strv_length(f) == 5) {
			unsigned long seq = strtoul(f[1], NULL, 10);
			GPtrArray *tree;
			g_auto(GStrv) parts = g_strsplit(f[4], "/", -1);
			char *root = g_strdup(parts[4] ? parts[4] : "");

			if (g_hash_table_contains(seen, GSIZE_TO_POINTER(seq)))
				g_error("event %lu handled twice", seq);
			g_hash_table_add(seen, GSIZE_TO_POINTER(seq));
			tree = g_hash_table_lookup(trees, root);
			if (!tree) {
				tree = g_ptr_array_new_with_free_func(g_free);
				g_hash_table_insert(trees, root, tree);
			} else {
				g_free(root);
			}
			g_ptr_array_add(tree, g_strdup_printf("%lu %s", seq, f[4]));
			events++;
		} else if (g_str_has_prefix(*l, "load ")) {
			if (g_hash_table_contains(loaded, *l + 5))
				g_error("module %s loaded twice", *l + 5);
			g_hash_table_add(loaded, g_strdup(*l + 5));
		}
	}
	g_test_message("%u events handled, %u modules loaded once each", events, g_hash_table_size(loaded));
	g_assert_cmpuint(events, ==, 10000);
	for (unsigned long seq = 1; seq <= 10000; seq++)
		if (!g_hash_table_contains(seen, GSIZE_TO_POINTER(seq)))
			g_error("event %lu lost", seq);
	/* e1000e virtio_net usbhid hid_generic hid_logitech_dj pcspkr battery */
	g_assert_cmpuint(g_hash_table_size(loaded), ==, 7);
	{
		/* related events in SEQNUM order, whatever the order they were sent in */
		GHashTableIter it;
		gpointer k, v;
		unsigned int pairs = 0;

		g_hash_table_iter_init(&it, trees);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			GPtrArray *tree = v;
			for (guint i = 0; i < tree->len; i++)
				for (guint j = i + 1; j < tree->len; j++) {
					unsigned long si, sj;
					char pi[256], pj[256];
					sscanf(g_ptr_array_index(tree, i), "%lu %255s", &si, pi);
					sscanf(g_ptr_array_index(tree, j), "%lu %255s", &sj, pj);
					if (related(pi, pj)) {
						pairs++;
						if (si > sj)
							g_error("%s (%lu) handled before %s (%lu)", pi, si, pj, sj);
					}
				}
		}
		g_test_message("%u related pairs, all in SEQNUM order", pairs);
		g_assert_cmpuint(pairs, >, 10000);
	}
}

/* SIGHUP reloads the configuration and the tables; events go on being
 * handled, before and after. */
static bool two_events(const GString *buf, gpointer data)
{
	return strstr(buf->str, "event 1 ") && strstr(buf->str, "event 2 ");
}

static void test_reload(void)
{
	struct daemon d;
	g_autofree char *output = NULL;
	int fd = nl_sender();

	daemon_start(&d, true, GROUP, NULL);
	g_assert_true(daemon_read_until(&d, has_line, (gpointer) "ready", 30));
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/before", 1, modaliases[0]);
	g_usleep(200000);
	kill(d.pid, SIGHUP);
	g_usleep(500000);
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/after", 2, modaliases[1]);
	g_assert_true(daemon_read_until(&d, two_events, NULL, 30));
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_assert_nonnull(strstr(output, "load e1000e"));
	g_assert_nonnull(strstr(output, "load virtio_net"));
	close(fd);
}

/* A SEQNUM that never comes holds the later events only briefly; one sent
 * late but within that time is still handled in its place. */
static bool five_events(const GString *buf, gpointer data)
{
	struct count c = { 5 };
	return enough_events(buf, &c);
}

static void test_gap(void)
{
	struct daemon d;
	g_autofree char *output = NULL;
	g_auto(GStrv) lines = NULL;
	GString *order = g_string_new(NULL);
	int fd = nl_sender();

	daemon_start(&d, true, GROUP, NULL);
	g_assert_true(daemon_read_until(&d, has_line, (gpointer) "ready", 30));
	/* 3 never comes; 5 comes after 6; all one device */
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/gap", 1, modaliases[0]);
	nl_send(fd, GROUP, "change", "/devices/virtual/mtest/gap", 2, NULL);
	nl_send(fd, GROUP, "change", "/devices/virtual/mtest/gap", 4, NULL);
	nl_send(fd, GROUP, "change", "/devices/virtual/mtest/gap", 6, NULL);
	nl_send(fd, GROUP, "change", "/devices/virtual/mtest/gap", 5, NULL);
	g_assert_true(daemon_read_until(&d, five_events, NULL, 30));
	daemon_read_until(&d, has_line, (gpointer) "never", 1);
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	lines = g_strsplit(output, "\n", -1);
	for (char **l = lines; *l; l++)
		if (g_str_has_prefix(*l, "event "))
			g_string_append_printf(order, "%s%lu", order->len ? " " : "", strtoul(*l + 6, NULL, 10));
	g_assert_cmpstr(order->str, ==, "1 2 4 5 6");
	g_string_free(order, TRUE);
	close(fd);
}

/* Messages that are not the kernel's are ignored. */
static void test_untrusted(void)
{
	struct daemon d;
	g_autofree char *output = NULL;
	int fd = nl_sender();

	daemon_start(&d, false, GROUP, NULL);
	g_assert_true(daemon_read_until(&d, has_line, (gpointer) "ready", 30));
	for (unsigned long seq = 1; seq <= 20; seq++)
		nl_send(fd, GROUP, "add", "/devices/virtual/mtest/forged", seq, modaliases[0]);
	g_usleep(500000);
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_assert_null(strstr(output, "event "));
	close(fd);
}

/* SIGTERM while handlers run: the daemon waits for them, then exits 0
 * (it once blocked for ever reading its signalfd in this case). */
static bool listening(const GString *buf, gpointer data)
{
	return strstr(buf->str, "hotplug: listening (") != NULL;
}

static unsigned int count_lines(const char *path)
{
	g_autofree char *text = NULL;
	unsigned int n = 0;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return 0;
	for (const char *p = text; *p; p++)
		n += *p == '\n';
	return n;
}

static void test_stop_while_busy(void)
{
	g_autofree char *dir = g_dir_make_tmp("modalias-agent-XXXXXX", NULL);
	g_autofree char *sub = g_build_filename(dir, "modalias-test", NULL);
	g_autofree char *handler = g_build_filename(sub, "slow.hotplug", NULL);
	g_autofree char *ran = g_build_filename(dir, "ran", NULL), *done = g_build_filename(dir, "done", NULL);
	g_autofree char *script = g_strdup_printf("#!/bin/sh\necho \"$SEQNUM\" >>%s\nsleep 1\necho \"$SEQNUM\" >>%s\n",
						  ran, done);
	g_autofree char *output = NULL;
	gint64 end;
	struct daemon d;
	int fd = nl_sender();

	g_assert_nonnull(dir);
	g_assert_cmpint(g_mkdir(sub, 0755), ==, 0);
	g_assert_true(g_file_set_contents(handler, script, -1, NULL));
	g_assert_cmpint(chmod(handler, 0755), ==, 0);
	daemon_start(&d, true, GROUP, dir);
	g_assert_true(daemon_read_until(&d, listening, NULL, 30));
	for (unsigned long seq = 1; seq <= 4; seq++) {
		g_autofree char *devpath = g_strdup_printf("/devices/virtual/mtest/busy%lu", seq);
		nl_send(fd, GROUP, "change", devpath, seq, NULL);
	}
	end = g_get_monotonic_time() + 30 * G_USEC_PER_SEC;
	while (count_lines(ran) < 4 && g_get_monotonic_time() < end)
		g_usleep(10000);
	g_assert_cmpuint(count_lines(ran), ==, 4);
	g_assert_cmpuint(count_lines(done), <, 4); /* they are still running */
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_assert_cmpuint(count_lines(done), ==, 4);
	g_assert_nonnull(strstr(output, "hotplug: stopped"));
	close(fd);
	g_assert_cmpint(unlink(ran), ==, 0);
	g_assert_cmpint(unlink(done), ==, 0);
	g_assert_cmpint(unlink(handler), ==, 0);
	g_assert_cmpint(rmdir(sub), ==, 0);
	g_assert_cmpint(rmdir(dir), ==, 0);
}

/* A real kernel uevent: "add" written to a device's uevent file. */
static void test_real_event(void)
{
	static const char *const devices[] = { "/sys/devices/platform/pcspkr", "/sys/devices/platform/serial8250",
					       "/sys/devices/platform/rtc_cmos" };
	const char *dev = NULL;
	g_autofree char *uevent = NULL, *modalias = NULL, *output = NULL, *want = NULL, *mfile = NULL;
	struct daemon d;

	for (size_t i = 0; i < G_N_ELEMENTS(devices) && !dev; i++) {
		g_autofree char *m = g_build_filename(devices[i], "modalias", NULL);
		if (g_file_test(m, G_FILE_TEST_EXISTS))
			dev = devices[i];
	}
	if (!dev) {
		g_test_skip("no platform device to trigger here");
		return;
	}
	if (host_ns >= 0)
		g_assert_cmpint(setns(host_ns, CLONE_NEWNET), ==, 0);
	mfile = g_build_filename(dev, "modalias", NULL);
	g_assert_true(g_file_get_contents(mfile, &modalias, NULL, NULL));
	g_strchomp(modalias);
	daemon_start(&d, false, 1, NULL);
	g_assert_true(daemon_read_until(&d, has_line, (gpointer) "ready", 30));
	uevent = g_build_filename(dev, "uevent", NULL);
	{
		/* sysfs: write in place (g_file_set_contents would rename a temp file) */
		FILE *f = fopen(uevent, "w");
		g_assert_nonnull(f);
		g_assert_cmpint(fputs("add", f), >=, 0);
		g_assert_cmpint(fclose(f), ==, 0);
	}
	want = g_strdup_printf("event ");
	daemon_read_until(&d, has_line, (gpointer) "never", 3);
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_test_message("%s (%s): %s", dev, modalias, output);
	g_assert_nonnull(strstr(output, dev + 4)); /* the devpath, as the kernel sent it */
	g_assert_nonnull(strstr(output, " add "));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	agent = g_getenv("HOTPLUG_AGENT");
	if (!agent || geteuid() != 0) {
		printf("1..0 # SKIP needs root and HOTPLUG_AGENT\n");
		return 77;
	}
	moddir = g_test_build_filename(G_TEST_DIST, "data", "linux-6.1.0-57-amd64", NULL);
	/* The synthetic events go to a network namespace of our own (uevent
	 * sockets are per namespace): another run of this test at the same
	 * time would otherwise hear them too.  The real event is the host's. */
	host_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (host_ns < 0 || unshare(CLONE_NEWNET) < 0) {
		g_test_message("no network namespace of our own (%s): sharing the host's", g_strerror(errno));
		if (host_ns >= 0)
			close(host_ns);
		host_ns = -1;
	}
	g_test_add_func("/agent/storm", test_storm);
	g_test_add_func("/agent/gap", test_gap);
	g_test_add_func("/agent/untrusted", test_untrusted);
	g_test_add_func("/agent/reload", test_reload);
	g_test_add_func("/agent/stop-while-busy", test_stop_while_busy);
	g_test_add_func("/agent/real-event", test_real_event);
	return g_test_run();
}
