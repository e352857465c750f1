/*
 * cli/hotplug-agent.h - the hotplug agent's parts and the calls between them,
 * which go one way, from the top down:
 *
 *   hotplug.c           main: the settings, then one mode (helper, coldplug, daemon)
 *   hotplug-settle.c    hotplug --settle: asks the daemon's control socket
 *   hotplug-daemon.c    the daemon's loop: netlink, signals, workers' reports, reload
 *   hotplug-preload.c   --preload: the last boot's modules loaded first, the list kept
 *   hotplug-control.c   the daemon's completion barrier: the control socket, READY=1
 *   hotplug-queue.c     the events in SEQNUM order, related ones one at a time, workers
 *   hotplug-coldplug.c  the devices already present: resolved, or their add replayed;
 *                       one-shot, to a fixed point
 *   hotplug-netlink.c   the uevent socket: opened, a message read (the kernel's only)
 *   hotplug-hear.c      the one-shot's ear: a thread reading that socket, each event stamped
 *   hotplug-event.c     one event: its modules, then its handlers
 *   hotplug-handlers.c  the hotplug.d multiplexer: trust, spawn, timeout, stop
 *   hotplug-modules.c   the library's objects (libcli's tables), each module loaded once
 *   hotplug-settings.c  options and modalias.conf into one settings, and the log
 *
 * A file may call those below it, never one above.  Nothing here may be
 * used by the modalias command; what both programs need is in libcli.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>

#include <glib.h>

#include "cli-config.h"
#include "cli-exit.h"
#include "cli-devices.h"
#include "cli-output.h"
#include "cli-state.h"
#include "cli-tables.h"
#include "libmodalias.h"
#include "uevent.h"

/* ---- hotplug-settings.c: what the agent was told, and how it speaks ---------- */

struct hotplug_settings {
	char *hotplug_dir;             /* --hotplug-dir, [agent] hotplug-dir; NULL: /etc/hotplug.d */
	char *sysfs;                   /* --sysfs, [agent] sysfs; NULL: /sys */
	char *snapshot;                /* --snapshot: a dry-run coldplug of its devices */
	struct cli_tables_spec tables; /* -d, -S, -m, -C */
	char *config_file;             /* --settings: modalias.conf */
	gboolean version;              /* --version */
	char *log_level_name;
	char *coldplug_mode;           /* --coldplug=MODE: "resolve" or "trigger" */
	gboolean daemon, dry_run, trust_any_sender, coldplug_flag, force_stderr;
	int max_parallel;              /* unrelated events handled at once */
	int handler_timeout;           /* seconds */
	int coldplug_timeout;          /* seconds a one-shot coldplug may take */
	int queue_limit;               /* events the daemon holds at most */
	int settle;                    /* --settle: seconds to wait, -1: not asked */
	char *control_path;            /* --control-socket; NULL: HOTPLUG_CONTROL_PATH */
	char *preload;                 /* --preload: the last boot's modules (hotplug-preload.c) */
	int netlink_group;
	int log_level;                 /* syslog priority */
	bool log_stderr;               /* the log also on standard error */
};

extern struct hotplug_settings settings;

/* --queue-limit: the daemon holds at most this many events (each one
 * allocation: its message, 8 bytes a variable and about 100; a uevent at
 * most 2 KiB + 64 variables, UEVENT_BUFFER_SIZE and UEVENT_NUM_ENVP, so at
 * most 2.6 KiB, about 0.5 KiB usually).  While it holds that many it reads
 * no more: the kernel keeps the next ones in the uevent socket's receive
 * buffer, HOTPLUG_QUEUE_SOCKET_BYTES an event of the limit; when that
 * overflows, the kernel drops them and says so (ENOBUFS), and the daemon
 * rescans sysfs. */
#define HOTPLUG_QUEUE_LIMIT_DEFAULT 32768
#define HOTPLUG_QUEUE_LIMIT_MAX 262144
#define HOTPLUG_QUEUE_SOCKET_BYTES 4096
/* modalias.conf, as read at the start (and again at SIGHUP) */
extern struct cli_config config;

/* The command line (*ARGC and *ARGV left with the operands) and
 * modalias.conf into settings and config: 0, or the exit status of a usage
 * error, which is printed; --version prints the version and exits 0. */
int settings_load(int *argc, char ***argv);
/* modalias.conf read again (SIGHUP); false, and logged, when it cannot be */
bool settings_reload(void);
void settings_clear(void);

/* The log: syslog, and standard error when settings.log_stderr, at or
 * above settings.log_level; the message escaped as cli_shown() escapes
 * (it holds names from the kernel, files, snapshots). */
