/*
 * test-report.c - unit tests of the report library (report/).
 *
 * Profiles are built in memory (a recursive path a->b->a->b, a C++ frame,
 * two processes sharing frames under different ids), written with
 * profile_write into a temporary experiment directory and loaded back with
 * exp_load, so reading, merging, the flat and call-path analyses and the
 * renderers are checked against numbers worked out by hand.  JSON output
 * is parsed with jq.  The same two profiles are committed as
 * tests/data/report-exp (used by tests/integration/report-cli.t); running
 * `test-report --write-data DIR` regenerates them, and a test here checks
 * that the committed copy still loads with the same numbers.  Likewise an
 * MPI experiment of two ranks (call sites merged across ranks, matrix,
 * collectives) is checked through JSON and text and committed as
 * tests/data/report-mpi (`test-report --write-mpi-data DIR`).
 */
#include <errno.h>
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
#include "../../report/data.h"
#include "../../report/experiment.h"
#include "../../report/flat.h"
#include "../../report/json.h"
#include "../../report/merge.h"
#include "../../report/out-json.h"
#include "../../report/render.h"
#include "../../report/text.h"
#include "../../report/tree.h"

#define ERRLEN 1024

/* ---- building profiles ---- */

static void set_common(struct profile *p, int64_t pid, uint64_t tid0)
{
	static const char *const argv[] = { "./app", "--size", "10" };

	p->argc = 3;
	p->argv = calloc(3, sizeof(*p->argv));
	for (int i = 0; i < 3; i++)
		p->argv[i] = xstrdup(argv[i]);
	p->host = xstrdup("node1");
	p->pid = pid;
	p->backend = xstrdup("perf");
	p->call_graph = xstrdup("dwarf");
	p->nevents = 2;
	p->events = calloc(2, sizeof(*p->events));
	p->events[0] = (struct prof_event){ xstrdup("cycles"), 1000, 0, 0 };
	p->events[1] = (struct prof_event){ xstrdup("instructions"), 0, 500, 1 };
	p->nthreads = 2;
	p->threads = calloc(2, sizeof(*p->threads));
	for (uint32_t i = 0; i < 2; i++) {
		p->threads[i].tid = tid0 + i;
		p->threads[i].samples = calloc(2, sizeof(uint64_t));
	}
	if (cct_init(&p->tree, 2) < 0)
		abort();
}

static void add_path(struct profile *p, const uint32_t *frames, size_t n,
		     uint64_t cycles, uint64_t instr)
{
	uint32_t leaf = cct_path(&p->tree, frames, n);
	uint64_t *self = cct_self(&p->tree, leaf);

	self[0] += cycles;
	self[1] += instr;
	p->samples += cycles + instr;
}

/* Process 1: main->a->b->a->b 10, main->a 5, main->c (libm) 3, main 2
 * (cycles); instructions 20, 1, 3, 0. */
static void make_proc1(struct profile *p)
{
	profile_init(p);
	set_common(p, 100, 100);
	uint32_t app = symtab_module(&p->syms, "/opt/app/bin/app", "abcd");
	uint32_t libm = symtab_module(&p->syms, "/lib/libm.so.6", "");
	uint32_t m = symtab_frame(&p->syms, app, "main", "app.c", 10);
	uint32_t a = symtab_frame(&p->syms, app, "a", "app.c", 20);
	uint32_t b = symtab_frame(&p->syms, app, "b", "app.c", 30);
	uint32_t c = symtab_frame(&p->syms, libm, "c", "", 0);

	add_path(p, (uint32_t[]){ m, a, b, a, b }, 5, 10, 20);
	add_path(p, (uint32_t[]){ m, a }, 2, 5, 1);
	add_path(p, (uint32_t[]){ m, c }, 2, 3, 3);
	add_path(p, (uint32_t[]){ m }, 1, 2, 0);
	p->threads[0].samples[0] = 15;
	p->threads[0].samples[1] = 21;
	p->threads[1].samples[0] = 5;
	p->threads[1].samples[1] = 3;
	p->unwind_complete = 18;
	p->unwind_truncated = 2;
	p->lost = 1;
}

/* Process 2 (frames interned in another order, events listed in another
 * order): main->a->b 4, main->foo::bar(int, char) 6 (cycles); instructions
 * 2 and 0. */
static void make_proc2(struct profile *p)
{
	profile_init(p);
	set_common(p, 200, 200);
	free(p->events[0].name);
	free(p->events[1].name);
	p->events[0] = (struct prof_event){ xstrdup("instructions"), 0, 500, 0 };
	p->events[1] = (struct prof_event){ xstrdup("cycles"), 1000, 0, 1 };
	uint32_t app = symtab_module(&p->syms, "/opt/app/bin/app", "abcd");
	uint32_t fb = symtab_frame(&p->syms, app, "_ZN3foo3barEic", "foo.cc", 5);
	uint32_t b = symtab_frame(&p->syms, app, "b", "app.c", 30);
	uint32_t a = symtab_frame(&p->syms, app, "a", "app.c", 20);
	uint32_t m = symtab_frame(&p->syms, app, "main", "app.c", 10);

	add_path(p, (uint32_t[]){ m, a, b }, 3, 2, 4);	/* instr, cycles */
	add_path(p, (uint32_t[]){ m, fb }, 2, 0, 6);
	p->threads[0].samples[0] = 2;
	p->threads[0].samples[1] = 10;
	p->unwind_complete = 10;
}

