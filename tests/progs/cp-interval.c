/*
 * cp-interval.c - a steady MPI program for the critical-path series
 * (--cp-interval, tests/integration/cp-interval.t): for SECONDS (argument,
 * default 10) every rank spins on CLOCK_MONOTONIC for 10-40 ms, a different
 * amount per rank that rotates each step so the path moves between ranks,
 * then takes part in an Allreduce (which also decides, from rank 0's
 * clock, when to stop) and a ring exchange.  About one step per 50 ms.
 * Rank 0 prints "cp-interval ranks=N ok" when every exchange carried what
 * it should.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Busy for `s` seconds of wall time. */
static void spin(double s)
{
	double end = now() + s;

	while (now() < end)
		;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 10, t0, mine[2], all[2];
	int rank, size, ok = 1, total_ok;
	long step;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	t0 = now();
	for (step = 0;; step++) {
		long out = (long)rank * 1000000 + step, in = -1;
		int right = (rank + 1) % size, left = (rank + size - 1) % size;

		spin(0.010 * (1 + (rank + step) % 4));
		/* the elapsed time of rank 0 and a check that all ranks are at this step */
		mine[0] = rank == 0 ? now() - t0 : 0;
		mine[1] = (double)step;
		MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		ok &= all[1] == (double)step;
		MPI_Sendrecv(&out, 1, MPI_LONG, right, 7, &in, 1, MPI_LONG, left, 7, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		ok &= in == (long)left * 1000000 + step;
		if (all[0] >= secs)
			break;
	}
	MPI_Allreduce(&ok, &total_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (rank == 0)
		printf("cp-interval ranks=%d %s\n", size, total_ok ? "ok" : "wrong");
	MPI_Finalize();
	return total_ok ? 0 : 1;
}
