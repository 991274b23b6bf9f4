/*
 * test-cp-segs.c - the critical path's samples by (segment, node): found
 * again by hash as the table grows, the oldest quarter dropped at the
 * limit, records cut, folded into the prefix and handed over.
 */
#include <stdbool.h>
#include <stdlib.h>
#include "tap.h"
#include "../../pmpi/cp-segs.h"

/* Whether s holds (seg, node) exactly once, by a scan of its records. */
static int holds(const struct cp_segs *s, uint64_t seg, uint32_t node)
{
	int found = 0;

	for (uint32_t i = 0; i < s->n; i++)
		found += s->segs[i].seg == seg && s->segs[i].node == node;
	return found;
}

static void test_found_again(void)
{
	struct cp_segs s = { 0 };
	struct prof_cp_seg *a = cps_entry(&s, 5, 7, 2), *b;
	bool same = true;

	ok(a && a->seg == 5 && a->node == 7 && a->counts[0] == 0 && a->counts[1] == 0,
	   "segs: a new record has zero counts");
	a->counts[1] = 3;
	b = cps_entry(&s, 5, 7, 2);
	ok(b == a && b->counts[1] == 3 && s.n == 1, "segs: the same (segment, node) again");
	ok(cps_entry(&s, 5, 8, 2) != a && cps_entry(&s, 6, 7, 2) != a && s.n == 3,
	   "segs: another node or segment is another record");
	/* thousands of records: the hash grows past its first size, records move */
	for (uint64_t seg = 1; seg <= 3000; seg++)
		cps_entry(&s, seg, (uint32_t)(seg % 5), 2)->counts[0] = seg;
	for (uint64_t seg = 1; seg <= 3000; seg++) {
		struct prof_cp_seg *r = cps_entry(&s, seg, (uint32_t)(seg % 5), 2);

		same = same && r && r->counts[0] == seg;
	}
	ok(same && s.n == 3003 && s.top == 3000 && s.nslot >= 2 * s.n,
	   "segs: 3000 records found again with their counts");
	is_int(cps_entry(&s, 5, 7, 2)->counts[1], 3, "segs: the first record kept its counts");
	cps_free(&s);
	ok(!s.segs && !s.slot && s.n == 0, "segs: freed and empty");
}

static void test_limit(void)
{
	struct cp_segs s = { .max = 8 };
	struct prof_cp_seg *r;
	uint64_t seg;

	for (uint64_t k = 8; k >= 1; k--)	/* out of order */
		cps_entry(&s, k, 0, 1);
	ok(s.n == 8 && s.cut == 0, "limit: up to max records, nothing cut");
	ok(cps_nth(&s, 0, &seg) && seg == 1 && cps_nth(&s, 5, &seg) && seg == 6,
	   "limit: the k-th record in segment order");
	ok(cps_entry(&s, 9, 0, 1) != NULL, "limit: one more is recorded");
	ok(s.n == 6 && s.cut == 4 && !holds(&s, 3, 0) && holds(&s, 4, 0) && holds(&s, 9, 0),
	   "limit: the oldest quarter dropped first (segments 1-3), the cut after them");
	cps_keep_from(&s, 7);
	ok(s.n == 3 && s.cut == 7 && holds(&s, 7, 0) && holds(&s, 8, 0) && holds(&s, 9, 0),
	   "limit: kept from a cut on");
	ok((r = cps_entry(&s, 8, 0, 1)) && r->seg == 8 && s.n == 3,
	   "limit: records still found after the cut");
	cps_free(&s);
}

static void test_fold_and_take(void)
{
	struct cp_segs s = { 0 };
	struct cp_prefix x;
	struct cp_range *r = malloc(sizeof(*r));
	struct prof_cp_seg *v;
	uint32_t n;
	uint64_t w[2] = { 0 };

	for (uint64_t seg = 1; seg <= 6; seg++) {
		struct prof_cp_seg *g = cps_entry(&s, seg, (uint32_t)seg, 2);

		g->counts[0] = seg;
		g->counts[1] = 10 * seg;
	}
	cpp_init(&x, 2);
	*r = (struct cp_range){ 2, 4 };
	cpp_fold(&x, r, 1, false);
	cps_fold(&s, 4, &x, false);
	ok(s.n == 2 && holds(&s, 5, 5) && holds(&s, 6, 6),
	   "fold: records up to the fold point dropped");
	{
		struct prof_cp_prefix *p;
		uint32_t np;

		ok(cpp_records(&x, &p, &np) == 0 && np == 3 && p[0].node == 2 && p[2].node == 4 &&
		   p[0].counts[0] == 2 && p[2].counts[1] == 40,
		   "fold: those on the path (2-4) went into the prefix");
		for (uint32_t i = 0; i < np; i++)
			free(p[i].counts);
		free(p);
	}
	ok(cps_entry(&s, 6, 6, 2)->counts[0] == 6, "fold: later records still found");
	cps_fold(&s, 5, &x, true);
	ok(s.n == 2, "fold: --cp-trace keeps the records");
	cps_entry(&s, 1, 1, 2);
	cps_entry(&s, 9, 9, 2);
	cps_take(&s, 9, 5, false, &v, &n);
	ok(n == 2 && v[0].seg + v[1].seg == 11 && !s.segs && s.n == 0,
	   "take: the records between the cut and the end handed over");
	w[0] = v[0].counts[0] + v[1].counts[0];
	is_int(w[0], 11, "take: with their counts");
	for (uint32_t i = 0; i < n; i++)
		free(v[i].counts);
	free(v);
	cps_entry(&s, 1, 1, 2);
	cps_entry(&s, 9, 9, 2);
	cps_take(&s, 9, 5, true, &v, &n);
	ok(n == 1 && v[0].seg == 1, "take: all before the end with --cp-trace");
	for (uint32_t i = 0; i < n; i++)
		free(v[i].counts);
	free(v);
	cpp_free(&x);
}

int main(void)
{
	test_found_again();
	test_limit();
	test_fold_and_take();
	return tap_done();
}
