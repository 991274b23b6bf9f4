/*
 * text.c - `cpperf report --format=text`: aligned, perf-report-like text.
 *
 * A header says what was measured (command, processes, samples, lost,
 * unwinding quality, the event shown, the samples overhead compensation
 * removed); then either the flat profile (one
 * row per function: self%, total%, self and total samples, function,
 * module, file:line) or the call-path tree (indented two spaces per level,
 * total% and self% per node).  Both hide what is below --min-pct of the
 * event shown and say how much they hid.  Names are printed with control
 * characters replaced so a hostile name cannot break the layout.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "compensation.h"
#include "data.h"
#include "experiment.h"
#include "flat.h"
#include "model.h"
#include "show.h"
#include "text.h"
#include "tree.h"

#define TEXT_MAX_NAME 60	/* widest function column */

/* See text.h. */
void rep_put_clean(FILE *out, const char *s, int width)
{
	int n = 0;

	for (; *s; s++, n++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
	for (; n < width; n++)
		fputc(' ', out);
}

static void put_where(FILE *out, const char *file, uint32_t line)
{
	if (!*file)
		return;
	fputs("  ", out);
	rep_put_clean(out, file, 0);
	if (line)
		fprintf(out, ":%u", line);
}

/* Why a profile ends early, in words. */
static void put_partial(FILE *out, const struct rep_partial *p)
{
	double at = (double)p->covered_ns / 1e9;

	if (p->rank >= 0)
		fprintf(out, "rank %lld ", (long long)p->rank);
	else
		fprintf(out, "pid %lld ", (long long)p->pid);
	if (p->live == REP_LIVE_NONE) {
		rep_put_clean(out, p->reason, 0);
		fprintf(out, " after %.1f s", at);
	} else if (p->live == REP_LIVE_RUNNING) {
		fprintf(out, "checkpoint at %.1f s, still running", at);
	} else if (p->live == REP_LIVE_DEAD) {
		fprintf(out, "checkpoint at %.1f s, then ended without a final profile "
			"(SIGKILL? its node failed?)", at);
	} else {
		fprintf(out, "checkpoint at %.1f s of a run still going or killed", at);
	}
}

/* What the run lacks, before anything else: a live run, ranks without a
 * profile, profiles that end early, other runs left out. */
static void put_warnings(FILE *out, const struct rep_data *d)
{
	if (exp_live(d))
		fputs("# LIVE: the run is still going; this reports its latest checkpoints\n", out);
	if (d->missing.ranks) {
		fprintf(out, "# MISSING: %llu of %lld ranks left no profile: ",
			(unsigned long long)d->missing.ranks, (long long)d->mpi.size);
		rank_runs_put(out, &d->missing);
		fputc('\n', out);
	}
	if (d->npartial) {
		fprintf(out, "# PARTIAL: %u profile%s end%s early: ", d->npartial,
			d->npartial == 1 ? "" : "s", d->npartial == 1 ? "s" : "");
		for (uint32_t i = 0; i < d->npartial; i++) {
			fputs(i ? "; " : "", out);
			put_partial(out, &d->partial[i]);
		}
		fputc('\n', out);
	}
	for (uint32_t i = 0; i < d->nother_runs; i++) {
		fprintf(out, "# another run in this directory, left out: %u profile%s (--run=",
			d->other_runs[i].nprofiles, d->other_runs[i].nprofiles == 1 ? "" : "s");
		rep_put_clean(out, d->other_runs[i].id, 0);
		fputs(")\n", out);
	}
}

/* See text.h. */
void rep_text_intro(FILE *out, const struct rep_data *d)
{
	fputs("# cpperf report: ", out);
	rep_put_clean(out, d->dir ? d->dir : "", 0);
	fputs("\n# command:", out);
	for (uint32_t i = 0; i < d->argc; i++) {
		fputc(' ', out);
		rep_put_clean(out, d->argv[i], 0);
	}
	fputc('\n', out);
	put_warnings(out, d);
}

/* Whether an event has no sampling of its own: a group's member read
 * at each sample of the group's leader. */
static bool read_at_leader(const struct rep_event *e)
{
	return !e->period && !e->freq;
}

/* The events beside the one shown and the derived metrics, in the header:
 * what their columns hold. */
static void put_beside(FILE *out, const struct rep_model *m)
{
	const struct rep_data *d = m->d;
	bool leader = false;

	for (uint32_t e = 0, n = 0; e < d->nevents; e++) {
		if (e == m->event)
			continue;
		fputs(n++ ? ", " : "\n# beside it (--event=NAME sorts by another): ", out);
		rep_put_clean(out, d->events[e].name, 0);
		leader |= read_at_leader(&d->events[e]);
	}
	if (leader) {
		fputs(" (a group's members: their counts read at each sample of ", out);
		rep_put_clean(out, d->events[0].name, 0);
		fputc(')', out);
	}
	for (uint32_t i = 0; i < m->nmetrics; i++) {
		fputs(i ? ", " : "\n# metrics (--metric NAME=EXPR): ", out);
		rep_put_clean(out, m->metrics[i].name, 0);
		fputs(" = ", out);
		rep_put_clean(out, m->metrics[i].expr, 0);
	}
}

/* Whether an MPI call site sets MPI up or down: outside the ranks' MPI
 * region, and no finding. */
static bool setup_site(const struct rep_site *s)
{
	static const char *const setup[] = { "MPI_Init", "MPI_Init_thread", "MPI_Finalize" };

	for (size_t i = 0; i < sizeof(setup) / sizeof(setup[0]); i++)
		if (!strcmp(s->function, setup[i]))
			return true;
	return false;
}

/* What an MPI run's numbers answer first, as the page's summary does:
 * the ranks' load and imbalance, the costliest MPI call site, cpperf's
 * own cost. */
static void put_findings(FILE *out, const struct rep_data *d)
{
	const struct rep_mpi *mpi = &d->mpi;
	const struct rep_rank *most, *least;
	const struct rep_site *top = NULL;
	uint64_t work = 0, site_ns = 0, over = 0, wall = 0;
	uint32_t n = 0;

	for (uint32_t i = 0; i < mpi->nranks; i++) {
		const struct rep_rank *r = &mpi->ranks[i];

		if (r->rank < 0)	/* not an MPI process */
			continue;
		n++;
		work += rep_rank_work(r);
		over += r->comp_on ? comp_overhead_ns(&r->ovh) : 0;
		wall += r->wall_ns;
	}
	if (n < 2)
		return;
	rep_rank_extremes(mpi, &most, &least);
	fprintf(out, "# findings: rank %lld computes most (%.3f s), rank %lld least (%.3f s), "
		"imbalance %.1f%% (--view=mpi)", (long long)most->rank, rep_secs(rep_rank_work(most)),
		(long long)least->rank, rep_secs(rep_rank_work(least)),
		work ? 100.0 * ((double)rep_rank_work(most) * n / (double)work - 1) : 0.0);
	for (uint32_t i = 0; i < mpi->nsites; i++) {
		const struct rep_site *s = &mpi->sites[i];

		if (setup_site(s))
			continue;
		site_ns += s->time_ns;
		top = !top || s->time_ns > top->time_ns ? s : top;
	}
	if (top) {
		fprintf(out, ";\n#   costliest MPI call: %s", top->function);
		if (top->nframes) {
			fputs(" from ", out);
			rep_put_clean(out, d->names[top->frames[top->nframes - 1]], 0);
		}
		fprintf(out, " %.3f s, %.1f%% of MPI time", rep_secs(top->time_ns),
			rep_pct(top->time_ns, site_ns));
	}
	if (over)
		fprintf(out, ";\n#   cpperf's cost: %.2f%% of the ranks' time (--view=compensation)",
			rep_pct(over, wall));
	fputc('\n', out);
}

/* The header common to both views; removed, when not NULL, the samples
 * --compensate took out per event. */
static void put_header(FILE *out, const struct rep_model *m)
{
	const struct rep_data *d = m->d;
	uint32_t event = m->event;
	const uint64_t *removed = m->removed;
	const struct rep_event *ev = &d->events[event];
	uint64_t unw = rep_unwinds(d);

	rep_text_intro(out, d);
	fprintf(out, "# processes: %u%s, threads: %u, samples: %llu (lost %llu, "
		"throttled %llu), complete unwinds: %.1f%%\n", d->nprocs,
		d->merged_ranks ? " (merged at MPI_Finalize)" : "", d->nthreads,
		(unsigned long long)d->samples, (unsigned long long)d->lost,
		(unsigned long long)d->throttled,
		unw ? rep_pct(d->unwind_complete, unw) : 100.0);
	fputs("# event: ", out);
	rep_put_clean(out, ev->name, 0);
	if (ev->period)
		fprintf(out, " (period %llu)", (unsigned long long)ev->period);
	else
		fprintf(out, " (%llu Hz)", (unsigned long long)ev->freq);
	put_beside(out, m);
	fputc('\n', out);
	put_findings(out, d);
	if (removed)
		fprintf(out, "# overhead compensation: %llu sample%s in cpperf's runtime "
			"removed (--compensate=none keeps them)\n",
			(unsigned long long)removed[event], removed[event] == 1 ? "" : "s");
	fputs("#\n", out);
}

/* The width of a column beside the event shown. */
static int beside_width(const char *title)
{
	int n = (int)strlen(title);

	return n < 9 ? 9 : n;
}

/* s right-aligned in width. */
static void put_right(FILE *out, const char *s, int width)
{
	fprintf(out, " %*s", width - (int)strlen(s), "");
	rep_put_clean(out, s, 0);
}

/* The titles of the columns beside the event shown: the other events',
 * then the metrics'. */
static void put_beside_titles(FILE *out, const struct rep_model *m)
{
	for (uint32_t e = 0; e < m->d->nevents; e++)
		if (e != m->event)
			put_right(out, m->d->events[e].name, beside_width(m->d->events[e].name));
	for (uint32_t i = 0; i < m->nmetrics; i++)
		put_right(out, m->metrics[i].name, beside_width(m->metrics[i].name));
}

/* Those columns of counts v (self in the flat view, totals in the tree);
 * a metric that divides by zero shows '-'. */
static void put_beside_values(FILE *out, const struct rep_model *m, const uint64_t *v)
{
	for (uint32_t e = 0; e < m->d->nevents; e++)
		if (e != m->event)
			fprintf(out, " %*llu", beside_width(m->d->events[e].name),
				(unsigned long long)v[e]);
	for (uint32_t i = 0; i < m->nmetrics; i++) {
		double x = metric_eval(&m->metrics[i], v);
		int w = beside_width(m->metrics[i].name);

		if (isnan(x))
			fprintf(out, " %*s", w, "-");
		else
			fprintf(out, " %*.4g", w, x);
	}
}

/* Widths of the function and module columns, at least their titles'. */
static void column_widths(const struct rep_data *d, const struct flat *f, int *fw, int *mw)
{
	size_t w = strlen("function"), m = strlen("module");

	for (uint32_t i = 0; i < f->nfns; i++) {
		size_t n = strlen(f->fns[i].name), k = strlen(rep_module_name(d, f->fns[i].module));

		w = n > w ? n : w;
		m = k > m ? k : m;
	}
	*fw = (int)(w > TEXT_MAX_NAME ? TEXT_MAX_NAME : w);
	*mw = (int)(m > TEXT_MAX_NAME ? TEXT_MAX_NAME : m);
}

static bool row_shown(const struct flat_fn *fn, uint32_t event, uint64_t all,
		      double min_pct)
{
	return fn->total[event] && rep_pct(fn->total[event], all) >= min_pct;
}

/* The thread activity's columns of inclusive columns v (NULL: none):
 * sequential and concurrent shares of the work, idleness blamed (s). */
#define ACT_HEAD "   seq%  conc%  blame(s)"
static void put_activity(FILE *out, const struct rep_data *d, const uint64_t *v)
{
	uint64_t work = v ? v[PROF_ACT_sequential] + v[PROF_ACT_concurrent] : 0;

	fprintf(out, " %6.1f %6.1f %9.3f", work ? rep_pct(v[PROF_ACT_sequential], work) : 0,
		work ? rep_pct(v[PROF_ACT_concurrent], work) : 0,
		v ? thr_samples(v[PROF_ACT_idle_blame]) * (double)d->act.window_ns / 1e9 : 0);
}

int rep_text_flat(FILE *out, const struct rep_model *m)
{
	const struct rep_data *d = m->d;
	const struct flat *f = m->flat;
	const struct thr_view *thr = m->thr;
	uint32_t event = m->event;
	double min_pct = m->min_pct;
	uint64_t all = f->all[event];
	uint32_t hidden = 0;
	int w, mw;

	column_widths(d, f, &w, &mw);
	put_header(out, m);
	fputs("#  self%  total%        self       total", out);
	put_beside_titles(out, m);
	fprintf(out, "%s  %-*s  %-*s  file:line\n", thr ? ACT_HEAD : "", w, "function", mw, "module");
	for (uint32_t i = 0; i < f->nfns; i++) {
		const struct flat_fn *fn = &f->fns[i];

		if (!row_shown(fn, event, all, min_pct)) {
			hidden++;
			continue;
		}
		fprintf(out, "%7.2f %7.2f %11llu %11llu", rep_pct(fn->self[event], all),
			rep_pct(fn->total[event], all), (unsigned long long)fn->self[event],
			(unsigned long long)fn->total[event]);
		put_beside_values(out, m, fn->self);
		if (thr)
			put_activity(out, d, thr_function(thr, fn->name, fn->module));
		fputs("  ", out);
		rep_put_clean(out, fn->name, w);
		fputs("  ", out);
		rep_put_clean(out, rep_module_name(d, fn->module), fn->file[0] ? mw : 0);
		put_where(out, fn->file, fn->line);
		fputc('\n', out);
	}
	if (all == 0)
		fputs("# no samples of this event\n", out);
	if (hidden)
		fprintf(out, "# %u function%s below %g%% not shown (--min-pct=0 shows all)\n",
			hidden, hidden == 1 ? "" : "s", min_pct);
	fputs("# call paths: cpperf report --view=callpath\n", out);
	return ferror(out) ? -1 : 0;
}

struct text_tree {
	FILE *out;
	const struct rep_data *d;
	const struct tree_view *cp;
	uint32_t event;
	uint64_t grand;
	double min_pct;
	uint32_t pruned;
	const struct thr_view *thr;	/* its columns, or NULL */
	const struct rep_model *beside;	/* the columns beside the event, or NULL */
};

static int tree_enter(void *ctx, uint32_t node, uint32_t depth)
{
	struct text_tree *t = ctx;
	uint64_t total = tree_total(t->cp, node)[t->event];
	uint64_t self = cct_self(t->cp->cct, node)[t->event];

	if (node == CCT_ROOT)
		return 1;
	if (total == 0 || rep_pct(total, t->grand) < t->min_pct) {
		t->pruned++;
		return 0;
	}
	uint32_t fr = t->cp->cct->frame[node];
	const struct sym_frame *sf = &t->d->syms.frames[fr];

	fprintf(t->out, "%7.2f %7.2f", rep_pct(total, t->grand), rep_pct(self, t->grand));
	if (t->beside)
		put_beside_values(t->out, t->beside, tree_total(t->cp, node));
	if (t->thr)
		put_activity(t->out, t->d, thr_node(t->thr, node));
	fprintf(t->out, "  %*s", (int)(2 * (depth - 1)), "");
	rep_put_clean(t->out, t->d->names[fr], 0);
	if (sf->module != SYMTAB_NO_MODULE) {
		fputs("  [", t->out);
		rep_put_clean(t->out, rep_module_name(t->d, sf->module), 0);
		fputc(']', t->out);
	}
	put_where(t->out, sf->file, sf->line);
	fputc('\n', t->out);
	return 1;
}

/* rep_text_tree with the thread activity's columns of thr (NULL: none),
 * when cp is over the experiment's tree, and the columns beside the event
 * of m (NULL: none). */
static int text_tree(FILE *out, const struct rep_data *d, const struct tree_view *cp,
		     uint32_t event, double min_pct, const struct thr_view *thr,
		     const struct rep_model *m)
{
	struct text_tree t = { out, d, cp, event, tree_total(cp, CCT_ROOT)[event], min_pct, 0,
			       cp->cct->parent == d->tree.parent ? thr : NULL, m };

	fputs("# total%   self%", out);
	if (m)
		put_beside_titles(out, m);
	fprintf(out, "%s  call path (outermost first)\n", t.thr ? ACT_HEAD : "");
	if (tree_walk(cp, tree_enter, NULL, &t) < 0)
		return -1;
	if (t.grand == 0)
		fputs("# no samples of this event\n", out);
	if (t.pruned)
		fprintf(out, "# %u subtree%s below %g%% not shown (--min-pct=0 shows all)\n",
			t.pruned, t.pruned == 1 ? "" : "s", min_pct);
	return ferror(out) ? -1 : 0;
}

/* See text.h. */
int rep_text_tree(FILE *out, const struct rep_data *d, const struct tree_view *cp,
		  uint32_t event, double min_pct)
{
	return text_tree(out, d, cp, event, min_pct, NULL, NULL);
}

int rep_text_callpath(FILE *out, const struct rep_model *m)
{
	put_header(out, m);
	return text_tree(out, m->d, m->cp, m->event, m->min_pct, m->thr, m);
}
