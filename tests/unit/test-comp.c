/*
 * test-comp.c - unit tests of overhead compensation in the report
 * (--compensate, --view=compensation; report/compensation.c).
 *
 * A job of three ranks is built in memory: ranks 0 and 1 carry compensation
 * data (overhead by source, final delay, waits) with values chosen so every
 * compensated number is exact, rank 2 has none.  Each rank's tree holds
 * samples whose leaf is in the application, in cpperf's runtime
 * (libcpperf-openmpi.so: a wrapper and injected busy time) and in the MPI
 * library below the wrapper.  The profiles are merged in memory
 * (merge_add), so these tests do not depend on the profile format; one
 * test also writes them with profile_write and runs the whole command
 * (cmd_report) on the directory, for the exit statuses and messages.
 *
 * Hand-worked numbers (seconds):
 *   rank 0: measured wall (the MPI region) 2.5, comp_wall 2, delay 0.3,
 *           overhead 0.02 + 0.05 + 0.006 + 0.005 + 0.01 + 0.005 + 0.004
 *           = 0.1 (sample, wrapper, piggyback, drain, inject, switch,
 *           contention),
 *           blocked (sites) 0.5, W 0.4, W' 0.25
 *           -> parallel wall 1.7, local 1.9, blocked parallel 0.25
 *   rank 1: wall 2.5, comp_wall 2, delay 0.05, overhead 0.01 + 0.02 +
 *           0.003 + 0.001 + 0.003 + 0.002 + 0.001 = 0.04, blocked 0.35, W 0.3,
 *           W' 0.2
 *           -> parallel 1.95, local 1.96
 *   rank 2: wall 2.5, blocked 0.6, no compensation data
 * Samples per rank (cycles): main>work 10, main>MPI_Send[libcpperf] 3,
 * main>MPI_Send>PMPI_Send[libmpi] 2, main>rt_inject[libcpperf] 5: 20 per
 * rank; local/parallel remove the 8 of ranks 0 and 1 whose leaf is in
 * libcpperf, leaving 44 of 60.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "files.h"
#include "tap.h"
#include "make-profile.h"
#include "../../report/compensation.h"
#include "../../report/cpath.h"
#include "../../report/data.h"
#include "../../report/flat.h"
#include "../../report/merge.h"
#include "../../report/render.h"
#include "../../report/tree.h"
#include "../../cli/commands.h"

#define ERRLEN 1024
#define MS 1000000ull		/* ns in a millisecond */

static char tmpdir[256];

static void add_path(struct profile *p, const uint32_t *frames, size_t n,
		     uint64_t cycles, uint64_t instr)
{
	uint64_t *self = cct_self(&p->tree, cct_path(&p->tree, frames, n));

	self[0] += cycles;
	self[1] += instr;
	p->samples += cycles + instr;
}

static void add_site(struct profile *p, const char *fn, const uint32_t *path,
		     uint32_t n, uint64_t time_ns, uint64_t blocked_ns)
{
	struct prof_mpi_site *m;

	p->mpi_sites = realloc(p->mpi_sites, (p->nmpi_sites + 1) * sizeof(*m));
	m = &p->mpi_sites[p->nmpi_sites++];
	memset(m, 0, sizeof(*m));
	m->function = xstrdup(fn);
	m->frames = calloc(n, sizeof(uint32_t));
	memcpy(m->frames, path, n * sizeof(uint32_t));
	m->nframes = n;
	m->calls = 1;
	m->time_ns = time_ns;
	m->blocked_ns = blocked_ns;
}

/* Rank r of a job of size 3 (host "n<r>", 2.5 s profiled); frames are
 * interned in a rank-dependent order so merging must map them. */
