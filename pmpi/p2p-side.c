/*
 * p2p-side.c - one side of a point-to-point message as MPI gets it
 * (p2p-side.h): the user's data described, copied behind the header or
 * wrapped with it in a derived datatype, and taken back out at a
 * receive.  p2p.c sends and receives the sides.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "datatypes.h"
#include "piggyback.h"
#include "p2p.h"
#include "copy.h"
#include "p2p-side.h"
#include "wire.h"
#include "wrap-types.h"

static void describe(struct p2p_side *d, const void *buf, int count, MPI_Datatype type)
{
	MPI_Aint at;
	bool contig;
	int64_t size = pmpi_type_layout(type, count, &contig, &at);

	d->ubuf = (void *)(uintptr_t)buf;	/* a send's: only read */
	d->count = count;
	d->type = type;
	d->contig = contig ? (void *)((uintptr_t)buf + (uintptr_t)at) : NULL;
	if (size < 0 || count < 0)
		size = 0;
	d->tsize = size;
	d->bytes = (uint64_t)size * (uint64_t)(count > 0 ? count : 0);
}

int p2p_pack(const struct p2p_side *d, unsigned char *to)
{
	int pos = 0;

	if (!d->bytes)
		return MPI_SUCCESS;
	if (d->contig) {
		pmpi_copy(to, d->contig, d->bytes);
		return MPI_SUCCESS;
	}
	return PMPI_Pack(d->ubuf, d->count, d->type, to, (int)d->bytes, &pos, MPI_COMM_SELF);
}

/* The last r bytes of n that came for element k, which they fill in part:
 * placed by MPI itself, as a receive of them into that element would (a
 * message to this process), since only MPI knows where the typemap puts
 * its first bytes. */
static void unpack_part(const struct p2p_side *d, const unsigned char *from, int r, uint64_t k)
{
	MPI_Aint lb, extent;
	void *at;

	if (PMPI_Type_get_extent(d->type, &lb, &extent) != MPI_SUCCESS)
		return;
	at = (void *)((uintptr_t)d->ubuf + (uintptr_t)(k * (uint64_t)extent));
	PMPI_Sendrecv(from, r, MPI_BYTE, 0, 0, at, 1, d->type, 0, 0, MPI_COMM_SELF,
		      MPI_STATUS_IGNORE);
}

/* Whole elements through MPI_Unpack, then what came of the next one. */
void p2p_unpack_elements(const struct p2p_side *d, const unsigned char *from, uint64_t n)
{
	uint64_t whole;
	int pos = 0;

	if (!d->tsize)
		return;
	whole = n / (uint64_t)d->tsize;
	if (whole)
		PMPI_Unpack(from, (int)n, &pos, d->ubuf, (int)whole, d->type, MPI_COMM_SELF);
	if (n % (uint64_t)d->tsize)
		unpack_part(d, from + whole * (uint64_t)d->tsize, (int)(n % (uint64_t)d->tsize), whole);
}

/* The datatype of one header block at hdr and the user's data. */
static int wrap_type(struct p2p_side *d)
{
	if (d->contig && d->bytes <= INT_MAX)
		return pmpi_wrap_type(d->hdr, (int)pmpi_wire.len, d->contig, (int)d->bytes, &d->mtype,
				      &d->own_type);
	d->own_type = true;
	return pmpi_wrap_struct(d->hdr, (int)pmpi_wire.len, d->ubuf, d->count, d->type, &d->mtype);
}

static void heap_put(struct p2p_side *d)
{
	free(d->heap);
	d->heap = NULL;
}

/*
 * Lay a side out for MPI: the bounce buffer (the room when large enough,
 * else the heap) or the header alone and a derived datatype.
 */
int p2p_side_make(struct p2p_side *d, const void *buf, int count, MPI_Datatype type,
		  struct p2p_room room, enum p2p_copy how)
{
	unsigned len = pmpi_wire.len;
	int rc;

	describe(d, buf, count, type);
	d->heap = NULL;
	d->mtype = MPI_DATATYPE_NULL;
	d->own_type = false;
	d->unpacked = false;
	/* MPICH refuses to pack from or unpack to MPI_BOTTOM: absolute
	 * addresses go through the struct instead */
	d->packed = how == P2P_COPY_ALWAYS ||
		    (d->bytes <= PMPI_P2P_SMALL &&
		     (d->contig || (how == P2P_COPY_SMALL && buf != MPI_BOTTOM)));
	if (d->packed && d->bytes + len > (uint64_t)INT_MAX)
		return MPI_ERR_COUNT;
	/* a room holds a header at least; a blocking call's header on its
	 * stack stays at one place from call to call, which lets its
	 * datatype be reused (wrap-types.c) */
	d->kept = room.kept;
	if (d->packed && len + d->bytes > room.size) {
		room.at = d->heap = malloc(len + d->bytes);
		d->kept = true;
	}
	if (!room.at)
		return MPI_ERR_NO_MEM;
	d->hdr = room.at;
	wire_clear(d->hdr);	/* a receive's: MPI may fail before it writes one */
	if (d->packed) {
		d->mbuf = room.at;
		d->mcount = (int)(len + d->bytes);
		d->mtype = MPI_BYTE;
		return MPI_SUCCESS;
	}
	rc = wrap_type(d);
	if (rc != MPI_SUCCESS) {
		heap_put(d);
		return rc;
	}
	d->mbuf = MPI_BOTTOM;
	d->mcount = 1;
	return MPI_SUCCESS;
}

/* The datatype made for the call is no longer needed (MPI keeps it alive
 * for operations in flight). */
void p2p_side_untype(struct p2p_side *d)
{
	if (d->own_type && d->hdr && d->mtype != MPI_DATATYPE_NULL)
		PMPI_Type_free(&d->mtype);
	d->mtype = MPI_DATATYPE_NULL;
}

/* A request's side when messages carry no header: followed for the
 * statistics only. */
struct p2p_side p2p_side_plain(const void *buf, int count, MPI_Datatype type)
{
	struct p2p_side d = { .mtype = MPI_DATATYPE_NULL };

	describe(&d, buf, count, type);
	return d;
}

void pmpi_p2p_release(struct p2p_side *d)
{
	p2p_side_untype(d);
	heap_put(d);
}