static int write_experiment(const char *dir, char *err)
{
	struct profile p1, p2;
	int rc;

	make_proc1(&p1);
	make_proc2(&p2);
	rc = profile_write(&p1, dir, "app.100" PROFILE_SUFFIX, err, ERRLEN);
	if (rc == 0)
		rc = profile_write(&p2, dir, "app.200" PROFILE_SUFFIX, err, ERRLEN);
	profile_release(&p1);
	profile_release(&p2);
	return rc;
}

/* ---- an MPI experiment: two ranks of one job ---- */

/* Append site (function, path, calls, sent, recv, time, blocked) to p; one
 * histogram bucket counts the calls. */
static void add_site(struct profile *p, const char *fn, const uint32_t *path,
		     uint32_t n, const uint64_t v[5])
{
	struct prof_mpi_site *m;

	p->mpi_sites = realloc(p->mpi_sites, (p->nmpi_sites + 1) * sizeof(*m));
	m = &p->mpi_sites[p->nmpi_sites++];
	memset(m, 0, sizeof(*m));
	m->function = xstrdup(fn);
	m->frames = calloc(n, sizeof(uint32_t));
	memcpy(m->frames, path, n * sizeof(uint32_t));
	m->nframes = n;
	m->calls = v[0], m->bytes_sent = v[1], m->bytes_recv = v[2];
	m->time_ns = v[3], m->blocked_ns = v[4];
	m->hist[10] = v[0];
}

static void add_coll(struct profile *p, const char *fn, int64_t size, uint64_t calls,
		     uint64_t bytes, uint64_t time_ns)
{
	p->mpi_colls = realloc(p->mpi_colls, (p->nmpi_colls + 1) * sizeof(*p->mpi_colls));
	p->mpi_colls[p->nmpi_colls++] = (struct prof_mpi_coll){ xstrdup(fn), size, calls,
								 bytes, time_ns };
}

/* Rank r of a job of size 2 on host nr, 2 s of wall time; frames main,
 * solve, exchange interned in a rank-dependent order.  fr gets their ids. */
static void make_rank(struct profile *p, int64_t r, uint64_t cpu_ns, uint32_t fr[3])
{
	static const char *const names[] = { "main", "solve", "exchange" };
	char host[8];

	profile_init(p);
	set_common(p, 300 + r, 300 + r);
	free(p->host);
	snprintf(host, sizeof(host), "n%lld", (long long)r);
	p->host = xstrdup(host);
	p->rank = r;
	p->size = 2;
	p->start_ns = 1000000000000000000ull;
	p->end_ns = p->start_ns + 2000000000ull;
	p->cpu_ns = cpu_ns;
	p->mpi_wall_ns = 2000000000ull;
	p->mpi_cpu_ns = cpu_ns;
	uint32_t app = symtab_module(&p->syms, "/opt/app/bin/app", "abcd");

	for (int i = 0; i < 3; i++) {
		int k = r ? 2 - i : i;

		fr[k] = symtab_frame(&p->syms, app, names[k], "app.c", 10 * (k + 1));
	}
	add_path(p, fr, 3, 4, 4);
}

/* Rank 0: Send 3 x 1000 B to rank 1 from main>solve>exchange (0.2 s),
 * Allreduce twice from main>solve (0.1 s, 0.05 blocked).  Rank 1: Recv of
 * those (0.5 s, 0.4 blocked), Allreduce (0.3 s, 0.25 blocked), one Send of
 * 8 B to rank 0 from the same path as rank 0's sends (0.05 s), a Bcast on
 * a communicator of one.  Rank 1 names another library and is written
 * first, so the library of the lowest rank must win. */
static int write_mpi_experiment(const char *dir, char *err)
{
	struct profile p0, p1;
	uint32_t f[3];
	int rc;

	make_rank(&p0, 0, 1500000000, f);
	p0.mpi_library = xstrdup("Open MPI v4.1.2");
	add_site(&p0, "MPI_Send", f, 3, (uint64_t[]){ 3, 3000, 0, 200000000, 0 });
	add_site(&p0, "MPI_Allreduce", f, 2, (uint64_t[]){ 2, 16, 16, 100000000, 50000000 });
	p0.nmpi_peers = 1;
	p0.mpi_peers = calloc(1, sizeof(*p0.mpi_peers));
	p0.mpi_peers[0] = (struct prof_mpi_peer){ 1, 3, 3000, 0 };
	add_coll(&p0, "MPI_Allreduce", 2, 2, 16, 100000000);

	make_rank(&p1, 1, 1000000000, f);
	p1.mpi_library = xstrdup("other MPI");
	add_site(&p1, "MPI_Recv", f, 3, (uint64_t[]){ 3, 0, 3000, 500000000, 400000000 });
	add_site(&p1, "MPI_Allreduce", f, 2, (uint64_t[]){ 2, 16, 16, 300000000, 250000000 });
	add_site(&p1, "MPI_Send", f, 3, (uint64_t[]){ 1, 8, 0, 50000000, 0 });
	p1.nmpi_peers = 1;
	p1.mpi_peers = calloc(1, sizeof(*p1.mpi_peers));
	p1.mpi_peers[0] = (struct prof_mpi_peer){ 0, 1, 8, 0 };
	add_coll(&p1, "MPI_Allreduce", 2, 2, 16, 300000000);
	add_coll(&p1, "MPI_Bcast", 1, 1, 4, 1000000);

	rc = profile_write(&p1, dir, "a-rank1" PROFILE_SUFFIX, err, ERRLEN);
	if (rc == 0)
		rc = profile_write(&p0, dir, "b-rank0" PROFILE_SUFFIX, err, ERRLEN);
	profile_release(&p0);
	profile_release(&p1);
	return rc;
}