static void make_rank(struct profile *p, int64_t r)
{
	char host[8];

	profile_init(p);
	p->argc = 1;
	p->argv = calloc(1, sizeof(*p->argv));
	p->argv[0] = xstrdup("./solver");
	snprintf(host, sizeof(host), "n%lld", (long long)r);
	p->host = xstrdup(host);
	p->pid = 500 + r;
	p->rank = r;
	p->size = 3;
	p->backend = xstrdup("perf");
	p->call_graph = xstrdup("dwarf");
	p->start_ns = 1000000000000000000ull;
	p->end_ns = p->start_ns + 2500 * MS;
	p->cpu_ns = 1500 * MS;
	p->mpi_wall_ns = 2500 * MS;
	p->mpi_cpu_ns = 1500 * MS;
	p->nevents = 2;
	p->events = calloc(2, sizeof(*p->events));
	p->events[0] = (struct prof_event){ xstrdup("cycles"), 1000, 0, 0 };
	p->events[1] = (struct prof_event){ xstrdup("instructions"), 1000, 0, 1 };
	p->nthreads = 1;
	p->threads = calloc(1, sizeof(*p->threads));
	p->threads[0].tid = 500 + (uint64_t)r;
	p->threads[0].samples = calloc(2, sizeof(uint64_t));
	p->threads[0].samples[0] = 20;
	p->threads[0].samples[1] = 13;
	if (cct_init(&p->tree, 2) < 0)
		abort();

	uint32_t rt = symtab_module(&p->syms, "/opt/cpperf/lib/libcpperf-openmpi.so", "");
	uint32_t app = symtab_module(&p->syms, "/opt/app/solver", "");
	uint32_t mpi = symtab_module(&p->syms, "/usr/lib/libmpi.so.40", "");
	uint32_t main_ = 0, work = 0, send = 0, psend = 0, inj = 0;

	for (int i = 0; i < 5; i++) {
		switch (r == 1 ? 4 - i : i) {
		case 0: main_ = symtab_frame(&p->syms, app, "main", "solver.c", 5); break;
		case 1: work = symtab_frame(&p->syms, app, "work", "solver.c", 20); break;
		case 2: send = symtab_frame(&p->syms, rt, "MPI_Send", "", 0); break;
		case 3: psend = symtab_frame(&p->syms, mpi, "PMPI_Send", "", 0); break;
		case 4: inj = symtab_frame(&p->syms, rt, "rt_inject", "", 0); break;
		}
	}
	add_path(p, (uint32_t[]){ main_, work }, 2, 10, 10);
	add_path(p, (uint32_t[]){ main_, send }, 2, 3, 1);
	add_path(p, (uint32_t[]){ main_, send, psend }, 3, 2, 2);
	add_path(p, (uint32_t[]){ main_, inj }, 2, 5, 0);
	add_site(p, "MPI_Send", (uint32_t[]){ main_ }, 1, 600 * MS,
		 r == 0 ? 500 * MS : r == 1 ? 350 * MS : 600 * MS);
}

/* Compensation data of ranks 0 and 1 (see the top of the file). */
static void set_comp(struct profile *p, int64_t r)
{
	struct prof_overhead *o = &p->ovh;

	p->comp_on = 1;
	p->comp_wall_ns = 2000 * MS;
	o->sample_cost_ns = 20000;
	o->call_cost_ns = 100000;
	o->switch_cost_ns = 5000;
	if (r == 0) {
		o->samples = 1000, o->calls = 500, o->switches = 1000;
		o->piggyback_ns = 6 * MS, o->drain_ns = 5 * MS, o->inject_ns = 10 * MS;
		o->contention_ns = 4 * MS;
		p->comp_delay_ns = 300 * MS;
		p->comp_wait_ns = 400 * MS, p->comp_wait_comp_ns = 250 * MS;
		p->comp_sample_probes = 12, p->comp_sample_probes_busy = 2;
		p->comp_sample_cost_lo_ns = 18000, p->comp_sample_cost_hi_ns = 23000;
	} else {
		o->samples = 500, o->calls = 200, o->switches = 400;
		o->piggyback_ns = 3 * MS, o->drain_ns = 1 * MS, o->inject_ns = 3 * MS;
		o->contention_ns = 1 * MS;
		p->comp_delay_ns = 50 * MS;
		p->comp_wait_ns = 300 * MS, p->comp_wait_comp_ns = 200 * MS;
		p->comp_sample_probes = 3, p->comp_sample_probes_busy = 1;	/* too few */
	}
	o->sample_ns = o->samples * o->sample_cost_ns;
	o->wrapper_ns = o->calls * o->call_cost_ns;
	o->switch_ns = o->switches * o->switch_cost_ns;
}

