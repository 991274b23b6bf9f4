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
	if (ls)
		*o = (struct wait_order){ site, ls, ls_comp, sent };
}

bool wait_order_check(struct wait_order *o, uint64_t sent, struct wait_order *out)
{
	if (!o->ls || sent >= o->sent)
		return false;
	*out = *o;
	*o = (struct wait_order){ .site = -1 };
	return true;
}

static unsigned pair_home(int site, int32_t rank, int32_t slot)
{
	uint64_t k = ((uint64_t)(uint32_t)site << 40) ^ ((uint64_t)(uint32_t)rank << 16) ^
		     (uint32_t)slot;

	return (unsigned)((k * 0x9e3779b97f4a7c15ull) >> 40) & (WAIT_PAIRS - 1);
}

struct wait_pair *wait_pair_get(struct wait_pairs *t, int site, int32_t rank, int32_t slot)
{
	unsigned i = pair_home(site, rank, slot);

	for (unsigned n = 0; n < WAIT_PAIRS; n++, i = (i + 1) & (WAIT_PAIRS - 1)) {
		struct wait_pair *p = &t->e[i];

		if (!p->used) {	/* the key before used: a reader may be looking */
			*p = (struct wait_pair){ .site = site, .rank = rank, .slot = slot };
			__atomic_store_n(&p->used, true, __ATOMIC_RELEASE);
			return p;
		}
		if (p->site == site && p->rank == rank && p->slot == slot)
			return p;
	}
	return NULL;
}
