/*
 * test-profile.c - unit tests for the profile format (common/profile*.c):
 * round trips of rich and empty profiles (critical-path records, zeroing,
 * the length series, overhead and compensation included),
 * rejection of every truncation and
 * every single-byte corruption of a valid file, rejection of malformed
 * records one by one, and atomic writing under failure (missing directory,
 * file size limit standing in for a full disk).
 *
 * `test-profile --write-seed DIR` writes the fuzzer's seed profile instead.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "files.h"
#include "tap.h"
#include "make-profile.h"
#include "../../common/crc32.h"
#include "../../common/profile.h"

#define SEED_NAME "rich" PROFILE_SUFFIX

static const char *const rich_argv[] = {
	"./app", "arg with space", "100%", "new\nline", "\xc3\xbcnic\xc3\xb8" "de",
	"-", "", "tab\there", "%2D",
};
#define RICH_ARGC (sizeof(rich_argv) / sizeof(rich_argv[0]))

static void rich_events(struct profile *p)
{
	static const char *const names[] = { "cycles", "instructions", "task clock" };

	p->nevents = 3;
	p->events = calloc(3, sizeof(*p->events));
	for (uint32_t i = 0; i < 3; i++)
		p->events[i].name = xstrdup(names[i]);
	p->events[0].freq = 1000;
	p->events[2].period = 1000000;
	p->events[2].leader = 2;
}

static void rich_symbols(struct profile *p, uint32_t *fr)
{
	struct symtab *st = &p->syms;
	uint32_t libc = symtab_module(st, "/usr/lib/libc.so.6", "0123abcdef");
	uint32_t app = symtab_module(st, "/path with space/app", "");

	fr[0] = symtab_frame(st, app, "main", "/src/app.c", 10);
	fr[1] = symtab_frame(st, app, "_ZN2ns3fooIiEEvT_", "/src/a b.cc", 4294967295u);
	fr[2] = symtab_frame(st, libc, "__libc_start_main", "", 0);
	fr[3] = symtab_frame(st, SYMTAB_NO_MODULE, "[0x1234]", "", 0);
	fr[4] = symtab_frame(st, app, "caf\xc3\xa9%\x01", "-", 7);
}

/* MPI records of the rich profile: sites with and without a call path
 * (same function on two paths, two functions on one), peers at the edges
 * of the range, collectives on two communicator sizes. */
static void rich_mpi(struct profile *p, const uint32_t *fr)
{
	static const char *const fns[] = { "MPI_Send", "MPI_Recv", "MPI_Send", "MPI_Barrier" };
	static const uint32_t nfr[] = { 3, 3, 2, 0 };
	static const char *const colls[] = { "MPI_Allreduce", "MPI_Allreduce", "MPI Bcast%" };

	p->mpi_library = xstrdup("Open MPI v4.1.2, package: Debian");
	p->cpu_ns = 987654321;
	p->mpi_wall_ns = 6000000001;
	p->mpi_cpu_ns = 987654000;
	p->checkpoints = 3;
	p->checkpoint_ns = UINT64_MAX;
	p->run = xstrdup("job 12.0");
	p->partial = xstrdup("signal SIGTERM");
	p->nmpi_sites = 4;
	p->mpi_sites = calloc(4, sizeof(*p->mpi_sites));
	for (uint32_t i = 0; i < 4; i++) {
		struct prof_mpi_site *m = &p->mpi_sites[i];

		m->function = xstrdup(fns[i]);
		m->nframes = nfr[i];
		m->frames = calloc(3, sizeof(uint32_t));
		m->frames[0] = fr[2], m->frames[1] = fr[0], m->frames[2] = fr[1];
		m->calls = 10 + i;
		m->bytes_sent = i == 1 ? 0 : 1000 * i;
		m->bytes_recv = i == 1 ? UINT64_MAX : 0;
		m->time_ns = 5000 + i;
		m->blocked_ns = 100 * i;
		m->hist[i] = 7;
		m->hist[PROF_MPI_HIST - 1] = i;
	}
	p->nmpi_peers = 3;
	p->mpi_peers = calloc(3, sizeof(*p->mpi_peers));
	p->mpi_peers[0] = (struct prof_mpi_peer){ 5, 2, 2000, 0 };
	p->mpi_peers[1] = (struct prof_mpi_peer){ 0, 1, 0, 0 };
	p->mpi_peers[2] = (struct prof_mpi_peer){ INT64_MAX - 1, UINT64_MAX, 1, 0 };
	p->nmpi_colls = 3;
	p->mpi_colls = calloc(3, sizeof(*p->mpi_colls));
	for (uint32_t i = 0; i < 3; i++)
		p->mpi_colls[i] = (struct prof_mpi_coll){ xstrdup(colls[i]), 4 + 4 * (i == 1),
							  i + 1, 8 * i, 300 + i };
}

/* Zeroing and length-series records of the rich profile: started by a
 * merge at the last event it may name, names that need encoding (empty,
 * "-", a hash as the runtime writes it), lengths at 0 and at cp_length_ns,
 * points that repeat a time or a length. */
static void rich_cp_fns(struct profile *p)
{
	static const char *const names[] = {
		"solve", "", "-", "caf\xc3\xa9 %", "#cbf29ce484222325",
	};
	static const uint64_t ns[][2] = {
		{ 5000000000, 0 }, { 0, 5000000000 }, { 1, 2 }, { 4000000000, 1000000000 },
		{ 5000000000, 5000000000 },
	};
	static const struct prof_cp_point points[] = {
		{ 0, 0 }, { 0, 0 }, { 10, 0 }, { 10, 5 }, { 1000000, 5 },
		{ UINT64_MAX, UINT64_MAX },
	};

	p->cp_fn_how = PROF_CP_FN_MERGE;
	p->cp_fn_start = 999;
	p->ncp_fns = 5;
	p->cp_fns = calloc(5, sizeof(*p->cp_fns));
	for (uint32_t i = 0; i < 5; i++)
		p->cp_fns[i] = (struct prof_cp_fn){ xstrdup(names[i]), ns[i][0], ns[i][1] };
	p->ncp_points = 6;
	p->cp_points = malloc(sizeof(points));
	memcpy(p->cp_points, points, sizeof(points));
}

/* Critical-path records of the rich profile: values at the edges of their
 * ranges, cp_seg records out of order (the writer sorts them), several
 * edges for one event. */
static void rich_cp(struct profile *p)
{
	static const struct prof_cp_link links[] = {
		{ 2, 0, 1 }, { 5, INT64_MAX - 1, UINT64_MAX }, { 999, 4, 17 },
	};
	static const struct prof_cp_event evs[] = {
		{ 1, 100, 10, 20 }, { 2, 0, 30, 30 }, { 999, UINT64_MAX, 0, UINT64_MAX },
	};
	static const struct prof_cp_edge edges[] = {
		{ 5, 0, 1 }, { 2, 1, 3 }, { 5, INT64_MAX - 1, UINT64_MAX },
	};
	const uint64_t segs[][5] = {	/* seg, node, counts */
		{ 999, p->tree.nnodes - 1, UINT64_MAX, 0, 5 }, { 1, 3, 0, 2, 0 },
		{ 2, 1, 1, 1, 1 }, { 1, 0, 1, 0, 0 },
	};

	p->cp_events = 1000;
	p->cp_length_ns = 5000000000;
	p->cp_wall_ns = 6000000000;
	p->cp_trace = 1;
	p->ncp_links = 3;
	p->cp_links = malloc(sizeof(links));
	memcpy(p->cp_links, links, sizeof(links));
	p->ncp_evs = 3;
	p->cp_evs = malloc(sizeof(evs));
	memcpy(p->cp_evs, evs, sizeof(evs));
	p->ncp_edges = 3;
	p->cp_edges = malloc(sizeof(edges));
	memcpy(p->cp_edges, edges, sizeof(edges));
	p->ncp_segs = 4;
	p->cp_segs = calloc(4, sizeof(*p->cp_segs));
	for (uint32_t i = 0; i < 4; i++) {
		p->cp_segs[i].seg = segs[i][0];
		p->cp_segs[i].node = (uint32_t)segs[i][1];
		p->cp_segs[i].counts = calloc(3, sizeof(uint64_t));
		memcpy(p->cp_segs[i].counts, &segs[i][2], 3 * sizeof(uint64_t));
	}
	rich_cp_fns(p);
}

/* Overhead and compensation of the rich profile: both products at the
 * edge of overflow, a delay larger than the rank's own overhead (it came
 * from another rank), compensated waiting above the measured (the rank
 * was more delayed than its senders). */
static void rich_comp(struct profile *p)
{
	p->comp_on = 1;
	p->ovh = (struct prof_overhead){
		.samples = UINT64_C(1) << 32, .sample_cost_ns = UINT32_MAX,
		.sample_ns = (UINT64_C(1) << 32) * UINT32_MAX,
		.calls = 3, .call_cost_ns = UINT64_MAX / 3, .wrapper_ns = UINT64_MAX,
		.piggyback_ns = 12345, .drain_ns = 0, .inject_ns = 7,
		.switches = 5, .switch_ns = 10000, .switch_cost_ns = 2000,
		.contention_ns = 4000,
	};
	p->comp_wall_ns = 6000000000;
	p->comp_delay_ns = UINT64_MAX;
	p->comp_wait_ns = 3000000000;
	p->comp_wait_comp_ns = 3500000000;
	p->comp_sample_probes = 40;
	p->comp_sample_probes_busy = 3;
	p->comp_sample_cost_lo_ns = 15000;
	p->comp_sample_cost_hi_ns = 21000;
}

/* A profile using every feature; depth sets the length of one chain. */
static void rich_profile(struct profile *p, int depth)
{
	uint32_t fr[5], path[3];

	profile_init(p);
	p->argc = RICH_ARGC;
	p->argv = calloc(RICH_ARGC, sizeof(char *));
	for (size_t i = 0; i < RICH_ARGC; i++)
		p->argv[i] = xstrdup(rich_argv[i]);
	p->host = xstrdup("node 01.cluster");
	p->pid = INT64_MIN;
	p->rank = 3;
	p->size = INT64_MAX;
	p->start_ns = 1700000000123456789ull;
	p->end_ns = UINT64_MAX;
	p->backend = xstrdup("perf");
	p->call_graph = NULL;	/* written as "" */
	rich_events(p);
	p->samples = 99;
	p->lost = 1;
	p->throttled = 0;
	p->unwind_complete = 90;
	p->unwind_truncated = 9;
	p->unwind_ns = 12345;
	p->drain_cpu_ns = 67890;
	p->nthreads = 2;
	p->threads = calloc(2, sizeof(*p->threads));
	for (uint32_t i = 0; i < 2; i++) {
		p->threads[i].tid = 100 + i;
		p->threads[i].samples = calloc(3, sizeof(uint64_t));
		p->threads[i].samples[i] = 40 + i;
	}
	rich_symbols(p, fr);
	cct_init(&p->tree, 3);
	cct_self(&p->tree, CCT_ROOT)[1] = 5;
	path[0] = fr[2], path[1] = fr[0], path[2] = fr[1];
	cct_self(&p->tree, cct_path(&p->tree, path, 3))[0] = 17;
	path[2] = fr[3];
	cct_self(&p->tree, cct_path(&p->tree, path, 3))[2] = UINT64_MAX;
	for (uint32_t node = CCT_ROOT, i = 0; i < (uint32_t)depth; i++) {
		node = cct_child(&p->tree, node, fr[i % 5]);
		cct_self(&p->tree, node)[i % 3] = i;
	}
	rich_mpi(p, fr);
	rich_cp(p);
	rich_comp(p);
}

#define DIFF(cond, ...) do { if (cond) { snprintf(why, sizeof(why), __VA_ARGS__); return why; } } while (0)

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* The first difference between the critical-path records of a and b, or
 * NULL.  cp_seg records are compared as a set: the writer sorts them. */
