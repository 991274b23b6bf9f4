/*
 * switch-cost.c - what a context switch costs a profiled thread.  At
 * every switch the kernel stops and restarts the thread's events; a
 * software clock (task-clock, cpu-clock) cancels and re-arms a timer,
 * which in a virtual machine exits to the host.  On the development VM
 * that made a switch about 4 us longer, far more than the samples
 * themselves cost a rank that waits with sched_yield on shared cores
 * (docs/compensation.md).  Overhead compensation charges it per switch.
 *
 * Measured by two threads of our own that take turns on one CPU with
 * sched_yield: BATCHES batches of TURNS round trips without events, then
 * as many with the run's events opened for both (no ring: their samples
 * are dropped, so this is the switch alone).  With events the batches
 * spread widely (3.5 to 15 us a round trip on the VM, against a steady
 * 2.1 without): the mean of the middle half of each kind keeps that spread
 * and drops what other threads on that CPU added.  Half the difference
 * per round trip is the cost of one switch of one thread (a round trip
 * switches each thread out and in once).
 *
 * Ranks that share a host would disturb each other's measurement (their
 * threads take turns on the same CPUs), so one rank of a host measures
 * while the others wait for its result (host-cost.c).
 */
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../common/order.h"
#include "rt.h"

#define BATCHES 16
#define TURNS 32

struct pingpong {
	const struct rt_state *rt;
	int cpu;
	bool events;		/* open the run's events in each thread */
	atomic_int turn;	/* whose turn: 0 or 1; -1 stop (a thread failed) */
	atomic_int ready;	/* threads that are set up */
	uint64_t batch[BATCHES];	/* thread 0: each batch's time, ns */
	int nbatch;
	atomic_int err;		/* -errno of a thread that could not start */
};

struct side {
	struct pingpong *pp;
	int me;
};


/* Wait for my turn (false: the other side gave up), then hand it over. */
static bool take_turn(struct pingpong *pp, int me)
{
	int t;

	while ((t = atomic_load_explicit(&pp->turn, memory_order_acquire)) != me)
		if (t < 0)
			return false;
		else
			sched_yield();
	atomic_store_explicit(&pp->turn, !me, memory_order_release);
	return true;
}

static void *side_run(void *arg)
{
	struct side *s = arg;
	struct pingpong *pp = s->pp;
	int fds[EV_MAX], err = 0;

	if (!rt_pin_to_cpu(pp->cpu))
		err = -errno;
	else if (pp->events)
		err = rt_events_open_bare(pp->rt, fds, 0);
	if (err) {
		atomic_store(&pp->err, err);
		atomic_store(&pp->turn, -1);
		return NULL;
	}
	atomic_fetch_add(&pp->ready, 1);
	while (atomic_load(&pp->ready) < 2 && atomic_load(&pp->turn) >= 0)
		sched_yield();
	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0 = rt_now_ns();
		int i;

		for (i = 0; i < TURNS && take_turn(pp, s->me); i++)
			;
		if (i < TURNS)
			break;
		if (s->me == 0)
			pp->batch[pp->nbatch++] = rt_now_ns() - t0;
	}
	if (pp->events)
		rt_events_close_bare(pp->rt, fds, pp->rt->events.n);
	return NULL;
}

/* A batch of TURNS round trips, ns: the mean of the middle half, 0 when
 * it could not run. */
static uint64_t fastest_batch(const struct rt_state *rt, int cpu, bool events)
{
	struct pingpong pp = { .rt = rt, .cpu = cpu, .events = events };
	struct side sides[2] = { { &pp, 0 }, { &pp, 1 } };
	pthread_t th[2];
	uint64_t sum = 0;
	int n = 0;

	atomic_init(&pp.turn, 0);
	atomic_init(&pp.ready, 0);
	atomic_init(&pp.err, 0);
	for (; n < 2; n++)
		if (rt_real_pthread_create(&th[n], NULL, side_run, &sides[n]))
			break;
	if (n < 2)
		atomic_store(&pp.turn, -1);
	while (n > 0)
		pthread_join(th[--n], NULL);
	if (atomic_load(&pp.err) || atomic_load(&pp.turn) < 0 || pp.nbatch < BATCHES)
		return 0;
	qsort(pp.batch, BATCHES, sizeof(pp.batch[0]), cmp_u64);
	for (int i = BATCHES / 4; i < BATCHES - BATCHES / 4; i++)
		sum += pp.batch[i];
	return sum / (BATCHES - 2 * (BATCHES / 4));
}

uint64_t rt_switch_cost_ns(const struct rt_state *rt)
{
	int cpu = sched_getcpu();
	uint64_t bare, with;

	if (rt->opt.backend != BACKEND_PERF || rt->events.n <= 0 || cpu < 0)
		return 0;
	bare = fastest_batch(rt, cpu, false);
	with = fastest_batch(rt, cpu, true);
	if (!bare || !with || with <= bare)
		return 0;
	return (with - bare) / TURNS / 2;
}
