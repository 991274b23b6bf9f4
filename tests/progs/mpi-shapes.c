/*
 * mpi-shapes.c - programs whose ranks fall into known behavioural
 * classes, or whose computations are known, for tests/integration/graph.t
 * (docs/graph.md).  Work is slept (work()), so that every rank of a class
 * works as long as the others whatever the cores, but in phases, where
 * it is computed for a known CPU time so that it is sampled.
 *
 *   stencil STEPS   rank 0 hands every other rank its part, the others
 *                   run a 1-D stencil among themselves (each step: work
 *                   2 ms, then exchange a halo with the neighbours, rank 1
 *                   and the last having one neighbour each), then rank 0
 *                   collects the parts: classes 0, 1, 2..n-2, n-1
 *   workers ROUNDS  rank 0 sends each other rank a task per round and
 *                   receives its result; a task is 2 ms of work: classes
 *                   0 and 1..n-1
 *   phases ROUNDS   every rank, each round, computes 20 ms of its CPU
 *                   time in alpha(), enters MPI_Barrier, computes 5 ms in
 *                   beta(), enters MPI_Allreduce
 *
 * Usage: mpi-shapes stencil|workers|phases COUNT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comp-work.h"

#define PART 64		/* doubles a rank owns */

static int rank, nranks;

static void __attribute__((noinline)) hand_out(double *part)
{
	if (rank == 0) {
		for (int r = 1; r < nranks; r++)
			MPI_Send(part, PART, MPI_DOUBLE, r, 0, MPI_COMM_WORLD);
	} else {
		MPI_Recv(part, PART, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
}

static void __attribute__((noinline)) collect(double *part)
{
	if (rank == 0) {
		for (int r = 1; r < nranks; r++)
			MPI_Recv(part, PART, MPI_DOUBLE, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Send(part, PART, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
	}
}

/* One step's halo exchange of a worker with its neighbours in 1..n-1. */
static void __attribute__((noinline)) exchange(double *part)
{
	MPI_Request req[4];
	double left = 0, right = 0;
	int n = 0;

	if (rank > 1) {
		MPI_Irecv(&left, 1, MPI_DOUBLE, rank - 1, 2, MPI_COMM_WORLD, &req[n++]);
		MPI_Isend(&part[0], 1, MPI_DOUBLE, rank - 1, 2, MPI_COMM_WORLD, &req[n++]);
	}
	if (rank < nranks - 1) {
		MPI_Irecv(&right, 1, MPI_DOUBLE, rank + 1, 2, MPI_COMM_WORLD, &req[n++]);
		MPI_Isend(&part[PART - 1], 1, MPI_DOUBLE, rank + 1, 2, MPI_COMM_WORLD, &req[n++]);
	}
	MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
	part[0] = (part[0] + left) / 2;
	part[PART - 1] = (part[PART - 1] + right) / 2;
}

static void stencil(int steps)
{
	double part[PART] = { 0 };

	hand_out(part);
	for (int s = 0; s < steps && rank > 0; s++) {
		work(2000);
		exchange(part);
	}
	collect(part);
}

/* Spin until the thread has run ms milliseconds more. */
static void spin(double ms)
{
	struct timespec t;
	uint64_t until;
	volatile double x = 1;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	until = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec + (uint64_t)(ms * 1e6);
	do {
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec < until);
}

static void __attribute__((noinline)) alpha(void)
{
	spin(20);
}

static void __attribute__((noinline)) beta(void)
{
	spin(5);
}

static void phases(int rounds)
{
	double v = 1, sum;

	for (int k = 0; k < rounds; k++) {
		alpha();
		MPI_Barrier(MPI_COMM_WORLD);
		beta();
		MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
}

static void workers(int rounds)
{
	double task = 1, result = 0;

	for (int k = 0; k < rounds; k++) {
		if (rank == 0) {
			for (int r = 1; r < nranks; r++)
				MPI_Send(&task, 1, MPI_DOUBLE, r, 3, MPI_COMM_WORLD);
			for (int r = 1; r < nranks; r++)
				MPI_Recv(&result, 1, MPI_DOUBLE, r, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&task, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			work(2000);
			MPI_Send(&task, 1, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
		}
	}
}

int main(int argc, char **argv)
{
	int count = argc > 2 ? atoi(argv[2]) : 0;

	comp_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (argc != 3 || count <= 0 ||
	    (strcmp(argv[1], "phases") && (nranks < 3 ||
	     (strcmp(argv[1], "stencil") && strcmp(argv[1], "workers"))))) {
		if (rank == 0)
			fprintf(stderr, "usage: mpi-shapes stencil|workers COUNT (3 ranks or more), "
				"or phases COUNT\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (argv[1][0] == 's')
		stencil(count);
	else if (argv[1][0] == 'w')
		workers(count);
	else
		phases(count);
	MPI_Finalize();
	return 0;
}
