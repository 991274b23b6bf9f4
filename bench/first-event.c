/*
 * first-event.c - how long the host's kernel takes to open a per-task perf
 * event when none is open: the start-up floor of every per-task profiler,
 * for the busy-core benchmark's fixed cost.  The first such event turns
 * on the scheduler's perf hooks and waits for an RCU grace period before
 * it returns (a few jiffies: 5-15 ms on the development VM); the kernel
 * turns the hooks off again a second after the last one is closed.  So
 * run it at least a second after any profiled run; when another per-task
 * event is open on the host it measures the cheap case, as a profiler
 * started then would pay.
 * Prints the open's wall time in microseconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(void)
{
	struct perf_event_attr a;
	double t0, t1;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	t0 = now_us();
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	t1 = now_us();
	if (fd < 0) {
		fprintf(stderr, "first-event: task-clock on this thread: %s\n", strerror(errno));
		return 1;
	}
	printf("%.0f\n", t1 - t0);
	return 0;
}
