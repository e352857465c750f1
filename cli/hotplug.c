/*
 * hotplug - the kernel's uevent helper (/sbin/hotplug SUBSYSTEM) and a
 * netlink uevent daemon with coldplug, loading modules through libmodalias
 * and running /etc/hotplug.d handlers as hotplug-ng did.
 *
 * A thin front end: events in, libmodalias (resolve, load) and handlers out.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include <glib.h>

#include "cli-config.h"
#include "cli-output.h"
#include "cli-tables.h"
#include "read-file.h"
#include "libmodalias.h"
#include "path-trust.h"
#include "uevent.h"

extern char **environ;

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* ---- settings and logging ------------------------------------------------- */

static struct {
	char *hotplug_dir;
	char *sysfs;
	struct cli_tables_spec tables; /* -d, -S, -m, -C */
	char *config_file, *log_level_name;
	char *coldplug_mode;
	gboolean daemon, dry_run, trust_any_sender, coldplug_flag, force_stderr;
	int max_parallel;
	int handler_timeout; /* seconds; INT_MIN: not given */
	int netlink_group;
	int log_level;
	bool log_stderr;
} opt = { .max_parallel = 0, .handler_timeout = INT_MIN, .netlink_group = 1, .log_level = LOG_NOTICE };

static struct cli_config config;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void say(int priority, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void say(int priority, const char *fmt, ...)
{
	va_list ap;

	if (priority > opt.log_level)
		return;
	va_start(ap, fmt);
	vsyslog(priority, fmt, ap);
	va_end(ap);
	if (opt.log_stderr) {
		pthread_mutex_lock(&out_lock);
		fputs("hotplug: ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
		pthread_mutex_unlock(&out_lock);
	}
}

static void lib_log(void *data, int priority, const char *file, int line, const char *fn,
		    const char *format, va_list args)
{
	g_autofree char *msg = g_strdup_vprintf(format, args);

	g_strchomp(msg);
	say(priority, "%s", msg);
}

/* Dry-run output: one line each, on standard output. */
static void out(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static void out(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	/* a line at a time: a dry run that cannot write ends at once (exit
	 * status 3; a closed pipe: SIGPIPE) */
	cli_output_flush();
	pthread_mutex_unlock(&out_lock);
}

/* ---- the library objects --------------------------------------------------- */

static struct modalias_ctx *ctx;
static struct cli_tables tables;
static pthread_mutex_t kmod_lock = PTHREAD_MUTEX_INITIALIZER; /* libkmod is not thread-safe */

/* cli_tables_open()'s reports, in the agent's log */
static void report_say(void *data, int priority, const char *message)
{
	say(priority, "%s", message);
}

/* The context (once), then the tables and the loader (again at SIGHUP),
 * as the CLI opens them, cache included; a modprobe.d or an extra table
 * that cannot be read costs only itself. */
static int setup_library(void)
{
	int r;

	if (!ctx) {
		if (modalias_ctx_new(&ctx) < 0)
			return -ENOMEM;
		modalias_ctx_set_log_fn(ctx, lib_log, NULL);
	}
	modalias_ctx_set_log_priority(ctx, opt.log_level);
	if (opt.sysfs)
		modalias_ctx_set_sysfs_root(ctx, opt.sysfs);
	cli_tables_close(&tables);
	r = cli_tables_open(ctx, &opt.tables, NULL, &config, CLI_TABLES_LOADER | CLI_TABLES_GO_ON, report_say, NULL,
			    &tables);
	if (r < 0)
		return r;
	modalias_table_prepare(tables.table);
	return 0;
}

/* ---- one load at a time per module -------------------------------------- */

struct module_state {
	bool loading;
	bool done;
	pthread_cond_t cond;
};

static GHashTable *modules; /* name → struct module_state */
static pthread_mutex_t modules_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_module(void *data, const char *module, const char *detail, const char *options,
		      enum modalias_load_state state, int err)
{
	/* the library reports these through here alone: logged once, as errors
	 * (a dry run's missing module too) */
	if (state == MODALIAS_LOAD_FAILED || state == MODALIAS_LOAD_NOT_FOUND) {
		say(LOG_ERR, "%s: %s (%s)", module, modalias_load_state_name(state), strerror(-err));
		return;
	}
	if (opt.dry_run) {
		if (state == MODALIAS_LOAD_WOULD_INSERT)
			out("load %s", module);
		else if (state == MODALIAS_LOAD_COMMAND)
			out("install %s %s", module, detail);
		return;
	}
	if (state == MODALIAS_LOAD_INSERTED || state == MODALIAS_LOAD_COMMAND)
		say(LOG_INFO, "%s %s", modalias_load_state_name(state), module);
	else
		say(LOG_DEBUG, "%s: %s", module, modalias_load_state_name(state));
}

/* Loads every module of alias, each module once for the whole run: a
 * second event for a module waits for the first one's result. */
static void load_alias(const char *alias)
{
	struct modalias_result *res;
	int n;

	if (modalias_result_new(&res) < 0)
		return;
	n = modalias_table_lookup(tables.table, alias, res);
	if (n < 0)
		say(LOG_ERR, "'%s': cannot look it up: %s", alias, strerror(-n));
	for (int i = 0; i < n; i++) {
		const char *m = modalias_result_get_module(res, (unsigned int)i);
		struct module_state *st;
		bool mine = false;

		pthread_mutex_lock(&modules_lock);
		st = g_hash_table_lookup(modules, m);
		if (!st) {
			st = g_new0(struct module_state, 1);
			pthread_cond_init(&st->cond, NULL);
			g_hash_table_insert(modules, g_strdup(m), st);
			st->loading = mine = true;
		}
		while (!mine && st->loading)
			pthread_cond_wait(&st->cond, &modules_lock);
		pthread_mutex_unlock(&modules_lock);
		if (!mine)
			continue; /* loaded (or tried) for an earlier event */
		if (modalias_result_is_builtin(res, (unsigned int)i)) {
			say(LOG_DEBUG, "%s: builtin", m);
		} else {
			pthread_mutex_lock(&kmod_lock);
			modalias_loader_load_module(tables.loader, m, opt.dry_run ? MODALIAS_LOAD_DRY_RUN : 0, on_module, NULL);
			pthread_mutex_unlock(&kmod_lock);
		}
		pthread_mutex_lock(&modules_lock);
		st->loading = false;
		st->done = true;
		pthread_cond_broadcast(&st->cond);
		pthread_mutex_unlock(&modules_lock);
	}
	modalias_result_unref(res);
}

/* ---- handlers ------------------------------------------------------------- */

/* The daemon is stopping: handlers still running get SIGTERM, and SIGKILL
 * STOP_GRACE_S later; no new handler starts.  The pipe's read end becomes
 * readable (and stays so) at SIGTERM; -1 outside the daemon. */
#define STOP_GRACE_S 2
static int stop_pipe[2] = { -1, -1 };
static int stopping_flag;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* --hotplug-dir, [agent] hotplug-dir, or the default */
static const char *hotplug_dir(void)
{
	return opt.hotplug_dir ? opt.hotplug_dir : "/etc/hotplug.d";
}

/* "SHOWN: refused: WHY", without WHY's own path when it names SHOWN itself. */
static void say_refused(const char *shown, int r, const struct trust_why *why)
{
	const char *text = why->text[0] ? why->text : strerror(-r);
	size_t n = strlen(shown);

	if (strncmp(text, shown, n) == 0 && strncmp(text + n, ": ", 2) == 0)
		text += n + 2;
	say(LOG_WARNING, "%s: refused: %s", shown, text);
}

/* NAME in DFD, a directory opened by trust_open() (DIR its path): opened
 * and checked by path-trust.  A symlink is followed, and the whole path to
 * its target checked again from "/". */
static int trust_open_in(int dfd, const char *dir, const char *name, int oflags, unsigned int flags,
			 struct trust_why *why)
{
	int fd = trust_openat(dfd, dir, name, oflags, flags, why);

	if (fd == -ELOOP) { /* a symlink */
		g_autofree char *path = g_build_filename(dir, name, NULL);

		why->text[0] = '\0';
		fd = trust_open(path, oflags, flags | TRUST_FOLLOW, why);
	}
	return fd;
}

/* Every descriptor from FIRST up closed (the child of a daemon with threads:
 * async-signal-safe calls only).  max: the descriptor limit, read before
 * fork(), for kernels without close_range(). */
static void close_from(int first, int max)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned int)first, ~0u, 0u) == 0)
		return;
