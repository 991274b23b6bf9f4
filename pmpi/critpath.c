/*
 * critpath.c - the online critical path of one rank (critpath.h): the
 * length, the links where a remote path won, the samples of each segment,
 * and with --cp-trace every event and dependency for the offline reference.
 *
 * Samples reach the drain thread late (at the ring's watermark), so the
 * entry and exit times of the last WINDOW events are kept to place a
 * sample by its timestamp; a sample older than that is counted as
 * unplaced.
 *
 * The analyses' lock (analyses-lock.h) serialises the wrappers of several
 * threads, and the drain thread's use of zeroing's state.  When one
 * thread at a time calls MPI and zeroing is off (cp.solo), the wrappers
 * take no lock: the drain thread then only reads the window, whose
 * slots are written before cp.events counts them (release), and it
 * discards a placement whose slots were reused while it searched.
 *
 * The rest grows with the run: one link per winning merge (cp-links.h),
 * one record per (segment, tree node) with samples (cp-segs.h).
 * --cp-budget bounds both, half each, counted as the records will be
 * written (links exactly, segments at an estimated size): past its half,
 * a side drops its oldest records and moves its cut, and the segments'
 * side also drops those that the links' cut has left unreachable.  The
 * profile says from which event on links and segments are whole (cp_cut),
 * and the report walks the path back to there (docs/critical-path.md
 * "Budget").  With --cp-trace the segments are kept whole: the offline
 * reference needs them.
 *
 * At a fold point (cp-fold.c) the rank hands its links since the last one
 * to the walk, and takes back the ranges of its segments on the path: their
 * samples go into the prefix (cp-prefix.h), and the links and segments up
 * to the fold point are dropped.  The samples and the prefix then change on
 * the MPI thread too, so the drain thread takes samples_lock for them.
 */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "../sampler/rt.h"
#include "analyses-lock.h"
#include "call.h"
#include "critpath.h"
#include "cp-links.h"
#include "cp-prefix.h"
#include "cp-segs.h"
#include "cp-fold-msg.h"
#include "piggyback.h"
#include "cp-zero.h"
#include "cp-monitor.h"
#include "compensate.h"

#define WINDOW 65536u		/* events a sample can still be placed among */
#define SEG_BYTES 16u		/* a cp_seg line without its counts, as --cp-budget counts it */
#define COUNT_BYTES 8u		/* and per count */

struct growable {
	void *v;
	uint32_t n, cap;
};

static struct {
	bool on, trace, ended;
	bool live;		/* on and not ended: one load for every call */
	bool solo;		/* wrappers take no lock (above) */
	/*
	 * Zeroing, --cp-trace or --cp-interval (features), or those or the
	 * lock (extras): a wrapper's step tests extras and does the core
	 * alone when it is clear; takes the lock around the core inline
	 * when only the lock is wanted (a rank calling MPI from several
	 * threads), and calls a function of the features' otherwise.
	 */
	bool extras, features;
	bool quick;		/* live and no extras: a call's entry after one load */
	bool monitor;		/* --cp-interval: report to rank 0 */
	bool overlap;		/* calls of two threads overlapped: no path */
	unsigned inside;	/* threads inside a numbered call */
	uint64_t events;	/* events numbered so far (event 0 = MPI_Init) */
	uint64_t length;	/* path length at the latest boundary */
	uint64_t entry_length;	/* the length at the latest call's entry */
	uint64_t last_exit;	/* end of the latest call: its segment starts */
	uint64_t start;		/* exit of MPI_Init */
	uint64_t end_length, end_time, end_events;
	uint64_t t_entry[WINDOW], t_exit[WINDOW];	/* by event % WINDOW */
	uint64_t budget;	/* --cp-budget */
	uint64_t link_cut;	/* links.cut, for the drain thread */
	uint64_t folds;		/* fold points resolved */
	uint64_t fold_event;	/* this rank's event of the last, 0 none */
	uint64_t fold_ns;	/* the path's length there */
	int64_t gap_rank;	/* where a fold's walk met dropped records, */
	uint64_t gap_event;	/* gap_event 0 when none did */
	struct cp_links links;
	struct growable evs, edges;
} cp;

/* Samples by (segment, node), and the prefix's: the drain thread's and a
 * fold point's, under samples_lock; then fill's. */
