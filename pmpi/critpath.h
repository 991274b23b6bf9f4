/*
 * critpath.h - the online critical path (Hollingsworth;
 * docs/critical-path.md): the rank's path length, advanced by its own time
 * between MPI calls and raised by longer paths that messages and
 * collectives bring in the piggyback.
 *
 * The wrappers number every MPI call of the rank (an event) at entry:
 * event 0 is MPI_Init, whose exit starts the path at length 0.  A merge
 * where a remote path wins is kept as a link (local event, sender's rank and
 * event), and the drain thread files each sample under the segment between
 * two events it fell in; `cpperf report` walks the links back from the end
 * and sums those segments' samples into the critical-path profile.
 * Thread-safe: one lock, taken once per wrapped call.
 */
#ifndef CPPERF_PMPI_CRITPATH_H
#define CPPERF_PMPI_CRITPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/profile.h"
#include "way.h"

struct pmpi_call;
struct pmpi_pb;
struct pmpi_pb_core;

/* At the exit of MPI_Init (when the piggyback is on): start the path,
 * with rt's options (--cp-trace, zeroing). */
struct rt_state;
void pmpi_cp_start(struct rt_state *rt, uint64_t t_exit);
/* A wrapped call begins: its event number into c->event, and the length
 * grows by the segment that ended at c->t0.  quick: as call.h says. */
void pmpi_cp_enter(struct pmpi_call *c, enum pmpi_way quick);
/* It ends at t. */
void pmpi_cp_leave(const struct pmpi_call *c, uint64_t t, enum pmpi_way quick);
/* The path length now and the call's event, for a piggyback being sent;
 * quick: as call.h says. */
void pmpi_cp_stamp(const struct pmpi_call *c, struct pmpi_pb *pb, enum pmpi_way quick);
/* The same into a message's core (no zeroing then). */
void pmpi_cp_stamp_core(const struct pmpi_call *c, struct pmpi_pb_core *k, enum pmpi_way quick);
/* A piggyback arrived in call c (a message, or a collective's merged
 * piggyback): the remote path wins when strictly longer.  edge: also log
 * it as a dependency (--cp-trace); a collective logs its contributors
 * with pmpi_cp_edge instead. */
void pmpi_cp_merge(const struct pmpi_call *c, const struct pmpi_pb *pb, bool edge, enum pmpi_way quick);
void pmpi_cp_edge(const struct pmpi_call *c, int64_t rank, uint64_t event);
/* Whether dependencies are logged (--cp-trace). */
bool pmpi_cp_tracing(void);
/* MPI_Finalize's entry: the path's end. */
void pmpi_cp_end(void);
/* End of the run: the path's records into rt's profile. */
void pmpi_cp_fill(struct rt_state *rt);
/* A sample at time (CLOCK_MONOTONIC) whose leaf is tree node `node`, with
 * weights w per event, for the path's profile (the runtime's sample hook).
 * Drain thread only. */
void pmpi_cp_sample(struct rt_state *rt, uint64_t time, uint32_t node, const uint64_t *w);

/* Fold points (cp-fold.c; docs/critical-path.md "Fold points"), from the
 * thread inside the collective.  Whether the rank's records ask for one:
 * either half of its budget a quarter full (an eighth of the budget). */
struct fold_state;
struct fold_answer;
bool pmpi_cp_fold_wanted(enum pmpi_way quick);
/* The fold points resolved so far. */
uint64_t pmpi_cp_folds(void);
/* The event of the path's end (MPI_Finalize), 0 before it or when the
 * path is not computed: the same answer on every rank. */
uint64_t pmpi_cp_end_event(void);
/* The rank's message for the root (cp-fold-msg.h): its state and its
 * links since the last fold point (st->path 0 and no links when the rank
 * has no path), in a new buffer *msg of *len bytes the caller frees;
 * -1 when memory is short. */
int pmpi_cp_fold_message(unsigned char **msg, size_t *len);
/* The fold point at this rank's event resolved as a says: a's ranges go
 * into the prefix (which takes them over) with their segments' samples,
 * and the links and segments up to event are dropped.  Cannot fail
 * (samples that find no memory are counted, and said at the end). */
void pmpi_cp_fold_apply(uint64_t event, const struct fold_answer *a);

#endif
