/*
 * rich-profile.h - the rich profile the profile format's unit tests write,
 * read back, damage and refuse: one that uses every record of the format,
 * with values at the edges of their ranges and strings that need encoding;
 * its fold points; and a profile's bytes as the writer writes them.
 */
#ifndef CPPERF_TEST_RICH_PROFILE_H
#define CPPERF_TEST_RICH_PROFILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "files.h"
#include "make-profile.h"
#include "../../common/profile.h"

static const char *const rich_argv[] = {
	"./app", "arg with space", "100%", "new\nline", "\xc3\xbcnic\xc3\xb8" "de",
	"-", "", "tab\there", "%2D",
};
#define RICH_ARGC (sizeof(rich_argv) / sizeof(rich_argv[0]))

static inline void rich_events(struct profile *p)
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

static inline void rich_symbols(struct profile *p, uint32_t *fr)
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
static inline void rich_mpi(struct profile *p, const uint32_t *fr)
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
static inline void rich_cp_fns(struct profile *p)
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
static inline void rich_cp(struct profile *p)
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
static inline void rich_comp(struct profile *p)
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
static inline void rich_profile(struct profile *p, int depth)
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

/* Fold points for the rich profile p: 3 folds, the last at event 1 and
 * 4 s, a gap at rank 1 event 17, and cp_prefix records under the root
 * and the last node. */
static inline void rich_folds(struct profile *p)
{
	p->cp_folds = 3;
	p->cp_fold_event = 1;
	p->cp_fold_ns = 4000000000;
	p->cp_gap_rank = 1;
	p->cp_gap_event = 17;
	p->ncp_prefix = 2;
	p->cp_prefix = calloc(2, sizeof(*p->cp_prefix));
	for (uint32_t i = 0; i < 2; i++) {
		p->cp_prefix[i].node = i ? p->tree.nnodes - 1 : 0;
		p->cp_prefix[i].counts = calloc(3, sizeof(uint64_t));
		p->cp_prefix[i].counts[i] = UINT64_MAX - i;
	}
}

/* Write p into dir and return the bytes of the file (NULL on failure). */
static inline char *serialise(const struct profile *p, const char *dir, size_t *len)
{
	char err[512], path[512];

	if (profile_write(p, dir, "p" PROFILE_SUFFIX, err, sizeof(err))) {
		printf("# %s\n", err);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/p" PROFILE_SUFFIX, dir);
	return read_all(path, len);
}

#endif
