/*
 * cluster.c - MPI ranks into classes by their activity graphs (cluster.h;
 * docs/graph.md).
 *
 * Every message is first seen from both its ends (the links, sorted by
 * sender), and each (rank, site) that exchanges messages with more than
 * two ranks and with half the others at least is marked a hub.  Each rank's messages, received and sent,
 * then become keys (direction, own site, peer's site, peer's name,
 * count), sorted; with the rank's nodes and edges they make its
 * structure, which is hashed.  Ranks are sorted by that hash and, within
 * one hash, taken in rank order: each joins the first class of its hash
 * whose representative has the same structure and close times.  All but
 * that last step is O(n log n) in the records; it compares a rank with
 * the classes of its structure, which are few unless times scatter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster.h"
#include "../common/hash.h"
#include "../common/order.h"
#include "../common/sum.h"

/* One message of a rank as classes compare them. */
struct key {
	uint32_t own_site, peer_site;
	int64_t peer;		/* the peer's rank less the own, or (absolute) its rank */
	uint64_t count;
	bool sent, absolute;
};

/* A rank's site and one rank it exchanged messages with. */
struct partner {
	uint32_t idx, site;
	int64_t rank;
};

/* What the classes are found with; freed once they are. */
struct work {
	struct key *keys;	/* rank i's are keys[first[i] .. first[i+1]) */
	uint32_t *first;
	struct partner *hubs;	/* the hubs' (idx, site), sorted (rank: any partner) */
	uint32_t nhubs;
	uint64_t *hash;		/* [nranks] of each rank's structure */
	double *total;		/* [nranks] its nodes' and edges' times, ns */
	uint32_t *order;	/* rank indices by (hash, index) */
};

#define CMP(a, b) do { if ((a) != (b)) return (a) < (b) ? -1 : 1; } while (0)

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory while grouping ranks into classes");
	return -1;
}

