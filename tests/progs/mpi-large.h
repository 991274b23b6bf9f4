/*
 * mpi-large.h - the large-message part of mpi-semantics.c: data over the
 * 4 KiB that the piggyback copies behind its header, so through its
 * derived datatypes and the ones it keeps per thread.  Included by
 * mpi-semantics.c, which is built as one file, after its rank, say() and
 * status_line().
 */
#ifndef CPPERF_MPI_LARGE_H
#define CPPERF_MPI_LARGE_H

/* Large messages from and into more buffers than a thread keeps datatypes
 * for, their sizes changing: blocking, then all in flight at once, then
 * both ways through Sendrecv, then from one buffer whose size changes;
 * the receiver logs a checksum of what came. */
static void large_reuse(void)
{
	enum { N = 12, L = 3000 };	/* up to 12 000 bytes: over the inline size */
	int *buf[N], got[N], peer = rank ^ 1, odd = rank % 2;
	MPI_Request r[N];
	MPI_Status st[N];
	long sum = 0;

	for (int k = 0; k < N; k++)
		buf[k] = calloc(L, sizeof(int));
	for (int round = 0; round < 3; round++) {
		for (int k = 0; k < N; k++) {
			int n = L - 100 * round - k, *b = buf[(5 * k + round) % N];

			for (int i = 0; !odd && i < n; i++)
				b[i] = 1000000 * round + 1000 * k + i;
			if (!odd)
				MPI_Send(b, n, MPI_INT, peer, 30, MPI_COMM_WORLD);
			else
				MPI_Recv(b, L, MPI_INT, peer, 30, MPI_COMM_WORLD, &st[0]);
			MPI_Get_count(&st[0], MPI_INT, &got[0]);
			for (int i = 0; odd && i < got[0]; i++)
				sum += (long)b[i] * (i + 1);
		}
		for (int k = 0; k < N; k++) {
			for (int i = 0; !odd && i < L - k; i++)
				buf[k][i] = 7 * round + 3 * k + i;
			if (!odd)
				MPI_Isend(buf[k], L - k, MPI_INT, peer, 31 + k, MPI_COMM_WORLD, &r[k]);
			else
				MPI_Irecv(buf[k], L, MPI_INT, peer, 31 + k, MPI_COMM_WORLD, &r[k]);
		}
		MPI_Waitall(N, r, st);
		for (int k = 0; odd && k < N; k++) {
			MPI_Get_count(&st[k], MPI_INT, &got[k]);
			for (int i = 0; i < got[k]; i++)
				sum += (long)buf[k][i] * (k + 1);
		}
		for (int k = 0; k < N; k += 2) {
			for (int i = 0; i < L; i++)
				buf[k][i] = rank * 100000 + round * 1000 + k + i;
			MPI_Sendrecv(buf[k], L - round, MPI_INT, peer, 50, buf[k + 1], L, MPI_INT, peer,
				     50, MPI_COMM_WORLD, &st[0]);
			MPI_Get_count(&st[0], MPI_INT, &got[0]);
			for (int i = 0; i < got[0]; i++)
				sum += (long)buf[k + 1][i] * (i % 7 + 1);
		}
	}
	/* one buffer, its size changing from call to call */
	for (int i = 0; i < 4; i++) {
		if (!odd) {
			MPI_Send(buf[0], L - 37 * i, MPI_INT, peer, 60, MPI_COMM_WORLD);
		} else {
			MPI_Recv(buf[1], L, MPI_INT, peer, 60, MPI_COMM_WORLD, &st[0]);
			MPI_Get_count(&st[0], MPI_INT, &got[0]);
			sum += got[0];
		}
	}
	say("large reuse: checksum %ld\n", sum);
	for (int k = 0; k < N; k++)
		free(buf[k]);
}

/* Large data beside the plain send and receive: a vector both ways and
 * into contiguous ints, persistent requests started again, a matched
 * probe, a buffered send, a truncated receive (errors returned), and
 * MPI_Sendrecv_replace of a vector. */
