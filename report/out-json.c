/*
 * out-json.c - `cpperf report --format=json`: the whole report as one JSON
 * object, whatever --view says.
 *
 * The keys are a contract documented in docs/json.md (tests and users parse
 * them): extend it, never rename or remove.  Percentages are of all samples
 * of the first event; counts are objects keyed by event name.  The call-path
 * tree is emitted through tree_walk (no recursion) and pruned below min_pct
 * of the first event (0 keeps every node).  The MPI keys are written by
 * out-json-mpi.c, "waits" (when the experiment has wait states) by
 * out-json-waits.c, "critical_path" by out-json-cp.c.  Under --compensate=local
 * or parallel "flat" and "callpath" are the profile without the samples of
 * cpperf's runtime (compensation.c); nodes left without counts are omitted.
 * "clusters" and "graph", the classes of the ranks' activity graphs, are
 * written by out-json-graph.c when the experiment has such graphs.
 */
#include <stdio.h>
#include <string.h>
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "experiment.h"
#include "flat.h"
#include "json.h"
#include "merge-mpi.h"
#include "out-json.h"
#include "model.h"
#include "show.h"
#include "thread-view.h"
#include "tree.h"

struct json_tree {
	struct json_w *w;
	const struct rep_data *d;
	const struct tree_view *cp;
	uint64_t grand;		/* all samples of the first event */
	double min_pct;
	bool skip_zero;		/* leave out nodes without any count */
	uint64_t nranks;	/* MPI ranks the nodes' spreads are over; 0: none */
	const struct thr_view *thr;	/* the thread activity of its nodes, or NULL */
	const struct rep_model *m;	/* its derived metrics, or NULL */
};

static void put_counts(struct json_w *w, const struct rep_data *d, const char *key,
		       const uint64_t *v)
{
	json_key(w, key);
	json_begin_object(w);
	for (uint32_t e = 0; e < d->nevents; e++) {
		json_key(w, d->events[e].name);
		json_u64(w, v[e]);
	}
	json_end_object(w);
}

/* "metrics": each derived metric of m for the self and total counts,
 * null where it divides by zero; nothing when there are none. */
static void put_metrics(struct json_w *w, const struct rep_model *m, const uint64_t *self,
			const uint64_t *total)
{
	if (!m || !m->nmetrics)
		return;
	json_key(w, "metrics");
	json_begin_object(w);
	for (uint32_t i = 0; i < m->nmetrics; i++) {
		const uint64_t *v[] = { self, total };
		static const char *const keys[] = { "self", "total" };

		json_key(w, m->metrics[i].name);
		json_begin_object(w);
		for (int k = 0; k < 2; k++) {
			json_key(w, keys[k]);
			json_double(w, metric_eval(&m->metrics[i], v[k]));	/* NaN: null */
		}
		json_end_object(w);
	}
	json_end_object(w);
}

/* The thread activity of a function or node (inclusive columns v, NULL
 * for none): each column an object keyed by the classified event's name,
 * in samples, and the mean of the working threads at its working samples. */
static void put_activity(struct json_w *w, const struct rep_data *d, const uint64_t *v)
{
	static const enum prof_act_col shown[] = { PROF_ACT_sequential, PROF_ACT_concurrent,
						   PROF_ACT_idle_blame, PROF_ACT_spin,
						   PROF_ACT_idle };
	uint64_t worked = v ? v[PROF_ACT_sequential] + v[PROF_ACT_concurrent] : 0;

	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		json_key(w, prof_act_names[shown[i]]);
		json_begin_object(w);
		json_key(w, d->events[d->act.event].name);
		json_double(w, v ? thr_samples(v[shown[i]]) : 0);
		json_end_object(w);
	}
	json_key(w, "concurrency");
	json_double(w, worked ? (double)v[PROF_ACT_working] / (double)worked : 0);
}

/* "self", "total", "self_pct", "total_pct" (percentages of the first
 * event's grand total). */
