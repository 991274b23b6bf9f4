/*
 * allreduce.c - the piggyback of a small MPI_Allreduce, MPI_Reduce,
 * MPI_Scan, MPI_Exscan, MPI_Reduce_scatter_block or MPI_Reduce_scatter,
 * and of MPI_Iallreduce, MPI_Ireduce or MPI_Iscan, carried inside it
 * (docs/mpi.md "Piggyback"): one allreduce (reduce, scan, ...) of
 * [piggyback | data] blocks with an operator of ours, which
 * merges the piggybacks and applies the program's operator to the data
 * with MPI_Reduce_local, instead of the user's call and a companion
 * after it.
 *
 * Every rank must decide alike, from what MPI makes the same on all of
 * them: a communicator the piggyback travels on (its groups), a
 * predefined operator, an intracommunicator, the size of the data
 * and a predefined datatype without padding (MPI_Reduce_local works on
 * the data packed) that the operator is defined on.  Where MPI refuses
 * the pair (a derived datatype, MPI_MAXLOC on MPI_INT, MPI_BAND on
 * MPI_DOUBLE), the program must get that error as without the tool.  And
 * a program cannot free a predefined datatype, so the entries kept below,
 * found by handle, never describe another datatype that took a freed
 * one's handle.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "datatypes.h"
#include "comms.h"
#include "copy.h"
#include "local-ops.h"
#include "piggyback.h"
#include "pb-units.h"
#include "p2p.h"

/* A (datatype, count, operator) seen before: the datatype of its fused
 * allreduce.  Found again by the operator from the datatype. */
struct pmpi_fused {
	MPI_Datatype type, bytes;	/* the program's, ours */
	int count, size;		/* the program's count; bytes */
	bool contig;			/* the data lies in one piece */
	MPI_Aint at;			/* from the buffer's address */
	MPI_Op op;
	pmpi_local_op *apply;		/* op on type by our loop, or NULL */
	struct pmpi_fused *next;
};

static struct pmpi_fused *known;	/* pushed with release, never removed */

/* Where a fused call's result goes: a reduce's root (>= 0), or */
enum { TO_ALL = -1, TO_PREFIX = -2, TO_EXPREFIX = -3 };
static MPI_Op fused_op = MPI_OP_NULL;
static pthread_once_t op_once = PTHREAD_ONCE_INIT;

/* The operator: the piggybacks merged, the data reduced as the program's
 * operator does, by our loop where there is one (local-ops.h), else by
 * MPI (flattened: the merge inline). */
__attribute__((flatten))
static void reduce(void *in, void *inout, int *len, MPI_Datatype *type)
{
	struct pmpi_fused *f;
	size_t unit;

	for (f = __atomic_load_n(&known, __ATOMIC_ACQUIRE); f && f->bytes != *type; f = f->next)
		;
	if (!f)
		return;
	unit = pmpi_pb_bytes + (size_t)f->size;
	for (int i = 0; i < *len; i++) {
		unsigned char *a = (unsigned char *)in + i * unit, *b = (unsigned char *)inout + i * unit;

		pmpi_pb_merge_into((const struct pmpi_pb *)(void *)a, (struct pmpi_pb *)(void *)b);
		if (f->apply)
			f->apply(a + pmpi_pb_bytes, b + pmpi_pb_bytes, f->count);
		else
			PMPI_Reduce_local(a + pmpi_pb_bytes, b + pmpi_pb_bytes, f->count, f->type,
					  f->op);
	}
}

static void make_op(void)
{
	PMPI_Op_create(reduce, 1, &fused_op);	/* predefined operators commute */
}

/* The entry of (type, count, op) when its allreduce can carry the
 * piggyback, NULL when not: cf is its communicator's facts when the
 * piggyback may ride on it (pmpi_pb_coll_fusable), else NULL. */
