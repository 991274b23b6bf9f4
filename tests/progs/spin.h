/*
 * spin.h - what the test programs share: a monotonic clock, compute(), a
 * CPU-bound loop for a given time, and compute_share(), which also says
 * the share of a CPU the host gave the thread meanwhile.  Included by
 * each program, which is built as one file.
 */
#ifndef CPPERF_SPIN_H
#define CPPERF_SPIN_H

#include <time.h>

static volatile unsigned long sink;
/* NULL, and the compiler cannot know it: a store through it faults */
static int *volatile nowhere;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void compute(double seconds)
{
	double t0 = now();

	while (now() - t0 < seconds)
		for (int i = 0; i < 10000; i++)
			sink = sink * 6364136223846793005ul + 1;
}

static inline double thread_cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* compute for s seconds; the share of a CPU it got (below 1: the host
 * time-sliced the thread) */
static inline double compute_share(double s)
{
	double c0 = thread_cpu(), t0 = now();

	compute(s);
	return (thread_cpu() - c0) / (now() - t0);
}

#endif
