/*
 * comp-ring.c - two ranks that compute on their CPUs and swap a few bytes
 * after every step, for comp.t: each rank's samples delay the other at the
 * next exchange, so a sample's cost must reach the delay that travels with
 * the next message, not some tens of milliseconds later when the drain
 * thread folds it (by then the partner's smaller delay has replaced it).
 *
 * Unlike the other comp-*.c programs the work really computes (samples of
 * a CPU clock come only from a thread that runs).  Prints "rank R wall S".
 * Usage: comp-ring [STEPS]   (default 20000, about 0.5 s)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "comp-work.h"

/* About 25 us of arithmetic the compiler cannot drop. */
static double compute(double x)
{
	for (int i = 0; i < 20000; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 20000;
	int rank, size;
	double x = 1, got;
	uint64_t t0, t1;

	t0 = comp_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 0; i < steps; i++) {
		int peer = (rank + 1) % size;

		x = compute(x);
		MPI_Sendrecv(&x, 1, MPI_DOUBLE, peer, 0, &got, 1, MPI_DOUBLE, peer, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		x += got * 1e-12;
	}
	t1 = now_ns();
	printf("rank %d wall %.6f (%g)\n", rank, (t1 - t0) * 1e-9, x > 0 ? 1.0 : 0.0);
	MPI_Finalize();
	return 0;
}
