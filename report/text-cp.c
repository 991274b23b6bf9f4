/*
 * text-cp.c - `cpperf report --view=cp`: the critical path as text.
 *
 * A header with the path's length next to the wall time and the path as
 * runs of segments (rank:first-last, earliest first, the first
 * REP_CP_RUNS of them); then, in the manner of Hollingsworth's critical
 * path profile, one row per function with its time on the path, its share
 * of the path and its share of all samples side by side, sorted by time on
 * the path; with selected functions, the zeroing table in the manner of the
 * paper's Figure 8 (net length, saving, share on the path next to the CP
 * time); the series of lengths during the run, thinned to REP_CP_POINTS
 * lines; then the call-path tree of the samples taken on the path (text.c's
 * printer).  Per-function numbers use the first event; the tree shows the
 * event asked for.
 */
#include <stdio.h>
#include <string.h>
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "model.h"
#include "show.h"
#include "text.h"

#define REP_CP_RUNS 12		/* runs of the path shown */
#define REP_CP_MAX_NAME 60	/* widest function column */
#define REP_CP_POINTS 20	/* series lines shown at most */

/* The form of the path: whole (no line), folded or its latest part. */
static void put_form(FILE *out, const struct cpath_result *r)
{
	if (r->cut && !r->folds)
		fprintf(out, "# form: latest part: the walk stopped at rank %lld event %llu, whose "
			"older records were dropped past --cp-budget (%llu bytes); the runs and "
			"shares below are of the path's latest part, its CP times extrapolate "
			"them to the whole length\n", (long long)r->cut_rank,
			(unsigned long long)r->cut_event, (unsigned long long)r->cut_budget);
	else if (r->cut)
		fprintf(out, "# form: latest part: a fold point's walk during the run stopped at "
			"rank %lld event %llu, whose older records were dropped past --cp-budget "
			"(%llu bytes); from there the path was resolved up to its last fold point "
			"(%llu of them, at %.6f s of the path) and walked after it; the shares "
			"below are of that part, its CP times extrapolate them to the whole "
			"length\n", (long long)r->cut_rank, (unsigned long long)r->cut_event,
			(unsigned long long)r->cut_budget, (unsigned long long)r->folds,
			(double)r->fold_ns / 1e9);
	else if (r->folds && !r->nruns)
		fprintf(out, "# form: folded: the whole path, resolved during the run at %llu "
			"fold point%s, the last at its end (the ranks kept its samples)\n",
			(unsigned long long)r->folds, r->folds == 1 ? "" : "s");
	else if (r->folds)
		fprintf(out, "# form: folded: the whole path, resolved during the run up to its "
			"last fold point (%llu of them, at %.6f s of the path; the ranks kept its "
			"samples) and walked after it\n", (unsigned long long)r->folds,
			(double)r->fold_ns / 1e9);
}

static void put_header(FILE *out, const struct rep_data *d, const struct cpath_result *r)
{
	rep_text_intro(out, d);
	fprintf(out, "# critical path (%s): %.6f s, ending on rank %lld; wall %.6f s "
		"(the path is %.2f%% of it)\n", r->reference ? "reference, recomputed "
		"from the --cp-trace records" : "online, from the ranks' links",
		(double)r->length_ns / 1e9, (long long)r->end_rank,
		(double)r->wall_ns / 1e9, rep_pct(r->length_ns, r->wall_ns));
	fprintf(out, "# path: %u run%s of segments (rank:first-last, earliest first%s):",
		r->nruns, r->nruns == 1 ? "" : "s", r->folds ? ", after the last fold point" : "");
	for (uint32_t i = 0; i < r->nruns && i < REP_CP_RUNS; i++)
		fprintf(out, "%s %lld:%llu-%llu", i ? " >" : "", (long long)r->runs[i].rank,
			(unsigned long long)r->runs[i].from, (unsigned long long)r->runs[i].to);
	if (r->nruns > REP_CP_RUNS)
		fprintf(out, " > ... (%u more; --format=json lists them all)",
			r->nruns - REP_CP_RUNS);
	fputc('\n', out);
	put_form(out, r);
	fputs("#\n", out);
}

