/*
 * merge-cp.c - keep, per rank, what the critical-path walk needs.
 *
 * The report merges profiles one at a time and drops each after merging,
 * but the walk (cpath.c) follows links across ranks, so it can only run
 * once every rank is in.  This keeps, per rank that computed a path, its
 * links, its lengths, and its segment samples with node ids re-keyed to the
 * merged tree (through the same node map merge.c builds) and counts in the
 * merged event order: O(links + segments) per rank.  The --cp-trace records
 * (segment lengths, every dependency) are kept when present, for
 * --reference.  With zeroing, each rank's N_f and S_f are kept, and the
 * selections of all ranks that started are matched by index into one (a
 * rank that never sampled f knows only its hash, "#<hex>", which matches
 * any name); the monitor rank's series of lengths is kept as it is.
 * Everything is validated here, once, against the rank's own numbers, so
 * the walk only has to check what spans ranks; the segments' samples of
 * all ranks must sum to at most 2^64 - 1, so no sum over the path wraps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data.h"
#include "merge-cp.h"
#include "../common/sum.h"

static int cm_oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory while merging critical-path data");
	return -1;
}

static void rank_release(struct rep_cp_rank *r)
{
	link_pack_release(&r->links);
	free(r->segs);
	free(r->counts);
	free(r->seg_ns);
	free(r->edges);
	free(r->fn_net);
	free(r->fn_share);
	free(r->prefix_nodes);
	free(r->prefix_counts);
	memset(r, 0, sizeof(*r));
}

void cpath_merge_release(struct rep_cpath *c)
{
	for (uint32_t i = 0; i < c->nranks; i++)
		rank_release(&c->ranks[i]);
	free(c->ranks);
	for (uint32_t i = 0; i < PROF_CP_FNS; i++)	/* set past nfns on a failed merge */
		free(c->fn_names[i]);
	free(c->points);
	free(c->samples);
	memset(c, 0, sizeof(*c));
}

/* Sort keys with the original position as last key (stable qsort). */
struct seg_key {
	uint64_t seg;
	uint32_t node;
	uint32_t at;		/* index into the segments as they came */
};

