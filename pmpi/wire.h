/*
 * wire.h - the piggyback's bytes at the head of every point-to-point
 * message (docs/mpi.md "Piggyback"): a fixed 40-byte core, then the
 * zeroing block and the check block when the job uses them.  The length
 * is the same for every message of a job (agreed at MPI_Init), so a probe
 * can take it off the size MPI reports without reading the message.
 * Pure byte work, no MPI: the unit tests drive it.
 */
#ifndef CPPERF_PMPI_WIRE_H
#define CPPERF_PMPI_WIRE_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pb.h"

#define WIRE_VERSION 2
#define WIRE_CORE 40		/* version, flags, site, rank; t_send, event, cp, delay */
#define WIRE_ZERO (PMPI_PB_SHARES * 24)	/* share, net, fn per selected function */
#define WIRE_CHECK 16		/* tag, bytes, source */
#define WIRE_MAX (WIRE_CORE + WIRE_ZERO + WIRE_CHECK)

/* The blocks a job's messages carry. */
struct wire_layout {
	unsigned len;		/* bytes at the head of every message */
	int zero, check;	/* the zeroing and check blocks are there */
	int by_comm;		/* not on every communicator: the MPI layer asks
				 * each one (piggyback.h); 0 from wire_layout */
	uint64_t head;		/* the version and check flag a header holds */
};

struct wire_layout wire_layout(int zero, int check);
/* wire_layout(0, 0) as a constant: a decode of a job's common layout
 * (the core alone) then tests no block. */
#define WIRE_CORE_LAYOUT ((const struct wire_layout){ .len = WIRE_CORE, .head = WIRE_VERSION })

/* The first word's flags */
enum { WIRE_F_CPFN = 1, WIRE_F_CHECK = 2, WIRE_F_CP = 4, WIRE_F_SYNC = 8 };
#define WIRE_SITE_NONE 0xffffu	/* the site field: site + 1, 0 none, saturated */

/* Every message encodes and decodes a header: memcpy of a constant
 * length compiles to one move. */
static inline void wire_put64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

/* The core's five words: flags (WIRE_F_*; WIRE_F_CP is worked out
 * here), the sender's site and rank, and k. */
static inline void wire_put_core(unsigned char *out, int flags, int32_t site, int32_t rank,
				 const struct pmpi_pb_core *k)
{
	uint32_t s = (uint32_t)site + 1;	/* none (-1): 0 */

	s = s < WIRE_SITE_NONE ? s : WIRE_SITE_NONE;	/* saturated */
	flags |= k->event && k->cp >= 0 ? WIRE_F_CP : 0;
	wire_put64(out, WIRE_VERSION | (uint64_t)flags << 8 | (uint64_t)s << 16 |
				(uint64_t)(uint32_t)rank << 32);
	wire_put64(out + 8, k->t_send);
	wire_put64(out + 16, flags & WIRE_F_CP ? k->event : 0);
	wire_put64(out + 24, flags & WIRE_F_CP ? (uint64_t)k->cp : 0);
	wire_put64(out + 32, k->delay > 0 ? (uint64_t)k->delay : 0);
}
/* Write pb as the layout says into out[0..len). */
void wire_encode(const struct wire_layout *l, const struct pmpi_pb *pb, unsigned char *out);
/* Read a header written by wire_encode into pb; now is the reader's
 * CLOCK_MONOTONIC ns (a send time after it is taken as now).  False,
 * pb untouched, when the bytes are not a header of this version and
 * layout.  pb's zeroing block is left as it was unless the layout has
 * one. */
int wire_decode(const struct wire_layout *l, const unsigned char *in, uint64_t now,
		struct pmpi_pb *pb);

/* A receive's header room marked empty before MPI gets it, and whether
 * MPI wrote a header there since: a failed receive may deliver a
 * message (truncated) or nothing. */
static inline void wire_clear(unsigned char *hdr)
{
	hdr[0] = 0;
}

static inline int wire_present(const unsigned char *hdr)
{
	return hdr[0] == WIRE_VERSION;
}

#endif
