/*
 * comp-tworecv.c - two senders to one receiver (Malony et al., "Two
 * receive"), for comp.t and bench/comp.sh; 3 ranks.
 *
 * Round i: rank 0 works a_i (0.8 to 1.2 times A_US) and rank 2 works
 * about half as long, each then sends to rank 1 and waits for its
 * acknowledgement; rank 1 receives twice with MPI_ANY_SOURCE, works
 * 0.25 times A_US and acknowledges the senders in the order they came.
 * Rank 2's message always comes first, well ahead, so the order of
 * arrival is the same with and without the tool, and every receive
 * waits: the end of each wait is when the message came, as the
 * compensation rule assumes.
 *
 * Work is modelled by sleeping (work()): its duration does not depend on
 * how many cores are free.  Each rank prints "rank R wall S": seconds
 * from MPI_Init's return to the MPI_Finalize call.  A wrong message exits 1.
 * Usage: comp-tworecv [ROUNDS [A_US]]   (default 600, 1300 us)
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
	int rounds = argc > 1 ? atoi(argv[1]) : 600;
	double a_us = argc > 2 ? atof(argv[2]) : 1300;
	int rank, nranks;
	uint64_t t0, t1;

	t0 = comp_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (nranks != 3) {
		if (rank == 0)
			fprintf(stderr, "comp-tworecv: needs 3 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (int i = 0; i < rounds; i++) {
		long v[2], ack;

		if (rank != 1) {
			work(rank == 0 ? a_us * vary(i) : 0.5 * a_us * vary(i + 5));
			v[0] = rank;
			v[1] = i;
			MPI_Send(v, 2, MPI_LONG, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&ack, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (ack != 10L * i + rank) {
				fprintf(stderr, "comp-tworecv: rank %d: ack %ld in round %d\n", rank, ack, i);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
			continue;
		}
		int from[2];

		for (int k = 0; k < 2; k++) {
			MPI_Status st;

			MPI_Recv(v, 2, MPI_LONG, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
			from[k] = st.MPI_SOURCE;
			if (v[0] != st.MPI_SOURCE || v[1] != i) {
				fprintf(stderr, "comp-tworecv: round %d: got %ld/%ld\n", i, v[0], v[1]);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
		}
		work(0.25 * a_us);
		for (int k = 0; k < 2; k++) {
			ack = 10L * i + from[k];
			MPI_Send(&ack, 1, MPI_LONG, from[k], 0, MPI_COMM_WORLD);
		}
	}
	t1 = now_ns();
	MPI_Finalize();
	printf("rank %d wall %.6f\n", rank, (double)(t1 - t0) / 1e9);
	return 0;
}
