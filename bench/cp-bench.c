/*
 * cp-bench.c - the critical-path part of `make bench`: two ranks alternate
 * a fixed amount of computation with one 8-byte MPI_Sendrecv to the
 * partner, RATE times per second, for SECONDS.  Each iteration spins
 * 1/RATE s (CLOCK_MONOTONIC) spread evenly over eight distinct functions
 * w1..w8, so that `cpperf-record --cp-functions=w1,...` has up to eight
 * functions to zero.  The computation is fixed by the arguments, so any
 * wall time beyond SECONDS is communication plus the tool's overhead.
 * Rank 0 prints "wall SECONDS iterations N outside_us US sink 0|1": US is
 * the mean time per iteration outside the computation (the message and
 * the tool's work in its wrapper); bench/cp.sh compares the wall times.
 * Usage: cp-bench RATE SECONDS   (RATE: messages per second per rank)
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spin until ns nanoseconds have passed; returns a value to keep the loop. */
static inline uint64_t spin(uint64_t ns)
{
	uint64_t end = now_ns() + ns, x = 0, t;

	while ((t = now_ns()) < end)
		x += t & 1;
	return x;
}

/*
 * Eight distinct frames for the sampler; each spins its share of a step.
 * The bodies differ by a constant so that the compiler cannot fold them
 * into one function (GCC's identical code folding would).
 */
#define WORKER(name, k) \
	__attribute__((noinline)) static uint64_t name(uint64_t ns) { return spin(ns) + k; }
WORKER(w1, 1) WORKER(w2, 2) WORKER(w3, 3) WORKER(w4, 4)
WORKER(w5, 5) WORKER(w6, 6) WORKER(w7, 7) WORKER(w8, 8)

int main(int argc, char **argv)
{
	int rank, size;
	double rate, seconds, t0, t;
	long iters;
	uint64_t step, sink = 0;
	char sbuf[8] = { 0 }, rbuf[8];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 3 || size != 2 || (rate = atof(argv[1])) <= 0 || (seconds = atof(argv[2])) <= 0) {
		if (rank == 0)
			fprintf(stderr, "usage: mpirun -np 2 cp-bench RATE SECONDS\n");
		MPI_Finalize();
		return 2;
	}
	iters = (long)(rate * seconds + 0.5);
	step = (uint64_t)(1e9 / rate / 8);	/* per worker, per iteration */

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (long i = 0; i < iters; i++) {
		sink += w1(step) + w2(step) + w3(step) + w4(step);
		sink += w5(step) + w6(step) + w7(step) + w8(step);
		MPI_Sendrecv(sbuf, 8, MPI_BYTE, 1 - rank, 0, rbuf, 8, MPI_BYTE, 1 - rank, 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t = MPI_Wtime() - t0;
	if (rank == 0)
		printf("wall %.4f iterations %ld outside_us %.2f sink %d\n", t, iters,
		       (t - seconds) / (double)iters * 1e6, (int)(sink & 1));
	MPI_Finalize();
	return 0;
}
