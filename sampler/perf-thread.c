/*
 * perf-thread.c - the perf_event side of one thread: open the user's event
 * list for it (a sampling leader per group, counting members read with each
 * sample), send every sampling event's records into one ring buffer, and
 * close it all again.  Events are opened by the thread itself where
 * possible (pid 0), or for a thread id that already exists at start-up.
 * With --backend=papi the same three entry points lead to papi-thread.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/owned-fd.h"
#include "papi.h"
#include "rt.h"
#include "sample.h"

static void fill_attr(const struct rt_state *rt, int i, bool first, uint32_t stack,
		      struct perf_event_attr *a)
{
	const struct rt_options *o = &rt->opt;

	*a = rt->events.ev[i].attr;
	a->size = sizeof(*a);
	a->read_format = SAMPLE_READ_FORMAT;
	/* sample times on the clock the MPI layer stamps its calls with, so
	 * a sample can be placed between two calls (critical path); the
	 * kernel refuses a group whose members keep another clock */
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	if (rt->events.ev[i].leader != i)
		return;		/* a counting member of a group */
	/* enabled from the start: samples before the ring is mapped are
	 * dropped, and an ioctl per thread saved */
	a->disabled = 0;
	if (o->period) {
		a->sample_period = o->period;
	} else {
		a->freq = 1;
		a->sample_freq = o->freq;
	}
	a->sample_type = sample_type_for(o->call_graph);
	if (o->call_graph == CG_DWARF) {
		a->sample_regs_user = SAMPLE_REGS_MASK;
		a->sample_stack_user = stack;
	}
	a->exclude_callchain_kernel = 1;
	a->mmap = first;	/* code mapped later (dlopen), with its file's identity */
	a->mmap2 = first;
	/*
	 * Wake the drain thread only when the ring is half full (the kernel's
	 * default for a zero watermark): every wake-up of a drain thread
	 * preempts a rank when the cores are all busy, so fewer, larger
	 * drains cost the application least.  The drain thread's poll timeout
	 * bounds the latency at low rates.
	 */
	a->watermark = 1;
	a->wakeup_watermark = 0;
}

