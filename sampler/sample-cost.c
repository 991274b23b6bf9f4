/*
 * sample-cost.c - what one sample costs the sampled thread.  Each sample
 * is an interrupt of the thread; with a software clock the kernel also
 * re-arms a timer, which in a virtual machine exits to the host.  On the
 * development VM that made a sample about 45 us of the thread's time, not
 * the couple of microseconds of bare metal (docs/compensation.md), so the
 * cost is measured where the run is, for overhead compensation, at the
 * start and then all along the run.
 *
 * A probe is a pair of batches of the same fixed work on the calling
 * thread: one without events, one with the run's events opened bare (no
 * ring), the leader sampling every PROBE_PERIOD_NS of the thread's time.
 * The pair's extra time over the samples the sampled batch took (the
 * leader's count over the period) is one measurement.  A pair during which
 * the thread was switched out is rejected: another thread or process had
 * its CPU, and that time is no sample's.  What a busy host leaves
 * (preemptions of the virtual CPU, which the guest cannot see) spreads the
 * measurements both ways, and their median is the cost.
 *
 * At MPI_Init a thread of our own, pinned to the calling CPU, takes up to
 * START_PAIRS pairs and stops at START_GOOD accepted (about 7 ms on the
 * development VM); with fewer than START_LEAST accepted the host is too
 * busy to say, and the cost is not measured (0).  During the run the drain
 * thread takes a pair every PROBE_EVERY_NS, the first ten a tenth of that
 * apart (rt_cost_probe_*), and the median of its last PROBE_KEPT accepted
 * ones replaces the start's once there are START_LEAST: a host's cost
 * drifts (repeated measurements at the start of runs minutes apart on the
 * development VM: 15-18 us, then 25-31 us a sample).  Without a ring the
 * kernel writes no record, and in dwarf mode copies no stack: what the
 * record adds is measured once at MPI_Init (rt_ring_cost_ns), by triples
 * of batches, bare, sampled, and sampled into a ring nobody reads (9.7 to
 * 11.1 us on the development VM, 16 KiB stacks), and estimated as
 * COPY_NS per 16 KiB where no ring can be mapped.  Events are opened once and enabled for the sampled batches
 * only, with a period, not a frequency: closing an event can wait for an
 * RCU grace period, and a frequency starts again from a period of 1 at
 * every enable, a storm of interrupts until the kernel's next tick
 * adjusts it.  Only the software clocks are measured: their period is a
 * time; a PMU's interrupt costs about a microsecond, the estimate.
 */
#include <linux/perf_event.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rt.h"

#define START_PAIRS 24	/* pairs at most at the start... */
#define START_GOOD 7	/* ...stopping at this many accepted */
#define START_LEAST 5	/* fewer accepted: the host is too busy to say */
#define PROBE_PERIOD_NS 100000	/* 10 000 samples per second while measuring */
#define BATCH_NS 500000		/* a batch's work without events */
#define COPY_NS 1500		/* copying 16 KiB of stack: the estimate */
#define RING_PAGES 32		/* 128 KiB: a batch's samples with 16 KiB stacks */
#define PROBE_EVERY_NS 1000000000ull	/* a pair of the drain thread's */

struct calibration {
	const struct rt_state *rt;
	int cpu;
	bool ringed;		/* measure what a ring adds, not the interrupt */
	int fds[EV_MAX];	/* the run's events, bare */
	int rfds[EV_MAX];	/* ...and again, the leader's samples into ring */
	struct ring ring;
	uint64_t iters;
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
 * every PROBE_PERIOD_NS, disabled; false when they cannot be. */
static bool open_probe_events(const struct rt_state *rt, int *fds)
{
	if (rt_events_open_bare(rt, fds, PROBE_PERIOD_NS))
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
	*n = (leader_count(leader) - c0) / PROBE_PERIOD_NS;
	return t;
}

/* The calling thread's context switches so far, of both kinds. */
static uint64_t switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
}

/* A pair of batches: the bare one's time, the sampled one's and its
 * samples. */
struct pair {
	uint64_t bare, with, n;
};

/* One pair into *p; false when the thread was switched out during it
 * (or the sampled batch took no sample). */
static bool probe_pair(int leader, uint64_t iters, struct pair *p)
{
	uint64_t sw = switches();

	p->bare = timed_work(iters);
	p->with = sampled_batch(leader, iters, &p->n);
	return p->n && switches() == sw;
}

