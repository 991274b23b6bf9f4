/*
 * compensate.c - the rank's overhead and delay (compensate.h).
 *
 * What is measured and how (docs/compensation.md):
 * - a wrapped call's own work around its two clock readings (its entry's
 *   charge, the statistics, the path's segment) is timed on a few calls
 *   of a thread and each call charged the median of the last timings
 *   (call.c, pb-rules.h), as are a small message's steps (p2p.c);
 * - a sample costs the kernel's interrupt and stack copy: the interrupt
 *   measured at MPI_Init and again along the run by the drain thread
 *   (sampler/sample-cost.c), each sample charged the cost measured at the
 *   time, and the copy estimated from the stack size; or
 *   CPPERF_SAMPLE_COST_NS;
 * - a context switch costs switch_cost_ns more than without events
 *   (sampler/switch-cost.c, calibrated at MPI_Init, or
 *   CPPERF_SWITCH_COST_NS); those of the drain thread are charged, each of
 *   which may take a core from the rank and give it back;
 * - the time the rank waits for a CPU is not charged: other processes and
 *   the program's own threads cause it as much as we do, and what we cause
 *   is the drain thread's CPU time and switches, charged as such; nothing
 *   is read from /proc on the calling thread;
 * - the piggyback's work is timed: a message's layout and header from the
 *   call's entry to MPI's, its header read and data unpacked after the
 *   receive completed, the collectives' companions; and so are samples
 *   folded on the rank's thread;
 * - the drain thread's CPU time is charged as it grows: it unwinds the
 *   rank's samples on the rank's cores;
 * - on a host with more ranks than CPUs, a wait that took turns with
 *   another thread is charged the switches it was preempted, TURNS_MAX
 *   at most (charge_turns); those of a collective travel to the next
 *   collective, where the participants' largest is everybody's;
 * - CPPERF_INJECT_MPI_NS and CPPERF_INJECT_SAMPLE_NS add busy time at each
 *   call's entry (the samples' share since the previous call), charged
 *   the wall time it took (a spin preempted on a busy host lasts longer
 *   than asked, and delays the rank that much), so
 *   tests can make the dilation as large as they need.  On a host with
 *   more ranks than CPUs the spin yields the CPU to any other thread that
 *   can run: one that kept its core would also slow the ranks that share
 *   it, which no rank's own accounting can see.  Otherwise it keeps the
 *   CPU for that much CPU time, as the tool's own work does: a spin that
 *   gave its CPU to another process at every turn would gain the rank the
 *   scheduler's favour later, and compensation would remove more than the
 *   run lost.
 * Samples are charged at the next call's entry, counted in the calling
 * thread's ring before the drain thread folds them: the kernel took them
 * on this rank's time, and that is where the delay must start to travel.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../common/hash.h"
#include "../sampler/rt.h"
#include "analyses-lock.h"
#include "call.h"
#include "compensate.h"
#include "here.h"
#include "piggyback.h"
#include "pb-units.h"

#define TURNS_CALL_NS 20000	/* a call this long may have taken turns */
#define TURNS_MAX 4		/* switches charged to one call at most */

static struct {
	bool on;
	struct prof_overhead ovh;
	uint64_t inject_mpi_ns, inject_sample_ns;
	bool shared_cores;	/* more ranks on this host than CPUs */
	bool inject;		/* an injected cost (CPPERF_INJECT_*) */
	/* live, one thread calls MPI and nothing is injected: the wrappers
	 * charge without the lock or a test of inject, after one load */
	bool quick;
	uint64_t drain_seen;	/* the drain thread's CPU time at the last charge */
	uint64_t samples_in_spins;	/* taken during injected spins: their time is the spin's */
	uint64_t drain_switches_seen;	/* and its context switches */
	uint64_t x;		/* delay */
	uint64_t coll_turns;	/* of x: the turns charged at the last collective */
	uint64_t wait, wait_comp;
	uint64_t start, end, end_x;
	bool ended;
	bool live;		/* on and not ended: one load for every call */
	uint64_t host;		/* hash of this host's name */
	struct rt_state *rt;	/* the runtime, NULL when none */
	uint64_t news_seen;	/* news_count at the last charge of news */
} comp;

static atomic_uint_fast64_t samples_seen;	/* folded since the start */
/* Samples folded and publications of the drain thread's costs: one load
 * tells a wrapper whether either moved (bumped after them, release). */
static atomic_uint_fast64_t news_n;

