/*
 * cp-monitor.c - the critical path's intermediate values (cp-monitor.h):
 * ranks report their path length once per interval, the monitor (world
 * rank 0) turns the reports into a non-decreasing series of points.
 *
 * Time since t0 (each rank's MPI_Init exit) is cut into rounds of one
 * interval.  A rank sends one report {round, length, final} at its first
 * call in a new round (one for the current round if it was busy for
 * several).  Rank 0 drains reports in its own calls and, at its first call
 * in round k+1 or later, adds the point for round k: t = k * interval, the
 * largest length any rank reported for a round up to k.  Reports of a
 * later round wait in a per-rank slot, so a point holds values of its
 * round or earlier.  At the end rank 0 waits for every rank's final report
 * and adds a last point, the largest final length.  Points never decrease
 * in t or length (each is at least the previous one).
 *
 * Sends never block a rank's calls: a ring of RING requests, and a report
 * whose slot is still busy is dropped (the next one supersedes it).  The
 * private communicator is duplicated inside MPI_Init (see open).
 *
 * Cost: a compare per call; per interval one report per rank, and on rank
 * 0 O(ranks) per point plus two PMPI_Iprobe every interval / 10.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <pthread.h>

#include "../sampler/rt.h"
#include "piggyback.h"
#include "cp-monitor.h"

#define TAG 0x4350		/* on our own communicator: any tag will do */
#define RING 16u		/* reports in flight per rank */
#define MIN_INTERVAL 1000000ull	/* 1 ms */
#define MAX_POINTS 4096u	/* then every other is dropped: 64 KiB at most */

struct report {
	uint64_t round, length, final;
};
#define REPORT_N 3		/* MPI_UINT64_T in a report */

static struct {
	pthread_mutex_t lock;
	uint64_t next_due;	/* a tick before this does nothing (read unlocked);
				 * UINT64_MAX when off or ended */
	bool on, ended;
	MPI_Comm comm;		/* MPI_COMM_NULL until open */
	int rank, size;
	uint64_t interval, t0, probe;
	bool reported;		/* round below is valid */
	uint64_t round;		/* of this rank's latest report */
	/* ranks other than 0: reports in flight */
	MPI_Request req[RING];
	struct report out[RING];
	unsigned slot;
	/* rank 0 */
	uint64_t *val;		/* per rank: largest length of a report folded in */
	uint64_t *ahead;	/* per rank: a report of a round after horizon */
	uint64_t *ahead_round;	/* its round + 1, 0 when none */
	uint64_t next_pt;	/* round of the next point */
	bool known;		/* some value was folded in: points say something */
	uint64_t horizon;	/* the next point's round is at least this */
	uint64_t final_max;
	int nfinal;
	struct prof_cp_point *pts;
	uint32_t npts, cap;
	uint64_t stride, skipped;	/* keep one point in stride */
} mon = { .lock = PTHREAD_MUTEX_INITIALIZER, .next_due = UINT64_MAX, .comm = MPI_COMM_NULL };

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t round_of(uint64_t t)
{
	return t > mon.t0 ? (t - mon.t0) / mon.interval : 0;
}

/*
 * The communicator is a blocking PMPI_Comm_dup, made inside MPI_Init just
 * before the barrier that lets the ranks leave it together, so it keeps
 * no rank waiting on the path.  A PMPI_Comm_idup left pending into the
 * program broke Open MPI 4.1: its rounds of agreeing on a context id are
 * collectives on MPI_COMM_WORLD started from progress callbacks, and the
 * program's own non-blocking collectives on MPI_COMM_WORLD meanwhile got
 * their messages mixed with them (an MPI_Iallreduce's 40 KB written past
 * the dup's 120-byte context, found by ASan under make check-stress).
 */
void pmpi_cpmon_open(void)
{
	MPI_Comm c;

	if (PMPI_Comm_dup(MPI_COMM_WORLD, &c) != MPI_SUCCESS)
		return;
	PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
	rt_lock(&mon.lock);
	mon.comm = c;
	rt_unlock(&mon.lock);
}