#endif
	for (int fd = first; fd < max; fd++)
		close(fd);
}

/* What the child of run_handler() reports when a script cannot run
 * because /dev/fd is missing */
#define ENODEV_FD (-1)

/* Whether the checked handler FD (O_PATH: reopened for reading, through
 * /proc, to look) starts with "#!".  -1: cannot tell (no /proc). */
static int is_script(int fd)
{
	char path[64], head[2];
	int rfd, r;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rfd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (rfd < 0)
		return -1;
	r = pread(rfd, head, sizeof(head), 0) == 2 && head[0] == '#' && head[1] == '!';
	close(rfd);
	return r;
}

/* The child's side of run_handler(): a clean start (signal dispositions to
 * default, nothing blocked, a process group of its own, stdin from
 * /dev/null, no descriptor above 2 but what the exec needs), then the
 * checked file FD itself, never its path again.  A #! script (SCRIPT: 1,
 * or -1 for unknown) is run by its interpreter as /dev/fd/3, which must
 * then stay open across the exec.  An exec error goes up the REPORT pipe. */
static G_NORETURN void handler_child(int fd, int script, int report, int max_fd, char *const *argv,
				     char *const *envp)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	int null, hfd, rfd, e;

	for (int sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, &dfl, NULL) < 0 && sig != SIGKILL && sig != SIGSTOP) {
			/* glibc keeps its own (32, 33) from us; the kernel's
			 * struct sigaction all zero is SIG_DFL in every layout */
			unsigned long zero[8] = { 0 };

			syscall(SYS_rt_sigaction, sig, zero, NULL, (NSIG - 1) / 8);
		}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0)
		goto fail;
	/* the handler on 3 and the report pipe on 4, both close-on-exec (by
	 * way of copies above them: either may be 3 or 4 now) */
	if ((hfd = fcntl(fd, F_DUPFD_CLOEXEC, 5)) < 0 || (rfd = fcntl(report, F_DUPFD_CLOEXEC, 5)) < 0)
		goto fail;
	report = rfd;
	if (dup3(hfd, 3, O_CLOEXEC) < 0 || dup3(rfd, 4, O_CLOEXEC) < 0)
		goto fail;
	report = 4;
	close_from(5, max_fd);
	if (script == 1) {
		if (faccessat(AT_FDCWD, "/dev/fd/3", F_OK, 0) < 0) {
			errno = ENODEV_FD; /* its interpreter could not open it */
			goto fail;
		}
		if (fcntl(3, F_SETFD, 0) < 0)
			goto fail;
	}
	fexecve(3, argv, envp);
	/* not known: ENOENT is a script, whose interpreter cannot open
	 * /dev/fd/3 while it closes on exec (or a missing interpreter: the
	 * same error again) */
	if (script < 0 && errno == ENOENT) {
		if (faccessat(AT_FDCWD, "/dev/fd/3", F_OK, 0) < 0)
			errno = ENODEV_FD;
		else if (fcntl(3, F_SETFD, 0) == 0)
			fexecve(3, argv, envp);
	}
