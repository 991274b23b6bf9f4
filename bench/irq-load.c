/*
 * irq-load.c - the interrupts of a sampling profiler and nothing else,
 * for the busy-core benchmarks: on every online CPU a CPU-wide cpu-clock
 * event that overflows HZ times a second, with no ring buffer, so that
 * each overflow is an interrupt and no sample is written, no stack copied
 * and no thread woken.  A program run beside it pays what a profiler at
 * HZ cannot avoid on this host (on a virtual machine, the timer's exits
 * to the hypervisor): the floor of a profiler's cost (docs/record.md).
 * Prints "ready" once every event is on, then runs until it is killed.
 * Needs CPU-wide events: root, CAP_PERFMON or perf_event_paranoid <= 0.
 * Usage: irq-load HZ
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_on(int cpu, unsigned long hz)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000000000ul / hz;	/* cpu-clock counts ns */
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int main(int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long hz = argc == 2 ? strtoul(argv[1], NULL, 10) : 0;

	if (!hz || hz > 100000) {
		fprintf(stderr, "usage: irq-load HZ (1..100000)\n");
		return 2;
	}
	for (long cpu = 0; cpu < cpus; cpu++) {
		if (open_on((int)cpu, hz) < 0) {
			fprintf(stderr, "irq-load: CPU-wide cpu-clock on CPU %ld: %s%s\n", cpu,
				strerror(errno),
				errno == EACCES || errno == EPERM ?
				" (needs root, CAP_PERFMON or perf_event_paranoid <= 0)" : "");
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
