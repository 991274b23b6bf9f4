/*
 * sample-cost.c - what one sample costs the sampled thread.  Each sample
 * is an interrupt of the thread; with a software clock the kernel also
 * re-arms a timer, which in a virtual machine exits to the host.  On the
 * development VM that made a sample about 45 us of the thread's time, not
 * the couple of microseconds of bare metal (docs/compensation.md), so the
 * cost is measured where the run is, for overhead compensation.
 *
 * A thread of our own, pinned to the calling CPU, runs PAIRS pairs of
 * batches of the same fixed work: one without events, one with the run's
 * events opened bare (no ring), the leader sampling every CAL_PERIOD_NS
 * of the thread's time; about 10 ms in all on the development VM.  The
 * median of the pairs' differences over the samples of a batch (the
 * leader's count over the period) is the interrupt's cost; while the
 * host's noise makes it negative it is measured again, up to TRIES times,
 * as the fallback estimate is far below a VM's cost.  The copy of the user
 * stack, which the kernel skips without a ring, is added as estimated
 * (COPY_NS per 16 KiB in dwarf mode).  Events are opened once
 * and enabled for the sampled batches only, with a period, not a
 * frequency: closing an event can wait for an RCU grace period, and a
 * frequency starts again from a period of 1 at every enable, a storm of
 * interrupts until the kernel's next tick adjusts it.  Only the software
 * clocks are measured: their period is a time; a PMU's interrupt costs
 * about a microsecond, the estimate.
 */
#include <linux/perf_event.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "rt.h"

#define PAIRS 5
#define TRIES 3		/* sets of pairs until the median is positive */
#define CAL_PERIOD_NS 100000	/* 10 000 samples per second while measuring */
#define BATCH_NS 500000		/* a batch's work without events */
#define COPY_NS 1500		/* copying 16 KiB of stack, development VM */

struct calibration {
	const struct rt_state *rt;
	int cpu;
	uint64_t cost;		/* ns per sample; 0 when not measured */
};

/*
 * One instance of the work for every batch, its loop placed the same in
 * every build: inlined, the batches with and without events ran copies
 * of the loop at different addresses, and where one copy crossed a
 * 64-byte line it ran at half the speed of the other on an AMD EPYC VM
 * (measured 59 us a sample where continuous sampling costs 12-16 us).
 */
__attribute__((noinline, aligned(64))) static uint64_t work(uint64_t iters)
{
	volatile uint64_t x = 0;

	for (uint64_t i = 0; i < iters; i++)
		x += i * 2654435761u;
	return x;
}

static uint64_t timed_work(uint64_t iters)
{
	uint64_t t0 = rt_now_ns();

	work(iters);
	return rt_now_ns() - t0;
}

/* Iterations of work() that take about BATCH_NS here. */
static uint64_t batch_iters(void)
{
	uint64_t iters = 1 << 12, t;

	while ((t = timed_work(iters)) < BATCH_NS / 4 && iters < (UINT64_C(1) << 40))
		iters *= 2;
	return t ? iters * BATCH_NS / t : iters;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The run's events opened for the calling thread, the leader sampling
 * every CAL_PERIOD_NS, disabled; false when they cannot be. */
static bool open_calibration_events(const struct rt_state *rt, int *fds)
{
	if (rt_events_open_bare(rt, fds, CAL_PERIOD_NS))
		return false;
	if (ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP)) {
		rt_events_close_bare(rt, fds, rt->events.n);
		return false;
	}
	return true;
}

/* The leader's count (group read format: nr, then value and id each). */
static uint64_t leader_count(int leader)
{
	uint64_t buf[2 + 2 * EV_MAX];

	return read(leader, buf, sizeof(buf)) >= (ssize_t)(3 * sizeof(uint64_t)) ? buf[1] : 0;
}

/* A batch with sampling on: its time, and the samples it took in *n. */
static uint64_t sampled_batch(int leader, uint64_t iters, uint64_t *n)
{
	uint64_t c0 = leader_count(leader), t;

	ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	t = timed_work(iters);
	ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	*n = (leader_count(leader) - c0) / CAL_PERIOD_NS;
	return t;
}

/* The median over PAIRS pairs of the extra time per sample taken; <= 0
 * when the host's noise outweighed the samples' cost. */
static int64_t median_cost(int leader, uint64_t iters)
{
	int64_t per[PAIRS];
	uint64_t bare, with, n;

	for (int i = 0; i < PAIRS; i++) {
		bare = timed_work(iters);
		with = sampled_batch(leader, iters, &n);
		per[i] = n ? ((int64_t)with - (int64_t)bare) / (int64_t)n : 0;
	}
	qsort(per, PAIRS, sizeof(per[0]), cmp_i64);
	return per[PAIRS / 2];
}

static void *calibrate(void *arg)
{
	struct calibration *c = arg;
	int fds[EV_MAX];
	uint64_t iters;

	if (!rt_pin_to_cpu(c->cpu) || !open_calibration_events(c->rt, fds))
		return NULL;
	iters = batch_iters();
	for (int i = 0; i < TRIES && !c->cost; i++) {
		int64_t m = median_cost(fds[0], iters);

		if (m > 0)
			c->cost = (uint64_t)m;
	}
	rt_events_close_bare(c->rt, fds, c->rt->events.n);
	return NULL;
}

/* task-clock or cpu-clock: a period is a time */
static bool software_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

uint64_t rt_stack_copy_ns(const struct rt_options *o)
{
	return o->call_graph == CG_DWARF ? (uint64_t)o->stack_size * COPY_NS / 16384 : 0;
}

uint64_t rt_sample_cost_ns(const struct rt_state *rt)
{
	struct calibration c = { .rt = rt, .cpu = sched_getcpu() };
	pthread_t th;

	if (rt->opt.backend != BACKEND_PERF || rt->events.n <= 0 ||
	    !software_clock(&rt->events.ev[0].attr) || c.cpu < 0)
		return 0;
	if (rt_real_pthread_create(&th, NULL, calibrate, &c))
		return 0;
	pthread_join(th, NULL);
	if (!c.cost)
		return 0;
	return c.cost + rt_stack_copy_ns(&rt->opt);
}
