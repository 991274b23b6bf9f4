/*
 * profile-kept.c - the ranks whose own call-path trees a merged profile
 * keeps (struct prof_kept in profile.h; docs/format.md "Merged profiles").
 *
 * A rank's profile made a merged profile keeps its own tree; folding two
 * merged profiles keeps the union of their kept trees, re-keyed to the
 * folded tree, and drops those the rule no longer keeps.  The rule picks
 * by the rows (rank 0, the most and the least computation), which every
 * merged profile has for all its ranks, so whatever the order of the
 * folds the ranks kept at the end are those of the whole job.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "order.h"
#include "profile-int.h"

/* See profile.h. */
const struct prof_rank *prof_rank_find(const struct profile *p, int64_t r)
{
	size_t i = order_lower_i64(p->mranks, p->merged, sizeof(*p->mranks),
				   offsetof(struct prof_rank, rank), r);

	return i < p->merged && p->mranks[i].rank == r ? &p->mranks[i] : NULL;
}

/* See profile-int.h. */
int prof_kept_start(struct profile *p, int64_t rank)
{
	size_t cells = (size_t)p->tree.nnodes * p->nevents;

	if (!(p->kept = calloc(1, sizeof(*p->kept))) ||
	    !(p->kept[0].self = malloc((cells ? cells : 1) * sizeof(uint64_t))))
		return -1;
	memcpy(p->kept[0].self, p->tree.self, cells * sizeof(uint64_t));
	p->kept[0].rank = rank;
	p->nkept = 1;
	return 0;
}

/* Computation of rank r in p: its MPI region less its time in MPI. */
static uint64_t computing(const struct profile *p, int64_t r)
{
	const struct prof_rank *row = prof_rank_find(p, r);

	return row && row->mpi_wall_ns > row->mpi_ns ? row->mpi_wall_ns - row->mpi_ns : 0;
}

/* Whether rank a goes before rank b among those that compute most (more)
 * or least (!more): the lower rank on a tie. */
static bool computes_before(const struct profile *p, int64_t a, int64_t b, bool more)
{
	uint64_t ca = computing(p, a), cb = computing(p, b);

	return ca != cb ? (more ? ca > cb : ca < cb) : a < b;
}

/* Keep, of the n trees of v (by rank), those the rule keeps in a job of
 * p->size ranks (profile.h); free the others.  Returns how many are kept,
 * moved to the front in rank order. */
static uint32_t keep_by_rule(const struct profile *p, struct prof_kept *v, uint32_t n)
{
	uint32_t most = 0, least = 0, k = 0;

	if (p->size <= PROF_KEEP_ALL)
		return n;
	for (uint32_t i = 1; i < n; i++) {
		if (computes_before(p, v[i].rank, v[most].rank, true))
			most = i;
		if (computes_before(p, v[i].rank, v[least].rank, false))
			least = i;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (v[i].rank == 0 || i == most || i == least)
			v[k++] = v[i];
		else
			free(v[i].self);
	}
	return k;
}

/* d's kept trees grown to d's tree of nnodes (new nodes count 0). */
static int grow_kept(struct profile *d, uint32_t old_nnodes)
{
	size_t cells = (size_t)d->tree.nnodes * d->nevents, old = (size_t)old_nnodes * d->nevents;

	for (uint32_t i = 0; i < d->nkept; i++) {
		uint64_t *v = realloc(d->kept[i].self, (cells ? cells : 1) * sizeof(*v));

		if (!v)
			return -1;
		memset(v + old, 0, (cells - old) * sizeof(*v));
		d->kept[i].self = v;
	}
	return 0;
}

/* Tree k of s re-keyed through nmap to d's tree, into *out. */
static int rekey(const struct profile *d, const struct profile *s, const struct prof_kept *k,
		 const uint32_t *nmap, struct prof_kept *out)
{
	size_t cells = (size_t)d->tree.nnodes * d->nevents;
	uint32_t nev = d->nevents;

	out->rank = k->rank;
	if (!(out->self = calloc(cells ? cells : 1, sizeof(uint64_t))))
		return -1;
	for (uint32_t id = 0; id < s->tree.nnodes; id++)
		for (uint32_t e = 0; e < nev; e++)
			out->self[(size_t)nmap[id] * nev + e] += k->self[(size_t)id * nev + e];
	return 0;
}

