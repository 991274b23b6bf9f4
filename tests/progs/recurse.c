/*
 * recurse.c - direct recursion 60 deep (rec) and a mutually recursive pair
 * (ping/pong) 60 deep, each spinning at the bottom, and reading the clock
 * for a few percent of the time, so that every run, short or long, has
 * samples in clock_gettime (size.t: a path that only some runs have would
 * look like growth).  Usage: recurse SECONDS
 */
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void spin(long n)
{
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1;
	sink = x;
}

__attribute__((noinline)) int rec(int depth)
{
	if (depth == 0) {
		spin(300000);
		return 0;
	}
	if (depth % 10 == 0)
		spin(20000);
	return rec(depth - 1) + (int)(sink & 1);	/* not a tail call */
}

int pong(int depth);

__attribute__((noinline)) int ping(int depth)
{
	if (depth == 0) {
		spin(200000);
		return 0;
	}
	return pong(depth - 1) + (int)(sink & 1);
}

__attribute__((noinline)) int pong(int depth)
{
	if (depth == 0) {
		spin(100000);
		return 0;
	}
	return ping(depth - 1) + (int)(sink & 1);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2, start = now();
	int r = 0;

	while (now() - start < seconds) {
		r += rec(60) + ping(60);
		for (int i = 0; i < 2000; i++)
			sink += (unsigned long)now();
	}
	return r < 0;
}
