/*
 * make bench-scale: the hotplug agent on large machines, on a synthetic
 * sysfs tree of 1,000, 10,000 and 100,000 devices (960 identical CPUs,
 * then memory blocks without a modalias, SCSI LUNs "scsi:t-0x00" and PCI
 * functions, 2 : 2 : 1) and the stand-in kernel of the agent's tests
 * (tests/shim/fake-kernel.so: insertions recorded, not made, each
 * announced with the module's own uevent as a kernel does), with
 * Debian 6.1's module tables and a stand-in .ko for each of its modules:
 *
 *   one-shot  hotplug --coldplug on the tree, to its fixed point
 *   daemon    hotplug --daemon fed the tree's add events, as fast as the
 *             socket takes them, until it is settled (its control socket)
 *
 * For each: the whole time and per device, the peak RSS, and for the
 * daemon the events lost (sent, less those it says it handled at its
 * stop).  Runs in a network namespace of its own (uevent sockets are per
 * namespace): root only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GROUP 8
#define CPUS 960

extern char **environ;

static const char *const pci_aliases[] = {
	"pci:v00008086d000010CAsv00008086sd00000000bc02sc00i00", /* igbvf: SR-IOV functions */
	"pci:v00001AF4d00001000sv00001AF4sd00000001bc02sc00i00", /* virtio-pci, net */
	"pci:v0000144Dd0000A808sv0000144Dsd0000A801bc01sc08i02", /* nvme */
	"pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00", /* e1000e */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd) < 0)
		die(path);
}

static void mkdirs(char *path)
{
	for (char *p = path + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			die(path);
		*p = '/';
	}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		die(path);
}

static char *read_line(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f))
		die(path);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* The tree's devices: devpath and modalias ("" for none) */
struct device {
	char devpath[96];
	const char *alias;
};

/* N devices under ROOT/devices, each a directory with its uevent; into DEV */
static void make_tree(const char *root, unsigned int n, const char *cpu_alias, struct device *dev)
{
	unsigned int cpus = n < CPUS ? n : CPUS, rest = n - cpus, mem = rest * 2 / 5, scsi = rest * 2 / 5;
	char path[512], text[8400];

	for (unsigned int i = 0; i < n; i++) {
		struct device *d = &dev[i];

		if (i < cpus) {
			snprintf(d->devpath, sizeof(d->devpath), "/devices/system/cpu/cpu%u", i);
			d->alias = cpu_alias;
		} else if (i < cpus + mem) {
			snprintf(d->devpath, sizeof(d->devpath), "/devices/system/memory/memory%u", i - cpus);
			d->alias = "";
		} else if (i < cpus + mem + scsi) {
			unsigned int k = i - cpus - mem, host = k / 65536, target = k / 256 % 256, lun = k % 256;
			snprintf(d->devpath, sizeof(d->devpath),
				 "/devices/pci0000:00/0000:00:10.%u/host%u/target%u:0:%u/%u:0:%u:%u", host, host, host,
				 target, host, target, lun);
			d->alias = "scsi:t-0x00";
		} else {
			unsigned int k = i - cpus - mem - scsi;
			snprintf(d->devpath, sizeof(d->devpath), "/devices/pci0000:%02x/0000:%02x:%02x.%u", 0x40 + k / 256,
				 0x40 + k / 256, k / 8 % 32, k % 8);
			d->alias = pci_aliases[k % 4];
		}
		snprintf(path, sizeof(path), "%s%s", root, d->devpath);
		mkdirs(path);
		strcat(path, "/uevent");
		if (*d->alias)
			snprintf(text, sizeof(text), "MODALIAS=%s\n", d->alias);
		else
			snprintf(text, sizeof(text), "MEMORY_BLOCK=%u\n", i);
		write_text(path, text);
	}
}

/* The module directory: Debian 6.1's tables, and a stand-in .ko (KO) at
 * every path of its modules.dep */
static void make_moddir(const char *src, const char *m, const char *ko)
{
	char cmd[2048], path[1024], line[4096];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s'", src, m);
	if (system(cmd) != 0)
		die("cp");
	snprintf(path, sizeof(path), "%s/modules.dep", m);
	if (!(f = fopen(path, "r")))
		die(path);
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		snprintf(path, sizeof(path), "%s/%s", m, line);
		*strrchr(path, '/') = '\0';
		mkdirs(path);
		snprintf(cmd, sizeof(cmd), "%s/%s", m, line);
		if (link(ko, cmd) < 0 && errno != EEXIST) {
			snprintf(cmd, sizeof(cmd), "cp '%s' '%s/%s'", ko, m, line);
			if (system(cmd) != 0)
				die("cp");
		}
	}
	fclose(f);
}

/* ARGV started with the stand-in kernel's root KROOT (announcing its
 * insertions with uevents when ANNOUNCE); its standard output and error
 * to the file OUT */
