/*
 * test-cp.c - unit tests of the critical path (report/cpath.c,
 * merge-cp.c, text-cp.c, out-json-cp.c).
 *
 * Three ranks are built in memory, each with five events (MPI_Init, three
 * communications, MPI_Finalize), segment lengths, segment samples under
 * nodes whose ids differ from rank to rank, and the links the online
 * algorithm would have kept; they are merged with merge_add as exp_load
 * does.  Worked by hand (lengths in ms):
 *
 *   seg_ns   rank 0: 10 20 5 100   rank 1: 30 5 5 10   rank 2: 5 5 5 5
 *   edges    (0,2) <- (1,1)=30 tie with local 30, (2,1)=5: local wins
 *            (2,2) <- (1,2)=35 > 10: link
 *            (0,3) <- (2,3)=40, (1,3)=40 > 35: the first edge wins, link
 *            (1,3) <- (0,2)=30 < 40
 *   lengths  rank 0: 140, rank 1: 50, rank 2: 45
 *   path     rank 1 segments 1-2, rank 2 segment 3, rank 0 segment 4
 *
 * Path samples (cycles): compute 3+5 (rank 1) + 6 (rank 2) + 10 (rank 0)
 * = 24, wait 1 + 2 = 3, main 2: 29 in all.  Every rank's tree has compute
 * 30, wait 10, main 1 self: 123 samples in all.
 *
 * The zeroing tests (test_zero_*) build smaller jobs, each worked by hand
 * above its builder, and check the online numbers (from the ranks' N_f and
 * S_f) and the reference (recomputed from the trace) against the same
 * constants; test_series checks the series in JSON and its thinning in text.
 * test_huge_events walks ranks of 2^62 events, which only a walk of one
 * step per link ends.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "make-profile.h"
#include "render-report.h"
#include "../../report/cpath.h"
#include "../../report/data.h"
#include "../../report/flat.h"
#include "../../report/merge.h"
#include "../../report/render.h"
#include "../../report/tree.h"

#define ERRLEN 1024
#define MS 1000000ull

/* Node ids of one rank's tree. */
struct nodes {
	uint32_t main, compute, wait;
};

/* Rank r of 3: one event, frames main, compute, wait (interned and put in
 * the tree in a rank-dependent order, so node ids differ), self counts
 * compute 30, wait 10, main 1, and cp_events 5. */
static struct nodes make_rank(struct profile *p, int64_t r, int64_t size)
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

static void set_links(struct profile *p, const struct prof_cp_link *l, uint32_t n)
{
	free(p->cp_links);
	p->cp_links = xcalloc(n, sizeof(*l));
	memcpy(p->cp_links, l, n * sizeof(*l));
	p->ncp_links = n;
}

/* --cp-trace records: segment lengths (ms) of events 1..4 and edges. */
static void set_trace(struct profile *p, const uint64_t seg_ms[4],
		      const struct prof_cp_edge *e, uint32_t n)
{
	p->cp_trace = 1;
	p->ncp_evs = 4;
	p->cp_evs = xcalloc(4, sizeof(*p->cp_evs));
	for (uint32_t i = 0; i < 4; i++)
		p->cp_evs[i] = (struct prof_cp_event){ i + 1, seg_ms[i] * MS, 0, 0 };
	p->cp_edges = xcalloc(n, sizeof(*e));
	if (n)
		memcpy(p->cp_edges, e, n * sizeof(*e));
	p->ncp_edges = n;
}

/* The three ranks of the header, with trace records when trace is set;
 * swap puts the two equal edges of (0,3) in the other order. */
static void make_job(struct profile p[3], bool trace, bool swap)
{
	static const uint64_t seg[3][4] = { { 10, 20, 5, 100 }, { 30, 5, 5, 10 },
					    { 5, 5, 5, 5 } };
	struct nodes n;

	n = make_rank(&p[0], 0, 3);
	p[0].cp_length_ns = 140 * MS;
	p[0].cp_wall_ns = 200 * MS;
	add_seg(&p[0], 1, n.compute, 1);
	add_seg(&p[0], 2, n.compute, 2);
	add_seg(&p[0], 3, n.wait, 4);
	add_seg(&p[0], 4, n.compute, 10);
	add_seg(&p[0], 4, n.main, 2);
	set_links(&p[0], (struct prof_cp_link[]){ { 3, 2, 3 } }, 1);

	n = make_rank(&p[1], 1, 3);
	p[1].cp_length_ns = 50 * MS;
	p[1].cp_wall_ns = 210 * MS;
	add_seg(&p[1], 1, n.compute, 3);
	add_seg(&p[1], 1, n.wait, 1);
	add_seg(&p[1], 2, n.compute, 5);
	add_seg(&p[1], 3, n.compute, 7);
	add_seg(&p[1], 4, n.wait, 9);

	n = make_rank(&p[2], 2, 3);
	p[2].cp_length_ns = 45 * MS;
	p[2].cp_wall_ns = 190 * MS;
	add_seg(&p[2], 1, n.compute, 11);
	add_seg(&p[2], 2, n.wait, 13);
	add_seg(&p[2], 3, n.compute, 6);
	add_seg(&p[2], 3, n.wait, 2);
	add_seg(&p[2], 4, n.compute, 17);
	set_links(&p[2], (struct prof_cp_link[]){ { 2, 1, 2 } }, 1);
	if (!trace)
		return;
	struct prof_cp_edge e0[] = { { 0, 1, 1 }, { 2, 1, 1 }, { 2, 2, 1 },
				     { 3, 2, 3 }, { 3, 1, 3 } };

	if (swap) {
		e0[3] = (struct prof_cp_edge){ 3, 1, 3 };
		e0[4] = (struct prof_cp_edge){ 3, 2, 3 };
	}
	set_trace(&p[0], seg[0], e0, 5);
	set_trace(&p[1], seg[1], (struct prof_cp_edge[]){ { 3, 0, 2 } }, 1);
	set_trace(&p[2], seg[2], (struct prof_cp_edge[]){ { 2, 1, 2 } }, 1);
}

