/*
 * clock.h - the runtime's one clock: a POSIX clock read as nanoseconds in
 * one integer.  CLOCK_MONOTONIC (rt_now_ns) for every time and interval the
 * runtime and the MPI layer compare (statistics, critical path,
 * compensation, checkpoints), CLOCK_REALTIME for the profile's start and
 * end, the CPU-time clocks for costs.  Async-signal-safe.
 *
 * rt_now_ns is read twice per wrapped MPI call, and clock_gettime costs
 * 20-30 ns where the kernel's clock is paravirtual.  Where the CPU's time
 * stamp counter runs at a constant rate in every state (invariant TSC),
 * rt_now_ns extrapolates CLOCK_MONOTONIC from the counter instead: each
 * thread anchors itself on a real reading at least every millisecond
 * (clock.c), with a rate measured against the clock since the runtime
 * started, so it stays within tens of nanoseconds of CLOCK_MONOTONIC,
 * kernel timestamps of samples included.  It never goes back on a thread:
 * a new anchor serves only once the clock has passed the most the old one
 * could have told (clock.c), so that readings within an anchor need no
 * test against the last.
 */
#ifndef CPPERF_CLOCK_H
#define CPPERF_CLOCK_H

#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

static inline uint64_t rt_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A thread's anchor: CLOCK_MONOTONIC was ns when the counter read tsc;
 * mult is nanoseconds per tick in 32.32 fixed point, 0 when the counter
 * does not serve (yet); the anchor serves for span ticks (a millisecond;
 * 0 with mult 0, so that one test sends every reading to clock.c then);
 * last is the latest reading clock.c returned. */
struct rt_clock_anchor {
	uint64_t tsc, ns, mult, span, last;
};

extern __thread struct rt_clock_anchor rt_clock_here __attribute__((tls_model("initial-exec")));

/* clock.c: a real reading, and a new anchor when the counter serves. */
uint64_t rt_clock_anchor(void);
/* clock.c: whether the counter can serve, and its reference reading;
 * before any thread starts. */
void rt_clock_start(void);

/* The anchor is copied before the counter is read: a signal handler that
 * anchors anew meanwhile leaves this reading consistent. */
static inline uint64_t rt_now_ns(void)
{
	struct rt_clock_anchor *a = &rt_clock_here;
	uint64_t tsc = a->tsc, ns = a->ns, mult = a->mult, span = a->span, d;

	__asm__ __volatile__("" ::: "memory");
	d = __rdtsc() - tsc;
	if (d >= span)	/* also when the counter went back */
		return rt_clock_anchor();
	return ns + (uint64_t)(((unsigned __int128)d * mult) >> 32);
}

#endif
