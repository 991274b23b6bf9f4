/*
 * allreduce.c - the piggyback of a small MPI_Allreduce carried inside it
 * (docs/mpi.md "Piggyback"): one allreduce of [piggyback | data] with an
 * operator of ours, which merges the piggybacks and applies the program's
 * operator to the data with MPI_Reduce_local, instead of the user's
 * allreduce and a companion after it.
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
 * one's handle.  --cp-trace gathers the contributors with the
 * companion, so it keeps the companion.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "datatypes.h"
#include "comms.h"
#include "piggyback.h"
#include "pb-units.h"
#include "p2p.h"

#define FUSED_MAX 1024		/* bytes of data carried this way */

/* A (datatype, count, operator) seen before: the datatype of its fused
 * allreduce.  Found again by the operator from the datatype. */
struct fused {
	MPI_Datatype type, bytes;	/* the program's, ours */
	int count, size;		/* the program's count; bytes */
	bool contig;			/* the data lies in one piece */
	MPI_Aint at;			/* from the buffer's address */
	MPI_Op op;
	struct fused *next;
};

static struct fused *known;	/* pushed with release, never removed */
static MPI_Op fused_op = MPI_OP_NULL;
static pthread_once_t op_once = PTHREAD_ONCE_INIT;

/* The operator: the piggybacks merged, the data reduced as the program's
 * operator does. */
static void reduce(void *in, void *inout, int *len, MPI_Datatype *type)
{
	struct fused *f;
	size_t unit;

	for (f = __atomic_load_n(&known, __ATOMIC_ACQUIRE); f && f->bytes != *type; f = f->next)
		;
	if (!f)
		return;
	unit = pmpi_pb_bytes + (size_t)f->size;
	for (int i = 0; i < *len; i++) {
		unsigned char *a = (unsigned char *)in + i * unit, *b = (unsigned char *)inout + i * unit;

		pmpi_pb_merge_into((const struct pmpi_pb *)(void *)a, (struct pmpi_pb *)(void *)b);
		PMPI_Reduce_local(a + pmpi_pb_bytes, b + pmpi_pb_bytes, f->count, f->type, f->op);
	}
}

static void make_op(void)
{
	PMPI_Op_create(reduce, 1, &fused_op);	/* predefined operators commute */
}

/* The entry of (type, count, op) when its allreduce can carry the
 * piggyback, NULL when not. */
static struct fused *fusable(MPI_Datatype type, int count, MPI_Op op, MPI_Comm comm)
{
	struct fused *f;
	MPI_Aint at = 0;
	int64_t size = 0;
	bool contig = false;

	if (!pmpi_pb_on || !pmpi_pb_comm(comm) || pb_units_want_who() || count <= 0 ||
	    pmpi_comm_inter(comm))
		return NULL;
	for (f = __atomic_load_n(&known, __ATOMIC_ACQUIRE);
	     f && !(f->type == type && f->count == count && f->op == op); f = f->next)
		;
	if (f)		/* known entries passed the checks below */
		return f;
	if (!pmpi_op_defined_on(op, type) ||
	    (size = pmpi_type_layout(type, count, &contig, &at)) <= 0 ||
	    (uint64_t)size * (uint64_t)count > FUSED_MAX || !(f = calloc(1, sizeof(*f))))
		return NULL;
	*f = (struct fused){ .type = type, .count = count, .op = op, .size = (int)size * count,
			     .contig = contig, .at = at };
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

int pmpi_x_allreduce(struct pmpi_pb_coll *x, const void *sbuf, void *rbuf, int count,
		     MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	_Alignas(struct pmpi_pb) unsigned char in[sizeof(struct pmpi_pb) + FUSED_MAX];
	_Alignas(struct pmpi_pb) unsigned char out[sizeof(struct pmpi_pb) + FUSED_MAX];
	struct fused *f = fusable(type, count, op, comm);
	int pos = 0, rc = MPI_SUCCESS;

	/* buffers MPI refuses (absent, one for both, MPI_IN_PLACE as the
	 * result) are not ours to copy: the program's call goes to MPI,
	 * which returns its error */
	if (!f || !sbuf || !rbuf || sbuf == rbuf || rbuf == MPI_IN_PLACE)
		return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
	if (x) {
		memcpy(in, &x->in, pmpi_pb_bytes);
	} else {	/* a call not profiled: a piggyback that says nothing */
		struct pmpi_pb pb = { .version = PMPI_PB_VERSION, .rank = pmpi_pb_rank(), .cp = -1 };

		memcpy(in, &pb, pmpi_pb_bytes);
	}
	if (f->contig)
		memcpy(in + pmpi_pb_bytes, (const char *)(sbuf == MPI_IN_PLACE ? rbuf : sbuf) + f->at,
		       (size_t)f->size);
	else
		rc = PMPI_Pack(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type, in + pmpi_pb_bytes, f->size,
			       &pos, MPI_COMM_SELF);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Allreduce(in, out, 1, f->bytes, fused_op, comm);
	if (rc != MPI_SUCCESS)
		return rc;
	pos = 0;
	if (f->contig)
		memcpy((char *)rbuf + f->at, out + pmpi_pb_bytes, (size_t)f->size);
	else
		rc = PMPI_Unpack(out + pmpi_pb_bytes, f->size, &pos, rbuf, count, type, MPI_COMM_SELF);
	if (x) {
		memcpy(&x->out, out, pmpi_pb_bytes);
		x->fused = true;
	}
	return rc;
}

void pmpi_x_allreduce_stop(void)
{
	while (known) {
		struct fused *f = known;

		known = f->next;
		PMPI_Type_free(&f->bytes);
		free(f);
	}
	if (fused_op != MPI_OP_NULL)
		PMPI_Op_free(&fused_op);
}
