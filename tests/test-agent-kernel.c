/*
 * The hotplug agent loading for real into the stand-in kernel
 * (tests/shim/fake-kernel, preloaded): a module removed is loaded again, a
 * failing one tried 3 times, new tables after depmod; one-shot coldplug to
 * a fixed point and its time limit, and soon after the last uevent; the
 * completion barrier (READY=1, hotplug --settle); a reload that fails
 * mid-depmod (events kept, the tables tried again, not settled meanwhile);
 * unrelated modules inserted at once; a burst beyond the queue limit; an
 * extra table (tables=) replaced after its check, refused at the reload.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "test-agent.h"

/* ---- a scratch directory: the test tables and the stand-in kernel --------------- */

/* TMP, a new directory (scratch_clear() removes it): M a copy of the test
 * tables, ROOT the stand-in kernel's (no module loaded yet; TIMES its
 * record of insertions), HP an empty handlers' directory, SYS where a
 * sysfs tree may go (not made); SHIM the stand-in kernel itself */
struct scratch {
	char *tmp, *m, *root, *times, *sys, *hp, *shim;
};

/* The stand-in kernel's ROOT, no module loaded yet */
static void kernel_root(const char *root)
{
	g_autofree char *mods = g_build_filename(root, "sys", "module", NULL);

	g_assert_cmpint(g_mkdir_with_parents(mods, 0755), ==, 0);
}

static void scratch_init(struct scratch *s)
{
	g_autofree char *src = g_test_build_filename(G_TEST_DIST, "data", "load", "lib", "modules", "9.9.9-test", NULL);
	g_autofree char *cp = NULL;

	s->tmp = g_dir_make_tmp("modalias-agent-XXXXXX", NULL);
	g_assert_nonnull(s->tmp);
	s->m = g_build_filename(s->tmp, "m", NULL);
	s->root = g_build_filename(s->tmp, "kernel", NULL);
	s->times = g_build_filename(s->root, "times", NULL);
	s->sys = g_build_filename(s->tmp, "sys", NULL);
	s->hp = g_build_filename(s->tmp, "hotplug.d", NULL);
	s->shim = g_test_build_filename(G_TEST_BUILT, "shim", ".libs", "fake-kernel.so", NULL);
	cp = g_strdup_printf("cp -r '%s' '%s'", src, s->m);
	g_assert_cmpint(system(cp), ==, 0);
	kernel_root(s->root);
	g_assert_cmpint(mkdir(s->hp, 0755), ==, 0);
}

static void scratch_clear(struct scratch *s)
{
	char **owned[] = { &s->tmp, &s->m, &s->root, &s->times, &s->sys, &s->hp, &s->shim };

	test_rm_rf(s->tmp);
	for (size_t i = 0; i < G_N_ELEMENTS(owned); i++)
		g_clear_pointer(owned[i], g_free);
}

/* A device NAME (under devices/virtual/mtest of the sysfs tree SYS) with
 * its MODALIAS */
static void device(const char *sys, const char *name, const char *alias)
{
	g_autofree char *dir = g_build_filename(sys, "devices", "virtual", "mtest", name, NULL);
	g_autofree char *uevent = g_build_filename(dir, "uevent", NULL);
	g_autofree char *text = g_strdup_printf("MODALIAS=%s\n", alias);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(uevent, text, -1, NULL));
}

/* The daemon (EXTRA: as daemon_start_with()) with S's handlers on the
 * stand-in kernel with its ROOT, each insertion taking INSERT_MS (or the
 * kernel's default, NULL), and SLOW_DIR ("NAME:MS", or NULL) slow to open */
static void kernel_daemon_start(struct daemon *d, const struct scratch *s, const char *root, const char *insert_ms,
				const char *slow_dir, const char *const *extra)
{
	g_setenv("FAKE_KERNEL_ROOT", root, TRUE);
	if (insert_ms)
		g_setenv("FAKE_KERNEL_INSERT_MS", insert_ms, TRUE);
	if (slow_dir)
		g_setenv("FAKE_KERNEL_SLOW_DIR", slow_dir, TRUE);
	g_setenv("LD_PRELOAD", s->shim, TRUE);
	daemon_start_with(d, true, GROUP, s->hp, extra, NULL);
	g_unsetenv("LD_PRELOAD");
	g_unsetenv("FAKE_KERNEL_SLOW_DIR");
	g_unsetenv("FAKE_KERNEL_INSERT_MS");
	g_unsetenv("FAKE_KERNEL_ROOT");
}

