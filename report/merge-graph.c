/*
 * merge-graph.c - the activity graphs of merging an experiment
 * (merge-graph.h; docs/graph.md).
 *
 * Each MPI rank's graph is kept whole, for the classes are found over the
 * ranks' own graphs (cluster.c): its call sites as nodes, its mpi_edge
 * and mpi_done records as computation and completion edges (with the
 * computations' sampled call paths, on the merged tree), its mpi_pair
 * records as the messages it received.  A merged profile (--merge=mpi) keeps edges, pairs and slots
 * per rank but its sites summed, so its ranks' nodes are the sites they
 * name and their calls what their edges imply.  Sites stay the merge's
 * until mpi_merge_finish has sorted them; then every site is mapped once,
 * and each message's sender, named by a slot of its table, is looked up
 * among the slots of every rank, which the wait states keep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data.h"
#include "merge-graph.h"
#include "merge-mpi.h"
#include "merge-waits.h"

_Static_assert(REP_NO_SITE == CL_NONE, "an unknown sending site is one for the graphs too");

#define CMP(a, b) do { if ((a) != (b)) return (a) < (b) ? -1 : 1; } while (0)

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory while merging activity graphs");
	return -1;
}

/* A new empty graph of rank in g; NULL when memory is short. */
static struct cl_rank *new_rank(struct rep_graph *g, int64_t rank, bool node_times)
{
	struct cl_rank *c;

	if (mpi_grow((void **)&g->ranks, g->nranks, &g->ranks_alloc, sizeof(*g->ranks)) < 0)
		return NULL;
	c = &g->ranks[g->nranks++];
	*c = (struct cl_rank){ .rank = rank, .node_times = node_times };
	return c;
}

/* Room for c's nodes, edges, paths and messages, as many as given; they
 * are freed with g whatever happens. */
static int make_room(struct cl_rank *c, size_t nodes, size_t edges, size_t paths, size_t msgs)
{
	c->nodes = malloc((nodes + 1) * sizeof(*c->nodes));
	c->edges = malloc((edges + 1) * sizeof(*c->edges));
	c->paths = malloc((paths + 1) * sizeof(*c->paths));
	c->msgs = malloc((msgs + 1) * sizeof(*c->msgs));
	return c->nodes && c->edges && c->paths && c->msgs ? 0 : -1;
}

static void add_edge(struct cl_rank *c, const struct prof_mpi_edge *e, const uint32_t *smap)
{
	c->edges[c->nedges++] = (struct cl_edge){ smap[e->from], smap[e->to],
						  e->kind == PROF_EDGE_COMPLETE, e->count, e->time_ns };
}

static void add_path(struct cl_rank *c, const struct profile *p,
		     const struct prof_mpi_edge_path *q, const uint32_t *smap, const uint32_t *nmap)
{
	const struct prof_mpi_edge *e = &p->mpi_edges[q->edge];

	c->paths[c->npaths++] = (struct cl_path){ smap[e->from], smap[e->to], nmap[q->node],
						  q->samples };
}

/* The pair's sending site stays its slot until graph_merge_finish. */
static void add_msg(struct cl_rank *c, const struct prof_mpi_pair *q, const uint32_t *smap)
{
	c->msgs[c->nmsgs++] = (struct cl_msg){ smap[q->site], q->send_rank, q->send_slot, q->count,
					       q->bytes, q->late_sender_ns };
}

/* A rank's own profile: its sites are its nodes. */
static int add_own(struct rep_graph *g, const struct profile *p, const uint32_t *smap,
		   const uint32_t *nmap)
{
	struct cl_rank *c = new_rank(g, p->rank, true);

	if (!c || make_room(c, p->nmpi_sites, p->nmpi_edges, p->nmpi_edge_paths, p->nmpi_pairs) < 0)
		return -1;
	for (uint32_t i = 0; i < p->nmpi_sites; i++)
		c->nodes[c->nnodes++] = (struct cl_node){
			smap[i], p->mpi_sites[i].calls, p->mpi_sites[i].time_ns,
			p->mpi_sites[i].function && prof_mpi_outside_region(p->mpi_sites[i].function) };
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		add_edge(c, &p->mpi_edges[i], smap);
	for (uint32_t i = 0; i < p->nmpi_edge_paths; i++)
		add_path(c, p, &p->mpi_edge_paths[i], smap, nmap);
	for (uint32_t i = 0; i < p->nmpi_pairs; i++)
		add_msg(c, &p->mpi_pairs[i], smap);
	return 0;
}

