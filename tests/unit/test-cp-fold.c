/*
 * test-cp-fold.c - unit tests of fold points (docs/critical-path.md "Fold
 * points"): the rank's prefix (pmpi/cp-prefix.c), a fold point's messages
 * and the root's walk (pmpi/cp-fold-msg.c) with its cache of a decoded
 * block (common/link-pack.c), and the report of a folded path
 * (report/cpath.c, text-cp.c, out-json-cp.c).
 *
 * The root's walk, three ranks folded before at their event 4, so that
 * their segments from 5 on are walked (lengths in the messages, links by
 * hand):
 *
 *   rank 0: links (6 <- 1:7), (8 <- 2:9), set latest first (the root
 *           sorts them)                rank 2: link (5 <- 1:6)
 *   from segment 9 of rank 0: 0:9-9, link 8 -> 2:9; 2:6-9, link 5 -> 1:6;
 *   1:5-6 and the last fold point: runs 1:5-6 > 2:6-9 > 0:9-9.
 *
 * The report's job, two ranks with events 0..8 folded twice, the last at
 * their event 4 (40 ms of path), frames main > setup and main > solve:
 *
 *   prefix   rank 0: setup 6     rank 1: setup 4
 *   segments rank 0: 5..8 solve 1 2 3 4    rank 1: 5..8 solve 5 6 7 8
 *   links    rank 0: (6 <- 1:6); lengths rank 0 100 ms, rank 1 90 ms
 *   walk     0:7-8, link 6 -> 1:6; 1:5-6 and the fold point
 *   path     setup 6 + 4 = 10, solve 3 + 4 + 5 + 6 = 18: 28 samples
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "make-profile.h"
#include "render-report.h"
#include "../../common/link-pack.h"
#include "../../pmpi/cp-fold-msg.h"
#include "../../pmpi/cp-links.h"
#include "../../pmpi/cp-prefix.h"
#include "../../report/cpath.h"
#include "../../report/data.h"
#include "../../report/flat.h"
#include "../../report/merge.h"
#include "../../report/render.h"
#include "../../report/tree.h"

#define ERRLEN 1024
#define MS 1000000ull

/* ---- the prefix ---- */

static void test_prefix(void)
{
	struct cp_prefix x;
	struct cp_range *r = xcalloc(2, sizeof(*r));
	struct prof_cp_prefix *rec;
	const uint64_t w[2] = { 3, 1 };
	uint32_t n;

	cpp_init(&x, 2);
	r[0] = (struct cp_range){ 3, 5 };
	r[1] = (struct cp_range){ 9, 9 };
	cpp_fold(&x, r, 2, false);
	ok(!cpp_on_path(&x, 2) && cpp_on_path(&x, 3) && cpp_on_path(&x, 5) &&
	   !cpp_on_path(&x, 6) && cpp_on_path(&x, 9) && !cpp_on_path(&x, 10),
	   "prefix: segments in the ranges, and only they");
	cpp_add(&x, 70, w);
	cpp_add(&x, 3, w);
	cpp_add(&x, 70, w);
	ok(cpp_records(&x, &rec, &n) == 0 && n == 2 && rec[0].node == 3 && rec[1].node == 70 &&
	   rec[0].counts[0] == 3 && rec[1].counts[0] == 6 && rec[1].counts[1] == 2,
	   "prefix: counts by node, by increasing node, past the first room");
	for (uint32_t i = 0; i < n; i++)
		free(rec[i].counts);
	free(rec);
	r = xcalloc(2, sizeof(*r));
	r[0] = (struct cp_range){ 4, 8 };
	r[1] = (struct cp_range){ 8, 9 };	/* overlaps: refused */
	cpp_fold(&x, r, 2, true);
	ok(!cpp_on_path(&x, 4) && x.nranges == 0, "prefix: ranges out of order are not taken");
	ok(cpp_records(&x, &rec, &n) == 0 && n == 0 && !rec,
	   "prefix: a restart forgets the counts (a gap)");
	cpp_free(&x);
}

/* ---- the walk's cache of a decoded block ---- */

/* Every event of a pack of 1000 links (gaps of 3), looked up backwards
 * and forwards, then at random, through one cache: the pack's answers. */
static void test_cache(void)
{
	struct prof_cp_link *v = xcalloc(1000, sizeof(*v)), a, b;
	struct link_block_cache c;
	struct link_pack lp;
	uint64_t rng = 12345;
	int bad = 0;

	for (uint32_t i = 0; i < 1000; i++)
		v[i] = (struct prof_cp_link){ 3 * i + 5, (int64_t)(i % 7) - 2, 1000 - i };
	if (link_pack_build(&lp, v, 1000) < 0)
		abort();
	link_cache_init(&c);
	for (int pass = 0; pass < 3; pass++)
		for (uint64_t k = 0; k < 3010; k++) {
			uint64_t e = pass == 0 ? 3010 - k : pass == 1 ? k : (rng = rng * 6364136223846793005ull + 1) % 3010;
			bool x = link_pack_find_last(&lp, e, &a), y = link_pack_find_last_cached(&lp, e, &b, &c);

			bad += x != y || (x && memcmp(&a, &b, sizeof(a)));
		}
	is_int(bad, 0, "cache: the answers of the pack, backwards, forwards, at random");
	link_pack_release(&lp);
	free(v);
}

