/*
 * demo-mpi.c - the README's demo: a 1-D heat stencil whose ranks exchange
 * halos every step, with an uneven split of work so the profile has
 * something to show.  Usage: demo-mpi STEPS
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 200000

__attribute__((noinline)) static void relax(double *u, double *v, int n)
{
	for (int i = 1; i <= n; i++)
		v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
}

__attribute__((noinline)) static double residual(const double *u, const double *v, int n)
{
	double r = 0;

	for (int i = 1; i <= n; i++)
		r += (u[i] - v[i]) * (u[i] - v[i]);
	return r;
}

static void exchange(double *u, int n, int rank, int size)
{
	int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

	MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[n + 1], 1, MPI_DOUBLE, right, 0,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	int rank, size, steps = argc > 1 ? atoi(argv[1]) : 2000;
	double *u, *v, r = 0, total;
	int n;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	n = N + rank * N / 4;	/* uneven on purpose */
	u = calloc(n + 2, sizeof(double));
	v = calloc(n + 2, sizeof(double));
	u[n / 2] = 1.0;
	for (int s = 0; s < steps; s++) {
		double *t;

		exchange(u, n, rank, size);
		relax(u, v, n);
		if (s % 10 == 0)
			r = residual(u, v, n);
		t = u, u = v, v = t;
	}
	MPI_Reduce(&r, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("demo: %d ranks, %d steps, residual %.3e\n", size, steps, total);
	free(u);
	free(v);
	MPI_Finalize();
	return 0;
}
