/*
 * test-wait-rules.c - unit tests of the wait states' rules
 * (pmpi/wait-rules.c), of the table that keeps their pairs of sites, and
 * of what they read from the piggyback (the collective merge of entries,
 * the synchronous send's flag on the wire), on worked examples (times in
 * ns):
 *
 * wait_for   a receive entered at 1000 that blocked 300: a sender at 1200
 *            made it wait 200, one at 1500 the whole 300 (not more), one
 *            at 900 nothing.
 * categories by where the partners are: an allreduce's wait is Wait at
 *            NxN, a barrier's Wait at Barrier, a broadcast's Late
 *            Broadcast on a destination and nothing on the root, a
 *            reduce's Early Reduce on the root and nothing elsewhere,
 *            scans nothing.
 * wrong order a Late Sender of 40 at site 3 for a message sent at 500: a
 *            later message sent at 600 leaves it, one sent at 450 proves it
 *            of wrong order (once); a call without a Late Sender keeps the
 *            last one that had.
 * key table  a key is found again with its counts; the table holds
 *            KEY_TABLE keys and counts the others lost (key-table.c).
 * merge      a collective's latest entry (measured and without
 *            measurement) is the largest contribution's.
 * wire       the synchronous flag travels; a standard send's does not.
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "../../pmpi/wait-rules.h"
#include "../../pmpi/key-table.h"
#include "../../pmpi/pb-rules.h"
#include "../../pmpi/wire.h"

static void test_wait_for(void)
{
	is_int(wait_for(1000, 1200, 300), 200, "a sender 200 late: waited 200");
	is_int(wait_for(1000, 1500, 300), 300, "a sender later than the block: the block");
	is_int(wait_for(1000, 900, 300), 0, "a sender early: no wait");
	is_int(wait_for(1000, 1000, 300), 0, "a sender at once: no wait");
}

static void test_kinds(void)
{
	is_int(wait_coll_kind(WAIT_ALL, false, false), PROF_WAIT_wait_nxn, "allreduce: NxN");
	is_int(wait_coll_kind(WAIT_ALL, true, true), PROF_WAIT_wait_barrier, "barrier: Wait at Barrier");
	is_int(wait_coll_kind(WAIT_FROMROOT, false, false), PROF_WAIT_late_broadcast,
	       "broadcast, a destination: Late Broadcast");
	is_int(wait_coll_kind(WAIT_FROMROOT, false, true), PROF_WAITS, "broadcast, the root: none");
	is_int(wait_coll_kind(WAIT_TOROOT, false, true), PROF_WAIT_early_reduce,
	       "reduce, the root: Early Reduce");
	is_int(wait_coll_kind(WAIT_TOROOT, false, false), PROF_WAITS, "reduce, a sender: none");
	is_int(wait_coll_kind(WAIT_OTHER, false, false), PROF_WAITS, "scan: none");
}

static void test_order(void)
{
	struct wait_order o = { 0 };

	ok(!wait_order_wrong(&o, 100), "nothing kept: no wrong order");
	wait_order_keep(&o, 3, 40, 35, 500);
	wait_order_keep(&o, 4, 0, 0, 900);
	ok(!wait_order_wrong(&o, 600), "a message sent later: in order");
	ok(wait_order_wrong(&o, 450), "a message sent earlier: wrong order");
	ok(o.site == 3 && o.ls == 40 && o.ls_comp == 35, "... of the kept Late Sender, with its times");
	wait_order_forget(&o);
	ok(!wait_order_wrong(&o, 400), "... counted once");
}

static void test_table(void)
{
	struct key_table *t = calloc(1, sizeof(*t));
	struct key_entry *p;
	int n = 0;

	if (!t)
		tap_bail("out of memory");
	p = key_table_get(t, 5, 1, 77);
	ok(p && p->key[0] == 5 && p->key[1] == 1 && p->key[2] == 77 && key_entry_used(p),
	   "a new entry has its key");
	key_entry_add(p, 2, 3);
	p = key_table_get(t, 5, 1, 77);
	ok(p && key_entry_value(p, 2) == 3, "found again with its counts");
	ok(key_table_get(t, 5, 2, 77) != p && key_table_get(t, 6, 1, 77) != p &&
	   key_table_get(t, 5, 1, 78) != p, "each part of the key tells entries apart");
	for (int i = 0; i < 2 * KEY_TABLE; i++)
		n += key_table_get(t, i, 0, 0) != NULL;
	is_int(n, KEY_TABLE - 4, "the table holds KEY_TABLE entries (4 taken before), no more");
	is_int(t->lost, KEY_TABLE + 4, "the others are counted lost");
	free(t);
}

static void test_owned(void)
{
	struct key_owned o = { 0 };
	struct key_own *e, *f;
	uint64_t key;
	int n = 0;

	ok(!key_owned_last(&o, 7), "no key before it is taken");
	e = key_owned_get(&o, 7);
	ok(e && key_own_used(e, &key) && key == 7, "a taken entry has its key");
	key_own_add(e, 1, 5);
	ok(key_owned_last(&o, 7) == e && key_own_value(e, 1) == 5, "found last, with its counts");
	f = key_owned_get(&o, UINT64_MAX - 1);
	ok(f && f != e && key_owned_last(&o, UINT64_MAX - 1) == f && !key_owned_last(&o, 7),
	   "another key: its own entry, now the last found");
	ok(key_owned_get(&o, 7) == e && key_owned_last(&o, 7) == e && key_own_value(e, 1) == 5,
	   "the first again, counts kept");
	for (uint64_t k = 100; k < 100 + KEY_OWN; k++)
		n += key_owned_get(&o, k) != NULL;
	is_int(n, KEY_OWN - 2, "KEY_OWN keys, no more");
	ok(!key_owned_last(&o, 100 + KEY_OWN - 1), "a key with no room is not the last found");
}

static void test_merge(void)
{
	struct pmpi_pb a = { .t_enter = 5000, .t_enter_free = 4000 };
	struct pmpi_pb b = { .t_enter = 4500, .t_enter_free = 4200 };

	pmpi_pb_merge_into(&a, &b);
	ok(b.t_enter == 5000 && b.t_enter_free == 4200, "latest entries: the maxima, apart");
}

static void test_wire(void)
{
	struct wire_layout l = wire_layout(0, 0);
	unsigned char buf[WIRE_MAX];
	struct pmpi_pb pb = { .rank = 1, .site = 2, .t_send = 1000, .flags = PMPI_PB_F_SYNC }, got;

	wire_encode(&l, &pb, buf);
	ok(wire_decode(&l, buf, 2000, &got) && (got.flags & PMPI_PB_F_SYNC),
	   "a synchronous send's flag travels");
	pb.flags = 0;
	wire_encode(&l, &pb, buf);
	ok(wire_decode(&l, buf, 2000, &got) && !(got.flags & PMPI_PB_F_SYNC),
	   "a standard send's has none");
}

int main(void)
{
	test_wait_for();
	test_kinds();
	test_order();
	test_table();
	test_owned();
	test_merge();
	test_wire();
	return tap_done();
}
