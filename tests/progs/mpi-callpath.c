/*
 * mpi-callpath.c - one MPI call site reached along two call paths, for
 * mpi-callpath.t.  main -> phase_a -> exchange -> MPI_Send (A_CALLS times)
 * and main -> phase_b -> exchange -> MPI_Send (B_CALLS times): exchange is
 * one function, so both paths call MPI_Send from the same return address,
 * and phase_a and phase_b have the same frame size, so at the same stack
 * depth too; only the call path tells the two sites apart.  Rank 1
 * receives in exchange likewise.  Then rank 1 waits in MPI_Recv (called
 * from wait_for_data) while rank 0 computes for SPIN_MS: the sampled tree
 * must show that time under MPI_Recv below wait_for_data.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define A_CALLS 3
#define B_CALLS 5
#define SPIN_MS 600

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;
/* read at run time, so that neither loop is unrolled */
static volatile int a_calls = A_CALLS, b_calls = B_CALLS;

static NOINLINE void exchange(int rank, int tag)
{
	int v = tag;

	if (rank == 0)
		MPI_Send(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
	else if (rank == 1)
		MPI_Recv(&v, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	sink += (unsigned long)v;
}

static NOINLINE void phase_a(int rank)
{
	for (int i = 0; i < a_calls; i++)
		exchange(rank, 1);
	sink++;
}

static NOINLINE void phase_b(int rank)
{
	for (int i = 0; i < b_calls; i++)
		exchange(rank, 2);
	sink++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static NOINLINE void compute(void)
{
	double end = now() + SPIN_MS / 1000.0;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
}

static NOINLINE void wait_for_data(int rank)
{
	int v = 0;

	if (rank == 0) {
		compute();
		MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
}

int main(int argc, char **argv)
{
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	phase_a(rank);
	phase_b(rank);
	wait_for_data(rank);
	if (rank == 0)
		printf("done\n");
	MPI_Finalize();
	return 0;
}