/* See cluster.h. */
const struct cl_path *cluster_edge_paths(const struct cl_rank *x, const struct cl_edge *e,
					 uint32_t *n, uint64_t *samples)
{
	uint32_t lo = 0, hi = x->npaths;

	while (lo < hi) {	/* the first path at or after the edge */
		uint32_t mid = lo + (hi - lo) / 2;
		const struct cl_path *q = &x->paths[mid];

		if (q->from < e->from || (q->from == e->from && q->to < e->to))
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = 0;
	*samples = 0;
	for (uint32_t i = lo; i < x->npaths && x->paths[i].from == e->from &&
	     x->paths[i].to == e->to; i++) {
		(*n)++;
		*samples += x->paths[i].samples;
	}
	return x->paths + lo;
}

/* See cluster.h.  A binary search: the ranks ascend. */
uint32_t cluster_rank_index(const struct cl_result *r, int64_t rank)
{
	size_t i = order_lower_i64(r->ranks, r->nranks, sizeof(*r->ranks),
				   offsetof(struct cl_rank, rank), rank);

	return i < r->nranks && r->ranks[i].rank == rank ? (uint32_t)i : CL_NONE;
}

static int cmp_link(const void *a, const void *b)
{
	const struct cl_link *x = a, *y = b;

	CMP(x->send, y->send);
	CMP(x->recv, y->recv);
	CMP((uintptr_t)x->m, (uintptr_t)y->m);
	return 0;
}

/* Every message with its sender's and receiver's indices, by sender, and
 * where each rank's sent ones start. */
static int make_links(struct cl_result *r)
{
	size_t n = 0;

	for (uint32_t i = 0; i < r->nranks; i++)
		n += r->ranks[i].nmsgs;
	if (n > UINT32_MAX / 2)	/* each is two keys (make_keys) */
		return -1;
	r->links = malloc((n + 1) * sizeof(*r->links));
	r->sent = calloc((size_t)r->nranks + 1, sizeof(*r->sent));
	if (!r->links || !r->sent)
		return -1;
	for (uint32_t i = 0; i < r->nranks; i++)
		for (uint32_t k = 0; k < r->ranks[i].nmsgs; k++) {
			const struct cl_msg *m = &r->ranks[i].msgs[k];

			r->links[r->nlinks++] = (struct cl_link){
				cluster_rank_index(r, m->send_rank), i, m };
		}
	qsort(r->links, r->nlinks, sizeof(*r->links), cmp_link);
	for (uint32_t i = 0, at = 0; i <= r->nranks; i++) {
		while (at < r->nlinks && r->links[at].send < i)
			at++;
		r->sent[i] = at;
	}
	return 0;
}

/* By (idx, site): the hubs' order. */
static int cmp_site(const void *a, const void *b)
{
	const struct partner *x = a, *y = b;

	CMP(x->idx, y->idx);
	CMP(x->site, y->site);
	return 0;
}

static int cmp_partner(const void *a, const void *b)
{
	const struct partner *x = a, *y = b;
	int c = cmp_site(a, b);

	if (c)
		return c;
	CMP(x->rank, y->rank);
	return 0;
}

/* The (rank, site) pairs that exchange messages with more than two ranks,
 * and with half the other ranks at least: a master's distributing site,
 * say, not a stencil's neighbour exchange (two neighbours in 1-D, four in
 * a 2-D one of more than 9 ranks, six in 3-D past 13). */
static int find_hubs(const struct cl_result *r, struct work *w)
{
	struct partner *v = malloc(((size_t)r->nlinks * 2 + 1) * sizeof(*v));
	uint32_t n = 0;

	if (!v)
		return -1;
	for (uint32_t i = 0; i < r->nlinks; i++) {
		const struct cl_link *l = &r->links[i];

		v[n++] = (struct partner){ l->recv, l->m->recv_site, l->m->send_rank };
		if (l->send != CL_NONE)
			v[n++] = (struct partner){ l->send, l->m->send_site, r->ranks[l->recv].rank };
	}
	qsort(v, n, sizeof(*v), cmp_partner);
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i + 1, partners = 1;

		for (; j < n && v[j].idx == v[i].idx && v[j].site == v[i].site; j++)
			partners += v[j].rank != v[j - 1].rank;
		if (partners > 2 && 2 * partners >= r->nranks - 1)
			v[w->nhubs++] = v[i];
		i = j;
	}
	w->hubs = v;
	return 0;
}

static bool is_hub(const struct work *w, uint32_t idx, uint32_t site)
{
	struct partner k = { idx, site, 0 };

	return idx != CL_NONE &&
	       bsearch(&k, w->hubs, w->nhubs, sizeof(k), cmp_site) != NULL;
}

static int cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	CMP(x->sent, y->sent);
	CMP(x->own_site, y->own_site);
	CMP(x->peer_site, y->peer_site);
	CMP(x->absolute, y->absolute);
	CMP(x->peer, y->peer);
	CMP(x->count, y->count);
	return 0;
}

/* A message of rank i with the rank at index peer (CL_NONE: not among
 * them) of rank peer_rank, at peer_site: its key. */
static struct key make_key(const struct cl_result *r, const struct work *w, uint32_t i,
			   bool sent, const struct cl_msg *m, uint32_t peer, int64_t peer_rank)
{
	uint32_t own_site = sent ? m->send_site : m->recv_site;
	uint32_t peer_site = sent ? m->recv_site : m->send_site;
	bool absolute = is_hub(w, peer, peer_site);

	return (struct key){ own_site, peer_site, absolute ? peer_rank : peer_rank - r->ranks[i].rank,
			     m->count, sent, absolute };
}