/* ---- helpers ---- */

static char tmpdir[256];

static void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		printf("# command failed: %s\n", cmd);
}

static const struct flat_fn *find_fn(const struct flat *f, const char *name)
{
	for (uint32_t i = 0; i < f->nfns; i++)
		if (!strcmp(f->fns[i].name, name))
			return &f->fns[i];
	return NULL;
}

/* Render d with o into a string (caller frees). */
static char *render(const struct rep_data *d, const struct rep_opts *o, int *rc)
{
	char *buf = NULL, err[ERRLEN];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = rep_render(d, o, f, err, sizeof(err));
	fclose(f);
	if (*rc)
		printf("# rep_render: %s\n", err);
	return buf;
}

/* ---- tests ---- */

/* Checks that hold for the two-process experiment wherever it is stored. */
static void check_merged(const struct rep_data *d, const char *what)
{
	struct tree_view cp;
	struct flat f;
	char err[ERRLEN], name[256];

	is_int(d->nprocs, 2, "processes");
	is_int(d->nevents, 2, "events");
	is_str(d->events[0].name, "cycles", "first event is the first profile's");
	is_int(d->samples, 44 + 12, "samples summed over processes");
	is_int(d->nthreads, 4, "threads of both processes");
	if (tree_build(&cp, &d->tree, 0, err, sizeof(err)) < 0 ||
	    flat_build(&f, d, &cp, 0, err, sizeof(err)) < 0) {
		ok(0, err);
		return;
	}
	is_int(tree_total(&cp, CCT_ROOT)[0], 30, "root total cycles");
	is_int(tree_total(&cp, CCT_ROOT)[1], 26, "root total instructions (events matched by name)");
	static const struct { const char *fn; uint64_t self, total, itotal; } want[] = {
		{ "main", 2, 30, 26 }, { "a", 5, 19, 23 }, { "b", 14, 14, 22 },
		{ "c", 3, 3, 3 }, { "foo::bar(int, char)", 6, 6, 0 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct flat_fn *fn = find_fn(&f, want[i].fn);

		snprintf(name, sizeof(name), "%s: %s found", what, want[i].fn);
		if (!ok(fn, name))
			continue;
		snprintf(name, sizeof(name), "%s: %s self", what, want[i].fn);
		is_int(fn->self[0], want[i].self, name);
		snprintf(name, sizeof(name), "%s: %s total (recursion counted once)", what,
			 want[i].fn);
		is_int(fn->total[0], want[i].total, name);
		snprintf(name, sizeof(name), "%s: %s total instructions", what, want[i].fn);
		is_int(fn->total[1], want[i].itotal, name);
	}
	is_int(f.nfns, 5, "five functions");
	is_str(f.fns[0].name, "b", "flat sorted by self: b first");
	is_str(f.fns[4].name, "main", "main last (self 2)");
	flat_release(&f);
	tree_release(&cp);
}

static void test_load_and_merge(const char *exp)
{
	struct rep_data d;
	char err[ERRLEN];

	if (!ok(exp_load(&d, exp, NULL, 0, err, sizeof(err)) == 0, "exp_load of two profiles")) {
		printf("# %s\n", err);
		return;
	}
	check_merged(&d, "merged");
	is_str(d.argv[0], "./app", "command of the first process");
	is_int(d.argv_pid, 100, "first process is the lowest pid");
	is_int(d.threads[0].tid, 100, "threads sorted");
	is_int(d.threads[2].samples[0], 10, "thread samples remapped to merged event order");
	merge_release(&d);
}

static void test_folded(const struct rep_data *d)
{
	struct rep_opts o = { .format = REP_FOLDED, .view = REP_FLAT, .min_pct = -1 };
	int rc;
	char *out = render(d, &o, &rc);

	is_int(rc, 0, "folded renders");
	is_str(out, "main 2\nmain;a 5\nmain;a;b 4\nmain;a;b;a;b 10\n"
	       "main;foo::bar(int,_char) 6\nmain;c 3\n", "folded lines (cycles)");
	free(out);
	o.event = "instructions";
	out = render(d, &o, &rc);
	is_str(out, "main;a 1\nmain;a;b 2\nmain;a;b;a;b 20\nmain;c 3\n",
	       "folded lines (--event=instructions)");
	free(out);
	o.event = "nope";
	out = render(d, &o, &rc);
	is_int(rc, 2, "unknown --event is a usage error");
	free(out);
}

static void test_json(const struct rep_data *d)
{
	struct rep_opts o = { .format = REP_JSON, .view = REP_FLAT, .min_pct = -1 };
	char path[512];
	int rc;
	char *out = render(d, &o, &rc);

	is_int(rc, 0, "json renders");
	snprintf(path, sizeof(path), "%s/report.json", tmpdir);
	save(path, out ? out : "");
	free(out);
	is_str(jq(path, "keys | join(\",\")"),
	       "callpath,compensation,cpperf_version,critical_path,experiment,flat,mpi,ranks,ranks_summary,threads",
	       "json top-level keys");
	is_str(jq(path, ".compensation | del(.method) | tojson"), "{\"mode\":\"parallel\",\"available\":false}",
	       "compensation: the default mode, no data");
	is_str(jq(path, ".cpperf_version"), CPPERF_VERSION, "cpperf_version");
	is_str(jq(path, ".experiment.command | join(\" \")"), "./app --size 10", "command");
	is_str(jq(path, ".experiment.processes"), "2", "processes");
	is_str(jq(path, ".experiment.events | map(\"\\(.name)=\\(.period // .frequency)\") | join(\",\")"),
	       "cycles=1000,instructions=500", "events with period or frequency");
	is_str(jq(path, ".experiment.events[1] | has(\"frequency\")"), "true", "frequency key");
	is_str(jq(path, ".experiment.metrics | tojson"), "[{\"name\":\"ipc\",\"expr\":\"instructions/cycles\"}]",
	       "the built-in ipc, cycles and instructions being recorded");
	is_str(jq(path, "[.flat[] | (.self.instructions / (.self.cycles * 1000)) as $r | .metrics.ipc.self as $m"
		  " | if .self.cycles == 0 then $m == null else ($m - $r | fabs) <= 1e-5 * $r end] | all"),
	       "true", "ipc per function: its instructions over its cycles (a sample 1000)");
	is_str(jq(path, ".callpath.children[0] | [.function, (.metrics.ipc.total * 1e7 | round)] | tojson"),
	       "[\"main\",8667]", "ipc per call path, of the totals: main's 26 / 30 000");
	is_str(jq(path, ".experiment.samples"), "56", "samples");
	is_str(jq(path, ".experiment.lost"), "1", "lost");
	is_str(jq(path, ".experiment.unwind_complete_pct"), "93.3333", "unwind_complete_pct");
	is_str(jq(path, ".experiment.call_graph"), "dwarf", "call_graph");
	is_str(jq(path, ".flat | map(.function) | join(\",\")"),
	       "b,foo::bar(int, char),a,c,main", "flat order: self desc, then name");
	is_str(jq(path, ".flat[] | select(.function==\"a\") | \"\\(.self.cycles) \\(.total.cycles) \\(.total.instructions) \\(.module) \\(.module_name) \\(.file):\\(.line)\""),
	       "5 19 23 /opt/app/bin/app app app.c:20", "flat entry for a");
	is_str(jq(path, ".flat[] | select(.function==\"main\") | \"\\(.self_pct) \\(.total_pct)\""),
	       "6.66667 100", "main percentages");
	is_str(jq(path, "[.flat[].total_pct] | max"), "100", "no total_pct above 100");
	is_str(jq(path, ".callpath | \"\\(.function) \\(.total.cycles) \\(.children | length)\""),
	       "<root> 30 1", "callpath root");
	is_str(jq(path, "[.callpath | .. | objects | select(has(\"children\")) | .function] | join(\",\")"),
	       "<root>,main,a,b,a,b,foo::bar(int, char),c", "callpath nodes in order");
	is_str(jq(path, ".callpath.children[0].children[0].children[0].children[0] | \"\\(.function) \\(.self.cycles) \\(.total.cycles) \\(.total_pct)\""),
	       "a 0 10 33.3333", "deep node counts");
	is_str(jq(path, ".threads | map(\"\\(.pid)/\\(.tid)/\\(.rank)/\\(.host)/\\(.samples.cycles)\") | join(\",\")"),
	       "100/100/null/node1/15,100/101/null/node1/5,200/200/null/node1/10,200/201/null/node1/0",
	       "threads");

	is_str(jq(path, "\"\\(.experiment.ranks) \\(.experiment.mpi)\""), "0 null",
	       "non-MPI: experiment.ranks 0, mpi null");
	is_str(jq(path, ".ranks | map(\"\\(.rank)/\\(.host)/\\(.mpi_time)\") | join(\",\")"),
	       "null/node1/0,null/node1/0", "non-MPI processes in ranks with rank null");
	is_str(jq(path, ".ranks[0] | keys_unsorted | join(\",\")"),
	       "rank,host,wall,cpu,mpi_time,mpi_blocked,process_wall,process_cpu,wall_measured,wall_compensated,"
	       "wall_local_compensated,overhead,delay,mpi_wait,mpi_blocked_compensated,"
	       "overhead_sources", "ranks keys (compensation keys added)");
	is_str(jq(path, "[.ranks[] | .wall_compensated, .overhead_sources] | unique | tojson"),
	       "[null]", "without compensation data its keys are null");
	is_str(jq(path, ".mpi | tojson"),
	       "{\"callsites\":[],\"matrix\":{\"ranks\":0,\"pairs\":[],\"count\":[],\"bytes\":[]},\"collectives\":[]}",
	       "non-MPI: empty mpi object");

	o.min_pct = 25;
	out = render(d, &o, &rc);
	save(path, out ? out : "");
	free(out);
	is_str(jq(path, "[.callpath | .. | objects | select(has(\"children\")) | .function] | join(\",\")"),
	       "<root>,main,a,b,a,b", "--min-pct=25 prunes the json tree (first event)");
	is_str(jq(path, ".flat | length"), "5", "--min-pct leaves json flat whole");
}

static void test_text(const struct rep_data *d)
{
	struct rep_opts o = { .format = REP_TEXT, .view = REP_FLAT, .min_pct = -1 };
	int rc;
	char *out = render(d, &o, &rc);

	is_int(rc, 0, "text flat renders");
	/* instructions beside cycles, and the built-in ipc they give: a
	 * sample of cycles (period 1000) counts 1000 cycles */
	ok(out && strstr(out, "#  self%  total%        self       total instructions       ipc  function"),
	   "text flat: a column for the other event and one for ipc");
	ok(out && strstr(out, "  46.67   46.67          14          14           22  0.001571  b "),
	   "text flat row for b: 22 instructions of 14 000 cycles");
	ok(out && strstr(out, "# event: cycles (period 1000)"), "text header names the event");
	free(out);
	o.view = REP_CALLPATH;
	o.min_pct = 15;
	out = render(d, &o, &rc);
	is_int(rc, 0, "text callpath renders");
	ok(out && strstr(out, " 100.00    6.67           26 0.0008667  main  [app]  app.c:10\n"
			  "  63.33   16.67           23  0.001211    a  [app]  app.c:20\n"
			  "  46.67   13.33           22  0.001571      b  [app]  app.c:30\n"),
	   "text callpath tree, with the other event's and ipc's totals");
	ok(out && strstr(out, "# 1 subtree below 15% not shown"), "text callpath says what it pruned");
	if (out && !strstr(out, "100.00"))
		printf("# %s", out);
	free(out);
	o.view = REP_MPI;
	out = render(d, &o, &rc);
	is_int(rc, 0, "text --view=mpi of a non-MPI experiment succeeds");
	is_str(out, "no MPI data in this experiment\n", "... and says there is no MPI data");
	free(out);
}

/* The JSON of the two-rank experiment in dir against hand-worked numbers. */
static void check_mpi_json(const char *dir, const char *what)
{
	struct rep_opts o = { .format = REP_JSON, .view = REP_FLAT, .min_pct = -1 };
	struct rep_data d;
	char err[ERRLEN], path[512], name[128];
	int rc;

	snprintf(name, sizeof(name), "%s: MPI experiment loads", what);
	if (!ok(exp_load(&d, dir, NULL, 0, err, sizeof(err)) == 0, name)) {
		printf("# %s\n", err);
		return;
	}
	char *out = render(&d, &o, &rc);

	merge_release(&d);
	snprintf(path, sizeof(path), "%s/mpi.json", tmpdir);
	save(path, out ? out : "");
	free(out);
	is_str(jq(path, "\"\\(.experiment.ranks) \\(.experiment.mpi)\""), "2 Open MPI v4.1.2",
	       "experiment.ranks and the lowest rank's library");
	is_str(jq(path, ".ranks | map(\"\\(.rank)/\\(.host)/\\(.wall)/\\(.cpu)/\\(.mpi_time)/\\(.mpi_blocked)\") | join(\",\")"),
	       "0/n0/2/1.5/0.3/0.05,1/n1/2/1/0.85/0.65", "ranks: wall, cpu, MPI and blocked seconds");
	is_str(jq(path, ".mpi.matrix.count | tojson"), "[[0,3],[1,0]]", "matrix.count[i][j]: i sent to j");
	is_str(jq(path, ".mpi.matrix.bytes | tojson"), "[[0,3000],[8,0]]", "matrix.bytes");
	is_str(jq(path, ".mpi.callsites | map(\"\\(.id):\\(.function):\\(.calls):\\(.time):\\(.blocked):\\(.bytes_sent):\\(.bytes_recv)\") | join(\",\")"),
	       "1:MPI_Recv:3:0.5:0.4:0:3000,2:MPI_Allreduce:4:0.4:0.3:32:32,3:MPI_Send:4:0.25:0:3008:0",
	       "call sites merged across ranks by call path, by time");
	is_str(jq(path, ".mpi.callsites[2].callpath | map(.function) | join(\">\")"),
	       "main>solve>exchange", "call path outermost first (frames remapped)");
	is_str(jq(path, ".mpi.callsites[2].callpath[2] | \"\\(.module) \\(.file):\\(.line)\""),
	       "/opt/app/bin/app app.c:30", "call-path frame location");
	is_str(jq(path, ".mpi.callsites[1].callpath | length"), "2", "Allreduce path of two frames");
	is_str(jq(path, ".mpi.callsites[2].histogram | \"\\(length) \\(.[10]) \\(add)\""), "32 4 4",
	       "histograms summed");
	is_str(jq(path, ".mpi.callsites[0] | keys_unsorted | join(\",\")"),
	       "id,function,callpath,calls,threads,main_thread_calls,time,time_ranks,blocked,"
	       "bytes_sent,bytes_recv,histogram",
	       "call-site keys");
	is_str(jq(path, ".mpi.collectives | map(\"\\(.function)/\\(.comm_size)/\\(.calls)/\\(.bytes)/\\(.time)\") | join(\",\")"),
	       "MPI_Bcast/1/1/4/0.001,MPI_Allreduce/2/4/32/0.4", "collectives merged, by size");
}

static void test_mpi_text(const char *dir)
{
	struct rep_opts o = { .format = REP_TEXT, .view = REP_MPI, .min_pct = -1 };
	struct rep_data d;
	char err[ERRLEN];
	int rc;

	if (exp_load(&d, dir, NULL, 0, err, sizeof(err)) < 0) {
		ok(0, err);
		return;
	}
	char *out = render(&d, &o, &rc);

	is_int(rc, 0, "text --view=mpi renders");
	ok(out && strstr(out, "# MPI: Open MPI v4.1.2; 2 ranks, 2 processes; MPI time 1.150 s, "
			  "3 call sites\n"), "mpi header");
	ok(out && strstr(out, "\n       1  n1        2.000     1.000     0.850     42.50     0.650\n"),
	   "per-rank row: wall, cpu, MPI, MPI%wall, blocked");
	ok(out && strstr(out, "# most MPI time: rank 1 (0.850 s, 42.50% of wall); least: rank 0 "
			  "(0.300 s, 15.00% of wall)\n"), "most and least MPI time");
	ok(out && strstr(out, "\n    1  MPI_Recv               3    main     0.500   43.48            0         3000  "
			  "main > solve > exchange\n"), "top call site row");
	ok(out && strstr(out, "#  from     0           0           3\n#  from     1           1           0\n"),
	   "dense count matrix");
	ok(out && strstr(out, "\n       1  MPI_Bcast              1            4     0.001\n"),
	   "collectives by communicator size");
	if (out && !strstr(out, "MPI_Recv"))
		printf("# %s", out);
	free(out);
	merge_release(&d);
}

/* Beyond REP_MPI_DENSE ranks text shows the busiest pairs, by bytes. */
static void test_mpi_top_pairs(void)
{
	struct rep_data d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (merge_init(&d) < 0)
		return;
	d.mpi.size = 20;
	d.mpi.npairs = d.mpi.pairs_alloc = 25;
	d.mpi.pairs = calloc(25, sizeof(*d.mpi.pairs));
	for (int64_t i = 0; i < 25; i++)
		d.mpi.pairs[i] = (struct rep_pair){ i % 20, (i + 1 + i / 20) % 20,
						    (uint64_t)i + 1, 100 * ((uint64_t)i + 1) };
	f = open_memstream(&buf, &len);
	is_int(rep_text_mpi(f, &d, REP_COMP_PARALLEL, false), 0, "text --view=mpi of 20 ranks");
	fclose(f);
	ok(buf && strstr(buf, "#   from      to       count        bytes\n"
			  "       4       6          25         2500\n"), "busiest pair first");
	ok(buf && strstr(buf, "\n       5       6           6          600\n"), "20th pair shown");
	ok(buf && !strstr(buf, "\n       4       5           5          500\n"), "21st pair left out");
	ok(buf && strstr(buf, "# 20 of 25 sender -> receiver pairs with messages shown"),
	   "says how many pairs it left out");
	ok(buf && !strstr(buf, "#  from"), "no dense table for 20 ranks");
	free(buf);
	merge_release(&d);
}

/* d's MPI view into a string the caller frees: text, or the JSON report's
 * MPI keys ("ranks", "ranks_summary", "mpi") in an object. */
static char *mpi_view(const struct rep_data *d, bool json, bool all)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_w w;

	if (!json) {
		rep_text_mpi(f, d, REP_COMP_PARALLEL, all);
	} else {
		json_init(&w, f);
		json_begin_object(&w);
		rep_json_mpi(&w, d, all);
		json_end_object(&w);
		json_finish(&w);
	}
	fclose(f);
	return buf;
}

