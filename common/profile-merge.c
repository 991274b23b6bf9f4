/*
 * profile-merge.c - merged profiles (docs/format.md "Merged profiles"):
 * a rank's profile made into a merged profile of one rank, two merged
 * profiles folded into one, and the rules their records keep.  The MPI
 * layer reduces a job's profiles with these at MPI_Finalize, along a
 * binomial tree, so no rank ever holds more than two profiles at once.
 *
 * Folding re-interns the source's modules and frames into the
 * destination's symbol table and replays its nodes in id order (parents
 * first), as the report merges files; call sites, collectives and
 * functions are matched through idsets, the ranks' own records (threads,
 * point-to-point pairs, slots, site pairs and activity-graph edges)
 * appended, so a fold is linear in the size of the two profiles.  Sums
 * saturate at 2^64 - 1 but the tree's counts,
 * which are added as they are: a caller folding files it did not write
 * checks them first (cct_add_self; docs/format.md "Sums").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "idset.h"
#include "profile-int.h"
#include "sum.h"

static int merge_oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory while merging profiles");
	return -1;
}

/* ---- functions: the frames of one function (symtab.h) */

struct fn_key_ctx {
	const struct profile *p;
	const struct prof_fn_spread *v;
};

static uint64_t fn_hash(const struct profile *p, uint32_t frame)
{
	const struct sym_frame *f = &p->syms.frames[frame];

	return hash_u64(hash_bytes(HASH_SEED, f->function, symtab_function_len(&p->syms, f)) ^
			f->module);
}

/* Frames of one function (symtab.h): the report's spreads over the ranks
 * are by function. */
static bool fn_eq(const void *ctx, uint32_t a, uint32_t b)
{
	const struct fn_key_ctx *k = ctx;
	const struct sym_frame *x = &k->p->syms.frames[k->v[a].frame];
	const struct sym_frame *y = &k->p->syms.frames[k->v[b].frame];
	size_t n = symtab_function_len(&k->p->syms, x);

	return x->module == y->module && n == symtab_function_len(&k->p->syms, y) &&
	       !memcmp(x->function, y->function, n);
}

/* Fold spread s of the function of frame (a frame of p) into p's list,
 * indexed by set. */
static int fn_add(struct profile *p, struct idset *set, uint32_t *alloc, uint32_t frame,
		  uint64_t sum, const struct prof_spread *s)
{
	uint32_t i = p->nfn_spread, j;
	struct fn_key_ctx k;

	if (i == *alloc) {
		uint32_t n = *alloc ? 2 * *alloc : 64;
		struct prof_fn_spread *v = realloc(p->fn_spread, n * sizeof(*v));

		if (!v)
			return -1;
		p->fn_spread = v;
		*alloc = n;
	}
	p->fn_spread[i] = (struct prof_fn_spread){ frame, 0, { 0, 0, 0, -1 } };
	k = (struct fn_key_ctx){ p, p->fn_spread };
	if ((j = idset_add(set, &k, i, fn_hash(p, frame), fn_eq)) == UINT32_MAX)
		return -1;
	p->nfn_spread += j == i;
	p->fn_spread[j].sum = sum_sat(p->fn_spread[j].sum, sum);
	prof_spread_add(&p->fn_spread[j].s, s);
	return 0;
}

/* Index p's function list, which has no duplicates. */
static int fn_index(const struct profile *p, struct idset *set)
{
	struct fn_key_ctx k = { p, p->fn_spread };

	for (uint32_t i = 0; i < p->nfn_spread; i++)
		if (idset_add(set, &k, i, fn_hash(p, p->fn_spread[i].frame), fn_eq) == UINT32_MAX)
			return -1;
	return 0;
}

