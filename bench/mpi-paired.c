/*
 * mpi-paired.c - a wrapper layer's cost measured inside one run: each loop
 * of mpi-bench.c's kind (an 8-byte and a 0-byte ping-pong, an 8-byte
 * MPI_Allreduce, 64 KiB and 1 MiB streams) timed in short segments that
 * alternate between calls by the MPI names, which reach a preloaded
 * profiler's wrappers, and by the PMPI names, which reach MPI straight.
 * Both sides of every ratio then share the run's processes, placement
 * and memory: on a host whose runs fall into modes that last a whole run
 * (bench/mpi-cost.md), the ratio of two runs compares their modes, the
 * ratio of two segments of one run compares the wrappers.  What the
 * profiler does beside the calls (its sampling) slows both alike and is
 * left out.  Without a profiler both sides are MPI: every ratio must come
 * out 1, which checks the method on the host.
 * Segment pairs swap their order each time (wrapped first, then direct
 * first), so that neither side is always the one after a switch.
 * Rank 0 prints "name ratio spread direct unit" a measurement: the median
 * over the pairs of wrapped over direct (time for latency and allreduce,
 * rate for bandwidth), the interquartile range of those ratios over their
 * median in %, and the direct segments' median in unit.
 * Usage: mpi-paired [PAIRS]   (default 40)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 16	/* messages in flight in the bandwidth test */

/* The calls a loop makes, by one kind of name. */
struct api {
	int (*send)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
	int (*recv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
	int (*isend)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
	int (*irecv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
	int (*waitall)(int, MPI_Request *, MPI_Status *);
	int (*allreduce)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
};

static const struct api wrapped = { MPI_Send, MPI_Recv, MPI_Isend, MPI_Irecv, MPI_Waitall,
				    MPI_Allreduce };
static const struct api direct = { PMPI_Send, PMPI_Recv, PMPI_Isend, PMPI_Irecv, PMPI_Waitall,
				   PMPI_Allreduce };

static int rank;
static char *buf;

static void pingpong(const struct api *a, int bytes, int reps)
{
	for (int i = 0; i < reps; i++) {
		if (rank == 0) {
			a->send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
			a->recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			a->recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			a->send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
		}
	}
}

static void stream(const struct api *a, int bytes, int reps)
{
	MPI_Request req[WINDOW];

	for (int i = 0; i < reps && rank < 2; i++) {
		for (int w = 0; w < WINDOW; w++) {
			if (rank == 0)
				a->isend(buf + (size_t)w * bytes, bytes, MPI_BYTE, 1, w, MPI_COMM_WORLD,
					 &req[w]);
			else
				a->irecv(buf + (size_t)w * bytes, bytes, MPI_BYTE, 0, w, MPI_COMM_WORLD,
					 &req[w]);
		}
		a->waitall(WINDOW, req, MPI_STATUSES_IGNORE);
		if (rank == 1)
			a->send(buf, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD);
		else
			a->recv(buf, 0, MPI_BYTE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
}

static void allreduce(const struct api *a, int bytes, int reps)
{
	double in = rank, out;

	(void)bytes;
	for (int i = 0; i < reps; i++)
		a->allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* A measurement: its loop, message size, repetitions a segment, and how
 * its value is read (per message in us, or a rate in MB/s). */
static const struct measure {
	const char *name;
	void (*loop)(const struct api *, int bytes, int reps);
	int bytes, reps;
	enum { PER_MESSAGE, PER_CALL, RATE } unit;
} measures[] = {
	{ "latency_0", pingpong, 0, 4000, PER_MESSAGE },
	{ "latency_8", pingpong, 8, 4000, PER_MESSAGE },
	{ "allreduce_8", allreduce, 8, 8000, PER_CALL },
	{ "bandwidth_65536", stream, 65536, 20, RATE },
	{ "bandwidth_1048576", stream, 1 << 20, 3, RATE },
};

/* Seconds one segment of m takes by a's names, the ranks started together. */
static double segment(const struct measure *m, const struct api *a)
{
	double t0;

	PMPI_Barrier(MPI_COMM_WORLD);
	t0 = PMPI_Wtime();
	m->loop(a, m->bytes, m->reps);
	return PMPI_Wtime() - t0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of n values, sorted in place. */
static double quantile(double *v, int n, double q)
{
	qsort(v, (size_t)n, sizeof(*v), by_value);
	return v[(int)(q * (n - 1) + 0.5)];
}

static void measure(const struct measure *m, int pairs, double *ratio, double *plain)
{
	double per = m->unit == PER_MESSAGE ? 2.0 * m->reps : m->reps;

	segment(m, &wrapped);	/* untimed: a call site's first call is its unwinding */
	segment(m, &direct);
	for (int p = 0; p < pairs; p++) {
		double tw, td;

		if (p % 2) {
			td = segment(m, &direct);
			tw = segment(m, &wrapped);
		} else {
			tw = segment(m, &wrapped);
			td = segment(m, &direct);
		}
		ratio[p] = m->unit == RATE ? td / tw : tw / td;
		plain[p] = m->unit == RATE ? (double)m->bytes * WINDOW * m->reps / td / 1e6 :
			   td / per * 1e6;
	}
	if (rank == 0) {
		double mid = quantile(ratio, pairs, 0.5);

		printf("%s %.3f %.0f%% %.3f %s\n", m->name, mid,
		       100 * (quantile(ratio, pairs, 0.75) - quantile(ratio, pairs, 0.25)) / mid,
		       quantile(plain, pairs, 0.5), m->unit == RATE ? "MB/s" : "us");
	}
}

int main(int argc, char **argv)
{
	int pairs = argc > 1 ? atoi(argv[1]) : 40, size;
	double *ratio, *plain;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	buf = malloc((size_t)WINDOW << 20);
	ratio = malloc(sizeof(*ratio) * (size_t)(pairs > 0 ? pairs : 1));
	plain = malloc(sizeof(*plain) * (size_t)(pairs > 0 ? pairs : 1));
	if (size < 2 || pairs < 1 || !buf || !ratio || !plain) {
		if (rank == 0)
			fprintf(stderr, "mpi-paired: needs 2 ranks or more, PAIRS >= 1 and %d MiB\n",
				WINDOW);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	memset(buf, 'a' + rank, (size_t)WINDOW << 20);	/* no reads of the zero page */
	for (size_t i = 0; i < sizeof(measures) / sizeof(measures[0]); i++)
		measure(&measures[i], pairs, ratio, plain);
	free(plain);
	free(ratio);
	free(buf);
	MPI_Finalize();
	return 0;
}
