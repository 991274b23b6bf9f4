/*
 * test-sched.c - unit tests for sampler/sched-counts.c: the calling
 * thread's switch count grows by at least one per sleep; its run-queue
 * delay grows while another thread competes for its only CPU and hardly
 * at all while it sleeps; threads that read their counts and exit leave
 * no descriptor open.  Where the kernel has no schedstat, the delay checks
 * are skipped (the switch count then comes from getrusage).
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "../../sampler/sched-counts.h"
#include "files.h"
#include "tap.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void spin_ns(uint64_t ns)
{
	uint64_t until = mono_ns() + ns;

	while (mono_ns() < until)
		;
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static atomic_bool stop;

/* Competes for CPU 0 until told to stop. */
static void *rival(void *arg)
{
	(void)arg;
	if (pin_to(0))
		return NULL;
	while (!atomic_load(&stop))
		;
	return NULL;
}

static void *read_and_exit(void *arg)
{
	*(struct sched_counts *)arg = sched_counts_now();
	return NULL;
}

static void test_switches(void)
{
	struct sched_counts a = sched_counts_now(), b;
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 5; i++)
		nanosleep(&ms, NULL);
	b = sched_counts_now();
	ok(b.switches >= a.switches + 5, "five sleeps: at least five more switches");
	if (b.switches < a.switches + 5)
		printf("#   %llu -> %llu\n", (unsigned long long)a.switches, (unsigned long long)b.switches);
	ok(b.run_delay >= a.run_delay, "the run delay never decreases");
}

static void test_delay(void)
{
	struct sched_counts a, b, c;
	struct timespec ms = { 0, 20000000 };
	pthread_t t;

	if (access("/proc/thread-self/schedstat", R_OK)) {
		tap_skip("run delay grows with a rival on the same CPU", "no /proc/thread-self/schedstat here");
		tap_skip("run delay hardly grows while asleep", "no /proc/thread-self/schedstat here");
		return;
	}
	if (pin_to(0) || pthread_create(&t, NULL, rival, NULL)) {
		tap_skip("run delay grows with a rival on the same CPU", "cannot pin two threads to CPU 0");
		tap_skip("run delay hardly grows while asleep", "cannot pin two threads to CPU 0");
		return;
	}
	a = sched_counts_now();
	spin_ns(100000000);	/* 100 ms of wall time, about half of it waiting for the rival */
	b = sched_counts_now();
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	ok(b.run_delay - a.run_delay >= 20000000, "run delay grows with a rival on the same CPU (>= 20 of 100 ms)");
	printf("#   run delay %.1f ms in 100 ms\n", (double)(b.run_delay - a.run_delay) / 1e6);
	nanosleep(&ms, NULL);
	c = sched_counts_now();
	ok(c.run_delay - b.run_delay < 10000000, "run delay hardly grows while asleep (< 10 of 20 ms)");
	printf("#   run delay %.3f ms in a 20 ms sleep\n", (double)(c.run_delay - b.run_delay) / 1e6);
}

static void test_threads(void)
{
	int before = open_fds();
	struct sched_counts got[8];
	pthread_t t[8];

	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, read_and_exit, &got[i]);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	is_int(open_fds(), before, "eight threads read their counts and exit: no descriptor left open");
	ok(got[0].switches < sched_counts_now().switches, "the counts are the thread's own, not the process's");
}

int main(void)
{
	test_switches();
	test_delay();
	test_threads();
	return tap_done();
}
