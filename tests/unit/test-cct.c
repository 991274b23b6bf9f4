/*
 * test-cct.c - unit tests for the calling context tree (common/cct.c):
 * root invariants, child interning, growth of the node arrays and of the
 * hash index, and counts surviving growth.
 */
#include <stdlib.h>
#include "tap.h"
#include "../../common/cct.h"

/* A deterministic pseudo-random generator so failures reproduce. */
static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

static void test_basics(void)
{
	struct cct t;
	uint32_t a, b, c, path[3] = { 7, 8, 9 };

	is_int(cct_init(&t, 2), 0, "init");
	is_int(t.nnodes, 1, "only the root");
	is_int(t.frame[CCT_ROOT], CCT_NO_FRAME, "root has no frame");
	is_int(t.parent[CCT_ROOT], CCT_ROOT, "root is its own parent");
	a = cct_child(&t, CCT_ROOT, 7);
	b = cct_child(&t, CCT_ROOT, 8);
	c = cct_child(&t, CCT_ROOT, 7);
	is_int(a, 1, "first child is node 1");
	is_int(b, 2, "second child is node 2");
	is_int(c, a, "same (parent, frame) gives the same node");
	is_int(cct_child(&t, a, 7), 3, "same frame under another parent is new");
	is_int(cct_child(&t, 99, 7), CCT_NO_FRAME, "unknown parent refused");
	is_int(cct_child(&t, a, CCT_NO_FRAME), CCT_NO_FRAME, "CCT_NO_FRAME refused");
	is_int(cct_path(&t, path, 0), CCT_ROOT, "empty path is the root");
	c = cct_path(&t, path, 3);
	is_int(t.nnodes, 6, "path added two nodes below 7");
	is_int(t.frame[c], 9, "leaf frame");
	is_int(t.frame[t.parent[c]], 8, "leaf's parent frame");
	is_int(t.parent[t.parent[c]], a, "path starts at the existing node");
	is_int(cct_path(&t, path, 3), c, "same path, same leaf");
	is_int(cct_self(&t, c)[1], 0, "new node counts are zero");
	cct_release(&t);
	is_int(t.nnodes, 0, "release empties");
	cct_release(&t);
	ok(t.parent == NULL, "release twice is safe");
	is_int(cct_path(&t, path, 1), CCT_NO_FRAME, "released tree refuses paths");
}

/* Build many random paths, bump counts, and check every invariant. */
static void test_growth(void)
{
	enum { NPATHS = 20000, DEPTH = 12, NEV = 3 };
	struct cct t;
	uint64_t s = 42, total = 0, sum = 0;
	uint32_t frames[DEPTH], bad = 0, first_leaf = 0;

	cct_init(&t, NEV);
	for (int i = 0; i < NPATHS; i++) {
		size_t n = 1 + rnd(&s) % DEPTH;
		uint32_t leaf;

		for (size_t k = 0; k < n; k++)
			frames[k] = rnd(&s) % 6;
		leaf = cct_path(&t, frames, n);
		if (leaf == CCT_NO_FRAME || t.frame[leaf] != frames[n - 1])
			bad++;
		if (i == 0)
			first_leaf = leaf;
		cct_self(&t, leaf)[i % NEV] += 1;
		total++;
	}
	is_int(bad, 0, "every path's leaf has the last frame");
	ok(t.nnodes > 10000, "tree grew well past its initial size");
	ok(t.nslots >= t.nnodes + t.nnodes / 3, "load factor at most 3/4");
	for (uint32_t id = 1; id < t.nnodes; id++) {
		if (t.parent[id] >= id)
			bad++;
		for (int e = 0; e < NEV; e++)
			sum += cct_self(&t, id)[e];
	}
	is_int(bad, 0, "every parent id is smaller than its child's");
	is_int(sum, total, "counts survive growth");
	s = 42;
	{
		size_t n = 1 + rnd(&s) % DEPTH;

		for (size_t k = 0; k < n; k++)
			frames[k] = rnd(&s) % 6;
		is_int(cct_path(&t, frames, n), first_leaf, "old path found after growth");
	}
	for (uint32_t id = 1; id < t.nnodes; id++)
		if (cct_child(&t, t.parent[id], t.frame[id]) != id)
			bad++;
	is_int(bad, 0, "every node is found by (parent, frame)");
	cct_release(&t);
}

static void test_zero_events(void)
{
	struct cct t;
	uint32_t path[2] = { 1, 2 };

	is_int(cct_init(&t, 0), 0, "init with no events");
	for (uint32_t i = 0; i < 100; i++) {
		path[1] = i;
		cct_path(&t, path, 2);
	}
	is_int(t.nnodes, 102, "nodes without counts");
	cct_release(&t);
}

int main(void)
{
	test_basics();
	test_growth();
	test_zero_events();
	return tap_done();
}