/* A pair's extra time per sample taken. */
static int64_t pair_cost(const struct pair *p)
{
	return ((int64_t)p->with - (int64_t)p->bare) / (int64_t)p->n;
}

/* A triple of batches: bare, sampled, and sampled into a ring (read by
 * nobody: released after it); false when the thread was switched out or
 * a sampled batch took no sample.  *ns: what the ring added a sample. */
static bool ring_triple(struct calibration *c, int64_t *ns)
{
	uint64_t sw = switches(), n, rn, bare, with, ringed;

	bare = timed_work(c->iters);
	with = sampled_batch(c->fds[0], c->iters, &n);
	ringed = sampled_batch(c->rfds[0], c->iters, &rn);
	ring_discard(&c->ring);
	if (!n || !rn || switches() != sw)
		return false;
	*ns = ((int64_t)ringed - (int64_t)bare) / (int64_t)rn -
	      ((int64_t)with - (int64_t)bare) / (int64_t)n;
	return true;
}

static bool start_pair(struct calibration *c, int64_t *ns)
{
	struct pair p;

	if (!probe_pair(c->fds[0], c->iters, &p))
		return false;
	*ns = pair_cost(&p);
	return true;
}

/* The second set of events, its leader's samples written into a ring. */
static bool open_ringed(struct calibration *c)
{
	if (!open_probe_events(c->rt, c->rfds))
		return false;
	if (ring_map(&c->ring, c->rfds[0], RING_PAGES) == 0)
		return true;
	rt_events_close_bare(c->rt, c->rfds, c->rt->events.n);
	return false;
}

/* Up to START_PAIRS measurements, stopping at START_GOOD accepted; their
 * median in c->cost when there are START_LEAST. */
static void *calibrate(void *arg)
{
	struct calibration *c = arg;
	int64_t got[START_PAIRS];
	unsigned n = 0;

	if (!rt_pin_to_cpu(c->cpu) || !open_probe_events(c->rt, c->fds))
		return NULL;
	if (c->ringed && !open_ringed(c)) {
		rt_events_close_bare(c->rt, c->fds, c->rt->events.n);
		return NULL;
	}
	c->iters = batch_iters();
	for (int i = 0; i < START_PAIRS && n < START_GOOD; i++)
		n += c->ringed ? ring_triple(c, &got[n]) : start_pair(c, &got[n]);
	if (c->ringed) {
		ring_unmap(&c->ring);
		rt_events_close_bare(c->rt, c->rfds, c->rt->events.n);
	}
	rt_events_close_bare(c->rt, c->fds, c->rt->events.n);
	if (n >= START_LEAST) {
		qsort(got, n, sizeof(got[0]), cmp_i64);
		c->cost = got[n / 2] > 0 ? (uint64_t)got[n / 2] : 0;
	}
	return NULL;
}

/* task-clock or cpu-clock: a period is a time */
static bool software_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

uint64_t rt_ring_write_ns(const struct rt_state *rt)
{
	if (rt->ring_cost_ns)
		return rt->ring_cost_ns;
	return rt->opt.call_graph == CG_DWARF ? (uint64_t)rt->opt.stack_size * COPY_NS / 16384 : 0;
}

/* Whether the run's sample cost can be measured: the perf backend's
 * software clock. */
static bool measurable(const struct rt_state *rt)
{
	return rt->opt.backend == BACKEND_PERF && rt->events.n > 0 &&
	       software_clock(&rt->events.ev[0].attr);
}

/* c measured on a thread of its own, pinned where the caller is. */
static uint64_t calibrated(struct calibration *c)
{
	pthread_t th;

	c->cpu = sched_getcpu();
	if (!measurable(c->rt) || c->cpu < 0 || rt_real_pthread_create(&th, NULL, calibrate, c))
		return 0;
	pthread_join(th, NULL);
	return c->cost;
}

uint64_t rt_sample_cost_ns(const struct rt_state *rt)
{
	struct calibration c = { .rt = rt };
	uint64_t cost = calibrated(&c);

	return cost ? cost + rt_ring_write_ns(rt) : 0;
}

uint64_t rt_ring_cost_ns(const struct rt_state *rt)
{
	struct calibration c = { .rt = rt, .ringed = true };

	return calibrated(&c);
}