/* Free the zeroing and series tables the tests allocated, whether or not
 * profile_release knows them, and leave the rank as never started. */
static void drop_zero(struct profile *p)
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
static int merge(struct rep_data *d, struct profile *p, int n, char *err)
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
static const char *runs_str(const struct cpath_result *r)
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

static const struct cpath_fn *find_cfn(const struct cpath_result *r, const char *name)
{
	for (uint32_t i = 0; i < r->nfns; i++)
		if (!strcmp(r->fns[i].name, name))
			return &r->fns[i];
	return NULL;
}

static void is_near(double got, double want, const char *name)
{
	if (!ok(fabs(got - want) < 1e-9 * (fabs(want) > 1 ? fabs(want) : 1), name))
		printf("#   got %.12g, want %.12g\n", got, want);
}

/* Length, runs and per-function numbers of the job's path. */
static void check_job_path(const struct cpath_result *r, const char *what)
{
	char name[128];
	static const struct { const char *fn; uint64_t n; double cpu; } want[] = {
		{ "compute", 24, 9000.0 / 123 }, { "wait", 3, 3000.0 / 123 },
		{ "main", 2, 300.0 / 123 },
	};

	snprintf(name, sizeof(name), "%s: length", what);
	is_int(r->length_ns, 140 * MS, name);
	snprintf(name, sizeof(name), "%s: wall is the largest rank's", what);
	is_int(r->wall_ns, 210 * MS, name);
	snprintf(name, sizeof(name), "%s: ends on rank 0", what);
	is_int(r->end_rank, 0, name);
	snprintf(name, sizeof(name), "%s: runs, earliest first", what);
	is_str(runs_str(r), "1:1-2 2:3-3 0:4-4", name);
	snprintf(name, sizeof(name), "%s: all path samples", what);
	is_int(r->all, 29, name);
	snprintf(name, sizeof(name), "%s: three functions", what);
	is_int(r->nfns, 3, name);
	for (uint32_t i = 0; i < 3 && i < r->nfns; i++) {
		snprintf(name, sizeof(name), "%s: function %u by CP time", what, i);
		is_str(r->fns[i].name, want[i].fn, name);
	}
	for (int i = 0; i < 3; i++) {
		const struct cpath_fn *fn = find_cfn(r, want[i].fn);

		snprintf(name, sizeof(name), "%s: %s on the path", what, want[i].fn);
		if (!ok(fn, name))
			continue;
		snprintf(name, sizeof(name), "%s: %s samples", what, want[i].fn);
		is_int(fn->samples, want[i].n, name);
		snprintf(name, sizeof(name), "%s: %s cp_time", what, want[i].fn);
		is_near(fn->cp_time, 0.140 * (double)want[i].n / 29, name);
		snprintf(name, sizeof(name), "%s: %s cp_pct", what, want[i].fn);
		is_near(fn->cp_pct, 100.0 * (double)want[i].n / 29, name);
		snprintf(name, sizeof(name), "%s: %s cpu_pct", what, want[i].fn);
		is_near(fn->cpu_pct, want[i].cpu, name);
	}
}

static void test_online(void)
{
	struct profile p[3];
	struct rep_data d;
	struct cpath_result r;
	struct tree_view cp;
	struct flat f;
	char err[ERRLEN];
	int rc;

	make_job(p, false, false);
	if (!ok(merge(&d, p, 3, err) == 0, "online: merge three ranks")) {
		printf("#   %s\n", err);
		return;
	}
	is_int(d.cpath.nranks, 3, "online: three ranks kept");
	is_int(d.cpath.ranks[1].nsegs, 5, "online: rank 1's segments kept");
	if (tree_build(&cp, &d.tree, 0, err, ERRLEN) < 0 ||
	    flat_build(&f, &d, &cp, 0, err, ERRLEN) < 0)
		abort();
	if (ok(cpath_build(&r, &d, &f, false, err, ERRLEN) == 0, "online: walk")) {
		check_job_path(&r, "online");
		ok(!r.reference, "online: not the reference");
		is_int(tree_total(&r.cp, CCT_ROOT)[0], 29, "online: tree root total");
		cpath_release(&r);
	} else {
		printf("#   %s\n", err);
	}
	ok(cpath_build(&r, &d, &f, true, err, ERRLEN) < 0 &&
	   !strcmp(err, CPATH_NEED_TRACE), "online only: --reference refused");
	flat_release(&f);
	tree_release(&cp);

	const char *out = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_CP, .min_pct = 0 }, &rc);

	is_int(rc, 0, "text --view=cp renders");
	ok(strstr(out, "# path: 3 runs of segments (rank:first-last, earliest first): "
		  "1:1-2 > 2:3-3 > 0:4-4\n"), "text: the path line");
	ok(strstr(out, "\n     0.115862   82.76   73.17  compute "), "text: compute's row");
	ok(strstr(out, "0.140000 s, ending on rank 0; wall 0.210000 s"), "text: length and wall");
	out = render(&d, (struct rep_opts){ .format = REP_JSON, .view = REP_FLAT, .min_pct = -1 }, &rc);
	is_int(rc, 0, "json renders");
	ok(strstr(out, "\"path\":[{\"rank\":1,\"from\":1,\"to\":2},{\"rank\":2,\"from\":3,"
		  "\"to\":3},{\"rank\":0,\"from\":4,\"to\":4}],\"reference\":false,"
		  "\"form\":\"whole\",\"cut\":null,\"unavailable\":null}"),
	   "json: critical_path.path and reference");
	ok(strstr(out, "\"critical_path\":{\"length\":0.14,\"length_compensated\":null,"
		  "\"wall\":0.21,\"functions\":"
		  "[{\"function\":\"compute\",\"module\":\"/opt/app\",\"cp_time\":0.115862,"
		  "\"cp_pct\":82.7586,\"cpu_pct\":73.1707}"), "json: length, wall, first function");
	ok(strstr(out, "\"zeroing\":[],\"series\":[]"), "json: zeroing and series empty");
	merge_release(&d);
}

