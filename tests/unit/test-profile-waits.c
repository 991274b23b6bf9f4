/*
 * test-profile-waits.c - the wait-state records of the profile format
 * (version 11: mpi_wait, mpi_slot, mpi_pair, the clock scalars) and the
 * activity graph's mpi_edge: their
 * round trip, in a rank's profile and a merged one, the readers' and the
 * writer's refusals, and that a profile
 * without wait data is written as before, byte for byte, and older files
 * are still read.
 *
 * `test-profile-waits --write-seed DIR` writes the fuzzer's seed of these
 * records (tests/fuzz/seed/waits.cpprof) instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "make-profile.h"
#include "../../common/crc32.h"
#include "../../common/profile.h"

#define ERRLEN 512

/* Append a site of function fn without call path to p. */
static struct prof_mpi_site *add_site(struct profile *p, const char *fn)
{
	return add_mpi_site(p, fn, NULL, 0);
}

/*
 * Rank 1 of 3: MPI_Recv (site 0) waited 100 ns for late senders, 20 of
 * them in the wrong order (compensated 90 and 15); MPI_Ssend (site 1,
 * slots 4 and 5) none; MPI_Barrier (site 2) 7 ns.  Two pairs into site 0:
 * from rank 0's slot 3 (the Late Sender) and rank 2's slot 3 (a Late
 * Receiver of 30 ns, 25 compensated).  Its thread went from the receive
 * to the send 4 times (computing 1000 ns in all), from the send back to
 * the receive 3 times (600 ns) and once to the barrier (5 ns).
 */
static void waits_profile(struct profile *p)
{
	static const struct prof_mpi_slot slots[] = { { 4, 1, 0 }, { 5, 1, 0 }, { 0, 0, 0 } };
	static const struct prof_mpi_edge edges[] = {
		{ 0, 1, 4, 1000, 0, PROF_EDGE_COMPUTE }, { 1, 0, 3, 600, 0, PROF_EDGE_COMPUTE },
		{ 1, 2, 1, 5, 0, PROF_EDGE_COMPUTE },
	};
	static const struct prof_mpi_pair pairs[] = {
		{ 0, 0, 3, 2, 16, 100, 90, 0, 0, 0 },
		{ 0, 2, 3, 1, 8, 0, 0, 30, 25, 0 },
	};

	make_rank_profile(p, 1, 3);
	add_site(p, "MPI_Recv")->waits = (struct prof_mpi_waits){
		.ns = { [PROF_WAIT_late_sender] = 100, [PROF_WAIT_late_sender_wrong_order] = 20 },
		.comp_ns = { [PROF_WAIT_late_sender] = 90, [PROF_WAIT_late_sender_wrong_order] = 15 } };
	add_site(p, "MPI_Ssend");
	add_site(p, "MPI_Barrier")->waits.ns[PROF_WAIT_wait_barrier] = 7;
	p->nmpi_slots = 3;
	p->mpi_slots = xcalloc(3, sizeof(slots[0]));
	memcpy(p->mpi_slots, slots, sizeof(slots));
	p->nmpi_pairs = 2;
	p->mpi_pairs = xcalloc(2, sizeof(pairs[0]));
	memcpy(p->mpi_pairs, pairs, sizeof(pairs));
	p->nmpi_edges = 3;
	p->mpi_edges = xcalloc(3, sizeof(edges[0]));
	memcpy(p->mpi_edges, edges, sizeof(edges));
	p->clock_offset_ns = -1500;
	p->clock_drift_ns = 40;
}

/* p serialised (NULL, with the message printed, when the writer refuses). */
static char *serialise(const struct profile *p, size_t *len, char *err)
{
	char *buf = NULL;

	err[0] = '\0';
	if (profile_write_mem(p, &buf, len, err, ERRLEN))
		return NULL;
	buf = realloc(buf, *len + 1);
	buf[*len] = '\0';
	return buf;
}

