/*
 * rank-list.c - the ranks a view lists, and the distribution of a column
 * over every rank (rank-list.h).  Both sort copies of the ranks' values:
 * O(ranks log ranks), once per view.
 */
#include <stdlib.h>
#include "rank-list.h"

struct keyed {
	double v;
	int64_t rank;
	uint32_t at;
};

/* By value, then by rank, so that ties keep the lowest rank first. */
static int by_value(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* m's entries sorted by value; NULL when memory is short. */
static struct keyed *sorted(const struct rep_mpi *m, double (*value)(const struct rep_rank *))
{
	struct keyed *k = malloc((m->nranks ? m->nranks : 1) * sizeof(*k));

	if (!k)
		return NULL;
	for (uint32_t i = 0; i < m->nranks; i++)
		k[i] = (struct keyed){ value(&m->ranks[i]), m->ranks[i].rank, i };
	qsort(k, m->nranks, sizeof(*k), by_value);
	return k;
}

static double wall_of(const struct rep_rank *r)
{
	return (double)r->wall_ns / 1e9;
}

static double cpu_of(const struct rep_rank *r)
{
	return (double)r->cpu_ns / 1e9;
}

static double mpi_of(const struct rep_rank *r)
{
	return (double)r->mpi_ns / 1e9;
}

static double blocked_of(const struct rep_rank *r)
{
	return (double)r->blocked_ns / 1e9;
}

const struct rep_rank_col rep_rank_cols[REP_RANK_COLS] = {
	{ "wall", "wall", wall_of },
	{ "cpu", "cpu", cpu_of },
	{ "mpi_time", "MPI", mpi_of },
	{ "mpi_blocked", "blocked", blocked_of },
};

long rep_rank_listing(const struct rep_mpi *m, bool all, bool **listed)
{
	uint32_t n = m->nranks, k = REP_EXTREME_RANKS;
	struct keyed *by;
	long count = 0;

	if (!(*listed = calloc(n ? n : 1, sizeof(**listed))))
		return -1;
	if (all || n <= REP_LISTED_RANKS) {
		for (uint32_t i = 0; i < n; i++)
			(*listed)[i] = true;
		return n;
	}
	if (!(by = sorted(m, mpi_of))) {
		free(*listed);
		*listed = NULL;
		return -1;
	}
	for (uint32_t i = 0; i < k; i++) {
		(*listed)[by[i].at] = true;	/* the least */
		(*listed)[by[n - 1 - i].at] = true;	/* the most */
	}
	for (uint32_t i = 0; i < n; i++)
		if (m->ranks[i].rank == 0)
			(*listed)[i] = true;
	for (uint32_t i = 0; i < n; i++)
		count += (*listed)[i];
	free(by);
	return count;
}

int rep_rank_dist(const struct rep_mpi *m, double (*value)(const struct rep_rank *),
		  struct rep_dist *out)
{
	uint32_t n = m->nranks, top;
	struct keyed *by;
	double sum = 0;

	*out = (struct rep_dist){ 0, 0, 0, 0, -1 };
	if (!n)
		return 0;
	if (!(by = sorted(m, value)))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		sum += by[i].v;
	top = n - 1;
	while (top > 0 && by[top - 1].v == by[n - 1].v)	/* the lowest rank of the max */
		top--;
	*out = (struct rep_dist){
		by[0].v, n % 2 ? by[n / 2].v : (by[n / 2 - 1].v + by[n / 2].v) / 2,
		sum / n, by[n - 1].v, by[top].rank,
	};
	free(by);
	return 0;
}
