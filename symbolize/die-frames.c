/*
 * die-frames.c - the frame each function DIE was interned as, for
 * resolve.c.
 *
 * Every new address is named by the function DIEs that hold it, and most
 * new addresses are in functions seen before: a hot loop's samples land
 * on many instructions of one function.  Naming a DIE again (its name and
 * declaration through its abstract origin, its file from the unit's line
 * table, then the interning) cost about 10 us per address on NAS LU; the
 * frame is the same each time, so it is kept by the DIE's address in its
 * module's loaded DWARF, which no other DIE shares while the session
 * lives.
 */
#include <stdlib.h>
#include <string.h>
#include "../common/hash.h"
#include "internal.h"

struct sym_die_frame {
	const void *die;	/* NULL: free slot */
	uint32_t frame;
};

/* The slot of die, or the free one where it goes; table not empty. */
static struct sym_die_frame *slot_of(const struct sym_die_frames *t, const void *die)
{
	uint32_t mask = t->nslots - 1;

	for (uint32_t i = (uint32_t)hash_u64((uintptr_t)die) & mask;; i = (i + 1) & mask) {
		struct sym_die_frame *e = &t->slots[i];

		if (!e->die || e->die == die)
			return e;
	}
}

uint32_t sym_die_frame_get(const struct sym_die_frames *t, const void *die)
{
	const struct sym_die_frame *e = t->nslots ? slot_of(t, die) : NULL;

	return e && e->die ? e->frame : UINT32_MAX;
}

/* Double the table; -1 when memory is short (the old one stays). */
static int grow(struct sym_die_frames *t)
{
	uint32_t n = t->nslots ? 2 * t->nslots : 256;
	struct sym_die_frame *old = t->slots;
	uint32_t nold = t->nslots;

	if (!(t->slots = calloc(n, sizeof(*t->slots)))) {
		t->slots = old;
		return -1;
	}
	t->nslots = n;
	for (uint32_t i = 0; i < nold; i++)
		if (old[i].die)
			*slot_of(t, old[i].die) = old[i];
	free(old);
	return 0;
}

void sym_die_frame_put(struct sym_die_frames *t, const void *die, uint32_t frame)
{
	struct sym_die_frame *e;

	if (2 * (t->used + 1) > t->nslots && grow(t) != 0)
		return;		/* not kept: named again next time */
	e = slot_of(t, die);
	if (!e->die)
		t->used++;
	*e = (struct sym_die_frame){ die, frame };
}

void sym_die_frames_release(struct sym_die_frames *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