fail:
	e = errno;
	if (write(report, &e, sizeof(e)) != sizeof(e))
		_exit(126); /* nobody to tell */
	_exit(127);
}

/* Waits for handler PID (PATH), at most the timeout: then, or when the
 * daemon stops, its process group is killed.  Returns its wait status, or
 * -1 when it was killed here (and that is logged). */
static int handler_wait(const char *path, pid_t pid)
{
	/* a pidfd wakes poll() when the child ends; without one (Linux < 5.3), ticks */
#ifdef SYS_pidfd_open
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0u);
#else
	int pidfd = -1;
#endif
	gint64 kill_at = g_get_monotonic_time() + (gint64)opt.handler_timeout * G_USEC_PER_SEC;
	bool stop_seen = false;
	int status = 0;

	for (;;) {
		struct pollfd p[2] = { { .fd = pidfd, .events = POLLIN },
				       { .fd = stop_seen ? -1 : stop_pipe[0], .events = POLLIN } };
		gint64 now, left;
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			break;
		now = g_get_monotonic_time();
		if (now >= kill_at) {
			if (stop_seen)
				say(LOG_NOTICE, "%s: still running %d s after SIGTERM: killed", path, STOP_GRACE_S);
			else
				say(LOG_WARNING, "%s: still running after %d s: killed", path, opt.handler_timeout);
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL); /* had it left its process group */
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			status = -1;
			break;
		}
		left = (kill_at - now + 999) / 1000;
		if (poll(p, 2, pidfd < 0 ? (int)MIN(left, 10) : (int)MIN(left, INT_MAX)) > 0 && (p[1].revents & POLLIN)) {
			say(LOG_NOTICE, "%s: stopping: SIGTERM sent", path);
			stop_seen = true;
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
			kill_at = MIN(kill_at, now + (gint64)STOP_GRACE_S * G_USEC_PER_SEC);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return status;
}

/* Runs the checked handler FD as PATH SUBSYSTEM, with ENVP, and waits for it. */
static void run_handler(int fd, const char *path, const char *subsystem, char *const *envp)
{
	struct rlimit rl;
	int report[2], max_fd, e = 0, status, script = is_script(fd);
	ssize_t n;
	pid_t pid;

	max_fd = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
	if (pipe2(report, O_CLOEXEC) < 0) {
		say(LOG_ERR, "%s: cannot run it: %s", path, strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)path, (char *)subsystem, NULL };

		handler_child(fd, script, report[1], max_fd, argv, envp);
	}
	e = errno;
	close(report[1]);
	if (pid < 0) {
		close(report[0]);
		say(LOG_ERR, "%s: cannot run it: %s", path, strerror(e));
		return;
	}
	setpgid(pid, pid); /* as the child does: whichever comes first */
	/* nothing: it runs (the pipe closed on exec); an errno: it could not */
	while ((n = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (n == sizeof(e)) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		say(LOG_ERR, "%s: cannot run it: %s", path,
		    e == ENODEV_FD ? "No such file or directory (a script runs as /dev/fd/3: no /dev/fd, or no /proc)"
				   : strerror(e));
		return;
	}
	status = handler_wait(path, pid);
	if (status == -1)
		return;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		say(LOG_DEBUG, "%s: done", path);
	else if (WIFEXITED(status))
		say(LOG_NOTICE, "%s: exited with status %d", path, WEXITSTATUS(status));
	else
		say(LOG_NOTICE, "%s: killed by signal %d", path, WTERMSIG(status));
}

/* Runs the *.hotplug handlers of NAME (a subsystem, or "default") in
 * hotplug.d (HPFD, checked), in C-locale byte order.  The directory and
 * each handler are opened by path-trust: they, the targets of their
 * symlinks and every directory on the way must be root's alone. */
