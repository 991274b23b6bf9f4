/*
 * gather.c - the piggyback of a small MPI_Gather, MPI_Scatter,
 * MPI_Allgather, MPI_Allgatherv or MPI_Alltoall, blocking or not,
 * carried inside it (docs/mpi.md "Piggyback"): every block the call
 * moves becomes [piggyback | data], moved as bytes through buffers of
 * ours, instead of the user's call and a companion collective after it.
 * A gather's root and every rank of the others merge the piggybacks they
 * received; a scatter's ranks take the root's.
 *
 * Every rank decides alike from what MPI makes the same on all of them:
 * the communicator, its size and the sizes of the blocks (the type
 * signatures of the two sides match; an allgatherv's counts are known to
 * all).  All the blocks of a call fit in PMPI_PB_GATHER_ROOM bytes (2
 * ranks with 1 KiB each and a job's whole piggyback, 39 with 8 bytes each
 * and the core alone): a blocking call's on the stack, so that no rank
 * can fail to make a call the others make; a non-blocking call's on the
 * heap until its request completes (or on a few kept aside).  A block's
 * data are copied (contiguous) or packed behind its piggyback and copied
 * or unpacked out of it, in the layout each rank gives its own buffers:
 * a non-blocking call's when its request is first seen complete, through
 * its own copy of a datatype that is not contiguous (the program may
 * free its own meanwhile).
 */
#include "comms.h"
#include "copy.h"
#include "datatypes.h"
#include "piggyback.h"
#include "reserve.h"

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

/* What x->out becomes once the blocks have arrived: this rank's own
 * piggyback still, every block's but this rank's merged into it, or the
 * one block's (a scatter's root's). */
enum merge { MERGE_NONE, MERGE_ALL, MERGE_ROOT };

/* An allgatherv's blocks, one per rank: sizes, places in the call's
 * buffer, and where each one's data go. */
#define MOST_SLOTS (PMPI_PB_GATHER_ROOM / PMPI_PB_CORE)
struct slots {
	int bc[MOST_SLOTS], bd[MOST_SLOTS];
	struct side v[MOST_SLOTS];
};

/*
 * A call's blocks and what becomes of them once MPI has moved them
 * (room_out): the data of blocks [first, first + count) go to their
 * rank's place in r (block i to rank i - first), or in v[i], but block
 * skip's, which are in place already; the piggybacks as merge says.  A
 * blocking call's is on its stack and done when MPI returns; a
 * non-blocking call's holds its blocks behind it until its request
 * completes (x->room).
 */
struct pmpi_pb_room {
	unsigned char *mem;	/* the blocks: received ones first */
	struct side r, *v;
	const int *at;		/* with v: where each block lies */
	size_t b, pbb;		/* each block's size (without v), its piggyback's */
	int first, count, skip, me;
	enum merge merge;
	MPI_Datatype kept;	/* a non-blocking call's own copy of r's type */
	bool heap, done;
};

/* Block i of k: at at[i] with v, else i blocks of b bytes in. */
static const unsigned char *block(const struct pmpi_pb_room *k, int i)
{
	return k->mem + (k->v ? (size_t)k->at[i] : (size_t)i * k->b);
}

/* The data of k's blocks to the program: an allgatherv's each to its
 * own side, the others' to their rank's place in r. */
static int take_blocks(const struct pmpi_pb_room *k)
{
	const unsigned char *d = k->mem + (size_t)k->first * k->b + k->pbb;
	int rc = MPI_SUCCESS;

	for (int i = 0; i < k->count && rc == MPI_SUCCESS; i++, d += k->b)
		if (i + k->first != k->skip)
			rc = k->v ? take(&k->v[i], 0, block(k, i) + k->pbb) : take(&k->r, i, d);
	return rc;
}

/* x's received piggyback is its own merged with those of k's blocks but
 * this rank's, which is its own. */
