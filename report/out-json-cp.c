/*
 * out-json-cp.c - the "critical_path" key of `cpperf report --format=json`
 * (docs/json.md): length and wall in seconds, the functions on the path
 * with their share of it next to their share of all samples, the path's
 * call-path tree (the "callpath" shape, percentages of the path's
 * samples), the path as runs of segments, and whether it is the reference.
 * Without critical-path data every list is empty, like "mpi" without MPI.
 * "zeroing" holds one entry per selected function (net length, saving,
 * share on the path), "series" the monitor rank's lengths during the run.
 */
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "json.h"
#include "out-json.h"
#include "model.h"
#include "show.h"

static void put_empty_tree(struct json_w *w, const struct rep_data *d)
{
	json_begin_object(w);
	json_key(w, "function");
	json_string(w, "<root>");
	for (int k = 0; k < 2; k++) {
		json_key(w, k ? "total" : "self");
		json_begin_object(w);
		for (uint32_t e = 0; e < d->nevents; e++) {
			json_key(w, d->events[e].name);
			json_u64(w, 0);
		}
		json_end_object(w);
	}
	json_key(w, "self_pct");
	json_double(w, 0);
	json_key(w, "total_pct");
	json_double(w, 0);
	json_key(w, "children");
	json_begin_array(w);
	json_end_array(w);
	json_end_object(w);
}

static void put_fns(struct json_w *w, const struct rep_data *d, const struct cpath_result *r)
{
	json_key(w, "functions");
	json_begin_array(w);
	for (uint32_t i = 0; r && i < r->nfns; i++) {
		const struct cpath_fn *fn = &r->fns[i];

		json_begin_object(w);
		json_key(w, "function");
		json_string(w, fn->name);
		json_key(w, "module");
		json_string(w, rep_module_path(d, fn->module));
		json_key(w, "cp_time");
		json_double(w, fn->cp_time);
		json_key(w, "cp_pct");
		json_double(w, fn->cp_pct);
		json_key(w, "cpu_pct");
		json_double(w, fn->cpu_pct);
		json_end_object(w);
	}
	json_end_array(w);
}

static void put_path(struct json_w *w, const struct cpath_result *r, bool runs)
{
	json_key(w, "path");
	json_begin_array(w);
	for (uint32_t i = 0; r && runs && i < r->nruns; i++) {
		json_begin_object(w);
		json_key(w, "rank");
		json_i64(w, r->runs[i].rank);
		json_key(w, "from");
		json_u64(w, r->runs[i].from);
		json_key(w, "to");
		json_u64(w, r->runs[i].to);
		json_end_object(w);
	}
	json_end_array(w);
}

static void put_zero(struct json_w *w, const struct cpath_result *r)
{
	json_key(w, "zeroing");
	json_begin_array(w);
	for (uint32_t i = 0; r && i < r->nzero; i++) {
		const struct cpath_zero *z = &r->zero[i];

		json_begin_object(w);
		json_key(w, "function");
		json_string(w, z->name);
		json_key(w, "net_length");
		json_double(w, (double)z->net_ns / 1e9);
		json_key(w, "saving");
		json_double(w, (double)z->saving_ns / 1e9);
		json_key(w, "saving_pct");
		json_double(w, z->saving_pct);
		json_key(w, "cp_share");
		json_double(w, (double)z->share_ns / 1e9);
		json_end_object(w);
	}
	json_end_array(w);
}

/* The series is written with the path it belongs to (not when the path
 * was left out). */
static void put_series(struct json_w *w, const struct rep_data *d,
		       const struct cpath_result *r)
{
	json_key(w, "series");
	json_begin_array(w);
	for (uint32_t i = 0; r && i < d->cpath.npoints; i++) {
		json_begin_object(w);
		json_key(w, "t");
		json_double(w, (double)d->cpath.points[i].t_ns / 1e9);
		json_key(w, "length");
		json_double(w, (double)d->cpath.points[i].length_ns / 1e9);
		json_end_object(w);
	}
	json_end_array(w);
}

/* "form": "whole", "folded" or "latest" with where the walk stopped
 * ("cut"); with fold points, "fold" after them (absent without, so that a
 * report of a run without fold points reads as before). */
static void put_form(struct json_w *w, const struct cpath_result *r)
{
	json_key(w, "form");
	json_string(w, r && r->cut ? "latest" : r && r->folds ? "folded" : "whole");
	json_key(w, "cut");
	if (r && r->cut) {
		json_begin_object(w);
		json_key(w, "rank");
		json_i64(w, r->cut_rank);
		json_key(w, "event");
		json_u64(w, r->cut_event);
		json_key(w, "budget");
		json_u64(w, r->cut_budget);
		json_end_object(w);
	} else {
		json_null(w);
	}
	if (!r || !r->folds)
		return;
	json_key(w, "fold");
	json_begin_object(w);
	json_key(w, "points");
	json_u64(w, r->folds);
	json_key(w, "length");
	json_double(w, (double)r->fold_ns / 1e9);
	json_end_object(w);
}

int rep_json_cpath(struct json_w *w, const struct rep_data *d,
		   const struct cpath_result *r, const char *why, double min_pct,
		   enum rep_comp comp, bool runs)
{
	uint64_t lc;

	json_key(w, "critical_path");
	json_begin_object(w);
	json_key(w, "length");
	json_double(w, r ? (double)r->length_ns / 1e9 : 0.0);
	json_key(w, "length_compensated");
	if (comp_cp_length_ns(d, r, comp, &lc))
		json_double(w, (double)lc / 1e9);
	else
		json_null(w);
	json_key(w, "wall");
	json_double(w, r ? (double)r->wall_ns / 1e9 : 0.0);
	put_fns(w, d, r);
	json_key(w, "callpath");
	if (!r)
		put_empty_tree(w, d);
	else if (rep_json_tree(w, d, &r->cp, min_pct, true, false) < 0)
		return -1;
	put_zero(w, r);
	put_series(w, d, r);
	put_path(w, r, runs);
	json_key(w, "reference");
	json_bool(w, r && r->reference);
	put_form(w, r);
	json_key(w, "unavailable");
	if (r)
		json_null(w);
	else
		json_string(w, why ? why : "no critical-path data: not an MPI program, "
			    "recorded with --no-piggyback, or MPI calls of several threads "
			    "overlapped");
	json_end_object(w);
	return 0;
}
