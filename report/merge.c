/*
 * merge.c - fold the profiles of an experiment into one.
 *
 * Each process wrote its own symbol table and call-path tree.  Merging
 * re-interns every module and frame of a profile into the merged symtab
 * (building an id map), then replays the profile's nodes in id order, which
 * visits parents before children, into the merged cct through the map.  One
 * pass per profile, so merging is linear in processes x tree size.  Events
 * are matched by name; per-process and per-thread sample totals are kept for
 * the "threads" view; MPI data is merged by merge-mpi.c with the same frame
 * map, its wait states by merge-waits.c with the map of its call sites,
 * and the critical-path data kept by merge-cp.c with the node map
 * (compensation.c keeps the samples of cpperf's runtime the same way,
 * spread.c each rank's self samples by frame, and merge-graph.c each
 * rank's activity graph with the map of its call sites).
 * After the last profile merge_finish demangles every
 * frame name once, so renderers never demangle per node.
 * Sums over the profiles are bounded (docs/format.md "Sums"): the tree's
 * samples are refused past 2^64 - 1, the header's counters saturate there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compensation.h"
#include "data.h"
#include "frame-names.h"
#include "merge-act.h"
#include "merge-cp.h"
#include "merge-graph.h"
#include "merge-mpi.h"
#include "merge-waits.h"
#include "merge.h"
#include "spread.h"
#include "../common/sum.h"

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory while merging profiles");
	return -1;
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

int merge_init(struct rep_data *d)
{
	memset(d, 0, sizeof(*d));
	symtab_init(&d->syms);
	d->argv_rank = INT64_MAX;
	d->argv_pid = INT64_MAX;
	return cct_init(&d->tree, 0);
}

static void free_strv(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void merge_release(struct rep_data *d)
{
	free(d->dir);
	free(d->run);
	for (uint32_t i = 0; i < d->nother_runs; i++)
		free(d->other_runs[i].id);
	free(d->other_runs);
	for (uint32_t i = 0; i < d->npartial; i++) {
		free(d->partial[i].host);
		free(d->partial[i].reason);
	}
	free(d->partial);
	rank_runs_release(&d->missing);
	free_strv(d->argv, d->argc);
	free(d->call_graph);
	for (uint32_t i = 0; i < d->nevents; i++)
		free(d->events[i].name);
	free(d->events);
	free(d->event_samples);
	for (uint32_t i = 0; i < d->nthreads; i++) {
		free(d->threads[i].host);
		free(d->threads[i].samples);
	}
	free(d->threads);
	free_strv(d->names, d->names ? d->syms.nframes : 0);
	symtab_release(&d->syms);
	cct_release(&d->tree);
	free(d->node_spread);
	mpi_merge_release(&d->mpi);
	waits_merge_release(&d->waits);
	cpath_merge_release(&d->cpath);
	comp_merge_release(&d->tool);
	spread_release(&d->spread);
	graph_merge_release(&d->graph);
	act_merge_release(&d->act);
	memset(d, 0, sizeof(*d));
}

/* Take the first profile's events as the merged list; the tree is re-made
 * with that many counts per node. */
static int adopt_events(struct rep_data *d, const struct profile *p,
			char *err, size_t errlen)
{
	d->events = calloc(p->nevents ? p->nevents : 1, sizeof(*d->events));
	if (!d->events)
		return oom(err, errlen);
	for (uint32_t i = 0; i < p->nevents; i++) {
		d->events[i].name = dup_or_empty(p->events[i].name);
		if (!d->events[i].name)
			return oom(err, errlen);
		d->events[i].period = p->events[i].period;
		d->events[i].freq = p->events[i].freq;
		d->nevents++;
	}
	cct_release(&d->tree);
	if (cct_init(&d->tree, d->nevents) < 0 ||
	    !(d->event_samples = calloc(d->nevents + 1, sizeof(*d->event_samples))))
		return oom(err, errlen);
	return 0;
}

