/*
 * comp-stencil.c - a 1-D stencil on 4 ranks (or any number), for comp.t
 * and bench/comp.sh.
 *
 * Iteration i: each rank exchanges its boundary cells with its left and
 * right neighbours (two MPI_Sendrecv, MPI_PROC_NULL at the ends), then
 * updates its cells, working BASE_US times a factor that depends on rank
 * and iteration (0.8 to 1.2), so a different rank is the last one from
 * one iteration to the next and its neighbours wait for it.  Every rank
 * makes the same calls, and a MPI_Sendrecv stamps its message after its
 * own overhead, so a message that came before its receiver waited
 * carries as much delay as the receiver has: the compensation rule
 * (which takes a message as having come at the end of the wait) is then
 * exact.  (Isend/Irecv/Waitall would not be: the receiver's MPI_Waitall
 * overhead comes after the neighbour stamped its message.)
 *
 * Work is modelled by sleeping (work()): its duration does not depend on
 * how many cores are free; the cells are updated for real, but there are
 * few.  Each rank prints "rank R wall S": seconds from MPI_Init's return
 * to the MPI_Finalize call.  A wrong halo exits 1.
 * Usage: comp-stencil [ITERATIONS [BASE_US]]   (default 650, 1200 us)
 */
#include <errno.h>
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "comp-work.h"

enum { CELLS = 64 };

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 650;
	double base_us = argc > 2 ? atof(argv[2]) : 1200;
	int rank, nranks, left, right;
	double u[CELLS + 2], v[CELLS + 2];
	uint64_t t0, t1;

	t0 = comp_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	right = rank < nranks - 1 ? rank + 1 : MPI_PROC_NULL;
	for (int k = 0; k < CELLS + 2; k++)
		u[k] = rank;
	for (int i = 0; i < iters; i++) {
		/* to the right, from the left; then to the left, from the right */
		MPI_Sendrecv(&u[CELLS], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[CELLS + 1], 1, MPI_DOUBLE, right, 1,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if ((left != MPI_PROC_NULL && u[0] != left) ||
		    (right != MPI_PROC_NULL && u[CELLS + 1] != right)) {
			fprintf(stderr, "comp-stencil: rank %d: halo %g %g at %d\n", rank, u[0], u[CELLS + 1], i);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		/* relax the interior; the boundary cells keep the rank number so
		 * the halo can be checked */
		for (int k = 2; k < CELLS; k++)
			v[k] = (u[k - 1] + u[k] + u[k + 1]) / 3;
		for (int k = 2; k < CELLS; k++)
			u[k] = v[k];
		work(base_us * vary(i + 2 * rank));
	}
	t1 = now_ns();
	MPI_Finalize();
	printf("rank %d wall %.6f\n", rank, (double)(t1 - t0) / 1e9);
	return 0;
}
