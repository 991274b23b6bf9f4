/*
 * profile-read-merged.c - the reader's records of merged profiles
 * (docs/format.md "Merged profiles"): merged (how many ranks), m_thread
 * and m_pair (a thread and a point-to-point pair with their rank), m_rank
 * (a rank's row), m_node, m_site and m_fn (the spread over the ranks of a
 * tree node, a call site, a function), m_kept (a kept rank's own self
 * counts at one node), and the rules between them that
 * only the whole file can show.  Records of one kind belong to one sort of
 * profile: thread and mpi_peer to a rank's, their m_ twins to a merged one.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "profile-read-int.h"

/* See profile-read-int.h. */
int pr_rank_of_job(struct parser *ps, int64_t r, const char *what)
{
	if (r < 0 || (ps->p->size > 0 && r >= ps->p->size))
		return pr_err(ps, "%s %" PRId64 " is not a rank of this job (size %" PRId64 ")",
			      what, r, ps->p->size);
	return 0;
}

/* See profile-read-int.h. */
int pr_merged_only(struct parser *ps, const char *key, bool merged)
{
	if (!ps->p->merged == !merged)
		return 0;
	return pr_err(ps, "'%s' record in a%s profile", key,
		      merged ? " rank's" : " merged");
}

/* The shortest m_rank line: its key, then rank, pid, host, the values and
 * the overhead words, each at least one character after a space, and its
 * newline (counted by sizeof's NUL). */
#define PR_ONE_FIELD(f) + 1
#define PR_M_RANK_MIN_BYTES \
	(sizeof("m_rank") + 2 * (3 + (0 PROF_RANK_VALUES(PR_ONE_FIELD)) + PROF_OVH_WORDS))

/* merged RANKS */
int rec_merged(struct parser *ps, struct cursor *c)
{
	uint64_t n, room;

	if (ps->p->merged)
		return pr_err(ps, "second 'merged' record");
	if (pr_u64(ps, c, "ranks", &n) || pr_done(ps, c))
		return -1;
	if (n < 1 || n > INT32_MAX)
		return pr_err(ps, "merged %" PRIu64 " out of range (1 to %d ranks)", n, INT32_MAX);
	/* The rows are made once the header is read, so a damaged count must
	 * not ask for more of them than the rest of the file can hold. */
	room = ps->body_end ? (uint64_t)(ps->body_end - c->end) / PR_M_RANK_MIN_BYTES : n;
	if (n > room)
		return pr_err(ps, "merged %" PRIu64 " ranks, but the rest of the file has room "
			      "for at most %" PRIu64 " m_rank records (damaged file)", n, room);
	ps->p->merged = n;
	return 0;
}

/* m_thread RANK TID COUNT... */
int rec_m_thread(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	struct prof_thread *t;

	if (pr_merged_only(ps, "m_thread", true) ||
	    pr_grow(ps, (void **)&p->threads, p->nthreads, &ps->threads_alloc, sizeof(*t)))
		return -1;
	t = &p->threads[p->nthreads];
	memset(t, 0, sizeof(*t));
	t->samples = calloc(p->nevents ? p->nevents : 1, sizeof(*t->samples));
	if (!t->samples)
		return pr_err(ps, "out of memory");
	p->nthreads++;
	if (pr_i64(ps, c, "rank", &t->rank) || pr_rank_of_job(ps, t->rank, "thread rank") ||
	    pr_u64(ps, c, "tid", &t->tid))
		return -1;
	return pr_counts(ps, c, t->samples, p->nevents);
}

/* m_pair SRC DST COUNT BYTES */
int rec_m_pair(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t i = p->nmpi_peers, j;
	struct prof_mpi_peer *m;

	if (pr_merged_only(ps, "m_pair", true) ||
	    pr_grow(ps, (void **)&p->mpi_peers, i, &ps->peers_alloc, sizeof(*m)))
		return -1;
	m = &p->mpi_peers[i];
	memset(m, 0, sizeof(*m));
	p->nmpi_peers++;
	if (pr_i64(ps, c, "src", &m->src) || pr_rank_of_job(ps, m->src, "sender") ||
	    pr_i64(ps, c, "dst", &m->peer) || pr_rank_of_job(ps, m->peer, "receiver") ||
	    pr_u64(ps, c, "count", &m->count) || pr_u64(ps, c, "bytes", &m->bytes) ||
	    pr_done(ps, c))
		return -1;
	j = prof_mpi_peer_dup(&ps->peers, p, i);
	if (j == UINT32_MAX)
		return pr_err(ps, "out of memory");
	if (j != i)
		return pr_err(ps, "duplicate of m_pair %u (same sender and receiver)", j);
	return 0;
}