static void fuse_all(struct pmpi_pb_coll *x, const struct pmpi_pb_room *k)
{
	pmpi_copy_mostly(&x->out, &x->in, k->pbb, PMPI_PB_CORE);
	for (int i = 0; i < k->count; i++)
		if (i != k->me)
			pmpi_pb_merge_into((const struct pmpi_pb *)(const void *)block(k, i), &x->out);
}

/* The blocks' data to the program, and their piggybacks to x (NULL: a
 * call not profiled). */
static int room_out(struct pmpi_pb_room *k, struct pmpi_pb_coll *x)
{
	int rc = take_blocks(k);

	if (rc != MPI_SUCCESS || !x)
		return rc;
	if (k->merge == MERGE_ALL)
		fuse_all(x, k);
	else if (k->merge == MERGE_ROOT)
		pmpi_copy_mostly(&x->out, k->mem, k->pbb, PMPI_PB_CORE);
	x->fused = true;
	return rc;
}

/* A non-blocking call's room lives till its request completes: the most
 * any call needs, kept aside a few times (piggyback.h). */
#define ROOM_MOST (sizeof(struct pmpi_pb_room) + 2 * PMPI_PB_GATHER_ROOM + sizeof(struct slots))
#define ROOMS_KEPT 8
static _Alignas(struct pmpi_pb) unsigned char kept_rooms[ROOMS_KEPT][ROOM_MOST];
static struct pmpi_reserve rooms = { (unsigned char *)kept_rooms, ROOM_MOST, ROOMS_KEPT, 0,
				     "the blocks of a non-blocking collective" };

/* A room for a call of pbb-byte piggybacks whose blocks take `bytes`,
 * with local's receive side (r): local with the stack's buffer for a
 * blocking call, else on the heap. */
static inline struct pmpi_pb_room *room_open(struct pmpi_pb_room *local, unsigned char *stack,
					     size_t bytes, size_t pbb, bool heap)
{
	struct pmpi_pb_room *k = local;

	if (heap) {
		k = pmpi_reserve_alloc(&rooms, sizeof(*k) + bytes);
		*k = *local;	/* its receive side */
		stack = (unsigned char *)(k + 1);
	}
	/* field by field, not r; b and at are set where blocks are taken */
	k->mem = stack;
	k->v = NULL;
	k->pbb = pbb;
	k->first = k->count = k->me = 0;
	k->skip = -1;
	k->merge = MERGE_NONE;
	k->kept = MPI_DATATYPE_NULL;
	k->heap = heap;
	k->done = false;
	return k;
}

static void room_free(struct pmpi_pb_room *k)
{
	if (!k->heap)
		return;
	if (k->kept != MPI_DATATYPE_NULL)
		PMPI_Type_free(&k->kept);
	pmpi_reserve_free(&rooms, k);
}

/* A non-blocking call's receive side, when its data are unpacked at
 * completion, through a datatype of ours: the program may free its own
 * before.  False when MPI refused to copy it. */
static bool keep_type(struct pmpi_pb_room *k)
{
	bool contig;

	if (!k->count)	/* no receive side */
		return true;
	contig = k->r.contig;
	for (int i = k->first; k->v && i < k->first + k->count; i++)
		contig = contig && k->v[i].contig;
	if (contig)
		return true;
	if (PMPI_Type_dup(k->r.type, &k->kept) != MPI_SUCCESS)
		return false;
	k->r.type = k->kept;
	for (int i = k->first; k->v && i < k->first + k->count; i++)
		k->v[i].type = k->kept;
	return true;
}

/* After the program's call carried in k's blocks (rc): a blocking
 * call's go out now, a non-blocking call's when its request completes
 * (x's room). */
static inline int room_close(struct pmpi_pb_room *k, struct pmpi_pb_coll *x, int rc)
{
	if (!k->heap)
		return rc == MPI_SUCCESS ? room_out(k, x) : rc;
	if (rc != MPI_SUCCESS) {
		room_free(k);
		return rc;
	}
	x->room = k;
	x->fused = true;
	return rc;
}