static void make_job(struct profile p[3], bool comp)
{
	for (int64_t r = 0; r < 3; r++) {
		make_rank(&p[r], r);
		if (comp && r < 2)
			set_comp(&p[r], r);
	}
}

/* Merge the job in memory into d.  Returns 0 or -1. */
static int load_job(struct rep_data *d, bool comp)
{
	struct profile p[3];

	make_job(p, comp);
	return merge_profiles(d, p, 3, "exp-comp");
}

/* Render d into a string (caller frees); *rc gets rep_render's status and
 * err its message. */
static char *render(const struct rep_data *d, struct rep_opts o, enum rep_comp m, int *rc,
		    char *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	err[0] = '\0';
	*rc = rep_render_comp(d, &o, m, REP_CLUSTER_TOL, f, err, ERRLEN);
	fclose(f);
	return buf;
}

/* JSON of d under mode m, saved to tmpdir/name; returns its path (static). */
static const char *json_of(const struct rep_data *d, enum rep_comp m, const char *name)
{
	static char path[512];
	char err[ERRLEN];
	int rc;
	char *out = render(d, (struct rep_opts){ .format = REP_JSON, .view = REP_FLAT, .min_pct = -1 }, m, &rc, err);

	if (rc)
		printf("# rep_render: %s\n", err);
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	save(path, out);
	free(out);
	return path;
}

static const struct flat_fn *find_fn(const struct flat *f, const char *name)
{
	for (uint32_t i = 0; i < f->nfns; i++)
		if (!strcmp(f->fns[i].name, name))
			return &f->fns[i];
	return NULL;
}

/* ---- tests ---- */

static void test_numbers(const struct rep_data *d)
{
	const struct rep_rank *r = d->mpi.ranks;

	is_int(d->mpi.nranks, 3, "three ranks merged");
	ok(comp_present(d), "compensation data present");
	ok(r[0].comp_on && r[1].comp_on && !r[2].comp_on, "comp_on per rank");
	is_int(comp_overhead_ns(&r[0].ovh), 100 * MS, "rank 0: overhead o = sum of sources");
	is_int(comp_wall_parallel_ns(&r[0]), 1700 * MS, "rank 0: parallel wall = W_m - x");
	is_int(comp_wall_local_ns(&r[0]), 1900 * MS, "rank 0: local wall = W_m - o");
	is_int(comp_rank_wall_ns(&r[0], REP_COMP_NONE), 2500 * MS, "rank 0: none = measured wall");
	is_int(comp_rank_blocked_ns(&r[0], REP_COMP_PARALLEL), 250 * MS, "rank 0: parallel blocked = W'");
	is_int(comp_rank_blocked_ns(&r[0], REP_COMP_LOCAL), 500 * MS, "rank 0: local blocked unchanged");
	is_int(comp_rank_wall_ns(&r[2], REP_COMP_PARALLEL), 2500 * MS,
	       "rank 2 (no data): parallel keeps the measured wall");
	is_int(comp_rank_blocked_ns(&r[2], REP_COMP_PARALLEL), 600 * MS,
	       "rank 2 (no data): parallel keeps the measured blocked time");
	is_int(d->tool.n, 4, "tool samples kept: two libcpperf leaves x two ranks with data");

	struct rep_rank big = r[0];

	big.comp_delay_ns = 3000 * MS;
	big.ovh.inject_ns = 5000 * MS;
	is_int(comp_wall_parallel_ns(&big), 0, "a delay above the wall gives 0, not a wrap");
	is_int(comp_wall_local_ns(&big), 0, "an overhead above the wall gives 0, not a wrap");
}

/* The critical path's length in compensated time: less the end rank's
 * final delay (parallel) or overhead (local). */
