/*
 * test-waits.c - the report's wait states (report/merge-waits.c): a job of
 * three ranks built by hand and merged in memory, then the figures checked
 * against those worked out here: each call site's wait states summed over
 * the ranks, Late Receiver given to the sending site through the sender's
 * slots, transmission the rest of the blocked time, the pairs of sites and
 * the culprits in order; the same from the job reduced into a merged
 * profile; then through the JSON report (jq) and the text view.
 *
 * Rank 0 sends: MPI_Send from main > solve (slot 0), MPI_Ssend from
 * main > exchange (slots 1 and 2: one site), MPI_Barrier from main.
 * Rank 1 receives at MPI_Recv from main > solve what rank 0's Send and
 * rank 2's Send (the same call site as rank 0's) sent, late.  Rank 2
 * receives at MPI_Recv from main > exchange what rank 0's Ssend sent (its
 * receives late for the Ssend), and a message from a slot rank 0 never
 * had.  Merged, the sites by time are: 1 Recv main>solve (1 s), 2 Recv
 * main>exchange (0.85 s), 3 Send (0.55 s), 4 Ssend (0.5 s), 5 Barrier
 * (0.4 s); MPI time 3.3 s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "files.h"
#include "tap.h"
#include "make-profile.h"
#include "render-report.h"
#include "../../report/data.h"
#include "../../report/merge.h"

#define ERRLEN 1024
#define MS 1000000ull	/* ns */

enum { F_MAIN, F_SOLVE, F_EXCHANGE };

/* Rank r of 3 with frames main, solve, exchange (ids F_*). */
static void make_rank(struct profile *p, int64_t r)
{
	static const char *const names[] = { "main", "solve", "exchange" };
	uint32_t app;

	make_rank_profile(p, r, 3);
	p->mpi_wall_ns = 2000 * MS;
	app = symtab_module(&p->syms, "/opt/app", "ab");
	for (int i = 0; i < 3; i++)
		symtab_frame(&p->syms, app, names[i], "app.c", 10 + (uint32_t)i);
}

/* Append a site of fn called from main, or main > f (f not F_MAIN), with
 * time and blocked ms; returns its wait states. */
static struct prof_mpi_waits *add_site(struct profile *p, const char *fn, int f,
				       uint64_t time_ms, uint64_t blocked_ms)
{
	const uint32_t path[] = { F_MAIN, (uint32_t)f };
	struct prof_mpi_site *m = add_mpi_site(p, fn, path, f == F_MAIN ? 1 : 2);

	m->time_ns = time_ms * MS;
	m->blocked_ns = blocked_ms * MS;
	return &m->waits;
}

static void add_slot(struct profile *p, uint32_t slot, uint32_t site)
{
	p->mpi_slots = realloc(p->mpi_slots, (p->nmpi_slots + 1) * sizeof(*p->mpi_slots));
	if (!p->mpi_slots)
		abort();
	p->mpi_slots[p->nmpi_slots++] = (struct prof_mpi_slot){ slot, site, 0 };
}

/* A pair into site from send_rank's slot: count, bytes, then Late Sender
 * and Late Receiver, measured and compensated, in ms. */
static void add_pair(struct profile *p, uint32_t site, int64_t send_rank, uint32_t slot,
		     uint64_t count, uint64_t bytes, const uint64_t ms[4])
{
	p->mpi_pairs = realloc(p->mpi_pairs, (p->nmpi_pairs + 1) * sizeof(*p->mpi_pairs));
	if (!p->mpi_pairs)
		abort();
	p->mpi_pairs[p->nmpi_pairs++] = (struct prof_mpi_pair){ site, send_rank, slot, count, bytes,
		ms[0] * MS, ms[1] * MS, ms[2] * MS, ms[3] * MS, 0 };
}

