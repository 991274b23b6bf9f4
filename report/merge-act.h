/*
 * merge-act.h - the thread activity of the profiles, added up per node of
 * the merged tree (merge-act.c).
 */
#ifndef CPPERF_REPORT_MERGE_ACT_H
#define CPPERF_REPORT_MERGE_ACT_H

#include <stddef.h>
#include "data.h"

/* Add p's activity (its nodes mapped by nmap, its event by emap) to d's.
 * Returns 0, or -1 with a message in err (memory). */
int act_merge_add(struct rep_data *d, const struct profile *p, const uint32_t *nmap,
		  const uint32_t *emap, char *err, size_t errlen);
void act_merge_release(struct rep_act *a);

/* Node n's columns, NULL when it has none. */
static inline const uint64_t *rep_act_node(const struct rep_act *a, uint32_t n)
{
	return n < a->cap ? a->node + (size_t)n * PROF_ACTS : NULL;
}

#endif
