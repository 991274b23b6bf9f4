/*
 * inline.c - a hot function (hot_inlined) always inlined into its caller
 * (outer), which the profile must still show as a frame of its own.
 * Usage: inline SECONDS
 */
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

static inline __attribute__((always_inline)) void hot_inlined(long n)
{
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
}

__attribute__((noinline)) void outer(void)
{
	hot_inlined(1000000);
	sink += 1;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2;
	struct timespec ts;
	double start, t;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	start = ts.tv_sec + ts.tv_nsec * 1e-9;
	do {
		outer();
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t = ts.tv_sec + ts.tv_nsec * 1e-9;
	} while (t - start < seconds);
	return 0;
}
