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

#include <stddef.h>
#include <stdint.h>

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
};

struct wire_layout wire_layout(int zero, int check);
/* Write pb as the layout says into out[0..len). */
void wire_encode(const struct wire_layout *l, const struct pmpi_pb *pb, unsigned char *out);
/* Read a header written by wire_encode into pb; now is the reader's
 * CLOCK_MONOTONIC ns (a send time after it is taken as now).  False when
 * the bytes are not a header of this version.  pb's zeroing block is
 * left as it was unless the layout has one. */
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