/* ---- a fold point's messages and the root's walk ---- */

struct msgs {
	unsigned char *all;
	int lens[3], displs[3];
};

/* The three ranks of the header, rank `nopath` without a path (-1: none);
 * rank 1 dropped records before segment 6 when gap is set. */
static void make_msgs(struct msgs *m, int nopath, bool gap)
{
	static const struct prof_cp_link l0[] = { { 6, 1, 7 }, { 8, 2, 9 } };
	static const struct prof_cp_link l2[] = { { 5, 1, 6 } };
	const uint64_t lengths[3] = { 100, 120, 120 };
	unsigned char *b[3];
	size_t len[3], total = 0;
	struct cp_links links[3] = { 0 };

	/* rank 0's latest first: the root sorts them */
	for (size_t i = sizeof(l0) / sizeof(l0[0]); i-- > 0;)
		cpl_set(&links[0], l0[i].event, l0[i].rank, l0[i].from);
	cpl_set(&links[2], l2[0].event, l2[0].rank, l2[0].from);
	for (int r = 0; r < 3; r++) {
		struct fold_state st = { r != nopath, 10, lengths[r], r == 1 && gap ? 6 : 5,
					 r == 1 && gap, 4096 };

		if (foldmsg_pack(&st, r == 1 ? NULL : &links[r], &b[r], &len[r]) < 0)
			abort();
		cpl_free(&links[r]);
		m->displs[r] = (int)total;
		m->lens[r] = (int)len[r];
		total += len[r];
	}
	m->all = xcalloc(total, 1);
	for (int r = 0; r < 3; r++) {
		memcpy(m->all + m->displs[r], b[r], len[r]);
		free(b[r]);
	}
}

/* Rank r's answer of plan as "length gap_rank:gap_event from-to ..." or
 * "failed". */
static const char *answer_str(const struct fold_plan *plan, int r)
{
	static char buf[256];
	struct cp_range ranges[8];
	struct fold_answer a;
	int at;

	if (foldmsg_answer(plan->words + plan->displs[r], plan->counts[r], ranges, &a) < 0)
		return "unreadable";
	if (!a.ok)
		return "failed";
	at = snprintf(buf, sizeof(buf), "%llu %lld:%llu", (unsigned long long)a.length,
		      (long long)a.gap_rank, (unsigned long long)a.gap_event);
	for (uint32_t i = 0; i < a.nranges; i++)
		at += snprintf(buf + at, sizeof(buf) - (size_t)at, " %llu-%llu",
			       (unsigned long long)a.ranges[i].from,
			       (unsigned long long)a.ranges[i].to);
	return buf;
}

/* Plan the messages m from start, links as arrays, then packed; the
 * answers of the three ranks. */
static void check_plan(struct msgs *m, struct fold_start start, const char *want[3],
		       const char *what)
{
	struct fold_plan plan;
	char name[160];

	for (int packed = 0; packed < 2; packed++) {
		snprintf(name, sizeof(name), "%s%s", what, packed ? " (packed)" : "");
		if (!ok(foldmsg_plan(m->all, m->lens, m->displs, 3, start,
				     packed ? 0 : FOLDMSG_ARRAY_BYTES, &plan) == 0, name))
			return;
		for (int r = 0; r < 3; r++) {
			snprintf(name, sizeof(name), "%s%s: rank %d's answer", what,
				 packed ? " (packed)" : "", r);
			is_str(answer_str(&plan, r), want[r], name);
		}
		if (!plan.ok)
			printf("# why: %s\n", plan.why);
		foldmsg_plan_free(&plan);
	}
}

