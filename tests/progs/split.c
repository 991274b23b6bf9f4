/*
 * split.c - three functions that take about 60, 30 and 10 % of the CPU.
 * Each function measures its own thread CPU time, and the program prints the
 * true shares ("truth f60 PCT" lines) so tests compare the profile with what
 * actually happened.  Usage: split SECONDS [UNIT] (work a round, on average
 * 200000 steps of f10's)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double spent[3];
volatile unsigned long sink;

#define WORK(n) do { \
	unsigned long x_ = sink; \
	for (long i_ = 0; i_ < (n); i_++) \
		x_ = x_ * 6364136223846793005ul + 1442695040888963407ul; \
	sink = x_; \
} while (0)

#define TIMED_FUNCTION(name, slot, units) \
__attribute__((noinline)) void name(long unit) \
{ \
	double t0 = cpu_now(); \
	WORK((units) * unit); \
	spent[slot] += cpu_now() - t0; \
}

TIMED_FUNCTION(f60, 0, 6)
TIMED_FUNCTION(f30, 1, 3)
TIMED_FUNCTION(f10, 2, 1)

/* The next of a fixed pseudo-random sequence (xorshift64). */
static unsigned long next_random(unsigned long *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3, start = cpu_now(), total;
	long unit = argc > 2 ? atol(argv[2]) : 200000;
	unsigned long x = 88172645463325252ul;

	/* Each round's work is scaled by a pseudo-random 0.5 to 1.5, the
	 * same for the three functions.  A round of fixed length would be
	 * sampled at the same few points of it whenever it lasted a multiple
	 * of the sampling period (a round of 2 ms at 1 000 samples a second:
	 * shares off by up to 5 points), and its length is the host's. */
	while (cpu_now() - start < seconds) {
		long u = unit / 2 + (long)(next_random(&x) % (unsigned long)unit);

		f60(u);
		f30(u);
		f10(u);
	}
	total = cpu_now() - start;
	printf("truth f60 %.2f\ntruth f30 %.2f\ntruth f10 %.2f\n",
	       100 * spent[0] / total, 100 * spent[1] / total, 100 * spent[2] / total);
	return 0;
}
