/*
 * test-profile-write.c - unit tests for the profile format's writer
 * (common/profile*.c): writing is atomic under failure (missing
 * directory, file size limit standing in for a full disk, a directory in
 * the way), leaving nothing behind and naming the file; the writer
 * refuses every profile the reader would refuse; a stale temporary is
 * replaced and an existing profile overwritten.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "files.h"
#include "tap.h"
#include "rich-profile.h"
#include "../../common/profile.h"

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
	is_int(dir_count(dir, ""), entries, name);
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

/* The writer refuses a link it should have dropped at the fold point of
 * the rich profile with fold points. */
static void test_fold_write_failures(const char *dir)
{
	struct profile a;

	rich_profile(&a, 8);
	rich_folds(&a);
	a.cp_fold_event = 2;
	refuse(&a, dir, "cp_link of event 2 up to cp_fold_event 2", "link at the fold point");
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
	is_int(dir_count(dir, ""), 1, "and removed by the rename");
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

int main(void)
{
	char dir[] = "/tmp/cpperf-test-profile-write.XXXXXX";

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_fold_write_failures(dir);
	test_write_failures(dir);
	empty_dir(dir);
	rmdir(dir);
	return tap_done();
}
