/*
 * test-merge.c - merged profiles (common/profile-merge.c): two ranks'
 * profiles made into merged ones and folded, the sums and spreads that
 * come out, their trip through the file format, and what the merge and
 * the reader refuse.
 */
#include "tap.h"
#include "../../common/profile.h"

/* Rank r of a job of 3: main -> work (self 10 + r) on every rank, and
 * main -> only_r (self 5) on rank r alone; one MPI_Send site taking
 * 100 * (r + 1) ns; messages to rank 2; one thread.  In cpperf's runtime,
 * main -> MPI_Send (self 1) and main -> MPI_Send.quick (self r), a copy of
 * the same wrapper. */
static void make_rank(struct profile *p, int64_t r)
{
	uint32_t m, rt, fmain, fwork, fonly, fsend, fquick, nmain, nwork, nonly;
	char name[32];

	profile_init(p);
	p->rank = r;
	p->size = 3;
	p->pid = 100 + r;
	p->host = strdup("node");
	p->run = strdup("run1");
	p->start_ns = 1000 + (uint64_t)r;
	p->end_ns = 5000 - (uint64_t)r;
	p->samples = 20 + (uint64_t)r;
	p->mpi_wall_ns = 3000;
	p->nevents = 1;
	p->events = calloc(1, sizeof(*p->events));
	p->events[0].name = strdup("task-clock");
	cct_init(&p->tree, 1);
	m = symtab_module(&p->syms, "/bin/app", "");
	snprintf(name, sizeof(name), "only_%lld", (long long)r);
	/* interned in a rank-dependent order, so the frame ids differ */
	fonly = symtab_frame(&p->syms, m, name, "app.c", 30);
	fwork = symtab_frame(&p->syms, m, "work", "app.c", 20);
	fmain = symtab_frame(&p->syms, m, "main", "app.c", 10);
	nmain = cct_child(&p->tree, CCT_ROOT, fmain);
	nonly = cct_child(&p->tree, nmain, fonly);
	nwork = cct_child(&p->tree, nmain, fwork);
	cct_self(&p->tree, nwork)[0] = 10 + (uint64_t)r;
	cct_self(&p->tree, nonly)[0] = 5;
	rt = symtab_module(&p->syms, "/lib/libcpperf-mpi.so", "");
	fsend = symtab_frame(&p->syms, rt, "MPI_Send", "", 0);
	fquick = symtab_frame(&p->syms, rt, "MPI_Send.quick", "", 0);
	cct_self(&p->tree, cct_child(&p->tree, nmain, fsend))[0] = 1;
	cct_self(&p->tree, cct_child(&p->tree, nmain, fquick))[0] = (uint64_t)r;
	p->mpi_sites = calloc(1, sizeof(*p->mpi_sites));
	p->nmpi_sites = 1;
	p->mpi_sites[0].function = strdup("MPI_Send");
	p->mpi_sites[0].frames = malloc(sizeof(uint32_t));
	p->mpi_sites[0].frames[0] = fmain;
	p->mpi_sites[0].nframes = 1;
	p->mpi_sites[0].calls = 1;
	p->mpi_sites[0].time_ns = 100 * (uint64_t)(r + 1);
	p->mpi_peers = calloc(1, sizeof(*p->mpi_peers));
	p->nmpi_peers = 1;
	p->mpi_peers[0] = (struct prof_mpi_peer){ 2, 1, 8 * (uint64_t)(r + 1), 0 };
	p->threads = calloc(1, sizeof(*p->threads));
	p->nthreads = 1;
	p->threads[0].tid = 200 + (uint64_t)r;
	p->threads[0].samples = calloc(1, sizeof(uint64_t));
	p->threads[0].samples[0] = 15 + (uint64_t)r;
}

/* The node main -> fn of p, or CCT_NO_FRAME. */
static uint32_t node_of(const struct profile *p, const char *fn)
{
	for (uint32_t id = 2; id < p->tree.nnodes; id++)
		if (!strcmp(p->syms.frames[p->tree.frame[id]].function, fn))
			return id;
	return CCT_NO_FRAME;
}

