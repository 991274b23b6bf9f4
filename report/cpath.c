/*
 * cpath.c - the critical path: the walk, the reference, the profile.
 *
 * Online, every rank carried its path length in the piggyback and kept a
 * link wherever a remote length won at the exit of an event; the report
 * walks those links back from the rank whose length is largest at its last
 * event (docs/critical-path.md).  With --cp-trace every dependency and
 * segment length was recorded too, so --reference recomputes the lengths
 * offline, derives the winning dependency of every exit the same way, and
 * walks those: the same walk, other links.  Neither recurses: the walk is a
 * loop bounded by the number of events, the reference advances ranks from a
 * work queue while the dependencies of their next exit are known.  The
 * path's profile sums the segment samples of every run into a tree with
 * the node ids of the merged tree, so the call-path renderers apply.
 *
 * Zeroing (docs/critical-path.md "Zeroing"): online, the run's net length
 * of a selected function f is the largest N_f the ranks wrote (L for a
 * rank that never started) and its share S_f is the end rank's; the
 * reference recomputes N_f and S_f over the --cp-trace graph in the same
 * pass as L, with f's time in a segment apportioned from the segment's
 * samples whose call path holds f.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpath.h"
#include "data.h"
#include "flat.h"
#include "render.h"
#include "tree.h"

static int cpath_oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory computing the critical path");
	return -1;
}

/* The links a walk follows, per rank (index into c->ranks): the online
 * ones packed, whole from event cut on (0: all of them), or the
 * reference's array (pack NULL). */
struct link_view {
	const struct link_pack *pack;
	const struct prof_cp_link *links;
	uint32_t nlinks;
	uint64_t cut;
};

/* Index of rank in c (sorted by rank), or -1. */
static long rank_index(const struct rep_cpath *c, int64_t rank)
{
	uint32_t lo = 0, hi = c->nranks;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->ranks[mid].rank < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nranks && c->ranks[lo].rank == rank ? (long)lo : -1;
}

/* The link of event in v into *out; false when there is none. */
static bool find_link(const struct link_view *v, uint64_t event, struct prof_cp_link *out)
{
	uint32_t lo = 0, hi = v->nlinks;

	if (v->pack)
		return link_pack_find(v->pack, event, out);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v->links[mid].event < event)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == v->nlinks || v->links[lo].event != event)
		return false;
	*out = v->links[lo];
	return true;
}

/* Append segment e of rank to the runs, which are built latest first. */
static int push_segment(struct cpath_result *r, uint32_t *alloc, int64_t rank, uint64_t e)
{
	struct cpath_run *last = r->nruns ? &r->runs[r->nruns - 1] : NULL;

	if (last && last->rank == rank && last->from == e + 1) {
		last->from = e;
		return 0;
	}
	if (r->nruns == *alloc) {
		uint32_t n = *alloc ? *alloc * 2 : 16;
		struct cpath_run *a = realloc(r->runs, (size_t)n * sizeof(*a));

		if (!a)
			return -1;
		r->runs = a;
		*alloc = n;
	}
	r->runs[r->nruns++] = (struct cpath_run){ rank, e, e };
	return 0;
}

static void cut_at(struct cpath_result *r, const struct rep_cp_rank *rk, uint64_t e)
{
	r->cut = true;
	r->cut_rank = rk->rank;
	r->cut_event = e;
	r->cut_budget = rk->budget;
}

/*
 * Walk back from (rank index start, its last event) through the links of
 * v.  State (i, e): segment e of rank i is on the path; at the exit of e-1
 * a link moves to (link.rank, link.from), otherwise to (i, e-1); the exit
 * of event 0 ends the walk, and so does a segment or a link the rank
 * dropped (before its cut): r->cut then says where.
 */
static int walk_from(const struct rep_cpath *c, const struct link_view *v, uint32_t start,
		     struct cpath_result *r, char *err, size_t errlen)
{
	uint64_t bound = 0, steps = 0, e;
	uint32_t alloc = 0;
	long i = start;