/* A rank's self samples of the first event by function. */
static int rank_functions(struct profile *p, int64_t rank)
{
	static const struct prof_spread none = { 0, 0, 0, -1 };
	const struct cct *t = &p->tree;
	struct idset set = { 0 };
	uint32_t alloc = 0;
	int rc = 0;

	/* the sums first: a function's frames are spread over the tree */
	for (uint32_t id = 1; p->nevents && id < t->nnodes && !rc; id++) {
		uint64_t v = cct_self(t, id)[0];

		if (v)
			rc = fn_add(p, &set, &alloc, t->frame[id], v, &none);
	}
	for (uint32_t i = 0; i < p->nfn_spread; i++)
		p->fn_spread[i].s = prof_spread_one(p->fn_spread[i].sum, rank);
	idset_release(&set);
	return rc;
}

/* ---- a rank's profile as a merged profile of one rank */

/* See profile.h. */
void prof_rank_row(const struct profile *p, struct prof_rank *r)
{
	r->rank = p->rank;
	r->pid = p->pid;
	r->host = p->host;
	r->start_ns = p->start_ns;
	r->end_ns = p->end_ns;
	r->cpu_ns = p->cpu_ns;
	r->mpi_wall_ns = p->mpi_wall_ns;
	r->mpi_cpu_ns = p->mpi_cpu_ns;
	prof_mpi_region_time(p, &r->mpi_ns, &r->blocked_ns);
	r->cp_events = p->cp_events;
	r->cp_length_ns = p->cp_length_ns;
	r->cp_wall_ns = p->cp_wall_ns;
	r->comp_on = p->comp_on;
	r->ovh = p->ovh;
	r->comp_wall_ns = p->comp_wall_ns;
	r->comp_delay_ns = p->comp_delay_ns;
	r->comp_wait_ns = p->comp_wait_ns;
	r->comp_wait_comp_ns = p->comp_wait_comp_ns;
	r->clock_offset_ns = p->clock_offset_ns;
	r->clock_drift_ns = p->clock_drift_ns;
#define ROW_VALUE(f) r->f = p->f;
	PROF_RANK_VALUES_9(ROW_VALUE)
#undef ROW_VALUE
}

/* p's row, its host copied; the job's compensation and clocks are per
 * rank, so the profile's own go. */
static int make_row(struct profile *p, struct prof_rank *r)
{
	prof_rank_row(p, r);
	if (!(r->host = strdup(p->host ? p->host : "")))
		return -1;
	p->comp_on = 0;
	memset(&p->ovh, 0, sizeof(p->ovh));
	p->comp_wall_ns = p->comp_delay_ns = p->comp_wait_ns = p->comp_wait_comp_ns = 0;
	p->comp_sample_probes = p->comp_sample_probes_busy = 0;
	p->comp_sample_cost_lo_ns = p->comp_sample_cost_hi_ns = 0;
	p->clock_offset_ns = p->clock_drift_ns = 0;
	return 0;
}

/* See profile.h. */
int profile_to_merged(struct profile *p, char *err, size_t errlen)
{
	const struct cct *t = &p->tree;
	int64_t rank = p->rank;
	size_t cells = (size_t)t->nnodes * p->nevents;

	if (p->merged || rank < 0) {
		snprintf(err, errlen, "cannot merge: not an MPI rank's profile");
		return -1;
	}
	p->mranks = calloc(1, sizeof(*p->mranks));
	p->node_spread = calloc(cells ? cells : 1, sizeof(*p->node_spread));
	p->site_spread = calloc(p->nmpi_sites ? p->nmpi_sites : 1, sizeof(*p->site_spread));
	if (!p->mranks || !p->node_spread || !p->site_spread)
		return merge_oom(err, errlen);
	p->merged = 1;
	if (make_row(p, &p->mranks[0]) || rank_functions(p, rank) || prof_kept_start(p, rank))
		return merge_oom(err, errlen);
	for (size_t i = 0; i < cells; i++)
		p->node_spread[i] = prof_spread_one(t->self[i], rank);
	for (uint32_t i = 0; i < p->nmpi_sites; i++)
		p->site_spread[i] = prof_spread_one(p->mpi_sites[i].time_ns, rank);
	for (uint32_t i = 0; i < p->nthreads; i++)
		p->threads[i].rank = rank;
	for (uint32_t i = 0; i < p->nmpi_peers; i++)
		p->mpi_peers[i].src = rank;
	for (uint32_t i = 0; i < p->nmpi_slots; i++)
		p->mpi_slots[i].rank = rank;
	for (uint32_t i = 0; i < p->nmpi_pairs; i++)
		p->mpi_pairs[i].rank = rank;
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		p->mpi_edges[i].rank = rank;
	profile_release_cp(p);
	p->rank = -1;
	return 0;
}

