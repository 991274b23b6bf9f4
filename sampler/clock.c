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
static bool counter_ok;
static struct pair origin;	/* the reference: the rate is measured from it */

#define ANCHOR_NS 1000000ull	/* how long an anchor serves */
#define RATE_AFTER_NS 1000000ull	/* the rate is known after this long */
#define PAIR_TICKS 200000ull	/* a reading longer than this (20 us at 10 GHz) was interrupted */
#define PAIR_TRIES 4

/* The counter read on both sides of the clock; the clock's reading
 * belongs to their middle.  False when every try was interrupted (a
 * preemption between the reads would put the middle milliseconds off). */
static bool read_pair(struct pair *p)
{
	for (int i = 0; i < PAIR_TRIES; i++) {
		uint64_t t0 = __rdtsc(), ns = rt_clock_ns(CLOCK_MONOTONIC), t1 = __rdtsc();

		if (t1 >= t0 && t1 - t0 < PAIR_TICKS) {
			*p = (struct pair){ t0 + (t1 - t0) / 2, ns };
			return true;
		}
	}
	return false;
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
	if (!counter_ok && invariant_tsc() && read_pair(&origin))
		counter_ok = true;
}

/* The most the thread's anchor can have told: its reading at the end of
 * its span, or clock.c's latest. */
static uint64_t anchor_bound(const struct rt_clock_anchor *a)
{
	uint64_t end = a->span ? a->ns + (uint64_t)(((unsigned __int128)a->span * a->mult) >> 32) : 0;

	return end > a->last ? end : a->last;
}

/* The anchor is the real reading itself: an error of the extrapolation
 * never carries over.  While the clock has not passed what the old
 * anchor may have told (its extrapolation ran a little ahead, or the
 * counter went back), that is the reading, and no anchor serves: the
 * thread's clock stands still for as long, never goes back. */
uint64_t rt_clock_anchor(void)
{
	struct rt_clock_anchor *a = &rt_clock_here;
	uint64_t bound = anchor_bound(a);
	struct pair p;

	if (!counter_ok || !read_pair(&p)) {
		a->mult = a->span = 0;
		p.ns = rt_clock_ns(CLOCK_MONOTONIC);
	} else if (p.ns < bound || p.ns < origin.ns + RATE_AFTER_NS || p.tsc <= origin.tsc) {
		a->mult = a->span = 0;	/* every reading anchors until the rate is known */
	} else {
		a->mult = (uint64_t)(((unsigned __int128)(p.ns - origin.ns) << 32) / (p.tsc - origin.tsc));
		a->span = a->mult ? (uint64_t)(((unsigned __int128)ANCHOR_NS << 32) / a->mult) : 0;
		a->tsc = p.tsc;
		a->ns = p.ns;
	}
	a->last = p.ns > bound ? p.ns : bound;
	return a->last;
}