static const char *cp_diff(const struct profile *a, const struct profile *b, char *why,
			   size_t n)
{
	if (a->cp_events != b->cp_events || a->cp_length_ns != b->cp_length_ns ||
	    a->cp_wall_ns != b->cp_wall_ns || a->cp_trace != b->cp_trace ||
	    a->cp_fn_how != b->cp_fn_how || a->cp_fn_start != b->cp_fn_start)
		return "cp scalars";
	if (a->ncp_links != b->ncp_links || a->ncp_segs != b->ncp_segs ||
	    a->ncp_evs != b->ncp_evs || a->ncp_edges != b->ncp_edges ||
	    a->ncp_fns != b->ncp_fns || a->ncp_points != b->ncp_points)
		return "number of cp records";
	for (uint32_t i = 0; i < a->ncp_fns; i++)
		if (strcmp(nz(a->cp_fns[i].name), b->cp_fns[i].name) ||
		    a->cp_fns[i].net_ns != b->cp_fns[i].net_ns ||
		    a->cp_fns[i].share_ns != b->cp_fns[i].share_ns) {
			snprintf(why, n, "cp_fn %u", i);
			return why;
		}
	if (a->ncp_points && memcmp(a->cp_points, b->cp_points,
				    a->ncp_points * sizeof(*a->cp_points)))
		return "cp_point records";
	if (a->ncp_links && memcmp(a->cp_links, b->cp_links, a->ncp_links * sizeof(*a->cp_links)))
		return "cp_link records";
	if (a->ncp_evs && memcmp(a->cp_evs, b->cp_evs, a->ncp_evs * sizeof(*a->cp_evs)))
		return "cp_ev records";
	if (a->ncp_edges && memcmp(a->cp_edges, b->cp_edges, a->ncp_edges * sizeof(*a->cp_edges)))
		return "cp_edge records";
	for (uint32_t i = 0; i < a->ncp_segs; i++) {
		const struct prof_cp_seg *x = &a->cp_segs[i];
		uint32_t k = 0;

		while (k < b->ncp_segs && (b->cp_segs[k].seg != x->seg ||
					   b->cp_segs[k].node != x->node))
			k++;
		if (k == b->ncp_segs || memcmp(x->counts, b->cp_segs[k].counts,
					       a->nevents * sizeof(uint64_t))) {
			snprintf(why, n, "cp_seg %u", i);
			return why;
		}
	}
	return NULL;
}

/* Describe the first difference between a and b, or return "". */
static const char *profile_diff(const struct profile *a, const struct profile *b)
{
	static char why[160], cpwhy[80];
	const char *cpd;

	DIFF(a->argc != b->argc, "argc %u vs %u", a->argc, b->argc);
	for (uint32_t i = 0; i < a->argc; i++)
		DIFF(strcmp(nz(a->argv[i]), b->argv[i]), "argv[%u]", i);
	DIFF(strcmp(nz(a->host), b->host) || strcmp(nz(a->backend), b->backend) ||
	     strcmp(nz(a->call_graph), b->call_graph), "host/backend/call_graph");
	DIFF(a->pid != b->pid || a->rank != b->rank || a->size != b->size, "pid/rank/size");
	DIFF(a->start_ns != b->start_ns || a->end_ns != b->end_ns, "times");
	DIFF(a->samples != b->samples || a->lost != b->lost || a->throttled != b->throttled ||
	     a->unwind_complete != b->unwind_complete ||
	     a->unwind_truncated != b->unwind_truncated || a->unwind_ns != b->unwind_ns ||
	     a->drain_cpu_ns != b->drain_cpu_ns, "counters");
	DIFF(a->nevents != b->nevents, "nevents");
	for (uint32_t i = 0; i < a->nevents; i++)
		DIFF(strcmp(a->events[i].name, b->events[i].name) ||
		     a->events[i].period != b->events[i].period ||
		     a->events[i].freq != b->events[i].freq ||
		     a->events[i].leader != b->events[i].leader, "event %u", i);
	DIFF(a->nthreads != b->nthreads, "nthreads");
	for (uint32_t i = 0; i < a->nthreads; i++)
		DIFF(a->threads[i].tid != b->threads[i].tid ||
		     memcmp(a->threads[i].samples, b->threads[i].samples,
			    a->nevents * sizeof(uint64_t)), "thread %u", i);
	DIFF(a->syms.nmodules != b->syms.nmodules, "nmodules");
	for (uint32_t i = 0; i < a->syms.nmodules; i++)
		DIFF(strcmp(a->syms.modules[i].path, b->syms.modules[i].path) ||
		     strcmp(a->syms.modules[i].build_id, b->syms.modules[i].build_id),
		     "module %u", i);
	DIFF(a->syms.nframes != b->syms.nframes, "nframes");
	for (uint32_t i = 0; i < a->syms.nframes; i++) {
		const struct sym_frame *x = &a->syms.frames[i], *y = &b->syms.frames[i];

		DIFF(x->module != y->module || x->line != y->line ||
		     strcmp(x->function, y->function) || strcmp(x->file, y->file),
		     "frame %u", i);
	}
	DIFF(a->tree.nnodes != b->tree.nnodes, "nnodes %u vs %u", a->tree.nnodes,
	     b->tree.nnodes);
	DIFF(strcmp(nz(a->mpi_library), b->mpi_library) || a->cpu_ns != b->cpu_ns,
	     "mpi_library/cpu_ns");
	DIFF(strcmp(nz(a->run), b->run) || strcmp(nz(a->partial), b->partial), "run/partial");
	DIFF(a->mpi_wall_ns != b->mpi_wall_ns || a->mpi_cpu_ns != b->mpi_cpu_ns ||
	     a->checkpoints != b->checkpoints || a->checkpoint_ns != b->checkpoint_ns,
	     "MPI region/checkpoints");
	DIFF(a->nmpi_sites != b->nmpi_sites || a->nmpi_peers != b->nmpi_peers ||
	     a->nmpi_colls != b->nmpi_colls, "number of MPI records");
	for (uint32_t i = 0; i < a->nmpi_sites; i++) {
		const struct prof_mpi_site *x = &a->mpi_sites[i], *y = &b->mpi_sites[i];

		DIFF(strcmp(x->function, y->function) || x->nframes != y->nframes ||
		     memcmp(x->frames, y->frames, x->nframes * sizeof(uint32_t)) ||
		     x->calls != y->calls || x->bytes_sent != y->bytes_sent ||
		     x->bytes_recv != y->bytes_recv || x->time_ns != y->time_ns ||
		     x->blocked_ns != y->blocked_ns || memcmp(x->hist, y->hist, sizeof(x->hist)),
		     "mpi site %u", i);
	}
	for (uint32_t i = 0; i < a->nmpi_peers; i++)
		DIFF(memcmp(&a->mpi_peers[i], &b->mpi_peers[i], sizeof(a->mpi_peers[i])),
		     "mpi peer %u", i);
	for (uint32_t i = 0; i < a->nmpi_colls; i++) {
		const struct prof_mpi_coll *x = &a->mpi_colls[i], *y = &b->mpi_colls[i];

		DIFF(strcmp(x->function, y->function) || x->comm_size != y->comm_size ||
		     x->calls != y->calls || x->bytes != y->bytes || x->time_ns != y->time_ns,
		     "mpi coll %u", i);
	}
	cpd = cp_diff(a, b, cpwhy, sizeof(cpwhy));
	DIFF(cpd, "%s", cpd);
	DIFF(a->comp_on != b->comp_on || memcmp(&a->ovh, &b->ovh, sizeof(a->ovh)) ||
	     a->comp_wall_ns != b->comp_wall_ns || a->comp_delay_ns != b->comp_delay_ns ||
	     a->comp_wait_ns != b->comp_wait_ns || a->comp_wait_comp_ns != b->comp_wait_comp_ns,
	     "overhead and compensation scalars");
	for (uint32_t i = 0; i < a->tree.nnodes; i++)
		DIFF(a->tree.parent[i] != b->tree.parent[i] ||
		     a->tree.frame[i] != b->tree.frame[i] ||
		     memcmp(cct_self(&a->tree, i), cct_self(&b->tree, i),
			    a->nevents * sizeof(uint64_t)), "node %u", i);
	return "";
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
		buf[n] = '\0';
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static long stat_size(const char *dir, const char *name)
{
	char path[512];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &sb) ? -1 : (long)sb.st_size;
}

/* Number of entries in dir other than . and .. (-1 when unreadable). */
static int dir_entries(const char *dir)
{
	return dir_count(dir, "");
}

static void empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
}

