/*
 * cpu-bound.c - a fixed amount of CPU work with a realistic call tree (a
 * few levels, several leaves, a recursive part) for `make bench`.  The work
 * does not depend on time, so wall times with and without the profiler
 * compare directly.  Usage: cpu-bound ROUNDS
 */
#include <stdio.h>
#include <stdlib.h>

#define N 96

static double a[N][N], b[N][N], c[N][N];

__attribute__((noinline)) static void matmul(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			double s = 0;

			for (int k = 0; k < N; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

__attribute__((noinline)) static unsigned long fib(int n)
{
	return n < 2 ? (unsigned long)n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static unsigned long hash_loop(unsigned long x, long n)
{
	for (long i = 0; i < n; i++)
		x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15ul + (unsigned long)i;
	return x;
}

__attribute__((noinline)) static unsigned long step(int r)
{
	matmul();
	return fib(24) + hash_loop((unsigned long)r, 400000) + (unsigned long)c[r % N][r % N];
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1000;
	unsigned long sum = 0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			a[i][j] = i + j;
			b[i][j] = i - j;
		}
	for (long r = 0; r < rounds; r++)
		sum += step((int)r);
	printf("%lu\n", sum);
	return 0;
}