static inline uint64_t news_count(void)
{
	return atomic_load_explicit(&news_n, memory_order_acquire);
}
/* The calling thread's involuntary switches at the last reading, the
 * injected spin's taken out; 0 before the first. */
static __thread uint64_t preempted_seen;


/* How often the calling thread was preempted (switched out while it could
 * run): a system call. */
static uint64_t preempted(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : (uint64_t)ru.ru_nivcsw;
}

/*
 * The injected busy time.  Where the spin keeps its CPU it stands for the
 * tool's own work, which is CPU work: it runs until the thread has had ns
 * of CPU time.  A spin bounded by the wall clock did less of it the longer
 * another process held the core, and ended inside that process's turn
 * (docs/compensation.md).  Where it yields, ns of wall time.
 */
static void spin_cpu(uint64_t ns)
{
	uint64_t until = rt_clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (rt_clock_ns(CLOCK_THREAD_CPUTIME_ID) < until)
		;
}

/* Its switches are the spin's, not a wait's (charge_turns). */
static void spin_yielding(uint64_t ns)
{
	uint64_t until = rt_now_ns() + ns, p0 = preempted_seen ? preempted() : 0;

	while (rt_now_ns() < until)
		sched_yield();
	if (p0)
		preempted_seen += preempted() - p0;
}

static void busy(uint64_t ns)
{
	if (comp.shared_cores)
		spin_yielding(ns);
	else
		spin_cpu(ns);
}

static uint64_t env_ns(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long x;

	if (!v || !*v)
		return dflt;
	x = strtoull(v, &end, 10);
	return *end ? dflt : (uint64_t)x;
}

/* The kernel's cost of one sample: CPPERF_SAMPLE_COST_NS, or measured by
 * this run (sampler/sample-cost.c): its record written into the ring at
 * the start, its interrupt at the start, once per host, and then by the
 * rank's drain thread along the run; else estimated as an interrupt and
 * the record (docs/compensation.md). */
static void sample_cost_start(struct rt_state *rt)
{
	uint64_t cost = env_ns("CPPERF_SAMPLE_COST_NS", UINT64_MAX);

	if (cost != UINT64_MAX) {
		rt_cost_probe_start(rt, cost, false);
		return;
	}
	rt->ring_cost_ns = rt_cost_shared(rt, "ring-cost", rt_ring_cost_ns, true);
	cost = rt_cost_shared(rt, "sample-cost", rt_sample_cost_ns, true);
	rt_cost_probe_start(rt, cost ? cost : 500 + rt_ring_write_ns(rt), true);
}

uint64_t pmpi_host_hash(void)
{
	char name[256] = "";

	gethostname(name, sizeof(name) - 1);
	return hash_str(name);
}

void pmpi_comp_calibrate(struct rt_state *rt)
{
	uint64_t sw = env_ns("CPPERF_SWITCH_COST_NS", UINT64_MAX);

	sample_cost_start(rt);
	if (sw == UINT64_MAX)
		sw = rt_cost_shared(rt, "switch-cost", rt_switch_cost_ns, false);
	pmpi_analyses_lock();
	comp.ovh.switch_cost_ns = sw;
	pmpi_analyses_unlock();
}

void pmpi_comp_start(uint64_t t0)
{
	struct rt_state *rt = rt_current();

	pmpi_analyses_lock();
	comp.inject_mpi_ns = env_ns("CPPERF_INJECT_MPI_NS", 0);
	comp.inject_sample_ns = env_ns("CPPERF_INJECT_SAMPLE_NS", 0);
	comp.shared_cores = pmpi_pb_host_ranks() > sysconf(_SC_NPROCESSORS_ONLN);
	comp.inject = comp.inject_mpi_ns || comp.inject_sample_ns;
	comp.start = t0;
	comp.host = pmpi_host_hash();
	atomic_store(&samples_seen, 0);
	comp.rt = rt;
	comp.news_seen = news_count();
	comp.drain_seen = rt ? atomic_load(&rt->drain_cpu) : 0;
	comp.drain_switches_seen = rt ? atomic_load(&rt->drain_switches) : 0;
	comp.on = true;
	__atomic_store_n(&comp.live, true, __ATOMIC_RELAXED);
	__atomic_store_n(&comp.quick, pmpi_one_thread && !comp.inject, __ATOMIC_RELAXED);
	/* the lock is the quick way's to take (way.h) */
	pmpi_quick_part(PMPI_QUICK_COMP, !comp.inject && !comp.shared_cores);
	pmpi_analyses_unlock();
}