static void run_dir(int hpfd, const char *name, const char *subsystem, char *const *envp)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *dir = g_build_filename(hotplug_dir(), name, NULL);
	struct trust_why why = { { 0 } };
	struct dirent *de;
	DIR *d;
	int dfd, lfd;

	/* whoever may add to the directory may add a link to any root-owned
	 * program: the directory must be as safe as its handlers */
	dfd = trust_open_in(hpfd, hotplug_dir(), name, O_RDONLY | O_DIRECTORY, TRUST_DIRECTORY, &why);
	if (dfd < 0) {
		if (dfd != -ENOENT)
			say_refused(dir, dfd, &why);
		return;
	}
	/* listed from the descriptor checked (a copy: closedir() closes it) */
	lfd = fcntl(dfd, F_DUPFD_CLOEXEC, 3);
	d = lfd < 0 ? NULL : fdopendir(lfd);
	if (!d) {
		say(LOG_ERR, "%s: %s", dir, strerror(errno));
		if (lfd >= 0)
			close(lfd);
		close(dfd);
		return;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && g_str_has_suffix(de->d_name, ".hotplug"))
			g_ptr_array_add(names, g_strdup(de->d_name));
	closedir(d);
	if (names->len > 1) /* pdata is NULL when empty: qsort(NULL, …) is undefined */
		qsort(names->pdata, names->len, sizeof(char *), name_cmp);
	for (guint i = 0; i < names->len; i++) {
		const char *base = g_ptr_array_index(names, i);
		g_autofree char *path = g_build_filename(dir, base, NULL);
		struct stat st;
		int fd;

		if (g_atomic_int_get(&stopping_flag)) {
			say(LOG_NOTICE, "%s: not run: stopping", path);
			continue;
		}
		why.text[0] = '\0';
		/* O_PATH: nothing opened for reading (no FIFO to block on); exec'able */
		fd = trust_open_in(dfd, dir, base, O_PATH, TRUST_REGULAR, &why);
		if (fd < 0) {
			say_refused(path, fd, &why);
			continue;
		}
		if (fstat(fd, &st) < 0 || !(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH))) {
			say(LOG_WARNING, "%s: refused: not executable", path);
			close(fd);
			continue;
		}
		if (opt.dry_run)
			out("run %s %s", path, subsystem);
		else
			run_handler(fd, path, subsystem, envp);
		close(fd);
	}
	close(dfd);
}

/* hotplug.d, opened by path-trust: it and every directory above it must be
 * root's alone (above it a sticky directory such as /tmp will do: nobody
 * else may rename what is in it).  -1 when no handler may run: missing
 * (there are none), or refused (logged). */
static int hotplug_dir_open(void)
{
	struct trust_why why = { { 0 } };
	int fd = trust_open(hotplug_dir(), O_PATH | O_DIRECTORY, TRUST_FOLLOW | TRUST_DIRECTORY, &why);

	if (fd < 0 && fd != -ENOENT)
		say_refused(hotplug_dir(), fd, &why);
	return fd < 0 ? -1 : fd;
}

/* A name of a directory under hotplug.d, and a word in syslog: no path,
 * no control character (a newline would forge a log line). */