/* The job; comp: rank 0 measured its overhead (comp_on). */
static void make_job(struct profile p[3], bool comp)
{
	struct prof_mpi_waits *w;

	make_rank(&p[0], 0);
	add_site(&p[0], "MPI_Send", F_SOLVE, 400, 0);
	add_site(&p[0], "MPI_Ssend", F_EXCHANGE, 500, 450);
	w = add_site(&p[0], "MPI_Barrier", F_MAIN, 300, 150);
	w->ns[PROF_WAIT_wait_barrier] = 200 * MS;
	w->comp_ns[PROF_WAIT_wait_barrier] = 190 * MS;
	add_slot(&p[0], 0, 0);
	add_slot(&p[0], 1, 1);
	add_slot(&p[0], 2, 1);
	p[0].comp_on = comp;

	make_rank(&p[1], 1);
	w = add_site(&p[1], "MPI_Recv", F_SOLVE, 1000, 900);
	w->ns[PROF_WAIT_late_sender] = 600 * MS;
	w->ns[PROF_WAIT_late_sender_wrong_order] = 100 * MS;
	w->comp_ns[PROF_WAIT_late_sender] = 500 * MS;
	w->comp_ns[PROF_WAIT_late_sender_wrong_order] = 80 * MS;
	w = add_site(&p[1], "MPI_Barrier", F_MAIN, 100, 50);
	w->ns[PROF_WAIT_wait_barrier] = 50 * MS;
	w->comp_ns[PROF_WAIT_wait_barrier] = 50 * MS;
	add_slot(&p[1], 0, 0);
	add_slot(&p[1], 1, 1);
	add_pair(&p[1], 0, 0, 0, 3, 3000, (const uint64_t[]){ 400, 350, 0, 0 });
	add_pair(&p[1], 0, 2, 0, 1, 8, (const uint64_t[]){ 200, 150, 0, 0 });
	p[1].clock_drift_ns = -50000;

	make_rank(&p[2], 2);
	add_site(&p[2], "MPI_Send", F_SOLVE, 150, 0);
	w = add_site(&p[2], "MPI_Recv", F_EXCHANGE, 850, 800);
	w->ns[PROF_WAIT_late_sender] = 710 * MS;
	w->comp_ns[PROF_WAIT_late_sender] = 660 * MS;
	add_slot(&p[2], 0, 0);
	add_slot(&p[2], 1, 1);
	add_pair(&p[2], 1, 0, 2, 2, 64, (const uint64_t[]){ 0, 0, 300, 250 });
	add_pair(&p[2], 1, 0, 1, 1, 32, (const uint64_t[]){ 700, 650, 100, 80 });
	add_pair(&p[2], 1, 0, 9, 1, 4, (const uint64_t[]){ 10, 10, 20, 20 });
	p[2].clock_offset_ns = 7000000;
	p[2].clock_drift_ns = 250000;
}

/* The job merged into d.  Returns 0 or -1. */
static int load_job(struct rep_data *d, bool comp)
{
	struct profile p[3];

	make_job(p, comp);
	return merge_profiles(d, p, 3, "exp-waits");
}

