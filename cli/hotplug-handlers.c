/*
 * cli/hotplug-handlers.c - the hotplug.d multiplexer, as hotplug-ng's
 * /sbin/hotplug: the *.hotplug handlers of a subsystem, then of default/,
 * in C-locale byte order; each opened by path-trust (it and every
 * directory on its real path root's alone) and executed from the
 * descriptor checked, started clean, killed with its process group after
 * the handler timeout or when the daemon stops.
 *
 * This file runs handlers; it may not load modules or read events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include "hotplug-agent.h"
#include "path-trust.h"

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
	return settings.hotplug_dir ? settings.hotplug_dir : "/etc/hotplug.d";
}

/* "PATH: refused: WHY", without WHY's own path when it names PATH itself. */
static void say_refused(const char *path, int r, const struct trust_why *why)
{
	const char *text = why->text[0] ? why->text : strerror(-r);
	size_t n = strlen(path);

	if (strncmp(text, path, n) == 0 && strncmp(text + n, ": ", 2) == 0)
		text += n + 2;
	say(LOG_WARNING, "%s: refused: %s", path, text);
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

/* Every descriptor from FIRST up closed (the child of run_handler():
 * system calls only); up to the descriptor limit on kernels without
 * close_range(). */
static void close_from(int first)
{
	struct rlimit rl;
	int max;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned int)first, ~0u, 0u) == 0)
		return;
#endif
	max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
	for (int fd = first; fd < max; fd++)
		close(fd);
}

/* What the child of run_handler() reports when a script cannot run
 * because /dev/fd is missing */
#define ENODEV_FD (-1)

/* What every handler of one handlers_run() shares, read once for all of
 * them (the dispositions and /dev/fd do not change between two handlers
 * of one event; a handler costs mostly its own exec, and each system call
 * of its start is paid again for each handler). */
struct run_state {
	int hpfd;             /* hotplug.d, checked */
	bool sigs_read;       /* sig_reset read (at the first handler) */
	bool sig_reset[NSIG]; /* signal N not at SIG_DFL here */
	int dev_fd;           /* whether /dev/fd/N opens: 1, 0, -1 not looked yet */
};

/* RESET[N]: signal N's disposition is not SIG_DFL, and a handler's child
 * must reset it (a handler of ours must not run in it, an ignored signal
 * must not stay ignored across the exec; the others are at SIG_DFL
 * already).  glibc's own (32, 33), which its sigaction() will not show,
 * always. */
static void signals_not_default(bool reset[NSIG])
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction old;

		if (sigaction(sig, NULL, &old) < 0)
			reset[sig] = sig != SIGKILL && sig != SIGSTOP;
		else
			reset[sig] = old.sa_handler != SIG_DFL;
	}
}

/* Whether /dev/fd/FD (FD open here) opens: a #! script runs as /dev/fd/3,
 * which its interpreter opens; a bare devtmpfs has no /dev/fd.  Looked at
 * once per handlers_run(), at its first script. */
static bool dev_fd_works(struct run_state *rs, int fd)
{
	if (rs->dev_fd < 0) {
		char path[64];

		snprintf(path, sizeof(path), "/dev/fd/%d", fd);
		rs->dev_fd = faccessat(AT_FDCWD, path, F_OK, 0) == 0;
	}
	return rs->dev_fd;
}

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

/* What run_handler() gives its child, and what the child says back: the
 * child shares the parent's memory until its exec (CLONE_VM|CLONE_VFORK,
 * as posix_spawn() starts a program), so ERR is read by the parent once
 * the clone returns. */
struct spawn {
	int fd;     /* the checked handler */
	int script; /* is_script(fd) */
	const bool *sig_reset; /* run_state's: the dispositions to reset */
	char *const *argv, *const *envp;
	int err;    /* 0: it runs; else why its exec failed */
};

/* The child's side of run_handler(), on its own stack, in the parent's
 * memory, every signal blocked: system calls only, nothing written but
 * S->err.  A clean start (signal dispositions to default: those of
 * s->sig_reset, the others are already, then nothing blocked, a process
 * group of its own, stdin from /dev/null, no descriptor above 2 but what
 * the exec needs), then the checked file itself, never its path again.  A
 * #! script (script: 1, or -1 for unknown) is run by its interpreter as
 * /dev/fd/3, which must then stay open across the exec (script 1: the
 * parent has seen that /dev/fd works). */