/* Rank 2 dropped its records before event 3 (past its budget): the walk
 * stops there, and every view says it holds the path's latest part. */
static void test_cut(void)
{
	struct profile p[3];
	struct rep_data d;
	struct cpath_result r;
	char err[ERRLEN];
	const char *out;
	int rc;

	make_job(p, false, false);
	p[2].cp_cut = 3;
	p[2].cp_budget = 4096;
	if (!ok(merge(&d, p, 3, err) == 0, "cut: merge three ranks")) {
		printf("#   %s\n", err);
		return;
	}
	if (ok(cpath_walk(&d.cpath, &r, err, ERRLEN) == 0, "cut: walk")) {
		is_str(runs_str(&r), "2:3-3 0:4-4", "cut: the path's latest part, to rank 2's cut");
		ok(r.cut && r.cut_rank == 2 && r.cut_event == 2 && r.cut_budget == 4096,
		   "cut: where the walk stopped, and the budget");
		is_int(r.length_ns, 140000000, "cut: the length stays the whole path's");
		cpath_release(&r);
	} else {
		printf("#   %s\n", err);
	}
	out = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_CP, .min_pct = 0 }, &rc);
	ok(rc == 0 && strstr(out, "# form: latest part: the walk stopped at rank 2 event 2, whose "
			     "older records were dropped past --cp-budget (4096 bytes)"),
	   "cut: text says so");
	out = render(&d, (struct rep_opts){ .format = REP_JSON, .view = REP_CP, .min_pct = -1 }, &rc);
	ok(rc == 0 && strstr(out, "\"form\":\"latest\",\"cut\":{\"rank\":2,\"event\":2,"
			     "\"budget\":4096}"), "cut: json says so");
	merge_release(&d);
}

/* Ranks of 2^62 events, links far apart and a cut far in: the walk takes
 * one step per link, so it ends at once (the alarm fails the test were it
 * to step through the events' numbers). */
static void test_huge_events(void)
{
	const uint64_t e40 = 1ull << 40, e45 = 1ull << 45, e50 = 1ull << 50, e61 = 1ull << 61;
	struct profile p[2];
	struct rep_data d;
	struct cpath_result r;
	char err[ERRLEN];

	make_rank(&p[0], 0, 2);
	make_rank(&p[1], 1, 2);
	for (int i = 0; i < 2; i++)
		p[i].cp_events = 1ull << 62;
	p[0].cp_length_ns = 100;
	p[0].cp_cut = e61;
	p[0].cp_budget = 4096;
	set_links(&p[0], (struct prof_cp_link[]){ { e61 + 3, 1, e45 } }, 1);
	p[1].cp_length_ns = 200;
	set_links(&p[1], (struct prof_cp_link[]){ { e40, 0, 5 }, { e50, 0, e61 + 7 } }, 2);
	if (!ok(merge(&d, p, 2, err) == 0, "2^62 events: merge")) {
		printf("#   %s\n", err);
		return;
	}
	alarm(20);
	if (ok(cpath_walk(&d.cpath, &r, err, ERRLEN) == 0, "2^62 events: walk")) {
		is_str(runs_str(&r), "1:1099511627777-35184372088832 "
		       "0:2305843009213693956-2305843009213693959 "
		       "1:1125899906842625-4611686018427387903",
		       "2^62 events: a run per link, back to rank 0's cut");
		ok(r.cut && r.cut_rank == 0 && r.cut_event == 5,
		   "2^62 events: stopped at rank 0 event 5, before its cut");
		cpath_release(&r);
	} else {
		printf("#   %s\n", err);
	}
	alarm(0);
	merge_release(&d);
}

static void test_reference(bool swap)
{
	const char *what = swap ? "reference, swapped edges" : "reference";
	struct profile p[3];
	struct rep_data d;
	struct cpath_result r;
	struct tree_view cp;
	struct flat f;
	char err[ERRLEN], name[128];

	make_job(p, true, swap);
	if (!ok(merge(&d, p, 3, err) == 0, what)) {
		printf("#   %s\n", err);
		return;
	}
	if (tree_build(&cp, &d.tree, 0, err, ERRLEN) < 0 ||
	    flat_build(&f, &d, &cp, 0, err, ERRLEN) < 0)
		abort();
	snprintf(name, sizeof(name), "%s: computed", what);
	if (ok(cpath_build(&r, &d, &f, true, err, ERRLEN) == 0, name)) {
		snprintf(name, sizeof(name), "%s: flagged", what);
		ok(r.reference, name);
		if (!swap) {
			check_job_path(&r, what);
		} else {
			/* (1,3) first: rank 1 ran segments 1 to 3 on the path. */
			snprintf(name, sizeof(name), "%s: the first equal edge wins", what);
			is_str(runs_str(&r), "1:1-3 0:4-4", name);
			snprintf(name, sizeof(name), "%s: same length", what);
			is_int(r.length_ns, 140 * MS, name);
			snprintf(name, sizeof(name), "%s: path samples", what);
			is_int(r.all, 3 + 1 + 5 + 7 + 10 + 2, name);
		}
		cpath_release(&r);
	} else {
		printf("#   %s\n", err);
	}
	flat_release(&f);
	tree_release(&cp);
	if (!swap) {
		int rc;
		const char *out = render(&d, (struct rep_opts){ .format = REP_JSON,
								.view = REP_CP_REFERENCE, .min_pct = -1 }, &rc);

		ok(rc == 0 && strstr(out, "{\"rank\":0,\"from\":4,\"to\":4}],\"reference\""
				     ":true,\"form\":\"whole\",\"cut\":null,\"unavailable\":null}"), "reference: json says so");
		out = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_CP_REFERENCE, .min_pct = -1 }, &rc);
		ok(rc == 0 && strstr(out, "# critical path (reference, recomputed from the "
				     "--cp-trace records): 0.140000 s"), "reference: text says so");
	}
	merge_release(&d);
}

