/*
 * threads-alive.c - N threads alive at once, each computing for SECONDS
 * after all have started.  Usage: threads-alive N SECONDS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

static pthread_barrier_t all;
static double seconds;

static void *work(void *arg)
{
	pthread_barrier_wait(&all);
	compute(seconds);
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8;
	pthread_t *t = malloc(sizeof(*t) * (size_t)(n > 0 ? n : 1));

	seconds = argc > 2 ? atof(argv[2]) : 1;
	if (!t || n < 1 || pthread_barrier_init(&all, NULL, (unsigned)n + 1))
		return 2;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, NULL)) {
			perror("pthread_create");
			return 1;
		}
	pthread_barrier_wait(&all);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	return 0;
}
