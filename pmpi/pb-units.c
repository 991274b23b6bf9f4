/*
 * pb-units.c - the table of the analyses that ride on the piggyback
 * (pb-units.h), and the order they run in.
 *
 * The critical path first: its edges and links do not depend on the
 * others.  Wait states before compensation: they read the rank's delay
 * as it was when the call was entered, which compensation's rule then
 * moves.
 */
#include <stdbool.h>
#include <stddef.h>

#include "facts.h"
#include "pb-units.h"

static const struct pb_unit *const units[] = {
	&pb_unit_critpath,
	&pb_unit_waits,
	&pb_unit_comp,
};

#define NUNITS (sizeof(units) / sizeof(units[0]))

/* Whether each unit runs.  The loops below run over the constant table,
 * unrolled: the compiler then calls each unit's function directly, or
 * inlines it, where a table of pointers filled at start costs an indirect
 * call and a function's frame per unit and message. */
static bool on[NUNITS];

#define EACH(op) _Pragma("GCC unroll 8") for (size_t i = 0; i < NUNITS; i++) \
	if (on[i] && units[i]->op)

void pb_units_start(const struct rt_state *rt)
{
	for (size_t i = 0; i < NUNITS; i++)
		on[i] = !units[i]->wanted || units[i]->wanted(rt);
}

void pb_units_stamp(struct pmpi_pb *pb, const struct pmpi_call *c)
{
	EACH(stamp)
		units[i]->stamp(pb, c);
}

void pb_units_stamp_core(struct pmpi_pb_core *k, const struct pmpi_call *c)
{
	EACH(stamp_core)
		units[i]->stamp_core(k, c);
}

void pb_units_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			 const struct pmpi_pb_coll *x)
{
	EACH(stamp_coll)
		units[i]->stamp_coll(pb, c, x);
}

void pb_units_recv(const struct pb_arrival *a, struct pmpi_pb *pb)
{
	EACH(recv)
		units[i]->recv(a, pb);
}

void pb_units_coll(const struct pb_arrival *a)
{
	EACH(coll)
		units[i]->coll(a);
}

void pb_units_coll_after(const struct pb_arrival *a)
{
	EACH(coll_after)
		units[i]->coll_after(a);
}

bool pb_units_want_who(void)
{
	EACH(wants_who)
		if (units[i]->wants_who())
			return true;
	return false;
}