/* m_rank RANK PID HOST VALUE... [CLOCK_OFFSET CLOCK_DRIFT] OVERHEAD... */
int rec_m_rank(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	struct prof_rank *r;
	uint64_t i = ps->mranks_read;

	if (pr_merged_only(ps, "m_rank", true))
		return -1;
	if (i >= p->merged)
		return pr_err(ps, "more m_rank records than the %" PRIu64 " ranks merged", p->merged);
	r = &p->mranks[i];
	ps->mranks_read++;
	if (pr_i64(ps, c, "rank", &r->rank) || pr_rank_of_job(ps, r->rank, "rank") ||
	    pr_i64(ps, c, "pid", &r->pid) || pr_str(ps, c, "host", &r->host))
		return -1;
	if (i && r->rank <= p->mranks[i - 1].rank)
		return pr_err(ps, "m_rank %" PRId64 " after m_rank %" PRId64 " (ranks ascend)",
			      r->rank, p->mranks[i - 1].rank);
#define PR_RANK_VALUE(f) \
	if (pr_u64(ps, c, #f, &r->f)) \
		return -1;
	PROF_RANK_VALUES(PR_RANK_VALUE)
	if (ps->version >= 9) {
		PROF_RANK_VALUES_9(PR_RANK_VALUE)
	}
#undef PR_RANK_VALUE
	if (ps->version >= PROFILE_VERSION_WAITS &&
	    (pr_i64(ps, c, "clock_offset_ns", &r->clock_offset_ns) ||
	     pr_i64(ps, c, "clock_drift_ns", &r->clock_drift_ns)))
		return -1;
	if (r->comp_on > 1)
		return pr_err(ps, "comp_on %" PRIu64 " is not 0 or 1", r->comp_on);
	return pr_counts(ps, c, (uint64_t *)(void *)&r->ovh, PROF_OVH_WORDS);
}

/* RANKS MIN MAX MAX_RANK of one spread. */
static int pr_spread(struct parser *ps, struct cursor *c, struct prof_spread *s)
{
	uint64_t n;

	if (pr_u64(ps, c, "ranks", &n) || pr_u64(ps, c, "min", &s->min) ||
	    pr_u64(ps, c, "max", &s->max) || pr_i64(ps, c, "max_rank", &s->max_rank))
		return -1;
	if (n > ps->p->merged)
		return pr_err(ps, "spread over %" PRIu64 " ranks of %" PRIu64, n, ps->p->merged);
	s->ranks = (uint32_t)n;
	if (s->min > s->max || (n == 0 && s->max))
		return pr_err(ps, "spread min %" PRIu64 " above max %" PRIu64, s->min, s->max);
	if (!s->max)
		return s->max_rank == -1 ? 0 :
		       pr_err(ps, "max_rank %" PRId64 " for a max of 0 (must be -1)", s->max_rank);
	return pr_rank_of_job(ps, s->max_rank, "max_rank");
}

/* m_node NODE (RANKS MIN MAX MAX_RANK)... one per event */
int rec_m_node(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t want = ps->m_nodes;

	if (pr_merged_only(ps, "m_node", true) || pr_seq(ps, c, "m_node", want))
		return -1;
	if (want >= p->tree.nnodes)
		return pr_err(ps, "m_node %" PRIu32 " is not a node of the tree", want);
	if (!p->node_spread &&
	    !(p->node_spread = calloc((size_t)p->tree.nnodes * (p->nevents ? p->nevents : 1),
				      sizeof(*p->node_spread))))
		return pr_err(ps, "out of memory");
	ps->m_nodes++;
	for (uint32_t e = 0; e < p->nevents; e++)
		if (pr_spread(ps, c, &p->node_spread[(size_t)want * p->nevents + e]))
			return -1;
	return pr_done(ps, c);
}

/* m_site SITE RANKS MIN MAX MAX_RANK */
int rec_m_site(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	uint32_t want = ps->m_sites;

	if (pr_merged_only(ps, "m_site", true) || pr_seq(ps, c, "m_site", want))
		return -1;
	if (want >= p->nmpi_sites)
		return pr_err(ps, "m_site %" PRIu32 " is not a call site", want);
	if (!p->site_spread &&
	    !(p->site_spread = calloc(p->nmpi_sites, sizeof(*p->site_spread))))
		return pr_err(ps, "out of memory");
	ps->m_sites++;
	if (pr_spread(ps, c, &p->site_spread[want]))
		return -1;
	return pr_done(ps, c);
}

/* m_fn FRAME SUM RANKS MIN MAX MAX_RANK */
int rec_m_fn(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	struct prof_fn_spread *f;

	if (pr_merged_only(ps, "m_fn", true) ||
	    pr_grow(ps, (void **)&p->fn_spread, p->nfn_spread, &ps->fn_alloc, sizeof(*f)))
		return -1;
	f = &p->fn_spread[p->nfn_spread++];
	memset(f, 0, sizeof(*f));
	if (pr_index(ps, c, "frame", p->syms.nframes, &f->frame) ||
	    pr_u64(ps, c, "sum", &f->sum) || pr_spread(ps, c, &f->s))
		return -1;
	return pr_done(ps, c);
}

/* m_kept RANK NODE COUNT...: by rank, then by node */
int rec_m_kept(struct parser *ps, struct cursor *c)
{
	struct profile *p = ps->p;
	struct prof_kept *k = p->nkept ? &p->kept[p->nkept - 1] : NULL;
	size_t cells = (size_t)p->tree.nnodes * p->nevents;
	int64_t rank;
	uint32_t node = 0;	/* set when the fields parse */

	if (pr_merged_only(ps, "m_kept", true) || pr_i64(ps, c, "rank", &rank) ||
	    pr_index(ps, c, "node", p->tree.nnodes, &node))
		return -1;
	if (!prof_rank_find(p, rank))
		return pr_err(ps, "m_kept rank %" PRId64 " has no m_rank row", rank);
	if (k && (rank < k->rank || (rank == k->rank && node <= ps->kept_node)))
		return pr_err(ps, "m_kept %" PRId64 " %" PRIu32 " after m_kept %" PRId64 " %"
			      PRIu32 " (by rank, then node)", rank, node, k->rank, ps->kept_node);
	if (!k || rank != k->rank) {
		struct prof_kept *v = realloc(p->kept, (p->nkept + 1) * sizeof(*v));

		if (!v)
			return pr_err(ps, "out of memory");
		p->kept = v;
		k = &v[p->nkept];
		k->rank = rank;
		if (!(k->self = calloc(cells ? cells : 1, sizeof(uint64_t))))
			return pr_err(ps, "out of memory");
		p->nkept++;
	}
	ps->kept_node = node;
	return pr_counts(ps, c, k->self + (size_t)node * p->nevents, p->nevents);
}

/* After the header: the rows of a merged profile, made now that their
 * number is known. */
int pr_merged_start(struct parser *ps)
{
	struct profile *p = ps->p;

	if (!p->merged || p->mranks)
		return 0;
	if (!(p->mranks = calloc(p->merged, sizeof(*p->mranks))))
		return pr_err(ps, "out of memory");
	return 0;
}

/* See profile-read-int.h. */
int pr_merged_finish(struct parser *ps)
{
	struct profile *p = ps->p;
	char why[160];

	if (!p->merged)
		return 0;
	if (ps->mranks_read != p->merged)
		return pr_err(ps, "%" PRIu64 " m_rank records for %" PRIu64 " ranks merged",
			      ps->mranks_read, p->merged);
	if (ps->m_nodes != p->tree.nnodes || ps->m_sites != p->nmpi_sites)
		return pr_err(ps, "m_node or m_site records missing (%" PRIu32 " of %" PRIu32
			      " nodes, %" PRIu32 " of %" PRIu32 " call sites)", ps->m_nodes,
			      p->tree.nnodes, ps->m_sites, p->nmpi_sites);
	if (prof_merged_check(p, why, sizeof(why)))
		return pr_err(ps, "%s", why);
	return 0;
}
