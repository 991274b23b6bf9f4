/*
 * profile-read-cp.c - the reader's critical-path records (docs/format.md
 * "Critical path"): cp_link (where the path came from at an event's exit),
 * cp_seg (samples of one segment under one tree node), cp_prefix (the
 * samples of the path up to its last fold point under one node), and with
 * cp_trace
 * cp_ev (every event's segment length and timestamps) and cp_edge (every
 * dependency of an event's exit), then cp_fn (zeroing: one selected
 * function's net length and share) and cp_point (the run's path length
 * over time).  They follow the MPI records, so the
 * scalars cp_events and cp_trace, the job size and the whole tree are
 * known when they are read.  Like the MPI records, each is appended to the
 * profile before it is checked, so a failure leaves nothing that
 * profile_release cannot free; the rules are those of profile.c, which the
 * writer applies too.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "profile-read-int.h"

/* A record of kind what may appear at all: cp_events was read and is not
 * 0, and for the trace records (trace set) cp_trace was read and is 1. */
static int pr_cp_allowed(struct parser *ps, const char *what, int trace)
{
	const struct profile *p = ps->p;

	if (ps->cp_allowed & (1 << trace))
		return 0;
	if (!pr_scalar_seen(ps, "cp_events"))
		return pr_err(ps, "%s record without a 'cp_events' record before it", what);
	if (!p->cp_events)
		return pr_err(ps, "%s record but cp_events is 0 (no critical path)", what);
	if (trace && !pr_scalar_seen(ps, "cp_trace"))
		return pr_err(ps, "%s record without a 'cp_trace' record before it", what);
	if (trace && p->cp_trace != 1)
		return pr_err(ps, "%s record but cp_trace is 0 (no trace)", what);
	ps->cp_allowed |= 1 << trace;
	return 0;
}

/* The local event of a record of kind what. */
static int pr_cp_event(struct parser *ps, struct cursor *c, const char *what,
		       const char *field, uint64_t *event)
{
	if (pr_u64(ps, c, field, event))
		return -1;
	if (!prof_cp_event_ok(ps->p, *event))
		return pr_err(ps, "%s %s %" PRIu64 " out of range (must be 1 to %" PRIu64 ")",
			      what, field, *event, ps->p->cp_events - 1);
	return 0;
}

/* The rules of a dependency (event, rank, from) of a record of kind what. */
static int pr_cp_dep_check(struct parser *ps, const char *what, uint64_t event, int64_t rank,
			   uint64_t from)
{
	if (!prof_cp_event_ok(ps->p, event))
		return pr_err(ps, "%s event %" PRIu64 " out of range (must be 1 to %" PRIu64 ")",
			      what, event, ps->p->cp_events - 1);
	if (!prof_cp_rank_ok(ps->p, rank))
		return pr_err(ps, "%s rank %" PRId64 " is not a rank of this job (size %" PRId64 ")",
			      what, rank, ps->p->size);
	if (!prof_cp_from_ok(from))
		return pr_err(ps, "%s from 0: a sender's path starts after its event 0", what);
	return 0;
}

/* A canonical unsigned decimal of 1 to 19 digits at *p, ending at a space
 * (stepped over) or at end; false for anything else. */
static bool fast_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int n = 0;

	for (; s < end && *s != ' '; s++, n++) {
		unsigned d = (unsigned)(*s - '0');

		if (d > 9 || n == 19)
			return false;
		x = x * 10 + d;
	}
	if (n == 0 || (n > 1 && (*p)[0] == '0') || (s < end && s + 1 == end))
		return false;
	*p = s < end ? s + 1 : s;
	*v = x;
	return true;
}

/*
 * EVENT RANK FROM in one pass, for the commonest record of long runs: true
 * when the rest of the line is exactly three canonical numbers (the rank
 * non-negative).  Anything else, error or not, is left to the field
 * readers, which say what is wrong.
 */
static bool fast_dep(const struct cursor *c, uint64_t *event, int64_t *rank, uint64_t *from)
{
	const char *p = c->p;
	uint64_t r;

	if (!fast_u64(&p, c->end, event) || !fast_u64(&p, c->end, &r) ||
	    !fast_u64(&p, c->end, from) || p != c->end || r > INT64_MAX)
		return false;
	*rank = (int64_t)r;
	return true;
}

