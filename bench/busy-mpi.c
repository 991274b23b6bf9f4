/*
 * busy-mpi.c - MPI programs that keep every core busy, for bench/busy.sh:
 * with one rank per core, all the profiler's work (the kernel's samples,
 * the drain thread, the wrappers) is taken from a rank.  A fixed amount of
 * work, so walls with and without a tool compare directly.
 *
 * Usage: busy-mpi compute|stencil|short|empty [SCALE]
 *   compute  each rank computes alone (a few call levels), one reduction at
 *            the end: the sampler's cost alone (SCALE 1: about 6 s)
 *   stencil  a ring halo exchange of 8 doubles each way after every
 *            ~30 us of compute: many small messages, the wrappers' and
 *            piggyback's cost on top (SCALE 1: about 6 s)
 *   short    the compute case for about 0.5 s (1 s with mpirun's start):
 *            start-up and the final write weigh most
 *   empty    MPI_Init and MPI_Finalize only: a tool's fixed cost per run
 *
 * Each rank times every iteration and prints, with its region's wall, the
 * iterations' median and its excess: the sum of the iterations over the
 * median, in medians.  The excess of a run with a tool less that of a run
 * without, times the median, is the time the tool added to the rank, and
 * it holds when the host's speed drifts between the runs (on a virtual
 * machine by 10 % or more), which the walls do not.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 128

static double grid[N][N], next[N][N];

/* Iteration times in 8 ns bins up to 64 us; longer ones count in the sum. */
#define BINS 8192
static unsigned long hist[BINS];
static double iter_sum;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void count_iteration(double seconds)
{
	long bin = (long)(seconds * 1.25e8);

	iter_sum += seconds;
	if (bin < BINS)
		hist[bin]++;
}

/* The median iteration in seconds: the middle of its bin. */
static double median_iteration(int n)
{
	unsigned long seen = 0;

	for (int b = 0; b < BINS; b++) {
		seen += hist[b];
		if (2 * seen >= (unsigned long)n)
			return (b + 0.5) / 1.25e8;
	}
	return BINS / 1.25e8;
}

__attribute__((noinline)) static void relax(void)
{
	for (int i = 1; i < N - 1; i++)
		for (int j = 1; j < N - 1; j++)
			next[i][j] = 0.25 * (grid[i - 1][j] + grid[i + 1][j] +
					     grid[i][j - 1] + grid[i][j + 1]);
	memcpy(grid, next, sizeof(grid));
}

__attribute__((noinline)) static double norm(void)
{
	double s = 0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			s += grid[i][j] * grid[i][j];
	return s;
}

/* One step: ~7 us of compute on the development VM. */
__attribute__((noinline)) static double step(int k)
{
	relax();
	return (k % 16) ? 0 : norm();
}

/* The ring exchange of the stencil case: 8 doubles each way. */
__attribute__((noinline)) static void halo(int rank, int size)
{
	int left = (rank + size - 1) % size, right = (rank + 1) % size;

	MPI_Sendrecv(grid[1], 8, MPI_DOUBLE, right, 0, grid[0], 8, MPI_DOUBLE, left, 0,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Sendrecv(grid[N - 2], 8, MPI_DOUBLE, left, 1, grid[N - 1], 8, MPI_DOUBLE, right, 1,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "compute";
	double scale = argc > 2 ? atof(argv[2]) : 1, acc = 0, total, t0, t, median;
	int rank, size, steps, exchange = !strcmp(mode, "stencil");

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(mode, "empty"))
		return MPI_Finalize();
	if (strcmp(mode, "compute") && strcmp(mode, "stencil") && strcmp(mode, "short")) {
		if (rank == 0)
			fprintf(stderr, "busy-mpi: unknown mode '%s' (compute, stencil, short or empty)\n",
				mode);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	steps = (int)(750000 * scale / (strcmp(mode, "short") ? 1 : 12));
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			grid[i][j] = (double)((i * 7 + j * 13 + rank) % 17);
	t0 = t = now();
	for (int k = 0; k < steps; k++) {
		double prev = t;

		acc += step(k);
		if (exchange && k % 4 == 3)
			halo(rank, size);
		t = now();
		count_iteration(t - prev);
	}
	MPI_Reduce(&acc, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	median = median_iteration(steps);
	printf("busy-mpi rank %d: region %.6f s, median iteration %.4f us, excess %.1f\n",
	       rank, now() - t0, median * 1e6, iter_sum / median - steps);
	if (rank == 0)
		printf("busy-mpi %s: %d steps, checksum %g\n", mode, steps, total);
	MPI_Finalize();
	return 0;
}