static void test_cp_length(const struct rep_data *d)
{
	struct cpath_result r = { .end_rank = 0, .length_ns = 1800 * MS };
	uint64_t ns = 0;

	ok(comp_cp_length_ns(d, &r, REP_COMP_PARALLEL, &ns) && ns == 1500 * MS,
	   "cp length, parallel: L - x of the end rank (1.8 - 0.3 s)");
	ok(comp_cp_length_ns(d, &r, REP_COMP_LOCAL, &ns) && ns == 1700 * MS,
	   "cp length, local: L - o of the end rank (1.8 - 0.1 s)");
	ok(!comp_cp_length_ns(d, &r, REP_COMP_NONE, &ns), "cp length, none: not compensated");
	r.end_rank = 2;
	ok(!comp_cp_length_ns(d, &r, REP_COMP_PARALLEL, &ns), "cp length: end rank without data");
	r.end_rank = 7;
	ok(!comp_cp_length_ns(d, &r, REP_COMP_PARALLEL, &ns), "cp length: end rank unknown");
	r.end_rank = 0;
	r.length_ns = 100 * MS;
	ok(comp_cp_length_ns(d, &r, REP_COMP_PARALLEL, &ns) && ns == 0,
	   "cp length: a delay above the length gives 0, not a wrap");
	ok(!comp_cp_length_ns(d, NULL, REP_COMP_PARALLEL, &ns), "no path: not compensated");
}

static void test_json(const struct rep_data *d)
{
	const char *p = json_of(d, REP_COMP_PARALLEL, "par.json");

	is_str(jq(p, "keys | join(\",\")"), "callpath,compensation,cpperf_version,critical_path,"
	       "experiment,flat,mpi,ranks,ranks_summary,threads", "top-level keys include compensation");
	is_str(jq(p, ".compensation | del(.method) | tojson"), "{\"mode\":\"parallel\",\"available\":true}",
	       "compensation: mode parallel (the default), data available");
	is_str(jq(p, ".ranks | map(\"\\(.rank)/\\(.wall_compensated)/\\(.mpi_blocked_compensated)\") | join(\",\")"),
	       "0/1.7/0.25,1/1.95/0.2,2/null/null", "parallel: wall_compensated = W_m - x, blocked = W'");
	is_str(jq(p, ".ranks | map(\"\\(.wall_measured)/\\(.wall_compensated)/\\(.wall_local_compensated)/\\(.overhead)/\\(.delay)/\\(.mpi_wait)/\\(.mpi_blocked_compensated)\") | join(\",\")"),
	       "2/1.7/1.9/0.1/0.3/0.4/0.25,2/1.95/1.96/0.04/0.05/0.3/0.2,"
	       "null/null/null/null/null/null/null", "compensation keys per rank; null without data");
	is_str(jq(p, ".ranks[0].overhead_sources | \"\\(.sample)/\\(.wrapper)/\\(.piggyback)/\\(.drain)/\\(.inject)/\\(.switch)/\\(.contention)/\\(.samples)/\\(.calls)/\\(.switches)/\\(.sample_cost_ns)/\\(.call_cost_ns)/\\(.switch_cost_ns)\""),
	       "0.02/0.05/0.006/0.005/0.01/0.005/0.004/1000/500/1000/20000/100000/5000",
	       "rank 0 overhead_sources");
	is_str(jq(p, ".ranks[0].overhead_sources | keys_unsorted | join(\",\")"),
	       "sample,wrapper,piggyback,drain,inject,switch,contention,samples,calls,switches,"
	       "sample_cost_ns,call_cost_ns,switch_cost_ns,sample_probes,sample_probes_busy,"
	       "sample_cost_lo_ns,sample_cost_hi_ns", "overhead_sources keys, in order");
	is_str(jq(p, ".compensation.method"),
	       "sample: samples x kernel cost measured in the run (median); wrapper: calls x their own work, "
	       "timed on a few of them (median); piggyback: measured (headers, data behind them, collective companions); "
	       "drain: measured (the drain thread, and unwinding on the rank's thread); "
	       "inject: measured (CPPERF_INJECT_*); switch: context switches (the drain thread's, "
	       "and waits' turns on shared cores) x cost calibrated at MPI_Init; "
	       "contention: not charged (waits for a CPU)",
	       "compensation.method, once for all ranks");
	is_str(jq(p, ".ranks[2].overhead_sources"), "null", "rank 2: overhead_sources null");
	is_str(jq(p, ".ranks[0] | keys_unsorted | join(\",\")"),
	       "rank,host,wall,cpu,mpi_time,mpi_blocked,process_wall,process_cpu,wall_measured,wall_compensated,"
	       "wall_local_compensated,overhead,delay,mpi_wait,mpi_blocked_compensated,"
	       "overhead_sources", "rank keys, in order");
	is_str(jq(p, ".callpath.total.cycles"), "44", "parallel: 16 libcpperf samples of ranks 0 and 1 removed");
	is_str(jq(p, ".flat[] | select(.function==\"rt_inject\") | \"\\(.self.cycles) \\(.total.cycles)\""),
	       "5 5", "parallel: injected busy time left only for rank 2");
	is_str(jq(p, ".flat[] | select(.function==\"MPI_Send\") | \"\\(.self.cycles) \\(.total.cycles)\""),
	       "3 9", "parallel: wrapper self removed, its callee in libmpi kept");
	is_str(jq(p, ".flat[] | select(.function==\"PMPI_Send\") | .self.cycles"), "6",
	       "samples whose leaf is in the MPI library are kept");
	is_str(jq(p, ".flat[] | select(.function==\"main\") | .total_pct"), "100",
	       "percentages are of what is left");
	is_str(jq(p, ".threads | map(.samples.cycles) | join(\",\")"), "20,20,20",
	       "threads keep every sample taken");

	p = json_of(d, REP_COMP_LOCAL, "local.json");
	is_str(jq(p, ".compensation.mode"), "local", "compensation.mode local");
	is_str(jq(p, ".ranks | map(\"\\(.rank)/\\(.wall_local_compensated)/\\(.mpi_blocked)\") | join(\",\")"),
	       "0/1.9/0.5,1/1.96/0.35,2/null/0.6", "local: wall_local_compensated = W_m - o, blocked as measured");
	is_str(jq(p, ".ranks | map(\"\\(.wall_compensated)/\\(.wall_local_compensated)\") | join(\",\")"),
	       "1.7/1.9,1.95/1.96,null/null", "local: the same compensation keys");
	is_str(jq(p, ".callpath.total.cycles"), "44", "local: libcpperf samples removed too");
	is_str(jq(p, "[.callpath | .. | objects | select(has(\"children\")) | .function] | join(\",\")"),
	       "<root>,main,work,MPI_Send,PMPI_Send,rt_inject",
	       "call path: nodes with samples left, in order");

	p = json_of(d, REP_COMP_NONE, "none.json");
	is_str(jq(p, ".compensation.mode"), "none", "compensation.mode none");
	is_str(jq(p, ".ranks | map(\"\\(.rank)/\\(.wall)/\\(.mpi_blocked)\") | join(\",\")"),
	       "0/2.5/0.5,1/2.5/0.35,2/2.5/0.6", "none: as measured");
	is_str(jq(p, ".ranks[1] | \"\\(.wall_compensated) \\(.delay)\""), "1.95 0.05",
	       "none: compensation keys still filled");
	is_str(jq(p, ".callpath.total.cycles"), "60", "none: every sample kept");
	is_str(jq(p, ".flat[] | select(.function==\"rt_inject\") | .self.cycles"), "15",
	       "none: libcpperf samples kept");
}