	for (uint32_t k = 0; k < c->nranks; k++)
		bound += c->ranks[k].events;
	e = c->ranks[i].events - 1;
	while (e >= 1) {
		const struct rep_cp_rank *rk = &c->ranks[i];

		if (e < v[i].cut) {
			cut_at(r, rk, e);
			break;
		}
		if (++steps > bound) {
			snprintf(err, errlen, "critical path: the links form a cycle (still "
				 "walking at rank %lld event %llu after %llu steps, more than "
				 "all ranks' events)", (long long)rk->rank,
				 (unsigned long long)e, (unsigned long long)steps - 1);
			return -1;
		}
		if (push_segment(r, &alloc, rk->rank, e) < 0)
			return cpath_oom(err, errlen);
		if (e - 1 == 0)
			break;
		if (e - 1 < v[i].cut) {	/* its link, if any, was dropped */
			cut_at(r, rk, e - 1);
			break;
		}

		struct prof_cp_link found;
		const struct prof_cp_link *l = &found;

		if (!find_link(&v[i], e - 1, &found)) {
			e--;
			continue;
		}
		long j = rank_index(c, l->rank);

		if (j < 0) {
			snprintf(err, errlen, "critical path: rank %lld event %llu links to "
				 "rank %lld, which has no critical-path data in the experiment",
				 (long long)rk->rank, (unsigned long long)l->event,
				 (long long)l->rank);
			return -1;
		}
		if (l->from == 0 || l->from >= c->ranks[j].events) {
			snprintf(err, errlen, "critical path: rank %lld event %llu links to "
				 "event %llu of rank %lld, which has events 1 to %llu",
				 (long long)rk->rank, (unsigned long long)l->event,
				 (unsigned long long)l->from, (long long)l->rank,
				 (unsigned long long)(c->ranks[j].events - 1));
			return -1;
		}
		i = j;
		e = l->from;
	}
	/* Built latest first: reverse into time order. */
	for (uint32_t a = 0, b = r->nruns; a + 1 < b; a++, b--) {
		struct cpath_run t = r->runs[a];

		r->runs[a] = r->runs[b - 1];
		r->runs[b - 1] = t;
	}
	return 0;
}

static void result_init(struct cpath_result *r)
{
	memset(r, 0, sizeof(*r));
}

void cpath_release(struct cpath_result *r)
{
	free(r->zero);
	free(r->runs);
	free(r->fns);
	tree_release(&r->cp);
	cct_release(&r->tree);
	memset(r, 0, sizeof(*r));
}

static uint64_t max_wall(const struct rep_cpath *c)
{
	uint64_t w = 0;

	for (uint32_t i = 0; i < c->nranks; i++)
		w = c->ranks[i].wall_ns > w ? c->ranks[i].wall_ns : w;
	return w;
}

/*
 * Fill r->zero from each selected function's net length net[f] and share
 * share[f] (r->length_ns already set).  Returns 0 or -1 (memory).
 */
static int fill_zero(struct cpath_result *r, const struct rep_cpath *c, const uint64_t *net,
		     const uint64_t *share, char *err, size_t errlen)
{
	if (c->nfns == 0)
		return 0;
	if (!(r->zero = calloc(c->nfns, sizeof(*r->zero))))
		return cpath_oom(err, errlen);
	r->nzero = c->nfns;
	for (uint32_t f = 0; f < c->nfns; f++) {
		struct cpath_zero *z = &r->zero[f];

		z->name = c->fn_names[f];
		z->net_ns = net[f];
		z->saving_ns = r->length_ns > net[f] ? r->length_ns - net[f] : 0;
		z->saving_pct = r->length_ns ? 100.0 * (double)z->saving_ns /
			(double)r->length_ns : 0.0;
		z->share_ns = share[f];
	}
	return 0;
}

/* Whether rank rk tracks N_f and S_f at all (it started somewhere). */
static bool fn_tracked(const struct rep_cp_rank *rk)
{
	return rk->fn_how != PROF_CP_FN_NONE && rk->fn_net;
}

/* The online zeroing: N_f is the largest over the ranks (L where a rank
 * never started), S_f the one of the rank at index end. */
