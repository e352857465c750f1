/*
 * cli/hotplug-queue.c - the daemon's events in order, as udevd orders
 * them: by SEQNUM (an event that overtook an earlier one waits up to
 * GAP_WAIT_MS for it), an event waiting for earlier events of the same
 * device, its parents and children, unrelated ones handled in parallel by
 * worker threads, at most settings.max_parallel at once.
 *
 * This file orders and starts events; it may not read the socket or decide
 * what an event does (hotplug-event.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "hotplug-agent.h"

static GQueue queue = G_QUEUE_INIT; /* struct event *, by seqnum */
static unsigned long long handled;  /* events done since the start */
static int done_pipe[2] = { -1, -1 }; /* a worker's event, when it is done */
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

/* The gap has been waited for long enough: every event that arrived by now
 * goes on, whatever gaps lie between them, so that the wait is bounded in
 * total (GAP_WAIT_MS from the first gap seen), not per gap: forty missing
 * SEQNUMs cost one wait, not forty.  (At the start, with no known
 * predecessor, likewise.) */
static void seq_give_up(void)
{
	unsigned long long max = 0;
	GHashTableIter it;
	gpointer key;

	/* the events that wait are exactly those in ahead */
	g_hash_table_iter_init(&it, ahead);
	while (g_hash_table_iter_next(&it, &key, NULL))
		if (*(unsigned long long *)key > max)
			max = *(unsigned long long *)key;
	if (max == 0)
		return;
	if (arrived_known)
		say(LOG_DEBUG, "SEQNUM gaps between %llu and %llu never filled: no longer waited for", arrived_seq + 1, max);
	arrived_seq = max;
	arrived_known = true;
	g_hash_table_remove_all(ahead);
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

	if (e->preload) {
		modules_load_name(e->devpath + strlen("/module/"));
	} else if (e->coldplug) {
		event_load(e->subsystem, e->envp);
	} else if (subsystem_ok(e->subsystem)) {
		event_handle(e->subsystem, e->envp);
	} else {
		g_autofree char *sub = shown(e->subsystem ? e->subsystem : "");
		say(LOG_WARNING, "event %llu: bad SUBSYSTEM '%s' ignored", e->seqnum, sub);
	}

	if (write(done_pipe[1], &token, sizeof(token)) != sizeof(token))
		say(LOG_ERR, "worker: cannot report");
	return NULL;
}

void queue_dispatch(void)
{
	for (GList *l = queue.head; l && running < settings.max_parallel; l = l->next) {
		struct event *e = l->data;
		bool blocked = false;
		pthread_t t;

		if (e->running)
			continue;
		if (!seq_eligible(e))
			break; /* by SEQNUM: every later one waits too */
		for (GList *k = queue.head; k != l && !blocked; k = k->next)
			blocked = related(((struct event *)k->data)->devpath, e->devpath);
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
	seq_waiting();
}

void queue_add(struct event *e)
{
	GList *before = NULL; /* NULL: at the end */

	/* by SEQNUM: the kernel's order, whatever the arrival order; a uevent
	 * ahead of what coldplug found and is not loading yet (a device that
	 * appeared behind a controller just loaded waits for no walk), and
	 * what coldplug finds at the end */
	for (GList *l = queue.tail; l && !e->coldplug; l = l->prev) {
		const struct event *q = l->data;

		if (q->running || (!q->coldplug && q->seqnum <= e->seqnum))
			break;
		before = l;
	}
	if (before)
		g_queue_insert_before(&queue, before, e);
	else
		g_queue_push_tail(&queue, e);
	e->link = before ? before->prev : queue.tail;
	seq_arrived(e->seqnum);
}

/* An event the daemon makes itself (SEQNUM 0: it waits for no other), in
 * the queue as coldplug's: DEVPATH's add in SUBSYSTEM, with its MODALIAS
 * (or none) */
static void queue_add_made(const char *devpath, const char *subsystem, const char *alias, bool preload)
{
	GString *m = g_string_new(NULL);
	struct event *e;

	g_string_append_printf(m, "add@%s%cACTION=add%cDEVPATH=%s%cSUBSYSTEM=%s%cSEQNUM=0", devpath, 0, 0, devpath, 0,
			       subsystem, 0);
	if (alias)
		g_string_append_printf(m, "%cMODALIAS=%s", 0, alias);
	e = event_parse(m->str, m->len + 1);
	g_string_free(m, TRUE);
	if (!e)
		return;
	e->coldplug = true;
	e->preload = preload;
	queue_add(e);
}

void queue_add_found(const char *devpath, const char *alias)
{
	queue_add_made(devpath, "coldplug", alias, false);
}

void queue_add_preload(const char *module)
{
	g_autofree char *devpath = g_strconcat("/module/", module, NULL);

	queue_add_made(devpath, "preload", NULL, true);
}

bool queue_full(void)
{
	return queue.length >= (guint)settings.queue_limit;
}

int queue_init(void)
{
	if (pipe2(done_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	ahead = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	return 0;
}

/* Stopping: the events never started are dropped (the workers are done). */
void queue_fini(void)
{
	if (queue.length > 0)
		say(LOG_INFO, "stopping: %u queued events not handled", queue.length);
	g_queue_clear_full(&queue, (GDestroyNotify)event_free);
	g_hash_table_destroy(ahead);
	close(done_pipe[0]);
	close(done_pipe[1]);
}

void queue_seq_known(unsigned long long seq)
{
	arrived_seq = seq;
	arrived_known = true;
}

int queue_done_fd(void)
{
	return done_pipe[0];
}

void queue_reap(void)
{
	uintptr_t token;

	while (read(done_pipe[0], &token, sizeof(token)) == sizeof(token)) {
		struct event *e = (struct event *)token;
		g_queue_delete_link(&queue, e->link);
		handled += !e->coldplug;
		event_free(e);
		running--;
	}
}

int queue_running(void)
{
	return running;
}

int queue_gap_timeout(void)
{
	return gap_since ? poll_ms_until(gap_since + (gint64)GAP_WAIT_MS * 1000) : -1;
}

void queue_gap_expired(void)
{
	if (!gap_since)
		return;
	seq_give_up();
	gap_since = 0;
}

unsigned int queue_drop_over(unsigned int max)
{
	unsigned int waiting = 0, dropped = 0;

	for (GList *l = queue.head; l; l = l->next)
		waiting += !((struct event *)l->data)->running;
	if (waiting <= max)
		return 0;
	for (GList *l = queue.head, *next; l; l = next) {
		struct event *e = l->data;

		next = l->next;
		if (e->running)
			continue;
		g_queue_delete_link(&queue, l);
		event_free(e);
		dropped++;
	}
	return dropped;
}

bool queue_empty(void)
{
	return queue.length == 0;
}

bool queue_preloading(void)
{
	for (GList *l = queue.head; l; l = l->next)
		if (((struct event *)l->data)->preload)
			return true;
	return false;
}

unsigned long long queue_handled(void)
{
	return handled;
}

unsigned long long queue_seq_heard(void)
{
	return arrived_known ? arrived_seq : 0;
}
