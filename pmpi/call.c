/*
 * call.c - the life of one wrapped MPI call: its entry (nesting, the
 * clock, the compensation's charge, the critical path's event) and its
 * exit (the site's statistics, the path's segment), and the start of the
 * path and the compensation at MPI_Init's exit.
 *
 * A call reads the clock twice: at its entry, and at its end, which a
 * completed receive or collective may have read already (c->t_done).  The work around
 * them is in the call's calibrated cost (compensate.c).
 */
#include <stdatomic.h>

#include "pmpi.h"
#include "critpath.h"
#include "cp-monitor.h"
#include "compensate.h"
#include "piggyback.h"
#include "stats.h"

/* Set once at MPI_Init by the thread that calls it; read by every wrapper. */
static atomic_bool active;
/* Wrapper nesting of this thread: a wrapper entered from inside another
 * (the library's Fortran binding calling the C function) only passes on. */
static __thread unsigned depth __attribute__((tls_model("initial-exec")));

bool pmpi_one_thread;

void pmpi_calls_start(int world_size)
{
	int level = MPI_THREAD_MULTIPLE;

	PMPI_Query_thread(&level);
	pmpi_one_thread = level < MPI_THREAD_MULTIPLE;
	pmpi_activate(world_size);
	atomic_store(&active, true);
}

void pmpi_calls_stop(void)
{
	atomic_store(&active, false);
}

bool pmpi_enter(struct pmpi_call *c, unsigned fn, unsigned flags, const void *ra)
{
	if (depth || (!(flags & PMPI_CALL_INIT) && !atomic_load_explicit(&active, memory_order_relaxed)))
		return false;
	depth++;
	c->ra = ra;
	c->fn = fn;
	c->flags = flags;
	c->site = -1;
	c->completed = false;
	c->sent = c->recv = 0;
	c->peer = -1;
	c->peer_bytes = 0;
	c->nsizes = 0;
	c->comm_size = -1;
	c->t_done = 0;
	if (!(flags & PMPI_CALL_INIT))
		pmpi_comp_enter();	/* before the call's clock: tool time, not MPI time */
	c->t0 = rt_now_ns();
	pmpi_cp_enter(c);
	return true;
}

/* MPI_Init's exit: the critical path and the compensation start (they
 * ride on the piggyback), once compensation has calibrated its costs
 * (tens of ms): that is MPI_Init's time, not the program's.  The ranks
 * calibrate one after another on a host, so a barrier makes them leave
 * MPI_Init together, as without the tool: otherwise the first to finish
 * would wait for the others at its first call, a wait that neither the
 * profile nor the delay should show. */
static void start_path(void)
{
	struct rt_state *rt = rt_current();
	uint64_t t;

	if (pmpi_pb_on && rt) {
		pmpi_comp_calibrate(rt);
		if (rt->opt.cp_interval > 0)	/* collective: before the barrier */
			pmpi_cpmon_open();
		PMPI_Barrier(MPI_COMM_WORLD);
		t = rt_now_ns();
		pmpi_comp_start(t);
		pmpi_cp_start(rt, t);
	}
}

void pmpi_leave(struct pmpi_call *c)
{
	uint64_t t;
	bool fresh = false;

	depth--;
	if (!atomic_load_explicit(&active, memory_order_relaxed))
		return;
	/* before the program looks at what they received: MPI's work, the
	 * call's time */
	pmpi_freed_poll();
	/* the call ends when its data are in (a receive's completion read
	 * the clock then) */
	t = c->t_done ? c->t_done : rt_now_ns();
	pmpi_stats_add(c, t - c->t0, &fresh);
	if (fresh) {	/* the capture's wait belongs to the call, not to the path */
		pmpi_path_capture(c, c->site);	/* charged as drain time */
		t = rt_now_ns();
	}
	if (c->flags & PMPI_CALL_INIT) {
		start_path();
		pmpi_region_start();
	} else {
		pmpi_comp_leave(c->t0, t, c->comm_size >= 0);
		pmpi_cp_leave(c, t);
	}
}
