/*
 * clock.h - the runtime's one clock: a POSIX clock read as nanoseconds in
 * one integer.  CLOCK_MONOTONIC (rt_now_ns) for every time and interval the
 * runtime and the MPI layer compare (statistics, critical path,
 * compensation, checkpoints), CLOCK_REALTIME for the profile's start and
 * end, the CPU-time clocks for costs.  Async-signal-safe.
 */
#ifndef CPPERF_CLOCK_H
#define CPPERF_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t rt_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t rt_now_ns(void)
{
	return rt_clock_ns(CLOCK_MONOTONIC);
}

#endif
