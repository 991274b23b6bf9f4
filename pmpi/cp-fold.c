/*
 * cp-fold.c - fold points of the critical path (cp-fold.h): the decision,
 * and the exchange on the private communicator.
 *
 * Every step is a collective of all ranks on the duplicate, and every
 * rank takes the same branch at each, from what the previous one made the
 * same everywhere: rank 0 gathers the sizes of the ranks' messages, says
 * whether it has room for them all (a broadcast), gathers them, walks
 * (cp-fold-msg.c) and scatters the sizes of the answers, 0 for all when
 * the walk failed; the ranks agree that each has room for its own (an
 * allreduce) before it is scattered.  The time it takes is the tool's, on
 * every rank: it is charged as piggyback time (compensate.h).
 *
 * At MPI_Finalize, when the run had fold points, the ranks fold once more
 * from the path's end, which the root finds as the report would (the
 * longest length, the lowest rank on ties): every rank's records then
 * hold no link or segment, and its profile's size no longer depends on
 * how long the run went on since the last fold point.
 */
#include <limits.h>
#include <stdlib.h>

#include "../sampler/rt.h"
#include "call.h"
#include "comms.h"
#include "piggyback.h"
#include "critpath.h"
#include "compensate.h"
#include "cp-fold.h"
#include "cp-fold-msg.h"

static struct {
	MPI_Comm comm;		/* MPI_COMM_NULL: no fold points in this run */
	int rank, size;
	bool off;		/* a fold point failed: no more of them */
	int *lens, *displs;	/* rank 0: the messages' sizes and places */
	int *zeros;		/* rank 0: the answers' sizes when the walk failed */
} fold = { .comm = MPI_COMM_NULL };

void pmpi_cpfold_open(const struct rt_state *rt)
{
	int mine = rt->opt.cp_budget > 0 && pmpi_one_thread, all = 0;
	MPI_Comm c;

	if (PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS || !all ||
	    PMPI_Comm_dup(MPI_COMM_WORLD, &c) != MPI_SUCCESS)
		return;
	PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
	PMPI_Comm_rank(c, &fold.rank);
	PMPI_Comm_size(c, &fold.size);
	if (fold.rank == 0) {
		fold.lens = calloc((size_t)fold.size, sizeof(int));
		fold.displs = calloc((size_t)fold.size, sizeof(int));
		fold.zeros = calloc((size_t)fold.size, sizeof(int));
	}
	/* rank 0 without them takes part, and answers that the walk failed */
	fold.comm = c;
}

bool pmpi_cpfold_wanted(enum pmpi_way quick)
{
	return fold.comm != MPI_COMM_NULL && !fold.off && pmpi_cp_fold_wanted(quick);
}

/* Whether every rank takes the fold point of collective c on the
 * communicator of facts cf with merged piggyback pb: the same answer on
 * all of them. */
static bool at_fold_point(const struct pmpi_comm_facts *cf, const struct pmpi_pb *pb)
{
	return fold.comm != MPI_COMM_NULL && !fold.off && (pb->flags & PMPI_PB_F_FOLD) &&
	       !(pb->flags & PMPI_PB_F_MISMATCH) && pb->event && pb->cp >= 0 &&
	       !cf->inter && cf->size == fold.size;
}

/* Rank 0 gathers every rank's message (len bytes at msg) into *all, at
 * fold.displs; false on every rank when rank 0 has no room for them or
 * MPI failed (*all is then NULL). */
static bool gather(const unsigned char *msg, int len, unsigned char **all)
{
	int go = 1;

	*all = NULL;
	if (PMPI_Gather(&len, 1, MPI_INT, fold.lens, 1, MPI_INT, 0, fold.comm) != MPI_SUCCESS)
		return false;
	if (fold.rank == 0) {
		size_t total = 0;

		for (int r = 0; fold.displs && r < fold.size; r++) {
			fold.displs[r] = (int)total;	/* each at most INT_MAX / size */
			total += (size_t)fold.lens[r];
		}
		go = fold.lens && fold.displs && fold.zeros &&
		     (*all = malloc(total ? total : 1)) != NULL;
	}
	if (PMPI_Bcast(&go, 1, MPI_INT, 0, fold.comm) == MPI_SUCCESS && go &&
	    PMPI_Gatherv(msg, len, MPI_BYTE, *all, fold.lens, fold.displs, MPI_BYTE, 0,
			 fold.comm) == MPI_SUCCESS)
		return true;
	free(*all);
	*all = NULL;
	return false;
}

/* An answer, as scattered: its words and room for its ranges. */
struct answer_buf {
	uint64_t *words;
	int n;
	struct cp_range *ranges;
};

/* Rank 0 scatters plan's answers (failures when plan is NULL); this
 * rank's into *ab.  False on every rank when the walk failed, a rank had
 * no room for its answer or MPI failed. */