static pid_t start(const char *const argv[], const char *shim, const char *kroot, bool announce, const char *out)
{
	posix_spawn_file_actions_t fa;
	char preload[1200], fk[1200], group[64];
	char **env;
	int n = 0;
	pid_t pid;

	for (char **e = environ; *e; e++)
		n++;
	env = calloc((size_t)n + 4, sizeof(char *));
	n = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "LD_PRELOAD=", 11) != 0 && strncmp(*e, "FAKE_KERNEL_", 12) != 0)
			env[n++] = *e;
	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", shim);
	snprintf(fk, sizeof(fk), "FAKE_KERNEL_ROOT=%s", kroot);
	/* a kernel's uevents: a module's own add once it is inserted */
	snprintf(group, sizeof(group), "FAKE_KERNEL_UEVENT_GROUP=%d", GROUP);
	env[n++] = preload;
	env[n++] = fk;
	if (announce)
		env[n++] = group;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	if ((errno = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, env)) != 0)
		die(argv[0]);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	return pid;
}

/* The whole of PATH (free it) */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	ssize_t n = f ? getdelim(&text, &len, '\0', f) : -1;

	if (f)
		fclose(f);
	return n < 0 ? (free(text), strdup("")) : text;
}

/* The add event of DEV, SEQNUM SEQ, to the group: retried while the socket
 * cannot take it (as fast as it takes them) */
static void send_add(int fd, const struct device *d, unsigned long seq)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_groups = 1u << (GROUP - 1) };
	const char *sub = strstr(d->devpath, "/cpu/") ? "cpu" : strstr(d->devpath, "/memory/") ? "memory"
							      : *d->alias == 's' ? "scsi" : "pci";
	char msg[8800];
	int n = snprintf(msg, sizeof(msg), "add@%s%cACTION=add%cDEVPATH=%s%cSUBSYSTEM=%s%cSEQNUM=%lu%c", d->devpath, 0, 0,
			 d->devpath, 0, sub, 0, seq, 0);

	if (*d->alias)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "MODALIAS=%s%c", d->alias, 0);
	while (sendto(fd, msg, (size_t)n, 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
			die("sendto");
		usleep(100);
	}
}

/* "settle SEQ" on the daemon's control socket CTL, its reply awaited */
static bool settle(const char *ctl, unsigned long seq, double seconds)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char req[64], reply[16];
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), n;
	struct pollfd p;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", ctl);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die(ctl);
	n = snprintf(req, sizeof(req), "settle %lu", seq);
	if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n)
		die("settle");
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	n = poll(&p, 1, (int)(seconds * 1000)) == 1 ? (int)recv(fd, reply, sizeof(reply), 0) : -1;
	close(fd);
	return n == 7 && memcmp(reply, "settled", 7) == 0;
}

static long vm_hwm_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "VmHWM:", 6) == 0)
			kib = strtol(line + 6, NULL, 10);
	fclose(f);
	return kib;
}

struct result {
	double oneshot_s, daemon_s;
	long oneshot_kib, daemon_kib;
	long lost;
	unsigned int rescans;
};