void pmpi_cpmon_start(uint64_t interval_ns, uint64_t t0)
{
	int rank, size;

	if (!interval_ns)
		return;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	rt_lock(&mon.lock);
	if (mon.comm == MPI_COMM_NULL) {	/* every rank alike: no monitor */
		rt_unlock(&mon.lock);
		return;
	}
	mon.rank = rank;
	mon.size = size;
	mon.interval = max64(interval_ns, MIN_INTERVAL);
	mon.probe = mon.interval / 10;
	mon.t0 = t0;
	for (unsigned i = 0; i < RING; i++)
		mon.req[i] = MPI_REQUEST_NULL;
	if (rank == 0) {
		mon.val = calloc((size_t)size, sizeof(uint64_t));
		mon.ahead = calloc((size_t)size, sizeof(uint64_t));
		mon.ahead_round = calloc((size_t)size, sizeof(uint64_t));
		if (!mon.val || !mon.ahead || !mon.ahead_round) {	/* still drain, keep no points */
			free(mon.val);
			free(mon.ahead);
			free(mon.ahead_round);
			mon.val = mon.ahead = mon.ahead_round = NULL;
		}
	}
	mon.on = true;
	__atomic_store_n(&mon.next_due, t0, __ATOMIC_RELAXED);	/* report round 0 at once */
	rt_unlock(&mon.lock);
}

/* --- rank 0; the caller holds mon.lock */

/* MAX_POINTS held: keep every other (the latest among them), and from
 * now on one point in twice as many, so the series stays evenly spaced
 * and bounded however long the run. */
static void thin_points(void)
{
	uint32_t k = 0;

	for (uint32_t i = 1; i < mon.npts; i += 2)
		mon.pts[k++] = mon.pts[i];
	mon.npts = k;
	mon.stride = mon.stride ? mon.stride * 2 : 2;
	mon.skipped = 0;
}

/* Append a point, raised to the previous one, unless the stride skips it
 * (the last point, last, never is); dropped when memory is short. */
static void add_point(uint64_t t, uint64_t length, bool last)
{
	if (!mon.val)
		return;
	if (!last && mon.stride && ++mon.skipped < mon.stride)
		return;
	mon.skipped = 0;
	if (mon.npts) {
		t = max64(t, mon.pts[mon.npts - 1].t_ns);
		length = max64(length, mon.pts[mon.npts - 1].length_ns);
	}
	if (mon.npts == MAX_POINTS)
		thin_points();
	if (mon.npts == mon.cap) {
		uint32_t cap = mon.cap ? mon.cap * 2 : 64;
		struct prof_cp_point *v = realloc(mon.pts, (size_t)cap * sizeof(*v));

		if (!v)
			return;
		mon.pts = v;
		mon.cap = cap;
	}
	mon.pts[mon.npts++] = (struct prof_cp_point){ t, length };
}

/* Fold rank r's waiting report into its value when its round is at most k. */
static void fold(int r, uint64_t k)
{
	if (mon.ahead_round[r] && mon.ahead_round[r] - 1 <= k) {
		mon.val[r] = max64(mon.val[r], mon.ahead[r]);
		mon.ahead[r] = mon.ahead_round[r] = 0;
		mon.known = true;
	}
}

/* At time t the next point is for the last round that ended, or later. */
static void set_horizon(uint64_t t)
{
	uint64_t k = round_of(t);

	mon.horizon = max64(mon.next_pt, k ? k - 1 : 0);
}

/* A report of rank r; set_horizon first. */
static void take(int r, const struct report *m)
{
	if (r < 0 || r >= mon.size)
		return;
	if (m->final) {
		mon.nfinal++;
		mon.final_max = max64(mon.final_max, m->length);
	}
	if (!mon.val)
		return;
	fold(r, mon.horizon);
	if (m->round <= mon.horizon) {
		mon.val[r] = max64(mon.val[r], m->length);
		mon.known = true;
	} else {		/* a later round: an older waiting one is superseded */
		mon.ahead[r] = max64(mon.ahead[r], m->length);
		mon.ahead_round[r] = m->round + 1;
	}
}

/* At time t: the point of the last round that ended, unless it is done or
 * nothing is known yet.  Rounds rank 0 spent outside MPI calls get no
 * point of their own. */
static void advance(uint64_t t)
{
	uint64_t k = round_of(t), m = 0;

	if (k == 0 || mon.next_pt > k - 1)
		return;
	k--;
	if (mon.val) {
		for (int r = 0; r < mon.size; r++) {
			fold(r, k);
			m = max64(m, mon.val[r]);
		}
		if (mon.known)
			add_point(k * mon.interval, m, false);
	}
	mon.next_pt = k + 1;
	mon.horizon = max64(mon.horizon, mon.next_pt);
}

/* Receive what has arrived, without waiting.  One probe may miss messages
 * that are there (MPICH's shared memory hands over a few cells per poll):
 * stop at the second probe in a row that finds nothing. */
