/*
 * mpi-semantics.c - MPI behaviour that the wrappers must not change, on 4
 * ranks: each rank logs what it observes (sources, tags, counts, values,
 * flags) in a deterministic order, and rank 0 prints every rank's log.
 * Besides the basics: large messages (from and into many buffers,
 * non-contiguous, persistent, probed, buffered, truncated, replaced),
 * truncated receives, requests freed while active, a communicator freed
 * with a receive pending, hundreds of matched probes outstanding, a
 * datatype of more than INT_MAX bytes, datatypes freed while requests use
 * them, receives completing in another order than they matched,
 * MPI_Request_get_status, the empty statuses of null and inactive
 * requests, MPI_ERR_IN_STATUS from Waitall, MPI's own error text for a
 * collective on MPI_COMM_NULL, and threads
 * with a thousand requests each in flight, a distributed graph with
 * different in- and out-neighbours, attribute copy callbacks counted,
 * communicators made by several threads at once, and the small blocking
 * collectives that carry the piggyback inside them laid out differently
 * on each rank (broadcasts, reductions, gathers, scatters, all-to-alls),
 * the predefined operators they apply, and the non-blocking reductions,
 * scans, broadcasts and barriers that carry it in flight.
 * mpi-semantics.t diffs the output with and without cpperf-record.
 */
#include <mpi.h>
#include <pthread.h>
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG 16384

static char logbuf[LOG];
static size_t loglen;
static int rank;

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	loglen += (size_t)vsnprintf(logbuf + loglen, LOG - loglen, fmt, ap);
	va_end(ap);
}

