/*
 * two-threads.c - two worker threads running different functions (work_a,
 * work_b) while the main thread waits.  Usage: threads SECONDS
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static double seconds = 2;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define WORKER(name) \
__attribute__((noinline)) void *name(void *arg) \
{ \
	volatile unsigned long x = 0; \
	double start = now(); \
	(void)arg; \
	while (now() - start < seconds) \
		for (int i = 0; i < 100000; i++) \
			x = x * 6364136223846793005ul + 1; \
	return NULL; \
}

WORKER(work_a)
WORKER(work_b)

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc > 1)
		seconds = atof(argv[1]);
	pthread_create(&a, NULL, work_a, NULL);
	pthread_create(&b, NULL, work_b, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
