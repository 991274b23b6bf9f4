/*
 * spin.h - what the programs that end badly (ends.c, mpi-end.c) share: a
 * monotonic clock and compute(), a CPU-bound loop for a given time.
 * Included by each program, which is built as one file.
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

#endif
