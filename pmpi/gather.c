/*
 * gather.c - the piggyback of a small MPI_Gather, MPI_Scatter,
 * MPI_Allgather, MPI_Allgatherv or MPI_Alltoall carried inside it
 * (docs/mpi.md "Piggyback"): every block the call moves becomes
 * [piggyback | data], moved as bytes through buffers of ours, instead of
 * the user's call and a companion collective after it.  A gather's root
 * and every rank of the others merge the piggybacks they received; a
 * scatter's ranks take the root's.
 *
 * Every rank decides alike from what MPI makes the same on all of them:
 * the communicator, its size and the sizes of the blocks (the type
 * signatures of the two sides match; an allgatherv's counts are known to
 * all).  All the blocks of a call fit in a buffer on the stack
 * (PMPI_PB_GATHER_ROOM: 2 ranks with 1 KiB each and a job's whole
 * piggyback, 39 with 8 bytes each and the core alone), so that no rank
 * can fail to make a call the others make.  A block's data are copied
 * (contiguous) or packed behind its piggyback and copied or unpacked out
 * of it, in the layout each rank gives its own buffers.
 */
#include "comms.h"
#include "copy.h"
#include "datatypes.h"
#include "piggyback.h"

/* One side of the call: count x type per rank, rank i's at buf + i x
 * stride; bytes of data, laid out in one piece at `at` from each rank's
 * address when contig. */
struct side {
	char *buf;
	int count;
	MPI_Datatype type;
	MPI_Aint extent, stride, at;
	bool contig;
	size_t bytes;
};

/* The side of count x type at buf; false when MPI refuses it (its call
 * then returns MPI's error): a count or datatype MPI refuses, data read
 * or written through a null pointer, or MPI_IN_PLACE where the call
 * takes none. */
static bool side_of(struct side *s, const void *buf, int count, MPI_Datatype type)
{
	const struct pmpi_named *n = pmpi_named_find(type);
	MPI_Aint lb, extent;
	int64_t size;

	if (buf == MPI_IN_PLACE || count < 0)
		return false;
	if (n) {	/* its elements lie end to end */
		s->contig = true;
		s->at = 0;
		size = extent = n->size;
	} else if ((size = pmpi_type_layout_asked(type, count, &s->contig, &s->at)) < 0 ||
		   PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS) {
		return false;
	}
	s->buf = (char *)buf;
	s->count = count;
	s->type = type;
	s->extent = extent;
	s->stride = extent * count;
	s->bytes = (size_t)size * (size_t)count;
	return !(s->bytes && !buf && s->contig && !s->at);
}

/* Rank i's data from s into the block's data at d. */
static int put(const struct side *s, int i, unsigned char *d)
{
	char *from = s->buf + (MPI_Aint)i * s->stride;
	int pos = 0;

	if (!s->contig)
		return PMPI_Pack(from, s->count, s->type, d, (int)s->bytes, &pos, MPI_COMM_SELF);
	pmpi_copy(d, from + s->at, s->bytes);
	return MPI_SUCCESS;
}

/* The block's data at d into rank i's place in s. */
static int take(const struct side *s, int i, const unsigned char *d)
{
	char *to = s->buf + (MPI_Aint)i * s->stride;
	int pos = 0;

	if (!s->contig)
		return PMPI_Unpack(d, (int)s->bytes, &pos, to, s->count, s->type, MPI_COMM_SELF);
	pmpi_copy(to + s->at, d, s->bytes);
	return MPI_SUCCESS;
}

/* The size of one block of bytes of data behind a piggyback of pbb
 * bytes, aligned for the next block's piggyback; 0 when it holds more
 * than PMPI_PB_FUSED_MAX bytes of data. */
static size_t block_size(size_t pbb, size_t bytes)
{
	return bytes <= PMPI_PB_FUSED_MAX ? pbb + ((bytes + 7) & ~(size_t)7) : 0;
}

/* The size of each of n blocks of the data this rank reads (s) or
 * writes (r), NULL where it has none; 0 when they do not all fit in the
 * call's buffers, or when the two sides differ in size (MPI's error
 * then, not a copy of ours past a block). */
static size_t blocks_of(const struct side *s, const struct side *r, size_t pbb, int n)
{
	size_t b;

	if (s && r && s->bytes != r->bytes)
		return 0;
	b = block_size(pbb, (s ? s : r)->bytes);
	return n > 0 && b * (size_t)n <= PMPI_PB_GATHER_ROOM ? b : 0;
}

/* Where rank i's block lies in a call's buffer: at i x size, or at at[i]
 * when the blocks differ in size. */
struct blocks {
	size_t size;
	const int *at;
};

static size_t block_at(const struct blocks *k, int i)
{
	return k->at ? (size_t)k->at[i] : (size_t)i * k->size;
}

/* Each block's data into its rank's place in s, but this rank's (me)
 * when it is there already (-1: none is). */
