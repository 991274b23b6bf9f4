/*
 * mpi-omp.c - a hybrid MPI+OpenMP program of 2 threads a rank: STEPS
 * steps (argv[1], 20 by default) of a parallel region where each thread
 * computes WORK s (argv[2], 0.05), then an exchange between the ranks.
 * argv[3] "funneled" (default): the main thread exchanges with
 * MPI_Allreduce between the regions; "multiple": each thread exchanges
 * with the neighbour rank (tag its number) inside the region.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spin.h"

__attribute__((noinline)) void thread_work(double s)
{
	compute(s);
	sink++;
}

static void exchange(int rank, int size, int tag)
{
	int peer = rank ^ 1, out = rank, in = -1;

	if (peer >= size)
		return;
	MPI_Sendrecv(&out, 1, MPI_INT, peer, tag, &in, 1, MPI_INT, peer, tag, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 20;
	double work = argc > 2 ? atof(argv[2]) : 0.05;
	int multiple = argc > 3 && !strcmp(argv[3], "multiple");
	int want = multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED, got, rank, size;

	MPI_Init_thread(&argc, &argv, want, &got);
	if (got < want) {
		fprintf(stderr, "mpi-omp: the MPI gives thread level %d, not %d\n", got, want);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	omp_set_num_threads(2);
	for (int s = 0; s < steps; s++) {
		int sum = 0, one = 1;

#pragma omp parallel
		{
			thread_work(work);
			if (multiple)
				exchange(rank, size, omp_get_thread_num());
		}
		if (!multiple)
			MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
