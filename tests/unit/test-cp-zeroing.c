/*
 * test-cp-zeroing.c - unit tests of the critical path's zeroing and its
 * length series (report/cpath.c, merge-cp.c, text-cp.c, out-json-cp.c):
 * how much shorter the path would be were a function's time zero.
 *
 * Each test builds a small job, worked by hand above its builder, and
 * checks the online numbers (from the ranks' N_f and S_f) and the
 * reference (recomputed from the trace) against the same constants;
 * selections that differ between ranks are refused; test_series checks
 * the series in JSON and its thinning in text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	set_trace(&p[0], 3, (uint64_t[]){ 100, 10, 10 }, NULL, 0);
	set_zero(&p[0], PROF_CP_FN_INIT, 0, (const char *[]){ "compute" },
		 (uint64_t[]){ 45 }, (uint64_t[]){ 75 }, 1);

	n = make_rank(&p[1], 1, 2);
	p[1].cp_events = 4;
	p[1].cp_length_ns = 110 * MS;
	p[1].cp_wall_ns = 125 * MS;
	add_seg(&p[1], 1, n.wait, 8);
	set_links(&p[1], (struct prof_cp_link[]){ { 1, 0, 1 } }, 1);
	set_trace(&p[1], 3, (uint64_t[]){ 80, 5, 5 },
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
		set_trace(&p[1], 4, (uint64_t[]){ 10, 20, 30, 5 },
			  (struct prof_cp_edge[]){ { 2, 1, 1 }, { 2, 1, 2 }, { 3, 1, 3 } }, 3);
	} else {
		set_links(&p[1], (struct prof_cp_link[]){ { 2, 1, 2 } }, 1);
		set_trace(&p[1], 4, (uint64_t[]){ 10, 20, 30, 20 },
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
	set_trace(&p[0], 4, (uint64_t[]){ 25, 10, 40, 1 },
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
	test_zero_subcritical();
	test_zero_auto();
	test_zero_mismatch();
	test_zero_unstarted();
	test_series();
	return tap_done();
}