/* Whether n bytes at a and b are equal (either may be NULL when n is 0). */
static bool same_bytes(const void *a, const void *b, size_t n)
{
	return !n || !memcmp(a, b, n);
}

/* Whether a and b hold the same wait data and activity-graph edges. */
static bool same_waits(const struct profile *a, const struct profile *b)
{
	if (a->nmpi_sites != b->nmpi_sites || a->nmpi_slots != b->nmpi_slots ||
	    a->nmpi_pairs != b->nmpi_pairs || a->nmpi_edges != b->nmpi_edges ||
	    a->clock_offset_ns != b->clock_offset_ns || a->clock_drift_ns != b->clock_drift_ns)
		return false;
	for (uint32_t i = 0; i < a->nmpi_sites; i++)
		if (memcmp(&a->mpi_sites[i].waits, &b->mpi_sites[i].waits, sizeof(a->mpi_sites[i].waits)))
			return false;
	return same_bytes(a->mpi_slots, b->mpi_slots, a->nmpi_slots * sizeof(*a->mpi_slots)) &&
	       same_bytes(a->mpi_pairs, b->mpi_pairs, a->nmpi_pairs * sizeof(*a->mpi_pairs)) &&
	       same_bytes(a->mpi_edges, b->mpi_edges, a->nmpi_edges * sizeof(*a->mpi_edges));
}

/* file's records with the first old replaced by new, and a trailer that
 * fits them (a string the caller frees; its length in *len). */
static char *edit(const char *file, const char *old, const char *new, size_t *len)
{
	const char *at = strstr(file, old), *trailer = strstr(file, "\nend ");
	size_t body, n;
	char *buf;

	if (!at || !trailer)
		abort();
	body = (size_t)(trailer + 1 - file);
	buf = xcalloc(body + strlen(new) + 64, 1);
	n = (size_t)(at - file);
	memcpy(buf, file, n);
	n += (size_t)sprintf(buf + n, "%s", new);
	memcpy(buf + n, at + strlen(old), body - (size_t)(at - file) - strlen(old));
	n += body - (size_t)(at - file) - strlen(old);
	*len = n + (size_t)sprintf(buf + n, "end %zu %08x\n", n, crc32_update(0, buf, n));
	return buf;
}

/* Parse file edited as edit() says; the reader's message, "" when it
 * accepts it. */
static const char *parse_edited(const char *file, const char *old, const char *new)
{
	static char err[ERRLEN];
	struct profile p;
	size_t len;
	char *buf = edit(file, old, new, &len);

	profile_init(&p);
	if (profile_parse(&p, buf, len, err, sizeof(err)) == 0)
		err[0] = '\0';
	profile_release(&p);
	free(buf);
	return err;
}

static void test_round_trip(void)
{
	struct profile a, b;
	char err[ERRLEN];
	size_t len, len2;
	char *buf, *again;

	waits_profile(&a);
	buf = serialise(&a, &len, err);
	if (!ok(buf, "a profile with wait states is written"))
		printf("# %s\n", err);
	ok(buf && !strncmp(buf, "cpperf-profile 11\n", 18), "as version 11");
	ok(buf && strstr(buf, "\ncomp_sample_cost_hi_ns 0\nclock_offset_ns -1500\n"
			 "clock_drift_ns 40\nroot "), "the clock scalars, signed, last of the counters");
	ok(buf && strstr(buf, "\nmpi_wait 0 100 20 0 0 0 0 90 15 0 0 0 0\n"
			 "mpi_wait 2 0 0 0 7 0 0 0 0 0 0 0 0\nmpi_slot 4 1\nmpi_slot 5 1\n"
			 "mpi_slot 0 0\nmpi_pair 0 0 3 2 16 100 90 0 0\n"
			 "mpi_pair 0 2 3 1 8 0 0 30 25\nmpi_edge 0 1 4 1000\nmpi_edge 1 0 3 600\n"
			 "mpi_edge 1 2 1 5\nend "),
	   "mpi_wait of the sites with wait states, then mpi_slot, mpi_pair and mpi_edge records");
	profile_init(&b);
	if (!ok(buf && profile_parse(&b, buf, len, err, sizeof(err)) == 0, "read back"))
		printf("# %s\n", err);
	ok(same_waits(&a, &b), "wait states, slots, pairs, edges and clocks read back equal");
	again = serialise(&b, &len2, err);
	ok(again && len2 == len && !memcmp(again, buf, len), "and written again byte for byte");
	free(again);
	profile_release(&b);
	free(buf);

	profile_release_mpi(&a);
	ok(!a.mpi_slots && !a.mpi_pairs && !a.mpi_edges && !a.nmpi_slots && !a.nmpi_pairs &&
	   !a.nmpi_edges, "profile_release_mpi frees the slots, pairs and edges");
	ok(prof_has_waits(&a), "the clock offset alone is wait data");
	a.clock_offset_ns = a.clock_drift_ns = 0;
	ok(!prof_has_waits(&a), "without it none is left");
	profile_release(&a);
}