/* EVENT RANK FROM of a cp_link or cp_edge record, then the end of the line. */
static int pr_cp_dep(struct parser *ps, struct cursor *c, const char *what,
		     uint64_t *event, int64_t *rank, uint64_t *from)
{
	if (!fast_dep(c, event, rank, from) &&
	    (pr_u64(ps, c, "event", event) || pr_i64(ps, c, "rank", rank) ||
	     pr_u64(ps, c, "from", from) || pr_done(ps, c)))
		return -1;
	return pr_cp_dep_check(ps, what, *event, *rank, *from);
}

/* Append link (event, rank, from), read from the current line. */
static int cp_link_add(struct parser *ps, const char *line_end, uint64_t event, int64_t rank,
		       uint64_t from)
{
	struct profile *p = ps->p;
	uint32_t i = p->ncp_links;
	struct prof_cp_link *l;

	if (pr_cp_dep_check(ps, "cp_link", event, rank, from))
		return -1;
	if (i && event <= p->cp_links[i - 1].event)
		return pr_err(ps, "cp_link event %" PRIu64 " not after the previous cp_link's "
			      "%" PRIu64 " (links are by increasing event, one per event)",
			      event, p->cp_links[i - 1].event);
	if (!ps->cp_links_alloc && ps->body_end && line_end < ps->body_end) {
		/* Room for the links the rest of the file holds, about one per 16
		 * bytes: a long run's links are most of it, and growing by
		 * doubling copied them several times. */
		size_t guess = (size_t)(ps->body_end - line_end) / 16 + 1;

		ps->cp_links_alloc = guess < UINT32_MAX / 4 ? (uint32_t)guess : UINT32_MAX / 4;
		if (!(p->cp_links = malloc(ps->cp_links_alloc * sizeof(*l)))) {
			ps->cp_links_alloc = 0;
			return pr_err(ps, "out of memory");
		}
	}
	if (pr_grow(ps, (void **)&p->cp_links, i, &ps->cp_links_alloc, sizeof(*l)))
		return -1;
	l = &p->cp_links[i];
	*l = (struct prof_cp_link){ .event = event, .rank = rank, .from = from };
	p->ncp_links++;
	return 0;
}

/* cp_link EVENT RANK FROM */
int rec_cp_link(struct parser *ps, struct cursor *c)
{
	uint64_t event, from;
	int64_t rank;

	if (pr_cp_allowed(ps, "cp_link", 0) || pr_cp_dep(ps, c, "cp_link", &event, &rank, &from))
		return -1;
	return cp_link_add(ps, c->end, event, rank, from);
}

/* See profile-read-int.h. */
int rec_cp_link_fast(struct parser *ps, const char *s, const char *end)
{
	static const char key[] = "cp_link ";
	struct cursor c = { s + sizeof(key) - 1, end };
	uint64_t event, from;
	int64_t rank;

	if (ps->section != PS_CP_LINK || !(ps->cp_allowed & 1) || end - s < (long)sizeof(key) ||
	    memcmp(s, key, sizeof(key) - 1) || !fast_dep(&c, &event, &rank, &from))
		return PR_NOT_FAST;
	return cp_link_add(ps, end, event, rank, from);
}

/*
 * The earlier cp_seg with the same segment and node as cp_seg i, or i, or
 * UINT32_MAX when memory is short.  Profiles are written sorted by
 * (segment, node), and while they come so none can repeat an earlier one:
 * the set of those seen is built only when one comes out of order.
 */
static uint32_t cp_seg_seen(struct parser *ps, uint32_t i)
{
	const struct prof_cp_seg *g = ps->p->cp_segs;

	if (!ps->cp_segs_hashed) {
		if (i == 0 || g[i - 1].seg < g[i].seg ||
		    (g[i - 1].seg == g[i].seg && g[i - 1].node < g[i].node))
			return i;
		ps->cp_segs_hashed = 1;
		for (uint32_t k = 0; k < i; k++)
			if (prof_cp_seg_dup(&ps->cp_segs, ps->p, k) == UINT32_MAX)
				return UINT32_MAX;
	}
	return prof_cp_seg_dup(&ps->cp_segs, ps->p, i);
}

