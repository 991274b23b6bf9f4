/*
 * pb-rules.h - the rules that combine piggybacks, without MPI: the
 * critical path's merge at a receive, zeroing's, overhead compensation's
 * (docs/critical-path.md, docs/compensation.md), the merge of a
 * collective's contributions, and the estimate of a cost timed on some
 * messages only.  The unit tests drive them as they are.
 */
#ifndef CPPERF_PMPI_PB_RULES_H
#define CPPERF_PMPI_PB_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "pb.h"

/* A receive's path: a longer path than the rank's own (*length) wins and
 * becomes it; true when it did. */
bool pb_path_rule(uint64_t *length, const struct pmpi_pb *pb);

/* Zeroing at a receive, over the nfns selected functions: a path that won
 * (took) brings its shares (none when it carries no zeroing data), and
 * net lengths are maxima. */
void pb_zero_rule(int nfns, int64_t *share, int64_t *net, const struct pmpi_pb *pb, bool took);

/* Compensation at a completion: the call entered at t0 with the rank x
 * late, its data arrived (the call ended) at now.  local: the sender's
 * clock is this rank's (one host).  The new delay, the measured wait and
 * the wait without measurement. */
struct comp_step {
	uint64_t x, wait, wait_comp;
};
struct comp_step pb_comp_rule(uint64_t t0, uint64_t now, uint64_t x, const struct pmpi_pb *pb,
			      bool local);

/* b = merge(a, b), a collective's contributions (the companion's operator). */
void pmpi_pb_merge_into(const struct pmpi_pb *a, struct pmpi_pb *b);

/* A collective's contribution, stamped: turns (the rank's charge at its
 * last collective, at most its delay) left out of its delay and free time
 * and carried apart; pb_coll_turns undoes it with the participants'
 * largest. */
void pb_turns_apart(struct pmpi_pb *pb, uint64_t turns);

/* A collective's merged piggyback, before the compensation rule: the
 * switches that slowed the participants' last collective slowed it for
 * all of them, so the largest delay they added (turns, which each
 * contribution left out of its delay and free time) is everybody's. */
void pb_coll_turns(struct pmpi_pb *pb);

#endif