static int zero_online(const struct rep_cpath *c, uint32_t end, struct cpath_result *r,
		       char *err, size_t errlen)
{
	uint64_t net[PROF_CP_FNS] = { 0 }, share[PROF_CP_FNS] = { 0 };

	for (uint32_t i = 0; i < c->nranks; i++) {
		const struct rep_cp_rank *rk = &c->ranks[i];

		for (uint32_t f = 0; f < c->nfns; f++) {
			uint64_t n = fn_tracked(rk) ? rk->fn_net[f] : rk->length_ns;

			net[f] = n > net[f] ? n : net[f];
			if (i == end && fn_tracked(rk))
				share[f] = rk->fn_share[f];
		}
	}
	return fill_zero(r, c, net, share, err, errlen);
}

int cpath_walk(const struct rep_cpath *c, struct cpath_result *r, char *err, size_t errlen)
{
	struct link_view *v;
	uint32_t start = 0;
	int rc;

	result_init(r);
	if (!cpath_present(c)) {
		snprintf(err, errlen, "no critical-path data in this experiment");
		return -1;
	}
	if (!(v = malloc((size_t)c->nranks * sizeof(*v))))
		return cpath_oom(err, errlen);
	for (uint32_t i = 0; i < c->nranks; i++) {
		v[i] = (struct link_view){ &c->ranks[i].links, NULL, 0, c->ranks[i].cut };
		if (c->ranks[i].length_ns > c->ranks[start].length_ns)
			start = i;	/* strictly: the lowest rank wins ties */
	}
	r->end_rank = c->ranks[start].rank;
	r->length_ns = c->ranks[start].length_ns;
	r->wall_ns = max_wall(c);
	rc = walk_from(c, v, start, r, err, errlen);
	if (rc == 0)
		rc = zero_online(c, start, r, err, errlen);
	free(v);
	if (rc < 0)
		cpath_release(r);
	return rc;
}

/* ---- the reference: lengths recomputed from the --cp-trace records ---- */

struct ref_rank {
	uint64_t *lent;		/* [events] L at the entry of e (lent[0] = 0) */
	uint64_t lexit;		/* L at the exit of done - 1 */
	uint64_t done;		/* exits computed: events 0 .. done-1 */
	uint32_t edge;		/* first edge of event `done` */
	struct prof_cp_link *links;	/* winning dependencies, by event */
	uint32_t nlinks, alloc;
	long waiters;		/* first rank waiting on this one, -1 */
	long next_waiter;	/* next rank waiting on the same one, -1 */
	uint64_t wait_for;	/* the event this rank waits on ... */
	int64_t wait_rank;	/* ... of this rank */
	bool queued;
	/* Zeroing, [events * nz] each, index e * nz + f: */
	uint64_t *ft;		/* f's time in segment e */
	uint64_t *nent, *sent;	/* N_f and S_f at the entry of e, where tracked */
};

struct ref_state {
	const struct rep_cpath *c;
	struct ref_rank *rr;
	uint32_t *queue;	/* ring of rank indexes, each in it at most once */
	uint32_t qhead, qlen;
	uint32_t nz;		/* functions selected (c->nfns) */
};

/* Whether rank rk's stamp at the entry of its event k carried zeroing
 * data: it had started by then. */
static bool fn_carries(const struct rep_cp_rank *rk, uint64_t k)
{
	switch (rk->fn_how) {
	case PROF_CP_FN_INIT:
		return true;
	case PROF_CP_FN_ENTRY:
		return k >= rk->fn_start;
	case PROF_CP_FN_MERGE:
		return k > rk->fn_start;
	default:
		return false;
	}
}

/* Whether rank rk tracks N_f and S_f at the exit of its event e. */
static bool fn_started_exit(const struct rep_cp_rank *rk, uint64_t e)
{
	if (rk->fn_how == PROF_CP_FN_INIT)
		return true;
	if (rk->fn_how == PROF_CP_FN_ENTRY || rk->fn_how == PROF_CP_FN_MERGE)
		return e >= rk->fn_start;
	return false;
}

/*
 * N_f and S_f at the exit of e (edges first..end-1 of rank i, all known,
 * win the one L took or NULL) and at the entry of e + 1.  A rank started
 * by a merge at e begins from N_f = L_entry(e), S_f = 0 and then merges.
 * Returns 0, or -1 when such a start has no started sender at e.
 */
