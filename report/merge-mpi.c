/*
 * merge-mpi.c - the MPI part of merging an experiment.
 *
 * Every process gets a rank entry (rank or -1, host, wall and CPU time, its
 * MPI and blocked time summed over its call sites, its clock's offset and
 * drift, and its overhead compensation data when it has some).  Call sites
 * (their wait states too) are merged across ranks by (function, call
 * path), the call path mapped into the merged symbol table exactly as the
 * tree's nodes are; collectives by (function, communicator size); both
 * through an idset, so merging stays linear in the number of records.  The communication matrix is kept sparse
 * as (src, dst) pairs, one per peer record (a rank appears once, so pairs
 * never repeat).  Sums saturate at 2^64 - 1 (docs/format.md "Sums").
 * mpi_merge_finish sorts everything for the renderers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data.h"
#include "merge-mpi.h"
#include "../common/hash.h"
#include "../common/sum.h"

static int mpi_oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory while merging MPI data");
	return -1;
}

/* See merge-mpi.h. */
int mpi_grow(void **array, uint32_t n, uint32_t *alloc, size_t elem)
{
	void *a;

	if (n < *alloc)
		return 0;
	if (*alloc > UINT32_MAX / 4)
		return -1;
	a = realloc(*array, (size_t)(*alloc ? *alloc * 2 : 16) * elem);
	if (!a)
		return -1;
	*array = a;
	*alloc = *alloc ? *alloc * 2 : 16;
	return 0;
}

void mpi_merge_release(struct rep_mpi *m)
{
	for (uint32_t i = 0; i < m->nranks; i++)
		free(m->ranks[i].host);
	for (uint32_t i = 0; i < m->nsites; i++) {
		free(m->sites[i].function);
		free(m->sites[i].frames);
	}
	for (uint32_t i = 0; i < m->ncolls; i++)
		free(m->colls[i].function);
	free(m->ranks);
	free(m->sites);
	free(m->pairs);
	free(m->colls);
	free(m->library);
	free(m->seen);
	idset_release(&m->site_set);
	idset_release(&m->coll_set);
	memset(m, 0, sizeof(*m));
}

/* Check a rank and its job's size against the limit, the rank's own
 * job and the job so far, with a message that says which failed. */
static int check_size(const struct rep_mpi *m, int64_t rank, int64_t size, const char *name,
		      char *err, size_t errlen)
{
	if (size > REP_MPI_MAX_SIZE)
		snprintf(err, errlen, "%s: job size %lld exceeds the limit of %lld ranks",
			 name, (long long)size, (long long)REP_MPI_MAX_SIZE);
	else if (size <= 0 || rank >= size)
		snprintf(err, errlen, "%s: rank %lld is not a rank of its job of size %lld",
			 name, (long long)rank, (long long)size);
	else if (m->size && size != m->size)
		snprintf(err, errlen, "%s: rank %lld of a job of size %lld does not fit "
			 "the other ranks' job (size %lld)", name, (long long)rank,
			 (long long)size, (long long)m->size);
	else
		return 0;
	return -1;
}

/* Check a rank and its job's size (check_size) and mark the rank seen. */
static int check_rank(struct rep_mpi *m, int64_t rank, int64_t size, const char *name,
		      char *err, size_t errlen)
{
	if (check_size(m, rank, size, name, err, errlen) < 0)
		return -1;
	if (!m->seen && !(m->seen = calloc((size_t)size / 8 + 1, 1)))
		return mpi_oom(err, errlen);
	m->size = size;
	if (m->seen[rank / 8] & (1u << (rank % 8))) {
		snprintf(err, errlen, "%s: rank %lld appears twice in the experiment",
			 name, (long long)rank);
		return -1;
	}
	m->seen[rank / 8] |= (uint8_t)(1u << (rank % 8));
	return 0;
}

/* Check p's ranks: its own, or a merged profile's. */
static int check_ranks(struct rep_mpi *m, const struct profile *p, const char *name,
		       char *err, size_t errlen)
{
	for (uint64_t i = 0; i < p->merged; i++)
		if (check_rank(m, p->mranks[i].rank, p->size, name, err, errlen) < 0)
			return -1;
	if (p->rank >= 0)
		return check_rank(m, p->rank, p->size, name, err, errlen);
	if (p->merged || p->nmpi_peers == 0)
		return 0;
	snprintf(err, errlen, "%s: MPI messages recorded by a process without a rank", name);
	return -1;
}

