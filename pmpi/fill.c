/*
 * fill.c - the statistics tables into the profile, at a checkpoint and at
 * the end of the run.
 * Sites carry the call path the drain thread found for them (callpath.c);
 * a site whose path could not be captured is resolved here from its
 * return address alone (the function and its inline chain at the call).
 * Sites with the same frames (two keys of one path, e.g. two calls on one
 * line) are merged, as the profile keeps one site per (function, call
 * path).
 */
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "init.h"
#include "critpath.h"
#include "compensate.h"
#include "stats.h"

#define MAX_FRAMES 64

static int site_cmp(const void *a, const void *b)
{
	const struct prof_mpi_site *x = a, *y = b;
	int c = strcmp(x->function, y->function);

	if (c)
		return c;
	if (x->nframes != y->nframes)
		return x->nframes < y->nframes ? -1 : 1;
	return memcmp(x->frames, y->frames, x->nframes * sizeof(*x->frames));
}

static void merge_into(struct prof_mpi_site *d, struct prof_mpi_site *s)
{
	d->calls += s->calls;
	d->bytes_sent += s->bytes_sent;
	d->bytes_recv += s->bytes_recv;
	d->time_ns += s->time_ns;
	d->blocked_ns += s->blocked_ns;
	for (int i = 0; i < PROF_MPI_HIST; i++)
		d->hist[i] += s->hist[i];
	free(s->function);
	free(s->frames);
}

/* One profile site from a table site and its counts; false when memory is
 * short. */
static bool make_site(struct rt_state *rt, const struct pmpi_site *s, const struct pmpi_counts *n,
		      struct prof_mpi_site *d)
{
	uint32_t one[MAX_FRAMES];
	const uint32_t *frames = s->frames ? s->frames : one;
	int nf = s->frames ? (int)s->nframes :
		 rt->sym ? sym_resolve(rt->sym, (uint64_t)(uintptr_t)s->ra - 1, one, MAX_FRAMES) : 0;

	memset(d, 0, sizeof(*d));
	d->function = strdup(pmpi_fn_names[s->fn]);
	d->frames = malloc((nf > 0 ? (size_t)nf : 1) * sizeof(uint32_t));
	if (!d->function || !d->frames) {
		free(d->function);
		free(d->frames);
		return false;
	}
	memcpy(d->frames, frames, (size_t)(nf > 0 ? nf : 0) * sizeof(uint32_t));
	d->nframes = nf > 0 ? (uint32_t)nf : 0;
	d->calls = n->calls;
	d->bytes_sent = n->sent;
	d->bytes_recv = n->recv;
	d->time_ns = n->time_ns;
	d->blocked_ns = n->blocked_ns;
	memcpy(d->hist, n->hist, sizeof(d->hist));
	return true;
}

static void fill_sites(struct rt_state *rt, struct profile *p, const struct pmpi_totals *t)
{
	uint32_t n = 0, k = 0;

	for (unsigned j = 0; j < pmpi_nsites_taken; j++)
		n += t->sites[pmpi_sites_taken[j]].calls > 0;
	if (!n || !(p->mpi_sites = calloc(n, sizeof(*p->mpi_sites))))
		return;
	for (unsigned j = 0; j < pmpi_nsites_taken; j++) {
		int i = pmpi_sites_taken[j];

		if (t->sites[i].calls && make_site(rt, &pmpi_sites[i], &t->sites[i], &p->mpi_sites[k]))
			k++;
	}
	qsort(p->mpi_sites, k, sizeof(*p->mpi_sites), site_cmp);
	p->nmpi_sites = 0;
	for (uint32_t i = 0; i < k; i++) {
		struct prof_mpi_site *last = p->nmpi_sites ? &p->mpi_sites[p->nmpi_sites - 1] : NULL;

		if (last && !site_cmp(last, &p->mpi_sites[i]))
			merge_into(last, &p->mpi_sites[i]);
		else
			p->mpi_sites[p->nmpi_sites++] = p->mpi_sites[i];
	}
}

static void fill_peers(struct profile *p, const struct pmpi_totals *t)
{
	uint32_t n = 0;

	for (int r = 0; r < pmpi_world_size; r++)
		n += t->peer_count[r] > 0;
	if (!n || !(p->mpi_peers = calloc(n, sizeof(*p->mpi_peers))))
		return;
	for (int r = 0; r < pmpi_world_size; r++)
		if (t->peer_count[r]) {
			struct prof_mpi_peer *d = &p->mpi_peers[p->nmpi_peers++];

			d->peer = r;
			d->count = t->peer_count[r];
			d->bytes = t->peer_bytes[r];
		}
}

static void fill_colls(struct profile *p, const struct pmpi_totals *t)
{
	uint32_t n = 0;

	for (int i = 0; i < PMPI_COLLS; i++)
		n += pmpi_colls[i].used && t->colls[i].calls;
	if (!n || !(p->mpi_colls = calloc(n, sizeof(*p->mpi_colls))))
		return;
	for (int i = 0; i < PMPI_COLLS; i++) {
		const struct pmpi_coll *x = &pmpi_colls[i];
		const struct pmpi_coll_counts *c = &t->colls[i];
		struct prof_mpi_coll *d = &p->mpi_colls[p->nmpi_colls];

		if (!x->used || !c->calls || !(d->function = strdup(pmpi_fn_names[x->fn])))
			continue;
		d->comm_size = x->comm_size;
		d->calls = c->calls;
		d->bytes = c->bytes;
		d->time_ns = c->time_ns;
		p->nmpi_colls++;
	}
}

/* Called when the profile is written (checkpoint.c): after sampling
 * stopped for the final profile, on the drain thread for a checkpoint;
 * the symbol session is open.  Only processes that ran MPI_Init have
 * anything to add.  The critical path and compensation are handed over
 * once, to the final profile. */
void pmpi_fill_profile(struct rt_state *rt, bool final)
{
	struct profile *p = &rt->prof;
	struct pmpi_totals t;
	bool finalized;

	if (p->rank < 0)
		return;
	if (rt->sym)
		pmpi_resolve_paths(rt);	/* captured after the drain thread's last round */
	rt_lock(&pmpi_stats_lock);
	if (pmpi_stats_total(&t)) {
		fill_sites(rt, p, &t);
		fill_peers(p, &t);
		fill_colls(p, &t);
		pmpi_totals_free(&t);
	}
	rt_unlock(&pmpi_stats_lock);
	finalized = pmpi_region_fill(p);
	if (!final)
		return;
	pmpi_cp_fill(rt);
	pmpi_comp_fill(rt);
	if (!finalized && !p->partial)
		p->partial = strdup("exit without MPI_Finalize");
}
