/*
 * merge-graph.h - the activity graphs of merging (merge-graph.c): each MPI
 * rank's call sites, computation edges and received messages, kept per
 * rank for cluster.h.
 */
#ifndef CPPERF_REPORT_MERGE_GRAPH_H
#define CPPERF_REPORT_MERGE_GRAPH_H

#include <stddef.h>
#include "data.h"

/*
 * Keep the graph of p's rank, or of each rank of a merged profile, in g,
 * its sites mapped through smap (p's site -> merged site, mpi_merge_add's),
 * its tree's nodes through nmap (p's node -> the report's).
 * A rank's own profile gives its nodes' calls and times; a merged profile
 * keeps those summed over its ranks, so a rank of it gets the calls its
 * edges imply and no time.  Returns 0, or -1 with a message when memory
 * is short.
 */
int graph_merge_add(struct rep_graph *g, const struct profile *p, const uint32_t *smap,
		    const uint32_t *nmap, char *err, size_t errlen);
/*
 * After mpi_merge_finish and waits_merge_finish: map the sites to the
 * sorted ones of m (so a site is its MPI view id less 1), sort each
 * rank's nodes and edges and the ranks, and name each message's sending
 * site through its sender's slots in w (CL_NONE when the sender left
 * none, or not that slot).  Returns 0, or -1 when memory is short.
 */
int graph_merge_finish(struct rep_graph *g, const struct rep_mpi *m, const struct rep_waits *w,
		       char *err, size_t errlen);
void graph_merge_release(struct rep_graph *g);

#endif
