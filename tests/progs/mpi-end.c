/*
 * mpi-end.c - an MPI job that ends badly on purpose, for the tests of
 * partial profiles.  Usage: mpi-end SECONDS [RANK HOW AT]
 * Every rank computes in rounds of about 20 ms, each closed by an
 * MPI_Allreduce, for SECONDS (rounds end when one rank's time is up),
 * then calls MPI_Finalize.  With RANK HOW AT,
 * that rank, once AT seconds have passed, ends HOW:
 *   segv     a NULL store (SIGSEGV)
 *   abort    MPI_Abort(MPI_COMM_WORLD, 3)
 *   exit     exit(2) without MPI_Finalize
 *   _exit    _exit(2) without MPI_Finalize
 *   handler  installs a SIGTERM handler of its own at the start, which
 *            writes "handled" to stderr and _exit(5)s; at AT it raises
 *            SIGTERM
 *   kill     SIGKILLs itself where it would call MPI_Finalize (AT unused)
 *   late     calls MPI_Finalize AT seconds after the others
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spin.h"

static void on_term(int sig)
{
	static const char msg[] = "handled\n";

	(void)sig;
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(5);
}

static void end_badly(const char *how)
{
	if (!strcmp(how, "segv"))
		*nowhere = 1;
	else if (!strcmp(how, "abort"))
		MPI_Abort(MPI_COMM_WORLD, 3);
	else if (!strcmp(how, "exit"))
		exit(2);
	else if (!strcmp(how, "_exit"))
		_exit(2);
	else if (!strcmp(how, "handler"))
		raise(SIGTERM);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2, at = argc > 4 ? atof(argv[4]) : 0, t0;
	int rank, bad = argc > 3 ? atoi(argv[2]) : -1;
	const char *how = argc > 3 ? argv[3] : "";
	long go = 1, all = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == bad && !strcmp(how, "handler"))
		signal(SIGTERM, on_term);
	t0 = now();
	while (all) {	/* every rank makes as many rounds: they agree when to stop */
		compute(0.02);
		if (rank == bad && now() - t0 >= at && strcmp(how, "late") && strcmp(how, "kill"))
			end_badly(how);
		go = now() - t0 < seconds;
		MPI_Allreduce(&go, &all, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
	}
	if (rank == bad && !strcmp(how, "kill"))
		raise(SIGKILL);
	if (rank == bad && !strcmp(how, "late"))
		usleep((useconds_t)(at * 1e6));
	MPI_Finalize();
	return 0;
}