static bool scatter(const struct fold_plan *plan, struct answer_buf *ab)
{
	const int *counts = plan ? plan->counts : fold.zeros;
	int room, all = 0;

	if (PMPI_Scatter(counts, 1, MPI_INT, &ab->n, 1, MPI_INT, 0, fold.comm) != MPI_SUCCESS ||
	    ab->n <= 0)
		return false;
	ab->words = malloc((size_t)ab->n * sizeof(*ab->words));
	ab->ranges = malloc(((size_t)foldmsg_answer_ranges(ab->n) + 1) * sizeof(*ab->ranges));
	room = ab->words && ab->ranges;
	return PMPI_Allreduce(&room, &all, 1, MPI_INT, MPI_MIN, fold.comm) == MPI_SUCCESS && all &&
	       PMPI_Scatterv(plan ? plan->words : NULL, plan ? plan->counts : NULL,
			     plan ? plan->displs : NULL, MPI_UINT64_T, ab->words, ab->n,
			     MPI_UINT64_T, 0, fold.comm) == MPI_SUCCESS;
}

/* This rank's message: its state and links, empty (a rank left out of
 * the walk) when memory is short or it would not fit a gather of all.
 * The calling thread's samples are placed first: samples of segments on
 * the path that arrive after the next fold point are lost to the prefix,
 * and this thread is the one whose segments the path takes. */
static unsigned char *message(int *len)
{
	unsigned char *msg = NULL;
	size_t n = 0;

	rt_drain_self(rt_current());
	if (pmpi_cp_fold_message(&msg, &n) < 0 || n > (size_t)(INT_MAX / fold.size))
		n = 0;
	*len = (int)n;
	return msg;
}

/* Rank 0's walk from start over the messages all into plan: plan, or
 * NULL on the other ranks and when memory is short.  Says why there will
 * be no more fold points, naming the fold point by rank 0's event. */
static struct fold_plan *walk(const unsigned char *all, struct fold_start start, uint64_t event,
			      struct fold_plan *plan)
{
	const char *why = NULL;

	if (fold.rank != 0)
		return NULL;
	if (foldmsg_plan(all, fold.lens, fold.displs, fold.size, start, FOLDMSG_ARRAY_BYTES,
			 plan) < 0)
		why = "memory was short";
	else if (!plan->ok)
		why = plan->why;
	if (why)
		rt_notice(rt_current(), "no more fold points of the critical path from the one at "
			  "rank 0's event %llu: %s; the budget's latest part applies",
			  (unsigned long long)event, why);
	return plan->counts ? plan : NULL;
}

/* The exchange of the fold point at this rank's event, whose walk starts
 * at start; false when it failed (on every rank). */
static bool exchange(struct fold_start start, uint64_t event)
{
	struct fold_plan plan, *p;
	struct answer_buf ab = { 0 };
	struct fold_answer a;
	unsigned char *msg, *all;
	int len;
	bool ok;

	msg = message(&len);
	ok = gather(msg, len, &all);
	free(msg);
	p = ok ? walk(all, start, event, &plan) : NULL;
	free(all);
	ok = ok && scatter(p, &ab) && foldmsg_answer(ab.words, ab.n, ab.ranges, &a) == 0 && a.ok;
	if (p)
		foldmsg_plan_free(p);
	if (ok) {
		pmpi_cp_fold_apply(event, &a);	/* the prefix takes the ranges over */
		ab.ranges = NULL;
	}
	free(ab.words);
	free(ab.ranges);
	return ok;
}

/* A fold point at this rank's event, whose walk starts at start: charged
 * as the tool's time; the last one when it fails.  Out of line: every
 * some ten thousand collectives, and the collectives inline their whole
 * call (mpi-api.def's hot). */
__attribute__((noinline))
static void fold_at(struct fold_start start, uint64_t event)
{
	struct cost_mark m = pmpi_cost_mark();

	if (!exchange(start, event))
		fold.off = true;
	pmpi_cost_piggyback(&m);
}

void pmpi_cpfold_at(const struct pmpi_call *c, const struct pmpi_comm_facts *cf,
		    const struct pmpi_pb *pb)
{
	if (at_fold_point(cf, pb))
		fold_at((struct fold_start){ pb->rank, pb->event, (uint64_t)pb->cp }, c->event);
}

void pmpi_cpfold_end(void)
{
	uint64_t event = pmpi_cp_end_event();

	/* after the path's end: none of it is on the path, and compensation
	 * has ended */
	if (fold.comm != MPI_COMM_NULL && !fold.off && event && pmpi_cp_folds() &&
	    !exchange((struct fold_start){ -1, 0, 0 }, event))
		fold.off = true;
}

void pmpi_cpfold_close(void)
{
	if (fold.comm != MPI_COMM_NULL)
		PMPI_Comm_free(&fold.comm);
	free(fold.lens);
	free(fold.displs);
	free(fold.zeros);
	fold.lens = fold.displs = fold.zeros = NULL;
}
