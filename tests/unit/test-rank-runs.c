/*
 * test-rank-runs.c - unit tests of sets of ranks kept as runs
 * (report/rank-runs.c): runs joined and started as ranks come, their
 * count, and the text "0-3,7,9-999999" the report prints for them.
 */
#include <stdlib.h>
#include "tap.h"
#include "../../report/rank-runs.h"

/* s's text (freed by the next call). */
static const char *text(const struct rank_runs *s)
{
	static char *last;

	free(last);
	last = rank_runs_str(s);
	return last ? last : "(out of memory)";
}

int main(void)
{
	struct rank_runs s = { 0 };
	int added = 0;

	is_str(text(&s), "", "empty: nothing");
	for (int64_t r = 0; r < 4; r++)
		added += rank_runs_add(&s, r) == 0;
	added += rank_runs_add(&s, 7) == 0;
	for (int64_t r = 9; r < 1000000; r++)
		added += rank_runs_add(&s, r) == 0;
	is_int(added, 4 + 1 + 999991, "every rank added");
	is_str(text(&s), "0-3,7,9-999999", "runs of consecutive ranks, single ones alone");
	is_int(s.n, 3, "three runs kept, not a million ranks");
	is_int(s.ranks, 999996, "the ranks counted");
	rank_runs_release(&s);
	ok(!s.v && !s.n && !s.ranks, "released and empty");
	rank_runs_add(&s, 5);
	is_str(text(&s), "5", "one rank");
	rank_runs_release(&s);
	return tap_done();
}