/* Beyond REP_LISTED_RANKS ranks the views list rank 0 and the extremes
 * of MPI time, with the distributions; --all-ranks lists them all. */
static void test_many_ranks(void)
{
	struct rep_data d;
	char *text, *json, *all;
	int rows = 0;

	if (merge_init(&d) < 0)
		return;
	d.mpi.size = 100;
	d.mpi.nranks = d.mpi.ranks_alloc = 100;
	d.mpi.ranks = calloc(100, sizeof(*d.mpi.ranks));
	for (int64_t i = 0; i < 100; i++)	/* MPI time grows with the rank, 37 the most */
		d.mpi.ranks[i] = (struct rep_rank){ .rank = i, .pid = 1000 + i, .host = strdup("h"),
			.wall_ns = 2000000000, .mpi_ns = 1000000 * (uint64_t)(i == 37 ? 999 : i),
			.blocked_ns = 1000 };
	text = mpi_view(&d, false, false);
	for (const char *p = text; p && (p = strstr(p, "  h     ")); p++)	/* a row's host */
		rows++;
	ok(text && strstr(text, "# 100 ranks: listed below are rank 0 and the 8 with the most and the "
			  "8 with the least MPI time, 16 in all"), "text says which ranks it lists");
	ok(text && strstr(text, "#  MPI          0.000     0.051     0.059     0.999  37\n"),
	   "text: MPI time's min, median, mean, max and the rank of the max over all ranks");
	ok(rows == 16 && strstr(text, "\n      37  h") && strstr(text, "\n      93  h") &&
	   !strstr(text, "\n      50  h"), "text: 16 rows, the extremes, not the middle");
	json = mpi_view(&d, true, false);
	ok(json && strstr(json, "\"ranks_summary\":{\"ranks\":100,\"listed\":16,"),
	   "json: ranks_summary says 16 of 100 listed");
	ok(json && strstr(json, "\"mpi_time\":{\"min\":0,\"median\":0.0505,\"mean\":0.05912,"
			  "\"max\":0.999,\"max_rank\":37}"), "json: the distribution of mpi_time");
	all = mpi_view(&d, true, true);
	ok(all && strstr(all, "{\"rank\":50,") && strstr(all, "\"ranks_summary\":null"),
	   "--all-ranks: every rank, no summary");
	free(text);
	free(json);
	free(all);
	merge_release(&d);
}