/* Join the names of n events (structs whose first member is the name). */
static void join_names(char *buf, size_t len, const void *base, size_t stride,
		       uint32_t n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < n && at < len; i++) {
		const char *nm = *(char *const *)((const char *)base + i * stride);

		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "," : "", nm);
	}
}

/* Fill emap[i] with the merged index of p's event i. */
static int map_events(const struct rep_data *d, const struct profile *p,
		      const char *name, uint32_t *emap, char *err, size_t errlen)
{
	uint32_t i = 0;

	for (; p->nevents == d->nevents && i < p->nevents; i++) {
		uint32_t j = 0, k = 0;

		while (j < d->nevents && strcmp(d->events[j].name, p->events[i].name))
			j++;
		while (k < i && emap[k] != j)
			k++;
		if (j == d->nevents || k < i)
			break;	/* unknown, or the same event twice */
		emap[i] = j;
	}
	if (p->nevents == d->nevents && i == p->nevents)
		return 0;

	char mine[256], first[256];

	join_names(mine, sizeof(mine), p->events, sizeof(*p->events), p->nevents);
	join_names(first, sizeof(first), d->events, sizeof(*d->events), d->nevents);
	snprintf(err, errlen, "%s: recorded events (%s) differ from the other "
		 "profiles' (%s); report each experiment separately", name, mine, first);
	return -1;
}

/* Keep the command of the process with the lowest (rank, pid); non-MPI
 * processes (rank -1) sort first, which is harmless as they never mix. */
static int adopt_command(struct rep_data *d, const struct profile *p,
			 char *err, size_t errlen)
{
	if (p->rank > d->argv_rank || (p->rank == d->argv_rank && p->pid >= d->argv_pid))
		return 0;
	char **argv = calloc(p->argc + 1, sizeof(*argv));

	if (!argv)
		return oom(err, errlen);
	for (uint32_t i = 0; i < p->argc; i++)
		if (!(argv[i] = dup_or_empty(p->argv[i]))) {
			free_strv(argv, i);
			return oom(err, errlen);
		}
	char *cg = dup_or_empty(p->call_graph);

	if (!cg) {
		free_strv(argv, p->argc);
		return oom(err, errlen);
	}
	free_strv(d->argv, d->argc);
	free(d->call_graph);
	d->argv = argv;
	d->argc = p->argc;
	d->call_graph = cg;
	d->argv_rank = p->rank;
	d->argv_pid = p->pid;
	return 0;
}

static int add_threads(struct rep_data *d, const struct profile *p,
		       const uint32_t *emap, char *err, size_t errlen)
{
	if (d->nthreads + p->nthreads > d->threads_alloc) {
		uint32_t n = (d->nthreads + p->nthreads) * 2 + 4;
		struct rep_thread *t = realloc(d->threads, n * sizeof(*t));

		if (!t)
			return oom(err, errlen);
		d->threads = t;
		d->threads_alloc = n;
	}
	for (uint32_t i = 0; i < p->nthreads; i++) {
		struct rep_thread *t = &d->threads[d->nthreads];
		const struct prof_rank *row = p->merged ? prof_rank_find(p, p->threads[i].rank) : NULL;

		t->pid = row ? row->pid : p->pid;
		t->rank = p->merged ? p->threads[i].rank : p->rank;
		t->tid = p->threads[i].tid;
		t->host = dup_or_empty(row ? row->host : p->host);
		t->samples = calloc(d->nevents ? d->nevents : 1, sizeof(uint64_t));
		if (!t->host || !t->samples) {
			free(t->host);
			free(t->samples);
			return oom(err, errlen);
		}
		for (uint32_t e = 0; e < p->nevents; e++)
			t->samples[emap[e]] = p->threads[i].samples[e];
		if (p->act_on && (!d->act.on || d->act.event == emap[p->act_event]))
			memcpy(t->act, p->threads[i].act, sizeof(t->act));
		else
			memset(t->act, 0, sizeof(t->act));
		d->nthreads++;
	}
	return 0;
}