static const struct prof_fn_spread *fn_of(const struct profile *p, const char *fn)
{
	for (uint32_t i = 0; i < p->nfn_spread; i++)
		if (!strcmp(p->syms.frames[p->fn_spread[i].frame].function, fn))
			return &p->fn_spread[i];
	return NULL;
}

/* What every check below reads of a merge of ranks 1 and 2 into 0. */
static void check_merged(const struct profile *p, const char *how)
{
	char name[128];
	uint32_t work = node_of(p, "work"), only = node_of(p, "only_1");
	const struct prof_spread *sw = &p->node_spread[work], *so = &p->node_spread[only];
	const struct prof_fn_spread *fw = fn_of(p, "work"), *fs = fn_of(p, "MPI_Send");

#define NAME(s) (snprintf(name, sizeof(name), "%s: %s", how, s), name)
	is_int(p->merged, 3, NAME("three ranks merged"));
	is_int(p->rank, -1, NAME("a merged profile has no rank of its own"));
	ok(p->mranks[0].rank == 0 && p->mranks[1].rank == 1 && p->mranks[2].rank == 2,
	   NAME("rows by rank"));
	is_int(p->mranks[2].pid, 102, NAME("a row keeps its pid"));
	is_int(p->mranks[1].mpi_ns, 200, NAME("a row's MPI time is its sites'"));
	ok(work != CCT_NO_FRAME && only != CCT_NO_FRAME, NAME("nodes of every rank"));
	is_int(p->tree.nnodes, 8, NAME("root, main, work, three only_ and two MPI_Send nodes"));
	is_int(cct_self(&p->tree, work)[0], 33, NAME("work's counts summed"));
	ok(sw->ranks == 3 && sw->min == 10 && sw->max == 12 && sw->max_rank == 2,
	   NAME("work's spread: min 10, max 12 on rank 2"));
	ok(so->ranks == 1 && prof_spread_min(so, p->merged) == 0 && so->max == 5 &&
	   so->max_rank == 1, NAME("only_1's spread: ranks without it count 0"));
	is_int(p->nmpi_sites, 1, NAME("one call site"));
	is_int(p->mpi_sites[0].time_ns, 600, NAME("its time summed"));
	ok(p->site_spread[0].min == 100 && p->site_spread[0].max == 300 &&
	   p->site_spread[0].max_rank == 2, NAME("its time's spread"));
	ok(fw && fw->sum == 33 && fw->s.ranks == 3 && fw->s.max_rank == 2,
	   NAME("work's function spread"));
	ok(fs && fs->sum == 6 && fs->s.ranks == 3 && fs->s.max == 3 && fs->s.max_rank == 2,
	   NAME("a wrapper's copies are one function: its spread, max 3 on rank 2"));
	is_int(p->nmpi_peers, 3, NAME("a pair per sender"));
	ok(p->mpi_peers[0].peer == 2 && p->mpi_peers[2].src == 2 && p->mpi_peers[2].bytes == 24,
	   NAME("pairs keep their sender"));
	ok(p->nthreads == 3 && p->threads[1].rank == 1 && p->threads[1].tid == 201,
	   NAME("threads keep their rank"));
	is_int(p->samples, 63, NAME("counters summed"));
	ok(p->start_ns == 1000 && p->end_ns == 5000, NAME("earliest start, latest end"));
	ok(p->nkept == 3 && p->kept[0].rank == 0 && p->kept[1].rank == 1 && p->kept[2].rank == 2,
	   NAME("a job of 3 ranks keeps every rank's own tree"));
	ok(p->nkept == 3 && p->kept[1].self[work] == 11 && p->kept[1].self[only] == 5 &&
	   p->kept[2].self[only] == 0 && p->kept[2].self[work] == 12,
	   NAME("each with its own counts at the merged nodes"));
#undef NAME
}