/* Two ranks of 3 events: rank 0 segments 10, 5; rank 1 10, 1.  At the exit
 * of (0,1) rank 1's entry of event 1 (10) ties the local 10: local wins. */
static void test_ties(void)
{
	struct profile p[2];
	struct rep_data d;
	struct cpath_result r;
	char err[ERRLEN];

	for (int i = 0; i < 2; i++) {
		struct nodes n = make_rank(&p[i], i, 2);

		p[i].cp_events = 3;
		p[i].cp_length_ns = 15;
		add_seg(&p[i], 1, n.compute, 1);
	}
	set_trace(&p[0], (uint64_t[]){ 10, 5, 0, 0 }, (struct prof_cp_edge[]){ { 1, 1, 1 } }, 1);
	set_trace(&p[1], (uint64_t[]){ 10, 1, 0, 0 }, NULL, 0);
	p[0].ncp_evs = p[1].ncp_evs = 2;
	if (!ok(merge(&d, p, 2, err) == 0, "ties: merge")) {
		printf("#   %s\n", err);
		return;
	}
	if (ok(cpath_walk(&d.cpath, &r, err, ERRLEN) == 0, "ties: online walk")) {
		is_str(runs_str(&r), "0:1-2", "ties: equal lengths, the lowest rank ends the path");
		is_int(r.end_rank, 0, "ties: end rank");
		cpath_release(&r);
	}
	if (ok(cpath_reference(&d.cpath, NULL, 0, &r, err, ERRLEN) == 0, "ties: reference")) {
		is_str(runs_str(&r), "0:1-2", "ties: a remote value equal to the local one loses");
		is_int(r.length_ns, 15 * MS, "ties: reference length 10 + 5");
		cpath_release(&r);
	} else {
		printf("#   %s\n", err);
	}
	merge_release(&d);
}

/* Malformed links: past the sender's events, to a missing rank, a cycle;
 * and a cycle of dependencies in the trace. */
static void test_errors(void)
{
	struct profile p[3];
	struct rep_data d;
	struct cpath_result r;
	char err[ERRLEN];

	make_job(p, false, false);
	set_links(&p[0], (struct prof_cp_link[]){ { 3, 2, 5 } }, 1);
	if (ok(merge(&d, p, 3, err) == 0, "link past the events: merge")) {
		ok(cpath_walk(&d.cpath, &r, err, ERRLEN) < 0, "link past the events: refused");
		is_str(err, "critical path: rank 0 event 3 links to event 5 of rank 2, which "
		       "has events 1 to 4", "link past the events: message");
		merge_release(&d);
	}

	make_job(p, false, false);
	p[2].size = p[1].size = p[0].size = 4;
	set_links(&p[0], (struct prof_cp_link[]){ { 3, 3, 2 } }, 1);
	if (ok(merge(&d, p, 3, err) == 0, "link to a missing rank: merge")) {
		ok(cpath_walk(&d.cpath, &r, err, ERRLEN) < 0, "link to a missing rank: refused");
		is_str(err, "critical path: rank 0 event 3 links to rank 3, which has no "
		       "critical-path data in the experiment", "link to a missing rank: message");
		merge_release(&d);
	}

	make_job(p, false, false);
	set_links(&p[0], (struct prof_cp_link[]){ { 3, 1, 4 } }, 1);
	set_links(&p[1], (struct prof_cp_link[]){ { 3, 0, 4 } }, 1);
	if (ok(merge(&d, p, 3, err) == 0, "cycle of links: merge")) {
		ok(cpath_walk(&d.cpath, &r, err, ERRLEN) < 0, "cycle of links: refused");
		ok(strstr(err, "the links form a cycle"), "cycle of links: message");
		merge_release(&d);
	}

	make_job(p, true, false);
	free(p[1].cp_edges);
	p[1].cp_edges = xcalloc(1, sizeof(*p[1].cp_edges));
	p[1].cp_edges[0] = (struct prof_cp_edge){ 1, 0, 3 };	/* waits for (0,3) */
	p[0].cp_edges[1] = (struct prof_cp_edge){ 2, 1, 2 };	/* waits for (1,2) */
	if (ok(merge(&d, p, 3, err) == 0, "cycle of dependencies: merge")) {
		ok(cpath_reference(&d.cpath, NULL, 0, &r, err, ERRLEN) < 0,
		   "cycle of dependencies: refused");
		is_str(err, "critical path (--reference): the dependencies form a cycle: rank 0 "
		       "event 2 waits for event 2 of rank 1, which never completes",
		       "cycle of dependencies: message");
		merge_release(&d);
	}

	make_job(p, false, false);
	p[1].cp_segs[0].seg = 5;
	ok(merge(&d, p, 3, err) < 0 && strstr(err, "rank1.cpprof: critical-path samples of "
					      "segment 5"), "segment past the events: refused");
	merge_release(&d);
}

/* No critical-path data: --view=cp fails, JSON writes it empty. */
static void test_absent(void)
{
	struct profile p;
	struct rep_data d;
	char err[ERRLEN];
	int rc;

	make_rank(&p, 0, 1);
	p.cp_events = 0;
	if (merge(&d, &p, 1, err) < 0)
		abort();
	d.dir = xstrdup("exp");
	const char *out = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_CP, .min_pct = -1 }, &rc);

	is_int(rc, -1, "no data: --view=cp fails");
	is_str(out, "exp: no critical-path data in this experiment: it is not an MPI "
	       "program, or it was recorded with --no-piggyback", "no data: message");
	out = render(&d, (struct rep_opts){ .format = REP_JSON, .view = REP_CP_REFERENCE, .min_pct = -1 }, &rc);
	is_int(rc, -1, "no data: --reference fails");
	is_str(out, CPATH_NEED_TRACE, "no data: --reference message");
	out = render(&d, (struct rep_opts){ .format = REP_JSON, .view = REP_FLAT, .min_pct = -1 }, &rc);
	is_int(rc, 0, "no data: json renders");
	ok(strstr(out, "\"critical_path\":{\"length\":0,\"length_compensated\":null,"
		  "\"wall\":0,\"functions\":[],"
		  "\"callpath\":{\"function\":\"<root>\",\"self\":{\"cycles\":0},\"total\":"
		  "{\"cycles\":0},\"self_pct\":0,\"total_pct\":0,\"children\":[]},\"zeroing\":"
		  "[],\"series\":[],\"path\":[],\"reference\":false,\"form\":\"whole\","
		  "\"cut\":null,\"unavailable\":"
		  "\"no critical-path data: not an MPI program, or recorded with --no-piggyback\"}"),
	   "no data: json empty, says why");
	merge_release(&d);
}