/* Load dir, releasing it when it loads; true when loading failed. */
static bool load_fails(const char *dir, char *err)
{
	struct rep_data d;

	if (exp_load(&d, dir, NULL, 0, err, ERRLEN) < 0)
		return true;
	merge_release(&d);
	return false;
}

static void test_errors(const char *exp)
{
	char err[ERRLEN], dir[512], path[1024];

	snprintf(dir, sizeof(dir), "%s/missing", tmpdir);
	ok(load_fails(dir, err) && strstr(err, dir), "missing dir: error names it");
	snprintf(dir, sizeof(dir), "%s/empty", tmpdir);
	mkdir(dir, 0755);
	ok(load_fails(dir, err) && strstr(err, "no profiles"),
	   "empty dir: no profiles");
	snprintf(path, sizeof(path), "%s/app.100" PROFILE_SUFFIX, exp);
	ok(load_fails(path, err) && strstr(err, "not a directory"),
	   "a file is not a directory");

	/* A temporary file of the writer is skipped. */
	snprintf(dir, sizeof(dir), "%s/withtmp", tmpdir);
	sh("mkdir -p '%s' && cp '%s'/app.100.cpprof '%s'/ && echo junk > '%s'/.app.300.cpprof.tmp",
	   dir, exp, dir, dir);
	sh("echo junk > '%s/.hidden%s'", dir, PROFILE_SUFFIX);
	ok(!load_fails(dir, err), "temporary files are skipped");

	/* Truncated: half of a valid file. */
	snprintf(dir, sizeof(dir), "%s/trunc", tmpdir);
	sh("mkdir -p '%s' && cp '%s'/*.cpprof '%s'/", dir, exp, dir);
	snprintf(path, sizeof(path), "%s/app.200" PROFILE_SUFFIX, dir);
	struct stat st;

	if (stat(path, &st) == 0 && truncate(path, st.st_size / 2) == 0)
		ok(load_fails(dir, err) && strstr(err, path),
		   "truncated profile: error names the file");
	else
		ok(0, "truncate a copy");
	printf("# %s\n", err);

	/* Different events. */
	struct profile p;

	snprintf(dir, sizeof(dir), "%s/events", tmpdir);
	sh("mkdir -p '%s' && cp '%s'/app.100.cpprof '%s'/", dir, exp, dir);
	make_proc1(&p);
	p.pid = 300;	/* another process of the same run */
	free(p.events[1].name);
	p.events[1].name = xstrdup("task-clock");
	if (profile_write(&p, dir, "app.300" PROFILE_SUFFIX, err, sizeof(err)) < 0)
		printf("# %s\n", err);
	profile_release(&p);
	ok(load_fails(dir, err) && strstr(err, "app.300") &&
	   strstr(err, "task-clock"), "different event lists: error names file and events");
	printf("# %s\n", err);
}

