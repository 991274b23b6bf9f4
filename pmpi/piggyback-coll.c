/*
 * piggyback-coll.c - the collective side of the piggyback transport: a
 * companion collective on the user's communicator, after the user's.  A blocking
 * collective's starts when the user's call has returned, so that all of it
 * is tool time after the call, which compensation can take out (started
 * before, it made the user's call slower by an amount nobody could time);
 * a non-blocking collective's starts right after the user's call, in its
 * place among the collectives, and completes when Wait/Test completes the
 * user's request.
 *
 * The companion follows the data: a synchronising collective reduces every
 * rank's piggyback with pmpi_pb_merge (an allreduce), a broadcast or
 * scatter broadcasts the root's, a gather or reduce reduces to the root, a
 * scan scans, a neighbour collective gathers the neighbours'.  Companions
 * are started in the order of the user's collectives, which MPI requires to
 * be the same on every rank, so they match one for one; check mode proves
 * it with each rank's collective number on the communicator.  What the
 * merged piggyback means is the units' business (pb-units.h).
 */
#include <stdlib.h>
#include <string.h>

#include "analyses-lock.h"
#include "call.h"
#include "comms.h"
#include "copy.h"
#include "here.h"
#include "requests.h"
#include "piggyback.h"
#include "pb-units.h"
#include "own-cost.h"
#include "reserve.h"

static MPI_Op merge_op = MPI_OP_NULL;

/* The merges of a piggyback carried inside the user's collective take
 * about as long from call to call: timed on some, charged their median
 * (own-cost.h), one clock reading less each. */

/* The companions' operator; flattened, the merge inline. */
__attribute__((flatten))
static void pmpi_pb_merge(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	for (int i = 0; i < *len; i++)
		pmpi_pb_merge_into((const struct pmpi_pb *)in + i, (struct pmpi_pb *)inout + i);
}

int pmpi_pb_coll_start(void)
{
	return PMPI_Op_create(pmpi_pb_merge, 1, &merge_op);
}

/* A barrier is what the companion of a synchronising collective is: an
 * allreduce, which no rank leaves before every rank has entered it. */
int pmpi_x_barrier(struct pmpi_pb_coll *x, MPI_Comm comm, enum pmpi_way quick)
{
	struct pmpi_pb none;
	struct pmpi_comm_facts own;
	int rc;

	if (!pmpi_pb_coll_fusable(x, comm, quick, &own))
		return PMPI_Barrier(comm);
	if (!x) {
		pmpi_pb_fill_none(&none, 0);
		return PMPI_Allreduce(MPI_IN_PLACE, &none, 1, pmpi_pb_type, merge_op, comm);
	}
	rc = PMPI_Allreduce(&x->in, &x->out, 1, pmpi_pb_type, merge_op, comm);
	x->fused = rc == MPI_SUCCESS;
	return rc;
}

/* MPI_Ibarrier likewise, the companion's non-blocking allreduce alone in
 * x's own buffers; a call not profiled (x NULL) goes plain, as on every
 * rank. */
int pmpi_x_ibarrier(struct pmpi_pb_coll *x, MPI_Comm comm, MPI_Request *req)
{
	int rc;

	if (!x || !pmpi_pb_coll_fusable(x, comm, false, NULL))
		return PMPI_Ibarrier(comm, req);
	rc = PMPI_Iallreduce(&x->in, &x->out, 1, pmpi_pb_type, merge_op, comm, req);
	x->fused = rc == MPI_SUCCESS;
	return rc;
}

void pmpi_pb_coll_stop(void)
{
	if (merge_op != MPI_OP_NULL)
		PMPI_Op_free(&merge_op);
}

/* Start the companion on x's communicator: a non-blocking collective's beside the
 * user's, a blocking one's run to its end at once (MPI's blocking
 * collectives are much cheaper than the non-blocking ones); false when MPI
 * refused (no companion then). */
static bool start(struct pmpi_pb_coll *x)
{
	MPI_Datatype t = pmpi_pb_type;
	MPI_Comm comm = x->cf.comm;
	MPI_Request *r = x->heap ? &x->req : NULL;
	int root = x->root, rc;

	x->req = MPI_REQUEST_NULL;
	switch (x->dir) {
	case PMPI_PB_FROMROOT:
		rc = r ? PMPI_Ibcast(&x->out, 1, t, root, comm, r) : PMPI_Bcast(&x->out, 1, t, root, comm);
		break;
	case PMPI_PB_TOROOT:
		rc = r ? PMPI_Ireduce(&x->in, &x->out, 1, t, merge_op, root, comm, r) :
		     PMPI_Reduce(&x->in, &x->out, 1, t, merge_op, root, comm);
		break;
	case PMPI_PB_PREFIX:
		rc = r ? PMPI_Iscan(&x->in, &x->out, 1, t, merge_op, comm, r) :
		     PMPI_Scan(&x->in, &x->out, 1, t, merge_op, comm);
		break;
	case PMPI_PB_NBR:
		x->nnbr = pmpi_npeers(&x->cf, PMPI_PEERS_NIN);
		x->nbr = calloc(x->nnbr > 0 ? (size_t)x->nnbr : 1, sizeof(*x->nbr));
		if (!x->nbr)
			return false;
		rc = r ? PMPI_Ineighbor_allgather(&x->in, 1, t, x->nbr, 1, t, comm, r) :
		     PMPI_Neighbor_allgather(&x->in, 1, t, x->nbr, 1, t, comm);
		break;
	default:
		rc = r ? PMPI_Iallreduce(&x->in, &x->out, 1, t, merge_op, comm, r) :
		     PMPI_Allreduce(&x->in, &x->out, 1, t, merge_op, comm);
		break;
	}
	return rc == MPI_SUCCESS;
}