static int zero_step(struct ref_state *s, uint32_t i, uint64_t e, uint32_t first,
		     uint32_t end, const struct prof_cp_edge *win, char *err, size_t errlen)
{
	const struct rep_cp_rank *rk = &s->c->ranks[i];
	struct ref_rank *q = &s->rr[i];
	uint32_t nz = s->nz;
	uint64_t *nin = q->nent + (e + 1) * nz, *sin = q->sent + (e + 1) * nz;
	const uint64_t *ft = q->ft + (e + 1) * nz;

	if (nz == 0 || !fn_tracked(rk))
		return 0;
	if (!fn_started_exit(rk, e)) {
		if (rk->fn_how == PROF_CP_FN_ENTRY && e + 1 == rk->fn_start)
			for (uint32_t f = 0; f < nz; f++) {
				nin[f] = q->lent[e + 1];
				sin[f] = 0;
			}
		return 0;
	}
	bool merge_start = rk->fn_how == PROF_CP_FN_MERGE && e == rk->fn_start;
	uint64_t n[PROF_CP_FNS], sh[PROF_CP_FNS];
	bool any = false;

	for (uint32_t f = 0; f < nz; f++) {
		n[f] = merge_start ? q->lent[e] : q->nent[e * nz + f];
		sh[f] = merge_start ? 0 : q->sent[e * nz + f];
	}
	for (uint32_t k = first; k < end; k++) {
		const struct prof_cp_edge *ed = &rk->edges[k];
		long j = rank_index(s->c, ed->rank);

		if (!fn_carries(&s->c->ranks[j], ed->from))
			continue;
		any = true;
		for (uint32_t f = 0; f < nz; f++) {
			uint64_t v = s->rr[j].nent[ed->from * nz + f];

			n[f] = v > n[f] ? v : n[f];
		}
	}
	if (merge_start && !any) {
		snprintf(err, errlen, "critical path (--reference): rank %lld started zeroing "
			 "by a merge at the exit of event %llu, but no dependency of that event "
			 "comes from a rank that had started", (long long)rk->rank,
			 (unsigned long long)e);
		return -1;
	}
	if (win) {
		long j = rank_index(s->c, win->rank);
		bool carries = fn_carries(&s->c->ranks[j], win->from);

		for (uint32_t f = 0; f < nz; f++)
			sh[f] = carries ? s->rr[j].sent[win->from * nz + f] : 0;
	}
	for (uint32_t f = 0; f < nz; f++) {
		nin[f] = n[f] + rk->seg_ns[e + 1] - ft[f];
		sin[f] = sh[f] + ft[f];
	}
	return 0;
}

/* The last event whose entry is computed for rank i (done == events when
 * finished: entries up to events-1). */
static uint64_t entries_known(const struct ref_state *s, uint32_t i)
{
	uint64_t d = s->rr[i].done, last = s->c->ranks[i].events - 1;

	return d < last ? d : last;
}

static void enqueue(struct ref_state *s, uint32_t i)
{
	if (s->rr[i].queued)
		return;
	s->rr[i].queued = true;
	s->queue[(s->qhead + s->qlen++) % s->c->nranks] = i;
}

static int add_ref_link(struct ref_rank *q, const struct prof_cp_edge *e)
{
	if (q->nlinks == q->alloc) {
		uint32_t n = q->alloc ? q->alloc * 2 : 16;
		struct prof_cp_link *a = realloc(q->links, (size_t)n * sizeof(*a));

		if (!a)
			return -1;
		q->links = a;
		q->alloc = n;
	}
	q->links[q->nlinks++] = (struct prof_cp_link){ e->event, e->rank, e->from };
	return 0;
}

/*
 * Advance rank i while the dependencies of its next exit are known.
 * Returns 0 (finished or waiting: then wait_for and the waiter list of the
 * rank waited on are set, through *wait_on), or -1 with a message.
 */
