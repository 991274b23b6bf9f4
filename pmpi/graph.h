/*
 * graph.h - the rank's activity graph (graph.c): the computation between
 * consecutive MPI calls of a thread, as edges between their call sites.
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
/* The edges whose both sites made it into p (site_of as pmpi_waits_fill);
 * final: says what could not be kept. */
void pmpi_graph_fill(struct profile *p, const uint32_t *site_of, bool final);

#endif