/* ---- zeroing and series ---- */

/* --cp-trace records of n segments (ms) and edges. */
static void set_trace_n(struct profile *p, uint32_t n, const uint64_t *seg_ms,
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

/* The rank's zeroing records: one function per name, N_f and S_f in ms. */
static void set_zero(struct profile *p, uint64_t how, uint64_t start, const char *const *names,
		     const uint64_t *net_ms, const uint64_t *share_ms, uint32_t n)
{
	p->cp_fn_how = how;
	p->cp_fn_start = start;
	p->cp_fns = xcalloc(n, sizeof(*p->cp_fns));
	p->ncp_fns = n;
	for (uint32_t i = 0; i < n; i++)
		p->cp_fns[i] = (struct prof_cp_fn){ xstrdup(names[i]), net_ms[i] * MS,
						    share_ms[i] * MS };
}

/* The node main > compute > wait: samples there are compute's time. */
static uint32_t inner_node(struct profile *p, struct nodes n)
{
	uint32_t app = symtab_module(&p->syms, "/opt/app", "");

	return cct_child(&p->tree, n.compute, symtab_frame(&p->syms, app, "wait", "w.c", 3));
}

static const struct cpath_zero *zero_of(const struct cpath_result *r, const char *name)
{
	for (uint32_t i = 0; i < r->nzero; i++)
		if (!strcmp(r->zero[i].name, name))
			return &r->zero[i];
	return NULL;
}

/* Check r's zeroing row for fn against values in ms. */
static void check_zero(const struct cpath_result *r, const char *fn, uint64_t net_ms,
		       uint64_t saving_ms, double pct, uint64_t share_ms, const char *what)
{
	const struct cpath_zero *z = zero_of(r, fn);
	char name[160];

	snprintf(name, sizeof(name), "%s: zeroing row for %s", what, fn);
	if (!ok(z, name))
		return;
	snprintf(name, sizeof(name), "%s: %s net length", what, fn);
	is_int(z->net_ns, net_ms * MS, name);
	snprintf(name, sizeof(name), "%s: %s saving", what, fn);
	is_int(z->saving_ns, saving_ms * MS, name);
	snprintf(name, sizeof(name), "%s: %s saving %%", what, fn);
	is_near(z->saving_pct, pct, name);
	snprintf(name, sizeof(name), "%s: %s share on the path", what, fn);
	is_int(z->share_ns, share_ms * MS, name);
}

/* Build the online and the reference result of d; returns 0 when both are. */
static int both_paths(const struct rep_data *d, struct cpath_result *on,
		      struct cpath_result *ref, const char *what)
{
	struct tree_view cp;
	struct flat f;
	char err[ERRLEN], name[128];
	int rc = 0;

	if (tree_build(&cp, &d->tree, 0, err, ERRLEN) < 0 ||
	    flat_build(&f, d, &cp, 0, err, ERRLEN) < 0)
		abort();
	snprintf(name, sizeof(name), "%s: online path", what);
	if (!ok(cpath_build(on, d, &f, false, err, ERRLEN) == 0, name)) {
		printf("#   %s\n", err);
		rc = -1;
	}
	snprintf(name, sizeof(name), "%s: reference path", what);
	if (!ok(cpath_build(ref, d, &f, true, err, ERRLEN) == 0, name)) {
		printf("#   %s\n", err);
		if (rc == 0)
			cpath_release(on);
		rc = -1;
	}
	flat_release(&f);
	tree_release(&cp);
	return rc;
}

/*
 * Two ranks, events 0..3, compute selected at MPI_Init (how = init).
 * Lengths in ms:
 *
 *   rank 0  seg 100 10 10; segment 1 has samples compute 2, main > compute
 *           > wait 1, main 1: f's time 100 x 3 / 4 = 75; segment 2 wait 3
 *   rank 1  seg 80 5 5, no compute samples; at the exit of event 1 it gets
 *           rank 0's event 1: L 100 > 80 (link), S = 75, N = max(80, 25)
 *
 *   rank 0  entry 1: L 100 N 25 S 75; entry 2: 110 35 75; entry 3: 120 45 75
 *   rank 1  exit 1: L 100 N 80 S 75; entry 2: 105 85 75; entry 3: 110 90 75
 *
 * length 120 (rank 0), net max(45, 90) = 90: the saving is 30 (25 %) while
 * compute is 75 ms of the path: the sub-critical path of rank 1 (90 ms
 * without compute) limits the gain.  The online records say the same.
 */
static void make_subcritical(struct profile p[2], const char *name1)
{
	struct nodes n;

	n = make_rank(&p[0], 0, 2);
	p[0].cp_events = 4;
	p[0].cp_length_ns = 120 * MS;
	p[0].cp_wall_ns = 130 * MS;
	add_seg(&p[0], 1, n.compute, 2);
	add_seg(&p[0], 1, inner_node(&p[0], n), 1);
	add_seg(&p[0], 1, n.main, 1);
	add_seg(&p[0], 2, n.wait, 3);
	set_trace_n(&p[0], 3, (uint64_t[]){ 100, 10, 10 }, NULL, 0);
	set_zero(&p[0], PROF_CP_FN_INIT, 0, (const char *[]){ "compute" },
		 (uint64_t[]){ 45 }, (uint64_t[]){ 75 }, 1);

	n = make_rank(&p[1], 1, 2);
	p[1].cp_events = 4;
	p[1].cp_length_ns = 110 * MS;
	p[1].cp_wall_ns = 125 * MS;
	add_seg(&p[1], 1, n.wait, 8);
	set_links(&p[1], (struct prof_cp_link[]){ { 1, 0, 1 } }, 1);
	set_trace_n(&p[1], 3, (uint64_t[]){ 80, 5, 5 },
		    (struct prof_cp_edge[]){ { 1, 0, 1 } }, 1);
	set_zero(&p[1], PROF_CP_FN_INIT, 0, (const char *[]){ name1 },
		 (uint64_t[]){ 90 }, (uint64_t[]){ 75 }, 1);
}

static void test_zero_subcritical(void)
{
	struct profile p[2];
	struct rep_data d;
	struct cpath_result on, ref;
	char err[ERRLEN];
	int rc;

	make_subcritical(p, "compute");
	if (!ok(merge(&d, p, 2, err) == 0, "sub-critical: merge")) {
		printf("#   %s\n", err);
		return;
	}
	is_int(d.cpath.nfns, 1, "sub-critical: one function selected");
	is_str(d.cpath.fn_names[0], "compute", "sub-critical: its name");
	if (both_paths(&d, &on, &ref, "sub-critical") == 0) {
		is_int(on.length_ns, 120 * MS, "sub-critical: length");
		is_str(runs_str(&on), "0:1-3", "sub-critical: the path stays on rank 0");
		is_int(on.nzero, 1, "sub-critical: one zeroing row");
		check_zero(&on, "compute", 90, 30, 25.0, 75, "sub-critical online");
		check_zero(&ref, "compute", 90, 30, 25.0, 75, "sub-critical reference");
		ok(on.nzero && on.zero[0].saving_ns < on.zero[0].share_ns,
		   "sub-critical: the saving is less than compute's time on the path");
		/* path samples: compute 2 of 7 (self; the inner node is wait's) */
		is_near(on.nzero ? on.zero[0].cp_time : 0, 0.120 * 2 / 7,
			"sub-critical: CP time from the walk");
		cpath_release(&on);
		cpath_release(&ref);
	}

	const char *out = render(&d, (struct rep_opts){ .format = REP_JSON, .view = REP_FLAT, .min_pct = -1 }, &rc);

	ok(rc == 0 && strstr(out, "\"zeroing\":[{\"function\":\"compute\",\"net_length\":0.09,"
			     "\"saving\":0.03,\"saving_pct\":25,\"cp_share\":0.075}],"
			     "\"series\":[]"), "sub-critical: json zeroing");
	out = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_CP, .min_pct = -1 }, &rc);
	ok(rc == 0 && strstr(out, "\n#  net length(s)    saving(s)  saving%     share(s)   "
			     "CP time(s)  function\n        0.090000     0.030000    25.00"
			     "     0.075000     0.034286  compute\n"), "sub-critical: text row");
	ok(rc == 0 && strstr(out, "# zeroing (online)"), "sub-critical: text says online");
	ok(rc == 0 && !strstr(out, "path length during the run"), "sub-critical: no series");
	out = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_CP_REFERENCE, .min_pct = -1 }, &rc);
	ok(rc == 0 && strstr(out, "# zeroing (reference)") &&
	   strstr(out, "\n        0.090000     0.030000    25.00     0.075000     0.034286  "
		  "compute\n"), "sub-critical: reference text row");
	merge_release(&d);
}