/* Each rank's messages, received and sent, as sorted keys. */
static int make_keys(const struct cl_result *r, struct work *w)
{
	size_t n = r->nlinks * (size_t)2;

	w->keys = malloc((n + 1) * sizeof(*w->keys));
	w->first = malloc(((size_t)r->nranks + 1) * sizeof(*w->first));
	if (!w->keys || !w->first)
		return -1;
	n = 0;
	for (uint32_t i = 0; i < r->nranks; i++) {
		const struct cl_rank *c = &r->ranks[i];

		w->first[i] = (uint32_t)n;
		for (uint32_t k = 0; k < c->nmsgs; k++)
			w->keys[n++] = make_key(r, w, i, false, &c->msgs[k],
						cluster_rank_index(r, c->msgs[k].send_rank),
						c->msgs[k].send_rank);
		for (uint32_t k = r->sent[i]; k < r->sent[i + 1]; k++)
			w->keys[n++] = make_key(r, w, i, true, r->links[k].m, r->links[k].recv,
						r->ranks[r->links[k].recv].rank);
		qsort(w->keys + w->first[i], n - w->first[i], sizeof(*w->keys), cmp_key);
	}
	w->first[r->nranks] = (uint32_t)n;
	return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return hash_u64(h ^ v);
}

/* Rank i's structure hashed, and its total time. */
static void summarise(const struct cl_result *r, struct work *w, uint32_t i)
{
	const struct cl_rank *c = &r->ranks[i];
	uint64_t h = HASH_SEED;
	double t = 0;

	for (uint32_t k = 0; k < c->nnodes; k++) {
		h = mix(mix(h, c->nodes[k].site), c->nodes[k].calls);
		t += c->nodes[k].outside ? 0 : (double)c->nodes[k].time_ns;
	}
	h = mix(h, UINT64_MAX);	/* nodes end: no edge hashes as a node */
	for (uint32_t k = 0; k < c->nedges; k++) {
		const struct cl_edge *e = &c->edges[k];

		h = mix(mix(mix(mix(h, e->completion), e->from), e->to), e->count);
		t += e->completion ? 0 : (double)e->time_ns;
	}
	h = mix(h, UINT64_MAX);
	for (uint32_t k = w->first[i]; k < w->first[i + 1]; k++) {
		const struct key *y = &w->keys[k];

		h = mix(mix(mix(h, y->own_site), y->peer_site), (uint64_t)y->peer);
		h = mix(mix(h, y->count), (uint64_t)y->sent << 1 | y->absolute);
	}
	w->hash[i] = h;
	w->total[i] = t;
}

/* Whether ranks a and b have the same structure. */
static bool same_structure(const struct cl_result *r, const struct work *w, uint32_t a,
			   uint32_t b)
{
	const struct cl_rank *x = &r->ranks[a], *y = &r->ranks[b];
	uint32_t nk = w->first[a + 1] - w->first[a];

	if (x->nnodes != y->nnodes || x->nedges != y->nedges || nk != w->first[b + 1] - w->first[b])
		return false;
	for (uint32_t k = 0; k < x->nnodes; k++)
		if (x->nodes[k].site != y->nodes[k].site || x->nodes[k].calls != y->nodes[k].calls)
			return false;
	for (uint32_t k = 0; k < x->nedges; k++)
		if (x->edges[k].completion != y->edges[k].completion ||
		    x->edges[k].from != y->edges[k].from || x->edges[k].to != y->edges[k].to ||
		    x->edges[k].count != y->edges[k].count)
			return false;
	for (uint32_t k = 0; k < nk; k++)
		if (cmp_key(&w->keys[w->first[a] + k], &w->keys[w->first[b] + k]))
			return false;
	return true;
}

static double sq(uint64_t a, uint64_t b)
{
	double d = (double)a - (double)b;

	return d * d;
}

/*
 * Whether ranks a and b, of one structure, have close times: the root of
 * the sum of their nodes' (in the MPI region) and computation edges'
 * squared differences at most tol of the larger total (a completion
 * edge's time, how long requests lived, is the computation's and the
 * calls' again).  The m differences sum to the totals' difference, so
 * by Cauchy-Schwarz that root is at least |difference| / sqrt(m): ranks
 * whose totals are too far apart are told without a look at the rest.
 */