/* Write p into dir and return the bytes of the file (NULL on failure). */
static char *serialise(const struct profile *p, const char *dir, size_t *len)
{
	char err[512], path[512];

	if (profile_write(p, dir, "p" PROFILE_SUFFIX, err, sizeof(err))) {
		printf("# %s\n", err);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/p" PROFILE_SUFFIX, dir);
	return read_all(path, len);
}

/* Append a correct trailer to body (a NUL-terminated string). */
static char *seal(const char *body, size_t *len)
{
	size_t n = strlen(body);
	char *buf = malloc(n + 64);

	memcpy(buf, body, n);
	*len = n + (size_t)sprintf(buf + n, "end %zu %08x\n", n, crc32_update(0, body, n));
	return buf;
}

static void test_round_trip(const char *dir)
{
	static const char want[] = "cpperf-profile 9\nargv ./app\n"
		"argv arg%20with%20space\nargv 100%25\nargv new%0Aline\n"
		"argv %C3%BCnic%C3%B8de\nargv %2D\nargv -\nargv tab%09here\n"
		"argv %252D\nhost node%2001.cluster\n";
	struct profile a, b;
	char err[512], path[512];
	size_t len = 0;
	char *buf;

	rich_profile(&a, 10000);	/* > 64 KiB: several buffer flushes */
	is_int(profile_write(&a, dir, "rich" PROFILE_SUFFIX, err, sizeof(err)), 0,
	       "write a rich profile");
	is_int(dir_entries(dir), 1, "exactly one file left (no temporary)");
	ok(stat_size(dir, "rich" PROFILE_SUFFIX) > 3 * 65536, "file spans several buffers");
	snprintf(path, sizeof(path), "%s/rich" PROFILE_SUFFIX, dir);
	profile_init(&b);
	if (!ok(profile_read(&b, path, err, sizeof(err)) == 0, "read it back"))
		printf("# %s\n", err);
	is_str(profile_diff(&a, &b), "", "read back equals written");
	buf = read_all(path, &len);
	ok(buf && !strncmp(buf, want, strlen(want)),
	   "strings are percent-encoded, '-' and \"\" distinguished");
	ok(buf && strstr(buf, "\nframe 3 - [0x1234] - 0\n"), "frame without module");
	ok(buf && strstr(buf, "\nnode 1 0 2 0 0 0\n"), "node record: id parent frame counts");
	ok(buf && strstr(buf, "\nroot 0 5 0\n"), "root record holds the root's counts");
	ok(buf && strstr(buf, "\nmpi_library Open%20MPI%20v4.1.2,%20package:%20Debian\n"),
	   "mpi_library record");
	ok(buf && strstr(buf, "\nmpi_site 2 MPI_Send 2 2 0 12 2000 0 5002 200 0 0 7 0"),
	   "mpi_site record: index function nframes frames totals histogram");
	ok(buf && strstr(buf, "\nmpi_peer 9223372036854775806 18446744073709551615 1\n"
			 "mpi_coll MPI_Allreduce 4 1 0 300\n"), "mpi_peer and mpi_coll records");
	ok(buf && strstr(buf, "\nmpi_library Open%20MPI%20v4.1.2,%20package:%20Debian\n"
			 "run job%2012.0\npartial signal%20SIGTERM\nevent 0 "),
	   "run and partial records after mpi_library");
	ok(buf && strstr(buf, "\ncpu_ns 987654321\nmpi_wall_ns 6000000001\nmpi_cpu_ns 987654000\n"
			 "checkpoints 3\ncheckpoint_ns 18446744073709551615\n"
			 "cp_events 1000\ncp_length_ns 5000000000\n"
			 "cp_wall_ns 6000000000\ncp_trace 1\ncp_budget 0\ncp_cut 0\ncp_fn_how 3\ncp_fn_start 999\n"
			 "comp_on 1\n"), "MPI region, checkpoint and critical-path scalars after cpu_ns");
	ok(buf && strstr(buf, "\ncp_fn_start 999\ncomp_on 1\novh_samples 4294967296\n"
			 "ovh_sample_ns 18446744069414584320\novh_sample_cost_ns 4294967295\n"
			 "ovh_calls 3\novh_wrapper_ns 18446744073709551615\n"
			 "ovh_call_cost_ns 6148914691236517205\novh_piggyback_ns 12345\n"
			 "ovh_drain_ns 0\novh_inject_ns 7\novh_switches 5\novh_switch_ns 10000\n"
			 "ovh_switch_cost_ns 2000\novh_contention_ns 4000\ncomp_wall_ns 6000000000\n"
			 "comp_delay_ns 18446744073709551615\ncomp_wait_ns 3000000000\n"
			 "comp_wait_comp_ns 3500000000\ncomp_sample_probes 40\n"
			 "comp_sample_probes_busy 3\ncomp_sample_cost_lo_ns 15000\n"
			 "comp_sample_cost_hi_ns 21000\nmodule 0 "),
	   "overhead and compensation scalars after the critical-path ones");
	ok(buf && strstr(buf, "\nmpi_coll MPI%20Bcast%25 4 3 16 302\n"
			 "cp_link 2 0 1\ncp_link 5 9223372036854775806 18446744073709551615\n"
			 "cp_link 999 4 17\ncp_seg 1 0 1 0 0\ncp_seg 1 3 0 2 0\ncp_seg 2 1 1 1 1\n"
			 "cp_seg 999 "), "cp_link records, then cp_seg sorted by segment and node");
	ok(buf && strstr(buf, " 18446744073709551615 0 5\ncp_ev 1 100 10 20\ncp_ev 2 0 30 30\n"
			 "cp_ev 999 18446744073709551615 0 18446744073709551615\n"
			 "cp_edge 5 0 1\ncp_edge 2 1 3\n"
			 "cp_edge 5 9223372036854775806 18446744073709551615\ncp_fn "),
	   "cp_ev and cp_edge records, in the profile's order");
	ok(buf && strstr(buf, "\ncp_edge 5 9223372036854775806 18446744073709551615\n"
			 "cp_fn 0 solve 5000000000 0\ncp_fn 1 - 0 5000000000\ncp_fn 2 %2D 1 2\n"
			 "cp_fn 3 caf%C3%A9%20%25 4000000000 1000000000\n"
			 "cp_fn 4 #cbf29ce484222325 5000000000 5000000000\n"
			 "cp_point 0 0\ncp_point 0 0\ncp_point 10 0\ncp_point 10 5\n"
			 "cp_point 1000000 5\ncp_point 18446744073709551615 18446744073709551615\n"
			 "end "), "cp_fn records (index, encoded name), then cp_point records, last");
	free(buf);
	profile_release(&b);
	is_int(b.nevents + b.argc + b.tree.nnodes + b.ncp_fns + b.ncp_points, 0,
	       "release empties the profile");
	ok(!b.cp_fns && !b.cp_points && !b.cp_fn_how, "release clears the zeroing data");
	profile_release(&a);
	empty_dir(dir);
}

static void test_empty(const char *dir)
{
	struct profile a, b;
	char err[512];
	size_t len = 0;
	char *buf;

	profile_init(&a);
	buf = serialise(&a, dir, &len);
	profile_init(&b);
	ok(buf != NULL, "write an empty profile");
	if (!ok(buf && profile_parse(&b, buf, len, err, sizeof(err)) == 0,
		"parse an empty profile"))
		printf("# %s\n", err);
	is_int(b.tree.nnodes, 1, "empty profile reads back with a root only");
	is_int(b.rank, -1, "default rank -1 kept");
	is_int(b.nevents + b.argc + b.nthreads + b.syms.nframes, 0, "nothing else");
	ok(b.mpi_library && !*b.mpi_library && b.cpu_ns == 0 &&
	   b.nmpi_sites + b.nmpi_peers + b.nmpi_colls == 0, "no MPI data");
	ok(buf && strstr(buf, "\nmpi_library -\nrun -\npartial -\n") &&
	   strstr(buf, "\ncpu_ns 0\nmpi_wall_ns 0\nmpi_cpu_ns 0\ncheckpoints 0\ncheckpoint_ns 0\n"),
	   "MPI, run and checkpoint scalars written for a non-MPI profile");
	ok(b.run && !*b.run && b.partial && !*b.partial, "no run, not partial: read back empty");
	ok(buf && strstr(buf, "\ncp_events 0\ncp_length_ns 0\ncp_wall_ns 0\ncp_trace 0\ncp_budget 0\ncp_cut 0\n"
			 "cp_fn_how 0\ncp_fn_start 0\n") &&
	   !strstr(buf, "\ncp_link") && !strstr(buf, "\ncp_seg") && !strstr(buf, "\ncp_fn ") &&
	   !strstr(buf, "\ncp_point"),
	   "critical-path scalars written, no critical-path records");
	ok(b.cp_events + b.ncp_links + b.ncp_segs + b.ncp_evs + b.ncp_edges + b.cp_fn_how +
	   b.cp_fn_start + b.ncp_fns + b.ncp_points == 0, "no critical-path data");
	ok(buf && strstr(buf, "\ncp_fn_start 0\ncomp_on 0\novh_samples 0\novh_sample_ns 0\n"
			 "ovh_sample_cost_ns 0\novh_calls 0\novh_wrapper_ns 0\n"
			 "ovh_call_cost_ns 0\novh_piggyback_ns 0\novh_drain_ns 0\n"
			 "ovh_inject_ns 0\novh_switches 0\novh_switch_ns 0\n"
			 "ovh_switch_cost_ns 0\novh_contention_ns 0\ncomp_wall_ns 0\ncomp_delay_ns 0\n"
			 "comp_wait_ns 0\n"
			 "comp_wait_comp_ns 0\n"),
	   "overhead and compensation scalars written, all 0");
	ok(!b.comp_on && !memcmp(&b.ovh, &(struct prof_overhead){ 0 }, sizeof(b.ovh)) &&
	   b.comp_wall_ns + b.comp_delay_ns + b.comp_wait_ns + b.comp_wait_comp_ns == 0,
	   "no overhead or compensation data");
	profile_release(&b);
	free(buf);
	empty_dir(dir);
}

/* Every proper prefix of a valid file must be refused, with a message. */
static void test_truncations(const char *dir)
{
	struct profile a, b;
	char err[512];
	size_t len = 0, bad = 0, silent = 0;
	char *buf;

	rich_profile(&a, 20);
	buf = serialise(&a, dir, &len);
	profile_release(&a);
	ok(buf && len > 1000 && strstr(buf, "\nmpi_coll ") && strstr(buf, "\ncp_edge ") &&
	   strstr(buf, "\ncp_fn ") && strstr(buf, "\ncp_point "),
	   "rich profile serialised, MPI and critical-path records last");
	for (size_t n = 0; buf && n < len; n++) {
		char *copy = malloc(n ? n : 1);	/* exact size: ASan sees overreads */

		memcpy(copy, buf, n);
		profile_init(&b);
		err[0] = '\0';
		if (profile_parse(&b, copy, n, err, sizeof(err)) == 0)
			bad++;
		silent += err[0] == '\0';
		profile_release(&b);
		free(copy);
	}
	is_int(bad, 0, "every truncation is refused");
	is_int(silent, 0, "every refusal says why");
	profile_init(&b);
	is_int(buf ? profile_parse(&b, buf, len, err, sizeof(err)) : -1, 0, "whole file accepted");
	profile_release(&b);
	free(buf);
	empty_dir(dir);
}

/* Every single-byte change of a valid file must be refused. */
static void test_corruptions(const char *dir)
{
	static const unsigned char flips[] = { 0x01, 0x20, 0x80, 0xff };
	struct profile a, b;
	char err[512];
	size_t len = 0, bad = 0;
	char *buf;

	rich_profile(&a, 10);
	buf = serialise(&a, dir, &len);
	profile_release(&a);
	for (size_t i = 0; buf && i < len; i++)
		for (size_t k = 0; k < sizeof(flips); k++) {
			buf[i] ^= (char)flips[k];
			profile_init(&b);
			if (profile_parse(&b, buf, len, err, sizeof(err)) == 0)
				bad++;
			profile_release(&b);
			buf[i] ^= (char)flips[k];
		}
	ok(buf != NULL, "profile for corruption serialised");
	is_int(bad, 0, "every single-byte corruption is refused");
	free(buf);
	empty_dir(dir);
}

#define HRSV(version, rank, size) "cpperf-profile " version "\nhost h\npid 1\nrank " rank \
	"\nsize " size "\nstart_ns 0\nend_ns 0\nbackend perf\ncall_graph fp\nmpi_library -\nrun r\n" \
	"partial -\n"
#define HRS(rank, size) HRSV("7", rank, size)
#define HD(size) HRS("-1", size)
#define H HD("0")
#define E "event 0 cycles 0 1000 0\n"
#define C0 "samples 0\nlost 0\nthrottled 0\nunwind_complete 0\nunwind_truncated 0\nunwind_ns 0\ndrain_cpu_ns 0\ncpu_ns 0\n" \
	"mpi_wall_ns 0\nmpi_cpu_ns 0\ncheckpoints 0\ncheckpoint_ns 0\n"
#define FN0 "cp_fn_how 0\ncp_fn_start 0\n"
#define CPS0 "cp_events 0\ncp_length_ns 0\ncp_wall_ns 0\ncp_trace 0\ncp_budget 0\ncp_cut 0\n" FN0
/* The ovh_ scalars, in the writer's order (OVHW without waits for a CPU,
 * OVH without context switches either), then with comp_on and the other
 * comp_ scalars. */
#define OVHC(samples, sample_ns, sample_cost, calls, wrapper_ns, call_cost, pb, drain, inject, \
	     switches, switch_ns, switch_cost, contention) \
	"ovh_samples " samples "\novh_sample_ns " sample_ns "\novh_sample_cost_ns " sample_cost \
	"\novh_calls " calls "\novh_wrapper_ns " wrapper_ns "\novh_call_cost_ns " call_cost \
	"\novh_piggyback_ns " pb "\novh_drain_ns " drain "\novh_inject_ns " inject \
	"\novh_switches " switches "\novh_switch_ns " switch_ns "\novh_switch_cost_ns " switch_cost \
	"\novh_contention_ns " contention "\n"
#define OVHW(samples, sample_ns, sample_cost, calls, wrapper_ns, call_cost, pb, drain, inject, \
	     switches, switch_ns, switch_cost) \
	OVHC(samples, sample_ns, sample_cost, calls, wrapper_ns, call_cost, pb, drain, inject, \
	     switches, switch_ns, switch_cost, "0")
#define OVH(samples, sample_ns, sample_cost, calls, wrapper_ns, call_cost, pb, drain, inject) \
	OVHW(samples, sample_ns, sample_cost, calls, wrapper_ns, call_cost, pb, drain, inject, \
	     "0", "0", "0")
#define OVH0 OVH("0", "0", "0", "0", "0", "0", "0", "0", "0")
#define COMPS(on, ovh, wall, delay, wait, waitc) "comp_on " on "\n" ovh "comp_wall_ns " wall \
	"\ncomp_delay_ns " delay "\ncomp_wait_ns " wait "\ncomp_wait_comp_ns " waitc "\n"
#define COMP0 COMPS("0", OVH0, "0", "0", "0", "0")
/* A rank's own overhead of 30 + 10 + 7 + 8 + 9 + 6 + 11 = 81 ns. */
#define OVH1 OVHC("3", "30", "10", "2", "10", "5", "7", "8", "9", "2", "6", "3", "11")
#define C C0 CPS0 COMP0
/* Counters with a critical path of events events and length 7, traced or
 * not, zeroing started as how says at event start. */
#define CPZ(events, trace, how, start) C0 "cp_events " events "\ncp_length_ns 7\n" \
	"cp_wall_ns 9\ncp_trace " trace "\ncp_budget 0\ncp_cut 0\ncp_fn_how " how "\ncp_fn_start " start "\n" COMP0
