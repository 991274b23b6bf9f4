/*
 * pb-units.c - the analyses that ride on the piggyback (pb-units.h), and
 * the order they run in.
 *
 * The critical path first: its edges and links do not depend on the
 * others.  Wait states before compensation: they read the rank's delay
 * as it was when the call was entered, which compensation's rule then
 * moves.
 */
#include <stdbool.h>

#include "facts.h"
#include "pb-units.h"

/* The one unit with a choice (its options); the others always run. */
static bool waits_on;

void pb_units_start(const struct rt_state *rt)
{
	waits_on = pb_waits_wanted(rt);
}

void pb_units_stamp(struct pmpi_pb *pb, const struct pmpi_call *c, enum pmpi_way quick)
{
	pb_cp_stamp(pb, c, quick);
	pb_comp_stamp(pb, c, quick);
}

void pb_units_stamp_core(struct pmpi_pb_core *k, const struct pmpi_call *c, enum pmpi_way quick)
{
	pb_cp_stamp_core(k, c, quick);
	pb_comp_stamp_core(k, c, quick);
}

void pb_units_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			 const struct pmpi_pb_coll *x, enum pmpi_way quick)
{
	pb_cp_stamp_coll(pb, c, x, quick);
	if (waits_on)
		pb_waits_stamp_coll(pb, c, x);
	pb_comp_stamp_coll(pb, c, x, quick);
}

void pb_units_recv(const struct pb_arrival *a, struct pmpi_pb *pb, enum pmpi_way quick)
{
	pb_cp_recv(a, pb, quick);
	if (waits_on)
		pb_waits_recv(a, pb);
	pb_comp_recv(a, pb, quick);
}

void pb_units_coll(const struct pb_arrival *a, enum pmpi_way quick)
{
	pb_cp_coll(a, quick);
	if (waits_on)
		pb_waits_coll(a);
	pb_comp_coll(a, quick);
}

void pb_units_coll_after(const struct pb_arrival *a, enum pmpi_way quick)
{
	pb_cp_coll_after(a, quick);
}

bool pb_units_want_who(void)
{
	return pb_cp_wants_who();
}
