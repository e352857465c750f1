/*
 * tests/test-agent.h - what the agent's daemon tests share: the agent
 * started on a private netlink group (and its output read, and stopped),
 * synthetic uevents sent, a handlers' directory, counting in files and
 * output, the stand-in kernel's record of insertions, and the start of
 * each test program (root, HOTPLUG_AGENT, a network namespace of its own).
 * Included by test-agent.c and test-agent-kernel.c only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <fcntl.h>
#include <linux/netlink.h>
#include <sched.h>
#include <signal.h>
#include <glib/gstdio.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-common.h"

#define GROUP 8

static const char *agent G_GNUC_UNUSED;
static int host_ns G_GNUC_UNUSED = -1; /* the host's network namespace, while we are in our own */
static char *moddir G_GNUC_UNUSED;

struct daemon {
	GPid pid;
	int out;
	GString *buf;
};

/* In the child, after GLib's own redirections: the log joins the output. */
static inline void stderr_to_stdout(gpointer data)
{
	dup2(1, 2);
}

/* The daemon on netlink group `group`, in dry-run with no handlers unless
 * hotplug_dir is given (then for real: handlers run, modules would load),
 * with the options in extra (NULL-terminated, or NULL).  setup runs in the
 * child before the exec (default: stderr_to_stdout with a hotplug_dir). */
static inline void daemon_start_with(struct daemon *d, bool trust, int group, const char *hotplug_dir,
			      const char *const *extra, GSpawnChildSetupFunc setup)
{
	g_autofree char *grp = g_strdup_printf("--netlink-group=%d", group);
	g_autofree char *control = g_strdup_printf("--control-socket=%s/modalias-test-%d.ctl", g_get_tmp_dir(), (int)getpid());
	const char *argv[24] = { agent, "--daemon", "--moddir", moddir, "-C", "/dev/null", "--max-parallel", "4", grp };
	int i = 9;
	g_autoptr(GError) error = NULL;

	/* a control socket of its own (an --control-socket in extra wins) */
	argv[i++] = control;
	argv[i++] = "--hotplug-dir";
	argv[i++] = hotplug_dir ? hotplug_dir : "/nonexistent";
	argv[i++] = hotplug_dir ? "--log-level=info" : "--dry-run";
	if (trust)
		argv[i++] = "--trust-any-sender";
	for (; extra && *extra && i < (int)G_N_ELEMENTS(argv) - 1; extra++)
		argv[i++] = *extra;
	argv[i] = NULL;
	d->buf = g_string_new(NULL);
	if (!setup && hotplug_dir)
		setup = stderr_to_stdout;
	if (!g_spawn_async_with_pipes(NULL, (char **)argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
				      setup, NULL, &d->pid, NULL, &d->out, NULL, &error))
		g_error("%s", error->message);
}

static inline void daemon_start(struct daemon *d, bool trust, int group, const char *hotplug_dir)
{
	daemon_start_with(d, trust, group, hotplug_dir, NULL, NULL);
}

/* Reads the daemon's output until pred says enough, or the timeout. */
static inline bool daemon_read_until(struct daemon *d, bool (*pred)(const GString *, gpointer), gpointer data, int seconds)
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
 * that has not exited `limit` s after SIGTERM is killed and the test fails. */
static inline int daemon_stop_within(struct daemon *d, char **output, int limit)
{
	gint64 end = g_get_monotonic_time() + limit * G_USEC_PER_SEC;
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
			g_error("the daemon did not stop within %d s of SIGTERM; it printed:\n%s", limit, d->buf->str);
		}
		n = read(d->out, chunk, sizeof(chunk));
		if (n <= 0)
			break;
		g_string_append_len(d->buf, chunk, n);
	}
	waitpid(d->pid, &status, 0);
	g_spawn_close_pid(d->pid);
	close(d->out);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* the end of what it printed says why (a sanitizer's report, say) */
		size_t from = d->buf->len > 4000 ? d->buf->len - 4000 : 0;
		g_test_message("the daemon ended with status 0x%x; the end of what it printed:\n%s", status,
			       d->buf->str + from);
	}
	if (output)
		*output = g_string_free(d->buf, FALSE);
	else
		g_string_free(d->buf, TRUE);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static inline int daemon_stop(struct daemon *d, char **output)
{
	return daemon_stop_within(d, output, 60);
}

static inline bool related(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), l = MIN(la, lb);

	return strncmp(a, b, l) == 0 && (la == lb || (la < lb ? b[la] : a[lb]) == '/');
}

static inline bool has_line(const GString *buf, gpointer line)
{
	g_autofree char *want = g_strdup_printf("\n%s\n", (char *)line);
	g_autofree char *text = g_strconcat("\n", buf->str, NULL);
	return strstr(text, want) != NULL;
}

static inline int nl_sender(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), ==, 0);
	return fd;
}

/* An event; extra: one more "KEY=VALUE", or NULL. */
static inline void nl_send_with(int fd, int group, const char *action, const char *devpath, unsigned long seq,
			 const char *modalias, const char *extra)
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
	if (extra) {
		g_string_append(m, extra);
		g_string_append_c(m, '\0');
	}
	while (sendto(fd, m->str, m->len, 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		if (errno != ENOBUFS && errno != EAGAIN)
			g_error("sendto: %s", g_strerror(errno));
		g_usleep(1000);
	}
	g_string_free(m, TRUE);
}

