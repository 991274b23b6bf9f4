/*
 * comp-pipeline.c - a 4-rank pipeline (Malony et al., "Pipeline": how the
 * delay travels), for comp.t and bench/comp.sh.
 *
 * Rank 0 produces ITEMS items, working a_i (0.8 to 1.2 times PROD_US) on
 * each and sending it with MPI_Isend (then MPI_Wait on the one before);
 * rank r = 1 .. n-2 receives from r-1, works at most 0.6 times PROD_US
 * and sends to r+1; the last rank receives, works and sums.  The producer
 * is the slowest stage, with or without the tool's overhead (the same two
 * calls an item everywhere), so every later stage waits in every receive
 * and the end of its wait is when the item came, as the compensation rule
 * assumes.  (A slower stage behind a queue would receive items that came
 * long before with a smaller delay than its own; the rule, which cannot
 * know when they came, would then keep too little delay.)
 *
 * Work is modelled by sleeping (work()): its duration does not depend on
 * how many cores are free.  Each rank prints "rank R wall S": seconds
 * from MPI_Init's return to the MPI_Finalize call.  A wrong item exits 1.
 * Usage: comp-pipeline [ITEMS [PROD_US]]   (default 800, 1200 us)
 */
#include <errno.h>
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "comp-work.h"

enum { LEN = 64 };

int main(int argc, char **argv)
{
	int items = argc > 1 ? atoi(argv[1]) : 800;
	double prod_us = argc > 2 ? atof(argv[2]) : 1200;
	int rank, nranks;
	double buf[2][LEN];
	MPI_Request req[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
	uint64_t t0, t1;

	t0 = comp_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (nranks < 2) {
		fprintf(stderr, "comp-pipeline: needs 2 ranks or more\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (int i = 0; i < items; i++) {
		double *b = buf[i % 2];

		if (rank == 0) {
			work(prod_us * vary(i));
			MPI_Wait(&req[(i + 1) % 2], MPI_STATUS_IGNORE);	/* item i-1 */
			for (int k = 0; k < LEN; k++)
				b[k] = i + k;
			MPI_Isend(b, LEN, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &req[i % 2]);
			continue;
		}
		MPI_Recv(b, LEN, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (b[0] != i + rank - 1 || b[LEN - 1] != i + rank - 1 + LEN - 1) {
			fprintf(stderr, "comp-pipeline: rank %d: item %d is %g\n", rank, i, b[0]);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		/* at most 0.6 x 1.2 / 1.2 of the producer's time: always waits */
		work(prod_us * 0.5 * vary(i + 3 * rank));
		for (int k = 0; k < LEN; k++)
			b[k] += 1;
		if (rank < nranks - 1)
			MPI_Send(b, LEN, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD);
	}
	if (rank == 0)
		MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	t1 = now_ns();
	MPI_Finalize();
	printf("rank %d wall %.6f\n", rank, (double)(t1 - t0) / 1e9);
	return 0;
}