static int take_all(const struct side *s, const unsigned char *m, size_t b, size_t pbb, int n,
		    int me)
{
	int rc = MPI_SUCCESS;

	for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
		if (i != me)
			rc = take(s, i, m + i * b + pbb);
	return rc;
}

/* x's received piggyback is its own merged with those of the n blocks k
 * at m but this rank's (me), which is its own. */
static void fuse_all(struct pmpi_pb_coll *x, const unsigned char *m, const struct blocks *k,
		     size_t pbb, int n, int me)
{
	if (!x)
		return;
	pmpi_copy_mostly(&x->out, &x->in, pbb, PMPI_PB_CORE);
	for (int i = 0; i < n; i++)
		if (i != me)
			pmpi_pb_merge_into((const struct pmpi_pb *)(const void *)(m + block_at(k, i)),
					   &x->out);
	x->fused = true;
}

int pmpi_x_gather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		  void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, bool quick)
{
	_Alignas(struct pmpi_pb) unsigned char m[PMPI_PB_GATHER_ROOM];
	size_t pbb = pmpi_pb_size(quick), b;
	int me, n, rc;
	bool in_place;
	struct side s, r;

	if (!pmpi_pb_coll_fusable(comm, quick))
		return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
	me = pmpi_comm_rank(comm);
	n = pmpi_comm_size(comm);
	in_place = me == root && sbuf == MPI_IN_PLACE;
	if ((!in_place && !side_of(&s, sbuf, scount, stype)) ||
	    (me == root && !side_of(&r, rbuf, rcount, rtype)) ||
	    !(b = blocks_of(in_place ? NULL : &s, me == root ? &r : NULL, pbb, n)))
		return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
	if (me != root) {
		pmpi_pb_coll_put(m, x, pbb);
		rc = put(&s, 0, m + pbb);
		if (rc == MPI_SUCCESS)
			rc = PMPI_Gather(m, (int)b, MPI_BYTE, NULL, 0, MPI_BYTE, root, comm);
		if (rc == MPI_SUCCESS && x)
			x->fused = true;	/* x->out stays its own */
		return rc;
	}
	pmpi_pb_coll_put(m + (size_t)me * b, x, pbb);
	rc = in_place ? MPI_SUCCESS : put(&s, 0, m + (size_t)me * b + pbb);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Gather(MPI_IN_PLACE, 0, MPI_BYTE, m, (int)b, MPI_BYTE, root, comm);
	if (rc == MPI_SUCCESS)
		rc = take_all(&r, m, b, pbb, n, in_place ? me : -1);
	if (rc == MPI_SUCCESS)
		fuse_all(x, m, &(struct blocks){ b, NULL }, pbb, n, me);
	return rc;
}

int pmpi_x_scatter(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		   void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, bool quick)
{
	_Alignas(struct pmpi_pb) unsigned char m[PMPI_PB_GATHER_ROOM];
	size_t pbb = pmpi_pb_size(quick), b;
	int me, n, rc = MPI_SUCCESS;
	bool in_place;
	struct side s, r;

	if (!pmpi_pb_coll_fusable(comm, quick))
		return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
	me = pmpi_comm_rank(comm);
	n = pmpi_comm_size(comm);
	in_place = me == root && rbuf == MPI_IN_PLACE;
	if ((me == root && !side_of(&s, sbuf, scount, stype)) ||
	    (!in_place && !side_of(&r, rbuf, rcount, rtype)) ||
	    !(b = blocks_of(me == root ? &s : NULL, in_place ? NULL : &r, pbb, n)))
		return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
	if (me != root) {
		rc = PMPI_Scatter(NULL, 0, MPI_BYTE, m, (int)b, MPI_BYTE, root, comm);
		if (rc == MPI_SUCCESS)
			rc = take(&r, 0, m + pbb);
		if (rc == MPI_SUCCESS && x) {
			pmpi_copy_mostly(&x->out, m, pbb, PMPI_PB_CORE);
			x->fused = true;
		}
		return rc;
	}
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
		pmpi_pb_coll_put(m + (size_t)i * b, x, pbb);
		rc = put(&s, i, m + (size_t)i * b + pbb);
	}
	if (rc == MPI_SUCCESS)
		rc = PMPI_Scatter(m, (int)b, MPI_BYTE, MPI_IN_PLACE, 0, MPI_BYTE, root, comm);
	if (rc == MPI_SUCCESS && !in_place)
		rc = take(&r, 0, m + (size_t)me * b + pbb);
	if (rc == MPI_SUCCESS && x)
		x->fused = true;	/* x->out stays its own */
	return rc;
}