/* cp_seg SEG NODE COUNT... */
int rec_cp_seg(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->ncp_segs, j;
	struct prof_cp_seg *g;

	if (pr_cp_allowed(ps, "cp_seg", 0) ||
	    pr_grow(ps, (void **)&p->cp_segs, i, &ps->cp_segs_alloc, sizeof(*g)))
		return -1;
	g = &p->cp_segs[i];
	memset(g, 0, sizeof(*g));
	g->counts = calloc(p->nevents ? p->nevents : 1, sizeof(*g->counts));
	if (!g->counts)
		return pr_err(ps, "out of memory");
	p->ncp_segs++;
	if (pr_cp_event(ps, c, "cp_seg", "segment", &g->seg) ||
	    pr_index(ps, c, "cp_seg node", p->tree.nnodes, &g->node) ||
	    pr_counts(ps, c, g->counts, p->nevents))
		return -1;
	j = cp_seg_seen(ps, i);
	if (j == UINT32_MAX)
		return pr_err(ps, "out of memory");
	if (j != i)
		return pr_err(ps, "duplicate of cp_seg %" PRIu32 " (same segment %" PRIu64
			      " and node %" PRIu32 ")", j, g->seg, g->node);
	return 0;
}

/* cp_prefix NODE COUNT... */
int rec_cp_prefix(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->ncp_prefix;
	struct prof_cp_prefix *x;

	if (pr_cp_allowed(ps, "cp_prefix", 0))
		return -1;
	if (!pr_scalar_seen(ps, "cp_folds") || !p->cp_folds)
		return pr_err(ps, "cp_prefix record without a fold point (cp_folds 0 or not "
			      "before it)");
	if (pr_grow(ps, (void **)&p->cp_prefix, i, &ps->cp_prefix_alloc, sizeof(*x)))
		return -1;
	x = &p->cp_prefix[i];
	memset(x, 0, sizeof(*x));
	x->counts = calloc(p->nevents ? p->nevents : 1, sizeof(*x->counts));
	if (!x->counts)
		return pr_err(ps, "out of memory");
	p->ncp_prefix++;
	if (pr_index(ps, c, "cp_prefix node", p->tree.nnodes, &x->node) ||
	    pr_counts(ps, c, x->counts, p->nevents))
		return -1;
	if (i && x->node <= x[-1].node)
		return pr_err(ps, "cp_prefix node %" PRIu32 " not after the previous "
			      "cp_prefix's %" PRIu32 " (by increasing node)", x->node, x[-1].node);
	return 0;
}

/* cp_ev EVENT SEG_NS T_ENTRY T_EXIT */
int rec_cp_ev(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->ncp_evs;
	struct prof_cp_event *e;

	if (pr_cp_allowed(ps, "cp_ev", 1) ||
	    pr_grow(ps, (void **)&p->cp_evs, i, &ps->cp_evs_alloc, sizeof(*e)))
		return -1;
	e = &p->cp_evs[i];
	memset(e, 0, sizeof(*e));
	p->ncp_evs++;
	if (pr_cp_event(ps, c, "cp_ev", "event", &e->event) ||
	    pr_u64(ps, c, "seg_ns", &e->seg_ns) || pr_u64(ps, c, "t_entry", &e->t_entry) ||
	    pr_u64(ps, c, "t_exit", &e->t_exit) || pr_done(ps, c))
		return -1;
	if (i && e->event <= e[-1].event)
		return pr_err(ps, "cp_ev event %" PRIu64 " not after the previous cp_ev's "
			      "%" PRIu64 " (by increasing event, one per event)",
			      e->event, e[-1].event);
	if (e->t_exit < e->t_entry)
		return pr_err(ps, "cp_ev t_exit %" PRIu64 " before t_entry %" PRIu64,
			      e->t_exit, e->t_entry);
	return 0;
}

/* cp_edge EVENT RANK FROM */
int rec_cp_edge(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->ncp_edges;
	struct prof_cp_edge *e;

	if (pr_cp_allowed(ps, "cp_edge", 1) ||
	    pr_grow(ps, (void **)&p->cp_edges, i, &ps->cp_edges_alloc, sizeof(*e)))
		return -1;
	e = &p->cp_edges[i];
	memset(e, 0, sizeof(*e));
	p->ncp_edges++;
	return pr_cp_dep(ps, c, "cp_edge", &e->event, &e->rank, &e->from);
}

