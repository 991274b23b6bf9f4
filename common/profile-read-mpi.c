/*
 * profile-read-mpi.c - the reader's MPI records (docs/format.md):
 * mpi_site (one call site: function, call path, totals and message-size
 * histogram), mpi_peer (messages sent to one rank), mpi_coll (one
 * collective on one communicator size), and since version 11 the wait
 * states: mpi_wait (a site's), mpi_slot (a slot of the call-site table)
 * and mpi_pair (messages from one sender's site to one receiving site),
 * and the activity graph's mpi_edge (a thread's computation from one call
 * site to the next).
 * Each record is appended to the profile before it is checked, so a
 * failure leaves nothing that profile_release cannot free; duplicates are
 * found through the sets of profile-mpi.c, the same rules the writer
 * applies.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile-read-int.h"

/* Read n unsigned numbers into dst, each named what. */
static int pr_u64s(struct parser *ps, struct cursor *c, const char *what,
		   uint64_t *dst, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pr_u64(ps, c, what, &dst[i]))
			return -1;
	return 0;
}

/* Check the result j of a prof_mpi_*_dup call for the record just
 * appended, i; same names what makes two records equal. */
static int pr_unique(struct parser *ps, uint32_t j, uint32_t i, const char *what,
		     const char *same)
{
	if (j == UINT32_MAX)
		return pr_err(ps, "out of memory");
	if (j != i)
		return pr_err(ps, "duplicate of %s %u (same %s)", what, j, same);
	return 0;
}

/* The call path of a site: a count, then that many frame ids. */
static int pr_site_frames(struct parser *ps, struct cursor *c, struct prof_mpi_site *m)
{
	uint64_t n;

	if (pr_u64(ps, c, "nframes", &n))
		return -1;
	if (n > (uint64_t)(c->end - c->p) / 2)
		return pr_err(ps, "nframes %llu exceeds the fields on the line",
			      (unsigned long long)n);
	m->frames = malloc(n ? n * sizeof(*m->frames) : 1);
	if (!m->frames)
		return pr_err(ps, "out of memory");
	for (; m->nframes < n; m->nframes++)
		if (pr_index(ps, c, "call-path frame", ps->p->syms.nframes,
			     &m->frames[m->nframes]))
			return -1;
	return 0;
}

/* mpi_site INDEX FUNCTION NFRAMES FRAME... CALLS SENT RECV TIME BLOCKED H0..H31 */
int rec_mpi_site(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->nmpi_sites;
	struct prof_mpi_site *m;
	uint64_t v[5];

	if (pr_seq(ps, c, "mpi_site", i) ||
	    pr_grow(ps, (void **)&p->mpi_sites, i, &ps->sites_alloc, sizeof(*m)))
		return -1;
	m = &p->mpi_sites[i];
	memset(m, 0, sizeof(*m));
	p->nmpi_sites++;
	if (pr_str(ps, c, "function", &m->function) || pr_site_frames(ps, c, m) ||
	    pr_u64s(ps, c, "site total", v, 5) ||
	    pr_u64s(ps, c, "histogram bucket", m->hist, PROF_MPI_HIST) || pr_done(ps, c))
		return -1;
	m->calls = v[0];
	m->bytes_sent = v[1];
	m->bytes_recv = v[2];
	m->time_ns = v[3];
	m->blocked_ns = v[4];
	m->threads = 1;		/* unless an mpi_thread record says otherwise */
	m->main_calls = m->calls;
	return pr_unique(ps, prof_mpi_site_dup(&ps->sites, p, i), i, "mpi_site",
			 "function and call path");
}

/* mpi_peer PEER COUNT BYTES */
int rec_mpi_peer(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->nmpi_peers;
	struct prof_mpi_peer *m;

	if (pr_merged_only(ps, "mpi_peer", false) ||
	    pr_grow(ps, (void **)&p->mpi_peers, i, &ps->peers_alloc, sizeof(*m)))
		return -1;
	m = &p->mpi_peers[i];
	memset(m, 0, sizeof(*m));
	p->nmpi_peers++;
	if (pr_i64(ps, c, "peer", &m->peer) || pr_u64(ps, c, "count", &m->count) ||
	    pr_u64(ps, c, "bytes", &m->bytes) || pr_done(ps, c))
		return -1;
	if (!prof_mpi_peer_ok(m->peer, p->size))
		return pr_err(ps, "peer %lld is not a rank of this job (size %lld)",
			      (long long)m->peer, (long long)p->size);
	return pr_unique(ps, prof_mpi_peer_dup(&ps->peers, p, i), i, "mpi_peer", "peer");
}