static void put_samples(struct json_w *w, const struct rep_data *d, const uint64_t *self,
			const uint64_t *total, uint64_t grand)
{
	put_counts(w, d, "self", self);
	put_counts(w, d, "total", total);
	json_key(w, "self_pct");
	json_double(w, d->nevents ? rep_pct(self[0], grand) : 0);
	json_key(w, "total_pct");
	json_double(w, d->nevents ? rep_pct(total[0], grand) : 0);
}

static void put_location(struct json_w *w, const struct rep_data *d, const char *fn,
			 uint32_t module, const char *file, uint32_t line)
{
	json_key(w, "function");
	json_string(w, fn);
	json_key(w, "module");
	json_string(w, rep_module_path(d, module));
	json_key(w, "module_name");
	json_string(w, rep_module_name(d, module));
	json_key(w, "file");
	json_string(w, file);
	json_key(w, "line");
	json_u64(w, line);
}

/* See out-json.h. */
void rep_json_rank(struct json_w *w, int64_t rank)
{
	json_key(w, "rank");
	if (rank < 0)
		json_null(w);
	else
		json_i64(w, rank);
}

static const char *const live_names[] = { [REP_LIVE_RUNNING] = "running",
	[REP_LIVE_DEAD] = "dead", [REP_LIVE_UNKNOWN] = "unknown" };

/* What the run lacks (docs/json.md "experiment"): the run and the others
 * left out, ranks expected and missing, partial profiles. */
static void put_run(struct json_w *w, const struct rep_data *d)
{
	json_key(w, "run");
	json_string(w, d->run ? d->run : "");
	json_key(w, "other_runs");
	json_begin_array(w);
	for (uint32_t i = 0; i < d->nother_runs; i++) {
		json_begin_object(w);
		json_key(w, "run");
		json_string(w, d->other_runs[i].id);
		json_key(w, "profiles");
		json_u64(w, d->other_runs[i].nprofiles);
		json_end_object(w);
	}
	json_end_array(w);
	json_key(w, "live");
	json_bool(w, exp_live(d));
	json_key(w, "ranks_expected");
	json_i64(w, d->mpi.size);
	json_key(w, "ranks_missing");
	json_begin_array(w);
	for (uint32_t i = 0; i < d->missing.n; i++)
		for (int64_t r = d->missing.v[i].first; r <= d->missing.v[i].last; r++)
			json_i64(w, r);
	json_end_array(w);
	json_key(w, "partial");
	json_begin_array(w);
	for (uint32_t i = 0; i < d->npartial; i++) {
		const struct rep_partial *p = &d->partial[i];

		json_begin_object(w);
		rep_json_rank(w, p->rank);
		json_key(w, "pid");
		json_i64(w, p->pid);
		json_key(w, "host");
		json_string(w, p->host);
		json_key(w, "reason");
		json_string(w, p->reason);
		json_key(w, "covered_s");
		json_double(w, (double)p->covered_ns / 1e9);
		json_key(w, "writer");
		if (p->live == REP_LIVE_NONE)
			json_null(w);
		else
			json_string(w, live_names[p->live]);
		json_end_object(w);
	}
	json_end_array(w);
}

/* "metrics": the derived metrics' names and expressions, when there are. */
static void put_metric_list(struct json_w *w, const struct rep_model *m)
{
	if (!m->nmetrics)
		return;
	json_key(w, "metrics");
	json_begin_array(w);
	for (uint32_t i = 0; i < m->nmetrics; i++) {
		json_begin_object(w);
		json_key(w, "name");
		json_string(w, m->metrics[i].name);
		json_key(w, "expr");
		json_string(w, m->metrics[i].expr);
		json_end_object(w);
	}
	json_end_array(w);
}

