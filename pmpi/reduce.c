/*
 * reduce.c - --merge=mpi: the ranks reduce their profiles into one at
 * MPI_Finalize (docs/record.md "Merging at the end").
 *
 * At the entry of MPI_Finalize each rank ends profiling and writes its
 * own file as always, so nothing depends on the merge.  Then, on a
 * duplicate of MPI_COMM_WORLD made in MPI_Init, the ranks wait for each
 * other (a non-blocking barrier) and reduce along a binomial tree: in
 * round k a rank whose bit k is set sends its merged profile (the bytes
 * of the file format) to the rank 2^k below and leaves; the others
 * receive and fold.  Rank 0 writes merged.cpprof and tells every rank
 * whether it did (a broadcast), and with --no-rank-files each rank then
 * removes its own file.
 *
 * Every wait is bounded (--merge-timeout per step; a parent waits for a
 * child of height h for h + 1 steps), so a rank that died or never
 * reached MPI_Finalize costs the others at most a few timeouts: a rank
 * whose subtree failed sends a failure mark up instead of a profile,
 * rank 0 then writes no merged file, and the report reads the ranks'
 * files and names the missing ones.
 */
#include <errno.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../sampler/rt.h"
#include "call.h"
#include "reduce.h"

#define TAG_LEN 7701
#define TAG_DATA 7702
#define FAILED UINT64_MAX	/* a length that says "no profile: the subtree failed" */
#define CHUNK (1u << 30)	/* bytes per message: MPI counts are int */
#define MERGED_NAME "merged" PROFILE_SUFFIX

static MPI_Comm comm = MPI_COMM_NULL;

void pmpi_reduce_open(void)
{
	MPI_Comm c;

	if (PMPI_Comm_dup(MPI_COMM_WORLD, &c) != MPI_SUCCESS)
		return;
	PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
	comm = c;
}

/* What becomes of a request that did not complete in time: a receive is
 * cancelled, a send goes on by itself; a collective's may be neither
 * cancelled nor freed (MPI 3.1, 5.12), so it stays. */
enum req_kind { REQ_RECV, REQ_SEND, REQ_COLL };

/* Wait for r until deadline (CLOCK_MONOTONIC ns).  Returns 0 when it
 * completed; -1 when time ran out or MPI failed. */
