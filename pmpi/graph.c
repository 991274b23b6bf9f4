/*
 * graph.c - the rank's activity graph (docs/graph.md): its nodes are the
 * call sites, its edges the computation between a thread's consecutive
 * calls (how often, how long, and the call paths sampled in it) and the
 * completions of non-blocking requests (from the site that started one
 * to the site that completed it), kept in tables of fixed size.  Its
 * message edges are the wait states' pairs of sites (waits.c); the report
 * joins the ranks' graphs.
 *
 * A computation's samples are told from the others by time: the thread
 * tags the interval with its edge when a sample was taken meanwhile
 * (rt_thread_head) and the runtime's tagged hook gets the tag.
 *
 * Every wrapped call ends here: a call whose edge the thread took lately
 * costs a compare, two additions and the ring's head read, no lock.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../sampler/rt.h"
#include "call.h"
#include "piggyback.h"
#include "stats.h"
#include "key-table.h"
#include "graph.h"

enum { EDGE_COUNT, EDGE_TIME };		/* values of an edge */

static struct key_table edges;		/* from, to, kind (enum prof_edge_kind) */
static pthread_mutex_t edges_lock = PTHREAD_MUTEX_INITIALIZER;
static struct key_table paths;		/* from, to, tree node: samples */
static pthread_mutex_t paths_lock = PTHREAD_MUTEX_INITIALIZER;
_Static_assert((uint64_t)PMPI_SITES * PMPI_SITES < RT_NO_TAG, "an edge's tag is its two sites");

/* The thread's edges lately taken, of both kinds, by a hash of the key
 * (a site's index alone put a loop's edges onto each other about a third
 * of the time): a loop's edges are then found by a compare. */
#define SEEN_BITS 5
#define SEEN (1u << SEEN_BITS)
struct seen {
	int from, to, kind;
	struct key_entry *e;
};

/* What a thread keeps of its graph. */
struct graph_thread {
	int last_site;		/* of its last call, -1 before */
	uint64_t last_exit;	/* when that call ended */
	struct rt_thread *rt;	/* the runtime's, once it has one */
	uint64_t ring_mark;	/* rt_thread_head at the last call */
	struct seen seen[SEEN];
};

static __thread struct graph_thread me __attribute__((tls_model("initial-exec"))) = {
	.last_site = -1,
};

/* A counter of a shared edge: only wrappers add, one thread at a time
 * unless MPI has several calling. */
static inline void edge_add(struct key_entry *e, unsigned i, uint64_t v)
{
	if (pmpi_one_thread)
		key_entry_add(e, i, v);
	else
		__atomic_fetch_add(&e->v[i], v, __ATOMIC_RELAXED);
}

/* Edge (from, to) of a kind found in the table, made when missing, and
 * kept in s. */
static __attribute__((noinline)) struct key_entry *edge_miss(struct seen *s, int from, int to,
							     int kind)
{
	struct key_entry *e;

	pmpi_lock(&edges_lock);
	e = key_table_get(&edges, from, to, kind);
	pmpi_unlock(&edges_lock);
	if (e)
		*s = (struct seen){ from, to, kind, e };
	return e;
}

/* Edge (from, to) of a kind (enum prof_edge_kind), NULL when the table is
 * full. */
static inline struct key_entry *edge_of(struct graph_thread *g, int from, int to, int kind)
{
	uint32_t key = ((uint32_t)from * PMPI_SITES + (uint32_t)to) * 2 + (uint32_t)kind;
	struct seen *s = &g->seen[key * 0x9e3779b9u >> (32 - SEEN_BITS)];

	if (__builtin_expect(s->e && s->from == from && s->to == to && s->kind == kind, 1))
		return s->e;
	return edge_miss(s, from, to, kind);
}

/* The computation [t0, t1) of edge (from, to) is tagged when the ring
 * moved since the last call: a sample was taken in it, or in that call. */
static inline void tag_if_sampled(struct graph_thread *g, uint64_t t0, uint64_t t1, int from,
				  int to)
{
	uint64_t head;

	if (!g->rt && !(g->rt = rt_thread_self()))
		return;
	head = rt_thread_head(g->rt);
	if (head != g->ring_mark) {
		g->ring_mark = head;
		rt_tag_log_add(&g->rt->tags, t0, t1, (uint32_t)from * PMPI_SITES + (uint32_t)to);
	}
}

void pmpi_graph_leave(const struct pmpi_call *c, uint64_t t)
{
	struct graph_thread *g = &me;
	int from = g->last_site, to = c->site;
	uint64_t start = g->last_exit;
	struct key_entry *e;

	g->last_site = to;
	g->last_exit = t;
	if (from < 0 || to < 0)
		return;
	e = edge_of(g, from, to, PROF_EDGE_COMPUTE);
	if (e) {
		edge_add(e, EDGE_COUNT, 1);
		edge_add(e, EDGE_TIME, c->t0 > start ? c->t0 - start : 0);
	}
	tag_if_sampled(g, start, c->t0, from, to);
}