/* mpi_coll FUNCTION COMM_SIZE CALLS BYTES TIME */
int rec_mpi_coll(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->nmpi_colls;
	struct prof_mpi_coll *m;
	uint64_t v[3];

	if (pr_grow(ps, (void **)&p->mpi_colls, i, &ps->colls_alloc, sizeof(*m)))
		return -1;
	m = &p->mpi_colls[i];
	memset(m, 0, sizeof(*m));
	p->nmpi_colls++;
	if (pr_str(ps, c, "function", &m->function) ||
	    pr_i64(ps, c, "comm_size", &m->comm_size) ||
	    pr_u64s(ps, c, "collective total", v, 3) || pr_done(ps, c))
		return -1;
	m->calls = v[0];
	m->bytes = v[1];
	m->time_ns = v[2];
	return pr_unique(ps, prof_mpi_coll_dup(&ps->colls, p, i), i, "mpi_coll",
			 "function and communicator size");
}

static int pr_waits_since(struct parser *ps, const char *key)
{
	return pr_since(ps, key, PROFILE_VERSION_WAITS);
}

/* The RANK field that ends a slot or pair record of a merged profile,
 * into *rank; a rank's profile has none (0). */
static int pr_merged_rank(struct parser *ps, struct cursor *c, int64_t *rank)
{
	if (!ps->p->merged)
		return 0;
	if (pr_i64(ps, c, "rank", rank))
		return -1;
	return pr_rank_of_job(ps, *rank, "rank");
}

/* mpi_wait SITE then each kind's NS, then each kind's compensated NS;
 * by increasing site */
int rec_mpi_wait(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	struct prof_mpi_waits *w;
	uint32_t site = 0;	/* set when the field parses */

	if (pr_waits_since(ps, "mpi_wait") || pr_index(ps, c, "mpi_wait site", p->nmpi_sites, &site))
		return -1;
	if (site < ps->wait_sites)
		return pr_err(ps, "mpi_wait of site %" PRIu32 " after that of site %" PRIu32
			      " (sites ascend)", site, ps->wait_sites - 1);
	ps->wait_sites = site + 1;
	w = &p->mpi_sites[site].waits;
	for (int k = 0; k < PROF_WAITS; k++)
		if (pr_u64(ps, c, prof_wait_names[k], &w->ns[k]))
			return -1;
	for (int k = 0; k < PROF_WAITS; k++)
		if (pr_u64(ps, c, prof_wait_comp_names[k], &w->comp_ns[k]))
			return -1;
	return pr_done(ps, c);
}

/* mpi_thread SITE THREADS MAIN_CALLS */
int rec_mpi_thread(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	struct prof_mpi_site *m;
	uint32_t site = 0;	/* set when the field parses */
	uint64_t threads = 0, main_calls = 0;

	if (pr_since(ps, "mpi_thread", PROFILE_VERSION_ACT) ||
	    pr_index(ps, c, "mpi_thread site", p->nmpi_sites, &site))
		return -1;
	if (site < ps->thread_sites)
		return pr_err(ps, "mpi_thread of site %" PRIu32 " after that of site %" PRIu32
			      " (sites ascend)", site, ps->thread_sites - 1);
	ps->thread_sites = site + 1;
	m = &p->mpi_sites[site];
	if (pr_u64(ps, c, "threads", &threads) || pr_u64(ps, c, "main_calls", &main_calls) ||
	    pr_done(ps, c))
		return -1;
	if (!threads || main_calls > m->calls)
		return pr_err(ps, "mpi_thread of site %" PRIu32 ": %" PRIu64 " threads, %" PRIu64
			      " calls of the main thread of %" PRIu64, site, threads, main_calls,
			      m->calls);
	m->threads = threads;
	m->main_calls = main_calls;
	return 0;
}

/* mpi_slot SLOT SITE, and RANK in a merged profile */
int rec_mpi_slot(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->nmpi_slots;
	struct prof_mpi_slot *m;

	if (pr_waits_since(ps, "mpi_slot") ||
	    pr_grow(ps, (void **)&p->mpi_slots, i, &ps->slots_alloc, sizeof(*m)))
		return -1;
	m = &p->mpi_slots[i];
	memset(m, 0, sizeof(*m));
	p->nmpi_slots++;
	if (pr_index(ps, c, "mpi_slot slot", (uint64_t)UINT32_MAX + 1, &m->slot) ||
	    pr_index(ps, c, "mpi_slot site", p->nmpi_sites, &m->site) ||
	    pr_merged_rank(ps, c, &m->rank) || pr_done(ps, c))
		return -1;
	return pr_unique(ps, prof_mpi_slot_dup(&ps->slots, p, i), i, "mpi_slot",
			 p->merged ? "rank and slot" : "slot");
}

/* mpi_pair SITE SEND_RANK SEND_SLOT COUNT BYTES LS LS_COMP LR LR_COMP, and
 * RANK in a merged profile */