/* ---- folding one merged profile into another */

static int same_job(const struct profile *d, const struct profile *s, char *err, size_t errlen)
{
	if (!d->merged || !s->merged) {
		snprintf(err, errlen, "cannot merge: not merged profiles");
		return -1;
	}
	if (d->size != s->size || d->nevents != s->nevents) {
		snprintf(err, errlen, "cannot merge: ranks of jobs of %" PRId64 " and %" PRId64
			 " ranks, or with %" PRIu32 " and %" PRIu32 " events", d->size, s->size,
			 d->nevents, s->nevents);
		return -1;
	}
	for (uint32_t e = 0; e < d->nevents; e++)
		if (strcmp(d->events[e].name, s->events[e].name)) {
			snprintf(err, errlen, "cannot merge: ranks sampled %s and %s",
				 d->events[e].name, s->events[e].name);
			return -1;
		}
	return 0;
}

/* s's rows after d's (all of s's ranks are above d's); hosts copied. */
static int append_rows(struct profile *d, const struct profile *s, char *err, size_t errlen)
{
	struct prof_rank *v = realloc(d->mranks, (d->merged + s->merged) * sizeof(*v));

	if (!v)
		return merge_oom(err, errlen);
	d->mranks = v;
	for (uint64_t j = 0; j < s->merged; j++) {
		v[d->merged + j] = s->mranks[j];
		if (!(v[d->merged + j].host = strdup(s->mranks[j].host))) {
			while (j--)
				free(v[d->merged + j].host);
			return merge_oom(err, errlen);
		}
	}
	d->merged += s->merged;
	return 0;
}

/* The rows of both, by rank; s's hosts are copied. */
static int merge_rows(struct profile *d, const struct profile *s, char *err, size_t errlen)
{
	uint64_t n = d->merged + s->merged, i = 0, j = 0, k = 0;
	struct prof_rank *v;

	if (!d->merged || s->mranks[0].rank > d->mranks[d->merged - 1].rank)
		return append_rows(d, s, err, errlen);	/* the common case: s's ranks come after */
	for (; i < d->merged && j < s->merged; d->mranks[i].rank < s->mranks[j].rank ? i++ : j++)
		if (d->mranks[i].rank == s->mranks[j].rank) {
			snprintf(err, errlen, "cannot merge: rank %" PRId64 " twice",
				 s->mranks[j].rank);
			return -1;
		}
	if (!(v = calloc(n, sizeof(*v))))
		return merge_oom(err, errlen);
	for (j = 0; j < s->merged; j++)
		if (!(v[j].host = strdup(s->mranks[j].host))) {
			while (j--)
				free(v[j].host);
			free(v);
			return merge_oom(err, errlen);
		}
	/* from the back, so s's copied hosts are read before they are overwritten */
	for (i = d->merged, j = s->merged, k = n; k--;) {
		if (j && (!i || s->mranks[j - 1].rank > d->mranks[i - 1].rank)) {
			char *host = v[j - 1].host;

			j--;
			v[k] = s->mranks[j];
			v[k].host = host;
		} else
			v[k] = d->mranks[--i];
	}
	free(d->mranks);
	d->mranks = v;
	d->merged = n;
	return 0;
}

/* s's nodes into d's tree, counts and spreads added; nmap (s->tree.nnodes
 * entries) gets where each went. */