/* Keep the library string of the lowest rank that names one. */
static int adopt_library(struct rep_mpi *m, const struct profile *p, char *err,
			 size_t errlen)
{
	char *lib;

	int64_t rank = p->merged ? p->mranks[0].rank : p->rank;

	if (rank < 0 || !p->mpi_library || !*p->mpi_library ||
	    (m->library && rank > m->library_rank))
		return 0;
	if (!(lib = strdup(p->mpi_library)))
		return mpi_oom(err, errlen);
	free(m->library);
	m->library = lib;
	m->library_rank = rank;
	return 0;
}

/* A process's row (its own, or one of a merged profile's) as a rank
 * entry.  MPI_Init and MPI_Finalize lie outside the MPI region, over
 * which a rank's wall, CPU and MPI time are measured (docs/report.md). */
static int add_rank(struct rep_mpi *m, const struct prof_rank *row, char *err, size_t errlen)
{
	struct rep_rank *r;

	if (mpi_grow((void **)&m->ranks, m->nranks, &m->ranks_alloc, sizeof(*r)) < 0)
		return mpi_oom(err, errlen);
	r = &m->ranks[m->nranks];
	memset(r, 0, sizeof(*r));
	if (!(r->host = strdup(row->host ? row->host : "")))
		return mpi_oom(err, errlen);
	m->nranks++;
	r->rank = row->rank;
	r->pid = row->pid;
	r->process_wall_ns = row->end_ns > row->start_ns ? row->end_ns - row->start_ns : 0;
	r->process_cpu_ns = row->cpu_ns;
	r->wall_ns = row->rank >= 0 ? row->mpi_wall_ns : r->process_wall_ns;
	r->cpu_ns = row->rank >= 0 ? row->mpi_cpu_ns : r->process_cpu_ns;
	r->mpi_ns = row->mpi_ns;
	r->blocked_ns = row->blocked_ns;
	r->comp_on = row->comp_on != 0;
	if (r->comp_on) {
		r->ovh = row->ovh;
		r->comp_wall_ns = row->comp_wall_ns;
		r->comp_delay_ns = row->comp_delay_ns;
		r->comp_wait_ns = row->comp_wait_ns;
		r->comp_wait_comp_ns = row->comp_wait_comp_ns;
		r->sample_probes = row->comp_sample_probes;
		r->sample_probes_busy = row->comp_sample_probes_busy;
		r->sample_cost_lo_ns = row->comp_sample_cost_lo_ns;
		r->sample_cost_hi_ns = row->comp_sample_cost_hi_ns;
	}
	r->clock_offset_ns = row->clock_offset_ns;
	r->clock_drift_ns = row->clock_drift_ns;
	return 0;
}

static int add_ranks(struct rep_mpi *m, const struct profile *p, char *err, size_t errlen)
{
	struct prof_rank row;

	for (uint32_t i = 0; i < p->nmpi_sites; i++)
		m->time_ns = sum_sat(m->time_ns, p->mpi_sites[i].time_ns);
	for (uint64_t i = 0; i < p->merged; i++)
		if (add_rank(m, &p->mranks[i], err, errlen) < 0)
			return -1;
	if (p->merged)
		return 0;
	prof_rank_row(p, &row);
	return add_rank(m, &row, err, errlen);
}

static bool site_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct rep_site *x = &((const struct rep_mpi *)ctx)->sites[a];
	const struct rep_site *y = &((const struct rep_mpi *)ctx)->sites[b];

	return x->nframes == y->nframes && !strcmp(x->function, y->function) &&
	       (!x->nframes || !memcmp(x->frames, y->frames, x->nframes * sizeof(uint32_t)));
}

