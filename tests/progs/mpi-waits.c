/*
 * mpi-waits.c - wait states of known sizes, for tests/integration/waits.t;
 * 4 ranks (2 for the point-to-point phases alone).
 *
 * Each phase is a function of its own, so that its MPI calls are call
 * sites of their own; lateness is slept (work()), so that it does not
 * depend on free cores.  Phases, in the order given:
 *   ls01     rank 0 works 50 ms before each of 40 MPI_Send to rank 1,
 *            which receives at once: Late Sender 2.0 s at rank 1's MPI_Recv
 *   ls10     the same, rank 1 sending to rank 0
 *   lr       rank 0 MPI_Ssend's 40 times to rank 1, which works 30 ms
 *            before each receive: Late Receiver 1.2 s at rank 0's MPI_Ssend
 *   nxn      the last rank works 20 ms before each of 50 MPI_Allreduce:
 *            Wait at NxN 1.0 s on every other rank
 *   barrier  the same with MPI_Barrier: Wait at Barrier
 *   bcast    the root (0) works 20 ms before each of 50 MPI_Bcast: Late
 *            Broadcast 1.0 s on every other rank
 *   reduce   every rank but the root (0) works 20 ms before each of 50
 *            MPI_Reduce: Early Reduce 1.0 s on the root
 * Ranks line up with a barrier of their own between phases.  A sleep may
 * end late on a busy host, so each rank prints how long it was late in
 * each phase, measured: "PHASE rank R late SECONDS".
 * Usage: mpi-waits PHASE...
 */
#include <stdio.h>
#include <string.h>

#include "comp-work.h"

#define MS 1000.0

static int rank, nranks;
static double late;	/* seconds this rank worked in the phase */

/* work(ms) before a call, timed. */
static void be_late(double ms)
{
	uint64_t t0 = now_ns();

	work(ms * MS);
	late += (double)(now_ns() - t0) / 1e9;
}

static void __attribute__((noinline)) late_sends(int from, int to)
{
	int v = 0;

	for (int i = 0; i < 40; i++) {
		if (rank == from) {
			be_late(50);
			MPI_Send(&i, 1, MPI_INT, to, 0, MPI_COMM_WORLD);
		} else if (rank == to) {
			MPI_Recv(&v, 1, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
}

static void __attribute__((noinline)) ls01(void)
{
	late_sends(0, 1);
}

static void __attribute__((noinline)) ls10(void)
{
	late_sends(1, 0);
}

static void __attribute__((noinline)) lr(void)
{
	int v = 0;

	for (int i = 0; i < 40; i++) {
		if (rank == 0) {
			MPI_Ssend(&i, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
		} else if (rank == 1) {
			be_late(30);
			MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
}

static void __attribute__((noinline)) nxn(void)
{
	for (int i = 0; i < 50; i++) {
		int in = i, out;

		if (rank == nranks - 1)
			be_late(20);
		MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	}
}

static void __attribute__((noinline)) barrier(void)
{
	for (int i = 0; i < 50; i++) {
		if (rank == nranks - 1)
			be_late(20);
		MPI_Barrier(MPI_COMM_WORLD);
	}
}

static void __attribute__((noinline)) bcast(void)
{
	for (int i = 0; i < 50; i++) {
		int v = i;

		if (rank == 0)
			be_late(20);
		MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	}
}

static void __attribute__((noinline)) reduce(void)
{
	for (int i = 0; i < 50; i++) {
		int in = i, out = 0;

		if (rank != 0)
			be_late(20);
		MPI_Reduce(&in, &out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	}
}

static void __attribute__((noinline)) line_up(void)
{
	MPI_Barrier(MPI_COMM_WORLD);
}

static const struct {
	const char *name;
	void (*run)(void);
} phases[] = {
	{ "ls01", ls01 }, { "ls10", ls10 }, { "lr", lr }, { "nxn", nxn },
	{ "barrier", barrier }, { "bcast", bcast }, { "reduce", reduce },
};

int main(int argc, char **argv)
{
	comp_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	for (int a = 1; a < argc; a++) {
		size_t k = 0;

		while (k < sizeof(phases) / sizeof(phases[0]) && strcmp(phases[k].name, argv[a]))
			k++;
		if (k == sizeof(phases) / sizeof(phases[0])) {
			if (rank == 0)
				fprintf(stderr, "mpi-waits: unknown phase '%s'\n", argv[a]);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		line_up();
		late = 0;
		phases[k].run();
		printf("%s rank %d late %.6f\n", argv[a], rank, late);
	}
	line_up();
	MPI_Finalize();
	return 0;
}
