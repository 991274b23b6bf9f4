/*
 * compensate.h - measured overhead and parallel overhead compensation
 * (Malony, Shende, Morris, Wolf; docs/compensation.md).
 *
 * The rank's overhead o grows with every wrapped call, every sample of its
 * threads, the drain thread's CPU time and context switches, the
 * piggyback's own work (headers, the data copied behind them, collective
 * companions) and, for validation, injected busy time; its delay x grows
 * with o, travels in the piggyback (fields t_send, delay, t_free), and
 * shrinks at a receive or collective whose partner was less delayed (the
 * rule is at comp_merge, in its unit of the piggyback, pb_comp_recv).
 * Thread-safe: one lock, taken a few times per call, and none when only
 * one thread calls MPI.
 */
#ifndef CPPERF_PMPI_COMPENSATE_H
#define CPPERF_PMPI_COMPENSATE_H

#include <stdbool.h>
#include <stdint.h>

#include "own-cost.h"

struct rt_state;
struct pmpi_call;
struct pmpi_pb;

/* At MPI_Init's exit (piggyback on): measure the costs charged per call,
 * sample and context switch (tens of ms); then read the injection
 * variables and start counting at t0. */
void pmpi_comp_calibrate(struct rt_state *rt);
void pmpi_comp_start(uint64_t t0);
/* At the entry of a wrapped call, before its clock starts (the thread's
 * sample ring's head then): charge the call's own work (call_ns,
 * estimated by call.c), the samples, context switches and drain-thread
 * time since the last one, inject busy time; the busy time it injected. */
uint64_t pmpi_comp_enter(uint64_t call_ns, uint64_t ring_head, enum pmpi_way quick);
/* At the end of a wrapped call that entered at t0, a collective or not:
 * the switches of a wait that took turns with another thread on its core.
 * quick: as call.h says. */
void pmpi_comp_leave(uint64_t t0, uint64_t t, bool coll, enum pmpi_way quick);
/* A sample of the rank's threads was folded; the drain thread published
 * its costs (rt_hooks.published). */
void pmpi_comp_sample(void);
void pmpi_comp_published(struct rt_state *rt);
/* The hash of this host's name; the one a piggyback from a rank on it
 * carries (set at the start). */
uint64_t pmpi_host_hash(void);
/* The rank's delay x now (0 when compensation is off), and whether it
 * is on. */
uint64_t pmpi_comp_delay(void);
bool pmpi_comp_on(void);
/* MPI_Finalize's entry at t. */
void pmpi_comp_end(uint64_t t);
/* The rank's figures into rt->prof. */
void pmpi_comp_fill(struct rt_state *rt);

#endif