static int merge_tree(struct profile *d, const struct profile *s, const uint32_t *fmap,
		      uint32_t *nmap)
{
	const struct cct *st = &s->tree;
	uint32_t old = d->tree.nnodes;
	uint32_t nev = d->nevents;
	struct prof_spread *sp;

	nmap[0] = CCT_ROOT;
	for (uint32_t id = 1; id < st->nnodes; id++)
		if ((nmap[id] = cct_child(&d->tree, nmap[st->parent[id]], fmap[st->frame[id]])) ==
		    CCT_NO_FRAME)
			return -1;
	sp = realloc(d->node_spread, ((size_t)d->tree.nnodes * nev + 1) * sizeof(*sp));
	if (!sp)
		return -1;
	d->node_spread = sp;
	for (size_t i = (size_t)old * nev; i < (size_t)d->tree.nnodes * nev; i++)
		sp[i] = (struct prof_spread){ 0, 0, 0, -1 };
	for (uint32_t id = 0; id < st->nnodes; id++) {
		uint64_t *to = cct_self(&d->tree, nmap[id]);
		const uint64_t *from = cct_self(st, id);

		for (uint32_t e = 0; e < nev; e++) {
			to[e] += from[e];
			prof_spread_add(&sp[(size_t)nmap[id] * nev + e],
					&s->node_spread[(size_t)id * nev + e]);
		}
	}
	return prof_kept_merge(d, s, nmap, old);
}

static int merge_threads(struct profile *d, const struct profile *s)
{
	struct prof_thread *t = realloc(d->threads, ((size_t)d->nthreads + s->nthreads + 1) *
					sizeof(*t));

	if (!t)
		return -1;
	d->threads = t;
	for (uint32_t i = 0; i < s->nthreads; i++) {
		struct prof_thread *to = &t[d->nthreads];

		*to = s->threads[i];
		if (!(to->samples = malloc(((size_t)d->nevents + 1) * sizeof(uint64_t))))
			return -1;
		memcpy(to->samples, s->threads[i].samples, (size_t)d->nevents * sizeof(uint64_t));
		d->nthreads++;
	}
	return 0;
}

/* Index records 0..n-1 of d (no duplicates among them) with dup. */
static int index_records(struct idset *set, const struct profile *d, uint32_t n,
			 uint32_t (*dup)(struct idset *, const struct profile *, uint32_t))
{
	for (uint32_t i = 0; i < n; i++)
		if (dup(set, d, i) == UINT32_MAX)
			return -1;
	return 0;
}

/* s's call sites into d's, each summed into an equal one or appended;
 * smap[i] becomes the index in d of s's site i. */
