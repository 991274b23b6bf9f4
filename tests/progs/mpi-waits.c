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
 * end late on a busy host and a rank leave a call late: each rank notes
 * when it called each iteration's MPI function, the ranks gather these
 * after the phase, and each prints the wait it had by the definitions of
 * docs/waits.md, from its own clock (one host): "PHASE rank R wait
 * SECONDS".
 * Usage: mpi-waits PHASE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comp-work.h"

#define MS 1000.0
#define N 50		/* iterations of a phase, at most */

static int rank, nranks;
static uint64_t entry[N];	/* when this rank called the phase's MPI call */

/* Late by ms, then the entry of iteration i's MPI call. */
static void late(double ms)
{
	work(ms * MS);
}

static void enter(int i)
{
	entry[i] = now_ns();
}

static void __attribute__((noinline)) late_sends(int from, int to)
{
	int v = 0;

	for (int i = 0; i < 40; i++) {
		if (rank == from) {
			late(50);
			enter(i);
			MPI_Send(&i, 1, MPI_INT, to, 0, MPI_COMM_WORLD);
		} else if (rank == to) {
			enter(i);
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
			enter(i);
			MPI_Ssend(&i, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
		} else if (rank == 1) {
			late(30);
			enter(i);
			MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
}

static void __attribute__((noinline)) nxn(void)
{
	for (int i = 0; i < 50; i++) {
		int in = i, out;

		if (rank == nranks - 1)
			late(20);
		enter(i);
		MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	}
}

static void __attribute__((noinline)) barrier(void)
{
	for (int i = 0; i < 50; i++) {
		if (rank == nranks - 1)
			late(20);
		enter(i);
		MPI_Barrier(MPI_COMM_WORLD);
	}
}

static void __attribute__((noinline)) bcast(void)
{
	for (int i = 0; i < 50; i++) {
		int v = i;

		if (rank == 0)
			late(20);
		enter(i);
		MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	}
}

static void __attribute__((noinline)) reduce(void)
{
	for (int i = 0; i < 50; i++) {
		int in = i, out = 0;

		if (rank != 0)
			late(20);
		enter(i);
		MPI_Reduce(&in, &out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	}
}

static void __attribute__((noinline)) line_up(void)
{
	MPI_Barrier(MPI_COMM_WORLD);
}

/* Whom a rank waits for in a phase: one rank (from), or the latest of all
 * ranks (ALL) or of all but the root (OTHERS); NONE: nobody. */
enum { NONE = -1, ALL = -2, OTHERS = -3 };

/* The wait rank r had at iteration i, from every rank's entries: the
 * entry of whom it waited for, less its own, or 0. */
static uint64_t waited(const uint64_t *all, int r, int i, int whom)
{
	uint64_t latest = 0;

	if (whom == NONE)
		return 0;
	for (int q = 0; q < nranks; q++)
		if (whom == q || whom == ALL || (whom == OTHERS && q != 0))
			latest = all[q * N + i] > latest ? all[q * N + i] : latest;
	return latest > all[r * N + i] ? latest - all[r * N + i] : 0;
}

static const struct {
	const char *name;
	void (*run)(void);
	int iterations;
	int whom[4];		/* per rank */
} phases[] = {
	{ "ls01", ls01, 40, { NONE, 0, NONE, NONE } },
	{ "ls10", ls10, 40, { 1, NONE, NONE, NONE } },
	{ "lr", lr, 40, { 1, NONE, NONE, NONE } },
	{ "nxn", nxn, 50, { ALL, ALL, ALL, ALL } },
	{ "barrier", barrier, 50, { ALL, ALL, ALL, ALL } },
	{ "bcast", bcast, 50, { NONE, 0, 0, 0 } },
	{ "reduce", reduce, 50, { OTHERS, NONE, NONE, NONE } },
};

/* Every rank's entries gathered; this rank's wait in phase k, measured
 * by the program itself. */
static double __attribute__((noinline)) reference(size_t k)
{
	uint64_t *all = calloc((size_t)nranks * N, sizeof(*all));
	uint64_t sum = 0;

	if (!all)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Allgather(entry, N, MPI_UINT64_T, all, N, MPI_UINT64_T, MPI_COMM_WORLD);
	for (int i = 0; i < phases[k].iterations; i++)
		sum += waited(all, rank, i, rank < 4 ? phases[k].whom[rank] : NONE);
	free(all);
	return (double)sum / 1e9;
}

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
		memset(entry, 0, sizeof(entry));
		phases[k].run();
		printf("%s rank %d wait %.6f\n", argv[a], rank, reference(k));
	}
	line_up();
	MPI_Finalize();
	return 0;
}
