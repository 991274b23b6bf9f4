/*
 * mpi-calls.c - the cost of one wrapped MPI call: MPI_Test on
 * MPI_REQUEST_NULL (almost free inside MPI) from one call site, called
 * from DEPTH nested frames, N times.  Prints "test_DEPTH NS" (ns per call).
 * Run it with and without the MPI wrappers (CPPERF_MPI=none) to get the
 * wrappers' share: bench/mpi.sh does.  Usage: mpi-calls [N].
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

static __attribute__((noinline)) void calls(long n)
{
	MPI_Request r = MPI_REQUEST_NULL;
	int flag;

	for (long i = 0; i < n; i++)
		MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
}

/* calls() below depth more frames */
static __attribute__((noinline)) void nest(int depth, long n)
{
	if (depth > 0)
		nest(depth - 1, n);
	else
		calls(n);
	sink++;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	static const int depths[] = { 0, 30 };

	MPI_Init(&argc, &argv);
	for (unsigned k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
		double t0;

		nest(depths[k], 1000);	/* the site's first call */
		t0 = MPI_Wtime();
		nest(depths[k], n);
		printf("test_%d %.1f\n", depths[k], (MPI_Wtime() - t0) / (double)n * 1e9);
	}
	MPI_Finalize();
	return 0;
}
