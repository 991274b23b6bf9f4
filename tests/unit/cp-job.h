/*
 * cp-job.h - MPI jobs built by hand for the unit tests of the critical
 * path: ranks whose trees hold main, compute and wait at node ids that
 * differ from rank to rank, their links and --cp-trace records, merged as
 * exp_load does; and what the tests read of a path (its runs, numbers
 * near enough).
 */
#ifndef CPPERF_TEST_CP_JOB_H
#define CPPERF_TEST_CP_JOB_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "make-profile.h"
#include "../../report/cpath.h"
#include "../../report/merge.h"

#define ERRLEN 1024
#define MS 1000000ull

/* Node ids of one rank's tree. */
struct nodes {
	uint32_t main, compute, wait;
};

/* Rank r of size: one event, frames main, compute, wait (interned and put
 * in the tree in a rank-dependent order, so node ids differ), self counts
 * compute 30, wait 10, main 1, and cp_events 5. */
static inline struct nodes make_rank(struct profile *p, int64_t r, int64_t size)
{
	struct nodes n;
	uint32_t app, fm, fc, fw;

	make_rank_profile(p, r, size);
	app = symtab_module(&p->syms, "/opt/app", "");
	if (r == 1) {
		fw = symtab_frame(&p->syms, app, "wait", "w.c", 3);
		fc = symtab_frame(&p->syms, app, "compute", "c.c", 2);
		fm = symtab_frame(&p->syms, app, "main", "m.c", 1);
	} else {
		fm = symtab_frame(&p->syms, app, "main", "m.c", 1);
		fc = symtab_frame(&p->syms, app, "compute", "c.c", 2);
		fw = symtab_frame(&p->syms, app, "wait", "w.c", 3);
	}
	n.main = cct_child(&p->tree, CCT_ROOT, fm);
	if (r == 1) {
		n.wait = cct_child(&p->tree, n.main, fw);
		n.compute = cct_child(&p->tree, n.main, fc);
	} else {
		n.compute = cct_child(&p->tree, n.main, fc);
		n.wait = cct_child(&p->tree, n.main, fw);
	}
	cct_self(&p->tree, n.compute)[0] = 30;
	cct_self(&p->tree, n.wait)[0] = 10;
	cct_self(&p->tree, n.main)[0] = 1;
	p->samples = 41;
	p->cp_events = 5;
	return n;
}

/* p's links: the n of l. */
static inline void set_links(struct profile *p, const struct prof_cp_link *l, uint32_t n)
{
	free(p->cp_links);
	p->cp_links = xcalloc(n, sizeof(*l));
	memcpy(p->cp_links, l, n * sizeof(*l));
	p->ncp_links = n;
}

/* --cp-trace records of n segments (ms) and edges. */
static inline void set_trace(struct profile *p, uint32_t n, const uint64_t *seg_ms,
			     const struct prof_cp_edge *e, uint32_t ne)
{
	p->cp_trace = 1;
	p->ncp_evs = n;
	p->cp_evs = xcalloc(n, sizeof(*p->cp_evs));
	for (uint32_t i = 0; i < n; i++)
		p->cp_evs[i] = (struct prof_cp_event){ i + 1, seg_ms[i] * MS, 0, 0 };
	p->cp_edges = xcalloc(ne, sizeof(*e));
	if (ne)
		memcpy(p->cp_edges, e, ne * sizeof(*e));
	p->ncp_edges = ne;
}

/* Free the zeroing and series tables the tests allocated, whether or not
 * profile_release knows them, and leave the rank as never started. */
static inline void drop_zero(struct profile *p)
{
	for (uint32_t i = 0; i < p->ncp_fns; i++)
		free(p->cp_fns[i].name);
	free(p->cp_fns);
	free(p->cp_points);
	p->cp_fns = NULL;
	p->cp_points = NULL;
	p->ncp_fns = p->ncp_points = 0;
	p->cp_fn_how = PROF_CP_FN_NONE;
	p->cp_fn_start = 0;
}

/* Merge n profiles (released afterwards) into d.  Returns 0 or -1. */
static inline int merge(struct rep_data *d, struct profile *p, int n, char *err)
{
	int rc = merge_init(d);

	for (int i = 0; rc == 0 && i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "rank%d.cpprof", i);
		rc = merge_add(d, &p[i], NULL, name, err, ERRLEN);
	}
	for (int i = 0; i < n; i++) {
		drop_zero(&p[i]);
		profile_release(&p[i]);
	}
	if (rc == 0)
		rc = merge_finish(d, err, ERRLEN);
	return rc;
}

/* "rank:from-to ..." of r's runs. */
static inline const char *runs_str(const struct cpath_result *r)
{
	static char buf[512];
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < r->nruns && at < sizeof(buf); i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%lld:%llu-%llu",
				       i ? " " : "", (long long)r->runs[i].rank,
				       (unsigned long long)r->runs[i].from,
				       (unsigned long long)r->runs[i].to);
	return buf;
}

/* A check that got is want to a billionth (of want, when above 1). */
static inline void is_near(double got, double want, const char *name)
{
	if (!ok(fabs(got - want) < 1e-9 * (fabs(want) > 1 ? fabs(want) : 1), name))
		printf("#   got %.12g, want %.12g\n", got, want);
}

#endif
