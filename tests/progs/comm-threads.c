/*
 * comm-threads.c - communicators made from several threads at once under
 * MPI_THREAD_MULTIPLE: each thread of each rank owns a copy of
 * MPI_COMM_WORLD and, in every round, leaves several MPI_Comm_idup of it
 * pending while it makes other communicators from the same parent
 * (MPI_Comm_dup, MPI_Comm_split, MPI_Comm_create of a group, an
 * intercommunicator of its two halves made with MPI_Intercomm_create and
 * merged) and uses and frees them; then it completes the idups and uses
 * those.  Every communicator is checked (size, rank, an allreduce, a ring
 * of messages with statuses).  The main thread prints, per thread, what
 * each kind of communicator gave, so that the transcript is the same
 * whatever the threads' order.
 * With "apart", each thread completes its idups before it makes the other
 * communicators: Open MPI 4.1 alone hangs now and then when a process has
 * several of its own communicator creations pending on one parent (its
 * communicator ids are agreed in the order each process happens to
 * progress them), which the overlapped rounds do.
 * With "spawn N CMD ARGS", a process starts N processes of CMD ARGS (this
 * program, or a launcher of it) with MPI_Comm_spawn and waits for them:
 * they run the threads in a world whose processes all have a parent in
 * another world.
 * Usage: comm-threads [THREADS [ROUNDS [IDUPS [apart]]]]   (at most 8, 8, 8)
 *        comm-threads spawn N CMD [ARGS...]
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 8
#define MAXIDUP 8

enum kind { K_DUP, K_SPLIT, K_CREATE, K_MERGE, K_IDUP, K_KINDS };
static const char *const kind_name[K_KINDS] = { "dup", "split", "create", "merge", "idup" };

static int nthreads = 4, rounds = 3, nidup = 3, apart;
static int wrank, wsize;
static MPI_Comm base[MAXT];

struct result {
	long made[K_KINDS];	/* communicators of that kind this thread made */
	long sum[K_KINDS];	/* sum of what their checks returned */
	int errors;
};
static struct result res[MAXT];

/* World rank of rank i of a communicator whose ranks are the world's from
 * first on, stride apart, modulo the world's size. */
static int world_of(int i, int first, int stride)
{
	return ((first + i * stride) % wsize + wsize) % wsize;
}

/* Checks comm, which should have `size` ranks with this process at `rank`
 * and world ranks as world_of says: an allreduce of the world ranks and a
 * ring of messages whose statuses are checked.  Returns the allreduce's
 * result; counts what is wrong in *errors. */
static long check_comm(MPI_Comm comm, int size, int rank, int first, int stride, int *errors)
{
	int n = -1, r = -1, inter = 1, next, prev, got = -1, count = -1;
	long mine = wrank, sum = -1, want = 0;
	MPI_Status st;

	MPI_Comm_size(comm, &n);
	MPI_Comm_rank(comm, &r);
	MPI_Comm_test_inter(comm, &inter);
	if (n != size || r != rank || inter || world_of(r, first, stride) != wrank)
		(*errors)++;
	MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, comm);
	for (int i = 0; i < size; i++)
		want += world_of(i, first, stride);
	if (sum != want)
		(*errors)++;
	next = (r + 1) % n;
	prev = (r + n - 1) % n;
	MPI_Sendrecv(&wrank, 1, MPI_INT, next, 40 + r, &got, 1, MPI_INT, prev, MPI_ANY_TAG, comm, &st);
	MPI_Get_count(&st, MPI_INT, &count);
	if (got != world_of(prev, first, stride) || st.MPI_SOURCE != prev || st.MPI_TAG != 40 + prev ||
	    count != 1)
		(*errors)++;
	return sum;
}

/* The idups of one round: started, and completed and checked. */
static void idups_start(MPI_Comm parent, MPI_Comm *idup, MPI_Request *req)
{
	for (int i = 0; i < nidup; i++)
		MPI_Comm_idup(parent, &idup[i], &req[i]);
}

static void idups_end(struct result *o, MPI_Comm *idup, MPI_Request *req)
{
	MPI_Waitall(nidup, req, MPI_STATUSES_IGNORE);
	for (int i = 0; i < nidup; i++) {
		o->sum[K_IDUP] += check_comm(idup[i], wsize, wrank, 0, 1, &o->errors);
		o->made[K_IDUP]++;
		MPI_Comm_free(&idup[i]);
	}
}

/* The lower and the upper half of parent as an intercommunicator (tag
 * apart from other threads'), merged with the upper half first. */
static void merge_halves(struct result *o, MPI_Comm parent, int t)
{
	int half = wsize / 2, low = wrank < half, n = -1;
	MPI_Comm local, inter, c;

	MPI_Comm_split(parent, low, wrank, &local);
	MPI_Intercomm_create(local, 0, parent, low ? half : 0, 50 + t, &inter);
	MPI_Comm_remote_size(inter, &n);
	if (n != (low ? wsize - half : half))
		o->errors++;
	MPI_Intercomm_merge(inter, low, &c);
	o->sum[K_MERGE] += check_comm(c, wsize, low ? wrank + wsize - half : wrank - half, half, 1,
				      &o->errors);
	o->made[K_MERGE]++;
	MPI_Comm_free(&c);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&local);
}

