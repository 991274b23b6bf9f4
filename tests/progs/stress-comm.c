/*
 * stress-comm.c - communicators made and freed in a loop, with collectives
 * blocking and non-blocking on them: each step makes one communicator
 * (Comm_dup, Comm_split with drawn colours, Comm_create from a group,
 * Cart_create, Intercomm_create then Intercomm_merge), runs a few drawn
 * collectives on it (Allreduce, Bcast and Reduce from a drawn root,
 * Allgather, Scan, Alltoall, Neighbor_allgather on the Cartesian one,
 * Iallreduce/Ibcast/Ialltoall/Ibarrier/Iscan completed by Test loops,
 * Waitall or Waitany, overlapped with a ring of point-to-point
 * messages) and frees it.  Every result is checked.
 * Usage: stress-comm SEED STEPS
 */
#include "stress.h"

#define MAXRANKS 64
#define NBC 4			/* non-blocking collectives in flight at once */

/* What one operation on the step's communicator does, drawn in full by
 * every rank (members of other communicators and ranks left out of one
 * too), so that the ranks' streams stay alike. */
struct op {
	int kind, sub, root, how, k;
	int nbc[NBC], nbc_root[NBC];
};

static void draw_op(struct op *o)
{
	o->kind = draw_below(3);
	o->sub = draw_below(6);
	o->root = draw_below(nranks);
	o->how = draw_below(3);
	o->k = 1 + draw_below(NBC);
	for (int i = 0; i < NBC; i++) {
		o->nbc[i] = draw_below(5);
		o->nbc_root[i] = draw_below(nranks);
	}
}

/* One step's communicator: intra is used for the collectives. */
struct comm {
	MPI_Comm intra, inter;
	bool cart;
};

static void make_split(struct comm *c, int step)
{
	int colour = draw_below(2) ? rank % 2 : (rank * 7 + step) % 3, key = draw_below(2) ? -rank : rank;

	MPI_Comm_split(MPI_COMM_WORLD, colour, key, &c->intra);
}

static void make_create(struct comm *c)
{
	MPI_Group world, g;
	int first = draw_below(nranks), ranks[MAXRANKS], n = 0;

	/* every rank from `first` on, so that rank is in it or gets MPI_COMM_NULL */
	for (int r = first; r < nranks; r++)
		ranks[n++] = r;
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, n, ranks, &g);
	MPI_Comm_create(MPI_COMM_WORLD, g, &c->intra);
	MPI_Group_free(&g);
	MPI_Group_free(&world);
}

static void make_cart(struct comm *c)
{
	int dims[2] = { 0, 0 }, periods[2] = { draw_below(2), 1 };

	MPI_Dims_create(nranks, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, draw_below(2), &c->intra);
	c->cart = true;
}

/* Two halves joined by an intercommunicator, merged back into one. */
static void make_inter(struct comm *c, int step)
{
	MPI_Comm half;
	int low = rank < nranks / 2;

	MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? nranks / 2 : 0, step % 30000, &c->inter);
	MPI_Intercomm_merge(c->inter, !low, &c->intra);
	MPI_Comm_free(&half);
}

static void make_comm(struct comm *c, int step)
{
	*c = (struct comm){ MPI_COMM_NULL, MPI_COMM_NULL, false };
	switch (draw_below(5)) {
	case 0: MPI_Comm_dup(MPI_COMM_WORLD, &c->intra); break;
	case 1: make_split(c, step); break;
	case 2: make_create(c); break;
	case 3: make_cart(c); break;
	default: make_inter(c, step);
	}
}

static void free_comm(struct comm *c)
{
	if (c->intra != MPI_COMM_NULL)
		MPI_Comm_free(&c->intra);
	if (c->inter != MPI_COMM_NULL)
		MPI_Comm_free(&c->inter);
}

/* Blocking collectives whose results each rank can predict. */
static void blocking(MPI_Comm comm, const struct op *o, int step, int me, int n)
{
	int root = o->root % n, v = me + 1, sum = 0, all[MAXRANKS], *a2a = all;
	long x = step;

	switch (o->sub) {
	case 0:
		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm);
		check(sum == n * (n + 1) / 2, step, "Allreduce");
		break;
	case 1:
		x = me == root ? step * 3 + 1 : -1;
		MPI_Bcast(&x, 1, MPI_LONG, root, comm);
		check(x == step * 3 + 1, step, "Bcast");
		break;
	case 2:
		MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_MAX, root, comm);
		check(me != root || sum == n, step, "Reduce");
		break;
	case 3:
		MPI_Allgather(&me, 1, MPI_INT, all, 1, MPI_INT, comm);
		for (int i = 0; i < n; i++)
			check(all[i] == i, step, "Allgather");
		break;
	case 4:
		MPI_Scan(&v, &sum, 1, MPI_INT, MPI_SUM, comm);
		check(sum == (me + 1) * (me + 2) / 2, step, "Scan");
		break;
	default:
		for (int i = 0; i < n; i++)
			a2a[i] = me * 1000 + i;
		MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2a, 1, MPI_INT, comm);
		for (int i = 0; i < n; i++)
			check(a2a[i] == i * 1000 + me, step, "Alltoall");
	}
}