static int advance(struct ref_state *s, uint32_t i, long *wait_on, char *err, size_t errlen)
{
	const struct rep_cp_rank *rk = &s->c->ranks[i];
	struct ref_rank *q = &s->rr[i];
	uint64_t last = rk->events - 1;

	*wait_on = -1;
	while (q->done < last) {
		uint64_t e = q->done, best = q->lent[e];
		const struct prof_cp_edge *win = NULL;
		uint32_t k = q->edge;

		for (; k < rk->nedges && rk->edges[k].event == e; k++) {
			const struct prof_cp_edge *ed = &rk->edges[k];
			long j = rank_index(s->c, ed->rank);

			if (j < 0 || ed->from == 0 || ed->from >= s->c->ranks[j].events) {
				snprintf(err, errlen, "critical path (--reference): rank %lld event "
					 "%llu depends on event %llu of rank %lld, %s",
					 (long long)rk->rank, (unsigned long long)e,
					 (unsigned long long)ed->from, (long long)ed->rank,
					 j < 0 ? "which has no critical-path data" :
					 "which is not one of its events");
				return -1;
			}
			if (entries_known(s, (uint32_t)j) < ed->from) {
				*wait_on = j;
				q->wait_for = ed->from;
				q->wait_rank = ed->rank;
				return 0;
			}
			uint64_t v = s->rr[j].lent[ed->from];

			if (v > best) {	/* local wins ties, then the first edge */
				best = v;
				win = ed;
			}
		}
		if (win && add_ref_link(q, win) < 0)
			return cpath_oom(err, errlen);
		q->lent[e + 1] = best + rk->seg_ns[e + 1];
		if (zero_step(s, i, e, q->edge, k, win, err, errlen) < 0)
			return -1;
		q->edge = k;
		q->done = e + 1;
	}
	return 0;
}

/* Put rank i on the waiter list of rank j. */
static void wait_on_rank(struct ref_state *s, uint32_t i, uint32_t j)
{
	s->rr[i].next_waiter = s->rr[j].waiters;
	s->rr[j].waiters = (long)i;
}

/* Requeue the waiters of rank j whose event is now known. */
static void wake(struct ref_state *s, uint32_t j)
{
	long w = s->rr[j].waiters, keep = -1;

	while (w >= 0) {
		long next = s->rr[w].next_waiter;

		if (s->rr[w].wait_for <= entries_known(s, j)) {
			s->rr[w].next_waiter = -1;
			enqueue(s, (uint32_t)w);
		} else {
			s->rr[w].next_waiter = keep;
			keep = w;
		}
		w = next;
	}
	s->rr[j].waiters = keep;
}

static int run_reference(struct ref_state *s, char *err, size_t errlen)
{
	const struct rep_cpath *c = s->c;

	for (uint32_t i = 0; i < c->nranks; i++)
		enqueue(s, i);
	while (s->qlen) {
		uint32_t i = s->queue[s->qhead];
		long j;

		s->qhead = (s->qhead + 1) % c->nranks;
		s->qlen--;
		s->rr[i].queued = false;
		if (advance(s, i, &j, err, errlen) < 0)
			return -1;
		if (j >= 0)
			wait_on_rank(s, i, (uint32_t)j);
		wake(s, i);
	}
	for (uint32_t i = 0; i < c->nranks; i++) {
		const struct ref_rank *q = &s->rr[i];

		if (q->done + 1 >= c->ranks[i].events)
			continue;
		snprintf(err, errlen, "critical path (--reference): the dependencies form "
			 "a cycle: rank %lld event %llu waits for event %llu of rank %lld, "
			 "which never completes", (long long)c->ranks[i].rank,
			 (unsigned long long)q->done, (unsigned long long)q->wait_for,
			 (long long)q->wait_rank);
		return -1;
	}
	return 0;
}

/*
 * f's time in each segment of rank i: ft_f(e) = seg_ns(e) x c_f(e) / c(e),
 * c(e) the segment's samples (event 0), c_f(e) those under nodes whose
 * mask has bit f (integer division, 0 without samples).
 */
