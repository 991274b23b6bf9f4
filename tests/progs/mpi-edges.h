/*
 * mpi-edges.h - the edges of completion in mpi-semantics.c: truncated
 * receives, requests freed while active, a communicator freed with a
 * receive pending on it, more matched probes outstanding than a small
 * table would hold, a datatype larger than an int can count, and
 * datatypes freed while requests use them.  Included by mpi-semantics.c, which is built as one
 * file, after its rank, say() and status_line().
 */
#ifndef CPPERF_MPI_EDGES_H
#define CPPERF_MPI_EDGES_H

/* One truncated receive's outcome: its error class, what reached the
 * buffer and (Open MPI) the count of the whole message.  MPICH delivers
 * nothing and leaves the count undefined: it differs between runs of one
 * call. */
static void truncated_line(const char *what, int rc, const MPI_Status *st, const int *b)
{
	int cls;

	MPI_Error_class(rc, &cls);
	say("%s: truncated %d, data %d %d %d %d\n", what, cls == MPI_ERR_TRUNCATE, b[0], b[1], b[2],
	    b[3]);
#ifndef MPICH_VERSION
	status_line(what, st, MPI_INT);
#else
	(void)st;
#endif
}

/* Receives of 4 ints given 6, errors returned: blocking, matched,
 * non-blocking, and the second start of a persistent receive whose first
 * message fitted (its earlier header must not count as this one's). */