static int cmp_seg_key(const void *a, const void *b)
{
	const struct seg_key *x = a, *y = b;

	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int cmp_link(const void *a, const void *b)
{
	const struct prof_cp_link *x = a, *y = b;

	return x->event < y->event ? -1 : x->event > y->event;
}

/* The links of p, checked (inside the rank's events, one per event) and
 * packed. */
static int pack_links(const struct profile *p, struct link_pack *lp, char *err, size_t errlen)
{
	struct prof_cp_link *sorted = NULL;
	const struct prof_cp_link *v = p->cp_links;
	uint32_t n = p->ncp_links;
	int rc = 0;

	for (uint32_t i = 1; i < n; i++)
		if (v[i].event < v[i - 1].event) {
			if (!(sorted = malloc((size_t)n * sizeof(*sorted))))
				return cm_oom(err, errlen);
			memcpy(sorted, v, (size_t)n * sizeof(*sorted));
			qsort(sorted, n, sizeof(*sorted), cmp_link);
			v = sorted;
			break;
		}
	for (uint32_t i = 0; i < n && rc == 0; i++)
		if (v[i].event >= p->cp_events || (i && v[i].event == v[i - 1].event)) {
			snprintf(err, errlen, "rank %lld: critical-path link at event %llu %s",
				 (long long)p->rank, (unsigned long long)v[i].event,
				 v[i].event >= p->cp_events ? "past the rank's events" :
				 "given twice");
			rc = -1;
		}
	if (rc == 0 && link_pack_build(lp, v, n) < 0)
		rc = cm_oom(err, errlen);
	free(sorted);
	return rc;
}

/* The segments of p, checked and copied in p's node ids and events. */
static int copy_segs(const struct profile *p, struct cpath_prep *cp, char *err, size_t errlen)
{
	uint32_t n = p->ncp_segs, ne = p->nevents;

	if (n == 0)
		return 0;
	cp->segs = malloc((size_t)n * sizeof(*cp->segs));
	cp->counts = calloc((size_t)n * ne + 1, sizeof(*cp->counts));
	if (!cp->segs || !cp->counts)
		return cm_oom(err, errlen);
	for (uint32_t i = 0; i < n; i++) {
		const struct prof_cp_seg *s = &p->cp_segs[i];

		if (s->seg == 0 || s->seg >= p->cp_events || s->node >= p->tree.nnodes) {
			snprintf(err, errlen, "critical-path samples of segment %llu under "
				 "node %u, but the rank has segments 1 to %llu and %u nodes",
				 (unsigned long long)s->seg, s->node,
				 (unsigned long long)(p->cp_events - 1), p->tree.nnodes);
			return -1;
		}
		cp->segs[i] = (struct rep_cp_seg){ s->seg, s->node };
		if (s->counts)
			memcpy(cp->counts + (size_t)i * ne, s->counts, ne * sizeof(*s->counts));
	}
	cp->nsegs = n;
	return 0;
}

/* The cp_prefix records of p (checked by the reader), copied in p's node
 * ids and events. */
static int copy_prefix(const struct profile *p, struct cpath_prep *cp, char *err, size_t errlen)
{
	uint32_t n = p->ncp_prefix, ne = p->nevents;

	if (n == 0)
		return 0;
	cp->prefix_nodes = malloc((size_t)n * sizeof(*cp->prefix_nodes));
	cp->prefix_counts = calloc((size_t)n * ne + 1, sizeof(*cp->prefix_counts));
	if (!cp->prefix_nodes || !cp->prefix_counts)
		return cm_oom(err, errlen);
	for (uint32_t i = 0; i < n; i++) {
		cp->prefix_nodes[i] = p->cp_prefix[i].node;
		if (p->cp_prefix[i].counts)
			memcpy(cp->prefix_counts + (size_t)i * ne, p->cp_prefix[i].counts,
			       ne * sizeof(uint64_t));
	}
	cp->nprefix = n;
	return 0;
}

/* See merge-cp.h. */
int cpath_prepare(const struct profile *p, struct cpath_prep *cp, char *err, size_t errlen)
{
	memset(cp, 0, sizeof(*cp));
	if (p->cp_events == 0)
		return 0;
	if (pack_links(p, &cp->links, err, errlen) < 0 || copy_segs(p, cp, err, errlen) < 0 ||
	    copy_prefix(p, cp, err, errlen) < 0) {
		cpath_prep_release(cp);
		return -1;
	}
	return 0;
}

void cpath_prep_release(struct cpath_prep *cp)
{
	link_pack_release(&cp->links);
	free(cp->segs);
	free(cp->counts);
	free(cp->prefix_nodes);
	free(cp->prefix_counts);
	memset(cp, 0, sizeof(*cp));
}

/* Whether the prepared segments, their nodes mapped, are by (seg, node)
 * without duplicates, and p's events are the merge's in the same order:
 * then they are kept as they are. */
static bool segs_keep_order(const struct cpath_prep *cp, uint32_t pevents, const uint32_t *emap,
			    uint32_t nevents)
{
	if (pevents != nevents)
		return false;
	for (uint32_t e = 0; e < pevents; e++)
		if (emap[e] != e)
			return false;
	for (uint32_t i = 1; i < cp->nsegs; i++) {
		const struct rep_cp_seg *a = &cp->segs[i - 1], *b = &cp->segs[i];

		if (a->seg > b->seg || (a->seg == b->seg && a->node >= b->node))
			return false;
	}
	return true;
}

/* Segments re-keyed to merged nodes through nmap and to merged events
 * through emap, sorted, duplicates (two of p's nodes that merge into one)
 * summed: the prepared arrays taken over when that changes nothing, which
 * is the common case. */
static int keep_segs(struct rep_cp_rank *r, struct cpath_prep *cp, uint32_t pevents,
		     const uint32_t *nmap, const uint32_t *emap, uint32_t nevents,
		     char *err, size_t errlen)
{
	struct seg_key *k;
	uint32_t n = cp->nsegs;

	if (n == 0)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		cp->segs[i].node = nmap[cp->segs[i].node];
	if (segs_keep_order(cp, pevents, emap, nevents)) {
		r->segs = cp->segs;
		r->counts = cp->counts;
		r->nsegs = n;
		cp->segs = NULL;
		cp->counts = NULL;
		return 0;
	}
	k = malloc((size_t)n * sizeof(*k));
	r->segs = malloc((size_t)n * sizeof(*r->segs));
	r->counts = calloc((size_t)n * nevents + 1, sizeof(*r->counts));
	if (!k || !r->segs || !r->counts) {
		free(k);
		return cm_oom(err, errlen);
	}
	for (uint32_t i = 0; i < n; i++)
		k[i] = (struct seg_key){ cp->segs[i].seg, cp->segs[i].node, i };
	qsort(k, n, sizeof(*k), cmp_seg_key);
	for (uint32_t i = 0; i < n; i++) {
		const uint64_t *src = cp->counts + (size_t)k[i].at * pevents;

		if (r->nsegs == 0 || r->segs[r->nsegs - 1].seg != k[i].seg ||
		    r->segs[r->nsegs - 1].node != k[i].node)
			r->segs[r->nsegs++] = (struct rep_cp_seg){ k[i].seg, k[i].node };
		uint64_t *dst = r->counts + (size_t)(r->nsegs - 1) * nevents;

		for (uint32_t e = 0; e < pevents; e++)
			dst[emap[e]] += src[e];
	}
	free(k);
	return 0;
}

/* The prefix's samples with nodes mapped through nmap and counts through
 * emap: the prepared arrays taken over when the events are the merge's. */
static int keep_prefix(struct rep_cp_rank *r, struct cpath_prep *cp, uint32_t pevents,
		       const uint32_t *nmap, const uint32_t *emap, uint32_t nevents,
		       char *err, size_t errlen)
{
	uint32_t n = cp->nprefix;
	bool same = pevents == nevents;

	for (uint32_t e = 0; same && e < pevents; e++)
		same = emap[e] == e;
	for (uint32_t i = 0; i < n; i++)
		cp->prefix_nodes[i] = nmap[cp->prefix_nodes[i]];
	r->nprefix = n;
	r->prefix_nodes = cp->prefix_nodes;
	cp->prefix_nodes = NULL;
	if (same || n == 0) {
		r->prefix_counts = cp->prefix_counts;
		cp->prefix_counts = NULL;
		return 0;
	}
	if (!(r->prefix_counts = calloc((size_t)n * nevents, sizeof(*r->prefix_counts))))
		return cm_oom(err, errlen);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t e = 0; e < pevents; e++)
			r->prefix_counts[(size_t)i * nevents + emap[e]] =
				cp->prefix_counts[(size_t)i * pevents + e];
	return 0;
}

