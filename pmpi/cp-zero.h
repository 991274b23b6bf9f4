/*
 * cp-zero.h - critical-path zeroing (docs/critical-path.md "Zeroing"): for
 * up to 8 selected functions, the rank's net length N_f (its path with the
 * function's time removed) and share S_f (the function's time along the
 * path), carried in the piggyback and merged like the length itself.
 *
 * critpath.c calls everything here with its lock held, so the state needs
 * no lock of its own; cpz_sample runs on whichever thread folds samples
 * (under the runtime's aggregation lock as well).
 */
#ifndef CPPERF_PMPI_CP_ZERO_H
#define CPPERF_PMPI_CP_ZERO_H

#include <stdbool.h>
#include <stdint.h>

struct rt_state;
struct pmpi_pb;

/* At MPI_Init's exit: the selection of --cp-functions (started now) or
 * --cp-auto (rank 0 chooses after the warm-up). */
void cpz_start(const struct rt_state *rt, int world_rank, uint64_t t0);
/* Whether a selection exists or may come: the caller then drains its own
 * samples at each call's entry, so that a segment's samples are complete. */
bool cpz_active(void);
/* Entry of event e at time now, whose segment seg_ns made the length
 * `length` (after adding it). */
void cpz_enter(uint64_t e, uint64_t now, uint64_t seg_ns, uint64_t length);
void cpz_stamp(struct pmpi_pb *pb);
/* A piggyback merged in event e; entry_length: the length at e's entry;
 * took: the length became the piggyback's. */
void cpz_merge(uint64_t e, uint64_t entry_length, const struct pmpi_pb *pb, bool took);
/* MPI_Finalize's entry (or the end of the process). */
void cpz_end(void);
/* A sample of segment seg with tree leaf node and weights w. */
void cpz_sample(struct rt_state *rt, uint64_t seg, uint32_t node, const uint64_t *w);
/* The rank's zeroing records into rt->prof. */
void cpz_fill(struct rt_state *rt);

#endif
