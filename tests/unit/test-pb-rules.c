/*
 * test-pb-rules.c - unit tests of the rules that combine piggybacks
 * (pmpi/pb-rules.c), on worked examples (times in ns):
 *
 * path    the rank's length 100: a piggyback of 150 wins (length 150), one
 *         of 90 or of none (-1) does not.
 * zeroing shares follow the path that won, or stay; net lengths are maxima;
 *         a piggyback without zeroing data brings shares of 0 when it wins.
 * compensation, a call entered at t0 = 1000 with the rank x = 30 late
 *         (without measurement it would have entered at 970):
 *   late sender, one host: data left at 1150, 5 late (ready at 1145): the
 *         rank is 1150 - 1145 = 5 late after it; it would have waited
 *         1145 - 970 = 175; it waited now - t0 = 200 (now 1200).
 *   data already there, one host: left at 900, 10 late (890): the
 *         exchange finishes at t0 measured, 970 without: x stays 30,
 *         no wait without measurement.
 *   another host: x' = min(x_s, x + w) = min(10, 30 + 200) = 10; ready
 *         without measurement at now - x_s = 1190, a wait of 220.
 * collective merge: the longer path wins with its sender and shares, ties
 *         go to the lower rank; nets and send times maxima, the delay the
 *         minimum; different hosts and collective numbers are flagged;
 *         contributions of the core alone (no zeroing block) merge in place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "../../pmpi/pb-rules.h"
#include "../../pmpi/own-cost.h"

static void test_path(void)
{
	uint64_t length = 100;
	struct pmpi_pb pb = { .cp = 90 };

	ok(!pb_path_rule(&length, &pb) && length == 100, "a shorter path does not win");
	pb.cp = -1;
	ok(!pb_path_rule(&length, &pb) && length == 100, "no path does not win");
	pb.cp = 100;
	ok(!pb_path_rule(&length, &pb), "an equal path does not win");
	pb.cp = 150;
	ok(pb_path_rule(&length, &pb), "a longer path wins");
	is_int(length, 150, "and becomes the rank's");
}

static void test_zero(void)
{
	int64_t share[2] = { 7, 8 }, net[2] = { 50, 60 };
	struct pmpi_pb pb = { .flags = PMPI_PB_F_CPFN, .share = { 1, 2 }, .net = { 70, 40 } };

	pb_zero_rule(2, share, net, &pb, false);
	ok(share[0] == 7 && share[1] == 8, "shares stay when the path did not win");
	ok(net[0] == 70 && net[1] == 60, "net lengths are maxima");
	pb_zero_rule(2, share, net, &pb, true);
	ok(share[0] == 1 && share[1] == 2, "shares follow the path that won");
	pb.flags = 0;
	pb.net[0] = 1000;
	pb_zero_rule(2, share, net, &pb, true);
	ok(share[0] == 0 && share[1] == 0, "a winner without zeroing data brings no shares");
	is_int(net[0], 70, "nor net lengths");
}

static void test_comp(void)
{
	struct pmpi_pb late = { .t_send = 1150, .delay = 5, .t_free = 1145 };
	struct pmpi_pb there = { .t_send = 900, .delay = 10, .t_free = 890 };
	struct comp_step r;

	r = pb_comp_rule(1000, 1200, 30, &late, true);
	is_int(r.x, 5, "late sender: the rank is as late as the sender");
	is_int(r.wait_comp, 175, "late sender: the wait without measurement");
	is_int(r.wait, 200, "late sender: the measured wait");
	r = pb_comp_rule(1000, 1010, 30, &there, true);
	is_int(r.x, 30, "data already there: the rank keeps its delay");
	is_int(r.wait_comp, 0, "data already there: no wait without measurement");
	r = pb_comp_rule(1000, 1200, 30, &there, false);
	is_int(r.x, 10, "another host: the paper's rule, min(x_s, x + w)");
	is_int(r.wait_comp, 220, "another host: ready when the wait ended, less x_s");
	there.t_free = 0;
	r = pb_comp_rule(1000, 1200, 30, &there, true);
	is_int(r.x, 10, "no free time: as from another host");
}

/* A collective's merged piggyback: the largest turns of the last
 * collective, which each contribution left out, are everybody's delay. */
static void test_coll_turns(void)
{
	struct pmpi_pb pb = { .t_send = 1000, .delay = 20, .t_free = 980, .turns = 30 };
	struct comp_step r;

	pb_coll_turns(&pb);
	ok(pb.delay == 50 && pb.t_free == 950, "turns added to the delay, taken from the free time");
	r = pb_comp_rule(1000, 1005, 60, &pb, true);
	is_int(r.x, 50, "the rule then: late by the latest free time's delay and the turns");
	pb = (struct pmpi_pb){ .t_send = 1000, .delay = 20, .t_free = 0, .turns = 30 };
	pb_coll_turns(&pb);
	ok(pb.delay == 50 && pb.t_free == 0, "no free time stays none");
	pb = (struct pmpi_pb){ .t_send = 1000, .delay = 20, .t_free = 980 };
	pb_coll_turns(&pb);
	ok(pb.delay == 20 && pb.t_free == 980, "no turns: unchanged (messages)");
	pb_turns_apart(&pb, 15);
	ok(pb.turns == 15 && pb.delay == 5 && pb.t_free == 995, "turns left out of a contribution");
	pb_coll_turns(&pb);
	ok(pb.delay == 20 && pb.t_free == 980, "and given back by the merge's rule");
	pb_turns_apart(&pb, 50);
	ok(pb.turns == 20 && pb.delay == 0 && pb.t_free == 1000, "no more than the delay left out");
}

