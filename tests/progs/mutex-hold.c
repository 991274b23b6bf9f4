/*
 * mutex-hold.c - a pthread program whose main thread holds a mutex while
 * it works in hold_work (HOLD s in all, argv[1], 1 by default) and two
 * waiters block on it the whole time: their time is idle, blamed on
 * hold_work.  The waiters take the mutex only once main is done.  It
 * prints the share of a CPU hold_work got ("cpu_share hold_work X").
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "spin.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t ready;

static void *waiter(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&ready);
	pthread_mutex_lock(&m);
	sink++;
	pthread_mutex_unlock(&m);
	return NULL;
}

__attribute__((noinline)) double hold_work(double s)
{
	double share = compute_share(s);

	sink++;
	return share;
}

int main(int argc, char **argv)
{
	double hold = argc > 1 ? atof(argv[1]) : 1;
	pthread_t t[2];
	double share;

	pthread_barrier_init(&ready, NULL, 3);
	pthread_mutex_lock(&m);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, waiter, NULL);
	pthread_barrier_wait(&ready);
	share = hold_work(hold);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("cpu_share hold_work %.3f\n", share);
	return 0;
}
