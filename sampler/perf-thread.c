/*
 * perf-thread.c - the perf_event side of one thread: open the user's event
 * list for it (a sampling leader per group, counting members read with each
 * sample), send every sampling event's records into one ring buffer, and
 * close it all again.  Events are opened by the thread itself where
 * possible (pid 0), or for a thread id that already exists at start-up.
 * With --backend=papi the same three entry points lead to papi-thread.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "papi.h"
#include "rt.h"
#include "sample.h"

#define RING_SAMPLES 128		/* samples a ring should hold */
#define RING_MAX_PAGES 512

static unsigned pow2_at_least(uint64_t x)
{
	unsigned p = 1;

	while (p < x)
		p *= 2;
	return p;
}

static uint64_t sample_bytes(const struct rt_options *o)
{
	if (o->call_graph == CG_DWARF)
		return o->stack_size + 512;
	return o->call_graph == CG_FP ? 2048 : 256;
}

/* Ring pages: room for RING_SAMPLES, and the least that holds two. */
static void ring_pages(const struct rt_options *o, unsigned *max, unsigned *min)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t bytes = sample_bytes(o);

	*max = pow2_at_least((RING_SAMPLES * bytes + page - 1) / page);
	if (*max > RING_MAX_PAGES)
		*max = RING_MAX_PAGES;
	*min = pow2_at_least((2 * bytes + page - 1) / page);
	if (*min > *max)
		*max = *min;
}

static void fill_attr(const struct rt_state *rt, int i, bool first, struct perf_event_attr *a)
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
	a->disabled = 1;
	if (o->period) {
		a->sample_period = o->period;
	} else {
		a->freq = 1;
		a->sample_freq = o->freq;
	}
	a->sample_type = sample_type_for(o->call_graph);
	if (o->call_graph == CG_DWARF) {
		a->sample_regs_user = SAMPLE_REGS_MASK;
		a->sample_stack_user = o->stack_size;
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

static void report_open_error(const struct rt_state *rt, int i, pid_t tid, int err)
{
	char why[512];

	ev_explain_errno(err, rt->events.ev[i].name, rt->events.ev[i].hardware, why, sizeof(why));
	rt_notice(rt, "thread %d is not profiled: %s", (int)tid, why);
}

/* Open event i; sampling leaders after the first share its ring. */
static int open_event(struct rt_state *rt, struct rt_thread *t, int i, pid_t tid, int *first)
{
	const struct ev_spec *ev = &rt->events.ev[i];
	struct perf_event_attr a;
	unsigned max_pages, min_pages;
	int leader_fd = ev->leader == i ? -1 : t->fds[ev->leader];
	int fd, err;

	fill_attr(rt, i, *first < 0, &a);
	fd = perf_open(&a, tid, leader_fd);
	if (fd < 0)
		return -errno;
	t->fds[i] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &t->ids[i]))
		return -errno;
	if (ev->leader != i)
		return 0;
	if (*first >= 0)
		return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, *first) ? -errno : 0;
	ring_pages(&rt->opt, &max_pages, &min_pages);
	err = ring_map(&t->ring, fd, max_pages, min_pages);
	if (err)
		return err;
	*first = fd;
	return 0;
}

struct rt_thread *rt_thread_open(struct rt_state *rt, pid_t tid)
{
	struct rt_thread *t;
	int first = -1;

	if (rt->opt.backend == BACKEND_PAPI)
		return papi_thread_open(rt, tid);
	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	for (int i = 0; i < EV_MAX; i++)
		t->fds[i] = -1;
	t->tid = tid ? tid : (pid_t)syscall(SYS_gettid);
	for (int i = 0; i < rt->events.n; i++) {
		int err = open_event(rt, t, i, tid, &first);

		if (err) {
			report_open_error(rt, i, t->tid, -err);
			rt_thread_close(t);
			free(t);
			return NULL;
		}
	}
	return t;
}

int rt_events_open_bare(const struct rt_state *rt, int *fds, uint64_t period)
{
	for (int i = 0; i < rt->events.n; i++) {
		const struct ev_spec *ev = &rt->events.ev[i];
		struct perf_event_attr a;

		fill_attr(rt, i, false, &a);
		a.disabled = 0;
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

void rt_thread_enable(struct rt_thread *t, bool on)
{
	if (t->papi) {
		papi_thread_enable(t, on);
		return;
	}
	for (int i = 0; i < EV_MAX; i++)
		if (t->fds[i] >= 0)
			ioctl(t->fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

void rt_thread_close(struct rt_thread *t)
{
	if (!t)
		return;
	papi_thread_close(t);	/* a PAPI thread's ring is not mapped from an fd */
	ring_unmap(&t->ring);
	for (int i = 0; i < EV_MAX; i++) {
		if (t->fds[i] >= 0)
			close(t->fds[i]);
		t->fds[i] = -1;
	}
}
