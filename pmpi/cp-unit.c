/*
 * cp-unit.c - the critical path as a unit of the piggyback (pb-units.h):
 * its length, event and zeroing data stamped on what leaves, the path
 * rule at every completion, the dependencies --cp-trace logs, and the
 * fold points that synchronising collectives may carry
 * (docs/critical-path.md).
 */
#include <stdlib.h>

#include "call.h"
#include "piggyback.h"
#include "pb-units.h"
#include "critpath.h"
#include "cp-fold.h"

void pb_cp_stamp(struct pmpi_pb *pb, const struct pmpi_call *c, enum pmpi_way quick)
{
	pmpi_cp_stamp(c, pb, quick);
}

void pb_cp_stamp_core(struct pmpi_pb_core *k, const struct pmpi_call *c, enum pmpi_way quick)
{
	pmpi_cp_stamp_core(c, k, quick);
}

/* A blocking synchronising collective may be a fold point: the
 * contribution asks for one when this rank wants it. */
void pb_cp_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
		      const struct pmpi_pb_coll *x, enum pmpi_way quick)
{
	(void)c;
	if (!pmpi_pb_coll_heap(x, quick) && x->dir == PMPI_PB_ALL && pmpi_cpfold_wanted(quick))
		pb->flags |= PMPI_PB_F_FOLD;
}

void pb_cp_recv(const struct pb_arrival *a, struct pmpi_pb *pb, enum pmpi_way quick)
{
	pmpi_cp_merge(a->c, pb, true, quick);
}

static int who_by_rank(const void *a, const void *b)
{
	const struct pmpi_pb_who *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int pb_by_rank(const void *a, const void *b)
{
	const struct pmpi_pb *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* --cp-trace: the contributors the result of call c depends on, in world
 * rank order: of equal paths the reference takes the first edge, as the
 * merge takes the lowest rank.  Sorted in place: what x keeps after this
 * is merged in any order. */
static void log_who(struct pmpi_pb_coll *x, const struct pmpi_call *c)
{
	int n = 0;

	switch (x->dir) {
	case PMPI_PB_FROMROOT:
		if (x->out.rank != x->in.rank)
			pmpi_cp_edge(c, x->out.rank, x->out.event);
		return;
	case PMPI_PB_NBR:
		qsort(x->nbr, (size_t)x->nnbr, sizeof(*x->nbr), pb_by_rank);
		for (int i = 0; i < x->nnbr; i++)
			pmpi_cp_edge(c, x->nbr[i].rank, x->nbr[i].event);
		return;
	case PMPI_PB_TOROOT:
		if (!x->is_root)
			return;
		break;
	case PMPI_PB_PREFIX:
	case PMPI_PB_ALL:
		break;
	}
	for (int i = 0; i < x->nwho; i++)
		if (x->cf.inter ||
		    (i != x->cf.rank && (x->dir != PMPI_PB_PREFIX || i < x->cf.rank)))
			x->who[n++] = x->who[i];
	qsort(x->who, (size_t)n, sizeof(*x->who), who_by_rank);
	for (int i = 0; i < n; i++)
		pmpi_cp_edge(c, x->who[i].rank, x->who[i].event);
}

void pb_cp_coll(const struct pb_arrival *a, enum pmpi_way quick)
{
	struct pmpi_pb_coll *x = a->x;

	/* quick: without --cp-trace (call.h) */
	if (!quick &&
	    (x->who || (pmpi_cp_tracing() && (x->dir == PMPI_PB_FROMROOT || x->dir == PMPI_PB_NBR))))
		log_who(x, a->c);
	pmpi_cp_merge(a->c, &x->out, false, quick);
}

/* The fold point that the merged piggyback may ask for. */
void pb_cp_coll_after(const struct pb_arrival *a, enum pmpi_way quick)
{
	if (!pmpi_pb_coll_heap(a->x, quick) && a->dir == PMPI_PB_ALL)
		pmpi_cpfold_at(a->c, &a->x->cf, &a->x->out);
}

bool pb_cp_wants_who(void)
{
	return pmpi_cp_tracing();
}

