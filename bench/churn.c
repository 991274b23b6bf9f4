/*
 * churn.c - threads created and joined one after another, each ending at
 * once, for `make bench` (bench/threads.sh): what starting and ending a
 * thread costs.  Prints the wall time and the process's CPU time per
 * thread in microseconds: "WALL CPU".  With "floor", each thread does
 * what any profiler that samples it through its own perf event and ring
 * must: open a task-clock event that copies 16 KiB of stack a sample, map
 * the smallest ring that holds two samples (8 pages) and unmap it, close
 * the event; nothing else.  Usage: churn THREADS [floor]
 */
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define FLOOR_PAGES 8

static void *nothing(void *arg)
{
	return arg;
}

static void *floor_only(void *arg)
{
	struct perf_event_attr a;
	size_t len = (FLOOR_PAGES + 1) * (size_t)sysconf(_SC_PAGESIZE);
	void *ring;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = 1;
	a.freq = 1;
	a.sample_freq = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a.sample_regs_user = 0xff01ff;
	a.sample_stack_user = 16384;
	a.watermark = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return arg;
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring != MAP_FAILED)
		munmap(ring, len);
	close(fd);
	return arg;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	void *(*fn)(void *) = argc > 2 && !strcmp(argv[2], "floor") ? floor_only : nothing;
	double t0 = now(), c0 = cpu();

	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, fn, NULL) || pthread_join(t, NULL))
			return 1;
	}
	printf("%.1f %.1f\n", (now() - t0) / n * 1e6, (cpu() - c0) / n * 1e6);
	return 0;
}
