/*
 * graph.c - the rank's activity graph (docs/graph.md): its nodes are the
 * call sites, its edges the computation between a thread's consecutive
 * calls (how often, how long, and the call paths sampled in it) and the
 * completions of non-blocking requests (from the site that started one
 * to the site that completed it), kept in each thread's counters of the
 * site they lead to (key-table.h) and, past those, in tables of fixed
 * size.  Its message edges are the wait states' pairs of sites (waits.c); the report
 * joins the ranks' graphs.
 *
 * A computation's samples are told from the others by time: the thread
 * tags the interval with its edge when a sample was taken meanwhile
 * (rt_thread_head) and the runtime's tagged hook gets the tag.
 *
 * Every wrapped call ends here (graph.h): a call whose edge the thread
 * took last into its site costs a compare, two additions and a compare of
 * the ring's head that the call read at its entry, no lock.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../sampler/rt.h"
#include "call.h"
#include "facts.h"
#include "piggyback.h"
#include "stats.h"
#include "key-table.h"
#include "graph.h"


static struct key_table edges;		/* from, to, kind (enum prof_edge_kind) */
static pthread_mutex_t edges_lock = PTHREAD_MUTEX_INITIALIZER;
static struct key_table paths;		/* from, to, tree node: samples */
static pthread_mutex_t paths_lock = PTHREAD_MUTEX_INITIALIZER;
_Static_assert((uint64_t)PMPI_SITES * PMPI_SITES < RT_NO_TAG, "an edge's tag is its two sites");

/* Edge (from, to) of a kind, made when missing. */
static struct key_entry *edge_get(int from, int to, int kind)
{
	struct key_entry *e;

	pmpi_lock(&edges_lock);
	e = key_table_get(&edges, from, to, kind);
	pmpi_unlock(&edges_lock);
	return e;
}

/* One more traversal of shared edge e, ns long: threads add without a
 * lock, atomically when MPI has several calling. */
static void edge_count(struct key_entry *e, uint64_t ns)
{
	key_entry_add_by(e, PMPI_EDGE_COUNT, 1, !pmpi_one_thread);
	key_entry_add_by(e, PMPI_EDGE_TIME, ns, !pmpi_one_thread);
}

__attribute__((noinline))
void pmpi_graph_edge_miss(struct pmpi_counts *s, int from, int to, uint64_t ns)
{
	struct key_own *o;
	struct key_entry *e;

	if (from < 0 || to < 0)
		return;
	if ((o = key_owned_get(&s->edges, (uint32_t)from)))
		pmpi_own_edge_count(o, ns);
	else if ((e = edge_get(from, to, PROF_EDGE_COMPUTE)))
		edge_count(e, ns);
}

void pmpi_graph_tag(struct pmpi_graph_thread *g, uint64_t head, uint64_t t0, uint64_t t1,
		    int from, int to)
{
	struct rt_thread *t;

	if (from < 0 || to < 0)
		return;
	t = rt_thread_self();
	g->ring_mark = head;
	if (t)
		rt_tag_log_add(&t->tags, t0, t1, (uint32_t)from * PMPI_SITES + (uint32_t)to);
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

void pmpi_graph_complete(struct pmpi_call *c, int post, uint64_t ns)
{
	int done = pmpi_site(c);
	struct key_own *o;
	struct key_entry *e;

	if (post < 0 || done < 0)
		return;
	if ((o = key_owned_get(&c->counts->completes, (uint32_t)post)))
		pmpi_own_edge_count(o, ns);
	else if ((e = edge_get(post, done, PROF_EDGE_COMPLETE)))
		edge_count(e, ns);
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

/* The threads' own computation and completion edges into their sites,
 * counted (n, p NULL) or added to p. */
struct own_edges {
	struct profile *p;
	const uint32_t *site_of;
	uint32_t n;
};

static void add_owned(struct own_edges *f, const struct key_owned *o, int to, uint8_t kind)
{
	uint64_t from;

	for (unsigned i = 0; i < KEY_OWN && f->site_of[to] != UINT32_MAX; i++) {
		const struct key_own *e = &o->e[i];

		if (!key_own_used(e, &from) || from >= PMPI_SITES || f->site_of[from] == UINT32_MAX)
			continue;
		if (!f->p)
			f->n++;
		else if (f->p->nmpi_edges < f->n)
			add_edge(f->p, f->site_of[from], f->site_of[to], kind,
				 key_own_value(e, PMPI_EDGE_COUNT), key_own_value(e, PMPI_EDGE_TIME));
	}
}

static void add_own_edges(int to, const struct pmpi_counts *s, void *arg)
{
	add_owned(arg, &s->edges, to, PROF_EDGE_COMPUTE);
	add_owned(arg, &s->completes, to, PROF_EDGE_COMPLETE);
}

static void fill_edges(struct profile *p, const uint32_t *site_of)
{
	struct own_edges own = { .site_of = site_of };
	uint32_t n;

	pmpi_counts_each(add_own_edges, &own);
	n = own.n + count_kept(&edges, site_of);
	if (!n || !(p->mpi_edges = calloc(n, sizeof(*p->mpi_edges))))
		return;
	own = (struct own_edges){ p, site_of, n };
	pmpi_counts_each(add_own_edges, &own);
	for (unsigned i = 0; i < KEY_TABLE; i++) {
		const struct key_entry *e = &edges.e[i];

		if (edge_kept(e, site_of) && p->nmpi_edges < n)
			add_edge(p, site_of[e->key[0]], site_of[e->key[1]], (uint8_t)e->key[2],
				 key_entry_value(e, PMPI_EDGE_COUNT), key_entry_value(e, PMPI_EDGE_TIME));
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
