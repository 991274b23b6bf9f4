/*
 * test-profile-reject.c - unit tests for the profile format's reader
 * (common/profile*.c): every truncation and every single-byte corruption
 * of a valid file is refused, malformed records one by one are refused
 * with a message that says why (well-formed ones accepted), and so are
 * bad trailers unless the checksum is not asked for.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "files.h"
#include "tap.h"
#include "rich-profile.h"
#include "../../common/crc32.h"
#include "../../common/profile.h"

/* Append a correct trailer to body (a NUL-terminated string). */
static char *seal(const char *body, size_t *len)
{
	size_t n = strlen(body);
	char *buf = malloc(n + 64);

	memcpy(buf, body, n);
	*len = n + (size_t)sprintf(buf + n, "end %zu %08x\n", n, crc32_update(0, body, n));
	return buf;
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

int main(void)
{
	char dir[] = "/tmp/cpperf-test-profile-reject.XXXXXX";

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_truncations(dir);
	test_corruptions(dir);
	test_records();
	test_trailers();
	empty_dir(dir);
	rmdir(dir);
	return tap_done();
}
