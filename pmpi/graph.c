/*
 * graph.c - the rank's activity graph (docs/graph.md): its nodes are the
 * call sites, its edges the computation between a thread's consecutive
 * calls (how often, how long), kept in a table of fixed size.  Its message edges are the wait states' pairs of sites
 * (waits.c); the report joins the ranks' graphs.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "call.h"
#include "piggyback.h"
#include "stats.h"
#include "key-table.h"
#include "graph.h"

enum { EDGE_COUNT, EDGE_TIME };

static struct key_table edges;		/* from, to, 0 */
static pthread_mutex_t edges_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int last_site __attribute__((tls_model("initial-exec"))) = -1;
static __thread uint64_t last_exit __attribute__((tls_model("initial-exec")));

/* The thread's edges by their call's site, a few: a loop's edges are
 * then found by a compare. */
#define SEEN 8
static __thread struct {
	int from, to;
	struct key_entry *e;
} seen[SEEN] __attribute__((tls_model("initial-exec")));

static struct key_entry *edge_of(int from, int to)
{
	unsigned k = (unsigned)to % SEEN;
	struct key_entry *e = seen[k].e;

	if (e && seen[k].from == from && seen[k].to == to)
		return e;
	e = key_table_get(&edges, from, to, 0);
	if (e) {
		seen[k].from = from;
		seen[k].to = to;
		seen[k].e = e;
	}
	return e;
}

void pmpi_graph_leave(const struct pmpi_call *c, uint64_t t)
{
	struct key_entry *e;

	if (last_site >= 0 && c->site >= 0) {
		pmpi_lock(&edges_lock);
		e = edge_of(last_site, c->site);
		if (e) {
			key_entry_add(e, EDGE_COUNT, 1);
			key_entry_add(e, EDGE_TIME, c->t0 > last_exit ? c->t0 - last_exit : 0);
		}
		pmpi_unlock(&edges_lock);
	}
	last_site = c->site;
	last_exit = t;
}

static bool edge_kept(const struct key_entry *e, const uint32_t *site_of)
{
	return key_entry_used(e) && e->key[0] >= 0 && e->key[0] < PMPI_SITES && e->key[1] >= 0 &&
	       e->key[1] < PMPI_SITES && site_of[e->key[0]] != UINT32_MAX &&
	       site_of[e->key[1]] != UINT32_MAX;
}

/* Slots of one site make one node: their edges are summed. */
static void add_edge(struct profile *p, uint32_t from, uint32_t to, uint64_t count, uint64_t ns)
{
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		if (p->mpi_edges[i].from == from && p->mpi_edges[i].to == to) {
			p->mpi_edges[i].count += count;
			p->mpi_edges[i].time_ns += ns;
			return;
		}
	p->mpi_edges[p->nmpi_edges++] = (struct prof_mpi_edge){ from, to, count, ns, 0 };
}

void pmpi_graph_fill(struct profile *p, const uint32_t *site_of, bool final)
{
	uint32_t n = 0;

	for (unsigned i = 0; i < KEY_TABLE; i++)
		n += edge_kept(&edges.e[i], site_of);
	if (!n || !(p->mpi_edges = calloc(n, sizeof(*p->mpi_edges))))
		return;
	for (unsigned i = 0; i < KEY_TABLE; i++) {
		const struct key_entry *e = &edges.e[i];

		if (edge_kept(e, site_of) && p->nmpi_edges < n)
			add_edge(p, site_of[e->key[0]], site_of[e->key[1]],
				 key_entry_value(e, EDGE_COUNT), key_entry_value(e, EDGE_TIME));
	}
	if (final && edges.lost)
		fprintf(stderr, "cpperf: rank %d: %llu calls followed a call site over the %d edges "
			"the activity graph keeps; their computation is in no edge\n", pmpi_pb_rank(),
			(unsigned long long)edges.lost, KEY_TABLE);
}