static void fn_times(const struct rep_cpath *c, uint32_t i, const uint8_t *mask,
		     uint32_t nmask, uint32_t nz, uint64_t *ft)
{
	const struct rep_cp_rank *rk = &c->ranks[i];

	for (uint32_t a = 0, b; a < rk->nsegs; a = b) {
		uint64_t seg = rk->segs[a].seg, all = 0, cf[PROF_CP_FNS] = { 0 };

		for (b = a; b < rk->nsegs && rk->segs[b].seg == seg; b++) {
			uint64_t n = rk->counts[(size_t)b * c->nevents];
			uint32_t node = rk->segs[b].node;
			uint8_t m = mask && node < nmask ? mask[node] : 0;

			all += n;
			for (uint32_t f = 0; f < nz; f++)
				if (m & (1u << f))
					cf[f] += n;
		}
		for (uint32_t f = 0; all && seg < rk->events && f < nz; f++)
			ft[seg * nz + f] = (uint64_t)((unsigned __int128)rk->seg_ns[seg] *
						      cf[f] / all);
	}
}

/* Zeroing state of rank i at the entry of event 1 (exit of MPI_Init: N_f
 * = S_f = 0 when started there, N_f = L when the decider starts at 1). */
static void zero_first(struct ref_state *s, uint32_t i)
{
	const struct rep_cp_rank *rk = &s->c->ranks[i];
	struct ref_rank *q = &s->rr[i];
	uint32_t nz = s->nz;

	if (nz == 0 || !fn_tracked(rk) || rk->events < 2)
		return;
	for (uint32_t f = 0; f < nz; f++) {
		if (rk->fn_how == PROF_CP_FN_INIT) {
			q->nent[nz + f] = rk->seg_ns[1] - q->ft[nz + f];
			q->sent[nz + f] = q->ft[nz + f];
		} else if (rk->fn_how == PROF_CP_FN_ENTRY && rk->fn_start == 1) {
			q->nent[nz + f] = q->lent[1];
			q->sent[nz + f] = 0;
		}
	}
}

/* The reference zeroing, once every rank is done: N_f the largest at the
 * ranks' last entries (L where a rank never started), S_f the end rank's. */
static int zero_reference(const struct ref_state *s, uint32_t end, struct cpath_result *r,
			  char *err, size_t errlen)
{
	const struct rep_cpath *c = s->c;
	uint64_t net[PROF_CP_FNS] = { 0 }, share[PROF_CP_FNS] = { 0 };
	uint32_t nz = s->nz;

	for (uint32_t i = 0; i < c->nranks; i++) {
		const struct rep_cp_rank *rk = &c->ranks[i];
		uint64_t last = rk->events - 1;

		for (uint32_t f = 0; f < nz; f++) {
			uint64_t n = fn_tracked(rk) ? s->rr[i].nent[last * nz + f] :
				s->rr[i].lent[last];

			net[f] = n > net[f] ? n : net[f];
			if (i == end && fn_tracked(rk))
				share[f] = s->rr[i].sent[last * nz + f];
		}
	}
	return fill_zero(r, c, net, share, err, errlen);
}

int cpath_reference(const struct rep_cpath *c, const uint8_t *fn_mask, uint32_t nmask,
		    struct cpath_result *r, char *err, size_t errlen)
{
	struct ref_state s = { c, NULL, NULL, 0, 0, c->nfns };
	struct link_view *v = NULL;
	uint32_t start = 0;
	int rc = -1;