/* A cp_fn record may appear: cp_fn_how was read and is not NONE, and
 * cp_length_ns, which bounds its lengths, was read. */
static int pr_cp_fn_allowed(struct parser *ps)
{
	if (!pr_scalar_seen(ps, "cp_fn_how"))
		return pr_err(ps, "cp_fn record without a 'cp_fn_how' record before it");
	if (ps->p->cp_fn_how == PROF_CP_FN_NONE)
		return pr_err(ps, "cp_fn record but cp_fn_how is 0 (none)");
	if (!pr_scalar_seen(ps, "cp_length_ns"))
		return pr_err(ps, "cp_fn record without a 'cp_length_ns' record before it");
	return 0;
}

/* cp_fn INDEX NAME NET_NS SHARE_NS */
int rec_cp_fn(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->ncp_fns, j;
	struct prof_cp_fn *f;

	if (pr_cp_allowed(ps, "cp_fn", 0) || pr_cp_fn_allowed(ps))
		return -1;
	if (i == PROF_CP_FNS)
		return pr_err(ps, "more than %d cp_fn records", PROF_CP_FNS);
	if (pr_seq(ps, c, "cp_fn", i) ||
	    pr_grow(ps, (void **)&p->cp_fns, i, &ps->cp_fns_alloc, sizeof(*f)))
		return -1;
	f = &p->cp_fns[i];
	memset(f, 0, sizeof(*f));
	p->ncp_fns++;
	if (pr_str(ps, c, "cp_fn name", &f->name) || pr_u64(ps, c, "net_ns", &f->net_ns) ||
	    pr_u64(ps, c, "share_ns", &f->share_ns) || pr_done(ps, c))
		return -1;
	if (!prof_cp_fn_ns_ok(p, f->net_ns))
		return pr_err(ps, "cp_fn net_ns %" PRIu64 " exceeds cp_length_ns %" PRIu64,
			      f->net_ns, p->cp_length_ns);
	if (!prof_cp_fn_ns_ok(p, f->share_ns))
		return pr_err(ps, "cp_fn share_ns %" PRIu64 " exceeds cp_length_ns %" PRIu64,
			      f->share_ns, p->cp_length_ns);
	j = prof_cp_fn_dup(p, i);
	if (j != i)
		return pr_err(ps, "duplicate of cp_fn %" PRIu32 " (same name)", j);
	return 0;
}

/* cp_point T_NS LENGTH_NS */
int rec_cp_point(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->ncp_points;
	struct prof_cp_point *pt;

	if (pr_cp_allowed(ps, "cp_point", 0) ||
	    pr_grow(ps, (void **)&p->cp_points, i, &ps->cp_points_alloc, sizeof(*pt)))
		return -1;
	pt = &p->cp_points[i];
	memset(pt, 0, sizeof(*pt));
	p->ncp_points++;
	if (pr_u64(ps, c, "t_ns", &pt->t_ns) || pr_u64(ps, c, "length_ns", &pt->length_ns) ||
	    pr_done(ps, c))
		return -1;
	if (i && pt->t_ns < pt[-1].t_ns)
		return pr_err(ps, "cp_point t_ns %" PRIu64 " before the previous cp_point's %"
			      PRIu64 " (times do not decrease)", pt->t_ns, pt[-1].t_ns);
	if (i && !prof_cp_point_ok(&pt[-1], pt))
		return pr_err(ps, "cp_point length_ns %" PRIu64 " below the previous "
			      "cp_point's %" PRIu64 " (lengths do not decrease)",
			      pt->length_ns, pt[-1].length_ns);
	return 0;
}

/* See profile-read-int.h.  All scalars are known to be present. */
int pr_cp_finish(struct parser *ps)
{
	char why[200];

	if (prof_cp_fn_how_check(ps->p, why, sizeof(why)) ||
	    prof_cp_cut_check(ps->p, why, sizeof(why)) ||
	    prof_cp_fold_check(ps->p, why, sizeof(why)))
		return pr_err(ps, "%s", why);
	return 0;
}