static void put_experiment(struct json_w *w, const struct rep_model *m)
{
	const struct rep_data *d = m->d;

	json_key(w, "experiment");
	json_begin_object(w);
	json_key(w, "command");
	json_begin_array(w);
	for (uint32_t i = 0; i < d->argc; i++)
		json_string(w, d->argv[i]);
	json_end_array(w);
	json_key(w, "processes");
	json_u64(w, d->nprocs);
	json_key(w, "merged");
	json_u64(w, d->merged_ranks);
	json_key(w, "events");
	json_begin_array(w);
	for (uint32_t e = 0; e < d->nevents; e++) {
		json_begin_object(w);
		json_key(w, "name");
		json_string(w, d->events[e].name);
		json_key(w, d->events[e].period ? "period" : "frequency");
		json_u64(w, d->events[e].period ? d->events[e].period : d->events[e].freq);
		json_end_object(w);
	}
	json_end_array(w);
	put_metric_list(w, m);
	json_key(w, "samples");
	json_u64(w, d->samples);
	json_key(w, "lost");
	json_u64(w, d->lost);
	json_key(w, "throttled");
	json_u64(w, d->throttled);
	json_key(w, "unwind_complete_pct");
	json_double(w, rep_unwinds(d) == 0 ? 100.0 : rep_pct(d->unwind_complete, rep_unwinds(d)));
	json_key(w, "unwind_us_per_sample");
	json_double(w, rep_unwinds(d) == 0 ? 0.0 : d->unwind_ns / 1e3 / (double)rep_unwinds(d));
	json_key(w, "drain_cpu_seconds");
	json_double(w, d->drain_cpu_ns / 1e9);
	json_key(w, "checkpoints");
	json_u64(w, d->checkpoints);
	json_key(w, "checkpoint_seconds");
	json_double(w, d->checkpoint_ns / 1e9);
	json_key(w, "call_graph");
	json_string(w, d->call_graph ? d->call_graph : "");
	json_key(w, "directory");
	json_string(w, d->dir ? d->dir : "");
	rep_json_mpi_experiment(w, d);
	put_run(w, d);
	json_end_object(w);
}

/* "ranks": the function's self samples of the first event over the MPI
 * ranks (spread.c). */
static void put_spread(struct json_w *w, const struct flat_fn *fn)
{
	json_key(w, "ranks");
	json_begin_object(w);
	json_key(w, "min");
	json_u64(w, fn->rank_min);
	json_key(w, "mean");
	json_double(w, fn->rank_mean);
	json_key(w, "max");
	json_u64(w, fn->rank_max);
	json_key(w, "max_rank");
	if (fn->rank_max_at < 0)
		json_null(w);
	else
		json_i64(w, fn->rank_max_at);
	json_end_object(w);
}

static void put_flat(struct json_w *w, const struct rep_data *d, const struct flat *f,
		     uint64_t grand, const struct thr_view *thr, const struct rep_model *m)
{
	json_key(w, "flat");
	json_begin_array(w);
	for (uint32_t i = 0; i < f->nfns; i++) {
		const struct flat_fn *fn = &f->fns[i];

		json_begin_object(w);
		put_location(w, d, fn->name, fn->module, fn->file, fn->line);
		put_samples(w, d, fn->self, fn->total, grand);
		put_metrics(w, m, fn->self, fn->total);
		if (thr)
			put_activity(w, d, thr_function(thr, fn->name, fn->module));
		if (fn->nranks)
			put_spread(w, fn);
		json_end_object(w);
	}
	json_end_array(w);
}

/* "ranks": a node's self counts over the MPI ranks (sum: their sums), per
 * event: min, mean, max and the rank of the max (-1 when it is 0). */
static void put_node_spread(struct json_w *w, const struct rep_data *d,
			    const struct prof_spread *sp, const uint64_t *sum, uint64_t nranks)
{
	static const char *const keys[] = { "min", "mean", "max", "max_rank" };

	json_key(w, "ranks");
	json_begin_object(w);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		json_key(w, keys[k]);
		json_begin_object(w);
		for (uint32_t e = 0; e < d->nevents; e++) {
			const struct prof_spread *s = &sp[e];

			json_key(w, d->events[e].name);
			if (k == 0)
				json_u64(w, prof_spread_min(s, nranks));
			else if (k == 1)
				json_double(w, (double)sum[e] / (double)nranks);
			else if (k == 2)
				json_u64(w, s->max);
			else
				json_i64(w, s->max ? s->max_rank : -1);
		}
		json_end_object(w);
	}
	json_end_object(w);
}

