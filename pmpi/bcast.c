/*
 * bcast.c - the piggyback of a small MPI_Bcast carried inside it (docs/mpi.md
 * "Piggyback"): the root broadcasts [piggyback | data] instead of the
 * user's data and a companion broadcast after it.
 *
 * Every rank decides from the size of the data, which MPI makes the same
 * on all of them (their type signatures match).  Each lays the message out
 * its own way, all giving the same bytes: contiguous data is copied behind
 * the piggyback, other data travels in place through a struct datatype
 * (the piggyback's bytes, then the user's count x datatype), which also
 * serves data at MPI_BOTTOM.  MPI_Ibcast does the same in the buffers
 * that its piggyback keeps until it completes, when the data fit there.
 */

#include "comms.h"
#include "copy.h"
#include "datatypes.h"
#include "piggyback.h"
#include "wrap-types.h"

/* Broadcast the message at m: bytes of contiguous data behind the
 * piggyback's pbb bytes, or count x type in place at buf (contig NULL). */
static int bcast_message(unsigned char *m, size_t pbb, void *contig, uint64_t bytes, void *buf,
			 int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	MPI_Datatype t;
	int rc;

	if (contig)
		return PMPI_Bcast(m, (int)(pbb + bytes), MPI_BYTE, root, comm);
	rc = pmpi_wrap_struct(m, (int)pbb, buf, count, type, &t);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = PMPI_Bcast(MPI_BOTTOM, 1, t, root, comm);
	PMPI_Type_free(&t);
	return rc;
}

/* Whether a broadcast of count x type at buf from root carries the
 * piggyback (x's, NULL when not profiled): its bytes, where contiguous
 * data lie (*data, else NULL), whether this rank is the root. */
static bool fusable(const struct pmpi_pb_coll *x, void *buf, int count, MPI_Datatype type,
		    int root, MPI_Comm comm, enum pmpi_way quick, uint64_t *bytes, void **data,
		    bool *is_root)
{
	int64_t size = pmpi_type_size(type);
	bool contig;
	MPI_Aint at = 0;
	struct pmpi_comm_facts own;
	const struct pmpi_comm_facts *f = pmpi_pb_coll_fusable(x, comm, quick, &own);

	if (!f || count < 0 || size < 0 ||
	    (*bytes = (uint64_t)size * (uint64_t)count) > PMPI_PB_FUSED_MAX ||
	    pmpi_type_layout(type, count, &contig, &at) < 0)
		return false;
	/* a null buffer that MPI refuses: its error, not our copy of it */
	if (*bytes && !buf && contig && !at)
		return false;
	*data = contig ? (char *)buf + at : NULL;
	*is_root = f->rank == root;
	return true;
}

int pmpi_x_bcast(struct pmpi_pb_coll *x, void *buf, int count, MPI_Datatype type, int root,
		 MPI_Comm comm, enum pmpi_way quick)
{
	_Alignas(struct pmpi_pb) unsigned char m[sizeof(struct pmpi_pb) + PMPI_PB_FUSED_MAX];
	size_t pbb = pmpi_pb_size(quick);
	uint64_t bytes;
	void *data;
	bool is_root;
	int rc;

	if (!fusable(x, buf, count, type, root, comm, quick, &bytes, &data, &is_root))
		return PMPI_Bcast(buf, count, type, root, comm);
	if (is_root) {
		pmpi_pb_coll_put(m, x, pbb);
		if (data && bytes)
			pmpi_copy(m + pbb, data, bytes);
	}
	rc = bcast_message(m, pbb, data, bytes, buf, count, type, root, comm);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!is_root && data && bytes)
		pmpi_copy(data, m + pbb, bytes);
	if (x) {
		if (!is_root)
			pmpi_copy_mostly(&x->out, m, pbb, PMPI_PB_CORE);
		x->fused = true;
	}
	return rc;
}

/*
 * A profiled MPI_Ibcast (x on the heap until its request completes)
 * whose data fit behind the piggyback in x's own struct: the root's
 * x->in to the others' x->out, contiguous data copied in at the root and
 * out at the others once the request has completed
 * (pmpi_pb_coll_data_out), other layouts in place through a struct
 * datatype.  A call not profiled (x NULL) goes plain, as on every rank.
 */
int pmpi_x_ibcast(struct pmpi_pb_coll *x, void *buf, int count, MPI_Datatype type, int root,
		  MPI_Comm comm, MPI_Request *req)
{
	size_t pbb = pmpi_pb_size(false);
	uint64_t bytes;
	void *data;
	unsigned char *m;
	MPI_Datatype t;
	bool is_root;
	int rc;

	if (!x || !fusable(x, buf, count, type, root, comm, false, &bytes, &data, &is_root) ||
	    !pmpi_pb_fits_behind(pbb, bytes))
		return PMPI_Ibcast(buf, count, type, root, comm, req);
	m = is_root ? (unsigned char *)&x->in : (unsigned char *)&x->out;
	if (data) {
		if (is_root && bytes)
			pmpi_copy(m + pbb, data, bytes);
		rc = PMPI_Ibcast(m, (int)(pbb + bytes), MPI_BYTE, root, comm, req);
	} else {
		rc = pmpi_wrap_struct(m, (int)pbb, buf, count, type, &t);
		if (rc != MPI_SUCCESS)
			return rc;
		rc = PMPI_Ibcast(MPI_BOTTOM, 1, t, root, comm, req);
		PMPI_Type_free(&t);	/* MPI keeps it until the call completes */
	}
	if (rc != MPI_SUCCESS)
		return rc;
	x->fused = true;
	if (!is_root && data && bytes) {
		x->out_to = data;
		x->out_at = (uint32_t)pbb;
		x->out_bytes = (uint32_t)bytes;
	}
	return rc;
}
