/*
 * test-rt-mutex.c - unit tests for sampler/rt-mutex.h: threads that take
 * turns on one lock lose no increment, a thread waits while another holds
 * it and goes on once it is let go, and the lock is left free.
 */
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "../../sampler/rt-mutex.h"
#include "no-runtime.h"
#include "tap.h"

#define THREADS 4
#define ROUNDS 200000

static struct rt_mutex lock;
static uint64_t counter;	/* only under the lock, not atomic */

static void *add_rounds(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		rt_mutex_lock(&lock);
		counter++;
		rt_mutex_unlock(&lock);
	}
	return NULL;
}

static void test_turns(void)
{
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, add_rounds, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	is_int((long long)counter, (long long)THREADS * ROUNDS, "no increment lost");
	is_int(lock.state, 0, "left free");
}

static int entered;

static void *take_once(void *arg)
{
	(void)arg;
	rt_mutex_lock(&lock);
	__atomic_store_n(&entered, 1, __ATOMIC_RELAXED);
	rt_mutex_unlock(&lock);
	return NULL;
}

static void test_waits(void)
{
	struct timespec ms50 = { 0, 50 * 1000 * 1000 };
	pthread_t t;

	rt_mutex_lock(&lock);
	pthread_create(&t, NULL, take_once, NULL);
	nanosleep(&ms50, NULL);
	ok(!__atomic_load_n(&entered, __ATOMIC_RELAXED), "held: the other thread waits");
	is_int(lock.state, 2, "... and marked it waited for");
	rt_mutex_unlock(&lock);
	pthread_join(t, NULL);
	ok(entered, "let go: it took the lock");
	is_int(lock.state, 0, "left free");
	is_int(rt_crit_depth, 0, "no lock counted as held");
}

int main(void)
{
	test_turns();
	test_waits();
	return tap_done();
}