static int cmp_node(const void *a, const void *b)
{
	CMP(((const struct cl_node *)a)->site, ((const struct cl_node *)b)->site);
	return 0;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct cl_edge *x = a, *y = b;

	CMP(x->completion, y->completion);
	CMP(x->from, y->from);
	CMP(x->to, y->to);
	return 0;
}

static struct cl_node *find_node(const struct cl_rank *c, uint32_t site)
{
	struct cl_node k = { .site = site };

	return bsearch(&k, c->nodes, c->nnodes, sizeof(k), cmp_node);
}

/* The paths of an edge, most samples first (then by node). */
static int cmp_path(const void *a, const void *b)
{
	const struct cl_path *x = a, *y = b;

	CMP(x->from, y->from);
	CMP(x->to, y->to);
	CMP(y->samples, x->samples);
	CMP(x->node, y->node);
	return 0;
}

/*
 * A merged profile's rank: its nodes are the sites its edges, messages
 * and slots (already in c->nodes) name, each once; its calls of a site
 * are the larger of its computation edges' counts into the site and out
 * of it (a thread's calls but its first or its last).  Its times are 0.
 */
static int derive_nodes(struct cl_rank *c)
{
	uint64_t *out;
	uint32_t n = 0;

	for (uint32_t i = 0; i < c->nedges; i++) {
		c->nodes[c->nnodes++] = (struct cl_node){ .site = c->edges[i].from };
		c->nodes[c->nnodes++] = (struct cl_node){ .site = c->edges[i].to };
	}
	for (uint32_t i = 0; i < c->nmsgs; i++)
		c->nodes[c->nnodes++] = (struct cl_node){ .site = c->msgs[i].recv_site };
	qsort(c->nodes, c->nnodes, sizeof(*c->nodes), cmp_node);
	for (uint32_t i = 0; i < c->nnodes; i++)
		if (!n || c->nodes[n - 1].site != c->nodes[i].site)
			c->nodes[n++] = c->nodes[i];
	c->nnodes = n;
	if (!(out = calloc((size_t)n + 1, sizeof(*out))))
		return -1;
	for (uint32_t i = 0; i < c->nedges; i++) {
		if (c->edges[i].completion)
			continue;
		find_node(c, c->edges[i].to)->calls += c->edges[i].count;
		out[find_node(c, c->edges[i].from) - c->nodes] += c->edges[i].count;
	}
	for (uint32_t i = 0; i < n; i++)
		if (out[i] > c->nodes[i].calls)
			c->nodes[i].calls = out[i];
	free(out);
	return 0;
}

/* The row of p's ranks that a record of rank belongs to (the reader and
 * prof_merged_check made sure there is one). */
static uint32_t row_of(const struct profile *p, int64_t rank)
{
	return (uint32_t)(prof_rank_find(p, rank) - p->mranks);
}

/* A merged profile: each row's edges, paths, pairs and slots' sites,
 * counted first. */
