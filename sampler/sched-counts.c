/*
 * sched-counts.c - the calling thread's scheduler counts (sched-counts.h).
 *
 * /proc/thread-self/schedstat holds three numbers: time on a CPU, time
 * waiting on a run queue, and times scheduled in (kernels with
 * CONFIG_SCHED_INFO, which distributions enable).  Each thread opens it
 * once; the descriptor is closed when the thread exits (a key destructor).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sched-counts.h"

static pthread_key_t fd_key;
static pthread_once_t fd_once = PTHREAD_ONCE_INIT;
static _Thread_local int sched_fd = -2;	/* -2 not opened yet, -1 none */

/* The key's value is fd + 1: a null value is never destroyed. */
static void close_fd(void *v)
{
	close((int)(intptr_t)v - 1);
}

static void make_key(void)
{
	pthread_key_create(&fd_key, close_fd);
}

static int thread_fd(void)
{
	if (sched_fd == -2) {
		sched_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
		pthread_once(&fd_once, make_key);
		if (sched_fd >= 0)
			pthread_setspecific(fd_key, (void *)(intptr_t)(sched_fd + 1));
	}
	return sched_fd;
}

static int read_schedstat(struct sched_counts *s)
{
	char buf[96];
	unsigned long long run, delay, in;
	int fd = thread_fd();
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;

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
