/*
 * test-cp-path.c - unit tests of the critical path across ranks
 * (report/cpath.c, merge-cp.c, text-cp.c, out-json-cp.c): the online walk
 * along the links, the reference recomputed from the --cp-trace records,
 * ties, a walk cut at a rank's budget, malformed links and no data at all.
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
 * test_huge_events walks ranks of 2^62 events, which only a walk of one
 * step per link ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "cp-job.h"
#include "make-profile.h"
#include "render-report.h"
#include "../../report/cpath.h"
#include "../../report/data.h"
#include "../../report/flat.h"
#include "../../report/merge.h"
#include "../../report/render.h"
#include "../../report/tree.h"

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
	set_trace(&p[0], 4, seg[0], e0, 5);
	set_trace(&p[1], 4, seg[1], (struct prof_cp_edge[]){ { 3, 0, 2 } }, 1);
	set_trace(&p[2], 4, seg[2], (struct prof_cp_edge[]){ { 2, 1, 2 } }, 1);
}

static const struct cpath_fn *find_cfn(const struct cpath_result *r, const char *name)
{
	for (uint32_t i = 0; i < r->nfns; i++)
		if (!strcmp(r->fns[i].name, name))
			return &r->fns[i];
	return NULL;
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
	set_trace(&p[0], 4, (uint64_t[]){ 10, 5, 0, 0 }, (struct prof_cp_edge[]){ { 1, 1, 1 } }, 1);
	set_trace(&p[1], 4, (uint64_t[]){ 10, 1, 0, 0 }, NULL, 0);
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
	       "program, it was recorded with --no-piggyback, or MPI calls of several "
	       "threads overlapped (cpperf-record said so)", "no data: message");
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
		  "\"no critical-path data: not an MPI program, recorded with --no-piggyback, "
		  "or MPI calls of several threads overlapped\"}"),
	   "no data: json empty, says why");
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
	return tap_done();
}
