/*
 * compensate.h - measured overhead and parallel overhead compensation
 * (Malony, Shende, Morris, Wolf; DESIGN.md §7, docs/compensation.md).
 *
 * The rank's overhead o grows with every wrapped call, every sample of its
 * threads, the piggyback's own messages and, for validation, injected busy
 * time; its delay x grows with o, travels in the piggyback (field delay),
 * and shrinks at a receive or collective whose partner was less delayed:
 * x = min(x_sender, x + w), the wait w becoming w' = max(0, w + x - x_sender).
 * Thread-safe (one lock, taken a few times per call).
 */
#ifndef CPPERF_PMPI_COMPENSATE_H
#define CPPERF_PMPI_COMPENSATE_H

#include <stdint.h>

struct rt_state;
struct pmpi_call;
struct pmpi_pb;

/* At MPI_Init's exit (piggyback on): calibrate, read the injection
 * variables, start counting at t0. */
void pmpi_comp_start(struct rt_state *rt, uint64_t t0);
/* At the entry of a wrapped call, before its clock starts: charge the
 * call and the samples taken since the last one, inject busy time. */
void pmpi_comp_enter(void);
/* A sample of the rank's threads was folded. */
void pmpi_comp_sample(void);
/* Tool time measured on the rank's thread: piggyback traffic, or samples
 * folded there. */
void pmpi_comp_piggyback(uint64_t ns);
void pmpi_comp_drain(uint64_t ns);
/* The delay for a piggyback being sent. */
void pmpi_comp_stamp(struct pmpi_pb *pb);
/* Call c completed a receive or collective whose dependencies had the
 * (smallest) delay of pb, at time now. */
void pmpi_comp_merge(const struct pmpi_call *c, const struct pmpi_pb *pb, uint64_t now);
/* MPI_Finalize's entry at t. */
void pmpi_comp_end(uint64_t t);
/* The rank's figures into rt->prof. */
void pmpi_comp_fill(struct rt_state *rt);

#endif
