/*
 * thread-view.h - the thread activity as the report shows it (thread-view.c,
 * docs/threads.md): its columns over the merged tree, inclusive per node
 * and per function (a sample counted once however often a function is on
 * its path), and the run's parallel efficiency.
 */
#ifndef CPPERF_REPORT_THREAD_VIEW_H
#define CPPERF_REPORT_THREAD_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "data.h"
#include "flat.h"
#include "tree.h"

struct thr_view {
	struct cct cols;	/* d's tree with the columns as its counts */
	struct tree_view tv;	/* their inclusive totals per node */
	struct flat fns;	/* per function; total = inclusive */
	const struct flat_fn **by_name;	/* fns by (name, module) pointer, for look-ups */
	/* over the threads, in samples (PROF_ACT_UNIT) */
	uint64_t work, spin, idle, working;
	double efficiency;	/* work / (work + spin + idle) */
	double mean_working;	/* working threads at a working sample, on average */
};

/* Build v from d, which has thread activity (d->act.on).  Returns 0, or
 * -1 with a message in err (memory). */
int thr_build(struct thr_view *v, const struct rep_data *d, char *err, size_t errlen);
void thr_release(struct thr_view *v);

/* The inclusive columns of node n, of the function (name, module) as the
 * flat profile names it (NULL when it has none). */
const uint64_t *thr_node(const struct thr_view *v, uint32_t n);
const uint64_t *thr_function(const struct thr_view *v, const char *name, uint32_t module);

/* Columns in samples: v[c] / PROF_ACT_UNIT. */
static inline double thr_samples(uint64_t v)
{
	return (double)v / PROF_ACT_UNIT;
}

#endif