static int wait_until(MPI_Request *r, uint64_t deadline, enum req_kind kind)
{
	const struct timespec nap = { 0, 50000 };

	for (;;) {
		int done = 0;

		if (PMPI_Test(r, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			break;
		if (done)
			return 0;
		if (rt_now_ns() > deadline)
			break;
		nanosleep(&nap, NULL);
	}
	if (*r != MPI_REQUEST_NULL && kind != REQ_COLL) {
		if (kind == REQ_RECV)
			PMPI_Cancel(r);
		PMPI_Request_free(r);
	}
	return -1;
}

/* Send len then the n bytes of buf (none when len is FAILED) to dst. */
static int send_up(int dst, uint64_t len, const char *buf, uint64_t deadline)
{
	MPI_Request r;

	if (PMPI_Isend(&len, 1, MPI_UINT64_T, dst, TAG_LEN, comm, &r) != MPI_SUCCESS ||
	    wait_until(&r, deadline, REQ_SEND))
		return -1;
	for (uint64_t at = 0; len != FAILED && at < len; at += CHUNK) {
		int n = (int)(len - at < CHUNK ? len - at : CHUNK);

		if (PMPI_Isend(buf + at, n, MPI_BYTE, dst, TAG_DATA, comm, &r) != MPI_SUCCESS ||
		    wait_until(&r, deadline, REQ_SEND))
			return -1;
	}
	return 0;
}

/* Receive a child's profile bytes into *buf (the caller frees it).
 * Returns 0, 1 when the child's subtree failed, -1 when it did not answer
 * in time. */
static int recv_child(int src, char **buf, uint64_t *len, uint64_t deadline)
{
	MPI_Request r;

	*buf = NULL;
	if (PMPI_Irecv(len, 1, MPI_UINT64_T, src, TAG_LEN, comm, &r) != MPI_SUCCESS ||
	    wait_until(&r, deadline, REQ_RECV))
		return -1;
	if (*len == FAILED)
		return 1;
	if (!(*buf = malloc(*len ? *len : 1)))
		return -1;
	for (uint64_t at = 0; at < *len; at += CHUNK) {
		int n = (int)(*len - at < CHUNK ? *len - at : CHUNK);

		if (PMPI_Irecv(*buf + at, n, MPI_BYTE, src, TAG_DATA, comm, &r) != MPI_SUCCESS ||
		    wait_until(&r, deadline, REQ_RECV)) {
			free(*buf);
			*buf = NULL;
			return -1;
		}
	}
	return 0;
}

/* Fold the profile child sent into p.  Returns 0, or -1 after saying why. */
static int fold_child(struct rt_state *rt, struct profile *p, int child, uint64_t deadline)
{
	struct profile q;
	char *buf, err[512];
	uint64_t len;
	int rc = recv_child(child, &buf, &len, deadline);

	if (rc) {
		if (rc < 0)
			rt_notice(rt, "merge: rank %d had no profile from rank %d in time; "
				  "the ranks' files stay", (int)p->mranks[0].rank, child);
		return -1;
	}
	profile_init(&q);
	rc = profile_parse(&q, buf, len, err, sizeof(err)) ||
	     profile_merge(p, &q, err, sizeof(err));
	free(buf);
	profile_release(&q);
	if (rc)
		rt_notice(rt, "merge: rank %d's profile: %s; the ranks' files stay", child, err);
	return rc ? -1 : 0;
}

/* The binomial tree.  Returns 0 when rank 0 holds everyone's profile in
 * p, or this rank's part reached its parent; -1 when the merge failed
 * here or below. */
static int reduce_tree(struct rt_state *rt, struct profile *p, int rank, int size,
		       uint64_t start, uint64_t step)
{
	bool ok = true;
	char *buf = NULL, err[512];
	size_t len = 0;
	uint64_t level = 0;

	for (int mask = 1; mask < size; mask <<= 1, level++) {
		if (rank & mask) {
			if (ok && profile_write_mem(p, &buf, &len, err, sizeof(err))) {
				rt_notice(rt, "merge: %s", err);
				ok = false;
			}
			if (send_up(rank - mask, ok ? len : FAILED, buf,
				    rt_now_ns() + step) && ok) {
				rt_notice(rt, "merge: rank %d could not send its profile to rank %d "
					  "in time; the ranks' files stay", rank, rank - mask);
				ok = false;
			}
			free(buf);
			return ok ? 0 : -1;
		}
		/* a child of height h has folded its own children by start + h steps */
		if (rank + mask < size && fold_child(rt, p, rank + mask, start + (level + 1) * step))
			ok = false;
	}
	return ok ? 0 : -1;
}

/* Rank 0: write the merged profile.  Returns 0 or -1 after saying why. */
static int write_merged(struct rt_state *rt, const struct profile *p, uint64_t t0)
{
	char err[1024];

	if (profile_write_mode(p, rt->opt.output, MERGED_NAME, opt_file_mode(&rt->opt), err,
			       sizeof(err))) {
		rt_notice(rt, "merge: %s; the ranks' files stay", err);
		return -1;
	}
	rt_notice(rt, "%s/%s: %" PRIu64 " ranks merged at MPI_Finalize in %.3f s",
		  rt->opt.output, MERGED_NAME, p->merged, (double)(rt_now_ns() - t0) / 1e9);
	return 0;
}

/* Every rank learns from rank 0 whether the merged file is there. */
static bool merged_written(int ok, uint64_t deadline)
{
	MPI_Request r;

	if (PMPI_Ibcast(&ok, 1, MPI_INT, 0, comm, &r) != MPI_SUCCESS ||
	    wait_until(&r, deadline, REQ_COLL))
		return false;
	return ok == 1;
}

void pmpi_reduce_at_finalize(void)
{
	struct rt_state *rt = rt_current();
	uint64_t step, t0, levels = 0;
	char err[512], file[sizeof(rt->file)];
	struct profile p;
	MPI_Request r;
	int rank, size, ok;

	if (!rt || rt->opt.merge != MERGE_MPI || comm == MPI_COMM_NULL)
		return;
	step = (uint64_t)(rt->opt.merge_timeout * 1e9);
	PMPI_Comm_rank(comm, &rank);
	PMPI_Comm_size(comm, &size);
	while ((1 << levels) < size)
		levels++;
	profile_init(&p);
	if (!rt_finish_take(&p))
		return;
	memcpy(file, rt->file, sizeof(file));
	pmpi_calls_stop();
	t0 = rt_now_ns();
	if (PMPI_Ibarrier(comm, &r) != MPI_SUCCESS || wait_until(&r, t0 + step, REQ_COLL)) {
		rt_notice(rt, "merge: not every rank reached MPI_Finalize within %.1f s "
			  "(--merge-timeout); the ranks' files stay", rt->opt.merge_timeout);
		profile_release(&p);
		return;
	}
	if (profile_to_merged(&p, err, sizeof(err))) {
		rt_notice(rt, "merge: %s", err);
		ok = -1;
	} else
		ok = reduce_tree(rt, &p, rank, size, rt_now_ns(), step);
	if (rank == 0)
		ok = ok == 0 && write_merged(rt, &p, t0) == 0;
	profile_release(&p);
	if (rank != 0 && ok != 0)
		return;	/* rank 0 has no merged profile: this part never reached it */
	if (merged_written(rank == 0 ? ok : 0, rt_now_ns() + (levels + 2) * step) &&
	    !rt->opt.rank_files && file[0]) {
		char path[PATH_MAX + sizeof(file) + 1];

		snprintf(path, sizeof(path), "%s/%s", rt->opt.output, file);
		if (unlink(path) && errno != ENOENT)
			rt_notice(rt, "merge: cannot remove %s: %s", path, strerror(errno));
	}
}
