/*
 * comp-mw.c - master/worker Monte Carlo pi, the example of Malony et al.
 * (Table 1), for comp.t and bench/comp.sh; 4 ranks: master 0, workers 1-3.
 *
 * The master hands out work units (a seed, a number of points, a length)
 * and receives results with MPI_ANY_SOURCE, answering each with the next
 * unit for that worker or a stop.  A unit's length depends on its index
 * (0.85 to 1.2 times UNIT_US), so units differ in length; every worker
 * gets UNITS of them, the same sequence, so the run is deterministic
 * whatever the order of arrival.  A worker computes a unit in BATCHES
 * batches of points and, after each, checks for a cancel message with
 * MPI_Iprobe (the master never sends one): the workers make most of the
 * MPI calls and carry most of the overhead, the master little, as in the
 * paper, whose point is that local compensation then leaves the master
 * with the workers' overhead.  The master starts the workers a quarter of
 * a unit apart, so their results never reach it together (a result that
 * waits in the queue while the master handles another is where the
 * measured order hides how early it came).
 *
 * Work is modelled by sleeping (work()): its duration does not depend on
 * how many cores are free.  The points are real but few (a few us a
 * batch, inside the batch's sleep).  Each rank prints "rank R wall S":
 * seconds from MPI_Init's return to the MPI_Finalize call; rank 0 first
 * prints "comp-mw pi P" after checking the counts (after MPI_Finalize, so
 * outside the timed part).  A wrong count exits 1.
 * Usage: comp-mw [UNITS [UNIT_US [BATCHES]]]   (default 120, 6000 us, 8)
 */
#include <errno.h>
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "comp-work.h"

enum { TAG_UNIT = 1, TAG_RESULT, TAG_CANCEL };
enum { POINTS = 2000 };

/* a unit: seed, points, length (us; 0 = stop), index */
struct unit {
	long long seed, points, len_us, index;
};

/* unit_len(i, unit_us): the length of unit i: 0.85 to 1.2 times unit_us */
static long long unit_len(int i, double unit_us)
{
	static const double f[] = { 1.0, 0.9, 1.15, 1.05, 0.95, 1.2, 0.85, 1.1 };

	return (long long)(unit_us * f[(unsigned)i % (sizeof(f) / sizeof(f[0]))]);
}

/* hits(seed, n): how many of n pseudo-random points (x, y) in the unit
 * square lie under 4 / (1 + x^2) / 4, i.e. y <= 1 / (1 + x^2) */
static long long hits(uint64_t *seed, long long n)
{
	long long h = 0;

	for (long long k = 0; k < n; k++) {
		double x, y;

		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		x = (double)(*seed >> 11) / 9007199254740992.0;
		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		y = (double)(*seed >> 11) / 9007199254740992.0;
		h += y * (1 + x * x) <= 1;
	}
	return h;
}

/* master(units, unit_us, nworkers, in, total): hand out and collect the
 * units; the points under the curve into *in, all points into *total */
static void master(int units, double unit_us, int nworkers, long long *in, long long *total)
{
	long long res[3];
	int *given = calloc((size_t)nworkers + 1, sizeof(int)), busy = nworkers;

	for (int w = 1; w <= nworkers; w++) {
		struct unit u = { 1000 * w, POINTS, unit_len(0, unit_us), 0 };

		MPI_Send(&u, 4, MPI_LONG_LONG, w, TAG_UNIT, MPI_COMM_WORLD);
		given[w] = 1;
		if (w < nworkers)
			work(unit_us / 4);	/* preparing the next packet */
	}
	while (busy) {
		MPI_Status st;
		struct unit u = { 0, 0, 0, 0 };
		int w;

		MPI_Recv(res, 3, MPI_LONG_LONG, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
		w = st.MPI_SOURCE;
		*in += res[0];
		*total += res[1];
		if (given[w] < units) {
			u = (struct unit){ 1000 * w + given[w], POINTS, unit_len(given[w], unit_us), given[w] };
			given[w]++;
		} else {
			busy--;
		}
		MPI_Send(&u, 4, MPI_LONG_LONG, w, TAG_UNIT, MPI_COMM_WORLD);
	}
	free(given);
}

/* check(units, nworkers, in, total): the master's counts are those of the
 * same points counted here (after the timed part); exits 1 if not */
static void check(int units, int nworkers, long long in, long long total)
{
	long long expect_in = 0;

	for (int w = 1; w <= nworkers; w++)
		for (int i = 0; i < units; i++) {
			uint64_t seed = (uint64_t)(1000 * w + i);

			expect_in += hits(&seed, POINTS);
		}
	if (in != expect_in || total != (long long)units * nworkers * POINTS) {
		fprintf(stderr, "comp-mw: %lld of %lld points in, want %lld\n", in, total, expect_in);
		exit(1);
	}
	printf("comp-mw pi %.4f\n", 4.0 * (double)in / (double)total);
}

static void worker(int batches)
{
	for (;;) {
		struct unit u;
		long long res[3] = { 0, 0, 0 };
		uint64_t seed;

		MPI_Recv(&u, 4, MPI_LONG_LONG, 0, TAG_UNIT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (u.len_us == 0)
			break;
		seed = (uint64_t)u.seed;
		for (int b = 0; b < batches; b++) {
			long long n = u.points / batches + (b < u.points % batches);
			uint64_t end = now_ns() + (uint64_t)u.len_us * 1000 / (uint64_t)batches;
			int cancel;

			res[0] += hits(&seed, n);
			res[1] += n;
			work((double)(end - now_ns()) / 1e3);
			MPI_Iprobe(0, TAG_CANCEL, MPI_COMM_WORLD, &cancel, MPI_STATUS_IGNORE);
		}
		res[2] = u.index;
		MPI_Send(res, 3, MPI_LONG_LONG, 0, TAG_RESULT, MPI_COMM_WORLD);
	}
}

int main(int argc, char **argv)
{
	int units = argc > 1 ? atoi(argv[1]) : 120;
	double unit_us = argc > 2 ? atof(argv[2]) : 6000;
	int batches = argc > 3 ? atoi(argv[3]) : 8;
	int rank, nranks;
	long long in = 0, total = 0;
	uint64_t t0, t1;

	t0 = comp_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (nranks < 2) {
		fprintf(stderr, "comp-mw: needs 2 ranks or more\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (rank == 0)
		master(units, unit_us, nranks - 1, &in, &total);
	else
		worker(batches);
	t1 = now_ns();
	MPI_Finalize();
	if (rank == 0)
		check(units, nranks - 1, in, total);
	printf("rank %d wall %.6f\n", rank, (double)(t1 - t0) / 1e9);
	return 0;
}