static void put_fns(FILE *out, const struct rep_data *d, const struct cpath_result *r,
		    double min_pct)
{
	size_t w = strlen("function");
	uint32_t hidden = 0;

	for (uint32_t i = 0; i < r->nfns; i++)
		w = strlen(r->fns[i].name) > w ? strlen(r->fns[i].name) : w;
	if (w > REP_CP_MAX_NAME)
		w = REP_CP_MAX_NAME;
	fprintf(out, "# functions on the critical path (event %s): time on the path, "
		"share of the path, share of all samples\n", d->events[0].name);
	fprintf(out, "#  CP time(s)     CP%%    CPU%%  %-*s  module\n", (int)w, "function");
	for (uint32_t i = 0; i < r->nfns; i++) {
		const struct cpath_fn *fn = &r->fns[i];

		if (fn->cp_pct < min_pct) {
			hidden++;
			continue;
		}
		fprintf(out, "%13.6f %7.2f %7.2f  ", fn->cp_time, fn->cp_pct, fn->cpu_pct);
		rep_put_clean(out, fn->name, (int)w);
		fputs("  ", out);
		rep_put_clean(out, rep_module_name(d, fn->module), 0);
		fputc('\n', out);
	}
	if (r->all == 0)
		fputs("# no samples on the critical path\n", out);
	if (hidden)
		fprintf(out, "# %u function%s below %g%% of the path not shown (--min-pct=0 "
			"shows all)\n", hidden, hidden == 1 ? "" : "s", min_pct);
}

/* The zeroing table, selection order; nothing without a selection. */
static void put_zero(FILE *out, const struct cpath_result *r)
{
	if (r->nzero == 0)
		return;
	fprintf(out, "#\n# zeroing (%s): the path's length if the function took no time, "
		"the saving,\n# the function's time on the path (share, call paths included) "
		"and its CP time (self)\n", r->reference ? "reference" : "online");
	fputs("#  net length(s)    saving(s)  saving%     share(s)   CP time(s)  function\n",
	      out);
	for (uint32_t i = 0; i < r->nzero; i++) {
		const struct cpath_zero *z = &r->zero[i];

		fprintf(out, "%16.6f %12.6f %8.2f %12.6f %12.6f  ", (double)z->net_ns / 1e9,
			(double)z->saving_ns / 1e9, z->saving_pct, (double)z->share_ns / 1e9,
			z->cp_time);
		rep_put_clean(out, z->name, 0);
		fputc('\n', out);
	}
}

/* The series, at most REP_CP_POINTS lines: evenly thinned, first and last
 * always kept. */
static void put_series(FILE *out, const struct rep_data *d)
{
	const struct rep_cpath *c = &d->cpath;
	uint32_t n = c->npoints, shown = n < REP_CP_POINTS ? n : REP_CP_POINTS;

	if (n == 0)
		return;
	fprintf(out, "#\n# path length during the run (rank %lld, %u point%s", (long long)
		c->points_rank, n, n == 1 ? "" : "s");
	if (shown < n)
		fprintf(out, ", %u shown evenly, the last included; --format=json lists "
			"them all", shown);
	fputs(")\n#         t(s)    length(s)\n", out);
	for (uint32_t j = 0; j < shown; j++) {
		uint64_t at = shown < n ? (uint64_t)j * (n - 1) / (shown - 1) : j;
		const struct prof_cp_point *pt = &c->points[at];

		fprintf(out, "%14.6f %12.6f\n", (double)pt->t_ns / 1e9,
			(double)pt->length_ns / 1e9);
	}
}

int rep_text_cpath(FILE *out, const struct rep_model *m)
{
	const struct rep_data *d = m->d;
	const struct cpath_result *r = m->cpr;
	uint32_t event = m->event;
	double min_pct = m->min_pct;
	enum rep_comp comp = m->comp;
	uint64_t lc;

	put_header(out, d, r);
	if (comp_cp_length_ns(d, r, comp, &lc))
		fprintf(out, "# in compensated time (--compensate=%s): %.6f s\n",
			comp_mode_name(comp), (double)lc / 1e9);
	put_fns(out, d, r, min_pct);
	put_zero(out, r);
	put_series(out, d);
	fputs("#\n# call paths of the samples on the critical path (event ", out);
	rep_put_clean(out, d->events[event].name, 0);
	fputs(", % of the path's samples)\n", out);
	return rep_text_tree(out, d, &r->cp, event, min_pct);
}