static void add_site_counts(struct rep_site *to, const struct prof_mpi_site *s)
{
	to->calls = sum_sat(to->calls, s->calls);
	to->main_calls = sum_sat(to->main_calls, s->main_calls);
	to->threads = to->threads > s->threads ? to->threads : s->threads;
	to->bytes_sent = sum_sat(to->bytes_sent, s->bytes_sent);
	to->bytes_recv = sum_sat(to->bytes_recv, s->bytes_recv);
	to->time_ns = sum_sat(to->time_ns, s->time_ns);
	to->blocked_ns = sum_sat(to->blocked_ns, s->blocked_ns);
	for (int k = 0; k < PROF_MPI_HIST; k++)
		to->hist[k] = sum_sat(to->hist[k], s->hist[k]);
	prof_waits_add(&to->waits, &s->waits);
}

/* Merge site s of profile p (frames mapped through fmap, its time's
 * spread over the ranks sp) into m: appended as a candidate, then folded
 * into an equal earlier site if there is one; *at is its index in m. */
static int add_site(struct rep_mpi *m, const struct profile *p,
		    const struct prof_mpi_site *s, const struct prof_spread *sp,
		    const uint32_t *fmap, uint32_t *at, const char *name, char *err, size_t errlen)
{
	uint32_t i = m->nsites, j;
	struct rep_site *c;
	uint64_t h;

	if (mpi_grow((void **)&m->sites, i, &m->sites_alloc, sizeof(*c)) < 0)
		return mpi_oom(err, errlen);
	c = &m->sites[i];
	memset(c, 0, sizeof(*c));
	c->function = strdup(s->function ? s->function : "");
	c->frames = malloc((s->nframes ? s->nframes : 1) * sizeof(uint32_t));
	if (!c->function || !c->frames) {
		free(c->function);
		free(c->frames);
		return mpi_oom(err, errlen);
	}
	for (; c->nframes < s->nframes; c->nframes++) {
		uint32_t fr = s->frames[c->nframes];

		if (fr >= p->syms.nframes) {
			free(c->function);
			free(c->frames);
			snprintf(err, errlen, "%s: MPI call site names frame %u of %u",
				 name, fr, p->syms.nframes);
			return -1;
		}
		c->frames[c->nframes] = fmap[fr];
	}
	h = hash_bytes(HASH_SEED, c->function, strlen(c->function) + 1);
	h = hash_bytes(h, c->frames, c->nframes * sizeof(uint32_t));
	j = idset_add(&m->site_set, m, i, hash_u64(h), site_eq);
	if (j != i) {
		free(c->function);
		free(c->frames);
	}
	if (j == UINT32_MAX)
		return mpi_oom(err, errlen);
	add_site_counts(&m->sites[j], s);
	prof_spread_add(&m->sites[j].time_spread, sp);
	m->nsites += j == i;
	*at = j;
	return 0;
}

static bool coll_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct rep_coll *x = &((const struct rep_mpi *)ctx)->colls[a];
	const struct rep_coll *y = &((const struct rep_mpi *)ctx)->colls[b];

	return x->comm_size == y->comm_size && !strcmp(x->function, y->function);
}

/* Merge collective s into m, like add_site. */
static int add_coll(struct rep_mpi *m, const struct prof_mpi_coll *s, char *err,
		    size_t errlen)
{
	uint32_t i = m->ncolls, j;
	struct rep_coll *c;
	uint64_t h;

	if (mpi_grow((void **)&m->colls, i, &m->colls_alloc, sizeof(*c)) < 0)
		return mpi_oom(err, errlen);
	c = &m->colls[i];
	memset(c, 0, sizeof(*c));
	c->comm_size = s->comm_size;
	if (!(c->function = strdup(s->function ? s->function : "")))
		return mpi_oom(err, errlen);
	h = hash_bytes(HASH_SEED, c->function, strlen(c->function));
	j = idset_add(&m->coll_set, m, i, hash_u64(h ^ (uint64_t)c->comm_size), coll_eq);
	if (j != i)
		free(c->function);
	if (j == UINT32_MAX)
		return mpi_oom(err, errlen);
	m->colls[j].calls = sum_sat(m->colls[j].calls, s->calls);
	m->colls[j].bytes = sum_sat(m->colls[j].bytes, s->bytes);
	m->colls[j].time_ns = sum_sat(m->colls[j].time_ns, s->time_ns);
	m->ncolls += j == i;
	return 0;
}