static int merge_sites(struct profile *d, const struct profile *s, const uint32_t *fmap,
		       uint32_t *smap)
{
	size_t n = (size_t)d->nmpi_sites + s->nmpi_sites + 1;
	struct prof_mpi_site *v = realloc(d->mpi_sites, n * sizeof(*v));
	struct prof_spread *sp;
	struct idset set = { 0 };
	int rc = -1;

	if (v)
		d->mpi_sites = v;
	if (!v || !(sp = realloc(d->site_spread, n * sizeof(*sp))))
		return -1;
	d->site_spread = sp;
	if (index_records(&set, d, d->nmpi_sites, prof_mpi_site_dup))
		goto out;
	for (uint32_t i = 0; i < s->nmpi_sites; i++) {
		const struct prof_mpi_site *from = &s->mpi_sites[i];
		struct prof_mpi_site *c = &v[d->nmpi_sites];
		uint32_t j;

		*c = *from;
		c->function = strdup(from->function ? from->function : "");
		c->frames = malloc(((size_t)from->nframes + 1) * sizeof(*c->frames));
		if (!c->function || !c->frames) {
			free(c->function);
			free(c->frames);
			goto out;
		}
		for (uint32_t k = 0; k < from->nframes; k++)
			c->frames[k] = fmap[from->frames[k]];
		if ((j = prof_mpi_site_dup(&set, d, d->nmpi_sites)) != d->nmpi_sites) {
			free(c->function);
			free(c->frames);
			if (j == UINT32_MAX)
				goto out;
			v[j].calls = sum_sat(v[j].calls, from->calls);
			v[j].main_calls = sum_sat(v[j].main_calls, from->main_calls);
			v[j].threads = v[j].threads > from->threads ? v[j].threads : from->threads;
			v[j].bytes_sent = sum_sat(v[j].bytes_sent, from->bytes_sent);
			v[j].bytes_recv = sum_sat(v[j].bytes_recv, from->bytes_recv);
			v[j].time_ns = sum_sat(v[j].time_ns, from->time_ns);
			v[j].blocked_ns = sum_sat(v[j].blocked_ns, from->blocked_ns);
			for (int k = 0; k < PROF_MPI_HIST; k++)
				v[j].hist[k] = sum_sat(v[j].hist[k], from->hist[k]);
			prof_waits_add(&v[j].waits, &from->waits);
			prof_spread_add(&sp[j], &s->site_spread[i]);
		} else
			sp[d->nmpi_sites++] = s->site_spread[i];
		smap[i] = j;
	}
	rc = 0;
out:
	idset_release(&set);
	return rc;
}

/* Point-to-point pairs: their senders are s's ranks, which d lacks
 * (merge_rows checked), so they are appended. */
static int merge_peers(struct profile *d, const struct profile *s)
{
	struct prof_mpi_peer *v = realloc(d->mpi_peers, ((size_t)d->nmpi_peers + s->nmpi_peers + 1) *
					  sizeof(*v));

	if (!v)
		return -1;
	d->mpi_peers = v;
	if (s->nmpi_peers)
		memcpy(v + d->nmpi_peers, s->mpi_peers, (size_t)s->nmpi_peers * sizeof(*v));
	d->nmpi_peers += s->nmpi_peers;
	return 0;
}

/* The paths of s's edges, appended after d's first edges (before s's were
 * appended), their nodes mapped through nmap. */
static int merge_edge_paths(struct profile *d, const struct profile *s, uint32_t first,
			    const uint32_t *nmap)
{
	struct prof_mpi_edge_path *v = realloc(d->mpi_edge_paths, ((size_t)d->nmpi_edge_paths +
						s->nmpi_edge_paths + 1) * sizeof(*v));

	if (!v)
		return -1;
	d->mpi_edge_paths = v;
	for (uint32_t i = 0; i < s->nmpi_edge_paths; i++) {
		v[d->nmpi_edge_paths] = s->mpi_edge_paths[i];
		v[d->nmpi_edge_paths].edge += first;
		v[d->nmpi_edge_paths++].node = nmap[s->mpi_edge_paths[i].node];
	}
	return 0;
}

/* Slots, site pairs and activity-graph edges, like the point-to-point
 * pairs, are of s's ranks: appended, their sites mapped through smap
 * (merge_sites), their paths' nodes through nmap (merge_tree). */