struct edge_key {
	struct prof_cp_edge e;
	uint32_t at;
};

static int cmp_edge_key(const void *a, const void *b)
{
	const struct edge_key *x = a, *y = b;

	if (x->e.event != y->e.event)
		return x->e.event < y->e.event ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The --cp-trace records: seg_ns by event, edges by event (file order
 * kept among an event's edges, so ties resolve as recorded). */
static int keep_trace(struct rep_cp_rank *r, const struct profile *p, const char *name,
		      char *err, size_t errlen)
{
	struct edge_key *k;

	if (p->cp_trace != 1)
		return 0;
	if (p->ncp_evs != p->cp_events - 1) {
		snprintf(err, errlen, "%s: rank %lld: the --cp-trace records hold %u events, "
			 "the rank has %llu after MPI_Init", name, (long long)p->rank,
			 p->ncp_evs, (unsigned long long)(p->cp_events - 1));
		return -1;
	}
	r->seg_ns = calloc(p->cp_events, sizeof(*r->seg_ns));
	k = malloc(((size_t)p->ncp_edges + 1) * sizeof(*k));
	r->edges = malloc(((size_t)p->ncp_edges + 1) * sizeof(*r->edges));
	if (!r->seg_ns || !k || !r->edges) {
		free(k);
		return cm_oom(err, errlen);
	}
	for (uint32_t i = 0; i < p->ncp_evs; i++) {
		if (p->cp_evs[i].event != (uint64_t)i + 1) {
			snprintf(err, errlen, "%s: rank %lld: --cp-trace event record %u is "
				 "for event %llu, not %u", name, (long long)p->rank, i,
				 (unsigned long long)p->cp_evs[i].event, i + 1);
			free(k);
			return -1;
		}
		r->seg_ns[i + 1] = p->cp_evs[i].seg_ns;
	}
	for (uint32_t i = 0; i < p->ncp_edges; i++) {
		if (p->cp_edges[i].event >= p->cp_events) {
			snprintf(err, errlen, "%s: rank %lld: --cp-trace dependency at event "
				 "%llu, past the rank's %llu events", name, (long long)p->rank,
				 (unsigned long long)p->cp_edges[i].event,
				 (unsigned long long)p->cp_events);
			free(k);
			return -1;
		}
		k[i] = (struct edge_key){ p->cp_edges[i], i };
	}
	qsort(k, p->ncp_edges, sizeof(*k), cmp_edge_key);
	for (uint32_t i = 0; i < p->ncp_edges; i++)
		r->edges[i] = k[i].e;
	r->nedges = p->ncp_edges;
	free(k);
	r->trace = true;
	return 0;
}

/* A name the rank knows only by its hash ("#<hex>"). */
static bool hashed_name(const char *s)
{
	return s[0] == '#';
}

/* Check p's zeroing records against themselves: how, start, functions. */
static int check_fns(const struct profile *p, const char *name, char *err, size_t errlen)
{
	const char *why = NULL;

	if (p->cp_fn_how > PROF_CP_FN_MERGE)
		why = "an unknown way of starting";
	else if (p->cp_fn_how == PROF_CP_FN_NONE && p->ncp_fns)
		why = "functions but no start";
	else if (p->cp_fn_how != PROF_CP_FN_NONE && !p->ncp_fns)
		why = "a start but no function";
	else if (p->ncp_fns > PROF_CP_FNS)
		why = "more functions than the 8 a selection may have";
	else if (p->cp_fn_how == PROF_CP_FN_ENTRY &&
		 (p->cp_fn_start == 0 || p->cp_fn_start >= p->cp_events))
		why = "a start at the entry of an event the rank does not have";
	else if (p->cp_fn_how == PROF_CP_FN_MERGE &&
		 (p->cp_fn_start == 0 || p->cp_fn_start + 1 >= p->cp_events))
		why = "a start at the exit of an event before its last it does not have";
	for (uint32_t i = 0; !why && i < p->ncp_fns; i++)
		if (!p->cp_fns[i].name || !p->cp_fns[i].name[0] ||
		    !strcmp(p->cp_fns[i].name, "#"))
			why = "a function without a name";
	if (!why)
		return 0;
	snprintf(err, errlen, "%s: rank %lld: critical-path zeroing records (how %llu, "
		 "start event %llu, %u functions) with %s", name, (long long)p->rank,
		 (unsigned long long)p->cp_fn_how, (unsigned long long)p->cp_fn_start,
		 p->ncp_fns, why);
	return -1;
}

/*
 * Keep p's N_f and S_f and match its selection with the earlier ranks', by
 * index.  The first rank that started sets the selection; a real name
 * replaces a "#<hex>" one; two real names that differ stop the merge.
 */
static int keep_fns(struct rep_cpath *c, struct rep_cp_rank *r, const struct profile *p,
		    const char *name, char *err, size_t errlen)
{
	if (check_fns(p, name, err, errlen) < 0)
		return -1;
	r->fn_how = p->cp_fn_how;
	r->fn_start = p->cp_fn_start;
	if (p->ncp_fns == 0)
		return 0;
	if (c->nfns && c->nfns != p->ncp_fns) {
		snprintf(err, errlen, "%s: critical-path zeroing: rank %lld selected %u "
			 "function%s, rank %lld %u", name, (long long)p->rank, p->ncp_fns,
			 p->ncp_fns == 1 ? "" : "s", (long long)c->fn_rank[0], c->nfns);
		return -1;
	}
	for (uint32_t i = 0; i < c->nfns; i++) {
		const char *mine = p->cp_fns[i].name, *theirs = c->fn_names[i];

		if (hashed_name(mine) || hashed_name(theirs) || !strcmp(mine, theirs))
			continue;
		snprintf(err, errlen, "%s: critical-path zeroing: rank %lld selected '%s' "
			 "and rank %lld '%s' as function %u", name, (long long)p->rank, mine,
			 (long long)c->fn_rank[i], theirs, i + 1);
		return -1;
	}
	r->fn_net = malloc((size_t)p->ncp_fns * sizeof(*r->fn_net));
	r->fn_share = malloc((size_t)p->ncp_fns * sizeof(*r->fn_share));
	if (!r->fn_net || !r->fn_share)
		return cm_oom(err, errlen);
	for (uint32_t i = 0; i < p->ncp_fns; i++) {
		const char *mine = p->cp_fns[i].name;

		r->fn_net[i] = p->cp_fns[i].net_ns;
		r->fn_share[i] = p->cp_fns[i].share_ns;
		if (i < c->nfns && (hashed_name(mine) || !hashed_name(c->fn_names[i])))
			continue;
		char *copy = strdup(mine);

		if (!copy)
			return cm_oom(err, errlen);
		if (i < c->nfns)
			free(c->fn_names[i]);
		c->fn_names[i] = copy;
		c->fn_rank[i] = p->rank;
	}
	c->nfns = p->ncp_fns;
	return 0;
}

/* The monitor rank's series (one rank only). */
static int keep_points(struct rep_cpath *c, const struct profile *p, const char *name,
		       char *err, size_t errlen)
{
	if (p->ncp_points == 0)
		return 0;
	if (c->points) {
		snprintf(err, errlen, "%s: critical-path series from rank %lld, and from rank "
			 "%lld before: only the monitor rank records one", name,
			 (long long)p->rank, (long long)c->points_rank);
		return -1;
	}
	c->points = malloc((size_t)p->ncp_points * sizeof(*c->points));
	if (!c->points)
		return cm_oom(err, errlen);
	memcpy(c->points, p->cp_points, (size_t)p->ncp_points * sizeof(*c->points));
	c->npoints = p->ncp_points;
	c->points_rank = p->rank;
	return 0;
}

/* Count n records of counts (in p's events) of record kind key into c's
 * totals, refusing p when they take an event's total over the ranks past
 * 2^64 - 1: the path's profile sums some of them, and its shares rest on
 * that sum. */
static int count_samples(struct rep_cpath *c, const struct profile *p, const uint64_t *counts,
			 uint32_t n, const char *key, const uint32_t *emap, const char *name,
			 char *err, size_t errlen)
{
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t e = 0; e < p->nevents; e++)
			if (!sum_add(&c->samples[emap[e]], counts[(size_t)i * p->nevents + e])) {
				snprintf(err, errlen, "%s: rank %lld: the samples of event '%s' "
					 "('%s' records) sum past 2^64-1 over the ranks", name,
					 (long long)p->rank, p->events[e].name, key);
				return -1;
			}
	return 0;
}

/* The samples of p's segments and prefix (prep) into c's totals. */
static int count_seg_samples(struct rep_cpath *c, const struct profile *p,
			     const struct cpath_prep *prep, const uint32_t *emap, const char *name,
			     char *err, size_t errlen)
{
	if (count_samples(c, p, prep->counts, prep->nsegs, "cp_seg", emap, name, err, errlen) < 0)
		return -1;
	return count_samples(c, p, prep->prefix_counts, prep->nprefix, "cp_prefix", emap, name,
			     err, errlen);
}

/* Keep what the walk needs of p into a new rank r, from prep. */
static int keep_rank(struct rep_cpath *c, struct rep_cp_rank *r, const struct profile *p,
		     struct cpath_prep *prep, const uint32_t *nmap, const uint32_t *emap,
		     uint32_t nevents, const char *name, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->rank = p->rank;
	r->events = p->cp_events;
	r->length_ns = p->cp_length_ns;
	r->wall_ns = p->cp_wall_ns;
	r->budget = p->cp_budget;
	r->cut = p->cp_cut;
	r->folds = p->cp_folds;
	r->fold_event = p->cp_fold_event;
	r->fold_ns = p->cp_fold_ns;
	r->gap_rank = p->cp_gap_rank;
	r->gap_event = p->cp_gap_event;
	r->links = prep->links;
	memset(&prep->links, 0, sizeof(prep->links));
	if (keep_segs(r, prep, p->nevents, nmap, emap, nevents, err, errlen) < 0 ||
	    keep_prefix(r, prep, p->nevents, nmap, emap, nevents, err, errlen) < 0 ||
	    keep_trace(r, p, name, err, errlen) < 0 ||
	    keep_fns(c, r, p, name, err, errlen) < 0 ||
	    keep_points(c, p, name, err, errlen) < 0) {
		rank_release(r);
		return -1;
	}
	return 0;
}

int cpath_merge_add(struct rep_cpath *c, const struct profile *p, struct cpath_prep *prep,
		    const uint32_t *nmap, const uint32_t *emap, uint32_t nevents,
		    const char *name, char *err, size_t errlen)
{
	struct cpath_prep own;
	char why[256];
	int rc;

	if (p->cp_events == 0)
		return 0;
	if (p->rank < 0) {
		snprintf(err, errlen, "%s: critical-path data recorded by a process "
			 "without an MPI rank", name);
		return -1;
	}
	if (c->nranks && c->nevents != nevents) {
		snprintf(err, errlen, "%s: %u events, the other ranks %u", name, nevents,
			 c->nevents);
		return -1;
	}
	if (c->nranks == c->alloc) {
		uint32_t n = c->alloc ? c->alloc * 2 : 16;
		struct rep_cp_rank *a = realloc(c->ranks, (size_t)n * sizeof(*a));

		if (!a)
			return cm_oom(err, errlen);
		c->ranks = a;
		c->alloc = n;
	}
	if (!prep) {
		if (cpath_prepare(p, &own, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s: %s", name, why);
			return -1;
		}
		prep = &own;
	}
	c->nevents = nevents;
	if (!c->samples && !(c->samples = calloc(nevents + 1, sizeof(*c->samples))))
		rc = cm_oom(err, errlen);
	else if ((rc = count_seg_samples(c, p, prep, emap, name, err, errlen)) == 0)
		rc = keep_rank(c, &c->ranks[c->nranks], p, prep, nmap, emap, nevents, name,
			       err, errlen);
	if (prep == &own)
		cpath_prep_release(&own);
	if (rc == 0)
		c->nranks++;
	return rc;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct rep_cp_rank *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

void cpath_merge_finish(struct rep_cpath *c)
{
	if (c->nranks > 1)
		qsort(c->ranks, c->nranks, sizeof(*c->ranks), cmp_rank);
}