/* Activity-graph edges without any wait data make a version 11 file. */
static void test_edges_alone(void)
{
	struct profile a, b;
	char err[ERRLEN];
	size_t len;
	char *buf;

	make_rank_profile(&a, 0, 2);
	add_site(&a, "MPI_Send");
	a.nmpi_edges = 1;
	a.mpi_edges = xcalloc(1, sizeof(*a.mpi_edges));
	a.mpi_edges[0] = (struct prof_mpi_edge){ 0, 0, 7, 70, 0, PROF_EDGE_COMPUTE };
	ok(!prof_has_waits(&a), "an edge is no wait data");
	buf = serialise(&a, &len, err);
	ok(buf && !strncmp(buf, "cpperf-profile 11\n", 18) && strstr(buf, "\nmpi_edge 0 0 7 70\nend "),
	   "but its profile is version 11, the edge from a site to itself written");
	profile_init(&b);
	ok(buf && profile_parse(&b, buf, len, err, sizeof(err)) == 0 && same_waits(&a, &b),
	   "and read back equal");
	profile_release(&b);
	profile_release(&a);
	free(buf);
}

/* A node of p's tree, main > compute, with 5 samples. */
static uint32_t leaf_node(struct profile *p)
{
	uint32_t mod = symtab_module(&p->syms, "/opt/app/bin/app", "abcd"), fr[2], node;

	fr[0] = symtab_frame(&p->syms, mod, "main", "app.c", 1);
	fr[1] = symtab_frame(&p->syms, mod, "compute", "app.c", 7);
	node = cct_path(&p->tree, fr, 2);
	if (node == CCT_NO_FRAME)
		abort();
	cct_self(&p->tree, node)[0] = 5;
	return node;
}

/*
 * Completion edges and the paths of computation edges make a version 12
 * file: an mpi_done record and mpi_edge_path records (on a tree node),
 * read back equal; a path of a completion edge, one of a node or edge out
 * of range, and either record in a version 11 file are refused.
 */