static bool subsystem_ok(const char *s)
{
	if (!s || !*s || strchr(s, '/') || strstr(s, "..") || strcmp(s, ".") == 0)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* Someone else's string in a message: its first 200 bytes, escaped. */
static char *shown(const char *s)
{
	g_autofree char *head = g_strndup(s, 200);

	return g_strescape(head, NULL);
}

static const char *env_lookup(void *data, const char *name)
{
	char *const *envp = data;
	size_t len = strlen(name);

	for (; *envp; envp++)
		if (strncmp(*envp, name, len) == 0 && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

/* One event: modules first (on add), then the handlers. */
static void handle_event(const char *subsystem, char *const *envp)
{
	const char *action = env_lookup((void *)envp, "ACTION");
	int hpfd;

	if (opt.dry_run) {
		const char *seq = env_lookup((void *)envp, "SEQNUM"), *devpath = env_lookup((void *)envp, "DEVPATH");
		out("event %s %s %s %s", seq ? seq : "-", action ? action : "-", subsystem, devpath ? devpath : "-");
	}
	if (action && strcmp(action, "add") == 0 && tables.table) {
		struct modalias_dev *dev;
		int r = modalias_dev_new_from_env_fn(ctx, subsystem, env_lookup, (void *)envp, &dev);

		if (r == 0) {
			char *alias;
			if (modalias_dev_format(dev, &alias) == 0) {
				load_alias(alias);
				free(alias);
			}
			modalias_dev_unref(dev);
		} else if (r != -ENOENT) {
			say(LOG_NOTICE, "%s event: no modalias from its variables: %s", subsystem, strerror(-r));
		}
	}
	hpfd = hotplug_dir_open();
	if (hpfd < 0)
		return;
	run_dir(hpfd, subsystem, subsystem, envp);
	if (strcmp(subsystem, "default") != 0) /* not twice */
		run_dir(hpfd, "default", subsystem, envp);
	close(hpfd);
}

/* ---- coldplug ------------------------------------------------------------ */

static int coldplug_resolve_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	char *alias;

	if (err < 0 || modalias_dev_format(dev, &alias) < 0)
		return 0;
	if (opt.dry_run)
		out("coldplug %s %s", devpath, alias);
	load_alias(alias);
	free(alias);
	return 0;
}

/* DEVPATH's uevent file under the sysfs root, opened for writing without
 * following a symlink anywhere below the root: each directory opened with
 * O_NOFOLLOW from the one before, the file itself a regular one (a FIFO
 * cannot block: O_NONBLOCK).  Returns the descriptor, or -errno with *why
 * set. */
static int uevent_open(int rootfd, const char *devpath, const char **why)
{
	g_auto(GStrv) parts = g_strsplit(devpath, "/", -1);
	struct stat st;
	int dfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 3), fd, r;

	*why = NULL;
	if (dfd < 0)
		return -errno;
	for (char **p = parts; dfd >= 0 && *p; p++) {
		int next;

		if (!**p)
			continue;
		if (strcmp(*p, ".") == 0 || strcmp(*p, "..") == 0) {
			close(dfd);
			*why = "not a device path";
			return -EINVAL;
		}
		next = openat(dfd, *p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			r = -errno;
			if (fstatat(dfd, *p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
				*why = "a symlink on the way (not followed)";
				r = -ELOOP;
			}
			next = r;
		}
		close(dfd);
		dfd = next;
	}
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, "uevent", O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	r = fd < 0 ? -errno : 0;
	if (fd < 0 && (r == -ELOOP || r == -ENXIO)) { /* a symlink, or a FIFO nobody reads */
		if (fstatat(dfd, "uevent", &st, AT_SYMLINK_NOFOLLOW) == 0)
			*why = S_ISLNK(st.st_mode) ? "a symlink (not followed)" : "not a regular file";
	} else if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		r = -EINVAL;
		*why = "not a regular file";
	}
	close(dfd);
	return fd < 0 ? r : fd;
}

static int coldplug_trigger_one(void *data, const char *devpath, struct modalias_dev *dev, int err)
{
	const int *rootfd = data;
	g_autofree char *path = g_build_filename(modalias_ctx_get_sysfs_root(ctx), devpath, "uevent", NULL);
	const char *why;
	int fd;

	if (opt.dry_run) {
		out("trigger %s", devpath);
		return 0;
	}
	/* in place: sysfs attributes cannot be replaced by rename */
	fd = uevent_open(*rootfd, devpath, &why);
	if (fd < 0)
		say(LOG_NOTICE, "%s: cannot trigger: %s", path, why ? why : strerror(-fd));
	else if (write(fd, "add", 3) != 3)
		say(LOG_NOTICE, "%s: cannot trigger: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return 0;
}

static void coldplug(void)
{
	bool trigger = g_strcmp0(opt.coldplug_mode ? opt.coldplug_mode : config.coldplug, "trigger") == 0;
	int r, rootfd = -1;

	say(LOG_INFO, "coldplug (%s)", trigger ? "trigger" : "resolve");
	/* the sysfs root itself may be a symlink: what is below it may not */
	if (trigger && (rootfd = open(modalias_ctx_get_sysfs_root(ctx), O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		say(LOG_ERR, "coldplug: cannot open %s: %s", modalias_ctx_get_sysfs_root(ctx), strerror(errno));
		return;
	}
	r = modalias_sysfs_foreach(ctx, trigger ? coldplug_trigger_one : coldplug_resolve_one, &rootfd);
	if (rootfd >= 0)
		close(rootfd);
	if (r < 0)
		say(LOG_ERR, "coldplug: cannot walk %s/devices: %s", modalias_ctx_get_sysfs_root(ctx), strerror(-r));
}

/* ---- the daemon ------------------------------------------------------------ */

static GPtrArray *queue; /* struct event *, by seqnum */
static int done_pipe[2];
static int running;

/* SEQNUM gaps.  Every event up to arrived_seq has arrived (or was given up
 * for); later ones wait, at most GAP_WAIT_MS from when the gap was seen,
 * for the missing ones, so that events sent out of order are still
 * handled in SEQNUM order.  (The kernel's own group arrives in order; its
 * gaps are events of other network namespaces, which never come.) */
#define GAP_WAIT_MS 50
static unsigned long long arrived_seq;
static bool arrived_known;
static GHashTable *ahead; /* seqnums > arrived_seq + 1 that arrived */
static gint64 gap_since;   /* g_get_monotonic_time() when a gap was seen, 0: none */

static void seq_arrived(unsigned long long seq)
{
	if (seq == 0 || (arrived_known && seq <= arrived_seq))
		return; /* SEQNUM 0 (unparsable) never waits */
	if (!arrived_known || seq != arrived_seq + 1) {
		g_hash_table_add(ahead, g_memdup2(&seq, sizeof(seq)));
		return;
	}
	arrived_seq = seq;
	while (g_hash_table_remove(ahead, &(unsigned long long){ arrived_seq + 1 }))
		arrived_seq++;
}

static bool seq_eligible(const struct event *e)
{
	return e->seqnum == 0 || (arrived_known && e->seqnum <= arrived_seq);
}

/* The gap has been waited for long enough: go on from the oldest waiting
 * event (at the start, with no known predecessor, likewise). */
static void seq_give_up(void)
{
	unsigned long long min = 0;

	for (guint i = 0; i < queue->len; i++) {
		const struct event *e = g_ptr_array_index(queue, i);
		if (!e->running && !seq_eligible(e) && (min == 0 || e->seqnum < min))
			min = e->seqnum;
	}
	if (min == 0)
		return;
	if (arrived_known)
		say(LOG_DEBUG, "SEQNUM %llu to %llu never arrived", arrived_seq + 1, min - 1);
	arrived_seq = min - 1;
	arrived_known = true;
	g_hash_table_remove(ahead, &min);
	seq_arrived(min);
}

/* Starts the gap clock when some event waits, stops it when none does: the
 * ones that wait are exactly those in ahead, which are not dispatched. */
static void seq_waiting(void)
{
	if (g_hash_table_size(ahead) == 0)
		gap_since = 0;
	else if (!gap_since)
		gap_since = g_get_monotonic_time();
}

/* Same device, or one the parent of the other: the second waits. */
static bool related(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), l = la < lb ? la : lb;

	return strncmp(a, b, l) == 0 && (la == lb || (la < lb ? b[la] : a[lb]) == '/');
}

static void *worker(void *data)
{
	struct event *e = data;
	uintptr_t token = (uintptr_t)e;

	if (subsystem_ok(e->subsystem)) {
		handle_event(e->subsystem, e->envp);
	} else {
		g_autofree char *sub = shown(e->subsystem ? e->subsystem : "");
		say(LOG_WARNING, "event %llu: bad SUBSYSTEM '%s' ignored", e->seqnum, sub);
	}

	if (write(done_pipe[1], &token, sizeof(token)) != sizeof(token))
		say(LOG_ERR, "worker: cannot report");
	return NULL;
}

static void dispatch(void)
{
	for (guint i = 0; i < queue->len && running < opt.max_parallel; i++) {
		struct event *e = g_ptr_array_index(queue, i);
		bool blocked = false;
		pthread_t t;

		if (e->running)
			continue;
		if (!seq_eligible(e))
			break; /* by SEQNUM: every later one waits too */
		for (guint k = 0; k < i && !blocked; k++)
			blocked = related(((struct event *)g_ptr_array_index(queue, k))->devpath, e->devpath);
		if (blocked)
			continue;
		e->running = true;
		running++;
		if (pthread_create(&t, NULL, worker, e) != 0) {
			say(LOG_ERR, "cannot start a worker: running event %llu inline", e->seqnum);
			worker(e);
		} else {
			pthread_detach(t);
		}
	}
}

static void enqueue(struct event *e)
{
	guint i = queue->len;

	/* by SEQNUM: the kernel's order, whatever the arrival order */
	while (i > 0 && ((struct event *)g_ptr_array_index(queue, i - 1))->seqnum > e->seqnum &&
	       !((struct event *)g_ptr_array_index(queue, i - 1))->running)
		i--;
	g_ptr_array_insert(queue, (gint)i, e);
	seq_arrived(e->seqnum);
}

static int netlink_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1u << (opt.netlink_group - 1) };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
	int size = 128 * 1024 * 1024, one = 1;

	if (fd < 0)
		return -errno;
	/* a large buffer: coldplug bursts are thousands of events */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

/* Reads one message; only the kernel's (sender pid 0, uid 0) unless told. */
static struct event *netlink_receive(int fd, bool *overflow)
{
	char buf[16384], cbuf[CMSG_SPACE(sizeof(struct ucred))];
	struct sockaddr_nl sa;
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) - 1 };
	struct msghdr mh = { .msg_name = &sa, .msg_namelen = sizeof(sa), .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	struct ucred *cred = NULL;
	ssize_t n = recvmsg(fd, &mh, 0);

	*overflow = false;
	if (n < 0) {
		*overflow = errno == ENOBUFS;
		return NULL;
	}
	buf[n] = '\0';
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_CREDENTIALS)
			cred = (struct ucred *)CMSG_DATA(cm);
	if (!opt.trust_any_sender && (sa.nl_pid != 0 || !cred || cred->uid != 0)) {
		say(LOG_DEBUG, "message from pid %u ignored: not the kernel", sa.nl_pid);
		return NULL;
	}
	return event_parse(buf, (size_t)n);
}

