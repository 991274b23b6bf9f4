/*
 * mpi-bench.c - the MPI micro-benchmarks of `make bench`: ping-pong latency
 * (0, 8, 1024 bytes) and streaming bandwidth (64 KiB, 1 MiB) between ranks
 * 0 and 1, and an 8-byte MPI_Allreduce loop over all ranks.  Rank 0 prints
 * one "name value unit" line per measurement; bench/mpi.sh compares runs.
 * Every measurement first runs a tenth of its repetitions untimed, as OSU's
 * benchmarks skip their first iterations: the first call of a call site
 * is a profiler's one-time cost (its call path is unwound), not a
 * per-call one.
 * Usage: mpi-bench [SCALE]   (SCALE multiplies the repetitions)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void pingpong(int rank, int bytes, int reps, char *buf)
{
	double t0 = 0;

	for (int i = -reps / 10; i < reps; i++) {
		if (!i) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
		}
		if (rank == 0) {
			MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
		}
	}
	if (rank == 0)
		printf("latency_%d %.3f us\n", bytes, (MPI_Wtime() - t0) / reps / 2 * 1e6);
}

static void bandwidth(int rank, int bytes, int reps, char *buf)
{
	const int window = 16;
	MPI_Request req[16];
	double t0 = 0;

	for (int i = -reps / 10; i < reps; i++) {
		if (!i) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
		}
		for (int w = 0; w < window && rank < 2; w++) {
			if (rank == 0)
				MPI_Isend(buf + (size_t)w * bytes, bytes, MPI_BYTE, 1, w, MPI_COMM_WORLD, &req[w]);
			else
				MPI_Irecv(buf + (size_t)w * bytes, bytes, MPI_BYTE, 0, w, MPI_COMM_WORLD, &req[w]);
		}
		if (rank < 2)
			MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
		if (rank == 1)
			MPI_Send(buf, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD);
		else if (rank == 0)
			MPI_Recv(buf, 0, MPI_BYTE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	if (rank == 0)
		printf("bandwidth_%d %.1f MB/s\n", bytes,
		       (double)bytes * window * reps / (MPI_Wtime() - t0) / 1e6);
}

static void allreduce(int rank, int reps)
{
	double in = rank, out, t0 = 0;

	for (int i = -reps / 10; i < reps; i++) {
		if (!i) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
		}
		MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("allreduce_8 %.3f us\n", (MPI_Wtime() - t0) / reps * 1e6);
}

int main(int argc, char **argv)
{
	int rank, size, scale;
	char *buf = malloc((size_t)16 << 20);

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	scale = argc > 1 ? atoi(argv[1]) : 1;
	if (size < 2) {
		if (rank == 0)
			fprintf(stderr, "mpi-bench: needs at least 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	pingpong(rank, 0, 20000 * scale, buf);
	pingpong(rank, 8, 20000 * scale, buf);
	pingpong(rank, 1024, 20000 * scale, buf);
	bandwidth(rank, 64 << 10, 200 * scale, buf);
	bandwidth(rank, 1 << 20, 20 * scale, buf);
	allreduce(rank, 20000 * scale);
	free(buf);
	MPI_Finalize();
	return 0;
}
