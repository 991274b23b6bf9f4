/*
 * status.c - whether this MPI's statuses are laid out as status.h reads
 * them: every count and cancelled flag written by MPI is read back in
 * place, and every one written in place reads back through MPI, or the
 * wrappers keep asking MPI.  An MPI whose status changes layout in a new
 * release costs speed, not correctness.
 */
#include <limits.h>

#include "status.h"

bool pmpi_status_direct;

MPI_Count pmpi_status_take_mpi(MPI_Status *st, MPI_Count n)
{
	MPI_Count left = pmpi_status_count(st, false);

	left = left > n ? left - n : 0;
	PMPI_Status_set_elements_x(st, MPI_BYTE, left);
	return left;
}

#if STATUS_LAYOUT
/* Does n with the cancelled flag cancel read and write alike both ways? */
static bool agrees(MPI_Count n, int cancel)
{
	MPI_Status a = { 0 }, b = { 0 };
	MPI_Count got = -1;
	int flag = -1;

	if (PMPI_Status_set_elements_x(&a, MPI_BYTE, n) != MPI_SUCCESS ||
	    PMPI_Status_set_cancelled(&a, cancel) != MPI_SUCCESS ||
	    status_raw_count(&a) != n || status_raw_cancelled(&a) != !!cancel)
		return false;
	if (PMPI_Status_set_cancelled(&b, cancel) != MPI_SUCCESS)
		return false;
	status_raw_set_count(&b, n);
	return PMPI_Get_elements_x(&b, MPI_BYTE, &got) == MPI_SUCCESS && got == n &&
	       PMPI_Test_cancelled(&b, &flag) == MPI_SUCCESS && flag == !!cancel;
}

void pmpi_status_start(void)
{
	static const MPI_Count counts[] = {
		0, 1, 8, 4096, INT_MAX, (MPI_Count)INT_MAX + 9, (MPI_Count)UINT_MAX + 1,
		(MPI_Count)1 << 40,
	};
	bool ok = true;

	for (unsigned i = 0; ok && i < sizeof(counts) / sizeof(counts[0]); i++)
		ok = agrees(counts[i], 0) && agrees(counts[i], 1);
	pmpi_status_direct = ok;
}
#else
void pmpi_status_start(void)
{
	pmpi_status_direct = false;
}
#endif
