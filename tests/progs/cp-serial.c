/*
 * cp-serial.c - the "NAS IS-like" scenario of Hollingsworth's critical path
 * paper, for cp.t: rank 0 runs serial_setup() (SETUP_MS of spinning) while
 * the other ranks wait for its result in MPI_Bcast; then every rank runs
 * parallel_work() for WORK_MS in ITERS pieces, with an MPI_Allreduce after
 * each.  serial_setup is a small share of the CPU time (SETUP / (SETUP +
 * ranks x WORK), about 6 % on 4 ranks with a core each) but all of it lies
 * on the critical path (SETUP / (SETUP + WORK) = 20 %).
 *
 * Spins are measured with CLOCK_MONOTONIC, so the path lengths hold on an
 * oversubscribed host too.  Prints only "cp-serial ranks=N ok" (rank 0);
 * a wrong broadcast or reduction is reported on stderr and exits 1.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))
#define SETUP_MS 300
#define WORK_MS 1200
#define ITERS 4

static volatile uint64_t sink;

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* SPIN(ms, x): spin for ms milliseconds in the function that expands it (a
 * macro, not a helper, so that the samples' leaf is that function), then
 * store x in sink.  The clock is read every 16384 steps (some 20 us). */
#define SPIN(ms, x) \
	do { \
		double end_ = now_ms() + (ms); \
		do { \
			for (int i_ = 0; i_ < 16384; i_++) \
				(x) = (x) * 6364136223846793005ULL + 1442695040888963407ULL; \
		} while (now_ms() < end_); \
		sink = (x); \
	} while (0)

/* rank 0's serial part: the "key generation" the others wait for */
static NOINLINE int serial_setup(void)
{
	uint64_t x = 1;

	SPIN(SETUP_MS, x);
	return 4242;
}

/* one iteration's share of every rank's parallel part */
static NOINLINE int parallel_work(int rank, int iter)
{
	uint64_t x = (uint64_t)rank + 2;

	SPIN((double)WORK_MS / ITERS, x);
	return rank + iter;
}

int main(int argc, char **argv)
{
	int rank, nranks, setup = 0, bad = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (rank == 0)
		setup = serial_setup();
	MPI_Bcast(&setup, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (setup != 4242) {
		fprintf(stderr, "cp-serial: rank %d: Bcast gave %d, want 4242\n", rank, setup);
		bad = 1;
	}
	for (int it = 0; it < ITERS; it++) {
		int v = parallel_work(rank, it), sum;
		int want = nranks * (nranks - 1) / 2 + nranks * it;

		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		if (sum != want) {
			fprintf(stderr, "cp-serial: rank %d: Allreduce %d gave %d, want %d\n", rank, it, sum, want);
			bad = 1;
		}
	}
	if (rank == 0 && !bad)
		printf("cp-serial ranks=%d ok\n", nranks);
	MPI_Finalize();
	return bad;
}