int pmpi_x_allgather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		     void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, bool quick)
{
	_Alignas(struct pmpi_pb) unsigned char m[PMPI_PB_GATHER_ROOM];
	size_t pbb = pmpi_pb_size(quick), b;
	int me, n, rc;
	bool in_place = sbuf == MPI_IN_PLACE;
	struct side s, r;

	if (!pmpi_pb_coll_fusable(comm, quick))
		return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
	me = pmpi_comm_rank(comm);
	n = pmpi_comm_size(comm);
	if (!side_of(&r, rbuf, rcount, rtype) || (!in_place && !side_of(&s, sbuf, scount, stype)) ||
	    !(b = blocks_of(in_place ? NULL : &s, &r, pbb, n)))
		return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
	pmpi_pb_coll_put(m + (size_t)me * b, x, pbb);
	rc = in_place ? put(&r, me, m + (size_t)me * b + pbb) : put(&s, 0, m + (size_t)me * b + pbb);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Allgather(MPI_IN_PLACE, 0, MPI_BYTE, m, (int)b, MPI_BYTE, comm);
	if (rc == MPI_SUCCESS)
		rc = take_all(&r, m, b, pbb, n, in_place ? me : -1);
	if (rc == MPI_SUCCESS)
		fuse_all(x, m, &(struct blocks){ b, NULL }, pbb, n, me);
	return rc;
}

int pmpi_x_alltoall(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		    void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, bool quick)
{
	_Alignas(struct pmpi_pb) unsigned char out[PMPI_PB_GATHER_ROOM], in[PMPI_PB_GATHER_ROOM];
	size_t pbb = pmpi_pb_size(quick), b;
	int me, n, rc = MPI_SUCCESS;
	struct side s, r;

	if (!pmpi_pb_coll_fusable(comm, quick))
		return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
	me = pmpi_comm_rank(comm);
	n = pmpi_comm_size(comm);
	if (!side_of(&r, rbuf, rcount, rtype) ||
	    (sbuf != MPI_IN_PLACE && !side_of(&s, sbuf, scount, stype)) ||
	    !(b = blocks_of(sbuf == MPI_IN_PLACE ? NULL : &s, &r, pbb, n)))
		return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
		pmpi_pb_coll_put(out + (size_t)i * b, x, pbb);
		rc = put(sbuf == MPI_IN_PLACE ? &r : &s, i, out + (size_t)i * b + pbb);
	}
	if (rc == MPI_SUCCESS)
		rc = PMPI_Alltoall(out, (int)b, MPI_BYTE, in, (int)b, MPI_BYTE, comm);
	if (rc == MPI_SUCCESS)
		rc = take_all(&r, in, b, pbb, n, -1);
	if (rc == MPI_SUCCESS)
		fuse_all(x, in, &(struct blocks){ b, NULL }, pbb, n, me);
	return rc;
}

/* The n blocks of an allgatherv's result, each rank's count x type at
 * its displacement in extents from r's buffer: their sizes bc and
 * places bd in the call's buffer, and each one's side in v; false
 * when they do not all fit in it. */
static bool slots_of(const struct side *r, const int *counts, const int *displs, size_t pbb, int n,
		     int *bc, int *bd, struct side *v)
{
	size_t total = 0, b;

	if (!counts || !displs || n <= 0 || (size_t)n > PMPI_PB_GATHER_ROOM / pbb)
		return false;
	for (int i = 0; i < n; i++) {
		if (!side_of(&v[i], r->buf + (MPI_Aint)displs[i] * r->extent, counts[i], r->type) ||
		    !(b = block_size(pbb, v[i].bytes)) || (total += b) > PMPI_PB_GATHER_ROOM)
			return false;
		bc[i] = (int)b;
		bd[i] = (int)(total - b);
	}
	return true;
}

int pmpi_x_allgatherv(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		      void *rbuf, const int *rcounts, const int *displs, MPI_Datatype rtype,
		      MPI_Comm comm, bool quick)
{
	enum { MOST = PMPI_PB_GATHER_ROOM / PMPI_PB_CORE };
	_Alignas(struct pmpi_pb) unsigned char m[PMPI_PB_GATHER_ROOM];
	int bc[MOST], bd[MOST], me, n, rc;
	size_t pbb = pmpi_pb_size(quick);
	bool in_place = sbuf == MPI_IN_PLACE;
	struct side s, r, v[MOST];

	if (!pmpi_pb_coll_fusable(comm, quick))
		return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
	me = pmpi_comm_rank(comm);
	n = pmpi_comm_size(comm);
	if (!side_of(&r, rbuf, 0, rtype) || !slots_of(&r, rcounts, displs, pbb, n, bc, bd, v) ||
	    (!in_place && (!side_of(&s, sbuf, scount, stype) || s.bytes != v[me].bytes)))
		return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
	pmpi_pb_coll_put(m + bd[me], x, pbb);
	rc = put(in_place ? &v[me] : &s, 0, m + bd[me] + pbb);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, m, bc, bd, MPI_BYTE, comm);
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
		if (i != me || !in_place)
			rc = take(&v[i], 0, m + bd[i] + pbb);
	if (rc == MPI_SUCCESS)
		fuse_all(x, m, &(struct blocks){ 0, bd }, pbb, n, me);
	return rc;
}