static void test_graph_records(void)
{
	struct profile a, b;
	char err[ERRLEN];
	const char *why;
	size_t len;
	char *buf;
	uint32_t node;

	waits_profile(&a);
	node = leaf_node(&a);
	a.mpi_edges = realloc(a.mpi_edges, 4 * sizeof(*a.mpi_edges));
	if (!a.mpi_edges)
		abort();
	memset(&a.mpi_edges[3], 0, sizeof(a.mpi_edges[3]));	/* padding too: compared as bytes */
	a.mpi_edges[3].to = 2;
	a.mpi_edges[3].count = 3;
	a.mpi_edges[3].time_ns = 900;
	a.mpi_edges[3].kind = PROF_EDGE_COMPLETE;
	a.nmpi_edges++;
	a.nmpi_edge_paths = 2;
	a.mpi_edge_paths = xcalloc(2, sizeof(*a.mpi_edge_paths));
	a.mpi_edge_paths[0] = (struct prof_mpi_edge_path){ 0, node, 5 };
	a.mpi_edge_paths[1] = (struct prof_mpi_edge_path){ 1, CCT_ROOT, 2 };
	buf = serialise(&a, &len, err);
	ok(buf && !strncmp(buf, "cpperf-profile 12\n", 18), "completion edges and paths: version 12");
	ok(buf && strstr(buf, "\nmpi_edge 1 2 1 5\nmpi_done 0 2 3 900\nmpi_edge_path 0 "),
	   "an mpi_done record after the mpi_edge ones, then the paths");
	profile_init(&b);
	ok(buf && profile_parse(&b, buf, len, err, sizeof(err)) == 0 && same_waits(&a, &b) &&
	   b.nmpi_edge_paths == 2 && b.mpi_edges[3].kind == PROF_EDGE_COMPLETE &&
	   b.mpi_edge_paths[0].node == node && b.mpi_edge_paths[1].samples == 2,
	   "read back equal");
	profile_release(&b);
	if (buf) {
		char rec[64];

		snprintf(rec, sizeof(rec), "mpi_edge_path 0 %u 5\n", node);
		why = parse_edited(buf, rec, "mpi_edge_path 3 0 5\n");
		ok(strstr(why, "mpi_edge_path of edge 3, an mpi_done record"), "no path of a completion edge");
		why = parse_edited(buf, rec, "mpi_edge_path 4 0 5\n");
		ok(strstr(why, "mpi_edge_path edge 4 out of range"), "a path's edge in range");
		why = parse_edited(buf, rec, "mpi_edge_path 0 999 5\n");
		ok(strstr(why, "mpi_edge_path node 999 out of range"), "a path's node in range");
		why = parse_edited(buf, "cpperf-profile 12\n", "cpperf-profile 11\n");
		ok(strstr(why, "'mpi_done' record in a version 11 profile (it came with version 12)"),
		   "no mpi_done record in a version 11 file");
	}
	free(buf);
	profile_release(&a);
}

/* Without wait data a profile is written as before: a version 9 file that
 * the writer of version 10 wrote (tests/data/profile-v9.cpprof, the
 * fuzzer's seed profile of test-profile-round-trip), and a version 10
 * one with a fold point, rewrite to the same bytes. */
static void test_older_versions(void)
{
	const char *top = getenv("CPPERF_TOP");
	struct profile p;
	char path[512], err[ERRLEN], *buf, *again;
	size_t len, len2;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/profile-v9.cpprof", top ? top : ".");
	profile_init(&p);
	if (!ok(profile_read(&p, path, err, sizeof(err)) == 0, "a version 9 file is read"))
		printf("# %s\n", err);
	again = serialise(&p, &len2, err);
	buf = xcalloc(len2 + 1, 1);
	f = fopen(path, "r");
	len = f ? fread(buf, 1, len2 + 1, f) : 0;
	if (f)
		fclose(f);
	ok(again && !strncmp(again, "cpperf-profile 9\n", 17) && len == len2 &&
	   !memcmp(buf, again, len), "and written again as version 9, byte for byte");
	free(buf);
	free(again);
	profile_release(&p);

	make_rank_profile(&p, 0, 2);
	p.cp_events = 3;
	p.cp_folds = 1;
	p.cp_fold_event = 1;
	buf = serialise(&p, &len, err);
	ok(buf && !strncmp(buf, "cpperf-profile 10\n", 18) && !strstr(buf, "clock_"),
	   "a profile with a fold point and no wait data: version 10, no clock scalars");
	profile_release(&p);
	profile_init(&p);
	ok(buf && profile_parse(&p, buf, len, err, sizeof(err)) == 0, "read");
	again = serialise(&p, &len2, err);
	ok(again && len2 == len && !memcmp(again, buf, len), "and written again byte for byte");
	free(again);
	profile_release(&p);
	if (buf) {
		is_str(parse_edited(buf, "\nroot ", "\nmpi_slot 0 0\nroot "),
		       "line 61: 'mpi_slot' record in a version 10 profile (it came with version 11)",
		       "version 10: a wait record is refused");
		is_str(parse_edited(buf, "\nroot ", "\nmpi_edge 0 0 1 1\nroot "),
		       "line 61: 'mpi_edge' record in a version 10 profile (it came with version 11)",
		       "version 10: an edge record is refused");
		is_str(parse_edited(buf, "\ncp_folds ", "\nclock_drift_ns 0\ncp_folds "),
		       "line 34: 'clock_drift_ns' record in a version 10 profile (it came with "
		       "version 11)", "version 10: a clock scalar is refused");
	}
	free(buf);
}