static void test_msgs(void)
{
	struct msgs m;
	struct fold_plan plan;
	struct fold_answer a;
	struct cp_range ranges[2];
	uint64_t words[6] = { 1, 5, 0, 0, 1, 3 };

	make_msgs(&m, -1, false);
	check_plan(&m, (struct fold_start){ 0, 9, 77 },
		   (const char *[]){ "77 0:0 9-9", "77 0:0 5-6", "77 0:0 6-9" }, "walk");
	check_plan(&m, (struct fold_start){ -1, 0, 0 },
		   (const char *[]){ "120 0:0", "120 0:0 5-9", "120 0:0" },
		   "from the end: the longest, the lowest rank on ties");
	m.lens[2]--;	/* a truncated message: rank 2 is left out */
	check_plan(&m, (struct fold_start){ 0, 9, 77 },
		   (const char *[]){ "failed", "failed", "failed" }, "a truncated message");
	free(m.all);

	make_msgs(&m, -1, true);
	check_plan(&m, (struct fold_start){ 0, 9, 77 },
		   (const char *[]){ "77 1:5 9-9", "77 1:5 6-6", "77 1:5 6-9" },
		   "dropped records: a gap");
	free(m.all);

	make_msgs(&m, 2, false);
	if (ok(foldmsg_plan(m.all, m.lens, m.displs, 3, (struct fold_start){ 0, 9, 77 },
			    FOLDMSG_ARRAY_BYTES, &plan) == 0, "a rank without a path: planned")) {
		ok(!plan.ok && strstr(plan.why, "rank 0 event 8 links to rank 2, which has no "
				      "critical-path data in this fold point's exchange"),
		   "a rank without a path: the walk fails and says why");
		is_str(answer_str(&plan, 1), "failed", "a rank without a path: every answer fails");
		foldmsg_plan_free(&plan);
	}
	free(m.all);

	ok(foldmsg_answer(words, 6, ranges, &a) < 0, "an answer of odd length does not read");
	ok(foldmsg_answer(words, 4, ranges, &a) < 0 && !a.ok, "a short answer does not read");
}

/* ---- the report of a folded path ---- */

struct nodes {
	uint32_t setup, solve;
};

/* Rank r of 2 with events 0..8, folded twice, the last at event 4 (40 ms
 * of path); tree main > setup, main > solve. */
static struct nodes make_rank(struct profile *p, int64_t r)
{
	struct nodes n;
	uint32_t app = 0, fm, main;

	make_rank_profile(p, r, 2);
	app = symtab_module(&p->syms, "/opt/app", "");
	fm = symtab_frame(&p->syms, app, "main", "m.c", 1);
	main = cct_child(&p->tree, CCT_ROOT, fm);
	n.setup = cct_child(&p->tree, main, symtab_frame(&p->syms, app, "setup", "s.c", 2));
	n.solve = cct_child(&p->tree, main, symtab_frame(&p->syms, app, "solve", "v.c", 3));
	cct_self(&p->tree, n.setup)[0] = 20;
	cct_self(&p->tree, n.solve)[0] = 40;
	p->samples = 60;
	p->cp_events = 9;
	p->cp_budget = 4096;
	p->cp_folds = 2;
	p->cp_fold_event = 4;
	p->cp_fold_ns = 40 * MS;
	return n;
}

static void set_prefix(struct profile *p, uint32_t node, uint64_t count)
{
	p->cp_prefix = xcalloc(1, sizeof(*p->cp_prefix));
	p->cp_prefix[0] = (struct prof_cp_prefix){ node, xcalloc(1, sizeof(uint64_t)) };
	p->cp_prefix[0].counts[0] = count;
	p->ncp_prefix = 1;
}

/* The two ranks of the header. */
static void make_job(struct profile p[2])
{
	struct nodes n = make_rank(&p[0], 0);

	p[0].cp_length_ns = 100 * MS;
	p[0].cp_wall_ns = 120 * MS;
	set_prefix(&p[0], n.setup, 6);
	for (uint64_t s = 5; s <= 8; s++)
		add_seg(&p[0], s, n.solve, s - 4);
	p[0].cp_links = xcalloc(1, sizeof(*p[0].cp_links));
	p[0].cp_links[0] = (struct prof_cp_link){ 6, 1, 6 };
	p[0].ncp_links = 1;
	n = make_rank(&p[1], 1);
	p[1].cp_length_ns = 90 * MS;
	p[1].cp_wall_ns = 120 * MS;
	set_prefix(&p[1], n.setup, 4);
	for (uint64_t s = 5; s <= 8; s++)
		add_seg(&p[1], s, n.solve, s);
}

/* Merge the two profiles (released afterwards) into d.  Returns 0 or -1. */
static int merge(struct rep_data *d, struct profile p[2], char *err)
{
	int rc = merge_init(d);

	for (int i = 0; rc == 0 && i < 2; i++)
		rc = merge_add(d, &p[i], NULL, i ? "rank1.cpprof" : "rank0.cpprof", err, ERRLEN);
	for (int i = 0; i < 2; i++)
		profile_release(&p[i]);
	return rc == 0 ? merge_finish(d, err, ERRLEN) : rc;
}

/* d's critical-path view in format. */
static const char *render_cp(const struct rep_data *d, enum rep_format format, int *rc)
{
	return render(d, (struct rep_opts){ .format = format, .view = REP_CP,
					    .min_pct = format == REP_JSON ? -1 : 0 },
		      rc);
}