static int handler_child(void *data)
{
	struct spawn *s = data;
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	int null, hfd;

	for (int sig = 1; sig < NSIG; sig++)
		if (s->sig_reset[sig] && sigaction(sig, &dfl, NULL) < 0) {
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
	/* the handler on 3, close-on-exec (by way of a copy above it: the
	 * handler may be 3 now, and dup3() will not copy a descriptor onto
	 * itself) */
	if ((hfd = fcntl(s->fd, F_DUPFD_CLOEXEC, 4)) < 0 || dup3(hfd, 3, O_CLOEXEC) < 0)
		goto fail;
	close_from(4);
	if (s->script == 1 && fcntl(3, F_SETFD, 0) < 0)
		goto fail;
	fexecve(3, s->argv, s->envp);
	/* not known: ENOENT is a script, whose interpreter cannot open
	 * /dev/fd/3 while it closes on exec (or a missing interpreter: the
	 * same error again) */
	if (s->script < 0 && errno == ENOENT) {
		if (faccessat(AT_FDCWD, "/dev/fd/3", F_OK, 0) < 0)
			errno = ENODEV_FD;
		else if (fcntl(3, F_SETFD, 0) == 0)
			fexecve(3, s->argv, s->envp);
	}
fail:
	s->err = errno ? errno : EINVAL;
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
	gint64 kill_at = g_get_monotonic_time() + (gint64)settings.handler_timeout * G_USEC_PER_SEC;
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
				say(LOG_WARNING, "%s: still running after %d s: killed", path, settings.handler_timeout);
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

/* The child's stack (handler_child() makes a few system calls; glibc's
 * posix_spawn() gives its own child 32 KiB) */
#define CHILD_STACK ((size_t)32 * 1024)

/* Starts the checked handler FD as ARGV with ENVP as posix_spawn() starts a
 * program: clone(CLONE_VM|CLONE_VFORK), the parent's memory not copied and
 * the parent waiting until the child's exec (or its end).  The pid, or -1
 * with errno (ENODEV_FD: a script without /dev/fd). */
static pid_t handler_spawn(struct run_state *rs, int fd, char *const *argv, char *const *envp)
{
	struct spawn s = { .fd = fd, .script = is_script(fd), .argv = argv, .envp = envp };
	/* every signal, glibc's own too: no handler of ours may run in the
	 * child, on our memory */
	unsigned long all[(NSIG - 1) / (8 * sizeof(unsigned long))], old[G_N_ELEMENTS(all)];
	/* in our frame: we wait while the child runs on it */
	_Alignas(16) char stack[CHILD_STACK];
	pid_t pid;
	int e;

	if (s.script == 1 && !dev_fd_works(rs, fd)) {
		errno = ENODEV_FD; /* its interpreter could not open it */
		return -1;
	}
	if (!rs->sigs_read) {
		signals_not_default(rs->sig_reset);
		rs->sigs_read = true;
	}
	s.sig_reset = rs->sig_reset;
	memset(all, 0xff, sizeof(all));
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, all, old, sizeof(all));
	pid = clone(handler_child, stack + CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &s);
	e = errno;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, old, NULL, sizeof(old));
	if (pid > 0 && s.err) { /* it could not exec */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		e = s.err;
		pid = -1;
	}
	errno = e;
	return pid;
}

/* Runs the checked handler FD as PATH SUBSYSTEM, with ENVP, and waits for it. */
static void run_handler(struct run_state *rs, int fd, const char *path, const char *subsystem, char *const *envp)
{
	char *argv[] = { (char *)path, (char *)subsystem, NULL };
	pid_t pid = handler_spawn(rs, fd, argv, envp);
	int status;

	if (pid < 0) {
		say(LOG_ERR, "%s: cannot run it: %s", path,
		    errno == ENODEV_FD ? "No such file or directory (a script runs as /dev/fd/3: no /dev/fd, or no /proc)"
				       : strerror(errno));
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
static void run_dir(struct run_state *rs, const char *name, const char *subsystem, char *const *envp)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *dir = g_build_filename(hotplug_dir(), name, NULL);
	struct trust_why why = { { 0 } };
	struct dirent *de;
	DIR *d;
	int dfd, lfd;

	/* whoever may add to the directory may add a link to any root-owned
	 * program: the directory must be as safe as its handlers */
	dfd = trust_open_in(rs->hpfd, hotplug_dir(), name, O_RDONLY | O_DIRECTORY, TRUST_DIRECTORY, &why);
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
		if (settings.dry_run)
			dry_line("run %s %s", cli_shown(path), cli_shown(subsystem));
		else
			run_handler(rs, fd, path, subsystem, envp);
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

void handlers_run(const char *subsystem, char *const *envp)
{
	struct run_state rs = { .hpfd = hotplug_dir_open(), .dev_fd = -1 };

	if (rs.hpfd < 0)
		return;
	run_dir(&rs, subsystem, subsystem, envp);
	if (strcmp(subsystem, "default") != 0) /* not twice */
		run_dir(&rs, "default", subsystem, envp);
	close(rs.hpfd);
}

int handlers_stop_init(void)
{
	return pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK);
}

void handlers_stop(void)
{
	/* the running handlers are told (handler_wait) */
	g_atomic_int_set(&stopping_flag, 1);
	if (write(stop_pipe[1], "", 1) != 1)
		say(LOG_ERR, "cannot stop the handlers: %s", strerror(errno));
}

void handlers_stop_fini(void)
{
	close(stop_pipe[0]);
	close(stop_pipe[1]);
	stop_pipe[0] = stop_pipe[1] = -1;
}
