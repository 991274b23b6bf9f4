/*
 * spin-leaf.h - what the critical-path programs (cp-budget.c, cp-phases.c)
 * share: a monotonic clock in microseconds and SPIN, a CPU-bound loop
 * expanded in the function that uses it, so that its samples' leaf is
 * that function.  Included by each program, which is built as one file.
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

/* Spin for us microseconds in the function that expands it. */
#define SPIN(us) \
	do { \
		double end_ = now_us() + (us); \
		uint64_t x_ = sink; \
		do { \
			for (int i_ = 0; i_ < 256; i_++) \
				x_ = x_ * 6364136223846793005ULL + 1442695040888963407ULL; \
		} while (now_us() < end_); \
		sink = x_; \
	} while (0)

#endif
