/*
 * here.h - what the MPI layer keeps per thread, in one thread-local block.
 *
 * The runtime is a shared library: its thread-locals are reached through
 * an offset the loader writes into the GOT, one per variable, and a
 * common call that touched a dozen of them loaded a dozen offsets (and
 * again after every call that clobbers the register).  One block takes
 * one offset, which a call's copy keeps (bench/mpi-cost.md).  Each field
 * belongs to the file named beside it; no other touches it.
 */
#ifndef CPPERF_PMPI_HERE_H
#define CPPERF_PMPI_HERE_H

#include <stdint.h>

#include "own-cost.h"
#include "wait-rules.h"

struct pmpi_named;
struct thread_counts;

/* What a thread keeps of its activity graph between its calls. */
struct pmpi_graph_thread {
	int last_site;		/* of its last call, -1 before */
	uint64_t last_exit;	/* when that call ended */
	uint64_t ring_mark;	/* its sample ring's head at the last call's entry */
};

struct pmpi_here {
	/* call.h: wrapper nesting (a wrapper entered from inside another, as
	 * the library's Fortran binding calling the C function, only passes
	 * on), and the return address of the quick wrapper entered last */
	unsigned nesting;
	const void *caller;
	struct cost_sampled own_cost;	/* call.c: the wrappers' own work */
	struct cost_sampled sent_cost;	/* p2p.c: a small send's layout and header */
	struct cost_sampled taken_cost;	/* p2p.c: a small receive's header read
					 * and data copied out */
	struct cost_sampled posted_cost;	/* p2p.c: a small non-blocking
						 * receive's layout */
	struct cost_sampled merged_cost;	/* piggyback-coll.c: a collective's */
	struct thread_counts *counts;	/* stats.c: the thread's counters */
	uint64_t ring_head;		/* compensate.c: the sample ring's head at
					 * the last charge of news */
	const struct pmpi_named *named_last;	/* datatypes.h: the last found */
	struct pmpi_graph_thread graph;	/* graph.h */
	struct wait_order order;	/* waits.c: the kept Late Sender */
};

extern __thread struct pmpi_here pmpi_here __attribute__((tls_model("initial-exec")));

#endif
