/*
 * thread-churn.c - threads that begin and end all the time: rounds of four
 * short threads that are joined and one that is detached, for SECONDS;
 * the last detached ones may still run when main returns.  For the
 * ThreadSanitizer runs of make check-stress (tests/stress.sh).
 * Usage: thread-churn SECONDS
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Spin 0.5 to 2.5 ms, by the thread's number. */
static void *spin(void *p)
{
	double end = now() + 0.0005 * (double)(1 + (uintptr_t)p % 5);
	volatile unsigned long x = 0;

	while (now() < end)
		x++;
	return NULL;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 2);
	uintptr_t n = 0;
	pthread_attr_t detached;

	pthread_attr_init(&detached);
	pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
	while (now() < end) {
		pthread_t t[4], d;

		for (int i = 0; i < 4; i++)
			if (pthread_create(&t[i], NULL, spin, (void *)n++))
				return 1;
		if (pthread_create(&d, &detached, spin, (void *)n++))
			return 1;
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
	}
	return 0;
}
