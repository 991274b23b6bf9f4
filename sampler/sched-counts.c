/*
 * sched-counts.c - the calling thread's scheduler counts (sched-counts.h).
 *
 * /proc/thread-self/schedstat holds three numbers: time on a CPU, time
 * waiting on a run queue, and times scheduled in (kernels with
 * CONFIG_SCHED_INFO, which distributions enable).  It is opened for each
 * read and closed again: a descriptor kept open would be one the program
 * could close or reuse under us.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sched-counts.h"

static int read_schedstat(struct sched_counts *s)
{
	char buf[96];
	unsigned long long run, delay, in;
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu %llu", &run, &delay, &in) != 3)
		return -1;
	*s = (struct sched_counts){ in, delay };
	return 0;
}

struct sched_counts sched_counts_now(void)
{
	struct sched_counts s = { 0, 0 };
	struct rusage ru;

	if (!read_schedstat(&s))
		return s;
	if (!getrusage(RUSAGE_THREAD, &ru))
		s.switches = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
	return s;
}
