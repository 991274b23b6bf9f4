/*
 * spawn-peers.c - a job that starts two more processes with
 * MPI_Comm_spawn_multiple and talks to them: the same program is parent
 * and child (a child has a parent intercommunicator).  Over the
 * intercommunicator: a broadcast from the parents, messages both ways
 * (wildcards, a probe, matched probes, a large one, non-blocking ones)
 * with their statuses checked, an allreduce; over a duplicate of it, one
 * message; over the two sides merged (MPI_Intercomm_merge): an allreduce,
 * a broadcast, a ring of messages and a barrier; over each side split off
 * the merged communicator again: an allreduce and a ring.  Each process
 * prints what it got and how many checks failed, so a run under any
 * tool must print what a plain run prints (sorted: the processes' lines
 * interleave).  A parent whose MPI cannot spawn says "cannot spawn: " and
 * MPI's reason, and exits with 3.
 * Usage: spawn-peers CMD [ARGS...]   (run on 2 ranks; the children are
 *        CMD ARGS... child0 and CMD ARGS... child1, CMD being this program
 *        or a launcher of it)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCHILD 2
#define BIG 3000		/* ints: a message larger than a few KiB */

static int errors;

static void expect(int ok)
{
	if (!ok)
		errors++;
}

/* A status of a message of n elements of type from source with tag. */
static void expect_status(const MPI_Status *st, MPI_Datatype type, int n, int source, int tag)
{
	int count = -1;

	MPI_Get_count(st, type, &count);
	expect(count == n && st->MPI_SOURCE == source && st->MPI_TAG == tag);
}

/* A ring of messages on intracommunicator comm, statuses checked; returns
 * the sum of what came from the previous rank. */
static long ring(MPI_Comm comm, long mine)
{
	int r, n;
	long got = -1;
	MPI_Status st;

	MPI_Comm_rank(comm, &r);
	MPI_Comm_size(comm, &n);
	MPI_Sendrecv(&mine, 1, MPI_LONG, (r + 1) % n, 30 + r, &got, 1, MPI_LONG, MPI_ANY_SOURCE,
		     MPI_ANY_TAG, comm, &st);
	expect_status(&st, MPI_LONG, 1, (r + n - 1) % n, 30 + (r + n - 1) % n);
	return got;
}

/* What both sides do over the intercommunicator: child is this process's
 * number among the children, -1 in a parent; me its rank in its side. */