static inline void nl_send(int fd, int group, const char *action, const char *devpath, unsigned long seq,
		    const char *modalias)
{
	nl_send_with(fd, group, action, devpath, seq, modalias, NULL);
}

/* The resident set of a process, in KiB (VmRSS). */
static inline unsigned long rss_kib(GPid pid)
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

static inline bool enough_events(const GString *buf, gpointer data)
{
	struct count *c = data;
	unsigned int n = 0;

	for (const char *p = buf->str; (p = strstr(p, "event ")); p++)
		if (p == buf->str || p[-1] == '\n')
			n++;
	return n >= c->want;
}

static const char *const modaliases[] G_GNUC_UNUSED = {
	"pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00", /* e1000e */
	"virtio:d00000001v00001AF4",                             /* virtio_net */
	"usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00",     /* usbhid */
	"hid:b0003g0001v0000046Dp0000C52B",                      /* hid_generic, hid_logitech_dj */
	"platform:pcspkr",                                       /* pcspkr */
	"acpi:PNP0C0A:",                                         /* battery */
	"nosuch:thing",                                          /* nothing */
};


static inline bool listening(const GString *buf, gpointer data)
{
	return strstr(buf->str, "hotplug: listening (") != NULL;
}

/* Handlers in a temporary hotplug.d: DIR/modalias-test/NAME with TEXT. */
struct hpdir {
	char *dir, *sub;
};

static inline void hpdir_init(struct hpdir *h)
{
	h->dir = g_dir_make_tmp("modalias-agent-XXXXXX", NULL);
	g_assert_nonnull(h->dir);
	h->sub = g_build_filename(h->dir, "modalias-test", NULL);
	g_assert_cmpint(g_mkdir(h->sub, 0755), ==, 0);
}

static inline char *hpdir_add(struct hpdir *h, const char *name, const char *text)
{
	char *path = g_build_filename(h->sub, name, NULL);

	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	g_assert_cmpint(chmod(path, 0755), ==, 0);
	return path;
}

static inline void hpdir_free(struct hpdir *h)
{
	test_rm_rf(h->dir);
	g_free(h->sub);
	g_free(h->dir);
}

static inline char *read_text(const char *path)
{
	char *text = NULL;

	return g_file_get_contents(path, &text, NULL, NULL) ? text : g_strdup("");
}

static inline unsigned int count_lines(const char *path)
{
	g_autofree char *text = read_text(path);
	unsigned int n = 0;

	for (const char *p = text; *p; p++)
		n += *p == '\n';
	return n;
}

static inline unsigned int count_str(const char *text, const char *what)
{
	unsigned int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static inline bool wait_lines(const char *path, unsigned int want, int seconds)
{
	gint64 end = g_get_monotonic_time() + (gint64)seconds * G_USEC_PER_SEC;

	while (count_lines(path) < want && g_get_monotonic_time() < end)
		g_usleep(10000);
	return count_lines(path) >= want;
}

/* Whether a process of the "SEQNUM PID PID" lines in FILE is still alive
 * 2 s from now (one killed may take a moment to go; a zombie whose parent
 * is gone does not count). */
static inline bool any_alive(const char *file)
{
	g_autofree char *text = read_text(file);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	gint64 end = g_get_monotonic_time() + 2 * G_USEC_PER_SEC;

	for (char **l = lines; *l; l++) {
		g_auto(GStrv) f = g_strsplit(*l, " ", -1);

		for (guint i = 1; i < g_strv_length(f); i++) {
			g_autofree char *path = g_strdup_printf("/proc/%s/status", f[i]);

			for (;;) {
				g_autofree char *status = NULL;

				if (!g_file_get_contents(path, &status, NULL, NULL) || strstr(status, "\nState:\tZ"))
					break;
				if (g_get_monotonic_time() > end) {
					g_test_message("%s is alive:\n%s", f[i], status);
					return true;
				}
				g_usleep(10000);
			}
		}
	}
	return false;
}

/* SIGTERM while handlers hang: the daemon stops within a bounded time, its
 * handlers killed.  Handlers that ignore SIGTERM (events 3 and 4) get
 * SIGKILL 2 s later.  (The daemon once blocked for ever reading its
 * signalfd here; then it waited for its handlers for ever.) */

struct needle {
	const char *what;
	unsigned int n;
};

static inline bool has_n(const GString *buf, gpointer data)
{
	const struct needle *w = data;
	return count_str(buf->str, w->what) >= w->n;
}

static inline unsigned int inserted(const char *root, const char *module)
{
	g_autofree char *path = g_build_filename(root, "inserted", NULL);
	g_autofree char *text = NULL;
	g_autofree char *line = g_strdup_printf("%s\n", module);
	unsigned int n = 0;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return 0;
	for (char *p = text; (p = strstr(p, line)); p += strlen(line))
		n += p == text || p[-1] == '\n';
	return n;
}

/* The daemon loading for real into the stand-in kernel (tests/shim): a
 * module removed with rmmod is loaded again when its device comes back; one
 * that fails is tried on the next events, 3 times in all; when depmod
 * rewrites the module directory, the next event is looked up in the new
 * tables. */

/* The start of a test program: 0 to go on, or 77 (skipped: printed) */
static inline int agent_test_init(int *argc, char ***argv)
{
	g_test_init(argc, argv, NULL);
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
	return 0;
}
