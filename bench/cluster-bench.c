/*
 * cluster-bench.c - the classes of ranks part of `make bench`: builds in
 * memory the activity graphs of RANKS ranks (default 10 240) of a 2-D
 * stencil, 128 ranks a row: each rank sends to each neighbour it has
 * from a site per direction, receives from each at a site per direction
 * and joins an allreduce, ITERS times; its times vary by up to 0.5 %, and
 * every 1000th rank is 10 % slower.  The corners, the four borders and
 * the inside make nine shapes, the slow ranks (all inside) one more
 * class.  Then times cluster_build (report/cluster.c) at the report's
 * default tolerance and prints "ranks N classes K seconds S".
 * Usage: cluster-bench [RANKS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../report/cluster.h"
#include "../report/render.h"

#define ROW 128
#define ITERS 100
#define BASE_NS 1000000u	/* one computation edge */

enum { LEFT, RIGHT, UP, DOWN, DIRS };
#define SEND(d) ((uint32_t)(d))
#define RECV(d) ((uint32_t)(DIRS + (d)))
#define ALLREDUCE ((uint32_t)(2 * DIRS))

static uint64_t seed = 88172645463325252ull;

/* A factor from 0.995 to 1.005 (xorshift). */
static double noise(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return 0.995 + (double)(seed % 10001) / 1e6;
}

/* The rank of r's neighbour in direction d, or -1. */
static int64_t neighbour(int64_t r, int d, int64_t n)
{
	int64_t x = r % ROW, y = r / ROW;

	switch (d) {
	case LEFT:
		return x > 0 ? r - 1 : -1;
	case RIGHT:
		return x < ROW - 1 && r + 1 < n ? r + 1 : -1;
	case UP:
		return y > 0 ? r - ROW : -1;
	default:
		return r + ROW < n ? r + ROW : -1;
	}
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fprintf(stderr, "cluster-bench: out of memory\n");
		exit(1);
	}
	return p;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct cl_edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* Rank r's graph: per iteration its sends, its receives, the allreduce. */
static void make_rank(struct cl_rank *c, int64_t r, int64_t n)
{
	uint32_t seq[2 * DIRS + 1], len = 0;
	double slow = r % 1000 == 999 ? 1.1 : 1;

	*c = (struct cl_rank){ .rank = r, .node_times = true };
	c->nodes = xmalloc((2 * DIRS + 1) * sizeof(*c->nodes));
	c->edges = xmalloc((2 * DIRS + 2) * sizeof(*c->edges));
	c->msgs = xmalloc(DIRS * sizeof(*c->msgs));
	for (int d = 0; d < DIRS; d++)
		if (neighbour(r, d, n) >= 0)
			seq[len++] = SEND(d);
	for (int d = 0; d < DIRS; d++) {
		int64_t from = neighbour(r, d, n);

		if (from < 0)
			continue;
		seq[len++] = RECV(d);
		/* what the neighbour on side d sent towards this side */
		c->msgs[c->nmsgs++] = (struct cl_msg){ RECV(d), from, SEND(d ^ 1), ITERS,
						       ITERS * 4096, 0 };
	}
	seq[len++] = ALLREDUCE;
	for (uint32_t s = 0; s <= ALLREDUCE; s++)
		for (uint32_t k = 0; k < len; k++)
			if (seq[k] == s)
				c->nodes[c->nnodes++] = (struct cl_node){
					s, ITERS, (uint64_t)(ITERS * 20000 * slow * noise()), false };
	for (uint32_t k = 0; k < len; k++) {
		uint64_t count = k + 1 < len ? ITERS : ITERS - 1;

		c->edges[c->nedges++] = (struct cl_edge){
			.from = seq[k], .to = seq[(k + 1) % len], .count = count,
			.time_ns = (uint64_t)((double)count * BASE_NS * slow * noise()) };
	}
	qsort(c->edges, c->nedges, sizeof(*c->edges), cmp_edge);
}

int main(int argc, char **argv)
{
	int64_t n = argc > 1 ? atoll(argv[1]) : 10240;
	struct cl_rank *ranks;
	struct cl_result res;
	struct timespec t0, t1;
	char err[256];

	if (n < 1 || n > 1 << 20) {
		fprintf(stderr, "usage: cluster-bench [RANKS]  (1 to 1048576)\n");
		return 2;
	}
	ranks = xmalloc((size_t)n * sizeof(*ranks));
	for (int64_t r = 0; r < n; r++)
		make_rank(&ranks[r], r, n);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (cluster_build(&res, ranks, (uint32_t)n, REP_CLUSTER_TOL / 100, err, sizeof(err)) < 0) {
		fprintf(stderr, "cluster-bench: %s\n", err);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("ranks %lld classes %u seconds %.3f\n", (long long)n, res.nclasses,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	cluster_release(&res);
	for (int64_t r = 0; r < n; r++) {
		free(ranks[r].nodes);
		free(ranks[r].edges);
		free(ranks[r].msgs);
	}
	free(ranks);
	return 0;
}
