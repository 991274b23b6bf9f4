/*
 * cct.h - the calling context tree (call-path tree) with per-event counts.
 *
 * The runtime aggregates every drained sample into a cct as it arrives, so
 * memory grows with the number of distinct call paths, never with run length.
 * The report tool builds the same structure when it reads and merges
 * profiles.  Node 0 is the root; every other node names a frame id (an index
 * into a struct symtab) and its parent, and a node's parent always has a
 * smaller id, so a walk in id order visits parents before children.
 */
#ifndef CPPERF_CCT_H
#define CPPERF_CCT_H

#include <stddef.h>
#include <stdint.h>

#define CCT_ROOT 0u
#define CCT_NO_FRAME UINT32_MAX

struct cct {
	uint32_t nevents;	/* counts per node */
	uint32_t nnodes;	/* nodes in use, root included */
	uint32_t alloc;		/* capacity of the arrays below */
	uint32_t *parent;	/* [alloc] parent node id; root's is CCT_ROOT */
	uint32_t *frame;	/* [alloc] frame id; root's is CCT_NO_FRAME */
	uint64_t *self;		/* [alloc * nevents] exclusive counts */
	uint32_t *slots;	/* open-addressing index of (parent, frame) */
	uint32_t nslots;	/* power of two */
};

/* Initialise an empty tree holding only the root.  Returns 0, or -1 when
 * memory is short (the tree is then left empty and safe to cct_release). */
int cct_init(struct cct *t, uint32_t nevents);
/* Free the tree; it is then all zero (no root) and may be released again or
 * cct_init'ed.  A zeroed struct cct may be released.  Cannot fail. */
void cct_release(struct cct *t);

/* Return the id of parent's child for frame, creating it when absent (new
 * nodes have zero counts).  Returns CCT_NO_FRAME when memory is short, or
 * when parent is not a node of t or frame is CCT_NO_FRAME. */
uint32_t cct_child(struct cct *t, uint32_t parent, uint32_t frame);

/* Insert a whole path (frames[0] is outermost) below the root and return the
 * leaf's id (CCT_ROOT for an empty path, CCT_NO_FRAME when memory is short). */
uint32_t cct_path(struct cct *t, const uint32_t *frames, size_t nframes);

/* Add every node's self counts of event e into sum[emap ? emap[e] : e].
 * Returns t->nevents when every sum fits in 64 bits, else the first event
 * of t whose sum does not (sum is then partly added). */
uint32_t cct_add_self(const struct cct *t, const uint32_t *emap, uint64_t *sum);

static inline uint64_t *cct_self(const struct cct *t, uint32_t node)
{
	return t->self + (size_t)node * t->nevents;
}

#endif
