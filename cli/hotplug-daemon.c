/*
 * cli/hotplug-daemon.c - hotplug --daemon: the loop over what it waits for
 * (the uevent socket, the workers' reports, SIGTERM/SIGINT and SIGHUP, a
 * SEQNUM gap's deadline): events read into the queue and dispatched,
 * coldplug when asked and after a lost burst, modalias.conf and the tables
 * reloaded at SIGHUP, the tables when depmod rewrote them (and again, with
 * the events kept, while they cannot be opened), the askers of hotplug
 * --settle and systemd answered when settled, a bounded stop at SIGTERM.
 *
 * This file holds the loop; it may not order events (hotplug-queue.c) nor
 * handle one (hotplug-event.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <syslog.h>
#include <unistd.h>

#include "hotplug-agent.h"

/* A reload that fails (depmod's output incomplete for a moment: no
 * modules.alias yet) leaves the tables closed.  Events are then kept in the
 * queue, not handled without their modules, and the tables are opened
 * again at the next event and after RETRY_MS, doubled at each failure up to
 * RETRY_MAX_MS; once they open, the kept events are handled.  At most
 * KEPT_MAX are kept (some MiB): past that they are dropped and sysfs is
 * rescanned once the tables open, as when the kernel lost uevents. */
#define RETRY_MS 1000
#define RETRY_MAX_MS 32000
#define KEPT_MAX 4096
static gint64 retry_at; /* g_get_monotonic_time() of the next try; 0: the tables are open */
static int retry_ms;

/* Opens the tables (again): false, logged, when they cannot be */
static bool tables_open(void)
{
	if (modules_open() == 0) {
		if (retry_at)
			say(LOG_NOTICE, "the module tables are open again: handling the events kept");
		retry_at = 0;
		retry_ms = 0;
		return true;
	}
	retry_ms = retry_ms ? MIN(retry_ms * 2, RETRY_MAX_MS) : RETRY_MS;
	retry_at = g_get_monotonic_time() + (gint64)retry_ms * 1000;
	say(LOG_ERR, "the module tables cannot be opened: events are kept until they can (tried again at the next "
	    "event, or in %d s)", retry_ms / 1000);
	return false;
}

/* Events were lost (the socket's buffer overflowed): sysfs is walked
 * again, once the tables are open and no walk is under way */
static bool rescan;
static int walk_nl = -1; /* the uevent socket, while coldplug walks */
static bool walk_starts;  /* what it finds is started during the walk */
static unsigned int walk_found;

/* The events waiting on the uevent socket NL into the queue, at most 256
 * (fewer when the queue is full): whether any came */
static bool receive(int nl)
{
	bool heard = false;

	for (int k = 0; k < 256 && !queue_full(); k++) {
		bool overflow;
		struct event *e = netlink_receive(nl, &overflow);
		if (overflow) {
			say(LOG_WARNING, "uevents lost (receive buffer overflow): rescanning sysfs");
			rescan = true;
			continue;
		}
		if (!e) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			continue;
		}
		queue_add(e);
		heard = true;
	}
	return heard;
}

/* A device the walk found: its loading starts now, on a free worker,
 * while the walk goes on (the first insertions need not wait for the
 * last directory of sysfs); what the socket brought meanwhile (devices
 * behind a controller just loaded) goes ahead of the rest of the walk. */
static void walk_found_one(const char *devpath, const char *alias)
{
	queue_add_found(devpath, alias);
	if (++walk_found % 8 == 0)
		receive(walk_nl);
	if (walk_starts) {
		queue_reap();
		queue_dispatch();
	}
}

/* Coldplug from the daemon: every device under sysfs queued, and handled
 * as it is found when START (not while the tables wait to be reloaded) */
static void coldplug_now(int nl, bool start)
{
	walk_nl = nl;
	walk_starts = start && !settings.dry_run; /* a dry run's lines: the walk's, then the loads' */
	coldplug(walk_found_one);
	walk_nl = -1;
}

/* With --preload, the walk waits for the list's insertions (it would only
 * compete with them for the CPUs), at most this long (an insertion that
 * hangs holds back no device); the main loop goes on meanwhile: the
 * devices that appear, the signals, the control socket */
#define PRELOAD_WALK_WAIT_MS 3000
static gint64 walk_at; /* monotonic µs: coldplug's walk is due by then; 0: none is */

/* Milliseconds until the walk is due while --preload's insertions run
 * (-1: none is waiting) */
static int walk_timeout(void)
{
	if (!walk_at)
		return -1;
	if (!queue_preloading())
		return 0; /* the list's insertions are over: due now */
	return poll_ms_until(walk_at);
}

/* The barrier told that coldplug is done (or that there is none) */
static void coldplug_finished(void)
{
	control_coldplug_done();
	if (settings.dry_run)
		dry_line("ready");
}