void pmpi_graph_sample(uint32_t tag, uint32_t node, uint64_t w)
{
	struct key_entry *e;

	pmpi_lock(&paths_lock);
	e = key_table_get(&paths, (int32_t)(tag / PMPI_SITES), (int32_t)(tag % PMPI_SITES),
			  (int32_t)node);
	if (e)
		key_entry_add(e, 0, w);
	pmpi_unlock(&paths_lock);
}

void pmpi_graph_complete(int post, int done, uint64_t ns)
{
	struct key_entry *e;

	if (post < 0 || done < 0)
		return;
	e = edge_of(&me, post, done, PROF_EDGE_COMPLETE);
	if (e) {
		edge_add(e, EDGE_COUNT, 1);
		edge_add(e, EDGE_TIME, ns);
	}
}

static bool edge_kept(const struct key_entry *e, const uint32_t *site_of)
{
	return key_entry_used(e) && e->key[0] >= 0 && e->key[0] < PMPI_SITES && e->key[1] >= 0 &&
	       e->key[1] < PMPI_SITES && site_of[e->key[0]] != UINT32_MAX &&
	       site_of[e->key[1]] != UINT32_MAX;
}

/* The edge of p from one site to another, of a kind; UINT32_MAX when none. */
static uint32_t find_edge(const struct profile *p, uint32_t from, uint32_t to, uint8_t kind)
{
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		if (p->mpi_edges[i].from == from && p->mpi_edges[i].to == to &&
		    p->mpi_edges[i].kind == kind)
			return i;
	return UINT32_MAX;
}

/* Slots of one site make one node: their edges are summed. */
static void add_edge(struct profile *p, uint32_t from, uint32_t to, uint8_t kind, uint64_t count,
		     uint64_t ns)
{
	uint32_t i = find_edge(p, from, to, kind);

	if (i != UINT32_MAX) {
		p->mpi_edges[i].count += count;
		p->mpi_edges[i].time_ns += ns;
		return;
	}
	p->mpi_edges[p->nmpi_edges++] = (struct prof_mpi_edge){ from, to, count, ns, 0, kind };
}

/* The entries of t whose both sites made it into the profile. */
static uint32_t count_kept(const struct key_table *t, const uint32_t *site_of)
{
	uint32_t n = 0;

	for (unsigned i = 0; i < KEY_TABLE; i++)
		n += edge_kept(&t->e[i], site_of);
	return n;
}

static void fill_edges(struct profile *p, const uint32_t *site_of)
{
	uint32_t n = count_kept(&edges, site_of);

	if (!n || !(p->mpi_edges = calloc(n, sizeof(*p->mpi_edges))))
		return;
	for (unsigned i = 0; i < KEY_TABLE; i++) {
		const struct key_entry *e = &edges.e[i];

		if (edge_kept(e, site_of) && p->nmpi_edges < n)
			add_edge(p, site_of[e->key[0]], site_of[e->key[1]], (uint8_t)e->key[2],
				 key_entry_value(e, EDGE_COUNT), key_entry_value(e, EDGE_TIME));
	}
}

/* A path of an edge p has, with the samples of slots of one site summed. */
static void add_path(struct profile *p, uint32_t edge, uint32_t node, uint64_t samples)
{
	for (uint32_t i = 0; i < p->nmpi_edge_paths; i++)
		if (p->mpi_edge_paths[i].edge == edge && p->mpi_edge_paths[i].node == node) {
			p->mpi_edge_paths[i].samples += samples;
			return;
		}
	p->mpi_edge_paths[p->nmpi_edge_paths++] = (struct prof_mpi_edge_path){ edge, node, samples };
}

/* The paths of the computation edges p has, on nodes of its tree. */
static void fill_paths(struct profile *p, const uint32_t *site_of)
{
	uint32_t n = count_kept(&paths, site_of);

	if (!n || !(p->mpi_edge_paths = calloc(n, sizeof(*p->mpi_edge_paths))))
		return;
	for (unsigned i = 0; i < KEY_TABLE; i++) {
		const struct key_entry *e = &paths.e[i];
		uint32_t edge;

		if (!edge_kept(e, site_of) || (uint32_t)e->key[2] >= p->tree.nnodes)
			continue;
		edge = find_edge(p, site_of[e->key[0]], site_of[e->key[1]], PROF_EDGE_COMPUTE);
		if (edge != UINT32_MAX && p->nmpi_edge_paths < n)
			add_path(p, edge, (uint32_t)e->key[2], key_entry_value(e, 0));
	}
}

void pmpi_graph_fill(struct profile *p, const uint32_t *site_of, bool final)
{
	fill_edges(p, site_of);
	fill_paths(p, site_of);
	if (final && edges.lost)
		fprintf(stderr, "cpperf: rank %d: %llu calls followed a call site over the %d edges "
			"the activity graph keeps; their computation is in no edge\n", pmpi_pb_rank(),
			(unsigned long long)edges.lost, KEY_TABLE);
	if (final && paths.lost)
		fprintf(stderr, "cpperf: rank %d: %llu samples of computation edges fell on call "
			"paths over the %d the activity graph keeps; they are in no edge's paths\n",
			pmpi_pb_rank(), (unsigned long long)paths.lost, KEY_TABLE);
}