static struct result run_size(const char *agent, const char *shim, const char *tmp, const char *m,
			      const char *cpu_alias, unsigned int n)
{
	struct device *dev = calloc(n, sizeof(*dev));
	char sys[600], kroot[600], ctl[600], cmd[700], grp[32], sysopt[620], ctlopt[620], log[600], *out;
	struct result r = { 0 };
	struct rusage ru;
	int status, nl;
	double t0;
	pid_t pid;

	snprintf(sys, sizeof(sys), "%s/sys%u", tmp, n);
	make_tree(sys, n, cpu_alias, dev);
	snprintf(grp, sizeof(grp), "--netlink-group=%d", GROUP);
	snprintf(sysopt, sizeof(sysopt), "--sysfs=%s", sys);

	/* one-shot coldplug, to its fixed point */
	snprintf(kroot, sizeof(kroot), "%s/kernel-oneshot%u", tmp, n);
	snprintf(cmd, sizeof(cmd), "%s/sys/module", kroot);
	mkdirs(cmd);
	{
		const char *argv[] = { agent, "--coldplug", sysopt, "--moddir", m, "-C", "/dev/null",
				       "--hotplug-dir=/nonexistent", grp, "--trust-any-sender", NULL };

		snprintf(log, sizeof(log), "%s/oneshot%u.log", tmp, n);
		t0 = now_s();
		pid = start(argv, shim, kroot, true, log);
		if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "one-shot coldplug of %u devices failed (status 0x%x): %s\n", n, status, log);
			exit(1);
		}
		r.oneshot_s = now_s() - t0;
		r.oneshot_kib = ru.ru_maxrss;
	}

	/* the daemon, fed the same devices' add events */
	snprintf(kroot, sizeof(kroot), "%s/kernel-daemon%u", tmp, n);
	snprintf(cmd, sizeof(cmd), "%s/sys/module", kroot);
	mkdirs(cmd);
	snprintf(ctl, sizeof(ctl), "%s/run%u/control", tmp, n);
	snprintf(ctlopt, sizeof(ctlopt), "--control-socket=%s", ctl);
	{
		const char *argv[] = { agent, "--daemon", "--trust-any-sender", sysopt, "--moddir", m, "-C", "/dev/null",
				       "--hotplug-dir=/nonexistent", grp, ctlopt, "--stderr", NULL };
		struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
		double end = now_s() + 30;

		snprintf(log, sizeof(log), "%s/daemon%u.log", tmp, n);
		pid = start(argv, shim, kroot, false, log);
		nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
		if (nl < 0 || bind(nl, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			die("netlink");
		/* listening once its control socket is there */
		while (access(ctl, F_OK) < 0) {
			if (now_s() > end || waitpid(pid, &status, WNOHANG) != 0) {
				fprintf(stderr, "the daemon did not start: %s\n", log);
				exit(1);
			}
			usleep(1000);
		}
		t0 = now_s();
		for (unsigned int i = 0; i < n; i++)
			send_add(nl, &dev[i], i + 1);
		if (!settle(ctl, n, 600))
			fprintf(stderr, "the daemon did not settle after %u events\n", n);
		r.daemon_s = now_s() - t0;
		r.daemon_kib = vm_hwm_kib(pid);
		close(nl);
		kill(pid, SIGTERM);
		waitpid(pid, &status, 0);
	}
	out = slurp(log);
	{
		const char *stop = strstr(out, "hotplug: stopped (");

		r.lost = stop ? (long)n - strtol(stop + strlen("hotplug: stopped ("), NULL, 10) : -1;
		for (const char *p = out; (p = strstr(p, "uevents lost")); p++)
			r.rescans++;
	}
	free(out);
	free(dev);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s/kernel-oneshot%u' '%s'", sys, tmp, n, kroot);
	if (system(cmd) != 0)
		die("rm");
	return r;
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/bench-scale-XXXXXX", m[600], cmd[700];
	const char *agent = argc > 5 ? argv[1] : NULL;
	unsigned int sizes[] = { 1000, 10000, 100000 };
	struct result res[3];
	char *cpu_alias;

	if (!agent) {
		fprintf(stderr, "usage: bench-scale AGENT SHIM MODDIR KO CPU_MODALIAS_FILE [SIZE SIZE SIZE]\n");
		return 2;
	}
	for (int i = 0; i < 3 && argc > 6 + i; i++)
		sizes[i] = (unsigned int)strtoul(argv[6 + i], NULL, 10);
	if (geteuid() != 0 || unshare(CLONE_NEWNET) < 0) {
		fprintf(stderr, "bench-scale: needs root (a network namespace of its own)\n");
		return 1;
	}
	if (!mkdtemp(tmp))
		die("mkdtemp");
	cpu_alias = strdup(read_line(argv[5]));
	snprintf(m, sizeof(m), "%s/m", tmp);
	make_moddir(argv[3], m, argv[4]);
	printf("hotplug on a synthetic sysfs tree (960 identical CPUs, then memory blocks without a modalias,\n"
	       "SCSI LUNs and PCI functions 2:2:1), the stand-in kernel, Debian 6.1's tables\n\n");
	printf("%8s | %-29s | %-40s\n", "", "one-shot --coldplug", "daemon, the add events as fast as sent");
	printf("%8s | %8s %10s %9s | %8s %10s %9s %5s %6s\n", "devices", "s", "us/device", "peak MiB", "s", "us/event",
	       "peak MiB", "lost", "rescan");
	for (int i = 0; i < 3; i++) {
		res[i] = run_size(agent, argv[2], tmp, m, cpu_alias, sizes[i]);
		printf("%8u | %8.3f %10.1f %9.1f | %8.3f %10.1f %9.1f %5ld %6u\n", sizes[i], res[i].oneshot_s,
		       res[i].oneshot_s * 1e6 / sizes[i], res[i].oneshot_kib / 1024.0, res[i].daemon_s,
		       res[i].daemon_s * 1e6 / sizes[i], res[i].daemon_kib / 1024.0, res[i].lost, res[i].rescans);
		fflush(stdout);
	}
	printf("\n%u devices against %u: one-shot %.2fx the time, daemon %.2fx (linear: %.0fx)\n", sizes[2], sizes[1],
	       res[2].oneshot_s / res[1].oneshot_s, res[2].daemon_s / res[1].daemon_s, (double)sizes[2] / sizes[1]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	free(cpu_alias);
	return system(cmd) == 0 ? 0 : 1;
}
