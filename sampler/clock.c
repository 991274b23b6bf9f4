/*
 * clock.c - the anchors of the runtime's clock (clock.h): when the time
 * stamp counter may stand in for CLOCK_MONOTONIC, and the readings that
 * tie the two together.
 */
#include <cpuid.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

/* A reading of the counter and the clock together. */
struct pair {
	uint64_t tsc, ns;
};

__thread struct rt_clock_anchor rt_clock_here __attribute__((tls_model("initial-exec")));
uint64_t rt_clock_span;
static struct pair origin;	/* the reference: the rate is measured from it */

#define ANCHOR_NS 1000000ull	/* how long an anchor serves */
#define RATE_AFTER_NS 1000000ull	/* the rate is known after this long */

/* The counter read on both sides of the clock: the clock's reading
 * belongs to their middle. */
static struct pair read_pair(void)
{
	uint64_t t0 = __rdtsc(), ns = rt_clock_ns(CLOCK_MONOTONIC), t1 = __rdtsc();

	return (struct pair){ t0 + (t1 - t0) / 2, ns };
}

/* The counter ticks at a constant rate whatever the core's frequency and
 * sleep state (CPUID 0x80000007, EDX bit 8).  CPPERF_CLOCK=posix turns
 * it off. */
static bool invariant_tsc(void)
{
	unsigned a, b, c, d;
	const char *env = getenv("CPPERF_CLOCK");

	if (env && !strcmp(env, "posix"))
		return false;
	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return false;
	__get_cpuid(0x80000007, &a, &b, &c, &d);
	return d & (1u << 8);
}

void rt_clock_start(void)
{
	if (rt_clock_span || !invariant_tsc())
		return;
	origin = read_pair();
	rt_clock_span = 1;	/* every reading anchors until the rate is known */
}

uint64_t rt_clock_anchor(void)
{
	struct rt_clock_anchor *a = &rt_clock_here;
	struct pair p;
	uint64_t span;

	if (!rt_clock_span)
		return rt_clock_ns(CLOCK_MONOTONIC);
	p = read_pair();
	if (p.ns < origin.ns + RATE_AFTER_NS || p.tsc <= origin.tsc) {
		a->mult = 0;
	} else {
		a->mult = (uint64_t)(((unsigned __int128)(p.ns - origin.ns) << 32) / (p.tsc - origin.tsc));
		span = (uint64_t)(((unsigned __int128)ANCHOR_NS << 32) / (a->mult ? a->mult : 1));
		__atomic_store_n(&rt_clock_span, span > 1 ? span : 1, __ATOMIC_RELAXED);
	}
	a->tsc = p.tsc;
	a->ns = p.ns < a->last ? a->last : p.ns;
	a->last = a->ns;
	return a->ns;
}
