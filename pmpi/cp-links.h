/*
 * cp-links.h - the links of a rank's critical path (critpath.c), kept
 * compactly while the run goes on: each link is the three differences to
 * the previous one as zigzag varints, usually three or four bytes instead
 * of a struct's 24, in chunks that are filled and never moved.  A long
 * run of small messages adds a link per message: at 24 bytes each, the
 * memory touched for the first time cost more than the rest of the
 * piggyback (bench/mpi-cost.md, "Memory touched for the first time").
 *
 * A link that takes the same step from the one before as the one before
 * took (a ping-pong's, an iteration's of a regular exchange) is only
 * counted, and a run of them is written as one record.
 *
 * Each chunk starts from the link before its first, so the oldest chunks
 * can be dropped when the log's links would take more than its limit in
 * the profile (their cp_link lines: --cp-budget, docs/critical-path.md
 * "Budget"): the log then keeps the links of the latest events, and says
 * from which event on.
 * Pure memory work, no MPI: the unit tests drive it.
 */
#ifndef CPPERF_PMPI_CP_LINKS_H
#define CPPERF_PMPI_CP_LINKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/profile.h"

struct cpl_chunk;

/* The decimal digits of values from lo to lo + span - 1 (span 0: none). */
struct cpl_digits {
	uint64_t lo, span;
	unsigned n;
};

struct cp_links {
	struct cpl_chunk *head, *tail;
	uint64_t n;			/* links held */
	uint64_t bytes;			/* their cp_link lines' bytes */
	uint64_t lost;			/* links dropped: memory was short */
	uint64_t max;			/* bytes to hold at most, 0 no limit */
	uint64_t cut;			/* links of events before it were dropped
					 * past max; 0 when none was */
	struct prof_cp_link last;	/* the latest link: the next one's base */
	struct prof_cp_link base;	/* the latest link's base, to rewrite it;
					 * last - step instead when ahead */
	bool ahead;
	uint32_t last_at;		/* where the latest record starts in tail */
	uint32_t last_bytes;		/* the latest link's line */
	/* links after the latest record that each took its step again
	 * (last - base): counted, written as one run record when another
	 * step comes (cp-links.c) */
	uint64_t run;
	struct prof_cp_link step;	/* the latest record's step */
	bool stepping;			/* step is known (not after a rewrite) */
	/* links that may take the step again, each counted in the run
	 * with no other test (cp-links.c) */
	uint64_t room;
	struct cpl_digits digits[3];	/* of the latest event, rank and from */
};

/*
 * The link of event: the path came from rank's event from.  One link per
 * event, the last winner: a link of the latest link's event replaces it.
 * A link that finds no memory is counted in l->lost.  Past l->max bytes,
 * the oldest chunks are dropped (never the latest) while three quarters of
 * max stay held, and l->cut moves past their events.
 * Cannot fail otherwise.
 */
void cpl_set(struct cp_links *l, uint64_t event, int64_t rank, uint64_t from);
/* The links in the order they were set, as an array the caller frees
 * (NULL when there are none); -1 when memory is short. */
int cpl_decode(const struct cp_links *l, struct prof_cp_link **out, uint32_t *n);
/*
 * The links as one stream of their records, for a fold point's message
 * (cp-fold-msg.c): cpl_stream_len bytes, which cpl_stream_put writes at
 * out, returning the link that the first record is relative to.  A run
 * stays one record, so a regular program's links take a few bytes
 * whatever their number.  cpl_stream_decode reads the n links of a
 * stream [p, end) whose first record is relative to base into v (room
 * for n); -1 when it does not hold n links.
 */
size_t cpl_stream_len(const struct cp_links *l);
struct prof_cp_link cpl_stream_put(const struct cp_links *l, unsigned char *out);
int cpl_stream_decode(const unsigned char *p, const unsigned char *end, struct prof_cp_link base,
		      uint64_t n, struct prof_cp_link *v);
/* Bytes of the cp_link line of a link (docs/format.md), newline included. */
unsigned cpl_line_bytes(uint64_t event, int64_t rank, uint64_t from);
/* Bytes the encoded links take in their chunks. */
uint64_t cpl_bytes(const struct cp_links *l);
/* Free the chunks; l is left empty. */
void cpl_free(struct cp_links *l);

#endif
