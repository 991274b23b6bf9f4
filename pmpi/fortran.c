/*
 * fortran.c - the Fortran side of the wrappers.  The generated mpi_xxx_
 * entry points call the library's own Fortran binding (pmpi_xxx_), so the
 * program's arguments reach MPI untouched, except where the piggyback's
 * transport stands in for the call (they convert the arguments and call
 * it); what the statistics read is converted here: the MPI_IN_PLACE
 * sentinel, statuses and requests, and the statuses the transport
 * corrected are written back.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "facts.h"
#include "requests.h"
#include "fortran.h"

/* Addresses Fortran passes for MPI_IN_PLACE, found once: Open MPI's common
 * block (several manglings) and MPICH's pointer to its own, which MPICH
 * sets at Fortran start-up (so it is read at each use). */
static const void *ompi_in_place[4];
static void *const *mpich_in_place;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void find_sentinels(void)
{
	static const char *const ompi[] = { "mpi_fortran_in_place_", "mpi_fortran_in_place",
					    "mpi_fortran_in_place__", "MPI_FORTRAN_IN_PLACE" };

	for (int i = 0; i < 4; i++)
		ompi_in_place[i] = dlsym(RTLD_DEFAULT, ompi[i]);
	mpich_in_place = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
}

const void *pmpi_f_buf(const void *buf)
{
	pthread_once(&once, find_sentinels);
	for (int i = 0; i < 4; i++)
		if (buf && buf == ompi_in_place[i])
			return MPI_IN_PLACE;
	if (mpich_in_place && buf && buf == *mpich_in_place)
		return MPI_IN_PLACE;
	return buf;
}

uint64_t pmpi_f_bytes_w(const int *counts, const MPI_Fint *types, int n)
{
	uint64_t b = 0;

	for (int i = 0; i < n; i++)
		b += pmpi_bytes(counts[i], PMPI_Type_f2c(types[i]));
	return b;
}

const MPI_Status *pmpi_f_status(const MPI_Fint *fst, MPI_Status *st)
{
	PMPI_Status_f2c(fst, st);
	return st;
}

void pmpi_f_req_start(struct pmpi_call *c, MPI_Fint n, const MPI_Fint *freqs)
{
	MPI_Request reqs[PMPI_SNAP_SMALL];

	for (int i = 0; i < n; i += PMPI_SNAP_SMALL) {
		int k = n - i < PMPI_SNAP_SMALL ? n - i : PMPI_SNAP_SMALL;

		for (int j = 0; j < k; j++)
			reqs[j] = PMPI_Request_f2c(freqs[i + j]);
		pmpi_req_start(c, k, reqs);
	}
}

void pmpi_f_reqs_before(struct pmpi_snap *s, MPI_Fint n, const MPI_Fint *freqs,
			MPI_Fint **fstatuses, int many, const MPI_Fint *ignore)
{
	bool heap = n > PMPI_SNAP_SMALL;
	MPI_Request small[PMPI_SNAP_SMALL] = { 0 }, *reqs = heap ? malloc((size_t)n * sizeof(*reqs)) : small;
	MPI_Status *keep = s->small_st;	/* not MPI_STATUS_IGNORE: C statuses are ours anyway */
	size_t nst = many ? (size_t)n : 1;

	if (!reqs) {
		pmpi_reqs_before(s, 0, NULL, &keep, many);
		return;
	}
	for (int i = 0; i < n; i++)
		reqs[i] = PMPI_Request_f2c(freqs[i]);
	pmpi_reqs_before(s, n, reqs, &keep, many);
	if (heap)
		free(reqs);
	if (s->n && *fstatuses == ignore) {
		s->fst = malloc(nst * PMPI_F_STATUS_SIZE * sizeof(MPI_Fint));
		if (s->fst)
			*fstatuses = s->fst;
		else
			s->skip = true;
	}
}

void pmpi_f_reqs_after(struct pmpi_call *c, struct pmpi_snap *s, MPI_Fint rc, MPI_Fint *fstatuses,
		       const MPI_Fint *index, const MPI_Fint *flag, const MPI_Fint *outcount,
		       const MPI_Fint *indices, int base)
{
	size_t nst = s->many ? (size_t)s->n : 1;

	if (s->n && !s->skip && nst > PMPI_SNAP_SMALL && !(s->st = malloc(nst * sizeof(MPI_Status)))) {
		s->st = s->small_st;
		s->skip = true;
	}
	for (size_t i = 0; s->n && !s->skip && i < nst; i++)
		PMPI_Status_f2c(fstatuses + i * PMPI_F_STATUS_SIZE, &s->st[i]);
	pmpi_reqs_complete(c, s, rc, s->st, index, flag, outcount, indices, base);
	/* the program's statuses get the counts corrected (p2p.c) */
	for (size_t i = 0; s->n && !s->skip && !s->fst && i < nst; i++)
		PMPI_Status_c2f(&s->st[i], fstatuses + i * PMPI_F_STATUS_SIZE);
	free(s->fst);
}

void (*pmpi_f08_next(const char *name))(void)
{
	void *sym = dlsym(RTLD_NEXT, name);
	void (*fn)(void);

	if (!sym) {
		fprintf(stderr, "cpperf: the MPI library defines no %s, which this program calls\n", name);
		exit(1);
	}
	memcpy(&fn, &sym, sizeof(fn));
	return fn;
}

#ifdef MPICH
static int f08_index_base = 1;

static void find_f08_index_base(void)
{
	char v[MPI_MAX_LIBRARY_VERSION_STRING];
	int len, major = 0, minor = 0;

	if (PMPI_Get_library_version(v, &len) == MPI_SUCCESS &&
	    sscanf(v, "MPICH Version: %d.%d", &major, &minor) == 2 &&
	    (major < 4 || (major == 4 && minor < 1)))
		f08_index_base = 0;
}

int pmpi_f08_index_base(void)
{
	static pthread_once_t found = PTHREAD_ONCE_INIT;

	pthread_once(&found, find_f08_index_base);
	return f08_index_base;
}
#endif
