/*
 * render.c - what `cpperf report` renders, given a loaded experiment.
 *
 * rep_render resolves the event and the pruning threshold, removes the
 * samples of cpperf's own runtime when --compensate asks (compensation.c),
 * builds the call-path totals (children sorted by the event that is shown;
 * JSON sorts and prunes by the first event, as docs/json.md says) and the
 * flat profile, the critical path when the output holds it (JSON,
 * --view=cp), the classes of the ranks' activity graphs when it holds
 * them (JSON, GraphML, --view=graph), and hands them to the renderer of
 * the chosen format.  Small helpers the renderers share live here too.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster.h"
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "flat.h"
#include "folded.h"
#include "merge.h"
#include "out-graphml.h"
#include "out-html.h"
#include "out-json.h"
#include "render.h"
#include "text.h"
#include "tree.h"
#include "../common/order.h"
#include "../common/sum.h"

double rep_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

double rep_secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

uint64_t rep_unwinds(const struct rep_data *d)
{
	return sum_sat(d->unwind_complete, d->unwind_truncated);
}

const char *rep_module_path(const struct rep_data *d, uint32_t module)
{
	if (module == SYMTAB_NO_MODULE || module >= d->syms.nmodules)
		return "";
	return d->syms.modules[module].path;
}

const char *rep_node_function(const struct rep_data *d, uint32_t n)
{
	return n != CCT_ROOT && n < d->tree.nnodes ? d->names[d->tree.frame[n]] : "-";
}

const char *rep_module_name(const struct rep_data *d, uint32_t module)
{
	const char *path = rep_module_path(d, module), *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

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

/* Whether the report needs the critical path: JSON always holds it, text
 * and folded only for --view=cp. */
