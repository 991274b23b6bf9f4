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
#include "waits.h"
#include "graph.h"

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
	d->main_calls += s->main_calls;
	d->threads = d->threads > s->threads ? d->threads : s->threads;
	d->bytes_sent += s->bytes_sent;
	d->bytes_recv += s->bytes_recv;
	d->time_ns += s->time_ns;
	d->blocked_ns += s->blocked_ns;
	for (int i = 0; i < PROF_MPI_HIST; i++)
		d->hist[i] += s->hist[i];
	for (int i = 0; i < PROF_WAITS; i++) {
		d->waits.ns[i] += s->waits.ns[i];
		d->waits.comp_ns[i] += s->waits.comp_ns[i];
	}
	free(s->function);
	free(s->frames);
}

/* A site's wait states: those of wrong order were counted as Late Sender
 * too (found later, by the next message), and are apart in the profile. */
static void copy_waits(struct prof_mpi_waits *w, const struct pmpi_counts *n)
{
	const unsigned ls = PROF_WAIT_late_sender, wo = PROF_WAIT_late_sender_wrong_order;

	memcpy(w->ns, n->wait, sizeof(w->ns));
	memcpy(w->comp_ns, n->wait_comp, sizeof(w->comp_ns));
	w->ns[ls] -= w->ns[wo] < w->ns[ls] ? w->ns[wo] : w->ns[ls];
	w->comp_ns[ls] -= w->comp_ns[wo] < w->comp_ns[ls] ? w->comp_ns[wo] : w->comp_ns[ls];
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
	d->threads = n->threads;
	d->main_calls = n->main_calls;
	d->bytes_sent = n->sent;
	d->bytes_recv = n->recv;
	d->time_ns = n->time_ns;
	d->blocked_ns = n->blocked_ns;
	memcpy(d->hist, n->hist, sizeof(d->hist));
	copy_waits(&d->waits, n);
	return true;
}

static int made_cmp(const void *a, const void *b, void *sites)
{
	const struct prof_mpi_site *m = sites;

	return site_cmp(&m[*(const uint32_t *)a], &m[*(const uint32_t *)b]);
}

/* The sites with calls, sorted and those of one call path merged; the
 * profile site of each slot of the table into site_of. */
static void fill_sites(struct rt_state *rt, struct profile *p, const struct pmpi_totals *t,
		       uint32_t *site_of)
{
	uint32_t n = 0, k = 0, *slot, *ord;
	struct prof_mpi_site *made;

	for (unsigned j = 0; j < pmpi_nsites_taken; j++)
		n += t->sites[pmpi_sites_taken[j]].calls > 0;
	made = n ? calloc(n, sizeof(*made)) : NULL;
	slot = made ? malloc(2 * (size_t)n * sizeof(*slot)) : NULL;
	if (!slot || !(p->mpi_sites = calloc(n, sizeof(*p->mpi_sites)))) {
		free(made);
		free(slot);
		return;
	}
	ord = slot + n;
	for (unsigned j = 0; j < pmpi_nsites_taken; j++) {
		int i = pmpi_sites_taken[j];

		if (t->sites[i].calls && make_site(rt, &pmpi_sites[i], &t->sites[i], &made[k])) {
			slot[k] = (uint32_t)i;
			ord[k] = k;
			k++;
		}
	}
	qsort_r(ord, k, sizeof(*ord), made_cmp, made);
	p->nmpi_sites = 0;
	for (uint32_t i = 0; i < k; i++) {
		struct prof_mpi_site *last = p->nmpi_sites ? &p->mpi_sites[p->nmpi_sites - 1] : NULL;

		if (last && !site_cmp(last, &made[ord[i]]))
			merge_into(last, &made[ord[i]]);
		else
			p->mpi_sites[p->nmpi_sites++] = made[ord[i]];
		site_of[slot[ord[i]]] = p->nmpi_sites - 1;
	}
	free(made);
	free(slot);
}

static void fill_peers(struct profile *p, const struct pmpi_totals *t)
{
	uint32_t n = 0;

	for (int r = 0; r < t->npeers; r++)
		n += t->peer_count[r] > 0;
	if (!n || !(p->mpi_peers = calloc(n, sizeof(*p->mpi_peers))))
		return;
	for (int r = 0; r < t->npeers; r++)
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
	static uint32_t site_of[PMPI_SITES];	/* under pmpi_stats_lock */
	struct profile *p = &rt->prof;
	struct pmpi_totals t;
	bool finalized;

	if (p->rank < 0)
		return;
	if (rt->sym)
		pmpi_resolve_paths(rt);	/* captured after the drain thread's last round */
	rt_lock(&pmpi_stats_lock);
	if (pmpi_stats_total(&t)) {
		memset(site_of, 0xff, sizeof(site_of));
		fill_sites(rt, p, &t, site_of);
		if (pmpi_waits_on) {
			pmpi_waits_fill(p, site_of, final);
			pmpi_graph_fill(p, site_of, final);
		}
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
