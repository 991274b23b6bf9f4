/*
 * cp-zeroing.c - critical-path zeroing where a sub-critical path limits the
 * gain, for cp-zero.t.  Every iteration ends in an MPI_Allreduce; before
 * it, rank 0 runs f_main (250 ms), f_other (50 ms), f_tiny1 (20 ms) and
 * f_tiny2 (10 ms), rank 1 g_sub (200 ms), the others h_small (50 ms).  The
 * path runs through rank 0 (330 ms an iteration).  Without f_main rank 0
 * would need 80 ms, but rank 1's 200 ms would then be the path: the run
 * shrinks by 130 ms an iteration, well below f_main's 250 ms on the path.
 * Without g_sub it does not shrink at all.  Rank 0's four functions are
 * what --cp-auto=4 should pick.
 *
 * Spins are measured with CLOCK_MONOTONIC (the path is wall time).  Prints
 * only "cp-zeroing ranks=N ok" (rank 0); a wrong reduction exits 1.
 * Usage: cp-zeroing [ITERATIONS]   (default 4)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile uint64_t sink;

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* SPIN(ms): spin in the function that expands it, so samples land there */
#define SPIN(ms) \
	do { \
		double end_ = now_ms() + (ms); \
		uint64_t x_ = 7; \
		do { \
			for (int i_ = 0; i_ < 16384; i_++) \
				x_ = x_ * 6364136223846793005ULL + 1442695040888963407ULL; \
		} while (now_ms() < end_); \
		sink = x_; \
	} while (0)

static NOINLINE void f_main(void) { SPIN(250); }
static NOINLINE void f_other(void) { SPIN(50); }
static NOINLINE void f_tiny1(void) { SPIN(20); }
static NOINLINE void f_tiny2(void) { SPIN(10); }
static NOINLINE void g_sub(void) { SPIN(200); }
static NOINLINE void h_small(void) { SPIN(50); }

int main(int argc, char **argv)
{
	int rank, nranks, iters = argc > 1 ? atoi(argv[1]) : 4, bad = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	for (int it = 0; it < iters; it++) {
		int v = rank + it, sum;

		if (rank == 0) {
			f_main();
			f_other();
			f_tiny1();
			f_tiny2();
		} else if (rank == 1) {
			g_sub();
		} else {
			h_small();
		}
		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		if (sum != nranks * (nranks - 1) / 2 + nranks * it) {
			fprintf(stderr, "cp-zeroing: rank %d: Allreduce %d gave %d\n", rank, it, sum);
			bad = 1;
		}
	}
	if (rank == 0 && !bad)
		printf("cp-zeroing ranks=%d ok\n", nranks);
	MPI_Finalize();
	return bad;
}
