/*
 * spin-leaf.h - what the critical-path programs (cp-budget.c, cp-phases.c,
 * thread-calls.c) share: a monotonic clock in microseconds and SPIN, a
 * CPU-bound loop expanded in the function that uses it, so that its
 * samples' leaf is that function; SPIN_CPU, the same for an amount of the
 * thread's CPU time.  Included by each program, which is built as one file.
 */
#ifndef CPPERF_SPIN_LEAF_H
#define CPPERF_SPIN_LEAF_H

#include <stdint.h>
#include <time.h>

#define NOINLINE __attribute__((noipa))	/* not inlined, nor folded into one */

static volatile uint64_t sink;

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* The calling thread's CPU time in microseconds. */
static inline double cpu_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Spin in the function that expands it until clock() has moved us
 * microseconds, reading it every `step` turns of the loop. */
#define SPIN_BY(clock, us, step) \
	do { \
		double end_ = clock() + (us); \
		uint64_t x_ = sink; \
		do { \
			for (int i_ = 0; i_ < (step); i_++) \
				x_ = x_ * 6364136223846793005ULL + 1442695040888963407ULL; \
		} while (clock() < end_); \
		sink = x_; \
	} while (0)

/* Spin for us microseconds. */
#define SPIN(us) SPIN_BY(now_us, us, 256)

/* Spin until the thread has run us microseconds more, however long a
 * busy host keeps it waiting: its samples are as many either way.  The
 * thread's CPU clock is a system call: read every some 10 us of work, so
 * that the samples are the spin's own. */
#define SPIN_CPU(us) SPIN_BY(cpu_us, us, 8192)

#endif
