/*
 * sched-counts.h - how often the calling thread was switched out, and how
 * long it waited for a CPU while it could run, as the scheduler counts
 * them.  Overhead compensation (pmpi/compensate.c) charges a rank for the
 * drain thread's switches, which that thread reads after each drain.
 */
#ifndef CPPERF_SCHED_COUNTS_H
#define CPPERF_SCHED_COUNTS_H

#include <stdint.h>

struct sched_counts {
	uint64_t switches;	/* times the thread was scheduled in */
	uint64_t run_delay;	/* ns runnable but waiting on a run queue */
};

/* The calling thread's counts so far: /proc/thread-self/schedstat (three
 * system calls); where the kernel has no schedstat, getrusage's switch
 * count and a run delay of 0.  Can't fail. */
struct sched_counts sched_counts_now(void);

#endif
