/*
 * test-activity.c - the thread activity (sampler/activity.c) on made-up
 * timelines of samples, one a millisecond while a thread runs: alone,
 * side by side, one spinning, one blocked (a gap), a service thread, a
 * thread that ends; samples judged only once the others' are in; and the
 * activity's records written, read back, re-keyed by a prune and merged
 * (common/profile-act.c, profile-read-act.c).
 */
#include "tap.h"
#include "make-profile.h"
#include "../../sampler/activity.h"

#define MS 1000000ull
#define W MS

/* Samples of t every ms in [from, to) ms, at node in region (CCT_NO_FRAME:
 * none), spinning or not. */
static void run_in(struct act_state *a, struct act_thread *t, uint64_t from, uint64_t to,
		   uint32_t node, uint32_t region, bool spin)
{
	for (uint64_t ms = from; ms < to; ms++)
		act_sample(a, t, ms * MS, node, region, spin);
}

static void run(struct act_state *a, struct act_thread *t, uint64_t from, uint64_t to,
		uint32_t node, bool spin)
{
	run_in(a, t, from, to, node, CCT_NO_FRAME, spin);
}

/* v in samples, PROF_ACT_UNIT rounded */
static uint64_t col(const struct act_state *a, uint32_t node, enum prof_act_col c)
{
	return node < a->cap ? (uint64_t)(a->node[(size_t)node * PROF_ACTS + c] + 0.5) : 0;
}

static void alone_then_together(void)
{
	struct act_state a;
	struct act_thread *t0, *t1;

	act_start(&a, W);
	t0 = act_thread_new(&a, 0, true);
	t1 = act_thread_new(&a, 0, true);
	run(&a, t0, 1, 1001, 1, false);	/* t0 alone for 1 s at node 1 ... */
	run(&a, t0, 1001, 2001, 2, false);	/* ... then both for 1 s at node 2 */
	run(&a, t1, 1001, 2001, 3, false);
	act_finish(&a, 2001 * MS);
	/* the first and last sample of a phase may count the other thread
	 * at their edge */
	ok(col(&a, 1, PROF_ACT_sequential) >= 998, "alone: sequential");
	ok(col(&a, 1, PROF_ACT_idle_blame) >= 998, "alone: the other's idleness blamed");
	ok(col(&a, 2, PROF_ACT_concurrent) >= 998, "together: concurrent");
	is_int(col(&a, 2, PROF_ACT_idle_blame), 0, "together: no blame");
	is_int(col(&a, 2, PROF_ACT_working), 2000, "together: two working at each sample");
	ok(t1->col[PROF_ACT_idle] > 998 && t1->col[PROF_ACT_idle] < 1001,
	   "the late thread's idle second, from its birth to its first sample");
	ok(t0->col[PROF_ACT_idle] < 1, "the first thread is never idle");
	act_release(&a);
}

static void spinning_and_blocked(void)
{
	struct act_state a;
	struct act_thread *t0, *t1, *svc;

	act_start(&a, W);
	t0 = act_thread_new(&a, 0, true);
	t1 = act_thread_new(&a, 0, true);
	svc = act_thread_new(&a, 0, false);
	run(&a, t0, 1, 1001, 1, false);
	run(&a, t1, 1, 501, 2, true);	/* spins half a second, */
	act_sample(&a, t1, 1000 * MS, 3, CCT_NO_FRAME, false);	/* then is blocked until 1 s */
	act_sample(&a, svc, 10 * MS, 4, CCT_NO_FRAME, false);	/* a service thread, blocked */
	act_finish(&a, 1001 * MS);
	is_int(col(&a, 2, PROF_ACT_spin), 500, "spin samples");
	ok(col(&a, 1, PROF_ACT_sequential) >= 998, "the other works alone meanwhile");
	ok(col(&a, 1, PROF_ACT_idle_blame) >= 998 && col(&a, 1, PROF_ACT_idle_blame) <= 1001,
	   "blamed for one thread, not the service thread");
	ok(col(&a, 2, PROF_ACT_idle) >= 497 && col(&a, 2, PROF_ACT_idle) <= 500,
	   "the gap is idle, on the path it left");
	act_release(&a);
}

static void spin_for_a_region(void)
{
	struct act_state a;
	struct act_thread *master, *worker;

	act_start(&a, W);
	master = act_thread_new(&a, 0, true);
	worker = act_thread_new(&a, 0, true);
	run(&a, master, 1, 301, 1, false);	/* serial code: the worker waits for work */
	run(&a, worker, 1, 301, 2, true);
	run_in(&a, master, 301, 501, 3, 5, false);	/* a region at node 5: it waits there */
	run(&a, worker, 301, 501, 2, true);
	act_finish(&a, 501 * MS);
	ok(col(&a, 2, PROF_ACT_spin) >= 299 && col(&a, 2, PROF_ACT_spin) <= 301,
	   "spin while the other works outside a region: the spinning thread's own");
	ok(col(&a, 5, PROF_ACT_spin) >= 199 && col(&a, 5, PROF_ACT_spin) <= 201,
	   "spin while the other works in a region: the region's");
	is_int((uint64_t)(worker->col[PROF_ACT_spin] + 0.5), 500, "the thread's spin is all of it");
	act_release(&a);

	/* the same waits blocked: a gap in serial code, a gap in a region */
	act_start(&a, W);
	master = act_thread_new(&a, 0, true);
	worker = act_thread_new(&a, 0, true);
	run(&a, master, 1, 301, 1, false);
	act_sample(&a, worker, 1 * MS, 2, CCT_NO_FRAME, false);
	act_sample(&a, worker, 300 * MS, 4, CCT_NO_FRAME, false);
	act_resolve(&a, 200 * MS);	/* the master's early samples are forgotten */
	run_in(&a, master, 301, 1001, 3, 5, false);
	act_sample(&a, worker, 1000 * MS, 6, CCT_NO_FRAME, false);
	act_finish(&a, 1001 * MS);
	ok(col(&a, 2, PROF_ACT_idle) >= 297 && col(&a, 2, PROF_ACT_idle) <= 299,
	   "blocked in serial code: idle on the path it left");
	ok(col(&a, 5, PROF_ACT_idle) >= 698 && col(&a, 5, PROF_ACT_idle) <= 700,
	   "blocked while the other works in a region: the region's, judged long after");
	act_release(&a);
}

