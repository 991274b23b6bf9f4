/*
 * mpi-exact.c - MPI traffic with known statistics, for mpi-stats.t.  Rank r
 * sends r+1 messages of exactly 1000 bytes (MPI_BYTE) to rank r+1 (the last
 * rank sends none) from one MPI_Send call site; every rank calls
 * MPI_Allreduce ALLREDUCES times and MPI_Barrier BARRIERS times; then one
 * rooted collective of each kind, a different root each on 4 ranks (root k
 * is rank k modulo the ranks, so that 2 or 3 ranks run it too): 5 ints
 * broadcast from rank 0, 8 ints a rank gathered to rank 1, 3 doubles a
 * rank scattered from rank 2, 2 doubles reduced to rank 3.  Then the
 * all-to-alls with a datatype per peer: MPI_Alltoallw and MPI_Ialltoallw
 * send an int to each even rank and a double to each odd one;
 * MPI_Neighbor_alltoallw and MPI_Ineighbor_alltoallw do the same with the
 * other ranks as neighbours (a distributed graph: MPICH's mpi_f08 takes no other
 * topology there, and Open MPI no neighbour twice).  Up to MAXRANKS ranks: the
 * collectives' buffers hold that many blocks.
 */
#include <mpi.h>
#include <stdio.h>

#define MSG 1000
#define ALLREDUCES 7
#define BARRIERS 3
#define MAXRANKS 4

int main(int argc, char **argv)
{
	char buf[MSG] = { 0 };
	int rank, size, sum = 0, five[5] = { 0 }, eight[8] = { 0 }, gathered[MAXRANKS * 8];
	double three[MAXRANKS * 3] = { 0 }, mine[3], two[2] = { 0 }, reduced[2];
	double wsend[MAXRANKS] = { 0 }, wrecv[MAXRANKS];
	int wcounts[MAXRANKS], wdispls[MAXRANKS];
	MPI_Datatype stypes[MAXRANKS], rtypes[MAXRANKS];
	MPI_Aint ndispls[MAXRANKS];
	int nbrs[MAXRANKS], n = 0;
	MPI_Request req;
	MPI_Comm others;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size > MAXRANKS) {
		if (rank == 0)
			fprintf(stderr, "mpi-exact: %d ranks, at most %d\n", size, MAXRANKS);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (int i = 0; rank + 1 < size && i < rank + 1; i++)
		MPI_Send(buf, MSG, MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD);
	for (int i = 0; rank > 0 && i < rank; i++)
		MPI_Recv(buf, MSG, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (int i = 0; i < ALLREDUCES; i++)
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	for (int i = 0; i < BARRIERS; i++)
		MPI_Barrier(MPI_COMM_WORLD);
	MPI_Bcast(five, 5, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Gather(eight, 8, MPI_INT, gathered, 8, MPI_INT, 1 % size, MPI_COMM_WORLD);
	MPI_Scatter(three, 3, MPI_DOUBLE, mine, 3, MPI_DOUBLE, 2 % size, MPI_COMM_WORLD);
	MPI_Reduce(two, reduced, 2, MPI_DOUBLE, MPI_SUM, 3 % size, MPI_COMM_WORLD);
	for (int j = 0; j < size; j++) {
		wcounts[j] = 1;
		wdispls[j] = j * (int)sizeof(double);
		stypes[j] = j % 2 ? MPI_DOUBLE : MPI_INT;
		rtypes[j] = rank % 2 ? MPI_DOUBLE : MPI_INT;
	}
	MPI_Alltoallw(wsend, wcounts, wdispls, stypes, wrecv, wcounts, wdispls, rtypes, MPI_COMM_WORLD);
	MPI_Ialltoallw(wsend, wcounts, wdispls, stypes, wrecv, wcounts, wdispls, rtypes, MPI_COMM_WORLD,
		       &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	for (int j = 0; j < size; j++)
		if (j != rank) {
			nbrs[n] = j;
			ndispls[n] = n * (MPI_Aint)sizeof(double);
			stypes[n++] = j % 2 ? MPI_DOUBLE : MPI_INT;
		}
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, nbrs, MPI_UNWEIGHTED, n, nbrs,
				       MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &others);
	MPI_Neighbor_alltoallw(wsend, wcounts, ndispls, stypes, wrecv, wcounts, ndispls, rtypes,
			       others);
	MPI_Ineighbor_alltoallw(wsend, wcounts, ndispls, stypes, wrecv, wcounts, ndispls, rtypes,
				others, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Comm_free(&others);
	if (rank == 0)
		printf("sum %d\n", sum);
	MPI_Finalize();
	return 0;
}
