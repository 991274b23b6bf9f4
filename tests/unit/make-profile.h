/*
 * make-profile.h - building profiles by hand for the unit tests: the
 * allocations that abort rather than fail, a rank's empty profile of one
 * event, and its critical-path segments.
 */
#ifndef CPPERF_TEST_MAKE_PROFILE_H
#define CPPERF_TEST_MAKE_PROFILE_H

#include <stdlib.h>
#include <string.h>
#include "../../common/profile.h"

static inline char *xstrdup(const char *s)
{
	char *r = strdup(s);

	if (!r)
		abort();
	return r;
}

static inline void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

/* Rank r of size on host "n", pid 100 + r, sampling "cycles" at 1000 Hz,
 * with an empty tree. */
static inline void make_rank_profile(struct profile *p, int64_t r, int64_t size)
{
	profile_init(p);
	p->host = xstrdup("n");
	p->pid = 100 + r;
	p->rank = r;
	p->size = size;
	p->nevents = 1;
	p->events = xcalloc(1, sizeof(*p->events));
	p->events[0] = (struct prof_event){ xstrdup("cycles"), 1000, 0, 0 };
	if (cct_init(&p->tree, 1) < 0)
		abort();
}

/* count samples of segment seg under node. */
static inline void add_seg(struct profile *p, uint64_t seg, uint32_t node, uint64_t count)
{
	struct prof_cp_seg *s;

	p->cp_segs = realloc(p->cp_segs, (p->ncp_segs + 1) * sizeof(*p->cp_segs));
	if (!p->cp_segs)
		abort();
	s = &p->cp_segs[p->ncp_segs++];
	*s = (struct prof_cp_seg){ seg, node, xcalloc(1, sizeof(uint64_t)) };
	s->counts[0] = count;
}

#endif