void pmpi_comp_sample(void)
{
	atomic_fetch_add_explicit(&samples_seen, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&news_n, 1, memory_order_release);
}

void pmpi_comp_published(struct rt_state *rt)
{
	(void)rt;
	atomic_fetch_add_explicit(&news_n, 1, memory_order_release);
}

/*
 * The samples of the rank's threads so far: those folded, and those of the
 * calling thread that wait in its ring (the drain thread wakes only when a
 * ring is half full, tens of ms later).  A sample delays the rank when the
 * kernel takes it, and its cost must travel with the next message: the
 * rule at a completion (pb_comp_rule) keeps the smaller of the sender's
 * delay and the receiver's, so a delay charged late is lost for good once
 * a partner that waited for it has answered (measured on a 2-rank ring
 * exchange: 2.3 % of the wall removed where 12 % was added).  Never lower
 * than what was charged: the two terms are read at different moments.
 */
static uint64_t samples_taken(void)
{
	return atomic_load_explicit(&samples_seen, memory_order_relaxed) +
	       rt_samples_pending_self(rt_current());
}

/* a - b, or 0: samples_taken may read one less for a moment while the
 * drain thread hands a sample from the ring to the fold. */
static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* The wrappers' side of the analyses' lock (analyses-lock.h): every user
 * of comp is a wrapper, or runs once at the start or the end.  Inline
 * wherever taken: the critical path's, the same code, would otherwise
 * share one copy with it out of line, a call more a lock (bench/mpi-cost.md). */
static inline __attribute__((always_inline)) void comp_lock(void)
{
	if (!pmpi_one_thread)
		pmpi_analyses_lock();
}

static inline __attribute__((always_inline)) void comp_unlock(void)
{
	if (!pmpi_one_thread)
		pmpi_analyses_unlock();
}

/* Whether a step takes that lock itself: not in the way without one, nor
 * inside a step that holds it (way.h). */
static inline bool comp_locks(enum pmpi_way quick)
{
	return quick != PMPI_QUICK && quick != PMPI_QUICK_HELD;
}

/* How a wrapper's charge goes in: not at all (compensation is not
 * live), as it is (comp.quick, or a quick way that needs no lock or
 * holds it), or under the lock when one is needed (the locked quick
 * way's, way.h). */
enum comp_way { COMP_OFF, COMP_QUICK, COMP_LOCKED };

static inline enum comp_way comp_open(enum pmpi_way quick)
{
	if (!comp_locks(quick) ||
	    (!quick && __builtin_expect(__atomic_load_n(&comp.quick, __ATOMIC_RELAXED), 1)))
		return COMP_QUICK;
	if (quick) {	/* live, from the quick parts */
		comp_lock();
		return COMP_LOCKED;
	}
	if (!__atomic_load_n(&comp.live, __ATOMIC_RELAXED))
		return COMP_OFF;
	comp_lock();
	return COMP_LOCKED;
}

static inline void comp_close(enum comp_way w)
{
	if (w == COMP_LOCKED)
		comp_unlock();
}

/* Add ns to the overhead and the delay.  Caller holds the analyses' lock. */
static void charge(uint64_t ns)
{
	comp.x += ns;
}

static void charge_switches(uint64_t n);

/* Charge the drain thread's CPU time since the last call: it unwinds the
 * rank's samples on the rank's cores; and its context switches, each of
 * which may take a rank's core from it and give it back.  Caller holds
 * the analyses' lock. */
static void charge_drain_thread(void)
{
	struct rt_state *rt = comp.rt;
	uint64_t now = rt ? atomic_load_explicit(&rt->drain_cpu, memory_order_relaxed) : 0;

	uint64_t sw = rt ? atomic_load_explicit(&rt->drain_switches, memory_order_relaxed) : 0;

	if (now > comp.drain_seen) {
		comp.ovh.drain_ns += now - comp.drain_seen;
		charge(now - comp.drain_seen);
		comp.drain_seen = now;
	}
	if (sw > comp.drain_switches_seen) {
		charge_switches(sw - comp.drain_switches_seen);
		comp.drain_switches_seen = sw;
	}
}

/* Charge n context switches.  Caller holds the analyses' lock. */
static void charge_switches(uint64_t n)
{
	comp.ovh.switches += n;
	comp.ovh.switch_ns += n * comp.ovh.switch_cost_ns;
	charge(n * comp.ovh.switch_cost_ns);
}

