/*
 * stress-alltoall.c - nothing but MPI_Alltoall and MPI_Alltoallv, the
 * pattern of a program that once crashed under cpperf on a loaded host:
 * per-peer sizes drawn from the seed each step (0 to 64 KiB, the same on
 * every rank), in place or not, reached at stack depths the seed chooses
 * so that call sites keep being created, and every byte checked.
 * Usage: stress-alltoall SEED STEPS
 */
#include "stress.h"

#define MAXBLOCK 65536

struct exchange {
	int step;
	int block;		/* Alltoall: bytes per peer */
	int *counts, *displs;	/* Alltoallv, this step's matrix row / column */
	int *rcounts, *rdispls;
	unsigned char *send, *recv;
};

static void alltoall(void *p)
{
	struct exchange *x = p;

	check(MPI_Alltoall(x->send, x->block, MPI_BYTE, x->recv, x->block, MPI_BYTE,
			   MPI_COMM_WORLD) == MPI_SUCCESS, x->step, "MPI_Alltoall");
}

static void alltoall_in_place(void *p)
{
	struct exchange *x = p;

	check(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, x->recv, x->block, MPI_BYTE,
			   MPI_COMM_WORLD) == MPI_SUCCESS, x->step, "MPI_Alltoall in place");
}

static void alltoallv(void *p)
{
	struct exchange *x = p;

	check(MPI_Alltoallv(x->send, x->counts, x->displs, MPI_BYTE, x->recv, x->rcounts,
			    x->rdispls, MPI_BYTE, MPI_COMM_WORLD) == MPI_SUCCESS, x->step,
	      "MPI_Alltoallv");
}

/* Size of the message from rank i to rank j in this step: every rank
 * draws the whole matrix, so senders and receivers agree. */
static void draw_matrix(int *m)
{
	for (int i = 0; i < nranks * nranks; i++)
		m[i] = draw_below(4) ? draw_below(MAXBLOCK + 1) : 0;
}

static void step_alltoall(struct exchange *x, bool in_place, int pad)
{
	unsigned char *src = in_place ? x->recv : x->send;

	x->block = draw_below(4) ? draw_below(MAXBLOCK + 1) : draw_below(64);
	for (int p = 0; p < nranks; p++)
		fill(src + (size_t)p * x->block, (size_t)x->block, x->step, rank, p);
	at_depth(pad, in_place ? alltoall_in_place : alltoall, x);
	for (int p = 0; p < nranks; p++)
		expect(x->recv + (size_t)p * x->block, (size_t)x->block, x->step, p, rank, "alltoall");
}

static void step_alltoallv(struct exchange *x, int *m, int pad)
{
	int so = 0, ro = 0;

	draw_matrix(m);
	for (int p = 0; p < nranks; p++) {
		x->counts[p] = m[rank * nranks + p];
		x->displs[p] = so;
		so += x->counts[p];
		x->rcounts[p] = m[p * nranks + rank];
		x->rdispls[p] = ro;
		ro += x->rcounts[p];
		fill(x->send + x->displs[p], (size_t)x->counts[p], x->step, rank, p);
	}
	at_depth(pad, alltoallv, x);
	for (int p = 0; p < nranks; p++)
		expect(x->recv + x->rdispls[p], (size_t)x->rcounts[p], x->step, p, rank, "alltoallv");
}

int main(int argc, char **argv)
{
	long steps;
	struct exchange x = { 0 };
	int *m;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	stress_args(argc, argv, &steps, 200);
	m = malloc(sizeof(int) * (size_t)nranks * (size_t)nranks);
	x.counts = malloc(sizeof(int) * 4 * (size_t)nranks);
	x.displs = x.counts + nranks;
	x.rcounts = x.counts + 2 * nranks;
	x.rdispls = x.counts + 3 * nranks;
	x.send = malloc((size_t)MAXBLOCK * (size_t)nranks);
	x.recv = malloc((size_t)MAXBLOCK * (size_t)nranks);
	check(m && x.counts && x.send && x.recv, 0, "out of memory");
	for (x.step = 0; x.step < steps; x.step++) {
		int kind = draw_below(3), pad = 16 * draw_below(256);

		if (kind == 2)
			step_alltoallv(&x, m, pad);
		else
			step_alltoall(&x, kind == 1, pad);
	}
	if (rank == 0)
		printf("stress-alltoall ranks=%d steps=%ld ok\n", nranks, steps);
	free(m);
	free(x.counts);
	free(x.send);
	free(x.recv);
	MPI_Finalize();
	return 0;
}