	result_init(r);
	if (!cpath_present(c)) {
		snprintf(err, errlen, "no critical-path data in this experiment");
		return -1;
	}
	for (uint32_t i = 0; i < c->nranks; i++)
		if (!c->ranks[i].trace) {
			snprintf(err, errlen, "%s", CPATH_NEED_TRACE);
			return -1;
		}
	s.rr = calloc(c->nranks, sizeof(*s.rr));
	s.queue = malloc((size_t)c->nranks * sizeof(*s.queue));
	v = malloc((size_t)c->nranks * sizeof(*v));
	if (!s.rr || !s.queue || !v)
		goto oom;
	for (uint32_t i = 0; i < c->nranks; i++) {
		struct ref_rank *q = &s.rr[i];
		size_t nzv = (size_t)c->ranks[i].events * s.nz + 1;

		q->waiters = q->next_waiter = -1;
		q->lent = calloc(c->ranks[i].events + 1, sizeof(*q->lent));
		if (!q->lent)
			goto oom;
		if (s.nz) {
			q->ft = calloc(nzv, sizeof(*q->ft));
			q->nent = calloc(nzv, sizeof(*q->nent));
			q->sent = calloc(nzv, sizeof(*q->sent));
			if (!q->ft || !q->nent || !q->sent)
				goto oom;
			fn_times(c, i, fn_mask, nmask, s.nz, q->ft);
		}
		/* Exit of MPI_Init: length 0; its own dependencies do not count. */
		q->done = 1;
		while (q->edge < c->ranks[i].nedges && c->ranks[i].edges[q->edge].event == 0)
			q->edge++;
		if (c->ranks[i].events > 1)
			q->lent[1] = c->ranks[i].seg_ns[1];
		zero_first(&s, i);
	}
	if (run_reference(&s, err, errlen) < 0)
		goto out;
	for (uint32_t i = 0; i < c->nranks; i++) {
		uint64_t li = s.rr[i].lent[c->ranks[i].events - 1];

		if (li > s.rr[start].lent[c->ranks[start].events - 1])
			start = i;
		v[i] = (struct link_view){ NULL, s.rr[i].links, s.rr[i].nlinks, 0 };
	}
	r->reference = true;
	r->end_rank = c->ranks[start].rank;
	r->length_ns = s.rr[start].lent[c->ranks[start].events - 1];
	r->wall_ns = max_wall(c);
	rc = walk_from(c, v, start, r, err, errlen);
	if (rc == 0)
		rc = zero_reference(&s, start, r, err, errlen);
	goto out;
oom:
	cpath_oom(err, errlen);
out:
	for (uint32_t i = 0; s.rr && i < c->nranks; i++) {
		free(s.rr[i].lent);
		free(s.rr[i].links);
		free(s.rr[i].ft);
		free(s.rr[i].nent);
		free(s.rr[i].sent);
	}
	free(s.rr);
	free(s.queue);
	free(v);
	if (rc < 0)
		cpath_release(r);
	return rc;
}

int cpath_fn_masks(const struct rep_data *d, uint8_t **mask, char *err, size_t errlen)
{
	const struct rep_cpath *c = &d->cpath;
	uint8_t *fm, *m;

	*mask = NULL;
	if (c->nfns == 0)
		return 0;
	fm = calloc((size_t)d->syms.nframes + 1, 1);
	m = calloc((size_t)d->tree.nnodes + 1, 1);
	if (!fm || !m) {
		free(fm);
		free(m);
		return cpath_oom(err, errlen);
	}
	for (uint32_t fr = 0; fr < d->syms.nframes; fr++)
		for (uint32_t f = 0; f < c->nfns; f++)
			if (!strcmp(d->syms.frames[fr].function, c->fn_names[f]) ||
			    (d->names && d->names[fr] && !strcmp(d->names[fr], c->fn_names[f])))
				fm[fr] |= (uint8_t)(1u << f);
	/* Parents have smaller ids than their children (cct.h). */
	for (uint32_t n = 1; n < d->tree.nnodes; n++) {
		uint32_t fr = d->tree.frame[n];

		m[n] = m[d->tree.parent[n]] | (fr < d->syms.nframes ? fm[fr] : 0);
	}
	free(fm);
	*mask = m;
	return 0;
}

/* ---- the path's profile ---- */

/* Sum the segment samples of every run into r->tree (d->tree's shape). */
static int sum_runs(struct cpath_result *r, const struct rep_data *d, char *err,
		    size_t errlen)
{
	const struct rep_cpath *c = &d->cpath;

	if (cct_init(&r->tree, d->nevents) < 0)
		return cpath_oom(err, errlen);
	/* Replaying in id order gives every node its id in d->tree. */
	for (uint32_t n = 1; n < d->tree.nnodes; n++)
		if (cct_child(&r->tree, d->tree.parent[n], d->tree.frame[n]) != n)
			return cpath_oom(err, errlen);
	for (uint32_t k = 0; k < r->nruns; k++) {
		const struct cpath_run *run = &r->runs[k];
		const struct rep_cp_rank *rk = &c->ranks[rank_index(c, run->rank)];
		uint32_t lo = 0, hi = rk->nsegs;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (rk->segs[mid].seg < run->from)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < rk->nsegs && rk->segs[lo].seg <= run->to; lo++) {
			const uint64_t *src = rk->counts + (size_t)lo * c->nevents;
			uint64_t *dst = cct_self(&r->tree, rk->segs[lo].node);

			for (uint32_t e = 0; e < d->nevents; e++)
				dst[e] += src[e];
		}
	}
	return 0;
}