/* Before a non-blocking call, its receive side set: its datatype kept.
 * A rank that cannot keep it cannot go back to the call without the
 * piggyback, which the others make with it: the job stops then, as when
 * memory is short for the room. */
static inline void room_ready(struct pmpi_pb_room *k)
{
	if (k->heap && !keep_type(k))
		pmpi_stop_job("a copy of the datatype of a non-blocking collective");
}

void pmpi_pb_room_out(struct pmpi_pb_coll *x)
{
	if (!x->room->done)
		room_out(x->room, x);
	x->room->done = true;
}

unsigned char *pmpi_pb_room_keep(struct pmpi_pb_coll *x, size_t bytes)
{
	struct pmpi_pb_room none = { .skip = -1 };

	x->room = room_open(&none, NULL, bytes, 0, true);
	return x->room->mem;
}

void pmpi_pb_room_free(struct pmpi_pb_coll *x)
{
	room_free(x->room);
	x->room = NULL;
}

/* The non-blocking form of a call, or the blocking one (req NULL). */
#define CALL(req, blocking, nonblocking) ((req) ? (nonblocking) : (blocking))

/* The calls carried in [piggyback | data] blocks: -1 when not (the
 * caller then makes the program's call as it is); req NULL for a
 * blocking call, whose blocks are in stack.  Inline, so that a blocking
 * call's req is known to be NULL. */
__attribute__((always_inline))
static inline int gather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
			 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
			 MPI_Request *req, unsigned char *stack, enum pmpi_way quick)
{
	size_t pbb = pmpi_pb_size(quick), b;
	int me, n, rc;
	bool in_place;
	struct side s;
	struct pmpi_pb_room local, *k;
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *f;

	if (!(f = pmpi_pb_coll_fusable(x, comm, quick, &own)))
		return -1;
	me = f->rank;
	n = f->size;
	in_place = me == root && sbuf == MPI_IN_PLACE;
	if ((!in_place && !side_of(&s, sbuf, scount, stype)) ||
	    (me == root && !side_of(&local.r, rbuf, rcount, rtype)) ||
	    !(b = blocks_of(in_place ? NULL : &s, me == root ? &local.r : NULL, pbb, n)))
		return -1;
	k = room_open(&local, stack, me == root ? (size_t)n * b : b, pbb, req != NULL);
	if (me == root) {
		k->b = b;
		k->count = n;
		k->me = me;
		k->skip = in_place ? me : -1;
		k->merge = MERGE_ALL;
	}
	room_ready(k);
	pmpi_pb_coll_put(k->mem + (size_t)k->me * b, x, pbb);
	rc = in_place ? MPI_SUCCESS : put(&s, 0, k->mem + (size_t)k->me * b + pbb);
	if (rc == MPI_SUCCESS && me != root)
		rc = CALL(req, PMPI_Gather(k->mem, (int)b, MPI_BYTE, NULL, 0, MPI_BYTE, root, comm),
			  PMPI_Igather(k->mem, (int)b, MPI_BYTE, NULL, 0, MPI_BYTE, root, comm, req));
	else if (rc == MPI_SUCCESS)
		rc = CALL(req, PMPI_Gather(MPI_IN_PLACE, 0, MPI_BYTE, k->mem, (int)b, MPI_BYTE, root, comm),
			  PMPI_Igather(MPI_IN_PLACE, 0, MPI_BYTE, k->mem, (int)b, MPI_BYTE, root, comm,
				       req));
	return room_close(k, x, rc);
}

