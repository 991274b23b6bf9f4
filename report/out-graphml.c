/*
 * out-graphml.c - `cpperf report --format=graphml` (docs/graph.md): the
 * activity graph collapsed by class as GraphML
 * (http://graphml.graphdrawing.org).  Each class is its representative's
 * graph: a node per (class, call site), id "cCLASSsSITE" (SITE the MPI
 * view's id), its computation edges (with their samples and the function
 * sampled most), its completion edges, and the messages it received, each
 * from the sending class's node of the sending site; a message whose
 * sender is not known has no node to come from and is left out.  Every
 * attribute has its <key>.  Names come from the profiled program, so
 * they are escaped, and what XML cannot hold becomes U+FFFD.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "cluster.h"
#include "data.h"
#include "json.h"
#include "out-graphml.h"
#include "model.h"
#include "show.h"

/* The attributes: key id, what it is for, its name and type. */
static const struct {
	const char *id, *owner, *name, *type;
} keys[] = {
	{ "class", "node", "class", "int" },
	{ "ranks", "node", "ranks", "string" },
	{ "representative", "node", "representative", "long" },
	{ "site", "node", "site", "int" },
	{ "function", "node", "function", "string" },
	{ "calls", "node", "calls", "long" },
	{ "node_time", "node", "time", "double" },
	{ "kind", "edge", "kind", "string" },
	{ "count", "edge", "count", "long" },
	{ "edge_time", "edge", "time", "double" },
	{ "bytes", "edge", "bytes", "long" },
	{ "late_sender", "edge", "late_sender", "double" },
	{ "samples", "edge", "samples", "long" },
	{ "top_function", "edge", "top_function", "string" },
};

/* Whether the valid UTF-8 sequence of n bytes at s is U+FFFE or U+FFFF,
 * which XML 1.0 does not allow either. */
static bool non_char(const unsigned char *s, int n)
{
	return n == 3 && s[0] == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf);
}

/* s as XML character data. */
static void put_text(FILE *out, const char *str)
{
	for (const unsigned char *s = (const unsigned char *)str; *s;) {
		unsigned c = *s;
		int n = c >= 0x80 ? json_utf8_len(s) : 1;

		if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '&')
			fputs("&amp;", out);
		else if (c == '\t' || c == '\n' || c == '\r')
			fprintf(out, "&#%u;", c);
		else if (c < 0x20 || n == 0 || non_char(s, n))
			fputs("&#xFFFD;", out);
		else
			fwrite(s, 1, (size_t)n, out);
		s += n ? n : 1;
	}
}

static void put_data_u64(FILE *out, const char *key, uint64_t v)
{
	fprintf(out, "      <data key=\"%s\">%llu</data>\n", key, (unsigned long long)v);
}

static void put_data_secs(FILE *out, const char *key, uint64_t ns)
{
	fprintf(out, "      <data key=\"%s\">%.9f</data>\n", key, rep_secs(ns));
}

static void put_data_text(FILE *out, const char *key, const char *s)
{
	fprintf(out, "      <data key=\"%s\">", key);
	put_text(out, s);
	fputs("</data>\n", out);
}

/* Class c's nodes.  Returns 0, or -1 when memory is short. */
static int put_nodes(FILE *out, const struct rep_data *d, const struct cl_result *r, uint32_t c)
{
	const struct cl_class *k = &r->classes[c];
	const struct cl_rank *x = &r->ranks[k->rep];
	char *ranks = rank_runs_str(&k->ranks);

	if (!ranks)
		return -1;
	for (uint32_t i = 0; i < x->nnodes; i++) {
		const struct cl_node *v = &x->nodes[i];

		fprintf(out, "    <node id=\"c%us%u\">\n", c, v->site + 1);
		put_data_u64(out, "class", c);
		put_data_text(out, "ranks", ranks);
		fprintf(out, "      <data key=\"representative\">%lld</data>\n", (long long)x->rank);
		put_data_u64(out, "site", (uint64_t)v->site + 1);
		put_data_text(out, "function", d->mpi.sites[v->site].function);
		put_data_u64(out, "calls", v->calls);
		if (x->node_times)
			put_data_secs(out, "node_time", v->time_ns);
		fputs("    </node>\n", out);
	}
	free(ranks);
	return 0;
}

/* A computation edge's samples, and the function sampled most in it. */
static void put_samples(FILE *out, const struct rep_data *d, const struct cl_rank *x,
			const struct cl_edge *e)
{
	uint32_t n;
	uint64_t samples;
	const struct cl_path *q = cluster_edge_paths(x, e, &n, &samples);

	put_data_u64(out, "samples", samples);
	if (n)
		put_data_text(out, "top_function", rep_node_function(d, q->node));
}

/* Class c's computation and completion edges and the messages its
 * representative received.  Returns 0, or -1 when memory is short. */
static int put_edges(FILE *out, const struct rep_data *d, const struct cl_result *r, uint32_t c)
{
	const struct cl_rank *x = &r->ranks[r->classes[c].rep];
	struct cl_cmsg *v;
	uint32_t n;

	for (uint32_t i = 0; i < x->nedges; i++) {
		const struct cl_edge *e = &x->edges[i];

		fprintf(out, "    <edge source=\"c%us%u\" target=\"c%us%u\">\n", c, e->from + 1, c,
			e->to + 1);
		put_data_text(out, "kind", e->completion ? "completion" : "computation");
		put_data_u64(out, "count", e->count);
		put_data_secs(out, "edge_time", e->time_ns);
		if (!e->completion)
			put_samples(out, d, x, e);
		fputs("    </edge>\n", out);
	}
	if (cluster_messages(r, c, false, &v, &n) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		if (v[i].send_class == CL_NONE || v[i].send_site == CL_NONE)
			continue;
		fprintf(out, "    <edge source=\"c%us%u\" target=\"c%us%u\">\n", v[i].send_class,
			v[i].send_site + 1, v[i].recv_class, v[i].recv_site + 1);
		put_data_text(out, "kind", "message");
		put_data_u64(out, "count", v[i].count);
		put_data_u64(out, "bytes", v[i].bytes);
		put_data_secs(out, "late_sender", v[i].late_sender_ns);
		fputs("    </edge>\n", out);
	}
	free(v);
	return 0;
}

/* See out-graphml.h. */
int rep_graphml(FILE *out, const struct rep_model *m)
{
	const struct rep_data *d = m->d;
	const struct cl_result *r = m->cl;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n", out);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		fprintf(out, "  <key id=\"%s\" for=\"%s\" attr.name=\"%s\" attr.type=\"%s\"/>\n",
			keys[i].id, keys[i].owner, keys[i].name, keys[i].type);
	fprintf(out, "  <graph id=\"classes\" edgedefault=\"directed\">\n");
	for (uint32_t c = 0; c < r->nclasses; c++)
		if (put_nodes(out, d, r, c) < 0)
			return -1;
	for (uint32_t c = 0; c < r->nclasses; c++)
		if (put_edges(out, d, r, c) < 0)
			return -1;
	fputs("  </graph>\n</graphml>\n", out);
	return ferror(out) ? -1 : 0;
}
