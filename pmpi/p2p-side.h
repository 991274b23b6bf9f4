/*
 * p2p-side.h - one side of a point-to-point message as MPI gets it
 * (p2p-side.c): the layout of struct p2p_side (p2p.h) for the header
 * and the user's data, made before the call and undone after it.
 */
#ifndef CPPERF_PMPI_P2P_SIDE_H
#define CPPERF_PMPI_P2P_SIDE_H

#include <mpi.h>
#include <stdint.h>

#include "copy.h"
#include "p2p.h"

/* When a side's data are copied behind the header. */
enum p2p_copy {
	P2P_COPY_SMALL,	/* up to PMPI_P2P_SMALL bytes: a call that moves them now */
	P2P_COPY_ALWAYS,	/* whatever the size: MPI_Sendrecv_replace's send side */
	/* small and contiguous only: a receive request and a persistent
	 * send move them after the call, where a non-contiguous layout
	 * would be unpacked or packed through a datatype the program may
	 * have freed by then; MPI keeps it for the operation, and for the
	 * struct that carries the data in place */
	P2P_COPY_LATER,
};

/* Bytes a layout may copy into the stack and have its cost sampled
 * (cost_sampled): with the header's few stores, a short copy costs about
 * the same on every message. */
#define P2P_SAMPLED_COPY 256

/*
 * Lay a side out for MPI: the bounce buffer (the room when large enough,
 * else the heap) or the header alone and a derived datatype.
 */
int p2p_side_make(struct p2p_side *d, const void *buf, int count, MPI_Datatype type,
		  struct p2p_room room, enum p2p_copy how);
/* The datatype made for the call is no longer needed (MPI keeps it alive
 * for operations in flight). */
void p2p_side_untype(struct p2p_side *d);
/* A request's side when messages carry no header: followed for the
 * statistics only. */
struct p2p_side p2p_side_plain(const void *buf, int count, MPI_Datatype type);
/* The side's data packed into to (its bytes), an MPI error code. */
int p2p_pack(const struct p2p_side *d, unsigned char *to);
/* The same for data not in one piece, 0 < n <= d->bytes. */
void p2p_unpack_elements(const struct p2p_side *d, const unsigned char *from, uint64_t n);
/* n bytes of packed data into the user's buffer, as a receive of n bytes
 * would leave it: whole elements, then what came of the next one. */
static inline void p2p_unpack(const struct p2p_side *d, const unsigned char *from, uint64_t n)
{
	if (n > d->bytes)
		n = d->bytes;
	if (!n)
		return;
	if (d->contig)	/* a small message's usual case: inline */
		pmpi_copy(d->contig, from, n);
	else
		p2p_unpack_elements(d, from, n);
}

#endif
