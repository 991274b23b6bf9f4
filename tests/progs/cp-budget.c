/*
 * cp-budget.c - a message-heavy ping-pong for the critical path's budget
 * (cp.t, size.t): rank 0 spins in work_a() for A_US microseconds, sends a
 * token to rank 1, which spins in work_b() for B_US and sends it back, for
 * SECONDS.  Both spins lie on the path, which crosses between the ranks at
 * every message: every receive wins, so every message adds a link, and a
 * long run fills any budget.  The path's shares are A/(A+B) and B/(A+B).
 *
 * Usage: cp-budget SECONDS [A_US B_US] (default 150 100).  Prints
 * "cp-budget rounds=N" on rank 0.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "spin-leaf.h"

static NOINLINE void work_a(double us)
{
	SPIN(us);
}

static NOINLINE void work_b(double us)
{
	SPIN(us);
	sink ^= 1;	/* not the same code as work_a */
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;
	double a = argc > 3 ? atof(argv[2]) : 150, b = argc > 3 ? atof(argv[3]) : 100;
	long rounds = 0;
	int rank, size, go = 1;
	double end;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		if (rank == 0)
			fprintf(stderr, "cp-budget: needs 2 ranks, not %d\n", size);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	end = now_us() + seconds * 1e6;
	while (go) {
		if (rank == 0) {
			work_a(a);
			go = now_us() < end;
			MPI_Send(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			work_b(b);
			MPI_Send(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
		rounds++;
	}
	if (rank == 0)
		printf("cp-budget rounds=%ld\n", rounds);
	MPI_Finalize();
	return 0;
}
