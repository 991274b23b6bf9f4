/*
 * text-graph.c - `cpperf report --view=graph`: the classes of ranks that
 * have alike activity graphs, then each class's graph as its
 * representative shows it: its call sites (function and call path as the
 * MPI view shows them, calls, time), its computation edges (with the
 * function sampled most in each), its completion edges and its messages,
 * each end named by class and site (docs/graph.md).  A large
 * job may have many classes: text shows the first ones, JSON all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster.h"
#include "data.h"
#include "model.h"
#include "show.h"
#include "text.h"

#define REP_GRAPH_LISTED 64	/* classes listed */
#define REP_GRAPH_SHOWN 16	/* classes whose graph is shown */
#define REP_GRAPH_MAX_FN 24	/* widest function column */

/* One end of a message, "class:site", or "?" for an unknown one. */
static void put_end(FILE *out, uint32_t cls, uint32_t site)
{
	char buf[32];

	if (cls == CL_NONE)
		snprintf(buf, sizeof(buf), "?");
	else if (site == CL_NONE)
		snprintf(buf, sizeof(buf), "%u:?", cls);
	else
		snprintf(buf, sizeof(buf), "%u:%u", cls, site + 1);
	fprintf(out, " %12s", buf);
}

static void put_classes(FILE *out, const struct cl_result *r)
{
	uint32_t n = r->nclasses < REP_GRAPH_LISTED ? r->nclasses : REP_GRAPH_LISTED;

	fputs("#\n# classes, by lowest rank\n#  class     size  representative  ranks\n", out);
	for (uint32_t c = 0; c < n; c++) {
		const struct cl_class *k = &r->classes[c];

		fprintf(out, "%8u %8u %15lld  ", c, k->size, (long long)r->ranks[k->rep].rank);
		rank_runs_put(out, &k->ranks);
		fputc('\n', out);
	}
	if (n < r->nclasses)
		fprintf(out, "# %u more classes (--format=json lists them all)\n", r->nclasses - n);
}

static void put_nodes(FILE *out, const struct rep_data *d, const struct cl_rank *x)
{
	size_t fw = strlen("function");

	for (uint32_t i = 0; i < x->nnodes; i++)
		fw = strlen(d->mpi.sites[x->nodes[i].site].function) > fw ?
		     strlen(d->mpi.sites[x->nodes[i].site].function) : fw;
	int w = fw > REP_GRAPH_MAX_FN ? REP_GRAPH_MAX_FN : (int)fw;

	fprintf(out, "#   call sites (the ids of --view=mpi)\n#    id  %-*s %10s %9s  "
		"call path (innermost last)\n", w, "function", "calls", "time(s)");
	for (uint32_t i = 0; i < x->nnodes; i++) {
		const struct rep_site *s = &d->mpi.sites[x->nodes[i].site];

		fprintf(out, "%7u  ", x->nodes[i].site + 1);
		rep_put_clean(out, s->function, w);
		fprintf(out, " %10llu ", (unsigned long long)x->nodes[i].calls);
		if (x->node_times)
			fprintf(out, "%9.6f  ", rep_secs(x->nodes[i].time_ns));
		else
			fprintf(out, "%9s  ", "-");
		rep_put_site_path(out, d, s);
		fputc('\n', out);
	}
}

static void put_edge(FILE *out, const struct rep_data *d, const struct cl_rank *x,
		     const struct cl_edge *e)
{
	uint32_t n;
	uint64_t samples;
	const struct cl_path *q;

	fprintf(out, "%7u %6u %11llu %9.6f", e->from + 1, e->to + 1, (unsigned long long)e->count,
		rep_secs(e->time_ns));
	if (e->completion) {
		fputc('\n', out);
		return;
	}
	q = cluster_edge_paths(x, e, &n, &samples);
	fprintf(out, " %9llu", (unsigned long long)samples);
	if (n)
		fprintf(out, "  %s (%.0f%%)", rep_node_function(d, q->node),
			100.0 * (double)q->samples / (double)samples);
	fputc('\n', out);
}

/* The edges of one kind. */
static void put_edges(FILE *out, const struct rep_data *d, const struct cl_rank *x,
		      bool completion)
{
	uint32_t shown = 0;

	fputs(completion ? "#   completion edges (non-blocking requests started at the first site, "
	      "completed at the second)\n#  from     to       count   time(s)\n" :
	      "#   computation edges (a thread's next call after one at the first site)\n"
	      "#  from     to       count   time(s)   samples  most sampled function\n", out);
	for (uint32_t i = 0; i < x->nedges; i++)
		if (x->edges[i].completion == completion) {
			put_edge(out, d, x, &x->edges[i]);
			shown++;
		}
	if (!shown)
		fputs("# none\n", out);
}

/* Class c's graph as its representative shows it.  Returns 0, or -1 when
 * memory is short. */
static int put_class(FILE *out, const struct rep_data *d, const struct cl_result *r, uint32_t c)
{
	const struct cl_class *k = &r->classes[c];
	const struct cl_rank *x = &r->ranks[k->rep];
	struct cl_cmsg *v;
	uint32_t n;

	fprintf(out, "#\n# class %u: %u rank%s (", c, k->size, k->size == 1 ? "" : "s");
	rank_runs_put(out, &k->ranks);
	fprintf(out, "), as rank %lld shows it%s\n", (long long)x->rank,
		x->node_times ? "" : "; calls from its edges, no times (a merged profile's rank)");
	put_nodes(out, d, x);
	put_edges(out, d, x, false);
	put_edges(out, d, x, true);
	if (cluster_messages(r, c, true, &v, &n) < 0)
		return -1;
	fputs("#   messages received and sent (class:site)\n"
	      "#        from           to       count        bytes  late sender(s)\n", out);
	for (uint32_t i = 0; i < n; i++) {
		put_end(out, v[i].send_class, v[i].send_site);
		put_end(out, v[i].recv_class, v[i].recv_site);
		fprintf(out, " %11llu %12llu %15.6f\n", (unsigned long long)v[i].count,
			(unsigned long long)v[i].bytes, rep_secs(v[i].late_sender_ns));
	}
	if (!n)
		fputs("# none\n", out);
	free(v);
	return 0;
}

/* See text.h. */
int rep_text_graph(FILE *out, const struct rep_model *m)
{
	const struct rep_data *d = m->d;
	const struct cl_result *r = m->cl;
	uint32_t n = r->nclasses < REP_GRAPH_SHOWN ? r->nclasses : REP_GRAPH_SHOWN;

	rep_text_intro(out, d);
	fprintf(out, "# activity graphs: %u ranks in %u classes (alike: the same call sites, "
		"edges and messages with equal counts, times within %g%%; docs/graph.md)\n",
		r->nranks, r->nclasses, r->tol * 100);
	put_classes(out, r);
	for (uint32_t c = 0; c < n; c++)
		if (put_class(out, d, r, c) < 0)
			return -1;
	if (n < r->nclasses)
		fprintf(out, "#\n# the graphs of %u more classes: --format=json or --format=graphml\n",
			r->nclasses - n);
	return ferror(out) ? -1 : 0;
}