int rec_mpi_pair(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->nmpi_pairs;
	struct prof_mpi_pair *m;

	if (pr_waits_since(ps, "mpi_pair") ||
	    pr_grow(ps, (void **)&p->mpi_pairs, i, &ps->pairs_alloc, sizeof(*m)))
		return -1;
	m = &p->mpi_pairs[i];
	memset(m, 0, sizeof(*m));
	p->nmpi_pairs++;
	if (pr_index(ps, c, "mpi_pair site", p->nmpi_sites, &m->site) ||
	    pr_i64(ps, c, "send_rank", &m->send_rank))
		return -1;
	if (!prof_cp_rank_ok(p, m->send_rank))
		return pr_err(ps, "mpi_pair send_rank %" PRId64 " is not a rank of this job (size %" PRId64
			      ")", m->send_rank, p->size);
	if (pr_index(ps, c, "mpi_pair send_slot", (uint64_t)UINT32_MAX + 1, &m->send_slot))
		return -1;
#define PR_PAIR_VALUE(f) \
	if (pr_u64(ps, c, #f, &m->f)) \
		return -1;
	PROF_PAIR_VALUES(PR_PAIR_VALUE)
#undef PR_PAIR_VALUE
	if (pr_merged_rank(ps, c, &m->rank) || pr_done(ps, c))
		return -1;
	return pr_unique(ps, prof_mpi_pair_dup(&ps->pairs, p, i), i, "mpi_pair",
			 p->merged ? "rank, site, send_rank and send_slot" :
			 "site, send_rank and send_slot");
}

/* An edge of kind: KEY FROM TO COUNT TIME_NS, and RANK in a merged profile */
static int rec_edge(struct parser *ps, struct cursor *c, const char *key, int since,
		    enum prof_edge_kind kind)
{
	struct profile *p = ps->p;
	uint32_t i = p->nmpi_edges;
	struct prof_mpi_edge *m;
	char from[32], to[32];

	snprintf(from, sizeof(from), "%s from", key);
	snprintf(to, sizeof(to), "%s to", key);
	if (pr_since(ps, key, since) ||
	    pr_grow(ps, (void **)&p->mpi_edges, i, &ps->edges_alloc, sizeof(*m)))
		return -1;
	m = &p->mpi_edges[i];
	memset(m, 0, sizeof(*m));
	m->kind = (uint8_t)kind;
	p->nmpi_edges++;
	if (pr_index(ps, c, from, p->nmpi_sites, &m->from) ||
	    pr_index(ps, c, to, p->nmpi_sites, &m->to) ||
	    pr_u64(ps, c, "count", &m->count) || pr_u64(ps, c, "time_ns", &m->time_ns) ||
	    pr_merged_rank(ps, c, &m->rank) || pr_done(ps, c))
		return -1;
	return pr_unique(ps, prof_mpi_edge_dup(&ps->edges, p, i), i, key,
			 p->merged ? "rank, from and to" : "from and to");
}

int rec_mpi_edge(struct parser *ps, struct cursor *c)
{
	return rec_edge(ps, c, "mpi_edge", PROFILE_VERSION_WAITS, PROF_EDGE_COMPUTE);
}

int rec_mpi_done(struct parser *ps, struct cursor *c)
{
	return rec_edge(ps, c, "mpi_done", PROFILE_VERSION_GRAPH, PROF_EDGE_COMPLETE);
}

/* mpi_edge_path EDGE NODE SAMPLES: EDGE an mpi_edge record */
int rec_mpi_edge_path(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->nmpi_edge_paths;
	struct prof_mpi_edge_path *m;

	if (pr_since(ps, "mpi_edge_path", PROFILE_VERSION_GRAPH) ||
	    pr_grow(ps, (void **)&p->mpi_edge_paths, i, &ps->edge_paths_alloc, sizeof(*m)))
		return -1;
	m = &p->mpi_edge_paths[i];
	memset(m, 0, sizeof(*m));
	p->nmpi_edge_paths++;
	if (pr_index(ps, c, "mpi_edge_path edge", p->nmpi_edges, &m->edge) ||
	    pr_index(ps, c, "mpi_edge_path node", p->tree.nnodes, &m->node) ||
	    pr_u64(ps, c, "samples", &m->samples) ||
	    pr_done(ps, c))
		return -1;
	if (p->mpi_edges[m->edge].kind != PROF_EDGE_COMPUTE)
		return pr_err(ps, "mpi_edge_path of edge %" PRIu32 ", an mpi_done record "
			      "(paths are of computation edges)", m->edge);
	return pr_unique(ps, prof_mpi_edge_path_dup(&ps->edge_paths, p, i), i, "mpi_edge_path",
			 "edge and node");
}