/* Neighbours' ranks on a Cartesian communicator (its in-degree is 4 in
 * two dimensions, MPI_PROC_NULL neighbours leaving their slot alone). */
static void neighbours(MPI_Comm comm, int step, int me)
{
	int got[4] = { -1, -1, -1, -1 }, src, dst;

	MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, comm);
	for (int d = 0; d < 2; d++) {
		MPI_Cart_shift(comm, d, 1, &src, &dst);
		check(got[2 * d] == (src == MPI_PROC_NULL ? -1 : src) &&
		      got[2 * d + 1] == (dst == MPI_PROC_NULL ? -1 : dst), step, "Neighbor_allgather");
	}
}

/* Results of the non-blocking collectives, checked once complete. */
struct nbc {
	int kind, root, in, out, a2a[MAXRANKS];
};

static void start_nbc(MPI_Comm comm, struct nbc *b, int kind, int root, int me, int n,
		      MPI_Request *req)
{
	b->kind = kind;
	b->root = root % n;
	b->in = me + 1;
	b->out = -1;
	switch (b->kind) {
	case 0: MPI_Iallreduce(&b->in, &b->out, 1, MPI_INT, MPI_SUM, comm, req); break;
	case 1:
		b->out = me == b->root ? 4242 : -1;
		MPI_Ibcast(&b->out, 1, MPI_INT, b->root, comm, req);
		break;
	case 2:
		for (int i = 0; i < n; i++)
			b->a2a[i] = me * 100 + i;
		MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b->a2a, 1, MPI_INT, comm, req);
		break;
	case 3: MPI_Ibarrier(comm, req); break;
	default: MPI_Iscan(&b->in, &b->out, 1, MPI_INT, MPI_SUM, comm, req);
	}
}

static void check_nbc(const struct nbc *b, int step, int me, int n)
{
	switch (b->kind) {
	case 0: check(b->out == n * (n + 1) / 2, step, "Iallreduce"); break;
	case 1: check(b->out == 4242, step, "Ibcast"); break;
	case 2:
		for (int i = 0; i < n; i++)
			check(b->a2a[i] == i * 100 + me, step, "Ialltoall");
		break;
	case 3: break;
	default: check(b->out == (me + 1) * (me + 2) / 2, step, "Iscan");
	}
}

/* A ring message on comm while the collectives are in flight. */
static void ring_message(MPI_Comm comm, int step, int me, int n, unsigned char *buf)
{
	int next = (me + 1) % n, prev = (me + n - 1) % n;
	unsigned char out[256];

	fill(out, sizeof(out), step, me, next);
	MPI_Sendrecv(out, sizeof(out), MPI_BYTE, next, step % 30000, buf, 256, MPI_BYTE, prev,
		     step % 30000, comm, MPI_STATUS_IGNORE);
	expect(buf, 256, step, prev, me, "ring during collectives");
}

/* Up to NBC non-blocking collectives at once, completed in the drawn way. */
static void nonblocking(MPI_Comm comm, const struct op *o, int step, int me, int n)
{
	struct nbc b[NBC];
	MPI_Request req[NBC];
	unsigned char buf[256];
	int k = o->k, flag = 0, idx;

	for (int i = 0; i < k; i++)
		start_nbc(comm, &b[i], o->nbc[i], o->nbc_root[i], me, n, &req[i]);
	ring_message(comm, step, me, n, buf);
	if (o->how == 0) {
		while (!flag)
			MPI_Testall(k, req, &flag, MPI_STATUSES_IGNORE);
	} else if (o->how == 1) {
		MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
	} else {
		for (int i = 0; i < k; i++)
			MPI_Waitany(k, req, &idx, MPI_STATUS_IGNORE);
	}
	for (int i = 0; i < k; i++)
		check_nbc(&b[i], step, me, n);
}

struct step {
	int step;
};

static void run_step(void *p)
{
	int step = ((struct step *)p)->step, me, n;
	struct comm c;

	make_comm(&c, step);
	for (int i = 0, k = 1 + draw_below(4); i < k; i++) {
		struct op o;

		draw_op(&o);
		if (c.intra == MPI_COMM_NULL)
			continue;
		MPI_Comm_rank(c.intra, &me);
		MPI_Comm_size(c.intra, &n);
		if (o.kind == 0 && c.cart)
			neighbours(c.intra, step, me);
		else if (o.kind == 1)
			nonblocking(c.intra, &o, step, me, n);
		else
			blocking(c.intra, &o, step, me, n);
	}
	free_comm(&c);
}

int main(int argc, char **argv)
{
	long steps;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	stress_args(argc, argv, &steps, 200);
	check(nranks <= MAXRANKS, 0, "too many ranks");
	for (int i = 0; i < steps; i++) {
		struct step s = { i };

		at_depth(16 * draw_below(64), run_step, &s);
	}
	if (rank == 0)
		printf("stress-comm ranks=%d steps=%ld ok\n", nranks, steps);
	MPI_Finalize();
	return 0;
}
