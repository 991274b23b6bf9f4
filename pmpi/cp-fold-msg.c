/*
 * cp-fold-msg.c - a fold point's messages and the root's walk
 * (cp-fold-msg.h).
 *
 * A rank's message is ten 64-bit words, the fields of struct fold_state,
 * the number of links and the link its first record is relative to, in
 * the host's byte order (all ranks of a job run on one architecture),
 * then its links as the runtime keeps them in memory (cp-links.h): three
 * or four bytes a link, and a run of links that each take the step of the
 * one before as one record, so that the root of a large job holds every
 * rank's links and a rank sends them as they are.  The root unpacks
 * each rank's into an array for the walk, or, when the messages pass
 * FOLDMSG_ARRAY_BYTES, into a link_pack (common/link-pack.h): an array's
 * binary search costs a walk's step less than a pack's block, 24 bytes a
 * link more.  An answer is five words, ok, length, gap_rank, gap_event
 * and the number of ranges, then the ranges' from and to.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/cp-walk.h"
#include "../common/link-pack.h"
#include "cp-fold-msg.h"
#include "cp-links.h"

#define HEAD_WORDS 10		/* struct fold_state, the number of links, their base */
#define ANSWER_WORDS 5		/* ok, length, gap rank and event, ranges */

/* A rank's links at the root: an array, or packed. */
struct rank_links {
	struct prof_cp_link *v;
	struct link_pack pack;
};

int foldmsg_pack(const struct fold_state *st, const struct cp_links *links, unsigned char **out,
		 size_t *len)
{
	size_t n = links ? cpl_stream_len(links) : 0;
	unsigned char *b = malloc(HEAD_WORDS * sizeof(uint64_t) + n);
	struct prof_cp_link base = { 0 };

	if (!b)
		return -1;
	if (links)
		base = cpl_stream_put(links, b + HEAD_WORDS * sizeof(uint64_t));
	memcpy(b, (const uint64_t[HEAD_WORDS]){ st->path, st->events, st->length, st->low,
						st->dropped, st->budget, links ? links->n : 0,
						base.event, (uint64_t)base.rank, base.from },
	       HEAD_WORDS * sizeof(uint64_t));
	*out = b;
	*len = HEAD_WORDS * sizeof(uint64_t) + n;
	return 0;
}

static int by_event(const void *a, const void *b)
{
	const struct prof_cp_link *x = a, *y = b;

	return (x->event > y->event) - (x->event < y->event);
}

/* The n links of a message's stream [p, end), whose first record is
 * relative to base, into a new array *out by strictly increasing event,
 * sorted when they were not.  Returns 0, or -1 when they do not read so
 * or memory is short. */
static int unpack_links(const unsigned char *p, const unsigned char *end, struct prof_cp_link base,
			uint64_t n, struct prof_cp_link **out)
{
	struct prof_cp_link *v;
	bool sorted = true;

	*out = NULL;
	if (!(v = malloc((size_t)(n ? n : 1) * sizeof(*v))))
		return -1;
	if (cpl_stream_decode(p, end, base, n, v) < 0) {
		free(v);
		return -1;
	}
	for (uint64_t i = 1; i < n && sorted; i++)
		sorted = v[i].event > v[i - 1].event;
	if (!sorted) {
		qsort(v, (size_t)n, sizeof(*v), by_event);
		for (uint64_t i = 1; i < n; i++)
			if (v[i].event == v[i - 1].event) {
				free(v);
				return -1;
			}
	}
	*out = v;
	return 0;
}

/* Rank r's message (len bytes at m) into *wr, its length into *length
 * and its links into *rl, packed when packed is set; false when the rank
 * has no path or its message does not read. */
static bool unpack_rank(const unsigned char *m, int len, int64_t r, bool packed,
			struct cp_walk_rank *wr, uint64_t *length, struct rank_links *rl)
{
	uint64_t head[HEAD_WORDS];
	uint32_t n;
	int rc;