#define CP(events, trace) CPZ(events, trace, "0", "0")
/* A 4-rank job with a critical path of 10 events (the tree has nodes 0-2). */
#define CPH(trace) HD("4") E CP("10", trace) S T
/* The same, untraced, with zeroing started as how says at event start. */
#define CPF(how, start) HD("4") E CPZ("10", "0", how, start) S T
/* Rank rank of a 4-rank job without a critical path, with the overhead and
 * compensation scalars comp (the file ends on line 50). */
#define CMP(rank, comp) HRS(rank, "4") E C0 CPS0 comp S T
/* The same in version 9, whose comp_ scalars end with those of a sample's
 * cost measured along the run. */
#define CMP9(rank, comp) HRSV("9", rank, "4") E C0 CPS0 comp S T
#define PROBES(kept, busy, lo, hi) "comp_sample_probes " kept "\ncomp_sample_probes_busy " busy \
	"\ncomp_sample_cost_lo_ns " lo "\ncomp_sample_cost_hi_ns " hi "\n"
/* A cp_fn record: index, name, net and share length. */
#define FN(i, name, net, share) "cp_fn " i " " name " " net " " share "\n"
/* Version 10: the fold-point scalars, and a 4-rank job with a critical
 * path of 10 events and length 7, traced or not, cut as cut says, with
 * them. */
#define FOLD(folds, event, ns, grank, gevent) "cp_folds " folds "\ncp_fold_event " event \
	"\ncp_fold_ns " ns "\ncp_gap_rank " grank "\ncp_gap_event " gevent "\n"
#define CPV10(trace, cut, fold) HRSV("10", "-1", "4") E C0 "cp_events 10\ncp_length_ns 7\n" \
	"cp_wall_ns 9\ncp_trace " #trace "\ncp_budget 0\n" cut FN0 fold COMP0 \
	PROBES("0", "0", "0", "0") S T
#define CPV(fold) CPV10(0, "cp_cut 0\n", fold)
#define S "module 0 /a -\nframe 0 0 f - 0\nframe 1 - g - 0\n"
#define T "thread 7 3\nroot 0\nnode 1 0 0 2\nnode 2 1 1 1\n"
#define Z4 " 0 0 0 0"
#define HIST Z4 Z4 Z4 Z4 Z4 Z4 Z4 Z4	/* PROF_MPI_HIST empty buckets */
/* An MPI_Send site with its index and "nframes frame..." */
#define SITE(i, frames) "mpi_site " i " MPI_Send " frames " 1 8 0 5 1" HIST "\n"

