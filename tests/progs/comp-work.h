/*
 * comp-work.h - what the compensation scenarios (tests/progs/comp-*.c)
 * share: a monotonic clock and work() that stands for computation without
 * depending on free cores.  Included by each program, which is built as
 * one file.
 */
#ifndef CPPERF_COMP_WORK_H
#define CPPERF_COMP_WORK_H

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <mpi.h>
#include <sys/prctl.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* work(us): stands for us microseconds of computation: sleeps until that
 * long after now on CLOCK_MONOTONIC, so the time does not depend on free
 * cores.  While asleep the thread is SCHED_FIFO when allowed (as root), so
 * that on a busy host it runs again when the sleep ends instead of a time
 * slice later; it is back to its own policy before any MPI call.  Can't
 * fail. */
static inline void work(double us)
{
	uint64_t until = now_ns() + (uint64_t)(us * 1e3);
	struct timespec ts = { .tv_sec = (time_t)(until / 1000000000u), .tv_nsec = (long)(until % 1000000000u) };
	struct sched_param rt = { .sched_priority = 1 }, old;
	int policy = sched_getscheduler(0), raised;

	sched_getparam(0, &old);
	raised = policy == SCHED_OTHER && sched_setscheduler(0, SCHED_FIFO, &rt) == 0;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	if (raised)
		sched_setscheduler(0, policy, &old);
}

/* vary(i): a deterministic factor in [0.8, 1.2] for step i */
static inline double vary(int i)
{
	static const double f[] = { 1.0, 0.8, 1.2, 0.9, 1.1, 0.85, 1.15, 0.95, 1.05 };

	return f[(unsigned)i % (sizeof(f) / sizeof(f[0]))];
}

/* MPI_Init, with sleeps that end on time; returns the clock after it. */
static inline uint64_t comp_init(int *argc, char ***argv)
{
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	MPI_Init(argc, argv);
	return now_ns();
}

#endif
