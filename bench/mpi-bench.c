/*
 * mpi-bench.c - the MPI micro-benchmarks of `make bench`: ping-pong latency
 * (0, 8, 1024 bytes) and streaming bandwidth (64 KiB, 1 MiB) between ranks
 * 0 and 1, and loops of an 8-byte MPI_Allreduce, MPI_Reduce and MPI_Bcast,
 * of MPI_Barrier, of MPI_Allgather, MPI_Alltoall, MPI_Gather and
 * MPI_Scatter of 8 bytes a rank, and of an 8-byte MPI_Allgatherv, MPI_Scan,
 * MPI_Exscan, MPI_Reduce_scatter_block, MPI_Reduce_scatter, MPI_Gatherv,
 * MPI_Scatterv, MPI_Alltoallv, and MPI_Iallreduce, MPI_Ireduce, MPI_Iscan,
 * MPI_Ibcast, MPI_Iallgather and MPI_Ibarrier completed by MPI_Wait, over
 * all ranks.
 * Rank 0 prints one "name value unit" line per measurement; bench/mpi.sh
 * compares runs.
 * The bandwidth is measured twice: with the data as they are, and with
 * each message laid out as the piggyback lays out a large one, a struct
 * of a 64-byte header and the data ("bandwidth_joined_"): run without a
 * tool, that shows what the MPI gives such a datatype on this host now
 * (docs/mpi.md).  The latency is measured twice as well: with the data as
 * they are, and with each message packed behind a 40-byte header in a
 * buffer on the stack and copied out of one on arrival, as the piggyback
 * carries a small message ("latency_joined_"): run without a tool, that is
 * what the header alone costs, before any work of a profiler's.  The
 * same for the 8-byte allreduce ("allreduce_joined_8"): the data behind a
 * collective's 96-byte piggyback in one contiguous type, reduced by an
 * operator that takes the maxima of the header's words and sums the
 * data, as a fused allreduce moves them.
 * Every measurement first runs a tenth of its repetitions untimed, as OSU's
 * benchmarks skip their first iterations: the first call of a call site
 * is a profiler's one-time cost (its call path is unwound), not a
 * per-call one.
 * The buffer is written before any message, as OSU's benchmarks write
 * theirs: memory never written reads as the kernel's one zero page, which
 * stays in the cache and makes a single-copy transfer of it (Open MPI's
 * for contiguous data) twice as fast as of any data a program sends.
 * Usage: mpi-bench [SCALE]   (SCALE multiplies the repetitions)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 16	/* messages in flight in the bandwidth test */

#define HEADER 40	/* the piggyback's header on a small message */
#define SMALL 1024	/* the largest ping-pong message */
#define COLL_HEADER 96	/* the piggyback's core in a fused collective */

/* A send of bytes at buf to rank to, behind a header when joined. */
static void send_one(const char *buf, int bytes, int to, int joined)
{
	char s[HEADER + SMALL];

	if (!joined) {
		MPI_Send(buf, bytes, MPI_BYTE, to, 0, MPI_COMM_WORLD);
		return;
	}
	memset(s, 1, HEADER);
	memcpy(s + HEADER, buf, bytes);
	MPI_Send(s, HEADER + bytes, MPI_BYTE, to, 0, MPI_COMM_WORLD);
}

/* A receive of bytes into buf from rank from, behind a header when
 * joined, whose first byte is read as a decoder would: 0 when it is not
 * what send_one wrote. */
