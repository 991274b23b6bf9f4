/*
 * sched-counts.h - how often the calling thread was switched out, and how
 * long it waited for a CPU while it could run, as the scheduler counts
 * them.  Overhead compensation (pmpi/compensate.c) charges a rank for the
 * switches and the waits that measurement added; this reads them cheaply
 * enough to do so at every MPI call.
 */
#ifndef CPPERF_SCHED_COUNTS_H
#define CPPERF_SCHED_COUNTS_H

#include <stdint.h>

struct sched_counts {
	uint64_t switches;	/* times the thread was scheduled in */
	uint64_t run_delay;	/* ns runnable but waiting on a run queue */
};

/* The calling thread's counts so far: /proc/thread-self/schedstat, kept
 * open per thread (0.5 us a read in a loop, about 1 us in a busy rank);
 * where the kernel has no schedstat, getrusage's switch count and a run
 * delay of 0.  Can't fail. */
struct sched_counts sched_counts_now(void);

#endif
