/*
 * exit-thread.c - a library whose service thread starts at its first use
 * and ends in the library's destructor, as MPI libraries stop their
 * progress threads; the destructor runs after the preloaded runtime's, so
 * the thread ends after cpperf has written the profile.  Built twice: with
 * -DEXIT_THREAD_LIB as libexit-thread.so, and as the program that links it
 * (make check-stress, under the ASan build of the runtime).
 * Usage: exit-thread
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

void service_start(void);

#ifdef EXIT_THREAD_LIB

static pthread_t service;
static atomic_bool stop;
static bool started;

static void *serve(void *arg)
{
	struct timespec ms = { 0, 1000000 };

	(void)arg;
	while (!atomic_load(&stop))
		nanosleep(&ms, NULL);
	return NULL;
}

void service_start(void)
{
	started = pthread_create(&service, NULL, serve, NULL) == 0;
}

__attribute__((destructor)) static void service_stop(void)
{
	if (!started)
		return;
	atomic_store(&stop, true);
	pthread_join(service, NULL);
}

#else

int main(void)
{
	struct timespec run = { 0, 100000000 };

	service_start();
	nanosleep(&run, NULL);
	return 0;
}

#endif
