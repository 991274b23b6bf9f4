/*
 * model.c - the report's model (model.h), built once from a loaded
 * experiment for the report the options ask: what the view needs is
 * checked first (a view the experiment has no data for is an error that
 * says why), then --compensate takes cpperf's own samples out, the
 * call-path totals are summed (children sorted by the event shown; JSON and
 * the page sort and prune by the first event, as docs/json.md says) and the
 * flat profile made; the critical path when the output holds it (JSON, the
 * page, --view=cp), the classes of the ranks' activity graphs when it holds
 * them (JSON, the page, GraphML, --view=graph), the thread activity's
 * columns when it shows them, and the page's trees of ranks of their own.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster.h"
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "experiment.h"
#include "flat.h"
#include "frame-names.h"
#include "merge.h"
#include "model.h"
#include "rank-runs.h"
#include "show.h"
#include "thread-view.h"
#include "tree.h"
#include "../common/order.h"

/* The threshold o asks for, or the format's default: text hides what is
 * below REP_TEXT_MIN_PCT, the page below REP_HTML_MIN_PCT, JSON and folded
 * keep everything. */
static double min_pct_of(const struct rep_opts *o)
{
	if (o->min_pct >= 0)
		return o->min_pct;
	if (o->format == REP_TEXT)
		return REP_TEXT_MIN_PCT;
	return o->format == REP_HTML ? REP_HTML_MIN_PCT : 0.0;
}

static bool view_cp(const struct rep_opts *o)
{
	return o->view == REP_CP || o->view == REP_CP_REFERENCE;
}

/* Whether the report needs the critical path: JSON, the page and Hatchet's
 * tree always hold it, text and folded only for --view=cp. */
static bool wants_cpath(const struct rep_opts *o)
{
	return o->format == REP_JSON || o->format == REP_HTML || o->format == REP_HATCHET ||
	       view_cp(o);
}

/* Whether the report shows the ranks' activity graphs: JSON when the
 * experiment has them, GraphML and --view=graph always. */
static bool wants_graph(const struct rep_data *d, const struct rep_opts *o)
{
	return ((o->format == REP_JSON || o->format == REP_HTML) && d->graph.present) ||
	       o->format == REP_GRAPHML || (o->format == REP_TEXT && o->view == REP_GRAPH);
}

/* Check what GraphML and --view=graph need.  Returns 0, or -1 with a
 * message. */
static int check_graph(const struct rep_data *d, const struct rep_opts *o, char *err,
		       size_t errlen)
{
	if (!wants_graph(d, o) || d->graph.present)
		return 0;
	snprintf(err, errlen, "%s: no activity graph in this experiment: it is not an MPI "
		 "program, it was recorded with --no-waits, its ranks made no two MPI calls in "
		 "a row after MPI_Init, or its profiles are older than activity graphs (format "
		 "11)", d->dir ? d->dir : "");
	return -1;
}

/* Append rank r to the list in buf (at bytes used, n ranks so far). */
static void list_rank(char *buf, size_t len, size_t *at, int64_t r, uint32_t *n)
{
	if (*at < len)
		*at += (size_t)snprintf(buf + *at, len - *at, "%s%lld", (*n)++ ? ", " : "", (long long)r);
}

/* Whether rank's profile is only a checkpoint: a binary search of
 * d->partial, which is by rank. */
static bool only_checkpoint(const struct rep_data *d, int64_t rank)
{
	size_t i = order_lower_i64(d->partial, d->npartial, sizeof(*d->partial),
				   offsetof(struct rep_partial, rank), rank);

	for (; i < d->npartial && d->partial[i].rank == rank; i++)
		if (d->partial[i].live != REP_LIVE_NONE)
			return true;
	return false;
}

/*
 * Why the path of an MPI run whose ranks computed one cannot be walked:
 * ranks without a profile, ranks whose profile is only a checkpoint (a
 * rank hands its path over at its end).  NULL when nothing is missing,
 * else the reason written into buf.
 */
#define REP_CP_IN_RANK_FILES "the run left a merged profile (--merge=mpi), which does " \
	"not keep the path's records: `cpperf report --rank-files` walks it from the ranks' files"

