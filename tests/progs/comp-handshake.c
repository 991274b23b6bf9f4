/*
 * comp-handshake.c - two ranks alternating send and receive with work in
 * between (Malony et al., "Handshake"), for comp.t and bench/comp.sh.
 *
 * Round i: rank 0 works a_i, sends to rank 1 and receives its answer;
 * rank 1 receives, works b_i and answers.  Each rank waits in every
 * receive (the other is working), so the measured end of the wait is when
 * the message came, as the compensation rule assumes.
 *
 * Work is modelled by sleeping (work()): its duration does not depend on
 * how many cores are free, so 2 cores and oversubscription do not change
 * it.  Each rank prints "rank R wall S": seconds from MPI_Init's return to
 * the MPI_Finalize call.  A wrong reply exits 1.
 * Usage: comp-handshake [ROUNDS [A_US]]   (default 750 rounds, a ~ 700 us)
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
	int rounds = argc > 1 ? atoi(argv[1]) : 750;
	double a_us = argc > 2 ? atof(argv[2]) : 700;
	int rank, nranks;
	uint64_t t0, t1;

	t0 = comp_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (nranks != 2) {
		if (rank == 0)
			fprintf(stderr, "comp-handshake: needs 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (int i = 0; i < rounds; i++) {
		long v = i, got;

		if (rank == 0) {
			work(a_us * vary(i));
			MPI_Send(&v, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&got, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (got != 2 * v + 1) {
				fprintf(stderr, "comp-handshake: round %d: got %ld\n", i, got);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
		} else {
			MPI_Recv(&got, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			work(0.8 * a_us * vary(i + 4));
			got = 2 * got + 1;
			MPI_Send(&got, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
		}
	}
	t1 = now_ns();
	MPI_Finalize();
	printf("rank %d wall %.6f\n", rank, (double)(t1 - t0) / 1e9);
	return 0;
}