/*
 * Two ranks, events 0..4, --cp-auto: rank 0 decides at the entry of event
 * 1 (how = entry), rank 1 starts by a merge at the exit of event 2.  The
 * profiles are merged rank 1 first, and rank 1 knows compute only by its
 * hash.  Lengths in ms:
 *
 *   rank 0  seg 10 20 30 5: segment 2 all compute (f 20), 3 wait, 4 none
 *   rank 1  seg 25 10 40 1: segment 2 compute 1 wait 1 (f 5, before the
 *           start), segment 3 all compute (f 40)
 *   edges   (0,2) <- (1,1) L 25 < 30, no zeroing data: N stays 10 (25 if
 *                    it were taken)
 *           (0,2) <- (1,2) L 35 > 30, no zeroing data: L 35 (link), S 0,
 *                    N stays 10
 *           (1,2) <- (0,2) L 30 < 35, zeroing data: starts rank 1 with
 *                    N = L_entry 35, S = 0, then N = max(35, 10)
 *           (0,3) <- (1,3) L 75 > 65, zeroing data: L 75 (link), S = 40
 *                    (the share follows L), N = max(40, 35)
 *
 *   rank 0  entry 1: L 10 N 10 S 0; entry 2: 30 10 20; exit 2: 35 10 0;
 *           entry 3: 65 40 0; exit 3: 75 40 40; entry 4: 80 45 40
 *   rank 1  entry 2: L 35; exit 2: 35 35 0; entry 3: 75 35 40;
 *           entry 4: 76 36 40
 *
 * length 80 (rank 0, path 1:1-3 0:4-4), net 45, saving 35 (43.75 %),
 * share 40.
 */
