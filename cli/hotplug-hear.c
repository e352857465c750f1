/*
 * cli/hotplug-hear.c - the one-shot coldplug's ear: a thread that reads
 * the uevent socket as the events come, while coldplug is busy inserting
 * modules, and stamps each with when it was heard (the kernel stamps none),
 * so that the fixed point's quiet whiles run from when an event came, not
 * from when coldplug got to it.  About settings.queue_limit events wait
 * here at most; beyond that they wait in the socket (and are stamped when
 * read).
 *
 * This file reads events; it may not handle them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "hotplug-agent.h"

struct hear {
	int nl;
	int stop;           /* eventfd: the thread is to end */
	GThread *thread;
	GAsyncQueue *heard; /* struct event *, in the order they came */
	GMutex lock;        /* held while a message is read and queued, and by hear_quiet() */
	bool lost;          /* events lost since the last hear_next() */
	bool have_seq;
	unsigned long long seq; /* the kernel's uevent_seqnum after the last read */
};

/* Reads what the socket holds, as much as the queue takes (about
 * settings.queue_limit events: a thread waiting on the queue counts
 * against its length), a message at a time under the lock */
static void hear_drain(struct hear *h)
{
	while (g_async_queue_length(h->heard) < settings.queue_limit) {
		bool overflow, more = true;
		struct event *e;

		g_mutex_lock(&h->lock);
		errno = 0;
		e = netlink_receive(h->nl, &overflow);
		if (e) {
			e->heard = g_get_monotonic_time();
			g_async_queue_push(h->heard, e);
		} else if (overflow) {
			h->lost = true;
		} else if (errno != 0) { /* EAGAIN: all read */
			more = false;
		} /* else not the kernel's */
		g_mutex_unlock(&h->lock);
		if (!more)
			break;
	}
	g_mutex_lock(&h->lock);
	h->have_seq = kernel_seqnum(&h->seq);
	g_mutex_unlock(&h->lock);
}

static gpointer hear_thread(gpointer data)
{
	struct hear *h = data;

	for (;;) {
		/* a full queue: the socket keeps the rest until coldplug takes some */
		bool full = g_async_queue_length(h->heard) >= settings.queue_limit;
		struct pollfd p[2] = { { .fd = h->stop, .events = POLLIN }, { .fd = full ? -1 : h->nl, .events = POLLIN } };

		if (poll(p, 2, full ? 20 : -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			break;
		if (p[1].revents)
			hear_drain(h);
	}
	return NULL;
}

static void event_free_fn(gpointer e)
{
	event_free(e);
}

struct hear *hear_start(int nl)
{
	struct hear *h = g_new0(struct hear, 1);

	h->nl = nl;
	h->heard = g_async_queue_new_full(event_free_fn);
	g_mutex_init(&h->lock);
	h->have_seq = kernel_seqnum(&h->seq);
	h->stop = eventfd(0, EFD_CLOEXEC);
	if (h->stop >= 0)
		h->thread = g_thread_try_new("hear", hear_thread, h, NULL);
	if (!h->thread) {
		hear_stop(h);
		return NULL;
	}
	return h;
}

void hear_stop(struct hear *h)
{
	if (!h)
		return;
	if (h->thread) {
		eventfd_write(h->stop, 1);
		g_thread_join(h->thread);
	}
	if (h->stop >= 0)
		close(h->stop);
	g_async_queue_unref(h->heard);
	g_mutex_clear(&h->lock);
	g_free(h);
}

struct event *hear_next(struct hear *h, gint64 until, bool *lost)
{
	gint64 now = g_get_monotonic_time();
	struct event *e;

	*lost = false;
	if (!h) { /* nothing to hear: the while passes */
		if (until > now)
			g_usleep((gulong)(until - now));
		return NULL;
	}
	e = until > now ? g_async_queue_timeout_pop(h->heard, (guint64)(until - now)) : g_async_queue_try_pop(h->heard);
	g_mutex_lock(&h->lock);
	*lost = h->lost;
	h->lost = false;
	g_mutex_unlock(&h->lock);
	return e;
}

bool hear_quiet(struct hear *h, bool *moved)
{
	struct pollfd p;
	unsigned long long now_seq;
	bool quiet;

	*moved = false;
	if (!h)
		return true;
	p = (struct pollfd){ .fd = h->nl, .events = POLLIN };
	g_mutex_lock(&h->lock);
	quiet = g_async_queue_length(h->heard) == 0 && poll(&p, 1, 0) == 0 && !h->lost;
	*moved = quiet && h->have_seq && kernel_seqnum(&now_seq) && now_seq != h->seq;
	g_mutex_unlock(&h->lock);
	return quiet;
}
