/*
 * text.h - the text renderers: flat and call-path views (text.c), MPI
 * (text-mpi.c), wait states (text-waits.c), critical path (text-cp.c),
 * compensation (text-comp.c).
 */
#ifndef CPPERF_REPORT_TEXT_H
#define CPPERF_REPORT_TEXT_H

#include <stdint.h>
#include <stdio.h>
#include "cluster.h"
#include "compensation.h"
#include "cpath.h"
#include "data.h"
#include "flat.h"
#include "model.h"
#include "thread-view.h"
#include "tree.h"

/* The flat and call-path views of m's event, pruned below its threshold;
 * the header says how many samples --compensate took out (m->removed);
 * with m->thr, each function's or node's sequential and concurrent shares
 * and idleness blamed as columns (--metrics=concurrency). */
int rep_text_flat(FILE *out, const struct rep_model *m);
int rep_text_callpath(FILE *out, const struct rep_model *m);
/* The call-path tree under the column titles, pruned below min_pct of
 * event; a note for what was hidden.  Returns 0 or -1 (memory). */
int rep_text_tree(FILE *out, const struct rep_data *d, const struct tree_view *cp,
		  uint32_t event, double min_pct);
/* Text --view=cp (text-cp.c): length, path, functions, zeroing, series,
 * tree. */
int rep_text_cpath(FILE *out, const struct rep_model *m);
/* Text --view=mpi: per-rank time (wall and blocked as comp says) of the
 * ranks rank-list.h lists, or all, with each column's distribution when
 * some are left out; top call sites, matrix, collectives; on an experiment
 * without MPI data one line saying so. */
int rep_text_mpi(FILE *out, const struct rep_data *d, enum rep_comp comp, bool all_ranks);
/* Text --view=compensation (text-comp.c): per rank (those rank-list.h
 * lists, or all) the measured, local- and parallel-compensated walls,
 * overhead, delay, waits; the overhead sources summed over the ranks.  d
 * must have compensation data. */
int rep_text_comp(FILE *out, const struct rep_data *d, bool all_ranks);
/* Text --view=waits (text-waits.c): the wait states of the call sites
 * that have some, the pairs of sites, the culprits; d must have wait
 * states. */
int rep_text_waits(FILE *out, const struct rep_data *d);
/* The innermost user frames of call site s (REP_MPI_PATH of them),
 * outermost first, as the MPI view shows them. */
void rep_put_site_path(FILE *out, const struct rep_data *d, const struct rep_site *s);
/* Text --view=graph (text-graph.c): the classes found among the ranks
 * (m->cl), and the graphs of the first ones as their representatives show
 * them. */
int rep_text_graph(FILE *out, const struct rep_model *m);
/* Text --view=threads (text-threads.c): the run's parallel efficiency,
 * per thread work, spin and idle, per function (those of at least the
 * threshold of the busy time) sequential and concurrent shares, idleness
 * blamed, spin, from m->thr. */
int rep_text_threads(FILE *out, const struct rep_model *m);
/* The first header lines of text output: directory and command. */
void rep_text_intro(FILE *out, const struct rep_data *d);
/* Print s with control characters as '?', then pad to width. */
void rep_put_clean(FILE *out, const char *s, int width);

#endif
