/*
 * compensate.c - the rank's overhead and delay (compensate.h).
 *
 * What is measured and how (docs/compensation.md):
 * - a wrapped call costs call_cost_ns, calibrated at MPI_Init by timing the
 *   wrapper's fixed work (clock reads and lock round trips) on this thread;
 * - a sample costs sample_cost_ns in the kernel (interrupt and stack copy):
 *   an estimate from the stack size, or CPPERF_SAMPLE_COST_NS;
 * - piggyback traffic and samples folded on the rank's thread are timed;
 * - CPPERF_INJECT_MPI_NS and CPPERF_INJECT_SAMPLE_NS add busy time at each
 *   call's entry (the samples' share since the previous call), timed like
 *   the rest (a spin preempted on a busy host lasts longer than asked), so
 *   tests can make the dilation as large as they need.
 * Samples are charged at the next call's entry: the kernel took them on
 * this rank's time, and that is where the delay must start to travel.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "pmpi.h"
#include "compensate.h"
#include "piggyback.h"

#define CALIBRATE_ROUNDS 7
#define CALIBRATE_CALLS 256

static struct {
	pthread_mutex_t lock;
	bool on;
	struct prof_overhead ovh;
	uint64_t inject_mpi_ns, inject_sample_ns;
	uint64_t x;		/* delay */
	uint64_t wait, wait_comp;
	uint64_t start, end, end_x;
	bool ended;
	uint64_t host;		/* hash of this host's name */
} comp = { .lock = PTHREAD_MUTEX_INITIALIZER };

static atomic_uint_fast64_t samples_seen;	/* folded since the start */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void busy(uint64_t ns)
{
	uint64_t until = now_ns() + ns;

	while (now_ns() < until)
		;
}

static uint64_t env_ns(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long x;

	if (!v || !*v)
		return dflt;
	x = strtoull(v, &end, 10);
	return *end ? dflt : (uint64_t)x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The wrapper's fixed work on this thread (two clock reads, the statistics
 * and path locks, the accounting here), median of a few rounds. */
static uint64_t calibrate_call(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	uint64_t per[CALIBRATE_ROUNDS];
	volatile uint64_t sink = 0;

	for (int r = 0; r < CALIBRATE_ROUNDS; r++) {
		uint64_t t0 = now_ns();

		for (int i = 0; i < CALIBRATE_CALLS; i++) {
			sink += now_ns();
			for (int k = 0; k < 3; k++) {
				pthread_mutex_lock(&m);
				sink += (uint64_t)k;
				pthread_mutex_unlock(&m);
			}
			sink += now_ns();
		}
		per[r] = (now_ns() - t0) / CALIBRATE_CALLS;
	}
	qsort(per, CALIBRATE_ROUNDS, sizeof(per[0]), cmp_u64);
	return per[CALIBRATE_ROUNDS / 2];
}

/* The kernel's cost of one sample: an interrupt and, with DWARF
 * unwinding, the copy of the stack (about 1.5 us per 16 KiB measured on
 * the development VM; docs/compensation.md). */
static uint64_t estimate_sample_cost(const struct rt_state *rt)
{
	uint64_t copy = rt->opt.call_graph == CG_DWARF ? (uint64_t)rt->opt.stack_size * 1500 / 16384 : 0;

	return env_ns("CPPERF_SAMPLE_COST_NS", 500 + copy);
}