static void test_trees(const struct rep_data *d)
{
	struct comp_tree ct;
	struct tree_view cp;
	struct flat f;
	char err[ERRLEN];

	is_int(comp_tree_build(&ct, d, REP_COMP_NONE, err, sizeof(err)), 0,
	       "comp_tree_build: nothing under none");
	if (!ok(comp_tree_build(&ct, d, REP_COMP_PARALLEL, err, sizeof(err)) == 1,
		"comp_tree_build: a filtered tree under parallel"))
		return;
	is_int(ct.removed[0], 16, "16 cycles samples removed");
	is_int(ct.removed[1], 2, "2 instructions samples removed");
	is_int(ct.tree.nnodes, d->tree.nnodes, "same nodes as the merged tree");
	if (tree_build(&cp, &ct.tree, 0, err, sizeof(err)) == 0) {
		if (flat_build(&f, d, &cp, 0, err, sizeof(err)) == 0) {
			const struct flat_fn *fn = find_fn(&f, "rt_inject");

			ok(fn && fn->self[0] == 5 && fn->self[1] == 0, "flat: rt_inject 5 cycles left");
			fn = find_fn(&f, "work");
			ok(fn && fn->self[0] == 30, "flat: application samples untouched");
			is_int(f.all[0], 44, "flat: all samples 44");
			flat_release(&f);
		}
		tree_release(&cp);
	}
	comp_tree_release(&ct);
	if (tree_build(&cp, &d->tree, 0, err, sizeof(err)) == 0) {
		is_int(tree_total(&cp, CCT_ROOT)[0], 60, "the merged tree keeps every sample");
		tree_release(&cp);
	}
}

