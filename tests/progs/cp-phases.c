/*
 * cp-phases.c - a program whose phases differ, for the critical path's
 * fold points (cp-fold.t): a set-up phase of SETUP seconds, then a solver
 * phase of SOLVE seconds.  In each, rank 0 spins in the phase's function
 * for A_US microseconds and sends a token on along a ring, where every
 * rank spins B_US in the same function before passing it on; every EVERY
 * rounds all ranks meet in an MPI_Allreduce over MPI_COMM_WORLD (a
 * residual, as solvers have).  Every spin lies on the path, which crosses
 * the ranks at every message, so every message adds a link and a long
 * run fills any budget; the path's shares are the phases' times:
 * setup_work about SETUP / (SETUP + SOLVE), solve_work the rest.
 *
 * Usage: cp-phases SETUP SOLVE [A_US B_US EVERY [multiple]] (default 300
 * 200 20); "multiple" asks MPI_Init_thread for MPI_THREAD_MULTIPLE, though
 * one thread calls MPI.  Prints "cp-phases setup=N solve=M" (rounds of each
 * phase) on rank 0, and " multiple" when MPI gave that level.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spin-leaf.h"

static NOINLINE void setup_work(double us)
{
	SPIN(us);
}

static NOINLINE void solve_work(double us)
{
	SPIN(us);
	sink ^= 1;	/* not the same code as setup_work */
}

/* One phase of seconds: rounds of the token along the ring, in work;
 * returns the rounds. */
static long phase(void (*work)(double), double seconds, double a, double b, long every)
{
	int rank, size, go = 1;
	double end = now_us() + seconds * 1e6, residual;
	long rounds = 0;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	while (go) {
		if (rank == 0) {
			work(a);
			go = now_us() < end;
			MPI_Send(&go, 1, MPI_INT, 1 % size, 0, MPI_COMM_WORLD);
			MPI_Recv(&go, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&go, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			work(b);
			MPI_Send(&go, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
		}
		if (++rounds % every == 0 || !go) {
			double mine = (double)rounds;

			MPI_Allreduce(&mine, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		}
	}
	return rounds;
}

int main(int argc, char **argv)
{
	double setup = argc > 2 ? atof(argv[1]) : 0.5, solve = argc > 2 ? atof(argv[2]) : 1;
	double a = argc > 5 ? atof(argv[3]) : 300, b = argc > 5 ? atof(argv[4]) : 200;
	long every = argc > 5 ? atol(argv[5]) : 20, s1, s2;
	int rank, size, level = MPI_THREAD_SINGLE;

	if (argc > 6 && !strcmp(argv[6], "multiple"))
		MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &level);
	else
		MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2 || every < 1) {
		if (rank == 0)
			fprintf(stderr, "cp-phases: needs 2 ranks or more (not %d) and EVERY >= 1\n",
				size);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	s1 = phase(setup_work, setup, a, b, every);
	s2 = phase(solve_work, solve, a, b, every);
	if (rank == 0)
		printf("cp-phases setup=%ld solve=%ld%s\n", s1, s2,
		       level == MPI_THREAD_MULTIPLE ? " multiple" : "");
	MPI_Finalize();
	return 0;
}