static uint64_t host_hash(void)
{
	char name[256] = "";
	uint64_t h = 0xcbf29ce484222325ull;

	gethostname(name, sizeof(name) - 1);
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

void pmpi_comp_start(struct rt_state *rt, uint64_t t0)
{
	uint64_t call = calibrate_call(), sample = estimate_sample_cost(rt);

	pthread_mutex_lock(&comp.lock);
	comp.ovh.call_cost_ns = call;
	comp.ovh.sample_cost_ns = sample;
	comp.inject_mpi_ns = env_ns("CPPERF_INJECT_MPI_NS", 0);
	comp.inject_sample_ns = env_ns("CPPERF_INJECT_SAMPLE_NS", 0);
	comp.start = t0;
	comp.host = host_hash();
	atomic_store(&samples_seen, 0);
	comp.on = true;
	pthread_mutex_unlock(&comp.lock);
}

void pmpi_comp_sample(void)
{
	atomic_fetch_add_explicit(&samples_seen, 1, memory_order_relaxed);
}

/* Add ns to the overhead and the delay.  Caller holds comp.lock. */
static void charge(uint64_t ns)
{
	comp.x += ns;
}

void pmpi_comp_enter(void)
{
	uint64_t n, inject;

	if (!__atomic_load_n(&comp.on, __ATOMIC_RELAXED) || __atomic_load_n(&comp.ended, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&comp.lock);
	n = atomic_load_explicit(&samples_seen, memory_order_relaxed) - comp.ovh.samples;
	comp.ovh.samples += n;
	comp.ovh.sample_ns += n * comp.ovh.sample_cost_ns;
	comp.ovh.calls++;
	comp.ovh.wrapper_ns += comp.ovh.call_cost_ns;
	inject = comp.inject_mpi_ns + n * comp.inject_sample_ns;
	charge(n * comp.ovh.sample_cost_ns + comp.ovh.call_cost_ns);
	pthread_mutex_unlock(&comp.lock);
	if (inject) {	/* charged as it took: a preempted spin delays the rank longer */
		uint64_t t = now_ns(), spent;

		busy(inject);
		spent = now_ns() - t;
		pthread_mutex_lock(&comp.lock);
		comp.ovh.inject_ns += spent;
		charge(spent);
		pthread_mutex_unlock(&comp.lock);
	}
}

void pmpi_comp_piggyback(uint64_t ns)
{
	if (!comp.on || comp.ended)
		return;
	pthread_mutex_lock(&comp.lock);
	comp.ovh.piggyback_ns += ns;
	charge(ns);
	pthread_mutex_unlock(&comp.lock);
}

void pmpi_comp_drain(uint64_t ns)
{
	if (!comp.on || comp.ended)
		return;
	pthread_mutex_lock(&comp.lock);
	comp.ovh.drain_ns += ns;
	charge(ns);
	pthread_mutex_unlock(&comp.lock);
}

void pmpi_comp_stamp(struct pmpi_pb *pb)
{
	pthread_mutex_lock(&comp.lock);
	pb->delay = (int64_t)comp.x;
	pb->t_free = pb->t_send > comp.x ? pb->t_send - comp.x : 0;
	pb->host = comp.host;
	pthread_mutex_unlock(&comp.lock);
}

/*
 * The rule at a completion (docs/compensation.md).  The call entered at t0,
 * x late; its data came from calls entered at (latest) A_s, x_s late, ready
 * without measurement at U_s = A_s - x_s.  Measured, the exchange could
 * finish once both had arrived, at max(A_s, t0); without measurement at
 * max(U_s, t0 - x), the transfer itself taking as long in both.  So the
 * rank is now x' = max(A_s, t0) - max(U_s, t0 - x) late, and it would have
 * waited max(0, U_s - (t0 - x)).  That needs clocks that agree: on one host
 * they do; across hosts the paper's rule takes the data as ready when the
 * wait ended (x' = min(x_s, x + w)).
 */
void pmpi_comp_merge(const struct pmpi_call *c, const struct pmpi_pb *pb, uint64_t now)
{
	uint64_t w = now > c->t0 ? now - c->t0 : 0, xs = pb->delay > 0 ? (uint64_t)pb->delay : 0;
	uint64_t start, ready, x;

	if (!comp.on || comp.ended)
		return;
	pthread_mutex_lock(&comp.lock);
	start = c->t0 > comp.x ? c->t0 - comp.x : 0;
	if (pb->host == comp.host && !(pb->flags & PMPI_PB_F_HOSTS) && pb->t_free && pb->t_send) {
		uint64_t arrive = pb->t_send > c->t0 ? pb->t_send : c->t0;

		ready = pb->t_free;
		x = arrive - (ready > start ? ready : start);
	} else {
		ready = now > xs ? now - xs : 0;
		x = xs < comp.x + w ? xs : comp.x + w;
	}
	comp.wait += w;
	comp.wait_comp += ready > start ? ready - start : 0;
	comp.x = x;
	pthread_mutex_unlock(&comp.lock);
}

void pmpi_comp_end(uint64_t t)
{
	pthread_mutex_lock(&comp.lock);
	if (comp.on && !comp.ended) {
		comp.end = t;
		comp.end_x = comp.x;
		__atomic_store_n(&comp.ended, true, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&comp.lock);
}

void pmpi_comp_fill(struct rt_state *rt)
{
	struct profile *p = &rt->prof;

	pthread_mutex_lock(&comp.lock);
	if (comp.on) {
		if (!comp.ended) {	/* no MPI_Finalize: the rank ends here */
			comp.end = now_ns();
			comp.end_x = comp.x;
		}
		p->comp_on = 1;
		p->ovh = comp.ovh;
		p->comp_wall_ns = comp.end > comp.start ? comp.end - comp.start : 0;
		p->comp_delay_ns = comp.end_x;
		p->comp_wait_ns = comp.wait;
		p->comp_wait_comp_ns = comp.wait_comp;
	}
	pthread_mutex_unlock(&comp.lock);
}
