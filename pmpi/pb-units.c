/*
 * pb-units.c - the table of the analyses that ride on the piggyback
 * (pb-units.h), and the order they run in.
 *
 * The critical path first: its edges and links do not depend on the
 * others.  Wait states before compensation: they read the rank's delay
 * as it was when the call was entered, which compensation's rule then
 * moves.
 */
#include <stddef.h>

#include "pb-units.h"

static const struct pb_unit *const units[] = {
	&pb_unit_critpath,
	&pb_unit_waits,
	&pb_unit_comp,
};

#define NUNITS (sizeof(units) / sizeof(units[0]))

void pb_units_stamp(struct pmpi_pb *pb, const struct pmpi_call *c)
{
	for (size_t i = 0; i < NUNITS; i++)
		if (units[i]->stamp)
			units[i]->stamp(pb, c);
}

void pb_units_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			 const struct pmpi_pb_coll *x)
{
	for (size_t i = 0; i < NUNITS; i++)
		if (units[i]->stamp_coll)
			units[i]->stamp_coll(pb, c, x);
}

void pb_units_recv(const struct pb_arrival *a, struct pmpi_pb *pb)
{
	for (size_t i = 0; i < NUNITS; i++)
		if (units[i]->recv)
			units[i]->recv(a, pb);
}

void pb_units_coll(const struct pb_arrival *a)
{
	for (size_t i = 0; i < NUNITS; i++)
		if (units[i]->coll)
			units[i]->coll(a);
}

void pb_units_coll_after(const struct pb_arrival *a)
{
	for (size_t i = 0; i < NUNITS; i++)
		if (units[i]->coll_after)
			units[i]->coll_after(a);
}

bool pb_units_want_who(void)
{
	for (size_t i = 0; i < NUNITS; i++)
		if (units[i]->wants_who && units[i]->wants_who())
			return true;
	return false;
}
