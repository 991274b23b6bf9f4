/*
 * status.h - a status's byte count and cancelled flag, which every
 * received message reads and the piggyback rewrites.  MPI's calls for
 * them (MPI_Get_elements_x, MPI_Status_set_elements_x, MPI_Test_cancelled)
 * cost about 200 instructions a message; where the status's layout is
 * known for this MPI (Open MPI, MPICH) and found to hold at MPI_Init, the
 * fields are read and written in place instead.
 */
#ifndef CPPERF_PMPI_STATUS_H
#define CPPERF_PMPI_STATUS_H

#include <stdbool.h>
#include <mpi.h>

/* Set once at MPI_Init, before the wrappers are active. */
extern bool pmpi_status_direct;

#if defined(OPEN_MPI)
#define STATUS_LAYOUT 1
static inline MPI_Count status_raw_count(const MPI_Status *st)
{
	return (MPI_Count)st->_ucount;
}

static inline void status_raw_set_count(MPI_Status *st, MPI_Count n)
{
	st->_ucount = (size_t)n;
}

static inline bool status_raw_cancelled(const MPI_Status *st)
{
	return st->_cancelled != 0;
}
#elif defined(MPICH)
#define STATUS_LAYOUT 1
/* The low 32 bits in count_lo; the high ones above the cancelled bit. */
static inline MPI_Count status_raw_count(const MPI_Status *st)
{
	return (MPI_Count)((((unsigned long long)((unsigned)st->count_hi_and_cancelled >> 1)) << 32) +
			   (unsigned)st->count_lo);
}

static inline void status_raw_set_count(MPI_Status *st, MPI_Count n)
{
	st->count_lo = (int)(unsigned)n;
	st->count_hi_and_cancelled = (int)(((unsigned)st->count_hi_and_cancelled & 1u) |
					   (unsigned)((unsigned long long)n >> 32 << 1));
}

static inline bool status_raw_cancelled(const MPI_Status *st)
{
	return st->count_hi_and_cancelled & 1;
}
#else
#define STATUS_LAYOUT 0
#endif

/* Bytes the status counts (0 when MPI cannot tell); direct: the caller
 * knows the layout holds (pmpi_status_direct). */
static inline MPI_Count pmpi_status_count(const MPI_Status *st, bool direct)
{
	MPI_Count n = 0;

#if STATUS_LAYOUT
	if (direct || pmpi_status_direct)
		return status_raw_count(st);
#endif
	return PMPI_Get_elements_x(st, MPI_BYTE, &n) == MPI_SUCCESS && n > 0 ? n : 0;
}

/* Take n bytes off the status's count (none below 0); the count left.
 * One test of the layout, none when the caller knows it (direct, as
 * above): every received message takes its header off. */
MPI_Count pmpi_status_take_mpi(MPI_Status *st, MPI_Count n);
static inline MPI_Count pmpi_status_take(MPI_Status *st, MPI_Count n, bool direct)
{
#if STATUS_LAYOUT
	if (direct || pmpi_status_direct) {
		MPI_Count left = status_raw_count(st);

		left = left > n ? left - n : 0;
		status_raw_set_count(st, left);
		return left;
	}
#endif
	return pmpi_status_take_mpi(st, n);
}

static inline bool pmpi_status_cancelled(const MPI_Status *st)
{
	int flag = 0;

#if STATUS_LAYOUT
	if (pmpi_status_direct)
		return status_raw_cancelled(st);
#endif
	return PMPI_Test_cancelled(st, &flag) != MPI_SUCCESS || flag;
}

/* Check the layout against MPI's own calls; direct access only if it holds. */
void pmpi_status_start(void);

#endif
