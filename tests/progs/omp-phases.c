/*
 * omp-phases.c - an OpenMP program of known thread activity: a short
 * parallel region that starts the team, serial_part alone for 1 s, then a
 * parallel region in which thread 0 works SHARE0 s and thread 1 SHARE1 s
 * (argv[1], argv[2]; 2 and 2 by default) in parallel_work, waiting at the
 * region's implicit barrier for the slower.  It prints the share of a CPU
 * each thread got while it worked ("cpu_share T X"): below 1 the host
 * time-sliced it.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "spin.h"

static double thread_cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* compute for s seconds; the share of a CPU it got */
static double timed_compute(double s)
{
	double c0 = thread_cpu(), t0 = now();

	compute(s);
	return (thread_cpu() - c0) / (now() - t0);
}

__attribute__((noinline)) void serial_part(double s)
{
	compute(s);
	sink++;
}

__attribute__((noinline)) double parallel_work(double s)
{
	double share = timed_compute(s);

	sink++;
	return share;
}

int main(int argc, char **argv)
{
	double share[2] = { argc > 1 ? atof(argv[1]) : 2, argc > 2 ? atof(argv[2]) : 2 };
	double got[2] = { 0, 0 };

	omp_set_num_threads(2);
#pragma omp parallel
	parallel_work(0.05);
	serial_part(1.0);
#pragma omp parallel
	{
		int t = omp_get_thread_num();

		if (t < 2)
			got[t] = parallel_work(share[t]);
	}
	for (int t = 0; t < 2; t++)
		printf("cpu_share %d %.3f\n", t, got[t]);
	return 0;
}
