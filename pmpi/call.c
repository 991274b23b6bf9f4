/*
 * call.c - the life of one wrapped MPI call: its entry (its call site,
 * the clock, the compensation's charge, the critical path's event; what
 * the call is and its nesting are set by pmpi_enter, inline) and its exit (the site's time, the path's segment), and the start of
 * the path and the compensation at MPI_Init's exit.
 *
 * A call reads the clock twice: at its entry, and at its end, which a
 * completed receive or collective may have read already (c->t_done).  The
 * wrapper's own work around them (the entry's charge, the statistics, the
 * path's segment) costs about the same from call to call: it is timed on
 * a few calls of a thread, three clock readings more each, and every
 * call is charged the median of the thread's last timings (pb-rules.h).
 */
#include <stdatomic.h>

#include "analyses-lock.h"
#include "call.h"
#include "freed.h"
#include "init.h"
#include "critpath.h"
#include "cp-monitor.h"
#include "cp-fold.h"
#include "compensate.h"
#include "piggyback.h"
#include "stats.h"
#include "waits.h"
#include "graph.h"

atomic_bool pmpi_calls_on;

bool pmpi_one_thread;

/* The runtime's record of the thread is asked each time, not kept: a
 * forked child's runtime gives its thread a new one. */
uint64_t pmpi_ring_head_now(void)
{
	struct rt_thread *t = rt_thread_self();

	return t ? rt_thread_head(t) : 0;
}

unsigned pmpi_quick_parts;

void pmpi_quick_part(unsigned part, bool holds)
{
	if (holds)
		__atomic_fetch_or(&pmpi_quick_parts, part, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&pmpi_quick_parts, ~part, __ATOMIC_RELAXED);
}

void pmpi_calls_start(int world_size)
{
	int level = MPI_THREAD_MULTIPLE;

	PMPI_Query_thread(&level);
	pmpi_one_thread = level < MPI_THREAD_MULTIPLE;
	pmpi_quick_part(PMPI_QUICK_ALONE, pmpi_one_thread);
	pmpi_activate(world_size);
	atomic_store(&pmpi_calls_on, true);
}

void pmpi_calls_stop(void)
{
	atomic_store(&pmpi_calls_on, false);
}

/* The entry's analyses in way `held`: the compensation's charge (before
 * the call's clock: tool time, not MPI time), the critical path's event;
 * the time injected. */
static inline __attribute__((always_inline)) uint64_t enter_steps(struct pmpi_call *c,
								   enum pmpi_way held)
{
	uint64_t injected = pmpi_comp_enter(pmpi_here.own_cost.est, c->ring_head, held);

	c->t0 = rt_now_ns();
	c->x0 = pmpi_comp_delay();
	pmpi_cp_enter(c, held);
	return injected;
}

/* The entry's work for the analyses on the piggyback: the wrapper's own
 * work timed on some calls, and theirs under one hold of their lock. */
static void enter_analyses(struct pmpi_call *c, enum pmpi_way quick)
{
	uint64_t t_in = 0, injected;

	c->timed = pb_sampled_due(&pmpi_here.own_cost);
	if (c->timed)
		t_in = rt_now_ns();
	pmpi_look_up_site(c);
	c->ring_head = pmpi_ring_head_now();
	PMPI_ANALYSES_STEP(quick, held, injected = enter_steps(c, held));
	if (c->timed)	/* read only then */
		c->own_ns = c->t0 - t_in - injected;
}

/* The entry's clock of a call without the piggyback's analyses. */
static inline void open_clock(struct pmpi_call *c)
{
	c->ring_head = pmpi_ring_head_now();
	c->t0 = rt_now_ns();
	c->x0 = 0;
	c->event = 0;	/* no path yet, or none */
}

void pmpi_open(struct pmpi_call *c, enum pmpi_way quick)
{
	if (quick || pmpi_pb_on) {
		c->flags |= PMPI_CALL_PB;
		enter_analyses(c, quick);
		return;
	}
	pmpi_look_up_site(c);
	open_clock(c);
}

void pmpi_open_init(struct pmpi_call *c)
{
	c->site = -1;	/* looked up at its end, MPI being up */
	c->counts = NULL;
	open_clock(c);
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
		pmpi_cpfold_open(rt);	/* likewise */
		PMPI_Barrier(MPI_COMM_WORLD);
		t = rt_now_ns();
		pmpi_comp_start(t);
		pmpi_cp_start(rt, t);
	}
}

/* The end's work for the analyses on the piggyback, of a call whose
 * entry did theirs: the compensation's
 * turns, the critical path's segment, and the wrapper's own work since
 * t_own when it is timed. */
static void leave_analyses(struct pmpi_call *c, uint64_t t, uint64_t t_own, enum pmpi_way quick)
{
	pmpi_comp_leave(c->t0, t, c->flags & PMPI_CALL_COLL, quick);
	pmpi_cp_leave(c, t, quick);
	if (c->timed)
		pb_sampled_add(&pmpi_here.own_cost, c->own_ns + (rt_now_ns() - t_own));
}

/* The end of MPI_Init or of the first call of a site, before its
 * statistics: out of line, so that the common end needs neither its
 * registers nor its stack.  false when the call's end is complete
 * (MPI_Init's); *t moves past a path's capture. */
__attribute__((noinline))
static bool leave_rare(struct pmpi_call *c, uint64_t dt, uint64_t *t)
{
	if (c->flags & PMPI_CALL_INIT)	/* MPI is up now */
		pmpi_look_up_site(c);
	if (c->flags & PMPI_CALL_FRESH) {	/* the capture's wait belongs to the call, not to the path */
		pmpi_path_capture(c, c->site);	/* charged as drain time */
		*t = rt_now_ns();
		c->timed = false;
	}
	if (c->flags & PMPI_CALL_INIT) {
		pmpi_stats_add(c, dt);
		start_path();
		pmpi_region_start();
		if (pmpi_waits_on)	/* the program's computation begins now */
			pmpi_graph_leave(c, rt_now_ns());
		return false;
	}
	return true;
}

void pmpi_leave(struct pmpi_call *c, enum pmpi_way quick)
{
	uint64_t t, t_own, dt;

	pmpi_here.nesting--;
	/* MPI_Finalize ends the calls, never a quick one */
	if (!quick && !atomic_load_explicit(&pmpi_calls_on, memory_order_relaxed))
		return;
	/* before the program looks at what they received: MPI's work, the
	 * call's time */
	pmpi_freed_poll();
	/* the call ends when its data are in (a receive's completion read
	 * the clock then) */
	if (quick || (c->flags & PMPI_CALL_PB)) {
		t = c->t_done ? c->t_done : rt_now_ns();
		/* a completion's piggyback work since t_done is charged apart */
		t_own = c->timed && c->t_done ? rt_now_ns() : t;
	} else {	/* no piggyback, no completion read the clock */
		t = t_own = rt_now_ns();
	}
	dt = t - c->t0;
	if (c->flags & PMPI_CALL_COLL)
		pmpi_stats_coll(c, dt);
	if (c->flags & PMPI_CALL_WAITED)	/* every receive's, with wait states */
		pmpi_waits_leave(c);
	if (__builtin_expect(c->flags & (PMPI_CALL_FRESH | PMPI_CALL_INIT), 0) &&
	    !leave_rare(c, dt, &t))
		return;
	pmpi_stats_add(c, dt);
	if (pmpi_waits_on)
		pmpi_graph_leave(c, t);
	if (quick || (c->flags & PMPI_CALL_PB))
		leave_analyses(c, t, t_own, quick);
}