static void test_merged(void)
{
	static const char *const fns[] = { "MPI_Recv", "MPI_Recv", "MPI_Send", "MPI_Ssend",
					    "MPI_Barrier" };
	struct rep_data d;
	const struct rep_site *s;
	const struct rep_site_pair *q;
	int order = 0;

	if (!ok(load_job(&d, false) == 0, "the job merges"))
		return;
	s = d.mpi.sites;
	for (int i = 0; i < 5; i++)
		order += d.mpi.nsites == 5 && !strcmp(s[i].function, fns[i]);
	if (!ok(order == 5 && s[0].frames[1] == s[2].frames[1], "five sites, by time"))
		return;
	ok(s[0].waits.ns[PROF_WAIT_late_sender] == 600 * MS &&
	   s[0].waits.comp_ns[PROF_WAIT_late_sender_wrong_order] == 80 * MS &&
	   s[4].waits.ns[PROF_WAIT_wait_barrier] == 250 * MS &&
	   s[4].waits.comp_ns[PROF_WAIT_wait_barrier] == 240 * MS, "wait states summed by site");
	ok(s[3].late_receiver_ns == 400 * MS && s[3].late_receiver_comp_ns == 330 * MS,
	   "Late Receiver given to the Ssend site through rank 0's slots 1 and 2");
	ok(!s[0].late_receiver_ns && !s[1].late_receiver_ns && !s[2].late_receiver_ns &&
	   !s[4].late_receiver_ns, "and to no other site (the unknown slot's is nobody's)");
	is_int(d.waits.npairs, 3, "three pairs of sites");
	q = d.waits.pairs;
	ok(d.waits.npairs == 3 && q[0].send_site == 2 && q[0].recv_site == 0 && q[0].count == 4 &&
	   q[0].bytes == 3008 && q[0].late_sender_ns == 600 * MS &&
	   q[0].late_sender_comp_ns == 500 * MS,
	   "Send -> Recv main>solve: rank 0's and rank 2's sends summed");
	ok(d.waits.npairs == 3 && q[1].send_site == 3 && q[1].recv_site == 1 && q[1].count == 3 &&
	   q[1].bytes == 96 && q[1].late_sender_ns == 700 * MS &&
	   q[1].late_receiver_ns == 400 * MS && q[1].late_receiver_comp_ns == 330 * MS,
	   "Ssend -> Recv main>exchange: two slots of one site summed");
	ok(d.waits.npairs == 3 && q[2].send_site == REP_NO_SITE && q[2].recv_site == 1 &&
	   q[2].late_receiver_ns == 20 * MS, "a sender of no known site: its own pair, last");
	ok(d.waits.nculprits == 2 && d.waits.culprits[0].site == 3 &&
	   d.waits.culprits[0].late_sender_ns == 700 * MS && d.waits.culprits[1].site == 2 &&
	   d.waits.culprits[1].late_sender_ns == 600 * MS,
	   "culprits by Late Sender caused: Ssend (site 4) before Send (site 3)");
	merge_release(&d);
}

/* The job reduced into one merged profile (--merge=mpi), through the
 * file format, reports the same. */
static void test_merged_profile(void)
{
	struct profile p[3], back;
	struct rep_data d;
	char err[ERRLEN], *buf = NULL;
	size_t len;
	int rc = merge_init(&d);

	make_job(p, false);
	for (int i = 0; i < 3 && rc == 0; i++)
		rc = profile_to_merged(&p[i], err, sizeof(err));
	for (int i = 1; i < 3 && rc == 0; i++)
		rc = profile_merge(&p[0], &p[i], err, sizeof(err));
	if (rc == 0)
		rc = profile_write_mem(&p[0], &buf, &len, err, sizeof(err));
	profile_init(&back);
	if (rc == 0)
		rc = profile_parse(&back, buf, len, err, sizeof(err));
	if (rc == 0)
		rc = merge_add(&d, &back, NULL, "merged", err, sizeof(err));
	if (!ok(rc == 0 && merge_finish(&d, err, sizeof(err)) == 0,
		"the job as a merged profile, written and read back, merges"))
		printf("# %s\n", err);
	else
		ok(d.mpi.nsites == 5 && d.mpi.sites[3].late_receiver_ns == 400 * MS &&
		   d.waits.npairs == 3 && d.waits.pairs[1].late_sender_ns == 700 * MS &&
		   d.waits.nculprits == 2 && d.waits.culprits[0].site == 3 &&
		   d.mpi.ranks[2].clock_drift_ns == 250000,
		   "the same sites, Late Receiver, pairs, culprits and clocks");
	free(buf);
	profile_release(&back);
	for (int i = 0; i < 3; i++)
		profile_release(&p[i]);
	merge_release(&d);
}

/* d's JSON report in file path, for jq. */
static void save_json(const struct rep_data *d, const char *path)
{
	int rc;

	save(path, render(d, (struct rep_opts){ .format = REP_JSON, .view = REP_FLAT, .min_pct = -1.0 }, &rc));
	if (rc)
		printf("# json: rc %d\n", rc);
}