/*
 * Waits that take turns.  Where ranks outnumber the CPUs, MPI's progress
 * loop yields while it waits, and a waiting rank takes turns on its core
 * with another thread, each switch switch_cost_ns longer with events.
 * Data that come during the other's turn are seen that much later, so
 * switches inside MPI calls delay the ranks, beyond the drain thread's:
 * on 4 ranks sharing 2 cores, without them the scenarios of
 * docs/compensation.md came out 2-7 % above the uninstrumented walls.
 * Yet a long wait absorbs the switches made before its data came, so each
 * call is charged its preemptions (those since the last reading, read
 * when a call ends that lasted long enough to have taken turns) up to
 * TURNS_MAX, the bound that, measured against none, 2 and unbounded, kept
 * every scenario nearest the truth.  Those of a collective slowed it for
 * every participant: the rank keeps them apart (coll_turns), its next
 * collective's contribution carries them, and the largest is everybody's
 * (pb_coll_turns).
 */
static void charge_turns(uint64_t t0, uint64_t t, bool coll)
{
	uint64_t n, k = 0;

	/* t is when the program's collective completed; the companion's
	 * merge after it, where the rank may have lost its core, belongs
	 * to the call's turns too */
	if (coll)
		t = rt_now_ns();
	if (t - t0 >= TURNS_CALL_NS) {
		n = preempted();
		k = preempted_seen && n > preempted_seen ? n - preempted_seen : 0;
		preempted_seen = n;
		k = k < TURNS_MAX ? k : TURNS_MAX;
	}
	if (!k && !coll)
		return;
	comp_lock();
	charge_switches(k);
	if (coll)
		comp.coll_turns = k * comp.ovh.switch_cost_ns;
	comp_unlock();
}

/* shared_cores first: clear on most hosts, it spares the other test */
void pmpi_comp_leave(uint64_t t0, uint64_t t, bool coll, enum pmpi_way quick)
{
	if (!quick && comp.shared_cores && __atomic_load_n(&comp.live, __ATOMIC_RELAXED))
		charge_turns(t0, t, coll);
}

/* Charge the samples taken since the last charge, each cost; how many.
 * Caller holds the analyses' lock. */
static uint64_t charge_samples(uint64_t cost)
{
	uint64_t n = minus(samples_taken(), comp.samples_in_spins + comp.ovh.samples);

	comp.ovh.samples += n;
	comp.ovh.sample_ns += n * cost;
	charge(n * cost);
	return n;
}

/* Whether a sample or the drain thread's work may be uncharged: samples
 * folded or the drain thread's CPU time and switches published since
 * they were charged (news_n moved), or the calling thread's ring (its
 * head now `head`).  Two loads, inline
 * (every call and completion asks): most calls have none.  Caller holds
 * the analyses' lock. */
static inline __attribute__((always_inline)) bool news(uint64_t head)
{
	return news_count() != comp.news_seen || head != pmpi_here.ring_head;
}

/* Charge the news, the ring's head being `head`: the drain thread's work
 * and the samples taken; how many samples.  What it looked at is read
 * first: what moves meanwhile is news at the next look.  Caller holds
 * the analyses' lock. */
static __attribute__((noinline)) uint64_t charge_news(uint64_t head)
{
	comp.news_seen = news_count();
	pmpi_here.ring_head = head;
	charge_drain_thread();
	return charge_samples(comp.rt ? rt_sample_cost_now(comp.rt) : 0);
}

/* A call's entry: the news since the last, and the wrapper's own work
 * call_ns; the samples charged.  Caller holds the analyses' lock. */
static inline uint64_t enter_charge(uint64_t call_ns, uint64_t ring_head)
{
	uint64_t n = news(ring_head) ? charge_news(ring_head) : 0;

	comp.ovh.calls++;
	comp.ovh.wrapper_ns += call_ns;
	charge(call_ns);
	return n;
}

/*
 * The entry with comp.inject: under the lock, and the injected spin,
 * charged the wall time it took: its CPU time (what it was asked) left
 * out what the host took from it (a virtual CPU's steal, other processes
 * on its core), which the rank lost all the same; on the development VM
 * charging the CPU time left the master/worker scenario 6 % above plain
 * on a quiet host and 46 % above with a CPU-bound job on the master's
 * core, against 0 % and 5 % charging the wall (docs/compensation.md).
 * Its samples are the spin's, not charged again.  Returns the spin's wall
 * time, which the call's own timing leaves out.
 */