static void test_text(const struct rep_data *d)
{
	char err[ERRLEN];
	int rc;
	char *out = render(d, (struct rep_opts){ .format = REP_TEXT, .view = REP_FLAT, .min_pct = 0 }, REP_COMP_PARALLEL,
			   &rc, err);

	is_int(rc, 0, "text flat renders (parallel)");
	ok(out && strstr(out, "# overhead compensation: 16 samples in cpperf's runtime removed "
			  "(--compensate=none keeps them)\n"), "flat header says what was removed");
	ok(out && strstr(out, "  11.36   11.36           5           5            0         0  rt_inject "),
	   "flat row for rt_inject: 5 of 44");
	free(out);
	out = render(d, (struct rep_opts){ .format = REP_TEXT, .view = REP_CALLPATH, .min_pct = 0 }, REP_COMP_LOCAL,
		     &rc, err);
	is_int(rc, 0, "text callpath renders (local)");
	ok(out && strstr(out, "  20.45    6.82            7    0.7778    MPI_Send  [libcpperf-openmpi.so]\n"
			  "  13.64   13.64            6         1      PMPI_Send  [libmpi.so.40]\n"),
	   "callpath: MPI_Send 9 of 44, self 3");
	free(out);
	out = render(d, (struct rep_opts){ .format = REP_TEXT, .view = REP_FLAT, .min_pct = 0 }, REP_COMP_NONE, &rc, err);
	ok(out && !strstr(out, "overhead compensation") &&
	   strstr(out, "  25.00   25.00          15          15            0         0  rt_inject "),
	   "none: no note, rt_inject 15 of 60");
	free(out);

	out = render(d, (struct rep_opts){ .format = REP_TEXT, .view = REP_MPI, .min_pct = -1 }, REP_COMP_PARALLEL,
		     &rc, err);
	is_int(rc, 0, "text --view=mpi renders (parallel)");
	ok(out && strstr(out, "# compensated (parallel) for ranks with overhead data: wall(comp) is "
			  "the region minus the final delay, blocked(comp) the compensated waits;"),
	   "mpi view says which columns are compensated");
	ok(out && strstr(out, "   blocked  wall(comp) blocked(comp)\n"
			  "       0  n0        2.500     1.500     0.600     24.00     0.500       1.700         0.250\n"
			  "       1  n1        2.500     1.500     0.600     24.00     0.350       1.950         0.200\n"
			  "       2  n2        2.500     1.500     0.600     24.00     0.600           -             -\n"),
	   "mpi view rank rows: measured, then parallel walls and W' (none for rank 2)");
	free(out);
	out = render(d, (struct rep_opts){ .format = REP_TEXT, .view = REP_MPI, .min_pct = -1 }, REP_COMP_LOCAL,
		     &rc, err);
	ok(out && strstr(out, "\n       0  n0        2.500     1.500     0.600     24.00     0.500       1.900         0.500\n"),
	   "mpi view rank 0 under local: wall - o, blocked measured");
	free(out);
	out = render(d, (struct rep_opts){ .format = REP_TEXT, .view = REP_MPI, .min_pct = -1 }, REP_COMP_NONE, &rc, err);
	ok(out && strstr(out, "\n       0  n0        2.500     1.500     0.600     24.00     0.500\n") &&
	   !strstr(out, "# compensated"), "mpi view under none: as measured, no note");
	free(out);

	out = render(d, (struct rep_opts){ .format = REP_TEXT, .view = REP_COMPENSATION, .min_pct = -1 }, REP_COMP_NONE,
		     &rc, err);
	is_int(rc, 0, "text --view=compensation renders");
	ok(out && strstr(out, "#   rank  host        wall      local   parallel   overhead"
			  "      delay       wait      wait'\n"
			  "       0  n0      2.000000   1.900000   1.700000   0.100000   0.300000"
			  "   0.400000   0.250000\n"
			  "       1  n1      2.000000   1.960000   1.950000   0.040000   0.050000"
			  "   0.300000   0.200000\n"
			  "       2  n2             -          -          -          -          -"
			  "          -          -\n"), "compensation view: one row per rank");
	ok(out && strstr(out, "# overhead by source, summed over 2 ranks (seconds, % of the overhead)\n"
			  "  sample       0.030000   21.43  1500 samples x kernel cost measured in the run (median)\n"
			  "  wrapper      0.070000   50.00  700 calls x their own work, timed on a few "
			  "of them (median)\n"
			  "  piggyback    0.009000    6.43  measured (headers, data behind them, collective companions)\n"
			  "  drain        0.006000    4.29  measured (the drain thread, and unwinding on "
			  "the rank's thread)\n"
			  "  inject       0.013000    9.29  measured (CPPERF_INJECT_*)\n"
			  "  switch       0.007000    5.00  1400 context switches (the drain thread's, "
			  "and waits' turns on shared cores) x cost calibrated at MPI_Init\n"
			  "  contention   0.005000    3.57  not charged (waits for a CPU)\n"
			  "  total        0.140000\n"), "compensation view: sources summed over ranks");
	ok(out && strstr(out, "\n# a sample was charged 20.0 us on average; measured along the run "
			  "18.0-23.0 us (quartiles, 15 pairs kept, 3 rejected)\n"),
	   "compensation view: a sample's cost, charged and measured");
	if (out && !strstr(out, "wait'"))
		printf("# %s", out);
	free(out);
}

