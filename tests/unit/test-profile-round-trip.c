/*
 * test-profile-round-trip.c - unit tests for the profile format
 * (common/profile*.c): what is written reads back equal, for a rich
 * profile (critical-path records, zeroing, the length series, overhead
 * and compensation included), an empty one and one with fold points; the
 * records' layout in the file; the header read alone; and the fuzzer's
 * seed profile.
 *
 * `test-profile-round-trip --write-seed DIR` writes the fuzzer's seed
 * profile instead.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "files.h"
#include "tap.h"
#include "rich-profile.h"
#include "../../common/profile.h"

#define SEED_NAME "rich" PROFILE_SUFFIX

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

static long stat_size(const char *dir, const char *name)
{
	char path[512];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &sb) ? -1 : (long)sb.st_size;
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
	is_int(dir_count(dir, ""), 1, "exactly one file left (no temporary)");
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

/* The rich profile with fold points: written as version 10, read back
 * equal, the fold scalars and cp_prefix records included; the same
 * profile without fold points is written as version 9. */
static void test_fold_round_trip(const char *dir)
{
	struct profile a, b;
	char err[512], path[512];
	size_t len = 0;
	char *buf;

	rich_profile(&a, 8);
	rich_folds(&a);
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
	char dir[] = "/tmp/cpperf-test-profile-round-trip.XXXXXX";
	struct profile a;
	char err[512] = "";

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
	test_head(dir);
	test_long_head(dir);
	test_seed();
	empty_dir(dir);
	rmdir(dir);
	return tap_done();
}
