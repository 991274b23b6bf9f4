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
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "rt.h"
#include "sched-counts.h"

/*
 * How long the drain thread sleeps when no ring reaches its watermark:
 * the latency of folding at low rates.  At the default rate a ring is half
 * full after about 30 samples (1 MiB of 16 KiB stacks), so a shorter
 * timeout, not the watermark, would set the pace: each wake-up costs a
 * busy core a switch and the fold a cold cache (docs/record.md).
 */
#define DRAIN_TIMEOUT_MS 250
/* How often every descriptor is checked for being still ours, besides
 * those poll flags (owned-fd.h). */
#define FD_CHECK_NS 1000000000ull
/* How long the drain thread keeps a young thread's pace after it */
#define TIMER_KEPT_NS 1000000000ull

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

	rt_aggregate_settle(rt, t);
	if (!t->ring || !ring_pending(rt_thread_ring(t)))
		return;
	t0 = rt_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	ring_drain(rt_thread_ring(t), on_record, &c, rt->bounce);
	rt->prof.unwind_ns += rt_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
}

/* Move exited threads to the retired list after a last drain; their
 * rings are unmapped without rt->lock, which threads that begin take.
 * agg_lock held: readers of the totals (checkpoints) do not run. */
static void retire_exited(struct rt_state *rt)
{
	struct rt_thread *gone = NULL, *last = NULL;

	rt_lock(&rt->lock);
	for (struct rt_thread **p = &rt->threads; *p;) {
		struct rt_thread *t = *p;

		if (atomic_load(&t->state) != THREAD_EXITED) {
			p = &t->next;
			continue;
		}
		*p = t->next;
		t->next = gone;
		gone = t;
	}
	rt_unlock(&rt->lock);
	for (struct rt_thread *t = gone; t; t = t->next) {
		drain_thread_ring(rt, t);
		act_thread_end(t->act, atomic_load(&t->died));
		rt_thread_close(rt, t);
		if (t->timed)
			atomic_fetch_sub(&rt->timed, 1);
		last = t;
	}
	if (!gone)
		return;
	rt_lock(&rt->lock);
	last->next = rt->retired;
	rt->retired = gone;
	rt_unlock(&rt->lock);
}

void rt_thread_come_of_age(struct rt_state *rt, struct rt_thread *t)
{
	if (t->grow_to)
		rt_thread_grow(rt, t);
	t->timed = false;
	atomic_fetch_sub(&rt->timed, 1);
}

/*
 * Drain every ring once.  Threads are only added at the head of the list
 * and only this thread unlinks them, so the list can be walked from a head
 * read under the lock.  Every sample taken before the pass began is then
 * in: the thread activity judges those it can.
 */
