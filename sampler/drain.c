/*
 * drain.c - the drain thread: waits on every thread's ring buffer (woken by
 * the kernel at the watermark, or by rt_drain_wake), folds the records into
 * the profile, closes the events of threads that have exited, and (MPI
 * runtimes) symbolizes the call paths of new MPI call sites.  It is
 * the only thread that touches ring buffers and the profile, and it is
 * never sampled itself.  Its CPU time competes with the application only
 * when the cores are all busy.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "rt.h"
#include "sched-counts.h"

/*
 * How long the drain thread sleeps when no ring reaches its watermark:
 * the latency of folding at low rates.  At the default rate a ring is half
 * full after about 60 samples (2 MiB of 16 KiB stacks), so a shorter
 * timeout, not the watermark, would set the pace: each wake-up costs a
 * busy core a switch and the fold a cold cache (docs/record.md).
 */
#define DRAIN_TIMEOUT_MS 250

struct drain_ctx {
	struct rt_state *rt;
	struct rt_thread *t;
};


static void on_record(void *arg, const struct perf_event_header *h)
{
	struct drain_ctx *c = arg;

	rt_aggregate_record(c->rt, c->t, h);
}

/*
 * Fold a thread's new records, timing the batch in the drain thread's CPU
 * time: the profile's unwinding time.  Timed per batch, not per sample: a
 * thread's CPU clock is a system call (1.6 us on a VM), so two reads per
 * sample cost more than a warm unwind, and one of them counted in it.
 */
static void drain_thread_ring(struct rt_state *rt, struct rt_thread *t)
{
	struct drain_ctx c = { rt, t };
	uint64_t t0;

	if (!ring_pending(&t->ring))
		return;
	t0 = rt_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	ring_drain(&t->ring, on_record, &c, rt->bounce);
	rt->prof.unwind_ns += rt_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
}

/* Move exited threads to the retired list after a last drain. */
static void retire_exited(struct rt_state *rt)
{
	rt_lock(&rt->lock);
	for (struct rt_thread **p = &rt->threads; *p;) {
		struct rt_thread *t = *p;

		if (atomic_load(&t->state) != THREAD_EXITED) {
			p = &t->next;
			continue;
		}
		drain_thread_ring(rt, t);
		rt_thread_close(t);
		*p = t->next;
		t->next = rt->retired;
		rt->retired = t;
	}
	rt_unlock(&rt->lock);
}

/*
 * Drain every ring once.  Threads are only added at the head of the list
 * and only this thread unlinks them, so the list can be walked from a head
 * read under the lock.
 */
static void drain_all(struct rt_state *rt)
{
	const struct rt_hooks *hooks = rt_hooks(rt);
	struct rt_thread *head;
	bool checkpoint;

	rt_lock(&rt->agg_lock);
	rt_lock(&rt->lock);
	head = rt->threads;
	rt_unlock(&rt->lock);
	for (struct rt_thread *t = head; t; t = t->next)
		drain_thread_ring(rt, t);
	retire_exited(rt);
	if (hooks && hooks->resolve)
		hooks->resolve(rt);
	checkpoint = rt_checkpoint_start(rt);
	rt_unlock(&rt->agg_lock);
	if (checkpoint)
		rt_checkpoint_commit(rt);
}

void rt_drain_self(struct rt_state *rt)
{
	struct rt_thread *t = rt_thread_self();

	if (!t || !rt || atomic_load(&rt->stop))
		return;
	rt_lock(&rt->agg_lock);
	drain_thread_ring(rt, t);
	rt_unlock(&rt->agg_lock);
}

uint64_t rt_samples_pending_self(const struct rt_state *rt)
{
	struct rt_thread *t = rt_thread_self();

	if (!t || !rt || atomic_load_explicit(&rt->stop, memory_order_relaxed))
		return 0;
	return ring_samples_pending(&t->ring);
}

/* The final profile rt_end_async asked for: no more samples, the rest
 * folded, written while no thread folds its own. */
