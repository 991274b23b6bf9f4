/*
 * split.c - three functions that take about 60, 30 and 10 % of the CPU.
 * Each function measures its own thread CPU time, and the program prints the
 * true shares ("truth f60 PCT" lines) so tests compare the profile with what
 * actually happened.  Usage: split SECONDS
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

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3, start = cpu_now(), total;
	long unit = 200000;

	while (cpu_now() - start < seconds) {
		f60(unit);
		f30(unit);
		f10(unit);
	}
	total = cpu_now() - start;
	printf("truth f60 %.2f\ntruth f30 %.2f\ntruth f10 %.2f\n",
	       100 * spent[0] / total, 100 * spent[1] / total, 100 * spent[2] / total);
	return 0;
}