/* p's peer records as matrix pairs (rank already checked). */
static int add_pairs(struct rep_mpi *m, const struct profile *p, const char *name,
		     char *err, size_t errlen)
{
	for (uint32_t i = 0; i < p->nmpi_peers; i++) {
		const struct prof_mpi_peer *q = &p->mpi_peers[i];

		if (q->peer < 0 || q->peer >= m->size) {
			snprintf(err, errlen, "%s: messages to rank %lld, outside the job "
				 "(size %lld)", name, (long long)q->peer, (long long)m->size);
			return -1;
		}
		if (q->count == 0 && q->bytes == 0)
			continue;
		if (mpi_grow((void **)&m->pairs, m->npairs, &m->pairs_alloc, sizeof(*m->pairs)) < 0)
			return mpi_oom(err, errlen);
		m->pairs[m->npairs++] = (struct rep_pair){ p->merged ? q->src : p->rank, q->peer,
							   q->count, q->bytes };
	}
	return 0;
}

int mpi_merge_add(struct rep_mpi *m, const struct profile *p, const uint32_t *fmap,
		  uint32_t *smap, const char *name, char *err, size_t errlen)
{
	if (check_ranks(m, p, name, err, errlen) < 0 || adopt_library(m, p, err, errlen) < 0 ||
	    add_ranks(m, p, err, errlen) < 0 || add_pairs(m, p, name, err, errlen) < 0)
		return -1;
	for (uint32_t i = 0; i < p->nmpi_sites; i++) {
		struct prof_spread one = prof_spread_one(p->mpi_sites[i].time_ns, p->rank);
		const struct prof_spread *sp = p->merged ? &p->site_spread[i] : &one;

		if (p->rank < 0 && !p->merged)
			one.ranks = 0;	/* not a rank: no spread over ranks */
		if (add_site(m, p, &p->mpi_sites[i], sp, fmap, &smap[i], name, err, errlen) < 0)
			return -1;
	}
	for (uint32_t i = 0; i < p->nmpi_colls; i++)
		if (add_coll(m, &p->mpi_colls[i], err, errlen) < 0)
			return -1;
	return 0;
}

#define CMP(a, b) do { if ((a) != (b)) return (a) < (b) ? -1 : 1; } while (0)

static int cmp_rank(const void *a, const void *b)
{
	const struct rep_rank *x = a, *y = b;

	CMP(x->rank, y->rank);
	CMP(x->pid, y->pid);
	return strcmp(x->host, y->host);
}

/* Time descending, then calls descending, function, call path. */
static int cmp_site(const void *a, const void *b)
{
	const struct rep_site *x = a, *y = b;
	int c;

	CMP(y->time_ns, x->time_ns);
	CMP(y->calls, x->calls);
	if ((c = strcmp(x->function, y->function)))
		return c;
	for (uint32_t k = 0; k < x->nframes && k < y->nframes; k++)
		CMP(x->frames[k], y->frames[k]);
	CMP(x->nframes, y->nframes);
	return 0;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct rep_pair *x = a, *y = b;

	CMP(x->src, y->src);
	CMP(x->dst, y->dst);
	return 0;
}

static int cmp_coll(const void *a, const void *b)
{
	const struct rep_coll *x = a, *y = b;

	CMP(x->comm_size, y->comm_size);
	return strcmp(x->function, y->function);
}

void mpi_merge_finish(struct rep_mpi *m)
{
	/* The sets index the arrays by position: sorting ends their use. */
	idset_release(&m->site_set);
	idset_release(&m->coll_set);
	for (uint32_t i = 0; i < m->nsites; i++)
		m->sites[i].merge_id = i;
	if (m->nranks > 1)
		qsort(m->ranks, m->nranks, sizeof(*m->ranks), cmp_rank);
	if (m->nsites > 1)
		qsort(m->sites, m->nsites, sizeof(*m->sites), cmp_site);
	if (m->npairs > 1)
		qsort(m->pairs, m->npairs, sizeof(*m->pairs), cmp_pair);
	if (m->ncolls > 1)
		qsort(m->colls, m->ncolls, sizeof(*m->colls), cmp_coll);
}

uint64_t mpi_rank_count(const struct rep_mpi *m)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < m->nranks; i++)
		n += m->ranks[i].rank >= 0;
	return n;
}