/*
 * For a unit that needs them (pb_units_want_who): every rank's (rank,
 * event) gathered beside the companion, so that each rank knows every
 * contributor its result depends on, not only the winner.  Broadcasts name
 * their root in the piggyback itself and neighbour collectives receive one
 * piggyback per neighbour; the others gather.
 */
static bool start_who(struct pmpi_pb_coll *x)
{
	x->me = (struct pmpi_pb_who){ x->in.rank, x->in.event };
	if (x->dir == PMPI_PB_FROMROOT || x->dir == PMPI_PB_NBR)
		return true;
	x->nwho = pmpi_npeers(&x->cf, PMPI_PEERS_N);
	x->who = calloc(x->nwho > 0 ? (size_t)x->nwho : 1, sizeof(*x->who));
	return x->who && PMPI_Iallgather(&x->me, (int)sizeof(x->me), MPI_BYTE, x->who,
					 (int)sizeof(x->me), MPI_BYTE, x->cf.comm,
					 &x->who_req) == MPI_SUCCESS;
}

/* Start x's companion, unless the user's call carried the piggyback, and
 * its gathering, timed as piggyback cost; false, with nothing left
 * allocated, when MPI refused. */
static bool start_all(struct pmpi_pb_coll *x)
{
	struct cost_mark m = pmpi_cost_mark();

	if ((!x->fused && !start(x)) || (pb_units_want_who() && !start_who(x))) {
		free(x->nbr);
		free(x->who);
		x->nbr = NULL;
		x->who = NULL;
		return false;
	}
	x->started = true;
	pmpi_cost_piggyback(&m);
	return true;
}

/* A non-blocking collective's piggyback lives on the heap until its
 * request completes, or on one of a few kept aside (reserve.h). */
#define COLLS_KEPT 16
static struct pmpi_pb_coll kept_colls[COLLS_KEPT];
static struct pmpi_reserve colls = { (unsigned char *)kept_colls, sizeof(kept_colls[0]), COLLS_KEPT,
				     0, "the piggyback of a non-blocking collective" };

/* Flattened: the fill of its contribution inline (every collective). */
__attribute__((flatten))
struct pmpi_pb_coll *pmpi_pb_coll_open(struct pmpi_call *c, struct pmpi_pb_coll *local,
					bool nonblocking, const struct pmpi_comm_facts *cf,
					int root, enum pmpi_pb_dir dir, enum pmpi_way quick)
{
	struct pmpi_pb_coll *x;
	enum pmpi_way held;
	uint64_t seq;

	if (!pmpi_pb_coll_seq(cf->comm, &seq, quick))
		return NULL;
	x = nonblocking ? pmpi_reserve_alloc(&colls, sizeof(*x)) : local;
	/* every collective begins here: its 608 bytes of piggybacks are
	 * not cleared twice */
	pmpi_zero_fixed(x, offsetof(struct pmpi_pb_coll, in));
	x->heap = nonblocking;
	x->dir = dir;
	x->t0 = c->t0;
	x->seq = seq;
	x->cf = *cf;
	x->root = root;
	x->is_root = dir == PMPI_PB_TOROOT && pmpi_is_root(cf, root);
	x->req = x->who_req = MPI_REQUEST_NULL;
	held = pmpi_analyses_hold(quick);	/* once for all the stamps */
	pmpi_pb_fill(&x->in, c, -1, c->t0, held);	/* a collective's data leave as it starts */
	pb_units_stamp_coll(&x->in, c, x, held);
	pmpi_analyses_release(held);
	x->in.flags |= PMPI_PB_F_COLL;
	x->in.seq = seq;
	/* what a rank keeps that receives nothing, or merges into; the
	 * companions of the others write all of it */
	if (dir != PMPI_PB_ALL && dir != PMPI_PB_PREFIX)
		pmpi_copy_mostly(&x->out, &x->in, pmpi_pb_bytes, PMPI_PB_CORE);
	return x;
}