static struct pmpi_fused *fusable(MPI_Datatype type, int count, MPI_Op op,
				  const struct pmpi_comm_facts *cf)
{
	struct pmpi_fused *f;
	MPI_Aint at = 0;
	int64_t size = 0;
	bool contig = false;

	if (!cf || count <= 0)
		return NULL;
	for (f = __atomic_load_n(&known, __ATOMIC_ACQUIRE);
	     f && !(f->type == type && f->count == count && f->op == op); f = f->next)
		;
	if (f)		/* known entries passed the checks below */
		return f;
	if (!pmpi_op_defined_on(op, type) ||
	    (size = pmpi_type_layout(type, count, &contig, &at)) <= 0 ||
	    (uint64_t)size * (uint64_t)count > PMPI_PB_FUSED_MAX || !(f = calloc(1, sizeof(*f))))
		return NULL;
	*f = (struct pmpi_fused){ .type = type, .count = count, .op = op, .size = (int)size * count,
			     .contig = contig, .at = at, .apply = pmpi_local_op_find(op, type) };
	if (PMPI_Type_contiguous((int)pmpi_pb_bytes + f->size, MPI_BYTE, &f->bytes) != MPI_SUCCESS ||
	    PMPI_Type_commit(&f->bytes) != MPI_SUCCESS) {
		free(f);
		return NULL;
	}
	pthread_once(&op_once, make_op);
	f->next = __atomic_load_n(&known, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&known, &f->next, f, false, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
	return f;
}

/* Buffers MPI refuses (absent, one for both, MPI_IN_PLACE as the result
 * or, off the root, as the data) are not ours to copy: the program's call
 * goes to MPI, which returns its error.  The result's buffer counts only
 * where a result arrives: off a reduce's root it may be anything, the
 * data's own buffer included. */
static bool buffers_refused(const void *sbuf, const void *rbuf, bool result)
{
	if (!sbuf)
		return true;
	if (!result)
		return sbuf == MPI_IN_PLACE;
	return !rbuf || sbuf == rbuf || rbuf == MPI_IN_PLACE;
}

/* The same for a rank that gives data and gets no result, where
 * MPI_IN_PLACE still names its data (at rbuf): MPI_Exscan's rank 0, a
 * reduce-scatter's rank that receives nothing.  Such a rank may pass
 * no result buffer (Open MPI takes it), and must then decide as the
 * others do. */
static bool input_refused(const void *sbuf, const void *rbuf)
{
	return !sbuf || (sbuf == MPI_IN_PLACE && !rbuf);
}

/* The program's data at buf (f's count x datatype) copied or packed to
 * `to`, and back from `from`. */
static int data_in(const struct pmpi_fused *f, unsigned char *to, const void *buf)
{
	int pos = 0;

	if (!f->contig)
		return PMPI_Pack(buf, f->count, f->type, to, f->size, &pos, MPI_COMM_SELF);
	pmpi_copy(to, (const char *)buf + f->at, (size_t)f->size);
	return MPI_SUCCESS;
}

static int data_out(const struct pmpi_fused *f, const unsigned char *from, void *buf)
{
	int pos = 0;

	if (!f->contig)
		return PMPI_Unpack(from, f->size, &pos, buf, f->count, f->type, MPI_COMM_SELF);
	pmpi_copy((char *)buf + f->at, from, (size_t)f->size);
	return MPI_SUCCESS;
}

/* [piggyback | data] of every rank reduced to root (TO_ALL: to all,
 * TO_PREFIX: each rank's of the ranks up to it, TO_EXPREFIX: of those
 * before it), with entry f, from in to out: the piggyback's pbb bytes at
 * their start, the data behind them.  result: a result arrives here;
 * *moved once the piggybacks have (off the root, out stays in). */
static int reduce_message(struct pmpi_fused *f, unsigned char *in, unsigned char *out, size_t pbb,
			  const void *sbuf, void *rbuf, int root, MPI_Comm comm, bool result,
			  bool *moved)
{
	int rc = data_in(f, in + pbb, sbuf == MPI_IN_PLACE ? rbuf : sbuf);

	if (rc == MPI_SUCCESS)
		rc = root == TO_ALL ? PMPI_Allreduce(in, out, 1, f->bytes, fused_op, comm) :
		     root == TO_PREFIX ? PMPI_Scan(in, out, 1, f->bytes, fused_op, comm) :
		     root == TO_EXPREFIX ? PMPI_Exscan(in, out, 1, f->bytes, fused_op, comm) :
		     PMPI_Reduce(in, out, 1, f->bytes, fused_op, root, comm);
	if (rc != MPI_SUCCESS)
		return rc;
	*moved = true;
	return result ? data_out(f, out + pbb, rbuf) : rc;
}

/* The same where the data do not fit behind x's piggybacks, or for a
 * call not profiled (x NULL: a piggyback that says nothing): through
 * buffers of ours, out of line with them. */
__attribute__((noinline))
static int reduce_copied(struct pmpi_fused *f, struct pmpi_pb_coll *x, size_t pbb, const void *sbuf,
			 void *rbuf, int root, MPI_Comm comm, bool result)
{
	_Alignas(struct pmpi_pb) unsigned char in[sizeof(struct pmpi_pb) + PMPI_PB_FUSED_MAX];
	_Alignas(struct pmpi_pb) unsigned char out[sizeof(struct pmpi_pb) + PMPI_PB_FUSED_MAX];
	bool moved = false;
	int rc;

	pmpi_pb_coll_put(in, x, pbb);
	rc = reduce_message(f, in, out, pbb, sbuf, rbuf, root, comm, result, &moved);
	if (x && moved) {
		x->fused = true;
		if (result)
			memcpy(&x->out, out, pbb);
	}
	return rc;
}

/* The fused call with entry f on the communicator of facts cf; x is
 * NULL for a call not profiled; quick: as call.h says (the piggyback's
 * core alone).  The common case, data that fit behind the piggyback in
 * its struct, moves x->in to x->out: no copy of the piggyback either
 * way. */
static int fused_reduce(struct pmpi_fused *f, struct pmpi_pb_coll *x, const void *sbuf, void *rbuf,
			int root, const struct pmpi_comm_facts *cf, enum pmpi_way quick)
{
	size_t pbb = pmpi_pb_size(quick);
	bool result = root == TO_EXPREFIX ? cf->rank > 0 :	/* rank 0's: none */
		      root < 0 || cf->rank == root;
	MPI_Comm comm = cf->comm;

	if (!x || !pmpi_pb_fits_behind(pbb, (uint64_t)f->size))
		return reduce_copied(f, x, pbb, sbuf, rbuf, root, comm, result);
	return reduce_message(f, (unsigned char *)&x->in, (unsigned char *)&x->out, pbb, sbuf,
			      rbuf, root, comm, result, &x->fused);
}

/* Flattened, as the small sends and receives (p2p.c): the entry's lookup
 * and the fused call inline, a frame each less on every call. */
__attribute__((flatten))
int pmpi_x_allreduce(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		     MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick)
{
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *cf = pmpi_pb_coll_fusable(x, comm, quick, &own);
	struct pmpi_fused *f = fusable(type, count, op, cf);

	if (!f || buffers_refused(sbuf, rbuf, true))
		return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
	return fused_reduce(f, x, sbuf, rbuf, TO_ALL, cf, quick);
}

__attribute__((flatten))
int pmpi_x_reduce(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		  MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, enum pmpi_way quick)
{
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *cf = pmpi_pb_coll_fusable(x, comm, quick, &own);
	struct pmpi_fused *f = fusable(type, count, op, cf);

	if (!f || root < 0 || buffers_refused(sbuf, rbuf, cf->rank == root))
		return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
	return fused_reduce(f, x, sbuf, rbuf, root, cf, quick);
}

__attribute__((flatten))
int pmpi_x_scan(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick)
{
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *cf = pmpi_pb_coll_fusable(x, comm, quick, &own);
	struct pmpi_fused *f = fusable(type, count, op, cf);

	if (!f || buffers_refused(sbuf, rbuf, true))
		return PMPI_Scan(sbuf, rbuf, count, type, op, comm);
	return fused_reduce(f, x, sbuf, rbuf, TO_PREFIX, cf, quick);
}

int pmpi_x_exscan(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick)
{
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *cf = pmpi_pb_coll_fusable(x, comm, quick, &own);
	struct pmpi_fused *f = fusable(type, count, op, cf);
	int rc;

	if (!f || (cf->rank ? buffers_refused(sbuf, rbuf, true) : input_refused(sbuf, rbuf)))
		return PMPI_Exscan(sbuf, rbuf, count, type, op, comm);
	rc = fused_reduce(f, x, sbuf, rbuf, TO_EXPREFIX, cf, quick);
	if (x && x->fused)
		pmpi_pb_coll_exclusive(x, cf->rank == 0, pmpi_pb_size(quick));
	return rc;
}

/* The smallest count from `count` on whose data are a multiple of 8
 * bytes for elements of esize bytes: a reduce-scatter's blocks padded
 * to it keep each block's piggyback aligned where Open MPI applies the
 * operator to runs of blocks. */
static int aligned_count(int count, int64_t esize)
{
	while ((uint64_t)count * (uint64_t)esize % 8)
		count++;
	return count;
}

/* Whether a reduce-scatter of n blocks (one a rank of the communicator
 * of facts cf, NULL when the piggyback does not ride on it) of up to most
 * x type fits in PMPI_PB_GATHER_ROOM bytes of [piggyback | data] blocks:
 * the entry of its padded blocks, or NULL. */
static struct pmpi_fused *scatter_fusable(MPI_Datatype type, int most, MPI_Op op,
					   const struct pmpi_comm_facts *cf, enum pmpi_way quick)
{
	int64_t esize = pmpi_type_size(type);
	int n = cf ? cf->size : 0;
	struct pmpi_fused *f;

	if (most <= 0 || esize <= 0 || n <= 0 || (uint64_t)most * (uint64_t)esize > PMPI_PB_FUSED_MAX ||
	    !(f = fusable(type, aligned_count(most, esize), op, cf)) || !f->contig ||
	    (pmpi_pb_size(quick) + (size_t)f->size) * (size_t)n > PMPI_PB_GATHER_ROOM)
		return NULL;
	return f;
}

/*
 * A reduce-scatter of n blocks of counts[j] (or, counts NULL, each of
 * count) x type, f's count the largest padded (aligned_count): n
 * [piggyback | data | zeros] blocks reduced and scattered, one to each
 * rank.  The zeros are reduced with the rest and dropped.
 */
static void scatter_blocks(unsigned char *in, struct pmpi_fused *f, struct pmpi_pb_coll *x,
			   size_t pbb, const void *sbuf, void *rbuf, const int *counts, int count,
			   int n)
{
	size_t unit = pbb + (size_t)f->size, esize = (size_t)f->size / (size_t)f->count, at = 0, bytes;
	const char *data = (const char *)(sbuf == MPI_IN_PLACE ? rbuf : sbuf) + f->at;

	for (int j = 0; j < n; j++, at += bytes) {
		bytes = (size_t)(counts ? counts[j] : count) * esize;
		pmpi_pb_coll_put(in + j * unit, x, pbb);
		pmpi_copy(in + j * unit + pbb, data + at, bytes);
		memset(in + j * unit + pbb + bytes, 0, (size_t)f->size - bytes);
	}
}

/* The bytes of data the block of rank me of a reduce-scatter holds. */
static size_t scattered_bytes(const struct pmpi_fused *f, const int *counts, int count, int me)
{
	int c = counts ? counts[me] : count;

	return (size_t)c * ((size_t)f->size / (size_t)f->count);
}

/* Blocking, all the blocks on the stack. */
static int reduce_scatter_fused(struct pmpi_fused *f, struct pmpi_pb_coll *x, const void *sbuf,
				void *rbuf, const int *counts, int count,
				const struct pmpi_comm_facts *cf, enum pmpi_way quick)
{
	_Alignas(struct pmpi_pb) unsigned char in[PMPI_PB_GATHER_ROOM], out[PMPI_PB_GATHER_ROOM];
	size_t pbb = pmpi_pb_size(quick), bytes;
	int rc;

	scatter_blocks(in, f, x, pbb, sbuf, rbuf, counts, count, cf->size);
	rc = PMPI_Reduce_scatter_block(in, out, 1, f->bytes, fused_op, cf->comm);
	if (rc != MPI_SUCCESS)
		return rc;
	bytes = scattered_bytes(f, counts, count, cf->rank);
	if (bytes)	/* a rank that gets nothing may have no buffer for it */
		pmpi_copy((char *)rbuf + f->at, out + pbb, bytes);
	if (x) {
		pmpi_copy_mostly(&x->out, out, pbb, PMPI_PB_CORE);
		x->fused = true;
	}
	return rc;
}

/* Non-blocking (x profiled, on the heap): the blocks kept until the
 * request completes, this rank's result in x->out when it fits behind
 * the piggyback there (the same on every rank: f's size is), its data
 * copied out once the request has completed; -1: not for this call. */
static int ireduce_scatter_fused(struct pmpi_fused *f, struct pmpi_pb_coll *x, const void *sbuf,
				 void *rbuf, const int *counts, int count, MPI_Request *req)
{
	size_t pbb = pmpi_pb_size(false), bytes;
	int n = x->cf.size, rc;
	unsigned char *in;

	if (!pmpi_pb_fits_behind(pbb, (uint64_t)f->size))
		return -1;
	in = pmpi_pb_room_keep(x, (size_t)n * (pbb + (size_t)f->size));
	scatter_blocks(in, f, x, pbb, sbuf, rbuf, counts, count, n);
	rc = PMPI_Ireduce_scatter_block(in, &x->out, 1, f->bytes, fused_op, x->cf.comm, req);
	if (rc != MPI_SUCCESS) {
		pmpi_pb_room_free(x);
		return rc;
	}
	bytes = scattered_bytes(f, counts, count, x->cf.rank);
	x->fused = true;
	x->out_to = bytes ? (char *)rbuf + f->at : NULL;
	x->out_at = (uint32_t)pbb;
	x->out_bytes = (uint32_t)bytes;
	return rc;
}

/* A reduce-scatter-block's entry, NULL when it goes its own way. */
static struct pmpi_fused *block_fusable(const void *sbuf, const void *rbuf, int count,
					MPI_Datatype type, MPI_Op op,
					const struct pmpi_comm_facts *cf, enum pmpi_way quick)
{
	struct pmpi_fused *f = scatter_fusable(type, count, op, cf, quick);

	return f && !buffers_refused(sbuf, rbuf, true) ? f : NULL;
}

int pmpi_x_reduce_scatter_block(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
				MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick)
{
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *cf = pmpi_pb_coll_fusable(x, comm, quick, &own);
	struct pmpi_fused *f = block_fusable(sbuf, rbuf, count, type, op, cf, quick);

	if (!f)
		return PMPI_Reduce_scatter_block(sbuf, rbuf, count, type, op, comm);
	return reduce_scatter_fused(f, x, sbuf, rbuf, NULL, count, cf, quick);
}

int pmpi_x_ireduce_scatter_block(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
				 MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	struct pmpi_fused *f = block_fusable(sbuf, rbuf, count, type, op,
					     pmpi_pb_coll_fusable(x, comm, false, NULL), false);
	int rc = f ? ireduce_scatter_fused(f, x, sbuf, rbuf, NULL, count, req) : -1;

	return rc >= 0 ? rc : PMPI_Ireduce_scatter_block(sbuf, rbuf, count, type, op, comm, req);
}

/* The largest of a reduce-scatter's n counts, -1 when one is negative
 * (MPI's error then) or when n blocks would not fit in the stack's room
 * with any piggyback (their counts are not read through then). */
static int largest_count(const int *counts, int n, enum pmpi_way quick)
{
	int most = 0;

	if (!counts || n <= 0 || (size_t)n * (pmpi_pb_size(quick) + 8) > PMPI_PB_GATHER_ROOM)
		return -1;
	for (int j = 0; j < n; j++) {
		if (counts[j] < 0)
			return -1;
		most = counts[j] > most ? counts[j] : most;
	}
	return most;
}

/* A reduce-scatter's entry, NULL when it goes its own way.  Every rank
 * passes the same counts (MPI's rule), so all find the same largest one
 * and decide alike. */
static struct pmpi_fused *counts_fusable(const void *sbuf, const void *rbuf, const int *counts,
					 MPI_Datatype type, MPI_Op op,
					 const struct pmpi_comm_facts *cf, enum pmpi_way quick)
{
	int most = cf ? largest_count(counts, cf->size, quick) : -1;
	struct pmpi_fused *f = most > 0 ? scatter_fusable(type, most, op, cf, quick) : NULL;

	if (!f || (counts[cf->rank] ? buffers_refused(sbuf, rbuf, true) :
		   input_refused(sbuf, rbuf)))
		return NULL;
	return f;
}

int pmpi_x_reduce_scatter(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, const int *counts,
			  MPI_Datatype type, MPI_Op op, MPI_Comm comm, enum pmpi_way quick)
{
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *cf = pmpi_pb_coll_fusable(x, comm, quick, &own);
	struct pmpi_fused *f = counts_fusable(sbuf, rbuf, counts, type, op, cf, quick);

	if (!f)
		return PMPI_Reduce_scatter(sbuf, rbuf, counts, type, op, comm);
	return reduce_scatter_fused(f, x, sbuf, rbuf, counts, 0, cf, quick);
}

int pmpi_x_ireduce_scatter(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf,
			   const int *counts, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
			   MPI_Request *req)
{
	struct pmpi_fused *f = counts_fusable(sbuf, rbuf, counts, type, op,
					      pmpi_pb_coll_fusable(x, comm, false, NULL), false);
	int rc = f ? ireduce_scatter_fused(f, x, sbuf, rbuf, counts, 0, req) : -1;

	return rc >= 0 ? rc : PMPI_Ireduce_scatter(sbuf, rbuf, counts, type, op, comm, req);
}

/*
 * A profiled MPI_Iallreduce, MPI_Ireduce, MPI_Iscan or MPI_Iexscan (x
 * on the heap until its request completes) whose contiguous data fit
 * behind the piggyback in x's own struct: x->in to x->out, and the data
 * to the program's buffer where a result arrives, once the request has
 * completed (pmpi_pb_coll_data_out, before the program sees them; an
 * exclusive scan's piggyback is finished then, as the blocking one's).
 * Every rank passes the same predefined datatype, so all decide alike.
 * A call not profiled (x NULL) goes plain, as on every rank: nested
 * calls, and those outside MPI_Init and MPI_Finalize.  -1: not for this
 * call.
 */
static int ireduce_fused(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
			 MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
	struct pmpi_fused *f = fusable(type, count, op, pmpi_pb_coll_fusable(x, comm, false, NULL));
	size_t pbb = pmpi_pb_size(false);
	int me = x ? x->cf.rank : 0, rc;
	bool result = root == TO_EXPREFIX ? me > 0 : root < 0 || me == root;

	if (!f || !f->contig || !pmpi_pb_fits_behind(pbb, (uint64_t)f->size) ||
	    (result ? buffers_refused(sbuf, rbuf, true) : input_refused(sbuf, rbuf)))
		return -1;
	rc = data_in(f, (unsigned char *)&x->in + pbb, sbuf == MPI_IN_PLACE ? rbuf : sbuf);
	if (rc == MPI_SUCCESS)
		rc = root == TO_ALL ? PMPI_Iallreduce(&x->in, &x->out, 1, f->bytes, fused_op, comm, req) :
		     root == TO_PREFIX ? PMPI_Iscan(&x->in, &x->out, 1, f->bytes, fused_op, comm, req) :
		     root == TO_EXPREFIX ? PMPI_Iexscan(&x->in, &x->out, 1, f->bytes, fused_op, comm, req) :
		     PMPI_Ireduce(&x->in, &x->out, 1, f->bytes, fused_op, root, comm, req);
	if (rc == MPI_SUCCESS) {
		x->fused = true;
		x->exclusive = root == TO_EXPREFIX;
		x->first = me == 0;
		x->out_to = result ? (char *)rbuf + f->at : NULL;
		x->out_at = (uint32_t)pbb;
		x->out_bytes = (uint32_t)f->size;
	}
	return rc;
}

int pmpi_x_iallreduce(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		      MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	int rc = ireduce_fused(x, sbuf, rbuf, count, type, op, TO_ALL, comm, req);

	return rc >= 0 ? rc : PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req);
}

int pmpi_x_ireduce(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		   MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
	int rc = root >= 0 ? ireduce_fused(x, sbuf, rbuf, count, type, op, root, comm, req) : -1;

	return rc >= 0 ? rc : PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req);
}

int pmpi_x_iscan(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		 MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	int rc = ireduce_fused(x, sbuf, rbuf, count, type, op, TO_PREFIX, comm, req);

	return rc >= 0 ? rc : PMPI_Iscan(sbuf, rbuf, count, type, op, comm, req);
}

int pmpi_x_iexscan(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		   MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	int rc = ireduce_fused(x, sbuf, rbuf, count, type, op, TO_EXPREFIX, comm, req);

	return rc >= 0 ? rc : PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, req);
}

void pmpi_x_allreduce_stop(void)
{
	while (known) {
		struct pmpi_fused *f = known;

		known = f->next;
		PMPI_Type_free(&f->bytes);
		free(f);
	}
	if (fused_op != MPI_OP_NULL)
		PMPI_Op_free(&fused_op);
}