static bool shown(const struct json_tree *t, uint32_t node)
{
	if (node == CCT_ROOT)
		return true;
	if (t->skip_zero) {
		const uint64_t *total = tree_total(t->cp, node);
		uint32_t e = 0;

		while (e < t->d->nevents && total[e] == 0)
			e++;
		if (e == t->d->nevents)
			return false;
	}
	if (t->min_pct <= 0 || t->d->nevents == 0)
		return true;
	return rep_pct(tree_total(t->cp, node)[0], t->grand) >= t->min_pct;
}

static int tree_enter(void *ctx, uint32_t node, uint32_t depth)
{
	struct json_tree *t = ctx;
	struct json_w *w = t->w;
	const uint64_t *self = cct_self(t->cp->cct, node), *total = tree_total(t->cp, node);

	(void)depth;
	if (!shown(t, node))
		return 0;
	json_begin_object(w);
	if (node == CCT_ROOT) {
		json_key(w, "function");
		json_string(w, "<root>");
	} else {
		uint32_t fr = t->cp->cct->frame[node];
		const struct sym_frame *sf = &t->d->syms.frames[fr];

		put_location(w, t->d, t->d->names[fr], sf->module, sf->file, sf->line);
	}
	put_samples(w, t->d, self, total, t->grand);
	put_metrics(w, t->m, self, total);
	if (t->thr)
		put_activity(w, t->d, thr_node(t->thr, node));
	if (t->nranks && node < t->d->node_spread_n / (t->d->nevents ? t->d->nevents : 1))
		put_node_spread(w, t->d, t->d->node_spread + (size_t)node * t->d->nevents,
				cct_self(&t->d->tree, node), t->nranks);
	json_key(w, "children");
	json_begin_array(w);
	return 1;
}

static int tree_leave(void *ctx, uint32_t node, uint32_t depth)
{
	struct json_tree *t = ctx;

	(void)depth;
	if (shown(t, node)) {
		json_end_array(t->w);
		json_end_object(t->w);
	}
	return 0;
}

static void put_threads(struct json_w *w, const struct rep_data *d)
{
	json_key(w, "threads");
	json_begin_array(w);
	for (uint32_t i = 0; i < d->nthreads; i++) {
		const struct rep_thread *t = &d->threads[i];

		json_begin_object(w);
		json_key(w, "pid");
		json_i64(w, t->pid);
		rep_json_rank(w, t->rank);
		json_key(w, "host");
		json_string(w, t->host);
		json_key(w, "tid");
		json_u64(w, t->tid);
		put_counts(w, d, "samples", t->samples);
		if (d->act.on) {
			json_key(w, "work");
			json_double(w, thr_samples(t->act[PROF_ACT_sequential] +
						   t->act[PROF_ACT_concurrent]));
			json_key(w, "idle");
			json_double(w, thr_samples(t->act[PROF_ACT_idle]));
			json_key(w, "spin");
			json_double(w, thr_samples(t->act[PROF_ACT_spin]));
		}
		json_end_object(w);
	}
	json_end_array(w);
}

/* rep_json_tree, with the thread activity of the experiment's tree and
 * the derived metrics of m (NULL: none). */
static int json_tree(struct json_w *w, const struct rep_data *d, const struct tree_view *cp,
		     double min_pct, bool skip_zero, bool spreads, const struct thr_view *thr,
		     const struct rep_model *m)
{
	struct json_tree t = { w, d, cp, d->nevents ? tree_total(cp, CCT_ROOT)[0] : 0,
			       min_pct, skip_zero, 0, NULL, m };
	bool same = cp->cct->parent == d->tree.parent;

	/* spreads and activity are kept for the experiment's tree
	 * (compensated or not: same nodes), not for trees made from it such
	 * as the path's */
	if (spreads && d->node_spread && same)
		t.nranks = mpi_rank_count(&d->mpi);
	if (same)
		t.thr = thr;
	return tree_walk(cp, tree_enter, tree_leave, &t);
}

