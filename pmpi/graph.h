/*
 * graph.h - the rank's activity graph (graph.c): the computation between
 * consecutive MPI calls of a thread, and the completions of non-blocking
 * requests, as edges between call sites.
 */
#ifndef CPPERF_PMPI_GRAPH_H
#define CPPERF_PMPI_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/profile.h"

struct pmpi_call;

/* Call c (its site known) ended at t: the edge from the thread's previous
 * call to it. */
void pmpi_graph_leave(const struct pmpi_call *c, uint64_t t);
/* A sample of tree node `node`, w samples of the first event, in an
 * interval tagged by pmpi_graph_leave (the runtime's tagged hook, which
 * passes only the first event's samples). */
void pmpi_graph_sample(uint32_t tag, uint32_t node, uint64_t w);
/* A non-blocking request started at site post completed at site done, ns
 * after it was started (0 unknown). */
void pmpi_graph_complete(int post, int done, uint64_t ns);
/* The edges whose both sites made it into p (site_of as pmpi_waits_fill);
 * final: says what could not be kept. */
void pmpi_graph_fill(struct profile *p, const uint32_t *site_of, bool final);

#endif