static void end_now(struct rt_state *rt)
{
	rt_lock(&rt->lock);
	for (struct rt_thread *t = rt->threads; t; t = t->next)
		rt_thread_enable(t, false);
	rt_unlock(&rt->lock);
	atomic_store(&rt->stop, true);
	drain_all(rt);
	rt_lock(&rt->agg_lock);
	rt->prof.drain_cpu_ns = rt_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	rt_write_final(rt, rt->end_reason);
	rt_unlock(&rt->agg_lock);
	rt_end_wait_peers(rt);
	rt_end_written(rt);
}

/* What the drain thread polls: the wake fd, then one ring fd per thread,
 * with the thread it belongs to (threads are only freed by this thread, so
 * the pointers stay valid while it polls). */
struct pollset {
	struct pollfd *fds;
	struct rt_thread **who;
	nfds_t n, cap;
};

static void build_pollset(struct rt_state *rt, struct pollset *ps)
{
	nfds_t want = 1;

	rt_lock(&rt->lock);
	for (struct rt_thread *t = rt->threads; t; t = t->next)
		want++;
	if (want > ps->cap) {
		struct pollfd *f = realloc(ps->fds, want * sizeof(*f));
		struct rt_thread **w = f ? realloc(ps->who, want * sizeof(*w)) : NULL;

		if (f)
			ps->fds = f;
		if (w) {
			ps->who = w;
			ps->cap = want;
		}
	}
	ps->n = 0;
	if (ps->cap) {
		ps->fds[ps->n++] = (struct pollfd){ .fd = rt->wake_fd, .events = POLLIN };
		for (struct rt_thread *t = rt->threads; t && ps->n < ps->cap; t = t->next) {
			if (t->fds[0] < 0)	/* PAPI threads have no fd: drained on the timeout */
				continue;
			ps->who[ps->n] = t;
			ps->fds[ps->n++] = (struct pollfd){ .fd = t->fds[0], .events = POLLIN };
		}
	}
	rt_unlock(&rt->lock);
}

/* A thread opened by id that has ended hangs up its event. */
static void mark_hung_up(const struct pollset *ps)
{
	for (nfds_t i = 1; i < ps->n; i++)
		if (ps->fds[i].revents & POLLHUP)
			atomic_store(&ps->who[i]->state, THREAD_EXITED);
}

static void *drain_main(void *arg)
{
	struct rt_state *rt = arg;
	struct pollset ps = { 0 };

	while (!atomic_load(&rt->stop)) {
		uint64_t v;

		build_pollset(rt, &ps);
		if (poll(ps.fds, ps.n, DRAIN_TIMEOUT_MS) > 0) {
			if (ps.fds[0].revents & POLLIN)
				(void)!read(rt->wake_fd, &v, sizeof(v));
			mark_hung_up(&ps);
		}
		if (atomic_load(&rt->end) == RT_END_ASKED) {
			end_now(rt);
			break;
		}
		drain_all(rt);
		atomic_store_explicit(&rt->drain_cpu, rt_clock_ns(CLOCK_THREAD_CPUTIME_ID), memory_order_relaxed);
		atomic_store_explicit(&rt->drain_switches, sched_counts_now().switches, memory_order_relaxed);
	}
	free(ps.fds);
	free(ps.who);
	if (atomic_load(&rt->end) == RT_END_WRITTEN)
		return NULL;
	drain_all(rt);
	rt->prof.drain_cpu_ns = rt_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

void rt_drain_wake(struct rt_state *rt)
{
	uint64_t one = 1;

	if (rt->wake_fd >= 0)
		(void)!write(rt->wake_fd, &one, sizeof(one));
}

int rt_drain_start(struct rt_state *rt)
{
	sigset_t all, old;
	int err;

	rt->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	rt->bounce = malloc(1 << 16);
	if (rt->wake_fd < 0 || !rt->bounce)
		return -1;
	atomic_store(&rt->stop, false);
	/* The application's signals must never be delivered to our thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = rt_real_pthread_create(&rt->drain, NULL, drain_main, rt);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err ? -1 : 0;
}

void rt_drain_stop(struct rt_state *rt)
{
	atomic_store(&rt->stop, true);
	rt_drain_wake(rt);
	pthread_join(rt->drain, NULL);
	close(rt->wake_fd);
	rt->wake_fd = -1;
	free(rt->bounce);
	rt->bounce = NULL;
}