	if (len < (int)sizeof(head))
		return false;
	memcpy(head, m, sizeof(head));
	if (head[0] != 1 || head[6] > UINT32_MAX ||
	    unpack_links(m + sizeof(head), m + len,
			 (struct prof_cp_link){ head[7], (int64_t)head[8], head[9] }, head[6],
			 &rl->v) < 0)
		return false;
	n = (uint32_t)head[6];
	*wr = (struct cp_walk_rank){ r, head[1], head[3], head[4] != 0, head[5], NULL, rl->v, n };
	*length = head[2];
	if (!packed)
		return true;
	rc = link_pack_build(&rl->pack, rl->v, n);
	free(rl->v);
	rl->v = NULL;
	*wr = (struct cp_walk_rank){ r, head[1], head[3], head[4] != 0, head[5], &rl->pack, NULL, 0 };
	return rc == 0;
}

/* Every answer a failure: ANSWER_WORDS zero words each. */
static int plan_failed(struct fold_plan *plan, int nranks)
{
	free(plan->words);
	plan->ok = false;
	if (!(plan->words = calloc((size_t)nranks * ANSWER_WORDS + 1, sizeof(*plan->words))))
		return -1;
	for (int r = 0; r < nranks; r++) {
		plan->counts[r] = ANSWER_WORDS;
		plan->displs[r] = r * ANSWER_WORDS;
	}
	return 0;
}

/* The answers of a walk from a path of length that succeeded: each
 * rank's runs as its ranges, in time order (the runs of one rank are by
 * increasing segment).  Fails (-1) when memory is short or the answers
 * pass INT_MAX words. */
static int plan_answers(struct fold_plan *plan, const struct cp_walk *w, uint64_t length,
			int nranks)
{
	uint64_t total = 0;
	int *at;

	for (int r = 0; r < nranks; r++)
		plan->counts[r] = ANSWER_WORDS;
	for (uint32_t i = 0; i < w->nruns; i++)
		plan->counts[w->runs[i].rank] += 2;
	for (int r = 0; r < nranks; r++) {
		plan->displs[r] = (int)total;
		total += (uint64_t)plan->counts[r];
		if (total > INT_MAX)
			return -1;
	}
	plan->words = calloc(total + 1, sizeof(*plan->words));
	at = malloc((size_t)nranks * sizeof(*at));
	if (!plan->words || !at) {
		free(at);
		return -1;
	}
	for (int r = 0; r < nranks; r++) {
		uint64_t *a = plan->words + plan->displs[r];

		a[0] = 1;
		a[1] = length;
		a[2] = w->cut ? (uint64_t)w->cut_rank : 0;
		a[3] = w->cut ? w->cut_event : 0;
		a[4] = (uint64_t)(plan->counts[r] - ANSWER_WORDS) / 2;
		at[r] = plan->displs[r] + ANSWER_WORDS;
	}
	for (uint32_t i = 0; i < w->nruns; i++) {
		int r = (int)w->runs[i].rank;

		plan->words[at[r]++] = w->runs[i].from;
		plan->words[at[r]++] = w->runs[i].to;
	}
	free(at);
	plan->ok = true;
	return 0;
}

/* The end of the path over ranks[0..n) of lengths: the longest, the
 * lowest rank on ties, at its last event, into *st.  False when no rank
 * has a path. */
static bool path_end(const struct cp_walk_rank *ranks, const uint64_t *lengths, uint32_t n,
		     struct fold_start *st)
{
	uint32_t end = 0;

	for (uint32_t i = 1; i < n; i++)
		if (lengths[i] > lengths[end])
			end = i;	/* strictly: the lowest rank wins ties */
	*st = (struct fold_start){ n ? ranks[end].rank : -1, n ? ranks[end].events - 1 : 0,
				   n ? lengths[end] : 0 };
	return n > 0;
}

/* Walk back from st (the path's end with rank -1, made the rank's) over
 * the ranks that could be read (ranks[0..n), by increasing rank, lengths
 * theirs) into *out: 0, or -1 with why set. */