static const char *cpath_gap(const struct rep_data *d, char *buf, size_t len)
{
	char early[400] = "", *missing;
	uint64_t nmissing = d->missing.ranks;
	uint32_t nearly = 0;
	size_t ae = 0;

	if (d->merged_ranks && !cpath_present(&d->cpath))
		return REP_CP_IN_RANK_FILES;
	if (!cpath_present(&d->cpath) && !d->npartial)
		return NULL;	/* none computed one: --no-piggyback, or not MPI */
	for (uint32_t i = 0; i < d->mpi.nranks; i++) {
		const struct rep_rank *r = &d->mpi.ranks[i];

		if (r->rank >= 0 && cpath_rank_index(&d->cpath, r->rank) < 0 &&
		    only_checkpoint(d, r->rank))
			list_rank(early, sizeof(early), &ae, r->rank, &nearly);
	}
	if (!nmissing && !nearly)
		return NULL;
	missing = nmissing ? rank_runs_str(&d->missing) : NULL;	/* runs: "1-4,6" */
	snprintf(buf, len, "it needs every rank's end, and %s%s%s%s%s%s%s", nmissing ? "rank" : "",
		 nmissing > 1 ? "s " : nmissing ? " " : "", nmissing ? missing ? missing : "?" : "",
		 nmissing ? " left no profile" : "", nmissing && nearly ? "; " : "",
		 nearly > 1 ? "ranks " : nearly ? "rank " : "", early);
	free(missing);
	if (nearly)
		snprintf(buf + strlen(buf), len - strlen(buf), " left only a checkpoint");
	return buf;
}

/* Check what --view=cp and --reference need.  Returns 0, or -1 with a
 * message (the experiment cannot give what was asked). */
static int check_cpath(const struct rep_data *d, const struct rep_opts *o, const char *gap,
		       char *err, size_t errlen)
{
	if (!view_cp(o) || (cpath_present(&d->cpath) && !gap))
		return 0;
	if (gap)
		snprintf(err, errlen, "%s: critical path not computed: %s", d->dir ? d->dir : "", gap);
	else if (o->view == REP_CP_REFERENCE)
		snprintf(err, errlen, "%s", CPATH_NEED_TRACE);
	else
		snprintf(err, errlen, "%s: no critical-path data in this experiment: it "
			 "is not an MPI program, it was recorded with --no-piggyback, or MPI "
			 "calls of several threads overlapped (cpperf-record said so)",
			 d->dir ? d->dir : "");
	return -1;
}

/* Check what --view=compensation needs.  Returns 0, or -1 with a message. */
static int check_comp(const struct rep_data *d, const struct rep_opts *o,
		      char *err, size_t errlen)
{
	bool checkpoints = false;

	if (o->view != REP_COMPENSATION || comp_present(d))
		return 0;
	for (uint32_t i = 0; i < d->npartial; i++)
		checkpoints |= d->partial[i].rank >= 0 && d->partial[i].live != REP_LIVE_NONE;
	if (checkpoints)
		snprintf(err, errlen, "%s: no overhead compensation data: it is computed when a "
			 "rank ends, and the ranks left only checkpoints (see the header)",
			 d->dir ? d->dir : "");
	else
		snprintf(err, errlen, "%s: no overhead compensation data in this experiment: "
			 "it is not an MPI program, or it was recorded with --no-piggyback",
			 d->dir ? d->dir : "");
	return -1;
}

/* Check what --view=waits needs.  Returns 0, or -1 with a message. */
static int check_waits(const struct rep_data *d, const struct rep_opts *o,
		       char *err, size_t errlen)
{
	if (o->view != REP_WAITS || d->waits.present)
		return 0;
	snprintf(err, errlen, "%s: no wait-state data in this experiment: it is not an MPI "
		 "program, or its ranks did not measure wait states", d->dir ? d->dir : "");
	return -1;
}