/* Build fmap[frame of p] = frame of d. */
static int map_frames(struct rep_data *d, const struct profile *p, const char *name,
		      uint32_t *fmap, char *err, size_t errlen)
{
	uint32_t bad = 0;
	int rc = symtab_import(&d->syms, &p->syms, fmap, &bad);

	if (rc == -2)
		snprintf(err, errlen, "%s: frame %u names module %u of %u", name, bad,
			 p->syms.frames[bad].module, p->syms.nmodules);
	return rc == -1 ? oom(err, errlen) : rc ? -1 : 0;
}

/* Replay p's tree into d's; nmap is scratch of p->tree.nnodes entries. */
static int replay_tree(struct rep_data *d, const struct profile *p, const char *name,
		       const uint32_t *fmap, const uint32_t *emap, uint32_t *nmap,
		       char *err, size_t errlen)
{
	const struct cct *t = &p->tree;

	for (uint32_t i = 0; i < t->nnodes; i++) {
		if (i == CCT_ROOT) {
			nmap[i] = CCT_ROOT;
		} else {
			uint32_t par = t->parent[i], fr = t->frame[i];

			if (par >= i || fr >= p->syms.nframes) {
				snprintf(err, errlen, "%s: call-path node %u has a bad "
					 "parent (%u) or frame (%u)", name, i, par, fr);
				return -1;
			}
			nmap[i] = cct_child(&d->tree, nmap[par], fmap[fr]);
			if (nmap[i] == CCT_NO_FRAME)
				return oom(err, errlen);
		}
		const uint64_t *src = cct_self(t, i);
		uint64_t *dst = cct_self(&d->tree, nmap[i]);

		for (uint32_t e = 0; e < p->nevents; e++)
			dst[emap[e]] += src[e];
	}
	return 0;
}

/* Fold p's nodes (nmap) into the spread of each node over the ranks: a
 * rank's counts, or a merged profile's spreads. */
static int add_node_spread(struct rep_data *d, const struct profile *p, const uint32_t *nmap,
			   const uint32_t *emap, char *err, size_t errlen)
{
	size_t have = d->node_spread ? d->node_spread_n : 0, want;
	struct prof_spread *sp;

	if (p->rank < 0 && !p->merged)
		return 0;	/* not a rank */
	want = (size_t)d->tree.nnodes * d->nevents;
	if (want > have) {
		if (!(sp = realloc(d->node_spread, (want + 1) * sizeof(*sp))))
			return oom(err, errlen);
		memset(sp + have, 0, (want - have) * sizeof(*sp));
		d->node_spread = sp;
		d->node_spread_n = want;
	}
	for (uint32_t i = 0; i < p->tree.nnodes; i++)
		for (uint32_t e = 0; e < p->nevents; e++) {
			struct prof_spread one = prof_spread_one(cct_self(&p->tree, i)[e], p->rank);

			prof_spread_add(&d->node_spread[(size_t)nmap[i] * d->nevents + emap[e]],
					p->merged ? &p->node_spread[(size_t)i * p->nevents + e] : &one);
		}
	return 0;
}

/* See merge.h. */
int merge_prepare(const struct profile *p, struct cpath_prep **prep, char *err, size_t errlen)
{
	struct cpath_prep *cp;

	*prep = NULL;
	if (p->cp_events == 0)
		return 0;
	if (!(cp = malloc(sizeof(*cp))))
		return oom(err, errlen);
	if (cpath_prepare(p, cp, err, errlen) < 0) {
		free(cp);
		return -1;
	}
	*prep = cp;
	return 0;
}

void merge_prepared_free(struct cpath_prep *prep)
{
	if (prep)
		cpath_prep_release(prep);
	free(prep);
}