static void *worker(void *arg)
{
	int t = (int)(long)arg, half = wsize / 2;
	struct result *o = &res[t];
	MPI_Comm parent = base[t], idup[MAXIDUP], c;
	MPI_Request req[MAXIDUP];
	MPI_Group g, hi;
	int range[1][3] = { { half, wsize - 1, 1 } };

	MPI_Comm_group(parent, &g);
	MPI_Group_range_incl(g, 1, range, &hi);
	for (int round = 0; round < rounds; round++) {
		idups_start(parent, idup, req);
		if (apart)
			idups_end(o, idup, req);

		MPI_Comm_dup(parent, &c);
		o->sum[K_DUP] += check_comm(c, wsize, wrank, 0, 1, &o->errors);
		o->made[K_DUP]++;
		MPI_Comm_free(&c);

		/* even and odd world ranks, in reverse order */
		MPI_Comm_split(parent, wrank % 2, wsize - wrank, &c);
		{
			int n = (wsize - wrank % 2 + 1) / 2, last = wrank % 2 + 2 * (n - 1);

			o->sum[K_SPLIT] += check_comm(c, n, (last - wrank) / 2, last, -2, &o->errors);
		}
		o->made[K_SPLIT]++;
		MPI_Comm_free(&c);

		/* the upper half; the others get MPI_COMM_NULL */
		MPI_Comm_create(parent, hi, &c);
		if ((c != MPI_COMM_NULL) != (wrank >= half))
			o->errors++;
		if (c != MPI_COMM_NULL) {
			o->sum[K_CREATE] += check_comm(c, wsize - half, wrank - half, half, 1, &o->errors);
			o->made[K_CREATE]++;
			MPI_Comm_free(&c);
		}

		merge_halves(o, parent, t);
		if (!apart)
			idups_end(o, idup, req);
	}
	MPI_Group_free(&hi);
	MPI_Group_free(&g);
	return NULL;
}

/* "spawn N CMD [ARGS...]": N processes of CMD ARGS (this program, or a
 * launcher of it) started in a world of their own, which run the threads
 * with a parent in another world; returns when they have disconnected. */
static int spawn(int n, char *cmd, char **args)
{
	MPI_Comm inter;
	int rc;

	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	rc = MPI_Comm_spawn(cmd, args, n, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter, MPI_ERRCODES_IGNORE);
	if (rc != MPI_SUCCESS) {
		printf("cannot spawn\n");
		return 3;
	}
	MPI_Comm_disconnect(&inter);
	return 0;
}

int main(int argc, char **argv)
{
	int provided = 0, spawning = argc > 3 && !strcmp(argv[1], "spawn"), rc = 0;
	pthread_t tid[MAXT];
	MPI_Comm parent;

	if (!spawning && argc > 1)
		nthreads = atoi(argv[1]);
	if (!spawning && argc > 2)
		rounds = atoi(argv[2]);
	if (!spawning && argc > 3)
		nidup = atoi(argv[3]);
	apart = !spawning && argc > 4 && !strcmp(argv[4], "apart");
	if (nthreads < 1 || nthreads > MAXT || rounds < 1 || rounds > 8 || nidup < 1 || nidup > MAXIDUP ||
	    (!spawning && argc > 4 && !apart)) {
		fprintf(stderr, "usage: comm-threads [THREADS [ROUNDS [IDUPS [apart]]]] (1-8 each)\n"
			"       comm-threads spawn N CMD [ARGS...]\n");
		return 2;
	}
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	if (provided < MPI_THREAD_MULTIPLE) {
		if (wrank == 0)
			printf("no MPI_THREAD_MULTIPLE\n");
		MPI_Finalize();
		return 0;
	}
	if (spawning) {
		rc = spawn(atoi(argv[2]), argv[3], &argv[4]);
		MPI_Finalize();
		return rc;
	}
	for (int t = 0; t < nthreads; t++)
		MPI_Comm_dup(MPI_COMM_WORLD, &base[t]);
	for (int t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)(long)t);
	for (int t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	for (int t = 0; t < nthreads; t++)
		MPI_Comm_free(&base[t]);

	/* one line per rank and thread, in order */
	for (int r = 0; r < wsize; r++) {
		if (r == wrank)
			for (int t = 0; t < nthreads; t++) {
				printf("rank %d thread %d:", wrank, t);
				for (int k = 0; k < K_KINDS; k++)
					printf(" %s %ld/%ld", kind_name[k], res[t].made[k], res[t].sum[k]);
				printf(" errors %d\n", res[t].errors);
				fflush(stdout);
			}
		MPI_Barrier(MPI_COMM_WORLD);
	}
	MPI_Comm_get_parent(&parent);
	if (parent != MPI_COMM_NULL)
		MPI_Comm_disconnect(&parent);
	MPI_Finalize();
	return 0;
}