void say(int priority, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* The library's log, into say() */
void say_library(void *data, int priority, const char *file, int line, const char *fn, const char *format,
		 va_list args);
/* A dry run's line on standard output, written at once (exit 3 when it
 * cannot be) */
void dry_line(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/* Someone else's string in a message: its first 200 bytes (free it; say()
 * escapes the message) */
char *shown(const char *s);

/* poll() timeouts: the milliseconds until AT (g_get_monotonic_time() µs),
 * rounded up, 0 once it has passed; and the sooner of two (-1: none) */
int poll_ms_until(gint64 at);
int poll_sooner(int a, int b);

/* ---- hotplug-modules.c: the library's objects, and modules loaded once ----- */

/* The context (once), then the tables and libkmod's loader as the settings
 * say (again at SIGHUP): 0, or a negative errno, logged. */
int modules_open(void);
/* The context alone (its log, the sysfs root), no tables: what
 * --coldplug=trigger, which loads nothing, needs; modules_open() makes it
 * too */
int modules_open_ctx(void);
void modules_close(void);
/* The context: NULL before modules_open() */
struct modalias_ctx *modules_ctx(void);
/* Whether the tables are open: modules can be looked up and loaded */
bool modules_ready(void);
/* Whether depmod rewrote the module directory since the tables were read
 * (logged, naming the file): then modules_open() again */
bool modules_stale(void);
/* Loads every module of ALIAS (DEVPATH's; NULL: no device known), each
 * module once while it stays loaded: a
 * second event for a module waits for the first one's result; a module
 * removed since is loaded again, one that failed is tried again on later
 * events, LOAD_ATTEMPTS times in all. */
void modules_load_alias(const char *devpath, const char *alias);
/* Loads MODULE by name, as modprobe NAME (once, as above); it is not
 * counted as wanted by a device */
void modules_load_name(const char *module);
/* The devices a dry run asks whether a module is loaded or built in (the
 * coldplug walk's: a snapshot, a captured tree), and whose bound drivers
 * it reads; NULL: the sysfs root's.  A dry run says "loaded M" or
 * "builtin M" for those instead of "load M". */
void modules_set_devices(const struct cli_devices *dv);
/* The modules a device's modalias named that are loaded (inserted or found
 * live): those of the shallowest devices first (a controller's before the
 * devices' behind it), then by name; the caller frees the array */
GPtrArray *modules_wanted(void);
/* The module directory the tables are read from */
const char *modules_dir(void);
/* FN is told each module inserted (dependencies too), in the thread that
 * loaded it; NULL: nobody */
void modules_on_insert(void (*fn)(const char *module));

/* ---- hotplug-handlers.c: the hotplug.d multiplexer ------------------------- */

/* Runs the handlers of SUBSYSTEM, then those of default/ (once for
 * "default"), in C-locale byte order, each as PATH SUBSYSTEM with ENVP,
 * each waited for at most settings.handler_timeout seconds. */
void handlers_run(const char *subsystem, char *const *envp);
/* The daemon: handlers_stop() makes running handlers stop (SIGTERM, then
 * SIGKILL) and no new one start; handlers_stop_init() first, ..._fini() last. */
int handlers_stop_init(void);
void handlers_stop(void);
void handlers_stop_fini(void);

/* ---- hotplug-event.c: one event ---------------------------------------------- */

/* A name of a directory under hotplug.d, and a word in syslog: no path, no
 * control character */
bool subsystem_ok(const char *s);
/* One event of SUBSYSTEM (checked), ENVP its variables: on add its
 * modules, then its handlers. */
void event_handle(const char *subsystem, char *const *envp);
/* Its modules alone (an add event's, or a device coldplug found) */
void event_load(const char *subsystem, char *const *envp);

/* ---- hotplug-coldplug.c: the devices already present ----------------------- */

/* Every device under the sysfs root, parents first: handed to FOUND with
 * its modalias (resolve: the daemon queues its loading), or "add" written
 * to its uevent (trigger, where FOUND may be NULL: only on sysfs), as the
 * settings say.  False when it could not walk (logged). */
bool coldplug(void (*found)(const char *devpath, const char *alias));
/* Coldplug writes "add" to the uevent files (--coldplug=trigger, or
 * modalias.conf's coldplug=trigger) rather than resolving */
bool coldplug_triggers(void);
/* One-shot coldplug (no daemon) to a fixed point: the walk, then the
 * devices that appear because of the modules it loaded (from the uevent
 * socket), until no uevent came for a quiet while (longer after a bus
 * that enumerates late, and until each module inserted has said it is
 * live), or settings.coldplug_timeout: the exit status (CLI_EXIT_TIMEOUT,
 * with a report, when it did not get there). */
int coldplug_until_quiet(void);

/* ---- hotplug-queue.c: events in order, run by workers ---------------------- */

int queue_init(void);
void queue_fini(void);
/* Events up to SEQ came before we listened: none of them is waited for */
void queue_seq_known(unsigned long long seq);
/* An event from netlink, put in SEQNUM order (the queue owns it now) */
void queue_add(struct event *e);
/* Starts a worker for each event that may run now (no earlier event of the
 * same device, its parents or children; no SEQNUM gap before it) */
void queue_dispatch(void);
/* Readable when a worker is done: then queue_reap() */
int queue_done_fd(void);
void queue_reap(void);
/* Events being handled now */
int queue_running(void);
/* No event waiting or running */
bool queue_empty(void);
/* A --preload module waiting or being loaded */
bool queue_preloading(void);
/* When more than MAX events wait (are not running), drops every one that
 * waits and returns how many; else 0 */
unsigned int queue_drop_over(unsigned int max);
/* A device coldplug found (coldplug()'s FOUND): its modules loaded by a
 * worker as an add event's would be (in parallel with unrelated ones, after
 * its parents'), no handler run, while the walk goes on and uevents keep
 * coming, ahead of it */
void queue_add_found(const char *devpath, const char *alias);
/* A module of --preload: loaded by name by a worker, at once with the
 * others, ahead of what coldplug finds */
void queue_add_preload(const char *module);
/* settings.queue_limit events waiting or running: read no more */
bool queue_full(void);
/* Events handled since the start (not what coldplug found) */
unsigned long long queue_handled(void);
/* Every event up to this SEQNUM has arrived (or is no longer waited for) */
unsigned long long queue_seq_heard(void);
/* Milliseconds until a SEQNUM gap is given up (-1: none); at 0,
 * queue_gap_expired() */
int queue_gap_timeout(void);
void queue_gap_expired(void);

/* ---- hotplug-netlink.c: the kernel's uevents --------------------------------- */

/* The uevent socket on settings.netlink_group: a descriptor or -errno */
int netlink_open(void);
/* One message, or NULL: none now (errno EAGAIN), *overflow (events were
 * lost), or not the kernel's unless settings.trust_any_sender */
struct event *netlink_receive(int fd, bool *overflow);
/* The kernel's SEQNUM of its last uevent (the sysfs root's
 * kernel/uevent_seqnum): false when it cannot be read */
bool kernel_seqnum(unsigned long long *seq);

/* ---- hotplug-hear.c: the one-shot's ear ---------------------------------------- */

/* A thread reading the uevent socket NL as events come, each stamped
 * (event->heard); NULL when it cannot start (NL < 0: nothing to hear) */
struct hear *hear_start(int nl);
/* The next event heard, waiting until UNTIL (monotonic µs), or NULL;
 * *lost: events were lost (the socket overflowed) since the last call */
struct event *hear_next(struct hear *h, gint64 until, bool *lost);
/* Nothing heard is waiting (in the queue, in the socket) and none was
 * lost; *moved: the kernel's uevent_seqnum is not where it was after the
 * last read (it sent what did not reach us) */
bool hear_quiet(struct hear *h, bool *moved);
/* Ends the thread, drops what was not taken; NL stays open */
void hear_stop(struct hear *h);

/* ---- hotplug-control.c: the completion barrier --------------------------------- */

/* The daemon's control socket, where `hotplug --settle` asks: one request
 * "settle SEQNUM" (the kernel's uevent_seqnum when it asked), one reply
 * "settled" when the daemon is (control-socket.h).  Root's alone. */
#define HOTPLUG_CONTROL_PATH "/run/modalias/control"

struct pollfd;
/* Listens on settings.control_path (logged, and -1, when it cannot); READY=1
 * will be sent when $NOTIFY_SOCKET is set.  COLDPLUG_PENDING: not settled
 * before control_coldplug_done(). */
int control_open(bool coldplug_pending);
void control_coldplug_done(void);
/* The descriptors to poll (at most MAX), then what they said */
unsigned int control_pollfds(struct pollfd *pfd, unsigned int max);
void control_ready(const struct pollfd *pfd, unsigned int n);
/* Answers the askers the daemon is settled for: ms until it should be
 * called again without an event (-1: only after one) */
int control_answer(void);
void control_close(void);

/* ---- hotplug-settle.c: the settle client --------------------------------------- */

/* hotplug --settle: the exit status (0 settled, 1 no daemon, 4 timeout) */
int settle_run(void);

/* ---- hotplug-preload.c: --preload, the last boot's modules ------------------------ */

/* The list read (when settings.preload names one for this module
 * directory) and each module queued to be loaded at once */
void preload_start(void);
/* Something happened (an event heard, a worker done): the list waits for
 * quiet */
void preload_activity(void);
/* ms until the list is to be written (-1: not now, or never again) */
int preload_timeout(void);
/* Writes the list when preload_timeout() is 0 (once a run) */
void preload_record(void);

/* ---- hotplug-daemon.c: the daemon ------------------------------------------- */

/* Listens, coldplugs when asked, handles events until SIGTERM: the exit status */
int daemon_run(void);