/* Check what --view=threads needs.  Returns 0, or -1 with a message. */
static int check_threads(const struct rep_data *d, const struct rep_opts *o,
			 char *err, size_t errlen)
{
	if ((o->view != REP_THREADS && !o->concurrency) || d->act.on)
		return 0;
	snprintf(err, errlen, "%s: no thread activity in this experiment%s: its first event "
		 "was sampled by a period of an event other than task-clock or cpu-clock, or with "
		 "PAPI, or its profiles are older than thread activity (format 13)",
		 d->dir ? d->dir : "", o->view == REP_THREADS ? "" : " (--metrics=concurrency)");
	return -1;
}

/* Whether the report shows the thread activity's columns: JSON and the
 * page when the experiment has them, the text views that ask for them. */
static bool wants_threads(const struct rep_data *d, const struct rep_opts *o)
{
	if (o->format == REP_JSON || o->format == REP_HTML)
		return d->act.on;
	return o->format == REP_TEXT && (o->view == REP_THREADS || o->concurrency);
}

/* The call-path tree of one rank read alone, from its file (kept < 0) or
 * as a tree kept in a merged profile (its index kept), its frames named
 * as the report's, compensated as it is; *t untouched when the file can
 * no longer be read (the page goes without that rank's own tree).
 * Returns 1 when t was built, 0 when not, -1 when memory is short. */
static int rank_tree(struct rep_rank_tree *t, const struct rep_model *m, int64_t rank,
		     const char *file, int64_t kept)
{
	char err[1024];
	int filtered;

	memset(t, 0, sizeof(*t));
	if ((kept < 0 ? exp_load_file(&t->one, file, err, sizeof(err)) :
			exp_load_kept(&t->one, file, (uint32_t)kept, err, sizeof(err))) < 0)
		return 0;
	t->rank = rank;
	t->one.debuginfod = m->d->debuginfod;
	if ((m->d->raw_addresses && rep_keep_addresses(&t->one, err, sizeof(err)) < 0) ||
	    (m->d->debuginfod && rep_name_frames(&t->one, err, sizeof(err)) < 0) ||
	    (filtered = comp_tree_build(&t->ct, &t->one, m->comp, err, sizeof(err))) < 0) {
		merge_release(&t->one);
		return -1;
	}
	t->filtered = filtered;
	if (tree_build(&t->cp, filtered ? &t->ct.tree : &t->one.tree, 0, err, sizeof(err)) < 0) {
		comp_tree_release(&t->ct);
		merge_release(&t->one);
		return -1;
	}
	return 1;
}

static void rank_tree_release(struct rep_rank_tree *t)
{
	tree_release(&t->cp);
	comp_tree_release(&t->ct);
	merge_release(&t->one);
}


#define PAGE_RANK_TREES PROF_KEEP_ALL	/* a job up to this size has every
					 * rank's tree, as a merged profile */

/* The page's trees of ranks of their own: every rank of a small job; else
 * the ranks that compute most and least, and rank 0, read again one file
 * each, or from the merged profile that kept them by the same rule.
 * Returns 0, or -1 when memory is short. */
static int rank_trees(struct rep_model *m)
{
	const struct rep_spread *s = &m->d->spread;
	const struct rep_rank *hi, *lo;
	int64_t most, least;
	int rc = 0;

	m->rank_trees = calloc((size_t)s->n + s->nkept + 1, sizeof(*m->rank_trees));
	if (!m->rank_trees)
		return -1;
	rep_rank_extremes(&m->d->mpi, &hi, &lo);
	most = hi ? hi->rank : -1;
	least = lo ? lo->rank : -1;
	for (uint32_t i = 0; rc >= 0 && i < s->n; i++) {
		int64_t rank = s->ranks[i].rank;
		bool shown = s->n <= PAGE_RANK_TREES || rank == 0 || rank == most || rank == least;

		rc = shown ? rank_tree(&m->rank_trees[m->nrank_trees], m, rank, s->ranks[i].file, -1) : 0;
		m->nrank_trees += rc > 0;
	}
	for (uint32_t i = 0; rc >= 0 && i < s->nkept; i++) {
		rc = rank_tree(&m->rank_trees[m->nrank_trees], m, s->kept[i].rank, s->kept[i].file,
			       s->kept[i].index);
		m->nrank_trees += rc > 0;
	}
	return rc < 0 ? -1 : 0;
}

