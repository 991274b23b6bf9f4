/*
 * comp-allreduce.c - an MPI_Allreduce loop with unequal work per rank, for
 * comp.t and bench/comp.sh; 4 ranks (or any number).
 *
 * Iteration i: rank r works BASE_US x (0.7 + 0.1 r) x a factor of r and i
 * (0.8 to 1.2), so the ranks differ and the last one changes from one
 * iteration to the next, then takes part in two MPI_Allreduce (a sum and
 * a maximum, as a solver's residual norm and error would).  Every rank
 * makes the same calls, so all carry the same delay into each
 * reduction, and the ranks that came early wait: the compensation rule
 * (the minimum delay over the participants, taken as having come at the
 * end of the wait) is then exact.
 *
 * Work is modelled by sleeping (work()): its duration does not depend on
 * how many cores are free.  Each rank prints "rank R wall S": seconds
 * from MPI_Init's return to the MPI_Finalize call.  A wrong result exits 1.
 * Usage: comp-allreduce [ITERATIONS [BASE_US]]   (default 700, 1300 us)
 */
#include <errno.h>
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "comp-work.h"

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 700;
	double base_us = argc > 2 ? atof(argv[2]) : 1300;
	int rank, nranks;
	uint64_t t0, t1;

	t0 = comp_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	for (int i = 0; i < iters; i++) {
		double mine = rank + i, sum, max;

		work(base_us * (0.7 + 0.1 * rank) * vary(i + 3 * rank));
		MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		MPI_Allreduce(&mine, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		if (sum != nranks * (nranks - 1) / 2.0 + (double)nranks * i || max != nranks - 1 + i) {
			fprintf(stderr, "comp-allreduce: rank %d: %g %g at %d\n", rank, sum, max, i);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	t1 = now_ns();
	MPI_Finalize();
	printf("rank %d wall %.6f\n", rank, (double)(t1 - t0) / 1e9);
	return 0;
}