static int run_daemon(void)
{
	sigset_t mask;
	struct pollfd pfd[3];
	int nl, sfd;
	bool stopping = false, reload = false;

	nl = netlink_open();
	if (nl < 0) {
		say(LOG_ERR, "cannot listen for uevents: %s", strerror(-nl));
		return EXIT_FAIL;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (pipe2(done_pipe, O_CLOEXEC | O_NONBLOCK) < 0 || pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) < 0 || sfd < 0) {
		say(LOG_ERR, "cannot set up: %s", strerror(errno));
		return EXIT_FAIL;
	}
	queue = g_ptr_array_new();
	ahead = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	if (opt.netlink_group == 1 && !opt.trust_any_sender) {
		/* the kernel's group: what came before we listened is not awaited */
		g_autofree char *text = NULL;
		if (read_file("/sys/kernel/uevent_seqnum", READ_FILE_ATTR_MAX, 0, &text, NULL) == 0) {
			arrived_seq = g_ascii_strtoull(text, NULL, 10);
			arrived_known = true;
		}
	}
	say(LOG_INFO, "listening (netlink group %d, %d workers)", opt.netlink_group, opt.max_parallel);
	/* listening first: nothing that happens during coldplug is missed */
	if (opt.coldplug_flag)
		coldplug();
	if (opt.dry_run)
		out("ready");
	pfd[0] = (struct pollfd){ .fd = nl, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = done_pipe[0], .events = POLLIN };
	pfd[2] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	while (!stopping || running > 0) {
		/* Stopping: no more events are read (poll skips a negative fd),
		 * but the workers' reports and the signals still are. */
		int timeout = -1, n;

		pfd[0].fd = stopping ? -1 : nl;
		if (!stopping && gap_since) {
			gint64 left = gap_since + (gint64)GAP_WAIT_MS * 1000 - g_get_monotonic_time();
			timeout = left > 0 ? (int)((left + 999) / 1000) : 0;
		}
		n = poll(pfd, 3, timeout);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			say(LOG_ERR, "poll: %s", strerror(errno));
			break;
		}
		if (n == 0 && gap_since) {
			seq_give_up();
			gap_since = 0;
		}
		if (pfd[2].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGHUP) {
					reload = true;
				} else if (!stopping) {
					/* the running handlers are told (handler_wait) */
					stopping = true;
					g_atomic_int_set(&stopping_flag, 1);
					if (write(stop_pipe[1], "", 1) != 1)
						say(LOG_ERR, "cannot stop the handlers: %s", strerror(errno));
				}
			}
		}
		if (pfd[1].revents & POLLIN) {
			uintptr_t token;
			while (read(done_pipe[0], &token, sizeof(token)) == sizeof(token)) {
				struct event *e = (struct event *)token;
				g_ptr_array_remove(queue, e);
				event_free(e);
				running--;
			}
		}
		if (pfd[0].revents & POLLIN) {
			for (int k = 0; k < 256; k++) {
				bool overflow;
				struct event *e = netlink_receive(nl, &overflow);
				if (overflow) {
					say(LOG_WARNING, "uevents lost (receive buffer overflow): rescanning sysfs");
					coldplug();
					continue;
				}
				if (!e) {
					if (errno == EAGAIN || errno == EWOULDBLOCK)
						break;
					continue;
				}
				enqueue(e);
			}
		}
		if (reload && running == 0) {
			GString *warn = g_string_new(NULL);
			g_autoptr(GError) error = NULL;
			struct cli_config fresh;

			reload = false;
			say(LOG_INFO, "reloading the configuration and the module tables");
			if (cli_config_load(opt.config_file, &fresh, warn, &error)) {
				cli_config_clear(&config);
				config = fresh;
				setup_library();
			} else {
				say(LOG_ERR, "configuration not reloaded: %s", error->message);
			}
			g_string_free(warn, TRUE);
		}
		if (!stopping && !reload) {
			dispatch();
			seq_waiting();
		}
	}
	say(LOG_INFO, "stopped");
	g_hash_table_destroy(ahead);
	g_ptr_array_free(queue, TRUE);
	close(nl);
	close(sfd);
	close(stop_pipe[0]);
	close(stop_pipe[1]);
	return EXIT_OK;
}