static void drain_all(struct rt_state *rt)
{
	const struct rt_hooks *hooks = rt_hooks(rt);
	uint64_t began = rt_now_ns();
	struct rt_thread *head;
	bool checkpoint;

	rt_lock(&rt->agg_lock);
	rt_lock(&rt->lock);
	head = rt->threads;
	rt_unlock(&rt->lock);
	for (struct rt_thread *t = head; t; t = t->next) {
		if (!t->act)
			t->act = act_thread_new(&rt->act, t->born, !t->service);
		drain_thread_ring(rt, t);
		if (t->timed && rt_now_ns() - t->born >= RT_GROW_NS)
			rt_thread_come_of_age(rt, t);
	}
	retire_exited(rt);
	act_resolve(&rt->act, began);
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

void rt_thread_retire_self(struct rt_state *rt, struct rt_thread *t)
{
	drain_thread_ring(rt, t);
	rt_thread_close(rt, t);
}

uint64_t rt_samples_pending_self(const struct rt_state *rt)
{
	struct rt_thread *t = rt_thread_self();

	if (!t || !rt || atomic_load_explicit(&rt->stop, memory_order_relaxed))
		return 0;
	return ring_samples_pending(rt_thread_ring(t));
}

/* The final profile rt_end_async asked for: no more samples, the rest
 * folded, written while no thread folds its own. */
static void end_now(struct rt_state *rt)
{
	rt_lock(&rt->lock);
	for (struct rt_thread *t = rt->threads; t; t = t->next)
		rt_thread_stop(t);
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

/* What the drain thread polls: the wake socket, then one ring fd per
 * thread, with the thread it belongs to (threads are only freed by this
 * thread, so the pointers stay valid while it polls); and how long to
 * wait when none wakes it. */
struct pollset {
	struct pollfd *fds;
	struct rt_thread **who;
	nfds_t n, cap;
	int timeout_ms;
};

/* A young thread, or one whose descriptor the program took, has no
 * watermark wake-up: its ring is drained on a timer, at half the time it
 * takes to fill (1 ms at the least). */
static int timer_for(const struct rt_state *rt, const struct rt_thread *t, int timeout)
{
	uint64_t half;

	if ((t->fds[0] >= 0 && !t->timed) || t->papi || !t->ring)
		return timeout;
	half = ring_plan_fill_ms(&t->plan, &rt->opt) / 2;
	return half < (uint64_t)timeout ? (half ? (int)half : 1) : timeout;
}

/* A pace set by timed threads outlives them by TIMER_KEPT_NS. */
static void keep_timer(struct rt_state *rt, struct pollset *ps)
{
	uint64_t now = rt_now_ns();

	if (atomic_load(&rt->timed) && ps->timeout_ms < DRAIN_TIMEOUT_MS) {
		rt->timer_ms = ps->timeout_ms;
		atomic_store(&rt->timer_until, now + TIMER_KEPT_NS);
	} else if (now < atomic_load(&rt->timer_until) && rt->timer_ms < ps->timeout_ms) {
		ps->timeout_ms = rt->timer_ms;
	}
}

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
	ps->timeout_ms = DRAIN_TIMEOUT_MS;
	if (ps->cap) {
		ps->fds[ps->n++] = (struct pollfd){ .fd = atomic_load(&rt->wake)->fd, .events = POLLIN };
		for (struct rt_thread *t = rt->threads; t && ps->n < ps->cap; t = t->next) {
			ps->timeout_ms = timer_for(rt, t, ps->timeout_ms);
			if (t->fds[0] < 0 || t->timed)	/* PAPI threads have no fd: drained on the timeout */
				continue;
			ps->who[ps->n] = t;
			ps->fds[ps->n++] = (struct pollfd){ .fd = t->fds[0], .events = POLLIN };
		}
	}
	rt_unlock(&rt->lock);
	keep_timer(rt, ps);
}

/* The program closed or replaced descriptors of ours: say so once. */
static void say_fds_taken(struct rt_state *rt)
{
	if (rt->fds_said)
		return;
	rt->fds_said = true;
	rt_notice(rt, "the program closed or reused descriptors of cpperf's (as closefrom() does): "
		  "cpperf opened new ones where it can; threads whose event descriptors went are "
		  "sampled on, their rings drained on a timer (docs/record.md#descriptors)");
}

/* A datagram socket connected to itself, kept high: what wakes the drain
 * thread.  Its name is abstract (nothing in the file system).  0 or -1. */
static int wake_open(struct owned_fd *o)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t len = sizeof(sa_family_t);	/* bind without a name: autobind */
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	*o = OWNED_FD_NONE;
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&a, len) || (len = sizeof(a), getsockname(fd, (struct sockaddr *)&a, &len)) ||
	    connect(fd, (struct sockaddr *)&a, len)) {
		close(fd);
		return -1;
	}
	return ofd_keep(o, fd) < 0 ? -1 : 0;
}

/* The wake socket is no longer ours: a new one in the other slot.  The
 * old slot is left as it is for wakers that still read it (they find it
 * not theirs), until the next renewal. */
static void wake_renew(struct rt_state *rt)
{
	struct owned_fd *old = atomic_load(&rt->wake);
	struct owned_fd *next = old == &rt->wake_slot[0] ? &rt->wake_slot[1] : &rt->wake_slot[0];

	say_fds_taken(rt);
	wake_open(next);
	atomic_store(&rt->wake, next);
}

