/*
 * profile-mpi.c - the rules of a profile's MPI records that the writer
 * (profile-write.c) and the reader (profile-read-mpi.c) both enforce: no
 * two call sites with the same function and call path, no two peer records
 * for one peer, no two collective records for one (function, communicator
 * size), no two slots of one rank's table with the same number, no two
 * pairs with the same (rank, site, sender rank, sender slot), no two
 * activity-graph edges with the same (rank, from, to); peers and senders
 * inside the job, slots, pairs and edges naming call sites.  Duplicates
 * are found with an idset (idset.h), so checking is linear in the number
 * of records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "profile-int.h"

static const char *nz(const char *s)
{
	return s ? s : "";
}

static bool site_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct profile *p = ctx;
	const struct prof_mpi_site *x = &p->mpi_sites[a], *y = &p->mpi_sites[b];

	return x->nframes == y->nframes && !strcmp(nz(x->function), nz(y->function)) &&
	       (!x->nframes || !memcmp(x->frames, y->frames, x->nframes * sizeof(*x->frames)));
}

static bool peer_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct profile *p = ctx;

	return p->mpi_peers[a].peer == p->mpi_peers[b].peer &&
	       p->mpi_peers[a].src == p->mpi_peers[b].src;
}

static bool coll_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct profile *p = ctx;
	const struct prof_mpi_coll *x = &p->mpi_colls[a], *y = &p->mpi_colls[b];

	return x->comm_size == y->comm_size && !strcmp(nz(x->function), nz(y->function));
}

static bool slot_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct profile *p = ctx;

	return p->mpi_slots[a].slot == p->mpi_slots[b].slot &&
	       p->mpi_slots[a].rank == p->mpi_slots[b].rank;
}

static bool pair_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct prof_mpi_pair *x = &((const struct profile *)ctx)->mpi_pairs[a];
	const struct prof_mpi_pair *y = &((const struct profile *)ctx)->mpi_pairs[b];

	return x->site == y->site && x->send_rank == y->send_rank &&
	       x->send_slot == y->send_slot && x->rank == y->rank;
}

static bool edge_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct prof_mpi_edge *x = &((const struct profile *)ctx)->mpi_edges[a];
	const struct prof_mpi_edge *y = &((const struct profile *)ctx)->mpi_edges[b];

	return x->from == y->from && x->to == y->to && x->kind == y->kind && x->rank == y->rank;
}

static bool edge_path_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct prof_mpi_edge_path *x = &((const struct profile *)ctx)->mpi_edge_paths[a];
	const struct prof_mpi_edge_path *y = &((const struct profile *)ctx)->mpi_edge_paths[b];

	return x->edge == y->edge && x->node == y->node;
}

/* See profile-int.h. */
uint32_t prof_mpi_site_dup(struct idset *s, const struct profile *p, uint32_t i)
{
	const struct prof_mpi_site *m = &p->mpi_sites[i];
	const char *fn = nz(m->function);
	uint64_t h = hash_bytes(HASH_SEED, fn, strlen(fn) + 1);

	if (m->nframes)
		h = hash_bytes(h, m->frames, m->nframes * sizeof(*m->frames));
	return idset_add(s, p, i, hash_u64(h), site_eq);
}

/* See profile-int.h. */
uint32_t prof_mpi_peer_dup(struct idset *s, const struct profile *p, uint32_t i)
{
	return idset_add(s, p, i, hash_u64((uint64_t)p->mpi_peers[i].peer ^
						 ((uint64_t)p->mpi_peers[i].src << 32)), peer_eq);
}

/* See profile-int.h. */
uint32_t prof_mpi_coll_dup(struct idset *s, const struct profile *p, uint32_t i)
{
	const char *fn = nz(p->mpi_colls[i].function);
	uint64_t h = hash_bytes(HASH_SEED, fn, strlen(fn));

	return idset_add(s, p, i, hash_u64(h ^ (uint64_t)p->mpi_colls[i].comm_size),
			 coll_eq);
}

/* See profile-int.h. */
uint32_t prof_mpi_slot_dup(struct idset *s, const struct profile *p, uint32_t i)
{
	const struct prof_mpi_slot *m = &p->mpi_slots[i];

	return idset_add(s, p, i, hash_u64(hash_u64(m->slot) ^ (uint64_t)m->rank), slot_eq);
}

/* See profile-int.h. */
uint32_t prof_mpi_pair_dup(struct idset *s, const struct profile *p, uint32_t i)
{
	const struct prof_mpi_pair *m = &p->mpi_pairs[i];
	uint64_t h = hash_u64(hash_u64(m->site | (uint64_t)m->send_slot << 32) ^
			      (uint64_t)m->send_rank);

	return idset_add(s, p, i, hash_u64(h ^ (uint64_t)m->rank), pair_eq);
}