static int cmp_kept(const void *a, const void *b)
{
	const struct prof_kept *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* See profile-int.h. */
int prof_kept_merge(struct profile *d, const struct profile *s, const uint32_t *nmap,
		    uint32_t old_nnodes)
{
	uint32_t n = d->nkept;
	struct prof_kept *v;

	if (grow_kept(d, old_nnodes) < 0 ||
	    !(v = realloc(d->kept, ((size_t)n + s->nkept + 1) * sizeof(*v))))
		return -1;
	d->kept = v;
	for (uint32_t i = 0; i < s->nkept; i++, n++)
		if (rekey(d, s, &s->kept[i], nmap, &v[n]) < 0) {
			d->nkept = n;
			return -1;
		}
	qsort(v, n, sizeof(*v), cmp_kept);
	d->nkept = keep_by_rule(d, v, n);
	return 0;
}

/* Copy m's events into p. */
static int copy_events(struct profile *p, const struct profile *m)
{
	if (!(p->events = calloc(m->nevents ? m->nevents : 1, sizeof(*p->events))))
		return -1;
	for (uint32_t e = 0; e < m->nevents; e++, p->nevents++) {
		p->events[e] = m->events[e];
		if (!(p->events[e].name = strdup(m->events[e].name ? m->events[e].name : "")))
			return -1;
	}
	return 0;
}

/* The nodes of m's tree on which kept tree k has samples, with their
 * ancestors, replayed into p's tree through fmap. */
static int copy_tree(struct profile *p, const struct profile *m, const struct prof_kept *k,
		     const uint32_t *fmap)
{
	const struct cct *t = &m->tree;
	uint32_t *nmap = malloc(((size_t)t->nnodes + 1) * sizeof(*nmap));
	int rc = 0;

	if (!nmap || cct_init(&p->tree, m->nevents) < 0) {
		free(nmap);
		return -1;
	}
	for (uint32_t id = 0; id < t->nnodes; id++) {	/* 1: has samples */
		nmap[id] = 0;
		for (uint32_t e = 0; e < m->nevents; e++)
			nmap[id] |= k->self[(size_t)id * m->nevents + e] != 0;
	}
	for (uint32_t id = t->nnodes; id-- > 1;)	/* children come after parents */
		nmap[t->parent[id]] |= nmap[id];
	nmap[CCT_ROOT] = CCT_ROOT;
	for (uint32_t id = 1; id < t->nnodes && rc == 0; id++) {
		if (!nmap[id]) {
			nmap[id] = CCT_NO_FRAME;
			continue;
		}
		nmap[id] = cct_child(&p->tree, nmap[t->parent[id]], fmap[t->frame[id]]);
		if (nmap[id] == CCT_NO_FRAME)
			rc = -1;
		else
			memcpy(cct_self(&p->tree, nmap[id]), k->self + (size_t)id * m->nevents,
			       m->nevents * sizeof(uint64_t));
	}
	if (rc == 0)
		memcpy(cct_self(&p->tree, CCT_ROOT), k->self, m->nevents * sizeof(uint64_t));
	free(nmap);
	return rc;
}

/* p's identity and times from the row of the rank it is. */
static int copy_row(struct profile *p, const struct profile *m, const struct prof_rank *r)
{
	p->rank = r->rank;
	p->size = m->size;
	p->pid = r->pid;
	p->start_ns = r->start_ns;
	p->end_ns = r->end_ns;
	p->cpu_ns = r->cpu_ns;
	p->mpi_wall_ns = r->mpi_wall_ns;
	p->mpi_cpu_ns = r->mpi_cpu_ns;
	p->comp_on = r->comp_on;
	p->ovh = r->ovh;
	p->comp_wall_ns = r->comp_wall_ns;
	p->comp_delay_ns = r->comp_delay_ns;
	p->comp_wait_ns = r->comp_wait_ns;
	p->comp_wait_comp_ns = r->comp_wait_comp_ns;
	return (p->host = strdup(r->host ? r->host : "")) && (!m->run || (p->run = strdup(m->run)))
	       ? 0 : -1;
}

/* See profile.h. */
int profile_kept_rank(const struct profile *m, uint32_t k, struct profile *out)
{
	const struct prof_rank *r = k < m->nkept ? prof_rank_find(m, m->kept[k].rank) : NULL;
	uint32_t *fmap = malloc(((size_t)m->syms.nframes + 1) * sizeof(*fmap)), bad;
	int rc;

	profile_init(out);
	rc = !fmap || !r || symtab_import(&out->syms, &m->syms, fmap, &bad) ||
	     copy_events(out, m) || copy_tree(out, m, &m->kept[k], fmap) || copy_row(out, m, r);
	free(fmap);
	if (rc)
		profile_release(out);
	return rc ? -1 : 0;
}