static void test_stays_right(void)
{
	struct scratch s;
	g_autofree char *live = NULL, *alias = NULL, *output = NULL;
	const char *extra[] = { "--moddir", NULL, "--stderr", NULL };
	struct needle w;
	struct daemon d;
	unsigned long seq = 0;
	FILE *f;
	int fd = nl_sender();

	scratch_init(&s);
	live = g_build_filename(s.root, "sys", "module", "mod_a", NULL);
	alias = g_build_filename(s.m, "modules.alias", NULL);
	extra[1] = s.m;
	g_setenv("FAKE_KERNEL_FAIL", "mod_fail:19", TRUE);
	kernel_daemon_start(&d, &s, s.root, NULL, NULL, extra);
	g_unsetenv("FAKE_KERNEL_FAIL");
	g_assert_true(daemon_read_until(&d, listening, NULL, 30));

	/* loaded once; the device again: still once; removed (rmmod), then the
	 * device again: loaded again */
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/a", ++seq, "test:dev:a1");
	w = (struct needle){ "inserted mod_a", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/a", ++seq, "test:dev:a1");
	test_rm_rf(live);
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/a", ++seq, "test:dev:a1");
	w = (struct needle){ "inserted mod_a", 2 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	g_assert_nonnull(strstr(d.buf->str, "mod_a: no longer loaded (removed?): loading it again"));

	/* a module that fails: tried on 3 of 5 events, then a later event of
	 * the same device (after them, in SEQNUM order) loads another */
	for (int i = 0; i < 5; i++)
		nl_send(fd, GROUP, "add", "/devices/virtual/mtest/f", ++seq, "test:dev:fail");
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/f", ++seq, "test:dev:soft");
	w = (struct needle){ "inserted mod_soft", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	g_assert_cmpuint(count_str(d.buf->str, "mod_fail: failed"), ==, 3);

	/* depmod adds an alias: the next event finds it */
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/n", ++seq, "test:dev:newalias");
	f = fopen(alias, "a");
	g_assert_nonnull(f);
	fputs("alias test:dev:newalias mod_x\n", f);
	g_assert_cmpint(fclose(f), ==, 0);
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/n", ++seq, "test:dev:newalias");
	w = (struct needle){ "inserted mod_x", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	g_assert_nonnull(strstr(d.buf->str, "the module directory changed: reloading the module tables"));

	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_test_message("%s", output);
	g_assert_cmpuint(inserted(s.root, "mod_a"), ==, 2);
	g_assert_cmpuint(inserted(s.root, "mod_x"), ==, 1);
	close(fd);
	scratch_clear(&s);
}

/* ---- modalias.conf's tables=, checked at every load ------------------------------ */

/* An extra table that passed the trust walk when the daemon started, whose
 * directory is then nobody's (handed over), who renames a table of his own
 * over it: at the next reload of the tables (depmod wrote the module
 * directory) it is refused, not read by its path again, and the daemon
 * goes on with the rest. */
static void test_table_replaced(void)
{
	struct scratch s;
	g_autofree char *dir = NULL, *table = NULL, *evil = NULL, *conf = NULL, *text = NULL, *alias = NULL,
			*output = NULL, *refused = NULL;
	const char *extra[] = { "--moddir", NULL, "--settings", NULL, "--stderr", NULL };
	struct needle w;
	struct daemon d;
	FILE *f;
	int fd = nl_sender();

	scratch_init(&s);
	dir = g_build_filename(s.tmp, "t", NULL);
	table = g_build_filename(dir, "extra.alias", NULL);
	evil = g_build_filename(dir, "evil.alias", NULL);
	conf = g_build_filename(s.tmp, "c.conf", NULL);
	alias = g_build_filename(s.m, "modules.alias", NULL);
	g_assert_cmpint(mkdir(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(table, "alias test:dev:extra mod_a\n", -1, NULL));
	g_assert_cmpint(chmod(table, 0644), ==, 0);
	text = g_strdup_printf("[modules]\ntables=%s\n", table);
	g_assert_true(g_file_set_contents(conf, text, -1, NULL));
	extra[1] = s.m;
	extra[3] = conf;
	kernel_daemon_start(&d, &s, s.root, NULL, NULL, extra);
	g_assert_true(daemon_read_until(&d, listening, NULL, 30));
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/e", 1, "test:dev:extra");
	w = (struct needle){ "inserted mod_a", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));

	/* the directory nobody's; his table renamed over root's */
	g_assert_true(g_file_set_contents(evil, "alias test:dev:evil mod_x\n", -1, NULL));
	g_assert_cmpint(chmod(evil, 0644), ==, 0);
	g_assert_cmpint(chown(evil, 65534, 65534), ==, 0);
	g_assert_cmpint(chown(dir, 65534, 65534), ==, 0);
	g_assert_cmpint(rename(evil, table), ==, 0);
	/* depmod adds an alias: the tables are read again at the next event */
	f = fopen(alias, "a");
	g_assert_nonnull(f);
	fputs("alias test:dev:newalias mod_soft\n", f);
	g_assert_cmpint(fclose(f), ==, 0);
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/e", 2, "test:dev:evil");
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/e", 3, "test:dev:newalias");
	w = (struct needle){ "inserted mod_soft", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_test_message("%s", output);
	g_assert_nonnull(strstr(output, "the module directory changed: reloading the module tables"));
	refused = g_strdup_printf("hotplug: %s: [modules] tables: a table file on a path another user may change (%s: %s: "
				  "not owned by root): not used", conf, table, dir);
	g_assert_nonnull(strstr(output, refused));
	/* nobody's table was not read */
	g_assert_cmpuint(inserted(s.root, "mod_x"), ==, 0);
	close(fd);
	scratch_clear(&s);
}

/* ---- one-shot coldplug to a fixed point ----------------------------------------- */

/* S, with a host controller in its sysfs tree, whose driver (mod_a) makes a
 * device appear behind it (mod_soft's), whose driver makes an interface
 * appear (mod_x's) */
static void oneshot_setup(struct scratch *s)
{
	scratch_init(s);
	device(s->sys, "hc", "test:dev:a1");
}

/* hotplug --coldplug (one-shot) on S's tree with the stand-in kernel, whose
 * devices appear DELAY ms after their parent's driver is inserted (PLUG:
 * more of FAKE_KERNEL_PLUG, "…;" entries with the tree's path as SYS, or
 * NULL), and which sends uevents when UEVENTS: its exit status, *output
 * what it printed, *ended when it did (monotonic µs) */
static int oneshot_run_with(const struct scratch *s, const char *plug, const char *timeout, const char *delay,
			    bool uevents, char **output, gint64 *ended)
{
	g_autofree char *grp = g_strdup_printf("--netlink-group=%d", GROUP);
	g_autoptr(GString) more = g_string_new(plug ? plug : "");
	g_autofree char *all = NULL;
	g_string_replace(more, "SYS", s->sys, 0);
	all = g_strdup_printf("%smod_a=%s/devices/virtual/mtest/hc/port1=test:dev:soft;"
			      "mod_soft=%s/devices/virtual/mtest/hc/port1/if0=test:dev:multi",
			      more->str, s->sys, s->sys);
	const char *argv[] = { agent, "--coldplug", "--sysfs", s->sys, "--moddir", s->m, "-C", "/dev/null", "--hotplug-dir",
			       s->hp, grp, "--log-level=info", timeout, uevents ? "--trust-any-sender" : NULL, NULL };
	g_auto(GStrv) env = g_get_environ();
	g_autoptr(GError) error = NULL;
	int status;

	env = g_environ_setenv(env, "LD_PRELOAD", s->shim, TRUE);
	env = g_environ_setenv(env, "FAKE_KERNEL_ROOT", s->root, TRUE);
	env = g_environ_setenv(env, "FAKE_KERNEL_PLUG", all, TRUE);
	env = g_environ_setenv(env, "FAKE_KERNEL_PLUG_DELAY_MS", delay, TRUE);
	if (uevents) {
		g_autofree char *g = g_strdup_printf("%d", GROUP);
		env = g_environ_setenv(env, "FAKE_KERNEL_UEVENT_GROUP", g, TRUE);
	}
	if (!g_spawn_sync(NULL, (char **)argv, env, G_SPAWN_STDERR_TO_DEV_NULL, stderr_to_stdout, NULL, output, NULL,
			  &status, &error))
		g_error("%s", error->message);
	if (ended)
		*ended = g_get_monotonic_time();
	g_test_message("%s", *output);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Without uevents: the devices appear after the walk that loaded their
 * parents' drivers */
static int oneshot_run(const struct scratch *s, const char *timeout, char **output)
{
	return oneshot_run_with(s, NULL, timeout, "300", false, output, NULL);
}

/* The modules of devices that appear only because of a module coldplug
 * loaded are loaded too (the one walk before missed mod_soft and mod_x). */
static void test_coldplug_fixed_point(void)
{
	struct scratch s;
	g_autofree char *output = NULL;

	oneshot_setup(&s);
	g_assert_cmpint(oneshot_run(&s, "--coldplug-timeout=60", &output), ==, 0);
	g_assert_cmpuint(inserted(s.root, "mod_a"), ==, 1);
	g_assert_cmpuint(inserted(s.root, "mod_soft"), ==, 1);
	g_assert_cmpuint(inserted(s.root, "mod_x"), ==, 1);
	g_assert_nonnull(strstr(output, "coldplug: fixed point after "));
	scratch_clear(&s);
}

/* With the kernel's uevents (a module's own add once inserted, each new
 * device's add), one-shot coldplug ends soon after the last one: within
 * 0.3 s and some slack for a loaded machine, not after a quiet second and
 * another walk (1.3 s and more before); complete, from one walk. */
static void test_coldplug_soon(void)
{
	struct scratch s;
	g_autofree char *output = NULL, *uevents = NULL, *log = NULL;
	g_auto(GStrv) lines = NULL;
	long long last = 0;
	gint64 ended;

	oneshot_setup(&s);
	g_assert_cmpint(oneshot_run_with(&s, NULL, "--coldplug-timeout=60", "100", true, &output, &ended), ==, 0);
	g_assert_cmpuint(inserted(s.root, "mod_a"), ==, 1);
	g_assert_cmpuint(inserted(s.root, "mod_soft"), ==, 1);
	g_assert_cmpuint(inserted(s.root, "mod_x"), ==, 1);
	g_assert_nonnull(strstr(output, "coldplug: fixed point after 1 walks, 3 devices"));
	uevents = g_build_filename(s.root, "uevents", NULL);
	g_assert_true(g_file_get_contents(uevents, &log, NULL, NULL));
	lines = g_strsplit(log, "\n", -1);
	for (char **l = lines; *l; l++)
		last = MAX(last, g_ascii_strtoll(*l, NULL, 10));
	g_test_message("the last uevent %.3f s before the end", (double)(ended - last) / G_USEC_PER_SEC);
	g_assert_cmpint(ended - last, <, 600000);
	scratch_clear(&s);
}

/* A SCSI host appears behind the controller mod_a drives; its scan finds
 * a target (mod_opt's device) SCAN_MS after it, as usb-storage scans its
 * host delay_use after it appeared.  The one-shot waits for the scan, up
 * to ENUMERATE_MS (1.5 s), but once the target came it ends soon after its
 * last uevent, not ENUMERATE_MS after the host; and a host that came while
 * it was inserting a module is waited for from when it came. */
static void test_coldplug_scsi_scan(void)
{
	static const struct {
		const char *target; /* where the scan finds it, or NULL */
		const char *scan_ms; /* the host's delay (after mod_a), or the target's */
		const char *insert_ms; /* FAKE_KERNEL_INSERT_MS */
	} rows[] = {
		/* a scan that finds it soon: no wait for the rest of 1.5 s */
		{ "target6:0:0/6:0:0:0", "400", "0" },
		/* later than the quiet while: still heard */
		{ "target6:0:0/6:0:0:0", "1100", "0" },
		/* behind a SAS port */
		{ "port-6:0/end_device-6:0/target6:0:0/6:0:0:0", "400", "0" },
		/* no target; the host comes 0.2 s into mod_soft's 1.5 s
		 * insertion, and mod_x's uevent 1.4 s after it: its 1.5 s
		 * were over 0.1 s later, not 1.5 s after the insertion */
		{ NULL, "200", "mod_soft:1500" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct scratch s;
		g_autofree char *output = NULL, *uevents = NULL, *log = NULL, *plug = NULL;
		g_auto(GStrv) lines = NULL;
		long long last = 0, host = 0;
		gint64 ended;

		oneshot_setup(&s);
		if (rows[i].target)
			plug = g_strdup_printf("mod_a=SYS/devices/virtual/mtest/hc/host6/scsi_host/host6=;"
					       "mod_a=SYS/devices/virtual/mtest/hc/host6/%s=test:dev:opt@%s;",
					       rows[i].target, rows[i].scan_ms);
		else
			plug = g_strdup_printf("mod_a=SYS/devices/virtual/mtest/hc/host6/scsi_host/host6=@%s;",
					       rows[i].scan_ms);
		g_setenv("FAKE_KERNEL_INSERT_MS", rows[i].insert_ms, TRUE);
		g_assert_cmpint(oneshot_run_with(&s, plug, "--coldplug-timeout=60", "100", true, &output, &ended), ==, 0);
		g_unsetenv("FAKE_KERNEL_INSERT_MS");
		g_assert_cmpuint(inserted(s.root, "mod_opt"), ==, rows[i].target ? 1 : 0);
		g_assert_cmpuint(inserted(s.root, "mod_x"), ==, 1);
		uevents = g_build_filename(s.root, "uevents", NULL);
		g_assert_true(g_file_get_contents(uevents, &log, NULL, NULL));
		lines = g_strsplit(log, "\n", -1);
		for (char **l = lines; *l; l++) {
			last = MAX(last, g_ascii_strtoll(*l, NULL, 10));
			if (strstr(*l, "/scsi_host/host6"))
				host = g_ascii_strtoll(*l, NULL, 10);
		}
		g_assert_cmpint(host, >, 0);
		g_test_message("%s after %s ms, insertions %s ms: the end %.3f s after the last uevent, %.3f s after the host",
			       rows[i].target ? rows[i].target : "no target", rows[i].scan_ms, rows[i].insert_ms,
			       (double)(ended - last) / G_USEC_PER_SEC, (double)(ended - host) / G_USEC_PER_SEC);
		/* as /agent/coldplug-soon: 0.2 s, and the process's exit */
		g_assert_cmpint(ended - last, <, 600000);
		scratch_clear(&s);
	}
}

/* The kernel never goes quiet (its uevent_seqnum keeps moving): coldplug
 * stops at its time limit, says so, and exits with status 4. */
static gint sending; /* keep_sending() goes on while set */

static gpointer keep_sending(gpointer data)
{
	const char *path = data;

	/* not while the file exists: a rename in flight would make it again */
	for (unsigned int seq = 1; g_atomic_int_get(&sending); seq++) {
		g_autofree char *text = g_strdup_printf("%u\n", seq);
		g_file_set_contents(path, text, -1, NULL);
		g_usleep(100000);
	}
	return NULL;
}

static void test_coldplug_timeout(void)
{
	struct scratch s;
	g_autofree char *output = NULL;
	g_autofree char *kernel = NULL, *seqnum = NULL;
	GThread *t;

	oneshot_setup(&s);
	kernel = g_build_filename(s.sys, "kernel", NULL);
	seqnum = g_build_filename(kernel, "uevent_seqnum", NULL);
	g_assert_cmpint(g_mkdir_with_parents(kernel, 0755), ==, 0);
	g_assert_true(g_file_set_contents(seqnum, "0\n", -1, NULL));
	g_atomic_int_set(&sending, 1);
	t = g_thread_new("kernel", keep_sending, seqnum);
	g_assert_cmpint(oneshot_run(&s, "--coldplug-timeout=3", &output), ==, 4);
	g_assert_nonnull(strstr(output, "coldplug: no fixed point after 3 s ("));
	/* what it could do, it did */
	g_assert_cmpuint(inserted(s.root, "mod_x"), ==, 1);
	g_atomic_int_set(&sending, 0);
	g_thread_join(t);
	scratch_clear(&s);
}

/* ---- the completion barrier: READY=1 and hotplug --settle --------------------- */

/* hotplug --settle=SECONDS --control-socket=PATH: its status, *err its
 * standard error, *took its time in seconds */
static int settle(const char *path, const char *seconds, char **err, double *took)
{
	g_autofree char *ctl = g_strdup_printf("--control-socket=%s", path);
	g_autofree char *wait = g_strdup_printf("--settle=%s", seconds);
	const char *argv[] = { agent, wait, ctl, NULL };
	g_autoptr(GError) error = NULL;
	gint64 start = g_get_monotonic_time();
	int status;

	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, err, &status, &error))
		g_error("%s", error->message);
	*took = (double)(g_get_monotonic_time() - start) / G_USEC_PER_SEC;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* systemd hears READY=1 once coldplug is done; --settle answers at once
 * when the daemon is idle, waits while a handler runs (and says so at its
 * limit, status 4), answers when it is done; with no daemon, status 1;
 * --settle=0 only asks: 0 idle, 4 busy. */
static void test_settle(void)
{
	struct hpdir h;
	g_autofree char *ctl = NULL, *notify = NULL, *script = NULL, *extra_ctl = NULL, *output = NULL, *err = NULL;
	const char *extra[] = { NULL, "--coldplug", "--sysfs", NULL, NULL };
	g_autofree char *sysfs = g_test_build_filename(G_TEST_DIST, "data", "sysfs", "host-vm", NULL);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct daemon d;
	char buf[64] = "";
	double took;
	int fd = nl_sender(), nfd;
	GPollFD p;

	hpdir_init(&h);
	ctl = g_build_filename(h.dir, "run", "control", NULL);
	notify = g_build_filename(h.dir, "notify", NULL);
	extra_ctl = g_strdup_printf("--control-socket=%s", ctl);
	extra[0] = extra_ctl;
	extra[3] = sysfs;
	script = g_strdup("#!/bin/sh\nsleep 3\n");
	g_free(hpdir_add(&h, "slow.hotplug", script));
	nfd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	g_assert_cmpint(nfd, >=, 0);
	memcpy(sa.sun_path, notify, strlen(notify) + 1);
	g_assert_cmpint(bind(nfd, (struct sockaddr *)&sa, sizeof(sa)), ==, 0);

	/* no daemon yet: looked for until the time is up */
	g_assert_cmpint(settle(ctl, "1", &err, &took), ==, 1);
	g_assert_cmpfloat(took, >=, 0.9);
	g_assert_nonnull(strstr(err, "hotplug: --settle: no daemon answers on "));
	g_clear_pointer(&err, g_free);

	g_setenv("NOTIFY_SOCKET", notify, TRUE);
	daemon_start_with(&d, true, GROUP, h.dir, extra, NULL);
	g_unsetenv("NOTIFY_SOCKET");
	p = (GPollFD){ .fd = nfd, .events = G_IO_IN };
	g_assert_cmpint(g_poll(&p, 1, 30000), ==, 1);
	g_assert_cmpint(recv(nfd, buf, sizeof(buf) - 1, 0), ==, 7);
	g_assert_cmpstr(buf, ==, "READY=1");
	/* coldplug was done before it said so */
	{
		struct needle w = { "hotplug: coldplug (resolve)", 1 };
		g_assert_true(daemon_read_until(&d, has_n, &w, 5));
	}

	g_assert_cmpint(settle(ctl, "5", &err, &took), ==, 0);
	g_test_message("idle: settled in %.3f s", took);
	g_clear_pointer(&err, g_free);
	/* 0 only asks: an idle daemon's answer is "settled" */
	g_assert_cmpint(settle(ctl, "0", &err, &took), ==, 0);
	g_assert_cmpstr(err, ==, "");
	g_clear_pointer(&err, g_free);

	/* busy for 3 s: a 1 s settle gives up, a 30 s one waits */
	nl_send(fd, GROUP, "change", "/devices/virtual/mtest/slow", 1, NULL);
	g_usleep(200000);
	g_assert_cmpint(settle(ctl, "0", &err, &took), ==, 4);
	g_assert_cmpstr(err, ==, "hotplug: --settle=0: the daemon is busy (not settled)\n");
	g_assert_cmpfloat(took, <, 1.5);
	g_clear_pointer(&err, g_free);
	g_assert_cmpint(settle(ctl, "1", &err, &took), ==, 4);
	g_assert_cmpstr(err, ==, "hotplug: --settle: the daemon was still busy after 1 s\n");
	g_assert_cmpfloat(took, <, 2.5);
	g_clear_pointer(&err, g_free);
	g_assert_cmpint(settle(ctl, "30", &err, &took), ==, 0);
	g_test_message("busy: settled after %.3f s more", took);
	g_assert_cmpfloat(took, >, 0.5);

	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_assert_false(g_file_test(ctl, G_FILE_TEST_EXISTS));
	close(nfd);
	close(fd);
	hpdir_free(&h);
}

/* ---- a reload that fails ----------------------------------------------------------- */

/* depmod caught half way: modules.alias gone as an event comes.  The
 * reload fails and says so; the event is kept (not handled without its
 * modules) and --settle does not answer "settled" meanwhile; the file back,
 * the tables are opened again on the timer, with no event to wake the
 * daemon, and the kept event's module is loaded. */
static void test_reload_fails(void)
{
	struct scratch s;
	g_autofree char *ctl = NULL, *ctl_opt = NULL, *alias = NULL, *away = NULL, *output = NULL, *err = NULL;
	const char *extra[] = { "--moddir", NULL, "--stderr", NULL, NULL };
	struct needle w;
	struct daemon d;
	double took;
	int fd = nl_sender();

	scratch_init(&s);
	ctl = g_build_filename(s.tmp, "run", "control", NULL);
	ctl_opt = g_strdup_printf("--control-socket=%s", ctl);
	alias = g_build_filename(s.m, "modules.alias", NULL);
	away = g_build_filename(s.tmp, "modules.alias", NULL);
	extra[1] = s.m;
	extra[3] = ctl_opt;
	kernel_daemon_start(&d, &s, s.root, NULL, NULL, extra);
	g_assert_true(daemon_read_until(&d, listening, NULL, 30));
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/a", 1, "test:dev:a1");
	w = (struct needle){ "inserted mod_a", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));

	/* modules.alias gone, an event: the reload fails, the event waits */
	g_assert_cmpint(rename(alias, away), ==, 0);
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/s", 2, "test:dev:soft");
	w = (struct needle){ "the module tables cannot be opened: events are kept until they can", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	g_assert_cmpint(settle(ctl, "2", &err, &took), ==, 4);
	g_assert_cmpstr(err, ==, "hotplug: --settle: the daemon was still busy after 2 s\n");
	g_clear_pointer(&err, g_free);
	g_assert_cmpuint(inserted(s.root, "mod_soft"), ==, 0);

	/* the file back: the timer opens the tables, the kept event loads */
	g_assert_cmpint(rename(away, alias), ==, 0);
	w = (struct needle){ "inserted mod_soft", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 40));
	g_assert_nonnull(strstr(d.buf->str, "the module tables are open again: handling the events kept"));
	g_assert_cmpint(settle(ctl, "10", &err, &took), ==, 0);

	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_test_message("%s", output);
	g_assert_cmpuint(inserted(s.root, "mod_soft"), ==, 1);
	close(fd);
	scratch_clear(&s);
}

/* More events than the daemon keeps while its tables are closed (KEPT_MAX
 * in hotplug-daemon.c): it keeps no more (the kept ones dropped, said once,
 * not one by one) and rescans sysfs when the tables open again, as after
 * uevents lost in the kernel: the host controller's module (mod_a: its
 * device is only in sysfs, no event names it) is loaded then. */
static void test_reload_fails_bounded(void)
{
	struct scratch s;
	g_autofree char *alias = NULL, *away = NULL, *output = NULL;
	const char *extra[] = { "--moddir", NULL, "--sysfs", NULL, "--stderr", NULL };
	struct needle w;
	struct daemon d;
	int fd = nl_sender();

	oneshot_setup(&s);
	alias = g_build_filename(s.m, "modules.alias", NULL);
	away = g_build_filename(s.tmp, "modules.alias", NULL);
	extra[1] = s.m;
	extra[3] = s.sys;
	kernel_daemon_start(&d, &s, s.root, NULL, NULL, extra);
	g_assert_true(daemon_read_until(&d, listening, NULL, 30));
	g_assert_cmpint(rename(alias, away), ==, 0);
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/n0", 1, "test:dev:none");
	w = (struct needle){ "the module tables cannot be opened: events are kept until they can", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	for (unsigned long seq = 2; seq < 4096 + 600; seq++) {
		g_autofree char *dev = g_strdup_printf("/devices/virtual/mtest/n%lu", seq);

		nl_send(fd, GROUP, "add", dev, seq, "test:dev:none");
		if (seq % 200 == 0)
			g_usleep(20000); /* no overflow of the daemon's socket */
	}
	w = (struct needle){ "events kept while the module tables are closed: dropped", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	g_assert_cmpuint(inserted(s.root, "mod_a"), ==, 0);

	g_assert_cmpint(rename(away, alias), ==, 0);
	w = (struct needle){ "inserted mod_a", 1 };
	g_assert_true(daemon_read_until(&d, has_n, &w, 60));
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_assert_null(strstr(output, "uevents lost"));
	g_assert_cmpuint(inserted(s.root, "mod_a"), ==, 1);
	close(fd);
	scratch_clear(&s);
}

/* ---- parallel, dependency-aware loading ------------------------------------------ */

struct span {
	long long start, end;
};

/* Whether two insertions ran at the same time */
static bool overlap(const struct span *x, const struct span *y)
{
	return MAX(x->start, y->start) < MIN(x->end, y->end);
}

/* NAME's insertion in the stand-in kernel's times file */
static bool span_of(const char *times, const char *name, struct span *sp)
{
	g_auto(GStrv) lines = g_strsplit(times, "\n", -1);

	for (char **l = lines; *l; l++) {
		g_auto(GStrv) f = g_strsplit(*l, " ", 3);
		if (g_strv_length(f) == 3 && strcmp(f[0], name) == 0) {
			sp->start = g_ascii_strtoll(f[1], NULL, 10);
			sp->end = g_ascii_strtoll(f[2], NULL, 10);
			return true;
		}
	}
	return false;
}

/* Three unrelated devices' modules, each insertion 1 s long (long enough
 * for the second worker to start under a loaded sanitizer build; 300 ms
 * was not): inserted at once, as many as there are CPUs (one libkmod
 * context serialised them before: no two overlapped); mod_a's
 * dependencies each done before the next starts; a fourth device wanting
 * mod_soft does not insert it twice. */
static void test_parallel_loads(void)
{
	struct scratch s;
	g_autofree char *times = NULL, *output = NULL;
	const char *extra[] = { "--moddir", NULL, "--stderr", NULL };
	struct span soft, opt, a, b, c;
	struct needle w = { "hotplug: inserted ", 5 };
	struct daemon d;
	int fd;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		g_test_skip("one CPU: one insertion at a time");
		return;
	}
	fd = nl_sender();
	scratch_init(&s);
	extra[1] = s.m;
	kernel_daemon_start(&d, &s, s.root, "1000", NULL, extra);
	g_assert_true(daemon_read_until(&d, listening, NULL, 30));
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/p1", 1, "test:dev:soft");
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/p2", 2, "test:dev:opt");
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/p3", 3, "test:dev:a1");
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/p4", 4, "test:dev:soft");
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_assert_true(g_file_get_contents(s.times, &times, NULL, NULL));
	g_test_message("%s", times);
	g_assert_cmpuint(inserted(s.root, "mod_soft"), ==, 1);
	g_assert_true(span_of(times, "mod_soft", &soft) && span_of(times, "mod_opt", &opt));
	g_assert_true(span_of(times, "mod_a", &a) && span_of(times, "mod_b", &b) && span_of(times, "mod_c", &c));
	/* unrelated: at once (as many as there are CPUs).  Which two of the
	 * three devices get the two libkmod contexts first is the workers'
	 * race: two of mod_soft, mod_opt and mod_c (mod_a's chain) overlap */
	g_assert_true(overlap(&soft, &opt) || overlap(&soft, &c) || overlap(&opt, &c));
	/* dependencies first */
	g_assert_cmpint(c.end, <=, b.start);
	g_assert_cmpint(b.end, <=, a.start);
	close(fd);
	scratch_clear(&s);
}

/* The daemon's coldplug queues what its walk finds: unrelated devices'
 * modules inserted at once by the workers (the walk inserted them one after
 * another before, in the daemon's own thread, while uevents waited), and
 * ready once they are done. */
static void test_coldplug_parallel(void)
{
	struct scratch s;
	g_autofree char *times = NULL, *output = NULL;
	const char *extra[] = { "--moddir", NULL, "--sysfs", NULL, "--coldplug", "--stderr", NULL };
	const char *devs[][2] = { { "p1", "test:dev:soft" }, { "p2", "test:dev:opt" } };
	struct needle w = { "hotplug: inserted ", 2 };
	struct span soft, opt;
	struct daemon d;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		g_test_skip("one CPU: one insertion at a time");
		return;
	}
	scratch_init(&s);
	extra[1] = s.m;
	extra[3] = s.sys;
	for (guint i = 0; i < G_N_ELEMENTS(devs); i++)
		device(s.sys, devs[i][0], devs[i][1]);
	kernel_daemon_start(&d, &s, s.root, "1000", NULL, extra);
	/* mod_soft and mod_opt (-C /dev/null: no softdeps) */
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_assert_true(g_file_get_contents(s.times, &times, NULL, NULL));
	g_test_message("%s", times);
	g_assert_true(span_of(times, "mod_soft", &soft) && span_of(times, "mod_opt", &opt));
	g_assert_true(overlap(&soft, &opt));
	scratch_clear(&s);
}

/* The daemon starts loading what its walk finds while it walks: mod_a
 * (device a) is inserted while the walk is still held up in a slow
 * directory (the stand-in kernel's opendir of "slow" takes 1.5 s), before
 * it reaches device z.  (Before, every device was queued first and the
 * first insertion began after the whole walk.) */
static void test_coldplug_while_walking(void)
{
	struct scratch s;
	g_autofree char *slow = NULL, *times = NULL, *output = NULL;
	const char *extra[] = { "--moddir", NULL, "--sysfs", NULL, "--coldplug", "--stderr", NULL };
	const char *devs[][2] = { { "a", "test:dev:a1" }, { "z", "test:dev:soft" } };
	struct needle w = { "hotplug: inserted ", 4 }; /* mod_a's chain: mod_c, mod_b, mod_a; mod_soft */
	struct span a, walk, soft;
	struct daemon d;

	scratch_init(&s);
	extra[1] = s.m;
	extra[3] = s.sys;
	slow = g_build_filename(s.sys, "devices", "virtual", "mtest", "slow", NULL);
	g_assert_cmpint(g_mkdir_with_parents(slow, 0755), ==, 0);
	for (guint i = 0; i < G_N_ELEMENTS(devs); i++)
		device(s.sys, devs[i][0], devs[i][1]);
	kernel_daemon_start(&d, &s, s.root, "100", "slow:1500", extra);
	g_assert_true(daemon_read_until(&d, has_n, &w, 30));
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_assert_true(g_file_get_contents(s.times, &times, NULL, NULL));
	g_test_message("%s", times);
	g_assert_true(span_of(times, "mod_a", &a) && span_of(times, "opendir:slow", &walk) &&
		      span_of(times, "mod_soft", &soft));
	/* device a, found before the slow directory, is in before the walk
	 * gets past it; device z, after it, only then */
	g_assert_cmpint(a.end, <, walk.end);
	g_assert_cmpint(soft.start, >=, walk.end);
	scratch_clear(&s);
}

/* ---- --preload: the last boot's modules ----------------------------------------------- */

/* One boot of the daemon with --preload=LIST on S's sysfs tree and tables,
 * into a new stand-in kernel with its root NAME in S (*root): *output what
 * it printed once UNTIL was said (what *root and *output held is freed) */
static const char *preload_insert_ms = "50"; /* FAKE_KERNEL_INSERT_MS of preload_boot() */
static const char *preload_option;           /* one more option of preload_boot()'s daemon, or NULL */

static void preload_boot(const struct scratch *s, const char *name, const char *list, const char *until, char **root,
			 char **output)
{
	g_autofree char *opt = g_strdup_printf("--preload=%s", list);
	const char *extra[] = { "--moddir", s->m, "--sysfs", s->sys, "--coldplug", "--stderr", opt, preload_option, NULL };
	struct needle w = { until, 1 };
	struct daemon d;

	g_free(*root);
	g_free(*output);
	*root = g_build_filename(s->tmp, name, NULL);
	kernel_root(*root);
	kernel_daemon_start(&d, s, *root, preload_insert_ms, "mtest:500", extra);
	if (!daemon_read_until(&d, has_n, &w, 30))
		g_test_message("no '%s' in:\n%s", until, d.buf->str);
	g_assert_cmpint(daemon_stop(&d, output), ==, 0);
	g_test_message("%s", *output);
	g_assert_nonnull(strstr(*output, until));
}

/* Boot 1 (no list yet): the list written once coldplug settled, naming
 * what the devices' modaliases named, not mod_a's dependencies, the
 * shallowest devices' first (mod_a and mod_opt, then mod_soft of x/s).
 * Boot 2, device a gone: mod_a and mod_soft are inserted
 * before the walk starts (it waits for them), and the list then drops
 * mod_a.  Boot 3: an insertion that takes 5 s holds the walk back 3 s,
 * no longer; boot 4: a uevent with a SEQNUM gap before a preloaded
 * module does not hold it for good.  A list of
 * another module directory is not used; one a user could have written
 * is refused; a name that is no module is reported and skipped. */
static void test_preload(void)
{
	struct scratch s;
	g_autofree char *list = NULL, *gone = NULL, *text = NULL, *out = NULL, *want = NULL;
	g_autofree char *times = NULL, *times_path = NULL, *root = NULL;
	struct span a, soft, walk;

	scratch_init(&s);
	list = g_build_filename(s.tmp, "preload", NULL);
	gone = g_build_filename(s.sys, "devices", "virtual", "mtest", "a", NULL);
	g_assert_cmpint(chmod(s.tmp, 0755), ==, 0);
	device(s.sys, "a", "test:dev:a1");
	device(s.sys, "x/s", "test:dev:soft");
	device(s.sys, "z", "test:dev:opt");

	/* boot 1 */
	preload_boot(&s, "kernel1", list, "--preload: 3 modules written", &root, &out);
	g_assert_nonnull(strstr(out, "--preload: no "));
	g_assert_true(g_file_get_contents(list, &text, NULL, NULL));
	want = g_strdup_printf("# hotplug --preload: modules this machine's devices wanted (hotplug(8))\nmodules %s\n"
			       "mod_a\nmod_opt\nmod_soft\n", s.m);
	g_assert_cmpstr(text, ==, want);
	g_clear_pointer(&text, g_free);

	/* boot 2: device a has left */
	test_rm_rf(gone);
	preload_boot(&s, "kernel2", list, "--preload: 2 modules written", &root, &out);
	g_assert_nonnull(strstr(out, "--preload: 3 modules from "));
	times_path = g_build_filename(root, "times", NULL);
	g_assert_true(g_file_get_contents(times_path, &times, NULL, NULL));
	g_test_message("%s", times);
	g_assert_true(span_of(times, "mod_a", &a) && span_of(times, "mod_soft", &soft) &&
		      span_of(times, "opendir:mtest", &walk));
	/* the walk waits for them: it would only compete for the CPUs */
	g_assert_cmpint(a.end, <=, walk.start);
	g_assert_cmpint(soft.end, <=, walk.start);
	g_assert_true(g_file_get_contents(list, &text, NULL, NULL));
	g_assert_nonnull(strstr(text, "\nmod_opt\nmod_soft\n"));
	g_assert_null(strstr(text, "mod_a"));
	g_clear_pointer(&text, g_free);

	/* boot 3: mod_soft takes 5 s */
	preload_insert_ms = "mod_soft:5000";
	preload_boot(&s, "kernel2b", list, "--preload: 2 modules written", &root, &out);
	preload_insert_ms = "50";
	g_clear_pointer(&times, g_free);
	g_clear_pointer(&times_path, g_free);
	times_path = g_build_filename(root, "times", NULL);
	g_assert_true(g_file_get_contents(times_path, &times, NULL, NULL));
	g_test_message("%s", times);
	g_assert_true(span_of(times, "mod_soft", &soft) && span_of(times, "opendir:mtest", &walk));
	g_assert_cmpint(walk.start, >=, soft.start + 2500000);
	g_assert_cmpint(walk.start, <, soft.end);

	/* boot 4: one worker; mod_opt's own uevent (a SEQNUM far past the
	 * last: a gap) comes while mod_soft waits its turn, and goes ahead
	 * of it: the gap's 50 ms expire, mod_soft goes in, then the walk */
	preload_option = "--max-parallel=1";
	g_setenv("FAKE_KERNEL_UEVENT_GROUP", G_STRINGIFY(GROUP), TRUE);
	preload_boot(&s, "kernel2c", list, "--preload: 2 modules written", &root, &out);
	g_unsetenv("FAKE_KERNEL_UEVENT_GROUP");
	preload_option = NULL;
	g_assert_cmpuint(inserted(root, "mod_soft"), ==, 1);

	/* another module directory's list; a name that is none */
	g_assert_true(g_file_set_contents(list, "modules /lib/modules/0.0.0\nmod_a\n", -1, NULL));
	preload_boot(&s, "kernel3", list, "--preload: 2 modules written", &root, &out);
	g_assert_nonnull(strstr(out, "is for /lib/modules/0.0.0, not "));
	g_assert_cmpuint(inserted(root, "mod_a"), ==, 0);
	text = g_strdup_printf("modules %s\nno/such\nmod_x\n", s.m);
	g_assert_true(g_file_set_contents(list, text, -1, NULL));
	g_clear_pointer(&text, g_free);
	preload_boot(&s, "kernel4", list, "--preload: 2 modules written", &root, &out);
	g_assert_cmpuint(inserted(root, "mod_x"), ==, 1);
	g_assert_nonnull(strstr(out, "no/such"));

	/* a list another user owns (could have written): not used */
	text = g_strdup_printf("modules %s\nmod_x\n", s.m);
	g_assert_true(g_file_set_contents(list, text, -1, NULL));
	g_assert_cmpint(chown(list, 65534, 65534), ==, 0);
	preload_boot(&s, "kernel5", list, "--preload: cannot write ", &root, &out);
	g_assert_nonnull(strstr(out, "preload: not used: "));
	g_assert_nonnull(strstr(out, "not owned by root"));
	g_assert_cmpuint(inserted(root, "mod_x"), ==, 0);

	/* a FIFO at the name: neither opened (the daemon would block) nor replaced */
	g_assert_cmpint(unlink(list), ==, 0);
	g_assert_cmpint(mkfifo(list, 0600), ==, 0);
	preload_boot(&s, "kernel6", list, "--preload: cannot write ", &root, &out);
	g_assert_nonnull(strstr(out, "preload: not used: "));
	g_assert_cmpuint(inserted(root, "mod_soft"), ==, 1);

	/* a list in a directory its group may write to: not used, not replaced */
	g_assert_cmpint(unlink(list), ==, 0);
	g_assert_true(g_file_set_contents(list, text, -1, NULL));
	g_assert_cmpint(chmod(s.tmp, 0775), ==, 0);
	preload_boot(&s, "kernel7", list, "--preload: cannot write ", &root, &out);
	g_assert_nonnull(strstr(out, "writable by group or others"));
	g_assert_cmpuint(inserted(root, "mod_x"), ==, 0);
	g_assert_cmpint(chmod(s.tmp, 0755), ==, 0);
	scratch_clear(&s);
}

/* ---- the queue limit --------------------------------------------------------------- */

/* A burst while the queue is full (--queue-limit=4, handlers that take
 * 300 ms): the daemon reads no more, the kernel's socket buffer (sized by
 * the limit) overflows, the kernel says so, and the daemon rescans sysfs:
 * the device whose add event was lost has its module all the same, and
 * the loss is logged, never silent.  (Before the limit, every event was
 * read into an unbounded queue.) */
static void test_queue_limit(void)
{
	struct scratch s;
	struct hpdir h;
	g_autofree char *ran = NULL, *script = NULL, *output = NULL;
	const char *extra[] = { "--moddir", NULL, "--sysfs", NULL, "--queue-limit=4", "--stderr", NULL };
	struct needle w = { "inserted mod_soft", 1 };
	struct daemon d;
	unsigned int sent = 400, handled = 0;
	const char *stop;
	int fd = nl_sender();

	scratch_init(&s);
	device(s.sys, "lost", "test:dev:soft");
	/* S's handlers, as hpdir_init()'s: one for the test devices */
	h = (struct hpdir){ s.hp, g_build_filename(s.hp, "modalias-test", NULL) };
	g_assert_cmpint(mkdir(h.sub, 0755), ==, 0);
	ran = g_build_filename(s.tmp, "ran", NULL);
	script = g_strdup_printf("#!/bin/sh\necho \"$SEQNUM\" >>%s\nsleep 0.3\n", ran);
	g_free(hpdir_add(&h, "slow.hotplug", script));
	extra[1] = s.m;
	extra[3] = s.sys;

	kernel_daemon_start(&d, &s, s.root, NULL, NULL, extra);
	g_assert_true(daemon_read_until(&d, listening, NULL, 30));
	/* unrelated devices: four at a time; the last one's add is lost */
	for (unsigned int seq = 1; seq < sent; seq++) {
		g_autofree char *devpath = g_strdup_printf("/devices/virtual/mtest/burst%u", seq);
		nl_send(fd, GROUP, "change", devpath, seq, NULL);
	}
	nl_send(fd, GROUP, "add", "/devices/virtual/mtest/lost", sent, "test:dev:soft");
	g_assert_true(daemon_read_until(&d, has_n, &w, 60));
	g_assert_nonnull(strstr(d.buf->str, "uevents lost (receive buffer overflow): rescanning sysfs"));
	/* idle: no handler started for a second (each takes 0.3 s) */
	do
		handled = count_lines(ran);
	while (!daemon_read_until(&d, has_line, (gpointer) "never", 1) && count_lines(ran) != handled);
	g_assert_cmpint(daemon_stop(&d, &output), ==, 0);
	g_test_message("%s", output);
	g_assert_cmpuint(inserted(s.root, "mod_soft"), ==, 1);
	/* what was read was handled, and said so at the stop */
	stop = strstr(output, "hotplug: stopped (");
	g_assert_nonnull(stop);
	handled = (unsigned int)strtoul(stop + strlen("hotplug: stopped ("), NULL, 10);
	g_test_message("%u of %u events read and handled", handled, sent);
	g_assert_cmpuint(handled, ==, count_lines(ran));
	g_assert_cmpuint(handled, <, sent);
	close(fd);
	g_free(h.sub);
	scratch_clear(&s);
}

int main(int argc, char **argv)
{
	int r = agent_test_init(&argc, &argv);

	if (r)
		return r;
	g_test_add_func("/agent/stays-right", test_stays_right);
	g_test_add_func("/agent/table-replaced", test_table_replaced);
	g_test_add_func("/agent/coldplug-fixed-point", test_coldplug_fixed_point);
	g_test_add_func("/agent/coldplug-timeout", test_coldplug_timeout);
	g_test_add_func("/agent/coldplug-soon", test_coldplug_soon);
	g_test_add_func("/agent/coldplug-scsi-scan", test_coldplug_scsi_scan);
	g_test_add_func("/agent/settle", test_settle);
	g_test_add_func("/agent/reload-fails", test_reload_fails);
	g_test_add_func("/agent/reload-fails-bounded", test_reload_fails_bounded);
	g_test_add_func("/agent/parallel-loads", test_parallel_loads);
	g_test_add_func("/agent/coldplug-parallel", test_coldplug_parallel);
	g_test_add_func("/agent/coldplug-while-walking", test_coldplug_while_walking);
	g_test_add_func("/agent/preload", test_preload);
	g_test_add_func("/agent/queue-limit", test_queue_limit);
	return g_test_run();
}
