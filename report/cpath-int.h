/*
 * cpath-int.h - what the walk (cpath.c) and the reference (cpath-ref.c)
 * share: the walk over the links, the zeroing table.
 */
#ifndef CPPERF_REPORT_CPATH_INT_H
#define CPPERF_REPORT_CPATH_INT_H

#include <string.h>
#include "cpath.h"

/* "out of memory computing the critical path" into err; returns -1. */
int cpath_oom(char *err, size_t errlen);
/* Walk back from rank index start's last event through v, one rank of
 * the walk per rank of c (its links, the first segment it kept), into r's
 * runs (time order) and r->cut.  Returns 0 or -1 with a message (a cycle,
 * a link to a missing rank or event). */
int cpath_walk_from(const struct rep_cpath *c, const struct cp_walk_rank *v, uint32_t start,
		    struct cpath_result *r, char *err, size_t errlen);
/* The largest wall over the ranks of c. */
uint64_t cpath_max_wall(const struct rep_cpath *c);
/* r->zero from each selected function's net length and share (r->length_ns
 * set).  Returns 0 or -1 (memory). */
int cpath_fill_zero(struct cpath_result *r, const struct rep_cpath *c, const uint64_t *net,
		    const uint64_t *share, char *err, size_t errlen);

/* Whether rank rk tracks N_f and S_f at all (it started somewhere). */
static inline bool cpath_fn_tracked(const struct rep_cp_rank *rk)
{
	return rk->fn_how != PROF_CP_FN_NONE && rk->fn_net;
}

static inline void cpath_result_init(struct cpath_result *r)
{
	memset(r, 0, sizeof(*r));
}

#endif