/* Empty the wake socket, or replace it when it is no longer ours. */
static void take_wakes(struct rt_state *rt)
{
	const struct owned_fd *w = atomic_load(&rt->wake);
	char buf[64];

	if (!ofd_mine(w)) {
		wake_renew(rt);
		return;
	}
	while (recv(w->fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

/* Forget the descriptors of t that the program took. */
static void check_thread(struct rt_state *rt, struct rt_thread *t)
{
	if (rt_thread_fds_mine(t))
		return;
	rt_thread_forget_fds(t);
	say_fds_taken(rt);
}

/*
 * What poll said of each thread's descriptor.  A hang-up from our event
 * means its thread (opened by id) ended; anything the ring cannot explain
 * (an invalid descriptor, an error, input with no records) may be the
 * program's file at our number, checked before it is believed.
 */
static void look_at_polled(struct rt_state *rt, const struct pollset *ps)
{
	if (ps->fds[0].revents)
		take_wakes(rt);
	for (nfds_t i = 1; i < ps->n; i++) {
		struct rt_thread *t = ps->who[i];
		short ev = ps->fds[i].revents;

		if (!(ev & (POLLNVAL | POLLERR | POLLHUP)) && !((ev & POLLIN) && !ring_pending(rt_thread_ring(t))))
			continue;
		check_thread(rt, t);
		if ((ev & POLLHUP) && t->fds[0] >= 0)
			atomic_store(&t->state, THREAD_EXITED);
	}
}

/* Once a second, every descriptor: the program may have taken one that
 * poll has no reason to flag. */
static void check_all_fds(struct rt_state *rt)
{
	struct rt_thread *head;

	if (rt_now_ns() < rt->next_fd_check)
		return;
	rt->next_fd_check = rt_now_ns() + FD_CHECK_NS;
	if (!ofd_mine(atomic_load(&rt->wake)))
		wake_renew(rt);
	if (!rt_live_check(rt))
		say_fds_taken(rt);
	rt_lock(&rt->lock);
	head = rt->threads;
	rt_unlock(&rt->lock);
	for (struct rt_thread *t = head; t; t = t->next)
		check_thread(rt, t);
}

/* The drain thread's CPU time and context switches so far, for the
 * compensation to charge (pmpi/compensate.c): read at most every 10 ms,
 * as each read is a few system calls and a program that starts threads
 * all the time wakes this thread for each. */
static void publish_costs(struct rt_state *rt, uint64_t *next)
{
	const struct rt_hooks *hooks;
	uint64_t now = rt_now_ns();

	if (now < *next)
		return;
	*next = now + 10000000ull;
	atomic_store_explicit(&rt->drain_cpu, rt_clock_ns(CLOCK_THREAD_CPUTIME_ID), memory_order_relaxed);
	atomic_store_explicit(&rt->drain_switches, sched_switches_now(), memory_order_relaxed);
	if ((hooks = rt_hooks(rt)) && hooks->published)
		hooks->published(rt);
}

static void *drain_main(void *arg)
{
	struct rt_state *rt = arg;
	struct pollset ps = { 0 };
	uint64_t next_publish = 0;

	while (!atomic_load(&rt->stop)) {
		build_pollset(rt, &ps);
		if (poll(ps.fds, ps.n, ps.timeout_ms) > 0)
			look_at_polled(rt, &ps);
		check_all_fds(rt);
		if (atomic_load(&rt->end) == RT_END_ASKED) {
			end_now(rt);
			break;
		}
		drain_all(rt);
		rt_cost_probe_step(rt);
		publish_costs(rt, &next_publish);
	}
	rt_cost_probe_end(rt);
	free(ps.fds);
	free(ps.who);
	if (atomic_load(&rt->end) == RT_END_WRITTEN)
		return NULL;
	drain_all(rt);
	rt->prof.drain_cpu_ns = rt_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

/* Async-signal-safe: an atomic load, fstat(2) and send(2).  A full
 * socket means a wake-up is pending already. */
void rt_drain_wake(struct rt_state *rt)
{
	const struct owned_fd *w = atomic_load(&rt->wake);
	char one = 1;

	if (w && ofd_mine(w))
		(void)!send(w->fd, &one, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
}

int rt_drain_start(struct rt_state *rt)
{
	sigset_t all, old;
	int err;

	if (wake_open(&rt->wake_slot[0]))
		return -1;
	atomic_store(&rt->wake, &rt->wake_slot[0]);
	rt->bounce = malloc(1 << 16);
	if (!rt->bounce)
		return -1;
	atomic_store(&rt->stop, false);
	rt->fds_said = false;
	rt->next_fd_check = 0;
	/* The application's signals must never be delivered to our thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = rt_real_pthread_create(&rt->drain, NULL, drain_main, rt);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err ? -1 : 0;
}

void rt_wake_close(struct rt_state *rt)
{
	struct owned_fd *w = atomic_exchange(&rt->wake, NULL);

	if (w)
		ofd_release(w);
}

void rt_drain_stop(struct rt_state *rt)
{
	atomic_store(&rt->stop, true);
	rt_drain_wake(rt);
	pthread_join(rt->drain, NULL);
	rt_wake_close(rt);
	free(rt->bounce);
	rt->bounce = NULL;
}