__attribute__((noinline))
static uint64_t enter_injecting(uint64_t call_ns, uint64_t ring_head)
{
	uint64_t n, inject, t, taken;

	comp_lock();
	n = enter_charge(call_ns, ring_head);
	inject = comp.inject_mpi_ns + n * comp.inject_sample_ns;
	comp_unlock();
	if (!inject)
		return 0;
	t = rt_now_ns();
	taken = samples_taken();
	busy(inject);
	t = rt_now_ns() - t;
	comp_lock();
	comp.samples_in_spins += minus(samples_taken(), taken);
	comp.ovh.inject_ns += t;
	charge(t);
	comp_unlock();
	return t;
}

uint64_t pmpi_comp_enter(uint64_t call_ns, uint64_t ring_head, enum pmpi_way quick)
{
	if (!comp_locks(quick) ||
	    (!quick && __builtin_expect(__atomic_load_n(&comp.quick, __ATOMIC_RELAXED), 1))) {
		enter_charge(call_ns, ring_head);
		return 0;
	}
	/* a quick way's: live, no injection (the quick parts) */
	if (!quick && !__atomic_load_n(&comp.live, __ATOMIC_RELAXED))
		return 0;
	if (!quick && comp.inject)
		return enter_injecting(call_ns, ring_head);
	comp_lock();
	enter_charge(call_ns, ring_head);
	comp_unlock();
	return 0;
}

struct cost_mark pmpi_cost_mark(void)
{
	return (struct cost_mark){ rt_now_ns() };
}

/* Charge ns of tool time to *source. */
static void charge_source(uint64_t ns, uint64_t *source, enum pmpi_way quick)
{
	enum comp_way w = comp_open(quick);

	if (w == COMP_OFF)
		return;
	*source += ns;
	charge(ns);
	comp_close(w);
}

/* The tool time from m to t. */
static uint64_t since(const struct cost_mark *m, uint64_t t)
{
	return t > m->t ? t - m->t : 0;
}

void pmpi_cost_piggyback(const struct cost_mark *m)
{
	pmpi_cost_piggyback_way(m, PMPI_SLOW);
}

void pmpi_cost_piggyback_way(const struct cost_mark *m, enum pmpi_way quick)
{
	charge_source(since(m, rt_now_ns()), &comp.ovh.piggyback_ns, quick);
}

void pmpi_cost_piggyback_to(const struct cost_mark *m, uint64_t t, enum pmpi_way quick)
{
	charge_source(since(m, t), &comp.ovh.piggyback_ns, quick);
}

void pmpi_cost_piggyback_ns(uint64_t ns, enum pmpi_way quick)
{
	charge_source(ns, &comp.ovh.piggyback_ns, quick);
}

void pmpi_cost_piggyback_timed(struct cost_sampled *s, const struct cost_mark *m,
			       enum pmpi_way quick)
{
	uint64_t ns = since(m, rt_now_ns());

	pb_sampled_add(s, ns);
	charge_source(ns, &comp.ovh.piggyback_ns, quick);
}

void pmpi_cost_drain(const struct cost_mark *m)
{
	charge_source(since(m, rt_now_ns()), &comp.ovh.drain_ns, PMPI_SLOW);
}

/* 0 until compensation is on: nothing charges it before (every charge
 * tests comp.live). */
uint64_t pmpi_comp_delay(void)
{
	return __atomic_load_n(&comp.x, __ATOMIC_RELAXED);
}

bool pmpi_comp_on(void)
{
	return __atomic_load_n(&comp.on, __ATOMIC_RELAXED);
}

/* --- the unit of the piggyback (pb-units.h) */

/* When call c's data would have been ready without measurement.
 * Caller holds the analyses' lock. */
static uint64_t free_at(const struct pmpi_call *c)
{
	return c->t0 > comp.x ? c->t0 - comp.x : 0;
}

/* The delay of a piggyback leaving at t_send with data ready at t_free:
 * the tool's time since the call's entry is delay too. */
static int64_t delay_at(uint64_t t_send, uint64_t t_free)
{
	return t_send > t_free ? (int64_t)(t_send - t_free) : 0;
}

void pb_comp_stamp(struct pmpi_pb *pb, const struct pmpi_call *c, enum pmpi_way quick)
{
	if (comp_locks(quick))
		comp_lock();
	pb->t_free = free_at(c);
	pb->delay = delay_at(pb->t_send, pb->t_free);
	pb->host = comp.host;
	if (comp_locks(quick))
		comp_unlock();
}

