/*
 * deep.c - recursion DEPTH frames deep, spinning at the bottom, CALLS
 * times; built with frame pointers for --call-graph=fp.  The loop counts
 * calls, it reads no clock.  Usage: deep DEPTH CALLS
 */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) static void spin(long n)
{
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1;
	sink = x;
}

__attribute__((noinline)) int dive(int depth)
{
	if (depth <= 0) {
		spin(1000000);
		return 0;
	}
	return dive(depth - 1) + (int)(sink & 1);	/* not a tail call */
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 200;
	long calls = argc > 2 ? atol(argv[2]) : 500;
	int r = 0;

	for (long i = 0; i < calls; i++)
		r += dive(depth);
	return r < 0;
}