__attribute__((always_inline))
static inline int scatter(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
			  void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
			  MPI_Request *req, unsigned char *stack, enum pmpi_way quick)
{
	size_t pbb = pmpi_pb_size(quick), b;
	int me, n, rc = MPI_SUCCESS;
	bool in_place;
	struct side s;
	struct pmpi_pb_room local, *k;
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *f;

	if (!(f = pmpi_pb_coll_fusable(x, comm, quick, &own)))
		return -1;
	me = f->rank;
	n = f->size;
	in_place = me == root && rbuf == MPI_IN_PLACE;
	if ((me == root && !side_of(&s, sbuf, scount, stype)) ||
	    (!in_place && !side_of(&local.r, rbuf, rcount, rtype)) ||
	    !(b = blocks_of(me == root ? &s : NULL, in_place ? NULL : &local.r, pbb, n)))
		return -1;
	k = room_open(&local, stack, me == root ? (size_t)n * b : b, pbb, req != NULL);
	if (!in_place) {	/* the root's own block, or the one received */
		k->b = b;
		k->first = me == root ? me : 0;
		k->count = 1;
		k->merge = me == root ? MERGE_NONE : MERGE_ROOT;
	}
	room_ready(k);
	if (me != root)
		return room_close(k, x, CALL(req, PMPI_Scatter(NULL, 0, MPI_BYTE, k->mem, (int)b, MPI_BYTE,
							       root, comm),
					     PMPI_Iscatter(NULL, 0, MPI_BYTE, k->mem, (int)b, MPI_BYTE,
							   root, comm, req)));
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
		pmpi_pb_coll_put(k->mem + (size_t)i * b, x, pbb);
		rc = put(&s, i, k->mem + (size_t)i * b + pbb);
	}
	if (rc == MPI_SUCCESS)
		rc = CALL(req, PMPI_Scatter(k->mem, (int)b, MPI_BYTE, MPI_IN_PLACE, 0, MPI_BYTE, root, comm),
			  PMPI_Iscatter(k->mem, (int)b, MPI_BYTE, MPI_IN_PLACE, 0, MPI_BYTE, root, comm,
					req));
	return room_close(k, x, rc);
}

/* k's n blocks gathered from every rank into its r, this rank's at me
 * (its data in place already when in_place). */
static void gathered(struct pmpi_pb_room *k, size_t b, int n, int me, bool in_place)
{
	k->b = b;
	k->count = n;
	k->me = me;
	k->skip = in_place ? me : -1;
	k->merge = MERGE_ALL;
}

__attribute__((always_inline))
static inline int allgather(struct pmpi_pb_coll *x, const void *sbuf, int scount,
			    MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
			    MPI_Comm comm, MPI_Request *req, unsigned char *stack, enum pmpi_way quick)
{
	size_t pbb = pmpi_pb_size(quick), b;
	int me, n, rc;
	bool in_place = sbuf == MPI_IN_PLACE;
	struct side s;
	struct pmpi_pb_room local, *k;
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *f;

	if (!(f = pmpi_pb_coll_fusable(x, comm, quick, &own)))
		return -1;
	me = f->rank;
	n = f->size;
	if (!side_of(&local.r, rbuf, rcount, rtype) || (!in_place && !side_of(&s, sbuf, scount, stype)) ||
	    !(b = blocks_of(in_place ? NULL : &s, &local.r, pbb, n)))
		return -1;
	k = room_open(&local, stack, (size_t)n * b, pbb, req != NULL);
	gathered(k, b, n, me, in_place);
	room_ready(k);
	pmpi_pb_coll_put(k->mem + (size_t)me * b, x, pbb);
	rc = in_place ? put(&k->r, me, k->mem + (size_t)me * b + pbb) :
	     put(&s, 0, k->mem + (size_t)me * b + pbb);
	if (rc == MPI_SUCCESS)
		rc = CALL(req, PMPI_Allgather(MPI_IN_PLACE, 0, MPI_BYTE, k->mem, (int)b, MPI_BYTE, comm),
			  PMPI_Iallgather(MPI_IN_PLACE, 0, MPI_BYTE, k->mem, (int)b, MPI_BYTE, comm, req));
	return room_close(k, x, rc);
}