static pthread_mutex_t samples_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cp_prefix prefix;
static struct {
	struct cp_segs segs;	/* its cut: since the last fold point */
	uint64_t unplaced;
	uint64_t fold_event;	/* cp.fold_event: kept up to it with cp.trace only */
	bool fold_wanted;	/* a quarter of max recorded: read unlocked at every
				 * collective's start */
} samples;

/* Room for one more element of size sz in g; NULL when memory is short. */
static void *grow(struct growable *g, size_t sz)
{
	if (g->n == g->cap) {
		uint32_t cap = g->cap ? g->cap * 2 : 256;
		void *v = realloc(g->v, (size_t)cap * sz);

		if (!v)
			return NULL;
		g->v = v;
		g->cap = cap;
	}
	return (char *)g->v + (size_t)g->n++ * sz;
}

/* Links and edges both start with their event. */
static int by_event(const void *a, const void *b)
{
	uint64_t x, y;

	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	return x < y ? -1 : x > y;
}

/* Sort records of size sz by event, unless they already are (the usual
 * case: a call completes before the next one starts), which keeps the
 * order of one event's edges: the first of equal remote lengths wins. */
static void sort_by_event(struct growable *g, size_t sz)
{
	for (uint32_t i = 1; i < g->n; i++)
		if (by_event((char *)g->v + (i - 1) * sz, (char *)g->v + i * sz) > 0) {
			qsort(g->v, g->n, sz, by_event);
			return;
		}
}

/* The wrappers' side of the analyses' lock (above); inline as
 * compensate.c's. */
static inline __attribute__((always_inline)) void cp_lock(void)
{
	if (!cp.solo)
		pmpi_analyses_lock();
}

static inline __attribute__((always_inline)) void cp_unlock(void)
{
	if (!cp.solo)
		pmpi_analyses_unlock();
}

/* A slot of the window, which the drain thread may be reading. */
static void set_slot(uint64_t *v, uint64_t e, uint64_t t)
{
	__atomic_store_n(&v[e % WINDOW], t, __ATOMIC_RELAXED);
}

static uint64_t slot(const uint64_t *v, uint64_t e)
{
	return __atomic_load_n(&v[e % WINDOW], __ATOMIC_RELAXED);
}

/* Event e's exit, 0 while it is in its call.  An entry leaves the exit's
 * slot as the event WINDOW before it left it, which ended before this one
 * started: an exit before the entry is no exit yet (a store less on every
 * call). */
static uint64_t exit_of(uint64_t e)
{
	uint64_t x = slot(cp.t_exit, e);

	return x >= slot(cp.t_entry, e) ? x : 0;
}

/* Whether a call's steps may take the unlocked way without extras; the
 * quick parts (call.h) hear at once whether they may without features,
 * the lock being the quick way's to take (way.h). */
static void set_quick(bool quick)
{
	__atomic_store_n(&cp.quick, quick && !cp.extras, __ATOMIC_RELAXED);
	pmpi_quick_part(PMPI_QUICK_CP, quick && !cp.features);
}

/* Half of the budget for each side; none for segments with --cp-trace. */
static void set_budget(uint64_t budget, uint32_t nevents)
{
	uint64_t segs = budget / 2 / (SEG_BYTES + COUNT_BYTES * (uint64_t)nevents);

	cp.budget = budget;
	cp.links.max = budget / 2;
	samples.segs.max = !budget || cp.trace ? 0 :
			   (uint32_t)(segs < 4 ? 4 : segs < UINT32_MAX / 2 ? segs : UINT32_MAX / 2);
}

void pmpi_cp_start(struct rt_state *rt, uint64_t t_exit)
{
	pmpi_analyses_lock();
	__atomic_store_n(&cp.on, true, __ATOMIC_RELAXED);
	__atomic_store_n(&cp.live, true, __ATOMIC_RELAXED);
	cp.trace = rt->opt.cp_trace;
	set_budget(rt->opt.cp_budget, (uint32_t)rt->events.n);
	cpz_start(rt, (int)rt->prof.rank, t_exit);
	cp.monitor = rt->opt.cp_interval > 0;
	cp.events = 1;
	cp.length = 0;
	cp.start = cp.last_exit = t_exit;
	cp.t_entry[0] = cp.t_exit[0] = t_exit;
	cpp_init(&prefix, (uint32_t)rt->events.n);
	cp.solo = pmpi_one_thread && !cpz_active();
	cp.features = cp.trace || cp.monitor || cpz_active();
	cp.extras = !cp.solo || cp.features;
	set_quick(true);
	pmpi_analyses_unlock();
	if (cp.monitor)		/* collective over MPI_COMM_WORLD, like MPI_Init */
		pmpi_cpmon_start((uint64_t)(rt->opt.cp_interval * 1e9), t_exit);
}