/* The online path of p (merged and released) into r; false, with the
 * message shown, when merging or the walk fails. */
static bool walk_job(struct profile p[2], struct rep_data *d, struct cpath_result *r,
		     const char *what)
{
	struct tree_view tv;
	struct flat f;
	char err[ERRLEN];
	bool done;

	if (!ok(merge(d, p, err) == 0, what)) {
		printf("#   %s\n", err);
		return false;
	}
	if (tree_build(&tv, &d->tree, 0, err, ERRLEN) < 0 || flat_build(&f, d, &tv, 0, err, ERRLEN) < 0)
		abort();
	done = cpath_build(r, d, &f, false, err, ERRLEN) == 0;
	if (!done)
		printf("#   %s\n", err);
	flat_release(&f);
	tree_release(&tv);
	if (!done)
		merge_release(d);
	return done;
}

/* The share of function name on r's path. */
static double cp_pct(const struct cpath_result *r, const char *name)
{
	for (uint32_t i = 0; i < r->nfns; i++)
		if (!strcmp(r->fns[i].name, name))
			return r->fns[i].cp_pct;
	return -1;
}

static void test_folded(void)
{
	struct profile p[2];
	struct rep_data d;
	struct cpath_result r;
	const char *out;
	int rc;

	make_job(p);
	if (!walk_job(p, &d, &r, "folded: merge"))
		return;
	ok(r.folds == 2 && r.fold_ns == 40 * MS && !r.cut, "folded: two fold points, no cut");
	ok(r.nruns == 2 && r.runs[0].rank == 1 && r.runs[0].from == 5 && r.runs[0].to == 6 &&
	   r.runs[1].rank == 0 && r.runs[1].from == 7 && r.runs[1].to == 8,
	   "folded: the runs after the fold point, 1:5-6 > 0:7-8");
	is_int(r.all, 28, "folded: the prefix's samples and the runs'");
	ok(cp_pct(&r, "setup") > 35.71 && cp_pct(&r, "setup") < 35.72,
	   "folded: setup, on the prefix only, 10 of 28");
	cpath_release(&r);
	out = render_cp(&d, REP_TEXT, &rc);
	ok(rc == 0 && strstr(out, "# form: folded: the whole path, resolved during the run up to "
			     "its last fold point (2 of them, at 0.040000 s of the path"),
	   "folded: text says so");
	out = render_cp(&d, REP_JSON, &rc);
	ok(rc == 0 && strstr(out, "\"form\":\"folded\",\"cut\":null,\"fold\":{\"points\":2,"
			     "\"length\":0.04},\"unavailable\":null}"), "folded: json says so");
	merge_release(&d);
}

static void test_gap(void)
{
	struct profile p[2];
	struct rep_data d;
	struct cpath_result r;
	const char *out;
	int rc;

	make_job(p);
	for (int i = 0; i < 2; i++) {
		p[i].cp_gap_rank = 1;
		p[i].cp_gap_event = 3;
	}
	if (!walk_job(p, &d, &r, "gap: merge"))
		return;
	ok(r.cut && r.cut_rank == 1 && r.cut_event == 3 && r.cut_budget == 4096 && r.folds == 2,
	   "gap: the latest part, from where a fold's walk stopped");
	is_int(r.all, 28, "gap: the prefix still counts");
	cpath_release(&r);
	out = render_cp(&d, REP_JSON, &rc);
	ok(rc == 0 && strstr(out, "\"form\":\"latest\",\"cut\":{\"rank\":1,\"event\":3,"
			     "\"budget\":4096},\"fold\":{\"points\":2,"), "gap: json says so");
	merge_release(&d);

	make_job(p);
	p[1].cp_cut = 6;	/* dropped records since the fold point */
	if (!walk_job(p, &d, &r, "cut after the fold point: merge"))
		return;
	ok(r.cut && r.cut_rank == 1 && r.cut_event == 5 && r.folds == 0,
	   "cut after the fold point: the latest part, without the prefix");
	is_int(r.all, 13, "cut after the fold point: the runs' samples only");
	cpath_release(&r);
	merge_release(&d);
}

static void test_disagree(void)
{
	struct profile p[2];
	struct rep_data d;
	char err[ERRLEN];
	int rc;

	make_job(p);
	p[1].cp_folds = 3;
	if (!ok(merge(&d, p, err) == 0, "disagreeing fold points: merge"))
		return;
	is_str(render_cp(&d, REP_TEXT, &rc), "critical path: rank 0 resolved 2 fold points (the last "
	       "at 0.040000 s), rank 1 3 (at 0.040000 s): their profiles are not of one run",
	       "disagreeing fold points: refused");
	merge_release(&d);
}

int main(void)
{
	test_prefix();
	test_cache();
	test_msgs();
	test_folded();
	test_gap();
	test_disagree();
	return tap_done();
}