/* ---- main ----------------------------------------------------------------- */

static gboolean opt_coldplug(const char *name, const char *value, gpointer data, GError **error)
{
	opt.coldplug_flag = TRUE;
	if (value) {
		g_free(opt.coldplug_mode);
		opt.coldplug_mode = g_strdup(value);
	}
	return TRUE;
}

static void std_fds(void)
{
	/* the kernel may start us with no standard streams */
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0) {
			int n = open("/dev/null", O_RDWR | O_CLOEXEC);
			if (n >= 0 && n != fd) {
				dup2(n, fd);
				close(n);
			}
		}
}

int main(int argc, char **argv)
{
	g_autoptr(GOptionContext) oc = g_option_context_new("SUBSYSTEM | --daemon [--coldplug] | --coldplug");
	g_autoptr(GError) error = NULL;
	const GOptionEntry entries[] = {
		{ "daemon", 0, 0, G_OPTION_ARG_NONE, &opt.daemon, "Listen for kernel uevents (netlink)", NULL },
		{ "coldplug", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, (gpointer)opt_coldplug,
		  "Handle the devices already present (--coldplug=trigger: replay their add events)", "MODE" },
		{ "dry-run", 'n', 0, G_OPTION_ARG_NONE, &opt.dry_run,
		  "Print the modules it would load and the handlers it would run; do neither", NULL },
		{ "dirname", 'd', 0, G_OPTION_ARG_FILENAME, &opt.tables.root, "Modules are in ROOT/lib/modules/VERSION", "ROOT" },
		{ "set-version", 'S', 0, G_OPTION_ARG_STRING, &opt.tables.version, "Kernel version", "VERSION" },
		{ "moddir", 'm', 0, G_OPTION_ARG_FILENAME, &opt.tables.moddir, "The module directory itself", "DIR" },
		{ "modprobe-config", 'C', 0, G_OPTION_ARG_FILENAME, &opt.tables.modprobe_d,
		  "modprobe.d file or directory (/dev/null: none)", "FILE" },
		{ "hotplug-dir", 0, 0, G_OPTION_ARG_FILENAME, &opt.hotplug_dir, "Handlers' directory (/etc/hotplug.d)", "DIR" },
		{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &opt.sysfs, "Sysfs root (/sys)", "DIR" },
		{ "config", 'c', 0, G_OPTION_ARG_FILENAME, &opt.config_file, "modalias.conf to read", "FILE" },
		{ "log-level", 0, 0, G_OPTION_ARG_STRING, &opt.log_level_name, "err, warning, notice, info, debug", "LEVEL" },
		{ "max-parallel", 0, 0, G_OPTION_ARG_INT, &opt.max_parallel, "Unrelated events handled at once", "N" },
		{ "handler-timeout", 0, 0, G_OPTION_ARG_INT, &opt.handler_timeout,
		  "Kill a handler still running after this long (30)", "SECONDS" },
		{ "netlink-group", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &opt.netlink_group, NULL, NULL },
		{ "trust-any-sender", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opt.trust_any_sender, NULL, NULL },
		{ "stderr", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opt.force_stderr, NULL, NULL },
		{ NULL }
	};
	GString *warn = g_string_new(NULL);
	int ret;

	std_fds();
	/* standard output checked at exit; SIGPIPE at its default action */
	cli_output_init("hotplug");
	g_option_context_set_summary(oc, "The kernel's uevent helper (hotplug SUBSYSTEM, the event in the environment),\n"
				     "or a netlink uevent daemon: modules through libmodalias, then the handlers\n"
				     "HOTPLUG_DIR/SUBSYSTEM/*.hotplug and HOTPLUG_DIR/default/*.hotplug.");
	g_option_context_add_main_entries(oc, entries, NULL);
	if (!g_option_context_parse(oc, &argc, &argv, &error)) {
		fprintf(stderr, "hotplug: %s\nTry 'hotplug --help'.\n", error->message);
		return EXIT_USAGE;
	}
	/* GLib keeps a "--" that comes before an argument starting with '-':
	 * it only ends the options (hotplug -- -x: the subsystem "-x") */
	if (argc > 1 && strcmp(argv[1], "--") == 0) {
		memmove(argv + 1, argv + 2, (size_t)(argc - 1) * sizeof(*argv));
		argc--;
	}
	/* no LOG_CONS: a console that is not read would block event handling */
	openlog("hotplug", LOG_PID, LOG_DAEMON);
	opt.log_stderr = isatty(2) || opt.daemon || opt.coldplug_flag || opt.force_stderr;
	if (!cli_config_load(opt.config_file, &config, warn, &error)) {
		fprintf(stderr, "hotplug: %s\n", error->message);
		return EXIT_USAGE;
	}
	if (warn->len)
		fputs(warn->str, stderr);
	g_string_free(warn, TRUE);
	if (opt.log_level_name) {
		opt.log_level = cli_log_level_parse(opt.log_level_name);
		if (opt.log_level < 0) {
			fprintf(stderr, "hotplug: --log-level=%s: not err, warning, notice, info or debug\n", opt.log_level_name);
			return EXIT_USAGE;
		}
	} else if (config.log_level >= 0) {
		opt.log_level = config.log_level;
	}
	if (opt.coldplug_mode && strcmp(opt.coldplug_mode, "trigger") != 0 && strcmp(opt.coldplug_mode, "resolve") != 0) {
		fprintf(stderr, "hotplug: --coldplug=%s: neither resolve nor trigger\n", opt.coldplug_mode);
		return EXIT_USAGE;
	}
	if (!opt.hotplug_dir && config.hotplug_dir)
		opt.hotplug_dir = g_strdup(config.hotplug_dir);
	if (!opt.sysfs && config.sysfs)
		opt.sysfs = g_strdup(config.sysfs);
	if (opt.max_parallel <= 0)
		opt.max_parallel = config.max_parallel > 0 ? config.max_parallel : 8;
	if (opt.handler_timeout == INT_MIN) /* not given */
		opt.handler_timeout = config.handler_timeout > 0 ? config.handler_timeout : 30;
	else if (opt.handler_timeout < 1 || opt.handler_timeout > CLI_HANDLER_TIMEOUT_MAX) {
		fprintf(stderr, "hotplug: --handler-timeout=%d: not a number of seconds from 1 to %d\n",
			opt.handler_timeout, CLI_HANDLER_TIMEOUT_MAX);
		return EXIT_USAGE;
	}
	if (opt.netlink_group < 1 || opt.netlink_group > 32) {
		fprintf(stderr, "hotplug: bad netlink group\n");
		return EXIT_USAGE;
	}
	modules = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);

	if (!opt.daemon && !opt.coldplug_flag) {
		/* kernel-helper mode: hotplug SUBSYSTEM, the event in the environment */
		if (argc < 2) {
			fprintf(stderr, "hotplug: a SUBSYSTEM is needed (or --daemon, --coldplug)\n");
			return EXIT_USAGE;
		}
		if (argc > 2) {
			g_autofree char *arg = shown(argv[2]);
			fprintf(stderr, "hotplug: unexpected argument '%s'\n", arg);
			return EXIT_USAGE;
		}
		if (!subsystem_ok(argv[1])) {
			g_autofree char *sub = shown(argv[1]);
			say(LOG_ERR, "refusing SUBSYSTEM '%s'", sub);
			return EXIT_USAGE;
		}
		{
			const char *action = getenv("ACTION");
			if (action && strcmp(action, "add") == 0 && setup_library() < 0)
				say(LOG_ERR, "modules not loaded");
		}
		handle_event(argv[1], environ);
		ret = EXIT_OK;
	} else {
		if (argc != 1) {
			g_autofree char *arg = shown(argv[1]);
			fprintf(stderr, "hotplug: unexpected argument '%s'\n", arg);
			return EXIT_USAGE;
		}
		if (setup_library() < 0)
			return EXIT_FAIL;
		if (opt.daemon)
			ret = run_daemon();
		else {
			coldplug();
			ret = EXIT_OK;
		}
	}
	cli_tables_close(&tables);
	modalias_ctx_unref(ctx);
	g_hash_table_unref(modules);
	cli_config_clear(&config);
	closelog();
	return ret;
}