/* Coldplug's walk once it is due (none when STOPPING), then the barrier told */
static void walk_when_due(int nl, bool stopping)
{
	if (!walk_at || (!stopping && walk_timeout() != 0))
		return;
	walk_at = 0;
	if (!stopping) {
		coldplug_now(nl, true);
		queue_dispatch();
	}
	coldplug_finished();
}

/* Milliseconds until the tables are tried again (-1: they are open) */
static int retry_timeout(void)
{
	return retry_at ? poll_ms_until(retry_at) : -1;
}

int daemon_run(void)
{
	sigset_t mask;
	struct pollfd pfd[3 + 1 + 64];
	int nl, sfd;
	bool stopping = false, reload = false, stale = false;

	nl = netlink_open();
	if (nl < 0) {
		say(LOG_ERR, "cannot listen for uevents: %s", strerror(-nl));
		return CLI_EXIT_FAIL;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0 || queue_init() < 0 || handlers_stop_init() < 0) {
		say(LOG_ERR, "cannot set up: %s", strerror(errno));
		return CLI_EXIT_FAIL;
	}
	if (settings.netlink_group == 1 && !settings.trust_any_sender) {
		/* the kernel's group: what came before we listened is not awaited */
		unsigned long long seq;
		if (kernel_seqnum(&seq))
			queue_seq_known(seq);
	}
	say(LOG_INFO, "listening (netlink group %d, %d workers)", settings.netlink_group, settings.max_parallel);
	control_open(settings.coldplug_flag);
	/* listening first: nothing that happens during coldplug is missed */
	if (settings.coldplug_flag) {
		preload_start(); /* the last boot's modules first, all at once */
		queue_dispatch();
		walk_at = g_get_monotonic_time() + (gint64)PRELOAD_WALK_WAIT_MS * 1000;
	} else {
		coldplug_finished();
	}
	pfd[0] = (struct pollfd){ .fd = nl, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = queue_done_fd(), .events = POLLIN };
	pfd[2] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	while (!stopping || queue_running() > 0) {
		/* Stopping: no more events are read (poll skips a negative fd),
		 * but the workers' reports and the signals still are. */
		int n, timeout = -1;
		unsigned int nc;
		bool heard = false;

		walk_when_due(nl, stopping);
		/* stopping: only the workers' reports and the signals */
		if (!stopping) {
			timeout = poll_sooner(queue_gap_timeout(), control_answer());
			timeout = poll_sooner(timeout, retry_timeout());
			timeout = poll_sooner(timeout, preload_timeout());
			timeout = poll_sooner(timeout, walk_timeout());
		}
		nc = stopping ? 0 : control_pollfds(pfd + 3, G_N_ELEMENTS(pfd) - 3);
		/* the queue full: the next events wait in the socket's buffer */
		pfd[0].fd = stopping || queue_full() ? -1 : nl;
		n = poll(pfd, 3 + nc, timeout);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			say(LOG_ERR, "poll: %s", strerror(errno));
			break;
		}
		if (n == 0 && queue_gap_timeout() == 0)
			queue_gap_expired();
		control_ready(pfd + 3, nc);
		if (pfd[2].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGHUP) {
					reload = true;
				} else if (!stopping) {
					stopping = true;
					handlers_stop();
				}
			}
		}
		if (pfd[1].revents & POLLIN) {
			queue_reap();
			preload_activity();
		}
		if (pfd[0].revents & POLLIN) {
			heard = receive(nl);
			if (heard)
				preload_activity();
			/* depmod rewrote the module directory (a kernel package
			 * installed modules): new events wait for the new tables */
			if (!stale && modules_stale())
				stale = true;
		}
		if (retry_at) {
			unsigned int dropped = queue_drop_over(KEPT_MAX);

			if (dropped) {
				say(LOG_WARNING, "%u events kept while the module tables are closed: dropped (at most %d are "
				    "kept); sysfs is rescanned once they open", dropped, KEPT_MAX);
				rescan = true;
			}
		}
		if ((reload || stale) && queue_running() == 0) {
			if (reload) {
				say(LOG_INFO, "reloading the configuration and the module tables");
				if (settings_reload())
					tables_open();
			} else {
				say(LOG_INFO, "the module directory changed: reloading the module tables");
				tables_open();
			}
			reload = stale = false;
		} else if (retry_at && !stopping && (heard || retry_timeout() == 0) && queue_running() == 0) {
			say(LOG_INFO, "opening the module tables again");
			tables_open();
		}
		if (rescan && !retry_at) {
			rescan = false; /* a loss during this walk asks for another */
			coldplug_now(nl, !reload && !stale);
		}
		if (!stopping && !reload && !stale && !retry_at)
			queue_dispatch();
		if (!stopping && !retry_at)
			preload_record();
	}
	say(LOG_NOTICE, "stopped (%llu events handled)", queue_handled());
	control_close();
	queue_fini();
	close(nl);
	close(sfd);
	handlers_stop_fini();
	return CLI_EXIT_OK;
}
