/*
 * spread.h - each function's samples over the MPI ranks (spread.c).
 */
#ifndef CPPERF_REPORT_SPREAD_H
#define CPPERF_REPORT_SPREAD_H

#include "data.h"

struct flat;
/* Keep p's self samples by merged frame (fmap, emap as in merge_add) and
 * the name of its file; nothing for a process that is not an MPI rank.
 * Returns 0, or -1 when memory is short. */
int spread_add(struct rep_spread *s, const struct profile *p, const char *file,
	       const uint32_t *fmap, const uint32_t *emap);
/* Each function's rank_* fields of f from s (fn_of_frame: flat_build's
 * map).  Returns 0, or -1 when memory is short. */
int spread_functions(const struct rep_spread *s, struct flat *f, const uint32_t *fn_of_frame);
void spread_release(struct rep_spread *s);

#endif
