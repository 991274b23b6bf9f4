/*
 * test-sched.c - unit tests for sampler/sched-counts.c: the calling
 * thread's switch count grows by at least one per sleep, and while
 * another thread competes for its only CPU; it is the thread's own; and
 * it is read without a descriptor, so at a descriptor limit reached too.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/resource.h>
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
	*(uint64_t *)arg = sched_switches_now();
	return NULL;
}

static void test_sleeps(void)
{
	uint64_t a = sched_switches_now(), b;
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 5; i++)
		nanosleep(&ms, NULL);
	b = sched_switches_now();
	ok(b >= a + 5, "five sleeps: at least five more switches");
	if (b < a + 5)
		printf("#   %llu -> %llu\n", (unsigned long long)a, (unsigned long long)b);
}

static void test_rival(void)
{
	uint64_t a, b;
	pthread_t t;

	if (pin_to(0) || pthread_create(&t, NULL, rival, NULL)) {
		tap_skip("a rival on the same CPU switches it out", "cannot pin two threads to CPU 0");
		return;
	}
	a = sched_switches_now();
	spin_ns(100000000);	/* 100 ms of wall time, taking turns with the rival */
	b = sched_switches_now();
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	ok(b >= a + 2, "a rival on the same CPU switches it out");
	printf("#   %llu switches in 100 ms\n", (unsigned long long)(b - a));
}

static void test_threads(void)
{
	int before = open_fds();
	uint64_t got[8];
	pthread_t t[8];

	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, read_and_exit, &got[i]);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	is_int(open_fds(), before, "eight threads read their counts and exit: no descriptor left open");
	ok(got[0] < sched_switches_now(), "the counts are the thread's own, not the process's");
}

/* With no descriptor left to open, the count still grows. */
static void test_no_descriptor(void)
{
	struct rlimit old, low;
	struct timespec ms = { 0, 1000000 };
	int fds[64], n = 0;
	uint64_t a, b;

	getrlimit(RLIMIT_NOFILE, &old);
	low = old;
	low.rlim_cur = 64;
	if (old.rlim_cur < 64 || setrlimit(RLIMIT_NOFILE, &low)) {
		tap_skip("counted at a descriptor limit reached", "cannot lower RLIMIT_NOFILE to 64");
		return;
	}
	while (n < 64 && (fds[n] = open("/dev/null", O_RDONLY)) >= 0)
		n++;
	a = sched_switches_now();
	nanosleep(&ms, NULL);
	b = sched_switches_now();
	while (n > 0)
		close(fds[--n]);
	setrlimit(RLIMIT_NOFILE, &old);
	ok(a > 0 && b > a, "counted at a descriptor limit reached");
}

int main(void)
{
	test_sleeps();
	test_rival();
	test_threads();
	test_no_descriptor();
	return tap_done();
}