static const struct {
	const char *body;	/* sealed with a correct trailer */
	const char *want;	/* NULL: accepted; else a piece of the error */
} cases[] = {
	{ H E C S T, NULL },
	{ H "x-future anything  at all \n" E C S "x-more\n" T, NULL },
	{ H "argv a\n" E "event 1 x 5 0 2\n" C S T, "line 15: leader 2 out of range" },
	{ H E "event 1 x 5 0 0\n" C S "thread 1 2 3\nroot 0 0\n", NULL },
	{ "cpperf-profile 7\nhost h\npid -9223372036854775808\nrank -1\nsize 0\n"
	  "start_ns 18446744073709551615\nend_ns 0\nbackend perf\ncall_graph fp\n"
	  "mpi_library -\nrun r\npartial -\n" E C S T, NULL },
	{ "cpperf-profilX 1\n" E, "not a cpperf profile" },
	{ "cpperf-profile 2\n" E C S T, "unsupported format version '2' (this cpperf reads versions 7 to 13)" },
	{ "cpperf-profile 3\n" E C S T, "unsupported format version '3' (this cpperf reads versions 7 to 13)" },
	{ "cpperf-profile 4\n" E C S T, "unsupported format version '4' (this cpperf reads versions 7 to 13)" },
	{ "cpperf-profile 5\n" E C S T, "unsupported format version '5' (this cpperf reads versions 7 to 13)" },
	{ "cpperf-profile 01\n" E, "unsupported format version" },
	{ H "frobnicate 1\n" E C S T, "line 13: unknown record 'frobnicate'" },
	{ H "x-\n" E C S T, "unknown record 'x-'" },
	{ H "host h2\n" E C S T, "second 'host'" },
	{ "cpperf-profile 7\npid 1\nrank -1\nsize 0\nstart_ns 0\nend_ns 0\n"
	  "backend perf\ncall_graph fp\nmpi_library -\nrun r\npartial -\n" E C S T, "no 'host' record" },
	{ HD("4") E C S T "mpi_site 0 MPI_Send 2 0 1 3 300 0 50 10" HIST "\n"
	  "mpi_site 1 MPI_Send 1 0 1 0 0 0 0" HIST "\nmpi_site 2 MPI_Recv 2 0 1 1 0 8 9 9" HIST
	  "\nmpi_site 3 - 0 0 0 0 0 0" HIST "\nmpi_peer 3 1 8\nmpi_peer 0 2 0\n"
	  "mpi_coll MPI_Bcast 4 1 8 100\nmpi_coll MPI_Bcast 2 1 8 100\n"
	  "mpi_coll MPI_Reduce 4 1 8 100\n", NULL },
	{ H E C S T SITE("1", "1 0"), "mpi_site index 1, expected 0" },
	{ H E C S T SITE("0", "1 2"), "call-path frame 2 out of range" },
	{ H E C S T SITE("0", "99 0"), "nframes 99 exceeds the fields" },
	{ H E C S T SITE("0", "1 0") SITE("1", "1 0"), "line 60: duplicate of mpi_site 0" },
	{ H E C S T "mpi_site 0 f 1 0 1 2 3 4 5" HIST " 6\n", "extra field '6'" },
	{ H E C S T "mpi_site 0 f 1 0 1 2 3 4" HIST "\n", "missing field: histogram bucket" },
	{ H E C S T "mpi_site 0 f 1 0 1 2 3 4 " HIST "\n", "empty field" },
	{ H E C S T "mpi_peer 1 1 1\nmpi_peer 1 2 2\n", "duplicate of mpi_peer 0 (same peer)" },
	{ HD("4") E C S T "mpi_peer 4 1 1\n", "peer 4 is not a rank of this job (size 4)" },
	{ H E C S T "mpi_peer -1 1 1\n", "peer -1 is not a rank" },
	{ H E C S T "mpi_peer 1 1\n", "missing field: bytes" },
	{ H E C S T "mpi_coll MPI_Bcast 4 1 8 100\nmpi_coll MPI_Bcast 4 2 9 1\n",
	  "duplicate of mpi_coll 0 (same function and communicator size)" },
	{ H E C S T "mpi_coll MPI_Bcast 4 1 8\n", "missing field: collective total" },
	{ H E C S T "mpi_coll MPI_Bcast x 1 8 1\n", "comm_size: 'x' is not a decimal" },
	{ H E C S T "mpi_peer 1 1 1\n" SITE("0", "0"), "'mpi_site' record after mpi_peer" },
	{ H E C S "root 0\n" SITE("0", "0") "node 1 0 0 2\n", "'node' record after mpi_site" },
	{ H E C S T "mpi_coll f 1 1 1 1\nmpi_peer 1 1 1\n", "'mpi_peer' record after mpi_coll" },
	{ HD("0") E "samples 0\nlost 0\nthrottled 0\nunwind_complete 0\nunwind_truncated 0\n"
	  "unwind_ns 0\ndrain_cpu_ns 0\n" S T, "no 'cpu_ns' record" },
	{ "cpperf-profile 7\nhost h\npid 1\nrank -1\nsize 0\nstart_ns 0\nend_ns 0\n"
	  "backend perf\ncall_graph fp\nrun r\npartial -\n" E C S T, "no 'mpi_library' record" },
	{ H E C S "thread 7 3\n", "no 'root' record" },
	{ H "event 0 cycles 0 1000 1\n" C S T, "leader 1 out of range" },
	{ H E "event 1 i 0 0 0\nevent 2 x 0 0 1\n" C S T, "leader 1 is itself a member" },
	{ H "event 1 cycles 0 1000 0\n" C S T, "event index 1, expected 0" },
	{ H E C "module 0 /a -\nframe 0 1 f - 0\n" T, "module 1 out of range" },
	{ H E C "module 0 /a -\nmodule 1 /a -\n", "duplicate of module 0" },
	{ H E C S "frame 2 0 f - 0\n" T, "duplicate of frame 0" },
	{ H E C S "frame 2 0 f - 4294967296\n" T, "too large" },
	{ H E C S "root 0\nnode 1 1 0 2\n", "parent 1 out of range" },
	{ H E C S "root 0\nnode 1 0 2 2\n", "frame 2 out of range" },
	{ H E C S "root 0\nnode 1 0 0\n", "missing field: count" },
	{ H E C S "root 0\nnode 1 0 0 2 3\n", "more counts than the 1 events" },
	{ H E C S "root 0\nnode 2 0 0 2\n", "node index 2, expected 1" },
	{ H E C S "thread 7\n" T, "missing field: count" },
	{ H E C S "root 0\nnode 1 0 0 2\nnode 2 0 0 1\n", "duplicate of node 1" },
	{ H E C S "thread 7 3\nnode 1 0 0 2\n", "'node' record before the 'root'" },
	{ H E C S "root 0\nroot 0\n", "second 'root'" },
	{ H E C S T "root 0\n", "'root' record after node records" },
	{ H "module 0 /a -\n" E C S T, "'event' record after module records" },
	{ H E C S T "host x\n", "'host' record after node records" },
	{ H "\n" E C S T, "missing field: record key" },
	{ H "argv %2d\n" E C S T, "bad %-escape" },
	{ H "argv %41\n" E C S T, "needless %-escape" },
	{ H "argv %00\n" E C S T, "encoded NUL" },
	{ H "argv a%4\n" E C S T, "truncated %-escape" },
	{ H "argv a\tb\n" E C S T, "byte 0x09 not allowed" },
	{ H "argv a\r\n" E C S T, "byte 0x0d not allowed" },
	{ H "argv \xc3\xa9\n" E C S T, "byte 0xc3 not allowed" },
	{ H "argv \x7f\n" E C S T, "byte 0x7f not allowed" },
	{ H "argv a \n" E C S T, "trailing space" },
	{ H "argv  a\n" E C S T, "empty field" },
	{ H "argv\n" E C S T, "missing field: argument" },
	{ H "argv a b\n" E C S T, "unexpected extra field 'b'" },
	{ H E "samples 01\nlost 0\n", "not an unsigned decimal" },
	{ H E "samples -1\nlost 0\n", "not an unsigned decimal" },
	{ H E "samples 18446744073709551616\n", "not an unsigned decimal" },
	{ H E "samples +1\n", "not an unsigned decimal" },
	/* critical path: accepted files */
	{ CPH("1") "mpi_coll f 1 1 1 1\ncp_link 1 3 1\ncp_link 9 0 12\ncp_seg 9 2 5\n"
	  "cp_seg 1 0 1\ncp_seg 9 0 1\ncp_seg 1 2 0\ncp_ev 1 5 10 10\ncp_ev 4 0 11 20\n"
	  "cp_edge 9 0 12\ncp_edge 1 3 1\ncp_edge 1 2 18446744073709551615\n", NULL },
	{ CPH("0") "cp_link 5 1 1\ncp_seg 2 1 3\n", NULL },
	{ HD("4") E CP("1", "1") S T, NULL },
	/* critical path: scalars */
	{ HD("4") E C0 "cp_events 10\ncp_length_ns 0\ncp_wall_ns 0\ncp_trace 2\n" S T,
	  "cp_trace 2 out of range (at most 1)" },
	{ HD("4") E C0 "cp_length_ns 0\ncp_wall_ns 0\ncp_trace 0\ncp_budget 0\ncp_cut 0\n" S T,
	  "no 'cp_events' record" },
	{ HD("4") E C0 "cp_events 10\ncp_length_ns 0\ncp_trace 0\ncp_budget 0\ncp_cut 0\n" S T,
	  "no 'cp_wall_ns' record" },
	{ HD("4") E C "cp_events 1\n" S T, "second 'cp_events'" },
	{ HD("4") E C0 "cp_length_ns 0\ncp_wall_ns 0\ncp_trace 0\ncp_budget 0\ncp_cut 0\n" S T "cp_link 1 0 1\n",
	  "cp_link record without a 'cp_events' record" },
	{ HD("4") E C0 "cp_events 10\ncp_length_ns 0\ncp_wall_ns 0\n" S T "cp_ev 1 0 0 0\n",
	  "cp_ev record without a 'cp_trace' record" },
	/* critical path: no records without cp_events */
	{ HD("4") E C S T "cp_link 1 0 1\n", "cp_link record but cp_events is 0" },
	{ HD("4") E C S T "cp_seg 1 0 1\n", "cp_seg record but cp_events is 0" },
	{ HD("4") E CP("0", "1") S T "cp_ev 1 0 0 0\n", "cp_ev record but cp_events is 0" },
	{ HD("4") E CP("0", "1") S T "cp_edge 1 0 1\n", "cp_edge record but cp_events is 0" },
	/* critical path: cp_link */
	{ CPH("0") "cp_link 0 0 1\n", "cp_link event 0 out of range (must be 1 to 9)" },
	{ CPH("0") "cp_link 10 0 1\n", "cp_link event 10 out of range" },
	{ CPH("0") "cp_link 3 0 1\ncp_link 3 1 1\n",
	  "line 60: cp_link event 3 not after the previous cp_link's 3" },
	{ CPH("0") "cp_link 5 0 1\ncp_link 3 1 1\n", "cp_link event 3 not after" },
	{ CPH("0") "cp_link 1 4 1\n", "cp_link rank 4 is not a rank of this job (size 4)" },
	{ CPH("0") "cp_link 1 -1 1\n", "cp_link rank -1 is not a rank" },
	{ HD("0") E CP("10", "0") S T "cp_link 1 0 1\n", "cp_link rank 0 is not a rank" },
	{ CPH("0") "cp_link 1 0 0\n", "cp_link from 0" },
	{ CPH("0") "cp_link 1 0\n", "missing field: from" },
	{ CPH("0") "cp_link 1 0 1 1\n", "extra field '1'" },
	/* the same after a first link: a run of links reads fast, same rules */
	{ CPH("0") "cp_link 1 0 1\ncp_link 12 0 1\n", "line 60: cp_link event 12 out of range" },
	{ CPH("0") "cp_link 1 0 1\ncp_link 2 4 1\n", "line 60: cp_link rank 4 is not a rank" },
	{ CPH("0") "cp_link 1 0 1\ncp_link 2 0 0\n", "line 60: cp_link from 0" },
	{ CPH("0") "cp_link 1 0 1\ncp_link 2 0 1 1\n", "line 60: unexpected extra field '1'" },
	{ CPH("0") "cp_link 1 0 1\ncp_link 2 0 1\x7f\n", "line 60: byte 0x7f not allowed" },
	{ CPH("0") "cp_link 1 0 1\ncp_link 2 0 01\n", "line 60: from: '01' is not an unsigned" },
	/* critical path: cp_seg */
	{ CPH("0") "cp_seg 0 0 1\n", "cp_seg segment 0 out of range" },
	{ CPH("0") "cp_seg 10 0 1\n", "cp_seg segment 10 out of range" },
	{ CPH("0") "cp_seg 1 3 1\n", "cp_seg node 3 out of range (must be below 3)" },
	{ CPH("0") "cp_seg 2 1 1\ncp_seg 1 1 1\ncp_seg 2 1 4\n",
	  "line 61: duplicate of cp_seg 0 (same segment 2 and node 1)" },
	{ CPH("0") "cp_seg 1 0 1\ncp_seg 1 1 1\ncp_seg 1 1 4\n",
	  "line 61: duplicate of cp_seg 1 (same segment 1 and node 1)" },
	{ CPH("0") "cp_seg 1 0\n", "missing field: count" },
	{ CPH("0") "cp_seg 1 0 1 2\n", "more counts than the 1 events" },
	/* critical path: cp_ev */
	{ CPH("0") "cp_ev 1 0 0 0\n", "cp_ev record but cp_trace is 0" },
	{ CPH("1") "cp_ev 0 0 0 0\n", "cp_ev event 0 out of range" },
	{ CPH("1") "cp_ev 10 0 0 0\n", "cp_ev event 10 out of range" },
	{ CPH("1") "cp_ev 2 0 0 0\ncp_ev 2 0 0 0\n", "cp_ev event 2 not after" },
	{ CPH("1") "cp_ev 3 0 0 0\ncp_ev 2 0 0 0\n", "cp_ev event 2 not after" },
	{ CPH("1") "cp_ev 1 0 10 9\n", "cp_ev t_exit 9 before t_entry 10" },
	{ CPH("1") "cp_ev 1 0 10\n", "missing field: t_exit" },
	/* critical path: cp_edge */
	{ CPH("0") "cp_edge 1 0 1\n", "cp_edge record but cp_trace is 0" },
	{ CPH("1") "cp_edge 0 0 1\n", "cp_edge event 0 out of range" },
	{ CPH("1") "cp_edge 10 0 1\n", "cp_edge event 10 out of range" },
	{ CPH("1") "cp_edge 1 4 1\n", "cp_edge rank 4 is not a rank" },
	{ CPH("1") "cp_edge 1 -5 1\n", "cp_edge rank -5 is not a rank" },
	{ CPH("1") "cp_edge 1 0 0\n", "cp_edge from 0" },
	/* fold points (version 9) */
	{ CPV(FOLD("2", "4", "5", "0", "0")) "cp_link 5 1 1\ncp_seg 5 1 3\ncp_prefix 0 2\n"
	  "cp_prefix 2 1\n", NULL },
	{ CPV(FOLD("1", "4", "5", "3", "17")) "cp_prefix 1 1\n", NULL },
	{ CPV(FOLD("0", "0", "0", "0", "0")), NULL },
	{ CPV10(1, "cp_cut 6\n", FOLD("1", "4", "5", "0", "0")) "cp_link 6 1 1\n", NULL },
	{ CPV10(1, "cp_cut 0\n", FOLD("1", "4", "5", "0", "0")) "cp_seg 4 1 1\n", NULL },
	{ CPV10(0, "cp_cut 0\n", "") , "no 'cp_folds' record" },
	{ CPV10(0, "cp_cut 0\n", FOLD("0", "0", "0", "0", "0") "cp_folds 0\n"),
	  "second 'cp_folds'" },
	{ CPV(FOLD("0", "0", "0", "0", "0")) "cp_folds 0\n", "'cp_folds' record after node records" },
	{ HD("4") E C0 "cp_folds 0\n" S T, "'cp_folds' record in a version 7 profile (it came "
	  "with version 10)" },
	{ CPV(FOLD("0", "0", "0", "0", "0")) "cp_prefix 0 1\n",
	  "cp_prefix record without a fold point" },
	{ CPV(FOLD("1", "4", "5", "0", "0")) "cp_prefix 2 1\ncp_prefix 1 1\n",
	  "cp_prefix node 1 not after the previous cp_prefix's 2" },
	{ CPV(FOLD("1", "4", "5", "0", "0")) "cp_prefix 3 1\n", "cp_prefix node 3 out of range" },
	{ CPV(FOLD("1", "4", "5", "0", "0")) "cp_prefix 1 1 1\n", "more counts than the 1 events" },
	{ CPV(FOLD("1", "4", "5", "0", "0")) "cp_prefix 1 1\ncp_seg 5 1 1\n",
	  "'cp_seg' record after cp_prefix records" },
	{ CPV(FOLD("0", "4", "0", "0", "0")), "cp_folds 0 but cp_fold_event" },
	{ CPV(FOLD("0", "0", "0", "0", "3")), "cp_folds 0 but cp_fold_event" },
	{ CPV(FOLD("1", "10", "5", "0", "0")), "cp_fold_event 10 out of range (must be 1 to 9)" },
	{ CPV(FOLD("1", "0", "5", "0", "0")), "cp_fold_event 0 out of range" },
	{ CPV(FOLD("1", "9", "8", "0", "0")), NULL },	/* at the end: the longest rank's length */
	{ CPV(FOLD("1", "4", "5", "4", "3")), "cp_gap_rank 4 with cp_gap_event 3" },
	{ CPV(FOLD("1", "4", "5", "2", "0")), "cp_gap_rank 2 with cp_gap_event 0" },
	{ CPV(FOLD("1", "4", "5", "0", "0")) "cp_link 4 1 1\n",
	  "cp_link of event 4 up to cp_fold_event 4" },
	{ CPV(FOLD("1", "4", "5", "0", "0")) "cp_seg 3 1 1\n",
	  "cp_seg of segment 3 up to cp_fold_event 4 without cp_trace" },
	{ CPV10(0, "cp_cut 4\n", FOLD("1", "4", "5", "0", "0")),
	  "cp_cut 4 not after cp_fold_event 4" },
	/* critical path: order of the sections */
	{ CPH("1") "cp_seg 1 0 1\ncp_link 1 0 1\n", "'cp_link' record after cp_seg records" },
	{ CPH("1") "cp_ev 1 0 0 0\ncp_seg 1 0 1\n", "'cp_seg' record after cp_ev records" },
	{ CPH("1") "cp_edge 1 0 1\ncp_ev 1 0 0 0\n", "'cp_ev' record after cp_edge records" },
	{ CPH("1") "cp_link 1 0 1\nmpi_coll f 1 1 1 1\n", "'mpi_coll' record after cp_link" },
	{ CPH("1") "cp_link 1 0 1\nnode 3 0 1 1\n", "'node' record after cp_link" },
	/* zeroing and the length series: accepted files */
	{ CPF("3", "9") "cp_link 1 3 1\ncp_seg 9 2 5\n" FN("0", "f", "7", "0")
	  FN("1", "-", "0", "7") FN("2", "%2D", "3", "4") FN("3", "g", "0", "0")
	  FN("4", "h", "1", "1") FN("5", "i", "1", "1") FN("6", "#0123456789abcdef", "1", "1")
	  FN("7", "%25", "7", "7") "cp_point 0 0\ncp_point 0 0\ncp_point 5 0\ncp_point 5 9\n"
	  "cp_point 18446744073709551615 18446744073709551615\n", NULL },
	{ CPF("1", "0") FN("0", "f", "7", "7"), NULL },
	{ CPF("2", "1") FN("0", "f", "0", "0"), NULL },
	{ CPF("2", "9") FN("0", "f", "0", "0") FN("1", "F", "0", "0"), NULL },
	{ CPH("0") "cp_point 3 1\n", NULL },
	/* zeroing: the scalars */
	{ CPF("4", "0"), "cp_fn_how 4 out of range (at most 3)" },
	{ CPF("-1", "0"), "cp_fn_how: '-1' is not an unsigned decimal" },
	{ HD("4") E C0 "cp_events 10\ncp_length_ns 7\ncp_wall_ns 9\ncp_trace 0\ncp_budget 0\ncp_cut 0\ncp_fn_start 0\n"
	  S T, "no 'cp_fn_how' record" },
	{ HD("4") E C0 "cp_events 10\ncp_length_ns 7\ncp_wall_ns 9\ncp_trace 0\ncp_budget 0\ncp_cut 0\ncp_fn_how 0\n"
	  S T, "no 'cp_fn_start' record" },
	{ HD("4") E C "cp_fn_start 0\n" S T, "second 'cp_fn_start'" },
	{ HD("4") E C0 "cp_events 10\ncp_length_ns 7\ncp_wall_ns 9\ncp_trace 0\ncp_budget 0\ncp_cut 0\ncp_fn_start 0\n"
	  S T FN("0", "f", "0", "0"), "cp_fn record without a 'cp_fn_how' record before it" },
	/* zeroing: how NONE exactly when there is no cp_fn record */
	{ CPF("0", "0") FN("0", "f", "0", "0"), "line 59: cp_fn record but cp_fn_how is 0 (none)" },
	{ CPF("1", "0"), "line 59: cp_fn_how 1 (init) but no cp_fn record" },
	{ CPF("3", "5") "cp_point 1 1\n", "cp_fn_how 3 (merge) but no cp_fn record" },
	/* zeroing: how != NONE needs a critical path */
	{ HD("4") E CPZ("0", "0", "1", "0") S T, "cp_fn_how 1 (init) but cp_events is 0" },
	{ HD("4") E CPZ("0", "0", "1", "0") S T FN("0", "f", "0", "0"),
	  "cp_fn record but cp_events is 0" },
	/* zeroing: cp_fn_start */
	{ CPF("0", "3"), "cp_fn_start 3 but cp_fn_how is 0 (none): must be 0" },
	{ CPF("1", "3") FN("0", "f", "0", "0"), "cp_fn_start 3 but cp_fn_how is 1 (init): must be 0" },
	{ CPF("2", "0") FN("0", "f", "0", "0"),
	  "cp_fn_start 0 out of range for cp_fn_how 2 (entry) (must be 1 to 9)" },
	{ CPF("3", "10") FN("0", "f", "0", "0"), "cp_fn_start 10 out of range for cp_fn_how 3" },
	/* zeroing: cp_fn records */
	{ CPF("1", "0") FN("1", "f", "0", "0"), "cp_fn index 1, expected 0" },
	{ CPF("1", "0") FN("0", "f", "0", "0") FN("0", "g", "0", "0"), "cp_fn index 0, expected 1" },
	{ CPF("1", "0") FN("0", "a", "0", "0") FN("1", "b", "0", "0") FN("2", "c", "0", "0")
	  FN("3", "d", "0", "0") FN("4", "e", "0", "0") FN("5", "f", "0", "0")
	  FN("6", "g", "0", "0") FN("7", "h", "0", "0") FN("8", "i", "0", "0"),
	  "line 67: more than 8 cp_fn records" },
	{ CPF("1", "0") FN("0", "f", "0", "0") FN("1", "g", "0", "0") FN("2", "f", "1", "1"),
	  "line 61: duplicate of cp_fn 0 (same name)" },
	{ CPF("1", "0") FN("0", "-", "0", "0") FN("1", "-", "1", "1"), "duplicate of cp_fn 0" },
	{ CPF("1", "0") FN("0", "f", "8", "0"), "cp_fn net_ns 8 exceeds cp_length_ns 7" },
	{ CPF("1", "0") FN("0", "f", "0", "8"), "cp_fn share_ns 8 exceeds cp_length_ns 7" },
	{ CPF("1", "0") "cp_fn 0 f 1\n", "missing field: share_ns" },
	{ CPF("1", "0") "cp_fn 0 f 1 1 1\n", "extra field '1'" },
	{ CPF("1", "0") "cp_fn 0 %41 1 1\n", "needless %-escape" },
	/* the length series: cp_point records */
	{ HD("4") E C S T "cp_point 0 0\n", "cp_point record but cp_events is 0" },
	{ CPH("0") "cp_point 5 1\ncp_point 4 2\n",
	  "line 60: cp_point t_ns 4 before the previous cp_point's 5" },
	{ CPH("0") "cp_point 5 4\ncp_point 6 3\n",
	  "cp_point length_ns 3 below the previous cp_point's 4" },
	{ CPH("0") "cp_point 5\n", "missing field: length_ns" },
	{ CPH("0") "cp_point 5 1 1\n", "extra field '1'" },
	/* zeroing and the length series: order of the sections */
	{ CPF("1", "0") "cp_point 1 1\n" FN("0", "f", "0", "0"), "'cp_fn' record after cp_point" },
	{ HD("4") E CPZ("10", "1", "1", "0") S T FN("0", "f", "0", "0") "cp_edge 1 0 1\n",
	  "'cp_edge' record after cp_fn records" },
	{ CPF("1", "0") "cp_point 1 1\nmpi_coll f 1 1 1 1\n", "'mpi_coll' record after cp_point" },
	/* overhead and compensation: accepted files */
	{ CMP("2", COMPS("1", OVH1, "1000", "999999", "50", "50")), NULL },
	{ CMP("2", COMPS("1", OVH1, "1000", "0", "50", "1050")), NULL },	/* waited longer */
	{ CMP("0", COMPS("1", OVH0, "0", "0", "0", "0")), NULL },
	{ CMP("3", COMPS("1", OVH("0", "0", "17", "0", "0", "5", "0", "0", "0"), "10", "0", "5",
			 "0")), NULL },
	{ CMP("1", COMPS("1", OVH("4294967296", "18446744069414584320", "4294967295", "3",
				  "18446744073709551615", "6148914691236517205", "0", "0", "0"),
			 "0", "18446744073709551615", "18446744073709551615",
			 "18446744073709551615")), NULL },
	{ CMP("1", COMPS("1", OVHW("0", "0", "0", "0", "0", "0", "0", "0", "0", "4294967296",
				   "18446744069414584320", "4294967295"), "0", "0", "0", "0")), NULL },
	{ CMP("1", COMPS("1", OVHW("0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "4000"),
			 "0", "0", "0", "0")), NULL },	/* calibrated, never switched */
	{ HRS("2", "4") E COMPS("1", OVH1, "1", "1", "1", "0") C0 CPS0 S T, NULL },
	/* overhead and compensation: the scalars */
	{ CMP("2", COMPS("2", OVH0, "0", "0", "0", "0")), "comp_on 2 out of range (at most 1)" },
	{ CMP("2", COMPS("-1", OVH0, "0", "0", "0", "0")),
	  "comp_on: '-1' is not an unsigned decimal" },
	{ CMP("2", COMPS("0", OVH("0", "0", "0", "0", "0", "0", "0", "0", "x"), "0", "0", "0",
			 "0")), "ovh_inject_ns: 'x' is not an unsigned decimal" },
	{ CMP("2", OVH0 "comp_wall_ns 0\ncomp_delay_ns 0\ncomp_wait_ns 0\ncomp_wait_comp_ns 0\n"),
	  "no 'comp_on' record" },
	{ CMP("2", "comp_on 0\n" OVH0 "comp_wall_ns 0\ncomp_delay_ns 0\ncomp_wait_ns 0\n"),
	  "no 'comp_wait_comp_ns' record" },
	{ CMP("2", COMP0 "ovh_calls 0\n"), "second 'ovh_calls'" },
	{ H E C S "comp_on 0\n" T, "'comp_on' record after frame records" },
	/* overhead and compensation: comp_on 0 makes every other one 0 */
	{ CMP("2", COMPS("0", OVH("1", "0", "0", "0", "0", "0", "0", "0", "0"), "0", "0", "0",
			 "0")), "line 59: comp_on 0 but ovh_samples is 1 (must be 0 without "
	  "compensation)" },
	{ CMP("2", COMPS("0", OVH("0", "0", "10", "0", "0", "0", "0", "0", "0"), "0", "0", "0",
			 "0")), "comp_on 0 but ovh_sample_cost_ns is 10" },
	{ CMP("2", COMPS("0", OVH("0", "0", "0", "0", "0", "0", "0", "0", "3"), "0", "0", "0",
			 "0")), "comp_on 0 but ovh_inject_ns is 3" },
	{ CMP("2", COMPS("0", OVHW("0", "0", "0", "0", "0", "0", "0", "0", "0", "4", "0", "0"), "0",
			 "0", "0", "0")), "comp_on 0 but ovh_switches is 4" },
	{ CMP("2", COMPS("0", OVHW("0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "250"),
			 "0", "0", "0", "0")), "comp_on 0 but ovh_switch_cost_ns is 250" },
	{ CMP("2", COMPS("0", OVHC("0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "12"),
			 "0", "0", "0", "0")), "comp_on 0 but ovh_contention_ns is 12" },
	{ CMP("2", COMPS("0", OVH0, "0", "5", "0", "0")), "comp_on 0 but comp_delay_ns is 5" },
	{ CMP("2", COMPS("0", OVH0, "0", "0", "0", "1")), "comp_on 0 but comp_wait_comp_ns is 1" },
	/* overhead and compensation: comp_on 1 only on an MPI rank */
	{ HD("0") E C0 CPS0 COMPS("1", OVH0, "0", "0", "0", "0") S T,
	  "line 59: comp_on 1 but rank is -1 (compensation needs an MPI rank)" },
	/* overhead and compensation: the products */
	{ CMP("2", COMPS("1", OVH("3", "29", "10", "2", "10", "5", "7", "8", "9"), "0", "0", "0",
			 "0")), "ovh_sample_ns 29 is less than ovh_samples * ovh_sample_cost_ns (3 * 10 = 30)" },
	/* version 9: a sample's cost measured along the run */
	{ CMP9("2", COMPS("0", OVH0, "0", "0", "0", "0") PROBES("2", "0", "0", "0")),
	  "comp_on 0 but comp_sample_probes is 2" },
	{ CMP9("2", COMPS("1", OVH0, "0", "0", "0", "0") PROBES("9", "1", "20", "19")),
	  "comp_sample_cost_lo_ns 20 is above comp_sample_cost_hi_ns 19 (quartiles)" },
	{ CMP9("2", COMPS("1", OVH0, "0", "0", "0", "0")),
	  "no 'comp_sample_probes' record before the trailer" },
	{ CMP("2", COMPS("1", OVH("4294967296", "0", "4294967296", "0", "0", "0", "0", "0", "0"),
			 "0", "0", "0", "0")),
	  "ovh_samples * ovh_sample_cost_ns overflows (4294967296 * 4294967296)" },
	{ CMP("2", COMPS("1", OVH("3", "30", "10", "2", "9", "5", "7", "8", "9"), "0", "0", "0",
			 "0")), "ovh_wrapper_ns 9 is less than ovh_calls * ovh_call_cost_ns (2 * 5 = 10)" },
	{ CMP("2", COMPS("1", OVH("0", "0", "0", "2", "0", "9223372036854775808", "0", "0", "0"),
			 "0", "0", "0", "0")),
	  "ovh_calls * ovh_call_cost_ns overflows (2 * 9223372036854775808)" },
	{ CMP("2", COMPS("1", OVHW("3", "30", "10", "2", "10", "5", "7", "8", "9", "2", "7", "3"),
			 "0", "0", "0", "0")),
	  "ovh_switch_ns 7 is not ovh_switches * ovh_switch_cost_ns (2 * 3 = 6)" },
	{ CMP("2", COMPS("1", OVHW("0", "0", "0", "0", "0", "0", "0", "0", "0",
				   "9223372036854775808", "0", "2"), "0", "0", "0", "0")),
	  "ovh_switches * ovh_switch_cost_ns overflows (9223372036854775808 * 2)" },
	{ "cpperf-profile 7\nhost h\npid 9223372036854775808\n", "not a decimal integer" },
	{ "cpperf-profile 7\nhost h\npid -0\n", "not a decimal integer" },
	{ "cpperf-profile 7\nhost h\npid -\n", "not a decimal integer" },
};

static void test_records(void)
{
	char err[512], name[80];
	struct profile p;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *buf = seal(cases[i].body, &len);
		int rc;

		profile_init(&p);
		err[0] = '\0';
		rc = profile_parse(&p, buf, len, err, sizeof(err));
		snprintf(name, sizeof(name), "case %zu: %s", i,
			 cases[i].want ? cases[i].want : "accepted");
		if (cases[i].want)
			ok(rc == -1 && strstr(err, cases[i].want), name);
		else
			ok(rc == 0 && p.tree.nnodes >= 1, name);
		if (rc ? !cases[i].want || !strstr(err, cases[i].want) : !!cases[i].want)
			printf("#   rc %d, message: %s\n", rc, err);
		profile_release(&p);
		free(buf);
	}
}

static const struct {
	const char *file;	/* not sealed */
	const char *want;
} trailers[] = {
	{ "", "not a cpperf profile" },
	{ "cpperf-profile 7", "truncated after the first line" },
	{ "cpperf-profile 7\n", "last line is not the 'end" },
	{ "cpperf-profile 7\nend 17 00000000", "does not end with a newline" },
	{ "cpperf-profile 7\nend 17 00000000\nhost h\n", "last line is not the 'end" },
	{ "cpperf-profile 7\nend 16 a4c2bc95\n", "says 16 bytes precede it, found 17" },
	{ "cpperf-profile 7\nend 17 a4c2bc96\n", "CRC-32 mismatch" },
	{ "cpperf-profile 7\nend 17 A4C2BC95\n", "not 8 lowercase hex" },
	{ "cpperf-profile 7\nend 17 bdd98dd\n", "not 8 lowercase hex" },
	{ "cpperf-profile 7\nend 17 a4c2bc95 x\n", "extra field" },
	{ "cpperf-profile 7\nend 17\n", "missing field: trailer crc32" },
	{ "cpperf-profile 7\nend 17 96f4de17\n", "line 2: no 'host' record" },
};

static void test_trailers(void)
{
	char err[512], name[80];
	struct profile p;
	size_t len;
	char *buf;

	is_int(crc32_update(0, "123456789", 9), 0xcbf43926, "CRC-32 check value");
	for (size_t i = 0; i < sizeof(trailers) / sizeof(trailers[0]); i++) {
		size_t n = strlen(trailers[i].file);
		char *copy = malloc(n + 1);

		memcpy(copy, trailers[i].file, n);
		profile_init(&p);
		err[0] = '\0';
		snprintf(name, sizeof(name), "trailer %zu: %s", i, trailers[i].want);
		if (!ok(profile_parse(&p, copy, n, err, sizeof(err)) == -1 &&
			strstr(err, trailers[i].want), name))
			printf("#   message: %s\n", err);
		profile_release(&p);
		free(copy);
	}
	buf = seal(H E C S T, &len);
	memcpy(strstr(buf, "\nend ") + 5, "0 00000000\n", 11);
	len = (size_t)(strstr(buf, "\nend ") - buf) + 16;
	profile_init(&p);
	is_int(profile_parse(&p, buf, len, err, sizeof(err)), -1, "bogus trailer refused");
	is_int(profile_parse_flags(&p, buf, len, PROFILE_PARSE_NO_CHECKSUM, err,
				   sizeof(err)), 0, "bogus trailer accepted with NO_CHECKSUM");
	profile_release(&p);
	free(buf);
}

/* A failed write leaves the directory as it was and names the file. */
static void check_failed_write(int rc, const char *err, const char *dir,
			       int entries, const char *want, const char *what)
{
	char name[128];

	snprintf(name, sizeof(name), "%s: refused", what);
	is_int(rc, -1, name);
	snprintf(name, sizeof(name), "%s: message names file and cause", what);
	if (!ok(strstr(err, "p" PROFILE_SUFFIX) && strstr(err, want), name))
		printf("#   message: %s\n", err);
	snprintf(name, sizeof(name), "%s: nothing left behind", what);
	is_int(dir_entries(dir), entries, name);
}

/* In a child: a file size limit makes write(2) fail with EFBIG, as a full
 * disk fails with ENOSPC (and, unlike permissions, it works as root). */
static int write_with_fsize_limit(const struct profile *p, const char *dir,
				  char *err, size_t errlen)
{
	int fds[2], status = 0, rc = -2;
	pid_t pid;

	if (pipe(fds))
		return -2;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 2000, 2000 };

		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
		rc = profile_write(p, dir, "p" PROFILE_SUFFIX, err, errlen);
		if (write(fds[1], err, strlen(err) + 1) < 0)
			_exit(3);
		_exit(rc == -1 ? 0 : 1);
	}
	close(fds[1]);
	memset(err, 0, errlen);
	if (pid > 0 && read(fds[0], err, errlen - 1) >= 0 &&
	    waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		rc = WEXITSTATUS(status) == 0 ? -1 : 0;
	close(fds[0]);
	return rc;
}

/* Write a, expecting a refusal whose message holds want. */
static void refuse(struct profile *a, const char *dir, const char *want, const char *what)
{
	char err[512];
	int rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));

	check_failed_write(rc, err, dir, 0, want, what);
}