static int merge_waits(struct profile *d, const struct profile *s, const uint32_t *smap,
		       const uint32_t *nmap)
{
	uint32_t first = d->nmpi_edges;
	struct prof_mpi_slot *sl = realloc(d->mpi_slots, ((size_t)d->nmpi_slots + s->nmpi_slots + 1) *
					   sizeof(*sl));
	struct prof_mpi_pair *pr;
	struct prof_mpi_edge *ed;

	if (!sl)
		return -1;
	d->mpi_slots = sl;
	pr = realloc(d->mpi_pairs, ((size_t)d->nmpi_pairs + s->nmpi_pairs + 1) * sizeof(*pr));
	if (!pr)
		return -1;
	d->mpi_pairs = pr;
	ed = realloc(d->mpi_edges, ((size_t)d->nmpi_edges + s->nmpi_edges + 1) * sizeof(*ed));
	if (!ed)
		return -1;
	d->mpi_edges = ed;
	for (uint32_t i = 0; i < s->nmpi_slots; i++) {
		sl[d->nmpi_slots] = s->mpi_slots[i];
		sl[d->nmpi_slots++].site = smap[s->mpi_slots[i].site];
	}
	for (uint32_t i = 0; i < s->nmpi_pairs; i++) {
		pr[d->nmpi_pairs] = s->mpi_pairs[i];
		pr[d->nmpi_pairs++].site = smap[s->mpi_pairs[i].site];
	}
	for (uint32_t i = 0; i < s->nmpi_edges; i++) {
		ed[d->nmpi_edges] = s->mpi_edges[i];
		ed[d->nmpi_edges].from = smap[s->mpi_edges[i].from];
		ed[d->nmpi_edges++].to = smap[s->mpi_edges[i].to];
	}
	return merge_edge_paths(d, s, first, nmap);
}

static int merge_colls(struct profile *d, const struct profile *s)
{
	struct prof_mpi_coll *v = realloc(d->mpi_colls, ((size_t)d->nmpi_colls + s->nmpi_colls + 1) *
					  sizeof(*v));
	struct idset set = { 0 };
	int rc = -1;

	if (!v)
		return -1;
	d->mpi_colls = v;
	if (index_records(&set, d, d->nmpi_colls, prof_mpi_coll_dup))
		goto out;
	for (uint32_t i = 0; i < s->nmpi_colls; i++) {
		struct prof_mpi_coll *c = &v[d->nmpi_colls];
		uint32_t j;

		*c = s->mpi_colls[i];
		if (!(c->function = strdup(c->function ? c->function : "")))
			goto out;
		if ((j = prof_mpi_coll_dup(&set, d, d->nmpi_colls)) == d->nmpi_colls) {
			d->nmpi_colls++;
			continue;
		}
		free(c->function);
		if (j == UINT32_MAX)
			goto out;
		v[j].calls = sum_sat(v[j].calls, s->mpi_colls[i].calls);
		v[j].bytes = sum_sat(v[j].bytes, s->mpi_colls[i].bytes);
		v[j].time_ns = sum_sat(v[j].time_ns, s->mpi_colls[i].time_ns);
	}
	rc = 0;
out:
	idset_release(&set);
	return rc;
}

static int merge_functions(struct profile *d, const struct profile *s, const uint32_t *fmap)
{
	struct idset set = { 0 };
	uint32_t alloc = d->nfn_spread;
	int rc = fn_index(d, &set);

	for (uint32_t i = 0; i < s->nfn_spread && !rc; i++)
		rc = fn_add(d, &set, &alloc, fmap[s->fn_spread[i].frame], s->fn_spread[i].sum,
			    &s->fn_spread[i].s);
	idset_release(&set);
	return rc;
}

/* The counters of the job: sums, and the earliest start and latest end. */
static void merge_counters(struct profile *d, const struct profile *s)
{
	uint64_t *const to[] = { &d->samples, &d->lost, &d->throttled, &d->unwind_complete,
				 &d->unwind_truncated, &d->unwind_ns, &d->drain_cpu_ns, &d->cpu_ns,
				 &d->mpi_wall_ns, &d->mpi_cpu_ns, &d->checkpoints,
				 &d->checkpoint_ns };
	const uint64_t from[] = { s->samples, s->lost, s->throttled, s->unwind_complete,
				  s->unwind_truncated, s->unwind_ns, s->drain_cpu_ns, s->cpu_ns,
				  s->mpi_wall_ns, s->mpi_cpu_ns, s->checkpoints, s->checkpoint_ns };

	for (size_t i = 0; i < sizeof(from) / sizeof(from[0]); i++)
		*to[i] = sum_sat(*to[i], from[i]);
	if (s->start_ns < d->start_ns)
		d->start_ns = s->start_ns;
	if (s->end_ns > d->end_ns)
		d->end_ns = s->end_ns;
}