static void large_edges(void)
{
	enum { L = 4000 };
	int peer = rank ^ 1, odd = rank % 2, n, rc, cls, size;
	int *a = calloc(2 * L, sizeof(int)), *b = calloc(2 * L, sizeof(int)), *spare[10];
	void *bbuf;
	MPI_Datatype vec;
	MPI_Request r;
	MPI_Status st;
	MPI_Message m;
	long sum = 0;

	for (int j = 0; j < 10; j++)
		spare[j] = calloc(L, sizeof(int));
	MPI_Type_vector(L, 1, 2, MPI_INT, &vec);	/* every other int of 2 L */
	MPI_Type_commit(&vec);
	for (int i = 0; i < 2 * L; i++)
		a[i] = rank * 100000 + i;
	if (!odd) {
		MPI_Send(a, 1, vec, peer, 70, MPI_COMM_WORLD);
		MPI_Send(a + 1, 1, vec, peer, 71, MPI_COMM_WORLD);
	} else {
		MPI_Recv(b, 1, vec, peer, 70, MPI_COMM_WORLD, &st);
		status_line("large vector", &st, MPI_INT);
		MPI_Recv(b + 2 * L - L, L, MPI_INT, peer, 71, MPI_COMM_WORLD, &st);
		status_line("large vector to ints", &st, MPI_INT);
		for (int i = 0; i < 2 * L; i++)
			sum += (long)b[i] * (i % 13 + 1);
	}
	if (!odd)
		MPI_Send_init(a, L, MPI_INT, peer, 72, MPI_COMM_WORLD, &r);
	else
		MPI_Recv_init(b, L, MPI_INT, peer, 72, MPI_COMM_WORLD, &r);
	for (int k = 0; k < 3; k++) {
		a[0] = k;
		MPI_Start(&r);
		MPI_Wait(&r, &st);
		sum += odd ? b[0] + b[L - 1] : 0;
		/* enough other large messages between the starts to push the
		 * persistent request's datatype out of the thread's kept ones */
		for (int j = 0; j < 9; j++) {
			for (int i = 0; i < L; i++)
				spare[j][i] = rank + j + i;
			MPI_Sendrecv(spare[j], L, MPI_INT, peer, 80 + j, spare[9], L, MPI_INT, peer,
				     80 + j, MPI_COMM_WORLD, &st);
			sum += spare[9][L - 1];
		}
	}
	MPI_Request_free(&r);
	if (!odd) {
		MPI_Send(a, L - 5, MPI_INT, peer, 73, MPI_COMM_WORLD);
	} else {
		MPI_Mprobe(peer, 73, MPI_COMM_WORLD, &m, &st);
		MPI_Get_count(&st, MPI_INT, &n);
		MPI_Mrecv(b, n, MPI_INT, &m, &st);
		say("large mprobe: count %d, last %d\n", n, b[n - 1]);
	}
	MPI_Pack_size(L, MPI_INT, MPI_COMM_WORLD, &size);
	size += MPI_BSEND_OVERHEAD;
	bbuf = malloc((size_t)size);
	MPI_Buffer_attach(bbuf, size);
	if (!odd) {
		MPI_Bsend(a, L, MPI_INT, peer, 74, MPI_COMM_WORLD);
	} else {
		MPI_Recv(b, L, MPI_INT, peer, 74, MPI_COMM_WORLD, &st);
		say("large bsend: %d %d\n", b[1], b[L - 1]);
	}
	MPI_Buffer_detach(&bbuf, &size);
	free(bbuf);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (!odd) {
		MPI_Send(a, L, MPI_INT, peer, 75, MPI_COMM_WORLD);
	} else {
		rc = MPI_Recv(b, L / 2, MPI_INT, peer, 75, MPI_COMM_WORLD, &st);
		MPI_Error_class(rc, &cls);
		say("large truncated: %s\n", cls == MPI_ERR_TRUNCATE ? "MPI_ERR_TRUNCATE" : "other");
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Sendrecv_replace(a, 1, vec, peer, 76, peer, 76, MPI_COMM_WORLD, &st);
	status_line("large replace of a vector", &st, MPI_INT);
	say("large edges: checksum %ld, replaced %d %d %d\n", sum, a[0], a[1], a[2 * L - 2]);
	MPI_Type_free(&vec);
	for (int j = 0; j < 10; j++)
		free(spare[j]);
	free(a);
	free(b);
}

#endif