/* The writer refuses zeroing and length-series records the reader would
 * refuse; a is the rich profile, left as it was. */
static void test_cp_fn_write_failures(struct profile *a, const char *dir)
{
	struct prof_cp_fn nine[PROF_CP_FNS + 1], *fns = a->cp_fns;
	uint32_t nfns = a->ncp_fns;
	struct profile e;

	a->cp_fn_how = PROF_CP_FN_NONE;
	refuse(a, dir, "cp_fn records but cp_fn_how is 0 (none)", "cp_fn with how none");
	a->cp_fn_how = PROF_CP_FN_MERGE + 1;
	refuse(a, dir, "cp_fn_how 4 exceeds 3", "cp_fn_how 4");
	a->cp_fn_how = PROF_CP_FN_INIT;
	a->ncp_fns = 0;
	a->cp_fn_start = 0;
	refuse(a, dir, "cp_fn_how 1 (init) but no cp_fn record", "how init without cp_fn");
	a->ncp_fns = nfns;
	a->cp_fn_start = 998;
	refuse(a, dir, "cp_fn_start 998 but cp_fn_how is 1 (init): must be 0", "init with a start");
	a->cp_fn_how = PROF_CP_FN_ENTRY;
	a->cp_fn_start = 1000;
	refuse(a, dir, "cp_fn_start 1000 out of range for cp_fn_how 2 (entry) (must be 1 to 999)",
	       "entry start past the last event");
	a->cp_fn_how = PROF_CP_FN_MERGE;
	a->cp_fn_start = 0;
	refuse(a, dir, "cp_fn_start 0 out of range for cp_fn_how 3 (merge)", "merge start 0");
	a->cp_fn_start = 999;
	for (uint32_t i = 0; i <= PROF_CP_FNS; i++)
		nine[i] = (struct prof_cp_fn){ i < nfns ? fns[i].name : (char *)"x", 0, 0 };
	nine[PROF_CP_FNS - 1].name = "y";
	a->cp_fns = nine;
	a->ncp_fns = PROF_CP_FNS + 1;
	refuse(a, dir, "9 cp_fn records, more than 8", "nine cp_fn records");
	a->ncp_fns = PROF_CP_FNS;
	refuse(a, dir, "cp_fn 6 duplicates cp_fn 5 (same name)", "duplicate cp_fn name");
	a->cp_fns = fns;
	a->ncp_fns = nfns;
	a->cp_fns[3].net_ns = a->cp_length_ns + 1;
	refuse(a, dir, "cp_fn 3: net_ns 5000000001 exceeds cp_length_ns 5000000000", "net_ns");
	a->cp_fns[3].net_ns = 4000000000;
	a->cp_fns[0].share_ns = UINT64_MAX;
	refuse(a, dir, "cp_fn 0: share_ns 18446744073709551615 exceeds", "share_ns");
	a->cp_fns[0].share_ns = 0;
	a->cp_points[2].t_ns = 11;
	refuse(a, dir, "cp_point 3: time or length below cp_point 2's", "cp_point time back");
	a->cp_points[2].t_ns = 10;
	a->cp_points[4].length_ns = 4;
	refuse(a, dir, "cp_point 4: time or length below cp_point 3's", "cp_point length back");
	a->cp_points[4].length_ns = 5;

	profile_init(&e);	/* no critical path: neither points nor zeroing */
	e.cp_points = a->cp_points;
	e.ncp_points = 1;
	refuse(&e, dir, "critical-path records but cp_events is 0", "cp_point without cp_events");
	e.ncp_points = 0;
	e.cp_fn_how = PROF_CP_FN_INIT;
	refuse(&e, dir, "cp_fn_how 1 (init) but cp_events is 0", "how init without cp_events");
	e.cp_fn_how = PROF_CP_FN_NONE;
	e.cp_fn_start = 1;
	refuse(&e, dir, "cp_fn_start 1 but cp_fn_how is 0 (none): must be 0", "start with how none");
	e.cp_points = NULL;
	profile_release(&e);
}

