/*
 * cpath-ref.c - the reference critical path (--reference): every rank's
 * lengths recomputed offline from the --cp-trace records, the winning
 * dependency of every exit derived as online, and the walk of cpath.c
 * over those links.  Ranks advance from a work queue while the
 * dependencies of their next exit are known, so nothing recurses.  With a
 * selection, zeroing's N_f and S_f are recomputed over the same graph, f's
 * time in a segment apportioned from the segment's samples whose call
 * path holds f (docs/critical-path.md "Zeroing").  Lengths summed from the
 * records saturate at 2^64 - 1 ns.
 */
#include <stdio.h>
#include <stdlib.h>
#include "cpath-int.h"
#include "../common/sum.h"

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

	if (nz == 0 || !cpath_fn_tracked(rk))
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
		long j = cpath_rank_index(s->c, ed->rank);

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
		long j = cpath_rank_index(s->c, win->rank);
		bool carries = fn_carries(&s->c->ranks[j], win->from);

		for (uint32_t f = 0; f < nz; f++)
			sh[f] = carries ? s->rr[j].sent[win->from * nz + f] : 0;
	}
	for (uint32_t f = 0; f < nz; f++) {
		nin[f] = sum_sat(n[f], rk->seg_ns[e + 1]) - ft[f];
		sin[f] = sum_sat(sh[f], ft[f]);
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
			long j = cpath_rank_index(s->c, ed->rank);

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
		q->lent[e + 1] = sum_sat(best, rk->seg_ns[e + 1]);
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

	if (nz == 0 || !cpath_fn_tracked(rk) || rk->events < 2)
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
			uint64_t n = cpath_fn_tracked(rk) ? s->rr[i].nent[last * nz + f] :
				s->rr[i].lent[last];

			net[f] = n > net[f] ? n : net[f];
			if (i == end && cpath_fn_tracked(rk))
				share[f] = s->rr[i].sent[last * nz + f];
		}
	}
	return cpath_fill_zero(r, c, net, share, err, errlen);
}

int cpath_reference(const struct rep_cpath *c, const uint8_t *fn_mask, uint32_t nmask,
		    struct cpath_result *r, char *err, size_t errlen)
{
	struct ref_state s = { c, NULL, NULL, 0, 0, c->nfns };
	struct cp_walk_rank *v = NULL;
	uint32_t start = 0;
	int rc = -1;

	cpath_result_init(r);
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
		v[i] = (struct cp_walk_rank){ c->ranks[i].rank, c->ranks[i].events, 1, false, 0,
					      NULL, s.rr[i].links, s.rr[i].nlinks };
	}
	r->reference = true;
	r->end_rank = c->ranks[start].rank;
	r->length_ns = s.rr[start].lent[c->ranks[start].events - 1];
	r->wall_ns = cpath_max_wall(c);
	rc = cpath_walk_from(c, v, start, r, err, errlen);
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
