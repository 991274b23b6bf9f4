/*
 * compensation.c - overhead compensation in the report (--compensate,
 * --view=compensation; docs/report.md; after Malony, Shende, Morris, Wolf).
 *
 * The runtime measures, per MPI rank with the piggyback on, its overhead o
 * (by source), its final delay x and its waits W and W' (profile.h).  The
 * report derives from them the compensated walls (parallel: wall - x;
 * local: wall - o) and, for the flat and call-path profiles, removes the
 * tool's own time where it was spent: the samples whose leaf frame lies in
 * cpperf's runtime (a module whose basename starts with "libcpperf"), which
 * is where injected busy time and wrapper work land.  Those samples are
 * collected while merging, per profile with compensation data, as (merged
 * node, counts) entries, so a rank without compensation data keeps all of
 * its samples; rendering subtracts them from a copy of the tree's counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "../common/sum.h"

static int comp_oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory while applying overhead compensation");
	return -1;
}

/* Append node with p's self counts of node i (mapped through emap). */
static int tool_add(struct rep_tool *t, uint32_t nevents, uint32_t node,
		    const uint64_t *self, const uint32_t *emap, uint32_t pevents)
{
	if (t->n == t->alloc) {
		uint32_t n = t->alloc ? t->alloc * 2 : 16;
		uint32_t *nodes;
		uint64_t *counts;

		if (t->alloc > UINT32_MAX / 4)
			return -1;
		nodes = realloc(t->nodes, n * sizeof(*nodes));
		if (!nodes)
			return -1;
		t->nodes = nodes;
		counts = realloc(t->counts, (size_t)n * (nevents ? nevents : 1) * sizeof(*counts));
		if (!counts)
			return -1;
		t->counts = counts;
		t->alloc = n;
	}
	uint64_t *c = t->counts + (size_t)t->n * nevents;

	memset(c, 0, nevents * sizeof(*c));
	for (uint32_t e = 0; e < pevents; e++)
		c[emap[e]] = self[e];
	t->nodes[t->n++] = node;
	return 0;
}

int comp_merge_add(struct rep_data *d, const struct profile *p, const uint32_t *nmap,
		   const uint32_t *emap, char *err, size_t errlen)
{
	const struct cct *t = &p->tree;
	bool on = p->comp_on;

	/* a merged profile's ranks share their options: one with compensation
	 * data says they all have it */
	for (uint64_t i = 0; i < p->merged; i++)
		on |= p->mranks[i].comp_on != 0;
	if (!on)
		return 0;
	for (uint32_t i = 1; i < t->nnodes; i++) {
		const uint64_t *self = cct_self(t, i);
		uint32_t e = 0;

		while (e < p->nevents && self[e] == 0)
			e++;
		/* Frames were checked by replay_tree. */
		if (e == p->nevents ||
		    !symtab_runtime_module(&p->syms, p->syms.frames[t->frame[i]].module))
			continue;
		if (tool_add(&d->tool, d->nevents, nmap[i], self, emap, p->nevents) < 0)
			return comp_oom(err, errlen);
	}
	return 0;
}

void comp_merge_release(struct rep_tool *t)
{
	free(t->nodes);
	free(t->counts);
	memset(t, 0, sizeof(*t));
}

const char *comp_mode_name(enum rep_comp m)
{
	return m == REP_COMP_NONE ? "none" : m == REP_COMP_LOCAL ? "local" : "parallel";
}

bool comp_present(const struct rep_data *d)
{
	for (uint32_t i = 0; i < d->mpi.nranks; i++)
		if (d->mpi.ranks[i].comp_on)
			return true;
	return false;
}

uint64_t comp_overhead_ns(const struct prof_overhead *o)
{
	uint64_t ns = 0;

#define OVH_ADD(name, count, cost, how) ns = sum_sat(ns, o->name##_ns);
	PROF_OVH_SOURCES(OVH_ADD)
#undef OVH_ADD
	return ns;
}

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

uint64_t comp_wall_parallel_ns(const struct rep_rank *r)
{
	return minus(r->comp_wall_ns, r->comp_delay_ns);
}

uint64_t comp_wall_local_ns(const struct rep_rank *r)
{
	return minus(r->comp_wall_ns, comp_overhead_ns(&r->ovh));
}

uint64_t comp_rank_wall_ns(const struct rep_rank *r, enum rep_comp m)
{
	if (!r->comp_on || m == REP_COMP_NONE)
		return r->wall_ns;
	return m == REP_COMP_LOCAL ? comp_wall_local_ns(r) : comp_wall_parallel_ns(r);
}

bool comp_cp_length_ns(const struct rep_data *d, const struct cpath_result *r, enum rep_comp m,
		       uint64_t *ns)
{
	for (uint32_t i = 0; r && m != REP_COMP_NONE && i < d->mpi.nranks; i++) {
		const struct rep_rank *k = &d->mpi.ranks[i];

		if (k->rank != r->end_rank || !k->comp_on)
			continue;
		/* the path runs from MPI_Init's exit to the end rank's last
		 * event, which came as much later than without measurement */
		*ns = minus(r->length_ns, m == REP_COMP_LOCAL ? comp_overhead_ns(&k->ovh) :
			    k->comp_delay_ns);
		return true;
	}
	return false;
}

uint64_t comp_rank_blocked_ns(const struct rep_rank *r, enum rep_comp m)
{
	if (!r->comp_on || m != REP_COMP_PARALLEL)
		return r->blocked_ns;
	return r->comp_wait_comp_ns;
}

int comp_tree_build(struct comp_tree *t, const struct rep_data *d, enum rep_comp m,
		    char *err, size_t errlen)
{
	const struct cct *src = &d->tree;
	uint32_t nev = d->nevents;

	memset(t, 0, sizeof(*t));
	if (m == REP_COMP_NONE || d->tool.n == 0)
		return 0;
	t->self = malloc(((size_t)src->nnodes * nev + 1) * sizeof(*t->self));
	t->removed = calloc((size_t)nev + 1, sizeof(*t->removed));
	if (!t->self || !t->removed) {
		comp_tree_release(t);
		return comp_oom(err, errlen);
	}
	memcpy(t->self, src->self, (size_t)src->nnodes * nev * sizeof(*t->self));
	for (uint32_t i = 0; i < d->tool.n; i++) {
		uint64_t *self = t->self + (size_t)d->tool.nodes[i] * nev;
		const uint64_t *c = d->tool.counts + (size_t)i * nev;

		for (uint32_t e = 0; e < nev; e++) {
			uint64_t k = c[e] < self[e] ? c[e] : self[e];

			self[e] -= k;
			t->removed[e] += k;
		}
	}
	t->tree = *src;
	t->tree.self = t->self;
	return 1;
}

void comp_tree_release(struct comp_tree *t)
{
	free(t->self);
	free(t->removed);
	memset(t, 0, sizeof(*t));
}