/* The writer refuses critical-path records the reader would refuse; p is
 * the rich profile, left as it was. */
static void test_cp_write_failures(struct profile *a, const char *dir)
{
	struct prof_cp_seg seg1 = a->cp_segs[1];
	char err[512];
	int rc;

	a->cp_links[1].event = 2;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "cp_link 1: event 2 not after 2",
			   "cp_link out of order");
	a->cp_links[1].event = 5;
	a->cp_links[2].from = 0;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "cp_link 2: from event 0", "cp_link from 0");
	a->cp_links[2].from = 17;
	a->cp_segs[1].seg = a->cp_segs[3].seg;
	a->cp_segs[1].node = a->cp_segs[3].node;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "cp_seg 3 duplicates cp_seg 1", "duplicate cp_seg");
	a->cp_segs[1].node = a->tree.nnodes;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "cp_seg 1: segment 1 or node", "cp_seg bad node");
	a->cp_segs[1] = seg1;
	a->cp_evs[1].t_exit = 29;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "cp_ev 1: exit before entry", "cp_ev exit before entry");
	a->cp_evs[1].t_exit = 30;
	a->cp_edges[1].rank = -1;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "cp_edge 1: rank -1 outside the job",
			   "cp_edge rank outside the job");
	a->cp_edges[1].rank = 1;
	a->cp_edges[2].event = 1000;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "cp_edge 2: event 1000 outside 1..999",
			   "cp_edge event out of range");
	a->cp_edges[2].event = 5;
	a->cp_trace = 0;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "trace records without cp_trace",
			   "cp_ev without cp_trace");
	a->cp_trace = 2;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "cp_trace 2 exceeds 1", "cp_trace 2");
	a->cp_trace = 1;
	a->cp_events = 0;
	rc = profile_write(a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "critical-path records but cp_events is 0",
			   "cp records without cp_events");
	a->cp_events = 1000;
	test_cp_fn_write_failures(a, dir);
}

/* The writer refuses overhead and compensation scalars the reader would
 * refuse, and writes a delay above the rank's own overhead and compensated
 * waiting above the measured; a is the rich profile, left as it was. */
static void test_comp_write_failures(struct profile *a, const char *dir)
{
	struct prof_overhead o = a->ovh;
	struct profile e;
	char err[512];

	a->comp_on = 2;
	refuse(a, dir, "comp_on 2 exceeds 1", "comp_on 2");
	a->comp_on = 0;
	refuse(a, dir, "comp_on 0 but ovh_samples is 4294967296 (must be 0 without compensation)",
	       "comp_on 0 with overhead");
	a->comp_on = 1;
	a->ovh.sample_ns--;
	refuse(a, dir, "ovh_sample_ns 18446744069414584319 is less than ovh_samples * "
	       "ovh_sample_cost_ns (4294967296 * 4294967295 = 18446744069414584320)",
	       "ovh_sample_ns below the product");
	a->ovh.sample_cost_ns++;
	refuse(a, dir, "ovh_samples * ovh_sample_cost_ns overflows (4294967296 * 4294967296)",
	       "ovh_samples product overflows");
	a->ovh = o;
	a->ovh.wrapper_ns = 0;
	refuse(a, dir, "ovh_wrapper_ns 0 is less than ovh_calls * ovh_call_cost_ns (3 * "
	       "6148914691236517205 = 18446744073709551615)", "ovh_wrapper_ns below the product");
	a->ovh.calls = 4;
	refuse(a, dir, "ovh_calls * ovh_call_cost_ns overflows (4 * 6148914691236517205)",
	       "ovh_calls product overflows");
	a->ovh = o;
	a->ovh.switch_ns++;
	refuse(a, dir, "ovh_switch_ns 10001 is not ovh_switches * ovh_switch_cost_ns (5 * "
	       "2000 = 10000)", "ovh_switch_ns not the product");
	a->ovh.switch_cost_ns = UINT64_MAX / 4;
	refuse(a, dir, "ovh_switches * ovh_switch_cost_ns overflows (5 * 4611686018427387903)",
	       "ovh_switches product overflows");
	a->ovh = o;

	profile_init(&e);	/* not MPI: no compensation */
	e.comp_delay_ns = 5;
	refuse(&e, dir, "comp_on 0 but comp_delay_ns is 5", "delay without compensation");
	e.comp_on = 1;
	refuse(&e, dir, "comp_on 1 but rank is -1 (compensation needs an MPI rank)",
	       "compensation outside MPI");
	e.rank = 0;
	e.comp_delay_ns = 1000;	/* all of it from other ranks */
	e.comp_wait_comp_ns = 2000;	/* and none of it waited in the measured run */
	is_int(profile_write(&e, dir, "p" PROFILE_SUFFIX, err, sizeof(err)), 0,
	       "a delay above the own overhead, compensated waiting above measured: written");
	profile_release(&e);
	empty_dir(dir);
}