void rt_cost_probe_start(struct rt_state *rt, uint64_t cost, bool probe)
{
	atomic_store(&rt->sample_cost_ns, cost);
	if (probe && measurable(rt)) {
		rt->probe.next = rt_now_ns();
		atomic_store(&rt->probe.on, true);
	}
}

uint64_t rt_sample_cost_now(const struct rt_state *rt)
{
	return atomic_load_explicit(&rt->sample_cost_ns, memory_order_relaxed);
}

/* The accepted measurements' median and quartiles, the stack copy added,
 * published for the compensation once there are START_LEAST. */
static void probe_publish(struct rt_state *rt)
{
	struct cost_probe *p = &rt->probe;
	int64_t v[PROBE_KEPT];
	uint64_t copy = rt_ring_write_ns(rt);

	if (p->n < START_LEAST)
		return;
	memcpy(v, p->kept, p->n * sizeof(v[0]));
	qsort(v, p->n, sizeof(v[0]), cmp_i64);
	atomic_store(&rt->sample_cost_ns, (v[p->n / 2] > 0 ? (uint64_t)v[p->n / 2] : 0) + copy);
	atomic_store(&p->lo, (v[p->n / 4] > 0 ? (uint64_t)v[p->n / 4] : 0) + copy);
	atomic_store(&p->hi, (v[p->n * 3 / 4] > 0 ? (uint64_t)v[p->n * 3 / 4] : 0) + copy);
}

/* Whether the drain thread's events are still its own: the program may
 * have closed them, or opened its files at their numbers. */
static bool probe_fds_mine(const struct rt_state *rt)
{
	for (int i = 0; i < rt->events.n; i++)
		if (!ofd_perf_mine(rt->probe.fds[i], rt->probe.ids[i]))
			return false;
	return true;
}

/* Close those of the drain thread's events that are still its own. */
static void probe_close_mine(struct rt_state *rt)
{
	struct cost_probe *p = &rt->probe;

	for (int i = p->open ? rt->events.n - 1 : -1; i >= 0; i--)
		if (ofd_perf_mine(p->fds[i], p->ids[i]))
			close(p->fds[i]);
	p->open = false;
}

/* The drain thread's events for its pairs, kept high and known by their
 * ids; off for good when they cannot be opened or the program took one. */
static bool probe_ready(struct rt_state *rt)
{
	struct cost_probe *p = &rt->probe;

	if (p->open && probe_fds_mine(rt))
		return true;
	if (p->open || !open_probe_events(rt, p->fds)) {
		probe_close_mine(rt);
		atomic_store(&p->on, false);
		return false;
	}
	for (int i = 0; i < rt->events.n; i++) {
		p->fds[i] = ofd_move_high(p->fds[i]);
		p->ids[i] = ofd_perf_id(p->fds[i]);
	}
	p->iters = batch_iters();
	p->open = true;
	return true;
}

void rt_cost_probe_step(struct rt_state *rt)
{
	struct cost_probe *p = &rt->probe;
	uint64_t now = rt_now_ns();
	struct pair pr;
	int64_t ns;

	/* on is set after next (rt_cost_probe_start, another thread) */
	if (!atomic_load(&p->on) || now < p->next || !probe_ready(rt))
		return;
	/* the first pairs sooner: short runs have their own measurement too */
	p->next = now + (atomic_load(&p->accepted) < PROBE_KEPT / 3 ? PROBE_EVERY_NS / 10 : PROBE_EVERY_NS);
	if (!probe_pair(p->fds[0], p->iters, &pr)) {
		atomic_fetch_add(&p->busy, 1);
		return;
	}
	ns = pair_cost(&pr);
	p->kept[p->at] = ns;
	p->at = (p->at + 1) % PROBE_KEPT;
	if (p->n < PROBE_KEPT)
		p->n++;
	atomic_fetch_add(&p->accepted, 1);
	probe_publish(rt);
}

void rt_cost_probe_end(struct rt_state *rt)
{
	struct cost_probe *p = &rt->probe;

	atomic_store(&p->on, false);
	probe_close_mine(rt);
}

void rt_cost_probe_forget(struct rt_state *rt)
{
	rt_cost_probe_end(rt);
	memset(&rt->probe, 0, sizeof(rt->probe));
}
