/*
 * test-prune.c - unit tests for common/profile-prune.c: rare call paths
 * written as one "[rare paths]" node under their closest caller that is
 * not rare, with the functions that had samples of their own below it;
 * the frames and modules only they named dropped, call sites and the
 * critical path's samples re-keyed, and the result a profile the reader
 * accepts.
 *
 * The tree (self samples):  main 0
 *                           +- hot 9000
 *                           +- cold 1
 *                           |  +- cold 1        (recursion)
 *                           +- helper 1000
 *                              +- in_lib 0      (the only frame of libx)
 *                                 +- hot 2
 * 10004 samples: at a share of 0.1 % (10) both colds, in_lib and the
 * second hot are rare; main keeps hot, helper and a [rare paths] with the
 * colds' 2 samples as its own (cold has under 0.1 % in all), helper a
 * [rare paths] with below it hot's 2 (hot has more).
 */
#include "tap.h"
#include "make-profile.h"
#include "../../common/profile.h"

enum { MAIN = 1, HOT, COLD, COLD_REC, HELPER, IN_LIB, BACK, NODES };

static void make(struct profile *p)
{
	static const uint32_t parent[NODES] = { 0, 0, MAIN, MAIN, COLD, MAIN, HELPER, IN_LIB };
	static const uint64_t self[NODES] = { 0, 0, 9000, 1, 1, 1000, 0, 2 };
	static const char *const names[NODES] = { "", "main", "hot", "cold", "cold", "helper",
						  "in_lib", "hot" };
	uint32_t app, lib;

	profile_init(p);
	p->nevents = 1;
	p->events = calloc(1, sizeof(*p->events));
	p->events[0].name = xstrdup("task-clock");
	p->events[0].freq = 1000;
	p->backend = xstrdup("perf");
	p->call_graph = xstrdup("dwarf");
	p->host = xstrdup("h");
	p->rank = 0;
	p->size = 2;
	p->mpi_library = xstrdup("MPI");
	app = symtab_module(&p->syms, "/app", "");
	lib = symtab_module(&p->syms, "/libx.so", "ab");
	if (cct_init(&p->tree, 1) < 0)
		abort();
	for (uint32_t id = 1; id < NODES; id++) {
		uint32_t f = symtab_frame(&p->syms, id == IN_LIB ? lib : app, names[id], "", 0);

		if (cct_child(&p->tree, parent[id], f) != id)
			abort();
		cct_self(&p->tree, id)[0] = self[id];
	}
	/* a call site on cold's path: its frames stay though the node goes */
	p->nmpi_sites = 1;
	p->mpi_sites = calloc(1, sizeof(*p->mpi_sites));
	p->mpi_sites[0].function = xstrdup("MPI_Send");
	p->mpi_sites[0].nframes = 2;
	p->mpi_sites[0].frames = calloc(2, sizeof(uint32_t));
	p->mpi_sites[0].frames[0] = p->tree.frame[MAIN];
	p->mpi_sites[0].frames[1] = p->tree.frame[COLD];
	p->mpi_sites[0].calls = 1;
	/* segment 2 fell under both colds and hot; the prefix likewise under
	 * both colds and helper */
	static const uint32_t seg_nodes[] = { COLD_REC, COLD, HOT };
	static const uint32_t pre_nodes[] = { COLD, COLD_REC, HELPER };
	p->cp_events = 3;
	p->cp_length_ns = p->cp_wall_ns = 1000;
	p->cp_folds = 1;
	p->cp_fold_event = 1;
	p->cp_fold_ns = 500;
	p->ncp_segs = p->ncp_prefix = 3;
	p->cp_segs = calloc(3, sizeof(*p->cp_segs));
	p->cp_prefix = calloc(3, sizeof(*p->cp_prefix));
	for (int i = 0; i < 3; i++) {
		p->cp_segs[i] = (struct prof_cp_seg){ 2, seg_nodes[i], calloc(1, sizeof(uint64_t)) };
		p->cp_segs[i].counts[0] = 1 + (uint64_t)i;
		p->cp_prefix[i] = (struct prof_cp_prefix){ pre_nodes[i], calloc(1, sizeof(uint64_t)) };
		p->cp_prefix[i].counts[0] = 10 * (1 + (uint64_t)i);
	}
}