static void over_inter(MPI_Comm inter, int child, int me, const char *who)
{
	int data[5] = { 0 }, big[BIG], v[4], rsize;
	long sum = 0, total = -1;
	double d[3] = { 0 };
	MPI_Status st;
	MPI_Request req;
	MPI_Comm dup;

	MPI_Comm_remote_size(inter, &rsize);
	expect(rsize == (child < 0 ? NCHILD : 2));

	/* a broadcast from parent 0 */
	if (child < 0 && me == 0)
		for (int i = 0; i < 5; i++)
			data[i] = 10 * i + 1;
	MPI_Bcast(data, 5, MPI_INT, child >= 0 ? 0 : me == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
	if (child >= 0)
		for (int i = 0; i < 5; i++)
			expect(data[i] == 10 * i + 1);

	/* each child to parent 0, received with wildcards */
	if (child >= 0) {
		int x = 100 + child;

		MPI_Send(&x, 1, MPI_INT, 0, 7 + child, inter);
	} else if (me == 0) {
		for (int i = 0; i < NCHILD; i++) {
			int x = -1;

			MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &st);
			expect_status(&st, MPI_INT, 1, x - 100, 7 + x - 100);
			sum += x;
		}
	}

	/* parent p to child p */
	if (child < 0) {
		for (int i = 0; i < 3; i++)
			d[i] = me + 0.5 * i;
		MPI_Send(d, 3, MPI_DOUBLE, me, 11, inter);
	} else {
		MPI_Recv(d, 3, MPI_DOUBLE, child, 11, inter, &st);
		expect_status(&st, MPI_DOUBLE, 3, child, 11);
		for (int i = 0; i < 3; i++)
			expect(d[i] == child + 0.5 * i);
	}

	/* a large message, non-blocking on both ends: parent 0 to child 1 */
	if (child < 0 && me == 0) {
		for (int i = 0; i < BIG; i++)
			big[i] = i ^ 0x5a;
		MPI_Isend(big, BIG, MPI_INT, 1, 12, inter, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	} else if (child == 1) {
		memset(big, 0, sizeof(big));
		MPI_Irecv(big, BIG, MPI_INT, 0, MPI_ANY_TAG, inter, &req);
		MPI_Wait(&req, &st);
		expect_status(&st, MPI_INT, BIG, 0, 12);
		for (int i = 0; i < BIG; i++)
			expect(big[i] == (i ^ 0x5a));
	}

	/* a probe: child 0 to parent 1 */
	if (child == 0) {
		for (int i = 0; i < 4; i++)
			v[i] = 40 + i;
		MPI_Send(v, 4, MPI_INT, 1, 21, inter);
	} else if (child < 0 && me == 1) {
		int count = -1;

		MPI_Probe(MPI_ANY_SOURCE, 21, inter, &st);
		MPI_Get_count(&st, MPI_INT, &count);
		expect(count == 4 && st.MPI_SOURCE == 0);
		MPI_Recv(v, count, MPI_INT, st.MPI_SOURCE, 21, inter, &st);
		expect_status(&st, MPI_INT, 4, 0, 21);
		for (int i = 0; i < 4; i++)
			expect(v[i] == 40 + i);
	}

	/* matched probes: child 1 to parent 0, received with MPI_Mrecv and
	 * with MPI_Imrecv */
	if (child == 1) {
		int x[2] = { 220, 221 }, y = 230;

		MPI_Send(x, 2, MPI_INT, 0, 22, inter);
		MPI_Send(&y, 1, MPI_INT, 0, 23, inter);
	} else if (child < 0 && me == 0) {
		MPI_Message msg;
		int x[2] = { 0 }, y = 0, flag = 0, count = -1;

		MPI_Mprobe(1, 22, inter, &msg, &st);
		MPI_Get_count(&st, MPI_INT, &count);
		expect(count == 2);
		MPI_Mrecv(x, 2, MPI_INT, &msg, &st);
		expect_status(&st, MPI_INT, 2, 1, 22);
		expect(x[0] == 220 && x[1] == 221);
		while (!flag)
			MPI_Improbe(1, 23, inter, &flag, &msg, &st);
		MPI_Get_count(&st, MPI_INT, &count);
		expect(count == 1);
		MPI_Imrecv(&y, 1, MPI_INT, &msg, &req);
		MPI_Wait(&req, &st);
		expect_status(&st, MPI_INT, 1, 1, 23);
		expect(y == 230);
		sum += x[0] + x[1] + y;
	}

	/* an allreduce: each side gets the other's sum */
	{
		long mine = child < 0 ? 1000 + me : child;

		MPI_Allreduce(&mine, &total, 1, MPI_LONG, MPI_SUM, inter);
		expect(total == (child < 0 ? 0 + 1 : 1000 + 1001));
	}

	/* a duplicate of the intercommunicator: one message back to parent 0 */
	MPI_Comm_dup(inter, &dup);
	if (child == 1) {
		int x = 77;

		MPI_Ssend(&x, 1, MPI_INT, 0, 13, dup);
	} else if (child < 0 && me == 0) {
		int x = -1;

		MPI_Recv(&x, 1, MPI_INT, 1, 13, dup, &st);
		expect_status(&st, MPI_INT, 1, 1, 13);
		expect(x == 77);
	}
	MPI_Comm_free(&dup);
	printf("%s: inter bcast %d %d, sum %ld, allreduce %ld\n", who, data[0], data[4], sum, total);
}

/* What both sides do over the merged communicator and the sides split off
 * it again. */
static void over_merged(MPI_Comm inter, int child, const char *who)
{
	MPI_Comm merged, side;
	int r = -1, n = -1, sr = -1, sn = -1, b = -1;
	long all = -1, sum = -1, prev, sprev;

	MPI_Intercomm_merge(inter, child >= 0, &merged);
	MPI_Comm_rank(merged, &r);
	MPI_Comm_size(merged, &n);
	expect(n == 2 + NCHILD);
	MPI_Allreduce(&(long){ r }, &all, 1, MPI_LONG, MPI_SUM, merged);
	expect(all == (long)n * (n - 1) / 2);
	if (r == n - 1)
		b = 99;
	MPI_Bcast(&b, 1, MPI_INT, n - 1, merged);
	expect(b == 99);
	prev = ring(merged, 1000 + r);
	expect(prev == 1000 + (r + n - 1) % n);
	MPI_Barrier(merged);

	MPI_Comm_split(merged, child >= 0, r, &side);
	MPI_Comm_rank(side, &sr);
	MPI_Comm_size(side, &sn);
	expect(sn == (child >= 0 ? NCHILD : 2));
	MPI_Allreduce(&(long){ sr + 1 }, &sum, 1, MPI_LONG, MPI_SUM, side);
	expect(sum == (long)sn * (sn + 1) / 2);
	sprev = ring(side, sr);
	expect(sprev == (sr + sn - 1) % sn);
	MPI_Comm_free(&side);
	MPI_Comm_free(&merged);
	printf("%s: merged rank %d of %d, allreduce %ld, bcast %d, ring %ld; side rank %d of %d, "
	       "allreduce %ld, ring %ld\n", who, r, n, all, b, prev, sr, sn, sum, sprev);
}

int main(int argc, char **argv)
{
	MPI_Comm parent, inter;
	char who[32];
	int rank, size, child = -1, rc;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_get_parent(&parent);
	if (parent != MPI_COMM_NULL) {
		child = rank;
		inter = parent;
		/* the last argument names the child */
		expect(size == NCHILD && argc > 1 && !strncmp(argv[argc - 1], "child", 5) &&
		       atoi(argv[argc - 1] + 5) == rank);
		snprintf(who, sizeof(who), "child %d", rank);
	} else {
		char *cmds[NCHILD], **args[NCHILD], name[NCHILD][16];
		int np[NCHILD], codes[NCHILD] = { -1, -1 };
		MPI_Info infos[NCHILD];

		if (argc < 2 || size != 2) {
			if (rank == 0)
				fprintf(stderr, "usage: mpirun -np 2 spawn-peers CMD [ARGS...]\n");
			MPI_Finalize();
			return 2;
		}
		for (int i = 0; i < NCHILD; i++) {
			cmds[i] = argv[1];
			args[i] = calloc((size_t)argc, sizeof(char *));
			for (int a = 2; a < argc; a++)
				args[i][a - 2] = argv[a];
			snprintf(name[i], sizeof(name[i]), "child%d", i);
			args[i][argc - 2] = name[i];
			np[i] = 1;
			infos[i] = MPI_INFO_NULL;
		}
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		rc = MPI_Comm_spawn_multiple(NCHILD, cmds, args, np, infos, 0, MPI_COMM_WORLD, &inter,
					     codes);
		if (rc != MPI_SUCCESS) {
			char why[MPI_MAX_ERROR_STRING], *last;
			int len = 0;

			MPI_Error_string(rc, why, &len);
			why[len] = 0;
			last = strrchr(why, '\n');
			if (rank == 0)
				printf("cannot spawn: %s\n", last && last[1] ? last + 1 : why);
			MPI_Finalize();
			return 3;
		}
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
		for (int i = 0; i < NCHILD; i++) {
			expect(codes[i] == MPI_SUCCESS);
			free(args[i]);
		}
		snprintf(who, sizeof(who), "parent %d", rank);
	}
	over_inter(inter, child, child >= 0 ? child : rank, who);
	over_merged(inter, child, who);
	MPI_Comm_disconnect(&inter);
	printf("%s: errors %d\n", who, errors);
	fflush(stdout);
	MPI_Finalize();
	return errors != 0;
}
