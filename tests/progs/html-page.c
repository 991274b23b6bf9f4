/*
 * html-page.c - the program behind the report page's browser test
 * (tests/integration/html.t), which compiles it under a file name made of
 * markup: 4 ranks or more, each computing in compute_a, and in compute_b
 * for a time that grows with its rank (rank r: (r + 1) / 4 of
 * compute_a's), and rank r sending r + 1 messages of 64 bytes to rank
 * r + 1 (so the matrix's cell (r, r + 1) holds r + 1).
 * Usage: html-page [MILLISECONDS]   (per rank, default 600)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void __attribute__((noinline)) spin(double ms)
{
	double end = now_ms() + ms;

	while (now_ms() < end)
		for (int i = 0; i < 1000; i++)
			sink = sink * 0.5 + i;
}

static void __attribute__((noinline)) compute_a(double ms) { spin(ms); }
/* its own loop, so that its time is its self time */
static void __attribute__((noinline)) compute_b(double ms)
{
	double end = now_ms() + ms;

	while (now_ms() < end)
		for (int i = 0; i < 1000; i++)
			sink = sink * 0.25 + i;
}

int main(int argc, char **argv)
{
	int rank, size;
	double ms = argc > 1 ? atof(argv[1]) : 600;
	char buf[64] = { 0 };

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int step = 0; step < 10; step++) {
		compute_a(ms / 15);
		compute_b(ms / 60 * (rank + 1));
		MPI_Barrier(MPI_COMM_WORLD);
	}
	if (rank + 1 < size)
		for (int i = 0; i <= rank; i++)
			MPI_Send(buf, sizeof(buf), MPI_BYTE, rank + 1, 0, MPI_COMM_WORLD);
	if (rank > 0)
		for (int i = 0; i < rank; i++)
			MPI_Recv(buf, sizeof(buf), MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	if (rank == 0)
		printf("html-page ranks=%d ok\n", size);
	return 0;
}