static void test_merge(void)
{
	struct pmpi_pb a = { .rank = 3, .cp = 500, .event = 9, .site = 4, .share = { 11 }, .t_send = 80,
			     .delay = 7, .t_free = 73, .host = 1, .seq = 5, .net = { 20 },
			     .flags = PMPI_PB_F_CPFN };
	struct pmpi_pb b = { .rank = 1, .cp = 400, .event = 2, .site = 1, .share = { 22 }, .t_send = 90,
			     .delay = 3, .t_free = 87, .host = 1, .seq = 5, .net = { 30 },
			     .flags = PMPI_PB_F_CPFN };
	struct pmpi_pb r = b, t;

	pmpi_pb_merge_into(&a, &r);
	ok(r.cp == 500 && r.rank == 3 && r.event == 9 && r.site == 4 && r.share[0] == 11,
	   "the longer path wins with its sender, event, site and shares");
	is_int(r.net[0], 30, "net lengths: maxima");
	is_int(r.t_send, 90, "send time: the latest");
	is_int(r.delay, 3, "delay: the least");
	is_int(r.t_free, 87, "free time: the latest");
	t = b;
	t.turns = 40;
	r = a;
	r.turns = 25;
	pmpi_pb_merge_into(&t, &r);
	is_int(r.turns, 40, "the turns of the last collective: the largest");
	pmpi_pb_merge_into(&a, &r);
	is_int(r.turns, 40, "whichever side it comes from");
	r = b;
	ok(!(r.flags & (PMPI_PB_F_HOSTS | PMPI_PB_F_MISMATCH)), "one host, one collective: no flag");
	t = b;
	t.cp = 500;
	r = a;
	pmpi_pb_merge_into(&t, &r);
	ok(r.rank == 1 && r.event == 2 && r.site == 1, "a tie goes to the lower rank, with its event and site");
	r = t;
	pmpi_pb_merge_into(&a, &r);
	is_int(r.rank, 1, "whichever side it comes from");
	t.host = 2;
	t.seq = 6;
	r = a;
	pmpi_pb_merge_into(&t, &r);
	ok(r.flags & PMPI_PB_F_HOSTS, "different hosts are flagged");
	ok(r.flags & PMPI_PB_F_MISMATCH, "different collective numbers are flagged");
}

/* A job without zeroing moves only the core: merging two contributions
 * of PMPI_PB_CORE bytes must stay inside them (the sanitizer would stop
 * this test on a byte beyond). */
static void test_merge_core(void)
{
	struct pmpi_pb a = { .cp = 700, .rank = 2, .event = 5, .delay = 4 };
	struct pmpi_pb b = { .cp = 600, .rank = 1, .delay = 9 }, r = { 0 };
	unsigned char *ca = malloc(PMPI_PB_CORE), *cb = malloc(PMPI_PB_CORE);

	if (!ca || !cb)
		tap_bail("out of memory");
	memcpy(ca, &a, PMPI_PB_CORE);
	memcpy(cb, &b, PMPI_PB_CORE);
	pmpi_pb_merge_into((const struct pmpi_pb *)(void *)ca, (struct pmpi_pb *)(void *)cb);
	memcpy(&r, cb, PMPI_PB_CORE);
	ok(r.cp == 700 && r.rank == 2 && r.event == 5 && r.delay == 4,
	   "core only: the longer path and the least delay, nothing read or written past the core");
	free(ca);
	free(cb);
}

/* The sampled cost: the first messages are timed, then one in
 * COST_SAMPLED_EVERY; the estimate is the median of what was timed, one
 * timing that a first touch or a preemption stretched moves nothing, and
 * the oldest timing gives way to the latest. */
static void test_sampled(void)
{
	struct cost_sampled s = { 0 };
	static const uint64_t t[] = { 80, 50000, 120, 90, 110, 100, 95 };
	static const uint64_t want[] = { 80, 80, 120, 90, 110, 110, 100 };
	unsigned due = 0, k;

	for (k = 0; k < COST_SAMPLED_KEEP + 3 * COST_SAMPLED_EVERY; k++)
		due += pb_sampled_due(&s);
	is_int(due, COST_SAMPLED_KEEP + 3, "sampled: the first 5 of 197 messages, then one in 64");
	memset(&s, 0, sizeof(s));
	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		char name[80];

		pb_sampled_add(&s, t[k]);
		snprintf(name, sizeof(name), "sampled: the estimate after timing %u of %llu ns", k + 1,
			 (unsigned long long)t[k]);
		is_int(s.est, want[k], name);
	}
}

int main(void)
{
	test_path();
	test_zero();
	test_comp();
	test_coll_turns();
	test_merge();
	test_merge_core();
	test_sampled();
	return tap_done();
}