bool pmpi_cp_tracing(void)
{
	return cp.trace;
}

/* The entry's event, its segment and the window's slots; the segment.
 * Caller holds the analyses' lock.  Threads watched for overlapping
 * calls unless only one calls MPI (cp.solo, the unlocked way). */
static inline uint64_t enter_event(struct pmpi_call *c, bool watch)
{
	uint64_t seg = c->t0 > cp.last_exit ? c->t0 - cp.last_exit : 0;

	/*
	 * The path model is one sequence of calls per rank; when calls of two
	 * threads overlap, a call's completion may depend on a later call of
	 * the same rank and the links no longer describe a path.  The rank
	 * then reports no path rather than a wrong one.
	 */
	if (watch) {
		cp.overlap |= cp.inside > 0;
		cp.inside++;
	}
	c->event = cp.events;
	cp.length += seg;
	cp.entry_length = cp.length;
	set_slot(cp.t_entry, c->event, c->t0);	/* in the call: exit_of */
	__atomic_store_n(&cp.events, c->event + 1, __ATOMIC_RELEASE);	/* after its slots */
	return seg;
}

/* The entry with cp.features: under the lock, zeroing, the trace, the
 * monitor. */
__attribute__((noinline))
static void enter_with_features(struct pmpi_call *c)
{
	uint64_t seg, length;

	if (cpz_active()) {	/* the segment's samples, complete before it is used */
		struct cost_mark m = pmpi_cost_mark();

		rt_drain_self(rt_current());
		pmpi_cost_drain(&m);
	}
	cp_lock();
	seg = enter_event(c, true);
	cpz_enter(c->event, c->t0, seg, cp.length);
	if (cp.trace) {
		struct prof_cp_event *e = grow(&cp.evs, sizeof(*e));

		if (e)
			*e = (struct prof_cp_event){ c->event, seg, c->t0, c->t0 };
	}
	length = cp.length;
	cp_unlock();
	if (cp.monitor)
		pmpi_cpmon_tick(c->t0, length);
}

void pmpi_cp_enter(struct pmpi_call *c, enum pmpi_way quick)
{
	/* read unlocked by every call: set once, under the lock, at start and end */
	if (quick == PMPI_QUICK ||
	    (!quick && __builtin_expect(__atomic_load_n(&cp.quick, __ATOMIC_RELAXED), 1))) {
		enter_event(c, false);
		return;
	}
	if (quick) {
		pmpi_analyses_lock_way(quick);
		enter_event(c, true);
		pmpi_analyses_unlock_way(quick);
		return;
	}
	c->event = 0;
	if (!__atomic_load_n(&cp.live, __ATOMIC_RELAXED))
		return;
	if (!cp.features) {
		cp_lock();
		enter_event(c, true);
		cp_unlock();
	} else {
		enter_with_features(c);
	}
}

/* The trace record of event e (events are appended in order); NULL when
 * memory was short. */
static struct prof_cp_event *trace_event(uint64_t e)
{
	struct prof_cp_event *v = cp.evs.v;
	uint32_t lo = 0, hi = cp.evs.n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid].event < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cp.evs.n && v[lo].event == e ? &v[lo] : NULL;
}

/* The exit's part of the path: the next segment's start, the window's
 * slot.  Caller holds the analyses' lock; watch as the entry had it. */
static inline void leave_event(const struct pmpi_call *c, uint64_t t, bool watch)
{
	if (watch)
		cp.inside--;
	if (t > cp.last_exit)
		cp.last_exit = t;
	/* unwatched, calls do not overlap: c's is the latest event */
	if (!watch || cp.events - c->event <= WINDOW)
		set_slot(cp.t_exit, c->event, t);
}