/* An experiment without compensation data: nothing changes, whatever the
 * mode; --view=compensation fails. */
static void test_no_data(void)
{
	struct rep_data d;
	char err[ERRLEN];
	int rc;

	if (load_job(&d, false) < 0) {
		ok(0, "load a job without compensation data");
		return;
	}
	ok(!comp_present(&d) && d.tool.n == 0, "no compensation data, no tool samples kept");
	char *a = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_FLAT, .min_pct = 0 }, REP_COMP_PARALLEL,
			 &rc, err);
	char *b = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_FLAT, .min_pct = 0 }, REP_COMP_NONE,
			 &rc, err);

	ok(a && b && !strcmp(a, b) && strstr(a, "15            0         0  rt_inject"),
	   "without data parallel and none print the same flat profile");
	free(a);
	free(b);
	a = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_MPI, .min_pct = -1 }, REP_COMP_PARALLEL, &rc, err);
	b = render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_MPI, .min_pct = -1 }, REP_COMP_NONE, &rc, err);
	ok(a && b && !strcmp(a, b), "without data parallel and none print the same mpi view");
	free(a);
	free(b);
	const char *p = json_of(&d, REP_COMP_PARALLEL, "nodata.json");

	is_str(jq(p, ".compensation | del(.method) | tojson"), "{\"mode\":\"parallel\",\"available\":false}",
	       "json: compensation available false");
	is_str(jq(p, ".ranks | map(\"\\(.wall)/\\(.wall_compensated)\") | join(\",\")"),
	       "2.5/null,2.5/null,2.5/null", "json: measured walls, compensation keys null");
	is_str(jq(p, ".callpath.total.cycles"), "60", "json: every sample kept");
	for (int f = 0; f < 3; f++) {
		enum rep_format fmt[] = { REP_TEXT, REP_JSON, REP_FOLDED };
		char name[128];

		a = render(&d, (struct rep_opts){ .format = fmt[f], .view = REP_COMPENSATION,
								  .min_pct = -1 },
						  REP_COMP_PARALLEL, &rc, err);
		snprintf(name, sizeof(name), "--view=compensation without data fails (format %d)", f);
		ok(rc == -1 && strstr(err, "exp-comp: no overhead compensation data in this "
				      "experiment: it is not an MPI program, or it was recorded "
				      "with --no-piggyback"), name);
		free(a);
	}
	merge_release(&d);
}

/* Run cmd_report with args, stdout and stderr into tmpdir files; returns
 * the exit status and the stderr text (static). */