static void status_line(const char *what, const MPI_Status *st, MPI_Datatype t)
{
	int n, e;

	MPI_Get_count(st, t, &n);
	MPI_Get_elements(st, t, &e);
	say("%s: source %d tag %d count %d elements %d\n", what, st->MPI_SOURCE, st->MPI_TAG, n, e);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

#include "mpi-large.h"
#include "mpi-edges.h"

/* ANY_SOURCE/ANY_TAG, Probe + Get_count, Mprobe/Mrecv, zero length, PROC_NULL */
static void matching(void)
{
	int v[64] = { 0 }, got[3];
	MPI_Status st;
	MPI_Message m;

	if (rank) {
		MPI_Send(&rank, 1, MPI_INT, 0, rank * 10, MPI_COMM_WORLD);
	} else {
		for (int i = 0; i < 3; i++) {
			MPI_Recv(v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			got[i] = st.MPI_SOURCE * 1000 + st.MPI_TAG * 10 + v[0];
		}
		qsort(got, 3, sizeof(int), cmp_int);
		say("any: %d %d %d\n", got[0], got[1], got[2]);
	}
	if (rank == 0)
		MPI_Send(v, 37, MPI_INT, 1, 5, MPI_COMM_WORLD);
	if (rank == 1) {
		MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		status_line("probe", &st, MPI_INT);
		MPI_Recv(v, 64, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
		status_line("recv", &st, MPI_INT);
	}
	if (rank == 2)
		MPI_Send(v, 0, MPI_INT, 3, 0, MPI_COMM_WORLD);
	if (rank == 3) {
		MPI_Mprobe(2, 0, MPI_COMM_WORLD, &m, &st);
		status_line("mprobe zero", &st, MPI_INT);
		MPI_Mrecv(v, 1, MPI_INT, &m, &st);
		status_line("mrecv zero", &st, MPI_INT);
	}
	MPI_Sendrecv(v, 3, MPI_INT, MPI_PROC_NULL, 1, v + 3, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
	say("proc_null: source %d tag %d\n", st.MPI_SOURCE, st.MPI_TAG);
}

/* ANY_TAG order from one source (non-overtaking), Iprobe, Improbe/Imrecv */
static void ordering(void)
{
	int v[8] = { 0 }, flag = 0;
	MPI_Status st;
	MPI_Message m;
	MPI_Request r;

	if (rank == 1)
		for (int t = 3; t >= 1; t--) {
			v[0] = t * 100;
			MPI_Send(v, t, MPI_INT, 0, t, MPI_COMM_WORLD);
		}
	if (rank == 0)
		for (int i = 0; i < 3; i++) {
			MPI_Recv(v, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			status_line("order", &st, MPI_INT);
			say("order value %d\n", v[0]);
		}
	if (rank == 2)
		MPI_Send(v, 5, MPI_INT, 3, 8, MPI_COMM_WORLD);
	if (rank == 3) {
		while (!flag)
			MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		status_line("iprobe", &st, MPI_INT);
		for (flag = 0; !flag;)
			MPI_Improbe(2, 8, MPI_COMM_WORLD, &flag, &m, &st);
		status_line("improbe", &st, MPI_INT);
		MPI_Imrecv(v, 8, MPI_INT, &m, &r);
		MPI_Wait(&r, &st);
		status_line("imrecv", &st, MPI_INT);
	}
}

/* synchronous, ready and buffered sends; rendezvous-sized messages with the
 * receive posted before and after the send; no deadlock may appear */
#define BIG (1 << 20)

static void synchronous(void)
{
	int *a = calloc(BIG, sizeof(int)), *b = calloc(BIG, sizeof(int)), peer = rank ^ 1;
	int bsize = 4 * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
	void *bbuf = malloc((size_t)bsize);
	MPI_Request r;
	MPI_Status st;

	for (int i = 0; i < BIG; i++)
		a[i] = rank * BIG + i;
	/* receive posted before: Irecv, barrier, Ssend */
	MPI_Irecv(b, BIG, MPI_INT, peer, 20, MPI_COMM_WORLD, &r);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Ssend(a, BIG, MPI_INT, peer, 20, MPI_COMM_WORLD);
	MPI_Wait(&r, &st);
	status_line("ssend before", &st, MPI_INT);
	say("ssend before data: %d %d\n", b[0], b[BIG - 1]);
	/* receive posted after: the even rank sends first, the odd one receives later */
	if (rank % 2 == 0) {
		MPI_Ssend(a, 1, MPI_INT, peer, 21, MPI_COMM_WORLD);
		MPI_Send(a, BIG, MPI_INT, peer, 22, MPI_COMM_WORLD);
		MPI_Recv(b, BIG, MPI_INT, peer, 23, MPI_COMM_WORLD, &st);
	} else {
		MPI_Recv(b, 1, MPI_INT, peer, 21, MPI_COMM_WORLD, &st);
		MPI_Recv(b, BIG, MPI_INT, peer, 22, MPI_COMM_WORLD, &st);
		MPI_Ssend(a, BIG, MPI_INT, peer, 23, MPI_COMM_WORLD);
	}
	status_line("rendezvous after", &st, MPI_INT);
	say("rendezvous data: %d %d\n", b[0], b[BIG - 1]);
	/* both directions at once, large, through Sendrecv */
	MPI_Sendrecv(a, BIG, MPI_INT, peer, 24, b, BIG, MPI_INT, peer, 24, MPI_COMM_WORLD, &st);
	status_line("sendrecv big", &st, MPI_INT);
	/* ready send into a posted receive; buffered send */
	MPI_Irecv(b, 4, MPI_INT, peer, 25, MPI_COMM_WORLD, &r);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Rsend(a, 4, MPI_INT, peer, 25, MPI_COMM_WORLD);
	MPI_Wait(&r, &st);
	status_line("rsend", &st, MPI_INT);
	MPI_Buffer_attach(bbuf, bsize);
	MPI_Bsend(a, 4, MPI_INT, peer, 26, MPI_COMM_WORLD);
	MPI_Recv(b, 4, MPI_INT, peer, 26, MPI_COMM_WORLD, &st);
	MPI_Buffer_detach(&bbuf, &bsize);
	status_line("bsend", &st, MPI_INT);
	say("bsend data: %d\n", b[3]);
	free(bbuf);
	free(a);
	free(b);
}

/* persistent requests, cancel, derived datatypes */
static void requests(void)
{
	int v[16], w[16] = { 0 }, flag;
	MPI_Request r;
	MPI_Status st;
	MPI_Datatype vec;

	if (rank == 0 || rank == 1) {
		if (rank == 0)
			MPI_Send_init(v, 2, MPI_INT, 1, 7, MPI_COMM_WORLD, &r);
		else
			MPI_Recv_init(w, 2, MPI_INT, 0, 7, MPI_COMM_WORLD, &r);
		for (int i = 0; i < 3; i++) {
			v[0] = i;
			v[1] = i * i;
			MPI_Start(&r);
			MPI_Wait(&r, &st);
			if (rank == 1)
				say("persistent %d: %d %d, source %d\n", i, w[0], w[1], st.MPI_SOURCE);
		}
		MPI_Request_free(&r);
	}
	MPI_Irecv(w, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r);
	MPI_Cancel(&r);
	MPI_Wait(&r, &st);
	MPI_Test_cancelled(&st, &flag);
	say("cancelled %d\n", flag);
	MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (int i = 0; i < 16; i++)
		v[i] = i;
	if (rank == 1)
		MPI_Send(v, 1, vec, 2, 3, MPI_COMM_WORLD);
	if (rank == 2) {
		MPI_Recv(w, 16, MPI_INT, 1, 3, MPI_COMM_WORLD, &st);
		status_line("vector", &st, MPI_INT);
		say("vector data: %d %d %d %d %d %d\n", w[0], w[1], w[2], w[3], w[4], w[5]);
	}
	MPI_Type_free(&vec);
}

/* Datatypes whose typemap is not their memory order, an element that
 * comes in part, and absolute addresses from MPI_BOTTOM, small and large. */
static void layouts(void)
{
	enum { L = 3000 };
	static int x[3];
	static double y[2];
	int peer = rank ^ 1, odd = rank % 2, bl[2] = { 1, 1 }, dp[2] = { 1, 0 }, lens[2] = { 3, 2 };
	int a[3] = { 10 + rank, 20 + rank, 30 + rank }, b[6] = { -1, -1, -1, -1, -1, -1 }, e, *big;
	MPI_Datatype swap, bigswap, vec, abs, types[2] = { MPI_INT, MPI_DOUBLE };
	MPI_Aint at[2];
	MPI_Status st;

	MPI_Type_indexed(2, bl, dp, MPI_INT, &swap);	/* a[1] travels first */
	MPI_Type_commit(&swap);
	MPI_Type_contiguous(L, swap, &bigswap);
	MPI_Type_commit(&bigswap);
	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	MPI_Get_address(x, &at[0]);
	MPI_Get_address(y, &at[1]);
	MPI_Type_create_struct(2, lens, at, types, &abs);
	MPI_Type_commit(&abs);
	big = calloc(2 * L, sizeof(int));
	for (int i = 0; i < 2 * L; i++)
		big[i] = odd ? -1 : i;
	if (!odd) {
		MPI_Send(a, 1, swap, peer, 90, MPI_COMM_WORLD);
		MPI_Send(big, 1, bigswap, peer, 91, MPI_COMM_WORLD);
		MPI_Send(a, 3, MPI_INT, peer, 92, MPI_COMM_WORLD);	/* 3 ints: 1 vector and a half */
		x[2] = 7;
		y[1] = 0.25;
		MPI_Send(MPI_BOTTOM, 1, abs, peer, 93, MPI_COMM_WORLD);
	} else {
		MPI_Recv(b, 2, MPI_INT, peer, 90, MPI_COMM_WORLD, &st);
		say("swapped small: %d %d\n", b[0], b[1]);
		MPI_Recv(big, 2 * L, MPI_INT, peer, 91, MPI_COMM_WORLD, &st);
		say("swapped large: %d %d %d\n", big[0], big[1], big[2 * L - 1]);
		b[0] = b[1] = -1;
		MPI_Recv(b, 2, vec, peer, 92, MPI_COMM_WORLD, &st);
		MPI_Get_elements(&st, vec, &e);
		say("part of an element: elements %d, %d %d %d %d\n", e, b[0], b[1], b[2], b[3]);
		MPI_Recv(MPI_BOTTOM, 1, abs, peer, 93, MPI_COMM_WORLD, &st);
		say("MPI_BOTTOM: %d %g\n", x[2], y[1]);
	}
	free(big);
	MPI_Type_free(&abs);
	MPI_Type_free(&vec);
	MPI_Type_free(&bigswap);
	MPI_Type_free(&swap);
}

/* s without the digits of its hexadecimal numbers (addresses, which
 * differ from run to run), into out of n bytes. */
static void without_addresses(const char *s, char *out, size_t n)
{
	size_t k = 0;

	for (; *s && k + 1 < n; s++) {
		out[k++] = *s;
		if (s[0] == '0' && s[1] == 'x')
			for (out[k++] = *++s; isxdigit((unsigned char)s[1]); s++)
				;
	}
	out[k] = 0;
}

/* A collective on MPI_COMM_NULL: MPI's error, whose text (MPICH's names
 * the call and its arguments) is the program's call's, not one of ours. */
static void refused_null_comm(void)
{
	char text[MPI_MAX_ERROR_STRING], clean[MPI_MAX_ERROR_STRING];
	int x = 1, rc, cls = 0, len = 0;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	rc = MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_NULL);
	MPI_Error_class(rc, &cls);
	MPI_Error_string(rc, text, &len);
	without_addresses(text, clean, sizeof(clean));
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	say("refused communicator: class %d, %s\n", cls, clean);
}

/* Arguments MPI refuses: its error comes back, and nothing is sent. */
static void refused_args(void)
{
	int a[4] = { 0 }, peer = rank ^ 1, c1 = 0, c2 = 0, c3 = 0, c4 = 0, flag;
	MPI_Status st;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (rank % 2 == 0) {
		MPI_Error_class(MPI_Send(a, -1, MPI_INT, peer, 95, MPI_COMM_WORLD), &c1);
		MPI_Error_class(MPI_Send(a, 1, MPI_DATATYPE_NULL, peer, 95, MPI_COMM_WORLD), &c2);
		MPI_Error_class(MPI_Send(NULL, 2, MPI_INT, peer, 95, MPI_COMM_WORLD), &c4);
	} else {
		MPI_Error_class(MPI_Recv(a, -1, MPI_INT, peer, 95, MPI_COMM_WORLD, &st), &c3);
		MPI_Error_class(MPI_Recv(NULL, 2, MPI_INT, peer, 95, MPI_COMM_WORLD, &st), &c4);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Iprobe(peer, 95, MPI_COMM_WORLD, &flag, &st);
	say("refused: classes %d %d %d %d, a message came: %d\n", c1, c2, c3, c4, flag);
	/* a small allreduce, which carries the piggyback inside, with one
	 * buffer for both sides, then MPI_IN_PLACE for both */
	a[0] = 1;
	a[1] = 2;
	MPI_Error_class(MPI_Allreduce(a, a, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), &c1);
	MPI_Error_class(MPI_Allreduce(MPI_IN_PLACE, MPI_IN_PLACE, 2, MPI_INT, MPI_SUM,
				      MPI_COMM_WORLD), &c2);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	say("refused allreduce buffers: classes %d %d, data %d %d\n", c1, c2, a[0], a[1]);
	refused_null_comm();
}

/* Waitany, Waitsome, Testall, Sendrecv_replace (small and large) */
static void completion(void)
{
	int v[3] = { -1, -1, -1 }, x = rank, idx, out, ind[3], flag = 0, done = 0;
	int *big = malloc(BIG * sizeof(int));
	MPI_Request r[3];
	MPI_Status sts[3];

	if (rank == 3) {
		for (int i = 0; i < 3; i++)
			MPI_Irecv(&v[i], 1, MPI_INT, i, 11, MPI_COMM_WORLD, &r[i]);
		MPI_Waitany(3, r, &idx, &sts[0]);
		done++;
		while (done < 3) {
			MPI_Waitsome(3, r, &out, ind, sts);
			done += out == MPI_UNDEFINED ? 0 : out;
		}
		MPI_Testall(3, r, &flag, MPI_STATUSES_IGNORE);
		say("wait families: %d %d %d, testall %d\n", v[0], v[1], v[2], flag);
	} else {
		int y = rank * 7;

		MPI_Send(&y, 1, MPI_INT, 3, 11, MPI_COMM_WORLD);
	}
	MPI_Sendrecv_replace(&x, 1, MPI_INT, (rank + 1) % 4, 2, (rank + 3) % 4, 2, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
	say("replace: %d\n", x);
	/* more data than a header's bounce buffer on the stack holds */
	for (int i = 0; i < BIG; i++)
		big[i] = rank * BIG + i;
	MPI_Sendrecv_replace(big, BIG, MPI_INT, (rank + 1) % 4, 3, (rank + 3) % 4, 3, MPI_COMM_WORLD,
			     &sts[0]);
	status_line("replace big", &sts[0], MPI_INT);
	say("replace big data: %d %d\n", big[0], big[BIG - 1]);
	free(big);
}

/* Small broadcasts and reductions whose ranks lay the data out in
 * different ways (a vector or a reordering indexed datatype against plain
 * ints, absolute addresses from MPI_BOTTOM, nothing), in place at the
 * root, a large one, reductions of more data than fit in the piggyback's
 * own room (docs/mpi.md), and a barrier on a part of the world. */
/* Exscan's result buffer: none at rank 0, which gets no result (where
 * the MPI takes that: MPICH refuses it). */
static int *no_result(int *w)
{
#ifdef OPEN_MPI
	if (rank == 0)
		return NULL;
#endif
	return w;
}

/* Reduce-scatters that carry the piggyback in blocks padded alike:
 * counts that differ by rank (one of them none, without a buffer), in
 * place, three ints a rank (12 bytes); and one too large to carry it.
 * a holds 1200 ints. */
static void reduce_scatters(int *a)
{
	int counts[4] = { 1, 3, 0, 2 }, two[4] = { 2, 1, 1, 2 }, big[4] = { 300, 0, 0, 0 }, b[300];
	int first = rank == 0 ? 0 : rank == 1 ? 1 : 4;
	double d[6];
	MPI_Request r[2];

	for (int i = 0; i < 1200; i++)
		a[i] = rank * 10 + i;
	for (int i = 0; i < 300; i++)
		b[i] = -1;
	/* rank 2 receives nothing, and passes no buffer for it */
	MPI_Reduce_scatter(a, rank == 2 ? NULL : b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	say("reduce_scatter from %d: %d %d %d %d\n", first, b[0], b[1], b[2], b[3]);
	for (int i = 0; i < 6; i++)
		d[i] = i % 2 ? rank * 1.5 : -rank;
	MPI_Reduce_scatter(MPI_IN_PLACE, d, two, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	say("reduce_scatter in place: %g %g\n", d[0], two[rank] > 1 ? d[1] : 0.0);
	MPI_Reduce_scatter_block(a, b, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	say("reduce_scatter_block of 12 bytes: %d %d %d %d\n", b[0], b[1], b[2], b[3]);
	MPI_Reduce_scatter(a, b, big, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	say("reduce_scatter too large: %d %d\n", b[0], rank == 0 ? b[299] : b[1]);
	/* in flight: completed in the other order, one in place */
	for (int i = 0; i < 6; i++)
		d[i] = i % 2 ? rank * 2.5 : rank;
	for (int i = 0; i < 4; i++)
		b[i] = -1;
	MPI_Ireduce_scatter(a, rank == 2 ? NULL : b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
	MPI_Ireduce_scatter_block(MPI_IN_PLACE, d, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &r[1]);
	MPI_Wait(&r[1], MPI_STATUS_IGNORE);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("ireduce_scatter from %d: %d %d %d %d, block in place %g\n", first, b[0], b[1], b[2],
	    b[3], d[0]);
}

static void inband_collectives(void)
{
	static int x[3];
	static double y[2];
	int v[3] = { -1, -1, -1 }, w[2] = { -1, -1 }, bl[2] = { 1, 1 }, dp[2] = { 1, 0 };
	int lens[2] = { 3, 2 }, sum = rank + 1, big[2000], mid[100];
	double y4[4];
	MPI_Datatype vec, swap, abs, types[2] = { MPI_INT, MPI_DOUBLE };
	MPI_Aint at[2];
	MPI_Comm half;

	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	MPI_Type_indexed(2, bl, dp, MPI_INT, &swap);
	MPI_Type_commit(&swap);
	MPI_Get_address(x, &at[0]);
	MPI_Get_address(y, &at[1]);
	MPI_Type_create_struct(2, lens, at, types, &abs);
	MPI_Type_commit(&abs);
	if (rank == 1) {
		v[0] = 11;
		v[2] = 12;
		MPI_Bcast(v, 1, vec, 1, MPI_COMM_WORLD);
	} else {
		MPI_Bcast(w, 2, MPI_INT, 1, MPI_COMM_WORLD);
	}
	say("bcast of a vector: %d %d %d %d %d\n", v[0], v[1], v[2], w[0], w[1]);
	w[0] = 21 + rank;
	w[1] = 22 + rank;
	if (rank == 2)
		MPI_Bcast(w, 2, MPI_INT, 2, MPI_COMM_WORLD);
	else
		MPI_Bcast(w, 1, swap, 2, MPI_COMM_WORLD);
	say("bcast into a swap: %d %d\n", w[0], w[1]);
	x[0] = x[1] = x[2] = rank;
	y[0] = y[1] = rank;
	if (rank == 3) {
		x[2] = 7;
		y[1] = 0.5;
	}
	MPI_Bcast(MPI_BOTTOM, 1, abs, 3, MPI_COMM_WORLD);
	MPI_Bcast(NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
	say("bcast from MPI_BOTTOM: %d %d %g\n", x[0], x[2], y[1]);
	for (int i = 0; i < 2000; i++)
		big[i] = rank ? 0 : i;
	MPI_Bcast(big, 2000, MPI_INT, 0, MPI_COMM_WORLD);
	say("large bcast: %d %d\n", big[1], big[1999]);
	if (rank == 0)
		MPI_Reduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	else
		MPI_Reduce(&sum, NULL, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	say("reduce in place: %d\n", sum);
	sum = rank + 1;
	if (rank == 1)
		MPI_Reduce(&sum, &w[0], 1, MPI_INT, MPI_MAX, 1, MPI_COMM_WORLD);
	else	/* the result's buffer means nothing off the root */
		MPI_Reduce(&sum, &sum, 1, MPI_INT, MPI_MAX, 1, MPI_COMM_WORLD);
	say("reduce, one buffer off the root: %d\n", rank == 1 ? w[0] : sum);
	for (int i = 0; i < 100; i++)
		mid[i] = 1000 * rank + i;
	MPI_Allreduce(MPI_IN_PLACE, mid, 100, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	say("allreduce of 400 bytes: %d %d\n", mid[0], mid[99]);
	for (int i = 0; i < 100; i++)
		big[i] = 1000 * rank - i;
	MPI_Reduce(big, mid, 100, MPI_INT, MPI_MIN, 2, MPI_COMM_WORLD);
	say("reduce of 400 bytes: %d %d\n", rank == 2 ? mid[0] : -1, rank == 2 ? mid[99] : -1);
	MPI_Scan(&big[1], w, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	mid[0] = 10 - rank * rank;
	MPI_Scan(MPI_IN_PLACE, mid, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	say("scan: %d %d, in place %d\n", w[0], w[1], mid[0]);
	w[0] = w[1] = -1;
	MPI_Exscan(&big[1], no_result(w), 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	mid[0] = 10 - rank * rank;
	MPI_Exscan(MPI_IN_PLACE, mid, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	say("exscan: %d %d, in place %d\n", rank ? w[0] : 0, rank ? w[1] : 0, rank ? mid[0] : 0);
	for (int i = 0; i < 4; i++)
		y4[i] = 0.5 * rank + i;
	MPI_Reduce_scatter_block(y4, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	for (int i = 0; i < 4; i++)
		mid[i] = rank - 10 * i;
	MPI_Reduce_scatter_block(MPI_IN_PLACE, mid, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	say("reduce_scatter_block: %g, in place %d\n", y[0], mid[0]);
	reduce_scatters(big);
	MPI_Comm_split(MPI_COMM_WORLD, rank < 3, rank, &half);
	MPI_Barrier(half);
	MPI_Comm_free(&half);
	MPI_Type_free(&vec);
	MPI_Type_free(&swap);
	MPI_Type_free(&abs);
}

/* The gathers, scatters and all-to-alls that carry the piggyback inside
 * them: a vector (two ints a slot of three) on one side and contiguous
 * data on the other, MPI_IN_PLACE, no data, counts that differ by rank
 * at displacements out of order, a communicator of three, and one too
 * large to carry it (every rank's 1200 bytes). */
static void inband_gathers(void)
{
	static int big[4 * 300], mine[300];
	const int counts[4] = { 1, 2, 0, 3 }, displs[4] = { 9, 0, 5, 2 };
	const int vcounts[4] = { 1, 1, 0, 2 }, vdispls[4] = { 3, 0, 0, 1 };
	int v[12], w[12], r3;
	MPI_Datatype vec;
	MPI_Comm three;

	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (int i = 0; i < 12; i++) {
		v[i] = 10 * rank + i;
		w[i] = -1;
	}
	MPI_Gather(v, 2, MPI_INT, w, 1, vec, 1, MPI_COMM_WORLD);
	say("gather into vectors:");
	for (int i = 0; i < 12; i++)
		say(" %d", rank == 1 ? w[i] : 0);
	for (int i = 0; i < 12; i++)
		w[i] = rank == 2 ? 20 + i : -1;
	if (rank == 2)
		MPI_Gather(MPI_IN_PLACE, 2, MPI_INT, w, 2, MPI_INT, 2, MPI_COMM_WORLD);
	else
		MPI_Gather(v, 1, vec, NULL, 0, MPI_DATATYPE_NULL, 2, MPI_COMM_WORLD);
	say("\ngather in place of vectors:");
	for (int i = 0; i < 8; i++)
		say(" %d", rank == 2 ? w[i] : 0);
	for (int i = 0; i < 12; i++)
		w[i] = -1;
	MPI_Scatter(v, 1, vec, w, 2, MPI_INT, 3, MPI_COMM_WORLD);
	say("\nscatter of vectors: %d %d %d", w[0], w[1], w[2]);
	w[0] = 50 + rank;
	if (rank == 0)
		MPI_Scatter(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD);
	else
		MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, w, 1, MPI_INT, 0, MPI_COMM_WORLD);
	say("\nscatter in place: %d", w[0]);
	MPI_Allgather(&v[1], 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD);
	say("\nallgather: %d %d %d %d", w[0], w[1], w[2], w[3]);
	for (int i = 0; i < 12; i++)
		w[i] = i / 3 == rank ? 70 + i : -1;
	MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, w, 1, vec, MPI_COMM_WORLD);
	say("\nallgather in place of vectors:");
	for (int i = 0; i < 12; i++)
		say(" %d", w[i]);
	MPI_Allgather(v, 0, MPI_INT, w, 0, MPI_INT, MPI_COMM_WORLD);
	for (int i = 0; i < 4; i++)
		v[i] = 100 * rank + i;
	MPI_Alltoall(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD);
	say("\nalltoall: %d %d %d %d", w[0], w[1], w[2], w[3]);
	for (int i = 0; i < 4; i++)
		w[i] = 1000 * rank + i;
	MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, w, 1, MPI_INT, MPI_COMM_WORLD);
	say("\nalltoall in place: %d %d %d %d", w[0], w[1], w[2], w[3]);
	for (int i = 0; i < 12; i++)
		v[i] = 10 * rank + i;
	MPI_Alltoall(v, 1, vec, w, 2, MPI_INT, MPI_COMM_WORLD);
	say("\nalltoall of vectors:");
	for (int i = 0; i < 8; i++)
		say(" %d", w[i]);
	for (int i = 0; i < 12; i++)
		w[i] = -1;
	MPI_Allgatherv(v, counts[rank], MPI_INT, w, counts, displs, MPI_INT, MPI_COMM_WORLD);
	say("\nallgatherv:");
	for (int i = 0; i < 12; i++)
		say(" %d", w[i]);
	for (int i = 0; i < 12; i++)
		w[i] = 200 + 10 * rank + i;
	MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, w, vcounts, vdispls, vec, MPI_COMM_WORLD);
	say("\nallgatherv in place of vectors:");
	for (int i = 0; i < 12; i++)
		say(" %d", w[i]);
	MPI_Comm_split(MPI_COMM_WORLD, rank < 3 ? 0 : MPI_UNDEFINED, rank, &three);
	if (three != MPI_COMM_NULL) {
		MPI_Comm_rank(three, &r3);
		MPI_Allgather(&r3, 1, MPI_INT, w, 1, MPI_INT, three);
		say("\nallgather of three: %d %d %d", w[0], w[1], w[2]);
		MPI_Comm_free(&three);
	}
	for (int i = 0; i < 300; i++)
		mine[i] = 1000 * rank + i;
	MPI_Allgather(mine, 300, MPI_INT, big, 300, MPI_INT, MPI_COMM_WORLD);
	say("\nlarge allgather: %d %d %d\n", big[1], big[300], big[1199]);
	MPI_Type_free(&vec);
}

/* The predefined operators that the fused allreduce applies itself, on
 * every C type it does, with values that wrap: every bit as MPI's.  The
 * floating values sum and multiply exactly in any order, which MPI's
 * algorithm may change with the size of the message. */
static void local_ops(void)
{
	const struct {
		const char *name;
		MPI_Datatype type;
		size_t size;
		bool floating;
	} types[] = {
		{ "int", MPI_INT, sizeof(int), false },
		{ "long", MPI_LONG, sizeof(long), false },
		{ "long long", MPI_LONG_LONG, sizeof(long long), false },
		{ "unsigned", MPI_UNSIGNED, sizeof(unsigned), false },
		{ "unsigned long", MPI_UNSIGNED_LONG, sizeof(unsigned long), false },
		{ "unsigned long long", MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long), false },
		{ "float", MPI_FLOAT, sizeof(float), true },
		{ "double", MPI_DOUBLE, sizeof(double), true },
	};
	const struct {
		const char *name;
		MPI_Op op;
	} ops[] = {
		{ "sum", MPI_SUM }, { "prod", MPI_PROD }, { "max", MPI_MAX }, { "min", MPI_MIN },
		{ "band", MPI_BAND }, { "bor", MPI_BOR }, { "bxor", MPI_BXOR },
		{ "land", MPI_LAND }, { "lor", MPI_LOR }, { "lxor", MPI_LXOR },
	};
	const long long ints[3] = { LLONG_MAX - rank, -7LL * rank + 3, rank == 2 ? 0 : rank + 1 };
	const double reals[3] = { 0.5 * (rank + 1), -3.0 + rank, rank == 1 ? 0.25 : 2.0 };

	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		size_t sz = types[t].size;

		say("local ops on %s:", types[t].name);
		for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
			unsigned char in[3 * 8], out[3 * 8];

			if (types[t].floating && o >= 2)
				break;	/* MPI defines the rest on integers only */
			for (int i = 0; i < 3; i++) {
				float f = (float)reals[i];

				if (!types[t].floating)	/* the low bytes: wrapped */
					memcpy(in + i * sz, &ints[i], sz);
				else
					memcpy(in + i * sz, sz == sizeof(f) ? (void *)&f : (void *)&reals[i], sz);
			}
			MPI_Allreduce(in, out, 3, types[t].type, ops[o].op, MPI_COMM_WORLD);
			say(" %s ", ops[o].name);
			for (size_t b = 0; b < 3 * sz; b++)
				say("%02x", out[b]);
		}
		say("\n");
	}
}

/* non-blocking collectives, MPI_IN_PLACE, an error of a collective, an
 * intercommunicator */
/* Broadcasts in flight: two from different roots completed in the other
 * order, one by MPI_Test; into every other int (a vector) at the ranks
 * but the root, which sends contiguous ints; one seen complete by
 * MPI_Request_get_status, then written before MPI_Wait; none; one too
 * large to go in the piggyback's buffers; some on MPI_COMM_SELF. */
static void ibcasts(void)
{
	int a[3], b[3], v[6] = { 0 }, big[400], n = 0, flag;
	MPI_Datatype every_other;
	MPI_Request r[2];

	for (int i = 0; i < 3; i++) {
		a[i] = rank == 1 ? 100 + i : -1;
		b[i] = rank == 3 ? 200 + i : -1;
		v[i] = rank == 0 ? 300 + i : 0;
	}
	MPI_Ibcast(a, 3, MPI_INT, 1, MPI_COMM_WORLD, &r[0]);
	MPI_Ibcast(b, 3, MPI_INT, 3, MPI_COMM_WORLD, &r[1]);
	MPI_Wait(&r[1], MPI_STATUS_IGNORE);
	for (flag = 0; !flag;)
		MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
	say("ibcasts in flight: %d %d %d, %d %d %d\n", a[0], a[1], a[2], b[0], b[1], b[2]);
	MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
	MPI_Type_commit(&every_other);
	if (rank == 0)
		MPI_Ibcast(v, 3, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
	else
		MPI_Ibcast(v, 1, every_other, 0, MPI_COMM_WORLD, &r[0]);
	MPI_Type_free(&every_other);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("ibcast of a vector: %d %d %d %d %d %d\n", v[0], v[1], v[2], v[3], v[4], v[5]);
	a[0] = rank == 2 ? 55 : -1;
	MPI_Ibcast(a, 1, MPI_INT, 2, MPI_COMM_WORLD, &r[0]);
	for (flag = 0; !flag;)
		MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE);
	n = a[0];
	a[0] = 777;
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("ibcast seen complete: %d, then %d\n", n, a[0]);
	MPI_Ibcast(NULL, 0, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
	for (int i = 0; i < 400; i++)
		big[i] = rank == 1 ? i * 7 : -1;
	MPI_Ibcast(big, 400, MPI_INT, 1, MPI_COMM_WORLD, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	say("ibcast none, large: %d %d\n", big[1], big[399]);
	/* on one rank, where MPIs give one completed request for them all */
	a[0] = 10 + rank;
	a[1] = a[2] = -1;
	MPI_Ibcast(&a[0], 1, MPI_INT, 0, MPI_COMM_SELF, &r[0]);
	MPI_Iallreduce(&a[0], &a[1], 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	MPI_Iscan(&a[0], &a[2], 1, MPI_INT, MPI_MAX, MPI_COMM_SELF, &r[0]);
	MPI_Ibarrier(MPI_COMM_SELF, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	say("on one rank: %d %d %d\n", a[0], a[1], a[2]);
}

/* Reductions to a root and scans in flight: two completed in the other
 * order, in place at the root and in a scan; exclusive scans (rank 0
 * gets no result). */
static void ireductions(void)
{
	int v[2] = { rank + 1, 10 * rank }, m[2] = { -1, -1 }, p[2] = { rank, -rank }, q = rank * 3;
	MPI_Request r[2];

	if (rank == 2) {
		m[0] = v[0];
		m[1] = v[1];
		MPI_Ireduce(MPI_IN_PLACE, m, 2, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD, &r[0]);
	} else {
		MPI_Ireduce(v, NULL, 2, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD, &r[0]);
	}
	MPI_Iscan(MPI_IN_PLACE, p, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &r[1]);
	MPI_Wait(&r[1], MPI_STATUS_IGNORE);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("ireduce in place %d %d, iscan in place %d %d\n", m[0], m[1], p[0], p[1]);
	MPI_Iscan(&q, &v[0], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
	MPI_Ireduce(&q, &v[1], 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	say("iscan %d, ireduce %d\n", v[0], rank == 0 ? v[1] : -1);
	p[0] = 7 * rank;
	p[1] = -rank;
	MPI_Iexscan(&q, &v[0], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
	MPI_Iexscan(MPI_IN_PLACE, p, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[1]);
	MPI_Wait(&r[1], MPI_STATUS_IGNORE);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("iexscan %d, in place %d %d\n", rank ? v[0] : 0, rank ? p[0] : 0, rank ? p[1] : 0);
}

/* Gathers, scatters and all-to-alls in flight: into a vector type freed
 * before the wait, in place, two completed in the other order, one seen
 * complete by MPI_Request_get_status then written before its wait, a
 * large one, and on one rank. */
static void igathers(void)
{
	const int counts[4] = { 1, 2, 0, 3 }, displs[4] = { 9, 0, 5, 2 };
	const int vcounts[4] = { 1, 1, 0, 2 }, vdispls[4] = { 3, 0, 0, 1 };
	static int big[4 * 300], mine[300];
	int v[12], w[12], u[12], a = -1, n, flag;
	MPI_Datatype vec;
	MPI_Request r[2];

	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (int i = 0; i < 12; i++) {
		v[i] = 10 * rank + i;
		w[i] = u[i] = -1;
	}
	MPI_Igather(v, 2, MPI_INT, w, 1, vec, 1, MPI_COMM_WORLD, &r[0]);
	MPI_Type_free(&vec);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("igather into vectors freed:");
	for (int i = 0; i < 12; i++)
		say(" %d", rank == 1 ? w[i] : 0);
	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (int i = 0; i < 12; i++)
		w[i] = rank == 2 ? 20 + i : -1;
	if (rank == 2)
		MPI_Igather(MPI_IN_PLACE, 2, MPI_INT, w, 2, MPI_INT, 2, MPI_COMM_WORLD, &r[0]);
	else
		MPI_Igather(v, 1, vec, NULL, 0, MPI_DATATYPE_NULL, 2, MPI_COMM_WORLD, &r[0]);
	MPI_Iscatter(v, 1, vec, u, 2, MPI_INT, 3, MPI_COMM_WORLD, &r[1]);
	MPI_Wait(&r[1], MPI_STATUS_IGNORE);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("\nigather in place, iscatter of vectors:");
	for (int i = 0; i < 8; i++)
		say(" %d", rank == 2 ? w[i] : 0);
	say(", %d %d %d", u[0], u[1], u[2]);
	w[0] = 50 + rank;
	if (rank == 0)
		MPI_Iscatter(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
	else
		MPI_Iscatter(NULL, 0, MPI_DATATYPE_NULL, w, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
	for (flag = 0; !flag;)
		MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE);
	n = w[0];
	w[0] = 777;
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("\niscatter in place seen complete: %d, then %d", n, w[0]);
	for (int i = 0; i < 12; i++)
		u[i] = i / 3 == rank ? 70 + i : -1;
	MPI_Iallgather(&v[1], 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD, &r[0]);
	MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, u, 1, vec, MPI_COMM_WORLD, &r[1]);
	MPI_Wait(&r[1], MPI_STATUS_IGNORE);
	for (flag = 0; !flag;)
		MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
	say("\niallgather: %d %d %d %d, in place of vectors:", w[0], w[1], w[2], w[3]);
	for (int i = 0; i < 12; i++)
		say(" %d", u[i]);
	for (int i = 0; i < 4; i++) {
		v[i] = 100 * rank + i;
		u[i] = 1000 * rank + i;
	}
	MPI_Ialltoall(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD, &r[0]);
	MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, u, 1, MPI_INT, MPI_COMM_WORLD, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	say("\nialltoall: %d %d %d %d, in place: %d %d %d %d", w[0], w[1], w[2], w[3], u[0], u[1],
	    u[2], u[3]);
	for (int i = 0; i < 12; i++) {
		v[i] = 10 * rank + i;
		w[i] = -1;
		u[i] = 200 + 10 * rank + i;
	}
	MPI_Ialltoall(v, 1, vec, w, 2, MPI_INT, MPI_COMM_WORLD, &r[0]);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("\nialltoall of vectors:");
	for (int i = 0; i < 8; i++)
		say(" %d", w[i]);
	for (int i = 0; i < 12; i++)
		w[i] = -1;
	MPI_Iallgatherv(v, counts[rank], MPI_INT, w, counts, displs, MPI_INT, MPI_COMM_WORLD, &r[0]);
	MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, u, vcounts, vdispls, vec, MPI_COMM_WORLD,
			&r[1]);
	MPI_Type_free(&vec);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	say("\niallgatherv:");
	for (int i = 0; i < 12; i++)
		say(" %d", w[i]);
	say(", in place of vectors:");
	for (int i = 0; i < 12; i++)
		say(" %d", u[i]);
	for (int i = 0; i < 300; i++)
		mine[i] = 1000 * rank + i;
	MPI_Iallgather(mine, 300, MPI_INT, big, 300, MPI_INT, MPI_COMM_WORLD, &r[0]);
	MPI_Igather(&rank, 1, MPI_INT, &a, 1, MPI_INT, 0, MPI_COMM_SELF, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	MPI_Iallgather(&rank, 1, MPI_INT, &v[0], 1, MPI_INT, MPI_COMM_SELF, &r[0]);
	MPI_Ialltoall(&rank, 1, MPI_INT, &v[1], 1, MPI_INT, MPI_COMM_SELF, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	say("\nlarge iallgather: %d %d %d, on one rank: %d %d %d\n", big[1], big[300], big[1199], a,
	    v[0], v[1]);
}

/* A sparse exchange ended by MPI_Ibarrier, as the NBX algorithm does:
 * each rank's synchronous send to the next rank, the messages probed
 * for and received until the barrier, entered once the send completed,
 * is seen complete by MPI_Test. */
static void sparse_exchange(void)
{
	int out = 500 + rank, in = -1, from = -1, sent = 0, entered = 0, done = 0, flag;
	MPI_Request send, barrier;
	MPI_Status st;

	MPI_Issend(&out, 1, MPI_INT, (rank + 1) % 4, 77, MPI_COMM_WORLD, &send);
	while (!done) {
		MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, &st);
		if (flag) {
			MPI_Recv(&in, 1, MPI_INT, st.MPI_SOURCE, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			from = st.MPI_SOURCE;
		}
		if (!entered) {
			MPI_Test(&send, &sent, MPI_STATUS_IGNORE);
			if (sent) {
				MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
				entered = 1;
			}
		} else {
			MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
		}
	}
	say("sparse exchange: %d from %d, barrier request %d\n", in, from,
	    barrier == MPI_REQUEST_NULL);
}

static void collectives(void)
{
	int s = rank + 1, sum = 0, b = rank == 2 ? 42 : 0, all[4] = { 0 }, x, rc, cls;
	int two[2] = { rank, 10 * rank }, twosum[2] = { -1, -1 };
	MPI_Datatype pair;
	MPI_Request r[2];
	MPI_Comm half, inter;

	MPI_Iallreduce(&s, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
	MPI_Ibcast(&b, 1, MPI_INT, 2, MPI_COMM_WORLD, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	say("iallreduce %d ibcast %d\n", sum, b);
	/* two in flight, completed in the other order, one in place, one
	 * by MPI_Test */
	twosum[0] = 10 * rank;
	MPI_Iallreduce(two, &x, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[0]);
	MPI_Iallreduce(MPI_IN_PLACE, twosum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
	MPI_Wait(&r[1], MPI_STATUS_IGNORE);
	for (rc = 0; !rc;)
		MPI_Test(&r[0], &rc, MPI_STATUS_IGNORE);
	say("iallreduces in flight: %d %d, requests %d\n", x, twosum[0],
	    r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);
	/* complete once MPI_Request_get_status says so: the buffer is the
	 * program's then, which MPI_Wait leaves as the program made it */
	MPI_Iallreduce(&s, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
	for (rc = 0; !rc;)
		MPI_Request_get_status(r[0], &rc, MPI_STATUS_IGNORE);
	sum = x;
	x = 777;
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	say("iallreduce seen complete: %d, then %d\n", sum, x);
	ibcasts();
	ireductions();
	igathers();
	sparse_exchange();
	twosum[0] = twosum[1] = -1;
	MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	all[rank] = rank * 3;
	if (rank == 0)
		MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
	else
		MPI_Gather(&all[rank], 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
	say("in_place max %d gather %d %d %d %d\n", s, all[0], all[1], all[2], all[3]);
	/* a predefined operator refuses a derived datatype */
	MPI_Type_contiguous(2, MPI_INT, &pair);
	MPI_Type_commit(&pair);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	rc = MPI_Allreduce(two, twosum, 1, pair, MPI_SUM, MPI_COMM_WORLD);
	MPI_Error_class(rc, &cls);
	say("allreduce of a derived datatype: class %d, %d %d\n", cls, twosum[0], twosum[1]);
	/* nor MPI_MAXLOC a lone int */
	rc = MPI_Allreduce(two, twosum, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Error_class(rc, &cls);
	say("allreduce maxloc of an int: class %d, %d\n", cls, twosum[0]);
	MPI_Type_free(&pair);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 9, &inter);
	x = rank;
	MPI_Sendrecv_replace(&x, 1, MPI_INT, rank / 2, 4, rank / 2, 4, inter, MPI_STATUS_IGNORE);
	say("intercomm: got %d\n", x);
	MPI_Bcast(&x, 1, MPI_INT, rank % 2 ? 0 : (rank == 0 ? MPI_ROOT : MPI_PROC_NULL), inter);
	say("intercomm bcast: %d\n", rank % 2 ? x : -1);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
}

/* receives of one source and tag completing in another order than they
 * matched: Irecv, then Probe + Recv and Recv of the next two, then the
 * Wait; three Irecvs completed by Waitany and Waitsome; ANY_SOURCE.  The
 * sizes differ, so a piggyback paired with another message shows. */
static void reorder(void)
{
	int a[8] = { 0 }, b[8] = { 0 }, c[8] = { 0 }, d[3][8], v[8], any[6], idx, out, ind[3], n;
	MPI_Request r[3];
	MPI_Status st, sts[3];

	for (int i = 0; i < 8; i++)
		v[i] = rank * 100 + i;
	if (rank == 0)
		for (int k = 1; k <= 6; k++)
			MPI_Send(v, k, MPI_INT, 1, 5, MPI_COMM_WORLD);
	if (rank == 2 || rank == 3)
		for (int k = 1; k <= 3; k++)
			MPI_Send(v, k + rank, MPI_INT, 1, 6, MPI_COMM_WORLD);
	if (rank != 1)
		return;
	MPI_Irecv(a, 8, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[0]);
	MPI_Probe(0, 5, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	MPI_Recv(b, n, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
	status_line("reorder probe+recv", &st, MPI_INT);
	MPI_Recv(c, 8, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
	status_line("reorder recv", &st, MPI_INT);
	MPI_Wait(&r[0], &st);
	status_line("reorder irecv", &st, MPI_INT);
	for (int i = 0; i < 3; i++)
		MPI_Irecv(d[i], 8, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[i]);
	MPI_Waitany(3, r, &idx, &st);
	status_line("reorder waitany", &st, MPI_INT);
	for (int left = 2; left > 0; left -= out) {
		MPI_Waitsome(3, r, &out, ind, sts);
		for (int i = 0; i < out; i++)
			status_line("reorder waitsome", &sts[i], MPI_INT);
	}
	for (int i = 0; i < 6; i++) {
		MPI_Recv(v, 8, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &n);
		any[i] = st.MPI_SOURCE * 10000 + n * 1000 + v[0];
	}
	qsort(any, 6, sizeof(int), cmp_int);	/* the sources' order is the network's */
	say("reorder any_source: %d %d %d %d %d %d\n", any[0], any[1], any[2], any[3], any[4], any[5]);
}

/* MPI_Request_get_status on a receive: its count and data once it says
 * complete, then the Wait's status. */
static void get_status(void)
{
	int v[8] = { 0 }, w[8] = { 7, 8, 9 }, flag = 0;
	MPI_Request r;
	MPI_Status st;

	if (rank == 0)
		MPI_Send(w, 3, MPI_INT, 1, 9, MPI_COMM_WORLD);
	if (rank != 1)
		return;
	MPI_Irecv(v, 8, MPI_INT, 0, 9, MPI_COMM_WORLD, &r);
	while (!flag)
		MPI_Request_get_status(r, &flag, &st);
	status_line("get_status", &st, MPI_INT);
	say("get_status data: %d %d %d\n", v[0], v[1], v[2]);
	MPI_Wait(&r, &st);
	status_line("get_status wait", &st, MPI_INT);
}

/* MPI_Waitall over a truncated receive and a good one, errors returned:
 * MPI_ERR_IN_STATUS and each status's error; a request still pending is
 * waited for again; then the good one's data.  MPICH only: Open MPI 4.1's
 * MPI_Waitall does not return when one of its receives is truncated. */
static void error_in_status(void)
{
#ifdef MPICH_VERSION
	int w[4] = { 41, 42, 43, 44 }, a[2] = { 0 }, b[4] = { 0 }, rc, cls;
	MPI_Request r[2];
	MPI_Status st[2];

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (rank == 0) {
		MPI_Send(w, 4, MPI_INT, 1, 3, MPI_COMM_WORLD);
		MPI_Send(w, 4, MPI_INT, 1, 4, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Irecv(a, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, &r[0]);	/* too small */
		MPI_Irecv(b, 4, MPI_INT, 0, 4, MPI_COMM_WORLD, &r[1]);
		rc = MPI_Waitall(2, r, st);
		MPI_Error_class(rc, &cls);
		say("error in status: %s, truncated %d, pending %d\n",
		    cls == MPI_ERR_IN_STATUS ? "in_status" : "other",
		    st[0].MPI_ERROR == MPI_ERR_TRUNCATE, st[1].MPI_ERROR == MPI_ERR_PENDING);
		if (st[1].MPI_ERROR == MPI_ERR_PENDING)
			MPI_Wait(&r[1], &st[1]);
		status_line("error in status, the good one", &st[1], MPI_INT);
		say("error in status data: truncated %d %d, good %d %d\n", a[0], a[1], b[0], b[3]);
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
}

/* The empty status of MPI_REQUEST_NULL and of an inactive persistent
 * request, in every completion call. */
static void empty_line(const char *what, const MPI_Status *st)
{
	int n = -7, cancelled = -7;

	MPI_Get_count(st, MPI_INT, &n);
	MPI_Test_cancelled(st, &cancelled);
	say("%s: source %d tag %d count %d cancelled %d\n", what, st->MPI_SOURCE, st->MPI_TAG, n,
	    cancelled);
}

static void empty_statuses(void)
{
	MPI_Request r[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL }, p;
	MPI_Status st[2];
	int flag = -1, idx = -1, out = -1, ind[2], x = 0;

	memset(st, 0x5a, sizeof(st));
	MPI_Wait(&r[0], &st[0]);
	empty_line("wait null", &st[0]);
	memset(st, 0x5a, sizeof(st));
	MPI_Test(&r[0], &flag, &st[0]);
	empty_line("test null", &st[0]);
	say("test null flag %d\n", flag);
	memset(st, 0x5a, sizeof(st));
	MPI_Waitall(2, r, st);
	empty_line("waitall null", &st[1]);
	MPI_Waitany(2, r, &idx, &st[0]);
	MPI_Testany(2, r, &idx, &flag, &st[0]);
	say("waitany/testany null: index %d flag %d\n", idx, flag);
	MPI_Waitsome(2, r, &out, ind, st);
	say("waitsome null: outcount %d\n", out);
	MPI_Recv_init(&x, 1, MPI_INT, rank ^ 1, 77, MPI_COMM_WORLD, &p);
	memset(st, 0x5a, sizeof(st));
	MPI_Wait(&p, &st[0]);
	empty_line("wait inactive", &st[0]);
	memset(st, 0x5a, sizeof(st));
	MPI_Test(&p, &flag, &st[0]);
	empty_line("test inactive", &st[0]);
	MPI_Request_free(&p);
}

/* A distributed graph whose ranks have different in- and out-neighbours:
 * rank r sends to r+1, and rank 0 to 2 as well. */
static void dist_graph(void)
{
	int out[2] = { (rank + 1) % 4, 2 }, nout = rank == 0 ? 2 : 1;
	int in[2] = { (rank + 3) % 4, 0 }, nin = rank == 2 ? 2 : 1;
	int send = rank * 11, recv[2] = { -1, -1 }, sum = rank;
	MPI_Comm g;

	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, in, MPI_UNWEIGHTED, nout, out,
				       MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
	MPI_Neighbor_allgather(&send, 1, MPI_INT, recv, 1, MPI_INT, g);
	MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, g);
	say("dist graph: from in-neighbours %d %d, sum %d\n", recv[0], nin > 1 ? recv[1] : -1, sum);
	MPI_Comm_free(&g);
}

/* An attribute whose copy callback counts its calls: MPI_Comm_dup runs it
 * once per dup, and nothing else may. */
static int copies;

static int count_copy(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
	(void)comm;
	(void)key;
	(void)extra;
	copies++;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

static void attribute_copies(void)
{
	int key;
	MPI_Comm c, d;

	MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL);
	MPI_Comm_dup(MPI_COMM_WORLD, &c);
	MPI_Comm_set_attr(c, key, &copies);
	MPI_Comm_dup(c, &d);
	MPI_Comm_free(&d);
	MPI_Comm_dup(c, &d);
	MPI_Comm_free(&d);
	say("attribute copies: %d\n", copies);
	MPI_Comm_free(&c);
	MPI_Comm_free_keyval(&key);
}

/* 4 threads under MPI_THREAD_MULTIPLE: pairs (0,1) and (2,3) exchange per thread */
static MPI_Comm tcomm;

static void *thread_main(void *arg)
{
	int t = (int)(long)arg, mine = rank * 100 + t, theirs = -1;

	for (int i = 0; i < 50; i++)
		MPI_Sendrecv(&mine, 1, MPI_INT, rank ^ 1, t, &theirs, 1, MPI_INT, rank ^ 1, t, tcomm,
			     MPI_STATUS_IGNORE);
	return (void *)(long)theirs;
}

/* Each thread makes a communicator of its pair with MPI_Comm_create_group
 * (its own tag), reduces over it and frees it, ten times. */
static void *group_main(void *arg)
{
	int t = (int)(long)arg, pair[2] = { rank & ~1, rank | 1 }, sum = 0;
	MPI_Group world, g;
	MPI_Comm c;

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 2, pair, &g);
	for (int i = 0; i < 10; i++) {
		int x = rank + t + i, y = 0;

		MPI_Comm_create_group(MPI_COMM_WORLD, g, 200 + t, &c);
		MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
		sum += y;
		MPI_Comm_free(&c);
	}
	MPI_Group_free(&g);
	MPI_Group_free(&world);
	return (void *)(long)sum;
}

/* Each thread of the lower rank of a pair posts MANY Isends (standard,
 * synchronous, buffered alternately) of one int with its own tag, the
 * higher rank as many Irecvs, then Waitall; then each thread probes its
 * own tag, takes the count and receives that many.  Buffered sends from
 * threads under MPICH only: with Open MPI 4.1.4 alone, without cpperf,
 * the MPI_Buffer_detach after them never returned in 4 of 200 runs (it
 * waits in mca_pml_base_bsend_detach for a buffered send that its
 * receiver already has); Open MPI sends standard ones there instead. */
#define MANY 1024
#ifdef MPICH_VERSION
#define THREAD_IBSEND MPI_Ibsend
#else
#define THREAD_IBSEND MPI_Isend
#endif

static void *many_main(void *arg)
{
	int t = (int)(long)arg, tag = 100 + t, *v = malloc(MANY * sizeof(int)), sum = 0, n = -1;
	MPI_Request *r = malloc(MANY * sizeof(MPI_Request));
	MPI_Status st;

	for (int i = 0; i < MANY; i++) {
		v[i] = i * (t + 1);
		if (rank % 2 == 0 && i % 3 == 0)
			MPI_Isend(&v[i], 1, MPI_INT, rank ^ 1, tag, tcomm, &r[i]);
		else if (rank % 2 == 0 && i % 3 == 1)
			MPI_Issend(&v[i], 1, MPI_INT, rank ^ 1, tag, tcomm, &r[i]);
		else if (rank % 2 == 0)
			THREAD_IBSEND(&v[i], 1, MPI_INT, rank ^ 1, tag, tcomm, &r[i]);
		else
			MPI_Irecv(&v[i], 1, MPI_INT, rank ^ 1, tag, tcomm, &r[i]);
	}
	MPI_Waitall(MANY, r, MPI_STATUSES_IGNORE);
	for (int i = 0; i < MANY; i++)
		sum += v[i];
	if (rank % 2 == 0) {
		MPI_Send(v, t + 2, MPI_INT, rank ^ 1, tag, tcomm);
	} else {
		MPI_Probe(rank ^ 1, tag, tcomm, &st);
		MPI_Get_count(&st, MPI_INT, &n);
		MPI_Recv(v, n, MPI_INT, rank ^ 1, tag, tcomm, &st);
	}
	free(v);
	free(r);
	return (void *)(long)(sum * 100 + n);
}

static void threads(void)
{
	pthread_t th[4];
	void *res;

	int bsize = 4 * MANY * (int)(sizeof(int) + MPI_BSEND_OVERHEAD);
	void *bbuf = malloc((size_t)bsize);

	MPI_Comm_dup(MPI_COMM_WORLD, &tcomm);
	for (long t = 0; t < 4; t++)
		pthread_create(&th[t], NULL, thread_main, (void *)t);
	for (int t = 0; t < 4; t++) {
		pthread_join(th[t], &res);
		say("thread %d got %ld\n", t, (long)res);
	}
	MPI_Buffer_attach(bbuf, bsize);
	for (long t = 0; t < 4; t++)
		pthread_create(&th[t], NULL, many_main, (void *)t);
	for (int t = 0; t < 4; t++) {
		pthread_join(th[t], &res);
		say("thread %d many: %ld\n", t, (long)res);
	}
	MPI_Buffer_detach(&bbuf, &bsize);
	free(bbuf);
	for (long t = 0; t < 4; t++)
		pthread_create(&th[t], NULL, group_main, (void *)t);
	for (int t = 0; t < 4; t++) {
		pthread_join(th[t], &res);
		say("thread %d group: %ld\n", t, (long)res);
	}
	MPI_Comm_free(&tcomm);
}

int main(int argc, char **argv)
{
	int provided, size;
	char *all = NULL;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4) {
		if (rank == 0)
			fprintf(stderr, "mpi-semantics: needs 4 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	say("provided %s\n", provided == MPI_THREAD_MULTIPLE ? "multiple" : "less");
	matching();
	ordering();
	synchronous();
	large_reuse();
	large_edges();
	layouts();
	refused_args();
	truncation();
	requests();
	freed_requests();
	pending_over_free();
	many_matched_probes();
	huge_datatype();
	freed_datatypes();
	completion();
	reorder();
	get_status();
	error_in_status();
	empty_statuses();
	collectives();
	inband_collectives();
	inband_gathers();
	local_ops();
	dist_graph();
	attribute_copies();
	if (provided == MPI_THREAD_MULTIPLE)
		threads();
	if (rank == 0)
		all = malloc(LOG * 4);
	MPI_Gather(logbuf, LOG, MPI_CHAR, all, LOG, MPI_CHAR, 0, MPI_COMM_WORLD);
	for (int r = 0; rank == 0 && r < 4; r++)
		printf("--- rank %d\n%s", r, all + r * LOG);
	free(all);
	MPI_Finalize();
	return 0;
}
