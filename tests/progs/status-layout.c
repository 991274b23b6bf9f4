/*
 * status-layout.c - the runtime's in-place reading of statuses
 * (pmpi/status.c), built with this MPI: prints "direct N" (1 when the
 * layout check passed), then for several counts and both cancelled
 * flags whether a status written by MPI reads back the same in place,
 * and whether one whose count is taken from in place (as a header is
 * taken off) reads back the rest through MPI; then the same through
 * MPI's calls alone.
 */
#include <limits.h>
#include <stdio.h>

#include "status.h"

static int mismatches(void)
{
	const MPI_Count counts[] = { 0, 3, 1024, (MPI_Count)INT_MAX + 1, (MPI_Count)1 << 36 };
	int bad = 0;

	for (unsigned i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		for (int cancel = 0; cancel < 2; cancel++) {
			MPI_Status a = { 0 }, b = { 0 };
			MPI_Count n = -1;
			int flag = -1;

			MPI_Status_set_elements_x(&a, MPI_BYTE, counts[i]);
			MPI_Status_set_cancelled(&a, cancel);
			bad += pmpi_status_count(&a, false) != counts[i] || pmpi_status_cancelled(&a) != cancel;
			MPI_Status_set_elements_x(&b, MPI_BYTE, counts[i] + 40);
			MPI_Status_set_cancelled(&b, cancel);
			bad += pmpi_status_take(&b, 40, false) != counts[i];
			MPI_Get_elements_x(&b, MPI_BYTE, &n);
			MPI_Test_cancelled(&b, &flag);
			bad += n != counts[i] || flag != cancel;
		}
	return bad;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	pmpi_status_start();
	printf("direct %d\n", pmpi_status_direct);
	printf("mismatches %d\n", mismatches());
	pmpi_status_direct = false;	/* the way of an MPI of another layout */
	printf("through MPI %d\n", mismatches());
	MPI_Finalize();
	return 0;
}
