/*
 * stress-p2p.c - point-to-point patterns that an interception layer with
 * a piggyback must get right, one per step in an order drawn from the
 * seed: non-blocking exchanges completed by Waitany, Testsome, Waitsome
 * and Testany, receives from MPI_ANY_SOURCE, Probe/Iprobe, matched probes
 * (Mprobe/Mrecv, Improbe/Imrecv), persistent requests (Startall, several
 * rounds, Request_free), a cancelled receive, Sendrecv(_replace) with
 * MPI_PROC_NULL, and Issend + Testall.  Sizes go from 0 to 128 KiB, across
 * the eager/rendezvous switch of both MPIs.  Tags are unique per step and
 * every receive is matched by exactly one send, so each step completes
 * and no message of one step can match a receive of another.  Every byte
 * is checked.  Usage: stress-p2p SEED STEPS
 */
#include "stress.h"

#define MAXMSG 131072
#define MAXRANKS 64
/* Tags: every MPI allows up to 32767; ranks drift apart by a step or two
 * at most, so tags repeat only long after a step's messages are gone. */
#define TAG(step) ((step) % 30000)
#define NOBODY_TAG 32000	/* no rank sends with it */

static unsigned char *sbuf[MAXRANKS], *rbuf[MAXRANKS];

/* A size for the message from rank i to rank j, drawn for all pairs. */
static void draw_sizes(int *size)
{
	for (int i = 0; i < nranks * nranks; i++)
		size[i] = draw_below(3) ? draw_below(4096) : draw_below(MAXMSG + 1);
}

/* Post sends to every other rank (not to itself). */
static void isend_all(int step, const int *size, MPI_Request *req)
{
	for (int p = 0; p < nranks; p++) {
		int n = size[rank * nranks + p];

		req[p] = MPI_REQUEST_NULL;
		if (p == rank)
			continue;
		fill(sbuf[p], (size_t)n, step, rank, p);
		MPI_Isend(sbuf[p], n, MPI_BYTE, p, TAG(step), MPI_COMM_WORLD, &req[p]);
	}
}

/* Every rank to every rank, receives from MPI_ANY_SOURCE, completed one
 * at a time (Waitany, or Testany polled); the status says whose it is. */
static void step_any_source(int step, const int *size, bool poll)
{
	MPI_Request rreq[MAXRANKS], sreq[MAXRANKS];
	MPI_Status st;
	int idx, flag, got = 0;

	for (int k = 0; k < nranks - 1; k++)
		MPI_Irecv(rbuf[k], MAXMSG, MPI_BYTE, MPI_ANY_SOURCE, TAG(step), MPI_COMM_WORLD, &rreq[k]);
	isend_all(step, size, sreq);
	while (got < nranks - 1) {
		if (poll) {
			MPI_Testany(nranks - 1, rreq, &idx, &flag, &st);
			if (!flag)
				continue;
		} else {
			MPI_Waitany(nranks - 1, rreq, &idx, &st);
		}
		check(idx >= 0 && idx < nranks - 1 && st.MPI_SOURCE != rank && st.MPI_TAG == TAG(step), step,
		      "any source: bad index or status");
		MPI_Get_count(&st, MPI_BYTE, &flag);
		check(flag == size[st.MPI_SOURCE * nranks + rank], step, "any source: bad count");
		expect(rbuf[idx], (size_t)flag, step, st.MPI_SOURCE, rank, "any source");
		got++;
	}
	MPI_Waitall(nranks, sreq, MPI_STATUSES_IGNORE);
}

/* Receives from each peer by name, completed by Testsome or Waitsome,
 * statuses ignored half of the time. */
