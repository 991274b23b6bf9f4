/*
 * sched-counts.h - how often the calling thread was switched out, as the
 * scheduler counts it.  Overhead compensation (pmpi/compensate.c) charges
 * a rank for the drain thread's switches, which that thread reads after
 * each drain.
 */
#ifndef CPPERF_SCHED_COUNTS_H
#define CPPERF_SCHED_COUNTS_H

#include <stdint.h>

/* The calling thread's context switches so far, voluntary and not
 * (getrusage).  Opens no descriptor; can't fail (0 where getrusage
 * does). */
uint64_t sched_switches_now(void);

#endif