/* Ranks that disagree on the job size, or a rank twice, are refused. */
static void test_mpi_errors(const char *mpi)
{
	char dir[512], err[ERRLEN];
	struct profile p;
	uint32_t f[3];

	snprintf(dir, sizeof(dir), "%s/mpi-twice", tmpdir);
	sh("mkdir -p '%s' && cp '%s'/b-rank0.cpprof '%s'/", dir, mpi, dir);
	make_rank(&p, 0, 0, f);
	p.pid = 999;	/* another process claiming rank 0 */
	if (profile_write(&p, dir, "c" PROFILE_SUFFIX, err, sizeof(err)) < 0)
		printf("# %s\n", err);
	profile_release(&p);
	ok(load_fails(dir, err) && strstr(err, "c.cpprof") &&
	   strstr(err, "rank 0 appears twice"), "a rank twice: error names file and rank");
	printf("# %s\n", err);
	snprintf(dir, sizeof(dir), "%s/mpi-size", tmpdir);
	sh("mkdir -p '%s' && cp '%s'/b-rank0.cpprof '%s'/", dir, mpi, dir);
	make_rank(&p, 1, 0, f);
	p.size = 3;
	if (profile_write(&p, dir, "c" PROFILE_SUFFIX, err, sizeof(err)) < 0)
		printf("# %s\n", err);
	profile_release(&p);
	ok(load_fails(dir, err) && strstr(err, "c.cpprof") && strstr(err, "size 3") &&
	   strstr(err, "(size 2)"), "ranks disagreeing on the size: error");
	printf("# %s\n", err);
}