/* The reader refuses each bad record of a version 11 file by name. */
static void test_reader_refuses(void)
{
	static const struct {
		const char *old, *new, *want, *what;
	} cases[] = {
		{ "mpi_pair 0 2 3", "mpi_pair 3 2 3", "mpi_pair site 3 out of range (must be below 3)",
		  "a pair's site in range" },
		{ "mpi_pair 0 2 3", "mpi_pair 0 3 3",
		  "send_rank 3 is not a rank of this job (size 3)", "a pair's sender in the job" },
		{ "mpi_pair 0 2 3", "mpi_pair 0 -1 3",
		  "send_rank -1 is not a rank of this job (size 3)", "nor a negative one" },
		{ "mpi_pair 0 2 3", "mpi_pair 0 0 3",
		  "duplicate of mpi_pair 0 (same site, send_rank and send_slot)", "a pair twice" },
		{ "mpi_pair 0 2 3 1 8 0 0 30 25\n", "mpi_pair 0 2 3 1 8 0 0 30\n",
		  "missing field: late_receiver_comp_ns", "a short pair" },
		{ "mpi_pair 0 2 3 1 8 0 0 30 25\n", "mpi_pair 0 2 3 1 8 0 0 30 25 1\n",
		  "unexpected extra field '1'", "a rank's pair has no rank field" },
		{ "mpi_slot 5 1", "mpi_slot 4 1", "duplicate of mpi_slot 0 (same slot)",
		  "a slot twice" },
		{ "mpi_slot 5 1", "mpi_slot 5 3", "mpi_slot site 3 out of range (must be below 3)",
		  "a slot's site in range" },
		{ "mpi_slot 5 1", "mpi_slot 4294967296 1",
		  "mpi_slot slot 4294967296 out of range", "a slot below 2^32" },
		{ "mpi_wait 2 ", "mpi_wait 0 ", "mpi_wait of site 0 after that of site 0 (sites ascend)",
		  "mpi_wait records by increasing site" },
		{ "mpi_wait 2 ", "mpi_wait 3 ", "mpi_wait site 3 out of range (must be below 3)",
		  "an mpi_wait's site in range" },
		{ " 7 0 0 0 0 0 0 0 0\nmpi_slot", " 7 0 0 0 0 0 0 0\nmpi_slot",
		  "missing field: early_reduce_comp", "an mpi_wait's field named by its kind" },
		{ "mpi_slot 4 1\n", "", NULL, "" },
		{ "mpi_slot 0 0\n", "mpi_slot 0 0\nmpi_wait 1 0 0 0 0 0 0 0 0 0 0 0 1\n",
		  "'mpi_wait' record after mpi_slot records", "the sections in order" },
		{ "clock_drift_ns 40\n", "", "no 'clock_drift_ns' record before the trailer",
		  "version 11 requires the clock scalars" },
		{ "mpi_edge 1 2 1 5", "mpi_edge 1 3 1 5", "mpi_edge to 3 out of range (must be below 3)",
		  "an edge's target site in range" },
		{ "mpi_edge 1 2 1 5", "mpi_edge 3 2 1 5", "mpi_edge from 3 out of range (must be below 3)",
		  "an edge's source site in range" },
		{ "mpi_edge 1 2 1 5", "mpi_edge 0 1 1 5",
		  "duplicate of mpi_edge 0 (same from and to)", "an edge twice" },
		{ "mpi_edge 1 2 1 5\n", "mpi_edge 1 2 1\n", "missing field: time_ns", "a short edge" },
		{ "mpi_edge 1 2 1 5\n", "mpi_edge 1 2 1 5 1\n", "unexpected extra field '1'",
		  "a rank's edge has no rank field" },
		{ "mpi_pair 0 0 3", "mpi_edge 2 2 1 1\nmpi_pair 0 0 3",
		  "'mpi_pair' record after mpi_edge records", "edges after the pairs" },
	};
	struct profile a;
	char err[ERRLEN], name[160];
	size_t len;
	char *buf;

	waits_profile(&a);
	buf = serialise(&a, &len, err);
	profile_release(&a);
	if (!buf) {
		tap_bail(err);
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = parse_edited(buf, cases[i].old, cases[i].new);

		if (!cases[i].want) {
			is_str(got, "", "a slot less is still a profile (the edit itself is sound)");
			continue;
		}
		snprintf(name, sizeof(name), "refused: %s", cases[i].what);
		if (!ok(strstr(got, cases[i].want), name))
			printf("#   got '%s', want '%s'\n", got, cases[i].want);
	}
	free(buf);
}