void rep_model_release(struct rep_model *m)
{
	for (uint32_t i = 0; i < m->nrank_trees; i++)
		rank_tree_release(&m->rank_trees[i]);
	free(m->rank_trees);
	thr_release(&m->thr_);
	cluster_release(&m->cl_);
	cpath_release(&m->cpr_);
	flat_release(&m->flat_);
	tree_release(&m->cp_);
	comp_tree_release(&m->ct_);
	memset(m, 0, sizeof(*m));
}

/* The critical path, when the output holds it: an error only for
 * --view=cp, which shows nothing else; the other views go without it
 * and say why. */
static int build_cpath(struct rep_model *m, char *err, size_t errlen)
{
	const struct rep_opts *o = m->o;

	if (!wants_cpath(o) || !cpath_present(&m->d->cpath) || m->cp_why)
		return 0;
	if (cpath_build(&m->cpr_, m->d, &m->flat_, o->view == REP_CP_REFERENCE, m->why_,
			sizeof(m->why_)) == 0) {
		m->cpr = &m->cpr_;
		return 0;
	}
	if (view_cp(o)) {
		snprintf(err, errlen, "%s", m->why_);
		return -1;
	}
	m->cp_why = m->why_;
	return 0;
}

int rep_model_build(struct rep_model *m, const struct rep_data *d, const struct rep_opts *o,
		    enum rep_comp comp, double cluster_tol, char *err, size_t errlen)
{
	uint32_t sort_ev;
	int rc;

	memset(m, 0, sizeof(*m));
	m->d = d;
	m->o = o;
	m->comp = comp;
	m->min_pct = min_pct_of(o);
	m->cp_why = cpath_gap(d, m->gap_, sizeof(m->gap_));
	if (o->event) {
		int i = rep_event_index(d, o->event, err, errlen);

		if (i < 0)
			return 2;
		m->event = (uint32_t)i;
	}
	if (check_graph(d, o, err, errlen) < 0)
		return -1;
	if (d->nevents == 0) {
		snprintf(err, errlen, "%s: the profiles record no events", d->dir);
		return -1;
	}
	for (uint32_t i = 0; i < o->nmetrics; i++)
		if (metric_compile(&m->metrics[m->nmetrics++], o->metrics[i], d, err, errlen) < 0)
			return -1;
	m->nmetrics = metric_builtins(m->metrics, m->nmetrics, REP_METRICS, d);
	if (check_cpath(d, o, m->cp_why, err, errlen) < 0 || check_comp(d, o, err, errlen) < 0 ||
	    check_waits(d, o, err, errlen) < 0 || check_threads(d, o, err, errlen) < 0)
		return -1;
	if ((rc = comp_tree_build(&m->ct_, d, comp, err, errlen)) < 0)
		return -1;
	m->removed = m->ct_.removed;
	sort_ev = o->format == REP_JSON || o->format == REP_HTML ? 0 : m->event;
	if (tree_build(&m->cp_, rc ? &m->ct_.tree : &d->tree, sort_ev, err, errlen) < 0 ||
	    flat_build(&m->flat_, d, &m->cp_, sort_ev, err, errlen) < 0)
		goto fail;
	m->cp = &m->cp_;
	m->flat = &m->flat_;
	if (build_cpath(m, err, errlen) < 0)
		goto fail;
	if (wants_graph(d, o)) {
		if (cluster_build(&m->cl_, d->graph.ranks, d->graph.nranks, cluster_tol / 100, err,
				  errlen) < 0)
			goto fail;
		m->cl = &m->cl_;
	}
	if (wants_threads(d, o)) {
		if (thr_build(&m->thr_, d, err, errlen) < 0)
			goto fail;
		m->thr = &m->thr_;
	}
	if ((o->format == REP_HTML || o->format == REP_SPEEDSCOPE) && rank_trees(m) < 0) {
		snprintf(err, errlen, "out of memory reading the ranks' own trees");
		goto fail;
	}
	return 0;
fail:
	rep_model_release(m);
	return -1;
}