static void step_some(int step, const int *size, bool poll)
{
	MPI_Request rreq[MAXRANKS], sreq[MAXRANKS];
	MPI_Status st[MAXRANKS];
	int idx[MAXRANKS], out, got = 0;
	bool ignore = draw_below(2);

	for (int p = 0; p < nranks; p++) {
		rreq[p] = MPI_REQUEST_NULL;
		if (p != rank)
			MPI_Irecv(rbuf[p], MAXMSG, MPI_BYTE, p, TAG(step), MPI_COMM_WORLD, &rreq[p]);
	}
	isend_all(step, size, sreq);
	while (got < nranks - 1) {
		if (poll)
			MPI_Testsome(nranks, rreq, &out, idx, ignore ? MPI_STATUSES_IGNORE : st);
		else
			MPI_Waitsome(nranks, rreq, &out, idx, ignore ? MPI_STATUSES_IGNORE : st);
		check(out != MPI_UNDEFINED, step, "some: nothing left to complete");
		for (int k = 0; k < out; k++) {
			int p = idx[k];

			check(ignore || st[k].MPI_SOURCE == p, step, "some: bad status");
			expect(rbuf[p], (size_t)size[p * nranks + rank], step, p, rank, "some");
		}
		got += out;
	}
	MPI_Waitall(nranks, sreq, MPI_STATUSES_IGNORE);
}

/* A ring: each rank sends to the next and finds the message from the
 * previous one by a probe of the kind drawn, then receives it. */
static void step_probe(int step, const int *size, int how)
{
	int next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks, n, flag = 0;
	MPI_Request sreq, rreq;
	MPI_Message msg;
	MPI_Status st;

	n = size[rank * nranks + next];
	fill(sbuf[0], (size_t)n, step, rank, next);
	MPI_Isend(sbuf[0], n, MPI_BYTE, next, TAG(step), MPI_COMM_WORLD, &sreq);
	switch (how) {
	case 0:
		MPI_Probe(MPI_ANY_SOURCE, TAG(step), MPI_COMM_WORLD, &st);
		break;
	case 1:
		while (!flag)
			MPI_Iprobe(prev, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		break;
	case 2:
		MPI_Mprobe(prev, TAG(step), MPI_COMM_WORLD, &msg, &st);
		break;
	default:
		while (!flag)
			MPI_Improbe(MPI_ANY_SOURCE, TAG(step), MPI_COMM_WORLD, &flag, &msg, &st);
	}
	check(st.MPI_SOURCE == prev && st.MPI_TAG == TAG(step), step, "probe: bad status");
	MPI_Get_count(&st, MPI_BYTE, &n);
	check(n == size[prev * nranks + rank], step, "probe: bad count");
	if (how < 2) {
		MPI_Recv(rbuf[0], n, MPI_BYTE, prev, TAG(step), MPI_COMM_WORLD, &st);
	} else if (how == 2) {
		MPI_Mrecv(rbuf[0], n, MPI_BYTE, &msg, &st);
	} else {
		MPI_Imrecv(rbuf[0], n, MPI_BYTE, &msg, &rreq);
		MPI_Wait(&rreq, &st);
	}
	expect(rbuf[0], (size_t)n, step, prev, rank, "probe");
	MPI_Wait(&sreq, MPI_STATUS_IGNORE);
}

/* Persistent requests between ring neighbours, started together for a few
 * rounds, then freed. */
static void step_persistent(int step, const int *size)
{
	int next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks;
	int rounds = 1 + draw_below(4), n = size[rank * nranks + next], m = size[prev * nranks + rank];
	MPI_Request req[2];
	MPI_Status st[2];

	MPI_Recv_init(rbuf[0], MAXMSG, MPI_BYTE, prev, TAG(step), MPI_COMM_WORLD, &req[0]);
	MPI_Send_init(sbuf[0], n, MPI_BYTE, next, TAG(step), MPI_COMM_WORLD, &req[1]);
	fill(sbuf[0], (size_t)n, step, rank, next);
	for (int r = 0; r < rounds; r++) {
		if (r % 2)
			MPI_Startall(2, req);
		else {
			MPI_Start(&req[0]);
			MPI_Start(&req[1]);
		}
		MPI_Waitall(2, req, st);
		MPI_Get_count(&st[0], MPI_BYTE, &n);
		check(n == m && st[0].MPI_SOURCE == prev, step, "persistent: bad status");
		expect(rbuf[0], (size_t)m, step, prev, rank, "persistent");
	}
	MPI_Request_free(&req[0]);
	MPI_Request_free(&req[1]);
}

/* A receive nobody sends to, cancelled; then a message that must still
 * reach the right receive. */
static void step_cancel(int step, const int *size)
{
	int next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks, cancelled = 0;
	int n = size[rank * nranks + next];
	MPI_Request req;
	MPI_Status st;

	MPI_Irecv(rbuf[1], 16, MPI_BYTE, prev, NOBODY_TAG, MPI_COMM_WORLD, &req);
	MPI_Cancel(&req);
	MPI_Wait(&req, &st);
	MPI_Test_cancelled(&st, &cancelled);
	check(cancelled, step, "cancel: receive not cancelled");
	fill(sbuf[0], (size_t)n, step, rank, next);
	MPI_Sendrecv(sbuf[0], n, MPI_BYTE, next, TAG(step), rbuf[0], MAXMSG, MPI_BYTE, prev, TAG(step),
		     MPI_COMM_WORLD, &st);
	expect(rbuf[0], (size_t)size[prev * nranks + rank], step, prev, rank, "cancel");
}

/* A line (no wrap): Sendrecv_replace with MPI_PROC_NULL at the ends, then
 * Issend to the next completed by polling Testall. */
static void step_line(int step, const int *size)
{
	int next = rank + 1 < nranks ? rank + 1 : MPI_PROC_NULL;
	int prev = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int n = 4096, flag = 0;
	MPI_Request req[2];
	MPI_Status st;

	fill(rbuf[0], (size_t)n, step, rank, next);
	MPI_Sendrecv_replace(rbuf[0], n, MPI_BYTE, next, TAG(step), prev, TAG(step), MPI_COMM_WORLD, &st);
	if (prev != MPI_PROC_NULL)
		expect(rbuf[0], (size_t)n, step, prev, rank, "replace");
	else
		check(st.MPI_SOURCE == MPI_PROC_NULL, step, "replace: status of MPI_PROC_NULL");
	n = size[rank * nranks + (rank + 1) % nranks];
	fill(sbuf[0], (size_t)n, step, rank, next);
	MPI_Irecv(rbuf[1], MAXMSG, MPI_BYTE, prev, TAG(step), MPI_COMM_WORLD, &req[0]);
	MPI_Issend(sbuf[0], n, MPI_BYTE, next, TAG(step), MPI_COMM_WORLD, &req[1]);
	while (!flag)
		MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE);
	if (prev != MPI_PROC_NULL)
		expect(rbuf[1], (size_t)size[prev * nranks + rank], step, prev, rank, "issend");
}