/* See out-json.h. */
int rep_json_tree(struct json_w *w, const struct rep_data *d, const struct tree_view *cp,
		  double min_pct, bool skip_zero, bool spreads)
{
	return json_tree(w, d, cp, min_pct, skip_zero, spreads, NULL, NULL);
}

/* "concurrency": the run's parallel efficiency and the threads' columns
 * summed (docs/json.md). */
static void put_concurrency(struct json_w *w, const struct rep_data *d,
			    const struct thr_view *thr)
{
	json_key(w, "concurrency");
	json_begin_object(w);
	json_key(w, "event");
	json_string(w, d->events[d->act.event].name);
	json_key(w, "window_ns");
	json_u64(w, d->act.window_ns);
	json_key(w, "efficiency");
	json_double(w, thr->efficiency);
	json_key(w, "mean_working_threads");
	json_double(w, thr->mean_working);
	json_key(w, "work");
	json_double(w, thr_samples(thr->work));
	json_key(w, "spin");
	json_double(w, thr_samples(thr->spin));
	json_key(w, "idle");
	json_double(w, thr_samples(thr->idle));
	json_end_object(w);
}

/* "sample: HOW; wrapper: HOW; ..." from the sources' table */
#define OVH_METHOD(name, count, cost, how) "; " #name ": " how
#define REP_COMP_METHOD (PROF_OVH_SOURCES(OVH_METHOD) + 2)

/* "compensation": the mode asked for, whether the experiment has data, and
 * how each overhead source is measured (the same for every rank, so said
 * once rather than in every rank's overhead_sources). */
static void put_compensation(struct json_w *w, const struct rep_data *d,
			     enum rep_comp comp)
{
	json_key(w, "compensation");
	json_begin_object(w);
	json_key(w, "mode");
	json_string(w, comp_mode_name(comp));
	json_key(w, "available");
	json_bool(w, comp_present(d));
	json_key(w, "method");
	json_string(w, REP_COMP_METHOD);
	json_end_object(w);
}

/* The report of m; page: the page's (every rank listed, the spreads and
 * the threads left to its own views). */
static int json_report(FILE *out, const struct rep_model *m, bool page)
{
	const struct rep_data *d = m->d;
	const struct flat *f = m->flat;
	const struct thr_view *t = m->thr;
	double min_pct = m->min_pct;
	struct json_w w;

	json_init(&w, out);
	json_begin_object(&w);
	json_key(&w, "cpperf_version");
	json_string(&w, CPPERF_VERSION);
	put_experiment(&w, m);
	put_flat(&w, d, f, d->nevents ? f->all[0] : 0, t, m);
	json_key(&w, "callpath");
	if (json_tree(&w, d, m->cp, min_pct, m->removed != NULL, !page, t, m) < 0)
		return -1;
	if (!page || d->act.on)	/* the page's Threads view shows them */
		put_threads(&w, d);
	if (t)
		put_concurrency(&w, d, t);
	if (rep_json_mpi(&w, d, page || m->o->all_ranks) < 0)
		return -1;
	rep_json_waits(&w, d);
	if (rep_json_cpath(&w, d, m->cpr, m->cp_why, min_pct, m->comp, !page) < 0)
		return -1;
	put_compensation(&w, d, m->comp);
	if (m->cl && rep_json_graph(&w, d, m->cl) < 0)
		return -1;
	json_end_object(&w);
	return json_finish(&w);
}

int rep_json(FILE *out, const struct rep_model *m)
{
	return json_report(out, m, false);
}

int rep_json_page(FILE *out, const struct rep_model *m)
{
	return json_report(out, m, true);
}