/* The "waits" key: the MPI view's site ids, the figures, no "_comp" key
 * without compensation data and every one with it. */
static void test_json(const char *dir)
{
	char path[512];
	struct rep_data d;

	snprintf(path, sizeof(path), "%s/waits.json", dir);
	if (load_job(&d, false))
		return;
	save_json(&d, path);
	is_str(jq(path, "[.mpi.callsites[] | [.id, .function, .callpath]] == "
		  "[.waits.sites[] | [.id, .function, .callpath]]"), "true",
	       "json: every call site, by the ids, functions and call paths of mpi.callsites");
	is_str(jq(path, "[.waits.sites[] | [.late_sender, .late_sender_wrong_order, .late_receiver, "
		  ".wait_nxn, .wait_barrier, .late_broadcast, .early_reduce, .transmission]] | tojson"),
	       "[[0.6,0.1,0,0,0,0,0,0.2],[0.71,0,0,0,0,0,0,0.09],[0,0,0,0,0,0,0,0],"
	       "[0,0,0.4,0,0,0,0,0.05],[0,0,0,0,0.25,0,0,0]]",
	       "json: wait states, Late Receiver at the Ssend, transmission = blocked - waits "
	       "(0 at the Barrier, whose waits pass its blocked time)");
	is_str(jq(path, ".waits.pairs | tojson"),
	       "[{\"send_site\":3,\"recv_site\":1,\"count\":4,\"bytes\":3008,\"late_sender\":0.6,"
	       "\"late_receiver\":0},{\"send_site\":4,\"recv_site\":2,\"count\":3,\"bytes\":96,"
	       "\"late_sender\":0.7,\"late_receiver\":0.4},{\"send_site\":null,\"recv_site\":2,"
	       "\"count\":1,\"bytes\":4,\"late_sender\":0.01,\"late_receiver\":0.02}]",
	       "json: pairs of sites, the unknown sender null");
	is_str(jq(path, ".waits.culprits | tojson"),
	       "[{\"site\":4,\"late_sender\":0.7},{\"site\":3,\"late_sender\":0.6}]",
	       "json: culprits by the Late Sender time they caused");
	is_str(jq(path, "[.waits | .. | objects | keys[] | select(endswith(\"_comp\"))] | length"),
	       "0", "json: no _comp key without compensation data");
	merge_release(&d);

	if (load_job(&d, true))
		return;
	save_json(&d, path);
	is_str(jq(path, "[.waits.sites[0] | .late_sender_comp, .late_sender_wrong_order_comp, "
		  ".wait_nxn_comp, .wait_barrier_comp, .late_broadcast_comp, .early_reduce_comp, "
		  ".late_receiver_comp, has(\"transmission_comp\")] | tojson"),
	       "[0.5,0.08,0,0,0,0,0,false]", "json with compensation: a _comp key beside each");
	is_str(jq(path, "[.waits.sites[3].late_receiver_comp, .waits.sites[4].wait_barrier_comp, "
		  ".waits.pairs[1].late_sender_comp, .waits.pairs[1].late_receiver_comp, "
		  ".waits.culprits[0].late_sender_comp] | tojson"), "[0.33,0.24,0.65,0.33,0.65]",
	       "json with compensation: the compensated figures");
	merge_release(&d);
}

/* The text view: a table per site with wait states, the most first; the
 * pairs and the culprits; the clock warning past 100 us only. */
