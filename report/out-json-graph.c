/*
 * out-json-graph.c - the activity graphs' keys of `cpperf report
 * --format=json` (docs/json.md, docs/graph.md): "clusters", the classes of
 * ranks, and "graph", the graph collapsed by class: each class's
 * representative's nodes, computation and completion edges (with the
 * call paths sampled in the computation) and messages, each message's
 * ends named by class and site.  Sites are the ids of "mpi.callsites",
 * times seconds.
 */
#include <stdlib.h>
#include "cluster.h"
#include "data.h"
#include "json.h"
#include "out-json.h"

/* The paths of an edge given, the most sampled first. */
#define EDGE_PATHS 5
/* Frames of a path named, from its leaf up. */
#define PATH_DEPTH 64

/* "ranks": the class's ranks as runs ("1-62"), "representative", and
 * with_size "size".  Returns 0 or -1 (memory). */
static int put_class_head(struct json_w *w, const struct cl_result *r, const struct cl_class *c,
			  bool with_size)
{
	char *ranks = rank_runs_str(&c->ranks);

	if (!ranks)
		return -1;
	json_key(w, "ranks");
	json_string(w, ranks);
	free(ranks);
	json_key(w, "representative");
	json_i64(w, r->ranks[c->rep].rank);
	if (with_size) {
		json_key(w, "size");
		json_u64(w, c->size);
	}
	return 0;
}

/* A site id or a class, null for CL_NONE; sites count from 1. */
static void put_index(struct json_w *w, const char *key, uint32_t v, uint32_t base)
{
	json_key(w, key);
	if (v == CL_NONE)
		json_null(w);
	else
		json_u64(w, (uint64_t)v + base);
}

static void put_nodes(struct json_w *w, const struct cl_rank *x)
{
	json_key(w, "nodes");
	json_begin_array(w);
	for (uint32_t i = 0; i < x->nnodes; i++) {
		json_begin_object(w);
		put_index(w, "site", x->nodes[i].site, 1);
		json_key(w, "calls");
		json_u64(w, x->nodes[i].calls);
		if (x->node_times) {
			rep_json_seconds(w, "time", x->nodes[i].time_ns);
		} else {
			json_key(w, "time");
			json_null(w);
		}
		json_end_object(w);
	}
	json_end_array(w);
}

/* "callpath": the frames of tree node n, outermost first (its deepest
 * PATH_DEPTH). */
static void put_node_path(struct json_w *w, const struct rep_data *d, uint32_t n)
{
	uint32_t fr[PATH_DEPTH], k = 0;

	for (; n != CCT_ROOT && n < d->tree.nnodes && k < PATH_DEPTH; n = d->tree.parent[n])
		fr[k++] = d->tree.frame[n];
	json_key(w, "function");
	if (k)
		json_string(w, d->names[fr[0]]);
	else
		json_null(w);
	json_key(w, "callpath");
	json_begin_array(w);
	while (k)
		rep_json_frame(w, d, fr[--k]);
	json_end_array(w);
}

/* "samples" taken in computation edge e and its most sampled "paths". */
static void put_paths(struct json_w *w, const struct rep_data *d, const struct cl_rank *x,
		      const struct cl_edge *e)
{
	uint32_t n;
	uint64_t samples;
	const struct cl_path *q = cluster_edge_paths(x, e, &n, &samples);

	json_key(w, "samples");
	json_u64(w, samples);
	json_key(w, "paths");
	json_begin_array(w);
	for (uint32_t i = 0; i < n && i < EDGE_PATHS; i++) {
		json_begin_object(w);
		put_node_path(w, d, q[i].node);
		json_key(w, "samples");
		json_u64(w, q[i].samples);
		json_end_object(w);
	}
	json_end_array(w);
}

static void put_edges(struct json_w *w, const struct rep_data *d, const struct cl_rank *x)
{
	json_key(w, "edges");
	json_begin_array(w);
	for (uint32_t i = 0; i < x->nedges; i++) {
		const struct cl_edge *e = &x->edges[i];

		json_begin_object(w);
		put_index(w, "from", e->from, 1);
		put_index(w, "to", e->to, 1);
		json_key(w, "kind");
		json_string(w, e->completion ? "completion" : "computation");
		json_key(w, "count");
		json_u64(w, e->count);
		rep_json_seconds(w, "time", e->time_ns);
		if (!e->completion)
			put_paths(w, d, x, e);
		json_end_object(w);
	}
	json_end_array(w);
}

/* The messages class c's representative received and sent. */
static int put_messages(struct json_w *w, const struct cl_result *r, uint32_t c)
{
	struct cl_cmsg *v;
	uint32_t n;

	if (cluster_messages(r, c, true, &v, &n) < 0)
		return -1;
	json_key(w, "messages");
	json_begin_array(w);
	for (uint32_t i = 0; i < n; i++) {
		json_begin_object(w);
		put_index(w, "send_class", v[i].send_class, 0);
		put_index(w, "send_site", v[i].send_site, 1);
		put_index(w, "recv_class", v[i].recv_class, 0);
		put_index(w, "recv_site", v[i].recv_site, 1);
		json_key(w, "count");
		json_u64(w, v[i].count);
		json_key(w, "bytes");
		json_u64(w, v[i].bytes);
		rep_json_seconds(w, "late_sender", v[i].late_sender_ns);
		json_end_object(w);
	}
	json_end_array(w);
	free(v);
	return 0;
}

/* See out-json.h. */
int rep_json_graph(struct json_w *w, const struct rep_data *d, const struct cl_result *r)
{
	json_key(w, "clusters");
	json_begin_array(w);
	for (uint32_t c = 0; c < r->nclasses; c++) {
		json_begin_object(w);
		if (put_class_head(w, r, &r->classes[c], true) < 0)
			return -1;
		json_end_object(w);
	}
	json_end_array(w);
	json_key(w, "graph");
	json_begin_object(w);
	json_key(w, "tolerance_pct");
	json_double(w, r->tol * 100);
	json_key(w, "classes");
	json_begin_array(w);
	for (uint32_t c = 0; c < r->nclasses; c++) {
		const struct cl_rank *x = &r->ranks[r->classes[c].rep];

		json_begin_object(w);
		if (put_class_head(w, r, &r->classes[c], false) < 0)
			return -1;
		put_nodes(w, x);
		put_edges(w, d, x);
		if (put_messages(w, r, c) < 0)
			return -1;
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
	return 0;
}
