/*
 * out-hatchet.c - `cpperf report --format=hatchet`: the call-path tree in
 * Hatchet's literal format (a list of roots, each node
 * {"frame": {"name", "type"}, "metrics": {...}, "children": [...]}), which
 * hatchet.GraphFrame.from_literal loads, Thicket on top of it.
 *
 * Each node carries, under the names Hatchet's convention gives (a name
 * ending in " (inc)" is inclusive): every event's self and total counts,
 * the derived metrics of both, and when the experiment has them the
 * samples of the first event on the critical path and the MPI time of
 * the call sites whose call path ends at the node (its MPI calls).  The
 * root, "<root>", holds the samples without a frame.
 */
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "model.h"
#include "out-hatchet.h"
#include "show.h"

struct hatchet {
	struct json_w *w;
	const struct rep_model *m;
	const struct cpath_result *cpr;	/* its nodes are the tree's; NULL: none */
	uint64_t *mpi_ns;	/* [nnodes]: MPI time of the sites ending at a node,
				 * then with its descendants'; NULL: no MPI */
	uint64_t *mpi_inc;
	char key[256];
};

/* The tree's child of node with frame fr, CCT_ROOT when none. */
static uint32_t child_with(const struct tree_view *cp, uint32_t node, uint32_t fr)
{
	for (uint32_t k = cp->first[node]; k < cp->first[node + 1]; k++)
		if (cp->cct->frame[cp->kids[k]] == fr)
			return cp->kids[k];
	return CCT_ROOT;
}

/* Each site's MPI time on the node of its call path (found from the root
 * by the frames; a path the samples never took is left out), summed with
 * the descendants' into mpi_inc: a node's parent precedes it in the tree. */
static int mpi_times(struct hatchet *h)
{
	const struct tree_view *cp = h->m->cp;
	const struct rep_mpi *mpi = &h->m->d->mpi;
	uint32_t n = cp->cct->nnodes;

	if (!mpi->nsites)
		return 0;
	h->mpi_ns = calloc((size_t)n + 1, sizeof(*h->mpi_ns));
	h->mpi_inc = calloc((size_t)n + 1, sizeof(*h->mpi_inc));
	if (!h->mpi_ns || !h->mpi_inc)
		return -1;
	for (uint32_t i = 0; i < mpi->nsites; i++) {
		const struct rep_site *s = &mpi->sites[i];
		uint32_t node = CCT_ROOT;

		for (uint32_t f = 0; f < s->nframes && (node != CCT_ROOT || !f); f++)
			node = child_with(cp, node, s->frames[f]);
		if (node != CCT_ROOT)
			h->mpi_ns[node] += s->time_ns;
	}
	memcpy(h->mpi_inc, h->mpi_ns, (size_t)n * sizeof(*h->mpi_inc));
	for (uint32_t k = n; k-- > 1;)
		h->mpi_inc[cp->cct->parent[k]] += h->mpi_inc[k];
	return 0;
}

static void put_metric(struct hatchet *h, const char *name, const char *suffix, double v)
{
	snprintf(h->key, sizeof(h->key), "%s%s", name, suffix);
	json_key(h->w, h->key);
	json_double(h->w, v);	/* NaN (a metric divided by zero): null */
}

static void put_metrics(struct hatchet *h, uint32_t node)
{
	const struct rep_model *m = h->m;
	const uint64_t *self = cct_self(m->cp->cct, node), *total = tree_total(m->cp, node);

	json_key(h->w, "metrics");
	json_begin_object(h->w);
	for (uint32_t e = 0; e < m->d->nevents; e++) {
		put_metric(h, m->d->events[e].name, "", (double)self[e]);
		put_metric(h, m->d->events[e].name, " (inc)", (double)total[e]);
	}
	for (uint32_t i = 0; i < m->nmetrics; i++) {
		put_metric(h, m->metrics[i].name, "", metric_eval(&m->metrics[i], self));
		put_metric(h, m->metrics[i].name, " (inc)", metric_eval(&m->metrics[i], total));
	}
	if (h->cpr) {
		bool on = node < h->cpr->tree.nnodes;
		char name[160];

		snprintf(name, sizeof(name), "%s on the critical path", m->d->events[0].name);
		put_metric(h, name, "", on ? (double)cct_self(&h->cpr->tree, node)[0] : 0);
		put_metric(h, name, " (inc)", on ? (double)tree_total(&h->cpr->cp, node)[0] : 0);
	}
	if (h->mpi_ns) {
		put_metric(h, "MPI time (s)", "", rep_secs(h->mpi_ns[node]));
		put_metric(h, "MPI time (s)", " (inc)", rep_secs(h->mpi_inc[node]));
	}
	json_end_object(h->w);
}

static int hatchet_enter(void *ctx, uint32_t node, uint32_t depth)
{
	struct hatchet *h = ctx;

	(void)depth;
	json_begin_object(h->w);
	json_key(h->w, "frame");
	json_begin_object(h->w);
	json_key(h->w, "name");
	json_string(h->w, node == CCT_ROOT ? "<root>" : rep_node_function(h->m->d, node));
	json_key(h->w, "type");
	json_string(h->w, "function");
	json_end_object(h->w);
	put_metrics(h, node);
	json_key(h->w, "children");
	json_begin_array(h->w);
	return 1;
}

static int hatchet_leave(void *ctx, uint32_t node, uint32_t depth)
{
	struct hatchet *h = ctx;

	(void)node;
	(void)depth;
	json_end_array(h->w);
	json_end_object(h->w);
	return 0;
}

int rep_hatchet(FILE *out, const struct rep_model *m)
{
	struct json_w w;
	struct hatchet h = { &w, m, m->cpr, NULL, NULL, "" };
	int rc = -1;

	if (mpi_times(&h) < 0)
		goto out;
	json_init(&w, out);
	json_begin_array(&w);
	if (tree_walk(m->cp, hatchet_enter, hatchet_leave, &h) < 0)
		goto out;
	json_end_array(&w);
	rc = json_finish(&w);
out:
	free(h.mpi_ns);
	free(h.mpi_inc);
	return rc;
}