/* The exit with cp.features: under the lock, the trace. */
__attribute__((noinline))
static void leave_with_features(const struct pmpi_call *c, uint64_t t)
{
	cp_lock();
	leave_event(c, t, true);
	if (cp.trace) {
		struct prof_cp_event *e = trace_event(c->event);

		if (e)
			e->t_exit = t;
	}
	cp_unlock();
}

void pmpi_cp_leave(const struct pmpi_call *c, uint64_t t, enum pmpi_way quick)
{
	if (!c->event)
		return;
	if (quick == PMPI_QUICK || (!quick && __builtin_expect(!cp.extras, 1))) {
		leave_event(c, t, false);
	} else if (quick) {
		pmpi_analyses_lock_way(quick);
		leave_event(c, t, true);
		pmpi_analyses_unlock_way(quick);
	} else if (!cp.features) {
		cp_lock();
		leave_event(c, t, true);
		cp_unlock();
	} else {
		leave_with_features(c, t);
	}
}

void pmpi_cp_stamp(const struct pmpi_call *c, struct pmpi_pb *pb, enum pmpi_way quick)
{
	if (quick) {	/* no zeroing */
		pmpi_analyses_lock_way(quick);
		pb->cp = (int64_t)cp.length;
		pmpi_analyses_unlock_way(quick);
	} else {
		cp_lock();
		pb->cp = (int64_t)cp.length;
		cpz_stamp(pb);
		cp_unlock();
	}
	pb->event = c->event;
}

void pmpi_cp_stamp_core(const struct pmpi_call *c, struct pmpi_pb_core *k, enum pmpi_way quick)
{
	if (!quick && __atomic_load_n(&cp.quick, __ATOMIC_RELAXED))
		quick = PMPI_QUICK;
	if (quick) {
		pmpi_analyses_lock_way(quick);
		k->cp = (int64_t)cp.length;
		pmpi_analyses_unlock_way(quick);
	} else {
		cp_lock();
		k->cp = (int64_t)cp.length;
		cp_unlock();
	}
	k->event = c->event;
}

/* Log a dependency of c's exit.  Caller holds the analyses' lock. */
static void add_edge(const struct pmpi_call *c, int64_t rank, uint64_t event)
{
	struct prof_cp_edge *d;

	if (cp.trace && c->event && event && (d = grow(&cp.edges, sizeof(*d))))
		*d = (struct prof_cp_edge){ c->event, rank, event };
}

void pmpi_cp_edge(const struct pmpi_call *c, int64_t rank, uint64_t event)
{
	cp_lock();
	add_edge(c, rank, event);
	cp_unlock();
}

/* The path rule, and the link where the remote path won.  Caller holds
 * the analyses' lock. */
static inline bool merge_path(const struct pmpi_call *c, const struct pmpi_pb *pb)
{
	bool took = pb_path_rule(&cp.length, pb);

	if (took) {
		cpl_set(&cp.links, c->event, pb->rank, pb->event);
		if (cp.links.cut != cp.link_cut)
			__atomic_store_n(&cp.link_cut, cp.links.cut, __ATOMIC_RELAXED);
	}
	return took;
}

/* The merge with cp.features: under the lock, the trace's edge, zeroing. */
__attribute__((noinline))
static void merge_with_features(const struct pmpi_call *c, const struct pmpi_pb *pb, bool edge)
{
	bool took;

	cp_lock();
	if (edge)
		add_edge(c, pb->rank, pb->event);
	took = merge_path(c, pb);
	cpz_merge(c->event, cp.entry_length, pb, took);
	cp_unlock();
}

void pmpi_cp_merge(const struct pmpi_call *c, const struct pmpi_pb *pb, bool edge, enum pmpi_way quick)
{
	if (!c->event || !pb->event || pb->cp < 0)
		return;		/* not on a path: before MPI_Init's exit, or ended */
	if (quick == PMPI_QUICK || (!quick && __builtin_expect(!cp.extras, 1))) {
		merge_path(c, pb);
	} else if (quick) {
		pmpi_analyses_lock_way(quick);
		merge_path(c, pb);
		pmpi_analyses_unlock_way(quick);
	} else if (!cp.features) {
		cp_lock();
		merge_path(c, pb);
		cp_unlock();
	} else {
		merge_with_features(c, pb, edge);
	}
}