static void test_merge(void)
{
	struct profile p[3], back;
	char err[256], *buf = NULL;
	size_t len = 0;
	int rc = 0;

	for (int r = 0; r < 3; r++) {
		make_rank(&p[r], r);
		rc |= profile_to_merged(&p[r], err, sizeof(err));
	}
	ok(rc == 0, "ranks' profiles made merged ones");
	/* the binomial tree's order: 1 into 0, then 2 into 0 */
	ok(profile_merge(&p[0], &p[1], err, sizeof(err)) == 0 &&
	   profile_merge(&p[0], &p[2], err, sizeof(err)) == 0, "ranks 1 and 2 folded into 0");
	check_merged(&p[0], "merged");
	ok(profile_merge(&p[0], &p[2], err, sizeof(err)) < 0 && strstr(err, "rank 2 twice"),
	   "a rank merged twice is refused");
	is_int(p[0].merged, 3, "and the refused merge changed nothing");
	ok(profile_write_mem(&p[0], &buf, &len, err, sizeof(err)) == 0, "merged profile serialised");
	profile_init(&back);
	if (!ok(profile_parse(&back, buf, len, err, sizeof(err)) == 0, "and read back"))
		printf("#   %s\n", err);
	else
		check_merged(&back, "read back");
	profile_release(&back);
	free(buf);
	for (int r = 0; r < 3; r++)
		profile_release(&p[r]);
}

/* Rank r of a job of 40 computing wall - mpi: 2900, 3000, 3000, 1600, 1600. */
static void make_big_rank(struct profile *p, int64_t r)
{
	static const uint64_t wall[] = { 3000, 3200, 3300, 2000, 2100 };
	char err[256];

	make_rank(p, r);
	p->size = 40;
	p->mpi_wall_ns = wall[r];
	profile_to_merged(p, err, sizeof(err));
}

/* Above PROF_KEEP_ALL ranks: rank 0 and those that compute most and least
 * (the lower rank on a tie), whatever the order of the folds. */
static void test_kept_rule(void)
{
	static const int orders[][5] = { { 0, 1, 2, 3, 4 }, { 4, 3, 2, 1, 0 }, { 2, 4, 0, 3, 1 } };
	char err[256], name[96];

	for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
		struct profile acc, q;
		int rc = 0;

		make_big_rank(&acc, orders[o][0]);
		for (int i = 1; i < 5; i++) {
			make_big_rank(&q, orders[o][i]);
			rc |= profile_merge(&acc, &q, err, sizeof(err));
			profile_release(&q);
		}
		snprintf(name, sizeof(name), "fold order %d%d%d%d%d: kept ranks 0, 1 (most), 3 (least)",
			 orders[o][0], orders[o][1], orders[o][2], orders[o][3], orders[o][4]);
		ok(rc == 0 && acc.nkept == 3 && acc.kept[0].rank == 0 && acc.kept[1].rank == 1 &&
		   acc.kept[2].rank == 3, name);
		profile_release(&acc);
	}
}

/* A kept tree as its rank's own profile. */
static void test_kept_rank(void)
{
	struct profile p, q, one;
	char err[256];

	make_rank(&p, 0);
	profile_to_merged(&p, err, sizeof(err));
	for (int r = 1; r < 3; r++) {
		make_rank(&q, r);
		profile_to_merged(&q, err, sizeof(err));
		profile_merge(&p, &q, err, sizeof(err));
		profile_release(&q);
	}
	ok(profile_kept_rank(&p, 3, &one) < 0, "no kept tree 3 of 3");
	if (!ok(profile_kept_rank(&p, 1, &one) == 0, "kept tree 1 as a profile")) {
		profile_release(&p);
		return;
	}
	ok(one.rank == 1 && one.size == 3 && one.pid == 101 && one.merged == 0 &&
	   one.mpi_wall_ns == 3000 && !strcmp(one.host, "node"), "rank 1's identity and times");
	ok(one.tree.nnodes == 6 && node_of(&one, "only_1") != CCT_NO_FRAME &&
	   node_of(&one, "only_0") == CCT_NO_FRAME, "its tree: root, main, work, only_1, MPI_Send's two");
	ok(cct_self(&one.tree, node_of(&one, "work"))[0] == 11 &&
	   cct_self(&one.tree, node_of(&one, "only_1"))[0] == 5, "with its own counts");
	ok(one.nevents == 1 && !strcmp(one.events[0].name, "task-clock"), "and the events");
	profile_release(&one);
	profile_release(&p);
}