static void truncation(void)
{
	int a[6] = { 61, 62, 63, 64, 65, 66 }, b[4], peer = rank ^ 1, rc;
	MPI_Request r;
	MPI_Message m;
	MPI_Status st;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (rank % 2 == 0) {
		for (int tag = 100; tag < 103; tag++)
			MPI_Send(a, 6, MPI_INT, peer, tag, MPI_COMM_WORLD);
		MPI_Send(a + 2, 4, MPI_INT, peer, 103, MPI_COMM_WORLD);
		MPI_Send(a, 6, MPI_INT, peer, 103, MPI_COMM_WORLD);
	} else {
		memset(b, 0xff, sizeof(b));
		rc = MPI_Recv(b, 4, MPI_INT, peer, 100, MPI_COMM_WORLD, &st);
		truncated_line("truncated recv", rc, &st, b);
		memset(b, 0xff, sizeof(b));
		MPI_Mprobe(peer, 101, MPI_COMM_WORLD, &m, &st);
		rc = MPI_Mrecv(b, 4, MPI_INT, &m, &st);
		truncated_line("truncated mrecv", rc, &st, b);
		memset(b, 0xff, sizeof(b));
		MPI_Irecv(b, 4, MPI_INT, peer, 102, MPI_COMM_WORLD, &r);
		rc = MPI_Wait(&r, &st);
		truncated_line("truncated wait", rc, &st, b);
		MPI_Recv_init(b, 4, MPI_INT, peer, 103, MPI_COMM_WORLD, &r);
		MPI_Start(&r);
		MPI_Wait(&r, &st);
		memset(b, 0xff, sizeof(b));
		MPI_Start(&r);
		rc = MPI_Wait(&r, &st);
		truncated_line("truncated restart", rc, &st, b);
		MPI_Request_free(&r);
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Requests freed while active (MPI_Request_free): a send, a receive and
 * a started persistent receive complete by themselves, and a synchronous
 * send behind them shows they have. */
static void freed_requests(void)
{
	int a[3] = { 71, 72, 73 }, b[3] = { 0 }, c[3] = { 0 }, x = 0, peer = rank ^ 1;
	MPI_Request r;

	if (rank % 2 == 0) {
		MPI_Isend(a, 3, MPI_INT, peer, 104, MPI_COMM_WORLD, &r);
		MPI_Request_free(&r);
		MPI_Send(a + 1, 2, MPI_INT, peer, 105, MPI_COMM_WORLD);
		MPI_Ssend(&x, 1, MPI_INT, peer, 106, MPI_COMM_WORLD);
	} else {
		MPI_Irecv(b, 3, MPI_INT, peer, 104, MPI_COMM_WORLD, &r);
		MPI_Request_free(&r);
		say("freed request is null: %d\n", r == MPI_REQUEST_NULL);
		MPI_Recv_init(c, 3, MPI_INT, peer, 105, MPI_COMM_WORLD, &r);
		MPI_Start(&r);
		MPI_Request_free(&r);
		MPI_Recv(&x, 1, MPI_INT, peer, 106, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		say("freed receives: %d %d %d, persistent %d %d\n", b[0], b[1], b[2], c[0], c[1]);
	}
}

/* A receive posted on a communicator that is freed before the message
 * comes: MPI frees it once the receive completes. */
static void pending_over_free(void)
{
	int v = 0, peer = rank ^ 1;
	MPI_Comm dup;
	MPI_Request r;

	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	if (rank % 2) {
		MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 107, dup, &r);
		MPI_Comm_free(&dup);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank % 2 == 0) {
		v = 100 + rank;
		MPI_Send(&v, 1, MPI_INT, peer, 107, dup);
		MPI_Comm_free(&dup);
	} else {
		MPI_Wait(&r, MPI_STATUS_IGNORE);
		say("received on a freed communicator: %d\n", v);
	}
}

/* 300 messages matched by MPI_Mprobe before the first MPI_Mrecv, then
 * received in reverse order. */
static void many_matched_probes(void)
{
	enum { N = 300 };
	MPI_Message m[N];
	int v, peer = rank ^ 1;
	long sum = 0;

	if (rank % 2 == 0) {
		for (int i = 0; i < N; i++)
			MPI_Send(&i, 1, MPI_INT, peer, 108, MPI_COMM_WORLD);
		return;
	}
	for (int i = 0; i < N; i++)
		MPI_Mprobe(peer, 108, MPI_COMM_WORLD, &m[i], MPI_STATUS_IGNORE);
	for (int i = N - 1; i >= 0; i--) {
		MPI_Mrecv(&v, 1, MPI_INT, &m[i], MPI_STATUS_IGNORE);
		sum += (long)v * (i + 1);
	}
	say("matched probes: weighted sum %ld\n", sum);
}

/* 10 doubles received into one element of a datatype of INT_MAX doubles,
 * whose size MPI_Type_size cannot give (MPI_UNDEFINED). */
static void huge_datatype(void)
{
	double d[10];
	MPI_Datatype huge;
	MPI_Status st;
	int peer = rank ^ 1, e;

	MPI_Type_contiguous(INT_MAX, MPI_DOUBLE, &huge);
	MPI_Type_commit(&huge);
	for (int i = 0; i < 10; i++)
		d[i] = rank % 2 ? -1 : i + 0.5;
	if (rank % 2 == 0) {
		MPI_Send(d, 10, MPI_DOUBLE, peer, 109, MPI_COMM_WORLD);
	} else {
		MPI_Recv(d, 1, huge, peer, 109, MPI_COMM_WORLD, &st);
		MPI_Get_elements(&st, MPI_DOUBLE, &e);
		say("huge datatype: %d doubles, last %g\n", e, d[9]);
	}
	MPI_Type_free(&huge);
}

/* Datatypes the program frees while requests use them (MPI keeps them
 * for the operation): a receive of a vector, waited for after the free,
 * and a persistent send of one, started twice after it. */
static void freed_datatypes(void)
{
	int a[8] = { 81, 82, 83, 84, 85, 86, 87, 88 }, b[9], peer = rank ^ 1;
	MPI_Datatype vec;
	MPI_Request r;

	MPI_Type_vector(3, 2, 3, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	if (rank % 2 == 0) {
		MPI_Send_init(a, 1, vec, peer, 110, MPI_COMM_WORLD, &r);
		MPI_Type_free(&vec);
		for (int i = 0; i < 2; i++) {
			a[0] += i;
			MPI_Start(&r);
			MPI_Wait(&r, MPI_STATUS_IGNORE);
		}
		MPI_Request_free(&r);
		return;
	}
	for (int i = 0; i < 9; i++)
		b[i] = -1;
	MPI_Irecv(b, 1, vec, peer, 110, MPI_COMM_WORLD, &r);
	MPI_Type_free(&vec);
	MPI_Wait(&r, MPI_STATUS_IGNORE);
	say("freed datatype: %d %d %d %d %d %d %d\n", b[0], b[1], b[2], b[3], b[4], b[6], b[7]);
	MPI_Recv(b, 6, MPI_INT, peer, 110, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	say("freed datatype, second start: %d %d %d %d %d %d\n", b[0], b[1], b[2], b[3], b[4],
	    b[5]);
}

#endif