static void test_newest(void)
{
	char dir[512], out[1024], err[ERRLEN];

	snprintf(dir, sizeof(dir), "%s/cwd", tmpdir);
	sh("mkdir -p '%s/cpperf-old' '%s/cpperf-new'", dir, dir);
	sh("touch -d '2020-01-01' '%s/cpperf-new' && touch -d '2021-01-01' '%s/cpperf-old'",
	   dir, dir);
	sh("touch '%s/cpperf-newest-file'%s", dir, "");
	ok(exp_find_newest(dir, out, sizeof(out), err, sizeof(err)) == 0 &&
	   strstr(out, "cpperf-old"), "newest experiment by mtime, files ignored");
	snprintf(dir, sizeof(dir), "%s/empty", tmpdir);
	ok(exp_find_newest(dir, out, sizeof(out), err, sizeof(err)) < 0 &&
	   strstr(err, "no experiment directory"), "no experiment: error");
}

static void test_json_escaping(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_write_string(f, "q\"b\\s/\x01\x1f\x7f\n\t\xc3\xa9\xff\xc0\xaf\xed\xa0\x80\xf0\x9f\x98\x80|");
	fclose(f);
	is_str(buf, "\"q\\\"b\\\\s/\\u0001\\u001f\\u007f\\n\\t\xc3\xa9\\ufffd\\ufffd\\ufffd"
	       "\\ufffd\\ufffd\\ufffd\xf0\x9f\x98\x80|\"", "json string escaping");
	free(buf);
}