/* See profile.h.  The rows go first: a rank given twice stops the fold
 * before anything changed. */
int profile_merge(struct profile *d, const struct profile *s, char *err, size_t errlen)
{
	uint32_t *fmap, *smap, *nmap, bad;
	int rc;

	if (same_job(d, s, err, errlen) || merge_rows(d, s, err, errlen))
		return -1;
	fmap = malloc(((size_t)s->syms.nframes + 1) * sizeof(*fmap));
	smap = malloc(((size_t)s->nmpi_sites + 1) * sizeof(*smap));
	nmap = malloc(((size_t)s->tree.nnodes + 1) * sizeof(*nmap));
	if (!fmap || !smap || !nmap) {
		free(fmap);
		free(smap);
		free(nmap);
		return merge_oom(err, errlen);
	}
	rc = symtab_import(&d->syms, &s->syms, fmap, &bad) || merge_tree(d, s, fmap, nmap) ||
	     prof_act_merge(d, s, nmap) || merge_threads(d, s) || merge_sites(d, s, fmap, smap) || merge_peers(d, s) ||
	     merge_waits(d, s, smap, nmap) || merge_colls(d, s) || merge_functions(d, s, fmap);
	free(fmap);
	free(smap);
	free(nmap);
	if (rc)
		return merge_oom(err, errlen);
	merge_counters(d, s);
	return 0;
}

/* See profile-int.h. */
const char *prof_merged_check(const struct profile *p, char *why, size_t n)
{
	if (!p->merged) {
		bool any = p->mranks || p->node_spread || p->site_spread || p->nfn_spread ||
			   p->nkept;

		if (any)
			snprintf(why, n, "a rank's profile with merged records");
		return any ? why : NULL;
	}
	if (p->rank != -1 || p->cp_events || p->comp_on || p->clock_offset_ns || p->clock_drift_ns) {
		snprintf(why, n, "a merged profile has rank -1 and no critical path, "
			 "compensation or clock of its own");
		return why;
	}
	if (!p->mranks || (p->tree.nnodes && !p->node_spread) ||
	    (p->nmpi_sites && !p->site_spread)) {
		snprintf(why, n, "a merged profile without its rows or spreads");
		return why;
	}
	for (uint32_t i = 0; i < p->nmpi_slots; i++)
		if (!prof_rank_find(p, p->mpi_slots[i].rank)) {
			snprintf(why, n, "mpi_slot %u of rank %lld, not a merged rank",
				 p->mpi_slots[i].slot, (long long)p->mpi_slots[i].rank);
			return why;
		}
	for (uint32_t i = 0; i < p->nmpi_pairs; i++)
		if (!prof_rank_find(p, p->mpi_pairs[i].rank)) {
			snprintf(why, n, "mpi_pair %u of rank %lld, not a merged rank", i,
				 (long long)p->mpi_pairs[i].rank);
			return why;
		}
	for (uint32_t i = 0; i < p->nmpi_edges; i++)
		if (!prof_rank_find(p, p->mpi_edges[i].rank)) {
			snprintf(why, n, "mpi_edge %u of rank %lld, not a merged rank", i,
				 (long long)p->mpi_edges[i].rank);
			return why;
		}
	for (uint32_t i = 0; i < p->nfn_spread; i++)
		if (p->fn_spread[i].frame >= p->syms.nframes) {
			snprintf(why, n, "function spread %u has bad frame", i);
			return why;
		}
	for (uint32_t i = 0; i < p->nkept; i++)
		if (!prof_rank_find(p, p->kept[i].rank) || !p->kept[i].self ||
		    (i && p->kept[i].rank <= p->kept[i - 1].rank)) {
			snprintf(why, n, "kept tree of rank %lld: not a merged rank, or out of "
				 "order", (long long)p->kept[i].rank);
			return why;
		}
	return NULL;
}