/* The blocks received first in the room, those sent after them. */
__attribute__((always_inline))
static inline int alltoall(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
			   void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
			   MPI_Request *req, unsigned char *stack, enum pmpi_way quick)
{
	size_t pbb = pmpi_pb_size(quick), b;
	int me, n, rc = MPI_SUCCESS;
	struct side s;
	struct pmpi_pb_room local, *k;
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *f;
	unsigned char *out;

	if (!(f = pmpi_pb_coll_fusable(x, comm, quick, &own)))
		return -1;
	me = f->rank;
	n = f->size;
	if (!side_of(&local.r, rbuf, rcount, rtype) ||
	    (sbuf != MPI_IN_PLACE && !side_of(&s, sbuf, scount, stype)) ||
	    !(b = blocks_of(sbuf == MPI_IN_PLACE ? NULL : &s, &local.r, pbb, n)))
		return -1;
	k = room_open(&local, stack, 2 * (size_t)n * b, pbb, req != NULL);
	gathered(k, b, n, me, false);
	room_ready(k);
	out = k->mem + (size_t)n * b;
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
		pmpi_pb_coll_put(out + (size_t)i * b, x, pbb);
		rc = put(sbuf == MPI_IN_PLACE ? &k->r : &s, i, out + (size_t)i * b + pbb);
	}
	if (rc == MPI_SUCCESS)
		rc = CALL(req, PMPI_Alltoall(out, (int)b, MPI_BYTE, k->mem, (int)b, MPI_BYTE, comm),
			  PMPI_Ialltoall(out, (int)b, MPI_BYTE, k->mem, (int)b, MPI_BYTE, comm, req));
	return room_close(k, x, rc);
}

/* The n blocks of an allgatherv's result, each rank's count x type at
 * its displacement in extents from r's buffer, in sl; false when they
 * do not all fit in the call's buffer. */
static bool slots_of(const struct side *r, const int *counts, const int *displs, size_t pbb, int n,
		     struct slots *sl)
{
	size_t total = 0, b;

	if (!counts || !displs || n <= 0 || (size_t)n > PMPI_PB_GATHER_ROOM / pbb)
		return false;
	for (int i = 0; i < n; i++) {
		if (!side_of(&sl->v[i], r->buf + (MPI_Aint)displs[i] * r->extent, counts[i], r->type) ||
		    !(b = block_size(pbb, sl->v[i].bytes)) || (total += b) > PMPI_PB_GATHER_ROOM)
			return false;
		sl->bc[i] = (int)b;
		sl->bd[i] = (int)(total - b);
	}
	return true;
}

/* A non-blocking call's blocks and slots are in its room (both of the
 * most they may take: which is known once the slots are). */
__attribute__((always_inline))
static inline int allgatherv(struct pmpi_pb_coll *x, const void *sbuf, int scount,
			     MPI_Datatype stype, void *rbuf, const int *rcounts, const int *displs,
			     MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req,
			     unsigned char *stack, enum pmpi_way quick)
{
	size_t pbb = pmpi_pb_size(quick);
	bool in_place = sbuf == MPI_IN_PLACE;
	struct side s;
	struct slots local_slots, *sl;
	struct pmpi_pb_room local, *k;
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *f;
	int me, n, rc;

	if (!(f = pmpi_pb_coll_fusable(x, comm, quick, &own)))
		return -1;
	me = f->rank;
	n = f->size;
	k = room_open(&local, stack, PMPI_PB_GATHER_ROOM + sizeof(*sl), pbb, req != NULL);
	sl = req ? (struct slots *)(void *)(k->mem + PMPI_PB_GATHER_ROOM) : &local_slots;
	if (!side_of(&k->r, rbuf, 0, rtype) || !slots_of(&k->r, rcounts, displs, pbb, n, sl) ||
	    (!in_place && (!side_of(&s, sbuf, scount, stype) || s.bytes != sl->v[me].bytes))) {
		room_free(k);
		return -1;
	}
	gathered(k, 0, n, me, in_place);
	k->v = sl->v;
	k->at = sl->bd;
	room_ready(k);
	pmpi_pb_coll_put(k->mem + sl->bd[me], x, pbb);
	rc = put(in_place ? &sl->v[me] : &s, 0, k->mem + sl->bd[me] + pbb);
	if (rc == MPI_SUCCESS)
		rc = CALL(req, PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, k->mem, sl->bc, sl->bd, MPI_BYTE,
					       comm),
			  PMPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_BYTE, k->mem, sl->bc, sl->bd, MPI_BYTE,
					   comm, req));
	return room_close(k, x, rc);
}