static void make_auto(struct profile p[2], uint64_t merge_start, int variant)
{
	/* online results of the variants: rank 0 L, N, S; rank 1 L, N, S */
	static const uint64_t want[3][6] = { { 80, 45, 40, 76, 36, 40 },
					     { 80, 80, 0, 76, 76, 0 },
					     { 85, 60, 0, 76, 36, 40 } };
	const uint64_t *w = want[variant];
	struct nodes n;

	n = make_rank(&p[1], 0, 2);
	p[1].cp_length_ns = w[0] * MS;
	p[1].cp_wall_ns = 90 * MS;
	add_seg(&p[1], 1, n.compute, 1);
	add_seg(&p[1], 2, n.compute, 4);
	add_seg(&p[1], 3, n.wait, 6);
	if (variant != 2) {
		set_links(&p[1], (struct prof_cp_link[]){ { 2, 1, 2 }, { 3, 1, 3 } }, 2);
		set_trace_n(&p[1], 4, (uint64_t[]){ 10, 20, 30, 5 },
			    (struct prof_cp_edge[]){ { 2, 1, 1 }, { 2, 1, 2 }, { 3, 1, 3 } }, 3);
	} else {
		set_links(&p[1], (struct prof_cp_link[]){ { 2, 1, 2 } }, 1);
		set_trace_n(&p[1], 4, (uint64_t[]){ 10, 20, 30, 20 },
			    (struct prof_cp_edge[]){ { 2, 1, 1 }, { 2, 1, 2 } }, 2);
	}
	set_zero(&p[1], PROF_CP_FN_ENTRY, 1, (const char *[]){ "compute" },
		 (uint64_t[]){ w[1] }, (uint64_t[]){ w[2] }, 1);

	n = make_rank(&p[0], 1, 2);
	p[0].cp_length_ns = w[3] * MS;
	p[0].cp_wall_ns = 85 * MS;
	add_seg(&p[0], 1, n.wait, 5);
	add_seg(&p[0], 2, n.compute, 1);
	add_seg(&p[0], 2, n.wait, 1);
	add_seg(&p[0], 3, variant == 1 ? n.wait : n.compute, 8);
	/* variant 2: rank 1 starts from rank 0's stamp at its own start */
	set_trace_n(&p[0], 4, (uint64_t[]){ 25, 10, 40, 1 },
		    (struct prof_cp_edge[]){ { 2, 0, variant == 2 ? 1 : 2 } }, 1);
	set_zero(&p[0], PROF_CP_FN_MERGE, merge_start, (const char *[]){ "#1a2b3c4d5e6f7081" },
		 (uint64_t[]){ w[4] }, (uint64_t[]){ w[5] }, 1);
}

/*
 * The variants of make_auto: 1, rank 1's segment 3 is wait (f 0), so the
 * net length comes from rank 1's start (N = L_entry 35, then 75, 76) and
 * reaches rank 0 at (0,3): N 75, S 0; entry 4: L 80 N 80 S 0; net 80,
 * saving 0.  2, rank 0's segment 4 is 20 ms and (0,3) has no dependency:
 * rank 0 keeps the S 0 the piggyback without zeroing data gave it at (0,2)
 * (20 before) and N 10 (25 or 35 if it counted): entry 3: L 65 N 40 S 0,
 * entry 4: 85 60 0; net 60, saving 25 (of 85), share 0; and rank 1's start
 * at (1,2) comes from rank 0's event 1, stamped at the entry where rank 0
 * started (L 10 N 10 < 35: rank 1's values do not change).
 */
static void test_zero_auto(void)
{
	static const struct { const char *runs; uint64_t net, saving, share; double pct; }
	want[3] = { { "1:1-3 0:4-4", 45, 35, 40, 43.75 }, { "1:1-3 0:4-4", 80, 0, 0, 0 },
		    { "1:1-2 0:3-4", 60, 25, 0, 2500.0 / 85 } };
	struct profile p[2];
	struct rep_data d;
	struct cpath_result on, ref;
	char err[ERRLEN], what[64];

	for (int v = 0; v < 3; v++) {
		snprintf(what, sizeof(what), "auto %d", v);
		make_auto(p, 2, v);
		if (!ok(merge(&d, p, 2, err) == 0, what)) {
			printf("#   %s\n", err);
			continue;
		}
		if (v == 0) {
			is_str(d.cpath.fn_names[0], "compute",
			       "auto: the real name replaces the hash");
			is_int(d.cpath.fn_rank[0], 0, "auto: given by rank 0");
		}
		if (both_paths(&d, &on, &ref, what) == 0) {
			char name[96];

			snprintf(name, sizeof(name), "%s: online path", what);
			is_str(runs_str(&on), want[v].runs, name);
			snprintf(name, sizeof(name), "%s: reference path", what);
			is_str(runs_str(&ref), want[v].runs, name);
			snprintf(name, sizeof(name), "%s online", what);
			check_zero(&on, "compute", want[v].net, want[v].saving, want[v].pct,
				   want[v].share, name);
			snprintf(name, sizeof(name), "%s reference", what);
			check_zero(&ref, "compute", want[v].net, want[v].saving, want[v].pct,
				   want[v].share, name);
			cpath_release(&on);
			cpath_release(&ref);
		}
		merge_release(&d);
	}

	/* Started by a merge at event 1, where no dependency is recorded. */
	make_auto(p, 1, 0);
	if (ok(merge(&d, p, 2, err) == 0, "auto, bad start: merge")) {
		struct cpath_result r;
		struct tree_view cp;
		struct flat f;

		if (tree_build(&cp, &d.tree, 0, err, ERRLEN) < 0 ||
		    flat_build(&f, &d, &cp, 0, err, ERRLEN) < 0)
			abort();
		ok(cpath_build(&r, &d, &f, true, err, ERRLEN) < 0, "auto, bad start: refused");
		is_str(err, "critical path (--reference): rank 1 started zeroing by a merge at "
		       "the exit of event 1, but no dependency of that event comes from a rank "
		       "that had started", "auto, bad start: message");
		ok(cpath_build(&r, &d, &f, false, err, ERRLEN) == 0,
		   "auto, bad start: the online result does not need the trace");
		cpath_release(&r);
		flat_release(&f);
		tree_release(&cp);
		merge_release(&d);
	}
}