static bool wants_cpath(const struct rep_opts *o)
{
	return o->format == REP_JSON || o->format == REP_HTML || view_cp(o);
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
			 "is not an MPI program, or it was recorded with --no-piggyback",
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

/* The text flat or call-path view, with the thread activity's columns
 * when o asks. */
static int text_profile(FILE *out, const struct rep_data *d, const struct rep_opts *o,
			uint32_t ev, const struct tree_view *cp, const struct flat *f,
			const uint64_t *removed)
{
	struct thr_view thr;
	char why[200];
	int rc;

	if (o->concurrency && thr_build(&thr, d, why, sizeof(why)) < 0)
		return -1;
	if (o->view == REP_CALLPATH)
		rc = rep_text_callpath(out, d, cp, ev, min_pct_of(o), removed,
				       o->concurrency ? &thr : NULL);
	else
		rc = rep_text_flat(out, d, f, ev, min_pct_of(o), removed, o->concurrency ? &thr : NULL);
	if (o->concurrency)
		thr_release(&thr);
	return rc;
}

/* removed: the samples --compensate took out of cp and f, NULL if none;
 * cp_why: why cpr is NULL, when known; cl: the classes, when wanted. */
static int render_with(const struct rep_data *d, const struct rep_opts *o,
		       enum rep_comp comp, uint32_t ev, const struct tree_view *cp,
		       const struct flat *f, const struct cpath_result *cpr, const char *cp_why,
		       const uint64_t *removed, const struct cl_result *cl, FILE *out)
{
	switch (o->format) {
	case REP_JSON:
		return rep_json(out, d, cp, f, cpr, cp_why, min_pct_of(o), comp, removed != NULL, false,
				o->all_ranks, cl);
	case REP_HTML:
		return rep_html(out, d, cp, f, cpr, cp_why, min_pct_of(o), comp, removed != NULL, cl);
	case REP_FOLDED:
		return rep_folded(out, d, view_cp(o) ? &cpr->cp : cp, ev);
	case REP_GRAPHML:
		return rep_graphml(out, d, cl);
	case REP_TEXT:
		break;
	}
	if (o->view == REP_GRAPH)
		return rep_text_graph(out, d, cl);
	if (view_cp(o))
		return rep_text_cpath(out, d, cpr, ev, min_pct_of(o), comp);
	if (o->view == REP_MPI)
		return rep_text_mpi(out, d, comp, o->all_ranks);
	if (o->view == REP_COMPENSATION)
		return rep_text_comp(out, d, o->all_ranks);
	if (o->view == REP_WAITS)
		return rep_text_waits(out, d);
	if (o->view == REP_THREADS) {
		char why[200];

		return rep_text_threads(out, d, min_pct_of(o), why, sizeof(why));
	}
	return text_profile(out, d, o, ev, cp, f, removed);
}

int rep_render(const struct rep_data *d, const struct rep_opts *o, FILE *out,
	       char *err, size_t errlen)
{
	return rep_render_comp(d, o, REP_COMP_PARALLEL, REP_CLUSTER_TOL, out, err, errlen);
}

int rep_render_comp(const struct rep_data *d, const struct rep_opts *o,
		    enum rep_comp comp, double cluster_tol, FILE *out, char *err, size_t errlen)
{
	struct cpath_result cpr;
	struct cl_result cl;
	bool have_cp = false, graph;
	char gap_buf[1024], why[1024];
	const char *gap = cpath_gap(d, gap_buf, sizeof(gap_buf)), *cp_why = gap;
	struct comp_tree ct;
	struct tree_view cp;
	struct flat f;
	uint32_t ev = 0, sort_ev;
	int rc;

	if (o->event) {
		int i = rep_event_index(d, o->event, err, errlen);

		if (i < 0)
			return 2;
		ev = (uint32_t)i;
	}
	if (check_graph(d, o, err, errlen) < 0)
		return -1;
	if (d->nevents == 0) {
		snprintf(err, errlen, "%s: the profiles record no events", d->dir);
		return -1;
	}
	if (check_cpath(d, o, gap, err, errlen) < 0 || check_comp(d, o, err, errlen) < 0 ||
	    check_waits(d, o, err, errlen) < 0 || check_threads(d, o, err, errlen) < 0)
		return -1;
	if ((rc = comp_tree_build(&ct, d, comp, err, errlen)) < 0)
		return -1;
	sort_ev = o->format == REP_JSON || o->format == REP_HTML ? 0 : ev;
	if (tree_build(&cp, rc ? &ct.tree : &d->tree, sort_ev, err, errlen) < 0) {
		comp_tree_release(&ct);
		return -1;
	}
	if (flat_build(&f, d, &cp, sort_ev, err, errlen) < 0) {
		tree_release(&cp);
		comp_tree_release(&ct);
		return -1;
	}
	if (wants_cpath(o) && cpath_present(&d->cpath) && !gap) {
		if (cpath_build(&cpr, d, &f, o->view == REP_CP_REFERENCE, why, sizeof(why)) == 0) {
			have_cp = true;
		} else if (view_cp(o)) {
			snprintf(err, errlen, "%s", why);
			flat_release(&f);
			tree_release(&cp);
			comp_tree_release(&ct);
			return -1;
		} else {	/* the other views do not depend on it */
			cp_why = why;
		}
	}
	graph = wants_graph(d, o);
	if (graph && cluster_build(&cl, d->graph.ranks, d->graph.nranks, cluster_tol / 100, err,
				   errlen) < 0)
		rc = -1;	/* cl is empty */
	else if ((rc = render_with(d, o, comp, ev, &cp, &f, have_cp ? &cpr : NULL, cp_why,
				   ct.removed, graph ? &cl : NULL, out)) < 0)
		snprintf(err, errlen, "error writing the report (disk full? out of memory?)");
	if (graph)
		cluster_release(&cl);
	if (have_cp)
		cpath_release(&cpr);
	flat_release(&f);
	tree_release(&cp);
	comp_tree_release(&ct);
	return rc;
}
