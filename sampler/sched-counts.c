/*
 * sched-counts.c - the calling thread's context switches (sched-counts.h).
 *
 * getrusage counts them without a descriptor.  /proc/thread-self/schedstat,
 * read here before, needed one for each read, and the drain thread's first
 * read came while the program started: a program that lowers
 * RLIMIT_NOFILE and opens files up to it found one slot taken, now and
 * then (3 runs in 60 as an ordinary user).
 */
#include <sys/resource.h>

#include "sched-counts.h"

uint64_t sched_switches_now(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}
