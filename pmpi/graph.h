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
#include "../sampler/rt.h"
#include "call.h"
#include "key-table.h"
#include "stats.h"

enum { PMPI_EDGE_COUNT, PMPI_EDGE_TIME };	/* values of an edge */

/* One more traversal of the edge (from, to), ns long, into s, the
 * thread's counters of site `to`; none when a site is -1.
 * The rare case of pmpi_graph_leave. */
void pmpi_graph_edge_miss(struct pmpi_counts *s, int from, int to, uint64_t ns);
/* Tag the computation [t0, t1) with its edge, a sample having been taken
 * since the thread's last call (its ring's head now `head`); none when a
 * site is -1. */
void pmpi_graph_tag(struct pmpi_graph_thread *g, uint64_t head, uint64_t t0, uint64_t t1,
		    int from, int to);

/* One more traversal, ns long, of an edge the thread keeps itself. */
static inline void pmpi_own_edge_count(struct key_own *e, uint64_t ns)
{
	key_own_add(e, PMPI_EDGE_COUNT, 1);
	key_own_add(e, PMPI_EDGE_TIME, ns);
}

/* Call c (its site known) ended at t: the edge from the thread's
 * previous call to it.  Inline: every wrapped call ends here, and a
 * loop's edge (the one the thread took last into the site, among its own
 * entries; the -1 of no call is no key) costs a compare, two additions
 * and a compare of the ring's head read at the call's entry: a sample
 * taken since the last call's entry tags the computation before this
 * one. */
static inline __attribute__((always_inline))
void pmpi_graph_leave(const struct pmpi_call *c, uint64_t t)
{
	struct pmpi_counts *s = c->counts;
	struct pmpi_graph_thread *g = &pmpi_here.graph;
	int from = g->last_site;
	uint64_t start = g->last_exit, ns = c->t0 - start;	/* a thread's clock never goes back */
	struct key_own *e;

	g->last_site = c->site;
	g->last_exit = t;
	if ((e = key_owned_last(&s->edges, (uint32_t)from)))
		pmpi_own_edge_count(e, ns);
	else
		pmpi_graph_edge_miss(s, from, c->site, ns);
	if (c->ring_head != g->ring_mark)
		pmpi_graph_tag(g, c->ring_head, start, c->t0, from, c->site);
}
/* A sample of tree node `node`, w samples of the first event, in an
 * interval tagged by pmpi_graph_leave (the runtime's tagged hook, which
 * passes only the first event's samples). */
void pmpi_graph_sample(uint32_t tag, uint32_t node, uint64_t w);
/* A non-blocking request started at site post completed in call c, ns
 * after it was started (0 unknown): counted in the thread's counters of
 * c's site (looked up now) or, past them, in the shared table. */
void pmpi_graph_complete(struct pmpi_call *c, int post, uint64_t ns);
/* The edges whose both sites made it into p (site_of as pmpi_waits_fill);
 * final: says what could not be kept. */
void pmpi_graph_fill(struct profile *p, const uint32_t *site_of, bool final);

#endif