/* The writer refuses what the reader would. */
static void test_writer_refuses(void)
{
	struct profile a;
	char err[ERRLEN];
	size_t len;

	waits_profile(&a);
	a.mpi_pairs[1].send_rank = 5;
	ok(!serialise(&a, &len, err) && strstr(err, "MPI pair 1: sender rank 5 outside the job "
					       "of size 3"), "writer: a sender outside the job");
	a.mpi_pairs[1].send_rank = 0;
	ok(!serialise(&a, &len, err) && strstr(err, "MPI pair 1 duplicates MPI pair 0"),
	   "writer: a pair twice");
	a.mpi_pairs[1].send_rank = 2;
	a.mpi_slots[1].site = 3;
	ok(!serialise(&a, &len, err) && strstr(err, "MPI slot 5 names site 3 of 3"),
	   "writer: a slot of no site");
	a.mpi_slots[1].site = 1;
	a.mpi_slots[1].slot = 4;
	ok(!serialise(&a, &len, err) &&
	   strstr(err, "MPI slot record 1 duplicates MPI slot record 0"), "writer: a slot twice");
	a.mpi_slots[1].slot = 5;
	a.mpi_pairs[0].site = 9;
	ok(!serialise(&a, &len, err) && strstr(err, "MPI pair 0 names site 9 of 3"),
	   "writer: a pair of no site");
	a.mpi_pairs[0].site = 0;
	a.mpi_edges[1].to = 3;
	ok(!serialise(&a, &len, err) && strstr(err, "MPI edge 1 names sites 1 and 3 of 3"),
	   "writer: an edge to no site");
	a.mpi_edges[1].to = 0;
	a.mpi_edges[2].to = 0;
	ok(!serialise(&a, &len, err) && strstr(err, "MPI edge 2 duplicates MPI edge 1"),
	   "writer: an edge twice");
	profile_release(&a);
}

/* Rank 2 of 3: MPI_Ssend (site 0, slot 4) and MPI_Recv (site 1, slot 1),
 * which waited 50 ns for rank 1's slot 4; its thread went twice from one
 * to the other and back. */
