/*
 * two-parts.c - two functions of a given amount of work each, for
 * `cpperf diff` (tests/integration/diff.t): making one of them do twice
 * the work must show in it alone.
 *
 * Usage: two-parts MILLIONS_A MILLIONS_B
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

/* The work, written out in each function (a function it called, even
 * inlined, would be a frame of its own in the profile). */
#define CHURN(n) do { \
	unsigned long x_ = sink; \
	for (long i_ = 0; i_ < (n); i_++) \
		x_ = x_ * 6364136223846793005ul + 1442695040888963407ul; \
	sink = x_; \
} while (0)

__attribute__((noinline)) static void part_a(long n)
{
	CHURN(n);
}

__attribute__((noinline)) static void part_b(long n)
{
	CHURN(n);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: two-parts MILLIONS_A MILLIONS_B\n");
		return 2;
	}
	part_a(atol(argv[1]) * 1000000);
	part_b(atol(argv[2]) * 1000000);
	printf("two-parts ok\n");
	return 0;
}