static int recv_one(char *buf, int bytes, int from, int joined)
{
	char s[HEADER + SMALL];

	if (!joined) {
		MPI_Recv(buf, bytes, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		return 1;
	}
	MPI_Recv(s, HEADER + bytes, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	memcpy(buf, s + HEADER, bytes);
	return s[0] == 1;
}

static void pingpong(int rank, int bytes, int reps, char *buf, int joined)
{
	double t0 = 0;
	int damaged = 0;

	for (int i = -reps / 10; i < reps; i++) {
		if (!i) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
		}
		if (rank == 0) {
			send_one(buf, bytes, 1, joined);
			damaged += !recv_one(buf, bytes, 1, joined);
		} else if (rank == 1) {
			damaged += !recv_one(buf, bytes, 0, joined);
			send_one(buf, bytes, 0, joined);
		}
	}
	if (rank == 0)
		printf("latency_%s%d %.3f us\n", joined ? "joined_" : "", bytes,
		       (MPI_Wtime() - t0) / reps / 2 * 1e6);
	if (damaged)
		fprintf(stderr, "mpi-bench: rank %d: %d headers arrived damaged\n", rank, damaged);
}

/* A message of the bandwidth test: its data at buf, and with hdr a struct
 * of hdr's 64 bytes and the data (a datatype to free after); *at, *count
 * and *type to pass to MPI. */
static void message(char *buf, int bytes, char (*hdr)[64], void **at, int *count,
		    MPI_Datatype *type)
{
	int len[2] = { 64, bytes };
	MPI_Aint where[2];
	MPI_Datatype byte[2] = { MPI_BYTE, MPI_BYTE };

	if (!hdr) {
		*at = buf;
		*count = bytes;
		*type = MPI_BYTE;
		return;
	}
	MPI_Get_address(*hdr, &where[0]);
	MPI_Get_address(buf, &where[1]);
	MPI_Type_create_struct(2, len, where, byte, type);
	MPI_Type_commit(type);
	*at = MPI_BOTTOM;
	*count = 1;
}

static void bandwidth(int rank, int bytes, int reps, char *buf, char (*hdrs)[64])
{
	MPI_Request req[WINDOW];
	MPI_Datatype type[WINDOW];
	double t0 = 0;

	for (int i = -reps / 10; i < reps; i++) {
		if (!i) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
		}
		for (int w = 0; w < WINDOW && rank < 2; w++) {
			void *at;
			int count;

			message(buf + (size_t)w * bytes, bytes, hdrs ? &hdrs[w] : NULL, &at, &count,
				&type[w]);
			if (rank == 0)
				MPI_Isend(at, count, type[w], 1, w, MPI_COMM_WORLD, &req[w]);
			else
				MPI_Irecv(at, count, type[w], 0, w, MPI_COMM_WORLD, &req[w]);
		}
		if (rank < 2)
			MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
		for (int w = 0; w < WINDOW && rank < 2 && hdrs; w++)
			MPI_Type_free(&type[w]);
		if (rank == 1)
			MPI_Send(buf, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD);
		else if (rank == 0)
			MPI_Recv(buf, 0, MPI_BYTE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	if (rank == 0)
		printf("bandwidth_%s%d %.1f MB/s\n", hdrs ? "joined_" : "", bytes,
		       (double)bytes * WINDOW * reps / (MPI_Wtime() - t0) / 1e6);
}

enum coll { ALLREDUCE, REDUCE, BCAST, BARRIER, ALLGATHER, ALLTOALL, GATHER, SCATTER, ALLGATHERV,
	    SCAN, EXSCAN, REDUCE_SCATTER_BLOCK, REDUCE_SCATTER, GATHERV, SCATTERV, ALLTOALLV,
	    IALLREDUCE, IREDUCE, ISCAN, IBCAST, IALLGATHER, IALLTOALL, IGATHER, IBARRIER,
	    ALLREDUCE_JOINED };
static const char *const coll_names[] = { "allreduce_8", "reduce_8", "bcast_8", "barrier",
					   "allgather_8", "alltoall_8", "gather_8", "scatter_8",
					   "allgatherv_8", "scan_8", "exscan_8",
					   "reduce_scatter_block_8", "reduce_scatter_8",
					   "gatherv_8", "scatterv_8",
					   "alltoallv_8", "iallreduce_8", "ireduce_8", "iscan_8",
					   "ibcast_8", "iallgather_8", "ialltoall_8", "igather_8",
					   "ibarrier",
					   "allreduce_joined_8" };
#define MAXRANKS 64	/* the gathers' and scatters' buffers */

/* [header | a double]: the maxima of the headers' words, the sum of the
 * data (as uint64_t words and a double, copied: no aliasing). */
struct joined {
	uint64_t hdr[COLL_HEADER / 8];
	double data;
};

static void joined_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
	struct joined a, b;

	(void)type;
	for (int i = 0; i < *len; i++) {
		memcpy(&a, (char *)in + i * sizeof(a), sizeof(a));
		memcpy(&b, (char *)inout + i * sizeof(b), sizeof(b));
		for (int w = 0; w < COLL_HEADER / 8; w++)
			b.hdr[w] = a.hdr[w] > b.hdr[w] ? a.hdr[w] : b.hdr[w];
		b.data += a.data;
		memcpy((char *)inout + i * sizeof(b), &b, sizeof(b));
	}
}

static MPI_Datatype joined_type;
static MPI_Op joined_op;

static void allreduce_joined(const double *in, double *out)
{
	struct joined jin = { .hdr[0] = (uint64_t)*in, .data = *in }, jout;

	MPI_Allreduce(&jin, &jout, 1, joined_type, joined_op, MPI_COMM_WORLD);
	*out = jout.data;
}

static void one_coll(enum coll k, double *in, double *out)
{
	static double many_in[MAXRANKS], many_out[MAXRANKS];
	static int ones[MAXRANKS], places[MAXRANKS], nranks;
	MPI_Request req;

	if (!nranks) {	/* the v forms: one double a rank */
		MPI_Comm_size(MPI_COMM_WORLD, &nranks);
		for (int r = 0; r < nranks; r++) {
			ones[r] = 1;
			places[r] = r;
		}
	}
	switch (k) {
	case ALLREDUCE:
		MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		break;
	case ALLREDUCE_JOINED:
		allreduce_joined(in, out);
		break;
	case REDUCE:
		MPI_Reduce(in, out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		break;
	case BCAST:
		MPI_Bcast(in, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		break;
	case BARRIER:
		MPI_Barrier(MPI_COMM_WORLD);
		break;
	case ALLGATHER:
		MPI_Allgather(in, 1, MPI_DOUBLE, many_out, 1, MPI_DOUBLE, MPI_COMM_WORLD);
		break;
	case ALLTOALL:
		MPI_Alltoall(many_in, 1, MPI_DOUBLE, many_out, 1, MPI_DOUBLE, MPI_COMM_WORLD);
		break;
	case GATHER:
		MPI_Gather(in, 1, MPI_DOUBLE, many_out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		break;
	case SCATTER:
		MPI_Scatter(many_in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		break;
	case ALLGATHERV:
		MPI_Allgatherv(in, 1, MPI_DOUBLE, many_out, ones, places, MPI_DOUBLE, MPI_COMM_WORLD);
		break;
	case SCAN:
		MPI_Scan(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		break;
	case EXSCAN:
		MPI_Exscan(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		break;
	case REDUCE_SCATTER_BLOCK:
		MPI_Reduce_scatter_block(many_in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		break;
	case REDUCE_SCATTER:
		MPI_Reduce_scatter(many_in, out, ones, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		break;
	case GATHERV:
		MPI_Gatherv(in, 1, MPI_DOUBLE, many_out, ones, places, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		break;
	case SCATTERV:
		MPI_Scatterv(many_in, ones, places, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		break;
	case ALLTOALLV:
		MPI_Alltoallv(many_in, ones, places, MPI_DOUBLE, many_out, ones, places, MPI_DOUBLE,
			      MPI_COMM_WORLD);
		break;
	case IALLREDUCE:
		MPI_Iallreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		break;
	case IREDUCE:
		MPI_Ireduce(in, out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		break;
	case ISCAN:
		MPI_Iscan(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		break;
	case IBCAST:
		MPI_Ibcast(in, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		break;
	case IALLGATHER:
		MPI_Iallgather(in, 1, MPI_DOUBLE, many_out, 1, MPI_DOUBLE, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		break;
	case IALLTOALL:
		MPI_Ialltoall(many_in, 1, MPI_DOUBLE, many_out, 1, MPI_DOUBLE, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		break;
	case IGATHER:
		MPI_Igather(in, 1, MPI_DOUBLE, many_out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		break;
	case IBARRIER:
		MPI_Ibarrier(MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		break;
	}
}

static void collective(enum coll k, int rank, int reps)
{
	double in = rank, out, t0 = 0;

	for (int i = -reps / 10; i < reps; i++) {
		if (!i) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
		}
		one_coll(k, &in, &out);
	}
	if (rank == 0)
		printf("%s %.3f us\n", coll_names[k], (MPI_Wtime() - t0) / reps * 1e6);
}

int main(int argc, char **argv)
{
	int rank, size, scale;
	char *buf = malloc((size_t)16 << 20);
	static char hdrs[WINDOW][64];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	scale = argc > 1 ? atoi(argv[1]) : 1;
	if (size < 2 || size > MAXRANKS) {
		if (rank == 0)
			fprintf(stderr, "mpi-bench: needs 2 to %d ranks\n", MAXRANKS);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	if (!buf) {
		fprintf(stderr, "mpi-bench: out of memory for the 16 MiB buffer\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	memset(buf, 'a' + rank, (size_t)16 << 20);
	for (int joined = 0; joined < 2; joined++) {
		pingpong(rank, 0, 20000 * scale, buf, joined);
		pingpong(rank, 8, 20000 * scale, buf, joined);
		pingpong(rank, SMALL, 20000 * scale, buf, joined);
	}
	for (int joined = 0; joined < 2; joined++) {
		bandwidth(rank, 64 << 10, 200 * scale, buf, joined ? hdrs : NULL);
		bandwidth(rank, 1 << 20, 20 * scale, buf, joined ? hdrs : NULL);
	}
	MPI_Type_contiguous((int)sizeof(struct joined), MPI_BYTE, &joined_type);
	MPI_Type_commit(&joined_type);
	MPI_Op_create(joined_sum, 1, &joined_op);
	for (int k = ALLREDUCE; k <= ALLREDUCE_JOINED; k++)
		collective((enum coll)k, rank, 20000 * scale);
	MPI_Op_free(&joined_op);
	MPI_Type_free(&joined_type);
	free(buf);
	MPI_Finalize();
	return 0;
}
