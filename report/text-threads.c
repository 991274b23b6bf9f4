/*
 * text-threads.c - `cpperf report --view=threads`: what the threads did
 * (docs/threads.md).  A header with the run's parallel efficiency; a row
 * per thread: its work, spin and idle time; a row per function, by its
 * time: how much of it ran alone (sequential) or with other threads
 * working (concurrent), the idleness of the others blamed on it, its spin
 * in runtime waits and the threads working on average at its samples.
 * Times are the classified event's samples times its window.
 */
#include <stdio.h>
#include <stdlib.h>
#include "data.h"
#include "model.h"
#include "show.h"
#include "text.h"
#include "thread-view.h"

/* Seconds of thread time that v (PROF_ACT_UNIT) samples stand for. */
static double secs(const struct rep_data *d, uint64_t v)
{
	return thr_samples(v) * (double)d->act.window_ns / 1e9;
}

static void put_threads(FILE *out, const struct rep_data *d)
{
	fputs("#     rank        pid        tid     work s     spin s     idle s  busy %\n", out);
	for (uint32_t i = 0; i < d->nthreads; i++) {
		const struct rep_thread *t = &d->threads[i];
		uint64_t work = t->act[PROF_ACT_sequential] + t->act[PROF_ACT_concurrent];
		uint64_t all = work + t->act[PROF_ACT_spin] + t->act[PROF_ACT_idle];

		if (t->rank >= 0)
			fprintf(out, "%10lld", (long long)t->rank);
		else
			fprintf(out, "%10s", "-");
		fprintf(out, " %10lld %10llu %10.3f %10.3f %10.3f %7.1f\n", (long long)t->pid,
			(unsigned long long)t->tid, secs(d, work), secs(d, t->act[PROF_ACT_spin]),
			secs(d, t->act[PROF_ACT_idle]), rep_pct(work, all));
	}
}

static uint64_t busy(const struct flat_fn *fn)
{
	return fn->total[PROF_ACT_sequential] + fn->total[PROF_ACT_concurrent] +
	       fn->total[PROF_ACT_spin];
}

static int by_busy(const void *a, const void *b)
{
	uint64_t x = busy(*(const struct flat_fn *const *)a);
	uint64_t y = busy(*(const struct flat_fn *const *)b);

	return x > y ? -1 : x < y;
}

/* Functions of at least min_pct of the threads' busy time, the most first;
 * the number left out. */
static uint32_t put_functions(FILE *out, const struct rep_data *d, const struct thr_view *v,
			      const struct flat_fn **order, double min_pct)
{
	uint64_t all = v->work + v->spin;
	uint32_t hidden = 0;

	fputs("#   work s  sequential %  concurrent %  idle blame s     spin s  threads  "
	      "function  module\n", out);
	for (uint32_t i = 0; i < v->fns.nfns; i++) {
		const uint64_t *c = order[i]->total;
		uint64_t work = c[PROF_ACT_sequential] + c[PROF_ACT_concurrent];

		if (rep_pct(busy(order[i]), all) < min_pct) {
			hidden++;
			continue;
		}
		fprintf(out, "%10.3f %13.1f %13.1f %13.3f %10.3f %8.2f  ", secs(d, work),
			rep_pct(c[PROF_ACT_sequential], work), rep_pct(c[PROF_ACT_concurrent], work),
			secs(d, c[PROF_ACT_idle_blame]), secs(d, c[PROF_ACT_spin]),
			work ? (double)c[PROF_ACT_working] / (double)work : 0);
		rep_put_clean(out, order[i]->name, 0);
		fputs("  ", out);
		rep_put_clean(out, rep_module_name(d, order[i]->module), 0);
		fputc('\n', out);
	}
	return hidden;
}

int rep_text_threads(FILE *out, const struct rep_model *m)
{
	const struct rep_data *d = m->d;
	const struct thr_view *v = m->thr;
	double min_pct = m->min_pct;
	const struct flat_fn **order;
	uint32_t hidden;

	if (!(order = malloc(((size_t)v->fns.nfns + 1) * sizeof(*order))))
		return -1;
	for (uint32_t i = 0; i < v->fns.nfns; i++)
		order[i] = &v->fns.fns[i];
	qsort(order, v->fns.nfns, sizeof(*order), by_busy);
	rep_text_intro(out, d);
	fputs("# thread activity from the samples of ", out);
	rep_put_clean(out, d->events[d->act.event].name, 0);
	fprintf(out, ": a thread works when it has a sample out of a runtime's wait within "
		"%.2f ms (docs/threads.md)%s\n", (double)d->act.window_ns / 1e6,
		d->act.mixed ? "; profiles that classified another event are left out" : "");
	fprintf(out, "# parallel efficiency %.1f%%: work %.3f s of %.3f s of thread time (spin "
		"%.3f s, idle %.3f s); %.2f threads working at a working sample on average\n#\n",
		100 * v->efficiency, secs(d, v->work), secs(d, v->work + v->spin + v->idle),
		secs(d, v->spin), secs(d, v->idle), v->mean_working);
	put_threads(out, d);
	fputs("#\n# functions, inclusive (a sample counts once however often the function is "
	      "on its path)\n", out);
	hidden = put_functions(out, d, v, order, min_pct);
	if (hidden)
		fprintf(out, "# %u function%s under %.2f%% of the busy time not shown "
			"(--min-pct)\n", hidden, hidden == 1 ? "" : "s", min_pct);
	free(order);
	return ferror(out) ? -1 : 0;
}
