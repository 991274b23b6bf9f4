/*
 * deep.c - recursion DEPTH frames deep, spinning at the bottom, CALLS
 * times; built with frame pointers for --call-graph=fp.  The loop counts
 * calls, it reads no clock.  Usage: deep DEPTH CALLS
 */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) int dive(int depth)
{
	unsigned long x;

	if (depth > 0)	/* sink read after the call: not a loop, not a tail call */
		return dive(depth - 1) + (int)(sink & 1);
	x = sink;
	for (long i = 0; i < 1000000; i++)	/* the bottom spins */
		x = x * 6364136223846793005ul + 1;
	sink = x;
	return 0;
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