void pmpi_cp_end(void)
{
	bool report = false;

	pmpi_analyses_lock();
	if (cp.on && !cp.ended) {
		__atomic_store_n(&cp.ended, true, __ATOMIC_RELAXED);
		__atomic_store_n(&cp.live, false, __ATOMIC_RELAXED);
		set_quick(false);
		cp.end_events = cp.events;	/* the last is MPI_Finalize */
		cp.end_length = cp.length;
		cpz_end();
		cp.end_time = cp.t_entry[(cp.events - 1) % WINDOW];
		report = cp.monitor;
	}
	pmpi_analyses_unlock();
	pmpi_comp_end(cp.end_time);
	if (report)	/* every rank, at MPI_Finalize's entry */
		pmpi_cpmon_end(cp.end_time, cp.end_length);
}

/* --- samples, on the drain thread */

/*
 * The segment a sample taken at t belongs to: e >= 1 with t between the
 * exit of event e-1 and the entry of event e; 0 when it fell inside an MPI
 * call, before MPI_Init's exit or out of the window.  Caller holds the analyses' lock
 * (which solo wrappers do not take: slots of events from lo on are
 * reused once cp.events reaches lo + WINDOW).
 */
static uint64_t segment_at(uint64_t t)
{
	uint64_t lo, hi, n = __atomic_load_n(&cp.events, __ATOMIC_ACQUIRE), seg, x;

	if (n < 1 || t < cp.start)
		return 0;
	if ((x = exit_of(n - 1)) && t >= x)
		return n;	/* the open segment */
	lo = n > WINDOW ? n - WINDOW + 1 : 1;
	hi = n - 1;
	if (t < slot(cp.t_entry, lo) && lo > 1) {
		samples.unplaced++;
		return 0;
	}
	/* the first event entered after t: entries grow with the numbers */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (slot(cp.t_entry, mid) > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (slot(cp.t_entry, lo) <= t)
		return 0;	/* inside the last call */
	seg = (x = exit_of(lo - 1)) && t >= x ? lo : 0;
	if (__atomic_load_n(&cp.events, __ATOMIC_ACQUIRE) >= lo - 1 + WINDOW) {
		samples.unplaced++;	/* its slots were reused meanwhile */
		return 0;
	}
	return seg;
}

void pmpi_cp_sample(struct rt_state *rt, uint64_t time, uint32_t node, const uint64_t *w)
{
	struct prof_cp_seg *s;
	uint64_t seg;

	pmpi_comp_sample();
	if (!__atomic_load_n(&cp.on, __ATOMIC_RELAXED))
		return;
	pmpi_analyses_lock();
	seg = segment_at(time);
	if (seg)
		cpz_sample(rt, seg, node, w);
	pmpi_analyses_unlock();
	rt_lock(&samples_lock);
	if (samples.segs.max && __atomic_load_n(&cp.link_cut, __ATOMIC_RELAXED) > samples.segs.cut)
		cps_keep_from(&samples.segs, __atomic_load_n(&cp.link_cut, __ATOMIC_RELAXED));
	if (seg && seg <= samples.fold_event) {	/* it reached us after its fold point */
		if (cpp_on_path(&prefix, seg))
			cpp_add(&prefix, node, w);
		if (!cp.trace)
			seg = 0;
	}
	if (seg >= samples.segs.cut && seg && (s = cps_entry(&samples.segs, seg, node,
							    (uint32_t)rt->events.n)))
		for (int e = 0; e < rt->events.n; e++)
			s->counts[e] += w[e];
	if (samples.segs.max && samples.segs.n >= samples.segs.max / 4 && !samples.fold_wanted)
		__atomic_store_n(&samples.fold_wanted, true, __ATOMIC_RELAXED);
	rt_unlock(&samples_lock);
}

/* --- fold points (cp-fold.c) */

uint64_t pmpi_cp_end_event(void)
{
	uint64_t e;

	pmpi_analyses_lock();
	e = cp.on && cp.ended ? cp.end_events - 1 : 0;
	pmpi_analyses_unlock();
	return e;
}

uint64_t pmpi_cp_folds(void)
{
	uint64_t n;

	cp_lock();
	n = cp.folds;
	cp_unlock();
	return n;
}

bool pmpi_cp_fold_wanted(enum pmpi_way quick)
{
	bool links;

	if (__atomic_load_n(&samples.fold_wanted, __ATOMIC_RELAXED))
		return true;
	if (quick)
		pmpi_analyses_lock_way(quick);
	else
		cp_lock();
	links = cp.on && !cp.ended && cp.links.max && cp.links.bytes >= cp.links.max / 4;
	if (quick)
		pmpi_analyses_unlock_way(quick);
	else
		cp_unlock();
	return links;
}

int pmpi_cp_fold_message(unsigned char **msg, size_t *len)
{
	struct fold_state st = { 0 };
	uint64_t cut, after;
	bool path;
	int rc;

	cp_lock();
	path = cp.on && !cp.overlap && !cp.links.lost;
	if (path) {
		rt_lock(&samples_lock);
		cut = samples.segs.cut > cp.links.cut ? samples.segs.cut : cp.links.cut;
		rt_unlock(&samples_lock);
		after = cp.fold_event + 1;
		st = (struct fold_state){ 1, cp.events, cp.length, cut > after ? cut : after,
					  cut > after, cp.budget };
	}
	rc = foldmsg_pack(&st, path ? &cp.links : NULL, msg, len);
	cp_unlock();
	return rc;
}

void pmpi_cp_fold_apply(uint64_t event, const struct fold_answer *a)
{
	uint64_t max;

	cp_lock();
	max = cp.links.max;
	cpl_free(&cp.links);
	cp.links.max = max;
	__atomic_store_n(&cp.link_cut, 0, __ATOMIC_RELAXED);
	cp.folds++;
	cp.fold_event = event;
	cp.fold_ns = a->length;
	if (a->gap_event) {
		cp.gap_rank = a->gap_rank;
		cp.gap_event = a->gap_event;
	}
	cp_unlock();
	rt_lock(&samples_lock);
	cpp_fold(&prefix, a->ranges, a->nranges, a->gap_event != 0);
	cps_fold(&samples.segs, event, &prefix, cp.trace);
	samples.fold_event = event;
	samples.segs.cut = 0;
	__atomic_store_n(&samples.fold_wanted,
			 samples.segs.max && samples.segs.n >= samples.segs.max / 4, __ATOMIC_RELAXED);
	rt_unlock(&samples_lock);
}

/* --- the end */

/* Move what g holds into *v, *n; g is left empty. */
static void hand_over(struct growable *g, void *v, uint32_t *n)
{
	memcpy(v, &g->v, sizeof(void *));
	*n = g->n;
	*g = (struct growable){ 0 };
}

/* The links into the profile, by event: calls of several threads may
 * complete out of their entry order.  Links that found no memory, or
 * none to be decoded into, are said. */
static void take_links(struct rt_state *rt, struct profile *p)
{
	struct growable g = { 0 };

	if (cpl_decode(&cp.links, (struct prof_cp_link **)&g.v, &g.n))
		cp.links.lost += cp.links.n;
	if (cp.links.lost)
		rt_notice(rt, "rank %lld: %llu critical-path links lost (memory was short): "
			  "the path's profile is incomplete", (long long)p->rank,
			  (unsigned long long)cp.links.lost);
	cpl_free(&cp.links);
	sort_by_event(&g, sizeof(struct prof_cp_link));
	hand_over(&g, &p->cp_links, &p->ncp_links);
}

/*
 * The profile's cut: 0 when nothing was dropped.  Otherwise each side held
 * between three quarters of its limit and all of it, depending on when it
 * last dropped; both are cut to three quarters, so that a run writes the
 * same amount however long it ran past its budget.  The links' limit and
 * cut are given: p holds the links now, and cp.links is empty.
 */
static uint64_t final_cut(const struct profile *p, uint64_t link_max, uint64_t link_cut)
{
	uint64_t cut = link_cut > samples.segs.cut ? link_cut : samples.segs.cut;
	uint64_t keep_bytes = link_max - link_max / 4;
	uint64_t keep_segs = samples.segs.max - samples.segs.max / 4;
	uint64_t seg, bytes = 0;

	if (!cut)
		return 0;
	for (uint32_t i = p->ncp_links; i-- > 0;) {
		const struct prof_cp_link *l = &p->cp_links[i];

		bytes += cpl_line_bytes(l->event, l->rank, l->from);
		if (bytes > keep_bytes) {
			cut = l->event + 1 > cut ? l->event + 1 : cut;
			break;
		}
	}
	if (samples.segs.max && samples.segs.n > keep_segs &&
	    cps_nth(&samples.segs, (uint32_t)(samples.segs.n - keep_segs), &seg) && seg > cut)
		cut = seg;
	return cut;
}

/* Drop p's links of events before cut. */
static void keep_links_from(struct profile *p, uint64_t cut)
{
	uint32_t k = 0;

	while (k < p->ncp_links && p->cp_links[k].event < cut)
		k++;
	if (k)
		memmove(p->cp_links, p->cp_links + k, (p->ncp_links - k) * sizeof(*p->cp_links));
	p->ncp_links -= k;
}

static void free_samples(void)
{
	cps_free(&samples.segs);
	memset(&samples, 0, sizeof(samples));
	cpp_free(&prefix);
}

/* The fold points and the prefix's samples into p; samples that found no
 * memory are said. */
static void fill_folds(struct rt_state *rt, struct profile *p)
{
	p->cp_folds = cp.folds;
	p->cp_fold_event = cp.fold_event;
	p->cp_fold_ns = cp.fold_ns;
	p->cp_gap_rank = cp.gap_rank;
	p->cp_gap_event = cp.gap_event;
	if (cpp_records(&prefix, &p->cp_prefix, &p->ncp_prefix) < 0)
		prefix.lost++;
	if (prefix.lost)
		rt_notice(rt, "rank %lld: samples of the critical path's prefix lost (memory was "
			  "short): the path's profile is incomplete", (long long)p->rank);
}

void pmpi_cp_fill(struct rt_state *rt)
{
	struct profile *p = &rt->prof;
	uint64_t link_max, link_cut;

	pmpi_analyses_lock();
	if (!cp.on || cp.overlap) {
		if (cp.overlap)
			rt_notice(rt, "rank %lld: no critical path: MPI calls of several threads "
				  "overlapped (the path model needs one sequence of calls per rank)",
				  (long long)p->rank);
		pmpi_analyses_unlock();
		free_samples();
		return;
	}
	if (!cp.ended) {	/* no MPI_Finalize: the path ends here */
		uint64_t now = rt_now_ns();

		cp.end_events = cp.events + 1;
		cp.end_length = cp.length + (now > cp.last_exit ? now - cp.last_exit : 0);
		cp.end_time = now;
		cp.ended = true;
		__atomic_store_n(&cp.live, false, __ATOMIC_RELAXED);
		set_quick(false);
		cpz_end();
	}
	p->cp_events = cp.end_events;
	p->cp_length_ns = cp.end_length;
	p->cp_wall_ns = cp.end_time - cp.start;
	p->cp_trace = cp.trace;
	p->cp_budget = cp.budget;
	link_max = cp.links.max;
	link_cut = cp.links.cut;
	take_links(rt, p);
	while (p->ncp_links && p->cp_links[p->ncp_links - 1].event >= p->cp_events)
		p->ncp_links--;
	p->cp_cut = final_cut(p, link_max, link_cut);
	if (p->cp_cut > p->cp_events)
		p->cp_cut = p->cp_events;
	keep_links_from(p, p->cp_cut);
	if (cp.trace) {
		hand_over(&cp.evs, &p->cp_evs, &p->ncp_evs);
		while (p->ncp_evs && p->cp_evs[p->ncp_evs - 1].event >= p->cp_events)
			p->ncp_evs--;
		sort_by_event(&cp.edges, sizeof(struct prof_cp_edge));
		hand_over(&cp.edges, &p->cp_edges, &p->ncp_edges);
		while (p->ncp_edges && p->cp_edges[p->ncp_edges - 1].event >= p->cp_events)
			p->ncp_edges--;
	}
	cpz_fill(rt);
	if (cp.monitor)
		pmpi_cpmon_fill(p);
	fill_folds(rt, p);
	pmpi_analyses_unlock();
	cps_take(&samples.segs, p->cp_events, p->cp_cut, cp.trace, &p->cp_segs, &p->ncp_segs);
	free_samples();
}