/* The entry points: the blocking calls' blocks on the stack; a
 * non-blocking call not profiled (x NULL) goes plain, as on every rank. */
#define STACK(name, size) _Alignas(struct pmpi_pb) unsigned char name[size]

int pmpi_x_gather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		  void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, enum pmpi_way quick)
{
	STACK(m, PMPI_PB_GATHER_ROOM);
	int rc = gather(x, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, NULL, m, quick);

	return rc >= 0 ? rc : PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int pmpi_x_igather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		   void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
		   MPI_Request *req)
{
	int rc = x ? gather(x, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req, NULL,
			    false) : -1;

	return rc >= 0 ? rc : PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req);
}

int pmpi_x_scatter(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		   void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, enum pmpi_way quick)
{
	STACK(m, PMPI_PB_GATHER_ROOM);
	int rc = scatter(x, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, NULL, m, quick);

	return rc >= 0 ? rc : PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int pmpi_x_iscatter(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		    void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
		    MPI_Request *req)
{
	int rc = x ? scatter(x, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req, NULL,
			     false) : -1;

	return rc >= 0 ? rc : PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req);
}

int pmpi_x_allgather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		     void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, enum pmpi_way quick)
{
	STACK(m, PMPI_PB_GATHER_ROOM);
	int rc = allgather(x, sbuf, scount, stype, rbuf, rcount, rtype, comm, NULL, m, quick);

	return rc >= 0 ? rc : PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int pmpi_x_iallgather(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		      void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
	int rc = x ? allgather(x, sbuf, scount, stype, rbuf, rcount, rtype, comm, req, NULL, false) : -1;

	return rc >= 0 ? rc : PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
}

int pmpi_x_alltoall(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		    void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, enum pmpi_way quick)
{
	STACK(m, 2 * PMPI_PB_GATHER_ROOM);
	int rc = alltoall(x, sbuf, scount, stype, rbuf, rcount, rtype, comm, NULL, m, quick);

	return rc >= 0 ? rc : PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int pmpi_x_ialltoall(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		     void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
	int rc = x ? alltoall(x, sbuf, scount, stype, rbuf, rcount, rtype, comm, req, NULL, false) : -1;

	return rc >= 0 ? rc : PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
}

int pmpi_x_allgatherv(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		      void *rbuf, const int *rcounts, const int *displs, MPI_Datatype rtype,
		      MPI_Comm comm, enum pmpi_way quick)
{
	STACK(m, PMPI_PB_GATHER_ROOM);
	int rc = allgatherv(x, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, NULL, m, quick);

	return rc >= 0 ? rc : PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

int pmpi_x_iallgatherv(struct pmpi_pb_coll *x, const void *sbuf, int scount, MPI_Datatype stype,
		       void *rbuf, const int *rcounts, const int *displs, MPI_Datatype rtype,
		       MPI_Comm comm, MPI_Request *req)
{
	int rc = x ? allgatherv(x, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req, NULL,
				false) : -1;

	return rc >= 0 ? rc : PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm,
					       req);
}