static void judged_when_others_are_in(void)
{
	struct act_state a;
	struct act_thread *t0, *t1;

	act_start(&a, W);
	t0 = act_thread_new(&a, 0, true);
	t1 = act_thread_new(&a, 0, true);
	run(&a, t0, 1, 101, 1, false);
	run(&a, t1, 1, 51, 2, false);
	act_resolve(&a, 50 * MS);	/* t1's samples after 50 ms are not in yet */
	ok(t0->done < 50, "a sample within a window of the horizon waits");
	run(&a, t1, 51, 101, 2, false);
	act_resolve(&a, 100 * MS);
	is_int(col(&a, 1, PROF_ACT_concurrent), 98, "once in, judged concurrent up to a window "
	       "and a half before the horizon");
	ok(t0->n < 10, "judged samples are forgotten once no judgement needs them");
	act_thread_end(t1, 101 * MS);
	run(&a, t0, 101, 201, 1, false);
	act_resolve(&a, 400 * MS);
	is_int(col(&a, 1, PROF_ACT_sequential), 99, "after the other ended: sequential");
	is_int(col(&a, 1, PROF_ACT_concurrent), 101, "up to its end: concurrent");
	act_release(&a);
}

static void records(void)
{
	struct profile p, q, m;
	char *buf, err[256];
	size_t len;
	uint32_t nmap[3] = { 0, 1, 1 };

	make_rank_profile(&p, -1, 0);
	p.rank = -1;
	cct_child(&p.tree, CCT_ROOT, symtab_frame(&p.syms, SYMTAB_NO_MODULE, "f", "", 0));
	cct_child(&p.tree, 1, symtab_frame(&p.syms, SYMTAB_NO_MODULE, "g", "", 0));
	p.nthreads = 1;
	p.threads = xcalloc(1, sizeof(*p.threads));
	p.threads[0] = (struct prof_thread){ .tid = 7, .samples = xcalloc(1, 8),
					     .act = { 1, 2, 3, 4, 5, 6 } };
	p.act_on = 1;
	p.act_window_ns = W;
	p.nact_nodes = 2;
	p.act_nodes = xcalloc(2, sizeof(*p.act_nodes));
	p.act_nodes[0] = (struct prof_act_node){ 1, { 1000, 0, 0, 0, 0, 1000 } };
	p.act_nodes[1] = (struct prof_act_node){ 2, { 0, 2000, 0, 0, 500, 4000 } };
	ok(profile_write_mem(&p, &buf, &len, err, sizeof(err)) == 0, "written");
	ok(strstr(buf, "\nact 0 1000000\n") && strstr(buf, "\nact_thread 0 1 2 3 4 5 6\n") &&
	   strstr(buf, "\nact_node 2 0 2000 0 0 500 4000\n"), "its records");
	profile_init(&q);
	ok(profile_parse(&q, buf, len, err, sizeof(err)) == 0, "read back");
	is_int(q.nact_nodes, 2, "two nodes");
	is_int(q.act_nodes[1].v[PROF_ACT_idle_blame], 500, "a node's blame");
	is_int(q.threads[0].act[PROF_ACT_working], 6, "a thread's column");
	prof_act_map(&q, nmap);	/* a prune folds node 2 into 1 */
	is_int(q.nact_nodes, 1, "folded nodes are one");
	is_int(q.act_nodes[0].v[PROF_ACT_working], 5000, "and summed");
	profile_init(&m);
	ok(prof_act_merge(&m, &q, nmap) == 0 && prof_act_merge(&m, &q, nmap) == 0 &&
	   m.act_on && m.nact_nodes == 1 && m.act_nodes[0].v[PROF_ACT_sequential] == 2000,
	   "merged twice: summed");
	free(buf);
	profile_release(&m);
	profile_release(&q);
	/* a node out of order is refused */
	p.act_nodes[0].node = 2;
	ok(profile_write_mem(&p, &buf, &len, err, sizeof(err)) != 0 && strstr(err, "act_node"),
	   "act_node out of order: refused by the writer");
	profile_release(&p);
}

int main(void)
{
	alone_then_together();
	spinning_and_blocked();
	spin_for_a_region();
	judged_when_others_are_in();
	records();
	return tap_done();
}