struct step {
	int step, kind, *size;
};

static void run_step(void *p)
{
	struct step *s = p;

	switch (s->kind) {
	case 0: case 1: step_any_source(s->step, s->size, s->kind); break;
	case 2: case 3: step_some(s->step, s->size, s->kind == 3); break;
	case 4: case 5: case 6: case 7: step_probe(s->step, s->size, s->kind - 4); break;
	case 8: step_persistent(s->step, s->size); break;
	case 9: step_cancel(s->step, s->size); break;
	default: step_line(s->step, s->size);
	}
}

int main(int argc, char **argv)
{
	long steps;
	int *size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	stress_args(argc, argv, &steps, 300);
	check(nranks <= MAXRANKS, 0, "too many ranks");
	size = malloc(sizeof(int) * (size_t)nranks * (size_t)nranks);
	check(size != NULL, 0, "out of memory");
	for (int p = 0; p < nranks; p++) {
		sbuf[p] = malloc(MAXMSG);
		rbuf[p] = malloc(MAXMSG);
		check(sbuf[p] && rbuf[p], 0, "out of memory");
	}
	for (int i = 0; i < steps; i++) {
		struct step s = { i, draw_below(11), size };

		draw_sizes(size);
		at_depth(16 * draw_below(64), run_step, &s);
	}
	if (rank == 0)
		printf("stress-p2p ranks=%d steps=%ld ok\n", nranks, steps);
	for (int p = 0; p < nranks; p++) {
		free(sbuf[p]);
		free(rbuf[p]);
	}
	free(size);
	MPI_Finalize();
	return 0;
}