static int cmp_fn_key(const void *a, const void *b, void *arg)
{
	const struct flat_fn *x = *(const struct flat_fn *const *)a;
	const struct flat_fn *y = *(const struct flat_fn *const *)b;
	int c = strcmp(x->name, y->name);

	(void)arg;
	if (c)
		return c;
	return x->module < y->module ? -1 : x->module > y->module;
}

/* The entry of all (sorted by cmp_fn_key) for fn's function, or NULL. */
static const struct flat_fn *const *find_fn(const struct flat_fn **all, uint32_t n,
					     const struct flat_fn *fn)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cmp_fn_key(&all[mid], &fn, NULL) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && cmp_fn_key(&all[lo], &fn, NULL) == 0 ? &all[lo] : NULL;
}

/* The per-function table: functions with path samples of event 0, in the
 * order of cpf (by those samples), cpu_pct from d's flat profile f. */
static int make_fns(struct cpath_result *r, const struct flat *cpf, const struct flat *f,
		    char *err, size_t errlen)
{
	const struct flat_fn **all = malloc(((size_t)f->nfns + 1) * sizeof(*all));

	r->fns = calloc((size_t)cpf->nfns + 1, sizeof(*r->fns));
	if (!all || !r->fns) {
		free(all);
		return cpath_oom(err, errlen);
	}
	for (uint32_t i = 0; i < f->nfns; i++)
		all[i] = &f->fns[i];
	qsort_r(all, f->nfns, sizeof(*all), cmp_fn_key, NULL);
	r->all = cpf->all[0];
	for (uint32_t i = 0; i < cpf->nfns; i++) {
		const struct flat_fn *fn = &cpf->fns[i], *const *hit;
		struct cpath_fn *o = &r->fns[r->nfns];

		if (fn->self[0] == 0)
			continue;
		hit = find_fn(all, f->nfns, fn);
		o->name = fn->name;
		o->module = fn->module;
		o->samples = fn->self[0];
		o->cp_pct = rep_pct(fn->self[0], r->all);
		o->cp_time = r->all ? (double)r->length_ns / 1e9 * (double)fn->self[0] /
			(double)r->all : 0.0;
		o->cpu_pct = hit ? rep_pct((*hit)->self[0], f->all[0]) : 0.0;
		r->nfns++;
	}
	free(all);
	return 0;
}

/* Each zeroing row's CP time: the walk's of the functions so named. */
static void zero_cp_time(struct cpath_result *r)
{
	for (uint32_t z = 0; z < r->nzero; z++)
		for (uint32_t i = 0; i < r->nfns; i++)
			if (!strcmp(r->fns[i].name, r->zero[z].name))
				r->zero[z].cp_time += r->fns[i].cp_time;
}

int cpath_build(struct cpath_result *r, const struct rep_data *d, const struct flat *f,
		bool reference, char *err, size_t errlen)
{
	struct flat cpf;
	uint8_t *mask = NULL;
	int rc;

	if (reference && cpath_fn_masks(d, &mask, err, errlen) < 0)
		return -1;
	rc = reference ? cpath_reference(&d->cpath, mask, d->tree.nnodes, r, err, errlen) :
		cpath_walk(&d->cpath, r, err, errlen);
	free(mask);
	if (rc < 0)
		return -1;
	if (sum_runs(r, d, err, errlen) < 0 ||
	    tree_build(&r->cp, &r->tree, 0, err, errlen) < 0) {
		cpath_release(r);
		return -1;
	}
	if (flat_build(&cpf, d, &r->cp, 0, err, errlen) < 0) {
		cpath_release(r);
		return -1;
	}
	rc = make_fns(r, &cpf, f, err, errlen);
	flat_release(&cpf);
	if (rc < 0)
		cpath_release(r);
	else
		zero_cp_time(r);
	return rc;
}
