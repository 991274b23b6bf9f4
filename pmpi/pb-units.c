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

static const struct pb_unit *running[NUNITS];
static size_t nrunning;

void pb_units_start(const struct rt_state *rt)
{
	nrunning = 0;
	for (size_t i = 0; i < NUNITS; i++)
		if (!units[i]->wanted || units[i]->wanted(rt))
			running[nrunning++] = units[i];
}

void pb_units_stamp(struct pmpi_pb *pb, const struct pmpi_call *c)
{
	for (size_t i = 0; i < nrunning; i++)
		if (running[i]->stamp)
			running[i]->stamp(pb, c);
}

void pb_units_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			 const struct pmpi_pb_coll *x)
{
	for (size_t i = 0; i < nrunning; i++)
		if (running[i]->stamp_coll)
			running[i]->stamp_coll(pb, c, x);
}

void pb_units_recv(const struct pb_arrival *a, struct pmpi_pb *pb)
{
	for (size_t i = 0; i < nrunning; i++)
		if (running[i]->recv)
			running[i]->recv(a, pb);
}

void pb_units_coll(const struct pb_arrival *a)
{
	for (size_t i = 0; i < nrunning; i++)
		if (running[i]->coll)
			running[i]->coll(a);
}

void pb_units_coll_after(const struct pb_arrival *a)
{
	for (size_t i = 0; i < nrunning; i++)
		if (running[i]->coll_after)
			running[i]->coll_after(a);
}

bool pb_units_want_who(void)
{
	for (size_t i = 0; i < nrunning; i++)
		if (running[i]->wants_who && running[i]->wants_who())
			return true;
	return false;
}