void pb_comp_stamp_core(struct pmpi_pb_core *k, const struct pmpi_call *c, enum pmpi_way quick)
{
	if (!quick && __atomic_load_n(&comp.quick, __ATOMIC_RELAXED))
		quick = PMPI_QUICK;
	if (comp_locks(quick))
		comp_lock();
	k->delay = delay_at(k->t_send, free_at(c));
	if (comp_locks(quick))
		comp_unlock();
}

/* A collective's contribution: the turns charged at the rank's last
 * collective left out of its delay and carried apart (pb->turns). */
void pb_comp_stamp_coll(struct pmpi_pb *pb, const struct pmpi_call *c,
			const struct pmpi_pb_coll *x, enum pmpi_way quick)
{
	(void)c;
	(void)x;
	if (comp_locks(quick))
		comp_lock();
	pb_turns_apart(pb, comp.coll_turns);
	if (comp_locks(quick))
		comp_unlock();
}

/* The rule at a completion (pb-rules.c, docs/compensation.md): call c
 * completed at t a receive or collective whose dependencies had the
 * (smallest) delay of pb; local when they all ran on this host. */
static void comp_merge(const struct pmpi_call *c, const struct pmpi_pb *pb, uint64_t t,
		       bool local, enum pmpi_way quick)
{
	enum comp_way w = comp_open(quick);
	struct comp_step r;
	uint64_t head;

	if (w == COMP_OFF)
		return;
	head = pmpi_ring_head_now();
	/* the tool's time while the call waited is before the data came:
	 * the wait absorbs it as it absorbs the program's */
	if (news(head))
		charge_news(head);
	r = pb_comp_rule(c->t0, t, comp.x, pb, local);
	comp.wait += r.wait;
	comp.wait_comp += r.wait_comp;
	comp.x = r.x;
	comp_close(w);
}

/* A sender's free time is comparable with this rank's clock only when it
 * runs on this host. */
void pb_comp_recv(const struct pb_arrival *a, struct pmpi_pb *pb, enum pmpi_way quick)
{
	comp_merge(a->c, pb, a->t, pmpi_pb_same_host(pb->rank), quick);
}

void pb_comp_coll(const struct pb_arrival *a, enum pmpi_way quick)
{
	const struct pmpi_pb *pb = &a->x->out;

	pb_coll_turns(&a->x->out);
	comp_merge(a->c, pb, a->t, pb->host == comp.host && !(pb->flags & PMPI_PB_F_HOSTS), quick);
}

void pmpi_comp_end(uint64_t t)
{
	pmpi_analyses_lock();
	if (comp.on && !comp.ended) {
		comp.end = t;
		comp.end_x = comp.x;
		__atomic_store_n(&comp.ended, true, __ATOMIC_RELAXED);
		__atomic_store_n(&comp.live, false, __ATOMIC_RELAXED);
		__atomic_store_n(&comp.quick, false, __ATOMIC_RELAXED);
		pmpi_quick_part(PMPI_QUICK_COMP, false);
	}
	pmpi_analyses_unlock();
}

static void fill_sample_probes(struct profile *p, const struct cost_probe *pr)
{
	p->comp_sample_probes = atomic_load(&pr->accepted);
	p->comp_sample_probes_busy = atomic_load(&pr->busy);
	p->comp_sample_cost_lo_ns = atomic_load(&pr->lo);
	p->comp_sample_cost_hi_ns = atomic_load(&pr->hi);
}

void pmpi_comp_fill(struct rt_state *rt)
{
	struct profile *p = &rt->prof;

	pmpi_analyses_lock();
	if (comp.on) {
		if (!comp.ended) {	/* no MPI_Finalize: the rank ends here */
			comp.end = rt_now_ns();
			comp.end_x = comp.x;
		}
		p->comp_on = 1;
		p->ovh = comp.ovh;
		p->ovh.sample_cost_ns = comp.ovh.samples ? comp.ovh.sample_ns / comp.ovh.samples :
					rt_sample_cost_now(rt);
		fill_sample_probes(p, &rt->probe);
		/* what a call was charged on average: the threads' medians
		 * changed as they were timed */
		p->ovh.call_cost_ns = comp.ovh.calls ? comp.ovh.wrapper_ns / comp.ovh.calls : 0;
		p->comp_wall_ns = comp.end > comp.start ? comp.end - comp.start : 0;
		p->comp_delay_ns = comp.end_x;
		p->comp_wait_ns = comp.wait;
		p->comp_wait_comp_ns = comp.wait_comp;
	}
	pmpi_analyses_unlock();
}