static void waits_rank2(struct profile *p)
{
	make_rank_profile(p, 2, 3);
	add_site(p, "MPI_Ssend");
	add_site(p, "MPI_Recv")->waits.ns[PROF_WAIT_late_sender] = 50;
	p->nmpi_slots = 2;
	p->mpi_slots = xcalloc(2, sizeof(*p->mpi_slots));
	p->mpi_slots[0] = (struct prof_mpi_slot){ 4, 0, 0 };
	p->mpi_slots[1] = (struct prof_mpi_slot){ 1, 1, 0 };
	p->nmpi_pairs = 1;
	p->mpi_pairs = xcalloc(1, sizeof(*p->mpi_pairs));
	p->mpi_pairs[0] = (struct prof_mpi_pair){ 1, 1, 4, 1, 8, 50, 0, 0, 0, 0 };
	p->nmpi_edges = 2;
	p->mpi_edges = xcalloc(2, sizeof(*p->mpi_edges));
	p->mpi_edges[0] = (struct prof_mpi_edge){ 0, 1, 2, 300, 0, PROF_EDGE_COMPUTE };
	p->mpi_edges[1] = (struct prof_mpi_edge){ 1, 0, 2, 200, 0, PROF_EDGE_COMPUTE };
	p->clock_offset_ns = 2000;
	p->clock_drift_ns = -150;
}

/* Ranks 1 and 2 merged: wait states summed with their sites, slots and
 * pairs kept with their rank and their sites the merged ones, clocks in
 * the rows; through the file and back. */
