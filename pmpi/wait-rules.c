/*
 * wait-rules.c - the rules of the wait states (wait-rules.h).
 */
#include "wait-rules.h"

unsigned wait_coll_kind(enum wait_shape shape, bool barrier, bool root)
{
	switch (shape) {
	case WAIT_ALL:
		return barrier ? PROF_WAIT_wait_barrier : PROF_WAIT_wait_nxn;
	case WAIT_FROMROOT:
		return root ? PROF_WAITS : PROF_WAIT_late_broadcast;
	case WAIT_TOROOT:
		return root ? PROF_WAIT_early_reduce : PROF_WAITS;
	case WAIT_OTHER:
		break;
	}
	return PROF_WAITS;
}

void wait_order_keep(struct wait_order *o, int site, uint64_t ls, uint64_t ls_comp,
		     uint64_t sent)
{
	if (ls)	/* then sent > 0, after the call's entry */
		*o = (struct wait_order){ site, ls, ls_comp, sent };
}