static int run_report(const char **args, int n, const char **errtext)
{
	static char text[4096];
	char *argv[16], path[512], outp[512];
	int saved_out = dup(1), saved_err = dup(2), fd, fo, rc;
	FILE *f;

	fflush(stdout);
	fflush(stderr);
	snprintf(path, sizeof(path), "%s/stderr", tmpdir);
	snprintf(outp, sizeof(outp), "%s/stdout", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	fo = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	dup2(fo, 1);
	argv[0] = "report";
	for (int i = 0; i < n && i < 14; i++)
		argv[i + 1] = (char *)args[i];
	argv[n + 1] = NULL;
	rc = cmd_report(n + 1, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	close(fd);
	close(fo);
	text[0] = '\0';
	if ((f = fopen(path, "r"))) {
		size_t k = fread(text, 1, sizeof(text) - 1, f);

		text[k] = '\0';
		fclose(f);
	}
	*errtext = text;
	return rc;
}

/* The command: option parsing and exit statuses, on written profiles. */
static void test_cli(void)
{
	char comp[512], plain[512], out[600], err[ERRLEN];
	struct profile p[3];
	const char *e;
	int rc = 0;

	snprintf(comp, sizeof(comp), "%s/comp", tmpdir);
	snprintf(plain, sizeof(plain), "%s/plain", tmpdir);
	mkdir(comp, 0755);
	mkdir(plain, 0755);
	for (int with = 0; with < 2; with++) {
		make_job(p, with);
		for (int i = 0; i < 3; i++) {
			char name[32];

			snprintf(name, sizeof(name), "r%d" PROFILE_SUFFIX, i);
			if (rc == 0)
				rc = profile_write(&p[i], with ? comp : plain, name, err, sizeof(err));
			profile_release(&p[i]);
		}
	}
	if (!ok(rc == 0, "write the two jobs")) {
		printf("# %s\n", err);
		return;
	}

	rc = run_report((const char *[]){ comp, "--compensate=bogus" }, 2, &e);
	is_int(rc, 2, "bad --compensate value: exit 2");
	ok(strstr(e, "cpperf: report: --compensate: unknown value 'bogus'; allowed: none, "
		  "local, parallel"), "... naming the option and the choices");
	printf("# %s", e);
	rc = run_report((const char *[]){ plain, "--view=compensation" }, 2, &e);
	is_int(rc, 1, "--view=compensation without data: exit 1");
	ok(strstr(e, "no overhead compensation data in this experiment"), "... with the reason");
	rc = run_report((const char *[]){ plain, "--compensate=local" }, 2, &e);
	is_int(rc, 0, "--compensate=local without data: fine");

	snprintf(out, sizeof(out), "%s/cli.json", tmpdir);
	rc = run_report((const char *[]){ comp, "--format=json", "-o", out }, 4, &e);
	is_int(rc, 0, "json of the written job");
	is_str(jq(out, ".compensation.mode"), "parallel", "CLI default: parallel");
	is_str(jq(out, ".ranks | map(\"\\(.wall_compensated)\") | join(\",\")"), "1.7,1.95,null",
	       "written and read back: parallel walls");
	is_str(jq(out, ".callpath.total.cycles"), "44", "written and read back: tool samples removed");
	rc = run_report((const char *[]){ comp, "--format=json", "--compensate", "none", "-o", out },
			6, &e);
	is_int(rc, 0, "--compensate none (separate value)");
	is_str(jq(out, "\"\\(.compensation.mode) \\(.callpath.total.cycles) \\(.ranks[0].wall)\""),
	       "none 60 2.5", "--compensate=none: as measured");
	rc = run_report((const char *[]){ comp, "--view=compensation" }, 2, &e);
	is_int(rc, 0, "--view=compensation of the written job");
}

int main(void)
{
	struct rep_data d;

	snprintf(tmpdir, sizeof(tmpdir), "%s/cpperf-comp-test.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		return 1;
	if (ok(load_job(&d, true) == 0, "merge three ranks, two with compensation data")) {
		test_numbers(&d);
		test_cp_length(&d);
		test_json(&d);
		test_trees(&d);
		test_text(&d);
		merge_release(&d);
	}
	test_no_data();
	test_cli();
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmpdir);
	return tap_done();
}