/* The child of parent named name, or CCT_NO_FRAME. */
static uint32_t child(const struct profile *p, uint32_t parent, const char *name)
{
	for (uint32_t id = 1; id < p->tree.nnodes; id++)
		if (p->tree.parent[id] == parent &&
		    !strcmp(p->syms.frames[p->tree.frame[id]].function, name))
			return id;
	return CCT_NO_FRAME;
}

static uint64_t self_of(const struct profile *p, uint32_t node)
{
	return node == CCT_NO_FRAME ? UINT64_MAX : cct_self(&p->tree, node)[0];
}

static void test_prune(void)
{
	struct profile p, back;
	char err[256] = "", *buf = NULL;
	size_t len = 0;
	uint32_t main_, rare_main, helper, rare_helper;

	make(&p);
	is_int(profile_prune(&p, 0), 0, "share 0: nothing is rare");
	is_int(p.tree.nnodes, NODES, "and the tree is whole");
	is_int(profile_prune(&p, 1e-3), 4, "both colds, in_lib and the second hot are rare at 0.1 %");
	main_ = child(&p, CCT_ROOT, "main");
	helper = child(&p, main_, "helper");
	rare_main = child(&p, main_, "[rare paths]");
	rare_helper = child(&p, helper, "[rare paths]");
	is_int(p.tree.nnodes, 7, "root, main, hot, helper, two [rare paths] and a hot below one");
	is_int(self_of(&p, child(&p, main_, "hot")), 9000, "hot keeps its samples");
	is_int(self_of(&p, helper), 1000, "helper its own");
	is_int(self_of(&p, rare_main), 2, "main's [rare paths] has the colds' as its own");
	is_int(self_of(&p, rare_helper), 0, "helper's has none of its own");
	is_int(self_of(&p, child(&p, rare_helper, "hot")), 2, "but the hot below it has 2");
	is_int(p.syms.nmodules, 1, "libx, named by a rare node without samples of its own, is gone");
	ok(child(&p, main_, "cold") == CCT_NO_FRAME && child(&p, rare_main, "cold") == CCT_NO_FRAME,
	   "cold is no node");
	ok(p.mpi_sites[0].nframes == 2 &&
	   !strcmp(p.syms.frames[p.mpi_sites[0].frames[0]].function, "main") &&
	   !strcmp(p.syms.frames[p.mpi_sites[0].frames[1]].function, "cold"),
	   "the call site's path still names main and cold");
	ok(p.ncp_segs == 2 && p.cp_segs[0].node < p.cp_segs[1].node &&
	   p.cp_segs[p.cp_segs[0].node == rare_main ? 0 : 1].counts[0] == 3,
	   "segment samples under both colds summed under main's [rare paths]");
	ok(p.ncp_prefix == 2 && p.cp_prefix[0].node < p.cp_prefix[1].node &&
	   p.cp_prefix[p.cp_prefix[0].node == rare_main ? 0 : 1].counts[0] == 30,
	   "the prefix likewise, by increasing node");
	is_int(profile_prune(&p, 1e-3), 0, "pruned again at the same share: nothing is rare");

	profile_init(&back);
	ok(profile_write_mem(&p, &buf, &len, err, sizeof(err)) == 0 &&
	   profile_parse(&back, buf, len, err, sizeof(err)) == 0, "the pruned profile reads back");
	if (err[0])
		printf("#   %s\n", err);
	is_int(back.tree.nnodes, 7, "with its seven nodes");
	free(buf);
	profile_release(&back);
	profile_release(&p);
}

int main(void)
{
	test_prune();
	return tap_done();
}