static int add_merged(struct rep_graph *g, const struct profile *p, const uint32_t *smap,
		      const uint32_t *nmap)
{
	uint32_t first = g->nranks, *nslots = calloc(p->merged + 1, sizeof(*nslots));
	struct cl_rank *c;
	int rc = -1;

	if (!nslots)
		return -1;
	for (uint64_t i = 0; i < p->merged; i++)
		if (!new_rank(g, p->mranks[i].rank, false))
			goto out;
	c = g->ranks + first;
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		c[row_of(p, p->mpi_edges[i].rank)].nedges++;
	for (uint32_t i = 0; i < p->nmpi_edge_paths; i++)
		c[row_of(p, p->mpi_edges[p->mpi_edge_paths[i].edge].rank)].npaths++;
	for (uint32_t i = 0; i < p->nmpi_pairs; i++)
		c[row_of(p, p->mpi_pairs[i].rank)].nmsgs++;
	for (uint32_t i = 0; i < p->nmpi_slots; i++)
		nslots[row_of(p, p->mpi_slots[i].rank)]++;
	for (uint64_t i = 0; i < p->merged; i++) {
		if (make_room(&c[i], 2 * (size_t)c[i].nedges + c[i].nmsgs + nslots[i], c[i].nedges,
			      c[i].npaths, c[i].nmsgs) < 0)
			goto out;
		c[i].nedges = c[i].npaths = c[i].nmsgs = 0;
	}
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		add_edge(&c[row_of(p, p->mpi_edges[i].rank)], &p->mpi_edges[i], smap);
	for (uint32_t i = 0; i < p->nmpi_edge_paths; i++) {
		const struct prof_mpi_edge_path *q = &p->mpi_edge_paths[i];

		add_path(&c[row_of(p, p->mpi_edges[q->edge].rank)], p, q, smap, nmap);
	}
	for (uint32_t i = 0; i < p->nmpi_pairs; i++)
		add_msg(&c[row_of(p, p->mpi_pairs[i].rank)], &p->mpi_pairs[i], smap);
	for (uint32_t i = 0; i < p->nmpi_slots; i++) {
		struct cl_rank *r = &c[row_of(p, p->mpi_slots[i].rank)];

		r->nodes[r->nnodes++] = (struct cl_node){ .site = smap[p->mpi_slots[i].site] };
	}
	for (uint64_t i = 0; i < p->merged; i++)
		if (derive_nodes(&c[i]) < 0)
			goto out;
	rc = 0;
out:
	free(nslots);
	return rc;
}

/* See merge-graph.h. */
int graph_merge_add(struct rep_graph *g, const struct profile *p, const uint32_t *smap,
		    const uint32_t *nmap, char *err, size_t errlen)
{
	int rc = 0;

	if (p->merged)
		rc = add_merged(g, p, smap, nmap);
	else if (p->rank >= 0)
		rc = add_own(g, p, smap, nmap);
	g->present |= p->nmpi_edges > 0;
	return rc < 0 ? oom(err, errlen) : 0;
}

static int cmp_rank(const void *a, const void *b)
{
	CMP(((const struct cl_rank *)a)->rank, ((const struct cl_rank *)b)->rank);
	return 0;
}

/* See merge-graph.h. */
int graph_merge_finish(struct rep_graph *g, const struct rep_mpi *m, const struct rep_waits *w,
		       char *err, size_t errlen)
{
	uint32_t *pos = malloc(((size_t)m->nsites + 1) * sizeof(*pos));

	if (!pos)
		return oom(err, errlen);
	for (uint32_t i = 0; i < m->nsites; i++)
		pos[m->sites[i].merge_id] = i;
	for (uint32_t i = 0; i < g->nranks; i++) {
		struct cl_rank *c = &g->ranks[i];

		for (uint32_t k = 0; k < c->nnodes; k++)
			c->nodes[k].site = pos[c->nodes[k].site];
		for (uint32_t k = 0; k < c->nedges; k++) {
			c->edges[k].from = pos[c->edges[k].from];
			c->edges[k].to = pos[c->edges[k].to];
		}
		for (uint32_t k = 0; k < c->npaths; k++) {
			c->paths[k].from = pos[c->paths[k].from];
			c->paths[k].to = pos[c->paths[k].to];
		}
		for (uint32_t k = 0; k < c->nmsgs; k++) {
			c->msgs[k].recv_site = pos[c->msgs[k].recv_site];
			c->msgs[k].send_site = waits_slot_site(w, c->msgs[k].send_rank,
							       c->msgs[k].send_site);
		}
		qsort(c->nodes, c->nnodes, sizeof(*c->nodes), cmp_node);
		qsort(c->edges, c->nedges, sizeof(*c->edges), cmp_edge);
		qsort(c->paths, c->npaths, sizeof(*c->paths), cmp_path);
	}
	if (g->nranks > 1)
		qsort(g->ranks, g->nranks, sizeof(*g->ranks), cmp_rank);
	free(pos);
	return 0;
}

/* See merge-graph.h. */
void graph_merge_release(struct rep_graph *g)
{
	for (uint32_t i = 0; i < g->nranks; i++) {
		free(g->ranks[i].nodes);
		free(g->ranks[i].edges);
		free(g->ranks[i].paths);
		free(g->ranks[i].msgs);
	}
	free(g->ranks);
	memset(g, 0, sizeof(*g));
}