/* Selections that differ: two real names at one index, or lengths. */
static void test_zero_mismatch(void)
{
	struct profile p[2];
	struct rep_data d;
	char err[ERRLEN];

	make_subcritical(p, "solve");
	ok(merge(&d, p, 2, err) < 0, "mismatch: refused");
	is_str(err, "rank1.cpprof: critical-path zeroing: rank 1 selected 'solve' and rank 0 "
	       "'compute' as function 1", "mismatch: names both ranks and both names");
	merge_release(&d);

	make_subcritical(p, "#00000000deadbeef");
	ok(merge(&d, p, 2, err) == 0, "mismatch: a hash matches any name");
	is_str(d.cpath.fn_names[0], "compute", "mismatch: the real name is kept");
	merge_release(&d);

	make_subcritical(p, "compute");
	drop_zero(&p[1]);
	set_zero(&p[1], PROF_CP_FN_INIT, 0, (const char *[]){ "compute", "wait" },
		 (uint64_t[]){ 90, 90 }, (uint64_t[]){ 75, 0 }, 2);
	ok(merge(&d, p, 2, err) < 0, "mismatch: another number of functions refused");
	is_str(err, "rank1.cpprof: critical-path zeroing: rank 1 selected 2 functions, "
	       "rank 0 1", "mismatch: count message");
	merge_release(&d);

	make_subcritical(p, "compute");
	p[1].cp_fn_how = PROF_CP_FN_NONE;
	ok(merge(&d, p, 2, err) < 0 && strstr(err, "rank 1: critical-path zeroing records "
					      "(how 0, start event 0, 1 functions) with "
					      "functions but no start"),
	   "mismatch: functions without a start refused");
	merge_release(&d);

	make_subcritical(p, "compute");
	p[1].cp_fn_how = PROF_CP_FN_MERGE;
	p[1].cp_fn_start = 3;	/* the exit of MPI_Finalize */
	ok(merge(&d, p, 2, err) < 0 && strstr(err, "with a start at the exit of an event"),
	   "mismatch: a merge start at the last event refused");
	merge_release(&d);
}

/* A rank that never started counts with its length; no selection, no rows. */
static void test_zero_unstarted(void)
{
	struct profile p[2];
	struct rep_data d;
	struct cpath_result on, ref;
	char err[ERRLEN];

	make_subcritical(p, "compute");
	drop_zero(&p[1]);	/* rank 1 never started: N = its L, 110 */
	if (ok(merge(&d, p, 2, err) == 0, "unstarted: merge") &&
	    both_paths(&d, &on, &ref, "unstarted") == 0) {
		check_zero(&on, "compute", 110, 10, 100.0 / 12, 75, "unstarted online");
		/* reference: rank 0 ignores nothing, rank 1 is L = 110 */
		check_zero(&ref, "compute", 110, 10, 100.0 / 12, 75, "unstarted reference");
		cpath_release(&on);
		cpath_release(&ref);
	}
	merge_release(&d);

	make_subcritical(p, "compute");
	drop_zero(&p[0]);
	drop_zero(&p[1]);
	if (ok(merge(&d, p, 2, err) == 0, "no selection: merge") &&
	    both_paths(&d, &on, &ref, "no selection") == 0) {
		is_int(on.nzero, 0, "no selection: no online rows");
		is_int(ref.nzero, 0, "no selection: no reference rows");
		cpath_release(&on);
		cpath_release(&ref);
	}
	merge_release(&d);
}

/* The monitor's series: JSON lists every point, text at most 20 lines. */
static void test_series(void)
{
	struct profile p[2];
	struct rep_data d;
	char err[ERRLEN], want[128];
	int rc;

	make_subcritical(p, "compute");
	p[0].ncp_points = 45;
	p[0].cp_points = xcalloc(45, sizeof(*p[0].cp_points));
	for (uint32_t i = 0; i < 45; i++)
		p[0].cp_points[i] = (struct prof_cp_point){ (i + 1) * 100 * MS,
							    (i + 1) * 2 * MS };
	if (!ok(merge(&d, p, 2, err) == 0, "series: merge")) {
		printf("#   %s\n", err);
		return;
	}
	is_int(d.cpath.npoints, 45, "series: kept");
	const char *out = render(&d, (struct rep_opts){ .format = REP_JSON, .view = REP_FLAT, .min_pct = -1 }, &rc);

	ok(rc == 0 && strstr(out, "\"series\":[{\"t\":0.1,\"length\":0.002},{\"t\":0.2,"
			     "\"length\":0.004},"), "series: json starts with the first points");
	ok(rc == 0 && strstr(out, "{\"t\":4.5,\"length\":0.09}],\"path\""),
	   "series: json ends with the last");
	out = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_CP, .min_pct = -1 }, &rc);
	ok(rc == 0 && strstr(out, "# path length during the run (rank 0, 45 points, 20 shown "
			     "evenly, the last included; --format=json lists them all)\n"
			     "#         t(s)    length(s)\n      0.100000     0.002000\n"
			     "      0.300000     0.006000\n"), "series: text header and first lines");
	ok(rc == 0 && strstr(out, "      4.500000     0.090000\n#\n"), "series: the last kept");
	const char *at = strstr(out, "#         t(s)");
	int lines = 0;

	for (at = at ? strchr(at, '\n') + 1 : NULL; at && *at && *at != '#'; lines++)
		at = strchr(at, '\n') + 1;
	is_int(lines, 20, "series: 20 lines");
	/* j = 10 of 20: point 10 * 44 / 19 = 23, t 2.4 */
	snprintf(want, sizeof(want), "\n      2.400000     0.048000\n");
	ok(rc == 0 && strstr(out, want), "series: evenly thinned");
	merge_release(&d);

	make_subcritical(p, "compute");
	p[0].ncp_points = p[1].ncp_points = 1;
	p[0].cp_points = xcalloc(1, sizeof(*p[0].cp_points));
	p[1].cp_points = xcalloc(1, sizeof(*p[1].cp_points));
	ok(merge(&d, p, 2, err) < 0 && !strcmp(err, "rank1.cpprof: critical-path series from "
					       "rank 1, and from rank 0 before: only the "
					       "monitor rank records one"),
	   "series: from two ranks refused");
	merge_release(&d);
}

int main(void)
{
	test_online();
	test_cut();
	test_huge_events();
	test_reference(false);
	test_reference(true);
	test_ties();
	test_errors();
	test_absent();
	test_zero_subcritical();
	test_zero_auto();
	test_zero_mismatch();
	test_zero_unstarted();
	test_series();
	return tap_done();
}