static int walk(const struct cp_walk_rank *ranks, const uint64_t *lengths, uint32_t n,
		struct fold_start *st, struct cp_walk *out, char *why, size_t whylen)
{
	long start;

	if (st->w < 0 && !path_end(ranks, lengths, n, st)) {
		snprintf(why, whylen, "critical path: no rank has a path at its end");
		return -1;
	}
	if ((start = cp_walk_find(ranks, n, st->w)) < 0) {
		snprintf(why, whylen, "critical path: the latest entrant of the fold point, rank "
			 "%lld, has no path", (long long)st->w);
		return -1;
	}
	return cp_walk_back(ranks, n, (uint32_t)start, st->k, "this fold point's exchange", out,
			    why, whylen);
}

int foldmsg_plan(const unsigned char *msg, const int *lens, const int *displs, int nranks,
		 struct fold_start start, uint64_t array_bytes, struct fold_plan *plan)
{
	struct cp_walk_rank *ranks = calloc((size_t)nranks + 1, sizeof(*ranks));
	struct rank_links *rls = calloc((size_t)nranks + 1, sizeof(*rls));
	uint64_t *lengths = calloc((size_t)nranks + 1, sizeof(*lengths));
	struct cp_walk wk = { 0 };
	uint64_t bytes = 0;
	uint32_t n = 0;
	int rc = -1;

	memset(plan, 0, sizeof(*plan));
	plan->counts = malloc(((size_t)nranks + 1) * sizeof(*plan->counts));
	plan->displs = malloc(((size_t)nranks + 1) * sizeof(*plan->displs));
	if (!ranks || !rls || !lengths || !plan->counts || !plan->displs)
		goto out;
	for (int r = 0; r < nranks; r++)
		bytes += (uint64_t)lens[r];
	for (int r = 0; r < nranks; r++)
		n += unpack_rank(msg + displs[r], lens[r], r, bytes > array_bytes, &ranks[n],
				 &lengths[n], &rls[r]);
	if (walk(ranks, lengths, n, &start, &wk, plan->why, sizeof(plan->why)) < 0)
		rc = plan_failed(plan, nranks);
	else if (plan_answers(plan, &wk, start.length, nranks) < 0) {
		snprintf(plan->why, sizeof(plan->why), "critical path: no memory for the "
			 "answers of a fold point, or more than %d words of them", INT_MAX);
		rc = plan_failed(plan, nranks);
	} else {
		rc = 0;
	}
out:
	cp_walk_release(&wk);
	for (int r = 0; rls && r < nranks; r++) {
		free(rls[r].v);
		link_pack_release(&rls[r].pack);
	}
	free(rls);
	free(lengths);
	free(ranks);
	if (rc < 0)
		foldmsg_plan_free(plan);
	return rc;
}

void foldmsg_plan_free(struct fold_plan *plan)
{
	free(plan->words);
	free(plan->counts);
	free(plan->displs);
	memset(plan, 0, sizeof(*plan));
}

uint32_t foldmsg_answer_ranges(int n)
{
	return n > ANSWER_WORDS ? (uint32_t)(n - ANSWER_WORDS) / 2 : 0;
}

int foldmsg_answer(const uint64_t *words, int n, struct cp_range *ranges, struct fold_answer *a)
{
	memset(a, 0, sizeof(*a));
	if (n < ANSWER_WORDS || (n - ANSWER_WORDS) % 2 ||
	    words[4] != foldmsg_answer_ranges(n))
		return -1;
	for (uint64_t i = 0; i < words[4]; i++)
		ranges[i] = (struct cp_range){ words[ANSWER_WORDS + 2 * i],
					       words[ANSWER_WORDS + 2 * i + 1] };
	a->ok = words[0] == 1;
	a->length = words[1];
	a->gap_rank = (int64_t)words[2];
	a->gap_event = words[3];
	a->ranges = ranges;
	a->nranges = (uint32_t)words[4];
	return 0;
}