/* The rich profile with fold points: written as version 10, read back
 * equal, the fold scalars and cp_prefix records included; the writer
 * refuses a link it should have dropped at the fold point; the same
 * profile without fold points is written as version 9. */
static void test_fold_round_trip(const char *dir)
{
	struct profile a, b;
	char err[512], path[512];
	size_t len = 0;
	char *buf;

	rich_profile(&a, 8);
	a.cp_folds = 3;
	a.cp_fold_event = 1;
	a.cp_fold_ns = 4000000000;
	a.cp_gap_rank = 1;
	a.cp_gap_event = 17;
	a.ncp_prefix = 2;
	a.cp_prefix = calloc(2, sizeof(*a.cp_prefix));
	for (uint32_t i = 0; i < 2; i++) {
		a.cp_prefix[i].node = i ? a.tree.nnodes - 1 : 0;
		a.cp_prefix[i].counts = calloc(3, sizeof(uint64_t));
		a.cp_prefix[i].counts[i] = UINT64_MAX - i;
	}
	is_int(profile_write(&a, dir, "fold" PROFILE_SUFFIX, err, sizeof(err)), 0,
	       "fold points: written");
	snprintf(path, sizeof(path), "%s/fold" PROFILE_SUFFIX, dir);
	buf = read_all(path, &len);
	ok(buf && !strncmp(buf, "cpperf-profile 10\n", 18), "fold points: version 10");
	ok(buf && strstr(buf, "\ncp_folds 3\ncp_fold_event 1\ncp_fold_ns 4000000000\n"
			 "cp_gap_rank 1\ncp_gap_event 17\n"), "fold points: the scalars");
	ok(buf && strstr(buf, "\ncp_prefix 0 18446744073709551615 0 0\n"),
	   "fold points: cp_prefix record, node then counts");
	free(buf);
	profile_init(&b);
	if (!ok(profile_read(&b, path, err, sizeof(err)) == 0, "fold points: read back"))
		printf("# %s\n", err);
	is_str(profile_diff(&a, &b), "", "fold points: the rest read back equal");
	ok(b.cp_folds == 3 && b.cp_fold_event == 1 && b.cp_fold_ns == 4000000000 &&
	   b.cp_gap_rank == 1 && b.cp_gap_event == 17, "fold points: scalars read back");
	ok(b.ncp_prefix == 2 && b.cp_prefix[1].node == a.tree.nnodes - 1 &&
	   b.cp_prefix[1].counts[1] == UINT64_MAX - 1 && b.cp_prefix[0].counts[0] == UINT64_MAX,
	   "fold points: cp_prefix read back");
	profile_release(&b);
	unlink(path);
	a.cp_fold_event = 2;
	refuse(&a, dir, "cp_link of event 2 up to cp_fold_event 2", "link at the fold point");
	profile_release_cp(&a);
	is_int(profile_write(&a, dir, "fold" PROFILE_SUFFIX, err, sizeof(err)), 0,
	       "without fold points: written");
	buf = read_all(path, &len);
	ok(buf && !strncmp(buf, "cpperf-profile 9\n", 17) && !strstr(buf, "cp_fold"),
	   "without fold points: version 9, no fold scalar");
	free(buf);
	unlink(path);
	profile_release(&a);
}

static void test_write_failures(const char *dir)
{
	struct profile a, b;
	char err[512], path[600];
	int rc;

	rich_profile(&a, 100);
	rc = profile_write(&a, "/nonexistent-cpperf-dir/sub", "p" PROFILE_SUFFIX,
			   err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "/nonexistent-cpperf-dir/sub/p.cpprof: "
			   "cannot create temporary: No such file", "missing directory");
	rc = write_with_fsize_limit(&a, dir, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "write failed: File too large",
			   "file size limit");

	snprintf(path, sizeof(path), "%s/p" PROFILE_SUFFIX, dir);
	mkdir(path, 0755);
	rc = profile_write(&a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 1, "cannot rename", "target is a directory");
	rmdir(path);

	a.events[1].leader = 2;
	rc = profile_write(&a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "event 1 has bad leader 2", "inconsistent profile");
	a.events[1].leader = 0;
	memcpy(a.mpi_sites[1].function, "MPI_Send", 8);	/* was MPI_Recv, same path */
	rc = profile_write(&a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "MPI site 1 duplicates MPI site 0",
			   "duplicate MPI site");
	memcpy(a.mpi_sites[1].function, "MPI_Recv", 8);
	a.size = 5;
	rc = profile_write(&a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "MPI peer 5 outside the job of size 5",
			   "MPI peer out of range");
	a.size = INT64_MAX;
	a.mpi_colls[2].comm_size = 8;
	free(a.mpi_colls[2].function);
	a.mpi_colls[2].function = xstrdup("MPI_Allreduce");
	rc = profile_write(&a, dir, "p" PROFILE_SUFFIX, err, sizeof(err));
	check_failed_write(rc, err, dir, 0, "MPI collective 2 duplicates MPI collective 1",
			   "duplicate MPI collective");
	a.mpi_colls[2].comm_size = 4;
	free(a.mpi_colls[2].function);
	a.mpi_colls[2].function = xstrdup("MPI Bcast%");
	test_cp_write_failures(&a, dir);
	test_comp_write_failures(&a, dir);

	snprintf(path, sizeof(path), "%s/.p%s.tmp.%ld", dir, PROFILE_SUFFIX, (long)getpid());
	fclose(fopen(path, "w"));
	is_int(profile_write(&a, dir, "p" PROFILE_SUFFIX, err, sizeof(err)), 0,
	       "stale temporary of our pid is replaced");
	is_int(dir_entries(dir), 1, "and removed by the rename");
	profile_release(&a);

	profile_init(&a);
	is_int(profile_write(&a, dir, "p" PROFILE_SUFFIX, err, sizeof(err)), 0,
	       "overwrite an existing profile");
	snprintf(path, sizeof(path), "%s/p" PROFILE_SUFFIX, dir);
	profile_init(&b);
	is_int(profile_read(&b, path, err, sizeof(err)), 0, "read the replacement");
	is_int(b.argc, 0, "the new content replaced the old");
	profile_release(&b);
	empty_dir(dir);
	is_int(profile_read(&b, path, err, sizeof(err)), -1, "read a missing file");
	ok(strstr(err, path) && strstr(err, "No such file"), "message names the file");
}

/* The header alone: from a file's first bytes, the trailer unchecked. */
static void test_head(const char *dir)
{
	struct profile a, b;
	char err[512], path[600];
	size_t len = 0, at;
	char *buf;

	rich_profile(&a, 50);
	buf = serialise(&a, dir, &len);
	profile_init(&b);
	at = buf ? (size_t)(strstr(buf, "\nevent 0 ") - buf) + 1 : 0;
	if (!ok(buf && profile_parse_head(&b, buf, at + 8, err, sizeof(err)) == 0,
		"header read from the first bytes (the rest cut off)"))
		printf("# %s\n", err);
	ok(b.pid == a.pid && b.rank == a.rank && b.size == a.size && b.start_ns == a.start_ns &&
	   !strcmp(b.run, a.run) && !strcmp(b.partial, a.partial) && b.argc == a.argc &&
	   b.tree.nnodes == 0 && b.nevents == 0, "header records only");
	profile_release(&b);
	profile_init(&b);
	ok(buf && profile_parse_head(&b, buf, at - 1, err, sizeof(err)) < 0 &&
	   strstr(err, "the header does not end within its first"), "a header cut short is refused");
	profile_init(&b);
	ok(profile_parse_head(&b, "cpperf-profile 5\n", 17, err, sizeof(err)) < 0 &&
	   strstr(err, "unsupported format version"), "another version is refused");
	profile_init(&b);
	ok(profile_parse_head(&b, "cpperf-profile 7\nhost h\nevent 0 c 0 1 0\n", 40, err, sizeof(err)) < 0 &&
	   strstr(err, "no 'pid' record in the header"), "a header without a once record is refused");
	snprintf(path, sizeof(path), "%s/p" PROFILE_SUFFIX, dir);
	profile_init(&b);
	ok(profile_read_head(&b, path, err, sizeof(err)) == 0 && !strcmp(b.run, a.run),
	   "profile_read_head reads a file's header");
	profile_release(&b);
	profile_init(&b);
	ok(profile_read_head(&b, "/nonexistent/x.cpprof", err, sizeof(err)) < 0 &&
	   strstr(err, "/nonexistent/x.cpprof"), "a missing file: its path named");
	free(buf);
	profile_release(&a);
	empty_dir(dir);
}

/* A header longer than the first read (a long command line): read on
 * until it ends, up to PROFILE_HEAD_MAX. */
static void test_long_head(const char *dir)
{
	struct profile a, b;
	char err[512], path[600];
	size_t arg = 40000;

	for (int past_max = 0; past_max < 2; past_max++) {
		rich_profile(&a, 5);
		for (uint32_t i = 1; i < (past_max ? 8 : 2); i++) {	/* 40 KB or 280 KB */
			free(a.argv[i]);
			if (!(a.argv[i] = malloc(arg + 1)))
				abort();
			memset(a.argv[i], 'x', arg);
			a.argv[i][arg] = '\0';
		}
		is_int(profile_write(&a, dir, "p" PROFILE_SUFFIX, err, sizeof(err)), 0,
		       past_max ? "a profile whose header passes the limit" :
				  "a profile with a 40 KB argument");
		snprintf(path, sizeof(path), "%s/p" PROFILE_SUFFIX, dir);
		profile_init(&b);
		if (!past_max) {
			ok(profile_read_head(&b, path, err, sizeof(err)) == 0 && b.argc == a.argc &&
			   !strcmp(b.argv[1], a.argv[1]) && b.pid == a.pid,
			   "its header read whole");
		} else {
			ok(profile_read_head(&b, path, err, sizeof(err)) < 0 &&
			   strstr(err, path) && strstr(err, "does not end within its first 262144"),
			   "a header past 256 KiB refused, naming the file");
			printf("# %s\n", err);
		}
		profile_release(&b);
		profile_release(&a);
		empty_dir(dir);
	}
}

static void test_seed(void)
{
	const char *top = getenv("CPPERF_TOP");
	char path[512], err[512];
	struct profile a, b;

	snprintf(path, sizeof(path), "%s/tests/fuzz/seed/" SEED_NAME, top ? top : ".");
	profile_init(&b);
	if (!ok(profile_read(&b, path, err, sizeof(err)) == 0, "fuzz seed parses"))
		printf("# %s\n", err);
	rich_profile(&a, 8);
	is_str(profile_diff(&a, &b), "", "fuzz seed reads as the profile it was made from");
	profile_release(&a);
	profile_release(&b);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/cpperf-test-profile.XXXXXX";
	struct profile a;
	char err[512];

	if (argc == 3 && !strcmp(argv[1], "--write-seed")) {
		rich_profile(&a, 8);
		if (profile_write(&a, argv[2], SEED_NAME, err, sizeof(err)))
			fprintf(stderr, "%s\n", err);
		profile_release(&a);
		return err[0] != '\0';
	}
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_round_trip(dir);
	test_fold_round_trip(dir);
	test_empty(dir);
	test_truncations(dir);
	test_corruptions(dir);
	test_records();
	test_trailers();
	test_write_failures(dir);
	test_head(dir);
	test_long_head(dir);
	test_seed();
	empty_dir(dir);
	rmdir(dir);
	return tap_done();
}
