/*
 * own-cost.h - the MPI layer's own work, timed by whoever does it (the
 * piggyback's transport, the critical path's messages, the unwinding on a
 * rank's thread) and charged to the rank's overhead, which compensation
 * (compensate.c) removes: docs/compensation.md "What is measured".
 */
#ifndef CPPERF_PMPI_OWN_COST_H
#define CPPERF_PMPI_OWN_COST_H

#include <stdbool.h>
#include <stdint.h>

#include "way.h"

/* A piggyback's step that costs about the same on every message (a small
 * message's layout, its header read), or a wrapper's own work: timed on
 * the first COST_SAMPLED_KEEP messages of a thread, then on one in
 * COST_SAMPLED_EVERY, and estimated for the others by the median of the
 * last COST_SAMPLED_KEEP timings: a clock read less, and a timing that a
 * preemption, a sample or a page touched for the first time stretched is
 * not charged over and over.  A step of a profiled call is timed when the
 * call's own work is (the wrappers' countdown, call.c), the others by
 * their own countdown.  Zeroed memory is a thread's first state. */
#define COST_SAMPLED_EVERY 64u
#define COST_SAMPLED_KEEP 5u
struct cost_sampled {
	unsigned skip;			/* messages to pass before the next is timed */
	unsigned n;			/* messages timed so far */
	unsigned k;			/* timings kept so far */
	uint64_t est;			/* ns */
	uint64_t ns[COST_SAMPLED_KEEP];	/* the last timings */
};

/* Count a message: true when it is to be timed.  A countdown: most
 * messages only decrement it. */
static inline bool pb_sampled_due(struct cost_sampled *s)
{
	if (s->skip) {
		s->skip--;
		return false;
	}
	s->skip = ++s->n < COST_SAMPLED_KEEP ? 0 : COST_SAMPLED_EVERY - 1;
	return true;
}

/* Keep a timing t and make the estimate the median of the last ones (the
 * lower of the two middle ones while they are fewer than
 * COST_SAMPLED_KEEP and even). */
void pb_sampled_add(struct cost_sampled *s, uint64_t t);

/* A stretch of tool time on the calling thread starts: when. */
struct cost_mark {
	uint64_t t;
};
struct cost_mark pmpi_cost_mark(void);
/* Tool time on the rank's thread since m: piggyback traffic, or samples
 * folded there. */
void pmpi_cost_piggyback(const struct cost_mark *m);
/* The same in a call's way (way.h). */
void pmpi_cost_piggyback_way(const struct cost_mark *m, enum pmpi_way quick);
/* The same up to t, a time the caller read already, in a call's way. */
void pmpi_cost_piggyback_to(const struct cost_mark *m, uint64_t t, enum pmpi_way quick);
/* ns of piggyback time. */
void pmpi_cost_piggyback_ns(uint64_t ns, enum pmpi_way quick);
/* The step since m, timed: charged, and kept in s. */
void pmpi_cost_piggyback_timed(struct cost_sampled *s, const struct cost_mark *m,
			       enum pmpi_way quick);

/* A small message's step since m, timed when `timed` (the draw of the
 * call it belongs to, whose own work is timed then: one countdown a call
 * for both) or estimated by s: charged as piggyback time.  quick: as
 * call.h says. */
static inline void pmpi_cost_piggyback_drawn(struct cost_sampled *s, const struct cost_mark *m,
					     bool timed, enum pmpi_way quick)
{
	if (timed)
		pmpi_cost_piggyback_timed(s, m, quick);
	else
		pmpi_cost_piggyback_ns(s->est, quick);
}

/* The same, drawn by s's own countdown. */
static inline void pmpi_cost_piggyback_sampled(struct cost_sampled *s, const struct cost_mark *m,
					       enum pmpi_way quick)
{
	pmpi_cost_piggyback_drawn(s, m, pb_sampled_due(s), quick);
}
/* Samples folded on the rank's thread since m. */
void pmpi_cost_drain(const struct cost_mark *m);

#endif