static bool close_times(const struct cl_result *r, const struct work *w, uint32_t a, uint32_t b)
{
	const struct cl_rank *x = &r->ranks[a], *y = &r->ranks[b];
	double d = 0, lim = r->tol * (w->total[a] > w->total[b] ? w->total[a] : w->total[b]);
	double diff = w->total[a] - w->total[b];

	if (diff * diff > (double)(x->nnodes + x->nedges) * lim * lim)
		return false;
	for (uint32_t k = 0; k < x->nnodes; k++)
		d += x->nodes[k].outside ? 0 : sq(x->nodes[k].time_ns, y->nodes[k].time_ns);
	for (uint32_t k = 0; k < x->nedges; k++)
		d += x->edges[k].completion ? 0 : sq(x->edges[k].time_ns, y->edges[k].time_ns);
	return d <= lim * lim;
}

/* Rank indices by the hashes in ctx, then by index. */
static int cmp_order(const void *a, const void *b, void *ctx)
{
	const uint64_t *hash = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	CMP(hash[x], hash[y]);
	CMP(x, y);
	return 0;
}

/* Ranks in the order they are taken: by hash, then rank. */
static int make_order(const struct cl_result *r, struct work *w)
{
	w->hash = malloc(((size_t)r->nranks + 1) * sizeof(*w->hash));
	w->total = malloc(((size_t)r->nranks + 1) * sizeof(*w->total));
	w->order = malloc(((size_t)r->nranks + 1) * sizeof(*w->order));
	if (!w->hash || !w->total || !w->order)
		return -1;
	for (uint32_t i = 0; i < r->nranks; i++) {
		summarise(r, w, i);
		w->order[i] = i;
	}
	qsort_r(w->order, r->nranks, sizeof(*w->order), cmp_order, w->hash);
	return 0;
}

/* The shape of rank i among those of its hash, shapes[first ..
 * *nshapes) (each the first rank of its shape); a new one when none is
 * i's. */
static uint32_t shape_of(const struct cl_result *r, const struct work *w, uint32_t *shapes,
			 uint32_t first, uint32_t *nshapes, uint32_t i)
{
	uint32_t s = first;

	while (s < *nshapes && !same_structure(r, w, shapes[s], i))
		s++;
	if (s == *nshapes)
		shapes[(*nshapes)++] = i;
	return s;
}

/*
 * Join each rank to the first class of its hash that is alike, else start
 * one; classes are numbered as they start, representatives recorded.  A
 * rank's structure is compared with each shape of its hash once, its
 * times with the classes of its shape.
 */
static int assign(struct cl_result *r, const struct work *w)
{
	uint32_t *shapes = malloc(((size_t)r->nranks + 1) * sizeof(*shapes));
	uint32_t *class_shape = malloc(((size_t)r->nranks + 1) * sizeof(*class_shape));
	uint32_t nshapes = 0;

	r->classes = calloc((size_t)r->nranks + 1, sizeof(*r->classes));
	if (!shapes || !class_shape || !r->classes) {
		free(shapes);
		free(class_shape);
		return -1;
	}
	for (uint32_t at = 0, run = 0, run_shapes = 0; at < r->nranks; at++) {
		uint32_t i = w->order[at], c, s;

		if (at && w->hash[i] != w->hash[w->order[at - 1]]) {
			run = r->nclasses;	/* a new hash: its classes start here */
			run_shapes = nshapes;
		}
		s = shape_of(r, w, shapes, run_shapes, &nshapes, i);
		for (c = run; c < r->nclasses; c++)
			if (class_shape[c] == s && close_times(r, w, r->classes[c].rep, i))
				break;
		if (c == r->nclasses) {
			class_shape[c] = s;
			r->classes[r->nclasses++].rep = i;
		}
		r->classes[c].size++;
		r->class_of[i] = c;
	}
	free(shapes);
	free(class_shape);
	return 0;
}

static int cmp_class(const void *a, const void *b)
{
	CMP(((const struct cl_class *)a)->rep, ((const struct cl_class *)b)->rep);
	return 0;
}

