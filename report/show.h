/*
 * show.h - what the renderers share (show.c): percentages, seconds,
 * module and function names, the ranks' computation.
 */
#ifndef CPPERF_REPORT_SHOW_H
#define CPPERF_REPORT_SHOW_H

#include <stdint.h>
#include "data.h"

/* Percentage part/whole*100, 0 when whole is 0. */
double rep_pct(uint64_t part, uint64_t whole);
/* ns in seconds. */
double rep_secs(uint64_t ns);
/* The samples d unwound, completely or not (saturating at 2^64 - 1). */
uint64_t rep_unwinds(const struct rep_data *d);
/* The last path component of a module path ("" for no module). */
const char *rep_module_name(const struct rep_data *d, uint32_t module);
const char *rep_module_path(const struct rep_data *d, uint32_t module);
/* A rank's computation: its MPI region less its time in MPI. */
uint64_t rep_rank_work(const struct rep_rank *r);
/* The MPI ranks of m that compute most and least (the first of equals);
 * NULL when there are none. */
void rep_rank_extremes(const struct rep_mpi *m, const struct rep_rank **most,
		       const struct rep_rank **least);
/* The function of node n of d's tree, "-" for the root or no node. */
const char *rep_node_function(const struct rep_data *d, uint32_t n);

#endif
