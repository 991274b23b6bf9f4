/*
 * rank-runs.c - sets of ranks as runs of consecutive ranks (rank-runs.h).
 * Ranks come in ascending order, so adding one extends the last run or
 * starts another: O(1), and memory grows with the runs, not the ranks.
 */
#include <stdlib.h>
#include <string.h>
#include "rank-runs.h"

/* See rank-runs.h. */
int rank_runs_add(struct rank_runs *s, int64_t rank)
{
	struct rank_run *last = s->n ? &s->v[s->n - 1] : NULL;

	if (last && last->last + 1 == rank) {
		last->last = rank;
		s->ranks++;
		return 0;
	}
	if (s->n == s->alloc) {
		uint32_t n = s->alloc ? s->alloc * 2 : 16;
		struct rank_run *v = s->alloc <= UINT32_MAX / 2 ?
			realloc(s->v, (size_t)n * sizeof(*v)) : NULL;

		if (!v)
			return -1;
		s->v = v;
		s->alloc = n;
	}
	s->v[s->n++] = (struct rank_run){ rank, rank };
	s->ranks++;
	return 0;
}

/* See rank-runs.h. */
void rank_runs_put(FILE *out, const struct rank_runs *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		const struct rank_run *r = &s->v[i];

		fprintf(out, "%s%lld", i ? "," : "", (long long)r->first);
		if (r->last > r->first)
			fprintf(out, "-%lld", (long long)r->last);
	}
}

/* See rank-runs.h. */
char *rank_runs_str(const struct rank_runs *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	rank_runs_put(f, s);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* See rank-runs.h. */
void rank_runs_release(struct rank_runs *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