/* Number the classes by their lowest rank and list their ranks. */
static int finish_classes(struct cl_result *r)
{
	uint32_t *renum = malloc(((size_t)r->nclasses + 1) * sizeof(*renum));

	if (!renum)
		return -1;
	qsort(r->classes, r->nclasses, sizeof(*r->classes), cmp_class);
	for (uint32_t c = 0; c < r->nclasses; c++)
		renum[r->class_of[r->classes[c].rep]] = c;
	for (uint32_t i = 0; i < r->nranks; i++) {
		r->class_of[i] = renum[r->class_of[i]];
		if (rank_runs_add(&r->classes[r->class_of[i]].ranks, r->ranks[i].rank) < 0) {
			free(renum);
			return -1;
		}
	}
	free(renum);
	return 0;
}

static void work_release(struct work *w)
{
	free(w->keys);
	free(w->first);
	free(w->hubs);
	free(w->hash);
	free(w->total);
	free(w->order);
}

/* See cluster.h. */
int cluster_build(struct cl_result *r, const struct cl_rank *ranks, uint32_t nranks, double tol,
		  char *err, size_t errlen)
{
	struct work w = { 0 };
	int rc;

	*r = (struct cl_result){ .ranks = ranks, .nranks = nranks, .tol = tol };
	r->class_of = malloc(((size_t)nranks + 1) * sizeof(*r->class_of));
	rc = !r->class_of || make_links(r) || find_hubs(r, &w) || make_keys(r, &w) ||
	     make_order(r, &w) || assign(r, &w) || finish_classes(r) ? -1 : 0;
	work_release(&w);
	if (rc < 0) {
		cluster_release(r);
		return oom(err, errlen);
	}
	return 0;
}

/* See cluster.h. */
void cluster_release(struct cl_result *r)
{
	for (uint32_t c = 0; r->classes && c < r->nclasses; c++)
		rank_runs_release(&r->classes[c].ranks);
	free(r->classes);
	free(r->class_of);
	free(r->links);
	free(r->sent);
	memset(r, 0, sizeof(*r));
}

static int cmp_cmsg(const void *a, const void *b)
{
	const struct cl_cmsg *x = a, *y = b;

	CMP(x->send_class, y->send_class);
	CMP(x->send_site, y->send_site);
	CMP(x->recv_class, y->recv_class);
	CMP(x->recv_site, y->recv_site);
	return 0;
}

/* Link l as a message between classes. */
static struct cl_cmsg class_msg(const struct cl_result *r, const struct cl_link *l)
{
	return (struct cl_cmsg){ l->send == CL_NONE ? CL_NONE : r->class_of[l->send],
				 l->send == CL_NONE ? CL_NONE : l->m->send_site,
				 r->class_of[l->recv], l->m->recv_site, l->m->count, l->m->bytes,
				 l->m->late_sender_ns };
}

/* See cluster.h. */
int cluster_messages(const struct cl_result *r, uint32_t c, bool sent, struct cl_cmsg **out,
		     uint32_t *n)
{
	uint32_t rep = r->classes[c].rep;
	const struct cl_rank *x = &r->ranks[rep];
	size_t max = x->nmsgs + (sent ? r->sent[rep + 1] - r->sent[rep] : 0);
	struct cl_cmsg *v = malloc((max + 1) * sizeof(*v));
	uint32_t k = 0;

	*out = v;
	*n = 0;
	if (!v)
		return -1;
	for (uint32_t i = 0; i < x->nmsgs; i++) {
		struct cl_link l = { cluster_rank_index(r, x->msgs[i].send_rank), rep, &x->msgs[i] };

		v[k++] = class_msg(r, &l);
	}
	for (uint32_t i = sent ? r->sent[rep] : 0; sent && i < r->sent[rep + 1]; i++)
		v[k++] = class_msg(r, &r->links[i]);
	qsort(v, k, sizeof(*v), cmp_cmsg);
	for (uint32_t i = 0; i < k; i++) {
		struct cl_cmsg *last = *n ? &v[*n - 1] : NULL;

		if (last && !cmp_cmsg(last, &v[i])) {
			last->count = sum_sat(last->count, v[i].count);
			last->bytes = sum_sat(last->bytes, v[i].bytes);
			last->late_sender_ns = sum_sat(last->late_sender_ns, v[i].late_sender_ns);
		} else {
			v[(*n)++] = v[i];
		}
	}
	return 0;
}