static void test_refused(void)
{
	struct profile a, b;
	char err[256];

	make_rank(&a, 0);
	make_rank(&b, 1);
	ok(profile_merge(&a, &b, err, sizeof(err)) < 0 && strstr(err, "not merged"),
	   "ranks' profiles are not folded as they are");
	free(b.events[0].name);
	b.events[0].name = strdup("cpu-clock");
	profile_to_merged(&a, err, sizeof(err));
	profile_to_merged(&b, err, sizeof(err));
	ok(profile_merge(&a, &b, err, sizeof(err)) < 0 && strstr(err, "cpu-clock"),
	   "ranks that sampled other events are refused, named");
	ok(profile_to_merged(&a, err, sizeof(err)) < 0, "a merged profile is not made merged again");
	profile_release(&a);
	profile_release(&b);

	/* a rank that sent no message, and had no thread, folds in */
	make_rank(&a, 0);
	make_rank(&b, 1);
	free(b.mpi_peers);
	b.mpi_peers = NULL;
	b.nmpi_peers = 0;
	free(b.threads[0].samples);
	free(b.threads);
	b.threads = NULL;
	b.nthreads = 0;
	profile_to_merged(&a, err, sizeof(err));
	profile_to_merged(&b, err, sizeof(err));
	ok(profile_merge(&a, &b, err, sizeof(err)) == 0 && a.nmpi_peers == 1 && a.nthreads == 1 &&
	   a.merged == 2, "a rank without messages or threads folds in");
	profile_release(&a);
	profile_release(&b);
}

/* The reader's rules: each record kind belongs to one sort of profile. */
static void test_reader(void)
{
	static const struct {
		const char *from, *to, *why, *name;
	} cases[] = {
		{ "m_thread 0 200", "thread 200", "'thread' record in a merged profile",
		  "a rank's thread record in a merged profile" },
		{ "merged 3\n", "", "'m_thread' record in a rank's profile",
		  "merged records in a rank's profile" },
		{ "m_rank 2 102", "m_rank 0 102", "ranks ascend", "rows out of order" },
		{ "merged 3\n", "merged 4\n", "3 m_rank records for 4 ranks merged",
		  "fewer rows than ranks merged" },
		{ "merged 3\n", "merged 2000000000\n", "room for at most",
		  "more ranks merged than the file has room for (no rows made)" },
		{ "m_kept 1 ", "m_kept 7 ", "rank 7", "a kept tree of a rank not merged" },
		{ "m_kept 2 ", "m_kept 0 ", "by rank, then node", "kept trees out of order" },
	};
	struct profile p;
	char err[256], *buf, *bad;
	size_t len;

	for (int r = 0; r < 3; r++) {
		struct profile q;

		make_rank(r ? &q : &p, r);
		profile_to_merged(r ? &q : &p, err, sizeof(err));
		if (r) {
			profile_merge(&p, &q, err, sizeof(err));
			profile_release(&q);
		}
	}
	profile_write_mem(&p, &buf, &len, err, sizeof(err));
	profile_release(&p);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *at = strstr(buf, cases[i].from);
		size_t nf = strlen(cases[i].from), nt = strlen(cases[i].to);

		bad = malloc(len + nt + 1);
		memcpy(bad, buf, (size_t)(at - buf));
		memcpy(bad + (at - buf), cases[i].to, nt);
		memcpy(bad + (at - buf) + nt, at + nf, len - (size_t)(at - buf) - nf);
		profile_init(&p);
		if (!ok(profile_parse_flags(&p, bad, len - nf + nt, PROFILE_PARSE_NO_CHECKSUM, err,
					    sizeof(err)) < 0 && strstr(err, cases[i].why), cases[i].name))
			printf("#   got '%s'\n", err);
		profile_release(&p);
		free(bad);
	}
	free(buf);
}

int main(void)
{
	test_merge();
	test_kept_rule();
	test_kept_rank();
	test_refused();
	test_reader();
	return tap_done();
}