int merge_add(struct rep_data *d, const struct profile *p, struct cpath_prep *prep,
	      const char *name, char *err, size_t errlen)
{
	if (p->tree.nevents != p->nevents) {
		snprintf(err, errlen, "%s: the tree has %u counts per node for %u events",
			 name, p->tree.nevents, p->nevents);
		return -1;
	}
	if (d->nprocs == 0 && adopt_events(d, p, err, errlen) < 0)
		return -1;

	uint32_t *emap = malloc((p->nevents + 1) * sizeof(*emap));
	uint32_t *fmap = malloc(((size_t)p->syms.nframes + 1) * sizeof(*fmap));
	uint32_t *nmap = malloc(((size_t)p->tree.nnodes + 1) * sizeof(*nmap));
	uint32_t *smap = malloc(((size_t)p->nmpi_sites + 1) * sizeof(*smap));
	int rc = -1;

	if (!emap || !fmap || !nmap || !smap)
		oom(err, errlen);
	else if (map_events(d, p, name, emap, err, errlen) == 0 &&
		 adopt_command(d, p, err, errlen) == 0 &&
		 add_threads(d, p, emap, err, errlen) == 0 &&
		 map_frames(d, p, name, fmap, err, errlen) == 0 &&
		 prof_count_samples(p, emap, d->event_samples, name, err, errlen) == 0 &&
		 replay_tree(d, p, name, fmap, emap, nmap, err, errlen) == 0 &&
		 act_merge_add(d, p, nmap, emap, err, errlen) == 0 &&
		 add_node_spread(d, p, nmap, emap, err, errlen) == 0 &&
		 mpi_merge_add(&d->mpi, p, fmap, smap, name, err, errlen) == 0 &&
		 waits_merge_add(&d->waits, p, smap, name, err, errlen) == 0 &&
		 cpath_merge_add(&d->cpath, p, prep, nmap, emap, d->nevents, name, err,
				 errlen) == 0 &&
		 comp_merge_add(d, p, nmap, emap, err, errlen) == 0 &&
		 graph_merge_add(&d->graph, p, smap, nmap, err, errlen) == 0) {
		rc = spread_add(&d->spread, p, name, fmap, emap);
		if (rc < 0)
			oom(err, errlen);
	}
	free(emap);
	free(fmap);
	free(nmap);
	free(smap);
	merge_prepared_free(prep);	/* emptied of what the critical path took */
	if (rc == 0) {
		d->nprocs += p->merged ? (uint32_t)p->merged : 1;
		d->merged_ranks += p->merged;
		d->samples = sum_sat(d->samples, p->samples);
		d->lost = sum_sat(d->lost, p->lost);
		d->throttled = sum_sat(d->throttled, p->throttled);
		d->unwind_complete = sum_sat(d->unwind_complete, p->unwind_complete);
		d->unwind_truncated = sum_sat(d->unwind_truncated, p->unwind_truncated);
		d->unwind_ns = sum_sat(d->unwind_ns, p->unwind_ns);
		d->drain_cpu_ns = sum_sat(d->drain_cpu_ns, p->drain_cpu_ns);
		d->checkpoints = sum_sat(d->checkpoints, p->checkpoints);
		d->checkpoint_ns = sum_sat(d->checkpoint_ns, p->checkpoint_ns);
	}
	return rc;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct rep_thread *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return strcmp(x->host, y->host);
}

int merge_finish(struct rep_data *d, char *err, size_t errlen)
{
	if (d->nthreads > 1)
		qsort(d->threads, d->nthreads, sizeof(*d->threads), cmp_thread);
	mpi_merge_finish(&d->mpi);
	if (waits_merge_finish(&d->waits, &d->mpi, err, errlen) < 0)
		return -1;
	cpath_merge_finish(&d->cpath);
	if (rep_name_frames(d, err, errlen) < 0)
		return -1;
	return graph_merge_finish(&d->graph, &d->mpi, &d->waits, err, errlen);
}

int rep_event_index(const struct rep_data *d, const char *name,
		    char *err, size_t errlen)
{
	size_t at;

	for (uint32_t i = 0; i < d->nevents; i++)
		if (!strcmp(d->events[i].name, name))
			return (int)i;
	at = (size_t)snprintf(err, errlen, "--event: '%s' was not recorded in this "
			      "experiment; events present:", name);
	for (uint32_t i = 0; i < d->nevents && at < errlen; i++)
		at += (size_t)snprintf(err + at, errlen - at, "%s %s", i ? "," : "",
				       d->events[i].name);
	return -1;
}