/* See profile-int.h. */
uint32_t prof_mpi_edge_dup(struct idset *s, const struct profile *p, uint32_t i)
{
	const struct prof_mpi_edge *m = &p->mpi_edges[i];

	return idset_add(s, p, i, hash_u64(hash_u64(m->from | (uint64_t)m->to << 32) ^
					   ((uint64_t)m->rank << 1 | m->kind)), edge_eq);
}

/* See profile-int.h. */
uint32_t prof_mpi_edge_path_dup(struct idset *s, const struct profile *p, uint32_t i)
{
	const struct prof_mpi_edge_path *m = &p->mpi_edge_paths[i];

	return idset_add(s, p, i, hash_u64(m->edge | (uint64_t)m->node << 32), edge_path_eq);
}

/* See profile-int.h. */
int prof_mpi_peer_ok(int64_t peer, int64_t size)
{
	return peer >= 0 && (size <= 0 || peer < size);
}

/* Run dup over records 0..n-1 of one kind; names the first duplicate. */
static const char *check_dups(const struct profile *p, uint32_t n, const char *what,
			      uint32_t (*dup)(struct idset *, const struct profile *,
					      uint32_t), char *why, size_t len)
{
	struct idset s = { 0 };
	const char *bad = NULL;

	for (uint32_t i = 0; i < n && !bad; i++) {
		uint32_t j = dup(&s, p, i);

		if (j == UINT32_MAX)
			snprintf(why, len, "out of memory checking %s records", what);
		else if (j != i)
			snprintf(why, len, "%s %u duplicates %s %u", what, i, what, j);
		if (j != i)
			bad = why;
	}
	idset_release(&s);
	return bad;
}

/* See profile-int.h. */
const char *prof_mpi_check(const struct profile *p, char *why, size_t n)
{
	for (uint32_t i = 0; i < p->nmpi_sites; i++)
		for (uint32_t k = 0; k < p->mpi_sites[i].nframes; k++)
			if (p->mpi_sites[i].frames[k] >= p->syms.nframes) {
				snprintf(why, n, "MPI site %u has bad frame", i);
				return why;
			}
	for (uint32_t i = 0; i < p->nmpi_peers; i++)
		if (!prof_mpi_peer_ok(p->mpi_peers[i].peer, p->size)) {
			snprintf(why, n, "MPI peer %lld outside the job of size %lld",
				 (long long)p->mpi_peers[i].peer, (long long)p->size);
			return why;
		}
	for (uint32_t i = 0; i < p->nmpi_slots; i++)
		if (p->mpi_slots[i].site >= p->nmpi_sites) {
			snprintf(why, n, "MPI slot %u names site %u of %u", p->mpi_slots[i].slot,
				 p->mpi_slots[i].site, p->nmpi_sites);
			return why;
		}
	for (uint32_t i = 0; i < p->nmpi_pairs; i++) {
		const struct prof_mpi_pair *q = &p->mpi_pairs[i];

		if (q->site >= p->nmpi_sites)
			snprintf(why, n, "MPI pair %u names site %u of %u", i, q->site, p->nmpi_sites);
		else if (!prof_cp_rank_ok(p, q->send_rank))
			snprintf(why, n, "MPI pair %u: sender rank %lld outside the job of size %lld",
				 i, (long long)q->send_rank, (long long)p->size);
		else
			continue;
		return why;
	}
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		if (p->mpi_edges[i].from >= p->nmpi_sites || p->mpi_edges[i].to >= p->nmpi_sites) {
			snprintf(why, n, "MPI edge %u names sites %u and %u of %u", i,
				 p->mpi_edges[i].from, p->mpi_edges[i].to, p->nmpi_sites);
			return why;
		}
	for (uint32_t i = 0; i < p->nmpi_edge_paths; i++) {
		const struct prof_mpi_edge_path *q = &p->mpi_edge_paths[i];

		if (q->edge >= p->nmpi_edges || p->mpi_edges[q->edge].kind != PROF_EDGE_COMPUTE ||
		    q->node >= p->tree.nnodes) {
			snprintf(why, n, "MPI edge path %u names edge %u of %u and node %u of %u "
				 "(a computation edge's)", i, q->edge, p->nmpi_edges, q->node,
				 p->tree.nnodes);
			return why;
		}
	}
	if (check_dups(p, p->nmpi_sites, "MPI site", prof_mpi_site_dup, why, n) ||
	    check_dups(p, p->nmpi_peers, "MPI peer record", prof_mpi_peer_dup, why, n) ||
	    check_dups(p, p->nmpi_colls, "MPI collective", prof_mpi_coll_dup, why, n) ||
	    check_dups(p, p->nmpi_slots, "MPI slot record", prof_mpi_slot_dup, why, n) ||
	    check_dups(p, p->nmpi_pairs, "MPI pair", prof_mpi_pair_dup, why, n) ||
	    check_dups(p, p->nmpi_edges, "MPI edge", prof_mpi_edge_dup, why, n) ||
	    check_dups(p, p->nmpi_edge_paths, "MPI edge path", prof_mpi_edge_path_dup, why, n))
		return why;
	return NULL;
}
