/*
 * omp-phases.c - an OpenMP program of known thread activity: a short
 * parallel region that starts the team, serial_part alone for 1 s, then a
 * parallel region in which thread 0 works SHARE0 s and thread 1 SHARE1 s
 * (argv[1], argv[2]; 2 and 2 by default) in parallel_work, waiting at the
 * region's implicit barrier for the slower.  It prints the share of a CPU
 * that serial_part and each thread's parallel_work got ("cpu_share WHAT
 * X"): below 1 the host time-sliced them.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "spin.h"

__attribute__((noinline)) double serial_part(double s)
{
	double share = compute_share(s);

	sink++;
	return share;
}

__attribute__((noinline)) double parallel_work(double s)
{
	double share = compute_share(s);

	sink++;
	return share;
}

int main(int argc, char **argv)
{
	double share[2] = { argc > 1 ? atof(argv[1]) : 2, argc > 2 ? atof(argv[2]) : 2 };
	double got[2] = { 0, 0 }, serial;

	omp_set_num_threads(2);
#pragma omp parallel
	parallel_work(0.05);
	serial = serial_part(1.0);
#pragma omp parallel
	{
		int t = omp_get_thread_num();

		if (t < 2)
			got[t] = parallel_work(share[t]);
	}
	printf("cpu_share serial_part %.3f\n", serial);
	for (int t = 0; t < 2; t++)
		printf("cpu_share thread%d %.3f\n", t, got[t]);
	return 0;
}
