/*
 * wait-rules.h - the rules of the wait states (docs/waits.md), without
 * MPI: how long a call waited for a partner, which Scalasca category a
 * collective's wait falls in, when a Late Sender was one of wrong order.
 * Times are on one clock (rank 0's, once aligned).  The unit tests drive
 * them as they are.
 */
#ifndef CPPERF_PMPI_WAIT_RULES_H
#define CPPERF_PMPI_WAIT_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/profile.h"

/* A call entered at `entry` and blocked `blocked` ns; its partner came at
 * `partner`: it waited partner - entry, at least 0, at most blocked. */
static inline uint64_t wait_for(uint64_t entry, uint64_t partner, uint64_t blocked)
{
	uint64_t w = partner > entry ? partner - entry : 0;

	return w < blocked ? w : blocked;
}

/* Where a collective's partners are, for its category. */
enum wait_shape {
	WAIT_ALL,		/* every rank's result needs every rank's data */
	WAIT_FROMROOT,		/* a broadcast or scatter */
	WAIT_TOROOT,		/* a reduce or gather */
	WAIT_OTHER,		/* scans, neighbour collectives: not classified */
};

/* The category of a collective's wait on this rank, or PROF_WAITS when
 * it has none: Wait at Barrier or Wait at NxN (the latest entry), Late
 * Broadcast on a destination (the root's entry), Early Reduce on the
 * root (the latest sender's entry). */
unsigned wait_coll_kind(enum wait_shape shape, bool barrier, bool root);

/*
 * Late Sender, wrong order: a receive waited for a late sender while a
 * message sent earlier was there to take, which the thread received
 * later.  The thread keeps its last Late Sender; a message that arrives
 * afterwards but was sent before it makes that one of wrong order.
 */
struct wait_order {
	int site;		/* the call site that waited */
	uint64_t ls, ls_comp;	/* its Late Sender time */
	uint64_t sent;		/* when the message it waited for was sent, 0
				 * when none is kept (zeroed at first) */
};

/* A call at site waited ls (ls_comp) for the latest of its messages, sent
 * at `sent`: it becomes the one to compare with (a call without a Late
 * Sender does not). */
void wait_order_keep(struct wait_order *o, int site, uint64_t ls, uint64_t ls_comp,
		     uint64_t sent);

/* A message sent at `sent` arrived: whether it makes the kept Late Sender
 * one of wrong order.  One compare: every message arrives here. */
static inline bool wait_order_wrong(const struct wait_order *o, uint64_t sent)
{
	return sent < o->sent;
}

/* Forget the kept Late Sender (counted once). */
static inline void wait_order_forget(struct wait_order *o)
{
	*o = (struct wait_order){ 0 };
}

#endif