static void test_merged(void)
{
	struct profile a, b, back;
	char err[ERRLEN];
	size_t len;
	char *buf;

	waits_profile(&a);
	waits_rank2(&b);
	ok(profile_to_merged(&a, err, sizeof(err)) == 0 &&
	   profile_to_merged(&b, err, sizeof(err)) == 0 &&
	   profile_merge(&a, &b, err, sizeof(err)) == 0, "ranks 1 and 2 merged");
	ok(a.nmpi_sites == 3 && !strcmp(a.mpi_sites[0].function, "MPI_Recv") &&
	   a.mpi_sites[0].waits.ns[PROF_WAIT_late_sender] == 150 &&
	   a.mpi_sites[0].waits.comp_ns[PROF_WAIT_late_sender] == 90 &&
	   a.mpi_sites[0].waits.ns[PROF_WAIT_late_sender_wrong_order] == 20 &&
	   a.mpi_sites[2].waits.ns[PROF_WAIT_wait_barrier] == 7, "wait states summed by site");
	ok(a.nmpi_slots == 5 && a.mpi_slots[0].rank == 1 && a.mpi_slots[3].rank == 2 &&
	   a.mpi_slots[3].slot == 4 && a.mpi_slots[3].site == 1 && a.mpi_slots[4].site == 0,
	   "slots keep their rank, their sites mapped (rank 2's slot 4 beside rank 1's)");
	ok(a.nmpi_pairs == 3 && a.mpi_pairs[1].rank == 1 && a.mpi_pairs[2].rank == 2 &&
	   a.mpi_pairs[2].site == 0 && a.mpi_pairs[2].send_slot == 4,
	   "pairs keep their receiving rank, their sites mapped");
	ok(a.nmpi_edges == 5 && a.mpi_edges[2].rank == 1 && a.mpi_edges[3].rank == 2 &&
	   a.mpi_edges[3].from == 1 && a.mpi_edges[3].to == 0 && a.mpi_edges[4].from == 0 &&
	   a.mpi_edges[4].time_ns == 200, "edges keep their rank, their sites mapped");
	ok(!a.clock_offset_ns && a.mranks[0].clock_offset_ns == -1500 &&
	   a.mranks[1].clock_offset_ns == 2000 && a.mranks[1].clock_drift_ns == -150,
	   "the clocks are the rows'");
	buf = serialise(&a, &len, err);
	if (!ok(buf && !strncmp(buf, "cpperf-profile 11\n", 18), "the merged profile is written"))
		printf("# %s\n", err);
	ok(buf && strstr(buf, "\nmpi_slot 4 1 1\nmpi_slot 5 1 1\nmpi_slot 0 0 1\nmpi_slot 4 1 2\n"
			 "mpi_slot 1 0 2\nmpi_pair 0 0 3 2 16 100 90 0 0 1\n"
			 "mpi_pair 0 2 3 1 8 0 0 30 25 1\nmpi_pair 0 1 4 1 8 50 0 0 0 2\n"
			 "mpi_edge 0 1 4 1000 1\nmpi_edge 1 0 3 600 1\nmpi_edge 1 2 1 5 1\n"
			 "mpi_edge 1 0 2 300 2\nmpi_edge 0 1 2 200 2\n"),
	   "slot, pair and edge records end in their rank (one (from, to) in two ranks)");
	profile_init(&back);
	if (!ok(buf && profile_parse(&back, buf, len, err, sizeof(err)) == 0, "and read back"))
		printf("# %s\n", err);
	ok(same_waits(&a, &back) && back.merged == 2 && back.mranks[0].clock_drift_ns == 40 &&
	   back.mranks[1].clock_offset_ns == 2000 && back.mranks[1].clock_drift_ns == -150,
	   "equal, the rows' clocks too");
	profile_release(&back);
	if (buf) {
		is_str(parse_edited(buf, "\nmpi_pair 0 1 4 1 8 50 0 0 0 2\n",
				    "\nmpi_pair 0 1 4 1 8 50 0 0 0 0\n"),
		       "line 91: mpi_pair 2 of rank 0, not a merged rank",
		       "merged: a pair of a rank not merged is refused");
		ok(strstr(parse_edited(buf, "\nmpi_slot 1 0 2\n", "\nmpi_slot 1 0\n"),
			  "missing field: rank"), "merged: a slot without its rank is refused");
		is_str(parse_edited(buf, "\nmpi_slot 4 1 2\n", "\nmpi_slot 4 0 1\n"),
		       "line 73: duplicate of mpi_slot 0 (same rank and slot)",
		       "merged: a rank's slot twice is refused");
		ok(strstr(parse_edited(buf, "\nmpi_edge 0 1 2 200 2\n", "\nmpi_edge 0 1 2 200 1\n"),
			  "duplicate of mpi_edge 0 (same rank, from and to)"),
		   "merged: a rank's edge twice is refused");
		ok(strstr(parse_edited(buf, "\nmpi_edge 0 1 2 200 2\n", "\nmpi_edge 0 1 2 200 0\n"),
			  "mpi_edge 4 of rank 0, not a merged rank"),
		   "merged: an edge of a rank not merged is refused");
	}
	free(buf);
	a.mpi_pairs[0].rank = 0;
	ok(!serialise(&a, &len, err) && strstr(err, "mpi_pair 0 of rank 0, not a merged rank"),
	   "writer: a pair of a rank not merged");
	profile_release(&a);
	profile_release(&b);
}

/* The committed fuzz seed is what waits_profile writes. */
static void test_seed(void)
{
	const char *top = getenv("CPPERF_TOP");
	struct profile a, b;
	char path[512], err[ERRLEN];

	snprintf(path, sizeof(path), "%s/tests/fuzz/seed/waits.cpprof", top ? top : ".");
	profile_init(&b);
	if (!ok(profile_read(&b, path, err, sizeof(err)) == 0, "the fuzz seed parses"))
		printf("# %s (regenerate: test-profile-waits --write-seed tests/fuzz/seed)\n", err);
	waits_profile(&a);
	ok(same_waits(&a, &b), "and holds the wait data it was written with");
	profile_release(&a);
	profile_release(&b);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write-seed")) {
		struct profile a;
		char err[ERRLEN] = "";

		waits_profile(&a);
		if (profile_write(&a, argv[2], "waits" PROFILE_SUFFIX, err, sizeof(err)))
			fprintf(stderr, "%s\n", err);
		profile_release(&a);
		return err[0] != '\0';
	}
	test_round_trip();
	test_edges_alone();
	test_graph_records();
	test_older_versions();
	test_reader_refuses();
	test_writer_refuses();
	test_merged();
	test_seed();
	return tap_done();
}