static void drain(void)
{
	for (int miss = 0; miss < 2;) {
		MPI_Status st;
		struct report m;
		int flag = 0;

		if (PMPI_Iprobe(MPI_ANY_SOURCE, TAG, mon.comm, &flag, &st) != MPI_SUCCESS)
			return;
		if (!flag) {
			miss++;
			continue;
		}
		miss = 0;
		if (PMPI_Recv(&m, REPORT_N, MPI_UINT64_T, st.MPI_SOURCE, TAG, mon.comm,
			      MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return;
		take(st.MPI_SOURCE, &m);
	}
}

/* --- other ranks; the caller holds mon.lock */

/* Send a report to rank 0.  A report whose ring slot is still in flight is
 * dropped, unless it is the final one, which waits for the slot. */
static void send_report(uint64_t round, uint64_t length, bool final)
{
	unsigned i = mon.slot;

	if (mon.req[i] != MPI_REQUEST_NULL) {
		int done = 0;

		if (final)
			PMPI_Wait(&mon.req[i], MPI_STATUS_IGNORE);
		else if (PMPI_Test(&mon.req[i], &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || !done)
			return;
	}
	mon.out[i] = (struct report){ round, length, final };
	if (PMPI_Isend(&mon.out[i], REPORT_N, MPI_UINT64_T, 0, TAG, mon.comm, &mon.req[i]) != MPI_SUCCESS)
		mon.req[i] = MPI_REQUEST_NULL;
	mon.slot = (i + 1) % RING;
}

/* --- every rank */

void pmpi_cpmon_tick(uint64_t now, uint64_t length)
{
	uint64_t k, due;

	if (now < __atomic_load_n(&mon.next_due, __ATOMIC_RELAXED))
		return;
	rt_lock(&mon.lock);
	if (!mon.on || mon.ended || now < mon.next_due) {	/* another thread was first */
		rt_unlock(&mon.lock);
		return;
	}
	k = round_of(now);
	due = mon.t0 + (k + 1) * mon.interval;
	if (mon.rank == 0) {
		set_horizon(now);
		drain();
		advance(now);
		if (!mon.reported || k > mon.round)
			take(0, &(struct report){ k, length, 0 });
		if (now + mon.probe < due)
			due = now + mon.probe;
	} else if (!mon.reported || k > mon.round) {
		send_report(k, length, false);
	}
	if (!mon.reported || k > mon.round) {
		mon.reported = true;
		mon.round = k;
	}
	__atomic_store_n(&mon.next_due, due, __ATOMIC_RELAXED);
	rt_unlock(&mon.lock);
}

void pmpi_cpmon_end(uint64_t now, uint64_t length)
{
	rt_lock(&mon.lock);
	if (!mon.on || mon.ended) {
		rt_unlock(&mon.lock);
		return;
	}
	mon.ended = true;
	__atomic_store_n(&mon.next_due, UINT64_MAX, __ATOMIC_RELAXED);
	if (mon.rank == 0) {
		/*
		 * Every rank sends exactly one final report, after all its
		 * others (which therefore arrive first): wait for them all,
		 * adding the points of the rounds that end meanwhile.
		 */
		set_horizon(now);
		take(0, &(struct report){ round_of(now), length, 1 });
		while (mon.nfinal < mon.size) {
			MPI_Status st;
			struct report m;
			uint64_t t;

			if (PMPI_Recv(&m, REPORT_N, MPI_UINT64_T, MPI_ANY_SOURCE, TAG, mon.comm,
				      &st) != MPI_SUCCESS)
				break;
			t = rt_now_ns();
			set_horizon(t);
			take(st.MPI_SOURCE, &m);
			advance(t);
		}
		now = max64(now, rt_now_ns());
		advance(now);
		add_point(now > mon.t0 ? now - mon.t0 : 0, mon.final_max, true);
		free(mon.val);
		free(mon.ahead);
		free(mon.ahead_round);
		mon.val = mon.ahead = mon.ahead_round = NULL;
	} else {
		send_report(round_of(now), length, true);
		/* one at a time: MPICH's header makes GCC see MPI_STATUSES_IGNORE as too small */
		for (unsigned i = 0; i < RING; i++)
			if (mon.req[i] != MPI_REQUEST_NULL)
				PMPI_Wait(&mon.req[i], MPI_STATUS_IGNORE);
	}
	PMPI_Comm_free(&mon.comm);
	rt_unlock(&mon.lock);
}

void pmpi_cpmon_fill(struct profile *p)
{
	rt_lock(&mon.lock);
	if (mon.npts) {
		free(p->cp_points);
		p->cp_points = mon.pts;
		p->ncp_points = mon.npts;
		mon.pts = NULL;
		mon.npts = mon.cap = 0;
	}
	rt_unlock(&mon.lock);
}