void pmpi_pb_coll_end(struct pmpi_call *c, struct pmpi_pb_coll *x, int rc, MPI_Request *req,
		      enum pmpi_pb_dir dir, enum pmpi_way quick)
{
	if (!x)
		return;
	if (!pmpi_pb_coll_heap(x, quick) || rc != MPI_SUCCESS) {
		pmpi_pb_coll_finish(x, c, dir, quick);
		return;
	}
	/* the companion (or the gathering beside a call that carried the
	 * piggyback) starts in the user's call's place among the
	 * collectives: once, whether MPI takes it or not */
	if (!x->started && !start_all(x)) {
		if (!x->fused) {	/* MPI refused the companion: nothing to merge */
			pmpi_reserve_free(&colls, x);
			return;
		}
		x->started = true;	/* no gathering beside it, nor later */
	}
	pmpi_req_track_coll(c, req, x);
}

void pmpi_pb_coll_exclusive(struct pmpi_pb_coll *x, bool first, size_t pbb)
{
	if (first)
		pmpi_copy_mostly(&x->out, &x->in, pbb, PMPI_PB_CORE);
	else
		pmpi_pb_merge_into(&x->in, &x->out);
}

void pmpi_pb_coll_data_out(struct pmpi_pb_coll *x)
{
	if (x->room)
		pmpi_pb_room_out(x);
	if (x->exclusive) {
		pmpi_pb_coll_exclusive(x, x->first, pmpi_pb_bytes);
		x->exclusive = false;
	}
	if (!x->out_to)
		return;
	pmpi_copy(x->out_to, (const unsigned char *)&x->out + x->out_at, x->out_bytes);
	x->out_to = NULL;
}

/* The merged piggyback a rank received, and whether it is consistent.  A
 * neighbour slot still zeroed (version 0) belongs to an MPI_PROC_NULL
 * neighbour (a non-periodic Cartesian edge), which sends nothing: merged,
 * it would zero the delay and mark a mismatch and another host. */
static bool merged_ok(struct pmpi_pb_coll *x, enum pmpi_pb_dir dir)
{
	bool ok = !(x->out.flags & PMPI_PB_F_MISMATCH) && x->out.seq == x->seq;

	for (int i = 0; dir == PMPI_PB_NBR && i < x->nnbr; i++) {
		if (x->nbr[i].version == 0)
			continue;
		pmpi_pb_merge_into(&x->nbr[i], &x->out);
		ok = ok && x->nbr[i].seq == x->seq;
	}
	return ok;
}

/* x's gathering of every rank's (rank, event): none when quick (no
 * --cp-trace, call.h). */
static struct pmpi_pb_who *who_of(const struct pmpi_pb_coll *x, enum pmpi_way quick)
{
	return quick ? NULL : x->who;
}

void pmpi_pb_coll_finish(struct pmpi_pb_coll *x, struct pmpi_call *c, enum pmpi_pb_dir dir,
			 enum pmpi_way quick)
{
	struct cost_mark m = pmpi_cost_mark();	/* the user's collective completed */
	struct pb_arrival a = { .c = c, .t = m.t, .x = x, .dir = dir };
	enum pmpi_way held;
	bool ok;

	if (c)		/* and the call, as far as its statistics go */
		c->t_done = m.t;

	/* every rank the result depends on has joined the user's collective:
	 * what is left of the companion is the piggyback's own cost */
	if (!x->started && (!x->fused || (!quick && pb_units_want_who())) && !start_all(x))
		goto out;
	if (x->req != MPI_REQUEST_NULL)	/* none when fused */
		PMPI_Wait(&x->req, MPI_STATUS_IGNORE);
	if (who_of(x, quick))
		PMPI_Wait(&x->who_req, MPI_STATUS_IGNORE);
	pmpi_pb_coll_data_out(x);	/* a fused call's data, before the program sees them */
	if (!c)		/* completed by a call not profiled: nothing to merge into */
		goto out;
	ok = merged_ok(x, dir);
	held = pmpi_analyses_hold(quick);	/* once for the merges and the charge */
	pb_units_coll(&a, held);
	/* after the merges, which end the wait at m; a companion's wait is
	 * timed every time */
	if (x->fused && !who_of(x, quick))
		pmpi_cost_piggyback_sampled(&pmpi_here.merged_cost, &m, held);
	else
		pmpi_cost_piggyback_way(&m, held);
	pmpi_analyses_release(held);
	pb_units_coll_after(&a, quick);
	if (!quick && pmpi_pb_checking)
		pmpi_pb_count(true, !ok);
out:
	if (who_of(x, quick))	/* rare: a call of free() is some twenty instructions */
		free(x->who);
	if (dir == PMPI_PB_NBR && x->nbr)
		free(x->nbr);
	if (!pmpi_pb_coll_heap(x, quick))
		return;
	if (x->room)
		pmpi_pb_room_free(x);
	pmpi_reserve_free(&colls, x);
}
