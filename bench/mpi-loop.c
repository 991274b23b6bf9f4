/*
 * mpi-loop.c - a fixed number of 8-byte round trips (MPI_Send/MPI_Recv
 * between ranks 0 and 1), of 8-byte exchanges between them (MPI_Irecv,
 * MPI_Isend, MPI_Waitall on both) or of one collective (8 bytes of data
 * where it has any), in loop(): bench/mpi-instr.sh counts the
 * instructions executed inside it for two run lengths, whose difference
 * leaves out a call site's first call.  With "multiple", MPI is
 * initialised for MPI_THREAD_MULTIPLE (one thread still makes the calls):
 * what the tool's locks cost where any thread may call MPI.
 * Usage: mpi-loop pingpong|exchange|allreduce|barrier|bcast|reduce|allgather|alltoall|
 *                 gather|scatter N [multiple]
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum what { PINGPONG, EXCHANGE, ALLREDUCE, BARRIER, BCAST, REDUCE, ALLGATHER, ALLTOALL, GATHER,
	    SCATTER };
static const char *const names[] = { "pingpong", "exchange", "allreduce", "barrier", "bcast",
				     "reduce", "allgather", "alltoall", "gather", "scatter" };
#define LAST SCATTER
#define MAXRANKS 64	/* the gathers' and scatters' buffers */

static __attribute__((noinline)) void loop(enum what what, int rank, long n)
{
	static double vs[MAXRANKS], ws[MAXRANKS];
	double v = 1, w = 0;
	MPI_Request r[2];

	for (long i = 0; i < n; i++) {
		if (what == EXCHANGE) {
			MPI_Irecv(&w, 1, MPI_DOUBLE, rank ^ 1, 0, MPI_COMM_WORLD, &r[0]);
			MPI_Isend(&v, 1, MPI_DOUBLE, rank ^ 1, 0, MPI_COMM_WORLD, &r[1]);
			MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
		} else if (what == ALLREDUCE) {
			MPI_Allreduce(&v, &w, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		} else if (what == BARRIER) {
			MPI_Barrier(MPI_COMM_WORLD);
		} else if (what == BCAST) {
			MPI_Bcast(&v, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		} else if (what == REDUCE) {
			MPI_Reduce(&v, &w, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		} else if (what == ALLGATHER) {
			MPI_Allgather(&v, 1, MPI_DOUBLE, ws, 1, MPI_DOUBLE, MPI_COMM_WORLD);
		} else if (what == ALLTOALL) {
			MPI_Alltoall(vs, 1, MPI_DOUBLE, ws, 1, MPI_DOUBLE, MPI_COMM_WORLD);
		} else if (what == GATHER) {
			MPI_Gather(&v, 1, MPI_DOUBLE, ws, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		} else if (what == SCATTER) {
			MPI_Scatter(vs, 1, MPI_DOUBLE, &w, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		} else if (rank == 0) {
			MPI_Send(&v, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&w, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(&w, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&w, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
		}
	}
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;
	bool multiple = argc == 4 && !strcmp(argv[3], "multiple");
	int rank, size, what = 0, level;

	MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &level);
	while ((argc == 3 || multiple) && what <= LAST && strcmp(argv[1], names[what]))
		what++;
	if ((argc != 3 && !multiple) || n <= 0 || what > LAST ||
	    (multiple && level < MPI_THREAD_MULTIPLE)) {
		fprintf(stderr, "usage: mpi-loop pingpong|exchange|allreduce|barrier|bcast|reduce|"
				"allgather|alltoall|gather|scatter N [multiple]%s\n", multiple ? " (MPI_THREAD_MULTIPLE not given)" : "");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size > MAXRANKS) {
		fprintf(stderr, "mpi-loop: at most %d ranks\n", MAXRANKS);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	loop((enum what)what, rank, n);
	MPI_Finalize();
	return 0;
}