static void test_text(void)
{
	struct rep_opts o = { .format = REP_TEXT, .view = REP_WAITS, .min_pct = -1.0 };
	struct rep_data d;
	const char *t;
	int rc;

	if (load_job(&d, false))
		return;
	t = render(&d, o, &rc);
	is_int(rc, 0, "text renders");
	ok(strstr(t, "\n# wait states (docs/waits.md) over 3 ranks: MPI time 3.300 s, 5 call "
		  "sites\n# warning: rank 2's clock drifted +250.0 us from rank 0's between MPI_Init "
		  "and MPI_Finalize (1 rank past 100 us)"), "text: header, the drifted clock named");
	ok(strstr(t, "\n#  site       (1)       (2)       (3)       (4)       (5)       (6)       (7)"
		  "       (8)   %MPI  function and call path\n"), "text: the table's head");
	ok(strstr(t, "\n      4     0.000     0.000     0.000     0.000     0.000     0.000     0.400"
		  "     0.050  12.12  MPI_Ssend  main > exchange\n"),
	   "text: the Ssend's row, its Late Receiver and transmission, % of MPI time waited");
	ok(strstr(t, "\n      2 ") < strstr(t, "\n      1 ") &&
	   strstr(t, "\n      1 ") < strstr(t, "\n      4 ") &&
	   strstr(t, "\n      4 ") < strstr(t, "\n      5 ") && !strstr(t, "\n      3 "),
	   "text: the sites that waited, the most first");
	ok(strstr(t, "\n       4       2            3           96          0.700            0.400\n"
		  "       3       1            4         3008          0.600            0.000\n"
		  "       ?       2            1            4          0.010            0.020\n"),
	   "text: pairs by the time they waited");
	ok(strstr(t, "\n       4          0.700   21.21  MPI_Ssend  main > exchange\n"
		  "       3          0.600   18.18  MPI_Send  main > solve\n"), "text: culprits");
	d.mpi.ranks[2].clock_drift_ns = 100000;
	t = render(&d, o, &rc);
	ok(!strstr(t, "warning"), "text: no warning for a drift of 100 us");
	d.mpi.ranks[1].clock_drift_ns = -150000;
	t = render(&d, o, &rc);
	ok(strstr(t, "# warning: rank 1's clock drifted -150.0 us"), "text: a negative drift past it named");
	merge_release(&d);

	if (load_job(&d, true))
		return;
	t = render(&d, o, &rc);
	ok(strstr(t, "     0.710 ") && strstr(t, "\n   comp     0.660 ") &&
	   strstr(t, "\n       4          0.700   21.21               0.650  MPI_Ssend"),
	   "text with compensation: compensated beside measured");
	merge_release(&d);
}

/* An experiment without wait data: no "waits" key, and the view says
 * why it has nothing to show. */
static void test_none(const char *dir)
{
	struct profile p[3];
	struct rep_data d;
	char path[512], err[ERRLEN];
	int rc = merge_init(&d);

	make_job(p, false);
	for (int i = 0; i < 3; i++) {
		struct profile *q = &p[i];

		for (uint32_t k = 0; k < q->nmpi_sites; k++)
			memset(&q->mpi_sites[k].waits, 0, sizeof(q->mpi_sites[k].waits));
		free(q->mpi_slots);
		free(q->mpi_pairs);
		q->mpi_slots = NULL;
		q->mpi_pairs = NULL;
		q->nmpi_slots = q->nmpi_pairs = 0;
		q->clock_offset_ns = q->clock_drift_ns = 0;
		rc = rc ? rc : merge_add(&d, q, NULL, "rank", err, sizeof(err));
		profile_release(q);
	}
	if (!ok(rc == 0 && merge_finish(&d, err, sizeof(err)) == 0, "a job without wait states"))
		return;
	d.dir = xstrdup("exp-none");
	snprintf(path, sizeof(path), "%s/none.json", dir);
	save_json(&d, path);
	is_str(jq(path, "has(\"waits\")"), "false", "json: no waits key");
	is_str(render(&d, (struct rep_opts){ .format = REP_TEXT, .view = REP_WAITS, .min_pct = -1.0 }, &rc),
	       "exp-none: no wait-state data in this experiment: it is not an MPI program, or its "
	       "ranks did not measure wait states", "--view=waits says there is none");
	is_int(rc, -1, "and fails");
	merge_release(&d);
}

int main(void)
{
	char dir[] = "/tmp/cpperf-test-waits.XXXXXX", cmd[64];

	if (!mkdtemp(dir))
		tap_bail("mkdtemp");
	test_merged();
	test_merged_profile();
	test_json(dir);
	test_text();
	test_none(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_done();
}