static void test_committed_data(void)
{
	const char *top = getenv("CPPERF_TOP");
	char dir[1024], err[ERRLEN];
	struct rep_data d;

	snprintf(dir, sizeof(dir), "%s/tests/data/report-exp", top ? top : ".");
	if (!ok(exp_load(&d, dir, NULL, 0, err, sizeof(err)) == 0, "tests/data/report-exp loads")) {
		printf("# %s (regenerate: build/test/test-report --write-data %s)\n", err, dir);
		return;
	}
	check_merged(&d, "committed");
	merge_release(&d);
	snprintf(dir, sizeof(dir), "%s/tests/data/report-mpi", top ? top : ".");
	check_mpi_json(dir, "committed tests/data/report-mpi "
		       "(regenerate: build/test/test-report --write-mpi-data DIR)");
}

int main(int argc, char **argv)
{
	char exp[512], mpi[512], err[ERRLEN];
	struct rep_data d;

	if (argc == 3 && (!strcmp(argv[1], "--write-data") ||
			  !strcmp(argv[1], "--write-mpi-data"))) {
		if ((strcmp(argv[1], "--write-data") ? write_mpi_experiment :
		     write_experiment)(argv[2], err) < 0) {
			fprintf(stderr, "test-report: %s\n", err);
			return 1;
		}
		return 0;
	}
	snprintf(tmpdir, sizeof(tmpdir), "%s/cpperf-report-test.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		return 1;
	snprintf(exp, sizeof(exp), "%s/exp", tmpdir);
	mkdir(exp, 0755);
	if (!ok(write_experiment(exp, err) == 0, "write two profiles"))
		printf("# %s\n", err);
	test_load_and_merge(exp);
	if (exp_load(&d, exp, NULL, 0, err, sizeof(err)) == 0) {
		test_folded(&d);
		test_json(&d);
		test_text(&d);
		merge_release(&d);
	}
	test_errors(exp);
	snprintf(mpi, sizeof(mpi), "%s/mpi", tmpdir);
	mkdir(mpi, 0755);
	if (!ok(write_mpi_experiment(mpi, err) == 0, "write two rank profiles"))
		printf("# %s\n", err);
	check_mpi_json(mpi, "fresh");
	test_mpi_text(mpi);
	test_mpi_errors(mpi);
	test_mpi_top_pairs();
	test_many_ranks();
	test_newest();
	test_json_escaping();
	test_committed_data();
	sh("rm -rf '%s'%s", tmpdir, "");
	return tap_done();
}
