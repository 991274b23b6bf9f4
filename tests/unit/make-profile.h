/*
 * make-profile.h - building profiles by hand for the unit tests: the
 * allocations that abort rather than fail, a rank's empty profile of one
 * event, its critical-path segments and MPI call sites, and a job of them
 * merged as the report reads it.
 */
#ifndef CPPERF_TEST_MAKE_PROFILE_H
#define CPPERF_TEST_MAKE_PROFILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/profile.h"
#include "../../report/merge.h"

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

/* Append a site of function fn with the call path frames[0..n) (room for
 * one frame at least), called once; returns it. */
static inline struct prof_mpi_site *add_mpi_site(struct profile *p, const char *fn,
						 const uint32_t *frames, uint32_t n)
{
	struct prof_mpi_site *m;

	p->mpi_sites = realloc(p->mpi_sites, (p->nmpi_sites + 1) * sizeof(*m));
	if (!p->mpi_sites)
		abort();
	m = &p->mpi_sites[p->nmpi_sites++];
	memset(m, 0, sizeof(*m));
	m->function = xstrdup(fn);
	m->frames = xcalloc(n ? n : 1, sizeof(*m->frames));
	if (n)
		memcpy(m->frames, frames, n * sizeof(*frames));
	m->nframes = n;
	m->calls = 1;
	return m;
}

/* The n profiles p merged into d as the ranks of experiment dir (the
 * profiles released); 0, or -1 with the reason printed as a TAP comment. */
static inline int merge_profiles(struct rep_data *d, struct profile *p, int n, const char *dir)
{
	char err[1024];
	int rc = merge_init(d);

	for (int i = 0; i < n && rc == 0; i++)
		rc = merge_add(d, &p[i], NULL, "rank", err, sizeof(err));
	if (rc == 0)
		rc = merge_finish(d, err, sizeof(err));
	for (int i = 0; i < n; i++)
		profile_release(&p[i]);
	if (rc == 0)
		d->dir = xstrdup(dir);
	else
		printf("# %s\n", err);
	return rc;
}

#endif