static int perf_open(struct perf_event_attr *a, pid_t tid, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, a, tid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* The first thread of the process that is not profiled says why; later
 * ones are counted (the final notice gives the count). */
static void not_profiled(struct rt_state *rt, pid_t tid, const char *why)
{
	if (atomic_fetch_add(&rt->unprofiled, 1) == 0)
		rt_notice(rt, "thread %d is not profiled: %s", (int)tid, why);
}

static void open_failed(struct rt_state *rt, int i, pid_t tid, int err)
{
	char why[512];

	ev_explain_errno(err, rt->events.ev[i].name, rt->events.ev[i].hardware, why, sizeof(why));
	not_profiled(rt, tid, why);
}

/* "ulimit -l 8192 KiB, kernel.perf_event_mlock_kb 516" into buf. */
static void describe_limits(const struct ring_budget *b, char *buf, size_t len)
{
	char mlock[64] = "";

	if (b->mlock_kib)
		snprintf(mlock, sizeof(mlock), ", kernel.perf_event_mlock_kb %llu",
			 (unsigned long long)b->mlock_kib);
	snprintf(buf, len, "ulimit -l %llu KiB%s", (unsigned long long)b->rlimit_kib, mlock);
}

static void map_failed(struct rt_state *rt, pid_t tid, int err)
{
	char limits[128], why[384];

	if (err != EPERM && err != ENOMEM) {
		snprintf(why, sizeof(why), "cannot map its ring buffer: %s", strerror(err));
	} else {
		describe_limits(&rt->rings, limits, sizeof(limits));
		snprintf(why, sizeof(why), "the locked memory for ring buffers is used up (%s); "
			 "raise ulimit -l or kernel.perf_event_mlock_kb (docs/record.md#locked-memory)",
			 limits);
	}
	not_profiled(rt, tid, why);
}

static void say_memory_short(struct rt_state *rt, const struct ring_plan *p)
{
	char limits[128];

	if (!ring_budget_first_short(&rt->rings, p))
		return;
	describe_limits(&rt->rings, limits, sizeof(limits));
	rt_notice(rt, "locked memory is short (%s): with %u threads, new ones get smaller ring "
		  "buffers and copy %u stack bytes a sample instead of %u, so deep stacks unwind "
		  "less far; raise ulimit -l or kernel.perf_event_mlock_kb (docs/record.md#locked-memory)",
		  limits, atomic_load(&rt->rings.nrings), p->stack_size, rt->opt.stack_size);
}

/* Open the event list for tid with stack copies of stack bytes; the
 * numbers moved high, the kernel's ids noted.  0, or -errno with *bad
 * the event that failed. */
static int open_events(struct rt_state *rt, struct rt_thread *t, pid_t tid, uint32_t stack, int *bad)
{
	for (int i = 0; i < rt->events.n; i++) {
		const struct ev_spec *ev = &rt->events.ev[i];
		struct perf_event_attr a;
		int fd, err;

		*bad = i;
		fill_attr(rt, i, i == 0, stack, &a);
		fd = perf_open(&a, tid, ev->leader == i ? -1 : t->fds[ev->leader]);
		if (fd < 0)
			return -errno;
		fd = ofd_move_high(fd);
		if (!(t->ids[i] = ofd_perf_id(fd))) {
			err = errno;
			close(fd);
			return -err;
		}
		t->fds[i] = fd;
	}
	return 0;
}

static void close_events(struct rt_thread *t)
{
	for (int i = 0; i < EV_MAX; i++) {
		if (ofd_perf_mine(t->fds[i], t->ids[i]))
			close(t->fds[i]);
		t->fds[i] = -1;
	}
}

/* Map pages of ring into slot on the first event (always a sampling
 * leader), send the other leaders' records there, and make it the
 * thread's ring (not before: a slot that fails is unmapped while the
 * thread may read the head of its ring).  0, or -errno. */
static int map_ring(struct rt_state *rt, struct rt_thread *t, struct ring *slot, unsigned pages)
{
	int err = ring_map(slot, t->fds[0], pages);

	if (err)
		return err;
	for (int i = 1; i < rt->events.n; i++)
		if (rt->events.ev[i].leader == i && ioctl(t->fds[i], PERF_EVENT_IOC_SET_OUTPUT, t->fds[0]))
			return -errno;
	rt_thread_set_ring(t, slot);
	return 0;
}

/*
 * Open the events and map the ring of the budget's plan (a young thread's
 * first ring smaller); when the kernel refuses the memory, smaller plans
 * (a smaller stack copy means opening the events again).  0, or -errno
 * after saying why.
 */
static int open_with_ring(struct rt_state *rt, struct rt_thread *t, pid_t tid, bool young)
{
	struct ring_plan p = ring_budget_plan(&rt->rings, &rt->opt), first;
	uint32_t opened = 0;
	int err, bad;

	for (;;) {
		first = young ? ring_plan_young(&p, &rt->opt) : p;
		if (first.stack_size != opened) {
			close_events(t);
			if ((err = open_events(rt, t, tid, first.stack_size, &bad))) {
				open_failed(rt, bad, t->tid, -err);
				return err;
			}
			opened = first.stack_size;
		}
		err = map_ring(rt, t, &t->slots[0], first.pages);
		if (!err)
			break;
		ring_unmap(&t->slots[0]);
		if ((err != -EPERM && err != -ENOMEM) || !ring_plan_shrink(&p, &rt->opt)) {
			map_failed(rt, t->tid, -err);
			return err;
		}
	}
	t->plan = first;
	t->timed = young;
	t->grow_to = p.pages > first.pages ? p.pages : 0;
	t->born = rt_now_ns();
	ring_budget_take(&rt->rings, first.pages);
	say_memory_short(rt, &p);
	return 0;
}

struct rt_thread *rt_thread_open(struct rt_state *rt, pid_t tid, bool young)
{
	struct rt_thread *t;

	if (rt->opt.backend == BACKEND_PAPI)
		return papi_thread_open(rt, tid);
	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	rt_thread_set_ring(t, NULL);
	for (int i = 0; i < EV_MAX; i++)
		t->fds[i] = -1;
	t->tid = tid ? tid : (pid_t)syscall(SYS_gettid);
	if (open_with_ring(rt, t, tid, young)) {
		close_events(t);
		free(t);
		return NULL;
	}
	return t;
}

/*
 * The first ring is given back in place, so that the event can map the
 * larger one, while the thread may still read the old one's addresses.
 * Between the two the thread's samples are dropped: microseconds.
 */
void rt_thread_grow(struct rt_state *rt, struct rt_thread *t)
{
	struct ring_plan p = ring_budget_plan(&rt->rings, &rt->opt);
	unsigned pages = p.pages < t->grow_to ? p.pages : t->grow_to;

	t->grow_to = 0;
	if (pages <= t->plan.pages || t->fds[0] < 0 || rt_thread_ring(t) != &t->slots[0] ||
	    ring_release_in_place(&t->slots[0]))
		return;
	ring_budget_give(&rt->rings, t->plan.pages);
	while (map_ring(rt, t, &t->slots[1], pages)) {
		ring_unmap(&t->slots[1]);
		if ((pages /= 2) < t->plan.pages) {
			map_failed(rt, t->tid, EPERM);
			return;
		}
	}
	t->plan.pages = pages;
	ring_budget_take(&rt->rings, pages);
}

int rt_events_open_bare(const struct rt_state *rt, int *fds, uint64_t period)
{
	for (int i = 0; i < rt->events.n; i++) {
		const struct ev_spec *ev = &rt->events.ev[i];
		struct perf_event_attr a;

		fill_attr(rt, i, false, rt->opt.stack_size, &a);
		if (period && ev->leader == i) {
			a.freq = 0;
			a.sample_period = period;
		}
		fds[i] = perf_open(&a, 0, ev->leader == i ? -1 : fds[ev->leader]);
		if (fds[i] < 0) {
			int err = errno;

			rt_events_close_bare(rt, fds, i);
			return -err;
		}
	}
	return 0;
}

void rt_events_close_bare(const struct rt_state *rt, int *fds, int n)
{
	(void)rt;
	while (n-- > 0)
		close(fds[n]);
}

void rt_thread_start(struct rt_thread *t)
{
	if (t->papi)
		papi_thread_enable(t, true);
}

void rt_thread_stop(struct rt_thread *t)
{
	if (t->papi) {
		papi_thread_enable(t, false);
		return;
	}
	for (int i = 0; i < EV_MAX; i++)
		if (ofd_perf_mine(t->fds[i], t->ids[i]))
			ioctl(t->fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

void rt_thread_exiting(struct rt_thread *t)
{
	if (t->papi)
		papi_thread_enable(t, false);
}

bool rt_thread_fds_mine(const struct rt_thread *t)
{
	for (int i = 0; i < EV_MAX; i++)
		if (t->fds[i] >= 0 && !ofd_perf_mine(t->fds[i], t->ids[i]))
			return false;
	return true;
}

void rt_thread_forget_fds(struct rt_thread *t)
{
	for (int i = 0; i < EV_MAX; i++)
		if (t->fds[i] >= 0 && !ofd_perf_mine(t->fds[i], t->ids[i]))
			t->fds[i] = -1;
}

void rt_thread_close(struct rt_state *rt, struct rt_thread *t)
{
	if (!t)
		return;
	papi_thread_close(t);	/* a PAPI thread's ring is not mapped from an fd */
	if (rt_thread_ring(t) && rt_thread_ring(t)->meta)
		ring_budget_give(&rt->rings, t->plan.pages);
	rt_thread_set_ring(t, NULL);
	ring_unmap(&t->slots[0]);
	ring_unmap(&t->slots[1]);
	close_events(t);
}
